/*
 * history.c - edit histories (A5). T2 covers a comment's whole edit
 * history, which the pull query does not carry: it is read only for the
 * comments decode.c lists (edited, by the trusted login), so the unedited
 * happy path keeps its single read — LIVE_EDIT_IDS comments a query, then
 * each one's further pages. A history that cannot be read fails the
 * comments part. Those comments are remembered per PR (edit_hint): the
 * next read of that PR asks for their histories in its own document.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* One page of a history: userContentEdits{nodes pageInfo} of `obj`. */
int dec_edits(struct snap_comment *c, const cJSON *obj, bool *more,
	      char **cursor, struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const char *path = "userContentEdits.nodes[]";
	const cJSON *nodes, *n;

	if (dec_conn(&nodes, more, cursor, obj, "userContentEdits", err) < 0)
		return AA_ERR;
	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_edit *e = ALLOC_PUSH(c->edits, c->nedits, alloc);

		if (jget_time(&e->edited_at, n, path, "editedAt", 0, err) < 0 ||
		    dec_login(&e->editor, n, path, "editor", err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/* Is `node` an IssueComment object (with node id `id` when not NULL)? */
int dec_comment_node(const cJSON *node, const char *id,
		     struct buf *err)
{
	char *type = NULL, *got = NULL;
	int error = AA_ERR;

	if (!cJSON_IsObject(node)) {
		buf_setf(err, "a comment's node: missing");
		return AA_ERR;
	}
	if (jget_str(&type, node, "node", "__typename", 0, err) < 0 ||
	    (id && jget_str(&got, node, "node", "id", 0, err) < 0))
		goto out;
	if (strcmp(type, "IssueComment") != 0 || (id && strcmp(got, id) != 0)) {
		buf_setf(err, "node: not the comment asked for");
		goto out;
	}
	error = AA_OK;
out:
	free(type);
	free(got);
	return error;
}

static struct snap_comment *comment_by_id(struct snap_pull *p, int64_t id)
{
	size_t i;

	for (i = 0; i < p->ncomments; i++)
		if (p->comments[i].id == id)
			return &p->comments[i];
	return NULL;
}

int cmp_edit(const void *a, const void *b)
{
	const struct snap_edit *x = a, *y = b;

	return (x->edited_at > y->edited_at) - (x->edited_at < y->edited_at);
}

/* A history being read: the pager's ctx. */
struct history_paging {
	struct snap_comment *c;
	const char *node;
	bool more;
	char **cursor;
};

static void history_vars(void *ctx, struct buf *v, const char *cursor)
{
	struct history_paging *h = ctx;

	buf_adds(v, "{\"id\":");
	json_quote(v, h->node, strlen(h->node));
	buf_adds(v, ",\"after\":");
	json_quote(v, cursor, strlen(cursor));
	buf_addch(v, '}');
}

static int history_page(void *ctx, const cJSON *data, struct buf *err)
{
	struct history_paging *h = ctx;
	const cJSON *obj;

	if (jget_obj(&obj, data, "data", "node", 0, err) < 0 ||
	    dec_comment_node(obj, NULL, err) < 0 ||
	    dec_edits(h->c, obj, &h->more, h->cursor, err) < 0)
		return AA_ERR;
	return AA_OK;
}

int edits_pages(struct live *l, struct snap_comment *c, const char *node,
		char **cursor, struct buf *err)
{
	struct history_paging h = {c, node, true, cursor};
	struct gql_paging g = {edits_page_query, history_vars, history_page,
			       &h, &h.more, cursor, 1};

	return gql_pages(l, &g, err) < 0 ? AA_EAPI : AA_OK;
}

/* Read the histories of pending[from, from + n) into their comments of `p`. */
static int edits_chunk(struct live *l, struct snap_pull *p,
		       const struct history_read *pending, size_t n, struct buf *err)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *nodes;
	cJSON *root = NULL;
	char *cursor = NULL;
	bool more;
	size_t k;
	int error = AA_EAPI;

	buf_adds(&v, "{\"ids\":[");
	for (k = 0; k < n; k++) {
		if (k)
			buf_addch(&v, ',');
		json_quote(&v, pending[k].node, strlen(pending[k].node));
	}
	buf_adds(&v, "]}");
	if (gql(l, edits_query, v.ptr, &root, &data, err) < 0)
		goto out;
	if (jget_arr(&nodes, data, "data", "nodes", 0, err) < 0)
		goto out;
	if ((size_t)cJSON_GetArraySize(nodes) != n) {
		buf_setf(err, "nodes: %d answers to %zu ids",
			 cJSON_GetArraySize(nodes), n);
		goto out;
	}
	for (k = 0; k < n; k++) {
		const cJSON *node = cJSON_GetArrayItem(nodes, (int)k);
		struct snap_comment *c = comment_by_id(p, pending[k].comment);

		if (!c || c->nedits) {
			buf_setf(err, "comment %lld: read twice",
				 (long long)pending[k].comment);
			goto out;
		}
		if (dec_comment_node(node, pending[k].node, err) < 0 ||
		    dec_edits(c, node, &more, &cursor, err) < 0 ||
		    (more && edits_pages(l, c, pending[k].node, &cursor, err) < 0))
			goto out;
		/* Oldest first (the model's order); GitHub's is not promised. */
		if (c->nedits > 1)
			qsort(c->edits, c->nedits, sizeof(*c->edits), cmp_edit);
	}
	error = AA_OK;
out:
	free(cursor);
	cJSON_Delete(root);
	buf_release(&v);
	return error;
}

/*
 * A5: the whole edit history of every comment in `pending`, into its comment
 * of `p` (LIVE_EDIT_IDS comments a query, then further pages one by one).
 * AA_EAPI when any cannot be read: the comments part has failed.
 */
int read_edits(struct live *l, int64_t number, struct snap_pull *p,
               const struct history_reads *pending, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	size_t from, n;
	int error = AA_OK;

	for (from = 0; from < pending->n && !error; from += n) {
		n = pending->n - from < LIVE_EDIT_IDS ? pending->n - from
						   : LIVE_EDIT_IDS;
		if (edits_chunk(l, p, pending->v + from, n, &why) < 0) {
			buf_setf(err,
			         "edit history of a comment of PR "
			         "#%lld: %s",
			         (long long)number, why.ptr);
			error = AA_EAPI;
		}
	}
	buf_release(&why);
	return error;
}

void hint_edits(struct live *l, int64_t pr,
		const struct history_reads *pending)
{
	struct edit_hint *h = NULL;
	size_t i;

	for (i = 0; i < l->nedit_hints; i++)
		if (l->edit_hints[i].pr == pr)
			h = &l->edit_hints[i];
	if (!h) {
		ALLOC_GROW(l->edit_hints, l->nedit_hints + 1, l->aedit_hints);
		h = &l->edit_hints[l->nedit_hints++];
		memset(h, 0, sizeof(*h));
		h->pr = pr;
	}
	strv_free(h->nodes, h->n);
	h->n = pending->n < LIVE_HINT_IDS ? pending->n : LIVE_HINT_IDS;
	h->nodes = xcalloc(h->n ? h->n : 1, sizeof(char *));
	for (i = 0; i < h->n; i++)
		h->nodes[i] = xstrdup(pending->v[i].node);
}

const struct edit_hint *edit_hint_of(const struct live *l, int64_t pr)
{
	size_t i;

	for (i = 0; i < l->nedit_hints; i++)
		if (l->edit_hints[i].pr == pr && l->edit_hints[i].n)
			return &l->edit_hints[i];
	return NULL;
}

void hint_vars(struct buf *v, const struct edit_hint *h)
{
	size_t i;

	if (v->len && v->ptr[v->len - 1] == '}')
		v->ptr[--v->len] = '\0'; /* reopen the object */
	buf_adds(v, ",\"ids\":[");
	for (i = 0; i < h->n; i++) {
		if (i)
			buf_addch(v, ',');
		json_quote(v, h->nodes[i], strlen(h->nodes[i]));
	}
	buf_adds(v, "]}");
}

/* The node of `answer` with id `id`, or NULL (GitHub answers null for an
 * id that no longer resolves). */
static const cJSON *answer_node(const cJSON *answer, const char *id)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, answer)
	{
		const cJSON *got = json_get(n, "id");

		if (json_string(got) && strcmp(json_string(got), id) == 0)
			return n;
	}
	return NULL;
}

int take_hinted_edits(struct live *l, struct snap_pull *p,
		      struct history_reads *pending, const cJSON *answer,
		      struct buf *err)
{
	size_t i, k = 0;
	int error = AA_OK;

	if (!cJSON_IsArray(answer)) {
		buf_setf(err, "edits: not a list");
		return AA_ERR;
	}
	for (i = 0; i < pending->n; i++) {
		struct history_read *r = &pending->v[i];
		const cJSON *node = error ? NULL : answer_node(answer, r->node);
		struct snap_comment *c = node ? comment_by_id(p, r->comment) : NULL;
		char *cursor = NULL;
		bool more = false;

		if (!c || c->nedits) {
			pending->v[k++] = *r; /* read_edits reads it */
			continue;
		}
		if (dec_comment_node(node, r->node, err) < 0 ||
		    dec_edits(c, node, &more, &cursor, err) < 0 ||
		    (more && edits_pages(l, c, r->node, &cursor, err) < 0))
			error = AA_ERR;
		else if (c->nedits > 1)
			qsort(c->edits, c->nedits, sizeof(*c->edits), cmp_edit);
		free(cursor);
		free(r->node);
	}
	pending->n = k;
	return error;
}

void forget_edit_hint(struct live *l, int64_t pr)
{
	size_t i;

	for (i = 0; i < l->nedit_hints; i++)
		if (l->edit_hints[i].pr == pr) {
			strv_free(l->edit_hints[i].nodes, l->edit_hints[i].n);
			l->edit_hints[i].nodes = NULL;
			l->edit_hints[i].n = 0;
		}
}

void edit_hints_release(struct live *l)
{
	size_t i;

	for (i = 0; i < l->nedit_hints; i++)
		strv_free(l->edit_hints[i].nodes, l->edit_hints[i].n);
	free(l->edit_hints);
	l->edit_hints = NULL;
	l->nedit_hints = l->aedit_hints = 0;
}
