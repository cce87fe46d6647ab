/*
 * snapshot_review.c - the parts of a snapshot the pr-review commands add
 * (PUBLISH.md §8): a pull's review comments and files, and the command
 * replay runs instead of `run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/snapshot.h"
#include "formats/snapshot_int.h"

static int load_review_comment(void *item, const cJSON *o, const char *path,
			       struct buf *err)
{
	struct snap_review_comment *c = item;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&c->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&c->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_str(&c->body, o, path, "body", JNULL, err) ||
	    jget_str(&c->path, o, path, "path", 0, err) ||
	    jget_int(&c->line, o, path, "line", JOPT | JNULL, 1,
		     SNAP_MAX_NUMBER, err) ||
	    jget_int(&c->start_line, o, path, "start_line", JOPT | JNULL, 1,
		     SNAP_MAX_NUMBER, err) ||
	    jget_str(&c->side, o, path, "side", JOPT | JNULL, err) ||
	    jget_sha(c->commit_id, o, path, "commit_id", JOPT | JNULL, err) ||
	    jget_int(&c->in_reply_to, o, path, "in_reply_to", JOPT | JNULL, 1,
		     JSON_MAX_INT, err) ||
	    jget_int(&c->review_id, o, path, "review_id", JOPT | JNULL, 1,
		     JSON_MAX_INT, err) ||
	    jget_time(&c->created_at, o, path, "created_at", 0, err) ||
	    jget_str(&c->html_url, o, path, "html_url", JOPT | JNULL, err))
		return AA_ERR;
	if (!c->body)
		c->body = xstrdup("");
	return AA_OK;
}

static int load_file(void *item, const cJSON *o, const char *path,
		     struct buf *err)
{
	struct snap_file *f = item;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_str(&f->filename, o, path, "filename", 0, err) ||
	    jget_str(&f->status, o, path, "status", JOPT | JNULL, err) ||
	    jget_str(&f->patch, o, path, "patch", JOPT | JNULL, err))
		return AA_ERR;
	if (!f->status)
		f->status = xstrdup("modified");
	return AA_OK;
}

/* The root of c's thread: follow in_reply_to while it names a known
 * comment (a cycle stops where it closes). */
static const struct snap_review_comment *
thread_root(const struct snap_pull *p, const struct snap_review_comment *c)
{
	for (size_t hops = 0; c->in_reply_to && hops <= p->nreview_comments;
	     hops++) {
		const struct snap_review_comment *parent = NULL;

		for (size_t i = 0; i < p->nreview_comments; i++)
			if (p->review_comments[i].id == c->in_reply_to)
				parent = &p->review_comments[i];
		if (!parent)
			break;
		c = parent;
	}
	return c;
}

/*
 * PUBLISH §8: a pull's review comments make threads — one per root
 * comment, holding its replies — beside the `threads` it lists (a listed
 * thread of the same id is that thread), so the gate sees what GitHub
 * (and fakehub) would show: every review comment is in a thread. The id
 * is "PRRT_<root id>", the link the root's (P34).
 */
static void derive_threads(struct snap_pull *p)
{
	size_t alloc = 0;

	for (size_t i = 0; i < p->nreview_comments; i++) {
		const struct snap_review_comment *root =
			thread_root(p, &p->review_comments[i]);
		struct snap_thread *t = NULL;
		char id[32];

		if (snprintf(id, sizeof(id), "PRRT_%lld", (long long)root->id) >=
		    (int)sizeof(id))
			continue; /* cannot happen: 19 digits at most */
		for (size_t k = 0; k < p->nthreads; k++)
			if (strcmp(p->threads[k].id, id) == 0)
				t = &p->threads[k];
		if (!t) {
			ALLOC_GROW(p->threads, p->nthreads + 1, alloc);
			t = &p->threads[p->nthreads++];
			memset(t, 0, sizeof(*t));
			t->id = xstrdup(id);
			t->url = xstrdup_or_null(root->html_url);
			t->author = xstrdup_or_null(root->author);
		}
		t->comments++;
	}
}

int snapshot_load_publish_parts(struct snap_pull *p, const cJSON *o,
				const char *path, struct buf *err)
{
	if (LOAD_LIST(o, path, "review_comments", p->review_comments,
		      p->nreview_comments, load_review_comment, err) ||
	    LOAD_LIST(o, path, "files", p->files, p->nfiles, load_file, err))
		return AA_ERR;
	derive_threads(p);
	return AA_OK;
}

static const char *const command_names[] = { "publish", "review-plan",
					      "review-local" };

/* `findings`: an object is the file's JSON; a string is the file's raw
 * text (PUBLISH §7.6), so malformed input can be expressed. */
static int load_findings(struct snap_command *c, const cJSON *cmd,
			 struct buf *err)
{
	const cJSON *f = json_get(cmd, "findings");
	char *text;

	if (!f) {
		buf_setf(err, "command.findings: missing");
		return AA_ERR;
	}
	if (json_string(f)) {
		c->findings = xstrdup(json_string(f));
		c->findings_text = true;
	} else {
		if (!(text = cJSON_PrintUnformatted(f))) {
			buf_setf(err, "command.findings: cannot be printed");
			return AA_ERR;
		}
		c->findings = xstrdup(text);
		cJSON_free(text);
	}
	c->findings_len = strlen(c->findings);
	return AA_OK;
}

int snapshot_load_command(struct snapshot *s, const cJSON *root,
			  struct buf *err)
{
	const cJSON *cmd;
	struct snap_command *c;
	char *name = NULL;
	size_t k;
	int error = AA_ERR;

	if (jget_obj(&cmd, root, "", "command", JOPT | JNULL, err))
		return AA_ERR;
	if (!cmd)
		return AA_OK;
	c = s->command = xcalloc(1, sizeof(*c));
	if (jget_str(&name, cmd, "command", "name", 0, err))
		goto out;
	for (k = 0; k < ARRAY_SIZE(command_names); k++)
		if (strcmp(name, command_names[k]) == 0)
			break;
	if (k == ARRAY_SIZE(command_names)) {
		buf_setf(err, "command.name: unknown command \"%s\"", name);
		goto out;
	}
	c->name = (enum snap_command_name)k;
	if (jget_bool(&c->dry_run, cmd, "command", "dry_run", JOPT | JNULL,
		      err))
		goto out;
	/* B7: what --pr takes; a string is resolved by the command (which
	 * repository it names is a usage question, not a snapshot's). */
	if (c->name != SNAP_CMD_LOCAL &&
	    (json_str(cmd, "pr")
		     ? jget_str(&c->pr_ref, cmd, "command", "pr", 0, err)
		     : jget_int(&c->pr, cmd, "command", "pr", 0, 1,
				SNAP_MAX_NUMBER, err)))
		goto out;
	if (c->name == SNAP_CMD_PLAN) {
		if (jget_str(&c->mode, cmd, "command", "mode", JOPT | JNULL,
			     err))
			goto out;
		if (!c->mode)
			c->mode = xstrdup("auto");
		if (strcmp(c->mode, "auto") != 0 &&
		    strcmp(c->mode, "full") != 0 &&
		    strcmp(c->mode, "incremental") != 0) {
			buf_setf(err, "command.mode: expected auto, full or "
				      "incremental");
			goto out;
		}
	} else if (load_findings(c, cmd, err)) {
		goto out;
	}
	error = AA_OK;
out:
	free(name);
	return error;
}

static void write_review_comment(struct jw *w,
				 const struct snap_review_comment *c)
{
	jw_obj_begin(w);
	jw_key(w, "id");
	jw_int(w, c->id);
	jw_key(w, "author");
	jw_str_or_null(w, c->author);
	jw_key(w, "body");
	jw_str(w, c->body);
	jw_key(w, "path");
	jw_str(w, c->path);
	jw_key(w, "line");
	if (c->line)
		jw_int(w, c->line);
	else
		jw_null(w);
	if (c->start_line) {
		jw_key(w, "start_line");
		jw_int(w, c->start_line);
	}
	if (c->side) {
		jw_key(w, "side");
		jw_str(w, c->side);
	}
	if (c->commit_id[0]) {
		jw_key(w, "commit_id");
		jw_str(w, c->commit_id);
	}
	if (c->in_reply_to) {
		jw_key(w, "in_reply_to");
		jw_int(w, c->in_reply_to);
	}
	if (c->review_id) {
		jw_key(w, "review_id");
		jw_int(w, c->review_id);
	}
	jw_key(w, "created_at");
	jw_time(w, c->created_at);
	jw_key(w, "html_url");
	jw_str_or_null(w, c->html_url);
	jw_obj_end(w);
}

void snapshot_write_publish_parts(struct jw *w, const struct snap_pull *p)
{
	size_t i;

	if (p->nreview_comments) {
		jw_key(w, "review_comments");
		jw_arr_begin(w);
		for (i = 0; i < p->nreview_comments; i++)
			write_review_comment(w, &p->review_comments[i]);
		jw_arr_end(w);
	}
	if (p->nfiles) {
		jw_key(w, "files");
		jw_arr_begin(w);
		for (i = 0; i < p->nfiles; i++) {
			jw_obj_begin(w);
			jw_key(w, "filename");
			jw_str(w, p->files[i].filename);
			jw_key(w, "status");
			jw_str(w, p->files[i].status);
			jw_key(w, "patch");
			jw_str_or_null(w, p->files[i].patch);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
}

void snapshot_write_command(struct jw *w, const struct snap_command *c)
{
	jw_key(w, "command");
	jw_obj_begin(w);
	jw_key(w, "name");
	jw_str(w, command_names[c->name]);
	if (c->pr_ref) {
		jw_key(w, "pr");
		jw_str(w, c->pr_ref);
	} else if (c->pr) {
		jw_key(w, "pr");
		jw_int(w, c->pr);
	}
	if (c->mode) {
		jw_key(w, "mode");
		jw_str(w, c->mode);
	}
	if (c->findings) {
		jw_key(w, "findings");
		if (c->findings_text) {
			jw_strn(w, c->findings, c->findings_len);
		} else {
			/* Compact JSON printed by cJSON: embed as is. */
			buf_add(w->out, c->findings, c->findings_len);
			w->after_key = false;
		}
	}
	jw_key(w, "dry_run");
	jw_bool(w, c->dry_run);
	jw_obj_end(w);
}
