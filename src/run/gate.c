/*
 * gate.c - the gate flow (BEHAVIOR §5, §6): read the PR, decide with
 * core/gate.h, then approve (re-check, approve, re-check again) or
 * withhold and dismiss; record the outcome in the report.
 */
#include "run/flow.h"

#include <stdlib.h>
#include <string.h>

#include "core/gate.h"
#include "core/verdict.h"

const char engine_approve_body[] =
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
};

static void evaluate(struct engine *e, int64_t pr, unsigned fresh,
		     struct evaluation *ev)
{
	struct gate_input in;

	memset(ev, 0, sizeof(*ev));
	buf_init(&ev->skip_why, BUF_MAX_SMALL);
	gate_decision_init(&ev->d);
	e->gh->ops->refresh(e->gh);
	ev->status = e->gh->ops->pull(e->gh, pr, GATE_PARTS | fresh, &ev->g);
	if (ev->status == AA_ENOTFOUND)
		return;
	if (ev->status == AA_OK && (ev->g.ok & PART_PULL)) {
		ev->skip = gate_skip(&ev->g.pull, e->repository, &ev->skip_why);
		if (ev->skip)
			return;
		ev->ungated = !policy_base_gated(e->policy, ev->g.pull.base_ref,
						 ev->g.pull.default_branch);
		if (ev->ungated)
			return;
		ev->st_ok = e->gh->ops->statuses(e->gh, pr, ev->g.pull.head_sha,
						 STATUS_NEED_CLEAN | STATUS_NEED_SKIP,
						 &ev->st) == AA_OK;
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
	in.label_write_failed = flow_label_failed(e, pr);
	gate_decide(&ev->d, &in, e->policy);
}

static void evaluation_release(struct evaluation *ev)
{
	gh_pull_release(&ev->g);
	snap_statuses_release(&ev->st);
	buf_release(&ev->skip_why);
	gate_decision_release(&ev->d);
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

static bool has_approval_for(const struct engine *e, const struct snap_pull *p,
			     const char *head)
{
	size_t i;

	for (i = 0; i < p->nreviews; i++)
		if (verdict_trusted_approval(&p->reviews[i], e->policy) &&
		    strcmp(p->reviews[i].commit_id, head) == 0)
			return true;
	return false;
}

/* Withhold (or fail) and run the dismissal backstop on `reviews_from`. */
static void withhold(struct engine *e, size_t step, int64_t pr,
		     const struct evaluation *reviews_from, bool read_failed,
		     const char *message)
{
	int error = AA_OK;

	if (reviews_from && (reviews_from->g.ok & PART_REVIEWS))
		error = flow_dismiss_all(e, step, pr, reviews_from->g.pull.reviews,
				    reviews_from->g.pull.nreviews, message);
	else if (read_failed)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the reviews could not be read; no "
			    "approval could be dismissed", (long long)pr);
	if (error == AA_EUSAGE || e->stop)
		return; /* identity failure already finished the step */
	if (read_failed || error < 0)
		step_finish(e->report, &e->report->steps[step], OUT_ERROR,
			    EXIT_API);
	else
		step_finish(e->report, &e->report->steps[step], OUT_WITHHOLD,
			    EXIT_OK);
}

/* Did the re-check come out the same: same head, still approvable? */
static bool recheck_holds(const struct evaluation *first,
			  const struct evaluation *again)
{
	return again->status == AA_OK && !again->skip && !again->ungated &&
	       again->d.outcome == GATE_APPROVE &&
	       strcmp(again->g.pull.head_sha, first->g.pull.head_sha) == 0;
}

/* Record a failed re-check and withhold on its fresh reads. */
static void recheck_failed(struct engine *e, size_t step, int64_t pr,
			   const struct evaluation *first,
			   const struct evaluation *again, const char *message)
{
	struct report_step *s = &e->report->steps[step];
	/* A PR that vanishes between two reads of one run is a failed read,
	 * not "no such PR". */
	bool read_failed = again->status != AA_OK ||
			   again->d.outcome == GATE_ERROR;

	if (again->status == AA_OK && !again->skip && !again->ungated)
		record_decision(s, again);
	step_reason(s, "the inputs changed between the decision and the "
		       "approval");
	report_note(e->report, NOTE_WARNING,
		    "PR #%lld: inputs changed while approving; not approved",
		    (long long)pr);
	withhold(e, step, pr, (again->g.ok & PART_REVIEWS) ? again : first,
		 read_failed, message);
}

/* Is the review just posted (`mine`) in the trusted APPROVED list? */
static bool listed(const struct engine *e, const struct evaluation *ev,
		   int64_t mine)
{
	size_t i;

	for (i = 0; (ev->g.ok & PART_REVIEWS) && i < ev->g.pull.nreviews; i++)
		if (ev->g.pull.reviews[i].id == mine &&
		    verdict_trusted_approval(&ev->g.pull.reviews[i], e->policy))
			return true;
	return false;
}

/* The oldest trusted approval of `head` other than `mine`, or 0. */
static int64_t older_approval(const struct engine *e,
			      const struct evaluation *ev, const char *head,
			      int64_t mine)
{
	int64_t oldest = 0;
	size_t i;

	for (i = 0; (ev->g.ok & PART_REVIEWS) && i < ev->g.pull.nreviews; i++) {
		const struct snap_review *r = &ev->g.pull.reviews[i];

		if (r->id != mine && r->id < mine && verdict_trusted_approval(r, e->policy) &&
		    strcmp(r->commit_id, head) == 0 && (!oldest || r->id < oldest))
			oldest = r->id;
	}
	return oldest;
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
	return flow_dismiss_all(e, step, pr, &r, 1, message);
}

/* Dismiss the approval just posted (§6.1 step 4), even when the fresh
 * review list could not be read or does not show it yet. */
static void dismiss_mine(struct engine *e, size_t step, int64_t pr,
			 const struct evaluation *after, int64_t mine,
			 const char *message)
{
	if (!mine || listed(e, after, mine))
		return; /* withhold() dismissed it with the others */
	if (dismiss_own(e, step, pr, mine, message) < 0 && !e->stop)
		step_finish(e->report, &e->report->steps[step], OUT_ERROR,
			    EXIT_API);
}

/* §6.1: re-check, approve, re-check again. */
static void approve(struct engine *e, size_t step, int64_t pr,
		    const struct evaluation *first)
{
	struct evaluation again, after;
	const char *head = first->g.pull.head_sha;
	bool existing = has_approval_for(e, &first->g.pull, head);
	int64_t review_id = 0, older;

	if (!existing && flow_identity(e, step) < 0)
		return;
	/* Before a write, fresh from GitHub; an existing approval (no write)
	 * may be re-checked from a read the sweep made after the first. */
	evaluate(e, pr, existing ? 0 : PART_FRESH, &again);
	if (!recheck_holds(first, &again)) {
		recheck_failed(e, step, pr, first, &again,
			       engine_dismiss_message);
		evaluation_release(&again);
		return;
	}
	evaluation_release(&again);
	if (existing) {
		report_note(e->report, NOTE_INFO,
			    "PR #%lld: already approved at %.7s", (long long)pr,
			    head);
		step_finish(e->report, &e->report->steps[step], OUT_APPROVE,
			    EXIT_OK);
		return;
	}
	if (flow_approve(e, step, pr, head, &review_id) < 0)
		return;
	evaluate(e, pr, PART_FRESH, &after);
	if (!recheck_holds(first, &after)) {
		recheck_failed(e, step, pr, first, &after,
			       engine_dismiss_changed_message);
		dismiss_mine(e, step, pr, &after, review_id,
			     engine_dismiss_changed_message);
		evaluation_release(&after);
		return;
	}
	/* Another run approved this head too, at the same time: the oldest
	 * approval stays, so exactly one survives (no stacked approvals). */
	older = older_approval(e, &after, head, review_id);
	if (older) {
		report_note(e->report, NOTE_NOTICE,
			    "PR #%lld: review %lld approved this head first; "
			    "dismissing the duplicate", (long long)pr,
			    (long long)older);
		if (dismiss_own(e, step, pr, review_id,
				engine_dismiss_duplicate_message) < 0 &&
		    !e->stop) {
			step_finish(e->report, &e->report->steps[step], OUT_ERROR,
				    EXIT_API);
			evaluation_release(&after);
			return;
		}
	}
	evaluation_release(&after);
	step_finish(e->report, &e->report->steps[step], OUT_APPROVE, EXIT_OK);
}


/*
 * A13: a PR into a base that is not gated is never approved: the step is
 * skipped, and approvals of the trusted login already on it are dismissed
 * (branch protection that dismisses stale approvals is set up per branch,
 * so an approval there could survive a push).
 */
static void ungated(struct engine *e, size_t step, int64_t pr,
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
	if (ev->g.ok & PART_REVIEWS)
		error = flow_dismiss_all(e, step, pr, ev->g.pull.reviews,
					 ev->g.pull.nreviews,
					 engine_dismiss_ungated_message);
	else
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the reviews could not be read; no "
			    "approval could be dismissed", (long long)pr);
	if (error == AA_EUSAGE || e->stop)
		return;
	if (!(ev->g.ok & PART_REVIEWS) || error < 0)
		step_finish(e->report, s, OUT_ERROR, EXIT_API);
	else
		step_finish(e->report, s, OUT_SKIPPED, EXIT_OK);
}

void engine_gate(struct engine *e, int64_t pr)
{
	struct report_step *s;
	struct evaluation ev;
	size_t step;

	if (e->stop)
		return;
	s = report_add_step(e->report, STEP_GATE, pr);
	step = e->report->nsteps - 1;
	evaluate(e, pr, 0, &ev);
	if (ev.status == AA_ENOTFOUND) {
		step_reason(s, "PR #%lld not found", (long long)pr);
		s->missing = true;
		step_finish(e->report, s, OUT_SKIPPED, EXIT_OK);
		goto out;
	}
	if (ev.skip) {
		memcpy(s->head, ev.g.pull.head_sha, SHA_BUF);
		s->draft = ev.g.pull.draft;
		step_reason(s, "%s", ev.skip_why.ptr);
		step_finish(e->report, s, OUT_SKIPPED, EXIT_OK);
		goto out;
	}
	if (ev.ungated) {
		ungated(e, step, pr, &ev);
		goto out;
	}
	record_decision(s, &ev);
	switch (ev.d.outcome) {
	case GATE_APPROVE:
		approve(e, step, pr, &ev);
		break;
	case GATE_ERROR:
		report_note(e->report, NOTE_ERROR,
			    "PR #%lld: a read failed (%s); not approved",
			    (long long)pr, flow_error(e));
		withhold(e, step, pr, &ev, true, engine_dismiss_message);
		break;
	default:
		withhold(e, step, pr, &ev, false, engine_dismiss_message);
		break;
	}
out:
	evaluation_release(&ev);
}
