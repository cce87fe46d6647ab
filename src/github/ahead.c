/*
 * ahead.c - reading ahead for a sweep: the gate's parts of several PRs
 * per GraphQL document, packed to a point each, the documents sent in
 * parallel. Best effort: a document with any error, or a PR with more
 * pages or an edit history to read, is not kept, and pull() reads that PR
 * itself; what was read ahead answers one pull() and is gone. Also the
 * request budget left.
 */
#include "github/live_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "github/http.h"

/* Decode alias p<i> of a batch answer into a prefetched PR; incomplete
 * connections (more pages) or an edit history to read (A5) make it
 * useless: the caller reads that PR itself. */
bool dec_ahead(struct live *l, const cJSON *pr, int64_t number,
	       struct prefetched *out, struct buf *err)
{
	const cJSON *nodes;
	char *cursor = NULL;
	struct history_reads pending = {NULL, 0, 0};
	bool more = false, ok = false;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->pull.number = number;
	if (!cJSON_IsObject(pr) || dec_pull_fields(&out->pull, pr, err) < 0)
		goto out;
	for (k = 0; k < ARRAY_SIZE(conns); k++) {
		if (conns[k].part == PART_COMMITS)
			continue;
		if (dec_conn(&nodes, &more, &cursor, pr, conns[k].field, err) < 0 ||
		    more || dec_nodes(l, &out->pull, conns[k].part, nodes, &pending,
				      err) < 0)
			goto out;
	}
	if (pending.n) {
		/* Read on its own, with these histories in the same query. */
		hint_edits(l, number, &pending);
		goto out;
	}
	if (dec_contexts(pr, out->pull.head_sha, &out->contexts,
			 &out->has_contexts, err) < 0)
		goto out;
	ok = out->pull.number == number;
out:
	history_reads_release(&pending);
	free(cursor);
	if (!ok) {
		snap_pull_release(&out->pull);
		snap_statuses_release(&out->contexts);
	}
	return ok;
}

/* The review threads PR `pr` asks for in a read-ahead: as many as it has
 * (pull_details), else LIVE_BATCH_THREADS; -1: more than a page, so it is
 * not read ahead. */
static int64_t ask_threads(const struct live *l, int64_t pr)
{
	size_t i;

	for (i = 0; i < l->nhints; i++)
		if (l->hints[i].pr == pr)
			return l->hints[i].threads > 100  ? -1
			       : l->hints[i].threads < 1 ? 1
							 : l->hints[i].threads;
	return LIVE_BATCH_THREADS;
}

/* A read-ahead document: PRs [from, from + count) of the packed list. */
struct ahead_doc {
	size_t from, count;
};

/*
 * Pack prs[0, n) into documents of at most LIVE_BATCH_REQUESTS requests
 * (six connections a PR and one per thread asked for) and
 * LIVE_BATCH_MAX_PRS PRs; *prs_out, *asks_out are the PRs read ahead, in
 * order. Returns the number of documents.
 */
static size_t pack(const struct live *l, const int64_t *prs, size_t n,
		   int64_t *prs_out, int64_t *asks_out, struct ahead_doc *docs)
{
	size_t i, k = 0, nd = 0;
	int64_t requests = 0;

	for (i = 0; i < n; i++) {
		int64_t ask = ask_threads(l, prs[i]);

		if (ask < 0)
			continue;
		if (!nd || docs[nd - 1].count == LIVE_BATCH_MAX_PRS ||
		    requests + 6 + ask > LIVE_BATCH_REQUESTS) {
			docs[nd].from = k;
			docs[nd].count = 0;
			nd++;
			requests = 0;
		}
		prs_out[k] = prs[i];
		asks_out[k++] = ask;
		docs[nd - 1].count++;
		requests += 6 + ask;
	}
	return nd;
}

void live_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	struct live *l = L(gh);
	int64_t *sel = xcalloc(n ? n : 1, sizeof(*sel));
	int64_t *asks = xcalloc(n ? n : 1, sizeof(*asks));
	struct ahead_doc *docs = xcalloc(n ? n : 1, sizeof(*docs));
	size_t nb = pack(l, prs, n, sel, asks, docs), b, i;
	struct http_batch_item *items = xcalloc(nb ? nb : 1, sizeof(*items));
	struct buf *bodies = xcalloc(nb ? nb : 1, sizeof(*bodies));
	struct buf q = BUF_INIT(BUF_MAX_DOC), v = BUF_INIT(BUF_MAX_SMALL),
		   err = BUF_INIT(BUF_MAX_SMALL);
	char *dflt = NULL;

	if (app_token(l, &err) < 0)
		nb = 0; /* nothing read ahead: each PR is read (and fails) alone */
	vars(l, &v, 0, NULL);
	for (b = 0; b < nb; b++) {
		buf_reset(&q);
		batch_query(&q, sel + docs[b].from, asks + docs[b].from,
			    docs[b].count);
		buf_init(&bodies[b], BUF_MAX_DOC);
		gql_body(&bodies[b], q.ptr, q.len, v.ptr);
		items[b].url = l->graphql_url;
		items[b].body = bodies[b].ptr;
	}
	http_request_many(l->read_http, items, nb, HTTP_MAX_PARALLEL);
	for (b = 0; b < nb; b++) {
		const int64_t *in = sel + docs[b].from;
		const cJSON *data, *repo;
		cJSON *root = NULL;

		/* Any error in a document (one PR's fault, a missing PR)
		 * discards it whole: those PRs are read one by one. */
		if (items[b].error || items[b].resp.status != 200 ||
		    json_parse(&root, items[b].resp.body.ptr,
			       items[b].resp.body.len, &err) < 0 ||
		    json_has(root, "errors") ||
		    jget_obj(&data, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, data, "data", "repository", 0, &err) < 0)
			goto next;
		gql_count(l, GQL_AHEAD, data);
		free(dflt);
		if (dec_default_branch(&dflt, repo, &err) < 0)
			goto next;
		for (i = 0; i < docs[b].count; i++) {
			struct prefetched one;
			char alias[32];
			int len = snprintf(alias, sizeof(alias), "p%zu", i);

			if (len < 0 || (size_t)len >= sizeof(alias))
				continue;
			if (!dec_ahead(l, json_get(repo, alias),
				       in[i], &one, &err))
				continue;
			one.pull.default_branch = xstrdup_or_null(dflt);
			ALLOC_GROW(l->ahead, l->nahead + 1, l->aahead);
			l->ahead[l->nahead++] = one;
		}
next:
		cJSON_Delete(root);
		http_response_release(&items[b].resp);
		buf_release(&items[b].err);
		buf_release(&bodies[b]);
	}
	free(dflt);
	free(items);
	free(bodies);
	free(sel);
	free(asks);
	free(docs);
	buf_release(&q);
	buf_release(&v);
	buf_release(&err);
}

/* A read-ahead of PR `number` answers a read of `parts`, once; the older
 * of two read-aheads of one PR answers first (the second, read later, is
 * for its re-check: they stay in the order they were read). */
bool take_ahead(struct live *l, int64_t number, unsigned parts,
		struct gh_pull *out)
{
	size_t i;

	if (parts & ~(PART_PULL | PART_LABELS | PART_COMMENTS | PART_TIMELINE |
		      PART_THREADS | PART_REVIEWS))
		return false;
	for (i = 0; i < l->nahead; i++) {
		if (l->ahead[i].pull.number != number)
			continue;
		out->pull = l->ahead[i].pull;
		out->ok = parts;
		keep_contexts(l, number, &l->ahead[i].contexts,
			      l->ahead[i].has_contexts);
		memmove(&l->ahead[i], &l->ahead[i + 1],
			(l->nahead - i - 1) * sizeof(*l->ahead));
		l->nahead--;
		return true;
	}
	return false;
}

void live_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	struct http_stats st;

	github_live_stats(gh, &st);
	*graphql = st.graphql_remaining;
	if (L(gh)->rate_remaining >= 0 &&
	    (*graphql < 0 || L(gh)->rate_remaining < *graphql))
		*graphql = L(gh)->rate_remaining;
	*rest = st.rest_remaining;
}
