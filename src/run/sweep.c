/*
 * sweep.c - the sweep flow (BEHAVIOR §7): list the open PRs, select those
 * in the review flow (core/select.h), skip the ones unchanged since the
 * last sweep, gate the rest in order under a deadline and the rate limit,
 * and record each outcome for the next sweep.
 */
#include "run/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/select.h"
#include "core/unchanged.h"

/* What a sweep does with each open PR. */
enum sweep_plan {
	PLAN_SKIP,      /* not in the review flow */
	PLAN_EVALUATE,  /* run the gate */
	PLAN_UNCHANGED, /* unchanged since the last sweep */
	PLAN_FAILED,    /* a selection read failed: the gate decides (N15) */
	PLAN_UNREACHED  /* the deadline came before it was selected (A6) */
};

/*
 * Is the PR in the review flow (core/select.h)? The reads the decision
 * asks for are done here; one that fails selects the PR (N15) as
 * PLAN_FAILED, so that a gate that cannot run either still reports an
 * error (A6), never a silent skip; *why then holds the failure's message
 * (the caller frees it).
 */
static enum sweep_plan sweep_selects(struct engine *e,
				     const struct gh_pull_brief *b, char **why)
{
	struct select_input in;
	struct snap_statuses st;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	enum sweep_plan plan = PLAN_FAILED;

	memset(&in, 0, sizeof(in));
	memset(&st, 0, sizeof(st));
	memset(&g, 0, sizeof(g));
	in.policy = e->policy;
	in.pr = b->number;
	in.contexts = b->has_contexts ? &b->contexts : NULL;
	in.approvers = b->approvers;
	in.napprovers = b->napprovers;
	in.approvers_known = b->has_approvers;
	for (;;) {
		switch (select_decide(&in)) {
		case SELECT_EVALUATE:
			plan = PLAN_EVALUATE;
			goto out;
		case SELECT_SKIP:
			plan = PLAN_SKIP;
			goto out;
		case SELECT_READ_STATUSES:
			if (e->gh->ops->statuses(e->gh, b->number, b->head_sha,
			                         STATUS_NEED_CLEAN, &st,
			                         &err) < 0)
				goto out;
			in.statuses = &st;
			break;
		case SELECT_READ_REVIEWS:
			if (e->gh->ops->pull(e->gh, b->number, PART_REVIEWS, &g,
			                     &err) != AA_OK ||
			    !(g.ok & PART_REVIEWS))
				goto out;
			in.reviews = &g.pull;
			break;
		}
	}
out:
	/* This PR's own message: the sweep may report it after other PRs'
	 * reads (sweep_failed). */
	if (plan == PLAN_FAILED)
		*why = xstrdup(g.error   ? g.error
		               : err.len ? err.ptr
		                         : "unknown error");
	snap_statuses_release(&st);
	gh_pull_release(&g);
	buf_release(&err);
	return plan;
}

/* The last sweep's entry for the PR when it still holds (core/unchanged.h),
 * else NULL. */
static const struct sweep_entry *sweep_unchanged(struct engine *e,
						 const struct gh_pull_brief *b)
{
	const struct sweep_entry *x;
	struct unchanged_input in;

	if (!e->sweep_state)
		return NULL;
	x = sweepstate_find(e->sweep_state, b->number);
	memset(&in, 0, sizeof(in));
	in.digest = b->digest;
	in.kept_digest = x ? x->digest : NULL;
	in.kept_outcome = x ? x->outcome : "";
	in.kept_at = x ? x->evaluated_at : 0;
	in.now = e->gh->ops->now(e->gh);
	in.ttl_ms = e->sweep_ttl_ms;
	return unchanged_holds(&in) ? x : NULL;
}

/* Why a sweep must stop before PR i (core/budget.h), or NULL. */
static const char *sweep_must_stop(struct engine *e, struct buf *why)
{
	int64_t graphql, rest;

	if (budget_deadline_passed(e->gh->ops->now(e->gh), e->deadline)) {
		buf_setf(why, "sweep deadline reached");
		return why->ptr;
	}
	e->gh->ops->budget(e->gh, &graphql, &rest);
	if (budget_rate_spent(graphql, rest)) {
		buf_setf(why, "GitHub's rate limit is nearly spent (%lld GraphQL "
			      "points, %lld REST requests left); stopping "
			      "before it is hit",
			 (long long)graphql, (long long)rest);
		return why->ptr;
	}
	return NULL;
}

/* A PR whose selection reads failed and whose gate the sweep could not
 * run: an error step, never a silent skip (A6). */
static void sweep_failed(struct engine *e, const struct gh_pull_brief *b,
			 const char *read_error, const char *why)
{
	static const struct engine_result failed = {OUT_ERROR, EXIT_API};
	size_t step;
	struct report_step *s = engine_add_step(e, STEP_GATE, b->number, &step);

	memcpy(s->head, b->head_sha, SHA_BUF);
	step_reason(s, "PR #%lld could not be checked for review (%s), and "
		       "the sweep stopped before its gate could run: %s",
		    (long long)b->number, read_error, why);
	report_note(e->report, NOTE_ERROR,
		    "PR #%lld: the sweep could not read it: %s",
		    (long long)b->number, read_error);
	engine_finish(e, step, failed);
}

/* The sweep stops at PR `from`: the rest are not reached. */
static void not_reached(struct engine *e, const struct gh_pull_brief *list,
			const enum sweep_plan *plan, char *const *read_error,
			size_t from, size_t n, const char *why)
{
	struct report *r = e->report;
	size_t i, k = 0;

	for (i = from; i < n; i++) {
		if (plan[i] == PLAN_FAILED) {
			sweep_failed(e, &list[i], read_error[i], why);
			continue;
		}
		ALLOC_GROW(r->not_reached, r->nnot_reached + 1,
			   r->anot_reached);
		r->not_reached[r->nnot_reached++] = list[i].number;
		k++;
	}
	if (k)
		report_note(r, NOTE_WARNING, "%s: %zu PRs not reached (the next "
					     "sweep takes them)", why, k);
}

/*
 * Read ahead the next selected PRs from `from` on, SWEEP_PREFETCH at most;
 * then, once more, those the listing shows approved by the trusted login:
 * their gate re-checks the approval that exists (§6.1 step 1) from that
 * second read, made after the first, instead of one query each.
 */
static void prefetch_from(struct engine *e, const struct gh_pull_brief *list,
			  const enum sweep_plan *what, size_t from, size_t n,
			  size_t *upto)
{
	int64_t prs[ENGINE_SWEEP_PREFETCH], again[ENGINE_SWEEP_PREFETCH];
	size_t k = 0, m = 0, i;

	for (i = from; i < n && k < ENGINE_SWEEP_PREFETCH; i++) {
		if (what[i] != PLAN_EVALUATE && what[i] != PLAN_FAILED)
			continue;
		prs[k++] = list[i].number;
		if (list[i].has_approvers &&
		    select_listed_approval(e->policy, list[i].approvers,
		                           list[i].napprovers))
			again[m++] = list[i].number;
	}
	*upto = i;
	if (k > 1)
		e->gh->ops->prefetch(e->gh, prs, k);
	if (k > 1 && m > 1)
		e->gh->ops->prefetch(e->gh, again, m);
}

static void sweep_skip(struct engine *e, const struct gh_pull_brief *b,
		       const char *why)
{
	static const struct engine_result skipped = {OUT_SKIPPED, EXIT_OK};
	size_t step;
	struct report_step *s = engine_add_step(e, STEP_GATE, b->number, &step);

	memcpy(s->head, b->head_sha, SHA_BUF);
	step_reason(s, "%s", why);
	engine_finish(e, step, skipped);
}

void engine_sweep(struct engine *e)
{
	struct gh_pull_brief *list = NULL, **look = NULL;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	int64_t *open_prs = NULL;
	enum sweep_plan *what = NULL; /* per PR */
	char **read_error = NULL;     /* per PR: why its selection failed */
	size_t n = 0, nlook = 0, i, upto = 0;

	if (e->stop)
		return;
	if (!e->sweep_started && e->sweep_deadline)
		e->deadline = e->gh->ops->now(e->gh) + e->sweep_deadline;
	e->sweep_started = true;
	/* A later repository of `sweep --repos` has a port of its own. */
	github_set_deadline(e->gh, e->deadline);
	if (budget_deadline_passed(e->gh->ops->now(e->gh), e->deadline)) {
		report_note(e->report, NOTE_WARNING,
			    "sweep deadline reached before %s was listed: its "
			    "PRs are not reached (the next sweep takes them)",
			    e->repository ? e->repository : "the repository");
		goto out;
	}
	if (e->gh->ops->open_pulls(e->gh, LISTING_PROBE, &list, &n, &why) < 0) {
		report_note(e->report, NOTE_ERROR,
		            "cannot list the open pull requests: %s", why.ptr);
		report_merge_exit(e->report, EXIT_API);
		goto out;
	}
	what = xcalloc(n ? n : 1, sizeof(*what));
	open_prs = xcalloc(n ? n : 1, sizeof(*open_prs));
	look = xcalloc(n ? n : 1, sizeof(struct gh_pull_brief *));
	read_error = xcalloc(n ? n : 1, sizeof(*read_error));
	for (i = 0; i < n; i++) {
		open_prs[i] = list[i].number;
		if (sweep_unchanged(e, &list[i]))
			what[i] = PLAN_UNCHANGED;
		else
			look[nlook++] = &list[i];
	}
	/* The approvals and threads of the PRs to look at, in a few queries:
	 * the selection then needs no read of its own for most. */
	if (nlook >= ENGINE_SWEEP_DETAILS_MIN)
		e->gh->ops->details(e->gh, look, nlook);
	for (i = 0; i < n; i++) {
		if (what[i] == PLAN_UNCHANGED)
			continue;
		if (budget_deadline_passed(e->gh->ops->now(e->gh), e->deadline))
			what[i] = PLAN_UNREACHED; /* A6: selection included */
		else
			what[i] = sweep_selects(e, &list[i], &read_error[i]);
	}
	if (e->sweep_state)
		sweepstate_keep(e->sweep_state, open_prs, n);
	for (i = 0; i < n && !e->stop; i++) {
		const struct gh_pull_brief *b = &list[i];
		struct engine_result res;
		const char *outcome;

		if (e->progress)
			e->progress(e->progress_ctx, i, n);
		if ((what[i] == PLAN_EVALUATE || what[i] == PLAN_FAILED ||
		     what[i] == PLAN_UNREACHED) &&
		    sweep_must_stop(e, &why)) {
			not_reached(e, list, what, read_error, i, n, why.ptr);
			break;
		}
		if (what[i] == PLAN_UNCHANGED) {
			buf_setf(&why, "unchanged since the last sweep (%s); "
				       "PR #%lld not read again",
				 sweepstate_find(e->sweep_state, b->number)->outcome,
				 (long long)b->number);
			sweep_skip(e, b, why.ptr);
			continue;
		}
		if (what[i] == PLAN_SKIP) {
			buf_setf(&why, "no trusted %s status for PR #%lld on its "
				       "head and no approval to re-judge",
				 e->policy->clean_context, (long long)b->number);
			sweep_skip(e, b, why.ptr);
			if (e->sweep_state)
				sweepstate_put(e->sweep_state, b->number,
					       b->digest, "skipped",
					       e->gh->ops->now(e->gh));
			continue;
		}
		if (i >= upto)
			prefetch_from(e, list, what, i, n, &upto);
		res = engine_gate(e, b->number);
		if (!e->sweep_state || e->stop)
			continue;
		outcome = step_outcome_names[res.outcome];
		sweepstate_put(e->sweep_state, b->number,
		               unchanged_keep(outcome, b->digest), outcome,
		               e->gh->ops->now(e->gh));
	}
	if (e->progress)
		e->progress(e->progress_ctx, n, n);
out:
	for (i = 0; read_error && i < n; i++)
		free(read_error[i]);
	free(read_error);
	gh_briefs_free(list, n);
	free(look);
	free(what);
	free(open_prs);
	buf_release(&why);
}
