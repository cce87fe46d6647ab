/*
 * http_batch.c - many reads at once (http_request_many): each on its own
 * handle, multiplexed over the client's connections through one multi
 * handle; whatever does not come back clean is sent again on its own
 * through http_request, with its retries (the careful path). And one read
 * beside the next request (http_read_beside): the two in flight together
 * through the same multi handle, the read's answer kept for http_request.
 */
#include "github/http.h"
#include "github/http_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Does this answer deserve another try alone (with retries and waits)? */
static bool batch_retry(const struct http_batch_item *it)
{
	long s = it->resp.status;

	if (it->timed_out)
		return false; /* hung: the PRs are read one by one anyway */
	return it->error || s >= 500 || s == 403 || s == 429 ||
	       (s >= 300 && s < 400) || it->resp.next_off_origin;
}

/* A handle of its own for a batch item: a copy of the client's, pointed
 * at `url`. NULL when libcurl refuses any of it (the item then fails). */
static CURL *batch_handle(struct http *h, struct http_batch_item *it,
                          const char *url)
{
	CURL *c = curl_easy_duphandle(h->curl);
	CURLcode rc;
	bool clipped;

	if (!c)
		return NULL;
	rc = http_set_timeouts(c, h, http_attempt_timeout(h, &clipped));
	SETOPT(rc, c, CURLOPT_URL, url);
	SETOPT(rc, c, CURLOPT_WRITEDATA, &it->resp.body);
	SETOPT(rc, c, CURLOPT_PIPEWAIT, 1L);
	SETOPT(rc, c, CURLOPT_FRESH_CONNECT, 0L);
	if (it->body) {
		SETOPT(rc, c, CURLOPT_POSTFIELDS, it->body);
		SETOPT(rc, c, CURLOPT_POSTFIELDSIZE_LARGE,
		       (curl_off_t)strlen(it->body));
		SETOPT(rc, c, CURLOPT_CUSTOMREQUEST, NULL);
	} else {
		SETOPT(rc, c, CURLOPT_HTTPGET, 1L);
	}
	if (rc != CURLE_OK) {
		curl_easy_cleanup(c);
		return NULL;
	}
	return c;
}

static void batch_done(struct http *h, CURL *c, struct http_batch_item *it,
                       CURLcode rc)
{
	h->stats.requests++;
	if (rc == CURLE_OK)
		rc = curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE,
		                       &it->resp.status);
	if (rc != CURLE_OK) {
		it->resp.status = 0;
		it->error = AA_EAPI;
		it->timed_out = rc == CURLE_OPERATION_TIMEDOUT;
		if (it->timed_out)
			h->stats.timeouts++;
		buf_setf(&it->err, "%s", curl_easy_strerror(rc));
		return;
	}
	http_answer_headers(h, c, &it->resp);
}

/*
 * Take item i's handle out of the multi handle and free it. A handle left
 * in it would be driven by the next batch into this batch's items, freed
 * by then. One libcurl will not let go of is never freed under it, and
 * the multi handle is not used again (*drop).
 */
static void batch_detach(struct http *h, CURL **easy, size_t i, bool *drop)
{
	if (!easy[i])
		return;
	if (curl_multi_remove_handle(h->multi, easy[i]) == CURLM_OK)
		curl_easy_cleanup(easy[i]);
	else
		*drop = true;
	easy[i] = NULL;
}

/* The item of a finished handle, or n. */
static size_t batch_find(CURL *const *easy, size_t n, const CURL *c)
{
	size_t i;

	for (i = 0; i < n && easy[i] != c; i++)
		;
	return i;
}

/* A batch item that did not get an answer through the multi handle. */
static void batch_fail(struct http_batch_item *it, const char *why)
{
	it->error = AA_EAPI;
	it->resp.status = 0;
	buf_setf(&it->err, "%s", why);
}

/*
 * Start item `it` (handle in *c): 0, or AA_EAPI with the item failed. Its
 * URL is on the API origin; libcurl refusing an option or the handle is a
 * failed request, never one sent without it.
 */
static int batch_start(struct http *h, struct http_batch_item *it, CURL **c,
                       struct buf *url)
{
	buf_reset(url);
	*c = NULL;
	if (http_time_left(h) == 0) {
		it->timed_out = true;
		h->stats.deadline_cuts++;
		batch_fail(it, "not sent: the run's deadline has passed");
		return AA_EAPI;
	}
	if (it->url[0] == '/')
		buf_addf(url, "%s%s", h->api_url, it->url);
	else if (http_same_origin(h, it->url))
		buf_adds(url, it->url);
	if (!url->len || !(*c = batch_handle(h, it, url->ptr))) {
		batch_fail(it, "refused or failed to start");
		return AA_EAPI;
	}
	if (curl_multi_add_handle(h->multi, *c) != CURLM_OK) {
		curl_easy_cleanup(*c);
		*c = NULL;
		batch_fail(it, "libcurl could not start it");
		return AA_EAPI;
	}
	return AA_OK;
}

/* Run the batch through the multi handle: false when libcurl failed (the
 * items still in flight, or never started, have no answer). */
static bool batch_run(struct http *h, struct http_batch_item *items,
                      CURL **easy, size_t n, int parallel)
{
	struct buf url = BUF_INIT(BUF_MAX_SMALL);
	size_t next = 0, running = 0, i;
	bool ok = false;

	while (next < n || running) {
		CURLMsg *msg;
		int still, left;

		while (next < n && running < (size_t)parallel) {
			i = next++;
			if (batch_start(h, &items[i], &easy[i], &url) == AA_OK)
				running++;
		}
		if (!running)
			continue;
		if (curl_multi_perform(h->multi, &still) != CURLM_OK)
			goto out;
		while ((msg = curl_multi_info_read(h->multi, &left))) {
			bool drop = false;

			if (msg->msg != CURLMSG_DONE ||
			    (i = batch_find(easy, n, msg->easy_handle)) == n)
				continue;
			batch_done(h, easy[i], &items[i], msg->data.result);
			batch_detach(h, easy, i, &drop);
			running--;
			if (drop)
				goto out;
		}
		if (still &&
		    curl_multi_poll(h->multi, NULL, 0, 1000, NULL) != CURLM_OK)
			goto out;
	}
	ok = true;
out:
	buf_release(&url);
	return ok;
}

/* The client's multi handle, made on first use: false when there is none
 * (libcurl refused it) or the client cannot send. */
static bool multi_ready(struct http *h)
{
	if (!h->multi && (h->multi = curl_multi_init()) &&
	    curl_multi_setopt(h->multi, CURLMOPT_PIPELINING,
	                      (long)CURLPIPE_MULTIPLEX) != CURLM_OK) {
		curl_multi_cleanup(h->multi);
		h->multi = NULL;
	}
	return h->multi && !h->broken;
}

void http_request_many(struct http *h, struct http_batch_item *items, size_t n,
                       int parallel)
{
	CURL **easy = xcalloc(n ? n : 1, sizeof(*easy));
	bool answered = false, drop = false;
	size_t i;

	for (i = 0; i < n; i++) {
		http_response_init(&items[i].resp);
		buf_init(&items[i].err, BUF_MAX_SMALL);
		items[i].error = 0;
		items[i].timed_out = false;
	}
	h->stats.reads += (long)n;
	if (multi_ready(h))
		answered = batch_run(h, items, easy, n, parallel);
	/* On every path, every handle leaves the multi handle; an item it
	 * did not answer gets the careful path below. */
	for (i = 0; i < n; i++) {
		if (easy[i] ||
		    (!answered && !items[i].error && !items[i].resp.status))
			batch_fail(&items[i], "the batch stopped before its "
			                      "answer");
		batch_detach(h, easy, i, &drop);
	}
	free(easy);
	if (h->multi && (drop || !answered)) {
		/* libcurl failed: the next batch starts a new multi handle. */
		curl_multi_cleanup(h->multi);
		h->multi = NULL;
	}
	/* Anything that did not come back clean gets the careful path. */
	for (i = 0; i < n; i++) {
		struct http_batch_item *it = &items[i];

		if (!batch_retry(it))
			continue;
		h->stats.retries++;
		h->stats.reads--; /* http_request counts it again */
		buf_reset(&it->err);
		it->error = http_request(h, it->body ? "POST" : "GET", it->url,
		                         it->body, true, &it->resp, &it->err);
	}
}

/* --- a read beside the next request (http_read_beside) --- */

void http_beside_release(struct http *h)
{
	struct http_beside *b = &h->beside;

	if (b->state == BESIDE_ANSWERED) {
		http_response_release(&b->item.resp);
		buf_release(&b->item.err);
	}
	free(b->url);
	free(b->body);
	memset(b, 0, sizeof(*b));
}

void http_read_beside(struct http *h, const char *url, const char *body)
{
	struct http_beside *b = &h->beside;

	http_beside_release(h);
	b->url = xstrdup(url);
	b->body = body ? xstrdup(body) : NULL;
	b->item.url = b->url;
	b->item.body = b->body;
	b->state = BESIDE_WAITING;
}

/* Is the beside read the request (method, url, body)? */
static bool beside_is(const struct http_beside *b, const char *method,
                      const char *url, const char *body)
{
	return strcmp(method, b->body ? "POST" : "GET") == 0 &&
	       strcmp(url, b->url) == 0 &&
	       (b->body ? body && strcmp(body, b->body) == 0 : !body);
}

bool http_take_beside(struct http *h, const char *method, const char *url,
                      const char *body, bool idempotent,
                      struct http_response *resp)
{
	struct http_beside *b = &h->beside;
	bool mine;

	if (b->state == BESIDE_NONE)
		return false;
	if (!idempotent) {
		/* A write carries a waiting read; an answered one predates
		 * it. */
		if (b->state == BESIDE_ANSWERED)
			http_beside_release(h);
		return false;
	}
	mine = beside_is(b, method, url, body);
	if (b->state == BESIDE_WAITING) {
		/* Nothing carried it: the read goes out as itself. */
		if (mine)
			http_beside_release(h);
		return false;
	}
	if (!mine)
		return false;
	if (b->item.error || batch_retry(&b->item)) {
		http_beside_release(h); /* sent again, with its retries */
		return false;
	}
	http_response_release(resp);
	*resp = b->item.resp;
	http_response_init(&b->item.resp);
	http_beside_release(h);
	return true;
}

CURLcode http_perform_beside(struct http *h)
{
	struct http_beside *b = &h->beside;
	struct buf url = BUF_INIT(BUF_MAX_SMALL);
	CURL *c = NULL;
	CURLcode mine = CURLE_RECV_ERROR;
	bool mine_done = false, its_done = false, drop = false;

	http_response_init(&b->item.resp);
	buf_init(&b->item.err, BUF_MAX_SMALL);
	b->item.error = 0;
	b->item.timed_out = false;
	b->state = BESIDE_ANSWERED;
	if (!multi_ready(h) || batch_start(h, &b->item, &c, &url) < 0 ||
	    curl_multi_add_handle(h->multi, h->curl) != CURLM_OK) {
		/* Nothing of either went out: the request alone. */
		if (c)
			batch_detach(h, &c, 0, &drop);
		if (!b->item.error)
			batch_fail(&b->item, "not sent beside");
		buf_release(&url);
		return curl_easy_perform(h->curl);
	}
	while (!mine_done || !its_done) {
		CURLMsg *msg;
		int still, left;

		if (curl_multi_perform(h->multi, &still) != CURLM_OK)
			break;
		while ((msg = curl_multi_info_read(h->multi, &left))) {
			if (msg->msg != CURLMSG_DONE)
				continue;
			if (msg->easy_handle == h->curl) {
				mine = msg->data.result;
				mine_done = true;
			} else if (msg->easy_handle == c && !its_done) {
				batch_done(h, c, &b->item, msg->data.result);
				its_done = true;
			}
		}
		if ((!mine_done || !its_done) && still &&
		    curl_multi_poll(h->multi, NULL, 0, 1000, NULL) != CURLM_OK)
			break;
	}
	/* A request whose transfer libcurl lost sending may have landed: no
	 * answer (the caller re-reads a write). */
	if (!its_done)
		batch_fail(&b->item, "the batch stopped before its answer");
	batch_detach(h, &c, 0, &drop);
	if (curl_multi_remove_handle(h->multi, h->curl) != CURLM_OK)
		drop = true;
	if (drop || !mine_done) {
		curl_multi_cleanup(h->multi);
		h->multi = NULL;
	}
	buf_release(&url);
	return mine;
}
