/*
 * sticky_root_read.c - reading back a thread's root comment (U3): its
 * markers, its title "**F<n> <P> `slug`** · …" and the texts after it
 * (§5.4) that H5 reads. The text is untrusted; core/kind.h decides what
 * kind of comment it is.
 */
#include "formats/sticky.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/marker.h"
#include "formats/sticky_int.h"

/* --- U3: a root --- */

static bool title_ok(struct root_info *r, struct mview l, uint32_t id)
{
	const char *p = l.p, *end = l.p + l.n, *q;
	uint32_t tid;
	int k;

	if (!text_starts(l, "**F"))
		return false;
	p += 2;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q || !sp_id_parse(&tid, p, (size_t)(q - p)) || tid != id)
		return false;
	p = q + 1;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q)
		return false;
	for (k = 0; k < RV_PCODE_COUNT; k++)
		if (strlen(rv_pcode_names[k]) == (size_t)(q - p) &&
		    memcmp(p, rv_pcode_names[k], (size_t)(q - p)) == 0)
			break;
	if (k == RV_PCODE_COUNT || end - q < 2 || q[1] != '`')
		return false;
	p = q + 2;
	q = memchr(p, '`', (size_t)(end - p));
	if (!q || !sp_slug_valid(p, (size_t)(q - p)) ||
	    (size_t)(end - q) < 1 + strlen("**" DOT) ||
	    memcmp(q + 1, "**" DOT, strlen("**" DOT)) != 0)
		return false;
	r->p = (enum rv_pcode)k;
	memcpy(r->slug, p, (size_t)(q - p));
	r->slug[q - p] = '\0';
	return true;
}

#define ROOT_FAILURE_MODE "**Failure mode**: "
#define ROOT_MITIGATION   "**Mitigation**: "
#define ROOT_EVIDENCE     "<details><summary>Evidence</summary>"

/* A line of backticks only, at least three: its length, else 0. */
static size_t fence_of(struct mview l)
{
	size_t i = 0;

	while (i < l.n && l.p[i] == '`')
		i++;
	return i == l.n && i >= 3 ? i : 0;
}

/* The blocks after a root's title (§5.4): the texts H5 reads. */
static void root_texts(struct root_info *out, const char *body, size_t len,
                       size_t off)
{
	struct mview line;
	size_t fence = 0, start = 0;
	int stage = 0; /* 0 fields, 1 before the fence, 2 inside it */

	while (text_next_line(body, len, &off, &line)) {
		struct mview l = text_rstrip(line);

		if (stage == 2) {
			if (l.n == fence && fence_of(l) == fence) {
				size_t end = (size_t)(line.p - body);

				out->evidence.p = body + start;
				out->evidence.n = end > start ? end - start - 1 : 0;
				return;
			}
		} else if (stage == 1) {
			if (!l.n)
				continue;
			if (!(fence = fence_of(l)))
				return;
			start = off;
			stage = 2;
		} else if (text_starts(l, ROOT_FAILURE_MODE) && !out->failure_mode.p) {
			out->failure_mode.p = l.p + strlen(ROOT_FAILURE_MODE);
			out->failure_mode.n = l.n - strlen(ROOT_FAILURE_MODE);
		} else if (text_starts(l, ROOT_MITIGATION) && !out->mitigation.p) {
			out->mitigation.p = l.p + strlen(ROOT_MITIGATION);
			out->mitigation.n = l.n - strlen(ROOT_MITIGATION);
		} else if (text_eq(l, ROOT_EVIDENCE)) {
			stage = 1;
		}
	}
}

void root_parse(struct root_info *out, const char *untrusted_body, size_t len)
{
	struct mview line, v;
	size_t off = 0;
	uint32_t id = 0, x;
	int nhead = 0;
	bool bad = false, head_bad = false, run = true;

	memset(out, 0, sizeof(*out));
	/* U3: the first line is the root marker (core/kind.c; a verdict
	 * marker elsewhere does not matter on the diff, P46). */
	if (comment_kind(PLACE_REVIEW, untrusted_body, len) !=
	        KIND_FINDING_ROOT ||
	    !text_next_line(untrusted_body, len, &off, &line))
		return;
	while (text_next_line(untrusted_body, len, &off, &line)) {
		struct mview l = text_rstrip(line);

		if (run && !l.n) {
			run = false;
			continue;
		}
		if (!run) {
			if (!l.n)
				continue;
			if (!bad && id && title_ok(out, l, id)) {
				out->is_root = true;
				out->id = id;
				root_texts(out, untrusted_body, len, off);
			}
			break;
		}
		if (sp_marker_value(l, "<!-- pr-review:finding-id=", &v)) {
			if (!sp_id_parse(&x, v.p, v.n) || (id && id != x))
				bad = true;
			else
				id = x;
		} else if (sp_marker_value(l, "<!-- pr-review:head=", &v)) {
			char sha[SHA_BUF];
			/* Two heads, or a bad one: no head (so the finding
			 * counts as not yet posted on this head). */
			if (!sha_parse(sha, v.p, v.n) ||
			    (nhead && strcmp(sha, out->head) != 0))
				head_bad = true;
			else if (!nhead++)
				memcpy(out->head, sha, SHA_BUF);
		}
	}
	if (!out->is_root) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->has_head = nhead > 0 && !head_bad;
	if (!out->has_head)
		out->head[0] = '\0';
}
