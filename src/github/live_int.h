/*
 * live_int.h - what the files of the live GitHub port share, and nothing
 * else includes (src/github/ only): the port's state (struct live), the
 * GraphQL documents, the transport and the strict decoders.
 *
 * The port is one struct live behind struct github: live.c creates and
 * frees it; graphql.c holds the documents; app_token.c mints App
 * installation tokens; transport.c posts GraphQL; decode.c decodes
 * answers; history.c reads edit histories (A5); pull.c reads a PR's
 * parts; statuses.c reads status histories (with the cache); reads.c the
 * other reads; ahead.c reads ahead for a sweep; writes.c every write
 * (one sender); review.c the pr-review reads (PUBLISH.md), review_trust.c
 * their trust inputs (U2); fuzz.c
 * runs the decoders without a network. Errors are AA_* codes; a
 * function that can fail writes its message into the `err` it was passed
 * (N80).
 */
#ifndef AA_GITHUB_LIVE_INT_H
#define AA_GITHUB_LIVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/util.h"
#include "core/model.h"
#include "core/policy.h"
#include "github/http.h"
#include "github/live.h"
#include "port/port.h"

/* Pages followed per connection or list before giving up (fail closed). */
#define LIVE_MAX_PAGES 100
/* Items of GitHub's PR commits list: longer PRs need the compare API. */
#define LIVE_COMMITS_CAP 250
/* Comments whose histories one query reads: GitHub's nodes(ids:) limit. */
#define LIVE_EDIT_IDS 100
/* Histories a pull query asks for beside the PR (edit_hint): one request
 * each, so the query stays at one point (107 requests + these < 150). */
#define LIVE_HINT_IDS 40
/*
 * A read-ahead document. GitHub prices a document by the requests its
 * connections need — each connection once per parent node, so a thread's
 * comments(first:1) once per thread asked for — divided by 100 and rounded
 * to the nearest whole point. A PR asks for six connections and one
 * request per thread: with its number of threads known (pull_details),
 * PRs are packed into documents of at most LIVE_BATCH_REQUESTS requests,
 * one point each (PRs of two threads: 18 a point); unknown, a PR asks for
 * LIVE_BATCH_THREADS threads (7 PRs a point). A PR with more threads than
 * it asked for is read again on its own.
 */
#define LIVE_BATCH_REQUESTS 149
#define LIVE_BATCH_THREADS 14
#define LIVE_BATCH_MAX_PRS 25 /* bounds one answer: ~100 comments a PR */
/* PRs per details_query: two connections each, one point. */
#define LIVE_DETAIL_PRS 70

/* An internal part: the head commit's newest status per context. */
#define PART_HEAD_STATUS (1u << 7)

/* A comment whose edit history must be read (A5). */
struct history_read {
	int64_t comment; /* its database id */
	char *node;      /* its GraphQL node id */
};

struct history_reads {
	struct history_read *v;
	size_t n, alloc;
};

/* Comments of PR `pr` whose edit histories its last read needed (A5): the
 * next read of that PR asks for them in its own document. */
struct edit_hint {
	int64_t pr;
	char **nodes;
	size_t n;
};

struct live_contexts {
	int64_t pr;
	char sha[SHA_BUF];
	bool valid;
	struct snap_statuses newest; /* one per context, ids 0 */
};

struct cache_entry {
	int64_t pr;
	struct snap_statuses st;
	bool whole; /* every page read (STATUS_NEED_HISTORY) */
};

/* A PR's gate parts read ahead (prefetch), with its head's contexts. */
struct prefetched {
	struct snap_pull pull;
	struct snap_statuses contexts;
	bool has_contexts;
};

/* The kinds of GraphQL document, for AGENTIC_STATS (gql_kind_names). */
enum gql_kind {
	GQL_PULL,       /* a PR's parts, first pages */
	GQL_PAGE,       /* a further page of one connection */
	GQL_PROBE,      /* the sweep's listing */
	GQL_DETAILS,    /* approvals and threads of the PRs it found changed */
	GQL_OPEN_PULLS, /* the plain listing */
	GQL_AHEAD,      /* a read-ahead batch */
	GQL_EDITS,      /* edit histories (A5) */
	GQL_LABEL,
	GQL_BASE,
	GQL_REVIEW,     /* the pr-review reads (review_pull) */
	GQL_NKINDS
};
extern const char *const gql_kind_names[GQL_NKINDS];

/* GitHub App mode: what mints installation tokens, and the current one. */
struct app_auth {
	char *id;
	struct buf key;        /* PEM, secret */
	int64_t installation;  /* 0 until known */
	struct buf token;      /* installation token, secret ("" none) */
	int64_t expires_ms;
	char *bot_login;       /* "<slug>[bot]" */
	cJSON *permissions;    /* what the newest token was granted (doctor) */
};

struct live {
	struct github gh;
	struct app_auth *app;    /* NULL unless App mode */
	enum token_kind token_kind; /* of the write token, by its prefix */
	void (*mask)(const char *secret);
	struct http *http;       /* writes (and reads without a read token) */
	struct http *read_http;  /* reads */
	char *graphql_url;
	char *owner;
	char *name;
	const struct policy *policy;
	char *viewer;
	/* The write token's login, read with a pr-review read sent with the
	 * write client itself (RV_READ_VIEWER): live_user() answers from it. */
	char *write_viewer;
	struct cache_entry *cache; /* REST histories, one per (PR, commit) */
	size_t ncache, acache;
	struct live_contexts contexts; /* from the newest pull bundle */
	struct prefetched *ahead;       /* read ahead by a sweep, used once */
	size_t nahead, aahead;
	int64_t rate_remaining;         /* rateLimit.remaining, -1 unknown */
	struct edit_hint *edit_hints;   /* one per PR read with histories */
	size_t nedit_hints, aedit_hints;
	struct thread_hint {            /* review threads per PR, from */
		int64_t pr, threads;    /* pull_details: packs read-aheads */
	} *hints;
	size_t nhints, ahints;
	int64_t points;                 /* sum of rateLimit.cost answered */
	struct gql_tally {              /* the same, per kind of document */
		long queries;
		int64_t points;
	} tally[GQL_NKINDS];
};

static inline struct live *L(struct github *gh)
{
	return (struct live *)gh;
}

/* --- GraphQL documents (graphql.c) --- */

struct conn_query {
	unsigned part;
	const char *field; /* the connection's field name */
	const char *head;  /* up to the arguments' end, before ",after" */
	const char *tail;  /* the rest of the selection */
};

/* The connections of a pull, one per PART_* but PART_PULL. */
#define LIVE_NCONNS 6
extern const struct conn_query conns[LIVE_NCONNS];

/* The connections of a pr-review read (RV_READ_COMMENTS, _ROOTS,
 * _COMMITS), and its document: the pull's fields, those of `what`, the
 * head's newest status per context with RV_READ_STATUS, and the token's
 * own login with `viewer`. */
#define LIVE_REVIEW_NCONNS 3
extern const struct conn_query review_conns[LIVE_REVIEW_NCONNS];
void review_query(struct buf *q, unsigned what, bool viewer);

extern const char open_pulls_query[];
extern const char probe_query[];
extern const char edits_query[];
extern const char edits_page_query[];
extern const char label_query[];
extern const char base_query[];

/* The first page of `parts` (PART_* and PART_HEAD_STATUS) of one PR; with
 * `edits`, also the first page of the edit histories of the comments the
 * variable $ids names (field `edits`). */
void pull_query(struct buf *q, unsigned parts, bool edits);
/* A further page of one connection. */
void page_query(struct buf *q, const struct conn_query *c);
/* Several PRs' gate parts in one document, aliased p0, p1, …, PR i with
 * its first threads[i] review threads. */
void batch_query(struct buf *q, const int64_t *prs, const int64_t *threads,
		 size_t n);
/* Several PRs' approvals and number of review threads (pull_details). */
void details_query(struct buf *q, const int64_t *prs, size_t n);

/* --- App mode (app_token.c) --- */

/* Make sure the read client carries a current installation token (a no-op
 * outside App mode). 0, or AA_EAPI with the message in err. */
int app_token(struct live *l, struct buf *err);
/* The client for statuses and labels: the App's in App mode. */
struct http *label_status_client(struct live *l);

/* --- REST reads (rest.c) --- */

/*
 * GET `path` (or a URL on the API origin) with `client` and parse the
 * answer: AA_OK with *root (the caller frees it) on 200; AA_ENOTFOUND on
 * 404; AA_EDENIED on 401 or 403; AA_EAPI on anything else. The message,
 * in err, names `what`. `keep` (optional) receives the answer itself (its
 * headers, its next page), released first.
 */
int rest_get(struct live *l, struct http *client, const char *path,
             const char *what, cJSON **root, struct http_response *keep,
             struct buf *err);
/* What a page callback answers: read on (the next page, if any), or stop
 * here; AA_ERR (message in err) on an answer it cannot decode. */
#define REST_MORE 0
#define REST_STOP 1
typedef int (*rest_page_fn)(const cJSON *root, void *ctx, struct buf *err);
/*
 * The one REST pager: GET `path` with the read client and every next page
 * (at most `max_pages`), calling `page` on each page's JSON. rest_get's
 * codes for the first page (AA_ENOTFOUND: no such list); a later page
 * that fails, too many pages or an undecodable page are AA_EAPI; the
 * message in err.
 */
int rest_pages(struct live *l, const char *path, const char *what,
               int max_pages, rest_page_fn page, void *ctx, struct buf *err);

/* --- transport (transport.c) --- */

/* A refused call's own message (N80), in out: "CALL: HTTP N", and
 * GitHub's "message" after ": " when the answer holds one. */
void http_answer_message(struct buf *out, const char *call,
                         const struct http_response *r);
/*
 * POST a GraphQL document. On success *root is the parsed answer (the
 * caller frees it) and *data its "data" object. AA_ENOTFOUND when GitHub
 * says the pull request does not exist; AA_EAPI on any other failure;
 * the message in err.
 */
int gql(struct live *l, const char *query, const char *vars, cJSON **root,
        const cJSON **data, struct buf *err);
/* gql(), counted as a document of `kind` (gql_kind_of cannot tell). */
int gql_as(struct live *l, enum gql_kind kind, const char *query,
           const char *vars, cJSON **root, const cJSON **data, struct buf *err);
/*
 * The one GraphQL pager. While *more: ask `query` for the page after
 * *cursor (variables by vars()) and hand the answer's data object to
 * page(), which updates *more and *cursor through ctx; at most
 * LIVE_MAX_PAGES pages, counting the `read` the caller holds already.
 * AA_OK; AA_ETOOBIG past that ceiling, gql()'s codes, or AA_ERR when
 * page() fails, each with its message in err.
 */
struct gql_paging {
	const char *query;
	void (*vars)(void *ctx, struct buf *v, const char *cursor);
	int (*page)(void *ctx, const cJSON *data, struct buf *err);
	void *ctx;
	const bool *more;
	char *const *cursor;
	int read;
};
int gql_pages(struct live *l, const struct gql_paging *g, struct buf *err);
/* One GraphQL read: ask `query` and hand the answer's data object to
 * decode(). AA_OK; gql()'s codes; AA_EAPI when decode() fails, with
 * "POST /graphql: unexpected answer: <its message>" in err. */
typedef int (*gql_decode_fn)(void *ctx, const cJSON *data, struct buf *err);
int gql_read(struct live *l, const char *query, const char *vars,
             gql_decode_fn decode, void *ctx, struct buf *err);
/* A document as sent: `query` asking for its own cost too (rateLimit{cost},
 * which costs nothing), unless it asks for rateLimit already. */
void gql_document(struct buf *out, const char *query, size_t len);
/* The body of a GraphQL request: gql_document(query), then `vars`. */
void gql_body(struct buf *body, const char *query, size_t len,
	      const char *vars);
/* Add the cost an answer's data reports to l->points and to the tally of
 * its kind of document (AGENTIC_STATS). */
void gql_count(struct live *l, enum gql_kind kind, const cJSON *data);
/* The kind of a document gql() is sent. */
enum gql_kind gql_kind_of(const char *query);
/* The variables of a query: owner, name, PR `number` (0: none), and one
 * more string variable `key` (NULL: none). */
void vars_kv(struct live *l, struct buf *v, int64_t number, const char *key,
	     const char *value);
/* The variables of a page `after` (NULL: the first) of a query. */
void vars(struct live *l, struct buf *v, int64_t number, const char *after);

/* --- strict decoding (decode.c): a missing or mistyped field fails ---
 * These return 0, or AA_ERR with the message in `err`; what they add to
 * their output on failure is freed with it. */

int dec_login(char **out, const cJSON *obj, const char *path,
	      const char *key, struct buf *err);
/* nodes and pageInfo of the connection `key` of `obj`. */
int dec_conn(const cJSON **nodes, bool *more, char **cursor,
	     const cJSON *obj, const char *key, struct buf *err);
int dec_pull_fields(struct snap_pull *p, const cJSON *o, struct buf *err);
/* data.repository and its pullRequest, PR `number`'s: 0; AA_ERR with the
 * message in err for an answer of another shape; AA_EAPI with the whole
 * message in err for a null PR without an error (GitHub answers a missing
 * PR with a NOT_FOUND error, which gql() returns as AA_ENOTFOUND). */
int dec_pull_node(const cJSON **repo, const cJSON **pr, int64_t number,
                  const cJSON *data, struct buf *err);
/* A13: repository.defaultBranchRef.name into *out (NULL when GitHub
 * says null: an empty repository has no default branch). */
int dec_default_branch(char **out, const cJSON *repo, struct buf *err);
/* One page of the connection of `part`; comments may add to `pending`. */
int dec_nodes(const struct live *l, struct snap_pull *p, unsigned part,
	      const cJSON *nodes, struct history_reads *pending,
	      struct buf *err);
void history_reads_release(struct history_reads *t);
/* headStatus of a PR node: the head's newest status per context; *valid
 * is false when that commit is not the head (over 250 commits). */
int dec_contexts(const cJSON *pr, const char *head,
		 struct snap_statuses *out, bool *valid, struct buf *err);
/* Keep the head's contexts of a bundle (taking `st`'s contents), for
 * synthesize() and the cache. */
void keep_contexts(struct live *l, int64_t number, struct snap_statuses *st,
		   bool valid);
/* dec_contexts of a pull bundle, kept (keep_contexts). */
int dec_head_status(struct live *l, int64_t number, const char *head,
		    const cJSON *pr, struct buf *err);
/* One REST status. */
int dec_status(struct snap_status *x, const cJSON *o, struct buf *err);
/* A probe node's digest and head contexts. */
int dec_brief_extra(struct gh_pull_brief *b, const cJSON *node,
		    struct buf *err);
/* A details_query node's approvers and number of review threads. */
int dec_brief_details(struct gh_pull_brief *b, const cJSON *node,
		      struct buf *err);

/* --- edit histories, A5 (history.c) --- */

/* One page of a history: userContentEdits{nodes pageInfo} of `obj`. */
int dec_edits(struct snap_comment *c, const cJSON *obj, bool *more,
	      char **cursor, struct buf *err);
/* Is `node` an IssueComment object (with node id `id` when not NULL)? */
int dec_comment_node(const cJSON *node, const char *id, struct buf *err);
/* The rest of one comment's history, page after page from `cursor` (its
 * GraphQL node id `node`), appended to c->edits. */
int edits_pages(struct live *l, struct snap_comment *c, const char *node,
		char **cursor, struct buf *err);
/* qsort order of edits: oldest first. */
int cmp_edit(const void *a, const void *b);
/* The whole edit history of every comment in `pending`, into its comment
 * of `p`. AA_EAPI when any cannot be read: the comments part has failed. */
int read_edits(struct live *l, int64_t number, struct snap_pull *p,
               const struct history_reads *pending, struct buf *err);
/* Remember `pending` (its first LIVE_HINT_IDS) as PR `pr`'s edit hint. */
void hint_edits(struct live *l, int64_t pr,
		const struct history_reads *pending);
/* PR `pr`'s edit hint, or NULL. */
const struct edit_hint *edit_hint_of(const struct live *l, int64_t pr);
/* The ids variable of a hint: appended to the variables object `v`. */
void hint_vars(struct buf *v, const struct edit_hint *h);
/* Take the histories of `pending` that `answer` (a hinted query's `edits`
 * array) holds into their comments of `p` (further pages read), and drop
 * them from `pending`; the others stay for read_edits. */
int take_hinted_edits(struct live *l, struct snap_pull *p,
		      struct history_reads *pending, const cJSON *answer,
		      struct buf *err);
/* Ask for PR `pr`'s histories apart again (its hinted read failed). */
void forget_edit_hint(struct live *l, int64_t pr);
void edit_hints_release(struct live *l);

/* --- a PR's parts (pull.c) --- */

/* One further page of a PR's connection: decode the pullRequest node `pr`
 * (updating the caller's `more` and cursor); AA_ERR with the message in
 * err. */
typedef int (*conn_page_fn)(void *ctx, const cJSON *pr, struct buf *err);
/*
 * A PR's GraphQL connection through gql_pages: while *more, ask for the
 * page of connection `c` of PR `number` after *cursor and give the PR
 * node to `page` (at most LIVE_MAX_PAGES). gql()'s codes; AA_EAPI, with
 * the message in err, for too many pages or an answer `page` cannot
 * decode.
 */
int conn_pages(struct live *l, int64_t number, const struct conn_query *c,
               const bool *more, char *const *cursor, conn_page_fn page,
               void *ctx, struct buf *err);

/* Read `parts` of PR `number`, every page, and the edit histories T2
 * needs. On failure nothing of `out` is kept. */
int bundle(struct live *l, int64_t number, unsigned parts,
           struct snap_pull *out, struct buf *err);
gh_pull_op live_pull;

/* --- statuses (statuses.c) --- */

struct cache_entry *cache_find(struct live *l, int64_t pr, const char *sha);
/* Forget every cached history of `sha` (it changed). */
void cache_drop_sha(struct live *l, const char *sha);
/* Do two logins (with "[bot]" where GitHub gives it) name one account? */
bool same_creator(const char *a, const char *b);
/* GET the status history of `sha`, newest first, as far as `need` asks. */
int fetch_statuses(struct live *l, int64_t pr, const char *sha, unsigned need,
                   struct snap_statuses *out, struct buf *err);
gh_statuses_op live_statuses;

/* --- other reads (reads.c) --- */

gh_user_op live_user;
gh_open_pulls_op live_open_pulls;
gh_label_exists_op live_label_exists;
gh_commit_in_pull_op live_commit_in_pull;

/* --- reading ahead for a sweep (ahead.c) --- */

/* Decode alias p<i> of a batch answer into a prefetched PR; false when
 * the caller must read that PR itself. */
bool dec_ahead(struct live *l, const cJSON *pr, int64_t number,
	       struct prefetched *out, struct buf *err);
/* A read-ahead of PR `number` answers a read of `parts`, once. */
bool take_ahead(struct live *l, int64_t number, unsigned parts,
		struct gh_pull *out);
gh_prefetch_op live_prefetch;
gh_details_op live_details;
gh_budget_op live_budget;

/* --- pr-review (review.c, review_trust.c) --- */

/* The pr-review reads and writes of PUBLISH.md §10. */
extern const struct github_review_ops live_review_ops;
/* Every review comment of PR `pr` over REST (all pages, ascending id). */
gh_review_comments_op live_review_comments;
/* The pull and what `what` (RV_READ_*) adds in one query, its further
 * pages, and the edit histories the first pages did not hold; when the
 * query fails, the parts one by one (review_pull.c). */
gh_review_pull_op live_review_pull;
/* review_pull's query, sent beside the next request (http_read_beside). */
gh_review_pull_beside_op live_review_pull_beside;

/* What a page of a pr-review read leaves to read (review_pull.c). */
struct review_edits_more {
	int64_t comment; /* a history longer than its first page */
	char *node;
	char *cursor;
};
struct review_more {
	char *cursors[LIVE_REVIEW_NCONNS];
	bool more[LIVE_REVIEW_NCONNS];   /* review_conns[i] has a next page */
	struct history_reads pending;    /* histories the answer lacks */
	struct review_edits_more *edits;
	size_t nedits;
	bool threads_whole;              /* no thread longer than its page */
};
void review_more_init(struct review_more *rest);
void review_more_release(struct review_more *rest);
/* Decode one page of connection review_conns[i] of the pull node `pr`
 * into out, no request made: what is left to read goes to `rest`.
 * 0, or AA_ERR with the message in err. */
int review_dec_page(const struct live *l, struct gh_review_pull *out,
		    size_t i, const cJSON *pr, struct review_more *rest,
		    struct buf *err);
/* live_pull, then the whole edit history of review_login's edited comments
 * when review_login is not the trusted login (U2, A5): the ops' pull. */
gh_pull_op live_pull_review;

/* --- doctor (setup.c) --- */

extern const struct github_setup_ops live_setup_ops;

/* --- writes (writes.c) --- */

gh_create_label_op live_create_label;
gh_add_label_op live_add_label;
gh_create_status_op live_create_status;
gh_approve_op live_approve;
gh_dismiss_op live_dismiss;
gh_comment_create_op live_comment_create;
gh_comment_update_op live_comment_update;
gh_comment_delete_op live_comment_delete;
gh_review_post_op live_review_post;

#endif
