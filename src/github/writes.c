/*
 * writes.c - the live port's writes, over REST: labels, statuses, approve,
 * dismiss. Never retried blindly: after no answer (a transport failure or
 * a 5xx) the state is read again to learn whether the write landed. In App
 * mode labels and statuses are written as the App; approvals and
 * dismissals always as the machine account.
 */
#include "github/live_int.h"

#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "github/http.h"

/*
 * Send one write. 0 when GitHub answered one of the `ok` statuses;
 * AA_EAPI otherwise, with `*sent_unknown` set when no answer came back
 * (transport failure or 5xx): the write may have landed.
 */
static int write_req(struct live *l, struct http *client, const char *method,
		     const char *path, const char *body, long ok1, long ok2,
		     struct http_response *r, bool *sent_unknown)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_EAPI;

	*sent_unknown = false;
	if (client == l->read_http && app_token(l) < 0)
		goto out;
	if (http_request(client, method, path, body, false, r, &err) < 0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		*sent_unknown = r->status == 0 || r->status >= 500;
		goto out;
	}
	if (r->status == ok1 || r->status == ok2) {
		error = AA_OK;
		goto out;
	}
	*sent_unknown = r->status >= 500;
	{
		cJSON *root = NULL;
		const cJSON *msg = NULL;
		const char *text = NULL;
		struct buf e2 = BUF_INIT(BUF_MAX_SMALL);

		if (json_parse(&root, r->body.ptr, r->body.len, &e2) == 0)
			msg = cJSON_GetObjectItemCaseSensitive(root, "message");
		if (msg && cJSON_IsString(msg))
			text = msg->valuestring;
		buf_setf(&l->gh.error, "%s %s: HTTP %ld%s%s", method, path,
			 r->status, text ? ": " : "", text ? text : "");
		cJSON_Delete(root);
		buf_release(&e2);
	}
out:
	buf_release(&err);
	return error;
}

static void body_field(struct buf *b, const char *key, const char *value,
		       bool first)
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

int live_create_label(struct github *gh, int64_t pr, const char *name,
		      const char *color, const char *description)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	bool unknown, exists = false;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/labels", l->owner, l->name);
	buf_addch(&body, '{');
	body_field(&body, "name", name, true);
	body_field(&body, "color", color, false);
	body_field(&body, "description", description, false);
	buf_addch(&body, '}');
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  201, 201, &r, &unknown);
	/* 422 "already_exists": someone created it meanwhile, which is
	 * what we wanted. After no answer, look. */
	if (error < 0 && (r.status == 422 || unknown) &&
	    live_label_exists(gh, pr, name, &exists) == 0 && exists)
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

static bool pull_has_label(struct live *l, int64_t pr, const char *name)
{
	struct snap_pull p;
	bool has = false;
	size_t i;

	if (bundle(l, pr, PART_LABELS, &p) < 0)
		return false;
	for (i = 0; i < p.nlabels; i++)
		if (str_eq_nocase(p.labels[i], name))
			has = true;
	snap_pull_release(&p);
	return has;
}

int live_add_label(struct github *gh, int64_t pr, const char *name)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	bool unknown;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/issues/%lld/labels", l->owner, l->name,
		 (long long)pr);
	buf_adds(&body, "{\"labels\":[");
	json_quote(&body, name, strlen(name));
	buf_adds(&body, "]}");
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  200, 200, &r, &unknown);
	if (error < 0 && unknown && pull_has_label(l, pr, name))
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

/* Did a status like this one, by us, land after the newest id we knew? */
static bool status_landed(struct live *l, int64_t pr, const char *sha,
			  const char *state, const char *context,
			  const char *description, int64_t known_max)
{
	struct snap_statuses st;
	bool landed = false;
	size_t i;

	if (fetch_statuses(l, pr, sha, 0, &st) < 0)
		return false;
	for (i = 0; i < st.n; i++)
		if (st.v[i].id > known_max &&
		    strcmp(st.v[i].state, state) == 0 &&
		    strcmp(st.v[i].context, context) == 0 &&
		    strcmp(st.v[i].description, description) == 0 &&
		    (l->app ? same_creator(st.v[i].creator, l->app->bot_login)
			    : l->viewer &&
				      same_creator(st.v[i].creator, l->viewer)))
			landed = true;
	snap_statuses_release(&st);
	return landed;
}

int live_create_status(struct github *gh, int64_t pr, const char *sha,
		       const char *state, const char *context,
		       const char *description, const char *target_url)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct cache_entry *c = cache_find(l, pr, sha);
	struct http_response r;
	int64_t known_max = 0;
	bool unknown;
	size_t i;
	int error;

	for (i = 0; c && i < c->st.n; i++)
		if (c->st.v[i].id > known_max)
			known_max = c->st.v[i].id;
	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/statuses/%s", l->owner, l->name, sha);
	buf_addch(&body, '{');
	body_field(&body, "state", state, true);
	body_field(&body, "context", context, false);
	body_field(&body, "description", description, false);
	if (target_url)
		body_field(&body, "target_url", target_url, false);
	buf_addch(&body, '}');
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  201, 201, &r, &unknown);
	if (error < 0 && unknown &&
	    status_landed(l, pr, sha, state, context, description, known_max))
		error = AA_OK;
	cache_drop_sha(l, sha); /* the history changed */
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

/* After no answer: find the review (approved for commit_id, or dismissed). */
static bool review_landed(struct live *l, int64_t pr, const char *commit_id,
			  int64_t dismissed_id, int64_t *review_id)
{
	struct snap_pull p;
	bool landed = false;
	size_t i;

	if (bundle(l, pr, PART_REVIEWS, &p) < 0)
		return false;
	for (i = 0; i < p.nreviews; i++) {
		const struct snap_review *r = &p.reviews[i];

		if (dismissed_id) {
			if (r->id == dismissed_id &&
			    strcmp(r->state, "DISMISSED") == 0)
				landed = true;
		} else if (commit_id && strcmp(r->state, "APPROVED") == 0 &&
			   strcmp(r->commit_id, commit_id) == 0 && l->viewer &&
			   same_creator(r->author, l->viewer)) {
			landed = true;
			*review_id = r->id;
		}
	}
	snap_pull_release(&p);
	return landed;
}

int live_approve(struct github *gh, int64_t pr, const char *commit_id,
		 const char *text, int64_t *review_id)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_DOC),
		   err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	bool unknown;
	int error;

	*review_id = 0;
	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews", l->owner, l->name,
		 (long long)pr);
	buf_addch(&body, '{');
	body_field(&body, "commit_id", commit_id, true);
	body_field(&body, "body", text, false);
	body_field(&body, "event", "APPROVE", false);
	buf_addch(&body, '}');
	error = write_req(l, l->http, "POST", path.ptr, body.ptr, 200, 200, &r,
			  &unknown);
	if (error == AA_OK) {
		/* It landed. The id is what a later dismissal of this very
		 * review needs: read it back when the answer lacks it. */
		if ((json_parse(&root, r.body.ptr, r.body.len, &err) < 0 ||
		     jget_int(review_id, root, "review", "id", 0, 1, JSON_MAX_INT,
			      &err) < 0) &&
		    !review_landed(l, pr, commit_id, 0, review_id))
			*review_id = 0;
	} else if (unknown && review_landed(l, pr, commit_id, 0, review_id)) {
		error = AA_OK;
	}
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	buf_release(&err);
	return error;
}

int live_dismiss(struct github *gh, int64_t pr, int64_t review_id,
		 const char *message)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	int64_t unused;
	bool unknown;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews/%lld/dismissals",
		 l->owner, l->name, (long long)pr, (long long)review_id);
	buf_addch(&body, '{');
	body_field(&body, "message", message, true);
	body_field(&body, "event", "DISMISS", false);
	buf_addch(&body, '}');
	error = write_req(l, l->http, "PUT", path.ptr, body.ptr, 200, 200, &r,
			  &unknown);
	if (error < 0 && unknown &&
	    review_landed(l, pr, NULL, review_id, &unused))
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}
