/*
 * publish_writes.c - the writes of a publish (PUBLISH.md §7.2): the
 * sticky, the deletes, the statuses and the inline threads (W4, with the
 * per-thread fallback of X12), each recorded in the report once. A write
 * whose answer is lost (AA_ELOST) is judged by reading again and asking
 * core/landed.h whether its effect shows (P27), never re-sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/landed.h"
#include "formats/gitlab_body.h"
#include "run/publish_int.h"

/* --- writes --- */

void pub_record_comment(struct pub *u, enum write_kind kind, int64_t id,
			const struct buf *body)
{
	struct report_write *w = report_add_write(u->e->report, kind, u->pr);

	w->comment_id = id;
	sha256_hex(w->body_sha256, body->ptr, body->len);
}

void pub_record_status(struct pub *u, const char *state, const char *desc,
		       const char *url)
{
	struct report_write *w = report_add_write(u->e->report, W_STATUS,
						  u->pr);

	memcpy(w->sha, u->in->head, SHA_BUF);
	w->state = xstrdup(state);
	w->context = xstrdup(u->e->policy->review_context);
	w->description = xstrdup(desc);
	w->target_url = xstrdup_or_null(pub_status_url(u, url));
}

void pub_record_review(struct pub *u, int64_t review_id,
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
		pub_json_fid(&j, u->m.f[u->plan.v[idx[i]].finding].id);
	jw_arr_end(&j);
	w->findings = buf_detach(&b, NULL);
}

void pub_api_failure(struct pub *u, const char *what, const char *msg)
{
	step_reason(STEP(u), "%s failed", what);
	report_note(u->e->report, NOTE_ERROR, "PR #%lld: %s failed: %s",
	            (long long)u->pr, what, msg);
	u->exit = exit_merge(u->exit, EXIT_API);
}

/* G: the PR's head read now, with `what` (RV_READ_*) the caller re-reads
 * beside it. AA_OK when unchanged; otherwise the step is finished
 * (superseded, or the read failed). */
int pub_head_unmoved(struct pub *u, unsigned what, struct buf *err)
{
	if (rv_pr_refresh(u->e, &u->p, what, err) < 0) {
		pub_api_failure(u, "re-reading the PR's head", err->ptr);
		pub_finish(u, OUT_ERROR, EXIT_API);
		return AA_EAPI;
	}
	if (strcmp(u->p.head, u->in->head) != 0) {
		step_reason(STEP(u), "the PR's head moved to %.7s while "
				     "publishing", u->p.head);
		pub_finish(u, OUT_SUPERSEDED, EXIT_REFUSED);
		return AA_ERR;
	}
	return AA_OK;
}

/* A lost answer's verdict: AA_OK when its effect shows; otherwise
 * AA_EAPI, the write's own message still in err. */
static int judged(bool shows)
{
	return shows ? AA_OK : AA_EAPI;
}

/* After a lost answer: the comment `w` created or patched, read again
 * (NULL when it does not show). */
static const struct snap_comment *find_written(struct pub *u,
                                               const struct landed_write *w)
{
	const struct snap_pull *pull = &u->p.pull.pull;
	struct landed_seen seen = {0};
	ptrdiff_t at;

	if (rv_pr_reread_comments(u->e, &u->p) < 0)
		return NULL;
	seen.comments = pull->comments;
	seen.ncomments = pull->ncomments;
	at = landed(w, &seen, u->e->policy);
	return at < 0 ? NULL : &pull->comments[at];
}

static int64_t max_comment_id(const struct rv_pr *p)
{
	int64_t max = 0;

	for (size_t i = 0; i < p->pull.pull.ncomments; i++)
		if (p->pull.pull.comments[i].id > max)
			max = p->pull.pull.comments[i].id;
	return max;
}

int pub_sticky_create(struct pub *u, const struct buf *body, struct buf *err)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	const struct landed_write w = {
	    .kind = LANDED_COMMENT_CREATE,
	    .as_review_login = true,
	    .id = max_comment_id(&u->p),
	    .body = body->ptr,
	    .body_len = body->len,
	};
	int64_t id = 0;
	char *url = NULL;
	int error =
	    r->comment_create(u->e->gh, u->pr, body->ptr, &id, &url, err);

	if (error == AA_ELOST) {
		const struct snap_comment *c = find_written(u, &w);

		if (c) {
			id = c->id;
			url = xstrdup_or_null(c->html_url);
		}
		error = judged(c != NULL);
	}
	if (error < 0) {
		free(url);
		return error;
	}
	pub_record_comment(u, W_COMMENT_CREATE, id, body);
	u->created_id = id;
	u->sticky_id = id;
	free(u->sticky_url);
	u->sticky_url = url;
	return AA_OK;
}

/*
 * B1 at the write itself: PATCH and DELETE reach only a comment that is a
 * sticky of review_login as last read, or one this run created (its body
 * is this run's). Whatever the caller believed, a check verdict, a
 * needs-human verdict or anyone else's comment is never touched.
 */
static int may_touch(struct pub *u, int64_t id, const char *what,
                     struct buf *err)
{
	const struct snap_pull *pull = &u->p.pull.pull;
	const char *kind = "a comment this run never read";

	if (id > 0 && id == u->created_id)
		return AA_OK;
	for (size_t i = 0; i < pull->ncomments; i++) {
		const struct snap_comment *c = &pull->comments[i];
		enum comment_kind k;

		if (c->id != id)
			continue;
		k = comment_kind(PLACE_ISSUE, c->body, c->body_len);
		if (k == KIND_STICKY &&
		    policy_is_review_login(u->e->policy, c->author))
			return AA_OK;
		kind = k == KIND_STICKY ? "another login's sticky"
					: comment_kind_name(k);
		break;
	}
	step_reason(STEP(u), "refused to %s comment %lld: it is %s, not a "
			     "summary comment of %s", what, (long long)id, kind,
		    policy_review_login(u->e->policy));
	buf_setf(err, "comment %lld is not a pr-review sticky", (long long)id);
	return AA_EAPI;
}

int pub_sticky_patch(struct pub *u, int64_t id, const struct buf *body,
                     struct buf *err)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	const struct landed_write w = {
	    .kind = LANDED_COMMENT_PATCH,
	    .as_review_login = true,
	    .id = id,
	    .body = body->ptr,
	    .body_len = body->len,
	};
	int error = may_touch(u, id, "edit", err);

	if (error < 0)
		return error;
	error = r->comment_update(u->e->gh, u->pr, id, body->ptr, err);
	if (error == AA_ELOST)
		error = judged(find_written(u, &w) != NULL);
	if (error < 0)
		return error;
	pub_record_comment(u, W_COMMENT_UPDATE, id, body);
	return AA_OK;
}

static void note_deleted(struct pub *u, int64_t id)
{
	ALLOC_GROW(u->deleted, u->ndeleted + 1, u->adeleted);
	u->deleted[u->ndeleted++] = id;
}

/* DELETE a comment; 404 is done but deleted nothing (B6: listed in
 * `deleted`, not in `writes`); a lost answer is judged by reading. */
int pub_delete_comment(struct pub *u, int64_t id, struct buf *err)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	const struct landed_write lw = {.kind = LANDED_COMMENT_DELETE,
	                                .id = id};
	struct report_write *w;
	int error = may_touch(u, id, "delete", err);

	if (error < 0)
		return error;
	error = r->comment_delete(u->e->gh, u->pr, id, err);
	if (error == AA_ELOST) {
		bool gone = false;

		if (rv_pr_reread_comments(u->e, &u->p) == AA_OK) {
			struct landed_seen seen = {
			    .comments = u->p.pull.pull.comments,
			    .ncomments = u->p.pull.pull.ncomments,
			};

			gone = landed(&lw, &seen, u->e->policy) >= 0;
		}
		error = judged(gone);
	}
	if (error < 0 && error != AA_ENOTFOUND)
		return error;
	if (error == AA_OK) {
		w = report_add_write(u->e->report, W_COMMENT_DELETE, u->pr);
		w->comment_id = id;
	}
	note_deleted(u, id);
	return AA_OK;
}

int pub_set_status(struct pub *u, const char *state, const char *desc,
                   struct buf *err)
{
	const char *url = pub_status_url(u, u->sticky_url);
	const struct landed_write w = {
	    .kind = LANDED_STATUS,
	    .as_review_login = true,
	    .state = state,
	    .context = u->e->policy->review_context,
	    .description = desc,
	    .target_url = url,
	};
	int error = u->e->gh->ops->create_status(
	    u->e->gh, u->pr, u->in->head, state, u->e->policy->review_context,
	    desc, url, err);

	/* G17: pending over our own pending is done, nothing written. */
	if (error == AA_ENOOP)
		return AA_OK;

	if (error == AA_ELOST) {
		struct landed_seen seen = {0};
		struct buf why = BUF_INIT(BUF_MAX_SMALL); /* not kept */

		snap_statuses_release(&u->st);
		u->has_st = u->e->gh->ops->statuses(
		                u->e->gh, u->pr, u->in->head,
		                STATUS_NEED_HISTORY | STATUS_NEED_IDS, &u->st,
		                &why) == AA_OK;
		buf_release(&why);
		if (u->has_st) {
			seen.statuses = u->st.v;
			seen.nstatuses = u->st.n;
		}
		error = judged(landed(&w, &seen, u->e->policy) >= 0);
	}
	if (error < 0)
		return error;
	pub_record_status(u, state, desc, u->sticky_url);
	return AA_OK;
}

/* --- W4: the inline threads --- */

/* Render attempt i's root into out. */
int pub_render_root(struct pub *u, size_t i, struct buf *out, struct buf *err)
{
	const struct inline_attempt *a = &u->plan.v[i];
	struct root_doc d = {
		.f = &u->m.f[a->finding],
		.mode = u->in->mode,
		.head = u->in->head,
		.base = u->in->base,
		.last_sha = u->in->last_sha,
		.sticky_url = u->sticky_url ? u->sticky_url : "",
		.previous_url = u->prev_url[a->finding],
	};
	int error = root_render(out, &d, err);

	if (error == AA_OK && u->e->gh->gitlab &&
	    (error = gitlab_neutralise(out)) < 0) /* G13 */
		buf_setf(err,
		         "root F%u: over the buffer's ceiling once "
		         "neutralised (G13)",
		         u->m.f[a->finding].id);
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

void pub_thread_failed(struct pub *u, size_t i)
{
	struct rv_finding *f = &u->m.f[u->plan.v[i].finding];

	f->thread = RV_THREAD_FAILED;
	f->thread_reason = NULL;
}

/* Attempt i's root, on the head as last read (a lost answer's effect,
 * or a concurrent run's)? */
static const struct inline_root *root_now(struct pub *u, size_t i)
{
	const struct landed_write w = {
	    .kind = LANDED_ROOT,
	    .finding = &u->m.f[u->plan.v[i].finding],
	    .head = u->in->head,
	};
	const struct landed_seen seen = {.roots = u->p.roots,
	                                 .nroots = u->p.nroots};
	ptrdiff_t at = landed(&w, &seen, u->e->policy);

	return at < 0 ? NULL : &u->p.roots[at];
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
 * refused it (nothing created); a failure's own message in err. */
static int post_review(struct pub *u, const size_t *idx, size_t n,
                       const char *description, struct buf *err)
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
		error = pub_render_root(u, idx[k], &bodies[k], err);
		inl[k].path = u->m.f[a->finding].file;
		inl[k].line = a->line;
		inl[k].start_line = a->start_line;
		inl[k].body = bodies[k].ptr;
	}
	buf_addf(&body, "pr-review iteration \xC2\xB7 %s \xC2\xB7 %s",
		 description, u->sticky_url ? u->sticky_url : "");
	if (error == AA_OK)
		error = r->review_post(u->e->gh, u->pr, u->in->head, body.ptr,
		                       inl, n, &out, err);
	else
		error = AA_EREJECTED; /* a root that cannot fit: refused */
	if (error == AA_OK) {
		/* Linked to the review until W5's re-read finds the roots
		 * (pub_link_posted). */
		for (size_t k = 0; k < n; k++)
			thread_posted(u, idx[k], 0, out.html_url);
		pub_record_review(u, out.review_id, idx, n);
		gh_review_posted_release(&out);
	} else if (error == AA_ELOST) {
		/* Lost answer: each root that shows was posted. */
		int64_t review_id = 0;
		size_t shown = 0;
		bool read;

		read = rv_pr_reread_roots(u->e, &u->p) == AA_OK;
		for (size_t k = 0; read && k < n; k++) {
			const struct inline_root *root = root_now(u, idx[k]);

			if (!root)
				continue;
			thread_posted(u, idx[k], root->comment_id,
				      root->html_url);
			review_id = review_of(&u->p, root->comment_id);
			shown++;
		}
		if (shown == n)
			pub_record_review(u, review_id, idx, n);
		error = judged(shown == n);
	}
	for (size_t k = 0; k < n; k++)
		buf_release(&bodies[k]);
	free(bodies);
	free(inl);
	buf_release(&body);
	return error;
}

/* After W5's re-read: each thread this run posted links its root. */
void pub_link_posted(struct pub *u)
{
	for (size_t i = 0; i < u->plan.n; i++) {
		struct rv_finding *f = &u->m.f[u->plan.v[i].finding];
		const struct inline_root *root;

		if (f->thread != RV_THREAD_POSTED || !(root = root_now(u, i)))
			continue;
		f->root_id = root->comment_id;
		free(f->thread_url);
		f->thread_url = xstrdup_or_null(root->html_url);
	}
}

/* W4: AA_OK when every attempt is posted; the failed ones are marked. */
void pub_write_threads(struct pub *u, const char *description)
{
	size_t *idx = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*idx));
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
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
	if (u->e->gh->gitlab) {
		pub_write_discussions(u, idx, n);
		goto out;
	}
	error = post_review(u, idx, n, description, &err);
	if (error == AA_EREJECTED) {
		/* X12: one review per attempt; a 422 fails that one only. */
		step_reason(STEP(u), "GitHub refused the batched review; "
				     "posting each thread on its own");
		report_note(u->e->report, NOTE_WARNING,
		            "PR #%lld: the batched review was refused: %s",
		            (long long)u->pr, err.ptr);
		for (size_t k = 0; k < n; k++) {
			error = post_review(u, &idx[k], 1, description, &err);
			if (error == AA_OK)
				continue;
			pub_thread_failed(u, idx[k]);
			if (error == AA_EREJECTED) {
				u->nrejected++;
				unsigned id = u->m.f[u->plan.v[idx[k]].finding]
						      .id;

				step_reason(STEP(u), "F%u: GitHub refused its "
						     "thread", id);
				report_note(u->e->report, NOTE_WARNING,
				            "PR #%lld: F%u's thread was "
				            "refused: %s",
				            (long long)u->pr, id, err.ptr);
			} else {
				u->nfailed++;
				pub_api_failure(u, "posting a review thread",
				                err.ptr);
			}
		}
	} else if (error < 0) {
		for (size_t k = 0; k < n; k++)
			pub_thread_failed(u, idx[k]);
		u->nfailed += n;
		pub_api_failure(u, "posting the review", err.ptr);
	}
out:
	free(idx);
	buf_release(&err);
}

/* --- GitLab: one discussion per attempt (G16) --- */

void pub_record_discussion(struct pub *u,
			   const struct gh_discussion_posted *posted, size_t i)
{
	struct report_write *w = report_add_write(u->e->report, W_DISCUSSION,
						  u->pr);
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	struct jw j;

	if (posted) {
		memcpy(w->discussion_id, posted->discussion_id,
		       sizeof(w->discussion_id));
		w->note_id = posted->note_id;
	}
	memcpy(w->commit_id, u->in->head, SHA_BUF);
	jw_init(&j, &b, false);
	jw_arr_begin(&j);
	pub_json_fid(&j, u->m.f[u->plan.v[i].finding].id);
	jw_arr_end(&j);
	w->findings = buf_detach(&b, NULL);
}

void pub_discussion_payloads(struct pub *u, const struct review_comment *rc,
			     struct buf *out)
{
	const struct github_review_ops *r = u->e->gh->ops->review;

	buf_adds(out, "[");
	for (size_t i = 0; i < u->plan.n; i++) {
		const struct gh_inline inl = {
		    .path = rc[i].path,
		    .line = rc[i].line,
		    .body = rc[i].body,
		};

		if (i)
			buf_adds(out, ",");
		if (!r->discussion_payload ||
		    r->discussion_payload(u->e->gh, u->pr, &inl, out) < 0)
			buf_fail(out, AA_ERR);
	}
	buf_adds(out, "]");
}

/* One POST of attempt i: AA_OK posted (recorded), AA_EREJECTED (400/422:
 * nothing made), or another failure. A lost answer is judged by the
 * discussions read again: the finding's root at head shows, or not. */
static int post_discussion(struct pub *u, size_t i, struct buf *err)
{
	const struct github_review_ops *r = u->e->gh->ops->review;
	const struct inline_attempt *a = &u->plan.v[i];
	struct buf body = BUF_INIT(BUF_MAX_DOC);
	struct gh_discussion_posted out = {0};
	struct gh_inline inl = {0};
	int error = pub_render_root(u, i, &body, err);

	inl.path = u->m.f[a->finding].file;
	inl.line = a->line; /* G8: single-line, at line_end */
	inl.body = body.ptr;
	if (error == AA_OK)
		error = r->discussion_post(u->e->gh, u->pr, &inl, &out, err);
	else
		error = AA_EREJECTED; /* a root that cannot fit: refused */
	if (error == AA_ELOST) {
		const struct inline_root *root = NULL;

		if (rv_pr_reread_roots(u->e, &u->p) == AA_OK)
			root = root_now(u, i);
		if (root) {
			struct buf why = BUF_INIT(BUF_MAX_SMALL); /* not kept */

			out.html_url = xstrdup_or_null(root->html_url);
			out.note_id = root->comment_id;
			if (!r->discussion_of ||
			    r->discussion_of(u->e->gh, u->pr, root->comment_id,
			                     out.discussion_id, &why) < 0)
				root = NULL; /* it cannot be named: failed */
			buf_release(&why);
		}
		error = judged(root != NULL);
	}
	if (error == AA_OK) {
		thread_posted(u, i, out.note_id, out.html_url);
		pub_record_discussion(u, &out, i);
	}
	free(out.html_url);
	buf_release(&body);
	return error;
}

void pub_write_discussions(struct pub *u, const size_t *idx, size_t n)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	for (size_t k = 0; k < n; k++) {
		int error = post_discussion(u, idx[k], &err);
		unsigned id = u->m.f[u->plan.v[idx[k]].finding].id;

		if (error == AA_OK)
			continue;
		pub_thread_failed(u, idx[k]);
		if (error == AA_EREJECTED) {
			u->nrejected++;
			step_reason(STEP(u), "F%u: GitLab refused its position",
				    id);
			report_note(
			    u->e->report, NOTE_WARNING,
			    "PR #%lld: F%u's discussion was refused: %s",
			    (long long)u->pr, id, err.ptr);
		} else {
			u->nfailed++;
			pub_api_failure(u, "posting a discussion", err.ptr);
		}
	}
	buf_release(&err);
}
