/*
 * http.c - the libcurl layer (with http_batch.c, its batches; the live
 * port, live.c and the files beside it, above it speak GitHub): one
 * request at a time, with its retries, waits, pacing and the run's
 * deadline. One easy handle is reused for every request so the connection
 * is kept alive; every request goes to the one API origin.
 */
#include "github/http.h"
#include "github/http_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/crypto.h>

#include "base/util.h"

/* scheme://host:port of a URL, lower-cased; NULL when it does not parse. */
static char *origin_of(const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) !=
		    CURLUE_OK)
		goto out;
	buf_addf(&b, "%s://%s:%s", scheme, host, port);
	for (i = 0; i < b.len; i++)
		b.ptr[i] = (char)to_lower((unsigned char)b.ptr[i]);
	out = buf_detach(&b, NULL);
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	buf_release(&b);
	return out;
}

bool http_same_origin(const struct http *h, const char *url)
{
	char *o = origin_of(url);
	bool same = o && strcmp(o, h->origin) == 0;

	free(o);
	return same;
}

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	struct buf *b = ctx;

	if (buf_add(b, data, size * n) < 0)
		return 0; /* over the ceiling: libcurl aborts the transfer */
	return size * n;
}

static struct curl_slist *append_header(struct curl_slist *l, const char *h)
{
	struct curl_slist *n = curl_slist_append(l, h);

	if (!n) {
		curl_slist_free_all(l);
		return NULL;
	}
	return n;
}

/* Wipe and free the header list (one entry holds the token). */
static void free_headers(struct http *h)
{
	struct curl_slist *l;

	for (l = h->headers; l; l = l->next)
		OPENSSL_cleanse(l->data, strlen(l->data));
	curl_slist_free_all(h->headers);
	h->headers = NULL;
}

static int build_headers(struct http *h, const char *token)
{
	struct buf auth = BUF_INIT(BUF_MAX_SMALL), ua = BUF_INIT(BUF_MAX_SMALL);
	struct curl_slist *l;

	buf_addf(&auth, h->cfg.gitlab ? "PRIVATE-TOKEN: %s" /* G3 */
				      : "Authorization: Bearer %s", token);
	buf_addf(&ua, "User-Agent: %s", h->cfg.user_agent);
	l = append_header(NULL, auth.ptr);
	if (l)
		l = append_header(l, ua.ptr);
	if (l && !h->cfg.gitlab)
		l = append_header(l, "Accept: application/vnd.github+json");
	if (l && !h->cfg.gitlab)
		l = append_header(l, "X-GitHub-Api-Version: 2022-11-28");
	if (l)
		l = append_header(l, "Content-Type: application/json");
	OPENSSL_cleanse(auth.ptr, auth.len);
	buf_release(&auth);
	buf_release(&ua);
	if (!l)
		return AA_ERR;
	if (h->curl &&
	    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, l) != CURLE_OK) {
		/* libcurl still points at the old list: keep it alive. */
		struct curl_slist *old = h->headers;

		h->headers = l;
		free_headers(h);
		h->headers = old;
		return AA_ERR;
	}
	free_headers(h);
	h->headers = l;
	return AA_OK;
}

int http_set_token(struct http *h, const char *token)
{
	int error = build_headers(h, token);

	/* Whatever token the client held, it must not be sent in place of
	 * this one: the client fails every request until a token is set. */
	h->broken = error < 0;
	return error;
}

int http_new(struct http **out, const struct http_config *c, struct buf *err)
{
	struct http *h = xcalloc(1, sizeof(*h));
	CURLcode rc = CURLE_OK;
	size_t n;

	*out = NULL;
	h->cfg = *c;
	h->rng = c->seed ? c->seed : 0x9E3779B97F4A7C15ULL;
	h->api_url = xstrdup(c->api_url);
	n = strlen(h->api_url);
	while (n && h->api_url[n - 1] == '/')
		h->api_url[--n] = '\0';
	h->origin = origin_of(h->api_url);
	if (!h->origin || (strncmp(h->api_url, "https://", 8) != 0 &&
			   strncmp(h->api_url, "http://", 7) != 0)) {
		buf_setf(err, "the API URL '%s' is not an http(s) URL",
			 c->api_url);
		goto fail;
	}
	if (c->h2c && curl_version_info(CURLVERSION_NOW)->version_num < 0x080000) {
		/* curl bug #10634: a second request on an h2c connection fails
		 * with a framing error before libcurl 8.0. */
		buf_setf(err, "HTTP/2 prior knowledge needs libcurl 8.0 or newer "
			      "(this is %s)", curl_version_info(CURLVERSION_NOW)->version);
		goto fail;
	}
	if (!(h->curl = curl_easy_init())) {
		buf_setf(err, "libcurl could not start");
		goto fail;
	}
	if (build_headers(h, c->token) < 0) {
		buf_setf(err, "out of memory building request headers");
		goto fail;
	}
	SETOPT(rc, h->curl, CURLOPT_NOSIGNAL, 1L);
	SETOPT(rc, h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	SETOPT(rc, h->curl, CURLOPT_FOLLOWLOCATION, 0L);
	SETOPT(rc, h->curl, CURLOPT_SSL_VERIFYPEER, 1L);
	SETOPT(rc, h->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	/* libcurl does not read SSL_CERT_FILE/SSL_CERT_DIR: pass them. A
	 * hashed directory alone is much faster than parsing a bundle, so the
	 * built-in bundle is dropped when only a directory is given. */
	if (c->ca_file)
		SETOPT(rc, h->curl, CURLOPT_CAINFO, c->ca_file);
	else if (c->ca_path)
		SETOPT(rc, h->curl, CURLOPT_CAINFO, NULL);
	if (c->ca_path)
		SETOPT(rc, h->curl, CURLOPT_CAPATH, c->ca_path);
	SETOPT(rc, h->curl, CURLOPT_HTTP_VERSION,
	       c->h2c ? (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
		      : (long)CURL_HTTP_VERSION_2TLS);
	SETOPT(rc, h->curl, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
	SETOPT(rc, h->curl, CURLOPT_TIMEOUT_MS, c->timeout_ms);
	SETOPT(rc, h->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	SETOPT(rc, h->curl, CURLOPT_LOW_SPEED_TIME, c->low_speed_time_s);
	SETOPT(rc, h->curl, CURLOPT_MAXFILESIZE_LARGE,
	       (curl_off_t)HTTP_MAX_RESPONSE);
	SETOPT(rc, h->curl, CURLOPT_ACCEPT_ENCODING, "");
	SETOPT(rc, h->curl, CURLOPT_TCP_KEEPALIVE, 1L);
	SETOPT(rc, h->curl, CURLOPT_WRITEFUNCTION, on_body);
	if (rc != CURLE_OK) {
		buf_setf(err, "libcurl refused an option of every request: %s",
			 curl_easy_strerror(rc));
		goto fail;
	}
	h->cfg.token = NULL; /* only the wiped header holds it */
	h->stats.rest_remaining = -1;
	h->stats.graphql_remaining = -1;
	*out = h;
	return AA_OK;
fail:
	http_free(h);
	return AA_EUSAGE;
}

void http_free(struct http *h)
{
	if (!h)
		return;
	free_headers(h);
	http_beside_release(h);
	if (h->curl)
		curl_easy_cleanup(h->curl);
	if (h->multi)
		curl_multi_cleanup(h->multi);
	free(h->api_url);
	free(h->origin);
	free(h);
}

const struct http_stats *http_stats(const struct http *h)
{
	return &h->stats;
}

bool http_timed_out(const struct http *h)
{
	return h->timed_out;
}

void http_retry_timeouts(struct http *h, bool on)
{
	h->no_timeout_retries = !on;
}

void http_response_init(struct http_response *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->body, HTTP_MAX_RESPONSE);
	r->ratelimit_remaining = -1;
}

void http_response_release(struct http_response *r)
{
	buf_release(&r->body);
	free(r->next);
	free(r->location);
	free(r->ratelimit_resource);
	free(r->oauth_scopes);
	free(r->token_expiration);
	r->next = r->location = r->ratelimit_resource = NULL;
	r->oauth_scopes = r->token_expiration = NULL;
}

static void reset_response(struct http_response *r)
{
	http_response_release(r);
	http_response_init(r);
}

static const char *header(CURL *c, const char *name)
{
	struct curl_header *h;

	if (curl_easy_header(c, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK)
		return NULL;
	return h->value;
}

static int64_t header_int(CURL *c, const char *name, int64_t dflt)
{
	const char *v = header(c, name);
	int64_t n;

	if (!v || parse_decimal(&n, v, strlen(v), INT64_MAX / 2) < 0)
		return dflt;
	return n;
}

/*
 * The rel="next" target of a Link header, or NULL. Sets *off_origin when
 * one exists but points elsewhere (following it would leak the token).
 */
static char *link_next(const struct http *h, const char *link,
		       bool *off_origin)
{
	const char *p = link;

	*off_origin = false;
	while (p && (p = strchr(p, '<')) != NULL) {
		const char *end = strchr(p, '>');
		const char *semi, *rel;
		char *url;

		if (!end)
			return NULL;
		semi = end + 1;
		rel = strstr(semi, "rel=\"next\"");
		if (rel && (!strchr(semi, '<') || rel < strchr(semi, '<'))) {
			url = xstrndup(p + 1, (size_t)(end - p - 1));
			if (!http_same_origin(h, url)) {
				*off_origin = true;
				free(url);
				return NULL;
			}
			return url;
		}
		p = end + 1;
	}
	return NULL;
}

static uint64_t next_random(struct http *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

/* Milliseconds left before the run's deadline: -1 when there is none, 0
 * when it has passed. */
int64_t http_time_left(const struct http *h)
{
	int64_t d = h->cfg.deadline_ms ? *h->cfg.deadline_ms : 0;

	if (!d)
		return -1;
	d -= clock_wall_ms();
	return d > 0 ? d : 0;
}

/* Does a wait of `ms` end before the deadline (or is there none)? */
static bool wait_fits(const struct http *h, long ms)
{
	int64_t left = http_time_left(h);

	return left < 0 || (int64_t)ms < left;
}

/* The timeout of the next attempt: the configured one, clipped to the
 * time left (*clipped says so). */
long http_attempt_timeout(const struct http *h, bool *clipped)
{
	int64_t left = http_time_left(h);

	*clipped = left >= 0 && left < h->cfg.timeout_ms;
	return *clipped ? (long)left : h->cfg.timeout_ms;
}

CURLcode http_set_timeouts(CURL *c, const struct http *h, long timeout)
{
	CURLcode rc = CURLE_OK;

	SETOPT(rc, c, CURLOPT_TIMEOUT_MS, timeout);
	SETOPT(rc, c, CURLOPT_CONNECTTIMEOUT_MS,
	       h->cfg.connect_timeout_ms < timeout ? h->cfg.connect_timeout_ms
						   : timeout);
	return rc;
}

static void sleep_ms(struct http *h, long ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0)
		;
	h->stats.waited_ms += ms;
}

static long backoff_ms(struct http *h, int attempt)
{
	long d = h->cfg.retry_base_ms;
	int i;

	for (i = 0; i < attempt && d < HTTP_BACKOFF_CAP_MS; i++)
		d *= 2;
	if (d > HTTP_BACKOFF_CAP_MS)
		d = HTTP_BACKOFF_CAP_MS;
	return d + (long)(next_random(h) % (uint64_t)(d / 2 + 1));
}

/* A rate-limit answer: how long to wait (ms), or -1 when it is not one. */
static long rate_limit_wait(const struct http *h,
			    const struct http_response *r, CURL *c)
{
	int64_t after = header_int(c, "retry-after", -1);
	int64_t now = clock_wall_ms() / 1000;

	if (h->cfg.gitlab) { /* G21: 429, and 409 on a status, not applied */
		int64_t reset = header_int(c, "ratelimit-reset", 0);

		if (r->status != 429 && r->status != 409)
			return -1;
		return after >= 0 ? (long)(after * 1000)
		       : reset > now ? (long)((reset - now) * 1000) : 1000;
	}
	if (r->status != 403 && r->status != 429)
		return -1;
	if (after >= 0)
		return (long)(after * 1000);
	if (r->ratelimit_remaining == 0 && r->ratelimit_reset > 0)
		return r->ratelimit_reset > now
			       ? (long)((r->ratelimit_reset - now) * 1000 + 1000)
			       : 1000;
	if (r->status == 429 || strstr(r->body.ptr, "rate limit"))
		return 60000; /* GitHub's advice without a header: a minute */
	return -1;
}

static bool transport_retryable(CURLcode rc)
{
	return rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_CONNECT ||
	       rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR ||
	       rc == CURLE_GOT_NOTHING || rc == CURLE_PARTIAL_FILE ||
	       rc == CURLE_HTTP2 || rc == CURLE_HTTP2_STREAM ||
	       rc == CURLE_COULDNT_RESOLVE_HOST;
}

/* The path part of a URL, for messages (never the query string). */
static void describe(struct buf *out, const char *method, const char *url)
{
	const char *p = url;
	size_t n;

	if (strncmp(p, "http://", 7) == 0 || strncmp(p, "https://", 8) == 0) {
		p = strchr(strchr(p, ':') + 3, '/');
		if (!p)
			p = "/";
	}
	n = strcspn(p, "?");
	buf_addf(out, "%s %.*s", method, (int)n, p);
}

/* A request the deadline stopped: `how` it was stopped ("not sent", "cut
 * off", "not retried"); it counts as timed out. */
static void deadline_error(struct http *h, struct buf *err, const char *what,
			   const char *how)
{
	h->timed_out = true;
	h->stats.deadline_cuts++;
	buf_setf(err, "%s: %s: the run's deadline (config deadline) has passed",
		 what, how);
}

/* One attempt. A refused option fails it before anything is sent. */
static CURLcode perform(struct http *h, const char *method, const char *url,
			const char *body, bool idempotent, long timeout,
			struct http_response *resp)
{
	CURLcode rc = http_set_timeouts(h->curl, h, timeout);

	SETOPT(rc, h->curl, CURLOPT_URL, url);
	SETOPT(rc, h->curl, CURLOPT_WRITEDATA, &resp->body);
	/* libcurl silently sends a request again when a reused connection
	 * dies before an answer: harmless for a read, a second approval or
	 * status for a write. A write gets a connection of its own, which
	 * libcurl never resends on; we re-read instead (writes.c). */
	SETOPT(rc, h->curl, CURLOPT_FRESH_CONNECT,
	       strcmp(method, "GET") != 0 && !idempotent ? 1L : 0L);
	if (strcmp(method, "GET") == 0) {
		SETOPT(rc, h->curl, CURLOPT_HTTPGET, 1L);
		SETOPT(rc, h->curl, CURLOPT_CUSTOMREQUEST, NULL);
	} else {
		SETOPT(rc, h->curl, CURLOPT_POSTFIELDS, body ? body : "");
		SETOPT(rc, h->curl, CURLOPT_POSTFIELDSIZE_LARGE,
		       (curl_off_t)(body ? strlen(body) : 0));
		SETOPT(rc, h->curl, CURLOPT_CUSTOMREQUEST,
		       strcmp(method, "POST") == 0 ? NULL : method);
	}
	if (rc != CURLE_OK)
		return rc;
	h->stats.requests++;
	rc = h->beside.state == BESIDE_WAITING ? http_perform_beside(h)
	                                       : curl_easy_perform(h->curl);
	if (rc != CURLE_OK)
		return rc;
	if ((rc = curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE,
				    &resp->status)) != CURLE_OK)
		return rc;
	http_answer_headers(h, h->curl, resp);
	return CURLE_OK;
}

void http_answer_headers(struct http *h, CURL *c, struct http_response *resp)
{
	const char *v;
	bool off_origin = false;

	h->stats.bytes_in += (int64_t)resp->body.len;
	resp->ratelimit_remaining = header_int(c, "x-ratelimit-remaining", -1);
	resp->ratelimit_reset = header_int(c, "x-ratelimit-reset", 0);
	if ((v = header(c, "x-ratelimit-resource")))
		resp->ratelimit_resource = xstrdup(v);
	if (resp->ratelimit_remaining >= 0) {
		if (resp->ratelimit_resource &&
		    strcmp(resp->ratelimit_resource, "graphql") == 0)
			h->stats.graphql_remaining = resp->ratelimit_remaining;
		else
			h->stats.rest_remaining = resp->ratelimit_remaining;
	}
	if ((v = header(c, "location")))
		resp->location = xstrdup(v);
	if ((v = header(c, "x-oauth-scopes")))
		resp->oauth_scopes = xstrdup(v);
	if ((v = header(c, "github-authentication-token-expiration")))
		resp->token_expiration = xstrdup(v);
	if (h->cfg.gitlab) { /* G9: pages by number, never a Link URL */
		resp->page = header_int(c, "x-page", -1);
		if ((v = header(c, "x-next-page")))
			resp->next = xstrndup(v, strcspn(v, " \t\r\n"));
	} else if ((v = header(c, "link"))) {
		resp->next = link_next(h, v, &off_origin);
		resp->next_off_origin = off_origin;
	}
}

int http_request(struct http *h, const char *method, const char *path_or_url,
		 const char *body, bool idempotent, struct http_response *resp,
		 struct buf *err)
{
	struct buf url = BUF_INIT(BUF_MAX_SMALL), what = BUF_INIT(BUF_MAX_SMALL);
	int attempt = 0, redirects = 0, error = AA_EAPI;
	bool write_rate_retried = false;

	h->timed_out = false;
	if (h->broken) {
		buf_setf(err, "the request's token could not be set; nothing "
			      "is sent");
		goto out;
	}
	if (path_or_url[0] == '/') {
		buf_addf(&url, "%s%s", h->api_url, path_or_url);
	} else if (http_same_origin(h, path_or_url)) {
		buf_adds(&url, path_or_url);
	} else {
		buf_setf(err, "refused a request off the API origin");
		goto out;
	}
	buf_reset(&what);
	describe(&what, method, url.ptr);
	if (http_take_beside(h, method, path_or_url, body, idempotent, resp)) {
		h->stats.reads++;
		error = AA_OK;
		goto out;
	}
	if (idempotent) {
		h->stats.reads++;
	} else {
		/* GitHub's secondary limits: writes serial and spaced out. */
		int64_t now = clock_mono_ms();
		long pace = 0;

		if (h->burst > 0)
			h->burst--; /* http_write_burst: serial, unpaced */
		else if (h->last_write_ms &&
			 now - h->last_write_ms < h->cfg.write_interval_ms)
			pace = (long)(h->cfg.write_interval_ms -
				      (now - h->last_write_ms));
		if (!wait_fits(h, pace)) {
			deadline_error(h, err, what.ptr, "not sent");
			goto out;
		}
		sleep_ms(h, pace);
		h->stats.writes++;
	}
	for (;;) {
		CURLcode rc;
		long wait, timeout;
		bool clipped;

		reset_response(resp);
		buf_reset(&what);
		describe(&what, method, url.ptr);
		if (http_time_left(h) == 0) {
			deadline_error(h, err, what.ptr, "not sent");
			goto out;
		}
		timeout = http_attempt_timeout(h, &clipped);
		rc = perform(h, method, url.ptr, body, idempotent, timeout,
			     resp);
		if (rc == CURLE_OPERATION_TIMEDOUT) {
			h->timed_out = true;
			h->stats.timeouts++;
			if (clipped) {
				deadline_error(h, err, what.ptr, "cut off");
				goto out;
			}
		}
		if (rc == CURLE_OK && resp->next_off_origin) {
			buf_setf(err, "%s: the next page is off the API origin; "
				      "refused to follow it", what.ptr);
			goto out;
		}
		if (rc != CURLE_OK) {
			if (idempotent && transport_retryable(rc) &&
			    attempt < h->cfg.retries &&
			    !(h->timed_out && h->no_timeout_retries)) {
				wait = backoff_ms(h, attempt++);
				if (!wait_fits(h, wait)) {
					deadline_error(h, err, what.ptr,
						       "not retried");
					goto out;
				}
				h->stats.retries++;
				sleep_ms(h, wait);
				continue;
			}
			buf_setf(err, "%s: %s", what.ptr,
				 rc == CURLE_WRITE_ERROR ||
						 rc == CURLE_FILESIZE_EXCEEDED
					 ? "response larger than the ceiling"
					 : curl_easy_strerror(rc));
			goto out;
		}
		if ((resp->status == 301 || resp->status == 302 ||
		     resp->status == 307 || resp->status == 308) &&
		    resp->location) {
			if (!idempotent || h->cfg.gitlab /* G3 */ ||
			    ++redirects > HTTP_MAX_REDIRECTS ||
			    !http_same_origin(h, resp->location)) {
				buf_setf(err, "%s: HTTP %ld redirect not followed "
					      "(only same-origin reads are)",
					 what.ptr, resp->status);
				goto out;
			}
			buf_reset(&url);
			buf_adds(&url, resp->location);
			continue;
		}
		wait = rate_limit_wait(h, resp, h->curl);
		if (wait >= 0) {
			/* The request was refused, not performed: waiting
			 * and sending it again is not a blind retry. */
			bool may = idempotent ? attempt < h->cfg.retries
					      : !write_rate_retried;

			if (wait > h->cfg.max_wait_s * 1000 || !may) {
				buf_setf(err, "%s: rate limited (HTTP %ld); "
					      "would have to wait %ld s",
					 what.ptr, resp->status, wait / 1000);
				goto out;
			}
			if (!wait_fits(h, wait)) {
				deadline_error(h, err, what.ptr,
					       "rate limited, not retried");
				goto out;
			}
			h->stats.retries++;
			attempt++;
			write_rate_retried = !idempotent;
			sleep_ms(h, wait);
			continue;
		}
		if (resp->status >= 500 && idempotent &&
		    attempt < h->cfg.retries) {
			wait = backoff_ms(h, attempt++);
			if (!wait_fits(h, wait)) {
				deadline_error(h, err, what.ptr, "not retried");
				goto out;
			}
			h->stats.retries++;
			sleep_ms(h, wait);
			continue;
		}
		error = AA_OK;
		break;
	}
out:
	if (!idempotent)
		h->last_write_ms = clock_mono_ms();
	buf_release(&url);
	buf_release(&what);
	return error;
}

void http_write_burst(struct http *h, int n)
{
	h->burst = n > 0 ? n : 0;
}
