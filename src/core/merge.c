/*
 * merge.c - PUBLISH.md §4: the mechanical half of the seed's merge rule.
 * The LLM judged each finding; this file only applies what needs no
 * judgement, in the order the seed applies it: the confidence demote
 * (M1), the exact-key dedup (M2), carry-forward (M3), which acceptances
 * and fixes count (M4, M5), the section (M6), the tier (M7) and the sort
 * (M8); plus the iteration (M9), `next` (§5.3) and the I5 id check.
 * The texts of the sticky's blocks 2 and 3 are in merge_text.c.
 * Fail-closed: a claim the rules cannot verify leaves a finding open.
 */
#include "core/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define DEMOTE_REASON "confidence: low (merge rule step 2)"
#define SEP           " \xC2\xB7 " /* " · " */

void review_model_release(struct review_model *m)
{
	for (size_t i = 0; i < m->n; i++)
		rv_finding_release(&m->f[i]);
	free(m->f);
	free(m->merged);
	strv_free(m->reasons, m->nreasons);
	memset(m, 0, sizeof(*m));
}

/* Append " · " and then s to a heap string (NULL or "" gets just s). */
bool review_model_incomplete(const struct review_model *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (rv_thread_unfinished(m->f[i].thread))
			return true;
	return false;
}

static void append_reason(char **r, const char *s)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);

	if (*r && **r) {
		buf_adds(&b, *r);
		buf_adds(&b, SEP);
	}
	buf_adds(&b, s);
	free(*r);
	*r = buf_detach(&b, NULL);
}

/* --- M1 --- */

/* Step 2 of the seed's merge rule: a low-confidence finding is a
 * question, whatever its base severity (terminal: nothing after M1
 * raises it but M2, which keeps another finding's rank). */
static void demote(struct rv_finding *f)
{
	struct rv_adjustment *a = f->adjustment;

	if (f->confidence != RV_LOW || f->p == RV_Q)
		return;
	if (!a) {
		a = f->adjustment = xcalloc(1, sizeof(*a));
		a->from = xstrdup(rv_pcode_labels[f->p]);
	}
	free(a->to);
	a->to = xstrdup(rv_pcode_labels[RV_Q]);
	append_reason(&a->reason, DEMOTE_REASON);
	f->p = RV_Q;
}

/* --- M2 --- */

/* A "prior" finding: in the trusted prior state; in local mode, one the
 * caller verified (§7.5: prior = prior_verifications). */
static bool is_prior(uint32_t id, const struct review_input *in,
                     const struct merge_ctx *ctx)
{
	if (ctx->local)
		return rv_verification_of(in, id) != NULL;
	if (!ctx->prior)
		return false;
	for (size_t i = 0; i < ctx->prior->nrows; i++)
		if (ctx->prior->rows[i].id == id)
			return true;
	return false;
}

static bool has_key(const struct rv_finding *f)
{
	return f->file && f->line_start > 0;
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* The dedup key (file, line_start, line_end, slug). */
static int key_cmp(const struct rv_finding *a, const struct rv_finding *b)
{
	int c = strcmp(a->file, b->file);

	if (!c)
		c = cmp_i64(a->line_start, b->line_start);
	if (!c)
		c = cmp_i64(a->line_end, b->line_end);
	if (!c)
		c = strcmp(a->slug, b->slug);
	return c;
}

/* A finding of the model and its index, sorted by key, then id. */
struct keyed {
	const struct rv_finding *f;
	size_t i;
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = key_cmp(a->f, b->f);

	return c ? c : cmp_i64(a->f->id, b->f->id);
}

/* Does a outrank b as a survivor: rank, then confidence, then id? */
static bool outranks(const struct rv_finding *a, const struct rv_finding *b)
{
	if (a->p != b->p)
		return a->p < b->p;
	if (a->confidence != b->confidence)
		return a->confidence < b->confidence;
	return a->id < b->id;
}

/* The survivor takes the group's highest rank (M2): its adjustment's
 * `to` follows. Without one none is made up: a raise is the seed's "keep
 * the highest base severity", not an adjustment (those are downgrades),
 * and the merge itself is in the reasons. */
static void take_rank(struct rv_finding *s, enum rv_pcode p)
{
	if (s->adjustment) {
		free(s->adjustment->to);
		s->adjustment->to = xstrdup(rv_pcode_labels[p]);
	}
	s->p = p;
}

static void union_reporters(struct rv_finding *s, const struct rv_finding *d)
{
	for (size_t i = 0; i < d->nreported_by; i++) {
		bool seen = false;

		for (size_t j = 0; j < s->nreported_by && !seen; j++)
			seen =
			    strcmp(s->reported_by[j], d->reported_by[i]) == 0;
		if (!seen)
			strv_addf(&s->reported_by, &s->nreported_by, "%s",
			          d->reported_by[i]);
	}
}

/* One group of k >= 2 findings (indices into m->f, ascending id). */
static int merge_group(struct review_model *m, const size_t *g, size_t k,
                       bool *drop, size_t *nalloc,
                       const struct review_input *in,
                       const struct merge_ctx *ctx, struct buf *err)
{
	struct rv_finding *f = m->f;
	size_t s = k, best = 0;

	for (size_t i = 0; i < k; i++) {
		if (is_prior(f[g[i]].id, in, ctx)) {
			if (s < k) {
				buf_setf(err,
				         "F%u and F%u are both prior findings "
				         "with the same file, lines and slug "
				         "(M2)",
				         f[g[s]].id, f[g[i]].id);
				return AA_EUSAGE;
			}
			s = i;
		}
		if (outranks(&f[g[i]], &f[g[best]]))
			best = i;
	}
	if (s == k)
		s = best;
	if (f[g[best]].p < f[g[s]].p)
		take_rank(&f[g[s]], f[g[best]].p);
	for (size_t i = 0; i < k; i++) {
		if (i == s)
			continue;
		union_reporters(&f[g[s]], &f[g[i]]);
		drop[g[i]] = true;
		ALLOC_GROW(m->merged, m->nmerged + 1, *nalloc);
		m->merged[m->nmerged].from = f[g[i]].id;
		m->merged[m->nmerged++].into = f[g[s]].id;
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u merged into F%u (same file, lines and slug)",
		          f[g[i]].id, f[g[s]].id);
	}
	return AA_OK;
}

static int dedup(struct review_model *m, const struct review_input *in,
                 const struct merge_ctx *ctx, struct buf *err)
{
	size_t sz = m->n ? m->n : 1;
	struct keyed *by_key = xcalloc(sz, sizeof(*by_key));
	size_t *idx = xcalloc(sz, sizeof(*idx));
	bool *drop = xcalloc(sz, sizeof(*drop));
	size_t nidx = 0, nalloc = 0, kept = 0;
	int error = AA_OK;

	for (size_t i = 0; i < m->n; i++)
		if (has_key(&m->f[i]))
			by_key[nidx++] = (struct keyed){&m->f[i], i};
	qsort(by_key, nidx, sizeof(*by_key), keyed_cmp);
	for (size_t i = 0; i < nidx; i++)
		idx[i] = by_key[i].i;
	for (size_t i = 0; i < nidx && !error;) {
		size_t k = 1;

		while (i + k < nidx && !key_cmp(by_key[i].f, by_key[i + k].f))
			k++;
		if (k > 1)
			error = merge_group(m, idx + i, k, drop, &nalloc, in,
			                    ctx, err);
		i += k;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (drop[i] && !error)
			rv_finding_release(&m->f[i]);
		else
			m->f[kept++] = m->f[i];
	}
	m->n = kept;
	free(by_key);
	free(idx);
	free(drop);
	return error;
}

/* --- M3 --- */

static void carry_row(struct rv_finding *f, const struct rv_state_row *r)
{
	memset(f, 0, sizeof(*f));
	f->id = r->id;
	f->p = r->p;
	f->slug = xstrdup(r->slug ? r->slug : "");
	f->category = xstrdup(r->category ? r->category : "");
	f->file = xstrdup_or_null(r->file);
	f->line_start = r->file ? r->line_start : 0;
	f->line_end = r->file ? r->line_end : 0;
	f->confidence = r->confidence;
	f->blast = xstrdup(r->blast ? r->blast : "");
	f->justification = xstrdup(r->justification ? r->justification : "");
	/* The state block does not hold them (§5.3). */
	f->failure_mode = xstrdup("");
	f->mitigation = xstrdup("");
	f->evidence = xstrdup("");
	f->disposition = RV_DISP_OPEN;
	f->section = RV_SEC_OPEN;
	f->carried = true;
	f->root_id = r->root_id;
}

/* Never remove a finding (L1009): what the prior iteration left open and
 * this input does not mention stays open. */
static void carry_forward(struct review_model *m, const struct review_input *in,
                          const struct merge_ctx *ctx)
{
	const struct review_state *st = ctx->prior;
	size_t alloc = m->n;

	if (ctx->local || in->mode != RV_INCREMENTAL || !st)
		return;
	for (size_t i = 0; i < st->nrows; i++) {
		const struct rv_state_row *r = &st->rows[i];

		if (r->section != RV_SEC_OPEN && r->section != RV_SEC_AWAITING)
			continue;
		if (review_find(m->f, m->n, r->id))
			continue;
		ALLOC_GROW(m->f, m->n + 1, alloc);
		carry_row(&m->f[m->n++], r);
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u carried forward from the prior state (absent "
		          "from the findings input)",
		          r->id);
	}
}

/* --- M4, M5, M6 --- */

/* M4: NULL when the acceptance counts, else why not. */
static const char *refuse_acceptance(const struct rv_finding *f,
                                     const struct merge_ctx *ctx)
{
	const char *by;

	if (!f->exception)
		return "there is no accepted_exception";
	by = f->exception->accepted_by;
	if (!by || !*by)
		return "accepted_by is empty";
	if (ctx->local)
		return NULL;
	if (!ctx->pr_author)
		return "the PR author is unknown";
	if (!ctx->review_login)
		return "review_login is unknown";
	if (str_eq_nocase(by, ctx->pr_author))
		return "accepted_by is the PR author";
	if (str_eq_nocase(by, ctx->review_login))
		return "accepted_by is review_login";
	return NULL;
}

/* M5: NULL when the fix counts, else why not. */
static const char *refuse_fix(const struct rv_finding *f,
                              const struct review_input *in,
                              const struct merge_ctx *ctx)
{
	const struct rv_verification *v;

	if (f->disposition != RV_DISP_LIKELY_FIXED)
		return "its disposition is not likely_fixed";
	if (!ctx->local && !is_prior(f->id, in, ctx))
		return "it is not in the prior state";
	v = rv_verification_of(in, f->id);
	if (!v)
		return "prior_verifications has no entry for it";
	if (!v->verification || strcmp(v->verification, "yes") != 0)
		return "prior_verifications does not say yes";
	return NULL;
}

static bool claims_acceptance(enum rv_disposition d)
{
	return d == RV_DISP_FOLLOW_UP || d == RV_DISP_WONTFIX ||
	       d == RV_DISP_BY_DESIGN;
}

static enum rv_disposition disposition_of_kind(const char *kind)
{
	for (int d = 0; kind && d < RV_DISP_COUNT; d++)
		if (claims_acceptance((enum rv_disposition)d) &&
		    strcmp(rv_disposition_names[d], kind) == 0)
			return (enum rv_disposition)d;
	return RV_DISP_FOLLOW_UP; /* the parser admits no other kind */
}

static void decide(struct review_model *m, struct rv_finding *f,
                   const struct review_input *in, const struct merge_ctx *ctx)
{
	const char *no_accept = refuse_acceptance(f, ctx);
	const char *no_fix = refuse_fix(f, in, ctx);
	enum rv_disposition d = f->disposition;

	f->accepted = !no_accept;
	f->fixed = !no_fix;
	if (f->accepted)
		f->section = RV_SEC_ACCEPTED;
	else if (f->fixed)
		f->section = RV_SEC_FIXED;
	else if (f->reply)
		f->section = RV_SEC_AWAITING;
	else
		f->section = RV_SEC_OPEN;

	if (f->exception && !f->accepted)
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u: its accepted_exception does not count: %s "
		          "(M4)",
		          f->id, no_accept);
	else if (claims_acceptance(d) && !f->accepted)
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u: disposition %s, but %s: %s (M4)", f->id,
		          rv_disposition_names[d], no_accept,
		          rv_section_names[f->section]);
	if (d == RV_DISP_LIKELY_FIXED && !f->fixed)
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u: disposition likely_fixed, but %s: %s (M5)",
		          f->id, no_fix, rv_section_names[f->section]);
	if (f->accepted && !claims_acceptance(d))
		strv_addf(&m->reasons, &m->nreasons,
		          "F%u: accepted by its accepted_exception although "
		          "its disposition is %s (M4)",
		          f->id, rv_disposition_names[d]);

	/* The disposition a reader of the output sees agrees with the
	 * section: a refused claim never reads as accepted or fixed. */
	if (f->accepted && !claims_acceptance(d))
		f->disposition = disposition_of_kind(f->exception->kind);
	else if (!f->accepted && !f->fixed &&
	         (claims_acceptance(d) || d == RV_DISP_LIKELY_FIXED))
		f->disposition =
		    f->reply ? RV_DISP_AWAITING_DECISION : RV_DISP_OPEN;
}

static void count(struct review_model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct rv_finding *f = &m->f[i];

		switch (f->section) {
		case RV_SEC_OPEN:
			m->open_counts[f->p]++;
			m->awaiting_author++;
			break;
		case RV_SEC_AWAITING:
			m->open_counts[f->p]++;
			m->awaiting_decision++;
			break;
		case RV_SEC_ACCEPTED:
			m->naccepted++;
			break;
		case RV_SEC_FIXED:
			m->nfixed++;
			break;
		case RV_SECTION_COUNT:
			break;
		}
	}
}

/* M7's refusal: every dispatched subagent is among the failures. */
static bool all_failed(const struct review_input *in)
{
	if (!in->has_dispatched || in->ndispatched == 0)
		return false;
	for (size_t i = 0; i < in->ndispatched; i++) {
		bool failed = false;

		for (size_t j = 0; j < in->nfailures && !failed; j++)
			failed =
			    strcmp(in->dispatched[i], in->failures[j]) == 0;
		if (!failed)
			return false;
	}
	return true;
}

int merge_run(struct review_model *out, struct review_input *in,
              const struct merge_ctx *ctx, struct buf *err)
{
	int error;

	memset(out, 0, sizeof(*out));
	out->f = in->findings;
	out->n = in->nfindings;
	in->findings = NULL;
	in->nfindings = 0;
	out->publish_incomplete = ctx->publish_incomplete;
	out->all_failed = all_failed(in);

	for (size_t i = 0; i < out->n; i++)
		demote(&out->f[i]);
	error = dedup(out, in, ctx, err);
	if (error) {
		review_model_release(out);
		return error;
	}
	carry_forward(out, in, ctx);
	for (size_t i = 0; i < out->n; i++)
		if (!out->f[i].carried)
			decide(out, &out->f[i], in, ctx);
	if (out->n)
		qsort(out->f, out->n, sizeof(*out->f), merge_cmp);
	count(out);
	out->tier = merge_tier(out, in->nfailures, ctx->publish_incomplete);
	out->next_id = merge_next_id(out, ctx->prior, NULL, 0);
	return AA_OK;
}

enum rv_tier merge_tier(const struct review_model *m, size_t nfailures,
                        bool publish_incomplete)
{
	size_t open = 0;

	for (int p = 0; p < RV_PCODE_COUNT; p++)
		open += m->open_counts[p];
	if (nfailures > 0 || publish_incomplete)
		return RV_PARTIAL;
	if (m->open_counts[RV_P0])
		return RV_BLOCKED;
	if (m->open_counts[RV_P1])
		return RV_REVIEW_BEFORE_MERGE;
	if (open || m->naccepted)
		return RV_PASSED_WITH_NOTES;
	return RV_PASSED;
}

int merge_cmp(const void *pa, const void *pb)
{
	const struct rv_finding *a = pa, *b = pb;
	int c;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (!a->file != !b->file)
		return a->file ? -1 : 1;
	if (a->file && (c = strcmp(a->file, b->file)))
		return c;
	if ((a->line_start > 0) != (b->line_start > 0))
		return a->line_start > 0 ? -1 : 1;
	if ((c = cmp_i64(a->line_start, b->line_start)))
		return c;
	return cmp_i64(a->id, b->id);
}

/* --- M9, next, I5 --- */

int64_t merge_iteration(bool trusted, bool has_state, int64_t state_iteration,
                        const char *sticky_sha, const char *head)
{
	int64_t it;

	if (!trusted)
		return 1;
	it = has_state && state_iteration >= 1 ? state_iteration : 1;
	if ((!sticky_sha || !head || !str_eq_nocase(sticky_sha, head)) &&
	    it < INT64_MAX)
		it++;
	return it;
}

uint32_t merge_next_id(const struct review_model *m,
                       const struct review_state *prior, const uint32_t *extra,
                       size_t nextra)
{
	uint32_t max = prior && prior->next > 0 ? prior->next - 1 : 0;

	for (size_t i = 0; m && i < m->n; i++)
		if (m->f[i].id > max)
			max = m->f[i].id;
	for (size_t i = 0; i < nextra; i++)
		if (extra[i] > max)
			max = extra[i];
	return max < UINT32_MAX ? max + 1 : max;
}

static const struct rv_state_row *state_row(const struct review_state *s,
                                            uint32_t id)
{
	for (size_t i = 0; s && i < s->nrows; i++)
		if (s->rows[i].id == id)
			return &s->rows[i];
	return NULL;
}

static int check_id(const struct rv_finding *f,
                    const struct review_state *prior,
                    const struct merge_root *roots, size_t nroots,
                    struct buf *err)
{
	const struct rv_state_row *r = state_row(prior, f->id);

	if (prior && prior->present && !prior->from_rows && !r &&
	    f->id < prior->next) {
		buf_setf(err,
		         "F%u is not in the prior state but below its next=%u "
		         "(I5: F-ids are permanent)",
		         f->id, prior->next);
		return AA_EUSAGE;
	}
	for (size_t i = 0; i < nroots; i++) {
		if (roots[i].id == f->id &&
		    (!roots[i].slug || strcmp(roots[i].slug, f->slug) != 0)) {
			buf_setf(err,
			         "F%u has an inline root of another slug "
			         "(I5: F-ids are permanent)",
			         f->id);
			return AA_EUSAGE;
		}
	}
	if (r && (!r->slug || strcmp(r->slug, f->slug) != 0)) {
		buf_setf(err,
		         "F%u has a prior-state row of another slug (I5: "
		         "F-ids are permanent)",
		         f->id);
		return AA_EUSAGE;
	}
	return AA_OK;
}

int merge_check_ids(const struct review_model *m,
                    const struct review_state *prior,
                    const struct merge_root *roots, size_t nroots,
                    struct buf *err)
{
	for (size_t i = 0; i < m->n; i++) {
		int error = check_id(&m->f[i], prior, roots, nroots, err);

		if (error)
			return error;
	}
	return AA_OK;
}
