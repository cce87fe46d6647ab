/*
 * app_token.c - GitHub App mode of the live port: installation tokens for
 * the read client (the App's JWT from app.c, then GET /app, GET
 * …/installation and POST …/access_tokens), minted again before they
 * expire. Every answer that may hold a token is wiped before it is freed;
 * on any failure the read client is left with no usable token, so nothing
 * is read with a stale credential.
 */
#include "github/live.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "base/buf.h"
#include "base/json.h"
#include "core/policy.h"
#include "github/app.h"
#include "github/http.h"
#include "github/live_int.h"

/* A JSON answer to an App request: 0 and *root, or AA_EAPI. */
static int app_request(struct live *l, const char *method, const char *path,
                       long ok, cJSON **root, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	int error = AA_EAPI;

	*root = NULL;
	http_response_init(&r);
	if (http_request(l->read_http, method, path,
	                 strcmp(method, "POST") == 0 ? "{}" : NULL,
	                 strcmp(method, "GET") == 0, &r, &why) < 0) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if (r.status != ok) {
		buf_setf(err, "%s %s: HTTP %ld%s", method, path, r.status,
		         r.status == 401 ? " (the App's JWT was refused)" : "");
		goto out;
	}
	if (json_parse(root, r.body.ptr, r.body.len, &why) < 0) {
		buf_setf(err, "%s %s: %s", method, path, why.ptr);
		goto out;
	}
	error = AA_OK;
out:
	/* The answer may hold a token: wipe it. */
	if (r.body.alloc)
		OPENSSL_cleanse(r.body.ptr, r.body.alloc);
	http_response_release(&r);
	buf_release(&why);
	return error;
}

/*
 * Mint an installation token when there is none or it expires within
 * APP_REFRESH_BEFORE_S: JWT → (GET /app for the bot login) → (GET
 * /repos/{o}/{r}/installation) → POST …/access_tokens. The read client
 * carries the JWT only for these requests; on any failure it is left with
 * no usable token, so nothing is read with a stale credential.
 */
int app_token(struct live *l, struct buf *err)
{
	struct app_auth *a = l->app;
	struct buf jwt = BUF_INIT(BUF_MAX_SMALL), why = BUF_INIT(BUF_MAX_SMALL),
	           path = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	char *slug = NULL, *token = NULL;
	int64_t now = clock_wall_ms(), at = 0;
	int error = AA_EAPI;

	if (!a || (a->token.len &&
		   a->expires_ms - now > (int64_t)APP_REFRESH_BEFORE_S * 1000))
		return AA_OK;
	if (github_app_jwt(&jwt, a->id, a->key.ptr, now / 1000, &why) < 0) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if (http_set_token(l->read_http, jwt.ptr) < 0) {
		buf_setf(err, "the App's JWT could not be set on "
		              "the request");
		goto out;
	}
	if (!a->bot_login) {
		if (app_request(l, "GET", "/app", 200, &root, err) < 0)
			goto out;
		if (jget_str(&slug, root, "app", "slug", 0, &why) < 0 ||
		    !policy_login_valid(slug)) {
			buf_setf(err, "GET /app: %s",
			         why.len ? why.ptr : "a slug that is no login");
			goto out;
		}
		buf_reset(&path);
		buf_addf(&path, "%s[bot]", slug);
		a->bot_login = buf_detach(&path, NULL);
		cJSON_Delete(root);
		root = NULL;
	}
	if (!a->installation) {
		buf_setf(&path, "/repos/%s/%s/installation", l->owner, l->name);
		if (app_request(l, "GET", path.ptr, 200, &root, err) < 0)
			goto out;
		if (jget_int(&a->installation, root, "installation", "id", 0, 1,
		             JSON_MAX_INT, &why) < 0) {
			buf_setf(err, "GET %s: %s", path.ptr, why.ptr);
			goto out;
		}
		cJSON_Delete(root);
		root = NULL;
	}
	buf_setf(&path, "/app/installations/%lld/access_tokens",
		 (long long)a->installation);
	if (app_request(l, "POST", path.ptr, 201, &root, err) < 0)
		goto out;
	if (jget_str(&token, root, "access token", "token", 0, &why) < 0 ||
	    jget_time(&at, root, "access token", "expires_at", 0, &why) < 0) {
		buf_setf(err, "POST %s: %s", path.ptr, why.ptr);
		goto out;
	}
	buf_wipe(&a->token);
	buf_init(&a->token, BUF_MAX_SMALL);
	buf_adds(&a->token, token);
	a->expires_ms = at;
	cJSON_Delete(a->permissions);
	a->permissions = cJSON_Duplicate(json_get(root, "permissions"), true);
	if (l->mask)
		l->mask(a->token.ptr);
	error = AA_OK;
out:
	/* A token that cannot be set leaves the client failing every
	 * request (http_set_token), never reading with the JWT. */
	if (http_set_token(l->read_http, error ? "-" : a->token.ptr) < 0 &&
	    error == AA_OK) {
		buf_setf(err, "the installation token could not be "
		              "set on the request");
		error = AA_EAPI;
	}
	if (token)
		OPENSSL_cleanse(token, strlen(token));
	free(token);
	free(slug);
	json_delete_wiping(root, "token"); /* the answer held the token */
	buf_wipe(&jwt);
	buf_release(&why);
	buf_release(&path);
	return error;
}

/* The client for statuses and labels: the App's in App mode. */
struct http *label_status_client(struct live *l)
{
	return l->app ? l->read_http : l->http;
}

int github_live_app_start(struct github *gh, const char **bot_login,
                          struct buf *err)
{
	struct live *l = L(gh);

	*bot_login = NULL;
	if (!l->app)
		return AA_OK;
	if (app_token(l, err) < 0)
		return AA_EAPI;
	*bot_login = l->app->bot_login;
	return AA_OK;
}
