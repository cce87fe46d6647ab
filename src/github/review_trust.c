/*
 * review_trust.c - the trust inputs of U2 (PUBLISH.md §1): a sticky is
 * trusted only when every editor in its whole edit history (A5) is
 * review_login. The pull query reads whole histories only of the trusted
 * login's edited comments (verdict_history_needed); when review_login is
 * another login, its edited comments get theirs here: the comment's node
 * id (REST), then the history (history.c). A history that cannot be read
 * fails the comments part, as in pull.c.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/verdict.h"
#include "github/http.h"

/* The GraphQL node id of issue comment `id` (REST's node_id). */
static int comment_node(struct live *l, int64_t id, char **node,
                        struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	struct buf what = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error = AA_EAPI;

	*node = NULL;
	buf_addf(&path, "/repos/%s/%s/issues/comments/%lld", l->owner, l->name,
		 (long long)id);
	buf_addf(&what, "comment %lld", (long long)id);
	if (rest_get(l, l->read_http, path.ptr, what.ptr, &root, NULL, err) < 0)
		goto out;
	if (jget_str(node, root, "comment", "node_id", 0, &why) < 0) {
		buf_setf(err, "GET %s: %s", what.ptr, why.ptr);
		goto out;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&what);
	buf_release(&path);
	buf_release(&why);
	return error;
}

/*
 * U2 (A5) needs the whole edit history of review_login's edited comments
 * (a sticky's trust). The pull read has it only for the trusted login's
 * (verdict_history_needed); when review_login is another login its edited
 * comments are read here: the node id (REST), then the history (history.c).
 */
static int review_login_edits(struct live *l, int64_t number,
                              struct snap_pull *p, struct buf *err)
{
	struct history_reads pending = {NULL, 0, 0};
	int error = AA_OK;

	for (size_t i = 0; i < p->ncomments && !error; i++) {
		const struct snap_comment *c = &p->comments[i];
		struct history_read *t;

		if (!c->edited || c->nedits ||
		    !policy_is_review_login(l->policy, c->author) ||
		    verdict_history_needed(c, l->policy))
			continue;
		t = ALLOC_PUSH(pending.v, pending.n, pending.alloc);
		t->comment = c->id;
		error = comment_node(l, c->id, &t->node, err);
	}
	if (!error && pending.n)
		error = read_edits(l, number, p, &pending, err);
	history_reads_release(&pending);
	return error;
}

int live_pull_review(struct github *gh, int64_t number, unsigned parts,
                     struct gh_pull *out, struct buf *err)
{
	struct live *l = L(gh);
	struct snap_pull *p = &out->pull;
	int error = live_pull(gh, number, parts, out, err);

	if (error < 0 || !(out->ok & PART_COMMENTS) ||
	    review_login_edits(l, number, p, err) == AA_OK)
		return error;
	/* A history that cannot be read fails the comments part (A5). */
	for (size_t i = 0; i < p->ncomments; i++)
		snap_comment_release(&p->comments[i]);
	free(p->comments);
	p->comments = NULL;
	p->ncomments = 0;
	out->ok &= ~PART_COMMENTS;
	out->failed |= PART_COMMENTS;
	return error;
}
