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
#include "core/merge.h"
#include "run/review.h"
#include "run/review_int.h"

/* Everything one publish holds (largest members first: no padding). */
struct pub {
	struct engine *e;
	struct review_input *in;
	const struct review_state *prior; /* the trusted sticky's state */
	struct diff_file *files;
	/* Per finding: the previous thread's link of a reopened one, copied
	 * (W4's re-list replaces the roots the plan points into). */
	char **prev_url;
	/* The sticky this run wrote (or found equal): id and url. */
	char *sticky_url;
	const char *sticky_action; /* create, update, unchanged; NULL */
	int64_t *deleted;
	size_t step, nfiles, ndropped, nfailed, nrejected, ndeleted, adeleted;
	int64_t pr, iteration, sticky_id;
	struct rv_pr p;
	struct snap_statuses st;
	struct review_model m;
	struct inline_plan plan;
	struct buf body; /* the last sticky body written */
	uint32_t next_id;
	int exit;
	bool dry, has_st, has_model, status_unwritten;
	bool incomplete; /* the last sticky written is PARTIAL */
};

static struct report_step *STEP(struct pub *u)
{
	return &u->e->report->steps[u->step];
}

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
	free(u->deleted);
}

/* --- the report --- */

static void json_findings(struct jw *w, const struct review_model *m)
{
	jw_arr_begin(w);
	for (size_t i = 0; i < m->n; i++) {
		const struct rv_finding *f = &m->f[i];
		char id[RV_FID_BUF];

		jw_obj_begin(w);
		jw_key(w, "id");
		jw_str(w, rv_fid(id, f->id));
		jw_key(w, "p_code");
		jw_str(w, rv_pcode_names[f->p]);
		jw_key(w, "section");
		jw_str(w, rv_section_names[f->section]);
		jw_key(w, "thread");
		jw_str(w, rv_thread_names[f->thread]);
		jw_key(w, "why");
		jw_str_or_null(w, f->thread_reason);
		jw_key(w, "url");
		jw_str_or_null(w, f->thread_url);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void json_fid(struct jw *w, uint32_t id)
{
	char s[RV_FID_BUF];

	jw_str(w, rv_fid(s, id));
}

/* The step's own members (§9), written once at the end. */
static void finish_extra(struct pub *u, enum rv_tier tier,
			 const struct buf *payloads)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct jw w;

	jw_init(&w, &b, false);
	jw_obj_begin(&w);
	jw_key(&w, "mode");
	jw_str(&w, rv_mode_names[u->in->mode]);
	if (u->has_model) {
		jw_key(&w, "status");
		jw_str(&w, rv_tier_tokens[tier]);
		jw_key(&w, "open_counts");
		jw_obj_begin(&w);
		for (int k = 0; k < RV_PCODE_COUNT; k++) {
			jw_key(&w, rv_pcode_names[k]);
			jw_int(&w, (int64_t)u->m.open_counts[k]);
		}
		jw_obj_end(&w);
	}
	jw_key(&w, "sticky");
	if (u->sticky_action) {
		jw_obj_begin(&w);
		jw_key(&w, "id");
		if (u->sticky_id)
			jw_int(&w, u->sticky_id);
		else
			jw_null(&w);
		jw_key(&w, "html_url");
		jw_str_or_null(&w, u->sticky_url);
		jw_key(&w, "action");
		jw_str(&w, u->sticky_action);
		jw_obj_end(&w);
	} else {
		jw_null(&w);
	}
	if (u->has_model) {
		jw_key(&w, "findings");
		json_findings(&w, &u->m);
		jw_key(&w, "merged");
		jw_arr_begin(&w);
		for (size_t i = 0; i < u->m.nmerged; i++) {
			jw_obj_begin(&w);
			jw_key(&w, "from");
			json_fid(&w, u->m.merged[i].from);
			jw_key(&w, "into");
			json_fid(&w, u->m.merged[i].into);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "carried");
		jw_arr_begin(&w);
		for (size_t i = 0; i < u->m.n; i++)
			if (u->m.f[i].carried)
				json_fid(&w, u->m.f[i].id);
		jw_arr_end(&w);
	}
	jw_key(&w, "deleted");
	jw_arr_begin(&w);
	for (size_t i = 0; i < u->ndeleted; i++)
		jw_int(&w, u->deleted[i]);
	jw_arr_end(&w);
	if (payloads && payloads->len) {
		jw_key(&w, "payloads");
		buf_add(&b, payloads->ptr, payloads->len);
		w.after_key = false;
	}
	jw_obj_end(&w);
	free(STEP(u)->extra);
	STEP(u)->extra = buf_detach(&b, NULL);
}

static void finish(struct pub *u, enum step_outcome out, int code)
{
	u->exit = exit_merge(u->exit, code);
	step_finish(u->e->report, STEP(u), out, u->exit);
}

/* --- the model --- */

/* Is f a candidate of §4.1 (before its steps)? Decides the files read. */
static bool candidate(const struct pub *u, const struct rv_finding *f)
{
	if ((f->section != RV_SEC_OPEN && f->section != RV_SEC_AWAITING) ||
	    f->p > RV_P2 || f->carried)
		return false;
	if (inline_has_root_at(f, u->p.roots, u->p.nroots, u->in->head))
		return false;
	return !inline_root_of(f, u->p.roots, u->p.nroots) || f->reopen_thread;
}

static int read_files(struct pub *u)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	struct snap_file *files = NULL;
	size_t n = 0;

	if (r->files(u->e->gh, u->pr, &files, &n) < 0)
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

/* M1-M9, I5 and §4.1; AA_OK, or the step is finished. */
static int build_model(struct pub *u)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct merge_ctx ctx = {0};
	struct merge_root *roots;
	uint32_t *ids;
	bool any = false;
	int error;

	if (u->p.trusted &&
	    (u->p.info.state.present || u->p.info.state.from_rows))
		u->prior = &u->p.info.state;
	ctx.prior = u->prior;
	ctx.pr_author = u->p.pull.pull.author;
	ctx.review_login = policy_review_login(u->e->policy);
	if (merge_run(&u->m, u->in, &ctx, &err) < 0) {
		step_reason(STEP(u), "%s", err.ptr);
		finish(u, OUT_ERROR, EXIT_USAGE);
		buf_release(&err);
		return AA_EUSAGE;
	}
	u->has_model = true;
	roots = xcalloc(u->p.nroots ? u->p.nroots : 1, sizeof(*roots));
	ids = xcalloc(u->p.nroots ? u->p.nroots : 1, sizeof(*ids));
	for (size_t i = 0; i < u->p.nroots; i++) {
		roots[i].id = u->p.roots[i].id;
		roots[i].slug = u->p.roots[i].slug;
		ids[i] = u->p.roots[i].id;
	}
	error = merge_check_ids(&u->m, u->prior, roots, u->p.nroots, &err);
	u->next_id = merge_next_id(&u->m, u->prior, ids, u->p.nroots);
	free(roots);
	free(ids);
	if (error < 0) {
		step_reason(STEP(u), "%s", err.ptr);
		finish(u, OUT_ERROR, EXIT_USAGE);
		buf_release(&err);
		return AA_EUSAGE;
	}
	buf_release(&err);
	for (size_t i = 0; i < u->m.nreasons; i++)
		step_reason(STEP(u), "%s", u->m.reasons[i]);
	u->iteration = merge_iteration(
		u->p.trusted, u->p.info.state.present,
		u->p.info.state.iteration, u->p.info.sha, u->in->head);

	for (size_t i = 0; i < u->m.n && !any; i++)
		any = candidate(u, &u->m.f[i]);
	if (any && read_files(u) < 0) {
		step_reason(STEP(u), "the PR's files could not be read");
		report_note(u->e->report, NOTE_ERROR, "PR #%lld: %s",
			    (long long)u->pr, u->e->gh->error.ptr);
		finish(u, OUT_ERROR, EXIT_API);
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

/* --- rendering --- */

static void doc_init(struct pub *u, struct sticky_doc *d, bool incomplete)
{
	memset(d, 0, sizeof(*d));
	d->in = u->in;
	d->m = &u->m;
	d->publish_incomplete = incomplete;
	d->status_unwritten = u->status_unwritten;
	d->iteration = u->iteration;
	d->next_id = u->next_id;
}

/* Does any row say the publish is incomplete (§7)? */
static bool rows_incomplete(const struct pub *u)
{
	for (size_t i = 0; i < u->m.n; i++)
		switch (u->m.f[i].thread) {
		case RV_THREAD_FAILED:
		case RV_THREAD_DROPPED:
		case RV_THREAD_PENDING:
			return true;
		default:
			break;
		}
	return false;
}

static int render(struct pub *u, struct buf *out, bool incomplete,
		  enum rv_tier *tier)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct sticky_doc d;
	int error;

	doc_init(u, &d, incomplete);
	*tier = sticky_tier(&d);
	error = sticky_render(out, &d, &err);
	if (error < 0)
		step_reason(STEP(u), "the summary comment does not fit "
				     "GitHub's limit: %s", err.ptr);
	buf_release(&err);
	return error;
}

/* CRLF → LF, final LFs trimmed: the body GitHub shows (W1). */
static bool same_body(const char *have, size_t n, const struct buf *want)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	bool same;

	for (size_t i = 0; i < n; i++)
		if (!(have[i] == '\r' && i + 1 < n && have[i + 1] == '\n'))
			buf_addch(&b, have[i]);
	while (b.len && b.ptr[b.len - 1] == '\n')
		b.ptr[--b.len] = '\0';
	same = b.len == want->len && memcmp(b.ptr, want->ptr, b.len) == 0;
	buf_release(&b);
	return same;
}

static void status_fields(const struct pub *u, enum rv_tier tier,
			  bool pending, const char **state, struct buf *desc)
{
	buf_reset(desc);
	if (pending) {
		*state = "pending";
		buf_adds(desc, "publishing");
		return;
	}
	*state = tier == RV_PASSED || tier == RV_PASSED_WITH_NOTES ? "success"
								 : "failure";
	status_description(desc, tier, u->m.f, u->m.n);
}

/* The newest U4 status on head: context review_context, creator
 * review_login (T3 of BEHAVIOR for this context). */
static const struct snap_status *newest_status(const struct pub *u)
{
	const struct snap_status *best = NULL;

	for (size_t i = 0; u->has_st && i < u->st.n; i++) {
		const struct snap_status *x = &u->st.v[i];

		if (strcmp(x->context, u->e->policy->review_context) != 0 ||
		    !policy_is_review_login(u->e->policy, x->creator))
			continue;
		if (!best || x->id > best->id)
			best = x;
	}
	return best;
}

static bool status_matches(const struct pub *u, const char *state,
			   const char *desc, const char *url)
{
	const struct snap_status *x = newest_status(u);

	return x && strcmp(x->state, state) == 0 &&
	       strcmp(x->description, desc) == 0 && x->target_url && url &&
	       strcmp(x->target_url, url) == 0;
}

/* --- writes --- */

static void record_comment(struct pub *u, enum write_kind kind, int64_t id,
			   const struct buf *body)
{
	struct report_write *w = report_add_write(u->e->report, kind, u->pr);

	w->comment_id = id;
	report_sha256_hex(w->body_sha256, body->ptr, body->len);
}

static void record_status(struct pub *u, const char *state, const char *desc,
			  const char *url)
{
	struct report_write *w = report_add_write(u->e->report, W_STATUS,
						  u->pr);

	memcpy(w->sha, u->in->head, SHA_BUF);
	w->state = xstrdup(state);
	w->context = xstrdup(u->e->policy->review_context);
	w->description = xstrdup(desc);
	w->target_url = xstrdup_or_null(url);
}

static void record_review(struct pub *u, int64_t review_id,
			  const size_t *idx, size_t n)
{
	struct report_write *w = report_add_write(u->e->report, W_REVIEW,
						  u->pr);
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	struct jw j;

	w->review_id = review_id;
	memcpy(w->commit_id, u->in->head, SHA_BUF);
	jw_init(&j, &b, false);
	jw_arr_begin(&j);
	for (size_t i = 0; i < n; i++)
		json_fid(&j, u->m.f[u->plan.v[idx[i]].finding].id);
	jw_arr_end(&j);
	w->findings = buf_detach(&b, NULL);
}

static void api_failure(struct pub *u, const char *what)
{
	step_reason(STEP(u), "%s failed", what);
	report_note(u->e->report, NOTE_ERROR, "PR #%lld: %s failed: %s",
		    (long long)u->pr, what, u->e->gh->error.ptr);
	u->exit = exit_merge(u->exit, EXIT_API);
}

/* G: the PR's head, read now. AA_OK when unchanged; otherwise the step
 * is finished (superseded, or the read failed). */
static int head_unmoved(struct pub *u)
{
	struct gh_pull g;
	int error;
	bool moved;

	error = u->e->gh->ops->pull(u->e->gh, u->pr, PART_PULL | PART_FRESH,
				    &g);
	if (error < 0 || !(g.ok & PART_PULL)) {
		gh_pull_release(&g);
		api_failure(u, "re-reading the PR's head");
		finish(u, OUT_ERROR, EXIT_API);
		return AA_EAPI;
	}
	moved = strcmp(g.pull.head_sha, u->in->head) != 0;
	if (moved)
		step_reason(STEP(u), "the PR's head moved to %.7s while "
				     "publishing", g.pull.head_sha);
	gh_pull_release(&g);
	if (moved) {
		finish(u, OUT_SUPERSEDED, EXIT_REFUSED);
		return AA_ERR;
	}
	return AA_OK;
}

/* After a lost answer: the sticky of review_login, created by this run
 * (id above `after`) or patched (id), holding exactly `body`. */
static const struct snap_comment *
find_written(struct pub *u, int64_t id, int64_t after, const struct buf *body)
{
	if (rv_pr_reread_comments(u->e, &u->p) < 0)
		return NULL;
	for (size_t i = 0; i < u->p.nstickies; i++) {
		const struct snap_comment *c = u->p.stickies[i];

		if ((id ? c->id == id : c->id > after) &&
		    same_body(c->body, c->body_len, body))
			return c;
	}
	return NULL;
}

static int64_t max_comment_id(const struct rv_pr *p)
{
	int64_t max = 0;

	for (size_t i = 0; i < p->pull.pull.ncomments; i++)
		if (p->pull.pull.comments[i].id > max)
			max = p->pull.pull.comments[i].id;
	return max;
}

static int sticky_create(struct pub *u, const struct buf *body)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	int64_t after = max_comment_id(&u->p), id = 0;
	char *url = NULL;
	int error = r->comment_create(u->e->gh, u->pr, body->ptr, &id, &url);

	if (error == AA_EAPI) {
		const struct snap_comment *c = find_written(u, 0, after, body);

		if (c) {
			id = c->id;
			url = xstrdup_or_null(c->html_url);
			error = AA_OK;
		}
	}
	if (error < 0) {
		free(url);
		return error;
	}
	record_comment(u, W_COMMENT_CREATE, id, body);
	u->sticky_id = id;
	free(u->sticky_url);
	u->sticky_url = url;
	return AA_OK;
}

static int sticky_patch(struct pub *u, int64_t id, const struct buf *body)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	int error = r->comment_update(u->e->gh, u->pr, id, body->ptr);

	if (error == AA_EAPI && find_written(u, id, 0, body))
		error = AA_OK;
	if (error < 0)
		return error;
	record_comment(u, W_COMMENT_UPDATE, id, body);
	return AA_OK;
}

static void note_deleted(struct pub *u, int64_t id)
{
	ALLOC_GROW(u->deleted, u->ndeleted + 1, u->adeleted);
	u->deleted[u->ndeleted++] = id;
}

/* DELETE a comment; 404 is done; a lost answer is judged by reading. */
static int delete_comment(struct pub *u, int64_t id)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	struct report_write *w;
	int error = r->comment_delete(u->e->gh, u->pr, id);

	if (error == AA_EAPI && rv_pr_reread_comments(u->e, &u->p) == AA_OK) {
		bool gone = true;

		for (size_t i = 0; i < u->p.pull.pull.ncomments; i++)
			if (u->p.pull.pull.comments[i].id == id)
				gone = false;
		if (gone)
			error = AA_OK;
	}
	if (error < 0 && error != AA_ENOTFOUND)
		return error;
	w = report_add_write(u->e->report, W_COMMENT_DELETE, u->pr);
	w->comment_id = id;
	note_deleted(u, id);
	return AA_OK;
}

static int set_status(struct pub *u, const char *state, const char *desc)
{
	int error = u->e->gh->ops->create_status(
		u->e->gh, u->pr, u->in->head, state,
		u->e->policy->review_context, desc, u->sticky_url);

	if (error == AA_EAPI) {
		/* A lost answer: done when the head's newest status of ours
		 * now says exactly this. */
		snap_statuses_release(&u->st);
		u->has_st = u->e->gh->ops->statuses(
				    u->e->gh, u->pr, u->in->head,
				    STATUS_NEED_HISTORY | STATUS_NEED_IDS,
				    &u->st) == AA_OK;
		if (status_matches(u, state, desc, u->sticky_url))
			error = AA_OK;
	}
	if (error < 0)
		return error;
	record_status(u, state, desc, u->sticky_url);
	return AA_OK;
}

/* --- W4: the inline threads --- */

/* Render attempt i's root into out. */
static int render_root(struct pub *u, size_t i, struct buf *out)
{
	const struct inline_attempt *a = &u->plan.v[i];
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct root_doc d = {
		.f = &u->m.f[a->finding],
		.mode = u->in->mode,
		.head = u->in->head,
		.base = u->in->base,
		.last_sha = u->in->last_sha,
		.sticky_url = u->sticky_url ? u->sticky_url : "",
		.previous_url = u->prev_url[a->finding],
	};
	int error = root_render(out, &d, &err);

	buf_release(&err);
	return error;
}

static void thread_posted(struct pub *u, size_t i, int64_t id,
			  const char *url)
{
	struct rv_finding *f = &u->m.f[u->plan.v[i].finding];

	f->thread = RV_THREAD_POSTED;
	f->thread_reason = NULL;
	f->root_id = id;
	free(f->thread_url);
	f->thread_url = xstrdup_or_null(url);
}

static void thread_failed(struct pub *u, size_t i)
{
	struct rv_finding *f = &u->m.f[u->plan.v[i].finding];

	f->thread = RV_THREAD_FAILED;
	f->thread_reason = NULL;
}

/* After a lost answer: the root of attempt i, now on GitHub? */
static const struct inline_root *root_now(struct pub *u, size_t i)
{
	const struct rv_finding *f = &u->m.f[u->plan.v[i].finding];

	if (!inline_has_root_at(f, u->p.roots, u->p.nroots, u->in->head))
		return NULL;
	return inline_root_of(f, u->p.roots, u->p.nroots);
}

/* The review a review comment belongs to (0 when unknown). */
static int64_t review_of(const struct rv_pr *p, int64_t comment_id)
{
	for (size_t i = 0; i < p->nrc; i++)
		if (p->rc[i].id == comment_id)
			return p->rc[i].review_id;
	return 0;
}

/* POST one review with attempts idx[0..n); AA_EREJECTED when GitHub
 * refused it (nothing created). */
static int post_review(struct pub *u, const size_t *idx, size_t n,
		       const char *description)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	struct gh_inline *inl = xcalloc(n ? n : 1, sizeof(*inl));
	struct buf *bodies = xcalloc(n ? n : 1, sizeof(*bodies));
	struct buf body = BUF_INIT(BUF_MAX_SMALL);
	struct gh_review_posted out;
	int error = AA_OK;

	for (size_t k = 0; k < n && error == AA_OK; k++) {
		const struct inline_attempt *a = &u->plan.v[idx[k]];

		buf_init(&bodies[k], BUF_MAX_DOC);
		error = render_root(u, idx[k], &bodies[k]);
		inl[k].path = u->m.f[a->finding].file;
		inl[k].line = a->line;
		inl[k].start_line = a->start_line;
		inl[k].body = bodies[k].ptr;
	}
	buf_addf(&body, "pr-review iteration \xC2\xB7 %s \xC2\xB7 %s",
		 description, u->sticky_url ? u->sticky_url : "");
	if (error == AA_OK)
		error = r->review_post(u->e->gh, u->pr, u->in->head, body.ptr,
				       inl, n, &out);
	else
		error = AA_EREJECTED; /* a root that cannot fit: refused */
	if (error == AA_OK) {
		for (size_t k = 0; k < n; k++)
			thread_posted(u, idx[k],
				      k < out.n ? out.comment_ids[k] : 0,
				      k < out.n && out.comment_urls[k]
					      ? out.comment_urls[k]
					      : out.html_url);
		record_review(u, out.review_id, idx, n);
		gh_review_posted_release(&out);
	} else if (error == AA_EAPI &&
		   rv_pr_reread_roots(u->e, &u->p) == AA_OK) {
		/* Lost answer: each root that shows was posted. */
		size_t shown = 0;

		int64_t review_id = 0;

		for (size_t k = 0; k < n; k++) {
			const struct inline_root *root = root_now(u, idx[k]);

			if (!root)
				continue;
			thread_posted(u, idx[k], root->comment_id,
				      root->html_url);
			review_id = review_of(&u->p, root->comment_id);
			shown++;
		}
		if (shown == n) {
			record_review(u, review_id, idx, n);
			error = AA_OK;
		}
	}
	for (size_t k = 0; k < n; k++)
		buf_release(&bodies[k]);
	free(bodies);
	free(inl);
	buf_release(&body);
	return error;
}

/* W4: AA_OK when every attempt is posted; the failed ones are marked. */
static void write_threads(struct pub *u, const char *description)
{
	size_t *idx = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*idx));
	size_t n = 0;
	int error;

	/* Drop every attempt that now has a root at head (a concurrent run
	 * posted it): it links that root. */
	for (size_t i = 0; i < u->plan.n; i++) {
		const struct inline_root *root = root_now(u, i);
		struct rv_finding *f = &u->m.f[u->plan.v[i].finding];

		if (root) {
			f->thread = RV_THREAD_EXISTING;
			f->root_id = root->comment_id;
			free(f->thread_url);
			f->thread_url = xstrdup_or_null(root->html_url);
			continue;
		}
		idx[n++] = i;
	}
	if (!n)
		goto out;
	error = post_review(u, idx, n, description);
	if (error == AA_EREJECTED) {
		/* X12: one review per attempt; a 422 fails that one only. */
		step_reason(STEP(u), "GitHub refused the batched review; "
				     "posting each thread on its own");
		report_note(u->e->report, NOTE_WARNING,
			    "PR #%lld: the batched review was refused: %s",
			    (long long)u->pr, u->e->gh->error.ptr);
		for (size_t k = 0; k < n; k++) {
			error = post_review(u, &idx[k], 1, description);
			if (error == AA_OK)
				continue;
			thread_failed(u, idx[k]);
			if (error == AA_EREJECTED) {
				u->nrejected++;
				unsigned id = u->m.f[u->plan.v[idx[k]].finding]
						      .id;

				step_reason(STEP(u), "F%u: GitHub refused its "
						     "thread", id);
				report_note(u->e->report, NOTE_WARNING,
					    "PR #%lld: F%u's thread was "
					    "refused: %s", (long long)u->pr,
					    id, u->e->gh->error.ptr);
			} else {
				u->nfailed++;
				api_failure(u, "posting a review thread");
			}
		}
	} else if (error < 0) {
		for (size_t k = 0; k < n; k++)
			thread_failed(u, idx[k]);
		u->nfailed += n;
		api_failure(u, "posting the review");
	}
out:
	free(idx);
}

/* --- the protocol --- */

/* Delete comments ids[0..n), ascending (W2, W5). */
static int delete_ids(struct pub *u, const int64_t *ids, size_t n)
{
	int error = AA_OK;

	for (size_t i = 0; i < n; i++)
		if (delete_comment(u, ids[i]) < 0) {
			api_failure(u, "deleting a duplicate summary comment");
			error = AA_EAPI;
		}
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

static void payload_status(struct buf *out, const char *state,
			   const char *desc, const char *url,
			   const char *context)
{
	struct jw w;

	jw_init(&w, out, false);
	jw_obj_begin(&w);
	jw_key(&w, "state");
	jw_str(&w, state);
	jw_key(&w, "target_url");
	jw_str(&w, url);
	jw_key(&w, "description");
	jw_str(&w, desc);
	jw_key(&w, "context");
	jw_str(&w, context);
	jw_obj_end(&w);
}

/*
 * A dry run's planned writes (§7.6), as the real run would make them
 * when every write succeeds: W1, W2, then the status (pending with
 * attempts), the review, and the final status. W5's body is left out: it
 * holds the links GitHub gives the posted threads.
 */
static void planned_writes(struct pub *u, const struct buf *first,
			   bool create, bool unchanged, const char *state,
			   const char *desc)
{
	if (!unchanged)
		record_comment(u, create ? W_COMMENT_CREATE : W_COMMENT_UPDATE,
			       create ? 0 : u->p.canonical->id, first);
	for (size_t i = 0; i < u->p.nstickies; i++)
		if (create || u->p.stickies[i] != u->p.canonical) {
			struct report_write *w = report_add_write(
				u->e->report, W_COMMENT_DELETE, u->pr);

			w->comment_id = u->p.stickies[i]->id;
		}
	if (u->plan.n) {
		size_t *idx = xcalloc(u->plan.n, sizeof(*idx));

		for (size_t i = 0; i < u->plan.n; i++)
			idx[i] = i;
		record_status(u, "pending", "publishing", u->sticky_url);
		record_review(u, 0, idx, u->plan.n);
		free(idx);
	}
	if (u->plan.n || !status_matches(u, state, desc, u->sticky_url))
		record_status(u, state, desc, u->sticky_url);
}

/* §7.4: what the real run would write, printed and in the step. */
static void dry_run(struct pub *u, const struct buf *first, bool create,
		    bool unchanged, enum rv_tier final_tier,
		    struct buf *dry_out)
{
	struct buf url = BUF_INIT(BUF_MAX_SMALL), desc = BUF_INIT(BUF_MAX_SMALL);
	struct buf status = BUF_INIT(BUF_MAX_SMALL);
	struct buf review = BUF_INIT(BUF_MAX_DOC);
	struct buf pay = BUF_INIT(BUF_MAX_DOC);
	struct review_comment *rc;
	struct buf *bodies;
	const char *state;
	struct jw w;

	if (create) {
		rv_pr_url(&url, u->e, u->pr);
		buf_adds(&url, "#issuecomment-0");
	} else {
		buf_adds(&url, u->p.canonical->html_url
				       ? u->p.canonical->html_url
				       : "");
	}
	free(u->sticky_url);
	u->sticky_url = xstrdup(url.ptr);
	u->sticky_id = create ? 0 : u->p.canonical->id;
	u->sticky_action = create ? "create" : unchanged ? "unchanged"
							 : "update";
	status_fields(u, final_tier, false, &state, &desc);
	payload_status(&status, state, desc.ptr, url.ptr,
		       u->e->policy->review_context);

	rc = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*rc));
	bodies = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*bodies));
	for (size_t i = 0; i < u->plan.n; i++) {
		buf_init(&bodies[i], BUF_MAX_DOC);
		render_root(u, i, &bodies[i]);
		rc[i].path = u->m.f[u->plan.v[i].finding].file;
		rc[i].line = u->plan.v[i].line;
		rc[i].start_line = u->plan.v[i].start_line;
		rc[i].body = bodies[i].ptr;
	}
	if (u->plan.n)
		review_payload(&review, u->in->head, desc.ptr, url.ptr, rc,
			       u->plan.n, false);
	else
		buf_adds(&review, "[]");
	planned_writes(u, first, create, unchanged, state, desc.ptr);

	if (dry_out) {
		if (create)
			buf_adds(dry_out, "--- sticky (create) ---\n");
		else
			buf_addf(dry_out, "--- sticky (%s %lld) ---\n",
				 unchanged ? "unchanged" : "update",
				 (long long)u->p.canonical->id);
		buf_add(dry_out, first->ptr, first->len);
		buf_adds(dry_out, "\n--- status ---\n");
		buf_add(dry_out, status.ptr, status.len);
		buf_addf(dry_out, "\n--- review (%zu) ---\n", u->plan.n);
		buf_add(dry_out, review.ptr, review.len);
		buf_adds(dry_out, "\n");
	}
	jw_init(&w, &pay, false);
	jw_obj_begin(&w);
	jw_key(&w, "sticky");
	jw_strn(&w, first->ptr, first->len);
	jw_key(&w, "status");
	buf_add(&pay, status.ptr, status.len);
	w.after_key = false;
	jw_key(&w, "review");
	buf_add(&pay, review.ptr, review.len);
	w.after_key = false;
	jw_obj_end(&w);
	finish_extra(u, final_tier, &pay);

	for (size_t i = 0; i < u->plan.n; i++)
		buf_release(&bodies[i]);
	free(bodies);
	free(rc);
	buf_release(&url);
	buf_release(&desc);
	buf_release(&status);
	buf_release(&review);
	buf_release(&pay);
}

/* The outcome of a run that wrote what it could. */
static void conclude(struct pub *u, enum rv_tier tier)
{
	enum step_outcome out = OUT_PUBLISHED;
	int code = EXIT_OK;

	if (u->ndropped || u->nrejected || u->nfailed || u->status_unwritten ||
	    u->incomplete)
		out = OUT_PARTIAL;
	if (u->ndropped || u->nrejected)
		code = EXIT_REFUSED; /* content: a rerun does the same */
	finish_extra(u, tier, NULL);
	finish(u, out, code);
}

/* The final status failed (W6, or W3 without attempts): the sticky is
 * PATCHed PARTIAL with status_unwritten, so it never reads better than
 * what GitHub shows. */
static void status_unwritten(struct pub *u)
{
	struct buf body = BUF_INIT(BUF_MAX_DOC);
	enum rv_tier tier;

	api_failure(u, "setting the pr-review status");
	u->status_unwritten = true;
	u->incomplete = true;
	if (render(u, &body, true, &tier) == AA_OK &&
	    sticky_patch(u, u->sticky_id, &body) < 0)
		api_failure(u, "marking the summary comment PARTIAL");
	buf_release(&body);
	conclude(u, RV_PARTIAL);
}

/* W6 (or W3 without attempts): the final status; on failure the sticky
 * is PATCHed PARTIAL with status_unwritten. */
static void final_status(struct pub *u, bool incomplete)
{
	struct buf desc = BUF_INIT(BUF_MAX_SMALL);
	enum rv_tier tier;
	const char *state;
	struct sticky_doc d;

	doc_init(u, &d, incomplete);
	tier = sticky_tier(&d);
	status_fields(u, tier, false, &state, &desc);
	if (status_matches(u, state, desc.ptr, u->sticky_url) ||
	    set_status(u, state, desc.ptr) == AA_OK)
		conclude(u, tier);
	else
		status_unwritten(u);
	buf_release(&desc);
}

/* W5: the reconciled sticky R over the real outcomes. */
static int reconcile(struct pub *u)
{
	const struct snap_comment *newest;
	enum rv_tier tier;

	if (rv_pr_reread_comments(u->e, &u->p) < 0) {
		api_failure(u, "re-reading the comments");
		return AA_EAPI;
	}
	newest = u->p.canonical;
	if (newest && u->p.info.markers_ok &&
	    strcmp(u->p.info.sha, u->in->head) != 0) {
		step_reason(STEP(u), "a newer summary comment (%lld) reviews "
				     "%.7s", (long long)newest->id,
			    u->p.info.sha);
		finish_extra(u, RV_PARTIAL, NULL);
		finish(u, OUT_SUPERSEDED, EXIT_REFUSED);
		return AA_ERR;
	}
	/* Same-head runs converge on the newest trusted sticky (§7.3). */
	if (newest && u->p.trusted && newest->id != u->sticky_id) {
		u->sticky_id = newest->id;
		free(u->sticky_url);
		u->sticky_url = xstrdup_or_null(newest->html_url);
	}
	buf_reset(&u->body);
	u->incomplete = rows_incomplete(u);
	if (render(u, &u->body, u->incomplete, &tier) < 0 ||
	    sticky_patch(u, u->sticky_id, &u->body) < 0) {
		api_failure(u, "writing the reconciled summary comment");
		return AA_EAPI;
	}
	if (delete_others(u) < 0)
		u->exit = exit_merge(u->exit, EXIT_API);
	return AA_OK;
}

/* U5 before the first write: on failure the step is finished (exit 2
 * for another login, 3 when /user cannot be read). */
static int identity(struct pub *u, enum rv_tier tier)
{
	int error = rv_identity(u->e, STEP(u));

	if (error < 0) {
		finish_extra(u, tier, NULL);
		finish(u, OUT_ERROR, error == AA_EUSAGE ? EXIT_USAGE : EXIT_API);
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
	enum rv_tier tier, ftier;
	const char *state;
	struct sticky_doc fd;

	/* The first sticky write: S with attempts, else F. */
	if (render(u, &u->body, attempts || u->ndropped, &tier) < 0) {
		finish_extra(u, tier, NULL);
		finish(u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	/* F's tier, for the status and the review's description. */
	doc_init(u, &fd, u->ndropped > 0);
	ftier = sticky_tier(&fd);
	status_fields(u, ftier, false, &state, &fdesc);
	if (!create && !attempts)
		unchanged = same_body(canon->body, canon->body_len, &u->body);

	if (u->dry) {
		/* §7.6: a dry run still checks the identity (T4). */
		if (identity(u, tier) < 0)
			goto out;
		dry_run(u, &u->body, create, unchanged,
			attempts ? ftier : tier, dry_out);
		finish(u, u->ndropped ? OUT_PARTIAL : OUT_PUBLISHED,
		       u->ndropped ? EXIT_REFUSED : EXIT_OK);
		goto out;
	}
	/* §7.3: nothing to write at all. */
	if (unchanged && u->p.nstickies == 1 &&
	    status_matches(u, state, fdesc.ptr, canon->html_url)) {
		u->sticky_id = canon->id;
		u->sticky_url = xstrdup_or_null(canon->html_url);
		u->sticky_action = "unchanged";
		if (u->ndropped)
			step_reason(STEP(u), "the summary still reports %zu "
					     "thread(s) not posted",
				    u->ndropped);
		finish_extra(u, tier, NULL);
		finish(u, OUT_UNCHANGED, u->ndropped ? EXIT_REFUSED : EXIT_OK);
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
	if (head_unmoved(u) < 0)
		goto out;
	if (unchanged) {
		u->sticky_action = "unchanged";
	} else if (create ? sticky_create(u, &u->body) < 0
			  : sticky_patch(u, u->sticky_id, &u->body) < 0) {
		api_failure(u, "writing the summary comment");
		finish_extra(u, tier, NULL);
		finish(u, OUT_ERROR, EXIT_API);
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
	/* W3: pending until R is written. */
	status_fields(u, tier, true, &state, &desc);
	if (set_status(u, state, desc.ptr) < 0)
		api_failure(u, "setting the pending pr-review status");
	/* W4 */
	if (head_unmoved(u) < 0)
		goto out;
	if (rv_pr_reread_roots(u->e, &u->p) < 0) {
		api_failure(u, "re-reading the review comments");
		for (size_t i = 0; i < u->plan.n; i++)
			thread_failed(u, i);
		u->nfailed += u->plan.n;
	} else {
		write_threads(u, fdesc.ptr);
	}
	/* W5, W6 */
	switch (reconcile(u)) {
	case AA_OK:
		final_status(u, u->incomplete);
		break;
	case AA_ERR: /* superseded */
		break;
	default: {
		/* W6 writes S's PARTIAL status. */
		struct sticky_doc sd;
		enum rv_tier st;

		doc_init(u, &sd, true);
		st = sticky_tier(&sd);
		status_fields(u, st, false, &state, &desc);
		u->incomplete = true;
		if (set_status(u, state, desc.ptr) < 0)
			status_unwritten(u);
		else
			conclude(u, st);
		break;
	}
	}
out:
	free(dups);
	buf_release(&desc);
	buf_release(&fdesc);
}

void engine_publish(struct engine *e, int64_t pr, struct review_input *in,
		    bool dry, struct buf *dry_out)
{
	struct pub u = {0};
	const struct snap_pull *pull;
	int error;

	u.e = e;
	u.pr = pr;
	u.dry = dry;
	u.in = in;
	buf_init(&u.body, BUF_MAX_DOC);
	report_add_step(e->report, STEP_PUBLISH, pr);
	u.step = e->report->nsteps - 1;
	memcpy(STEP(&u)->head, in->head, SHA_BUF);

	/* §7.1 step 1 */
	if (in->mode == RV_NOOP) {
		step_reason(STEP(&u), "the input's mode is noop: nothing to "
				      "publish");
		finish_extra(&u, RV_NOOP_TIER, NULL);
		finish(&u, OUT_NOOP, EXIT_OK);
		goto out;
	}
	if (in->ndispatched && in->nfailures == in->ndispatched) {
		step_reason(STEP(&u), "every subagent failed: nothing to "
				      "publish");
		finish_extra(&u, RV_PARTIAL, NULL);
		finish(&u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	/* Step 2: the reads. */
	if (!e->gh->ops->review) {
		step_reason(STEP(&u), "this GitHub port cannot publish");
		finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	error = rv_pr_read(e, pr, &u.p);
	if (error == AA_ENOTFOUND) {
		step_reason(STEP(&u), "PR #%lld does not exist",
			    (long long)pr);
		STEP(&u)->missing = true;
		finish(&u, OUT_ERROR, EXIT_USAGE);
		goto out;
	}
	if (error < 0) {
		api_failure(&u, "reading the PR");
		finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	pull = &u.p.pull.pull;
	if (!snap_pull_is_open(pull)) {
		step_reason(STEP(&u), "the PR is %s",
			    pull->merged ? "merged" : "closed");
		finish_extra(&u, RV_NOOP_TIER, NULL);
		finish(&u, OUT_SKIPPED, EXIT_OK);
		goto out;
	}
	if (e->gh->ops->statuses(e->gh, pr, in->head,
				 STATUS_NEED_HISTORY | STATUS_NEED_IDS,
				 &u.st) < 0) {
		api_failure(&u, "reading the head's statuses");
		finish(&u, OUT_ERROR, EXIT_API);
		goto out;
	}
	u.has_st = true;
	/* Step 3 */
	if (strcmp(pull->head_sha, in->head) != 0) {
		step_reason(STEP(&u), "the findings review %.7s but the PR's "
				      "head is %.7s", in->head, pull->head_sha);
		finish(&u, OUT_REFUSED, EXIT_REFUSED);
		goto out;
	}
	if (in->mode == RV_INCREMENTAL && u.p.trusted &&
	    strcmp(u.p.info.sha, in->last_sha) != 0 &&
	    strcmp(u.p.info.sha, in->head) != 0) {
		step_reason(STEP(&u), "the summary comment already reviews "
				      "%.7s, after this input's last %.7s",
			    u.p.info.sha, in->last_sha);
		finish(&u, OUT_SUPERSEDED, EXIT_REFUSED);
		goto out;
	}
	if (build_model(&u) < 0)
		goto out;
	if (!u.p.trusted && u.p.canonical)
		step_reason(STEP(&u), "the summary comment %lld is not "
				      "trusted: a new one replaces it",
			    (long long)u.p.canonical->id);
	publish_writes(&u, dry_out);
out:
	pub_release(&u);
}
