/*
 * http_int.h - what the two files of the libcurl layer share (http.c, one
 * request at a time; http_batch.c, many at once): the client's state and
 * the helpers both use. Nothing else includes it.
 */
#ifndef AA_HTTP_INT_H
#define AA_HTTP_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <curl/curl.h>

#include "github/http.h"

/* Longest single backoff between retries. */
#define HTTP_BACKOFF_CAP_MS 30000L

/*
 * A read sent beside the next request (http_read_beside): WAITING until a
 * request carries it, ANSWERED until the same read takes its answer or a
 * later write makes it stale.
 */
enum beside_state { BESIDE_NONE, BESIDE_WAITING, BESIDE_ANSWERED };
struct http_beside {
	enum beside_state state;
	char *url;  /* as the read will ask for it */
	char *body; /* NULL: a GET */
	struct http_batch_item item;
};

struct http {
	CURL *curl;
	CURLM *multi;               /* for batches; keeps its connections */
	int64_t last_write_ms;      /* pacing of writes */
	struct curl_slist *headers; /* one holds the token: wiped at free */
	char *api_url;
	char *origin; /* scheme://host:port */
	struct http_config cfg;
	struct http_stats stats;
	uint64_t rng;
	bool timed_out;          /* the last request ended in a timeout */
	bool no_timeout_retries; /* http_retry_timeouts(h, false) */
	bool broken;             /* the last token could not be set: every
	                          * request fails (never the old token) */
	int burst;               /* writes left to send unpaced */
	struct http_beside beside; /* http_read_beside */
};

/*
 * Every curl_easy_setopt result is checked: an option libcurl refuses is a
 * request that fails (fail closed), never one sent without it. SETOPT runs
 * an option only while every one before it in `rc` succeeded.
 */
#define SETOPT(rc, c, opt, val)                                                \
	((rc) == CURLE_OK ? ((rc) = curl_easy_setopt((c), (opt), (val))) : (rc))

/* Milliseconds left before the run's deadline: -1 when there is none, 0
 * when it has passed. */
int64_t http_time_left(const struct http *h);
/* The timeout of the next attempt: the configured one, clipped to the
 * time left (*clipped says so). */
long http_attempt_timeout(const struct http *h, bool *clipped);
/* Set a handle's timeouts for one attempt of `timeout` ms. */
CURLcode http_set_timeouts(CURL *c, const struct http *h, long timeout);
/* Read what an answer's headers say (rate limits, location, the token's
 * scopes and expiry, the next page) into `resp`, and count its bytes. */
void http_answer_headers(struct http *h, CURL *c, struct http_response *resp);

/* One attempt of h->curl with the waiting beside read in flight beside
 * it: h->curl's result. The read is ANSWERED afterwards, failed when it
 * got no clean answer. */
CURLcode http_perform_beside(struct http *h);
/*
 * Before request (method, url, body) of `h`: true when it is the beside
 * read and its clean answer is now in `resp` (nothing to send). A write
 * drops an answered one (it would predate the write); the read itself,
 * still waiting, is sent as usual.
 */
bool http_take_beside(struct http *h, const char *method, const char *url,
                      const char *body, bool idempotent,
                      struct http_response *resp);
void http_beside_release(struct http *h);

#endif
