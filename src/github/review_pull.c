/*
 * review_pull.c - the pr-review reads in one GraphQL query (PUBLISH.md §6
 * H1, §7.1 and §7.2's re-reads): the pull, its comments with their edit
 * histories (U2, T2), its review threads with their comments (U3, H4),
 * its commits (H3), the head's newest status per context (for
 * statuses.c's STATUS_NEED_REVIEW) and, when the query goes out with the
 * write token, that token's login (U5, for live_user). Further pages of
 * each connection follow; a history longer than its first page is read on
 * (history.c); a thread longer than its first page makes the review
 * comments come from REST instead.
 *
 * When the query fails, the parts are read one by one as before it (the
 * pull bundle of pull.c, REST review comments), so a failure is pinned to
 * its part exactly as replay's faults are (port/world_review.c).
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* A BigInt id (a string of digits) of obj.key, or 0 when obj is null. */
static int dec_id(int64_t *out, const cJSON *obj, const char *path,
		  const char *key, struct buf *err)
{
	const cJSON *o;
	char *s = NULL;
	int error = AA_ERR;

	*out = 0;
	if (jget_obj(&o, obj, path, key, JNULL, err) < 0)
		return AA_ERR;
	if (!o)
		return AA_OK;
	if (jget_str(&s, o, key, "fullDatabaseId", 0, err) < 0)
		goto out;
	if (parse_decimal(out, s, strlen(s), JSON_MAX_INT) < 0 || *out < 1) {
		buf_setf(err, "%s.%s.fullDatabaseId: expected a positive "
			      "integer", path, key);
		goto out;
	}
	error = AA_OK;
out:
	free(s);
	return error;
}

/* One review comment of a thread. */
static int dec_review_comment(struct snap_review_comment *c, const cJSON *n,
			      struct buf *err)
{
	const char *path = "reviewThreads.comments.nodes[]";
	const cJSON *commit;
	char *id = NULL;
	int error = AA_ERR;

	if (jget_str(&id, n, path, "fullDatabaseId", 0, err) < 0)
		goto out;
	if (parse_decimal(&c->id, id, strlen(id), JSON_MAX_INT) < 0 ||
	    c->id < 1) {
		buf_setf(err, "%s.fullDatabaseId: expected a positive integer",
			 path);
		goto out;
	}
	if (dec_login(&c->author, n, path, "author", err) < 0 ||
	    jget_str(&c->body, n, path, "body", 0, err) < 0 ||
	    jget_str(&c->path, n, path, "path", 0, err) < 0 ||
	    /* An outdated comment has no line. */
	    jget_int(&c->line, n, path, "line", JNULL, 1, INT32_MAX, err) < 0 ||
	    jget_int(&c->start_line, n, path, "startLine", JNULL, 1, INT32_MAX,
		     err) < 0 ||
	    jget_obj(&commit, n, path, "commit", JNULL, err) < 0 ||
	    (commit &&
	     jget_sha(c->commit_id, commit, "commit", "oid", 0, err) < 0) ||
	    dec_id(&c->in_reply_to, n, path, "replyTo", err) < 0 ||
	    dec_id(&c->review_id, n, path, "pullRequestReview", err) < 0 ||
	    jget_time(&c->created_at, n, path, "createdAt", 0, err) < 0 ||
	    jget_str(&c->html_url, n, path, "url", 0, err) < 0)
		goto out;
	error = AA_OK;
out:
	free(id);
	return error;
}

/* A page of threads: their comments into out->rc; *whole false when a
 * thread has more comments than its first page held. */
static int dec_threads_rc(struct gh_review_pull *out, const cJSON *threads,
			  bool *whole, struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *t, *nodes, *n;

	cJSON_ArrayForEach(t, threads)
	{
		bool more = false;
		char *cursor = NULL;

		if (dec_conn(&nodes, &more, &cursor, t, "comments", err) < 0)
			return AA_ERR;
		free(cursor);
		if (more)
			*whole = false;
		cJSON_ArrayForEach(n, nodes)
		{
			struct snap_review_comment *c =
				ALLOC_PUSH(out->rc, out->nrc, alloc);

			if (dec_review_comment(c, n, err) < 0)
				return AA_ERR;
		}
	}
	return AA_OK;
}

/*
 * The edit histories that came with comments[from..] (the page `nodes`):
 * each one's first page; one with more pages goes to `rest` (its node id
 * and cursor) for the caller to read on. A comment the pull bundle would
 * have read a history for (T2) is dropped from rest->pending.
 */
static int dec_page_edits(struct snap_pull *p, size_t from,
			  const cJSON *nodes, struct review_more *rest,
			  struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	struct history_reads *pending = &rest->pending;
	const cJSON *n;
	size_t k = from;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_comment *c = &p->comments[k++];
		char *cursor = NULL, *node = NULL;
		bool more = false;

		if (dec_edits(c, n, &more, &cursor, err) < 0 ||
		    jget_str(&node, n, "comments.nodes[]", "id", 0, err) < 0) {
			free(cursor);
			free(node);
			return AA_ERR;
		}
		if (more) {
			struct review_edits_more *m =
				ALLOC_PUSH(rest->edits, rest->nedits, alloc);

			m->comment = c->id;
			m->node = node;
			m->cursor = cursor;
		} else {
			free(node);
			free(cursor);
			if (c->nedits > 1)
				qsort(c->edits, c->nedits, sizeof(*c->edits),
				      cmp_edit);
		}
		for (size_t i = 0; i < pending->n; i++)
			if (pending->v[i].comment == c->id) {
				/* pending's node ids are copies of their own,
				 * never this comment's `node` above. */
				/* NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
				free(pending->v[i].node);
				pending->v[i] = pending->v[--pending->n];
				break;
			}
	}
	return AA_OK;
}

int review_dec_page(const struct live *l, struct gh_review_pull *out,
		    size_t i, const cJSON *pr, struct review_more *rest,
		    struct buf *err)
{
	struct snap_pull *p = &out->pull.pull;
	const cJSON *nodes;
	size_t from = p->ncomments;

	if (dec_conn(&nodes, &rest->more[i], &rest->cursors[i], pr,
		     review_conns[i].field, err) < 0)
		return AA_ERR;
	switch (review_conns[i].part) {
	case RV_READ_COMMENTS:
		if (dec_nodes(l, p, PART_COMMENTS, nodes, &rest->pending,
			      err) < 0)
			return AA_ERR;
		return dec_page_edits(p, from, nodes, rest, err);
	case RV_READ_ROOTS:
		return dec_threads_rc(out, nodes, &rest->threads_whole, err);
	default:
		return dec_nodes(l, p, PART_COMMITS, nodes, &rest->pending,
				 err);
	}
}

void review_more_init(struct review_more *rest)
{
	memset(rest, 0, sizeof(*rest));
	rest->threads_whole = true;
}

void review_more_release(struct review_more *rest)
{
	for (size_t i = 0; i < LIVE_REVIEW_NCONNS; i++)
		free(rest->cursors[i]);
	for (size_t i = 0; i < rest->nedits; i++) {
		free(rest->edits[i].node);
		free(rest->edits[i].cursor);
	}
	free(rest->edits);
	history_reads_release(&rest->pending);
	review_more_init(rest);
}

/* The histories longer than their first page, read on from their cursor. */
static int edits_rest(struct live *l, struct snap_pull *p,
		      struct review_more *rest, struct buf *err)
{
	for (size_t i = 0; i < rest->nedits; i++) {
		struct review_edits_more *m = &rest->edits[i];
		struct snap_comment *c = NULL;

		for (size_t k = 0; k < p->ncomments && !c; k++)
			if (p->comments[k].id == m->comment)
				c = &p->comments[k];
		if (!c || edits_pages(l, c, m->node, &m->cursor, err) < 0)
			return AA_EAPI;
		if (c->nedits > 1)
			qsort(c->edits, c->nedits, sizeof(*c->edits), cmp_edit);
	}
	return AA_OK;
}

static int cmp_rc(const void *a, const void *b)
{
	const struct snap_review_comment *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* A further page of connection review_conns[i] (conn_pages). */
struct review_page {
	const struct live *l;
	struct gh_review_pull *out;
	size_t i;
	struct review_more *rest;
};

static int review_page(void *ctx, const cJSON *pr, struct buf *err)
{
	struct review_page *r = ctx;

	return review_dec_page(r->l, r->out, r->i, pr, r->rest, err);
}

/* The query of one_query and its variables. */
static void review_request(struct live *l, int64_t number, unsigned what,
                           struct buf *q, struct buf *v)
{
	review_query(q, what, (what & RV_READ_VIEWER) && l->read_http == l->http);
	vars(l, v, number, NULL);
}

void live_review_pull_beside(struct github *gh, int64_t pr, unsigned what)
{
	struct live *l = L(gh);
	struct buf q = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL),
		   body = BUF_INIT(BUF_MAX_DOC);

	review_request(l, pr, what, &q, &v);
	gql_body(&body, q.ptr, q.len, v.ptr);
	http_read_beside(l->read_http, l->graphql_url, body.ptr);
	buf_release(&q);
	buf_release(&v);
	buf_release(&body);
}

/* The query, its further pages, the histories left: AA_OK, AA_ENOTFOUND,
 * or AA_EAPI with nothing of out kept. */
static int one_query(struct live *l, int64_t number, unsigned what,
                     struct gh_review_pull *out, struct buf *err)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *pr;
	cJSON *root = NULL;
	struct review_more rest;
	bool viewer = (what & RV_READ_VIEWER) && l->read_http == l->http;
	char *login = NULL;
	size_t i;
	int error;

	review_more_init(&rest);
	review_request(l, number, what, &q, &v);
	if ((error = gql_as(l, GQL_REVIEW, q.ptr, v.ptr, &root, &data, err)) <
	    0)
		goto out;
	error = AA_EAPI;
	if (viewer && dec_login(&login, data, "data", "viewer", &why) < 0)
		goto decode;
	if (dec_pull_node(&repo, &pr, number, data, &why) == AA_ERR)
		goto decode;
	if (!pr) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if (dec_pull_fields(&out->pull.pull, pr, &why) < 0)
		goto decode;
	for (i = 0; i < ARRAY_SIZE(review_conns); i++)
		if ((what & review_conns[i].part) &&
		    review_dec_page(l, out, i, pr, &rest, &why) < 0)
			goto decode;
	if ((what & RV_READ_STATUS) &&
	    dec_head_status(l, number, out->pull.pull.head_sha, pr, &why) < 0)
		goto decode;
	cJSON_Delete(root);
	root = NULL;
	for (i = 0; i < ARRAY_SIZE(review_conns); i++) {
		struct review_page rp = {l, out, i, &rest};

		if ((error = conn_pages(l, number, &review_conns[i],
		                        &rest.more[i], &rest.cursors[i],
		                        review_page, &rp, err)) < 0)
			goto out;
	}
	/* The histories longer than their first page; one the query held no
	 * page of (none: every comment came with its own); then the threads
	 * too long for one page. */
	if ((error = edits_rest(l, &out->pull.pull, &rest, &why)) < 0) {
		buf_setf(err,
		         "edit history of a comment of PR #%lld: "
		         "%s",
		         (long long)number, why.ptr);
		goto out;
	}
	if (rest.pending.n && (error = read_edits(l, number, &out->pull.pull,
	                                          &rest.pending, err)) < 0)
		goto out;
	if ((what & RV_READ_ROOTS) && !rest.threads_whole) {
		for (i = 0; i < out->nrc; i++)
			snap_review_comment_release(&out->rc[i]);
		free(out->rc);
		out->rc = NULL;
		out->nrc = 0;
		if ((error = live_review_comments(&l->gh, number, &out->rc,
		                                  &out->nrc, err)) < 0)
			goto out;
	}
	if (out->nrc > 1)
		qsort(out->rc, out->nrc, sizeof(*out->rc), cmp_rc);
	out->pull.ok = PART_PULL |
		       ((what & RV_READ_COMMENTS) ? PART_COMMENTS : 0) |
		       ((what & RV_READ_COMMITS) ? PART_COMMITS : 0);
	out->rc_ok = (what & RV_READ_ROOTS) != 0;
	if (viewer && login) {
		free(l->write_viewer);
		l->write_viewer = login;
		login = NULL;
	}
	error = AA_OK;
	goto out;
decode:
	buf_setf(err, "POST /graphql: unexpected answer: %s", why.ptr);
out:
	review_more_release(&rest);
	cJSON_Delete(root);
	free(login);
	buf_release(&q);
	buf_release(&v);
	buf_release(&why);
	if (error && error != AA_ENOTFOUND) {
		gh_review_pull_release(out);
		out->pull.pull.number = number;
	}
	return error;
}

int live_review_pull(struct github *gh, int64_t pr, unsigned what,
                     struct gh_review_pull *out, struct buf *err)
{
	struct live *l = L(gh);
	unsigned parts = PART_PULL | PART_FRESH;
	int error;

	memset(out, 0, sizeof(*out));
	out->pull.pull.number = pr;
	error = one_query(l, pr, what, out, err);
	if (error == AA_OK || error == AA_ENOTFOUND)
		return error;
	/* The parts apart, as before the one query (pull.c pins a failure
	 * to its part; the review comments come from REST). */
	l->contexts.valid = false;
	if (what & RV_READ_COMMENTS)
		parts |= PART_COMMENTS;
	if (what & RV_READ_COMMITS)
		parts |= PART_COMMITS;
	if ((error = live_pull_review(gh, pr, parts, &out->pull, err)) < 0)
		return error;
	if (what & RV_READ_ROOTS)
		out->rc_ok = live_review_comments(gh, pr, &out->rc, &out->nrc,
		                                  err) == AA_OK;
	return AA_OK;
}
