/*
 * review.c - the tables and lifetimes of the pr-review model (review.h).
 */
#include "core/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rv_pcode_names[RV_PCODE_COUNT] = { "P0", "P1", "P2", "P3",
						      "Q" };
const char *const rv_pcode_emoji[RV_PCODE_COUNT] = {
	"\xF0\x9F\x9A\xA8",         /* 🚨 */
	"\xE2\x9A\xA0\xEF\xB8\x8F", /* ⚠️ */
	"\xF0\x9F\x92\xA1",         /* 💡 */
	"\xF0\x9F\x94\xA7",         /* 🔧 */
	"\xE2\x9D\x93",             /* ❓ */
};
const char *const rv_pcode_labels[RV_PCODE_COUNT] = {
	"\xF0\x9F\x9A\xA8 P0",
	"\xE2\x9A\xA0\xEF\xB8\x8F P1",
	"\xF0\x9F\x92\xA1 P2",
	"\xF0\x9F\x94\xA7 P3",
	"\xE2\x9D\x93 Q",
};
const char *const rv_confidence_names[RV_CONFIDENCE_COUNT] = { "high",
								"medium",
								"low" };
const char *const rv_mode_names[RV_MODE_COUNT] = { "full", "incremental",
						    "noop", "local" };
const char *const rv_disposition_names[RV_DISP_COUNT] = {
	"open",    "likely_fixed", "still_present", "awaiting_decision",
	"follow_up", "wontfix",    "by_design",
};
const char *const rv_section_names[RV_SECTION_COUNT] = { "open", "awaiting",
							  "accepted",
							  "fixed" };
const char *const rv_tier_tokens[RV_TIER_COUNT] = {
	"PASSED", "PASSED_WITH_NOTES", "REVIEW_BEFORE_MERGE",
	"BLOCKED", "PARTIAL",          "NOOP",
};
const char *const rv_thread_names[RV_THREAD_COUNT] = {
	"sticky-only", "posted", "existing", "failed", "dropped", "pending",
};

const char *const rv_string_keys[RV_STRING_COUNT] = {
	"inline_locator",   "force_push_notice", "replies_unavailable",
	"publish_incomplete", "status_unwritten", "next_blocked",
	"next_review",      "next_notes",        "next_partial",
};
const char *const rv_string_defaults[RV_STRING_COUNT] = {
	"{n} findings pinned to source lines (see the Files changed tab)",
	"Prior review base `{last_sha}` is not reachable (force-push?). "
	"This iteration is a full re-review.",
	"Author replies could not be read this iteration; answered findings "
	"may be raised again.",
	"rerun publish; {n} inline thread(s) did not post",
	"rerun publish; the commit status was not written",
	"fix {ids} before merge",
	"fix {ids} or explicitly defer",
	"optional; no blocker",
	"rerun review; {names} failed",
};

const char *review_string(const struct review_input *in, enum rv_string k)
{
	if (in && in->strings[k])
		return in->strings[k];
	return rv_string_defaults[k];
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void rv_finding_release(struct rv_finding *f)
{
	free(f->slug);
	free(f->category);
	free(f->file);
	free(f->blast);
	free(f->justification);
	free(f->failure_mode);
	free(f->mitigation);
	free(f->evidence);
	free(f->details);
	if (f->reply) {
		free(f->reply->kind);
		free(f->reply->reason);
		free(f->reply->recommendation);
		free(f->reply->recommendation_reason);
		free(f->reply);
	}
	if (f->exception) {
		free(f->exception->kind);
		free(f->exception->reason);
		free(f->exception->issue);
		free(f->exception->accepted_by);
		free(f->exception);
	}
	if (f->adjustment) {
		free(f->adjustment->from);
		free(f->adjustment->to);
		free(f->adjustment->reason);
		free(f->adjustment);
	}
	free_strv(f->reported_by, f->nreported_by);
	free(f->reversible);
	free(f->thread_url);
	memset(f, 0, sizeof(*f));
}

void review_input_release(struct review_input *in)
{
	for (size_t i = 0; i < in->nfindings; i++)
		rv_finding_release(&in->findings[i]);
	free(in->findings);
	free(in->base);
	free_strv(in->dispatched, in->ndispatched);
	free_strv(in->failures, in->nfailures);
	free(in->shape_narrative);
	free(in->next_action);
	for (size_t k = 0; k < RV_STRING_COUNT; k++)
		free(in->strings[k]);
	for (size_t i = 0; i < in->nverifications; i++) {
		free(in->verifications[i].verification);
		free(in->verifications[i].note);
	}
	free(in->verifications);
	for (size_t i = 0; i < in->ngaps; i++) {
		struct rv_gap *g = &in->gaps[i];
		free(g->section);
		free(g->title);
		free(g->spec_quote);
		free(g->code_quote);
		free_strv(g->questions, g->nquestions);
		free(g->closing);
	}
	free(in->gaps);
	for (size_t i = 0; i < in->nclean; i++) {
		free(in->clean[i].slug);
		free(in->clean[i].evidence);
	}
	free(in->clean);
	memset(in, 0, sizeof(*in));
}

void review_state_release(struct review_state *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		struct rv_state_row *r = &s->rows[i];
		free(r->blast);
		free(r->justification);
		free(r->slug);
		free(r->file);
		free(r->category);
	}
	free(s->rows);
	free(s->base);
	free_strv(s->clean, s->nclean);
	memset(s, 0, sizeof(*s));
}

const struct rv_finding *review_find(const struct rv_finding *f, size_t n,
				     uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].id == id)
			return &f[i];
	return NULL;
}

const struct rv_verification *
rv_verification_of(const struct review_input *in, uint32_t id)
{
	for (size_t i = 0; i < in->nverifications; i++)
		if (in->verifications[i].prior_id == id)
			return &in->verifications[i];
	return NULL;
}

bool rv_thread_unfinished(enum rv_thread t)
{
	return t == RV_THREAD_FAILED || t == RV_THREAD_DROPPED ||
	       t == RV_THREAD_PENDING;
}

const char *rv_tier_state(enum rv_tier tier)
{
	return tier == RV_PASSED || tier == RV_PASSED_WITH_NOTES ? "success"
								 : "failure";
}

size_t rv_codepoints(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

/* Bytes of the first `cp` code points of s. */
static size_t prefix_bytes(const char *s, size_t len, size_t cp)
{
	size_t i = 0;
	while (i < len) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (cp == 0)
				break;
			cp--;
		}
		i++;
	}
	return i;
}

void rv_one(struct buf *out, const char *s, size_t cap, bool cell)
{
	size_t len = s ? strlen(s) : 0;
	bool cut = cap > 0 && rv_codepoints(s, len) > cap;
	size_t keep = cut ? prefix_bytes(s, len, cap - 1) : len;
	struct buf t;

	/* First LF → space and the cap, then the escapes over the result:
	 * a cut can never leave half an escape behind. */
	buf_init(&t, BUF_MAX_DOC);
	for (size_t i = 0; i < keep; i++)
		buf_addch(&t, s[i] == '\n' ? ' ' : s[i]);
	if (cut)
		buf_adds(&t, "\xE2\x80\xA6"); /* … */
	for (size_t i = 0; i < t.len; i++) {
		const char *p = t.ptr + i;
		if (t.len - i >= 4 && memcmp(p, "<!--", 4) == 0) {
			buf_adds(out, "&lt;!--");
			i += 3;
		} else if (t.len - i >= 3 && memcmp(p, "-->", 3) == 0) {
			buf_adds(out, "--&gt;");
			i += 2;
		} else if (cell && *p == '|') {
			buf_adds(out, "\\|");
		} else {
			buf_addch(out, *p);
		}
	}
	buf_release(&t);
}

const char *rv_fid(char out[RV_FID_BUF], uint32_t id)
{
	if (snprintf(out, RV_FID_BUF, "F%u", (unsigned)id) >= RV_FID_BUF)
		out[0] = '\0'; /* cannot happen: 10 digits at most */
	return out;
}
