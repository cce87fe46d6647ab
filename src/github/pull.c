/*
 * pull.c - reading a PR's parts: one GraphQL query for the parts asked
 * (with the head's newest status per context, for statuses.c), every
 * further page of each connection, then the edit histories T2 needs
 * (history.c). When the bundled query fails, each part is read again on
 * its own so a failure is pinned to the part it belongs to, exactly as
 * replay's faults are. A PR read ahead by a sweep (ahead.c) is answered
 * from that, once.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "github/http.h"

/* conn_pages' side of the pager: the connection's document and the PR
 * node of each answer. */
struct conn_paging {
	struct live *l;
	int64_t number;
	conn_page_fn page;
	void *ctx;
};

static void conn_vars(void *ctx, struct buf *v, const char *cursor)
{
	struct conn_paging *p = ctx;

	vars(p->l, v, p->number, cursor);
}

static int conn_page(void *ctx, const cJSON *data, struct buf *err)
{
	struct conn_paging *p = ctx;
	const cJSON *repo, *pr;

	if (jget_obj(&repo, data, "data", "repository", 0, err) < 0 ||
	    jget_obj(&pr, repo, "repository", "pullRequest", 0, err) < 0)
		return AA_ERR;
	return p->page(p->ctx, pr, err);
}

int conn_pages(struct live *l, int64_t number, const struct conn_query *c,
               const bool *more, char *const *cursor, conn_page_fn page,
               void *ctx, struct buf *err)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), why = BUF_INIT(BUF_MAX_SMALL);
	struct conn_paging p = {l, number, page, ctx};
	struct gql_paging g = {NULL, conn_vars, conn_page, &p, more, cursor, 1};
	int error;

	page_query(&q, c);
	g.query = q.ptr;
	error = gql_pages(l, &g, &why);
	if (error == AA_ETOOBIG) {
		buf_setf(err, "%s of PR #%lld: %s", c->field, (long long)number,
		         why.ptr);
		error = AA_EAPI;
	} else if (error == AA_ERR) {
		buf_setf(err, "POST /graphql: unexpected answer: %s", why.ptr);
		error = AA_EAPI;
	} else if (error < 0) {
		buf_setf(err, "%s", why.ptr); /* gql()'s own */
	}
	buf_release(&q);
	buf_release(&why);
	return error;
}

/* A further page of one of bundle()'s connections. */
struct bundle_page {
	struct live *l;
	struct snap_pull *out;
	struct history_reads *pending;
	const struct conn_query *c;
	bool *more;
	char **cursor;
};

static int bundle_page(void *ctx, const cJSON *pr, struct buf *err)
{
	struct bundle_page *b = ctx;
	const cJSON *nodes;

	if (dec_conn(&nodes, b->more, b->cursor, pr, b->c->field, err) < 0)
		return AA_ERR;
	return dec_nodes(b->l, b->out, b->c->part, nodes, b->pending, err);
}

/*
 * Read `parts` of PR `number` in one query, then every further page of each
 * connection, then the edit histories T2 needs (A5). On failure nothing of
 * `out` is kept.
 */
int bundle(struct live *l, int64_t number, unsigned parts,
           struct snap_pull *out, struct buf *err)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *pr, *nodes;
	cJSON *root = NULL;
	char *cursors[ARRAY_SIZE(conns)] = {NULL};
	bool more[ARRAY_SIZE(conns)] = {false};
	struct history_reads pending = {NULL, 0, 0};
	const struct edit_hint *hint =
		(parts & PART_COMMENTS) ? edit_hint_of(l, number) : NULL;
	cJSON *hinted = NULL; /* the histories asked for beside the PR */
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	out->number = number;
	pull_query(&q, parts, hint != NULL);
	vars(l, &v, number, NULL);
	if (hint)
		hint_vars(&v, hint);
	if ((error = gql(l, q.ptr, v.ptr, &root, &data, err)) < 0)
		goto out;
	if (hint)
		hinted = cJSON_Duplicate(json_get(data, "edits"), true);
	error = AA_EAPI;
	if (dec_pull_node(&repo, &pr, number, data, &why) == AA_ERR)
		goto decode;
	if (!pr) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if ((parts & PART_PULL) &&
	    (dec_pull_fields(out, pr, &why) < 0 ||
	     dec_default_branch(&out->default_branch, repo, &why) < 0))
		goto decode;
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		if (!(parts & conns[i].part))
			continue;
		if (dec_conn(&nodes, &more[i], &cursors[i], pr, conns[i].field,
		             &why) < 0 ||
		    dec_nodes(l, out, conns[i].part, nodes, &pending, &why) < 0)
			goto decode;
	}
	if ((parts & PART_HEAD_STATUS) && (parts & PART_PULL))
		dec_head_status(l, number, out->head_sha, pr, &why);
	cJSON_Delete(root);
	root = NULL;
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		struct bundle_page bp = {l,         out,      &pending,
		                         &conns[i], &more[i], &cursors[i]};

		if ((error = conn_pages(l, number, &conns[i], &more[i],
		                        &cursors[i], bundle_page, &bp, err)) <
		    0)
			goto out;
	}
	if (pending.n) {
		/* The next read of this PR asks for these beside it. */
		hint_edits(l, number, &pending);
		if (hinted &&
		    take_hinted_edits(l, out, &pending, hinted, &why) < 0) {
			error = AA_EAPI;
			buf_setf(err,
			         "edit history of a comment of PR "
			         "#%lld: %s",
			         (long long)number, why.ptr);
			goto out;
		}
	}
	if (pending.n &&
	    (error = read_edits(l, number, out, &pending, err)) < 0)
		goto out;
	if (!(parts & PART_PULL))
		out->number = number;
	error = AA_OK;
	goto out;
decode:
	buf_setf(err, "POST /graphql: unexpected answer: %s", why.ptr);
out:
	for (i = 0; i < ARRAY_SIZE(conns); i++)
		free(cursors[i]);
	/* A hinted query that failed (a comment deleted since, say) is not
	 * asked again: the reads that follow go without the hint. */
	if (error && hint)
		forget_edit_hint(l, number);
	history_reads_release(&pending);
	cJSON_Delete(hinted);
	cJSON_Delete(root);
	buf_release(&q);
	buf_release(&v);
	buf_release(&why);
	if (error)
		snap_pull_release(out);
	return error;
}

/* Move the parts `parts` of src into dst (both the same PR). */
static void take_parts(struct snap_pull *dst, struct snap_pull *src,
		       unsigned parts)
{
#define MOVE(f, n)                                                           \
	do {                                                                 \
		dst->f = src->f;                                             \
		dst->n = src->n;                                             \
		src->f = NULL;                                               \
		src->n = 0;                                                  \
	} while (0)
	if (parts & PART_PULL) {
		dst->state = src->state;
		dst->merged = src->merged;
		dst->draft = src->draft;
		dst->author = src->author;
		memcpy(dst->head_sha, src->head_sha, SHA_BUF);
		dst->head_ref = src->head_ref;
		dst->head_repo = src->head_repo;
		dst->base_ref = src->base_ref;
		dst->default_branch = src->default_branch;
		memcpy(dst->base_sha, src->base_sha, SHA_BUF);
		dst->updated_at = src->updated_at;
		src->state = src->author = src->head_ref = NULL;
		src->head_repo = src->base_ref = src->default_branch = NULL;
	}
	if (parts & PART_LABELS)
		MOVE(labels, nlabels);
	if (parts & PART_COMMENTS)
		MOVE(comments, ncomments);
	if (parts & PART_TIMELINE)
		MOVE(timeline, ntimeline);
	if (parts & PART_THREADS)
		MOVE(threads, nthreads);
	if (parts & PART_REVIEWS)
		MOVE(reviews, nreviews);
	if (parts & PART_COMMITS)
		MOVE(commits, ncommits);
#undef MOVE
}

int live_pull(struct github *gh, int64_t number, unsigned parts,
              struct gh_pull *out, struct buf *err)
{
	struct live *l = L(gh);
	struct snap_pull one;
	unsigned ask = parts & PART_ALL, part;
	bool hung;
	int error;

	memset(out, 0, sizeof(*out));
	out->pull.number = number;
	if (!(parts & PART_FRESH) && take_ahead(l, number, ask, out))
		return AA_OK;
	if (ask & PART_PULL)
		ask |= PART_HEAD_STATUS;
	error = bundle(l, number, ask, &out->pull, err);
	if (error == AA_OK) {
		out->ok = parts & PART_ALL;
		return AA_OK;
	}
	if (error == AA_ENOTFOUND)
		return AA_ENOTFOUND;
	l->contexts.valid = false;
	/* Pin the failure to the parts it belongs to: read each alone. When
	 * the bundle hung, a part that hangs too gets the per-request
	 * timeout once, not the whole retry budget (A6). */
	hung = http_timed_out(l->read_http);
	if (hung)
		http_retry_timeouts(l->read_http, false);
	for (part = PART_PULL; part <= PART_COMMITS; part <<= 1) {
		if (!(parts & part))
			continue;
		error = bundle(l, number, part, &one, err);
		if (error == AA_ENOTFOUND) {
			http_retry_timeouts(l->read_http, true);
			gh_pull_release(out);
			return AA_ENOTFOUND;
		}
		if (error < 0) {
			out->failed |= part;
			continue;
		}
		take_parts(&out->pull, &one, part);
		snap_pull_release(&one);
		out->ok |= part;
	}
	http_retry_timeouts(l->read_http, true);
	out->pull.number = number;
	return AA_OK; /* out->failed says what could not be read */
}
