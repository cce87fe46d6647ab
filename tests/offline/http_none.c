/*
 * http_none.c - the HTTP layer of the replay-only build (make
 * build/offline/agentic-apply): every function of github/http.h aborts.
 *
 * The offline build is the product's objects with this file in place of
 * src/github/http.c, so it does not link libcurl and the ~30 shared
 * libraries libcurl pulls in: it starts in a third of the time, which is
 * what the torture's thousands of replays cost (tests/README.md). Replay
 * never reaches this layer (tests/cli.sh proves it opens no socket); a run
 * that did would abort here, and the torture counts a signal as a failure.
 */
#include <stdlib.h>

#include "github/http.h"

static void no_network(void)
{
	abort();
}

int http_new(struct http **out, const struct http_config *c, struct buf *err)
{
	(void)out;
	(void)c;
	(void)err;
	no_network();
	return -1;
}

void http_free(struct http *h)
{
	if (h)
		no_network();
}

int http_set_token(struct http *h, const char *token)
{
	(void)h;
	(void)token;
	no_network();
	return -1;
}

const struct http_stats *http_stats(const struct http *h)
{
	(void)h;
	no_network();
	return NULL;
}

bool http_timed_out(const struct http *h)
{
	(void)h;
	no_network();
	return false;
}

void http_retry_timeouts(struct http *h, bool on)
{
	(void)h;
	(void)on;
	no_network();
}

void http_response_init(struct http_response *r)
{
	(void)r;
	no_network();
}

void http_response_release(struct http_response *r)
{
	(void)r;
	no_network();
}

int http_request(struct http *h, const char *method, const char *path_or_url,
		 const char *body, bool idempotent, struct http_response *resp,
		 struct buf *err)
{
	(void)h;
	(void)method;
	(void)path_or_url;
	(void)body;
	(void)idempotent;
	(void)resp;
	(void)err;
	no_network();
	return -1;
}

void http_request_many(struct http *h, struct http_batch_item *items, size_t n,
		       int parallel)
{
	(void)h;
	(void)items;
	(void)n;
	(void)parallel;
	no_network();
}

void http_read_beside(struct http *h, const char *url, const char *body)
{
	(void)h;
	(void)url;
	(void)body;
	no_network();
}

bool http_same_origin(const struct http *h, const char *url)
{
	(void)h;
	(void)url;
	no_network();
	return false;
}

void http_write_burst(struct http *h, int n)
{
	(void)h;
	(void)n;
	no_network();
}
