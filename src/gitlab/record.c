/*
 * record.c - `record --pr <GitLab reference>` (G23, P60, P61): one merge
 * request read completely, read-only, into the GitLab snapshot model
 * (core/mr_model.h) that replay serves as the fake GitLab does.
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "gitlab/live_int.h"

/* GET …/merge_requests/:iid/commits (newest first): oldest first, the
 * head last, as the model keeps them (G7's chain). */
static int read_commits(struct gl_live *l, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct merge_request *m = &l->mr;
	cJSON *all = NULL;
	const cJSON *c;
	size_t n;
	int error;

	buf_addf(&path, "/projects/%s/merge_requests/%lld/commits",
	         l->project_enc, (long long)m->iid);
	error = gl_list(l, path.ptr, &all, err);
	buf_release(&path);
	if (error)
		return AA_EAPI;
	n = (size_t)cJSON_GetArraySize(all);
	free(m->commits);
	m->commits = xcalloc(n + 1, sizeof(*m->commits));
	m->ncommits = 0;
	for (size_t i = n; i-- > 0;) {
		const char *id;

		c = cJSON_GetArrayItem(all, (int)i);
		id = gl_jstr(c, "id");
		if (id && sha_parse(m->commits[m->ncommits], id, strlen(id)))
			m->ncommits++;
	}
	cJSON_Delete(all);
	/* The head is the chain's last (an MR always has its head). */
	if (!m->ncommits || strcmp(m->commits[m->ncommits - 1], m->sha) != 0)
		memcpy(m->commits[m->ncommits++], m->sha, SHA_BUF);
	return AA_OK;
}

/* Every status of the head in the source project, every name and ref. */
static int read_statuses(struct gl_live *l, struct snap_gitlab *g,
                         struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	const struct merge_request *m = &l->mr;
	cJSON *all = NULL;
	const cJSON *st;
	int error;

	buf_addf(&path,
	         "/projects/%lld/repository/commits/%s/statuses?all=true",
	         (long long)m->source_project_id, m->sha);
	error = gl_list(l, path.ptr, &all, err);
	buf_release(&path);
	if (error)
		return AA_EAPI;
	g->statuses =
	    xcalloc((size_t)cJSON_GetArraySize(all) + 1, sizeof(*g->statuses));
	cJSON_ArrayForEach (st, all) {
		struct mr_status *x = &g->statuses[g->nstatuses];
		const char *sha = gl_jstr(st, "sha");

		if (!gl_jint(st, "id") || !gl_jstr(st, "name") ||
		    !gl_jstr(st, "status") || !gl_jtime(st, "created_at"))
			continue;
		g->nstatuses++;
		x->id = gl_jint(st, "id");
		if (!sha || !sha_parse(x->sha, sha, strlen(sha)))
			memcpy(x->sha, m->sha, SHA_BUF);
		x->ref = xstrdup(gl_jstr(st, "ref") ? gl_jstr(st, "ref")
		                                    : m->source_branch);
		x->name = xstrdup(gl_jstr(st, "name"));
		x->status = xstrdup(gl_jstr(st, "status"));
		x->description = xstrdup_or_null(gl_jstr(st, "description"));
		x->target_url = xstrdup_or_null(gl_jstr(st, "target_url"));
		x->author = gl_juser(st, "author");
		x->created_at = gl_jtime(st, "created_at");
		x->project_id = m->source_project_id;
	}
	cJSON_Delete(all);
	return AA_OK;
}

static void files_free(struct snap_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		snap_file_release(&f[i]);
	free(f);
}

static bool any_edited(const struct merge_request *m)
{
	for (size_t i = 0; i < m->ndiscussions; i++)
		for (size_t k = 0; k < m->discussions[i].nnotes; k++)
			if (m->discussions[i].notes[k].updated_at !=
			    m->discussions[i].notes[k].created_at)
				return true;
	return false;
}

int gitlab_record(struct github *gh, int64_t iid, struct snapshot *snap,
                  struct buf *err)
{
	struct gl_live *l = gl_of(gh);
	struct snap_gitlab *g;
	struct snap_file *files = NULL;
	size_t nfiles = 0;
	int error;

	if (!l) {
		buf_setf(err, "not a GitLab session");
		return AA_EAPI;
	}
	if ((error = gl_user(gh, &snap->viewer, err)) < 0)
		return error;
	if ((error = gl_read_mr(l, iid, err)) < 0)
		return error;
	if (gl_read_discussions(l, err) < 0 ||
	    (any_edited(&l->mr) && gl_read_editors(l, err) < 0) ||
	    gl_review_ops.files(gh, iid, &files, &nfiles, err) < 0 ||
	    read_commits(l, err) < 0) {
		files_free(files, nfiles);
		return AA_EAPI;
	}
	files_free(files, nfiles);
	g = xcalloc(1, sizeof(*g));
	snap->gitlab = g;
	g->host = xstrdup(l->host);
	g->project_id = l->mr.target_project_id ? l->mr.target_project_id : 1;
	if (read_statuses(l, g, err) < 0)
		return AA_EAPI;
	/* The MR moves into the snapshot: the port forgets it. */
	g->mrs = xcalloc(1, sizeof(*g->mrs));
	g->mrs[0] = l->mr;
	g->nmrs = 1;
	memset(&l->mr, 0, sizeof(l->mr));
	l->have_mr = false;
	return AA_OK;
}
