/*
 * decode.c - the live port's strict decoding of GitHub's answers into the
 * model: a missing or mistyped field fails the read, nothing is guessed.
 * Logins come out the way REST shows them ("name[bot]" for a bot), so no
 * GitHub App can pass for the trusted login. Comments of the trusted login
 * that were edited are listed for their edit history (A5, history.c).
 * Memory only, but for keeping a bundle's head contexts in the port.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/verdict.h"
#include "base/util.h"
#include "core/policy.h"
#include "formats/sweepstate.h"

/*
 * author / editor / actor / creator {__typename login}: NULL for a deleted
 * account. GraphQL gives a bot's login without the "[bot]" REST shows, so
 * a GitHub App named like the trusted login would look like it: the type
 * is put back into the login ("name[bot]"), and any other kind of account
 * gets a suffix no user login can have.
 */
int dec_login(char **out, const cJSON *obj, const char *path,
	      const char *key, struct buf *err)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *who;
	char *type = NULL, *login = NULL;
	int error = AA_ERR;

	if (jget_obj(&who, obj, path, key, JNULL, err) < 0)
		return AA_ERR;
	if (!who)
		return AA_OK;
	if (jget_str(&type, who, key, "__typename", 0, err) < 0 ||
	    jget_str(&login, who, key, "login", 0, err) < 0)
		goto out;
	if (strcmp(type, "User") == 0)
		buf_adds(&b, login);
	else if (strcmp(type, "Bot") == 0)
		buf_addf(&b, "%s[bot]", login);
	else
		buf_addf(&b, "%s[%s]", login, type);
	free(*out);
	*out = buf_detach(&b, NULL);
	error = AA_OK;
out:
	free(type);
	free(login);
	buf_release(&b);
	return error;
}

/* REST's user objects: the login already carries "[bot]" for bots. */
static int dec_rest_login(char **out, const cJSON *obj, const char *path,
			  const char *key, struct buf *err)
{
	const cJSON *who;

	if (jget_obj(&who, obj, path, key, JNULL, err) < 0)
		return AA_ERR;
	return who ? jget_str(out, who, key, "login", 0, err) : AA_OK;
}

/* A BigInt id, sent as a string of digits. */
static int dec_bigint(int64_t *out, const cJSON *obj, const char *path,
		      const char *key, struct buf *err)
{
	char *s = NULL;
	int error = AA_ERR;

	if (jget_str(&s, obj, path, key, 0, err) < 0)
		goto out;
	if (parse_decimal(out, s, strlen(s), INT64_MAX / 2) < 0 || *out < 1) {
		buf_setf(err, "%s.%s: expected a positive integer", path, key);
		goto out;
	}
	error = AA_OK;
out:
	free(s);
	return error;
}

/* nodes and pageInfo of a connection. */
int dec_conn(const cJSON **nodes, bool *more, char **cursor,
	     const cJSON *obj, const char *key, struct buf *err)
{
	const cJSON *conn, *info;

	*more = false;
	if (jget_obj(&conn, obj, "pullRequest", key, 0, err) < 0 ||
	    jget_arr(nodes, conn, key, "nodes", 0, err) < 0 ||
	    jget_obj(&info, conn, key, "pageInfo", 0, err) < 0 ||
	    jget_bool(more, info, key, "hasNextPage", 0, err) < 0)
		return AA_ERR;
	free(*cursor);
	*cursor = NULL;
	if (*more && jget_str(cursor, info, key, "endCursor", 0, err) < 0)
		return AA_ERR;
	return AA_OK;
}

int dec_default_branch(char **out, const cJSON *repo, struct buf *err)
{
	const cJSON *ref;

	*out = NULL;
	if (jget_obj(&ref, repo, "repository", "defaultBranchRef", JNULL,
		     err) < 0)
		return AA_ERR;
	if (ref && jget_str(out, ref, "defaultBranchRef", "name", 0, err) < 0)
		return AA_ERR;
	return AA_OK;
}

int dec_pull_node(const cJSON **repo, const cJSON **pr, int64_t number,
                  const cJSON *data, struct buf *err)
{
	if (jget_obj(repo, data, "data", "repository", 0, err) < 0 ||
	    jget_obj(pr, *repo, "repository", "pullRequest", JNULL, err) < 0)
		return AA_ERR;
	if (!*pr) {
		buf_setf(err, "PR #%lld: null without an error",
		         (long long)number);
		return AA_EAPI;
	}
	return AA_OK;
}

int dec_pull_fields(struct snap_pull *p, const cJSON *o,
		    struct buf *err)
{
	char *state = NULL;
	const cJSON *repo;
	int error = AA_ERR;

	if (jget_int(&p->number, o, "pullRequest", "number", 0, 1, INT32_MAX,
		     err) < 0 ||
	    jget_str(&state, o, "pullRequest", "state", 0, err) < 0 ||
	    jget_bool(&p->merged, o, "pullRequest", "merged", 0, err) < 0 ||
	    jget_bool(&p->draft, o, "pullRequest", "isDraft", 0, err) < 0 ||
	    dec_login(&p->author, o, "pullRequest", "author", err) < 0 ||
	    jget_sha(p->head_sha, o, "pullRequest", "headRefOid", 0, err) < 0 ||
	    jget_str(&p->head_ref, o, "pullRequest", "headRefName", 0, err) < 0 ||
	    jget_obj(&repo, o, "pullRequest", "headRepository", JNULL, err) < 0 ||
	    jget_str(&p->base_ref, o, "pullRequest", "baseRefName", 0, err) < 0 ||
	    jget_sha(p->base_sha, o, "pullRequest", "baseRefOid", JOPT | JNULL,
		     err) < 0 ||
	    jget_time(&p->updated_at, o, "pullRequest", "updatedAt", 0, err) < 0)
		goto out;
	if (strcmp(state, "OPEN") != 0 && strcmp(state, "CLOSED") != 0 &&
	    strcmp(state, "MERGED") != 0) {
		buf_setf(err, "pullRequest.state: unexpected \"%s\"", state);
		goto out;
	}
	p->state = xstrdup(strcmp(state, "OPEN") == 0 ? "open" : "closed");
	if (strcmp(state, "MERGED") == 0)
		p->merged = true;
	/* A deleted head repository: treat as a fork (never ours). */
	if (repo) {
		if (jget_str(&p->head_repo, repo, "headRepository",
			     "nameWithOwner", 0, err) < 0)
			goto out;
	} else {
		p->head_repo = xstrdup("");
	}
	error = AA_OK;
out:
	free(state);
	return error;
}

static int dec_labels(struct snap_pull *p, const cJSON *nodes, struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		char **slot = ALLOC_PUSH(p->labels, p->nlabels, alloc);

		if (jget_str(slot, n, "labels.nodes[]", "name", 0, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

void history_reads_release(struct history_reads *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].node);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* Comments of a page; those whose histories must be read go to `pending`. */
static int dec_comments(const struct live *l, struct snap_pull *p,
			const cJSON *nodes, struct history_reads *pending,
			struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const char *path = "comments.nodes[]";
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_comment *c =
			ALLOC_PUSH(p->comments, p->ncomments, alloc);
		struct history_read *t;

		if (dec_bigint(&c->id, n, path, "fullDatabaseId", err) < 0 ||
		    dec_login(&c->author, n, path, "author", err) < 0 ||
		    jget_str(&c->body, n, path, "body", 0, err) < 0 ||
		    jget_time(&c->created_at, n, path, "createdAt", 0, err) < 0 ||
		    jget_time(&c->edited_at, n, path, "lastEditedAt", JNULL,
			      err) < 0 ||
		    dec_login(&c->edited_by, n, path, "editor", err) < 0 ||
		    jget_str(&c->html_url, n, path, "url", 0, err) < 0)
			return AA_ERR;
		c->body_len = strlen(c->body);
		c->edited = json_has(n, "lastEditedAt") || c->edited_by != NULL;
		if (!verdict_history_needed(c, l->policy)) /* core decides */
			continue;
		t = ALLOC_PUSH(pending->v, pending->n, pending->alloc);
		t->comment = c->id;
		if (jget_str(&t->node, n, path, "id", 0, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/*
 * Timeline events carry no usable id in GraphQL (UnlabeledEvent has no
 * databaseId): they are numbered by their place in the chronological
 * list, which is the order "newest" means (ids only compare events of the
 * same list).
 */
static int dec_timeline(struct snap_pull *p, const cJSON *nodes,
			struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const char *path = "timelineItems.nodes[]";
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		char *type = NULL;
		struct snap_event *e =
			ALLOC_PUSH(p->timeline, p->ntimeline, alloc);
		const cJSON *label;

		e->id = (int64_t)p->ntimeline;
		if (jget_str(&type, n, path, "__typename", 0, err) < 0)
			return AA_ERR;
		if (strcmp(type, "UnlabeledEvent") == 0) {
			e->kind = TL_UNLABELED;
			e->event = xstrdup("unlabeled");
		} else if (strcmp(type, "LabeledEvent") == 0) {
			e->kind = TL_LABELED; /* A10: the hold's other half */
			e->event = xstrdup("labeled");
		} else if (strcmp(type, "BaseRefChangedEvent") == 0) {
			e->kind = TL_BASE_REF_CHANGED;
			e->event = xstrdup("base_ref_changed");
		} else {
			buf_setf(err, "%s: unexpected %s", path, type);
			free(type);
			return AA_ERR;
		}
		free(type);
		if (dec_login(&e->actor, n, path, "actor", err) < 0 ||
		    jget_time(&e->created_at, n, path, "createdAt", 0, err) < 0)
			return AA_ERR;
		if ((e->kind == TL_UNLABELED || e->kind == TL_LABELED) &&
		    (jget_obj(&label, n, path, "label", 0, err) < 0 ||
		     jget_str(&e->label, label, "label", "name", 0, err) < 0))
			return AA_ERR;
	}
	return AA_OK;
}

static int dec_threads(struct snap_pull *p, const cJSON *nodes,
		       struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const char *path = "reviewThreads.nodes[]";
	const cJSON *n, *comments, *first_nodes, *first;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_thread *t =
			ALLOC_PUSH(p->threads, p->nthreads, alloc);

		if (jget_str(&t->id, n, path, "id", 0, err) < 0 ||
		    jget_bool(&t->resolved, n, path, "isResolved", 0, err) < 0 ||
		    jget_obj(&comments, n, path, "comments", 0, err) < 0 ||
		    jget_int(&t->comments, comments, "comments", "totalCount", 0,
			     0, INT32_MAX, err) < 0 ||
		    jget_arr(&first_nodes, comments, "comments", "nodes", 0,
			     err) < 0)
			return AA_ERR;
		first = cJSON_GetArrayItem(first_nodes, 0);
		if (first && (dec_login(&t->author, first, "comments.nodes[0]",
					"author", err) < 0 ||
			      jget_str(&t->url, first, "comments.nodes[0]",
				       "url", JOPT | JNULL, err) < 0))
			return AA_ERR;
		/* A reason names the thread by this link; anything that is no
		 * link leaves the node id to name it. */
		if (t->url && strncmp(t->url, "https://", 8) != 0 &&
		    strncmp(t->url, "http://", 7) != 0) {
			free(t->url);
			t->url = NULL;
		}
	}
	return AA_OK;
}

static int dec_reviews(struct snap_pull *p, const cJSON *nodes,
		       struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const char *path = "reviews.nodes[]";
	const cJSON *n, *commit;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_review *r =
			ALLOC_PUSH(p->reviews, p->nreviews, alloc);

		if (dec_bigint(&r->id, n, path, "fullDatabaseId", err) < 0 ||
		    dec_login(&r->author, n, path, "author", err) < 0 ||
		    jget_str(&r->state, n, path, "state", 0, err) < 0 ||
		    jget_obj(&commit, n, path, "commit", JNULL, err) < 0 ||
		    (commit && jget_sha(r->commit_id, commit, "commit", "oid", 0,
					err) < 0) ||
		    jget_time(&r->submitted_at, n, path, "submittedAt", JNULL,
			      err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

static int dec_commits(struct snap_pull *p, const cJSON *nodes,
		       struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *n, *commit;

	cJSON_ArrayForEach(n, nodes)
	{
		char(*slot)[SHA_BUF] =
			ALLOC_PUSH(p->commits, p->ncommits, alloc);

		if (jget_obj(&commit, n, "commits.nodes[]", "commit", 0, err) < 0 ||
		    jget_sha(*slot, commit, "commit", "oid", 0, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/* One page of the connection of `part`; comments may add to `pending`. */
int dec_nodes(const struct live *l, struct snap_pull *p, unsigned part,
	      const cJSON *nodes, struct history_reads *pending,
	      struct buf *err)
{
	switch (part) {
	case PART_LABELS:
		return dec_labels(p, nodes, err);
	case PART_COMMENTS:
		return dec_comments(l, p, nodes, pending, err);
	case PART_TIMELINE:
		return dec_timeline(p, nodes, err);
	case PART_THREADS:
		return dec_threads(p, nodes, err);
	case PART_REVIEWS:
		return dec_reviews(p, nodes, err);
	default:
		return dec_commits(p, nodes, err);
	}
}

/* A head commit's newest status per context: `commit` is the object with
 * its oid and status. Not the head (or none): *valid stays false. */
static int dec_commit_contexts(const cJSON *commit, const char *head,
			       struct snap_statuses *out, bool *valid,
			       struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *status, *contexts, *c;
	char oid[SHA_BUF];

	if (jget_sha(oid, commit, "commit", "oid", 0, err) < 0)
		return AA_ERR;
	if (strcmp(oid, head) != 0)
		return AA_OK;
	if (jget_obj(&status, commit, "commit", "status", JNULL, err) < 0)
		return AA_ERR;
	memcpy(out->sha, head, SHA_BUF);
	out->v = xcalloc(1, sizeof(*out->v));
	if (status) {
		if (jget_arr(&contexts, status, "status", "contexts", 0, err) < 0)
			goto fail;
		cJSON_ArrayForEach(c, contexts)
		{
			struct snap_status *x =
				ALLOC_PUSH(out->v, out->n, alloc);
			char *state = NULL;
			size_t i;

			if (jget_str(&x->context, c, "contexts[]", "context", 0,
				     err) < 0 ||
			    jget_str(&state, c, "contexts[]", "state", 0, err) < 0 ||
			    jget_str(&x->description, c, "contexts[]",
				     "description", JNULL, err) < 0 ||
			    jget_time(&x->created_at, c, "contexts[]", "createdAt",
				      0, err) < 0 ||
			    jget_str(&x->target_url, c, "contexts[]", "targetUrl",
				     JNULL, err) < 0 ||
			    dec_login(&x->creator, c, "contexts[]", "creator",
				      err) < 0) {
				free(state);
				goto fail;
			}
			for (i = 0; state[i]; i++)
				state[i] = (char)to_lower((unsigned char)state[i]);
			x->state = state;
			if (!x->description)
				x->description = xstrdup("");
		}
	}
	*valid = true;
	return AA_OK;
fail:
	snap_statuses_release(out);
	return AA_ERR;
}

/*
 * headStatus:commits(last:1){…status{contexts{…}}} of a PR node: the head's
 * newest status per context. *valid is false when that commit is not the
 * head (over 250 commits).
 */
int dec_contexts(const cJSON *pr, const char *head,
		 struct snap_statuses *out, bool *valid, struct buf *err)
{
	const cJSON *hs, *nodes, *commit;

	memset(out, 0, sizeof(*out));
	*valid = false;
	if (jget_obj(&hs, pr, "pullRequest", "headStatus", 0, err) < 0 ||
	    jget_arr(&nodes, hs, "headStatus", "nodes", 0, err) < 0)
		return AA_ERR;
	commit = json_get(cJSON_GetArrayItem(nodes, 0), "commit");
	if (!commit) {
		buf_setf(err, "headStatus.nodes[0].commit: missing");
		return AA_ERR;
	}
	return dec_commit_contexts(commit, head, out, valid, err);
}

/*
 * The listing's contexts: through the head branch (headRef.target), which
 * costs no connection. No branch (deleted), not a commit, or a branch
 * that moved past headRefOid: not known (*valid false).
 */
static int dec_ref_contexts(const cJSON *node, const char *head,
			    struct snap_statuses *out, bool *valid,
			    struct buf *err)
{
	const cJSON *ref, *target;
	char *type = NULL;
	bool commit;

	memset(out, 0, sizeof(*out));
	*valid = false;
	if (jget_obj(&ref, node, "pullRequests.nodes[]", "headRef", JNULL,
		     err) < 0)
		return AA_ERR;
	if (!ref)
		return AA_OK;
	if (jget_obj(&target, ref, "headRef", "target", JNULL, err) < 0)
		return AA_ERR;
	if (!target)
		return AA_OK;
	if (jget_str(&type, target, "target", "__typename", 0, err) < 0)
		return AA_ERR;
	commit = strcmp(type, "Commit") == 0;
	free(type);
	return commit ? dec_commit_contexts(target, head, out, valid, err)
		      : AA_OK;
}

/* The head's contexts of a bundle, kept for synthesize() and the cache. */
void keep_contexts(struct live *l, int64_t number,
		   struct snap_statuses *st, bool valid)
{
	snap_statuses_release(&l->contexts.newest);
	l->contexts.newest = *st;
	memset(st, 0, sizeof(*st));
	l->contexts.valid = valid;
	l->contexts.pr = number;
	memcpy(l->contexts.sha, l->contexts.newest.sha, SHA_BUF);
}

int dec_head_status(struct live *l, int64_t number, const char *head,
		    const cJSON *pr, struct buf *err)
{
	struct snap_statuses st;
	bool valid;

	if (dec_contexts(pr, head, &st, &valid, err) < 0) {
		l->contexts.valid = false;
		return AA_ERR;
	}
	keep_contexts(l, number, &st, valid);
	return AA_OK;
}

int dec_status(struct snap_status *x, const cJSON *o, struct buf *err)
{
	const char *path = "statuses[]";

	if (jget_int(&x->id, o, path, "id", 0, 1, JSON_MAX_INT, err) < 0 ||
	    jget_str(&x->state, o, path, "state", 0, err) < 0 ||
	    jget_str(&x->context, o, path, "context", 0, err) < 0 ||
	    jget_str(&x->description, o, path, "description", JNULL, err) < 0 ||
	    dec_rest_login(&x->creator, o, path, "creator", err) < 0 ||
	    jget_time(&x->created_at, o, path, "created_at", 0, err) < 0 ||
	    jget_str(&x->target_url, o, path, "target_url", JNULL, err) < 0)
		return AA_ERR;
	if (!x->description)
		x->description = xstrdup("");
	return AA_OK;
}

/*
 * The fields of a listing node its change-detection digest covers: those
 * of the probe (probe_query), which the rich listing selects too, so that
 * a digest one recorded is compared with the other's.
 */
static const char *const digest_keys[] = {
	"number", "headRefOid", "updatedAt", "baseRefName",
	"isDraft", "comments",	 "headRef",
};

/* The digest of a node's digest_keys, each as GitHub sent it. */
static int brief_digest(struct gh_pull_brief *b, const cJSON *node,
			struct buf *err)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(digest_keys); i++) {
		const cJSON *item = json_get(node, digest_keys[i]);
		char *json = item ? cJSON_PrintUnformatted(item) : NULL;

		if (!json) {
			buf_setf(err, "pullRequests.nodes[].%s: missing",
				 digest_keys[i]);
			buf_release(&text);
			return AA_ERR;
		}
		buf_addf(&text, "%s=%s\n", digest_keys[i], json);
		cJSON_free(json);
	}
	sweepstate_text_digest(b->digest, text.ptr, text.len);
	buf_release(&text);
	return AA_OK;
}

/* The authors of a rich listing node's APPROVED reviews. */
static int brief_approvers(struct gh_pull_brief *b, const cJSON *reviews,
			   struct buf *err)
{
	const cJSON *nodes, *n;
	int64_t total = 0;
	size_t alloc = 0; /* ALLOC_GROW's */

	if (jget_int(&total, reviews, "reviews", "totalCount", 0, 0, INT32_MAX,
		     err) < 0 ||
	    jget_arr(&nodes, reviews, "reviews", "nodes", 0, err) < 0)
		return AA_ERR;
	cJSON_ArrayForEach(n, nodes)
	{
		char *state = NULL, *login = NULL;
		bool approved;

		if (jget_str(&state, n, "reviews.nodes[]", "state", 0, err) < 0 ||
		    dec_login(&login, n, "reviews.nodes[]", "author", err) < 0) {
			free(state);
			return AA_ERR;
		}
		approved = strcmp(state, "APPROVED") == 0;
		free(state);
		if (!approved || !login) {
			free(login);
			continue;
		}
		ALLOC_GROW(b->approvers, b->napprovers + 1, alloc);
		b->approvers[b->napprovers++] = login;
	}
	/* Only a complete list of reviews can say "no approval". */
	b->has_approvers = total <= cJSON_GetArraySize(nodes);
	return AA_OK;
}

/*
 * A probe node's change-detection digest and the head's contexts. A head
 * whose statuses the node cannot show (no head branch) gets no digest:
 * such a PR is never "unchanged", so a status on its head is not missed.
 */
int dec_brief_extra(struct gh_pull_brief *b, const cJSON *node,
		    struct buf *err)
{
	if (brief_digest(b, node, err) < 0 ||
	    dec_ref_contexts(node, b->head_sha, &b->contexts, &b->has_contexts,
			     err) < 0)
		return AA_ERR;
	if (!b->has_contexts)
		b->digest[0] = '\0';
	return AA_OK;
}

int dec_brief_details(struct gh_pull_brief *b, const cJSON *node,
		      struct buf *err)
{
	const cJSON *reviews, *threads;
	int64_t number = 0, count = 0;

	if (jget_int(&number, node, "pullRequest", "number", 0, 1, INT32_MAX,
		     err) < 0 ||
	    jget_obj(&reviews, node, "pullRequest", "reviews", 0, err) < 0 ||
	    jget_obj(&threads, node, "pullRequest", "reviewThreads", 0, err) <
		    0 ||
	    jget_int(&count, threads, "reviewThreads", "totalCount", 0, 0,
		     INT32_MAX, err) < 0)
		return AA_ERR;
	if (number != b->number) {
		buf_setf(err, "pullRequest.number: %lld, not %lld",
			 (long long)number, (long long)b->number);
		return AA_ERR;
	}
	strv_free(b->approvers, b->napprovers);
	b->approvers = NULL;
	b->napprovers = 0;
	b->has_approvers = false;
	if (brief_approvers(b, reviews, err) < 0) {
		strv_free(b->approvers, b->napprovers);
		b->approvers = NULL;
		b->napprovers = 0;
		b->has_approvers = false;
		return AA_ERR;
	}
	b->threads = count;
	b->has_threads = true;
	return AA_OK;
}
