/*
 * http.h - HTTPS requests to one GitHub API origin, over one reused libcurl
 * handle (keep-alive; HTTP/2 when offered).
 *
 * Safety rules live here so no caller can forget them: TLS verification is
 * always on; the token goes only to the configured origin (redirects and
 * `Link: rel=next` elsewhere are refused, never followed); idempotent reads
 * are retried on 5xx and timeouts with capped exponential backoff and
 * jitter, and on 403/429 rate limits after Retry-After / x-ratelimit-reset;
 * writes are never retried. Responses have a size ceiling. The token is
 * never printed and is wiped when the client is freed.
 *
 * The run's deadline (A6) bounds everything: no request starts after it,
 * each request's timeout is clipped to the time left, and a retry, backoff,
 * rate-limit or pacing wait that would end past it is not made — the
 * request fails instead (a read cut off by the deadline is a failed read).
 */
#ifndef AA_HTTP_H
#define AA_HTTP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"

/* Largest response body accepted (100 comments of 65,536 characters). */
#define HTTP_MAX_RESPONSE ((size_t)48 * 1024 * 1024)
/* Redirects followed (same origin only). */
#define HTTP_MAX_REDIRECTS 3

struct http_config {
	const char *api_url;      /* origin + path prefix, no trailing slash */
	const char *token;        /* copied into a wiped buffer; never logged */
	const char *user_agent;
	const char *ca_file;      /* SSL_CERT_FILE, or NULL */
	const char *ca_path;      /* SSL_CERT_DIR, or NULL */
	long connect_timeout_ms;
	long timeout_ms;          /* whole request */
	long low_speed_time_s;    /* abort below 1 byte/s for this long */
	int retries;              /* retries of an idempotent request */
	long retry_base_ms;       /* first backoff; doubles, capped */
	long max_wait_s;          /* longest rate-limit wait accepted */
	bool h2c;                 /* HTTP/2 prior knowledge over cleartext */
	long write_interval_ms;   /* least time between two writes */
	uint64_t seed;            /* jitter (randomness is an input) */
	/* The run's deadline in wall-clock ms since the epoch, 0 = none; read
	 * before every request and wait, so the owner may move it (the
	 * GitHub port's `deadline`). NULL = none. Must outlive the client. */
	const int64_t *deadline_ms;
	/* GitLab (docs/rules/gitlab.md G3, G9, G21): the token goes in a
	 * PRIVATE-TOKEN header, no redirect is followed, `next` is the
	 * x-next-page header ("" on the last page), 429 and 409 wait for
	 * Retry-After or RateLimit-Reset. */
	bool gitlab;
};

struct http_response {
	long status;              /* 0 when no response arrived */
	struct buf body;
	char *next;               /* rel="next" URL, same origin, or NULL
	                           * (GitLab: x-next-page, see gitlab) */
	int64_t page;             /* GitLab: x-page, -1 when absent */
	bool next_off_origin;     /* a rel="next" pointed elsewhere */
	char *location;           /* Location header, or NULL */
	int64_t ratelimit_remaining; /* -1 when absent */
	int64_t ratelimit_reset;     /* epoch seconds, 0 when absent */
	char *ratelimit_resource;
	/* What GitHub says about the token (doctor): X-OAuth-Scopes (only
	 * for classic and OAuth tokens: NULL when not sent) and
	 * github-authentication-token-expiration (NULL: none). */
	char *oauth_scopes;
	char *token_expiration;
};

/* Counters, for benchmarks and the rate-limit budget. */
struct http_stats {
	long requests;       /* HTTP exchanges, retries included */
	long retries;
	long reads;          /* GET / GraphQL POST */
	long writes;
	int64_t bytes_in;
	int64_t rest_remaining;    /* newest x-ratelimit-remaining (core) */
	int64_t graphql_remaining; /* newest (graphql) */
	int64_t waited_ms;
	long timeouts;       /* requests that timed out (hung) */
	long deadline_cuts;  /* requests or waits stopped by the deadline */
	int64_t graphql_points; /* GitHub's cost of the queries (rateLimit.cost):
				 * counted by the live port, not here */
};

struct http;

/* 0, or AA_EUSAGE with a message (bad URL). */
int http_new(struct http **out, const struct http_config *c, struct buf *err);
void http_free(struct http *h);
/* Send `token` from now on (the old one is wiped). 0, or AA_ERR: then
 * every request fails until a token is set (the old one is never sent in
 * its place). */
int http_set_token(struct http *h, const char *token);
const struct http_stats *http_stats(const struct http *h);

/* Did the last request of `h` end in a timeout — a hung connection, or
 * the run's deadline? */
bool http_timed_out(const struct http *h);
/*
 * Whether a request that timed out is sent again (on by default). Off
 * while the parts of a bundled read that hung are read one by one, so a
 * hung connection costs each part the per-request timeout once, not the
 * whole retry budget (A6).
 */
void http_retry_timeouts(struct http *h, bool on);

void http_response_init(struct http_response *r);
void http_response_release(struct http_response *r);

/*
 * One request. `path_or_url` is a path below the API URL ("/user") or an
 * absolute URL that must be on the API origin. `body` is JSON or NULL.
 * `idempotent` allows retries. Returns 0 when a response arrived (any
 * status: check resp->status), AA_EAPI on transport failure or a refused
 * URL, with a message in err (never holding the token).
 */
int http_request(struct http *h, const char *method, const char *path_or_url,
		 const char *body, bool idempotent, struct http_response *resp,
		 struct buf *err);

/* One request of a concurrent batch. */
struct http_batch_item {
	const char *url;     /* path below the API URL, or same-origin URL */
	const char *body;    /* JSON; POST when set, else GET */
	struct http_response resp;
	int error;           /* 0: a response arrived (check resp.status) */
	bool timed_out;      /* it hung (or met the deadline): not sent again */
	struct buf err;
};

/* Requests in flight at once in a batch (GitHub's advice for a client). */
#define HTTP_MAX_PARALLEL 4

/*
 * Idempotent reads only: send `n` requests with at most `parallel` in
 * flight (multiplexed on one HTTP/2 connection when the server offers it).
 * A request that fails on the wire or with 5xx/403/429 is sent again
 * alone with http_request's retries — except one that timed out (a batch
 * is a read-ahead: its PRs are read one by one anyway). When libcurl
 * itself fails (an option, adding a handle, perform, poll), the items it
 * did not answer take that careful path too; no handle outlives the call.
 * Items are initialised here; release each resp and err afterwards.
 */
void http_request_many(struct http *h, struct http_batch_item *items, size_t n,
		       int parallel);

/*
 * Send the idempotent read (url as http_request takes it, body NULL for a
 * GET, else a POST) beside the next request this client sends, so the two
 * share one round trip; the next http_request of exactly that read takes
 * its answer instead of sending it. The answer is never older than the
 * request it rode with, and is dropped when a later write starts; one
 * that did not come back clean is sent again as usual. Only the latency
 * changes: a read is made no earlier than the caller says. A second call
 * replaces the first.
 */
void http_read_beside(struct http *h, const char *url, const char *body);

/* Is `url` on the same scheme, host and port as the API URL? */
bool http_same_origin(const struct http *h, const char *url);

/*
 * The next `n` writes of this client go out without write_interval_ms
 * before them (still one at a time); the writes after them are paced
 * again. For a command that makes a handful of writes and no more
 * (PUBLISH §7.2); 0 paces every write.
 */
void http_write_burst(struct http *h, int n);

#endif
