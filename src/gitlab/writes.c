/*
 * writes.c - the live GitLab port's writes (G13-G17): notes POSTed,
 * PUT in place and DELETEd (G14), one discussion per finding with a JSON
 * position (G16), statuses on the source project (G17). Every body is
 * JSON; a 5xx or a transport failure is a lost answer (AA_ELOST, G20),
 * never re-sent; a note answer that ran a quick action fails (G13).
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "gitlab/live_int.h"
#include "port/gitlab.h"

static char *body_json(const char *body)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct jw j;

	jw_init(&j, &b, false);
	jw_obj_begin(&j);
	jw_key(&j, "body");
	jw_str(&j, body);
	jw_obj_end(&j);
	return buf_detach(&b, NULL);
}

/* G13's guard: an answer saying a quick action ran (202, or a non-empty
 * commands_changes) stops the run. */
static int quick_action_ran(const cJSON *o, long status, struct buf *err)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "commands_changes");

	if (status != 202 && !(cJSON_IsObject(c) && c->child))
		return AA_OK;
	buf_setf(err, "GitLab ran a quick action from a note");
	return AA_EAPI;
}

static void notes_path(struct buf *p, struct gl_live *l, int64_t pr)
{
	buf_addf(p, "/projects/%s/merge_requests/%lld/notes", l->project_enc,
	         (long long)pr);
}

/* POST a new note (id 0) or PUT note ID: the body, then G13's check that no
 * quick action ran. *ANSWER is the note GitLab returned; a refusal is the
 * API's error (the sticky's writes have no per-item rejection). */
static int note_write(struct github *gh, int64_t pr, int64_t id,
                      const char *body, cJSON **answer, struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	char *json = body_json(body);
	long status;
	int error;

	notes_path(&path, l, pr);
	if (id)
		buf_addf(&path, "/%lld", (long long)id);
	error = gl_request(l, id ? "PUT" : "POST", path.ptr, json, answer,
	                   &status, err);
	if (!error)
		error = quick_action_ran(*answer, status, err);
	free(json);
	buf_release(&path);
	return error == AA_EREJECTED || error == AA_EDENIED ? AA_EAPI : error;
}

int gl_comment_create(struct github *gh, int64_t pr, const char *body,
                      int64_t *id, char **html_url, struct buf *err)
{
	cJSON *o = NULL;
	int error;

	*id = 0;
	*html_url = NULL;
	error = note_write(gh, pr, 0, body, &o, err);
	if (!error && !(*id = gl_jint(o, "id"))) {
		buf_setf(err, "POST note: no id in the answer");
		error = AA_ELOST;
	}
	if (!error)
		*html_url = gitlab_note_url(&GL(gh)->mr, *id);
	cJSON_Delete(o);
	return error;
}

int gl_comment_update(struct github *gh, int64_t pr, int64_t id,
                      const char *body, struct buf *err)
{
	cJSON *o = NULL;
	int error = note_write(gh, pr, id, body, &o, err);

	cJSON_Delete(o);
	return error;
}

int gl_comment_delete(struct github *gh, int64_t pr, int64_t id,
                      struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	long status;
	int error;

	notes_path(&path, l, pr);
	buf_addf(&path, "/%lld", (long long)id);
	error = gl_request(l, "DELETE", path.ptr, NULL, NULL, &status, err);
	buf_release(&path);
	return error == AA_EREJECTED || error == AA_EDENIED ? AA_EAPI : error;
}

int gl_discussion_payload(struct github *gh, int64_t pr,
                          const struct gh_inline *inl, struct buf *out)
{
	struct gl_live *l = GL(gh);
	struct jw j;

	if (!l->have_mr || l->mr.iid != pr)
		return AA_EAPI;
	jw_init(&j, out, false);
	gitlab_discussion_json(&j, &l->mr, inl);
	return buf_error(out) < 0 ? AA_ETOOBIG : AA_OK;
}

int gl_discussion_post(struct github *gh, int64_t pr,
                       const struct gh_inline *inl,
                       struct gh_discussion_posted *out, struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), json = BUF_INIT(BUF_MAX_DOC);
	const cJSON *first, *pos;
	cJSON *o = NULL;
	long status;
	int error;

	memset(out, 0, sizeof(*out));
	if (gl_discussion_payload(gh, pr, inl, &json) < 0) {
		buf_setf(err,
		         "POST discussion: the merge request !%lld was not "
		         "read",
		         (long long)pr);
		buf_release(&json);
		return AA_EAPI;
	}
	buf_addf(&path, "/projects/%s/merge_requests/%lld/discussions",
	         l->project_enc, (long long)pr);
	error = gl_request(l, "POST", path.ptr, json.ptr, &o, &status, err);
	buf_release(&path);
	buf_release(&json);
	if (error == AA_EDENIED)
		error = AA_EAPI;
	if (error) {
		cJSON_Delete(o);
		return error; /* AA_EREJECTED: the position (G16) */
	}
	first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, "notes"),
	                           0);
	pos = cJSON_GetObjectItemCaseSensitive(first, "position");
	error = quick_action_ran(first, status, err);
	/* G16: an anchor GitLab dropped is a failed thread. */
	if (!error && (!gl_jstr(first, "type") ||
	               strcmp(gl_jstr(first, "type"), "DiffNote") != 0 ||
	               !gl_jstr(pos, "new_path") ||
	               strcmp(gl_jstr(pos, "new_path"), inl->path) != 0 ||
	               gl_jint(pos, "new_line") != inl->line)) {
		buf_setf(err,
		         "POST discussion: GitLab dropped the "
		         "position of %s:%lld",
		         inl->path, (long long)inl->line);
		error = AA_EAPI;
	}
	if (!error) {
		const char *id = gl_jstr(o, "id");

		out->note_id = gl_jint(first, "id");
		if (id && strlen(id) < sizeof(out->discussion_id))
			memcpy(out->discussion_id, id, strlen(id) + 1);
		out->html_url = gitlab_note_url(&l->mr, out->note_id);
	}
	cJSON_Delete(o);
	return error;
}

int gl_create_status(struct github *gh, int64_t pr, const char *sha,
                     const char *state, const char *context,
                     const char *description, const char *target_url,
                     struct buf *err)
{
	struct gl_live *l = GL(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_SMALL);
	cJSON *o = NULL;
	long status;
	struct jw j;
	int error;

	if (!l->have_mr || l->mr.iid != pr) {
		buf_setf(err,
		         "POST status: the merge request !%lld was not "
		         "read",
		         (long long)pr);
		return AA_EAPI;
	}
	jw_init(&j, &b, false);
	jw_obj_begin(&j);
	jw_key(&j, "state");
	jw_str(&j, state);
	jw_key(&j, "name");
	jw_str(&j, context);
	jw_key(&j, "ref");
	jw_str(&j, l->mr.source_branch);
	if (target_url) { /* G17: left out when over 255 characters */
		jw_key(&j, "target_url");
		jw_str(&j, target_url);
	}
	jw_key(&j, "description");
	jw_str(&j, description);
	jw_obj_end(&j);
	buf_addf(&path, "/projects/%lld/statuses/%s",
	         (long long)l->mr.source_project_id, sha);
	error = gl_request(l, "POST", path.ptr, b.ptr, &o, &status, err);
	/* G17: pending over our own pending is refused as already so. */
	if (error == AA_EREJECTED && strcmp(state, "pending") == 0 &&
	    strstr(err->ptr, "Cannot transition status"))
		error = AA_ENOOP;
	else if (error == AA_EREJECTED || error == AA_EDENIED ||
	         error == AA_ENOTFOUND)
		error = AA_EAPI;
	cJSON_Delete(o);
	buf_release(&path);
	buf_release(&b);
	return error;
}
