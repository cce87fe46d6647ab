/*
 * engine.c - the steps of a run over the GitHub port.
 *
 * Each step is read → decide → write. Writes are preceded by the identity
 * check (T4) once per run, and the approval by a re-check from fresh reads
 * (§6.1); an approval is followed by a compensating re-check that dismisses
 * it if the inputs moved meanwhile. Any failed read ends in "do not
 * approve": there is no path that approves by default.
 */
#include "run/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/gate.h"
#include "core/marker.h"
#include "core/stamp.h"
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

/* Color and description of the escalation label when we create it. */
static const char label_color[] = "b60205";
static const char label_description[] =
	"A human must sign off before merge (agentic escalation)";

void engine_release(struct engine *e)
{
	free(e->label_failed);
	e->label_failed = NULL;
	e->nlabel_failed = e->alabel_failed = 0;
}

void engine_init(struct engine *e, struct github *gh, const struct policy *p,
		 const char *repository, struct report *r)
{
	memset(e, 0, sizeof(*e));
	e->gh = gh;
	e->policy = p;
	e->repository = repository;
	e->report = r;
}

static const char *gh_err(const struct engine *e)
{
	return e->gh->error.len ? e->gh->error.ptr : "unknown error";
}

/* --- writes --- */

/*
 * T4: before the first write of a run, the token must be the trusted
 * login. On failure the step ends as an error and the run stops.
 */
static int identity(struct engine *e, size_t step)
{
	struct report_step *s = &e->report->steps[step];
	char *login = NULL;
	int error;

	if (e->identity == ID_TRUSTED)
		return AA_OK;
	if (e->identity == ID_FAILED)
		return AA_EUSAGE;
	error = e->gh->ops->user(e->gh, &login);
	if (error < 0) {
		step_reason(s, "the token's identity could not be read");
		report_note(e->report, NOTE_ERROR,
			    "cannot read the token's identity (GET /user): %s; "
			    "nothing written", gh_err(e));
		step_finish(e->report, s, "error", EXIT_API);
		error = AA_EAPI;
	} else if (!policy_is_trusted(e->policy, login)) {
		step_reason(s, "the token belongs to %s, not the trusted "
			       "login %s", login, e->policy->trusted_login);
		report_note(e->report, NOTE_ERROR,
			    "the write token belongs to '%s', not the trusted "
			    "login '%s'; nothing written", login,
			    e->policy->trusted_login);
		step_finish(e->report, s, "error", EXIT_USAGE);
		error = AA_EUSAGE;
	}
	free(login);
	if (error < 0) {
		e->identity = ID_FAILED;
		e->stop = true;
		return error;
	}
	e->identity = ID_TRUSTED;
	return AA_OK;
}

/* A failed write: note it and end the step as an error (exit 3). */
static int write_failed(struct engine *e, size_t step, const char *what)
{
	struct report_step *s = &e->report->steps[step];

	step_reason(s, "%s failed", what);
	report_note(e->report, NOTE_ERROR, "PR #%lld: %s failed: %s",
		    (long long)s->pr, what, gh_err(e));
	step_finish(e->report, s, "error", EXIT_API);
	return AA_EAPI;
}

static int write_create_label(struct engine *e, size_t step, int64_t pr)
{
	struct report_write *w;
	int error;

	if ((error = identity(e, step)) < 0)
		return error;
	if (e->gh->ops->create_label(e->gh, pr, e->policy->label, label_color,
				     label_description) < 0)
		return write_failed(e, step, "creating the label");
	w = report_add_write(e->report, W_CREATE_LABEL, pr);
	w->label = xstrdup(e->policy->label);
	return AA_OK;
}

static int write_label(struct engine *e, size_t step, int64_t pr)
{
	struct report_write *w;
	int error;

	if ((error = identity(e, step)) < 0)
		return error;
	if (e->gh->ops->add_label(e->gh, pr, e->policy->label) < 0) {
		/* The escalation this run meant to set is missing: its gate
		 * must not approve as if the label were absent by choice. */
		ALLOC_GROW(e->label_failed, e->nlabel_failed + 1,
			   e->alabel_failed);
		e->label_failed[e->nlabel_failed++] = pr;
		return write_failed(e, step, "adding the label");
	}
	w = report_add_write(e->report, W_LABEL, pr);
	w->label = xstrdup(e->policy->label);
	return AA_OK;
}

static int write_status(struct engine *e, size_t step, int64_t pr,
			const char *sha, const char *state,
			const char *description, const char *target_url)
{
	struct report_write *w;
	int error;

	if ((error = identity(e, step)) < 0)
		return error;
	if (e->gh->ops->create_status(e->gh, pr, sha, state,
				      e->policy->clean_context, description,
				      target_url) < 0)
		return write_failed(e, step, "writing the status");
	w = report_add_write(e->report, W_STATUS, pr);
	memcpy(w->sha, sha, SHA_BUF);
	w->state = xstrdup(state);
	w->context = xstrdup(e->policy->clean_context);
	w->description = xstrdup(description);
	w->target_url = xstrdup_or_null(target_url);
	return AA_OK;
}

static int write_approve(struct engine *e, size_t step, int64_t pr,
			 const char *head, int64_t *review_id)
{
	struct report_write *w;
	int error;

	if ((error = identity(e, step)) < 0)
		return error;
	if (e->gh->ops->approve(e->gh, pr, head, engine_approve_body,
				review_id) < 0)
		return write_failed(e, step, "approving");
	w = report_add_write(e->report, W_APPROVE, pr);
	memcpy(w->commit_id, head, SHA_BUF);
	return AA_OK;
}

static int cmp_review_id(const void *a, const void *b)
{
	const struct snap_review *const *x = a, *const *y = b;

	return ((*x)->id > (*y)->id) - ((*x)->id < (*y)->id);
}

static bool is_trusted_approval(const struct engine *e,
				const struct snap_review *r)
{
	return r->state && strcmp(r->state, "APPROVED") == 0 &&
	       policy_is_trusted(e->policy, r->author);
}

/*
 * §6.2: dismiss every APPROVED review of the trusted login, in id order
 * (N11), attempting all of them. Returns 0, AA_EAPI if any failed, or the
 * identity error.
 */
static int dismiss_all(struct engine *e, size_t step, int64_t pr,
		       const struct snap_review *reviews, size_t n,
		       const char *message)
{
	const struct snap_review **mine =
		xcalloc(n ? n : 1, sizeof(const struct snap_review *));
	size_t nmine = 0, i;
	int error = AA_OK, r;

	for (i = 0; i < n; i++)
		if (is_trusted_approval(e, &reviews[i]))
			mine[nmine++] = &reviews[i];
	qsort(mine, nmine, sizeof(const struct snap_review *), cmp_review_id);
	for (i = 0; i < nmine; i++) {
		struct report_write *w;

		if ((r = identity(e, step)) < 0) {
			error = r;
			break;
		}
		if (e->gh->ops->dismiss(e->gh, pr, mine[i]->id, message) < 0) {
			struct report_step *s = &e->report->steps[step];

			step_reason(s, "dismissing review %lld failed",
				    (long long)mine[i]->id);
			report_note(e->report, NOTE_ERROR,
				    "PR #%lld: dismissing review %lld failed: %s",
				    (long long)pr, (long long)mine[i]->id,
				    gh_err(e));
			error = AA_EAPI;
			continue;
		}
		w = report_add_write(e->report, W_DISMISS, pr);
		w->review_id = mine[i]->id;
	}
	free(mine);
	return error;
}

/* --- apply (§3) --- */

/* §3.1: add the label for any needs-human: yes marker line. */
static void label_step(struct engine *e, size_t step, int64_t pr)
{
	struct gh_pull g;
	bool has = false, exists = true;
	size_t i;
	int error;

	error = e->gh->ops->pull(e->gh, pr, PART_LABELS, &g);
	if (error == AA_ENOTFOUND) { /* N10 */
		step_reason(&e->report->steps[step], "PR #%lld not found",
			    (long long)pr);
		step_finish(e->report, &e->report->steps[step], "skipped",
			    EXIT_OK);
		return;
	}
	if (error == AA_OK && (g.ok & PART_LABELS)) {
		for (i = 0; i < g.pull.nlabels; i++)
			if (policy_is_label(e->policy, g.pull.labels[i]))
				has = true;
		/* N5: the repository lookup is part of the labels read; if
		 * it fails, add anyway (GitHub creates a missing label). */
		if (!has && e->gh->ops->label_exists(e->gh, pr, e->policy->label,
						     &exists) < 0)
			exists = true;
	} else {
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the labels could not be read (%s); "
			    "adding %s anyway", (long long)pr, gh_err(e),
			    e->policy->label);
	}
	gh_pull_release(&g);
	if (has)
		return;
	if (!exists && write_create_label(e, step, pr) < 0)
		return;
	write_label(e, step, pr);
}

static void refuse(struct engine *e, size_t step, const char *rule,
		   const char *why)
{
	struct report_step *s = &e->report->steps[step];

	step_reason(s, "%s: %s", rule, why);
	report_note(e->report, NOTE_ERROR, "PR #%lld: verdict refused (%s): %s",
		    (long long)s->pr, rule, why);
	step_finish(e->report, s, "refused", EXIT_REFUSED);
}

/* A9: a race lost to a newer round is normal operation: a notice, exit 0. */
static void refuse_quietly(struct engine *e, size_t step, const char *rule,
			   const char *why)
{
	struct report_step *s = &e->report->steps[step];

	step_reason(s, "%s: %s", rule, why);
	report_note(e->report, NOTE_NOTICE,
		    "PR #%lld: verdict not applied (%s): %s", (long long)s->pr,
		    rule, why);
	step_finish(e->report, s, "refused", EXIT_OK);
}

/* A read the check step needs failed: nothing written, exit 3. */
static void check_read_failed(struct engine *e, size_t step, const char *what)
{
	struct report_step *s = &e->report->steps[step];

	step_reason(s, "the %s could not be read", what);
	report_note(e->report, NOTE_ERROR,
		    "PR #%lld: the %s could not be read (%s); the verdict was "
		    "not judged", (long long)s->pr, what, gh_err(e));
	step_finish(e->report, s, "error", EXIT_API);
}

/* R1 and R3 (and the length limit) need no read: N4. */
static bool check_refused_early(struct engine *e, size_t step,
				const struct marker_result *m)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	bool refused = false;

	if (m->too_long) {
		refuse(e, step, "R1",
		       "the comment is longer than 65,536 characters");
		refused = true;
	}
	if (m->check.second_line) {
		buf_setf(&why, "two agentic:check blocks (lines %zu and %zu): "
			       "the verdict is ambiguous",
			 m->check.block_line, m->check.second_line);
		refuse(e, step, "R1", why.ptr);
		refused = true;
	}
	if (!m->check.has_head) {
		refuse(e, step, "R1", "no valid head: line in the check block");
		refused = true;
	} else if (m->check.head_conflict) {
		buf_setf(&why, "two head: lines name different commits (lines "
			       "%zu and %zu)",
			 m->check.head_line, m->check.head_conflict);
		refuse(e, step, "R1", why.ptr);
		refused = true;
	}
	if (!m->check.has_round || !m->check.round_valid) {
		refuse(e, step, "R3", "no valid round: line in the check block");
		refused = true;
	} else if (m->check.round_conflict) {
		buf_setf(&why, "two round: lines disagree (lines %zu and %zu)",
			 m->check.round_line, m->check.round_conflict);
		refuse(e, step, "R3", why.ptr);
		refused = true;
	}
	buf_release(&why);
	return refused;
}

/* R2: the judged head is the PR's head or one of its commits. */
static int check_head_in_pull(struct engine *e, size_t step, int64_t pr,
			      const struct snap_pull *pull, const char *head)
{
	bool in = false;

	if (strcmp(pull->head_sha, head) == 0)
		return AA_OK;
	if (e->gh->ops->commit_in_pull(e->gh, pr, head, &in) < 0) {
		check_read_failed(e, step, "commits");
		return AA_EAPI;
	}
	if (!in) {
		struct buf why = BUF_INIT(BUF_MAX_SMALL);

		buf_setf(&why, "head %s is not a commit of PR #%lld", head,
			 (long long)pr);
		refuse(e, step, "R2", why.ptr);
		buf_release(&why);
		return AA_ERR;
	}
	return AA_OK;
}

/*
 * R4: round: is the newest trusted round stamp of (head, N). An older
 * round of the same head and PR lost a race to a push or a retarget (A9);
 * telling it apart needs the whole status history, read only here.
 */
static int check_round(struct engine *e, size_t step, int64_t pr,
		       const struct snap_statuses *st,
		       const struct marker_check *c)
{
	const struct snap_status *round = stamp_round(st, e->policy, pr);
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	struct snap_statuses all;
	bool older = false;
	int error = AA_ERR;

	memset(&all, 0, sizeof(all));
	if (round && round->id == c->round)
		return AA_OK;
	if (round && c->round < round->id) {
		if (e->gh->ops->statuses(e->gh, pr, c->head,
					 STATUS_NEED_HISTORY, &all) < 0) {
			check_read_failed(e, step, "statuses");
			error = AA_EAPI;
			goto out;
		}
		older = stamp_round_by_id(&all, e->policy, pr, c->round);
	}
	if (older) {
		buf_setf(&why, "round %lld was superseded by round %lld of PR "
			       "#%lld on %.7s (a push or retarget started a "
			       "new review round while this one was judged)",
			 (long long)c->round, (long long)round->id,
			 (long long)pr, c->head);
		refuse_quietly(e, step, "R4", why.ptr);
		goto out;
	}
	if (round)
		buf_setf(&why, "round %lld is not a review round of PR #%lld on "
			       "%.7s (the newest is %lld)",
			 (long long)c->round, (long long)pr, c->head,
			 (long long)round->id);
	else
		buf_setf(&why, "no trusted round stamp of PR #%lld on %.7s",
			 (long long)pr, c->head);
	refuse(e, step, "R4", why.ptr);
out:
	snap_statuses_release(&all);
	buf_release(&why);
	return error;
}

/* §3.3: judge the rows, then write the status (once). */
static void check_write(struct engine *e, size_t step, int64_t pr,
			const struct snap_comment *c,
			const struct marker_result *m,
			const struct snap_pull *pull,
			const struct snap_statuses *st)
{
	struct check_judgement j;
	struct buf desc = BUF_INIT(BUF_MAX_SMALL);
	const struct snap_status *cur;
	const char *state;

	verdict_judge_check(&j, c->body, c->body_len, &m->check, pull->threads,
			    pull->nthreads, e->policy);
	e->report->steps[step].clean = j.clean;
	if (m->check.clean_conflict)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: two clean: lines disagree (lines %zu and "
			    "%zu); treated as clean: false", (long long)pr,
			    m->check.clean_line, m->check.clean_conflict);
	else if (!j.has_clean)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the check block has no clean: line; "
			    "treated as clean: false", (long long)pr);
	else if (j.said_clean && j.unclosed_fence)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: a code fence opened at line %zu of the "
			    "check block is never closed and hides the rest of "
			    "the ledger: treated as clean: false",
			    (long long)pr, j.unclosed_fence);
	else if (j.said_clean && !j.clean)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the verdict says clean: true, but %zu "
			    "invalid, %zu foreign and %zu blocking rows make it "
			    "clean: false", (long long)pr, j.invalid, j.foreign,
			    j.blocking);
	if (j.unclosed_fence)
		step_reason(&e->report->steps[step],
			    "not clean: a code fence opened at line %zu is never "
			    "closed and hides the rest of the ledger",
			    j.unclosed_fence);
	else if (!j.clean)
		step_reason(&e->report->steps[step],
			    "not clean: clean: %s, %zu invalid, %zu foreign, "
			    "%zu blocking of %zu rows",
			    m->check.clean_conflict ? "conflicting"
			    : !j.has_clean	    ? "missing"
			    : j.said_clean	    ? "true"
						    : "false",
			    j.invalid, j.foreign, j.blocking, j.rows);
	state = j.clean ? "success" : "failure";
	buf_setf(&desc, "conductor pr=#%lld: clean=%s", (long long)pr,
		 j.clean ? "true" : "false");
	cur = stamp_clean(st, e->policy, pr);
	if (cur && strcmp(cur->state, state) == 0 &&
	    strcmp(cur->description, desc.ptr) == 0)
		report_note(e->report, NOTE_INFO,
			    "PR #%lld: %s is already %s on %.7s", (long long)pr,
			    e->policy->clean_context, state, m->check.head);
	else
		write_status(e, step, pr, m->check.head, state, desc.ptr,
			     c->html_url);
	buf_release(&desc);
}

static void check_step(struct engine *e, size_t step, int64_t pr,
		       const struct snap_comment *c,
		       const struct marker_result *m)
{
	struct snap_statuses st;
	struct gh_pull g;
	int error;

	if (check_refused_early(e, step, m))
		return;
	memset(&st, 0, sizeof(st));
	error = e->gh->ops->pull(e->gh, pr, PART_PULL | PART_THREADS, &g);
	if (error == AA_ENOTFOUND) { /* N10 */
		step_reason(&e->report->steps[step], "PR #%lld not found",
			    (long long)pr);
		step_finish(e->report, &e->report->steps[step], "skipped",
			    EXIT_OK);
		return;
	}
	if (error < 0 || !(g.ok & PART_PULL)) {
		check_read_failed(e, step, "pull request");
		goto out;
	}
	if (check_head_in_pull(e, step, pr, &g.pull, m->check.head) < 0)
		goto out;
	if (e->gh->ops->statuses(e->gh, pr, m->check.head,
				 STATUS_NEED_CLEAN | STATUS_NEED_ROUND, &st) < 0) {
		check_read_failed(e, step, "statuses");
		goto out;
	}
	if (check_round(e, step, pr, &st, &m->check) < 0)
		goto out;
	if (!(g.ok & PART_THREADS)) {
		check_read_failed(e, step, "review threads");
		goto out;
	}
	check_write(e, step, pr, c, m, &g.pull, &st);
out:
	snap_statuses_release(&st);
	gh_pull_release(&g);
}

/* Why a trusted comment is no verdict: nothing, or a near-miss (A2, A3). */
static void skip_no_verdict(struct report_step *s, int64_t id,
			    const struct marker_result *m)
{
	if (m->check.fenced_line)
		step_reason(s, "comment %lld has no verdict: its agentic:check "
			       "marker (line %zu) is inside a code fence opened "
			       "at line %zu, and fenced code is never read",
			    (long long)id, m->check.fenced_line,
			    m->check.fenced_open);
	if (m->nh.stray_line)
		step_reason(s, "comment %lld has no needs-human verdict: its "
			       "markers (line %zu) are not a leading marker run "
			       "under an agentic:needs-human v1 first line",
			    (long long)id, m->nh.stray_line);
	if (!m->check.fenced_line && !m->nh.stray_line)
		step_reason(s, "comment %lld has no verdict marker",
			    (long long)id);
}

void engine_apply(struct engine *e, int64_t pr, const struct snap_comment *c,
		  bool reread)
{
	struct report_step *s;
	size_t step;
	struct marker_result m;

	if (e->stop)
		return;
	s = report_add_step(e->report, STEP_APPLY, pr);
	step = e->report->nsteps - 1;

	s->comment = c->id;
	if (!verdict_author_trusted(c, e->policy)) {
		step_reason(s, "comment %lld is by %s, not the trusted login",
			    (long long)c->id,
			    c->author ? c->author : "a deleted account");
		step_finish(e->report, s, "skipped", EXIT_OK);
		return;
	}
	marker_parse(&m, c->body, c->body_len);
	if (!m.nh.present && !m.check.present && !m.nh.trigger) {
		skip_no_verdict(s, c->id, &m);
		step_finish(e->report, s, "skipped", EXIT_OK);
		return;
	}
	if (m.nh.present)
		s->needs_human = m.nh.malformed        ? "malformed"
				 : m.nh.value == NH_YES ? "yes"
							: "no";
	if (m.check.has_head && !m.check.head_conflict &&
	    !m.check.second_line) /* N3: only a head that means one thing */
		memcpy(s->head, m.check.head, SHA_BUF);
	else if (m.nh.present && !m.nh.malformed)
		memcpy(s->head, m.nh.head, SHA_BUF);
	if (reread && !verdict_edit_trusted(c, e->policy)) {
		const char *who = c->edited_by ? c->edited_by : "an unknown account";

		step_reason(s, "T2: comment %lld was edited by %s",
			    (long long)c->id, who);
		report_note(e->report, NOTE_ERROR,
			    "PR #%lld: verdict refused: comment %lld was edited "
			    "by %s", (long long)pr, (long long)c->id, who);
		step_finish(e->report, s, "refused", EXIT_REFUSED);
		return;
	}
	step_finish(e->report, s, "applied", EXIT_OK);
	if (m.nh.trigger)
		label_step(e, step, pr);
	if (m.check.present && !e->stop)
		check_step(e, step, pr, c, &m);
}

void engine_apply_id(struct engine *e, int64_t pr, int64_t id)
{
	struct report_step *s;
	struct gh_pull g;
	size_t i;
	int error;

	if (e->stop)
		return;
	error = e->gh->ops->pull(e->gh, pr, PART_COMMENTS, &g);
	if (error == AA_OK && (g.ok & PART_COMMENTS)) {
		for (i = 0; i < g.pull.ncomments; i++)
			if (g.pull.comments[i].id == id) {
				engine_apply(e, pr, &g.pull.comments[i], true);
				gh_pull_release(&g);
				return;
			}
	}
	s = report_add_step(e->report, STEP_APPLY, pr);
	s->comment = id;
	if (error == AA_ENOTFOUND) {
		step_reason(s, "PR #%lld not found", (long long)pr);
		step_finish(e->report, s, "skipped", EXIT_OK);
	} else if (error < 0 || !(g.ok & PART_COMMENTS)) {
		step_reason(s, "the comments could not be read");
		report_note(e->report, NOTE_ERROR,
			    "PR #%lld: the comments could not be read: %s",
			    (long long)pr, gh_err(e));
		step_finish(e->report, s, "error", EXIT_API);
	} else {
		step_reason(s, "comment %lld is not a comment of PR #%lld",
			    (long long)id, (long long)pr);
		step_finish(e->report, s, "skipped", EXIT_OK);
	}
	gh_pull_release(&g);
}

/* --- gate (§5, §6) --- */

/* One evaluation of the gate from fresh reads. */
struct evaluation {
	int status;               /* AA_OK, AA_ENOTFOUND, AA_EAPI */
	struct gh_pull g;
	struct snap_statuses st;
	bool st_ok;
	bool skip;
	struct buf skip_why;
	struct gate_decision d;
};

/* Did this run fail to add the label to PR `pr` (§3.1)? */
static bool label_write_failed(const struct engine *e, int64_t pr)
{
	size_t i;

	for (i = 0; i < e->nlabel_failed; i++)
		if (e->label_failed[i] == pr)
			return true;
	return false;
}

static void evaluate(struct engine *e, int64_t pr, struct evaluation *ev)
{
	struct gate_input in;

	memset(ev, 0, sizeof(*ev));
	buf_init(&ev->skip_why, BUF_MAX_SMALL);
	gate_decision_init(&ev->d);
	e->gh->ops->refresh(e->gh);
	ev->status = e->gh->ops->pull(e->gh, pr, GATE_PARTS, &ev->g);
	if (ev->status == AA_ENOTFOUND)
		return;
	if (ev->status == AA_OK && (ev->g.ok & PART_PULL)) {
		ev->skip = gate_skip(&ev->g.pull, e->repository, &ev->skip_why);
		if (ev->skip)
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
	in.label_write_failed = label_write_failed(e, pr);
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
		if (is_trusted_approval(e, &p->reviews[i]) &&
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
		error = dismiss_all(e, step, pr, reviews_from->g.pull.reviews,
				    reviews_from->g.pull.nreviews, message);
	else if (read_failed)
		report_note(e->report, NOTE_WARNING,
			    "PR #%lld: the reviews could not be read; no "
			    "approval could be dismissed", (long long)pr);
	if (error == AA_EUSAGE || e->stop)
		return; /* identity failure already finished the step */
	if (read_failed || error < 0)
		step_finish(e->report, &e->report->steps[step], "error",
			    EXIT_API);
	else
		step_finish(e->report, &e->report->steps[step], "withhold",
			    EXIT_OK);
}

/* Did the re-check come out the same: same head, still approvable? */
static bool recheck_holds(const struct evaluation *first,
			  const struct evaluation *again)
{
	return again->status == AA_OK && !again->skip &&
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

	if (again->status == AA_OK && !again->skip)
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
		    is_trusted_approval(e, &ev->g.pull.reviews[i]))
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

		if (r->id != mine && r->id < mine && is_trusted_approval(e, r) &&
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
	return dismiss_all(e, step, pr, &r, 1, message);
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
		step_finish(e->report, &e->report->steps[step], "error",
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

	if (!existing && identity(e, step) < 0)
		return;
	evaluate(e, pr, &again);
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
		step_finish(e->report, &e->report->steps[step], "approve",
			    EXIT_OK);
		return;
	}
	if (write_approve(e, step, pr, head, &review_id) < 0)
		return;
	evaluate(e, pr, &after);
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
			step_finish(e->report, &e->report->steps[step], "error",
				    EXIT_API);
			evaluation_release(&after);
			return;
		}
	}
	evaluation_release(&after);
	step_finish(e->report, &e->report->steps[step], "approve", EXIT_OK);
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
	evaluate(e, pr, &ev);
	if (ev.status == AA_ENOTFOUND) {
		step_reason(s, "PR #%lld not found", (long long)pr);
		step_finish(e->report, s, "skipped", EXIT_OK);
		goto out;
	}
	if (ev.skip) {
		memcpy(s->head, ev.g.pull.head_sha, SHA_BUF);
		s->draft = ev.g.pull.draft;
		step_reason(s, "%s", ev.skip_why.ptr);
		step_finish(e->report, s, "skipped", EXIT_OK);
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
			    (long long)pr, gh_err(e));
		withhold(e, step, pr, &ev, true, engine_dismiss_message);
		break;
	default:
		withhold(e, step, pr, &ev, false, engine_dismiss_message);
		break;
	}
out:
	evaluation_release(&ev);
}

/* --- sweep (§7) --- */

/* What the listing's newest status per context says about selection. */
enum pick { PICK_YES, PICK_NO, PICK_UNSURE };

static enum pick pick_from_listing(struct engine *e,
				   const struct gh_pull_brief *b)
{
	const struct snap_status *clean = NULL;
	size_t i;

	if (!b->has_contexts)
		return PICK_UNSURE;
	for (i = 0; i < b->contexts.n; i++)
		if (strcmp(b->contexts.v[i].context, e->policy->clean_context) ==
		    0)
			clean = &b->contexts.v[i];
	if (!clean)
		return PICK_NO; /* no clean-context status at all */
	if (stamp_trusted(clean, e->policy) &&
	    stamp_desc_has_pr(clean->description, b->number))
		return PICK_YES;
	return PICK_UNSURE; /* an older trusted one may hide below */
}

static bool approved_in_listing(struct engine *e, const struct gh_pull_brief *b)
{
	size_t i;

	for (i = 0; i < b->napprovers; i++)
		if (policy_is_trusted(e->policy, b->approvers[i]))
			return true;
	return false;
}

/* What a sweep does with each open PR. */
enum sweep_plan {
	PLAN_SKIP,      /* not in the review flow */
	PLAN_EVALUATE,  /* run the gate */
	PLAN_UNCHANGED, /* unchanged since the last sweep */
	PLAN_FAILED,    /* a selection read failed: the gate decides (N15) */
	PLAN_UNREACHED  /* the deadline came before it was selected (A6) */
};

/*
 * Is the PR in the review flow: a trusted pr=#N: clean-context status on
 * its head, or an approval of the trusted login to re-judge? Decided from
 * the listing when it is certain, else by reading; a read that fails
 * selects it (N15) as PLAN_FAILED, so that a gate that cannot run either
 * still reports an error (A6), never a silent skip.
 */
static enum sweep_plan sweep_selects(struct engine *e,
				     const struct gh_pull_brief *b)
{
	struct snap_statuses st;
	struct gh_pull g;
	enum pick pick = pick_from_listing(e, b);
	enum sweep_plan plan = PLAN_SKIP;
	size_t i;

	if (pick == PICK_YES)
		return PLAN_EVALUATE;
	if (pick == PICK_UNSURE) {
		if (e->gh->ops->statuses(e->gh, b->number, b->head_sha,
					 STATUS_NEED_CLEAN, &st) < 0)
			return PLAN_FAILED;
		plan = stamp_clean(&st, e->policy, b->number) ? PLAN_EVALUATE
							       : PLAN_SKIP;
		snap_statuses_release(&st);
		if (plan == PLAN_EVALUATE)
			return plan;
	}
	if (b->has_approvers)
		return approved_in_listing(e, b) ? PLAN_EVALUATE : PLAN_SKIP;
	if (e->gh->ops->pull(e->gh, b->number, PART_REVIEWS, &g) != AA_OK)
		return PLAN_FAILED;
	if (!(g.ok & PART_REVIEWS))
		plan = PLAN_FAILED;
	for (i = 0; i < g.pull.nreviews && plan == PLAN_SKIP; i++)
		if (is_trusted_approval(e, &g.pull.reviews[i]))
			plan = PLAN_EVALUATE;
	gh_pull_release(&g);
	return plan;
}

/* Unchanged since the last sweep, and that sweep's outcome still holds? */
static const struct sweep_entry *sweep_unchanged(struct engine *e,
						 const struct gh_pull_brief *b)
{
	const struct sweep_entry *x;
	int64_t now;

	if (!e->sweep_state || !b->digest[0])
		return NULL;
	x = sweepstate_find(e->sweep_state, b->number);
	if (!x || strcmp(x->digest, b->digest) != 0)
		return NULL;
	now = e->gh->ops->now(e->gh);
	if (x->evaluated_at > now || now - x->evaluated_at >= e->sweep_ttl_ms)
		return NULL; /* expired, or dated in the future: re-read */
	if (strcmp(x->outcome, "approve") != 0 &&
	    strcmp(x->outcome, "withhold") != 0 &&
	    strcmp(x->outcome, "skipped") != 0)
		return NULL;
	return x;
}

/* Why a sweep must stop before PR i, or NULL: deadline or rate limit. */
static const char *sweep_must_stop(struct engine *e, struct buf *why)
{
	int64_t graphql, rest;

	if (e->deadline && e->gh->ops->now(e->gh) >= e->deadline) {
		buf_setf(why, "sweep deadline reached");
		return why->ptr;
	}
	e->gh->ops->budget(e->gh, &graphql, &rest);
	if ((graphql >= 0 && graphql < ENGINE_RESERVE_GRAPHQL) ||
	    (rest >= 0 && rest < ENGINE_RESERVE_REST)) {
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
			 const char *why)
{
	struct report_step *s = report_add_step(e->report, STEP_GATE, b->number);

	memcpy(s->head, b->head_sha, SHA_BUF);
	step_reason(s, "PR #%lld could not be checked for review (%s), and "
		       "the sweep stopped before its gate could run: %s",
		    (long long)b->number, gh_err(e), why);
	report_note(e->report, NOTE_ERROR,
		    "PR #%lld: the sweep could not read it: %s",
		    (long long)b->number, gh_err(e));
	step_finish(e->report, s, "error", EXIT_API);
}

/* The sweep stops at PR `from`: the rest are not reached. */
static void not_reached(struct engine *e, const struct gh_pull_brief *list,
			const char *plan, size_t from, size_t n,
			const char *why)
{
	struct report *r = e->report;
	size_t i, k = 0;

	for (i = from; i < n; i++) {
		if (plan[i] == PLAN_FAILED) {
			sweep_failed(e, &list[i], why);
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

/* Read ahead the next selected PRs from `from` on, SWEEP_PREFETCH at most. */
static void prefetch_from(struct engine *e, const struct gh_pull_brief *list,
			  const char *what, size_t from, size_t n, size_t *upto)
{
	int64_t prs[ENGINE_SWEEP_PREFETCH];
	size_t k = 0, i;

	for (i = from; i < n && k < ENGINE_SWEEP_PREFETCH; i++)
		if (what[i] == PLAN_EVALUATE || what[i] == PLAN_FAILED)
			prs[k++] = list[i].number;
	*upto = i;
	if (k > 1)
		e->gh->ops->prefetch(e->gh, prs, k);
}

static void sweep_skip(struct engine *e, const struct gh_pull_brief *b,
		       const char *why)
{
	struct report_step *s = report_add_step(e->report, STEP_GATE, b->number);

	memcpy(s->head, b->head_sha, SHA_BUF);
	step_reason(s, "%s", why);
	step_finish(e->report, s, "skipped", EXIT_OK);
}

void engine_sweep(struct engine *e)
{
	struct gh_pull_brief *list = NULL;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	int64_t *open_prs = NULL;
	char *what = NULL; /* per PR: an enum sweep_plan */
	size_t n = 0, i, upto = 0;

	if (e->stop)
		return;
	if (e->sweep_deadline) {
		e->deadline = e->gh->ops->now(e->gh) + e->sweep_deadline;
		github_set_deadline(e->gh, e->deadline);
	}
	if (e->gh->ops->open_pulls(e->gh, &list, &n) < 0) {
		report_note(e->report, NOTE_ERROR,
			    "cannot list the open pull requests: %s", gh_err(e));
		report_exit(e->report, EXIT_API);
		goto out;
	}
	what = xcalloc(n ? n : 1, 1);
	open_prs = xcalloc(n ? n : 1, sizeof(*open_prs));
	for (i = 0; i < n; i++) {
		open_prs[i] = list[i].number;
		if (sweep_unchanged(e, &list[i]))
			what[i] = PLAN_UNCHANGED;
		else if (e->deadline && e->gh->ops->now(e->gh) >= e->deadline)
			what[i] = PLAN_UNREACHED; /* A6: selection included */
		else
			what[i] = (char)sweep_selects(e, &list[i]);
	}
	if (e->sweep_state)
		sweepstate_keep(e->sweep_state, open_prs, n);
	for (i = 0; i < n && !e->stop; i++) {
		const struct gh_pull_brief *b = &list[i];
		size_t step;

		if (e->progress)
			e->progress(e->progress_ctx, i, n);
		if ((what[i] == PLAN_EVALUATE || what[i] == PLAN_FAILED ||
		     what[i] == PLAN_UNREACHED) &&
		    sweep_must_stop(e, &why)) {
			not_reached(e, list, what, i, n, why.ptr);
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
		engine_gate(e, b->number);
		step = e->report->nsteps - 1;
		if (!e->sweep_state || e->stop)
			continue;
		if (strcmp(e->report->steps[step].outcome, "error") == 0)
			sweepstate_put(e->sweep_state, b->number, "", "error",
				       e->gh->ops->now(e->gh));
		else
			sweepstate_put(e->sweep_state, b->number, b->digest,
				       e->report->steps[step].outcome,
				       e->gh->ops->now(e->gh));
	}
	if (e->progress)
		e->progress(e->progress_ctx, n, n);
out:
	gh_briefs_free(list, n);
	free(what);
	free(open_prs);
	buf_release(&why);
}

/* --- events (§5.1) --- */

bool engine_dispatch_pr(const char *input, int64_t *pr)
{
	size_t n = input ? strlen(input) : 0;

	return n >= 1 && n <= 9 && parse_decimal(pr, input, n, 999999999) == 0 &&
	       *pr >= 1;
}

static bool pull_action_gates(const char *action)
{
	static const char *const actions[] = {"labeled", "unlabeled",
					      "synchronize", "reopened",
					      "edited"};
	size_t i;

	for (i = 0; action && i < ARRAY_SIZE(actions); i++)
		if (strcmp(action, actions[i]) == 0)
			return true;
	return false;
}

/* A status event: which PR does it concern (§5.1)? */
static void run_status(struct engine *e, const struct event *ev)
{
	struct gh_pull_brief *list = NULL;
	int64_t pr = stamp_desc_pr(ev->description), match = 0;
	size_t n = 0, i, matches = 0;
	struct gh_pull g;
	int error;

	if (strcmp(ev->context, e->policy->clean_context) != 0) {
		report_note(e->report, NOTE_NOTICE,
			    "status of context '%s': nothing to do", ev->context);
		return;
	}
	if (pr) {
		error = e->gh->ops->pull(e->gh, pr, PART_PULL, &g);
		if (error == AA_OK && !(g.ok & PART_PULL)) {
			/* Unknown state: let the gate read again and fail
			 * closed on its own. */
			gh_pull_release(&g);
			engine_gate(e, pr);
			return;
		}
		if (error == AA_OK && snap_pull_is_open(&g.pull)) {
			gh_pull_release(&g);
			engine_gate(e, pr);
			return;
		}
		if (error == AA_OK)
			gh_pull_release(&g);
	}
	if (e->gh->ops->open_pulls(e->gh, &list, &n) < 0) {
		report_note(e->report, NOTE_ERROR,
			    "cannot list the open pull requests: %s", gh_err(e));
		report_exit(e->report, EXIT_API);
		gh_briefs_free(list, n);
		return;
	}
	for (i = 0; i < n; i++)
		if (strcmp(list[i].head_sha, ev->sha) == 0) {
			matches++;
			match = list[i].number;
		}
	gh_briefs_free(list, n);
	if (matches == 1)
		engine_gate(e, match);
	else
		report_note(e->report, NOTE_NOTICE,
			    "status on %s matches %zu open PRs: nothing to do",
			    ev->sha, matches);
}

void engine_run(struct engine *e, const struct event *ev)
{
	int64_t pr = 0;

	if (e->stop)
		return;
	switch (ev->kind) {
	case EV_ISSUE_COMMENT:
		if (!ev->on_pull) {
			report_note(e->report, NOTE_NOTICE,
				    "comment on issue #%lld, not a pull request: "
				    "nothing to do", (long long)ev->pr);
			return;
		}
		if (strcmp(ev->action, "created") == 0)
			engine_apply(e, ev->pr, &ev->comment, false);
		engine_gate(e, ev->pr);
		return;
	case EV_PULL_REQUEST:
		if (!pull_action_gates(ev->action)) {
			report_note(e->report, NOTE_NOTICE,
				    "pull request action '%s' on #%lld: nothing "
				    "to do", ev->action, (long long)ev->pr);
			return;
		}
		engine_gate(e, ev->pr);
		return;
	case EV_DISPATCH:
		if (!engine_dispatch_pr(ev->dispatch_pr, &pr)) {
			report_note(e->report, NOTE_ERROR,
				    "workflow_dispatch input pr '%s' is not a "
				    "PR number", ev->dispatch_pr ? ev->dispatch_pr
								 : "");
			report_exit(e->report, EXIT_USAGE);
			return;
		}
		engine_gate(e, pr);
		return;
	case EV_STATUS:
		run_status(e, ev);
		return;
	case EV_SCHEDULE:
		engine_sweep(e);
		return;
	case EV_OTHER:
		report_note(e->report, NOTE_NOTICE,
			    "event '%s': nothing to do", ev->name);
		return;
	}
}
