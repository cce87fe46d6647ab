/*
 * world_gitlab.c - the in-memory port over a GitLab snapshot (replay;
 * docs/rules/gitlab.md G4-G12, G23), answering as the fake GitLab
 * (tests/fakegitlab) does, so a replay prints the report a live run
 * against the fake prints: the identity first, the merge request, its
 * discussions page by page (a fault may hit one page), the editors only
 * when a review_login note was edited (G11), the statuses of the source
 * project (G12), the merge base over the MR chains (G7).
 *
 * GitLab's notes are handed to the flows in the shapes every platform
 * shares: the first note of a discussion whose first note is not a
 * DiffNote is a comment (a sticky candidate); a DiffNote-first
 * discussion's first note is a review comment that starts a thread and
 * its later notes replies to it; a later note of any other discussion
 * is a reply to its first note (never a sticky, G6). System and internal
 * notes are never served (G6: skipped everywhere, never stickies or
 * roots). The writes are in world_gitlab_writes.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/mr_model.h"
#include "port/gitlab.h"
#include "port/world_int.h"

/* GitLab's page size, the most per_page may ask (G9). */
#define GL_PER_PAGE 100

struct github_ops world_gitlab_ops;

void world_gitlab_words(struct world *w, enum fault_op op, int kind, int64_t pr,
                        int64_t id, const char *sha, long status,
                        const char *message, struct buf *err)
{
	const struct snap_gitlab *g = w->s->gitlab;
	const struct merge_request *mr = snap_gitlab_mr(w->s->gitlab, pr);
	struct buf mrp = BUF_INIT(BUF_MAX_SMALL),
	           path = BUF_INIT(BUF_MAX_SMALL),
	           body = BUF_INIT(BUF_MAX_SMALL);
	long src = (long)(mr ? mr->source_project_id : g->project_id);
	const char *method = "GET";

	buf_adds(&mrp, "/projects/");
	gitlab_project_enc(&mrp, w->s->repository);
	buf_addf(&mrp, "/merge_requests/%lld", (long long)pr);
	if (op == FAULT_READ) {
		switch (kind) {
		case READ_USER:
			buf_adds(&path, "/user");
			break;
		case READ_PULL:
			buf_addf(&path, "%s", mrp.ptr);
			break;
		case READ_COMMENTS:
			buf_addf(&path, "%s/discussions", mrp.ptr);
			break;
		case READ_FILES:
			buf_addf(&path, "%s/diffs", mrp.ptr);
			break;
		case READ_EDITORS:
			method = "POST";
			buf_adds(&path, "/api/graphql");
			break;
		case READ_COMPARE:
			buf_adds(&path, "/projects/");
			gitlab_project_enc(&path, w->s->repository);
			buf_adds(&path, "/repository/merge_base");
			break;
		case READ_STATUSES:
			buf_addf(&path,
			         "/projects/%ld/repository/commits/%s/"
			         "statuses",
			         src, sha ? sha : "");
			break;
		default:
			break;
		}
	} else {
		switch (kind) {
		case WRITE_COMMENT:
			method = id ? "PUT" : "POST";
			buf_addf(&path, "%s/notes", mrp.ptr);
			if (id)
				buf_addf(&path, "/%lld", (long long)id);
			break;
		case WRITE_COMMENT_DELETE:
			method = "DELETE";
			buf_addf(&path, "%s/notes/%lld", mrp.ptr,
			         (long long)id);
			break;
		case WRITE_REVIEW:
			method = "POST";
			buf_addf(&path, "%s/discussions", mrp.ptr);
			break;
		case WRITE_STATUS:
			method = "POST";
			buf_addf(&path, "/projects/%ld/statuses/%s", src,
			         sha ? sha : "");
			break;
		default:
			break;
		}
	}
	if (path.len) {
		/* The fake's body: a 400 on a path ending in /discussions is
		 * the refused position's. */
		gitlab_error_body(
		    &body, status,
		    path.len > 12 &&
		        !strcmp(path.ptr + path.len - 12, "/discussions"),
		    message);
		gitlab_answer_text(err, method, path.ptr, status, body.ptr,
		                   body.len);
	}
	buf_release(&mrp);
	buf_release(&path);
	buf_release(&body);
}

int world_gitlab_fault(struct world *w, enum fault_op op, int kind, int64_t pr,
                       int64_t comment_id, const char *sha, bool *lost,
                       struct buf *err)
{
	for (;;) {
		int error =
		    world_fault(w, op, kind, pr, NULL, comment_id, lost, err);
		int64_t wait;

		if (error == AA_OK) {
			/* Applied, then answered the fault's status (default
			 * 502), as the fake does. */
			if (lost && *lost)
				world_gitlab_words(
				    w, op, kind, pr, comment_id, sha,
				    w->last_status > 0 ? w->last_status : 502,
				    NULL, err);
			return AA_OK;
		}
		if (w->last_status != 429 &&
		    !(w->last_status == 409 && op == FAULT_WRITE &&
		      kind == WRITE_STATUS)) {
			if (!w->last_by_call && w->last_status >= 100)
				world_gitlab_words(w, op, kind, pr, comment_id,
				                   sha, w->last_status, NULL,
				                   err);
			return error == AA_ELOST ? AA_EAPI : error;
		}
		/* Not applied: wait and send again, never past the run's
		 * deadline (a replay judges the numbers, never sleeps). */
		wait = w->last_retry_after * 1000;
		if (w->gh.deadline && w->now + wait > w->gh.deadline) {
			buf_addf(err,
			         " (Retry-After %llds is past the "
			         "run's deadline)",
			         (long long)w->last_retry_after);
			return AA_EAPI;
		}
		w->now += wait;
	}
}

struct merge_request *world_gitlab_mr(struct world *w, int64_t pr,
                                      struct buf *err)
{
	struct merge_request *mr = snap_gitlab_mr(w->s->gitlab, pr);

	if (!mr)
		world_gitlab_words(w, FAULT_READ, READ_PULL, pr, 0, NULL, 404,
		                   NULL, err);
	return mr;
}

static int gl_user(struct github *gh, char **login, struct buf *err)
{
	struct world *w = W(gh);
	int error;

	*login = NULL;
	if (!w->viewer_read) {
		error = world_gitlab_fault(w, FAULT_READ, READ_USER, 0, 0, NULL,
		                           NULL, err);
		if (error < 0) {
			buf_setf(err, "GET https://%s/api/v4/user: %s",
			         w->s->gitlab->host,
			         w->last_status == 200   ? "not a JSON user"
			         : w->last_status == 401 ? "HTTP 401 (401 "
			                                   "Unauthorized)"
			         : w->last_status == 403 ? "HTTP 403 (403 "
			                                   "Forbidden)"
			                                 : "failed");
			return w->last_status == 401 || w->last_status == 403
			               ? AA_EDENIED
			               : AA_EAPI;
		}
		w->viewer_read = true;
	}
	*login = xstrdup(world_viewer(w));
	return AA_OK;
}

/* Does G11 need the editors: a note of review_login edited (REST
 * updated_at moved)? */
static bool editors_needed(struct world *w, const struct merge_request *mr)
{
	for (size_t i = 0; i < mr->ndiscussions; i++)
		for (size_t k = 0; k < mr->discussions[i].nnotes; k++) {
			const struct mr_note *n = &mr->discussions[i].notes[k];

			if (!n->system &&
			    policy_is_review_login(w->policy, n->author) &&
			    n->updated_at != n->created_at)
				return true;
		}
	return false;
}

/* GET …/discussions, every page, then the editors G11 needs. */
static int read_discussions(struct world *w, const struct merge_request *mr,
                            struct buf *err)
{
	size_t pages = (mr->ndiscussions + GL_PER_PAGE - 1) / GL_PER_PAGE;
	int error = AA_OK;

	for (size_t p = 1; p <= (pages ? pages : 1) && !error; p++) {
		w->page = (int64_t)p;
		error = world_gitlab_fault(w, FAULT_READ, READ_COMMENTS,
		                           mr->iid, 0, NULL, NULL, err);
	}
	w->page = 0;
	if (!error && editors_needed(w, mr))
		error = world_gitlab_fault(w, FAULT_READ, READ_EDITORS, mr->iid,
		                           0, NULL, NULL, err);
	return error;
}

/* GET the MR (G5): AA_OK, AA_ENOTFOUND, or the part failed. */
static int read_mr(struct world *w, int64_t pr, struct gh_pull *out,
                   struct buf *err)
{
	int error = world_gitlab_fault(w, FAULT_READ, READ_PULL, pr, 0, NULL,
	                               NULL, err);
	struct snap_pull *p = snapshot_pull(w->s, pr);

	if (error == AA_ENOTFOUND || (!error && !p)) {
		if (!error)
			world_gitlab_mr(w, pr, err);
		return AA_ENOTFOUND;
	}
	if (error < 0) {
		out->failed |= PART_PULL;
		return error;
	}
	snap_pull_copy(&out->pull, p, PART_PULL);
	out->ok |= PART_PULL;
	return AA_OK;
}

static int gl_review_pull(struct github *gh, int64_t pr, unsigned what,
                          struct gh_review_pull *out, struct buf *err)
{
	struct world *w = W(gh);
	const struct merge_request *mr;
	int error;

	memset(out, 0, sizeof(*out));
	error = read_mr(w, pr, &out->pull, err);
	if (error == AA_ENOTFOUND)
		return AA_ENOTFOUND;
	if (error < 0 || !(what & (RV_READ_COMMENTS | RV_READ_ROOTS))) {
		gh_pull_keep_error(&out->pull, err);
		return AA_OK;
	}
	mr = snap_gitlab_mr(w->s->gitlab, pr);
	if (read_discussions(w, mr, err) < 0) {
		if (what & RV_READ_COMMENTS)
			out->pull.failed |= PART_COMMENTS;
		gh_pull_keep_error(&out->pull, err);
		return AA_OK;
	}
	gitlab_notes_out(mr, (what & RV_READ_COMMENTS) ? &out->pull.pull : NULL,
	          (what & RV_READ_ROOTS) ? &out->rc : NULL, &out->nrc);
	if (what & RV_READ_COMMENTS)
		out->pull.ok |= PART_COMMENTS;
	out->rc_ok = (what & RV_READ_ROOTS) != 0;
	return AA_OK;
}

static int gl_review_comments(struct github *gh, int64_t pr,
                              struct snap_review_comment **out, size_t *n,
                              struct buf *err)
{
	struct world *w = W(gh);
	const struct merge_request *mr;

	*out = NULL;
	*n = 0;
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	if (read_discussions(w, mr, err) < 0)
		return AA_EAPI;
	gitlab_notes_out(mr, NULL, out, n);
	return AA_OK;
}

static int gl_pull(struct github *gh, int64_t number, unsigned parts,
                   struct gh_pull *out, struct buf *err)
{
	return gitlab_pull_by_review(gl_review_pull, gh, number, parts, out,
	                             err);
}

static int gl_files(struct github *gh, int64_t pr, struct snap_file **out,
                    size_t *n, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p = snapshot_pull(w->s, pr);
	int error;

	*out = NULL;
	*n = 0;
	if (!p)
		return AA_ENOTFOUND;
	for (size_t pg = 1; pg == 1 || (pg - 1) * GL_PER_PAGE < p->nfiles;
	     pg++) {
		w->page = (int64_t)pg;
		error = world_gitlab_fault(w, FAULT_READ, READ_FILES, pr, 0,
		                           NULL, NULL, err);
		w->page = 0;
		if (error < 0)
			return AA_EAPI;
	}
	*out = xcalloc(p->nfiles + 1, sizeof(**out));
	for (size_t i = 0; i < p->nfiles; i++) {
		(*out)[i].filename = xstrdup(p->files[i].filename);
		(*out)[i].status = xstrdup(p->files[i].status);
		(*out)[i].patch = xstrdup_or_null(p->files[i].patch);
	}
	*n = p->nfiles;
	return AA_OK;
}

static int gl_diff_ready(struct github *gh, int64_t pr, struct buf *err)
{
	const struct merge_request *mr = world_gitlab_mr(W(gh), pr, err);

	if (!mr)
		return AA_EAPI;
	if (mr->diff_refs_null || strcmp(mr->head_sha, mr->sha) != 0) {
		buf_setf(err,
		         "the merge request's diff is not ready "
		         "(diff_refs %s); rerun",
		         mr->diff_refs_null ? "is null" : "name another head");
		return AA_EAPI;
	}
	return AA_OK;
}

static bool known_commit(const struct snap_gitlab *g, const char *sha)
{
	for (size_t i = 0; i < g->nmrs; i++) {
		const struct merge_request *m = &g->mrs[i];

		if (strcmp(m->sha, sha) == 0 ||
		    (!m->diff_refs_null && (strcmp(m->base_sha, sha) == 0 ||
		                            strcmp(m->start_sha, sha) == 0 ||
		                            strcmp(m->head_sha, sha) == 0)))
			return true;
		for (size_t k = 0; k < m->ncommits; k++)
			if (strcmp(m->commits[k], sha) == 0)
				return true;
	}
	for (size_t i = 0; i < g->nstatuses; i++)
		if (strcmp(g->statuses[i].sha, sha) == 0)
			return true;
	return false;
}

/* The fake's merge-base model (D9): a commit's chain is
 * [diff_refs.base_sha, …commits] of the first MR holding it. */
static const char *chain_base(const struct snap_gitlab *g, const char *a,
                              const char *b)
{
	for (size_t i = 0; i < g->nmrs; i++) {
		const struct merge_request *m = &g->mrs[i];
		long ia = -1, ib = -1;

		if (!m->diff_refs_null) {
			if (strcmp(m->base_sha, a) == 0)
				ia = 0;
			if (strcmp(m->base_sha, b) == 0)
				ib = 0;
		}
		for (size_t k = 0; k < m->ncommits; k++) {
			if (ia < 0 && strcmp(m->commits[k], a) == 0)
				ia = (long)k + 1;
			if (ib < 0 && strcmp(m->commits[k], b) == 0)
				ib = (long)k + 1;
		}
		if (ia >= 0 && ib >= 0) {
			long at = ia < ib ? ia : ib;

			return at ? m->commits[at - 1] : m->base_sha;
		}
		if (ia >= 0 || ib >= 0)
			return m->diff_refs_null ? NULL : m->base_sha;
	}
	return NULL;
}

/*
 * compare on GitLab: the MR's own merge base is diff_refs.base_sha (no
 * request, G5); H3's compare(last...head) is GET …/repository/merge_base
 * (G7): 400 (an unknown ref) and 404 (no merge base) are AA_ENOTFOUND.
 */
static int gl_compare(struct github *gh, int64_t pr, const char *base,
                      const char *head, struct gh_compare *out, struct buf *err)
{
	struct world *w = W(gh);
	const struct merge_request *mr;
	const struct snap_gitlab *g = w->s->gitlab;
	const char *mb;
	int error;

	memset(out, 0, sizeof(*out));
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	if (strcmp(base, mr->target_branch) == 0) {
		if (mr->diff_refs_null) {
			buf_setf(err, "the merge request's diff_refs "
			              "are null");
			return AA_EAPI;
		}
		out->status = CMP_AHEAD;
		memcpy(out->merge_base, mr->base_sha, SHA_BUF);
		return AA_OK;
	}
	if ((error = world_gitlab_fault(w, FAULT_READ, READ_COMPARE, pr, 0,
	                                NULL, NULL, err)) < 0)
		return error == AA_ENOTFOUND ? AA_EAPI : error;
	if (!known_commit(g, base) || !known_commit(g, head)) {
		buf_setf(err, "merge_base: HTTP 400 (Could not find "
		              "ref)");
		return AA_ENOTFOUND;
	}
	if (!(mb = chain_base(g, base, head))) {
		buf_setf(err, "merge_base: HTTP 404 (404 Merge Base "
		              "Not Found)");
		return AA_ENOTFOUND;
	}
	memcpy(out->merge_base, mb, SHA_BUF);
	out->status = strcmp(base, head) == 0 ? CMP_IDENTICAL
	              : strcmp(mb, base) == 0 ? CMP_AHEAD
	              : strcmp(mb, head) == 0 ? CMP_BEHIND
	                                      : CMP_DIVERGED;
	return AA_OK;
}

/* GET …/repository/commits/:sha/statuses?ref=&name=&all=true of the
 * source project (G12, G17). */
static int gl_statuses(struct github *gh, int64_t pr, const char *sha,
                       unsigned need, struct snap_statuses *out,
                       struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_gitlab *g = w->s->gitlab;
	const struct merge_request *mr;

	(void)need;
	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	if (world_fault(w, FAULT_READ, READ_STATUSES, pr, sha, 0, NULL, err) <
	    0) {
		if (!w->last_by_call && w->last_status >= 100)
			world_gitlab_words(w, FAULT_READ, READ_STATUSES, pr, 0,
			                   sha, w->last_status, NULL, err);
		return AA_EAPI;
	}
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_EAPI;
	out->v = xcalloc(g->nstatuses + 1, sizeof(*out->v));
	for (size_t i = 0; i < g->nstatuses; i++) {
		const struct mr_status *st = &g->statuses[i];
		struct snap_status *x;

		if (strcmp(st->sha, sha) != 0 ||
		    st->project_id != mr->source_project_id ||
		    strcmp(st->ref, mr->source_branch) != 0 ||
		    strcmp(st->name, w->policy->review_context) != 0)
			continue;
		x = &out->v[out->n++];
		x->id = st->id;
		x->state = xstrdup(st->status);
		x->context = xstrdup(st->name);
		x->description = xstrdup(st->description ? st->description
		                                         : "");
		x->creator = xstrdup_or_null(st->author);
		x->created_at = st->created_at;
		x->target_url = xstrdup_or_null(st->target_url);
	}
	return AA_OK;
}

static int gl_discussion_of(struct github *gh, int64_t pr, int64_t note_id,
                            char out[41], struct buf *err)
{
	(void)err; /* AA_ENOTFOUND says it all: the caller's judgement */
	return gitlab_discussion_of(snap_gitlab_mr(W(gh)->s->gitlab, pr),
	                            note_id, out);
}

const struct github_review_ops world_gitlab_review_ops = {
	.review_pull = gl_review_pull,
	.review_comments = gl_review_comments,
	.files = gl_files,
	.compare = gl_compare,
	.comment_create = world_gitlab_comment_create,
	.comment_update = world_gitlab_comment_update,
	.comment_delete = world_gitlab_comment_delete,
	.discussion_post = world_gitlab_discussion_post,
	.discussion_payload = world_gitlab_discussion_payload,
	.diff_ready = gl_diff_ready,
	.discussion_of = gl_discussion_of,
};

void world_gitlab_init(struct world *w)
{
	world_gitlab_ops = world_ops;
	world_gitlab_ops.user = gl_user;
	world_gitlab_ops.pull = gl_pull;
	world_gitlab_ops.statuses = gl_statuses;
	world_gitlab_ops.create_status = world_gitlab_create_status;
	world_gitlab_ops.review = &world_gitlab_review_ops;
	world_gitlab_ops.setup = NULL;
	w->gh.ops = &world_gitlab_ops;
	w->gh.gitlab = true;
}
