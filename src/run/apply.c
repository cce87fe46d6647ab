/*
 * apply.c - the apply flow (BEHAVIOR §3): a trusted comment's verdict
 * becomes the needs-human label and the agentic-review/clean status.
 *
 * Read → decide (core/apply.h) → write → record: this file only performs
 * the reads a decision asks for, the writes it settles on, and puts what
 * was decided into the report: the label and check steps merge what they
 * came to into the step's result, which is recorded once, at the end.
 */
#include "run/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/apply.h"

static enum note_level note_level(enum say_level level)
{
	switch (level) {
	case SAY_ERROR:
		return NOTE_ERROR;
	case SAY_WARNING:
		return NOTE_WARNING;
	case SAY_NOTICE:
		return NOTE_NOTICE;
	case SAY_INFO:
		break;
	}
	return NOTE_INFO;
}

/* Put what a decision said into the step's reasons and the log. */
static void record_say(struct engine *e, struct report_step *s,
		       const struct apply_say *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].reason)
			step_reason(s, "%s", v[i].reason);
		if (v[i].note)
			report_note(e->report, note_level(v[i].level), "%s",
				    v[i].note);
	}
}

/* N10: the PR of the comment does not exist (any more). */
static void not_found(struct engine *e, struct report_step *s, int64_t pr,
                      struct engine_result *res)
{
	struct engine_result r =
	    engine_missing(e, s, "PR #%lld not found", (long long)pr);

	engine_result_merge(res, r.outcome, r.exit);
}

/* A write failed (its reason is on the step): the step is an error. */
static void write_failed(struct engine_result *res, int error)
{
	struct engine_result r = engine_result_error(error);

	engine_result_merge(res, r.outcome, r.exit);
}

/* §3.1: add the label for any needs-human: yes marker line. */
static void label(struct engine *e, size_t step, int64_t pr,
                  struct engine_result *res)
{
	struct apply_label_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	enum apply_label act;
	struct gh_pull g;
	int error;

	memset(&in, 0, sizeof(in));
	in.policy = e->policy;
	error = e->gh->ops->pull(e->gh, pr, PART_LABELS, &g, &err);
	if (error == AA_ENOTFOUND) {
		not_found(e, &e->report->steps[step], pr, res);
		buf_release(&err);
		return;
	}
	if (error == AA_OK && (g.ok & PART_LABELS))
		in.pull = &g.pull;
	else
		report_note(e->report, NOTE_WARNING,
		            "PR #%lld: the labels could not be read (%s); "
		            "adding %s anyway",
		            (long long)pr, engine_pull_error(error, &g, &err),
		            e->policy->label);
	act = apply_label_decide(&in);
	if (act == LABEL_READ_EXISTS) {
		/* N5: the repository lookup is part of the labels read; if
		 * it fails, add anyway (GitHub creates a missing label). */
		in.exists_known = true;
		if (e->gh->ops->label_exists(e->gh, pr, e->policy->label,
		                             &in.exists, &err) < 0)
			in.exists = true;
		act = apply_label_decide(&in);
	}
	gh_pull_release(&g);
	buf_release(&err);
	if (act == LABEL_PRESENT)
		return;
	if (act == LABEL_CREATE_ADD &&
	    (error = engine_create_label(e, step, pr)) < 0) {
		write_failed(res, error);
		return;
	}
	if ((error = engine_add_label(e, step, pr)) < 0)
		write_failed(res, error);
}

/* A read the check step needs failed: nothing written, exit 3. `why` is
 * the failure's message (NULL or "" when none was given). */
static void unread(struct engine *e, struct report_step *s, const char *what,
                   const char *why, struct engine_result *res)
{
	step_reason(s, "the %s could not be read", what);
	report_note(e->report, NOTE_ERROR,
	            "PR #%lld: the %s could not be read (%s); the verdict was "
	            "not judged",
	            (long long)s->pr, what,
	            why && *why ? why : "unknown error");
	engine_result_merge(res, OUT_ERROR, EXIT_API);
}

/* §3.3: judge the check block; write the clean status (once). `read`,
 * when not NULL, is the PR as the comment's own read found it (apply
 * --comment reads both at once): no second read of the PR. */
static void check(struct engine *e, size_t step, int64_t pr,
                  const struct snap_comment *comment,
                  const struct marker_result *m, const struct gh_pull *read,
                  struct engine_result *res)
{
	struct apply_check_input in;
	struct apply_check c;
	struct snap_statuses st, history;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	bool in_pull;
	int error;

	memset(&in, 0, sizeof(in));
	memset(&st, 0, sizeof(st));
	memset(&history, 0, sizeof(history));
	memset(&g, 0, sizeof(g));
	in.policy = e->policy;
	in.pr = pr;
	in.comment = comment;
	in.marker = m;
	apply_check_init(&c);
	for (;;) {
		apply_check_decide(&c, &in);
		switch (c.next) {
		case CHECK_READ_PULL:
			if (read && !(read->ok & PART_PULL)) {
				unread(e, &e->report->steps[step],
				       "pull request", read->error, res);
				goto out;
			}
			if (read) {
				in.pull = &read->pull;
				in.threads_ok = (read->ok & PART_THREADS) != 0;
				continue;
			}
			error = e->gh->ops->pull(
			    e->gh, pr, PART_PULL | PART_THREADS, &g, &err);
			if (error == AA_ENOTFOUND) {
				not_found(e, &e->report->steps[step], pr, res);
				goto out;
			}
			if (error < 0 || !(g.ok & PART_PULL)) {
				unread(e, &e->report->steps[step],
				       "pull request",
				       engine_pull_error(error, &g, &err), res);
				goto out;
			}
			in.pull = &g.pull;
			in.threads_ok = (g.ok & PART_THREADS) != 0;
			continue;
		case CHECK_READ_COMMITS:
			if (e->gh->ops->commit_in_pull(e->gh, pr, m->check.head,
			                               &in_pull, &err) < 0) {
				unread(e, &e->report->steps[step], "commits",
				       err.ptr, res);
				goto out;
			}
			in.head_in_pull = in_pull ? TRI_YES : TRI_NO;
			continue;
		case CHECK_READ_STATUSES:
			if (e->gh->ops->statuses(e->gh, pr, m->check.head,
			                         STATUS_NEED_CLEAN |
			                             STATUS_NEED_ROUND,
			                         &st, &err) < 0) {
				unread(e, &e->report->steps[step], "statuses",
				       err.ptr, res);
				goto out;
			}
			in.statuses = &st;
			continue;
		case CHECK_READ_HISTORY:
			if (e->gh->ops->statuses(e->gh, pr, m->check.head,
			                         STATUS_NEED_HISTORY, &history,
			                         &err) < 0) {
				unread(e, &e->report->steps[step], "statuses",
				       err.ptr, res);
				goto out;
			}
			in.history = &history;
			continue;
		case CHECK_REFUSED:
		case CHECK_UNREAD:
		case CHECK_WRITE:
		case CHECK_UNCHANGED:
			break;
		}
		break;
	}
	record_say(e, &e->report->steps[step], c.say, c.nsay);
	switch (c.next) {
	case CHECK_REFUSED:
		engine_result_merge(res, OUT_REFUSED,
		                    c.quiet ? EXIT_OK : EXIT_REFUSED);
		break;
	case CHECK_UNREAD:
		/* What the decision found unread came with the pull. */
		unread(e, &e->report->steps[step], c.unread,
		       read ? read->error : g.error, res);
		break;
	case CHECK_WRITE:
		e->report->steps[step].clean = c.clean;
		error = engine_set_status(e, step, pr, m->check.head, c.state,
		                          c.description.ptr, comment->html_url);
		if (error < 0)
			write_failed(res, error);
		break;
	case CHECK_UNCHANGED:
		e->report->steps[step].clean = c.clean;
		break;
	default:
		break;
	}
out:
	apply_check_release(&c);
	snap_statuses_release(&history);
	snap_statuses_release(&st);
	gh_pull_release(&g);
	buf_release(&err);
}

/* §3: apply comment `c`; `read` as for check(). */
static struct engine_result apply(struct engine *e, int64_t pr,
                                  const struct snap_comment *c, bool reread,
                                  const struct gh_pull *read)
{
	struct apply_input in = {e->policy, pr, c, reread};
	struct engine_result res = {OUT_SKIPPED, EXIT_OK};
	struct apply_decision d;
	struct report_step *s;
	size_t step;

	if (e->stop)
		return res;
	s = engine_add_step(e, STEP_APPLY, pr, &step);
	s->comment = c->id;
	apply_classify(&d, &in);
	s->needs_human = d.needs_human;
	memcpy(s->head, d.head, SHA_BUF);
	record_say(e, s, d.say, d.nsay);
	switch (d.outcome) {
	case APPLY_SKIPPED:
		break;
	case APPLY_REFUSED:
		res.outcome = OUT_REFUSED;
		res.exit = EXIT_REFUSED;
		break;
	case APPLY_APPLIED:
		/* Applied, unless its label or check step says worse. */
		res.outcome = OUT_APPLIED;
		if (d.label)
			label(e, step, pr, &res);
		if (d.check && !e->stop)
			check(e, step, pr, c, &d.marker, read, &res);
		break;
	}
	apply_decision_release(&d);
	engine_finish(e, step, res);
	return res;
}

struct engine_result engine_apply(struct engine *e, int64_t pr,
                                  const struct snap_comment *c, bool reread)
{
	return apply(e, pr, c, reread, NULL);
}

struct engine_result engine_apply_id(struct engine *e, int64_t pr, int64_t id)
{
	struct engine_result res = {OUT_SKIPPED, EXIT_OK};
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct report_step *s;
	struct gh_pull g;
	size_t i, step;
	int error;

	if (e->stop)
		return res;
	/* The comment, and the PR and threads its check block is judged
	 * against: one read (one GraphQL query live). */
	error = e->gh->ops->pull(
	    e->gh, pr, PART_COMMENTS | PART_PULL | PART_THREADS, &g, &err);
	if (error == AA_OK && (g.ok & PART_COMMENTS)) {
		for (i = 0; i < g.pull.ncomments; i++)
			if (g.pull.comments[i].id == id) {
				res =
				    apply(e, pr, &g.pull.comments[i], true, &g);
				gh_pull_release(&g);
				buf_release(&err);
				return res;
			}
	}
	s = engine_add_step(e, STEP_APPLY, pr, &step);
	s->comment = id;
	if (error == AA_ENOTFOUND) {
		res = engine_missing(e, s, "PR #%lld not found", (long long)pr);
	} else if (error < 0 || !(g.ok & PART_COMMENTS)) {
		step_reason(s, "the comments could not be read");
		report_note(e->report, NOTE_ERROR,
		            "PR #%lld: the comments could not be read: %s",
		            (long long)pr, engine_pull_error(error, &g, &err));
		res.outcome = OUT_ERROR;
		res.exit = EXIT_API;
	} else {
		res = engine_missing(
		    e, s, "comment %lld is not a comment of PR #%lld",
		    (long long)id, (long long)pr);
	}
	engine_finish(e, step, res);
	gh_pull_release(&g);
	buf_release(&err);
	return res;
}
