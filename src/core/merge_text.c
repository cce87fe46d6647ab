/*
 * merge_text.c - PUBLISH.md §5.2 blocks 2 and 3, the texts the merge's
 * outcome reads as: the heading of a tier, the next steps by tier and
 * the next action (I7's overrides and placeholders filled through one()).
 */
#include "core/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* --- texts of §5.2 blocks 2 and 3 --- */

static const char *const headings[RV_TIER_COUNT] = {
    "\xE2\x9C\x85 pr-review: PASSED",                  /* ✅ */
    "\xF0\x9F\x9F\xA1 pr-review: PASSED WITH NOTES",   /* 🟡 */
    "\xF0\x9F\x9F\xA0 pr-review: REVIEW BEFORE MERGE", /* 🟠 */
    "\xF0\x9F\x94\xB4 pr-review: BLOCKED",             /* 🔴 */
    "\xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL",     /* ⚠️ */
    "",
};

static void join(struct buf *out, char *const *v, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_adds(out, sep);
		buf_adds(out, v[i]);
	}
}

void merge_heading(struct buf *out, const struct review_input *in,
                   const struct review_model *m)
{
	buf_adds(out, headings[m->tier]);
	if (m->tier != RV_PARTIAL)
		return;
	buf_adds(out, " \xE2\x80\x94 "); /* " — " */
	if (in->nfailures == 1) {
		buf_addf(out, "%s failed", in->failures[0]);
	} else if (in->nfailures > 1) {
		buf_addf(out, "%zu of %zu subagents failed: ", in->nfailures,
		         in->ndispatched);
		join(out, in->failures, in->nfailures, ", ");
	}
	if (m->publish_incomplete)
		buf_adds(out, in->nfailures ? "; publish incomplete"
		                            : "publish incomplete");
}

/* tmpl with every `key` (e.g. "{ids}") replaced by val. */
static void subst(struct buf *out, const char *tmpl, const char *key,
                  const char *val)
{
	size_t klen = strlen(key);

	while (*tmpl) {
		if (strncmp(tmpl, key, klen) == 0) {
			buf_adds(out, val);
			tmpl += klen;
		} else {
			buf_addch(out, *tmpl++);
		}
	}
}

static void open_ids(struct buf *out, const struct review_model *m,
                     enum rv_pcode p)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct rv_finding *f = &m->f[i];

		if (f->p != p || (f->section != RV_SEC_OPEN &&
		                  f->section != RV_SEC_AWAITING))
			continue;
		buf_addf(out, out->len ? "/F%u" : "F%u", f->id);
	}
}

void merge_next_by_tier(struct buf *out, const struct review_input *in,
                        const struct review_model *m)
{
	struct buf v = BUF_INIT(BUF_MAX_DOC);

	if (m->tier == RV_NOOP_TIER)
		return;
	switch (merge_tier(m, in->nfailures, false)) {
	case RV_BLOCKED:
		open_ids(&v, m, RV_P0);
		subst(out, review_string(in, RV_STR_NEXT_BLOCKED), "{ids}",
		      v.ptr);
		break;
	case RV_REVIEW_BEFORE_MERGE:
		open_ids(&v, m, RV_P1);
		subst(out, review_string(in, RV_STR_NEXT_REVIEW), "{ids}",
		      v.ptr);
		break;
	case RV_PASSED_WITH_NOTES:
		buf_adds(out, review_string(in, RV_STR_NEXT_NOTES));
		break;
	case RV_PARTIAL:
		join(&v, in->failures, in->nfailures, ", ");
		subst(out, review_string(in, RV_STR_NEXT_PARTIAL), "{names}",
		      v.ptr);
		break;
	case RV_PASSED:
	case RV_NOOP_TIER:
	case RV_TIER_COUNT:
		break;
	}
	buf_release(&v);
}

static void add_part(struct buf *out, const struct buf *part)
{
	if (!part->len)
		return;
	if (out->len)
		buf_adds(out, "; ");
	rv_one(out, part->ptr, RV_ONE_CAP, false);
}

static bool fmt_count(char *out, size_t size, size_t n)
{
	return snprintf(out, size, "%zu", n) < (int)size;
}

void merge_next_action(struct buf *out, const struct review_input *in,
                       const struct review_model *m, size_t nincomplete,
                       bool status_unwritten)
{
	struct buf all = BUF_INIT(BUF_MAX_DOC);
	struct buf part = BUF_INIT(BUF_MAX_DOC);
	char n[32];

	if (nincomplete > 0 && fmt_count(n, sizeof(n), nincomplete))
		subst(&part, review_string(in, RV_STR_PUBLISH_INCOMPLETE),
		      "{n}", n);
	add_part(&all, &part);
	buf_reset(&part);
	if (status_unwritten)
		buf_adds(&part, review_string(in, RV_STR_STATUS_UNWRITTEN));
	add_part(&all, &part);
	buf_reset(&part);
	if (in->next_action)
		buf_adds(&part, in->next_action);
	else
		merge_next_by_tier(&part, in, m);
	add_part(&all, &part);
	buf_add(out, all.ptr, all.len);
	buf_release(&part);
	buf_release(&all);
}
