/*
 * writes.c - every write of the live port, over REST, through one sender
 * with one mapping of GitHub's answers (the write contract of port/port.h):
 * labels, statuses, approvals and dismissals (BEHAVIOR §3, §6), and the
 * pr-review's comments and COMMENT reviews (PUBLISH §7.2). A write is never
 * sent twice, and never guessed at: one whose answer did not come back is
 * AA_ELOST, and the flow reads again to learn whether it landed
 * (core/landed.h). In App mode labels and statuses are written as the App;
 * approvals, dismissals, comments and reviews always as the machine
 * account.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "github/http.h"

/*
 * Send one write with `client` and map the answer: AA_OK when GitHub
 * answered `ok`; AA_ELOST when no answer came back (a transport failure, a
 * timeout, a 5xx: it may have landed); AA_ENOTFOUND for 404; AA_EREJECTED
 * for 422 (refused for its content, nothing made); AA_EAPI for any other
 * answer, or when nothing was sent. The message is in err.
 */
static int send_write(struct live *l, struct http *client, const char *method,
                      const char *path, const char *body, long ok,
                      struct http_response *r, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_EAPI;

	if (client == l->read_http && app_token(l, err) < 0)
		goto out;
	if (http_request(client, method, path, body, false, r, &why) < 0) {
		buf_setf(err, "%s", why.ptr);
		if (r->status == 0 || r->status >= 500)
			error = AA_ELOST;
		goto out;
	}
	if (r->status == ok) {
		error = AA_OK;
		goto out;
	}
	buf_setf(&why, "%s %s", method, path);
	http_answer_message(err, why.ptr, r);
	if (r->status == 404)
		error = AA_ENOTFOUND;
	else if (r->status == 422)
		error = AA_EREJECTED;
	else if (r->status >= 500)
		error = AA_ELOST;
out:
	buf_release(&why);
	return error;
}

/* `"key":"value"` (null when value is NULL), after a comma unless first. */
static void field(struct buf *b, const char *key, const char *value, bool first)
{
	if (!first)
		buf_addch(b, ',');
	json_quote(b, key, strlen(key));
	buf_addch(b, ':');
	if (value)
		json_quote(b, value, strlen(value));
	else
		buf_adds(b, "null");
}

/*
 * The id (and html_url when asked) of what a write created. A write that
 * was made but whose answer does not say what it made lost its answer as
 * much as one that timed out: AA_ELOST, and the flow reads to find it.
 */
static int dec_created(const struct http_response *r, const char *what,
                       int64_t *id, char **html_url, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error = AA_ELOST;

	if (json_parse(&root, r->body.ptr, r->body.len, &why) < 0 ||
	    jget_int(id, root, what, "id", 0, 1, JSON_MAX_INT, &why) < 0 ||
	    (html_url &&
	     jget_str(html_url, root, what, "html_url", 0, &why) < 0)) {
		buf_setf(err,
		         "%s made, but its answer is unreadable: "
		         "%s",
		         what, why.ptr);
		*id = 0;
		if (html_url) {
			free(*html_url);
			*html_url = NULL;
		}
		goto out;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&why);
	return error;
}

/*
 * One write whose answer needs nothing but its status; path and body (NULL:
 * none) are released. A failure's message is in err (N80).
 */
static int write_simple(struct live *l, struct http *client, const char *method,
                        struct buf *path, struct buf *body, long ok,
                        struct buf *err)
{
	struct http_response r;
	int error;

	http_response_init(&r);
	error = send_write(l, client, method, path->ptr,
	                   body ? body->ptr : NULL, ok, &r, err);
	http_response_release(&r);
	buf_release(path);
	if (body)
		buf_release(body);
	return error;
}

/* One POST that creates `what`: its id (and html_url when asked); as
 * write_simple. */
static int write_created(struct live *l, struct buf *path, struct buf *body,
                         long ok, const char *what, int64_t *id,
                         char **html_url, struct buf *err)
{
	struct http_response r;
	int error;

	http_response_init(&r);
	error =
	    send_write(l, l->http, "POST", path->ptr, body->ptr, ok, &r, err);
	if (error == AA_OK)
		error = dec_created(&r, what, id, html_url, err);
	http_response_release(&r);
	buf_release(path);
	buf_release(body);
	return error;
}

/* --- labels, statuses, approvals, dismissals (BEHAVIOR §3, §6) --- */

int live_create_label(struct github *gh, int64_t pr, const char *name,
                      const char *color, const char *description,
                      struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           body = BUF_INIT(BUF_MAX_SMALL);

	(void)pr;
	buf_addf(&path, "/repos/%s/%s/labels", l->owner, l->name);
	buf_addch(&body, '{');
	field(&body, "name", name, true);
	field(&body, "color", color, false);
	field(&body, "description", description, false);
	buf_addch(&body, '}');
	return write_simple(l, label_status_client(l), "POST", &path, &body,
	                    201, err);
}

int live_add_label(struct github *gh, int64_t pr, const char *name,
                   struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           body = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&path, "/repos/%s/%s/issues/%lld/labels", l->owner, l->name,
		 (long long)pr);
	buf_adds(&body, "{\"labels\":[");
	json_quote(&body, name, strlen(name));
	buf_adds(&body, "]}");
	return write_simple(l, label_status_client(l), "POST", &path, &body,
	                    200, err);
}

int live_create_status(struct github *gh, int64_t pr, const char *sha,
                       const char *state, const char *context,
                       const char *description, const char *target_url,
                       struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           body = BUF_INIT(BUF_MAX_SMALL);
	int error;

	(void)pr;
	buf_addf(&path, "/repos/%s/%s/statuses/%s", l->owner, l->name, sha);
	buf_addch(&body, '{');
	field(&body, "state", state, true);
	field(&body, "context", context, false);
	field(&body, "description", description, false);
	if (target_url)
		field(&body, "target_url", target_url, false);
	buf_addch(&body, '}');
	error = write_simple(l, label_status_client(l), "POST", &path, &body,
	                     201, err);
	cache_drop_sha(l, sha); /* the history changed, or may have */
	return error;
}

int live_approve(struct github *gh, int64_t pr, const char *commit_id,
                 const char *text, int64_t *review_id, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_DOC);

	*review_id = 0;
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews", l->owner, l->name,
		 (long long)pr);
	buf_addch(&body, '{');
	field(&body, "commit_id", commit_id, true);
	field(&body, "body", text, false);
	field(&body, "event", "APPROVE", false);
	buf_addch(&body, '}');
	/* The id is what a later dismissal of this very review needs. */
	return write_created(l, &path, &body, 200, "review", review_id, NULL,
	                     err);
}

int live_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                 const char *message, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           body = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews/%lld/dismissals",
		 l->owner, l->name, (long long)pr, (long long)review_id);
	buf_addch(&body, '{');
	field(&body, "message", message, true);
	field(&body, "event", "DISMISS", false);
	buf_addch(&body, '}');
	return write_simple(l, l->http, "PUT", &path, &body, 200, err);
}

/* --- the pr-review's comments and reviews (PUBLISH §7.2) --- */

int live_comment_create(struct github *gh, int64_t pr, const char *body,
                        int64_t *id, char **html_url, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_DOC);

	*id = 0;
	*html_url = NULL;
	buf_addf(&path, "/repos/%s/%s/issues/%lld/comments", l->owner, l->name,
	         (long long)pr);
	buf_addch(&b, '{');
	field(&b, "body", body, true);
	buf_addch(&b, '}');
	return write_created(l, &path, &b, 201, "comment", id, html_url, err);
}

int live_comment_update(struct github *gh, int64_t pr, int64_t id,
                        const char *body, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_DOC);

	(void)pr;
	buf_addf(&path, "/repos/%s/%s/issues/comments/%lld", l->owner, l->name,
	         (long long)id);
	buf_addch(&b, '{');
	field(&b, "body", body, true);
	buf_addch(&b, '}');
	return write_simple(l, l->http, "PATCH", &path, &b, 200, err);
}

int live_comment_delete(struct github *gh, int64_t pr, int64_t id,
                        struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);

	(void)pr;
	buf_addf(&path, "/repos/%s/%s/issues/comments/%lld", l->owner, l->name,
	         (long long)id);
	return write_simple(l, l->http, "DELETE", &path, NULL, 204, err);
}

/* The review's body: {commit_id, event, body, comments[]} (§5.4). */
static void review_body(struct buf *b, const char *commit_id, const char *body,
                        const struct gh_inline *inl, size_t n)
{
	buf_addch(b, '{');
	field(b, "commit_id", commit_id, true);
	field(b, "event", "COMMENT", false);
	field(b, "body", body, false);
	buf_adds(b, ",\"comments\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_addch(b, ',');
		buf_addch(b, '{');
		field(b, "path", inl[i].path, true);
		buf_addf(b, ",\"line\":%lld", (long long)inl[i].line);
		field(b, "side", "RIGHT", false);
		if (inl[i].start_line) {
			buf_addf(b, ",\"start_line\":%lld",
			         (long long)inl[i].start_line);
			field(b, "start_side", "RIGHT", false);
		}
		field(b, "body", inl[i].body, false);
		buf_addch(b, '}');
	}
	buf_adds(b, "]}");
}

int live_review_post(struct github *gh, int64_t pr, const char *commit_id,
                     const char *body, const struct gh_inline *inl, size_t n,
                     struct gh_review_posted *out, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_DOC);

	memset(out, 0, sizeof(*out));
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews", l->owner, l->name,
	         (long long)pr);
	review_body(&b, commit_id, body, inl, n);
	/* The answer names the review only: its comments' ids and links
	 * come from the flow's next read of the review comments (W5). */
	return write_created(l, &path, &b, 200, "review", &out->review_id,
	                     &out->html_url, err);
}
