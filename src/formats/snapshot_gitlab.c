/*
 * snapshot_gitlab.c - the snapshot of a GitLab project (docs/snapshot.md,
 * "GitLab merge requests"; G23): its merge requests with their notes,
 * discussions and diffs, its commit statuses, loaded with the fake
 * GitLab's defaults (tests/fakegitlab/lib/state.mjs) so replay serves
 * what the fake serves. Each merge request is also given to the rest of
 * the program as a pull (number = IID, head, base ref, commits, files),
 * the fields every platform shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/mr_model.h"
#include "core/mr_ref.h"
#include "formats/snapshot.h"
#include "formats/snapshot_int.h"

/* The GitLab fault kinds (docs/snapshot.md, "GitLab faults") that are
 * not GitHub's names too. */
static const struct {
	const char *name;
	bool read;
	int kind;
} gitlab_kinds[] = {
	{"merge_request", true, READ_PULL},
	{"discussions", true, READ_COMMENTS},
	{"diffs", true, READ_FILES},
	{"merge_base", true, READ_COMPARE},
	{"note", false, WRITE_COMMENT},
	{"note_delete", false, WRITE_COMMENT_DELETE},
	{"discussion", false, WRITE_REVIEW},
};

int snapshot_gitlab_fault_kind(const char *name, bool read)
{
	for (size_t i = 0; i < sizeof(gitlab_kinds) / sizeof(*gitlab_kinds);
	     i++)
		if (gitlab_kinds[i].read == read &&
		    strcmp(gitlab_kinds[i].name, name) == 0)
			return gitlab_kinds[i].kind;
	return -1;
}

const char *snapshot_gitlab_fault_name(int kind, bool read)
{
	for (size_t i = 0; i < sizeof(gitlab_kinds) / sizeof(*gitlab_kinds);
	     i++)
		if (gitlab_kinds[i].read == read &&
		    gitlab_kinds[i].kind == kind)
			return gitlab_kinds[i].name;
	return NULL;
}

/* A stable fake SHA of a branch name (the fake's fakeSha). */
static void fake_sha(char out[SHA_BUF], const char *name)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&b, "fakegitlab:%s", name);
	sha1_hex(out, b.ptr, b.len);
	buf_release(&b);
}

static int load_position(struct mr_note *n, const cJSON *o, const char *path,
                         struct buf *err)
{
	const cJSON *pos;

	if (jget_obj(&pos, o, path, "position", JOPT | JNULL, err))
		return AA_ERR;
	if (!pos) {
		n->new_path = xstrdup("README.md");
		return AA_OK;
	}
	if (jget_str(&n->new_path, pos, path, "new_path", 0, err) ||
	    jget_str(&n->old_path, pos, path, "old_path", JOPT | JNULL, err) ||
	    jget_int(&n->new_line, pos, path, "new_line", JOPT | JNULL, 1,
	             SNAP_MAX_NUMBER, err) ||
	    jget_int(&n->old_line, pos, path, "old_line", JOPT | JNULL, 1,
	             SNAP_MAX_NUMBER, err))
		return AA_ERR;
	return AA_OK;
}

static int load_note(struct mr_note *n, const cJSON *o, const char *path,
                     bool in_thread, const struct merge_request *mr,
                     struct buf *err)
{
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&n->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&n->type, o, path, "type", JOPT | JNULL, err) ||
	    jget_str(&n->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_str(&n->body, o, path, "body", JNULL, err) ||
	    jget_bool(&n->system, o, path, "system", JOPT | JNULL, err) ||
	    jget_bool(&n->internal, o, path, "internal", JOPT | JNULL, err) ||
	    jget_time(&n->created_at, o, path, "created_at", 0, err) ||
	    jget_time(&n->updated_at, o, path, "updated_at", JOPT | JNULL,
	              err) ||
	    jget_time(&n->last_edited_at, o, path, "last_edited_at",
	              JOPT | JNULL, err) ||
	    jget_str(&n->last_edited_by, o, path, "last_edited_by",
	             JOPT | JNULL, err) ||
	    jget_sha(n->commit_id, o, path, "commit_id", JOPT | JNULL, err))
		return AA_ERR;
	if (!in_thread) {
		free(n->type);
		n->type = NULL;
	} else if (!n->type && !cJSON_GetObjectItemCaseSensitive(o, "type")) {
		/* Absent: the default; an explicit null stays null, as the
		 * fake GitLab keeps it (and the writer writes it). */
		n->type = xstrdup("DiscussionNote");
	}
	if (!n->body)
		n->body = xstrdup("");
	if (!n->updated_at)
		n->updated_at = n->last_edited_at ? n->last_edited_at
		                                  : n->created_at;
	if (n->type && strcmp(n->type, "DiffNote") == 0) {
		if (load_position(n, o, path, err))
			return AA_ERR;
		if (!n->old_path)
			n->old_path = xstrdup(n->new_path);
		if (!n->commit_id[0])
			memcpy(n->commit_id, mr->diff_refs_null ? mr->sha
			                                        : mr->head_sha,
			       SHA_BUF);
	}
	return AA_OK;
}

static struct mr_discussion *add_discussion(struct merge_request *mr,
                                            size_t *alloc)
{
	struct mr_discussion *d;

	ALLOC_GROW(mr->discussions, mr->ndiscussions + 1, *alloc);
	d = &mr->discussions[mr->ndiscussions++];
	memset(d, 0, sizeof(*d));
	return d;
}

/* notes[] (each a discussion of its own), then discussions[]. */
static int load_threads(struct merge_request *mr, const cJSON *o,
                        const char *path, struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *arr, *item, *notes, *note;
	size_t alloc = 0, i = 0;
	int error = AA_ERR;

	if (jget_arr(&arr, o, path, "notes", JOPT | JNULL, err))
		goto out;
	cJSON_ArrayForEach(item, arr)
	{
		struct mr_discussion *d = add_discussion(mr, &alloc);

		pathf(&p, "%s.notes[%zu]", path, i++);
		d->individual = true;
		d->notes = xcalloc(1, sizeof(*d->notes));
		d->nnotes = 1;
		if (load_note(&d->notes[0], item, p.ptr, false, mr, err))
			goto out;
		mr_discussion_id(d->id, mr->iid, d->notes[0].id);
	}
	if (jget_arr(&arr, o, path, "discussions", JOPT | JNULL, err))
		goto out;
	i = 0;
	cJSON_ArrayForEach(item, arr)
	{
		struct mr_discussion *d = add_discussion(mr, &alloc);
		char *id = NULL;
		size_t k = 0, n;

		pathf(&p, "%s.discussions[%zu]", path, i++);
		if (jget_str(&id, item, p.ptr, "id", JOPT | JNULL, err) ||
		    jget_bool(&d->individual, item, p.ptr, "individual_note",
		              JOPT | JNULL, err) ||
		    jget_arr(&notes, item, p.ptr, "notes", 0, err)) {
			free(id);
			goto out;
		}
		n = (size_t)cJSON_GetArraySize(notes);
		if (!n || (id && strlen(id) != 40)) {
			buf_setf(err, "%s: needs an id of 40 hex digits and at "
			              "least one note", p.ptr);
			free(id);
			goto out;
		}
		d->notes = xcalloc(n, sizeof(*d->notes));
		cJSON_ArrayForEach(note, notes)
		{
			struct buf np = BUF_INIT(BUF_MAX_SMALL);
			int e;

			pathf(&np, "%s.notes[%zu]", p.ptr, k++);
			d->nnotes++;
			e = load_note(&d->notes[d->nnotes - 1], note, np.ptr,
			              true, mr, err);
			buf_release(&np);
			if (e) {
				free(id);
				goto out;
			}
		}
		if (id)
			memcpy(d->id, id, 41);
		else
			mr_discussion_id(d->id, mr->iid, d->notes[0].id);
		free(id);
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static int load_diffs(struct merge_request *mr, const cJSON *o,
                      const char *path, struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *arr, *item;
	size_t i = 0;
	int error = AA_ERR;

	if (jget_arr(&arr, o, path, "diffs", JOPT | JNULL, err))
		goto out;
	mr->diffs = xcalloc((size_t)cJSON_GetArraySize(arr) + 1,
	                    sizeof(*mr->diffs));
	cJSON_ArrayForEach(item, arr)
	{
		struct mr_diff *d = &mr->diffs[mr->ndiffs++];

		pathf(&p, "%s.diffs[%zu]", path, i++);
		if (jget_str(&d->new_path, item, p.ptr, "new_path", 0, err) ||
		    jget_str(&d->old_path, item, p.ptr, "old_path",
		             JOPT | JNULL, err) ||
		    jget_str(&d->diff, item, p.ptr, "diff", JOPT | JNULL, err) ||
		    jget_bool(&d->new_file, item, p.ptr, "new_file",
		              JOPT | JNULL, err) ||
		    jget_bool(&d->renamed_file, item, p.ptr, "renamed_file",
		              JOPT | JNULL, err) ||
		    jget_bool(&d->deleted_file, item, p.ptr, "deleted_file",
		              JOPT | JNULL, err))
			goto out;
		if (!d->old_path)
			d->old_path = xstrdup(d->new_path);
		if (d->diff && !d->diff[0]) {
			free(d->diff);
			d->diff = NULL;
		}
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static int load_commits(struct merge_request *mr, const cJSON *o,
                        const char *path, struct buf *err)
{
	const cJSON *arr, *item;

	if (jget_arr(&arr, o, path, "commits", JOPT | JNULL, err))
		return AA_ERR;
	mr->commits = xcalloc((size_t)cJSON_GetArraySize(arr) + 1,
	                      sizeof(*mr->commits));
	cJSON_ArrayForEach(item, arr)
	{
		if (!cJSON_IsString(item) ||
		    !sha_parse(mr->commits[mr->ncommits], item->valuestring,
		               strlen(item->valuestring))) {
			buf_setf(err, "%s.commits: expected 40-hex-digit SHAs",
			         path);
			return AA_ERR;
		}
		mr->ncommits++;
	}
	if (!mr->ncommits)
		memcpy(mr->commits[mr->ncommits++], mr->sha, SHA_BUF);
	return AA_OK;
}

static int load_diff_refs(struct merge_request *mr, const cJSON *o,
                          const char *path, struct buf *err)
{
	const cJSON *refs = cJSON_GetObjectItemCaseSensitive(o, "diff_refs");

	if (!refs) {
		fake_sha(mr->base_sha, mr->target_branch);
		memcpy(mr->start_sha, mr->base_sha, SHA_BUF);
		memcpy(mr->head_sha, mr->sha, SHA_BUF);
		return AA_OK;
	}
	if (cJSON_IsNull(refs)) {
		mr->diff_refs_null = true;
		return AA_OK;
	}
	if (jget_sha(mr->base_sha, refs, path, "base_sha", 0, err) ||
	    jget_sha(mr->start_sha, refs, path, "start_sha", 0, err) ||
	    jget_sha(mr->head_sha, refs, path, "head_sha", 0, err))
		return AA_ERR;
	return AA_OK;
}

static int load_mr(struct merge_request *mr, const cJSON *o, const char *path,
                   const struct snap_gitlab *g, const char *repository,
                   struct buf *err)
{
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	mr->source_project_id = mr->target_project_id = g->project_id;
	if (jget_int(&mr->iid, o, path, "iid", 0, 1, SNAP_MAX_NUMBER, err) ||
	    jget_str(&mr->state, o, path, "state", JOPT | JNULL, err) ||
	    jget_bool(&mr->draft, o, path, "draft", JOPT | JNULL, err) ||
	    jget_str(&mr->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_str(&mr->source_branch, o, path, "source_branch",
	             JOPT | JNULL, err) ||
	    jget_str(&mr->target_branch, o, path, "target_branch",
	             JOPT | JNULL, err) ||
	    jget_int(&mr->source_project_id, o, path, "source_project_id",
	             JOPT | JNULL, 1, JSON_MAX_INT, err) ||
	    jget_int(&mr->target_project_id, o, path, "target_project_id",
	             JOPT | JNULL, 1, JSON_MAX_INT, err) ||
	    jget_sha(mr->sha, o, path, "sha", 0, err) ||
	    jget_str(&mr->web_url, o, path, "web_url", JOPT | JNULL, err))
		return AA_ERR;
	if (!mr->state)
		mr->state = xstrdup("opened");
	if (!mr->source_branch)
		mr->source_branch = xstrdup("feature");
	if (!mr->target_branch)
		mr->target_branch = xstrdup("main");
	if (!mr->web_url) {
		struct buf u = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&u, "https://%s/%s/-/merge_requests/%lld", g->host,
		         repository, (long long)mr->iid);
		mr->web_url = buf_detach(&u, NULL);
	}
	if (load_diff_refs(mr, o, path, err) || load_commits(mr, o, path, err) ||
	    load_threads(mr, o, path, err) || load_diffs(mr, o, path, err))
		return AA_ERR;
	return AA_OK;
}

static int load_status(struct mr_status *st, const cJSON *o, const char *path,
                       const struct snap_gitlab *g, struct buf *err)
{
	st->project_id = g->project_id;
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&st->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_sha(st->sha, o, path, "sha", 0, err) ||
	    jget_str(&st->ref, o, path, "ref", JOPT | JNULL, err) ||
	    jget_str(&st->name, o, path, "name", 0, err) ||
	    jget_str(&st->status, o, path, "status", 0, err) ||
	    jget_str(&st->description, o, path, "description", JOPT | JNULL,
	             err) ||
	    jget_str(&st->target_url, o, path, "target_url", JOPT | JNULL,
	             err) ||
	    jget_str(&st->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_time(&st->created_at, o, path, "created_at", 0, err) ||
	    jget_int(&st->project_id, o, path, "project_id", JOPT | JNULL, 1,
	             JSON_MAX_INT, err))
		return AA_ERR;
	if (!st->ref) {
		const char *ref = g->nmrs ? g->mrs[0].target_branch : "main";

		for (size_t i = 0; i < g->nmrs; i++) {
			const struct merge_request *m = &g->mrs[i];
			bool in = strcmp(m->sha, st->sha) == 0;

			for (size_t k = 0; !in && k < m->ncommits; k++)
				in = strcmp(m->commits[k], st->sha) == 0;
			if (in) {
				ref = m->source_branch;
				break;
			}
		}
		st->ref = xstrdup(ref);
	}
	return AA_OK;
}

/* The pull every platform shares, from a merge request. */
static void mr_pull(struct snap_pull *p, const struct merge_request *mr)
{
	p->number = mr->iid;
	p->merged = strcmp(mr->state, "merged") == 0;
	p->state = xstrdup(strcmp(mr->state, "opened") == 0   ? "open"
	                   : strcmp(mr->state, "locked") == 0 ? "locked"
	                                                      : "closed");
	p->draft = mr->draft;
	p->author = xstrdup_or_null(mr->author);
	memcpy(p->head_sha, mr->sha, SHA_BUF);
	p->head_ref = xstrdup(mr->source_branch);
	p->head_repo = xstrdup("");
	p->base_ref = xstrdup(mr->target_branch);
	p->html_url = xstrdup(mr->web_url);
	if (!mr->diff_refs_null)
		memcpy(p->base_sha, mr->base_sha, SHA_BUF);
	p->commits = xcalloc(mr->ncommits + 1, sizeof(*p->commits));
	memcpy(p->commits, mr->commits, mr->ncommits * sizeof(*p->commits));
	p->ncommits = mr->ncommits;
	p->files = xcalloc(mr->ndiffs + 1, sizeof(*p->files));
	for (size_t i = 0; i < mr->ndiffs; i++) {
		const struct mr_diff *d = &mr->diffs[i];
		struct snap_file *f = &p->files[p->nfiles++];

		f->filename = xstrdup(d->new_path);
		f->status = xstrdup(d->deleted_file   ? "removed"
		                    : d->new_file     ? "added"
		                    : d->renamed_file ? "renamed"
		                                      : "modified");
		/* G8: a deleted file anchors nothing. */
		f->patch = d->deleted_file ? NULL : xstrdup_or_null(d->diff);
	}
}

int snapshot_load_gitlab(struct snapshot *s, const cJSON *root,
                         struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	struct snap_gitlab *g = xcalloc(1, sizeof(*g));
	const cJSON *arr, *item;
	struct mr_ref ref;
	size_t i = 0;
	int error = AA_ERR;

	s->gitlab = g;
	g->project_id = 1;
	if (jget_str(&g->host, root, "", "host", 0, err) ||
	    jget_int(&g->project_id, root, "", "project_id", JOPT | JNULL, 1,
	             JSON_MAX_INT, err))
		goto out;
	/* The path and host as G1 reads them: parse "PATH!1" with the
	 * snapshot's host. */
	buf_addf(&p, "%s!1", s->repository);
	if (mr_ref_parse(&ref, p.ptr, p.len, g->host) < 0) {
		buf_setf(err, "repository: not a GitLab project path on host "
		              "\"%s\"", g->host);
		goto out;
	}
	memcpy(g->host, ref.host, strlen(ref.host) + 1);
	if (jget_arr(&arr, root, "", "merge_requests", JOPT | JNULL, err))
		goto out;
	g->mrs = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*g->mrs));
	cJSON_ArrayForEach(item, arr)
	{
		pathf(&p, "merge_requests[%zu]", i++);
		g->nmrs++;
		if (load_mr(&g->mrs[g->nmrs - 1], item, p.ptr, g, s->repository,
		            err))
			goto out;
	}
	if (jget_arr(&arr, root, "", "commit_statuses", JOPT | JNULL, err))
		goto out;
	g->statuses = xcalloc((size_t)cJSON_GetArraySize(arr) + 1,
	                      sizeof(*g->statuses));
	i = 0;
	cJSON_ArrayForEach(item, arr)
	{
		pathf(&p, "commit_statuses[%zu]", i++);
		g->nstatuses++;
		if (load_status(&g->statuses[g->nstatuses - 1], item, p.ptr, g,
		                err))
			goto out;
	}
	if (s->npulls) {
		buf_setf(err, "pulls: must be empty in a GitLab snapshot");
		goto out;
	}
	free(s->pulls);
	s->pulls = xcalloc(g->nmrs + 1, sizeof(*s->pulls));
	for (i = 0; i < g->nmrs; i++)
		mr_pull(&s->pulls[s->npulls++], &g->mrs[i]);
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}
