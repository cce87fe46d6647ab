/*
 * kind.c - which kind of the machine account's writings a comment is
 * (kind.h). A verdict marker anywhere wins over a first line, so
 * no pr-review write can ever reach a verdict (PUBLISH B1).
 */
#include "core/kind.h"

#include <string.h>

#include "base/util.h"
#include "core/marker.h"

/* Consume `word` (ASCII case-insensitive) at p[*i]. */
static bool eat_word(const char *p, size_t n, size_t *i, const char *word)
{
	size_t k, wn = strlen(word);

	if (n - *i < wn)
		return false;
	for (k = 0; k < wn; k++)
		if (to_lower((unsigned char)p[*i + k]) != word[k])
			return false;
	*i += wn;
	return true;
}

/*
 * A verdict marker at p[i] in any form (N67, N68): `<!--` and, before the
 * comment closes, letters that spell the check marker (`check`), or the
 * needs-human header or a needs-human: line, whatever stands between them
 * — the parser reads every such line as (part of) a verdict, or refuses
 * it, so no pr-review write may treat it as its own.
 */
static bool marker_at(const char *p, size_t n, size_t i, bool check)
{
	struct mview in;
	const char *close;

	if (!eat_word(p, n, &i, "<!--"))
		return false;
	in = mview_of(p + i, n - i);
	if ((close = text_find(in, "-->")))
		in.n = (size_t)(close - in.p);
	if (check)
		return marker_spells(in, "agenticcheck");
	return marker_spells(in, "agenticneedshuman") ||
	       marker_spells(in, "needshuman");
}

/* Which verdict markers a line [p, p+n) holds. */
static void line_markers(const char *p, size_t n, bool *check, bool *nh)
{
	const char *q = p;

	while ((q = memchr(q, '<', (size_t)(p + n - q))) != NULL) {
		size_t i = (size_t)(q - p);

		if (marker_at(p, n, i, true))
			*check = true;
		else if (marker_at(p, n, i, false))
			*nh = true;
		q++;
	}
}

static void scan_markers(const char *body, size_t len, bool *check, bool *nh)
{
	size_t off = 0;

	*check = *nh = false;
	while (off < len) {
		const char *nl = memchr(body + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - body) : len;

		line_markers(body + off, end - off, check, nh);
		off = end + 1;
	}
}

bool kind_has_verdict_marker(const char *untrusted_body, size_t len)
{
	bool check, nh;

	scan_markers(untrusted_body, len, &check, &nh);
	return check || nh;
}

/* Is the first line exactly `marker`, trailing ws and CR allowed? */
static bool first_line_is(const char *body, size_t len, const char *marker)
{
	const char *nl = memchr(body, '\n', len);
	size_t n = nl ? (size_t)(nl - body) : len, m = strlen(marker);

	while (n && (is_ws((unsigned char)body[n - 1]) || body[n - 1] == '\r'))
		n--;
	return n == m && memcmp(body, marker, m) == 0;
}

enum comment_kind comment_kind(enum comment_place where,
			       const char *untrusted_body, size_t len)
{
	bool check, nh;

	if (where == PLACE_REVIEW)
		return first_line_is(untrusted_body, len, KIND_ROOT_MARKER)
			       ? KIND_FINDING_ROOT
			       : KIND_OTHER;
	scan_markers(untrusted_body, len, &check, &nh);
	if (first_line_is(untrusted_body, len, KIND_STICKY_MARKER))
		return check || nh ? KIND_OTHER : KIND_STICKY;
	if (check)
		return KIND_CHECK_VERDICT;
	if (nh)
		return KIND_NEEDS_HUMAN;
	return KIND_OTHER;
}

const char *comment_kind_name(enum comment_kind k)
{
	switch (k) {
	case KIND_OTHER:
		return "other";
	case KIND_CHECK_VERDICT:
		return "check-verdict";
	case KIND_NEEDS_HUMAN:
		return "needs-human-verdict";
	case KIND_STICKY:
		return "pr-review-sticky";
	case KIND_FINDING_ROOT:
		return "pr-review-finding-root";
	}
	return "other";
}
