/*
 * snapshot_write.c - SNAPSHOT.md §2: a snapshot as JSON (record's output),
 * pretty and deterministic, in the shape the loader (snapshot.c) reads.
 */
#include "formats/snapshot.h"

#include <string.h>

#include "base/json.h"
#include "formats/snapshot_int.h"

static void write_time_or_null(struct jw *w, int64_t ms)
{
	if (ms)
		jw_time(w, ms);
	else
		jw_null(w);
}

static void write_strv(struct jw *w, char *const *v, size_t n)
{
	size_t i;

	jw_arr_begin(w);
	for (i = 0; i < n; i++)
		jw_str(w, v[i]);
	jw_arr_end(w);
}

static void write_pull(struct jw *w, const struct snap_pull *p)
{
	size_t i;

	jw_obj_begin(w);
	jw_key_int(w, "number", p->number);
	jw_key_str(w, "state", p->state);
	jw_key(w, "merged");
	jw_bool(w, p->merged);
	jw_key(w, "draft");
	jw_bool(w, p->draft);
	jw_key_str(w, "author", p->author);
	jw_key(w, "head");
	jw_obj_begin(w);
	jw_key_str(w, "sha", p->head_sha);
	jw_key_str(w, "ref", p->head_ref);
	jw_key_str(w, "repository", p->head_repo);
	jw_obj_end(w);
	jw_key(w, "base");
	jw_obj_begin(w);
	jw_key_str(w, "ref", p->base_ref);
	if (p->base_sha[0]) {
		jw_key_str(w, "sha", p->base_sha);
	}
	jw_obj_end(w);
	if (p->updated_at) {
		jw_key(w, "updated_at");
		jw_time(w, p->updated_at);
	}
	jw_key(w, "labels");
	write_strv(w, p->labels, p->nlabels);
	jw_key(w, "commits");
	jw_arr_begin(w);
	for (i = 0; i < p->ncommits; i++)
		jw_str(w, p->commits[i]);
	jw_arr_end(w);
	jw_key(w, "comments");
	jw_arr_begin(w);
	for (i = 0; i < p->ncomments; i++) {
		const struct snap_comment *c = &p->comments[i];

		jw_obj_begin(w);
		jw_key_int(w, "id", c->id);
		jw_key_str(w, "author", c->author);
		jw_key(w, "created_at");
		jw_time(w, c->created_at);
		jw_key(w, "body");
		jw_strn(w, c->body, c->body_len);
		jw_key_str(w, "edited_by", c->edited_by);
		jw_key(w, "edited_at");
		if (c->edited)
			jw_time(w, c->edited_at);
		else
			jw_null(w);
		if (c->nedits) {
			size_t k;

			jw_key(w, "edits");
			jw_arr_begin(w);
			for (k = 0; k < c->nedits; k++) {
				jw_obj_begin(w);
				jw_key_str(w, "editor", c->edits[k].editor);
				jw_key(w, "edited_at");
				jw_time(w, c->edits[k].edited_at);
				jw_obj_end(w);
			}
			jw_arr_end(w);
		}
		jw_key_str(w, "html_url", c->html_url);
		if (c->updated_at) {
			jw_key(w, "updated_at");
			jw_time(w, c->updated_at);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "timeline");
	jw_arr_begin(w);
	for (i = 0; i < p->ntimeline; i++) {
		const struct snap_event *e = &p->timeline[i];

		jw_obj_begin(w);
		jw_key_int(w, "id", e->id);
		jw_key_str(w, "event", e->event);
		if (e->label) {
			jw_key_str(w, "label", e->label);
		}
		jw_key_str(w, "actor", e->actor);
		jw_key(w, "created_at");
		jw_time(w, e->created_at);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "threads");
	jw_arr_begin(w);
	for (i = 0; i < p->nthreads; i++) {
		const struct snap_thread *t = &p->threads[i];

		jw_obj_begin(w);
		jw_key_str(w, "id", t->id);
		jw_key_str(w, "author", t->author);
		jw_key_int(w, "comments", t->comments);
		jw_key(w, "resolved");
		jw_bool(w, t->resolved);
		if (t->url) {
			jw_key_str(w, "url", t->url);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "reviews");
	jw_arr_begin(w);
	for (i = 0; i < p->nreviews; i++) {
		const struct snap_review *r = &p->reviews[i];

		jw_obj_begin(w);
		jw_key_int(w, "id", r->id);
		jw_key_str(w, "author", r->author);
		jw_key_str(w, "state", r->state);
		jw_key_str(w, "commit_id",
			   r->commit_id[0] ? r->commit_id : NULL);
		jw_key(w, "submitted_at");
		write_time_or_null(w, r->submitted_at);
		if (r->body) {
			jw_key_str(w, "body", r->body);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	snapshot_write_publish_parts(w, p);
	jw_obj_end(w);
}

void snapshot_write_fault(struct jw *w, const struct snap_fault *f,
			  bool gitlab)
{
	const char *name = NULL;

	jw_obj_begin(w);
	if (f->op == FAULT_CALL) {
		jw_key_int(w, "call", f->call);
	} else {
		if (gitlab)
			name = snapshot_gitlab_fault_name(f->kind,
							  f->op == FAULT_READ);
		if (!name)
			name = f->op == FAULT_READ ? gh_read_names[f->kind]
						   : gh_write_names[f->kind];
		jw_key(w, f->op == FAULT_READ ? "read" : "write");
		jw_str(w, name);
	}
	if (f->pr) {
		jw_key_int(w, "pr", f->pr);
	}
	if (f->sha[0]) {
		jw_key_str(w, "sha", f->sha);
	}
	jw_key(w, "status");
	if (f->timeout)
		jw_str(w, "timeout");
	else
		jw_int(w, f->status);
	if (f->times) {
		jw_key_int(w, "times", f->times);
	}
	if (f->page) {
		jw_key_int(w, "page", f->page);
	}
	if (f->mode) {
		jw_key_str(w, "mode", f->mode);
	}
	if (f->retry_after) {
		jw_key_int(w, "retry_after", f->retry_after);
	}
	if (f->comment_id) {
		jw_key_int(w, "comment_id", f->comment_id);
	}
	if (f->skip) {
		jw_key_int(w, "skip", f->skip);
	}
	jw_obj_end(w);
}

int snapshot_to_json(const struct snapshot *s, struct buf *out)
{
	struct jw w;
	size_t i, j;

	if (s->gitlab)
		return snapshot_gitlab_to_json(s, out);
	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key(&w, "snapshot");
	jw_int(&w, 1);
	jw_key(&w, "repository");
	jw_str(&w, s->repository);
	if (s->viewer) {
		jw_key(&w, "viewer");
		jw_str(&w, s->viewer);
	}
	if (s->default_branch) {
		jw_key(&w, "default_branch");
		jw_str(&w, s->default_branch);
	}
	snapshot_write_run(&w, s);
	jw_key(&w, "event");
	jw_obj_begin(&w);
	jw_key(&w, "name");
	jw_str(&w, s->event_name);
	jw_key(&w, "payload");
	/* The payload is compact JSON produced by cJSON: embed as is. */
	buf_adds(out, s->event_payload ? s->event_payload : "{}");
	w.after_key = false;
	jw_obj_end(&w);
	jw_key(&w, "pulls");
	jw_arr_begin(&w);
	for (i = 0; i < s->npulls; i++)
		write_pull(&w, &s->pulls[i]);
	jw_arr_end(&w);
	if (s->has_labels) {
		jw_key(&w, "labels");
		write_strv(&w, s->labels, s->nlabels);
	}
	jw_key(&w, "statuses");
	jw_obj_begin(&w);
	for (i = 0; i < s->nstatuses; i++) {
		const struct snap_statuses *st = &s->statuses[i];

		jw_key(&w, st->sha);
		jw_arr_begin(&w);
		for (j = 0; j < st->n; j++) {
			const struct snap_status *x = &st->v[j];

			jw_obj_begin(&w);
			jw_key(&w, "id");
			jw_int(&w, x->id);
			jw_key(&w, "state");
			jw_str(&w, x->state);
			jw_key(&w, "context");
			jw_str(&w, x->context);
			jw_key(&w, "description");
			jw_str(&w, x->description);
			jw_key(&w, "creator");
			jw_str_or_null(&w, x->creator);
			jw_key(&w, "created_at");
			jw_time(&w, x->created_at);
			jw_key(&w, "target_url");
			jw_str_or_null(&w, x->target_url);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	if (s->nfaults) {
		jw_key(&w, "faults");
		jw_arr_begin(&w);
		for (i = 0; i < s->nfaults; i++)
			snapshot_write_fault(&w, &s->faults[i], false);
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	return buf_error(out);
}

/* The run's own keys, on either platform: now, command, config. */
void snapshot_write_run(struct jw *w, const struct snapshot *s)
{
	if (s->now) {
		jw_key(w, "now");
		jw_time(w, s->now);
	}
	if (s->command)
		snapshot_write_command(w, s->command);
	jw_key(w, "config");
	jw_obj_begin(w);
	for (size_t i = 0; i < s->nconfig; i++)
		jw_key_str(w, s->config_keys[i], s->config_values[i]);
	jw_obj_end(w);
}
