/*
 * sticky_parse.c - reading back the comments this program wrote: the
 * sticky's markers (U1, U2), its state block (§5.3) or, for a version-2
 * sticky without one, its rows (H5); and a root's markers and title (U3).
 *
 * The text is untrusted: any author can write a comment that looks like a
 * sticky, and the conductor's verdicts (same account) may quote one. So
 * the reading is strict. Which kind a comment is comes from core/kind.h
 * alone (B1: the sticky marker is the first line, and a verdict marker
 * anywhere makes a verdict); the other marker lines must be whole lines
 * (trailing whitespace and CR aside) outside fenced code, found by the
 * one fence scanner the verdict parser uses (core/marker.h); a state
 * block that is not exactly what sticky_render() writes is no state.
 * The state block's lines are read in sticky_state.c, a root in
 * sticky_root_read.c; the markers and the rows of H5 here.
 */
#include "formats/sticky.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/marker.h"
#include "formats/sticky_int.h"

/* The value of a marker line `<!-- pr-review:<key>=<value> -->`. */
bool sp_marker_value(struct mview l, const char *prefix, struct mview *v)
{
	size_t n = strlen(prefix);

	if (!text_starts(l, prefix) || l.n < n + 4 ||
	    memcmp(l.p + l.n - 4, " -->", 4) != 0)
		return false;
	*v = mview_of(l.p + n, l.n - n - 4);
	return true;
}

bool sp_slug_valid(const char *s, size_t n)
{
	if (n == 0 || n > RV_MAX_SLUG || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '-' ? s[i + 1] == '-'
		             : !(is_digit(c) || (c >= 'a' && c <= 'z')))
			return false;
	}
	return true;
}

/* "F<n>": ^F[1-9][0-9]{0,5}$ */
bool sp_id_parse(uint32_t *out, const char *s, size_t n)
{
	int64_t v;

	if (n < 2 || n > 7 || s[0] != 'F' || s[1] == '0' ||
	    parse_decimal(&v, s + 1, n - 1, RV_MAX_ID) || v < 1)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* --- markers --- */

static void sha_line(struct sp_scan *s, struct mview v)
{
	char sha[SHA_BUF];

	if (!sha_parse(sha, v.p, v.n) ||
	    (s->nsha && memcmp(s->sha, sha, SHA_BUF) != 0)) {
		s->bad_marker = true;
		return;
	}
	if (!s->nsha++)
		memcpy(s->sha, sha, SHA_BUF);
}

static void status_line(struct sp_scan *s, struct mview v)
{
	int t = -1;

	for (int i = 0; i < RV_NOOP_TIER; i++)
		if (v.n == strlen(rv_tier_tokens[i]) &&
		    memcmp(v.p, rv_tier_tokens[i], v.n) == 0)
			t = i;
	if (t < 0 || (s->nstatus && s->status != t)) {
		s->bad_marker = true;
		return;
	}
	if (!s->nstatus++)
		s->status = t;
}

static void version_line(struct sp_scan *s, struct mview v)
{
	int64_t n;

	if (v.n == 0 || v.p[0] == '0' || parse_decimal(&n, v.p, v.n, 1000) ||
	    (s->nversion && s->version != (int)n)) {
		s->version = -1;
		s->nversion = 1; /* stays -1 */
		return;
	}
	if (!s->nversion++)
		s->version = (int)n;
}

static void outside_line(struct sp_scan *s, struct mview l)
{
	struct mview v;

	if (sp_marker_value(l, "<!-- pr-review:sha=", &v))
		sha_line(s, v);
	else if (sp_marker_value(l, "<!-- pr-review:status=", &v))
		status_line(s, v);
	else if (sp_marker_value(l, "<!-- pr-review:version=", &v))
		version_line(s, v);
	else if (text_starts(l, "<!-- pr-review:sha=") ||
	         text_starts(l, "<!-- pr-review:status="))
		s->bad_marker = true; /* a near-miss is never ignored */
	else if (text_starts(l, STATE_OPEN)) {
		if (s->state || !sp_state_header(&s->st, l)) {
			s->bad = true;
			s->state = 2;
		} else {
			s->state = 1;
		}
	}
}

/* --- H5: the rows of a state-less version-2 sticky --- */

struct rows_scan {
	int section; /* -1: not in blocks 6-8 */
	size_t alloc;
};

/* `<file>[:<start>[-<end>]]` */
static void parse_loc(struct rv_state_row *r, struct mview v)
{
	size_t i = v.n, dash = 0;
	int64_t a, b;

	while (i && is_digit(v.p[i - 1]))
		i--;
	if (i < v.n && i && v.p[i - 1] == '-') {
		dash = i - 1;
		i = dash;
		while (i && is_digit(v.p[i - 1]))
			i--;
	}
	/* A location names a file: `:5` alone is a file name, not lines. */
	if (i < v.n && i > 1 && v.p[i - 1] == ':' && i < (dash ? dash : v.n) &&
	    !parse_decimal(&a, v.p + i, (dash ? dash : v.n) - i, INT32_MAX) &&
	    a > 0) {
		b = a;
		if (dash && parse_decimal(&b, v.p + dash + 1, v.n - dash - 1,
		                          INT32_MAX))
			b = 0;
		if (b >= a) {
			r->line_start = a;
			r->line_end = b;
			v.n = i - 1;
		}
	}
	if (v.n)
		r->file = xstrndup(v.p, v.n);
}

static void parse_thread(struct rv_state_row *r, struct mview t)
{
	static const char key[] = "#discussion_r";
	int64_t id;

	r->thread = RV_THREAD_STICKY_ONLY;
	if (text_starts(t, "[thread](") && t.n && t.p[t.n - 1] == ')') {
		struct mview u = mview_of(t.p + 9, t.n - 10);
		for (size_t i = 0; i + sizeof(key) - 1 <= u.n; i++) {
			if (memcmp(u.p + i, key, sizeof(key) - 1) != 0)
				continue;
			i += sizeof(key) - 1;
			if (!parse_decimal(&id, u.p + i, u.n - i,
			                   JSON_MAX_INT) &&
			    id > 0) {
				r->thread = RV_THREAD_EXISTING;
				r->root_id = id;
			}
			return;
		}
	} else if (text_starts(t, E_WARN " thread failed to post")) {
		r->thread = RV_THREAD_FAILED;
	} else if (text_starts(t, E_WARN " thread not posted")) {
		r->thread = RV_THREAD_DROPPED;
	} else if (text_starts(t, E_HOURGLASS " thread pending")) {
		r->thread = RV_THREAD_PENDING;
	}
}

/* The last occurrence of needle in v, or NULL. */
static const char *last_of(struct mview v, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = v.n; i >= n; i--)
		if (memcmp(v.p + i - n, needle, n) == 0)
			return v.p + i - n;
	return NULL;
}

/* `- **F<n>** <P> `<slug>`…` */
static void rows_row(struct review_state *st, struct rows_scan *rs,
                     struct mview l)
{
	struct rv_state_row r;
	const char *p = l.p + 4, *end = l.p + l.n, *q;
	int k;

	memset(&r, 0, sizeof(r));
	q = memchr(p, '*', (size_t)(end - p));
	if (!q || !sp_id_parse(&r.id, p, (size_t)(q - p)) || end - q < 4 ||
	    memcmp(q, "** ", 3) != 0)
		return;
	p = q + 3;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q)
		return;
	for (k = 0; k < RV_PCODE_COUNT; k++)
		if (strlen(rv_pcode_names[k]) == (size_t)(q - p) &&
		    memcmp(p, rv_pcode_names[k], (size_t)(q - p)) == 0)
			break;
	if (k == RV_PCODE_COUNT || end - q < 2 || q[1] != '`')
		return;
	r.p = (enum rv_pcode)k;
	p = q + 2;
	q = memchr(p, '`', (size_t)(end - p));
	if (!q || !sp_slug_valid(p, (size_t)(q - p)))
		return;
	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].id == r.id)
			return;
	r.slug = xstrndup(p, (size_t)(q - p));
	r.section = (enum rv_section)rs->section;
	r.confidence = RV_HIGH;
	p = q + 1;
	if (rs->section != RV_SEC_ACCEPTED) {
		struct mview rest = mview_of(p, (size_t)(end - p));
		const char *dot = last_of(rest, DOT);
		struct mview loc = rest;

		if (dot) {
			parse_thread(
			    &r, mview_of(dot + strlen(DOT),
			                 (size_t)(end - dot) - strlen(DOT)));
			loc.n = (size_t)(dot - p);
		}
		if (text_starts(loc, DASH))
			parse_loc(&r, mview_of(loc.p + strlen(DASH),
			                       loc.n - strlen(DASH)));
	}
	ALLOC_GROW(st->rows, st->nrows + 1, rs->alloc);
	st->rows[st->nrows++] = r;
}

static void rows_line(struct review_state *st, struct rows_scan *rs,
                      struct mview l)
{
	if (text_starts(l, "## " E_CLIPBOARD " Currently open ("))
		rs->section = RV_SEC_OPEN;
	else if (text_starts(l, "## " E_PAUSE " Awaiting your decision ("))
		rs->section = RV_SEC_AWAITING;
	else if (text_starts(l, "<details><summary>" E_HOOK
	                        " Accepted exceptions"))
		rs->section = RV_SEC_ACCEPTED;
	else if (text_starts(l, "#") || text_starts(l, "<details>") ||
	         text_starts(l, "</details>") || text_eq(l, "---"))
		rs->section = -1;
	else if (rs->section < 0 || st->nrows == STICKY_MAX_ROWS)
		return;
	else if (text_starts(l, "- " E_WRENCH " ") ||
	         text_starts(l, "- " E_QUESTION " "))
		st->complete = false;
	else if (text_starts(l, "- **F"))
		rows_row(st, rs, l);
}

static uint32_t rows_max(const struct review_state *st)
{
	uint32_t max = 0;

	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].id > max)
			max = st->rows[i].id;
	return max;
}

static void parse_rows(struct review_state *st, const char *body, size_t len)
{
	struct marker_fence fence;
	struct rows_scan rs = {-1, 0};
	struct mview line;
	size_t off = 0, no = 0;

	memset(&fence, 0, sizeof(fence));
	st->from_rows = true;
	st->complete = true;
	while (text_next_line(body, len, &off, &line)) {
		if (marker_fence_line(&fence, line, ++no))
			continue;
		rows_line(st, &rs, text_rstrip(line));
	}
}

int sticky_parse(struct sticky_info *out, const char *untrusted_body,
                 size_t len)
{
	struct sp_scan s;
	struct marker_fence fence;
	struct mview line;
	size_t off = 0, no = 0;

	memset(out, 0, sizeof(*out));
	memset(&fence, 0, sizeof(fence));
	if (rv_codepoints(untrusted_body, len) > RV_BODY_LIMIT)
		return AA_ERR;
	memset(&s, 0, sizeof(s));
	s.out = out;
	/* U1 with B1: the first line is the marker, and no verdict marker
	 * stands anywhere (core/kind.h decides, for every command). */
	out->is_sticky = comment_kind(PLACE_ISSUE, untrusted_body, len) ==
	                 KIND_STICKY;
	while (text_next_line(untrusted_body, len, &off, &line)) {
		bool fenced = marker_fence_line(&fence, line, ++no);
		struct mview l = text_rstrip(line);

		/* A state row never looks like a fence; one that does is
		 * malformed, so the block is read whatever the scanner says. */
		if (s.state == 1)
			sp_state_line(&s, l);
		else if (!fenced)
			outside_line(&s, l);
	}
	if (s.state == 1)
		s.bad = true; /* never closed */
	out->version = s.version > 0 ? s.version : 0;
	out->markers_ok = !s.bad_marker && s.nsha > 0 && s.nstatus > 0;
	if (out->markers_ok) {
		memcpy(out->sha, s.sha, SHA_BUF);
		out->status = (enum rv_tier)s.status;
	}
	out->state_malformed = s.bad;
	if (s.state == 2 && !s.bad) {
		out->state = s.st;
		out->state.present = true;
		out->state.complete = true;
		if (out->is_sticky && out->version == STICKY_VERSION) {
			struct review_state rows = {0};

			parse_rows(&rows, untrusted_body, len);
			out->rows_max_id = rows_max(&rows);
			review_state_release(&rows);
		}
		return 0;
	}
	review_state_release(&s.st);
	if (out->is_sticky && out->version == STICKY_VERSION) {
		parse_rows(&out->state, untrusted_body, len);
		out->rows_max_id = rows_max(&out->state);
		/* The rows never hold all a state block held (collapsed
		 * nits, next=): after a broken block they are a floor. */
		if (out->state_malformed)
			out->state.complete = false;
	}
	return 0;
}

void sticky_info_release(struct sticky_info *s)
{
	review_state_release(&s->state);
	memset(s, 0, sizeof(*s));
}
