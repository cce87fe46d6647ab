/*
 * reads.c - the live GitLab port's reads as port operations (G4-G12):
 * the identity, the MR with its discussions and the editors G11 needs,
 * the diffs, the merge base (G7) and the source project's statuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "gitlab/live_int.h"
#include "port/gitlab.h"

/* G11's query: the last editor of every note, a page at a time. */
static const char editors_query[] =
	"query($path: ID!, $iid: String!, $after: String) { project(fullPath: "
	"$path) { mergeRequest(iid: $iid) { notes(first: 100, after: $after) "
	"{ nodes { id lastEditedAt lastEditedBy { username } } pageInfo { "
	"hasNextPage endCursor } } } } }";

int gl_user(struct github *gh, char **login, struct buf *err)
{
	struct gl_live *l = GL(gh);
	cJSON *o = NULL;
	long status;
	int error;

	*login = NULL;
	if (!l->viewer) {
		error = gl_request(l, "GET", "/user", NULL, &o, &status, err);
		if (error || !gl_jstr(o, "username")) {
			/* The words of the in-memory port (replay == live). */
			buf_setf(err, "GET https://%s/api/v4/user: %s", l->host,
			         !error          ? "not a JSON user"
			         : status == 401 ? "HTTP 401 (401 Unauthorized)"
			         : status == 403 ? "HTTP 403 (403 Forbidden)"
			         : status == 200 ? "not a JSON user"
			                         : "failed");
			cJSON_Delete(o);
			return error == AA_EDENIED ? AA_EDENIED : AA_EAPI;
		}
		l->viewer = xstrdup(gl_jstr(o, "username"));
		cJSON_Delete(o);
	}
	*login = xstrdup(l->viewer);
	return AA_OK;
}

static struct mr_note *note_by_id(struct merge_request *m, int64_t id)
{
	for (size_t i = 0; i < m->ndiscussions; i++)
		for (size_t k = 0; k < m->discussions[i].nnotes; k++)
			if (m->discussions[i].notes[k].id == id)
				return &m->discussions[i].notes[k];
	return NULL;
}

/* The editors of every note (G10, G11): set last_edited_* in l->mr. */
int gl_read_editors(struct gl_live *l, struct buf *err)
{
	char *after = NULL;
	int error = AA_OK;

	for (int page = 0; page < GL_MAX_PAGES; page++) {
		cJSON *q = cJSON_CreateObject(), *v, *root = NULL;
		const cJSON *notes, *nodes, *n;
		char *body;
		long status;
		char iid[24];

		if (snprintf(iid, sizeof(iid), "%lld", (long long)l->mr.iid) >=
		    (int)sizeof(iid)) {
			free(after); /* cannot happen: an int64 */
			return AA_EAPI;
		}
		cJSON_AddStringToObject(q, "query", editors_query);
		v = cJSON_AddObjectToObject(q, "variables");
		cJSON_AddStringToObject(v, "path", l->project);
		cJSON_AddStringToObject(v, "iid", iid);
		if (after)
			cJSON_AddStringToObject(v, "after", after);
		else
			cJSON_AddNullToObject(v, "after");
		body = cJSON_PrintUnformatted(q);
		cJSON_Delete(q);
		error = gl_request(l, "POST", l->graphql_url, body, &root,
		                   &status, err);
		cJSON_free(body);
		if (error == AA_ELOST)
			error = AA_EAPI;
		notes = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(
					cJSON_GetObjectItemCaseSensitive(root,
				                                         "data"),
					"project"),
				"mergeRequest"),
			"notes");
		if (!error && (cJSON_GetObjectItemCaseSensitive(root, "errors") ||
		               !cJSON_IsObject(notes))) {
			buf_setf(err, "the note editors could not be "
			              "read (GraphQL)");
			error = AA_EAPI;
		}
		nodes = error ? NULL
			      : cJSON_GetObjectItemCaseSensitive(notes, "nodes");
		cJSON_ArrayForEach(n, nodes)
		{
			const char *gid = gl_jstr(n, "id"), *slash;
			struct mr_note *x;
			int64_t ms = 0;

			slash = gid ? strrchr(gid, '/') : NULL;
			if (!slash ||
			    !(x = note_by_id(&l->mr, strtoll(slash + 1, NULL, 10))))
				continue;
			if (gl_jstr(n, "lastEditedAt")) {
				char t[40];
				size_t k = strlen(gl_jstr(n, "lastEditedAt"));

				if (k < sizeof(t)) {
					memcpy(t, gl_jstr(n, "lastEditedAt"), k + 1);
					if (k > 6 && !strcmp(t + k - 6, "+00:00"))
						memcpy(t + k - 6, "Z", 2);
					time_parse(&ms, t);
				}
				x->last_edited_at = ms ? ms : 1;
				free(x->last_edited_by);
				x->last_edited_by = xstrdup_or_null(gl_jstr(
					cJSON_GetObjectItemCaseSensitive(
						n, "lastEditedBy"),
					"username"));
			}
		}
		{
			const cJSON *pi = cJSON_GetObjectItemCaseSensitive(
				notes, "pageInfo");

			free(after);
			after = !error && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				                    pi, "hasNextPage"))
			                ? xstrdup_or_null(gl_jstr(pi, "endCursor"))
			                : NULL;
		}
		cJSON_Delete(root);
		if (error || !after)
			break;
	}
	free(after);
	return error;
}

/* G11: the editors are read only for an edited review_login note. */
static bool editors_needed(struct gl_live *l)
{
	for (size_t i = 0; i < l->mr.ndiscussions; i++)
		for (size_t k = 0; k < l->mr.discussions[i].nnotes; k++) {
			const struct mr_note *n = &l->mr.discussions[i].notes[k];

			if (!n->system &&
			    policy_is_review_login(l->policy, n->author) &&
			    n->updated_at != n->created_at)
				return true;
		}
	return false;
}

static void pull_of(const struct merge_request *m, struct snap_pull *p)
{
	p->number = m->iid;
	p->merged = strcmp(m->state, "merged") == 0;
	p->state = xstrdup(strcmp(m->state, "opened") == 0   ? "open"
	                   : strcmp(m->state, "locked") == 0 ? "locked"
	                                                     : "closed");
	p->draft = m->draft;
	p->author = xstrdup_or_null(m->author);
	memcpy(p->head_sha, m->sha, SHA_BUF);
	p->head_ref = xstrdup(m->source_branch);
	p->head_repo = xstrdup("");
	p->base_ref = xstrdup(m->target_branch);
	p->html_url = xstrdup(m->web_url);
	if (!m->diff_refs_null)
		memcpy(p->base_sha, m->base_sha, SHA_BUF);
}

static int gl_review_pull(struct github *gh, int64_t pr, unsigned what,
                          struct gh_review_pull *out, struct buf *err)
{
	struct gl_live *l = GL(gh);
	int error;

	memset(out, 0, sizeof(*out));
	error = gl_read_mr(l, pr, err);
	if (error == AA_ENOTFOUND)
		return AA_ENOTFOUND;
	if (error < 0) {
		out->pull.failed |= PART_PULL;
		gh_pull_keep_error(&out->pull, err);
		return AA_OK;
	}
	pull_of(&l->mr, &out->pull.pull);
	out->pull.ok |= PART_PULL;
	if (!(what & (RV_READ_COMMENTS | RV_READ_ROOTS)))
		return AA_OK;
	if (gl_read_discussions(l, err) < 0 ||
	    (editors_needed(l) && gl_read_editors(l, err) < 0)) {
		if (what & RV_READ_COMMENTS)
			out->pull.failed |= PART_COMMENTS;
		gh_pull_keep_error(&out->pull, err);
		return AA_OK;
	}
	gitlab_notes_out(&l->mr, (what & RV_READ_COMMENTS) ? &out->pull.pull : NULL,
	                 (what & RV_READ_ROOTS) ? &out->rc : NULL, &out->nrc);
	if (what & RV_READ_COMMENTS)
		out->pull.ok |= PART_COMMENTS;
	out->rc_ok = (what & RV_READ_ROOTS) != 0;
	return AA_OK;
}

int gl_pull(struct github *gh, int64_t number, unsigned parts,
            struct gh_pull *out, struct buf *err)
{
	return gitlab_pull_by_review(gl_review_pull, gh, number, parts, out,
	                             err);
}

static int gl_review_comments(struct github *gh, int64_t pr,
                              struct snap_review_comment **out, size_t *n,
                              struct buf *err)
{
	struct gh_review_pull r;
	int error = gl_review_pull(gh, pr, RV_READ_ROOTS, &r, err);

	*out = r.rc;
	*n = r.nrc;
	r.rc = NULL;
	r.nrc = 0;
	if (!error && !r.rc_ok)
		error = AA_EAPI;
	gh_review_pull_release(&r);
	return error;
}

/* GET …/diffs, every page (G8), into l->mr and the shared files. */
static int gl_files(struct github *gh, int64_t pr, struct snap_file **out,
                    size_t *n, struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct merge_request *m = &l->mr;
	cJSON *all = NULL;
	const cJSON *d;
	int error;

	*out = NULL;
	*n = 0;
	/* Before the MR read (P38's order): the diffs wait in l->mr for
	 * it (gl_read_mr keeps them). */
	if (!l->have_mr || l->mr.iid != pr) {
		gl_mr_clear(l);
		l->mr.iid = pr;
	}
	buf_addf(&path, "/projects/%s/merge_requests/%lld/diffs",
	         l->project_enc, (long long)pr);
	error = gl_list(l, path.ptr, &all, err);
	buf_release(&path);
	if (error)
		return AA_EAPI;
	for (size_t i = 0; i < m->ndiffs; i++) {
		free(m->diffs[i].old_path);
		free(m->diffs[i].new_path);
		free(m->diffs[i].diff);
	}
	free(m->diffs);
	m->ndiffs = 0;
	m->diffs = xcalloc((size_t)cJSON_GetArraySize(all) + 1, sizeof(*m->diffs));
	*out = xcalloc((size_t)cJSON_GetArraySize(all) + 1, sizeof(**out));
	cJSON_ArrayForEach(d, all)
	{
		struct mr_diff *x = &m->diffs[m->ndiffs++];
		struct snap_file *f = &(*out)[(*n)++];
		const char *np = gl_jstr(d, "new_path"), *diff = gl_jstr(d, "diff");

		x->new_path = xstrdup(np ? np : "");
		x->old_path = xstrdup(gl_jstr(d, "old_path") ? gl_jstr(d, "old_path")
		                                              : x->new_path);
		x->diff = diff && *diff ? xstrdup(diff) : NULL;
		x->deleted_file = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(d, "deleted_file"));
		x->new_file = cJSON_IsTrue(
		    cJSON_GetObjectItemCaseSensitive(d, "new_file"));
		x->renamed_file = cJSON_IsTrue(
		    cJSON_GetObjectItemCaseSensitive(d, "renamed_file"));
		f->filename = xstrdup(x->new_path);
		f->status = xstrdup(x->deleted_file ? "removed" : "modified");
		f->patch = x->deleted_file ? NULL : xstrdup_or_null(x->diff);
	}
	cJSON_Delete(all);
	return AA_OK;
}

static int gl_diff_ready(struct github *gh, int64_t pr, struct buf *err)
{
	struct gl_live *l = GL(gh);

	if (!l->have_mr || l->mr.iid != pr) {
		buf_setf(err, "the merge request !%lld was not read",
		         (long long)pr);
		return AA_EAPI;
	}
	if (l->mr.diff_refs_null || strcmp(l->mr.head_sha, l->mr.sha) != 0) {
		buf_setf(err,
		         "the merge request's diff is not ready "
		         "(diff_refs %s); rerun",
		         l->mr.diff_refs_null ? "is null"
		                              : "name another head");
		return AA_EAPI;
	}
	return AA_OK;
}

/* G7, and the MR's own merge base from diff_refs (G5). */
static int gl_compare(struct github *gh, int64_t pr, const char *base,
                      const char *head, struct gh_compare *out, struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	cJSON *o = NULL;
	long status;
	int error;

	memset(out, 0, sizeof(*out));
	if (!l->have_mr && gl_read_mr(l, pr, err) < 0)
		return AA_EAPI;
	if (strcmp(base, l->mr.target_branch) == 0) {
		if (l->mr.diff_refs_null) {
			buf_setf(err, "the merge request's diff_refs are "
			              "null");
			return AA_EAPI;
		}
		out->status = CMP_AHEAD;
		memcpy(out->merge_base, l->mr.base_sha, SHA_BUF);
		return AA_OK;
	}
	buf_addf(&path, "/projects/%s/repository/merge_base?refs%%5B%%5D=%s"
	         "&refs%%5B%%5D=%s", l->project_enc, base, head);
	error = gl_request(l, "GET", path.ptr, NULL, &o, &status, err);
	buf_release(&path);
	if (error == AA_ENOTFOUND || error == AA_EREJECTED) {
		cJSON_Delete(o);
		return AA_ENOTFOUND; /* unreachable (G7) */
	}
	if (error || !gl_jstr(o, "id") ||
	    !sha_parse(out->merge_base, gl_jstr(o, "id"),
	               strlen(gl_jstr(o, "id")))) {
		if (!error)
			buf_setf(err, "GET merge_base: no commit id in the "
			              "answer");
		cJSON_Delete(o);
		return AA_EAPI;
	}
	cJSON_Delete(o);
	out->status = strcmp(base, head) == 0             ? CMP_IDENTICAL
	              : strcmp(out->merge_base, base) == 0 ? CMP_AHEAD
	              : strcmp(out->merge_base, head) == 0 ? CMP_BEHIND
	                                                   : CMP_DIVERGED;
	return AA_OK;
}

int gl_statuses(struct github *gh, int64_t pr, const char *sha, unsigned need,
                struct snap_statuses *out, struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	cJSON *all = NULL;
	const cJSON *st;
	int error;

	(void)need;
	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	if ((!l->have_mr || l->mr.iid != pr) && gl_read_mr(l, pr, err) < 0)
		return AA_EAPI;
	buf_addf(&path, "/projects/%lld/repository/commits/%s/statuses?ref=",
	         (long long)l->mr.source_project_id, sha);
	gl_enc(&path, l->mr.source_branch);
	buf_adds(&path, "&name=");
	gl_enc(&path, l->policy->review_context);
	buf_adds(&path, "&all=true");
	error = gl_list(l, path.ptr, &all, err);
	buf_release(&path);
	if (error)
		return AA_EAPI;
	out->v = xcalloc((size_t)cJSON_GetArraySize(all) + 1, sizeof(*out->v));
	cJSON_ArrayForEach(st, all)
	{
		struct snap_status *x = &out->v[out->n++];
		const char *d = gl_jstr(st, "description");

		x->id = gl_jint(st, "id");
		x->state = xstrdup(gl_jstr(st, "status") ? gl_jstr(st, "status") : "");
		x->context = xstrdup(gl_jstr(st, "name") ? gl_jstr(st, "name") : "");
		x->description = xstrdup(d ? d : "");
		x->creator = xstrdup_or_null(gl_jstr(
			cJSON_GetObjectItemCaseSensitive(st, "author"), "username"));
		x->target_url = xstrdup_or_null(gl_jstr(st, "target_url"));
	}
	cJSON_Delete(all);
	return AA_OK;
}

static int gl_discussion_of(struct github *gh, int64_t pr, int64_t note_id,
                            char out[41], struct buf *err)
{
	struct gl_live *l = GL(gh);

	(void)err; /* AA_ENOTFOUND says it all: the caller's judgement */
	return gitlab_discussion_of(l->have_mr && l->mr.iid == pr ? &l->mr
	                                                          : NULL,
	                            note_id, out);
}

const struct github_review_ops gl_review_ops = {
	.review_pull = gl_review_pull,
	.review_comments = gl_review_comments,
	.files = gl_files,
	.compare = gl_compare,
	.comment_create = gl_comment_create,
	.comment_update = gl_comment_update,
	.comment_delete = gl_comment_delete,
	.discussion_post = gl_discussion_post,
	.discussion_payload = gl_discussion_payload,
	.diff_ready = gl_diff_ready,
	.discussion_of = gl_discussion_of,
};
