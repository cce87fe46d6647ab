/*
 * live.c - the GitHub port over GitHub's API (BEHAVIOR §8): creating and
 * freeing it, its table of operations and its counters. The operations
 * live in the files live_int.h lists.
 *
 * Reads: one GraphQL query per PR for the parts asked (pull fields, labels,
 * comments with edit info, unlabel/retarget timeline events, review
 * threads, reviews, commits), every connection paginated to the end; REST
 * for the status history of a commit (GraphQL has no ids or history).
 * T2 covers a comment's whole edit history (A5), which the pull query does
 * not carry: it is read — one more query, every page — only for comments
 * that were edited and could be verdicts (by the trusted login, with a
 * verdict marker), so the unedited happy path keeps its single read; a
 * history that cannot be read fails the comments part.
 * When a bundled query fails, each part is read again on its own so a
 * failure is pinned to the part it belongs to, exactly as replay's faults
 * are. Decoding is strict: a missing or mistyped field fails the read.
 *
 * Writes: REST, never retried blindly; after a transport failure the state
 * is re-read to learn whether the write landed.
 *
 * Request budget: a status history read by REST is cached; a later read of
 * the same commit after a refresh is answered from the cache when the
 * newest status of each context that matters, as GraphQL reports it in the
 * same query as the pull, is unchanged. That keeps a gate evaluation at one
 * GraphQL query plus one REST page and the approve path at six requests.
 */
#include "github/live.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/util.h"
#include "github/live_int.h"

static void live_refresh(struct github *gh)
{
	/* Nothing read is reused without a check: pulls are always read
	 * again, and a cached status history only when cache_current()
	 * finds it unchanged. */
	L(gh)->contexts.valid = false;
}

static int64_t live_now(struct github *gh)
{
	(void)gh;
	return clock_wall_ms();
}

static void live_free(struct github *gh)
{
	struct live *l = L(gh);
	size_t i;

	if (l->read_http != l->http)
		http_free(l->read_http);
	http_free(l->http);
	if (l->app) {
		free(l->app->id);
		buf_wipe(&l->app->key);
		buf_wipe(&l->app->token);
		free(l->app->bot_login);
		cJSON_Delete(l->app->permissions);
		free(l->app);
	}
	free(l->graphql_url);
	free(l->owner);
	free(l->name);
	free(l->viewer);
	free(l->write_viewer);
	for (i = 0; i < l->ncache; i++)
		snap_statuses_release(&l->cache[i].st);
	free(l->cache);
	snap_statuses_release(&l->contexts.newest);
	for (i = 0; i < l->nahead; i++) {
		snap_pull_release(&l->ahead[i].pull);
		snap_statuses_release(&l->ahead[i].contexts);
	}
	free(l->ahead);
	free(l->hints);
	edit_hints_release(l);
	free(l);
}

/* The ops' pull: a pull keeps the message of its failed parts (N80). */
static int op_pull(struct github *gh, int64_t number, unsigned parts,
                   struct gh_pull *out, struct buf *err)
{
	int error = live_pull_review(gh, number, parts, out, err);

	if (error == AA_OK)
		gh_pull_keep_error(out, err);
	return error;
}

static const struct github_ops live_ops = {
    live_user,
    live_open_pulls,
    op_pull,
    live_commit_in_pull,
    live_statuses,
    live_label_exists,
    live_create_label,
    live_add_label,
    live_create_status,
    live_approve,
    live_dismiss,
    live_prefetch,
    live_details,
    live_budget,
    live_refresh,
    live_now,
    live_free,
    &live_review_ops,
    &live_setup_ops,
};

int github_live_new(struct github **out, const struct live_config *c,
		    const struct policy *p, struct buf *err)
{
	struct live *l = xcalloc(1, sizeof(*l));
	const char *slash = strchr(c->repository, '/');
	struct http_config hc = c->http, rc;

	*out = NULL;
	l->gh.ops = &live_ops;
	l->policy = p;
	if (!slash) {
		buf_setf(err, "repository '%s' is not OWNER/NAME", c->repository);
		goto fail;
	}
	l->owner = xstrndup(c->repository, (size_t)(slash - c->repository));
	l->name = xstrdup(slash + 1);
	l->graphql_url = xstrdup(c->graphql_url);
	/* Every client stops at the port's deadline (A6), however it moves. */
	hc.deadline_ms = &l->gh.deadline;
	if (http_new(&l->http, &hc, err) < 0)
		goto fail;
	if (!http_same_origin(l->http, l->graphql_url)) {
		buf_setf(err, "the GraphQL URL must be on the API URL's origin "
			      "(the token is sent to both)");
		goto fail;
	}
	l->read_http = l->http;
	l->mask = c->mask;
	l->token_kind = token_kind_of(c->http.token);
	l->rate_remaining = -1;
	if (c->app_id) {
		rc = hc;
		l->app = xcalloc(1, sizeof(*l->app));
		l->app->id = xstrdup(c->app_id);
		buf_init(&l->app->key, BUF_MAX_SMALL);
		buf_init(&l->app->token, BUF_MAX_SMALL);
		if (buf_adds(&l->app->key, c->app_key_pem) < 0) {
			buf_setf(err, "the App's private key is too large");
			goto fail;
		}
		l->app->installation = c->app_installation_id;
		rc.token = "-"; /* replaced by app_token() before any use */
		if (http_new(&l->read_http, &rc, err) < 0) {
			l->read_http = l->http;
			goto fail;
		}
	} else if (c->read_token && *c->read_token) {
		rc = hc;
		rc.token = c->read_token;
		if (http_new(&l->read_http, &rc, err) < 0) {
			l->read_http = l->http;
			goto fail;
		}
	}
	*out = &l->gh;
	return AA_OK;
fail:
	live_free(&l->gh);
	return AA_EUSAGE;
}

void github_live_write_burst(struct github *gh, int n)
{
	struct github *inner = github_dryrun_inner(gh);
	struct live *l;

	if (inner)
		gh = inner;
	if (gh->ops != &live_ops)
		return;
	l = L(gh);
	http_write_burst(l->http, n);
	if (l->read_http != l->http)
		http_write_burst(l->read_http, n);
}

void github_live_tally(struct github *gh, struct buf *out)
{
	const struct live *l = L(gh);
	size_t k;

	for (k = 0; k < GQL_NKINDS; k++) {
		if (!l->tally[k].queries)
			continue;
		buf_addf(out, "%s%s:%ld:%lld", out->len ? "," : "",
			 gql_kind_names[k], l->tally[k].queries,
			 (long long)l->tally[k].points);
	}
}

void github_live_stats(struct github *gh, struct http_stats *out)
{
	struct live *l = L(gh);
	const struct http_stats *a = http_stats(l->http);

	*out = *a;
	out->graphql_points = l->points;
	if (l->read_http != l->http) {
		const struct http_stats *b = http_stats(l->read_http);

		out->requests += b->requests;
		out->retries += b->retries;
		out->reads += b->reads;
		out->writes += b->writes;
		out->bytes_in += b->bytes_in;
		out->waited_ms += b->waited_ms;
		if (b->graphql_remaining >= 0)
			out->graphql_remaining = b->graphql_remaining;
		if (b->rest_remaining >= 0)
			out->rest_remaining = b->rest_remaining;
	}
}
