/*
 * snapshot_gitlab_write.c - a GitLab snapshot as JSON (docs/snapshot.md,
 * "GitLab merge requests"; G23): what `record --pr <GitLab reference>`
 * writes and what AGENTIC_REPLAY_STATE leaves after a replay (P60, P63).
 * Every thread is written as a discussion with its id, `individual_note`
 * and each note's `type`, so the loader (snapshot_gitlab.c) and the fake
 * GitLab read back exactly the model written: the same note ids, the same
 * discussion ids, the same G6 classes.
 */
#include <string.h>

#include "base/json.h"
#include "core/mr_model.h"
#include "formats/snapshot.h"
#include "formats/snapshot_int.h"

static void key_time_or_null(struct jw *w, const char *key, int64_t ms)
{
	jw_key(w, key);
	if (ms)
		jw_time(w, ms);
	else
		jw_null(w);
}

static void key_int_or_null(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	if (v)
		jw_int(w, v);
	else
		jw_null(w);
}

static void key_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}

static void write_note(struct jw *w, const struct mr_note *n)
{
	bool diff = n->type && strcmp(n->type, "DiffNote") == 0;

	jw_obj_begin(w);
	jw_key_int(w, "id", n->id);
	jw_key_str(w, "type", n->type);
	jw_key_str(w, "author", n->author);
	jw_key_str(w, "body", n->body ? n->body : "");
	key_bool(w, "system", n->system);
	key_bool(w, "internal", n->internal);
	key_time_or_null(w, "created_at", n->created_at);
	key_time_or_null(w, "updated_at", n->updated_at);
	key_time_or_null(w, "last_edited_at", n->last_edited_at);
	jw_key_str(w, "last_edited_by", n->last_edited_by);
	if (diff && n->new_path) {
		jw_key(w, "position");
		jw_obj_begin(w);
		jw_key_str(w, "position_type", "text");
		jw_key_str(w, "new_path", n->new_path);
		jw_key_str(w, "old_path",
		           n->old_path ? n->old_path : n->new_path);
		key_int_or_null(w, "new_line", n->new_line);
		key_int_or_null(w, "old_line", n->old_line);
		jw_obj_end(w);
	}
	if (diff && n->commit_id[0])
		jw_key_str(w, "commit_id", n->commit_id);
	jw_obj_end(w);
}

static void write_mr(struct jw *w, const struct merge_request *m)
{
	jw_obj_begin(w);
	jw_key_int(w, "iid", m->iid);
	jw_key_str(w, "state", m->state);
	key_bool(w, "draft", m->draft);
	jw_key_str(w, "author", m->author);
	jw_key_str(w, "source_branch", m->source_branch);
	jw_key_str(w, "target_branch", m->target_branch);
	jw_key_int(w, "source_project_id", m->source_project_id);
	jw_key_int(w, "target_project_id", m->target_project_id);
	jw_key_str(w, "sha", m->sha);
	jw_key(w, "diff_refs");
	if (m->diff_refs_null) {
		jw_null(w);
	} else {
		jw_obj_begin(w);
		jw_key_str(w, "base_sha", m->base_sha);
		jw_key_str(w, "start_sha", m->start_sha);
		jw_key_str(w, "head_sha", m->head_sha);
		jw_obj_end(w);
	}
	jw_key_str(w, "web_url", m->web_url);
	jw_key(w, "commits");
	jw_arr_begin(w);
	for (size_t i = 0; i < m->ncommits; i++)
		jw_str(w, m->commits[i]);
	jw_arr_end(w);
	jw_key(w, "discussions");
	jw_arr_begin(w);
	for (size_t i = 0; i < m->ndiscussions; i++) {
		const struct mr_discussion *d = &m->discussions[i];

		jw_obj_begin(w);
		jw_key_str(w, "id", d->id);
		key_bool(w, "individual_note", d->individual);
		jw_key(w, "notes");
		jw_arr_begin(w);
		for (size_t k = 0; k < d->nnotes; k++)
			write_note(w, &d->notes[k]);
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "diffs");
	jw_arr_begin(w);
	for (size_t i = 0; i < m->ndiffs; i++) {
		const struct mr_diff *d = &m->diffs[i];

		jw_obj_begin(w);
		jw_key_str(w, "old_path", d->old_path);
		jw_key_str(w, "new_path", d->new_path);
		jw_key_str(w, "diff", d->diff);
		key_bool(w, "new_file", d->new_file);
		key_bool(w, "renamed_file", d->renamed_file);
		key_bool(w, "deleted_file", d->deleted_file);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void write_status(struct jw *w, const struct mr_status *st)
{
	jw_obj_begin(w);
	jw_key_int(w, "id", st->id);
	jw_key_str(w, "sha", st->sha);
	jw_key_str(w, "ref", st->ref);
	jw_key_str(w, "name", st->name);
	jw_key_str(w, "status", st->status);
	jw_key_str(w, "description", st->description);
	jw_key_str(w, "target_url", st->target_url);
	jw_key_str(w, "author", st->author);
	jw_key(w, "created_at");
	jw_time(w, st->created_at);
	jw_key_int(w, "project_id", st->project_id);
	jw_obj_end(w);
}

int snapshot_gitlab_to_json(const struct snapshot *s, struct buf *out)
{
	const struct snap_gitlab *g = s->gitlab;
	struct jw w;

	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key_int(&w, "snapshot", 1);
	jw_key_str(&w, "platform", "gitlab");
	jw_key_str(&w, "host", g->host);
	jw_key_str(&w, "repository", s->repository);
	jw_key_int(&w, "project_id", g->project_id);
	if (s->viewer)
		jw_key_str(&w, "viewer", s->viewer);
	snapshot_write_run(&w, s);
	jw_key(&w, "pulls");
	jw_arr_begin(&w);
	jw_arr_end(&w);
	jw_key(&w, "merge_requests");
	jw_arr_begin(&w);
	for (size_t i = 0; i < g->nmrs; i++)
		write_mr(&w, &g->mrs[i]);
	jw_arr_end(&w);
	jw_key(&w, "commit_statuses");
	jw_arr_begin(&w);
	for (size_t i = 0; i < g->nstatuses; i++)
		write_status(&w, &g->statuses[i]);
	jw_arr_end(&w);
	if (s->nfaults) {
		jw_key(&w, "faults");
		jw_arr_begin(&w);
		for (size_t i = 0; i < s->nfaults; i++)
			snapshot_write_fault(&w, &s->faults[i], true);
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	return buf_error(out);
}
