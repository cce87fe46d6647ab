/*
 * world_gitlab_writes.c - the in-memory GitLab port's writes, made the
 * way the fake GitLab makes them (tests/fakegitlab/lib/app.mjs): a new
 * note gets the project's highest note id + 1 (D3) in a discussion of
 * its own; a PUT that changes the body records its editor (G10); a
 * DiffNote's position must name one line of the diff whose old and new
 * numbers both match, else 400 (G16); a status is a CI job that a newer
 * post of the same name, ref and author transitions in place, and a
 * pending post over a pending job is refused (G17).
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/mr_model.h"
#include "port/gitlab.h"
#include "port/world_int.h"

/* The note `id` of the MR, and its discussion. */
static struct mr_note *find_note(struct merge_request *mr, int64_t id,
                                 struct mr_discussion **dp)
{
	for (size_t i = 0; i < mr->ndiscussions; i++)
		for (size_t k = 0; k < mr->discussions[i].nnotes; k++)
			if (mr->discussions[i].notes[k].id == id) {
				*dp = &mr->discussions[i];
				return &mr->discussions[i].notes[k];
			}
	return NULL;
}

static struct mr_note *new_note(struct world *w, struct merge_request *mr,
                                const char *body, const char *type)
{
	struct mr_discussion *d;
	struct mr_note *n;

	ALLOC_GROW(mr->discussions, mr->ndiscussions + 1, mr->adiscussions);
	d = &mr->discussions[mr->ndiscussions++];
	memset(d, 0, sizeof(*d));
	d->notes = xcalloc(1, sizeof(*d->notes));
	d->nnotes = 1;
	d->individual = !type;
	n = &d->notes[0];
	n->id = snap_gitlab_max_note_id(w->s->gitlab) + 1;
	mr_discussion_id(d->id, mr->iid, n->id);
	n->type = xstrdup_or_null(type);
	n->author = xstrdup(world_viewer(w));
	n->body = xstrdup(body);
	n->created_at = n->updated_at = w->now;
	return n;
}

int world_gitlab_comment_create(struct github *gh, int64_t pr, const char *body,
                                int64_t *id, char **html_url, struct buf *err)
{
	struct world *w = W(gh);
	struct merge_request *mr;
	struct mr_note *n;
	bool lost = false;
	int error;

	*id = 0;
	*html_url = NULL;
	if ((error = world_gitlab_fault(w, FAULT_WRITE, WRITE_COMMENT, pr, 0,
	                                NULL, &lost, err)) < 0)
		return error;
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	n = new_note(w, mr, body, NULL);
	if (lost)
		return AA_ELOST;
	*id = n->id;
	*html_url = gitlab_note_url(mr, n->id);
	return AA_OK;
}

int world_gitlab_comment_update(struct github *gh, int64_t pr, int64_t id,
                                const char *body, struct buf *err)
{
	struct world *w = W(gh);
	struct merge_request *mr;
	struct mr_discussion *d;
	struct mr_note *n;
	bool lost = false;
	int error;

	if ((error = world_gitlab_fault(w, FAULT_WRITE, WRITE_COMMENT, pr, id,
	                                NULL, &lost, err)) < 0)
		return error;
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	if (!(n = find_note(mr, id, &d))) {
		world_gitlab_words(w, FAULT_WRITE, WRITE_COMMENT, pr, id, NULL,
		                   404, "404 Note Not Found", err);
		return AA_ENOTFOUND;
	}
	/* Notes::UpdateService: only a changed body is an edit. */
	if (strcmp(n->body, body) != 0) {
		free(n->body);
		n->body = xstrdup(body);
		free(n->last_edited_by);
		n->last_edited_by = xstrdup(world_viewer(w));
		n->last_edited_at = n->updated_at = w->now;
	}
	return lost ? AA_ELOST : AA_OK;
}

int world_gitlab_comment_delete(struct github *gh, int64_t pr, int64_t id,
                                struct buf *err)
{
	struct world *w = W(gh);
	struct merge_request *mr;
	struct mr_discussion *d;
	struct mr_note *n;
	bool lost = false;
	size_t k;
	int error;

	if ((error = world_gitlab_fault(w, FAULT_WRITE, WRITE_COMMENT_DELETE,
	                                pr, id, NULL, &lost, err)) < 0)
		return error;
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	if (!(n = find_note(mr, id, &d))) {
		world_gitlab_words(w, FAULT_WRITE, WRITE_COMMENT_DELETE, pr, id,
		                   NULL, 404, "404 Note Not Found", err);
		return AA_ENOTFOUND;
	}
	k = (size_t)(n - d->notes);
	mr_note_release(n);
	memmove(n, n + 1, (d->nnotes - k - 1) * sizeof(*n));
	d->nnotes--;
	if (!d->nnotes) {
		size_t i = (size_t)(d - mr->discussions);

		mr_discussion_release(d);
		memmove(d, d + 1, (mr->ndiscussions - i - 1) * sizeof(*d));
		mr->ndiscussions--;
	}
	return lost ? AA_ELOST : AA_OK;
}

int world_gitlab_discussion_payload(struct github *gh, int64_t pr,
                                    const struct gh_inline *inl,
                                    struct buf *out)
{
	const struct merge_request *mr = snap_gitlab_mr(W(gh)->s->gitlab, pr);
	struct jw j;

	if (!mr)
		return AA_ENOTFOUND;
	jw_init(&j, out, false);
	gitlab_discussion_json(&j, mr, inl);
	return buf_error(out) < 0 ? AA_ETOOBIG : AA_OK;
}

int world_gitlab_discussion_post(struct github *gh, int64_t pr,
                                 const struct gh_inline *inl,
                                 struct gh_discussion_posted *out,
                                 struct buf *err)
{
	struct world *w = W(gh);
	struct merge_request *mr;
	const struct mr_diff *d;
	struct mr_note *n;
	bool lost = false;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = world_gitlab_fault(w, FAULT_WRITE, WRITE_REVIEW, pr, 0,
	                                NULL, &lost, err)) < 0) {
		if (w->last_status == 400 || w->last_status == 422)
			return AA_EREJECTED; /* in the fake's words (P65) */
		return error;
	}
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	if (!gitlab_position_ok(mr, inl)) {
		world_gitlab_words(w, FAULT_WRITE, WRITE_REVIEW, pr, 0, NULL,
		                   400, NULL, err);
		return AA_EREJECTED;
	}
	if (!(d = gitlab_diff_of(mr, inl->path)))
		return AA_EREJECTED; /* position_ok() found it */
	n = new_note(w, mr, inl->body, "DiffNote");
	n->new_path = xstrdup(inl->path);
	n->old_path = xstrdup(d->old_path);
	n->new_line = inl->line;
	mr_diff_line(d->diff, inl->line, &n->old_line);
	memcpy(n->commit_id, mr->head_sha, SHA_BUF);
	if (lost)
		return AA_ELOST;
	out->note_id = n->id;
	memcpy(out->discussion_id, mr->discussions[mr->ndiscussions - 1].id,
	       sizeof(out->discussion_id));
	out->html_url = gitlab_note_url(mr, n->id);
	return AA_OK;
}

/* The newest pending or running job of this name, ref and author on
 * sha in the source project (Ci::CreateCommitStatusService). */
static struct mr_status *open_job(struct world *w,
                                  const struct merge_request *mr,
                                  const char *sha, const char *name)
{
	struct snap_gitlab *g = w->s->gitlab;
	struct mr_status *best = NULL;

	for (size_t i = 0; i < g->nstatuses; i++) {
		struct mr_status *st = &g->statuses[i];

		if (strcmp(st->sha, sha) == 0 &&
		    st->project_id == mr->source_project_id &&
		    strcmp(st->name, name) == 0 &&
		    strcmp(st->ref, mr->source_branch) == 0 &&
		    (strcmp(st->status, "pending") == 0 ||
		     strcmp(st->status, "running") == 0) &&
		    st->author && str_eq_nocase(st->author, world_viewer(w)) &&
		    (!best || st->id > best->id))
			best = st;
	}
	return best;
}

int world_gitlab_create_status(struct github *gh, int64_t pr, const char *sha,
                               const char *state, const char *context,
                               const char *description, const char *target_url,
                               struct buf *err)
{
	struct world *w = W(gh);
	struct snap_gitlab *g = w->s->gitlab;
	struct merge_request *mr;
	struct mr_status *st;
	bool lost = false;
	int64_t max = 0;
	int error;

	if ((error = world_gitlab_fault(w, FAULT_WRITE, WRITE_STATUS, pr, 0,
	                                sha, &lost, err)) < 0)
		return error;
	if (!(mr = world_gitlab_mr(w, pr, err)))
		return AA_ENOTFOUND;
	st = open_job(w, mr, sha, context);
	if (st && strcmp(st->status, state) == 0) {
		buf_setf(err,
		         "POST status: HTTP 400 (Cannot transition "
		         "status via :enqueue from :%s)",
		         st->status);
		return lost ? AA_ELOST : AA_ENOOP;
	}
	if (!st) {
		for (size_t i = 0; i < g->nstatuses; i++)
			if (g->statuses[i].id > max)
				max = g->statuses[i].id;
		ALLOC_GROW(g->statuses, g->nstatuses + 1, g->astatuses);
		st = &g->statuses[g->nstatuses++];
		memset(st, 0, sizeof(*st));
		st->id = max + 1;
		memcpy(st->sha, sha, SHA_BUF);
		st->ref = xstrdup(mr->source_branch);
		st->name = xstrdup(context);
		st->author = xstrdup(world_viewer(w));
		st->project_id = mr->source_project_id;
		st->created_at = w->now;
	}
	free(st->status);
	st->status = xstrdup(state);
	free(st->description);
	st->description = xstrdup_or_null(description);
	free(st->target_url);
	st->target_url = xstrdup_or_null(target_url);
	return lost ? AA_ELOST : AA_OK;
}
