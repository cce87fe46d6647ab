/*
 * github_live.c - the GitHub port over GitHub's API (BEHAVIOR §8).
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/json.h"
#include "core/stamp.h"
#include "formats/sweepstate.h"
#include "github/app.h"

#include <openssl/crypto.h>
#include "base/util.h"

/* Pages followed per connection or list before giving up (fail closed). */
#define LIVE_MAX_PAGES 100
/* Items of GitHub's PR commits list: longer PRs need the compare API. */
#define LIVE_COMMITS_CAP 250
/* Comments whose histories one query reads: GitHub's nodes(ids:) limit. */
#define LIVE_EDIT_IDS 100

/* An internal part: the head commit's newest status per context. */
#define PART_HEAD_STATUS (1u << 7)

/* A comment whose edit history must be read (A5). */
struct history_read {
	int64_t comment; /* its database id */
	char *node;      /* its GraphQL node id */
};

struct history_reads {
	struct history_read *v;
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

/* GitHub App mode: what mints installation tokens, and the current one. */
struct app_auth {
	char *id;
	struct buf key;        /* PEM, secret */
	int64_t installation;  /* 0 until known */
	struct buf token;      /* installation token, secret ("" none) */
	int64_t expires_ms;
	char *bot_login;       /* "<slug>[bot]" */
};

struct live {
	struct github gh;
	struct app_auth *app;    /* NULL unless App mode */
	void (*mask)(const char *secret);
	struct http *http;       /* writes (and reads without a read token) */
	struct http *read_http;  /* reads */
	char *graphql_url;
	char *owner;
	char *name;
	const struct policy *policy;
	char *viewer;
	struct cache_entry *cache; /* REST histories, one per (PR, commit) */
	size_t ncache, acache;
	struct live_contexts contexts; /* from the newest pull bundle */
	struct prefetched *ahead;       /* read ahead by a sweep, used once */
	size_t nahead, aahead;
	int64_t rate_remaining;         /* rateLimit.remaining, -1 unknown */
};

static struct live *L(struct github *gh)
{
	return (struct live *)gh;
}

/* --- GraphQL documents --- */

struct conn_query {
	unsigned part;
	const char *field; /* the connection's field name */
	const char *head;  /* up to the arguments' end, before ",after" */
	const char *tail;  /* the rest of the selection */
};

static const char pull_fields[] =
	"number state merged isDraft author{__typename login} headRefOid headRefName "
	"headRepository{nameWithOwner} baseRefName updatedAt";
static const char page_info[] = " pageInfo{hasNextPage endCursor}}";

static const struct conn_query conns[] = {
	{PART_LABELS, "labels", "labels(first:100", "){nodes{name}"},
	{PART_COMMENTS, "comments", "comments(first:100",
	 "){nodes{id fullDatabaseId author{__typename login} body createdAt "
	 "lastEditedAt editor{__typename login} url}"},
	{PART_TIMELINE, "timelineItems", "timelineItems(first:100",
	 ",itemTypes:[UNLABELED_EVENT,BASE_REF_CHANGED_EVENT]){nodes{"
	 "__typename ... on UnlabeledEvent{actor{__typename login} createdAt label{name}} "
	 "... on BaseRefChangedEvent{actor{__typename login} createdAt}}"},
	{PART_THREADS, "reviewThreads", "reviewThreads(first:100",
	 "){nodes{id isResolved comments(first:1){totalCount "
	 "nodes{author{__typename login} url}}}"},
	{PART_REVIEWS, "reviews", "reviews(first:100",
	 "){nodes{fullDatabaseId author{__typename login} state commit{oid} submittedAt}"},
	{PART_COMMITS, "commits", "commits(first:100",
	 "){totalCount nodes{commit{oid}}"},
};

static const char head_status[] =
	"headStatus:commits(last:1){nodes{commit{oid status{contexts{context "
	"state description createdAt targetUrl creator{__typename login}}}}}}";

static const char query_page[] =
	"query($owner:String!,$name:String!,$number:Int!,$after:String!)";
static const char query_number[] =
	"query($owner:String!,$name:String!,$number:Int!)";

static void pull_query(struct buf *q, unsigned parts)
{
	size_t i;

	buf_addf(q, "%s{repository(owner:$owner,name:$name){pullRequest("
		    "number:$number){", query_number);
	if (parts & PART_PULL)
		buf_adds(q, pull_fields);
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		if (!(parts & conns[i].part))
			continue;
		buf_addf(q, " %s%s%s", conns[i].head, conns[i].tail, page_info);
	}
	if (parts & PART_HEAD_STATUS)
		buf_addf(q, " %s", head_status);
	buf_adds(q, "}}}");
}

static void page_query(struct buf *q, const struct conn_query *c)
{
	buf_addf(q, "%s{repository(owner:$owner,name:$name){pullRequest("
		    "number:$number){%s,after:$after%s%s}}}",
		 query_page, c->head, c->tail, page_info);
}

/* Several PRs' gate parts in one document, aliased p0, p1, … */
static void batch_query(struct buf *q, const int64_t *prs, size_t n)
{
	size_t i, k;

	buf_adds(q, "query($owner:String!,$name:String!){repository(owner:"
		    "$owner,name:$name){");
	for (i = 0; i < n; i++) {
		buf_addf(q, "p%zu:pullRequest(number:%lld){%s", i,
			 (long long)prs[i], pull_fields);
		for (k = 0; k < ARRAY_SIZE(conns); k++)
			if (conns[k].part != PART_COMMITS)
				buf_addf(q, " %s%s%s", conns[k].head,
					 conns[k].tail, page_info);
		buf_addf(q, " %s} ", head_status);
	}
	buf_adds(q, "}}");
}

static const char open_pulls_query[] =
	"query($owner:String!,$name:String!,$after:String){repository(owner:"
	"$owner,name:$name){pullRequests(states:[OPEN],first:100,after:$after,"
	"orderBy:{field:CREATED_AT,direction:ASC}){nodes{number headRefOid "
	"updatedAt} pageInfo{hasNextPage endCursor}}}}";
/*
 * The sweep's listing: per PR, what tells whether it changed since the
 * last sweep, whether it is in the review flow (the head's newest status
 * per context) and whose approvals it carries — no bodies. 50 a page keeps
 * each answer small. Replies to review threads are not counted here (per
 * thread that costs a point per PR under GitHub's cost formula): a reply
 * is a review, so it shows in the reviews, and in updatedAt.
 */
static const char listing_query[] =
	"query($owner:String!,$name:String!,$after:String){repository(owner:"
	"$owner,name:$name){pullRequests(states:[OPEN],first:50,after:$after,"
	"orderBy:{field:CREATED_AT,direction:ASC}){nodes{number headRefOid "
	"updatedAt baseRefName isDraft labels(first:100){totalCount "
	"nodes{name}} comments(last:100){totalCount nodes{fullDatabaseId "
	"lastEditedAt editor{__typename login}}} timelineItems(last:1,"
	"itemTypes:[UNLABELED_EVENT,BASE_REF_CHANGED_EVENT]){totalCount "
	"nodes{__typename ... on UnlabeledEvent{createdAt} ... on "
	"BaseRefChangedEvent{createdAt}}} reviewThreads(first:1){totalCount} "
	"reviews(last:100){totalCount "
	"nodes{fullDatabaseId state author{__typename login} commit{oid}}} "
	"headStatus:commits(last:1){nodes{commit{oid status{contexts{context "
	"state description createdAt targetUrl creator{__typename login}}}}}}} "
	"pageInfo{hasNextPage endCursor}}} rateLimit{cost remaining}}";
/* Edit histories (A5): several comments' first pages, then one comment's
 * further pages. GraphQL gives a bot editor's login without "[bot]": the
 * __typename puts it back (dec_login). */
#define EDITS_SELECTION                                                     \
	"nodes{editedAt editor{__typename login}} pageInfo{hasNextPage "    \
	"endCursor}}"
static const char edits_query[] =
	"query($ids:[ID!]!){nodes(ids:$ids){__typename ... on IssueComment{id "
	"userContentEdits(first:100){" EDITS_SELECTION "}}}";
static const char edits_page_query[] =
	"query($id:ID!,$after:String!){node(id:$id){__typename ... on "
	"IssueComment{userContentEdits(first:100,after:$after){" EDITS_SELECTION
	"}}}";
static const char label_query[] =
	"query($owner:String!,$name:String!,$label:String!){repository(owner:"
	"$owner,name:$name){label(name:$label){name}}}";
static const char base_query[] =
	"query($owner:String!,$name:String!,$number:Int!){repository(owner:"
	"$owner,name:$name){pullRequest(number:$number){headRefOid baseRefOid}"
	"}}";

static void emit_query(struct jw *w, const char *name, const char *query)
{
	jw_obj_begin(w);
	jw_key(w, "name");
	jw_str(w, name);
	jw_key(w, "query");
	jw_str(w, query);
	jw_obj_end(w);
}

void github_live_queries(struct buf *out)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), name = BUF_INIT(BUF_MAX_SMALL);
	struct jw w;
	unsigned parts;
	size_t i;

	jw_init(&w, out, true);
	jw_arr_begin(&w);
	/* Every subset of parts a read can ask for. */
	for (parts = 1; parts <= (PART_ALL | PART_HEAD_STATUS); parts++) {
		buf_setf(&name, "pull parts 0x%02x", parts);
		buf_reset(&q);
		pull_query(&q, parts);
		emit_query(&w, name.ptr, q.ptr);
	}
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		buf_reset(&q);
		page_query(&q, &conns[i]);
		emit_query(&w, conns[i].field, q.ptr);
	}
	emit_query(&w, "open pulls", open_pulls_query);
	emit_query(&w, "listing", listing_query);
	buf_reset(&q);
	batch_query(&q, (const int64_t[]){7, 8, 9}, 3);
	emit_query(&w, "prefetch", q.ptr);
	emit_query(&w, "edits", edits_query);
	emit_query(&w, "edits page", edits_page_query);
	emit_query(&w, "label", label_query);
	emit_query(&w, "base", base_query);
	jw_arr_end(&w);
	buf_release(&q);
	buf_release(&name);
}

/* --- App mode --- */

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A JSON answer to an App request: 0 and *root, or AA_EAPI. */
static int app_request(struct live *l, const char *method, const char *path,
		       long ok, cJSON **root)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	int error = AA_EAPI;

	*root = NULL;
	http_response_init(&r);
	if (http_request(l->read_http, method, path,
			 strcmp(method, "POST") == 0 ? "{}" : NULL,
			 strcmp(method, "GET") == 0, &r, &err) < 0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		goto out;
	}
	if (r.status != ok) {
		buf_setf(&l->gh.error, "%s %s: HTTP %ld%s", method, path, r.status,
			 r.status == 401 ? " (the App's JWT was refused)" : "");
		goto out;
	}
	if (json_parse(root, r.body.ptr, r.body.len, &err) < 0) {
		buf_setf(&l->gh.error, "%s %s: %s", method, path, err.ptr);
		goto out;
	}
	error = AA_OK;
out:
	/* The answer may hold a token: wipe it. */
	if (r.body.alloc)
		OPENSSL_cleanse(r.body.ptr, r.body.alloc);
	http_response_release(&r);
	buf_release(&err);
	return error;
}

/*
 * Mint an installation token when there is none or it expires within
 * APP_REFRESH_BEFORE_S: JWT → (GET /app for the bot login) → (GET
 * /repos/{o}/{r}/installation) → POST …/access_tokens. The read client
 * carries the JWT only for these requests; on any failure it is left with
 * no usable token, so nothing is read with a stale credential.
 */
static int app_token(struct live *l)
{
	struct app_auth *a = l->app;
	struct buf jwt = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL),
		   path = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	char *slug = NULL, *token = NULL;
	int64_t now = wall_ms(), at = 0;
	int error = AA_EAPI;

	if (!a || (a->token.len &&
		   a->expires_ms - now > (int64_t)APP_REFRESH_BEFORE_S * 1000))
		return AA_OK;
	if (github_app_jwt(&jwt, a->id, a->key.ptr, now / 1000, &err) < 0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		goto out;
	}
	http_set_token(l->read_http, jwt.ptr);
	if (!a->bot_login) {
		if (app_request(l, "GET", "/app", 200, &root) < 0)
			goto out;
		if (jget_str(&slug, root, "app", "slug", 0, &err) < 0 ||
		    !policy_login_valid(slug)) {
			buf_setf(&l->gh.error, "GET /app: %s",
				 err.len ? err.ptr : "a slug that is no login");
			goto out;
		}
		buf_reset(&path);
		buf_addf(&path, "%s[bot]", slug);
		a->bot_login = buf_detach(&path, NULL);
		cJSON_Delete(root);
		root = NULL;
	}
	if (!a->installation) {
		buf_setf(&path, "/repos/%s/%s/installation", l->owner, l->name);
		if (app_request(l, "GET", path.ptr, 200, &root) < 0)
			goto out;
		if (jget_int(&a->installation, root, "installation", "id", 0, 1,
			     JSON_MAX_INT, &err) < 0) {
			buf_setf(&l->gh.error, "GET %s: %s", path.ptr, err.ptr);
			goto out;
		}
		cJSON_Delete(root);
		root = NULL;
	}
	buf_setf(&path, "/app/installations/%lld/access_tokens",
		 (long long)a->installation);
	if (app_request(l, "POST", path.ptr, 201, &root) < 0)
		goto out;
	if (jget_str(&token, root, "access token", "token", 0, &err) < 0 ||
	    jget_time(&at, root, "access token", "expires_at", 0, &err) < 0) {
		buf_setf(&l->gh.error, "POST %s: %s", path.ptr, err.ptr);
		goto out;
	}
	buf_wipe(&a->token);
	buf_init(&a->token, BUF_MAX_SMALL);
	buf_adds(&a->token, token);
	a->expires_ms = at;
	if (l->mask)
		l->mask(a->token.ptr);
	error = AA_OK;
out:
	http_set_token(l->read_http, error ? "-" : a->token.ptr);
	if (token)
		OPENSSL_cleanse(token, strlen(token));
	free(token);
	free(slug);
	if (root) {
		/* The answer held the token: cJSON_Delete does not wipe. */
		cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "token");

		if (cJSON_IsString(t) && t->valuestring)
			OPENSSL_cleanse(t->valuestring, strlen(t->valuestring));
		cJSON_Delete(root);
	}
	buf_wipe(&jwt);
	buf_release(&err);
	buf_release(&path);
	return error;
}

/* The client for statuses and labels: the App's in App mode. */
static struct http *label_status_client(struct live *l)
{
	return l->app ? l->read_http : l->http;
}

int github_live_app_start(struct github *gh, const char **bot_login)
{
	struct live *l = L(gh);

	*bot_login = NULL;
	if (!l->app)
		return AA_OK;
	if (app_token(l) < 0)
		return AA_EAPI;
	*bot_login = l->app->bot_login;
	return AA_OK;
}

/* --- transport --- */

static const char *http_what(int status)
{
	return status == 401 ? " (bad credentials)" : "";
}

/* A NOT_FOUND error on repository.pullRequest itself: there is no such PR.
 * (One deeper down — a comment's author, say — is a failed read.) */
static bool missing_pull(const cJSON *e)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(e, "path");
	const cJSON *p0 = cJSON_GetArrayItem(path, 0);
	const cJSON *p1 = cJSON_GetArrayItem(path, 1);

	return cJSON_IsString(type) && strcmp(type->valuestring, "NOT_FOUND") == 0 &&
	       cJSON_GetArraySize(path) == 2 && cJSON_IsString(p0) &&
	       strcmp(p0->valuestring, "repository") == 0 && cJSON_IsString(p1) &&
	       strcmp(p1->valuestring, "pullRequest") == 0;
}

/*
 * POST a GraphQL document. On success *root is the parsed answer and
 * *data its "data" object. AA_ENOTFOUND when GitHub says the pull request
 * does not exist; AA_EAPI on any other failure.
 */
static int gql(struct live *l, const char *query, const char *vars,
	       cJSON **root, const cJSON **data)
{
	struct buf body = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	const cJSON *errors, *e;
	int error = AA_EAPI;

	*root = NULL;
	*data = NULL;
	http_response_init(&r);
	if (app_token(l) < 0)
		goto out;
	buf_adds(&body, "{\"query\":");
	json_quote(&body, query, strlen(query));
	buf_addf(&body, ",\"variables\":%s}", vars);
	if (http_request(l->read_http, "POST", l->graphql_url, body.ptr, true, &r,
			 &err) < 0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		goto out;
	}
	if (r.status != 200) {
		buf_setf(&l->gh.error, "POST /graphql: HTTP %ld%s", r.status,
			 http_what((int)r.status));
		goto out;
	}
	if (json_parse(root, r.body.ptr, r.body.len, &err) < 0) {
		buf_setf(&l->gh.error, "POST /graphql: %s", err.ptr);
		goto out;
	}
	errors = cJSON_GetObjectItemCaseSensitive(*root, "errors");
	if (errors && !cJSON_IsNull(errors)) {
		const cJSON *msg;

		cJSON_ArrayForEach(e, errors)
			if (missing_pull(e)) {
				error = AA_ENOTFOUND;
				buf_setf(&l->gh.error, "pull request not found");
				goto out;
			}
		/* Any other error fails the read, even with partial data. */
		msg = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(errors, 0), "message");
		buf_setf(&l->gh.error, "POST /graphql: %s",
			 cJSON_IsString(msg) ? msg->valuestring
					     : "an error without a message");
		goto out;
	}
	*data = cJSON_GetObjectItemCaseSensitive(*root, "data");
	if (!cJSON_IsObject(*data)) {
		buf_setf(&l->gh.error, "POST /graphql: no data in the answer");
		goto out;
	}
	error = AA_OK;
out:
	if (error) {
		cJSON_Delete(*root);
		*root = NULL;
		*data = NULL;
	}
	http_response_release(&r);
	buf_release(&body);
	buf_release(&err);
	return error;
}

/* The variables of a query: owner, name, PR `number` (0: none), and one
 * more string variable `key` (NULL: none). */
static void vars_kv(struct live *l, struct buf *v, int64_t number,
		    const char *key, const char *value)
{
	buf_reset(v);
	buf_adds(v, "{\"owner\":");
	json_quote(v, l->owner, strlen(l->owner));
	buf_adds(v, ",\"name\":");
	json_quote(v, l->name, strlen(l->name));
	if (number)
		buf_addf(v, ",\"number\":%lld", (long long)number);
	if (key && value) {
		buf_addf(v, ",\"%s\":", key);
		json_quote(v, value, strlen(value));
	}
	buf_addch(v, '}');
}

/* The variables of a page `after` (NULL: the first) of a query. */
static void vars(struct live *l, struct buf *v, int64_t number,
		 const char *after)
{
	vars_kv(l, v, number, "after", after);
}

/* --- decoding (strict: a missing or mistyped field fails the read) --- */

/*
 * author / editor / actor / creator {__typename login}: NULL for a deleted
 * account. GraphQL gives a bot's login without the "[bot]" REST shows, so
 * a GitHub App named like the trusted login would look like it: the type
 * is put back into the login ("name[bot]"), and any other kind of account
 * gets a suffix no user login can have.
 */
static int dec_login(char **out, const cJSON *obj, const char *path,
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
static int dec_conn(const cJSON **nodes, bool *more, char **cursor,
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

static int dec_pull_fields(struct snap_pull *p, const cJSON *o,
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

#define GROW_ONE(arr, n)                                                     \
	((arr) = xrealloc((arr), st_mult((n) + 1, sizeof(*(arr)))),          \
	 memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])

static int dec_labels(struct snap_pull *p, const cJSON *nodes, struct buf *err)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		char **slot = GROW_ONE(p->labels, p->nlabels);

		if (jget_str(slot, n, "labels.nodes[]", "name", 0, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/*
 * Must T2 see this comment's edit history (A5)? Every edited comment of the
 * trusted login: one whose markers someone else removed, and that the
 * trusted login edited after them, is still an A1 hold, and its body no
 * longer says so.
 */
static bool edits_needed(const struct live *l, const struct snap_comment *c)
{
	return c->edited && policy_is_trusted(l->policy, c->author);
}

static void history_reads_release(struct history_reads *t)
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
	const char *path = "comments.nodes[]";
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_comment *c = GROW_ONE(p->comments, p->ncomments);
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
		if (!edits_needed(l, c))
			continue;
		t = GROW_ONE(pending->v, pending->n);
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
	const char *path = "timelineItems.nodes[]";
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		char *type = NULL;
		struct snap_event *e = GROW_ONE(p->timeline, p->ntimeline);
		const cJSON *label;

		e->id = (int64_t)p->ntimeline;
		if (jget_str(&type, n, path, "__typename", 0, err) < 0)
			return AA_ERR;
		if (strcmp(type, "UnlabeledEvent") == 0) {
			e->kind = TL_UNLABELED;
			e->event = xstrdup("unlabeled");
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
		if (e->kind == TL_UNLABELED &&
		    (jget_obj(&label, n, path, "label", 0, err) < 0 ||
		     jget_str(&e->label, label, "label", "name", 0, err) < 0))
			return AA_ERR;
	}
	return AA_OK;
}

static int dec_threads(struct snap_pull *p, const cJSON *nodes,
		       struct buf *err)
{
	const char *path = "reviewThreads.nodes[]";
	const cJSON *n, *comments, *first_nodes, *first;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_thread *t = GROW_ONE(p->threads, p->nthreads);

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
	const char *path = "reviews.nodes[]";
	const cJSON *n, *commit;

	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_review *r = GROW_ONE(p->reviews, p->nreviews);

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
	const cJSON *n, *commit;

	cJSON_ArrayForEach(n, nodes)
	{
		char(*slot)[SHA_BUF] = GROW_ONE(p->commits, p->ncommits);

		if (jget_obj(&commit, n, "commits.nodes[]", "commit", 0, err) < 0 ||
		    jget_sha(*slot, commit, "commit", "oid", 0, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/* One page of the connection of `part`; comments may add to `pending`. */
static int dec_nodes(const struct live *l, struct snap_pull *p, unsigned part,
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

/*
 * headStatus:commits(last:1){…status{contexts{…}}} of a PR node: the head's
 * newest status per context. *valid is false when that commit is not the
 * head (over 250 commits).
 */
static int dec_contexts(const cJSON *pr, const char *head,
			struct snap_statuses *out, bool *valid, struct buf *err)
{
	const cJSON *hs, *nodes, *commit, *status, *contexts, *c;
	char oid[SHA_BUF];

	memset(out, 0, sizeof(*out));
	*valid = false;
	if (jget_obj(&hs, pr, "pullRequest", "headStatus", 0, err) < 0 ||
	    jget_arr(&nodes, hs, "headStatus", "nodes", 0, err) < 0)
		return AA_ERR;
	commit = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, 0),
						  "commit");
	if (!commit) {
		buf_setf(err, "headStatus.nodes[0].commit: missing");
		return AA_ERR;
	}
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
			struct snap_status *x = GROW_ONE(out->v, out->n);
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

/* The head's contexts of a bundle, kept for synthesize() and the cache. */
static void keep_contexts(struct live *l, int64_t number,
			  struct snap_statuses *st, bool valid)
{
	snap_statuses_release(&l->contexts.newest);
	l->contexts.newest = *st;
	memset(st, 0, sizeof(*st));
	l->contexts.valid = valid;
	l->contexts.pr = number;
	memcpy(l->contexts.sha, l->contexts.newest.sha, SHA_BUF);
}

static int dec_head_status(struct live *l, int64_t number, const char *head,
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

/* --- edit histories (A5) --- */

/* One page of a history: userContentEdits{nodes pageInfo} of `obj`. */
static int dec_edits(struct snap_comment *c, const cJSON *obj, bool *more,
		     char **cursor, struct buf *err)
{
	const char *path = "userContentEdits.nodes[]";
	const cJSON *nodes, *n;

	if (dec_conn(&nodes, more, cursor, obj, "userContentEdits", err) < 0)
		return AA_ERR;
	cJSON_ArrayForEach(n, nodes)
	{
		struct snap_edit *e = GROW_ONE(c->edits, c->nedits);

		if (jget_time(&e->edited_at, n, path, "editedAt", 0, err) < 0 ||
		    dec_login(&e->editor, n, path, "editor", err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

/* Is `node` an IssueComment object (with node id `id` when not NULL)? */
static int dec_comment_node(const cJSON *node, const char *id,
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

static int cmp_edit(const void *a, const void *b)
{
	const struct snap_edit *x = a, *y = b;

	return (x->edited_at > y->edited_at) - (x->edited_at < y->edited_at);
}

/* The rest of one comment's history, page after page from `cursor`. */
static int edits_pages(struct live *l, struct snap_comment *c,
		       const char *node, char **cursor, struct buf *err)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *obj;
	cJSON *root = NULL;
	bool more = true;
	int pages, error = AA_EAPI;

	for (pages = 1; more; pages++) {
		if (pages >= LIVE_MAX_PAGES) {
			buf_setf(err, "more than %d pages", LIVE_MAX_PAGES);
			goto out;
		}
		buf_reset(&v);
		buf_adds(&v, "{\"id\":");
		json_quote(&v, node, strlen(node));
		buf_adds(&v, ",\"after\":");
		json_quote(&v, *cursor, strlen(*cursor));
		buf_addch(&v, '}');
		if (gql(l, edits_page_query, v.ptr, &root, &data) < 0) {
			buf_setf(err, "%s", l->gh.error.ptr);
			goto out;
		}
		if (jget_obj(&obj, data, "data", "node", 0, err) < 0 ||
		    dec_comment_node(obj, NULL, err) < 0 ||
		    dec_edits(c, obj, &more, cursor, err) < 0)
			goto out;
		cJSON_Delete(root);
		root = NULL;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&v);
	return error;
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
	if (gql(l, edits_query, v.ptr, &root, &data) < 0) {
		buf_setf(err, "%s", l->gh.error.ptr);
		goto out;
	}
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
static int read_edits(struct live *l, int64_t number, struct snap_pull *p,
		      const struct history_reads *pending)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t from, n;
	int error = AA_OK;

	for (from = 0; from < pending->n && !error; from += n) {
		n = pending->n - from < LIVE_EDIT_IDS ? pending->n - from
						   : LIVE_EDIT_IDS;
		if (edits_chunk(l, p, pending->v + from, n, &err) < 0) {
			buf_setf(&l->gh.error, "edit history of a comment of PR "
					       "#%lld: %s",
				 (long long)number, err.ptr);
			error = AA_EAPI;
		}
	}
	buf_release(&err);
	return error;
}

/*
 * Read `parts` of PR `number` in one query, then every further page of each
 * connection, then the edit histories T2 needs (A5). On failure nothing of
 * `out` is kept.
 */
static int bundle(struct live *l, int64_t number, unsigned parts,
		  struct snap_pull *out)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL),
		   err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *pr, *nodes;
	cJSON *root = NULL;
	char *cursors[ARRAY_SIZE(conns)] = {NULL};
	bool more[ARRAY_SIZE(conns)] = {false};
	struct history_reads pending = {NULL, 0};
	size_t i;
	int error, pages;

	memset(out, 0, sizeof(*out));
	out->number = number;
	pull_query(&q, parts);
	vars(l, &v, number, NULL);
	if ((error = gql(l, q.ptr, v.ptr, &root, &data)) < 0)
		goto out;
	error = AA_EAPI;
	if (jget_obj(&repo, data, "data", "repository", 0, &err) < 0 ||
	    jget_obj(&pr, repo, "repository", "pullRequest", JNULL, &err) < 0)
		goto decode;
	if (!pr) {
		/* GitHub answers a missing PR with a NOT_FOUND error (gql()
		 * returns AA_ENOTFOUND); null without one is not that. */
		buf_setf(&l->gh.error, "PR #%lld: null without an error",
			 (long long)number);
		goto out;
	}
	if ((parts & PART_PULL) && dec_pull_fields(out, pr, &err) < 0)
		goto decode;
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		if (!(parts & conns[i].part))
			continue;
		if (dec_conn(&nodes, &more[i], &cursors[i], pr, conns[i].field,
			     &err) < 0 ||
		    dec_nodes(l, out, conns[i].part, nodes, &pending, &err) < 0)
			goto decode;
	}
	if ((parts & PART_HEAD_STATUS) && (parts & PART_PULL))
		dec_head_status(l, number, out->head_sha, pr, &err);
	cJSON_Delete(root);
	root = NULL;
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		for (pages = 1; more[i]; pages++) {
			if (pages >= LIVE_MAX_PAGES) {
				buf_setf(&l->gh.error, "%s of PR #%lld: more than "
						       "%d pages",
					 conns[i].field, (long long)number,
					 LIVE_MAX_PAGES);
				goto out;
			}
			buf_reset(&q);
			page_query(&q, &conns[i]);
			vars(l, &v, number, cursors[i]);
			if ((error = gql(l, q.ptr, v.ptr, &root, &data)) < 0)
				goto out;
			error = AA_EAPI;
			if (jget_obj(&repo, data, "data", "repository", 0, &err) < 0 ||
			    jget_obj(&pr, repo, "repository", "pullRequest", 0,
				     &err) < 0 ||
			    dec_conn(&nodes, &more[i], &cursors[i], pr,
				     conns[i].field, &err) < 0 ||
			    dec_nodes(l, out, conns[i].part, nodes, &pending,
				      &err) < 0)
				goto decode;
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (pending.n && (error = read_edits(l, number, out, &pending)) < 0)
		goto out;
	if (!(parts & PART_PULL))
		out->number = number;
	error = AA_OK;
	goto out;
decode:
	buf_setf(&l->gh.error, "POST /graphql: unexpected answer: %s", err.ptr);
out:
	for (i = 0; i < ARRAY_SIZE(conns); i++)
		free(cursors[i]);
	history_reads_release(&pending);
	cJSON_Delete(root);
	buf_release(&q);
	buf_release(&v);
	buf_release(&err);
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
		dst->updated_at = src->updated_at;
		src->state = src->author = src->head_ref = NULL;
		src->head_repo = src->base_ref = NULL;
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

static bool take_ahead(struct live *l, int64_t number, unsigned parts,
		       struct gh_pull *out);

static int live_pull(struct github *gh, int64_t number, unsigned parts,
		     struct gh_pull *out)
{
	struct live *l = L(gh);
	struct snap_pull one;
	unsigned ask = parts & PART_ALL, part;
	bool hung;
	int error;

	memset(out, 0, sizeof(*out));
	out->pull.number = number;
	if (take_ahead(l, number, ask, out))
		return AA_OK;
	if (ask & PART_PULL)
		ask |= PART_HEAD_STATUS;
	error = bundle(l, number, ask, &out->pull);
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
		error = bundle(l, number, part, &one);
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

/* --- statuses: REST history, with the cache of the request budget --- */

static struct cache_entry *cache_find(struct live *l, int64_t pr,
				      const char *sha)
{
	size_t i;

	for (i = 0; i < l->ncache; i++)
		if (l->cache[i].pr == pr && strcmp(l->cache[i].st.sha, sha) == 0)
			return &l->cache[i];
	return NULL;
}

static void cache_drop_sha(struct live *l, const char *sha)
{
	size_t i = 0;

	while (i < l->ncache) {
		if (strcmp(l->cache[i].st.sha, sha) != 0) {
			i++;
			continue;
		}
		snap_statuses_release(&l->cache[i].st);
		l->cache[i] = l->cache[--l->ncache];
	}
}

static const struct snap_status *newest_of(const struct snap_statuses *st,
					   const char *context)
{
	const struct snap_status *best = NULL;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->v[i].context, context) == 0 &&
		    (!best || st->v[i].id > best->id))
			best = &st->v[i];
	return best;
}

/* Both sides carry "[bot]" (dec_login puts it back): compare exactly. */
static bool same_creator(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static bool same_status(const struct snap_status *rest,
			const struct snap_status *gql)
{
	if (!rest || !gql)
		return rest == gql;
	return strcmp(rest->state, gql->state) == 0 &&
	       strcmp(rest->description, gql->description) == 0 &&
	       same_creator(rest->creator, gql->creator) &&
	       rest->created_at / 1000 == gql->created_at / 1000;
}

/*
 * Is the cached history still current? Only when the newest status of the
 * clean and escalation contexts, as the pull bundle just read them, is the
 * newest of the same context in the cache. A newer status in either context
 * (another round, a forged status, another PR's verdict) shows up there.
 */
static bool cache_current(struct live *l, const struct cache_entry *c)
{
	const char *ctx[2];
	size_t i;

	ctx[0] = l->policy->clean_context;
	ctx[1] = l->policy->escalation_context;
	if (!l->contexts.valid || l->contexts.pr != c->pr ||
	    strcmp(l->contexts.sha, c->st.sha) != 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		if (!same_status(newest_of(&c->st, ctx[i]),
				 newest_of(&l->contexts.newest, ctx[i])))
			return false;
	return true;
}

static int dec_status(struct snap_status *x, const cJSON *o, struct buf *err)
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
 * GET the status history of `sha`, newest first, page after page until the
 * newest trusted round of PR `pr` has been seen (everything older than it
 * can decide nothing: §4) or the list ends.
 */
static int fetch_statuses(struct live *l, int64_t pr, const char *sha,
			  unsigned need, struct snap_statuses *out)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	char *next = NULL;
	cJSON *root = NULL;
	const cJSON *item;
	int pages = 0, error = AA_EAPI;

	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	out->v = xcalloc(1, sizeof(*out->v));
	http_response_init(&r);
	if (app_token(l) < 0)
		goto out;
	buf_addf(&path, "/repos/%s/%s/commits/%s/statuses?per_page=100",
		 l->owner, l->name, sha);
	for (;;) {
		if (++pages > LIVE_MAX_PAGES) {
			buf_setf(&l->gh.error, "statuses of %.7s: more than %d "
					       "pages", sha, LIVE_MAX_PAGES);
			goto out;
		}
		if (http_request(l->read_http, "GET", next ? next : path.ptr,
				 NULL, true, &r, &err) < 0) {
			buf_setf(&l->gh.error, "%s", err.ptr);
			goto out;
		}
		if (r.status != 200) {
			buf_setf(&l->gh.error, "GET statuses of %.7s: HTTP %ld%s",
				 sha, r.status, http_what((int)r.status));
			goto out;
		}
		if (json_parse(&root, r.body.ptr, r.body.len, &err) < 0 ||
		    !cJSON_IsArray(root)) {
			buf_setf(&l->gh.error, "GET statuses of %.7s: %s", sha,
				 err.len ? err.ptr : "expected an array");
			goto out;
		}
		cJSON_ArrayForEach(item, root)
		{
			struct snap_status *x = GROW_ONE(out->v, out->n);

			if (dec_status(x, item, &err) < 0) {
				buf_setf(&l->gh.error, "GET statuses of %.7s: %s",
					 sha, err.ptr);
				goto out;
			}
		}
		cJSON_Delete(root);
		root = NULL;
		free(next);
		next = r.next ? xstrdup(r.next) : NULL;
		if (!next || (!(need & STATUS_NEED_HISTORY) &&
			      stamp_round(out, l->policy, pr)))
			break;
	}
	error = AA_OK;
out:
	free(next);
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&path);
	buf_release(&err);
	if (error)
		snap_statuses_release(out);
	return error;
}

/*
 * Answer from GraphQL's newest status per context alone, when that is
 * exact for what the caller needs (§4): the newest clean-context status is
 * the newest trusted pr=#N one when it is itself trusted and for PR N (or
 * there is none at all); and with no escalation-context status at all there
 * is no skip marker, so the round it would have to beat does not matter.
 * The round itself is compared by id (R4), which only REST has. Anything
 * less certain goes to the REST history.
 */
static bool synthesize(struct live *l, int64_t pr, const char *sha,
		       unsigned need, struct snap_statuses *out)
{
	const struct snap_status *clean, *esc;
	bool ours;

	if (!l->contexts.valid || strcmp(l->contexts.sha, sha) != 0)
		return false;
	clean = newest_of(&l->contexts.newest, l->policy->clean_context);
	esc = newest_of(&l->contexts.newest, l->policy->escalation_context);
	ours = clean && stamp_trusted(clean, l->policy) &&
	       stamp_desc_has_pr(clean->description, pr);
	if ((need & STATUS_NEED_CLEAN) && clean && !ours)
		return false;
	if (need & (STATUS_NEED_ROUND | STATUS_NEED_IDS | STATUS_NEED_HISTORY))
		return false; /* R4 compares the round's id: REST has ids */
	if ((need & STATUS_NEED_SKIP) && esc)
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	out->v = xcalloc(1, sizeof(*out->v));
	if (clean) {
		snap_status_copy(&out->v[0], clean);
		out->v[0].id = 1; /* GraphQL has no ids; only this one */
		out->n = 1;
	}
	return true;
}

static int live_statuses(struct github *gh, int64_t pr, const char *sha,
			 unsigned need, struct snap_statuses *out)
{
	struct live *l = L(gh);
	struct cache_entry *c = cache_find(l, pr, sha);
	int error;

	if (synthesize(l, pr, sha, need, out))
		return AA_OK;
	if (c && cache_current(l, c) &&
	    (c->whole || !(need & STATUS_NEED_HISTORY))) {
		snap_statuses_copy(out, &c->st);
		return AA_OK;
	}
	if ((error = fetch_statuses(l, pr, sha, need, out)) < 0)
		return error;
	if (!c) {
		ALLOC_GROW(l->cache, l->ncache + 1, l->acache);
		c = &l->cache[l->ncache++];
		c->pr = pr;
	} else {
		snap_statuses_release(&c->st);
	}
	snap_statuses_copy(&c->st, out);
	c->whole = (need & STATUS_NEED_HISTORY) != 0;
	return AA_OK;
}

/* --- other reads --- */

static int live_user(struct github *gh, char **login)
{
	struct live *l = L(gh);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	int error = AA_EAPI;

	*login = NULL;
	http_response_init(&r);
	if (http_request(l->http, "GET", "/user", NULL, true, &r, &err) < 0) {
		buf_setf(&gh->error, "%s", err.ptr);
		goto out;
	}
	if (r.status != 200) {
		buf_setf(&gh->error, "GET /user: HTTP %ld%s", r.status,
			 http_what((int)r.status));
		goto out;
	}
	if (json_parse(&root, r.body.ptr, r.body.len, &err) < 0 ||
	    jget_str(login, root, "user", "login", 0, &err) < 0) {
		buf_setf(&gh->error, "GET /user: %s", err.ptr);
		goto out;
	}
	free(l->viewer);
	l->viewer = xstrdup(*login);
	error = AA_OK;
out:
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&err);
	return error;
}

static int cmp_brief(const void *a, const void *b)
{
	const struct gh_pull_brief *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

/*
 * A listing node's change-detection digest (the node as GitHub sent it:
 * any change in a field it selects changes the digest), the head's
 * contexts and the approvers.
 */
static int dec_brief_extra(struct gh_pull_brief *b, const cJSON *node,
			   struct buf *err)
{
	const cJSON *reviews, *nodes, *n;
	char *text = cJSON_PrintUnformatted(node);
	int64_t total = 0;

	if (!text)
		return AA_ERR;
	sweepstate_text_digest(b->digest, text, strlen(text));
	cJSON_free(text);
	if (dec_contexts(node, b->head_sha, &b->contexts, &b->has_contexts,
			 err) < 0)
		return AA_ERR;
	if (jget_obj(&reviews, node, "pullRequests.nodes[]", "reviews", 0,
		     err) < 0 ||
	    jget_int(&total, reviews, "reviews", "totalCount", 0, 0, INT32_MAX,
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
		b->approvers = xrealloc(b->approvers, st_mult(b->napprovers + 1,
							      sizeof(char *)));
		b->approvers[b->napprovers++] = login;
	}
	/* Only a complete list of reviews can say "no approval". */
	b->has_approvers = total <= cJSON_GetArraySize(nodes);
	return AA_OK;
}

/* One listing (rich or plain) to the end; `rich` adds dec_brief_extra. */
static int list_open(struct live *l, bool rich, struct gh_pull_brief **list,
		     size_t *n)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *conn, *nodes, *info, *node;
	cJSON *root = NULL;
	char *cursor = NULL;
	bool more = true;
	int pages = 0, error = AA_EAPI;

	*list = xcalloc(1, sizeof(**list));
	*n = 0;
	while (more) {
		if (++pages > LIVE_MAX_PAGES) {
			buf_setf(&l->gh.error, "open pulls: more than %d pages",
				 LIVE_MAX_PAGES);
			goto out;
		}
		vars(l, &v, 0, cursor);
		if (gql(l, rich ? listing_query : open_pulls_query, v.ptr, &root,
			&data) < 0)
			goto out;
		if (jget_obj(&repo, data, "data", "repository", 0, &err) < 0 ||
		    jget_obj(&conn, repo, "repository", "pullRequests", 0,
			     &err) < 0 ||
		    jget_arr(&nodes, conn, "pullRequests", "nodes", 0, &err) < 0 ||
		    jget_obj(&info, conn, "pullRequests", "pageInfo", 0, &err) < 0 ||
		    jget_bool(&more, info, "pageInfo", "hasNextPage", 0, &err) < 0)
			goto decode;
		if (rich) {
			/* What this query cost and what is left: the sweep stops
			 * before the limit (engine.c, ENGINE_RESERVE_GRAPHQL). */
			const cJSON *rate;

			if (jget_obj(&rate, data, "data", "rateLimit", 0, &err) < 0 ||
			    jget_int(&l->rate_remaining, rate, "rateLimit",
				     "remaining", 0, 0, JSON_MAX_INT, &err) < 0)
				goto decode;
		}
		cJSON_ArrayForEach(node, nodes)
		{
			struct gh_pull_brief *b = GROW_ONE(*list, *n);

			if (jget_int(&b->number, node, "pullRequests.nodes[]",
				     "number", 0, 1, INT32_MAX, &err) < 0 ||
			    jget_sha(b->head_sha, node, "pullRequests.nodes[]",
				     "headRefOid", 0, &err) < 0 ||
			    jget_time(&b->updated_at, node,
				      "pullRequests.nodes[]", "updatedAt", 0,
				      &err) < 0 ||
			    (rich && dec_brief_extra(b, node, &err) < 0))
				goto decode;
		}
		free(cursor);
		cursor = NULL;
		if (more && jget_str(&cursor, info, "pageInfo", "endCursor", 0,
				     &err) < 0)
			goto decode;
		cJSON_Delete(root);
		root = NULL;
	}
	qsort(*list, *n, sizeof(**list), cmp_brief);
	error = AA_OK;
	goto out;
decode:
	buf_setf(&l->gh.error, "POST /graphql: unexpected answer: %s", err.ptr);
out:
	free(cursor);
	cJSON_Delete(root);
	buf_release(&v);
	buf_release(&err);
	if (error) {
		gh_briefs_free(*list, *n);
		*list = NULL;
		*n = 0;
	}
	return error;
}

/*
 * The rich listing reads parts of every open PR, so one PR's failure
 * fails it: then the plain listing (numbers and heads only) is read, and
 * the sweep reads each PR itself — the failure stays pinned to its PR.
 */
static int live_open_pulls(struct github *gh, struct gh_pull_brief **list,
			   size_t *n)
{
	if (list_open(L(gh), true, list, n) == AA_OK)
		return AA_OK;
	return list_open(L(gh), false, list, n);
}

/* --- reading ahead (a sweep) --- */

/* PRs per prefetch document: small enough for GitHub's limits and one
 * answer of at most ~100 comments per PR. */
#define LIVE_BATCH_PRS 10

/* Decode alias p<i> of a batch answer into a prefetched PR; incomplete
 * connections (more pages) or an edit history to read (A5) make it
 * useless: the caller reads that PR itself. */
static bool dec_ahead(struct live *l, const cJSON *pr, int64_t number,
		      struct prefetched *out, struct buf *err)
{
	const cJSON *nodes;
	char *cursor = NULL;
	struct history_reads pending = {NULL, 0};
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
	if (pending.n || dec_contexts(pr, out->pull.head_sha, &out->contexts,
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

static void live_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	struct live *l = L(gh);
	size_t nb = (n + LIVE_BATCH_PRS - 1) / LIVE_BATCH_PRS, b, i;
	struct http_batch_item *items = xcalloc(nb ? nb : 1, sizeof(*items));
	struct buf *bodies = xcalloc(nb ? nb : 1, sizeof(*bodies));
	struct buf q = BUF_INIT(BUF_MAX_DOC), v = BUF_INIT(BUF_MAX_SMALL),
		   err = BUF_INIT(BUF_MAX_SMALL);

	if (app_token(l) < 0)
		nb = 0; /* nothing read ahead: each PR is read (and fails) alone */
	vars(l, &v, 0, NULL);
	for (b = 0; b < nb; b++) {
		size_t from = b * LIVE_BATCH_PRS;
		size_t count = n - from < LIVE_BATCH_PRS ? n - from : LIVE_BATCH_PRS;

		buf_reset(&q);
		batch_query(&q, prs + from, count);
		buf_init(&bodies[b], BUF_MAX_DOC);
		buf_adds(&bodies[b], "{\"query\":");
		json_quote(&bodies[b], q.ptr, q.len);
		buf_addf(&bodies[b], ",\"variables\":%s}", v.ptr);
		items[b].url = l->graphql_url;
		items[b].body = bodies[b].ptr;
	}
	http_request_many(l->read_http, items, nb, HTTP_MAX_PARALLEL);
	for (b = 0; b < nb; b++) {
		size_t from = b * LIVE_BATCH_PRS;
		size_t count = n - from < LIVE_BATCH_PRS ? n - from : LIVE_BATCH_PRS;
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
		for (i = 0; i < count; i++) {
			struct prefetched one;
			char alias[32];
			int len = snprintf(alias, sizeof(alias), "p%zu", i);

			if (len < 0 || (size_t)len >= sizeof(alias))
				continue;
			if (!dec_ahead(l, cJSON_GetObjectItemCaseSensitive(repo,
									   alias),
				       prs[from + i], &one, &err))
				continue;
			ALLOC_GROW(l->ahead, l->nahead + 1, l->aahead);
			l->ahead[l->nahead++] = one;
		}
next:
		cJSON_Delete(root);
		http_response_release(&items[b].resp);
		buf_release(&items[b].err);
		buf_release(&bodies[b]);
	}
	free(items);
	free(bodies);
	buf_release(&q);
	buf_release(&v);
	buf_release(&err);
}

/* A read-ahead of PR `number` answers a read of `parts`, once. */
static bool take_ahead(struct live *l, int64_t number, unsigned parts,
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
		l->ahead[i] = l->ahead[--l->nahead];
		return true;
	}
	return false;
}

static void live_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	struct http_stats st;

	github_live_stats(gh, &st);
	*graphql = st.graphql_remaining;
	if (L(gh)->rate_remaining >= 0 &&
	    (*graphql < 0 || L(gh)->rate_remaining < *graphql))
		*graphql = L(gh)->rate_remaining;
	*rest = st.rest_remaining;
}

static int live_label_exists(struct github *gh, int64_t pr, const char *name,
			     bool *out)
{
	struct live *l = L(gh);
	struct buf v = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *label;
	cJSON *root = NULL;
	int error = AA_EAPI;

	(void)pr;
	*out = false;
	vars_kv(l, &v, 0, "label", name);
	if (gql(l, label_query, v.ptr, &root, &data) < 0)
		goto out;
	if (jget_obj(&repo, data, "data", "repository", 0, &err) < 0 ||
	    jget_obj(&label, repo, "repository", "label", JNULL, &err) < 0) {
		buf_setf(&gh->error, "POST /graphql: unexpected answer: %s",
			 err.ptr);
		goto out;
	}
	*out = label != NULL;
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&v);
	buf_release(&err);
	return error;
}

/* GET compare/{a}...{b}: status, ahead_by, behind_by. */
static int compare(struct live *l, const char *a, const char *b,
		   int64_t *ahead, int64_t *behind)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	int error = AA_EAPI;

	http_response_init(&r);
	if (app_token(l) < 0)
		goto out;
	buf_addf(&path, "/repos/%s/%s/compare/%s...%s?per_page=1", l->owner,
		 l->name, a, b);
	if (http_request(l->read_http, "GET", path.ptr, NULL, true, &r, &err) <
	    0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		goto out;
	}
	if (r.status != 200) {
		buf_setf(&l->gh.error, "GET compare: HTTP %ld", r.status);
		goto out;
	}
	if (json_parse(&root, r.body.ptr, r.body.len, &err) < 0 ||
	    jget_int(ahead, root, "compare", "ahead_by", 0, 0, JSON_MAX_INT,
		     &err) < 0 ||
	    jget_int(behind, root, "compare", "behind_by", 0, 0, JSON_MAX_INT,
		     &err) < 0) {
		buf_setf(&l->gh.error, "GET compare: %s", err.ptr);
		goto out;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&path);
	buf_release(&err);
	return error;
}

/*
 * R2 for a PR of more than 250 commits (the list stops there): `sha` is a
 * commit of the PR when the head contains it and the base does not.
 */
static int commit_in_long_pull(struct live *l, int64_t number,
			       const char *sha, bool *out)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data, *repo, *pr;
	char head[SHA_BUF], base[SHA_BUF];
	int64_t ahead, behind;
	cJSON *root = NULL;
	int error = AA_EAPI;

	vars(l, &v, number, NULL);
	if (gql(l, base_query, v.ptr, &root, &data) < 0)
		goto out;
	if (jget_obj(&repo, data, "data", "repository", 0, &err) < 0 ||
	    jget_obj(&pr, repo, "repository", "pullRequest", 0, &err) < 0 ||
	    jget_sha(head, pr, "pullRequest", "headRefOid", 0, &err) < 0 ||
	    jget_sha(base, pr, "pullRequest", "baseRefOid", 0, &err) < 0) {
		buf_setf(&l->gh.error, "POST /graphql: unexpected answer: %s",
			 err.ptr);
		goto out;
	}
	if (compare(l, sha, head, &ahead, &behind) < 0)
		goto out;
	*out = behind == 0; /* the head contains sha */
	if (*out) {
		if (compare(l, base, sha, &ahead, &behind) < 0)
			goto out;
		*out = ahead > 0; /* the base does not */
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&v);
	buf_release(&err);
	return error;
}

static int live_commit_in_pull(struct github *gh, int64_t number,
			       const char *sha, bool *out)
{
	struct live *l = L(gh);
	struct snap_pull p;
	size_t i;
	int error;

	*out = false;
	error = bundle(l, number, PART_PULL | PART_COMMITS, &p);
	if (error < 0)
		return AA_EAPI;
	*out = strcmp(p.head_sha, sha) == 0;
	for (i = 0; i < p.ncommits && !*out; i++)
		*out = strcmp(p.commits[i], sha) == 0;
	i = p.ncommits;
	snap_pull_release(&p);
	if (*out || i < LIVE_COMMITS_CAP)
		return AA_OK;
	return commit_in_long_pull(l, number, sha, out);
}

/* --- writes --- */

/*
 * Send one write. 0 when GitHub answered one of the `ok` statuses;
 * AA_EAPI otherwise, with `*sent_unknown` set when no answer came back
 * (transport failure or 5xx): the write may have landed.
 */
static int write_req(struct live *l, struct http *client, const char *method,
		     const char *path, const char *body, long ok1, long ok2,
		     struct http_response *r, bool *sent_unknown)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_EAPI;

	*sent_unknown = false;
	if (client == l->read_http && app_token(l) < 0)
		goto out;
	if (http_request(client, method, path, body, false, r, &err) < 0) {
		buf_setf(&l->gh.error, "%s", err.ptr);
		*sent_unknown = r->status == 0 || r->status >= 500;
		goto out;
	}
	if (r->status == ok1 || r->status == ok2) {
		error = AA_OK;
		goto out;
	}
	*sent_unknown = r->status >= 500;
	{
		cJSON *root = NULL;
		const cJSON *msg = NULL;
		const char *text = NULL;
		struct buf e2 = BUF_INIT(BUF_MAX_SMALL);

		if (json_parse(&root, r->body.ptr, r->body.len, &e2) == 0)
			msg = cJSON_GetObjectItemCaseSensitive(root, "message");
		if (msg && cJSON_IsString(msg))
			text = msg->valuestring;
		buf_setf(&l->gh.error, "%s %s: HTTP %ld%s%s", method, path,
			 r->status, text ? ": " : "", text ? text : "");
		cJSON_Delete(root);
		buf_release(&e2);
	}
out:
	buf_release(&err);
	return error;
}

static void body_field(struct buf *b, const char *key, const char *value,
		       bool first)
{
	if (!first)
		buf_addch(b, ',');
	json_quote(b, key, strlen(key));
	buf_addch(b, ':');
	if (value)
		json_quote(b, value, strlen(value));
	else
		buf_adds(b, "null");
}

static int live_create_label(struct github *gh, int64_t pr, const char *name,
			     const char *color, const char *description)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	bool unknown, exists = false;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/labels", l->owner, l->name);
	buf_addch(&body, '{');
	body_field(&body, "name", name, true);
	body_field(&body, "color", color, false);
	body_field(&body, "description", description, false);
	buf_addch(&body, '}');
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  201, 201, &r, &unknown);
	/* 422 "already_exists": someone created it meanwhile, which is
	 * what we wanted. After no answer, look. */
	if (error < 0 && (r.status == 422 || unknown) &&
	    live_label_exists(gh, pr, name, &exists) == 0 && exists)
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

static bool pull_has_label(struct live *l, int64_t pr, const char *name)
{
	struct snap_pull p;
	bool has = false;
	size_t i;

	if (bundle(l, pr, PART_LABELS, &p) < 0)
		return false;
	for (i = 0; i < p.nlabels; i++)
		if (str_eq_nocase(p.labels[i], name))
			has = true;
	snap_pull_release(&p);
	return has;
}

static int live_add_label(struct github *gh, int64_t pr, const char *name)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	bool unknown;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/issues/%lld/labels", l->owner, l->name,
		 (long long)pr);
	buf_adds(&body, "{\"labels\":[");
	json_quote(&body, name, strlen(name));
	buf_adds(&body, "]}");
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  200, 200, &r, &unknown);
	if (error < 0 && unknown && pull_has_label(l, pr, name))
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

/* Did a status like this one, by us, land after the newest id we knew? */
static bool status_landed(struct live *l, int64_t pr, const char *sha,
			  const char *state, const char *context,
			  const char *description, int64_t known_max)
{
	struct snap_statuses st;
	bool landed = false;
	size_t i;

	if (fetch_statuses(l, pr, sha, 0, &st) < 0)
		return false;
	for (i = 0; i < st.n; i++)
		if (st.v[i].id > known_max &&
		    strcmp(st.v[i].state, state) == 0 &&
		    strcmp(st.v[i].context, context) == 0 &&
		    strcmp(st.v[i].description, description) == 0 &&
		    (l->app ? same_creator(st.v[i].creator, l->app->bot_login)
			    : l->viewer &&
				      same_creator(st.v[i].creator, l->viewer)))
			landed = true;
	snap_statuses_release(&st);
	return landed;
}

static int live_create_status(struct github *gh, int64_t pr, const char *sha,
			      const char *state, const char *context,
			      const char *description, const char *target_url)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct cache_entry *c = cache_find(l, pr, sha);
	struct http_response r;
	int64_t known_max = 0;
	bool unknown;
	size_t i;
	int error;

	for (i = 0; c && i < c->st.n; i++)
		if (c->st.v[i].id > known_max)
			known_max = c->st.v[i].id;
	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/statuses/%s", l->owner, l->name, sha);
	buf_addch(&body, '{');
	body_field(&body, "state", state, true);
	body_field(&body, "context", context, false);
	body_field(&body, "description", description, false);
	if (target_url)
		body_field(&body, "target_url", target_url, false);
	buf_addch(&body, '}');
	error = write_req(l, label_status_client(l), "POST", path.ptr, body.ptr,
			  201, 201, &r, &unknown);
	if (error < 0 && unknown &&
	    status_landed(l, pr, sha, state, context, description, known_max))
		error = AA_OK;
	cache_drop_sha(l, sha); /* the history changed */
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

/* After no answer: find the review (approved for commit_id, or dismissed). */
static bool review_landed(struct live *l, int64_t pr, const char *commit_id,
			  int64_t dismissed_id, int64_t *review_id)
{
	struct snap_pull p;
	bool landed = false;
	size_t i;

	if (bundle(l, pr, PART_REVIEWS, &p) < 0)
		return false;
	for (i = 0; i < p.nreviews; i++) {
		const struct snap_review *r = &p.reviews[i];

		if (dismissed_id) {
			if (r->id == dismissed_id &&
			    strcmp(r->state, "DISMISSED") == 0)
				landed = true;
		} else if (commit_id && strcmp(r->state, "APPROVED") == 0 &&
			   strcmp(r->commit_id, commit_id) == 0 && l->viewer &&
			   same_creator(r->author, l->viewer)) {
			landed = true;
			*review_id = r->id;
		}
	}
	snap_pull_release(&p);
	return landed;
}

static int live_approve(struct github *gh, int64_t pr, const char *commit_id,
			const char *text, int64_t *review_id)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_DOC),
		   err = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	bool unknown;
	int error;

	*review_id = 0;
	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews", l->owner, l->name,
		 (long long)pr);
	buf_addch(&body, '{');
	body_field(&body, "commit_id", commit_id, true);
	body_field(&body, "body", text, false);
	body_field(&body, "event", "APPROVE", false);
	buf_addch(&body, '}');
	error = write_req(l, l->http, "POST", path.ptr, body.ptr, 200, 200, &r,
			  &unknown);
	if (error == AA_OK) {
		/* It landed. The id is what a later dismissal of this very
		 * review needs: read it back when the answer lacks it. */
		if ((json_parse(&root, r.body.ptr, r.body.len, &err) < 0 ||
		     jget_int(review_id, root, "review", "id", 0, 1, JSON_MAX_INT,
			      &err) < 0) &&
		    !review_landed(l, pr, commit_id, 0, review_id))
			*review_id = 0;
	} else if (unknown && review_landed(l, pr, commit_id, 0, review_id)) {
		error = AA_OK;
	}
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	buf_release(&err);
	return error;
}

static int live_dismiss(struct github *gh, int64_t pr, int64_t review_id,
			const char *message)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL), body = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	int64_t unused;
	bool unknown;
	int error;

	http_response_init(&r);
	buf_addf(&path, "/repos/%s/%s/pulls/%lld/reviews/%lld/dismissals",
		 l->owner, l->name, (long long)pr, (long long)review_id);
	buf_addch(&body, '{');
	body_field(&body, "message", message, true);
	body_field(&body, "event", "DISMISS", false);
	buf_addch(&body, '}');
	error = write_req(l, l->http, "PUT", path.ptr, body.ptr, 200, 200, &r,
			  &unknown);
	if (error < 0 && unknown &&
	    review_landed(l, pr, NULL, review_id, &unused))
		error = AA_OK;
	http_response_release(&r);
	buf_release(&path);
	buf_release(&body);
	return error;
}

/* --- lifecycle --- */

static void live_refresh(struct github *gh)
{
	/* Nothing read is reused without a check: pulls are always read
	 * again, and a cached status history only when cache_current()
	 * finds it unchanged. */
	L(gh)->contexts.valid = false;
}

static int64_t live_now(struct github *gh)
{
	struct timespec ts;

	(void)gh;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
		free(l->app);
	}
	free(l->graphql_url);
	free(l->owner);
	free(l->name);
	free(l->viewer);
	for (i = 0; i < l->ncache; i++)
		snap_statuses_release(&l->cache[i].st);
	free(l->cache);
	snap_statuses_release(&l->contexts.newest);
	for (i = 0; i < l->nahead; i++) {
		snap_pull_release(&l->ahead[i].pull);
		snap_statuses_release(&l->ahead[i].contexts);
	}
	free(l->ahead);
	buf_release(&gh->error);
	free(l);
}

static const struct github_ops live_ops = {
	live_user,	     live_open_pulls,	live_pull,
	live_commit_in_pull, live_statuses,	live_label_exists,
	live_create_label,   live_add_label,	live_create_status,
	live_approve,	     live_dismiss,	live_prefetch,
	live_budget,	     live_refresh,	live_now,
	live_free,
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

void github_live_stats(struct github *gh, struct http_stats *out)
{
	struct live *l = L(gh);
	const struct http_stats *a = http_stats(l->http);

	*out = *a;
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

/* --- decoding without a network, for the fuzz targets --- */

void github_live_fuzz(int which, const char *data, size_t len)
{
	struct live l;
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *d, *repo, *pr, *node, *nodes;
	cJSON *root = NULL;
	size_t i;

	memset(&l, 0, sizeof(l));
	buf_init(&l.gh.error, BUF_MAX_SMALL);
	policy_init(&p);
	l.policy = &p;
	if (json_parse(&root, data, len, &err) < 0)
		goto out;
	switch (which) {
	case LIVE_FUZZ_PULL: {
		struct snap_pull out;
		struct history_reads pending = {NULL, 0};
		char *cursor = NULL;
		bool more;
		size_t k;

		memset(&out, 0, sizeof(out));
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0 ||
		    jget_obj(&pr, repo, "repository", "pullRequest", 0, &err) < 0)
			break;
		if (dec_pull_fields(&out, pr, &err) == 0)
			dec_head_status(&l, out.number, out.head_sha, pr, &err);
		for (k = 0; k < ARRAY_SIZE(conns); k++)
			if (dec_conn(&nodes, &more, &cursor, pr, conns[k].field,
				     &err) == 0)
				dec_nodes(&l, &out, conns[k].part, nodes, &pending,
					  &err);
		free(cursor);
		history_reads_release(&pending);
		snap_pull_release(&out);
		break;
	}
	case LIVE_FUZZ_EDITS: {
		/* data.nodes[] (edits_query) and data.node (a later page). */
		const cJSON *one;
		char *cursor = NULL;
		bool more;

		if (jget_obj(&d, root, "", "data", 0, &err) < 0)
			break;
		nodes = cJSON_GetObjectItemCaseSensitive(d, "nodes");
		one = cJSON_GetObjectItemCaseSensitive(d, "node");
		cJSON_ArrayForEach(node, nodes)
		{
			struct snap_comment c;

			memset(&c, 0, sizeof(c));
			if (dec_comment_node(node, NULL, &err) == 0 &&
			    dec_edits(&c, node, &more, &cursor, &err) == 0 &&
			    c.nedits > 1)
				qsort(c.edits, c.nedits, sizeof(*c.edits),
				      cmp_edit);
			snap_comment_release(&c);
		}
		if (one) {
			struct snap_comment c;

			memset(&c, 0, sizeof(c));
			if (dec_comment_node(one, NULL, &err) == 0)
				dec_edits(&c, one, &more, &cursor, &err);
			snap_comment_release(&c);
		}
		free(cursor);
		break;
	}
	case LIVE_FUZZ_STATUSES:
		cJSON_ArrayForEach(node, root)
		{
			struct snap_status x;

			memset(&x, 0, sizeof(x));
			dec_status(&x, node, &err);
			snap_status_release(&x);
		}
		break;
	case LIVE_FUZZ_LISTING:
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0 ||
		    jget_obj(&pr, repo, "repository", "pullRequests", 0, &err) < 0 ||
		    jget_arr(&nodes, pr, "pullRequests", "nodes", 0, &err) < 0)
			break;
		cJSON_ArrayForEach(node, nodes)
		{
			struct gh_pull_brief b;

			memset(&b, 0, sizeof(b));
			if (jget_sha(b.head_sha, node, "n", "headRefOid", 0, &err) ==
			    0)
				dec_brief_extra(&b, node, &err);
			snap_statuses_release(&b.contexts);
			strv_free(b.approvers, b.napprovers);
		}
		break;
	case LIVE_FUZZ_BATCH:
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0)
			break;
		for (i = 0; i < LIVE_BATCH_PRS; i++) {
			struct prefetched one;
			char alias[8] = {'p', (char)('0' + (int)i), '\0'};

			if (dec_ahead(&l, cJSON_GetObjectItemCaseSensitive(repo, alias),
				      (int64_t)i + 1, &one, &err)) {
				snap_pull_release(&one.pull);
				snap_statuses_release(&one.contexts);
			}
		}
		break;
	default:
		break;
	}
out:
	cJSON_Delete(root);
	snap_statuses_release(&l.contexts.newest);
	buf_release(&l.gh.error);
	buf_release(&err);
	policy_release(&p);
}
