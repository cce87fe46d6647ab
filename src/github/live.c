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
	buf_release(&gh->error);
	free(l);
}

/*
 * The table's entries: each operation that can fail starts with an empty
 * gh->error (github_op_begin), so its failure carries its own message; a
 * pull keeps the message of its failed parts; the best-effort reads ahead
 * leave the error as they found it.
 */
static int op_user(struct github *gh, char **login, struct buf *err)
{
	github_op_begin(gh);
	return live_user(gh, login, err);
}

static int op_open_pulls(struct github *gh, enum gh_listing what,
			 struct gh_pull_brief **list, size_t *n,
			 struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(gh, live_open_pulls(gh, what, list, n), err);
}

static int op_pull(struct github *gh, int64_t number, unsigned parts,
		   struct gh_pull *out, struct buf *err)
{
	int error;

	github_op_begin(gh);
	error = live_pull_review(gh, number, parts, out);
	if (error == AA_OK)
		gh_pull_keep_error(out, &gh->error);
	return github_op_end(gh, error, err);
}

static int op_commit_in_pull(struct github *gh, int64_t number,
			     const char *sha, bool *out, struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(gh, live_commit_in_pull(gh, number, sha, out),
			     err);
}

static int op_statuses(struct github *gh, int64_t pr, const char *sha,
		       unsigned need, struct snap_statuses *out,
		       struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(gh, live_statuses(gh, pr, sha, need, out), err);
}

static int op_label_exists(struct github *gh, int64_t pr, const char *name,
			   bool *out, struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(gh, live_label_exists(gh, pr, name, out), err);
}

static int op_create_label(struct github *gh, int64_t pr, const char *name,
                           const char *color, const char *description,
                           struct buf *err)
{
	github_op_begin(gh);
	return live_create_label(gh, pr, name, color, description, err);
}

static int op_add_label(struct github *gh, int64_t pr, const char *name,
                        struct buf *err)
{
	github_op_begin(gh);
	return live_add_label(gh, pr, name, err);
}

static int op_create_status(struct github *gh, int64_t pr, const char *sha,
                            const char *state, const char *context,
                            const char *description, const char *target_url,
                            struct buf *err)
{
	github_op_begin(gh);
	return live_create_status(gh, pr, sha, state, context, description,
	                          target_url, err);
}

static int op_approve(struct github *gh, int64_t pr, const char *commit_id,
                      const char *text, int64_t *review_id, struct buf *err)
{
	github_op_begin(gh);
	return live_approve(gh, pr, commit_id, text, review_id, err);
}

static int op_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                      const char *message, struct buf *err)
{
	github_op_begin(gh);
	return live_dismiss(gh, pr, review_id, message, err);
}

static void op_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	struct buf kept = BUF_INIT(BUF_MAX_SMALL);

	buf_add(&kept, gh->error.ptr, gh->error.len);
	live_prefetch(gh, prs, n);
	buf_reset(&gh->error);
	buf_add(&gh->error, kept.ptr, kept.len);
	buf_release(&kept);
}

static void op_details(struct github *gh, struct gh_pull_brief *const *list,
		       size_t n)
{
	struct buf kept = BUF_INIT(BUF_MAX_SMALL);

	buf_add(&kept, gh->error.ptr, gh->error.len);
	live_details(gh, list, n);
	buf_reset(&gh->error);
	buf_add(&gh->error, kept.ptr, kept.len);
	buf_release(&kept);
}

static int op_review_pull(struct github *gh, int64_t pr, unsigned what,
			  struct gh_review_pull *out, struct buf *err)
{
	github_op_begin(gh);
	return github_op_keep(
		gh, live_review_ops.review_pull(gh, pr, what, out, err), err);
}

static int op_review_comments(struct github *gh, int64_t pr,
			      struct snap_review_comment **out, size_t *n,
			      struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(
		gh, live_review_ops.review_comments(gh, pr, out, n, err), err);
}

static int op_files(struct github *gh, int64_t pr, struct snap_file **out,
		    size_t *n, struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(gh, live_review_ops.files(gh, pr, out, n, err),
			     err);
}

static int op_compare(struct github *gh, int64_t pr, const char *base,
		      const char *head, struct gh_compare *out,
		      struct buf *err)
{
	github_op_begin(gh);
	return github_op_end(
		gh, live_review_ops.compare(gh, pr, base, head, out, err), err);
}

static int op_comment_create(struct github *gh, int64_t pr, const char *body,
                             int64_t *id, char **html_url, struct buf *err)
{
	github_op_begin(gh);
	return live_review_ops.comment_create(gh, pr, body, id, html_url, err);
}

static int op_comment_update(struct github *gh, int64_t pr, int64_t id,
                             const char *body, struct buf *err)
{
	github_op_begin(gh);
	return live_review_ops.comment_update(gh, pr, id, body, err);
}

static int op_comment_delete(struct github *gh, int64_t pr, int64_t id,
                             struct buf *err)
{
	github_op_begin(gh);
	return live_review_ops.comment_delete(gh, pr, id, err);
}

static int op_review_post(struct github *gh, int64_t pr, const char *commit_id,
                          const char *body, const struct gh_inline *inl,
                          size_t n, struct gh_review_posted *out,
                          struct buf *err)
{
	github_op_begin(gh);
	return live_review_ops.review_post(gh, pr, commit_id, body, inl, n, out,
	                                   err);
}

static const struct github_review_ops review_ops = {
	op_review_pull, op_review_comments, op_files,		op_compare,	op_comment_create,
	op_comment_update,  op_comment_delete, op_review_post, NULL, NULL, NULL, NULL,
};

static const struct github_ops live_ops = {
	op_user,	   op_open_pulls,  op_pull,	    op_commit_in_pull,
	op_statuses,	   op_label_exists, op_create_label, op_add_label,
	op_create_status, op_approve,	   op_dismiss,	    op_prefetch,
	op_details,	   live_budget,	   live_refresh,    live_now,
	live_free,	   &review_ops,	   &live_setup_ops,
};

int github_live_new(struct github **out, const struct live_config *c,
		    const struct policy *p, struct buf *err)
{
	struct live *l = xcalloc(1, sizeof(*l));
	const char *slash = strchr(c->repository, '/');
	struct http_config hc = c->http, rc;

	*out = NULL;
	l->gh.ops = &live_ops;
	buf_init(&l->gh.error, BUF_MAX_SMALL);
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
