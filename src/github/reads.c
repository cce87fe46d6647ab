/*
 * reads.c - the live port's other reads: the token's own login (GET
 * /user), the open PRs (the sweep's rich listing, or the plain one when
 * that fails), whether the repository has a label, and whether a commit
 * belongs to a PR (its commit list, or the compare API past
 * LIVE_COMMITS_CAP commits).
 */
#include "github/live_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "github/http.h"

int live_user(struct github *gh, char **login, struct buf *err)
{
	struct live *l = L(gh);
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error = AA_EAPI;

	*login = NULL;
	/* A pr-review read sent with the write token told its login. */
	if (l->write_viewer) {
		*login = xstrdup(l->write_viewer);
		return AA_OK;
	}
	if (rest_get(l, l->http, "/user", "/user", &root, NULL, err) < 0)
		goto out;
	if (jget_str(login, root, "user", "login", 0, &why) < 0) {
		buf_setf(err, "GET /user: %s", why.ptr);
		goto out;
	}
	free(l->viewer);
	l->viewer = xstrdup(*login);
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&why);
	return error;
}

static int cmp_brief(const void *a, const void *b)
{
	const struct gh_pull_brief *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

/* A listing being read: the pager's ctx. */
struct listing {
	struct live *l;
	bool probe; /* adds dec_brief_extra */
	struct gh_pull_brief *v;
	size_t n, alloc;
	bool more;
	char *cursor;
};

static void listing_vars(void *ctx, struct buf *v, const char *cursor)
{
	struct listing *o = ctx;

	vars(o->l, v, 0, cursor);
}

/* One page of the listing: its PRs, then where the next starts. */
static int listing_page(void *ctx, const cJSON *data, struct buf *err)
{
	struct listing *o = ctx;
	const cJSON *repo, *conn, *nodes, *info, *node;

	if (jget_obj(&repo, data, "data", "repository", 0, err) < 0 ||
	    jget_obj(&conn, repo, "repository", "pullRequests", 0, err) < 0 ||
	    jget_arr(&nodes, conn, "pullRequests", "nodes", 0, err) < 0 ||
	    jget_obj(&info, conn, "pullRequests", "pageInfo", 0, err) < 0 ||
	    jget_bool(&o->more, info, "pageInfo", "hasNextPage", 0, err) < 0)
		return AA_ERR;
	if (o->probe) {
		/* What this query cost and what is left: the sweep stops
		 * before the limit (core/budget.h, BUDGET_RESERVE_GRAPHQL). */
		const cJSON *rate;

		if (jget_obj(&rate, data, "data", "rateLimit", 0, err) < 0 ||
		    jget_int(&o->l->rate_remaining, rate, "rateLimit",
			     "remaining", 0, 0, JSON_MAX_INT, err) < 0)
			return AA_ERR;
	}
	cJSON_ArrayForEach(node, nodes)
	{
		struct gh_pull_brief *b = ALLOC_PUSH(o->v, o->n, o->alloc);

		if (jget_int(&b->number, node, "pullRequests.nodes[]",
			     "number", 0, 1, INT32_MAX, err) < 0 ||
		    jget_sha(b->head_sha, node, "pullRequests.nodes[]",
			     "headRefOid", 0, err) < 0 ||
		    jget_time(&b->updated_at, node, "pullRequests.nodes[]",
			      "updatedAt", 0, err) < 0 ||
		    (o->probe && dec_brief_extra(b, node, err) < 0))
			return AA_ERR;
	}
	free(o->cursor);
	o->cursor = NULL;
	if (o->more &&
	    jget_str(&o->cursor, info, "pageInfo", "endCursor", 0, err) < 0)
		return AA_ERR;
	return AA_OK;
}

/* One listing (probe or plain) to the end, by the one pager. */
static int list_open(struct live *l, bool probe, struct gh_pull_brief **list,
                     size_t *n, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	struct listing o = {l, probe, NULL, 0, 0, true, NULL};
	struct gql_paging g = {probe ? probe_query : open_pulls_query,
			       listing_vars, listing_page, &o, &o.more,
			       &o.cursor, 0};
	int error;

	o.v = xcalloc(1, sizeof(*o.v));
	error = gql_pages(l, &g, &why);
	if (error == AA_ETOOBIG)
		buf_setf(err, "open pulls: %s", why.ptr);
	else if (error == AA_ERR)
		buf_setf(err, "POST /graphql: unexpected answer: %s", why.ptr);
	else if (error < 0)
		buf_setf(err, "%s", why.ptr); /* gql()'s own */
	free(o.cursor);
	buf_release(&why);
	if (error) {
		gh_briefs_free(o.v, o.n);
		*list = NULL;
		*n = 0;
		return AA_EAPI;
	}
	qsort(o.v, o.n, sizeof(*o.v), cmp_brief);
	*list = o.v;
	*n = o.n;
	return AA_OK;
}

/*
 * The probe reads parts of every open PR, so one PR's failure fails it:
 * then the plain listing (numbers and heads only) is read, and the sweep
 * reads each PR itself — the failure stays pinned to its PR.
 */
int live_open_pulls(struct github *gh, enum gh_listing what,
                    struct gh_pull_brief **list, size_t *n, struct buf *err)
{
	if (what == LISTING_PROBE &&
	    list_open(L(gh), true, list, n, err) == AA_OK)
		return AA_OK;
	return list_open(L(gh), false, list, n, err);
}

/* Remember that PR `pr` has `threads` review threads (live_prefetch). */
static void hint_threads(struct live *l, int64_t pr, int64_t threads)
{
	size_t i;

	for (i = 0; i < l->nhints; i++)
		if (l->hints[i].pr == pr)
			break;
	if (i == l->nhints) {
		ALLOC_GROW(l->hints, l->nhints + 1, l->ahints);
		l->nhints++;
	}
	l->hints[i].pr = pr;
	l->hints[i].threads = threads;
}

/* One details_query of list[0, n); a document with any error fills in
 * nothing (the selection then reads what it needs PR by PR). */
static void details_chunk(struct live *l, struct gh_pull_brief *const *list,
			  size_t n)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL),
		   err = BUF_INIT(BUF_MAX_SMALL);
	int64_t prs[LIVE_DETAIL_PRS];
	const cJSON *data, *repo;
	cJSON *root = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		prs[i] = list[i]->number;
	details_query(&q, prs, n);
	vars(l, &v, 0, NULL);
	if (gql_as(l, GQL_DETAILS, q.ptr, v.ptr, &root, &data, &err) < 0 ||
	    jget_obj(&repo, data, "data", "repository", 0, &err) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		char alias[32];
		int len = snprintf(alias, sizeof(alias), "p%zu", i);

		if (len < 0 || (size_t)len >= sizeof(alias) ||
		    dec_brief_details(list[i], json_get(repo, alias),
				      &err) < 0)
			continue;
		hint_threads(l, list[i]->number, list[i]->threads);
	}
out:
	cJSON_Delete(root);
	buf_release(&q);
	buf_release(&v);
	buf_release(&err);
}

void live_details(struct github *gh, struct gh_pull_brief *const *list,
		  size_t n)
{
	size_t from;

	for (from = 0; from < n; from += LIVE_DETAIL_PRS)
		details_chunk(L(gh), list + from,
			      n - from < LIVE_DETAIL_PRS ? n - from
							  : LIVE_DETAIL_PRS);
}

static int dec_label(void *ctx, const cJSON *data, struct buf *err)
{
	const cJSON *repo, *label;

	if (jget_obj(&repo, data, "data", "repository", 0, err) < 0 ||
	    jget_obj(&label, repo, "repository", "label", JNULL, err) < 0)
		return AA_ERR;
	*(bool *)ctx = label != NULL;
	return AA_OK;
}

int live_label_exists(struct github *gh, int64_t pr, const char *name,
                      bool *out, struct buf *err)
{
	struct live *l = L(gh);
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	int error;

	(void)pr;
	*out = false;
	vars_kv(l, &v, 0, "label", name);
	error = gql_read(l, label_query, v.ptr, dec_label, out, err);
	buf_release(&v);
	return error < 0 ? AA_EAPI : AA_OK;
}

/* GET compare/{a}...{b}: status, ahead_by, behind_by. */
static int compare(struct live *l, const char *a, const char *b, int64_t *ahead,
                   int64_t *behind, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error = AA_EAPI;

	buf_addf(&path, "/repos/%s/%s/compare/%s...%s?per_page=1", l->owner,
		 l->name, a, b);
	if (rest_get(l, l->read_http, path.ptr, "compare", &root, NULL, err) <
	    0)
		goto out;
	if (jget_int(ahead, root, "compare", "ahead_by", 0, 0, JSON_MAX_INT,
	             &why) < 0 ||
	    jget_int(behind, root, "compare", "behind_by", 0, 0, JSON_MAX_INT,
	             &why) < 0) {
		buf_setf(err, "GET compare: %s", why.ptr);
		goto out;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	return error;
}

/*
 * R2 for a PR of more than 250 commits (the list stops there): `sha` is a
 * commit of the PR when the head contains it and the base does not.
 */
/* A PR's head and base commits. */
struct heads {
	char head[SHA_BUF], base[SHA_BUF];
};

static int dec_heads(void *ctx, const cJSON *data, struct buf *err)
{
	struct heads *h = ctx;
	const cJSON *repo, *pr;

	if (jget_obj(&repo, data, "data", "repository", 0, err) < 0 ||
	    jget_obj(&pr, repo, "repository", "pullRequest", 0, err) < 0 ||
	    jget_sha(h->head, pr, "pullRequest", "headRefOid", 0, err) < 0 ||
	    jget_sha(h->base, pr, "pullRequest", "baseRefOid", 0, err) < 0)
		return AA_ERR;
	return AA_OK;
}

static int commit_in_long_pull(struct live *l, int64_t number, const char *sha,
                               bool *out, struct buf *err)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	struct heads h;
	int64_t ahead, behind;
	int error = AA_EAPI;

	vars(l, &v, number, NULL);
	if (gql_read(l, base_query, v.ptr, dec_heads, &h, err) < 0 ||
	    compare(l, sha, h.head, &ahead, &behind, err) < 0)
		goto out;
	*out = behind == 0; /* the head contains sha */
	if (*out) {
		if (compare(l, h.base, sha, &ahead, &behind, err) < 0)
			goto out;
		*out = ahead > 0; /* the base does not */
	}
	error = AA_OK;
out:
	buf_release(&v);
	return error;
}

int live_commit_in_pull(struct github *gh, int64_t number, const char *sha,
                        bool *out, struct buf *err)
{
	struct live *l = L(gh);
	struct snap_pull p;
	size_t i;
	int error;

	*out = false;
	error = bundle(l, number, PART_PULL | PART_COMMITS, &p, err);
	if (error < 0)
		return AA_EAPI;
	*out = strcmp(p.head_sha, sha) == 0;
	for (i = 0; i < p.ncommits && !*out; i++)
		*out = strcmp(p.commits[i], sha) == 0;
	i = p.ncommits;
	snap_pull_release(&p);
	if (*out || i < LIVE_COMMITS_CAP)
		return AA_OK;
	return commit_in_long_pull(l, number, sha, out, err);
}
