/*
 * publish.c - `publish` (PUBLISH.md §7): findings in; the sticky, the
 * inline roots and the `pr-review` status out, in the write order of §7.2
 * that never lets a crash or a failure leave a better tier than the
 * findings justify (X8): the first sticky write is pessimistic (S: every
 * attempt pending, PARTIAL) and the status is `pending` until the
 * reconciled sticky (R) is written.
 *
 * A write whose answer is lost is judged by reading again: done when its
 * effect shows, failed otherwise. Nothing is ever re-sent blindly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "run/engine_int.h"
#include "run/publish_int.h"

static void pub_release(struct pub *u)
{
	rv_pr_release(&u->p);
	snap_statuses_release(&u->st);
	for (size_t i = 0; i < u->nfiles; i++)
		diff_file_release(&u->files[i]);
	free(u->files);
	for (size_t i = 0; u->prev_url && i < u->m.n; i++)
		free(u->prev_url[i]);
	free(u->prev_url);
	if (u->has_model)
		review_model_release(&u->m);
	inline_plan_release(&u->plan);
	free(u->sticky_url);
	buf_release(&u->body);
	buf_release(&u->files_error);
	free(u->deleted);
}

/* --- the model --- */

/* GET the files; a failure's message is kept for when the files turn
 * out to be needed. */
static int read_files(struct pub *u)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	struct snap_file *files = NULL;
	size_t n = 0;

	if (r->files(u->e->gh, u->pr, &files, &n, &u->files_error) < 0)
		return AA_EAPI;
	u->files = xcalloc(n ? n : 1, sizeof(*u->files));
	for (size_t i = 0; i < n; i++) {
		/* A patch that does not parse anchors nothing (fail closed):
		 * diff_file_init keeps the path with no hunks. */
		diff_file_init(&u->files[i], files[i].filename,
			       files[i].patch,
			       files[i].patch ? strlen(files[i].patch) : 0,
			       NULL);
		snap_file_release(&files[i]);
	}
	u->nfiles = n;
	free(files);
	return AA_OK;
}

/* M1-M9 and I5; AA_OK, or the step is finished. */
static int build_model(struct pub *u)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct merge_ctx ctx = {0};
	struct merge_root *roots;
	int error;

	if (u->p.trusted &&
	    (u->p.info.state.present || u->p.info.state.from_rows))
		u->prior = &u->p.info.state;
	ctx.prior = u->prior;
	ctx.pr_author = u->p.pull.pull.author;
	ctx.review_login = policy_review_login(u->e->policy);
	if (merge_run(&u->m, u->in, &ctx, &err) < 0) {
		step_reason(STEP(u), "%s", err.ptr);
		pub_finish(u, OUT_ERROR, EXIT_USAGE);
		buf_release(&err);
		return AA_EUSAGE;
	}
	u->has_model = true;
	roots = xcalloc(u->p.nroots ? u->p.nroots : 1, sizeof(*roots));
	for (size_t i = 0; i < u->p.nroots; i++) {
		roots[i].id = u->p.roots[i].id;
		roots[i].slug = u->p.roots[i].slug;
	}
	error = merge_check_ids(&u->m, u->prior, roots, u->p.nroots, &err);
	u->next_id = rv_next_id(&u->p, &u->m, u->prior);
	free(roots);
	if (error < 0) {
		step_reason(STEP(u), "%s", err.ptr);
		pub_finish(u, OUT_ERROR, EXIT_USAGE);
		buf_release(&err);
		return AA_EUSAGE;
	}
	buf_release(&err);
	for (size_t i = 0; i < u->m.nreasons; i++)
		step_reason(STEP(u), "%s", u->m.reasons[i]);
	u->iteration = merge_iteration(
		u->p.trusted, u->p.info.state.present,
		u->p.info.state.iteration, u->p.info.sha, u->in->head);
	return AA_OK;
}

/* G5: a locked MR (a merge in progress) is transient: exit 3, nothing
 * written. True when it is (the step is finished). */
static bool pub_locked(struct pub *u)
{
	if (strcmp(u->p.pull.pull.state, "locked") != 0)
		return false;
	step_reason(STEP(u), "the merge request is locked (a merge in "
			     "progress); rerun");
	pub_finish(u, OUT_ERROR, EXIT_API);
	return true;
}

static void files_failed(struct pub *u)
{
	step_reason(STEP(u), "the PR's files could not be read");
	report_note(u->e->report, NOTE_ERROR, "PR #%lld: %s", (long long)u->pr,
		    u->files_error.ptr);
	pub_finish(u, OUT_ERROR, EXIT_API);
}

/* §4.1 (the files read when there are candidates); AA_OK, or the step is
 * finished. */
static int plan_inline(struct pub *u)
{
	bool any = false;

	for (size_t i = 0; i < u->m.n && !any; i++)
		any = inline_candidate(&u->m.f[i], u->p.roots, u->p.nroots,
		                       u->in->head);
	/* publish_may_post() is a superset of the candidates: a read after the
	 * PR's is a fallback (W1 then re-reads the head, G). */
	if (any && !u->files_read) {
		u->files_read = read_files(u) == AA_OK ? 1 : -1;
		u->head_stale = true;
	}
	if (any && u->files_read < 0) {
		files_failed(u);
		return AA_EAPI;
	}
	/* G8: positions need the head's diff. */
	if (any && u->e->gh->gitlab) {
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		int error =
		    u->e->gh->ops->review->diff_ready(u->e->gh, u->pr, &err);

		if (error < 0) {
			step_reason(STEP(u), "%s", err.ptr);
			pub_finish(u, OUT_ERROR, EXIT_API);
		}
		buf_release(&err);
		if (error < 0)
			return AA_EAPI;
	}
	{
		struct inline_params ip = {
			.head = u->in->head,
			.iteration = u->iteration,
			.inline_cap = u->e->policy->inline_cap,
			.ramp_p2_last_iteration =
				u->e->policy->ramp_p2_last_iteration,
		};

		inline_select(&u->plan, u->m.f, u->m.n, u->files, u->nfiles,
			      u->p.roots, u->p.nroots, &ip);
	}
	u->prev_url = xcalloc(u->m.n + 1, sizeof(*u->prev_url));
	for (size_t i = 0; i < u->plan.n; i++) {
		const struct inline_root *prev = u->plan.v[i].previous;

		u->prev_url[u->plan.v[i].finding] =
			prev ? xstrdup_or_null(prev->html_url) : NULL;
		u->plan.v[i].previous = NULL;
	}
	/* Step 4: the assertions drop a thread, never its finding (X11). */
	for (size_t i = u->plan.n; i-- > 0;) {
		struct rv_finding *f = &u->m.f[u->plan.v[i].finding];
		const char *why;

		if (root_assert(f, &why) == AA_OK)
			continue;
		f->thread = RV_THREAD_DROPPED;
		f->thread_reason = why;
		inline_plan_drop(&u->plan, i);
		u->ndropped++;
	}
	return AA_OK;
}

/*
 * §7.1 step 3 after I5: B2 (an incremental input needs a trusted past),
 * B3 (a review is bound to its base), then `superseded`
 * (core/publish.h). True when refused: the step has its outcome (exit 1,
 * nothing written).
 */
static bool refused(struct pub *u)
{
	const struct review_input *in = u->in;
	struct publish_refusal_input r = {
	    .incremental = in->mode == RV_INCREMENTAL,
	    .base = in->base,
	    .last_sha = in->last_sha,
	    .head = in->head,
	    .pr_base = u->p.pull.pull.base_ref,
	    .sticky = u->p.canonical != NULL,
	    .trusted = u->p.trusted,
	    .state = u->p.info.state.present,
	    .state_base = u->p.info.state.present ? u->p.info.state.base : NULL,
	    .sticky_sha = u->p.info.sha,
	};

	switch (publish_refusal(&r)) {
	case REFUSAL_NONE:
		return false;
	case REFUSAL_NO_TRUSTED_STATE:
		step_reason(STEP(u), "no trusted prior state: run a full "
				     "review");
		break;
	case REFUSAL_BASE:
		step_reason(STEP(u),
		            "the findings review the base '%s' but "
		            "the PR's base is '%s'",
		            in->base, r.pr_base ? r.pr_base : "");
		break;
	case REFUSAL_STATE_BASE:
		step_reason(STEP(u),
		            "the prior review was of %s%s%s, not of "
		            "the PR's base '%s': run a full review",
		            r.state_base ? "the base '" : "another base",
		            r.state_base ? r.state_base : "",
		            r.state_base ? "'" : "", r.pr_base);
		break;
	case REFUSAL_SUPERSEDED:
		step_reason(STEP(u), "the summary comment already reviews "
				     "%.7s, after this input's last %.7s",
			    u->p.info.sha, in->last_sha);
		pub_finish(u, OUT_SUPERSEDED, EXIT_REFUSED);
		return true;
	}
	pub_finish(u, OUT_REFUSED, EXIT_REFUSED);
	return true;
}

/* --- the protocol --- */

/* Delete comments ids[0..n), ascending (W2, W5). */
static int delete_ids(struct pub *u, const int64_t *ids, size_t n)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_OK;

	for (size_t i = 0; i < n; i++)
		if (pub_delete_comment(u, ids[i], &err) < 0) {
			pub_api_failure(
			    u, "deleting a duplicate summary comment", err.ptr);
			error = AA_EAPI;
		}
	buf_release(&err);
	return error;
}

/* The U1 stickies read last but the one written, ascending. */
static int64_t *others(const struct pub *u, size_t *n)
{
	int64_t *ids = xcalloc(u->p.nstickies + 1, sizeof(*ids));

	*n = 0;
	for (size_t i = 0; i < u->p.nstickies; i++)
		if (u->p.stickies[i]->id != u->sticky_id)
			ids[(*n)++] = u->p.stickies[i]->id;
	return ids;
}

/* W5's clean-up: every other U1 sticky now on the PR. */
static int delete_others(struct pub *u)
{
	size_t n;
	int64_t *ids = others(u, &n);
	int error = delete_ids(u, ids, n);

	free(ids);
	return error;
}

static void conclude(struct pub *u, enum rv_tier tier)
{
	struct publish_tally t = {
	    .dropped = u->ndropped,
	    .rejected = u->nrejected,
	    .failed = u->nfailed,
	    .status_unwritten = u->status_unwritten,
	    .incomplete = u->incomplete,
	};
	int code;
	enum publish_outcome out = publish_conclude(&t, &code);

	pub_finish_extra(u, tier, NULL);
	pub_finish(u, out == PUBLISH_PARTIAL ? OUT_PARTIAL : OUT_PUBLISHED,
	           code);
}

/* The final status failed (W6, or W3 without attempts), with its own
 * message in err: the sticky is PATCHed PARTIAL with status_unwritten,
 * so it never reads better than what GitHub shows. */
static void status_unwritten(struct pub *u, struct buf *err)
{
	struct buf body = BUF_INIT(BUF_MAX_DOC);
	enum rv_tier tier;

	pub_api_failure(u, "setting the pr-review status", err->ptr);
	u->status_unwritten = true;
	u->incomplete = true;
	if (pub_render(u, &body, true, &tier) == AA_OK &&
	    pub_sticky_patch(u, u->sticky_id, &body, err) < 0)
		pub_api_failure(u, "marking the summary comment PARTIAL",
		                err->ptr);
	buf_release(&body);
	conclude(u, RV_PARTIAL);
}

/* W6 (or W3 without attempts): the final status; on failure the sticky
 * is PATCHed PARTIAL with status_unwritten. */
static void final_status(struct pub *u, bool incomplete)
{
	struct buf desc = BUF_INIT(BUF_MAX_SMALL);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	enum rv_tier tier;
	const char *state;
	struct sticky_doc d;

	pub_doc_init(u, &d, incomplete);
	tier = sticky_tier(&d);
	pub_status_fields(u, tier, false, &state, &desc);
	if (pub_status_matches(u, state, desc.ptr, u->sticky_url) ||
	    pub_set_status(u, state, desc.ptr, &err) == AA_OK)
		conclude(u, tier);
	else
		status_unwritten(u, &err);
	buf_release(&desc);
	buf_release(&err);
}

/* How W5 came out. */
enum reconciled {
	RECONCILED,           /* R is written */
	RECONCILE_SUPERSEDED, /* a newer sticky reviews another head */
	RECONCILE_FAILED /* a read or R's write failed: W6 writes S's status */
};

/* W5: the reconciled sticky R over the real outcomes. */
static enum reconciled reconcile(struct pub *u)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const struct snap_comment *newest;
	enum rv_tier tier;
	enum reconciled out = RECONCILED;

	/* The roots too: the links of the threads W4 posted. */
	if (rv_pr_refresh(u->e, &u->p, RV_READ_COMMENTS | RV_READ_ROOTS, &err) <
	    0) {
		pub_api_failure(u, "re-reading the comments", err.ptr);
		buf_release(&err);
		return RECONCILE_FAILED;
	}
	/* Without the review comments the posted threads keep their
	 * review's link: R is still written, and the run ends exit 3 (a
	 * rerun links them). */
	if (u->p.rc_ok)
		pub_link_posted(u);
	else
		pub_api_failure(u, "re-reading the review comments", err.ptr);
	newest = u->p.canonical;
	if (newest && u->p.info.markers_ok &&
	    strcmp(u->p.info.sha, u->in->head) != 0) {
		step_reason(STEP(u), "a newer summary comment (%lld) reviews "
				     "%.7s", (long long)newest->id,
			    u->p.info.sha);
		pub_finish_extra(u, RV_PARTIAL, NULL);
		pub_finish(u, OUT_SUPERSEDED, EXIT_REFUSED);
		buf_release(&err);
		return RECONCILE_SUPERSEDED;
	}
	/* Same-head runs converge on the newest trusted sticky (§7.3). */
	if (newest && u->p.trusted && newest->id != u->sticky_id) {
		u->sticky_id = newest->id;
		free(u->sticky_url);
		u->sticky_url = xstrdup_or_null(newest->html_url);
	}
	buf_reset(&u->body);
	u->incomplete = pub_rows_incomplete(u);
	if (pub_render(u, &u->body, u->incomplete, &tier) < 0 ||
	    pub_sticky_patch(u, u->sticky_id, &u->body, &err) < 0) {
		pub_api_failure(u, "writing the reconciled summary comment",
		                err.ptr);
		out = RECONCILE_FAILED;
	} else if (delete_others(u) < 0) {
		u->exit = exit_merge(u->exit, EXIT_API);
	}
	buf_release(&err);
	return out;
}

/* U5 before the first write: on failure the step is finished (exit 2
 * for another login, 3 when /user cannot be read). */
static int identity(struct pub *u, enum rv_tier tier)
{
	int error = rv_identity(u->e, STEP(u));

	if (error < 0) {
		pub_finish_extra(u, tier, NULL);
		pub_finish(u, OUT_ERROR, error == AA_EUSAGE ? EXIT_USAGE : EXIT_API);
	}
	return error;
}

static void publish_writes(struct pub *u, struct buf *dry_out)
{
	const struct snap_comment *canon = u->p.canonical;
	bool attempts = u->plan.n > 0, create = !canon || !u->p.trusted;
	bool unchanged = false;
	int64_t *dups = NULL;
	size_t ndups = 0;
	struct buf desc = BUF_INIT(BUF_MAX_SMALL);
	struct buf fdesc = BUF_INIT(BUF_MAX_SMALL);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	enum rv_tier tier, ftier;
	const char *state;
	struct sticky_doc fd;

	/* The first sticky write: S with attempts, else F. */
	if (pub_render(u, &u->body, attempts || u->ndropped, &tier) < 0) {
		pub_finish_extra(u, tier, NULL);
		pub_finish(u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	/* F's tier, for the status and the review's description. */
	pub_doc_init(u, &fd, u->ndropped > 0);
	ftier = sticky_tier(&fd);
	pub_status_fields(u, ftier, false, &state, &fdesc);
	if (!create && !attempts)
		unchanged = pub_same_body(canon->body, canon->body_len, &u->body);

	if (u->dry) {
		/* §7.6: a dry run still checks the identity (T4). */
		if (identity(u, tier) < 0)
			goto out;
		pub_dry_run(u, &u->body, create, unchanged,
			attempts ? ftier : tier, dry_out);
		/* What the run would come to, were every write to land. */
		pub_finish(u, u->ndropped ? OUT_PARTIAL : OUT_PUBLISHED,
		       u->ndropped ? EXIT_REFUSED : EXIT_OK);
		goto out;
	}
	/* §7.3: nothing to write at all. */
	if (unchanged && u->p.nstickies == 1 &&
	    pub_status_matches(u, state, fdesc.ptr, canon->html_url)) {
		u->sticky_id = canon->id;
		u->sticky_url = xstrdup_or_null(canon->html_url);
		u->sticky_action = "unchanged";
		if (u->ndropped)
			step_reason(STEP(u), "the summary still reports %zu "
					     "thread(s) not posted",
				    u->ndropped);
		pub_finish_extra(u, tier, NULL);
		pub_finish(u, OUT_UNCHANGED, u->ndropped ? EXIT_REFUSED : EXIT_OK);
		goto out;
	}
	if (identity(u, tier) < 0)
		goto out;
	/* W1. What W2 deletes is fixed now: the duplicates H2 found (and
	 * an untrusted canonical this write replaces), never a sticky a
	 * concurrent run makes meanwhile. The canonical is copied out: a
	 * lost answer re-reads the comments it points into. */
	if (!create) {
		u->sticky_id = canon->id;
		u->sticky_url = xstrdup_or_null(canon->html_url);
	}
	dups = others(u, &ndups);
	canon = NULL;
	/* G: the PR read was the last read (P38), unless the files came
	 * after it. */
	if (u->head_stale && pub_head_unmoved(u, 0, &err) < 0)
		goto out;
	if (unchanged) {
		u->sticky_action = "unchanged";
	} else if (create ? pub_sticky_create(u, &u->body, &err) < 0
	                  : pub_sticky_patch(u, u->sticky_id, &u->body, &err) <
	                        0) {
		pub_api_failure(u, "writing the summary comment", err.ptr);
		pub_finish_extra(u, tier, NULL);
		pub_finish(u, OUT_ERROR, EXIT_API);
		goto out;
	} else {
		u->sticky_action = create ? "create" : "update";
	}
	u->incomplete = attempts || u->ndropped;
	/* W2 */
	delete_ids(u, dups, ndups);
	if (!attempts) {
		final_status(u, u->ndropped > 0);
		goto out;
	}
	/* W3: pending until R is written; W4's G rides with it (P67). */
	rv_pr_beside(u->e, u->pr, RV_READ_ROOTS);
	pub_status_fields(u, tier, true, &state, &desc);
	if (pub_set_status(u, state, desc.ptr, &err) < 0)
		pub_api_failure(u, "setting the pending pr-review status",
		                err.ptr);
	/* W4: G and the re-list of the review comments, one read. */
	if (pub_head_unmoved(u, RV_READ_ROOTS, &err) < 0)
		goto out;
	if (!u->p.rc_ok) {
		pub_api_failure(u, "re-reading the review comments", err.ptr);
		for (size_t i = 0; i < u->plan.n; i++)
			pub_thread_failed(u, i);
		u->nfailed += u->plan.n;
	} else {
		pub_write_threads(u, fdesc.ptr);
	}
	/* W5, W6 */
	switch (reconcile(u)) {
	case RECONCILED:
		final_status(u, u->incomplete);
		break;
	case RECONCILE_SUPERSEDED:
		break;
	case RECONCILE_FAILED: {
		/* W6 writes S's PARTIAL status. */
		struct sticky_doc sd;
		enum rv_tier st;

		pub_doc_init(u, &sd, true);
		st = sticky_tier(&sd);
		pub_status_fields(u, st, false, &state, &desc);
		u->incomplete = true;
		if (pub_set_status(u, state, desc.ptr, &err) < 0)
			status_unwritten(u, &err);
		else
			conclude(u, st);
		break;
	}
	}
out:
	free(dups);
	buf_release(&desc);
	buf_release(&fdesc);
	buf_release(&err);
}

/* The first read of a publish (§7.1 step 2), beside the comments. */
#define PUB_FIRST_READ (RV_READ_ROOTS | RV_READ_STATUS | RV_READ_VIEWER)

struct engine_result engine_publish(struct engine *e, int64_t pr,
                                    struct review_input *in, bool dry,
                                    struct buf *dry_out)
{
	struct engine_result res;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct pub u = {0};
	const struct snap_pull *pull;
	int error;

	u.e = e;
	u.pr = pr;
	u.dry = dry;
	u.in = in;
	u.outcome = OUT_SKIPPED;
	buf_init(&u.body, BUF_MAX_DOC);
	buf_init(&u.files_error, BUF_MAX_SMALL);
	engine_add_step(e, STEP_PUBLISH, pr, &u.step);
	e->report->gitlab = e->gh->gitlab;
	/* GitLab: the head is the MR's, once read (G5). */
	if (!e->gh->gitlab)
		memcpy(STEP(&u)->head, in->head, SHA_BUF);

	/* §7.1 step 1 */
	if (in->mode == RV_NOOP) {
		step_reason(STEP(&u), "the input's mode is noop: nothing to "
				      "publish");
		pub_finish_extra(&u, RV_NOOP_TIER, NULL);
		pub_finish(&u, OUT_NOOP, EXIT_OK);
		goto out;
	}
	if (in->ndispatched && in->nfailures == in->ndispatched) {
		step_reason(STEP(&u), "every subagent failed: nothing to "
				      "publish");
		pub_finish_extra(&u, RV_PARTIAL, NULL);
		pub_finish(&u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	/* Step 2: the reads. */
	if (!e->gh->ops->review) {
		step_reason(STEP(&u), "this GitHub port cannot publish");
		pub_finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	/* G4: on GitLab the identity before any other read. */
	if ((error = rv_identity_first(e, STEP(&u))) < 0) {
		pub_finish(&u, OUT_ERROR,
			   error == AA_EUSAGE ? EXIT_USAGE : EXIT_API);
		goto out;
	}
	/* The files first when the input may post inline: the PR read is
	 * then the last read before W1, and serves as its G (P-note P38). */
	if (publish_may_post(in) && !e->gh->gitlab) { /* G5: diffs last */
		/* The PR read rides with the files' (P67). */
		rv_pr_beside(e, pr, PUB_FIRST_READ | RV_READ_COMMENTS);
		u.files_read = read_files(&u) == AA_OK ? 1 : -1;
	}
	error = rv_pr_read(e, pr, PUB_FIRST_READ, &u.p, &err);
	if (error == AA_OK && !u.p.rc_ok)
		error = AA_EAPI;
	if (e->gh->gitlab)
		memcpy(STEP(&u)->head, u.p.head, SHA_BUF);
	if (error == AA_ENOTFOUND) {
		/* publish is a direct command: exit 2 (§7.1 step 2). */
		engine_missing(e, STEP(&u), "PR #%lld does not exist",
			       (long long)pr);
		pub_finish(&u, OUT_ERROR, EXIT_USAGE);
		goto out;
	}
	if (error < 0) {
		pub_api_failure(&u, "reading the PR", err.ptr);
		pub_finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	/* A failed read fails the run (§7.1 step 2), a read made early for
	 * P38 too: exit 3 outranks what the model would say. */
	if (u.files_read < 0) {
		files_failed(&u);
		goto out;
	}
	pull = &u.p.pull.pull;
	if (pub_locked(&u))
		goto out;
	if (!snap_pull_is_open(pull)) {
		step_reason(STEP(&u), "the PR is %s",
			    pull->merged ? "merged" : "closed");
		pub_finish_extra(&u, RV_NOOP_TIER, NULL);
		pub_finish(&u, OUT_SKIPPED, EXIT_OK);
		goto out;
	}
	if (e->gh->ops->statuses(e->gh, pr, in->head, STATUS_NEED_REVIEW, &u.st,
	                         &err) < 0) {
		pub_api_failure(&u, "reading the head's statuses", err.ptr);
		pub_finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	u.has_st = true;
	/* Step 3 */
	if (strcmp(pull->head_sha, in->head) != 0) {
		step_reason(STEP(&u), "the findings review %.7s but the PR's "
				      "head is %.7s", in->head, pull->head_sha);
		pub_finish(&u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	if (build_model(&u) < 0 || refused(&u) || plan_inline(&u) < 0)
		goto out;
	if (!u.p.trusted && u.p.canonical)
		step_reason(STEP(&u), "the summary comment %lld is not "
				      "trusted: a new one replaces it",
			    (long long)u.p.canonical->id);
	publish_writes(&u, dry_out);
out:
	res.outcome = u.outcome;
	res.exit = u.outcome_exit;
	engine_finish(e, u.step, res);
	pub_release(&u);
	buf_release(&err);
	return res;
}
