/*
 * rest.c - the live port's one REST read and one REST pager: GET a path,
 * check the status, parse the JSON strictly; and a list followed page by
 * page (Link rel="next", which http.c follows only on the API origin) to
 * its end or to a ceiling. Every REST read of the port goes through them.
 */
#include "github/live_int.h"

#include <stdlib.h>

#include "base/json.h"
#include "github/http.h"

int rest_get(struct live *l, struct http *client, const char *path,
             const char *what, cJSON **root, struct http_response *keep,
             struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	int error = AA_EAPI;

	*root = NULL;
	http_response_init(&r);
	if (client == l->read_http && app_token(l, err) < 0)
		goto out;
	if (http_request(client, "GET", path, NULL, true, &r, &why) < 0) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if (r.status != 200) {
		buf_setf(&why, "GET %s", what);
		http_answer_message(err, why.ptr, &r);
		if (r.status == 404)
			error = AA_ENOTFOUND;
		else if (r.status == 401 || r.status == 403)
			error = AA_EDENIED;
		goto out;
	}
	if (json_parse(root, r.body.ptr, r.body.len, &why) < 0) {
		buf_setf(err, "GET %s: %s", what, why.ptr);
		goto out;
	}
	error = AA_OK;
out:
	if (keep) {
		http_response_release(keep);
		*keep = r;
		http_response_init(&r);
	}
	http_response_release(&r);
	buf_release(&why);
	return error;
}

int rest_pages(struct live *l, const char *path, const char *what,
               int max_pages, rest_page_fn page, void *ctx, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL), url = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	int pages = 0, error = AA_OK, more;

	http_response_init(&r);
	buf_adds(&url, path);
	while (url.len) {
		if (++pages > max_pages) {
			buf_setf(err, "GET %s: more than %d pages", what,
			         max_pages);
			error = AA_EAPI;
			break;
		}
		error =
		    rest_get(l, l->read_http, url.ptr, what, &root, &r, err);
		if (error < 0) {
			/* A later page that is gone: the list is not whole. */
			if (error == AA_ENOTFOUND && pages > 1)
				error = AA_EAPI;
			break;
		}
		if ((more = page(root, ctx, &why)) < 0) {
			buf_setf(err, "GET %s: %s", what, why.ptr);
			error = AA_EAPI;
			break;
		}
		buf_reset(&url);
		if (more == REST_MORE && r.next)
			buf_adds(&url, r.next);
		cJSON_Delete(root);
		root = NULL;
	}
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&why);
	buf_release(&url);
	return error;
}
