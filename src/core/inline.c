/*
 * inline.c - PUBLISH.md §4.1 steps 1–3 (inline.h): which open findings get
 * an inline thread this run. A thread is only attempted on a line GitHub
 * can place it on (step 1, X12), P2s stop after the ramp's iterations
 * (step 2, X9, L616) and share what the cap leaves after P0/P1 and this
 * head's earlier threads (step 3, L618), so a rerun posts no more than
 * the first run could.
 */
#include "core/inline.h"

#include <stdlib.h>
#include <string.h>

const char INLINE_NO_ANCHOR[] = "no line anchor";
const char INLINE_NOT_IN_DIFF[] = "line not in diff";
const char INLINE_RAMP[] = "iteration ramp";
const char INLINE_CAP[] = "volume cap";

static bool root_is_of(const struct inline_root *r, const struct rv_finding *f)
{
	return r->id == f->id && r->slug && f->slug &&
	       strcmp(r->slug, f->slug) == 0;
}

const struct inline_root *inline_root_of(const struct rv_finding *f,
                                         const struct inline_root *roots,
                                         size_t nroots)
{
	const struct inline_root *newest = NULL;
	size_t i;

	for (i = 0; i < nroots; i++)
		if (root_is_of(&roots[i], f) &&
		    (!newest || roots[i].comment_id > newest->comment_id))
			newest = &roots[i];
	return newest;
}

bool inline_has_root_at(const struct rv_finding *f,
                        const struct inline_root *roots, size_t nroots,
                        const char *head)
{
	size_t i;

	/* A SHA names the same commit in either case. */
	for (i = 0; i < nroots; i++)
		if (root_is_of(&roots[i], f) && roots[i].head &&
		    str_eq_nocase(roots[i].head, head))
			return true;
	return false;
}

/* M6: the open findings are the open and the awaiting sections. */
static bool is_open(const struct rv_finding *f)
{
	return f->section == RV_SEC_OPEN || f->section == RV_SEC_AWAITING;
}

bool inline_candidate(const struct rv_finding *f,
                      const struct inline_root *roots, size_t nroots,
                      const char *head)
{
	if (!is_open(f) || f->p > RV_P2 || f->carried)
		return false;
	if (inline_has_root_at(f, roots, nroots, head))
		return false;
	/* X13: one root per finding unless the reviewer reopens it. */
	return f->reopen_thread || !inline_root_of(f, roots, nroots);
}

static void set_thread(struct rv_finding *f, enum rv_thread t,
                       const char *reason, const struct inline_root *root)
{
	f->thread = t;
	f->thread_reason = reason;
	f->root_id = root ? root->comment_id : 0;
	free(f->thread_url);
	f->thread_url = root ? xstrdup_or_null(root->html_url) : NULL;
}

/*
 * Step 1. GitHub places a RIGHT comment only on a context or `+` line, and
 * a multi-line one only within one hunk; anything else would be a 422.
 */
static const char *anchor(struct inline_attempt *a, const struct rv_finding *f,
                          const struct diff_file *files, size_t nfiles)
{
	const struct diff_file *df;
	int h;

	if (!f->file || f->line_start < 1 || f->line_end < 1)
		return INLINE_NO_ANCHOR;
	df = diff_file_find(files, nfiles, f->file);
	if (!df || (h = diff_hunk_of(&df->hunks, f->line_end)) < 0)
		return INLINE_NOT_IN_DIFF;
	a->line = f->line_end;
	a->start_line = 0;
	if (f->line_start < f->line_end &&
	    diff_hunk_of(&df->hunks, f->line_start) == h)
		a->start_line = f->line_start;
	return NULL;
}

/* A confidence's place in the order; one outside the enum (a bug
 * upstream) goes last rather than losing the finding. */
static int conf_rank(const struct rv_finding *f)
{
	unsigned c = (unsigned)f->confidence;

	return c < RV_CONFIDENCE_COUNT ? (int)c : RV_CONFIDENCE_COUNT;
}

/*
 * Posting order and the P2s' order for the cap (L622, L644): confidence,
 * then M8. The attempts were collected in M8 order (the findings' index),
 * so a stable pass per confidence level sorts them.
 */
static void sort_attempts(struct inline_plan *plan, const struct rv_finding *f)
{
	struct inline_attempt *sorted;
	size_t i, k = 0;
	int c;

	if (plan->n < 2)
		return;
	sorted = xcalloc(plan->n, sizeof(*sorted));
	for (c = 0; c <= RV_CONFIDENCE_COUNT; c++)
		for (i = 0; i < plan->n; i++)
			if (conf_rank(&f[plan->v[i].finding]) == c)
				sorted[k++] = plan->v[i];
	memcpy(plan->v, sorted, plan->n * sizeof(*sorted));
	free(sorted);
}

/* R: the input's findings that already have a root at this head. */
static size_t count_r(const struct rv_finding *f, size_t n,
                      const struct inline_root *roots, size_t nroots,
                      const char *head)
{
	size_t i, r = 0;

	for (i = 0; i < n; i++)
		if (!f[i].carried &&
		    inline_has_root_at(&f[i], roots, nroots, head))
			r++;
	return r;
}

/* Step 3 over the sorted survivors of steps 1–2: every P0/P1 stays, the
 * first p2_slots P2s stay, the other P2s go to the sticky. */
static void cap(struct inline_plan *plan, struct rv_finding *f,
                const struct inline_params *p)
{
	size_t i, kept = 0, high = 0, p2 = 0;
	int64_t slots;

	for (i = 0; i < plan->n; i++)
		if (f[plan->v[i].finding].p < RV_P2)
			high++;
	slots = p->inline_cap - (int64_t)plan->r - (int64_t)high;
	plan->p2_slots = slots > 0 ? (size_t)slots : 0;
	for (i = 0; i < plan->n; i++) {
		struct rv_finding *fi = &f[plan->v[i].finding];

		if (fi->p == RV_P2 && p2++ >= plan->p2_slots) {
			set_thread(fi, RV_THREAD_STICKY_ONLY, INLINE_CAP, NULL);
			continue;
		}
		plan->v[kept++] = plan->v[i];
	}
	plan->n = kept;
}

/* Steps 1–2 for one candidate: an attempt to add, or its reason. */
static const char *steps_1_2(struct inline_attempt *a,
                             const struct rv_finding *f,
                             const struct diff_file *files, size_t nfiles,
                             const struct inline_params *p)
{
	const char *why = anchor(a, f, files, nfiles);

	if (!why && f->p == RV_P2 && p->iteration > p->ramp_p2_last_iteration)
		why = INLINE_RAMP;
	return why;
}

void inline_select(struct inline_plan *out, struct rv_finding *f, size_t n,
                   const struct diff_file *files, size_t nfiles,
                   const struct inline_root *roots, size_t nroots,
                   const struct inline_params *p)
{
	size_t i, alloc = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		const struct inline_root *root =
		    inline_root_of(&f[i], roots, nroots);
		struct inline_attempt a = {i, 0, 0, root};
		const char *why;

		if (!inline_candidate(&f[i], roots, nroots, p->head)) {
			bool link = root && is_open(&f[i]);

			set_thread(&f[i],
			           link ? RV_THREAD_EXISTING
			                : RV_THREAD_STICKY_ONLY,
			           NULL, link ? root : NULL);
			continue;
		}
		if ((why = steps_1_2(&a, &f[i], files, nfiles, p))) {
			set_thread(&f[i], RV_THREAD_STICKY_ONLY, why, NULL);
			continue;
		}
		ALLOC_GROW(out->v, out->n + 1, alloc);
		out->v[out->n++] = a;
	}
	out->r = count_r(f, n, roots, nroots, p->head);
	sort_attempts(out, f);
	cap(out, f, p);
	for (i = 0; i < out->n; i++)
		set_thread(&f[out->v[i].finding], RV_THREAD_PENDING, NULL,
		           NULL);
}

void inline_plan_release(struct inline_plan *plan)
{
	free(plan->v);
	memset(plan, 0, sizeof(*plan));
}

void inline_plan_drop(struct inline_plan *plan, size_t i)
{
	if (i >= plan->n)
		return;
	memmove(&plan->v[i], &plan->v[i + 1],
	        (plan->n - i - 1) * sizeof(*plan->v));
	plan->n--;
}
