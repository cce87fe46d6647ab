/*
 * live.h - the GitHub port over the real API (REST + GraphQL), and
 * what it needs to be created.
 */
#ifndef AA_GITHUB_LIVE_H
#define AA_GITHUB_LIVE_H

#include "port/port.h"
#include "github/http.h"
#include "core/policy.h"

struct live_config {
	const char *repository;  /* owner/name */
	const char *graphql_url; /* must share the API URL's origin */
	struct http_config http; /* api_url, token, timeouts… */
	const char *read_token;  /* optional: reads use it, writes the token */
	/* GitHub App mode (all three, or none): the App's installation token
	 * reads and writes statuses and labels; `http.token` (the machine
	 * account's) is used only for GET /user, approvals and dismissals. */
	const char *app_id;
	const char *app_key_pem; /* secret: copied, wiped at free */
	int64_t app_installation_id; /* 0: looked up */
	/* Called with every secret minted at run time (installation tokens),
	 * e.g. to ::add-mask:: it in GitHub Actions. May be NULL. */
	void (*mask)(const char *secret);
};

/*
 * Create the live port. 0, or AA_EUSAGE with a message (bad URL, GraphQL
 * URL on another origin). `p` must outlive the port.
 */
int github_live_new(struct github **out, const struct live_config *c,
		    const struct policy *p, struct buf *err);

/*
 * App mode: get an installation token now (it is refreshed as needed
 * later), and the App's bot login ("<slug>[bot]"), whose statuses are this
 * program's own. 0, or AA_EAPI with the message in err.
 */
int github_live_app_start(struct github *gh, const char **bot_login,
                          struct buf *err);

/* The next `n` writes of a live port (or of the live port a dry-run port
 * wraps) go out unpaced (http_write_burst); any other port: nothing. */
void github_live_write_burst(struct github *gh, int n);

/* Counters of the port's HTTP clients (reads and writes summed). */
void github_live_stats(struct github *gh, struct http_stats *out);
/* The GraphQL documents sent, per kind: "kind:queries:points,…" ("" none). */
void github_live_tally(struct github *gh, struct buf *out);

/* Run the decoders of one kind of answer over `data` and free everything:
 * the entry point of the fuzz targets (no network, no state). */
enum live_fuzz {
	LIVE_FUZZ_PULL,     /* a pull bundle: data.repository.pullRequest */
	LIVE_FUZZ_STATUSES, /* a REST status history page */
	LIVE_FUZZ_LISTING,  /* the sweep's listing page */
	LIVE_FUZZ_BATCH,    /* a read-ahead document's answer */
	LIVE_FUZZ_EDITS     /* edit histories: data.nodes[] or data.node */
};
void github_live_fuzz(int which, const char *data, size_t len);

#endif
