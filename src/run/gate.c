/*
 * gate.c - the gate flow (BEHAVIOR §5, §6): read the PR, decide with
 * core/gate.h, then follow the approval protocol of core/approval.h
 * (re-check, approve, re-check again) or withhold and dismiss; record the
 * outcome in the report once, and return it.
 */
#include "run/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/approval.h"
#include "core/gate.h"

const char engine_approval_body[] =
    "agentic-apply: no blocking AI review findings remain on this head, "
    "every review thread has a reply, and no needs-human label is set. "
    "This approval covers the automated review only; a human review is "
    "still expected.";
const char engine_dismiss_message[] =
	"agentic-apply: this PR is no longer clean, has unanswered review "
	"threads, or needs a human.";
const char engine_dismiss_changed_message[] =
	"agentic-apply: inputs changed while approving.";
const char engine_dismiss_duplicate_message[] =
	"agentic-apply: this head was already approved.";
const char engine_dismiss_ungated_message[] =
	"agentic-apply: this PR's base branch is not one it approves PRs "
	"into.";

/* One evaluation of the gate from fresh reads. */
struct evaluation {
	int status;               /* AA_OK, AA_ENOTFOUND, AA_EAPI */
	struct gh_pull g;
	struct snap_statuses st;
	bool st_ok;
	bool skip;
	bool ungated;             /* A13: the base is not a gated one */
	struct buf skip_why;
	struct gate_decision d;
	char *read_error;         /* the first failed read's message */
	struct approval_eval a;   /* what the approval protocol asks of it */
};

/* Keep the message of this evaluation's first failed read. */
static void keep_error(struct evaluation *ev, const char *message)
{
	if (!ev->read_error)
		ev->read_error = xstrdup(message);
}

static void evaluate_reads(struct engine *e, int64_t pr, unsigned fresh,
                           struct evaluation *ev)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gate_input in;

	memset(ev, 0, sizeof(*ev));
	buf_init(&ev->skip_why, BUF_MAX_SMALL);
	gate_decision_init(&ev->d);
	e->gh->ops->refresh(e->gh);
	ev->status =
	    e->gh->ops->pull(e->gh, pr, GATE_PARTS | fresh, &ev->g, &err);
	if (ev->status == AA_ENOTFOUND)
		goto out;
	if (ev->status != AA_OK || ev->g.error)
		keep_error(ev, engine_pull_error(ev->status, &ev->g, &err));
	if (ev->status == AA_OK && (ev->g.ok & PART_PULL)) {
		ev->skip = gate_skip(&ev->g.pull, e->repository, &ev->skip_why);
		if (ev->skip)
			goto out;
		ev->ungated = !policy_base_gated(e->policy, ev->g.pull.base_ref,
						 ev->g.pull.default_branch);
		if (ev->ungated)
			goto out;
		ev->st_ok =
		    e->gh->ops->statuses(e->gh, pr, ev->g.pull.head_sha,
		                         STATUS_NEED_CLEAN | STATUS_NEED_SKIP,
		                         &ev->st, &err) == AA_OK;
		if (!ev->st_ok)
			keep_error(ev, err.ptr);
	} else {
		ev->g.failed |= PART_PULL;
	}
	memset(&in, 0, sizeof(in));
	in.repository = e->repository;
	in.pr = pr;
	in.pull = &ev->g.pull;
	in.ok = ev->g.ok;
	in.failed = ev->g.failed;
	in.statuses = ev->st_ok ? &ev->st : NULL;
	in.label_write_failed = engine_label_failed(e, pr);
	gate_decide(&ev->d, &in, e->policy);
out:
	buf_release(&err);
}

/* Read the gate's inputs (`fresh`: PART_FRESH before a write), decide,
 * and say what the approval protocol needs of it. */
static void evaluate(struct engine *e, int64_t pr, unsigned fresh,
                     struct evaluation *ev)
{
	evaluate_reads(e, pr, fresh, ev);
	ev->a.read = ev->status == AA_OK;
	ev->a.skip = ev->skip;
	ev->a.ungated = ev->ungated;
	ev->a.outcome = ev->skip || ev->ungated ? GATE_SKIPPED : ev->d.outcome;
	ev->a.head = ev->g.pull.head_sha;
	ev->a.reviews_read = (ev->g.ok & PART_REVIEWS) != 0;
	ev->a.reviews = ev->g.pull.reviews;
	ev->a.nreviews = ev->g.pull.nreviews;
}

static void evaluation_release(struct evaluation *ev)
{
	gh_pull_release(&ev->g);
	snap_statuses_release(&ev->st);
	buf_release(&ev->skip_why);
	gate_decision_release(&ev->d);
	free(ev->read_error);
}

/* Copy a decision into the report step (replacing earlier reasons). */
static void record_decision(struct report_step *s, const struct evaluation *ev)
{
	size_t i;
	int c;

	strv_free(s->reasons, s->nreasons);
	s->reasons = NULL;
	s->nreasons = 0;
	for (c = 0; c < COND_COUNT; c++) {
		free(s->why[c]);
		s->why[c] = NULL;
	}
	s->has_conditions = ev->d.evaluated;
	if (ev->g.ok & PART_PULL) {
		memcpy(s->head, ev->g.pull.head_sha, SHA_BUF);
		s->draft = ev->g.pull.draft;
	}
	for (c = 0; c < COND_COUNT; c++) {
		s->cond[c] = ev->d.cond[c];
		if (ev->d.evaluated)
			s->why[c] = xstrdup(ev->d.why[c].ptr);
	}
	for (i = 0; i < ev->d.nreasons; i++)
		step_reason(s, "%s", ev->d.reasons[i]);
	free(s->verdict_url);
	free(s->check_url);
	s->verdict_url = xstrdup_or_null(ev->d.verdict_url);
	s->check_url = xstrdup_or_null(ev->d.check_url);
}

/* The report's outcome for one of gate.h. */
static struct engine_result result_of(struct approval_end end)
{
	static const enum step_outcome out[] = {
	    [GATE_APPROVE] = OUT_APPROVE,
	    [GATE_WITHHOLD] = OUT_WITHHOLD,
	    [GATE_SKIPPED] = OUT_SKIPPED,
	    [GATE_ERROR] = OUT_ERROR,
	};
	struct engine_result r = {out[end.outcome], end.exit};

	return r;
}

/* Withhold (or fail) and run the dismissal backstop (§6.2) on the
 * approvals among the reviews of `reviews_from`. */
static struct engine_result withhold(struct engine *e, size_t step, int64_t pr,
                                     const struct evaluation *reviews_from,
                                     bool read_failed, const char *message)
{
	int error = AA_OK;

	if (reviews_from->a.reviews_read)
		error = engine_dismiss_approvals(
		    e, step, pr, reviews_from->a.reviews,
		    reviews_from->a.nreviews, message);
	else if (read_failed)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the reviews could not be read; no "
			    "approval could be dismissed", (long long)pr);
	return result_of(approval_withheld(GATE_WITHHOLD, read_failed, error));
}

/* Record a failed re-check and withhold on its fresh reads. */
static struct engine_result
recheck_failed(struct engine *e, size_t step, int64_t pr,
               const struct evaluation *first, const struct evaluation *again,
               enum approval_recheck rc, const char *message)
{
	struct report_step *s = &e->report->steps[step];
	const struct evaluation *from =
	    approval_reviews_from(&first->a, &again->a) == &again->a ? again
	                                                             : first;

	if (again->a.read && !again->skip && !again->ungated)
		record_decision(s, again);
	step_reason(s, "the inputs changed between the decision and the "
		       "approval");
	report_note(e->report, NOTE_WARNING,
		    "PR #%lld: inputs changed while approving; not approved",
		    (long long)pr);
	return withhold(e, step, pr, from, rc == APPROVAL_UNREADABLE, message);
}

/* Dismiss our own approval `id`, known by the id the POST returned. */
static int dismiss_own(struct engine *e, size_t step, int64_t pr, int64_t id,
		       const char *message)
{
	char state[] = "APPROVED";
	struct snap_review r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.author = e->policy->trusted_login;
	r.state = state;
	return engine_dismiss_approvals(e, step, pr, &r, 1, message);
}

/* §6.1: re-check, approve, re-check again. */
static struct engine_result approve(struct engine *e, size_t step, int64_t pr,
                                    const struct evaluation *first)
{
	static const struct engine_result approved = {OUT_APPROVE, EXIT_OK};
	struct engine_result res = approved;
	struct evaluation again, after;
	const char *head = first->a.head;
	bool existing = approval_exists(&first->a, e->policy);
	enum approval_recheck rc;
	int64_t approval_id = 0, older;
	int error;

	if (!existing && (error = engine_identity_check(e, step)) < 0)
		return engine_result_error(error);
	/* Before a write, fresh from GitHub; an existing approval (no write)
	 * may be re-checked from a read the sweep made after the first. */
	evaluate(e, pr, existing ? 0 : PART_FRESH, &again);
	rc = approval_recheck(&first->a, &again.a);
	if (rc != APPROVAL_HOLDS)
		res = recheck_failed(e, step, pr, first, &again, rc,
		                     engine_dismiss_message);
	evaluation_release(&again);
	if (rc != APPROVAL_HOLDS)
		return res;
	if (existing) {
		report_note(e->report, NOTE_INFO,
			    "PR #%lld: already approved at %.7s", (long long)pr,
			    head);
		return approved;
	}
	if ((error = engine_write_approval(e, step, pr, head, &approval_id)) <
	    0)
		return engine_result_error(error);
	evaluate(e, pr, PART_FRESH, &after);
	rc = approval_recheck(&first->a, &after.a);
	if (rc != APPROVAL_HOLDS) {
		res = recheck_failed(e, step, pr, first, &after, rc,
		                     engine_dismiss_changed_message);
		/* The approval just posted, even when the fresh review list
		 * could not be read or does not show it yet (§6.1 step 4). */
		if (approval_unlisted(&after.a, approval_id, e->policy) &&
		    dismiss_own(e, step, pr, approval_id,
		                engine_dismiss_changed_message) < 0 &&
		    !e->stop)
			engine_result_merge(&res, OUT_ERROR, EXIT_API);
		goto out;
	}
	/* Another run approved this head too, at the same time: the oldest
	 * approval stays, so exactly one survives (no stacked approvals). */
	older = approval_older(&after.a, approval_id, e->policy);
	if (older) {
		report_note(e->report, NOTE_NOTICE,
			    "PR #%lld: review %lld approved this head first; "
			    "dismissing the duplicate", (long long)pr,
			    (long long)older);
		if (dismiss_own(e, step, pr, approval_id,
		                engine_dismiss_duplicate_message) < 0 &&
		    !e->stop)
			engine_result_merge(&res, OUT_ERROR, EXIT_API);
	}
out:
	evaluation_release(&after);
	return res;
}

/*
 * A13: a PR into a base that is not gated is never approved: the step is
 * skipped, and approvals of the trusted login already on it are dismissed
 * (branch protection that dismisses stale approvals is set up per branch,
 * so an approval there could survive a push).
 */
static struct engine_result ungated(struct engine *e, size_t step, int64_t pr,
                                    const struct evaluation *ev)
{
	struct report_step *s = &e->report->steps[step];
	struct buf setting = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_OK;

	memcpy(s->head, ev->g.pull.head_sha, SHA_BUF);
	s->draft = ev->g.pull.draft;
	policy_bases_describe(e->policy, ev->g.pull.default_branch, &setting);
	step_reason(s, "PR #%lld targets base \"%s\", which is not a gated "
		       "base (%s): it is never approved (A13)",
		    (long long)pr, ev->g.pull.base_ref, setting.ptr);
	buf_release(&setting);
	if (ev->a.reviews_read)
		error = engine_dismiss_approvals(
		    e, step, pr, ev->a.reviews, ev->a.nreviews,
		    engine_dismiss_ungated_message);
	else
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the reviews could not be read; no "
			    "approval could be dismissed", (long long)pr);
	return result_of(
	    approval_withheld(GATE_SKIPPED, !ev->a.reviews_read, error));
}

/* Decide and act on PR `pr` once its step exists. */
static struct engine_result gate(struct engine *e, size_t step, int64_t pr,
                                 struct evaluation *ev)
{
	static const struct engine_result skipped = {OUT_SKIPPED, EXIT_OK};
	struct report_step *s = &e->report->steps[step];

	evaluate(e, pr, 0, ev);
	if (ev->status == AA_ENOTFOUND)
		return engine_missing(e, s, "PR #%lld not found",
		                      (long long)pr);
	if (ev->skip) {
		memcpy(s->head, ev->g.pull.head_sha, SHA_BUF);
		s->draft = ev->g.pull.draft;
		step_reason(s, "%s", ev->skip_why.ptr);
		return skipped;
	}
	if (ev->ungated)
		return ungated(e, step, pr, ev);
	record_decision(s, ev);
	switch (ev->d.outcome) {
	case GATE_APPROVE:
		return approve(e, step, pr, ev);
	case GATE_ERROR:
		report_note(e->report, NOTE_ERROR,
		            "PR #%lld: a read failed (%s); not approved",
		            (long long)pr,
		            ev->read_error ? ev->read_error : "unknown error");
		return withhold(e, step, pr, ev, true, engine_dismiss_message);
	default:
		return withhold(e, step, pr, ev, false, engine_dismiss_message);
	}
}

struct engine_result engine_gate(struct engine *e, int64_t pr)
{
	static const struct engine_result none = {OUT_SKIPPED, EXIT_OK};
	struct engine_result res;
	struct evaluation ev;
	size_t step;

	if (e->stop)
		return none;
	engine_add_step(e, STEP_GATE, pr, &step);
	res = gate(e, step, pr, &ev);
	engine_finish(e, step, res);
	evaluation_release(&ev);
	return res;
}
