/*
 * writes.c - every GitHub write of apply and the gate: the identity check
 * (T4) before the first one, the write through the port, the lost answer
 * judged by reading again (core/landed.h), and its line in the report.
 */
#include "run/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/landed.h"
#include "core/verdict.h"

/* Color and description of the escalation label when we create it. */
static const char label_color[] = "b60205";
static const char label_description[] =
	"A human must sign off before merge (agentic escalation)";

const char *engine_pull_error(int error, const struct gh_pull *g,
                              const struct buf *err)
{
	if (error == AA_OK && g->error)
		return g->error;
	return err->len ? err->ptr : "unknown error";
}

enum identity_state engine_identity(const struct engine *e,
				    const char *login)
{
	if (!e->identity_login || !login ||
	    !str_eq_nocase(e->identity_login, login))
		return ID_UNCHECKED;
	return e->identity;
}

void engine_identity_set(struct engine *e, const char *login,
			 enum identity_state state)
{
	free(e->identity_login);
	e->identity_login = xstrdup(login);
	e->identity = state;
}

int engine_identity_is(struct engine *e, struct report_step *s,
                        const char *want, const char *role)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *login = NULL;
	int error = AA_OK;

	if (engine_identity(e, want) == ID_TRUSTED)
		return AA_OK;
	if (e->gh->ops->user(e->gh, &login, &err) < 0) {
		step_reason(s, "the token's identity could not be read");
		report_note(e->report, NOTE_ERROR,
		            "cannot read the token's identity (GET /user): %s; "
		            "nothing written",
		            err.ptr);
		error = AA_EAPI;
	} else if (!str_eq_nocase(login, want)) {
		step_reason(s, "the token belongs to %s, not the %s %s", login,
		            role, want);
		report_note(e->report, NOTE_ERROR,
		            "the write token belongs to '%s', not the %s '%s'; "
		            "nothing written",
		            login, role, want);
		error = AA_EUSAGE;
	}
	free(login);
	buf_release(&err);
	if (error == AA_OK)
		engine_identity_set(e, want, ID_TRUSTED);
	return error;
}

int engine_identity_check(struct engine *e, size_t step)
{
	struct report_step *s = &e->report->steps[step];
	const char *want = e->policy->trusted_login;
	int error;

	if (engine_identity(e, want) == ID_FAILED)
		return AA_EUSAGE;
	error = engine_identity_is(e, s, want, "trusted login");
	if (error < 0) {
		/* The flow ends the step as an error (engine_result_error). */
		engine_identity_set(e, want, ID_FAILED);
		e->stop = true;
	}
	return error;
}

/*
 * A write's answer, settled: a lost one (AA_ELOST) is judged by reading
 * again what the write changes and asking core/landed.h whether its effect
 * shows — AA_OK when it does, AA_EAPI when it does not or the read failed.
 * A failed write's own message stays in the err its caller passed (N80),
 * whatever the re-read said. `*review_id` (when not NULL) is the approval that
 * shows.
 */
static int settle(struct engine *e, int error, int64_t pr, const char *sha,
                  const struct landed_write *w, int64_t *review_id)
{
	struct landed_seen seen = {0};
	struct snap_statuses st = {0};
	struct buf why = BUF_INIT(BUF_MAX_SMALL); /* the re-read's: not kept */
	struct gh_pull p = {0};
	char *label = NULL;
	bool exists = false;
	ptrdiff_t at = -1;

	if (error != AA_ELOST)
		return error;
	switch (w->kind) {
	case LANDED_CREATE_LABEL:
		if (e->gh->ops->label_exists(e->gh, pr, w->label, &exists,
		                             &why) == AA_OK &&
		    exists) {
			label = xstrdup(w->label);
			seen.labels = &label;
			seen.nlabels = 1;
		}
		break;
	case LANDED_ADD_LABEL:
		if (e->gh->ops->pull(e->gh, pr, PART_LABELS | PART_FRESH, &p,
		                     &why) == AA_OK &&
		    (p.ok & PART_LABELS)) {
			seen.labels = p.pull.labels;
			seen.nlabels = p.pull.nlabels;
		}
		break;
	case LANDED_STATUS:
		if (e->gh->ops->statuses(e->gh, pr, sha, STATUS_NEED_CLEAN, &st,
		                         &why) == AA_OK) {
			seen.statuses = st.v;
			seen.nstatuses = st.n;
		}
		break;
	default: /* LANDED_APPROVE, LANDED_DISMISS */
		if (e->gh->ops->pull(e->gh, pr, PART_REVIEWS | PART_FRESH, &p,
		                     &why) == AA_OK &&
		    (p.ok & PART_REVIEWS)) {
			seen.reviews = p.pull.reviews;
			seen.nreviews = p.pull.nreviews;
		}
		break;
	}
	at = landed(w, &seen, e->policy);
	if (at >= 0 && review_id && seen.reviews)
		*review_id = seen.reviews[at].id;
	free(label);
	gh_pull_release(&p);
	snap_statuses_release(&st);
	buf_release(&why);
	return at >= 0 ? AA_OK : AA_EAPI;
}

/* A failed write, with its own message: note it; the flow ends its step
 * as an error (exit 3). */
static int failed(struct engine *e, size_t step, const char *what,
                  const struct buf *err)
{
	struct report_step *s = &e->report->steps[step];

	step_reason(s, "%s failed", what);
	report_note(e->report, NOTE_ERROR, "PR #%lld: %s failed: %s",
		    (long long)s->pr, what, err->ptr);
	return AA_EAPI;
}

/* The escalation this run meant to set is missing (§3.1, N28): the gate
 * of this PR counts the label as set, never as absent by choice. */
static void label_missing(struct engine *e, int64_t pr)
{
	ALLOC_GROW(e->label_failed, e->nlabel_failed + 1, e->alabel_failed);
	e->label_failed[e->nlabel_failed++] = pr;
}

int engine_create_label(struct engine *e, size_t step, int64_t pr)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct report_write *w;
	int error;

	const struct landed_write lw = {.kind = LANDED_CREATE_LABEL,
	                                .label = e->policy->label};

	if ((error = engine_identity_check(e, step)) < 0)
		return error;
	error = e->gh->ops->create_label(e->gh, pr, e->policy->label,
	                                 label_color, label_description, &err);
	/* 422 "already_exists": someone created it meanwhile, which is what
	 * this write was for — judged like a lost answer, by looking. */
	if (error < 0 && settle(e, error == AA_EREJECTED ? AA_ELOST : error, pr,
	                        NULL, &lw, NULL) < 0) {
		label_missing(e, pr); /* so is the label it was to carry */
		error = failed(e, step, "creating the label", &err);
	} else {
		w = report_add_write(e->report, W_CREATE_LABEL, pr);
		w->label = xstrdup(e->policy->label);
		error = AA_OK;
	}
	buf_release(&err);
	return error;
}

int engine_add_label(struct engine *e, size_t step, int64_t pr)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct report_write *w;
	int error;

	const struct landed_write lw = {.kind = LANDED_ADD_LABEL,
	                                .label = e->policy->label};

	if ((error = engine_identity_check(e, step)) < 0)
		return error;
	error = e->gh->ops->add_label(e->gh, pr, e->policy->label, &err);
	if (settle(e, error, pr, NULL, &lw, NULL) < 0) {
		label_missing(e, pr);
		error = failed(e, step, "adding the label", &err);
	} else {
		w = report_add_write(e->report, W_LABEL, pr);
		w->label = xstrdup(e->policy->label);
		error = AA_OK;
	}
	buf_release(&err);
	return error;
}

int engine_set_status(struct engine *e, size_t step, int64_t pr,
			const char *sha, const char *state,
			const char *description, const char *target_url)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct report_write *w;
	int error;

	const struct landed_write lw = {
	    .kind = LANDED_STATUS,
	    .state = state,
	    .context = e->policy->clean_context,
	    .description = description,
	    .target_url = target_url,
	    .pr = pr,
	};

	if ((error = engine_identity_check(e, step)) < 0)
		return error;
	error = e->gh->ops->create_status(e->gh, pr, sha, state,
	                                  e->policy->clean_context, description,
	                                  target_url, &err);
	if (settle(e, error, pr, sha, &lw, NULL) < 0) {
		error = failed(e, step, "writing the status", &err);
	} else {
		w = report_add_write(e->report, W_STATUS, pr);
		memcpy(w->sha, sha, SHA_BUF);
		w->state = xstrdup(state);
		w->context = xstrdup(e->policy->clean_context);
		w->description = xstrdup(description);
		w->target_url = xstrdup_or_null(target_url);
		error = AA_OK;
	}
	buf_release(&err);
	return error;
}

int engine_write_approval(struct engine *e, size_t step, int64_t pr,
			 const char *head, int64_t *review_id)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct report_write *w;
	int error;

	const struct landed_write lw = {.kind = LANDED_APPROVE,
	                                .commit_id = head};

	if ((error = engine_identity_check(e, step)) < 0)
		return error;
	error = e->gh->ops->approve(e->gh, pr, head, engine_approval_body,
	                            review_id, &err);
	if (settle(e, error, pr, NULL, &lw, review_id) < 0) {
		error = failed(e, step, "approving", &err);
	} else {
		w = report_add_write(e->report, W_APPROVE, pr);
		memcpy(w->commit_id, head, SHA_BUF);
		error = AA_OK;
	}
	buf_release(&err);
	return error;
}

static int cmp_review_id(const void *a, const void *b)
{
	const struct snap_review *const *x = a, *const *y = b;

	return ((*x)->id > (*y)->id) - ((*x)->id < (*y)->id);
}

int engine_dismiss_approvals(struct engine *e, size_t step, int64_t pr,
		       const struct snap_review *reviews, size_t n,
		       const char *message)
{
	const struct snap_review **mine =
		xcalloc(n ? n : 1, sizeof(const struct snap_review *));
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t nmine = 0, i;
	int error = AA_OK, r;

	for (i = 0; i < n; i++)
		if (verdict_trusted_approval(&reviews[i], e->policy))
			mine[nmine++] = &reviews[i];
	qsort(mine, nmine, sizeof(const struct snap_review *), cmp_review_id);
	for (i = 0; i < nmine; i++) {
		const struct landed_write lw = {.kind = LANDED_DISMISS,
		                                .id = mine[i]->id};
		struct report_write *w;

		if ((r = engine_identity_check(e, step)) < 0) {
			error = r;
			break;
		}
		buf_reset(&err);
		r = e->gh->ops->dismiss(e->gh, pr, mine[i]->id, message, &err);
		if (settle(e, r, pr, NULL, &lw, NULL) < 0) {
			struct report_step *s = &e->report->steps[step];

			step_reason(s, "dismissing review %lld failed",
				    (long long)mine[i]->id);
			report_note(e->report, NOTE_ERROR,
				    "PR #%lld: dismissing review %lld failed: %s",
				    (long long)pr, (long long)mine[i]->id,
				    err.ptr);
			error = AA_EAPI;
			continue;
		}
		w = report_add_write(e->report, W_DISMISS, pr);
		w->review_id = mine[i]->id;
	}
	free(mine);
	buf_release(&err);
	return error;
}

bool engine_label_failed(const struct engine *e, int64_t pr)
{
	size_t i;

	for (i = 0; i < e->nlabel_failed; i++)
		if (e->label_failed[i] == pr)
			return true;
	return false;
}
