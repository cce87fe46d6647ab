/*
 * transport.c - the live port's GraphQL over http.c: one POST per
 * document (after making sure an App token is current), the answer parsed,
 * GraphQL's errors turned into AA_ENOTFOUND (no such pull request) or
 * AA_EAPI (anything else, even with partial data); and the variables the
 * queries take.
 */
#include "github/live_int.h"

#include <string.h>

#include "base/json.h"
#include "github/http.h"

void http_answer_message(struct buf *out, const char *call,
                         const struct http_response *r)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	const char *text = NULL;

	if (json_parse(&root, r->body.ptr, r->body.len, &err) == 0)
		text = json_str(root, "message");
	buf_setf(out, "%s: HTTP %ld%s%s", call, r->status, text ? ": " : "",
	         text ? text : "");
	cJSON_Delete(root);
	buf_release(&err);
}

/* A NOT_FOUND error on repository.pullRequest itself: there is no such PR.
 * (One deeper down — a comment's author, say — is a failed read.) */
static bool missing_pull(const cJSON *e)
{
	const cJSON *path = json_get(e, "path");

	return json_is_str(json_get(e, "type"), "NOT_FOUND") &&
	       cJSON_GetArraySize(path) == 2 &&
	       json_is_str(cJSON_GetArrayItem(path, 0), "repository") &&
	       json_is_str(cJSON_GetArrayItem(path, 1), "pullRequest");
}

/* A NOT_FOUND error on `repository` itself: the repository does not exist
 * or the token cannot see it, a usage error no retry fixes. */
static bool missing_repo(const cJSON *e)
{
	const cJSON *path = json_get(e, "path");

	return json_is_str(json_get(e, "type"), "NOT_FOUND") &&
	       cJSON_GetArraySize(path) == 1 &&
	       json_is_str(cJSON_GetArrayItem(path, 0), "repository");
}

/*
 * POST a GraphQL document. On success *root is the parsed answer and
 * *data its "data" object. AA_ENOTFOUND when GitHub says the pull request
 * does not exist; AA_EAPI on any other failure.
 */
void gql_body(struct buf *body, const char *query, size_t len,
	      const char *vars)
{
	struct buf q = BUF_INIT(BUF_MAX_DOC);

	gql_document(&q, query, len);
	buf_adds(body, "{\"query\":");
	json_quote(body, q.ptr, q.len);
	buf_addf(body, ",\"variables\":%s}", vars);
	buf_release(&q);
}

void gql_count(struct live *l, enum gql_kind kind, const cJSON *data)
{
	const cJSON *cost = json_get(json_get(data, "rateLimit"), "cost");

	l->tally[kind].queries++;
	/* Only counted: a missing or odd cost changes no decision. */
	if (cJSON_IsNumber(cost) && cost->valuedouble >= 0 &&
	    cost->valuedouble < 1e6) {
		l->points += (int64_t)cost->valuedouble;
		l->tally[kind].points += (int64_t)cost->valuedouble;
	}
}

int gql(struct live *l, const char *query, const char *vars, cJSON **root,
        const cJSON **data, struct buf *err)
{
	return gql_as(l, gql_kind_of(query), query, vars, root, data, err);
}

int gql_read(struct live *l, const char *query, const char *vars,
             gql_decode_fn decode, void *ctx, struct buf *err)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data;
	cJSON *root = NULL;
	int error = gql(l, query, vars, &root, &data, err);

	if (error == AA_OK && decode(ctx, data, &why) < 0) {
		buf_setf(err, "POST /graphql: unexpected answer: %s", why.ptr);
		error = AA_EAPI;
	}
	cJSON_Delete(root);
	buf_release(&why);
	return error;
}

int gql_pages(struct live *l, const struct gql_paging *g, struct buf *err)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *data;
	cJSON *root = NULL;
	int pages, error = AA_OK;

	for (pages = g->read; *g->more; pages++) {
		if (pages >= LIVE_MAX_PAGES) {
			buf_setf(err, "more than %d pages", LIVE_MAX_PAGES);
			error = AA_ETOOBIG;
			break;
		}
		buf_reset(&v);
		g->vars(g->ctx, &v, *g->cursor);
		if ((error = gql(l, g->query, v.ptr, &root, &data, err)) < 0)
			break;
		if ((error = g->page(g->ctx, data, err)) < 0) {
			error = AA_ERR;
			break;
		}
		cJSON_Delete(root);
		root = NULL;
	}
	cJSON_Delete(root);
	buf_release(&v);
	return error;
}

int gql_as(struct live *l, enum gql_kind kind, const char *query,
           const char *vars, cJSON **root, const cJSON **data, struct buf *err)
{
	struct buf body = BUF_INIT(BUF_MAX_DOC), why = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	const cJSON *errors, *e;
	int error = AA_EAPI;

	*root = NULL;
	*data = NULL;
	http_response_init(&r);
	if (app_token(l, err) < 0)
		goto out;
	gql_body(&body, query, strlen(query), vars);
	if (http_request(l->read_http, "POST", l->graphql_url, body.ptr, true,
	                 &r, &why) < 0) {
		buf_setf(err, "%s", why.ptr);
		goto out;
	}
	if (r.status != 200) {
		http_answer_message(err, "POST /graphql", &r);
		goto out;
	}
	if (json_parse(root, r.body.ptr, r.body.len, &why) < 0) {
		buf_setf(err, "POST /graphql: %s", why.ptr);
		goto out;
	}
	errors = json_get(*root, "errors");
	if (errors && !cJSON_IsNull(errors)) {
		const char *msg;

		cJSON_ArrayForEach(e, errors)
			if (missing_pull(e)) {
				error = AA_ENOTFOUND;
				buf_setf(err, "pull request not found");
				goto out;
			}
		cJSON_ArrayForEach(e, errors)
			if (missing_repo(e)) {
				l->gh.no_repo = true;
				buf_setf(err,
				         "the repository does not exist, or "
				         "the token cannot see it");
				goto out;
			}
		/* Any other error fails the read, even with partial data. */
		msg = json_str(cJSON_GetArrayItem(errors, 0), "message");
		buf_setf(err, "POST /graphql: %s",
		         msg ? msg : "an error without a message");
		goto out;
	}
	*data = json_get(*root, "data");
	if (!cJSON_IsObject(*data)) {
		buf_setf(err, "POST /graphql: no data in the answer");
		goto out;
	}
	gql_count(l, kind, *data);
	error = AA_OK;
out:
	if (error) {
		cJSON_Delete(*root);
		*root = NULL;
		*data = NULL;
	}
	http_response_release(&r);
	buf_release(&body);
	buf_release(&why);
	return error;
}

/* The variables of a query: owner, name, PR `number` (0: none), and one
 * more string variable `key` (NULL: none). */
void vars_kv(struct live *l, struct buf *v, int64_t number,
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
void vars(struct live *l, struct buf *v, int64_t number,
	  const char *after)
{
	vars_kv(l, v, number, "after", after);
}
