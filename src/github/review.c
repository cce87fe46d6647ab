/*
 * review.c - the live port's pr-review reads (PUBLISH.md §10), over REST:
 * a PR's review comments and files (every page) and compare. Reads retry
 * like every read (http.c); the pr-review's writes are writes.c's, U2's
 * edit histories review_trust.c's.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "github/http.h"

/* One item of a list page; AA_ERR with the message in err. */
typedef int (*item_fn)(void *ctx, const cJSON *item, struct buf *err);

/* REST's user objects: the login already carries "[bot]" for bots; NULL
 * for a deleted account. */
static int dec_user(char **out, const cJSON *obj, const char *path,
		    const char *key, struct buf *err)
{
	const cJSON *who;

	if (jget_obj(&who, obj, path, key, JNULL, err) < 0)
		return AA_ERR;
	return who ? jget_str(out, who, key, "login", 0, err) : AA_OK;
}

struct items {
	item_fn fn;
	void *ctx;
};

/* A page of a list: `fn` on each of its items. */
static int each_item(const cJSON *root, void *ctx, struct buf *err)
{
	const struct items *it = ctx;
	const cJSON *item;

	if (!cJSON_IsArray(root)) {
		buf_setf(err, "expected an array");
		return AA_ERR;
	}
	cJSON_ArrayForEach (item, root) {
		if (it->fn(it->ctx, item, err) < 0)
			return AA_ERR;
	}
	return REST_MORE;
}

/*
 * GET `path` and every further page, calling `fn` on each item of each
 * page's array. AA_ENOTFOUND when the first page is a 404, AA_EAPI on any
 * other failure; the message names `what`.
 */
static int get_pages(struct live *l, const char *path, const char *what,
                     item_fn fn, void *ctx, struct buf *err)
{
	struct items it = {fn, ctx};
	int error =
	    rest_pages(l, path, what, LIVE_MAX_PAGES, each_item, &it, err);

	return error == AA_OK || error == AA_ENOTFOUND ? error : AA_EAPI;
}

/* --- review comments --- */

struct rc_list {
	struct snap_review_comment *v;
	size_t n, alloc;
};

static int dec_review_comment(void *ctx, const cJSON *o, struct buf *err)
{
	struct rc_list *list = ctx;
	struct snap_review_comment *c =
		ALLOC_PUSH(list->v, list->n, list->alloc);
	const char *path = "review_comments[]";

	if (jget_int(&c->id, o, path, "id", 0, 1, JSON_MAX_INT, err) < 0 ||
	    dec_user(&c->author, o, path, "user", err) < 0 ||
	    jget_str(&c->body, o, path, "body", 0, err) < 0 ||
	    jget_str(&c->path, o, path, "path", 0, err) < 0 ||
	    /* An outdated comment has no line (null, or left out). */
	    jget_int(&c->line, o, path, "line", JOPT | JNULL, 1, INT32_MAX,
		     err) < 0 ||
	    jget_int(&c->start_line, o, path, "start_line", JOPT | JNULL, 1,
		     INT32_MAX, err) < 0 ||
	    jget_str(&c->side, o, path, "side", JOPT | JNULL, err) < 0 ||
	    jget_sha(c->commit_id, o, path, "commit_id", 0, err) < 0 ||
	    jget_int(&c->in_reply_to, o, path, "in_reply_to_id", JOPT | JNULL,
		     1, JSON_MAX_INT, err) < 0 ||
	    jget_int(&c->review_id, o, path, "pull_request_review_id",
		     JOPT | JNULL, 1, JSON_MAX_INT, err) < 0 ||
	    jget_time(&c->created_at, o, path, "created_at", 0, err) < 0 ||
	    jget_str(&c->html_url, o, path, "html_url", 0, err) < 0)
		return AA_ERR;
	return AA_OK;
}

static int cmp_rc(const void *a, const void *b)
{
	const struct snap_review_comment *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void rc_list_release(struct rc_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		snap_review_comment_release(&list->v[i]);
	free(list->v);
	list->v = NULL;
	list->n = 0;
}

int live_review_comments(struct github *gh, int64_t pr,
                         struct snap_review_comment **out, size_t *n,
                         struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), what = BUF_INIT(BUF_MAX_SMALL);
	struct rc_list list = {xcalloc(1, sizeof(*list.v)), 0, 0};
	int error;

	buf_addf(&path, "/repos/%s/%s/pulls/%lld/comments?per_page=100",
		 l->owner, l->name, (long long)pr);
	buf_addf(&what, "review comments of PR #%lld", (long long)pr);
	error =
	    get_pages(l, path.ptr, what.ptr, dec_review_comment, &list, err);
	if (error < 0) {
		rc_list_release(&list);
	} else {
		/* Ascending id, whatever order the pages came in. */
		qsort(list.v, list.n, sizeof(*list.v), cmp_rc);
	}
	*out = list.v;
	*n = list.n;
	buf_release(&path);
	buf_release(&what);
	return error;
}

/* --- files --- */

struct file_list {
	struct snap_file *v;
	size_t n, alloc;
};

static int dec_file(void *ctx, const cJSON *o, struct buf *err)
{
	struct file_list *list = ctx;
	struct snap_file *f = ALLOC_PUSH(list->v, list->n, list->alloc);
	const char *path = "files[]";

	/* No patch: a binary file, or a diff too large to show. */
	if (jget_str(&f->filename, o, path, "filename", 0, err) < 0 ||
	    jget_str(&f->status, o, path, "status", 0, err) < 0 ||
	    jget_str(&f->patch, o, path, "patch", JOPT | JNULL, err) < 0)
		return AA_ERR;
	return AA_OK;
}

static int live_files(struct github *gh, int64_t pr, struct snap_file **out,
                      size_t *n, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), what = BUF_INIT(BUF_MAX_SMALL);
	struct file_list list = {xcalloc(1, sizeof(*list.v)), 0, 0};
	int error;

	buf_addf(&path, "/repos/%s/%s/pulls/%lld/files?per_page=100", l->owner,
		 l->name, (long long)pr);
	buf_addf(&what, "files of PR #%lld", (long long)pr);
	error = get_pages(l, path.ptr, what.ptr, dec_file, &list, err);
	if (error < 0) {
		for (size_t i = 0; i < list.n; i++)
			snap_file_release(&list.v[i]);
		free(list.v);
		list.v = NULL;
		list.n = 0;
	}
	*out = list.v;
	*n = list.n;
	buf_release(&path);
	buf_release(&what);
	return error;
}

/* --- compare --- */

/* A ref or SHA in a path: bytes outside [A-Za-z0-9-._~/] percent-encoded
 * (a branch name may hold '#', '%', '?', '+'). */
static void add_ref(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (is_alnum(ch) || strchr("-._~/", ch))
			buf_addch(b, (char)ch);
		else
			buf_addf(b, "%%%02X", ch);
	}
}

static int dec_compare(const cJSON *root, struct gh_compare *out,
		       struct buf *err)
{
	static const struct {
		const char *name;
		enum gh_compare_status status;
	} statuses[] = {
		{"ahead", CMP_AHEAD},
		{"behind", CMP_BEHIND},
		{"identical", CMP_IDENTICAL},
		{"diverged", CMP_DIVERGED},
	};
	const cJSON *mb;
	char *status = NULL;
	size_t i;
	int error = AA_ERR;

	if (jget_str(&status, root, "compare", "status", 0, err) < 0 ||
	    jget_obj(&mb, root, "compare", "merge_base_commit", JNULL, err) < 0 ||
	    (mb && jget_sha(out->merge_base, mb, "merge_base_commit", "sha", 0,
			    err) < 0))
		goto out;
	for (i = 0; i < ARRAY_SIZE(statuses); i++)
		if (strcmp(status, statuses[i].name) == 0)
			break;
	if (i == ARRAY_SIZE(statuses)) {
		buf_setf(err, "compare.status: unexpected \"%s\"", status);
		goto out;
	}
	out->status = statuses[i].status;
	error = AA_OK;
out:
	free(status);
	return error;
}

static int live_compare(struct github *gh, int64_t pr, const char *base,
                        const char *head, struct gh_compare *out,
                        struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           dec = BUF_INIT(BUF_MAX_SMALL),
	           what = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error;

	(void)pr;
	memset(out, 0, sizeof(*out));
	/* per_page=1: the status and merge base, not the commit list. */
	buf_addf(&path, "/repos/%s/%s/compare/", l->owner, l->name);
	add_ref(&path, base);
	buf_adds(&path, "...");
	add_ref(&path, head);
	buf_adds(&path, "?per_page=1");
	buf_addf(&what, "compare %.12s...%.12s", base, head);
	error = rest_get(l, l->read_http, path.ptr, what.ptr, &root, NULL, err);
	if (error < 0) {
		if (error != AA_ENOTFOUND)
			error = AA_EAPI;
		goto out;
	}
	if (dec_compare(root, out, &dec) < 0) {
		buf_setf(err, "GET %s: %s", what.ptr, dec.ptr);
		memset(out, 0, sizeof(*out));
		error = AA_EAPI;
	}
out:
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&dec);
	buf_release(&what);
	return error;
}

const struct github_review_ops live_review_ops = {
    .review_pull = live_review_pull,
    .review_comments = live_review_comments,
    .files = live_files,
    .compare = live_compare,
    .comment_create = live_comment_create,
    .comment_update = live_comment_update,
    .comment_delete = live_comment_delete,
    .review_post = live_review_post,
    .review_pull_beside = live_review_pull_beside,
};
