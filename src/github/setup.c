/*
 * setup.c - the live port's doctor reads (docs/actions.md, Doctor): the
 * repository with the write token (its default branch, whether that
 * account may push), the branches, a branch's ruleset rules and classic
 * protection, a file at a ref (CODEOWNERS), a team's members, GET /user
 * with what its headers say about the token, an environment's deployment
 * branch rules, and the App installation's permissions. REST only, every
 * list to its end; decoding is strict like everywhere else.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "github/http.h"

/* Rules, branches or branch policies listed before giving up. */
#define SETUP_MAX_PAGES 20
/* The largest CODEOWNERS read (GitHub ignores files over 3 MB). */
#define SETUP_MAX_FILE ((size_t)3 * 1024 * 1024)

/* A path segment: bytes outside [A-Za-z0-9-._~] percent-encoded (a
 * branch may hold '/', '#', '%', '?'). */
static void add_segment(struct buf *b, const char *s, bool keep_slash)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (is_alnum(ch) || strchr("-._~", ch) ||
		    (keep_slash && ch == '/'))
			buf_addch(b, (char)ch);
		else
			buf_addf(b, "%%%02X", ch);
	}
}

static void repo_path(struct live *l, struct buf *b, const char *rest)
{
	buf_reset(b);
	buf_addf(b, "/repos/%s/%s%s", l->owner, l->name, rest);
}

static int setup_repo(struct github *gh, char **default_branch, int *push,
                      struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *perms;
	cJSON *root = NULL;
	bool can = false;
	int error;

	*default_branch = NULL;
	*push = -1;
	repo_path(l, &path, "");
	/* The write token: whose permissions the program writes with. */
	if ((error = rest_get(l, l->http, path.ptr, path.ptr, &root, NULL,
	                      err)) < 0)
		goto out;
	if (jget_str(default_branch, root, "repository", "default_branch", 0,
	             &why) < 0 ||
	    jget_obj(&perms, root, "repository", "permissions", JOPT, &why) <
	        0 ||
	    (perms && jget_bool(&can, perms, "repository.permissions", "push",
	                        0, &why) < 0)) {
		buf_setf(err, "GET %s: unexpected answer: %s", path.ptr,
		         why.ptr);
		free(*default_branch);
		*default_branch = NULL;
		error = AA_EAPI;
		goto out;
	}
	if (perms)
		*push = can;
out:
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	return error;
}

struct names {
	char **v;
	size_t n, alloc;
};

static int page_names(const cJSON *page, void *ctx, struct buf *err)
{
	struct names *names = ctx;
	const cJSON *item;
	char *name;

	if (!cJSON_IsArray(page)) {
		buf_setf(err, "not a list");
		return AA_ERR;
	}
	cJSON_ArrayForEach(item, page)
	{
		name = NULL;
		if (jget_str(&name, item, "branches[]", "name", 0, err) < 0)
			return AA_ERR;
		*ALLOC_PUSH(names->v, names->n, names->alloc) = name;
	}
	return AA_OK;
}

static int setup_branches(struct github *gh, char ***out, size_t *n,
                          struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct names names = {NULL, 0, 0};
	int error;

	repo_path(l, &path, "/branches?per_page=100");
	error = rest_pages(l, path.ptr, path.ptr, SETUP_MAX_PAGES, page_names,
	                   &names, err);
	buf_release(&path);
	if (error < 0) {
		strv_free(names.v, names.n);
		names.v = NULL;
		names.n = 0;
	}
	*out = names.v;
	*n = names.n;
	return error;
}

/* The strings of a JSON array of strings. */
static int strings(char ***v, size_t *n, const cJSON *arr, const char *path,
		   struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *x;

	cJSON_ArrayForEach(x, arr)
	{
		if (!json_string(x)) {
			buf_setf(err, "%s[]: expected a string", path);
			return AA_ERR;
		}
		*ALLOC_PUSH(*v, *n, alloc) = xstrdup(json_string(x));
	}
	return AA_OK;
}

struct rules {
	struct setup_rule *v;
	size_t n, alloc;
};

/* One rule of rules/branches: {type, parameters}. */
static int dec_rule(struct setup_rule *r, const cJSON *o, struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *params = NULL, *checks, *x;
	bool b;

	if (jget_str(&r->type, o, "rules[]", "type", 0, err) < 0 ||
	    jget_obj(&params, o, "rules[]", "parameters", JOPT | JNULL, err) < 0)
		return AA_ERR;
	if (!params)
		return AA_OK;
	if (strcmp(r->type, "pull_request") == 0) {
		if (jget_int(&r->approvals, params, "parameters",
			     "required_approving_review_count", 0, 0, 100,
			     err) < 0)
			return AA_ERR;
		b = false;
		if (jget_bool(&b, params, "parameters",
			      "dismiss_stale_reviews_on_push", 0, err) < 0)
			return AA_ERR;
		r->dismiss_stale = b;
		b = false;
		if (jget_bool(&b, params, "parameters",
			      "require_last_push_approval", 0, err) < 0)
			return AA_ERR;
		r->last_push = b;
	} else if (strcmp(r->type, "required_status_checks") == 0) {
		if (jget_arr(&checks, params, "parameters",
			     "required_status_checks", 0, err) < 0)
			return AA_ERR;
		cJSON_ArrayForEach(x, checks)
		{
			char *context = NULL;

			if (jget_str(&context, x, "required_status_checks[]",
				     "context", 0, err) < 0)
				return AA_ERR;
			*ALLOC_PUSH(r->contexts, r->ncontexts, alloc) = context;
		}
	}
	return AA_OK;
}

static int page_rules(const cJSON *page, void *ctx, struct buf *err)
{
	struct rules *rules = ctx;
	const cJSON *item;

	if (!cJSON_IsArray(page)) {
		buf_setf(err, "not a list");
		return AA_ERR;
	}
	cJSON_ArrayForEach(item, page)
	{
		if (dec_rule(ALLOC_PUSH(rules->v, rules->n, rules->alloc),
			     item, err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

static int setup_branch_rules(struct github *gh, const char *branch,
                              struct setup_rule **v, size_t *n, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct rules rules = {NULL, 0, 0};
	int error;

	repo_path(l, &path, "/rules/branches/");
	add_segment(&path, branch, false);
	buf_adds(&path, "?per_page=100");
	error = rest_pages(l, path.ptr, path.ptr, SETUP_MAX_PAGES, page_rules,
	                   &rules, err);
	buf_release(&path);
	if (error < 0) {
		setup_rules_free(rules.v, rules.n);
		rules.v = NULL;
		rules.n = 0;
	}
	*v = rules.v;
	*n = rules.n;
	return error;
}

static int setup_branch_protected(struct github *gh, const char *branch,
                                  bool *out, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	int error;

	*out = false;
	repo_path(l, &path, "/branches/");
	add_segment(&path, branch, false);
	if ((error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL,
	                      err)) == AA_OK &&
	    jget_bool(out, root, "branch", "protected", 0, &why) < 0) {
		buf_setf(err, "GET %s: unexpected answer: %s", path.ptr,
		         why.ptr);
		error = AA_EAPI;
	}
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	return error;
}

/* A classic protection as rules: pull_request and required_status_checks. */
static int dec_protection(struct rules *rules, const cJSON *root,
			  struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	const cJSON *reviews = NULL, *checks = NULL, *contexts = NULL,
		    *list = NULL, *x;
	struct setup_rule *r;
	bool b;

	if (jget_obj(&reviews, root, "protection",
		     "required_pull_request_reviews", JOPT | JNULL, err) < 0 ||
	    jget_obj(&checks, root, "protection", "required_status_checks",
		     JOPT | JNULL, err) < 0)
		return AA_ERR;
	if (reviews) {
		r = ALLOC_PUSH(rules->v, rules->n, rules->alloc);
		r->type = xstrdup("pull_request");
		if (jget_int(&r->approvals, reviews, "required_pull_request_reviews",
			     "required_approving_review_count", JOPT, 0, 100,
			     err) < 0)
			return AA_ERR;
		b = false;
		if (jget_bool(&b, reviews, "required_pull_request_reviews",
			      "dismiss_stale_reviews", JOPT, err) < 0)
			return AA_ERR;
		r->dismiss_stale = b;
		b = false;
		if (jget_bool(&b, reviews, "required_pull_request_reviews",
			      "require_last_push_approval", JOPT, err) < 0)
			return AA_ERR;
		r->last_push = b;
	}
	if (checks) {
		r = ALLOC_PUSH(rules->v, rules->n, rules->alloc);
		r->type = xstrdup("required_status_checks");
		if (jget_arr(&contexts, checks, "required_status_checks",
			     "contexts", JOPT, err) < 0 ||
		    (contexts && strings(&r->contexts, &r->ncontexts, contexts,
					 "contexts", err) < 0) ||
		    jget_arr(&list, checks, "required_status_checks", "checks",
			     JOPT, err) < 0)
			return AA_ERR;
		cJSON_ArrayForEach(x, list)
		{
			char *context = NULL;

			if (jget_str(&context, x, "checks[]", "context", 0,
				     err) < 0)
				return AA_ERR;
			*ALLOC_PUSH(r->contexts, r->ncontexts, alloc) = context;
		}
	}
	return AA_OK;
}

static int setup_protection(struct github *gh, const char *branch,
                            struct setup_rule **v, size_t *n, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	struct rules rules = {NULL, 0, 0};
	cJSON *root = NULL;
	int error;

	repo_path(l, &path, "/branches/");
	add_segment(&path, branch, false);
	buf_adds(&path, "/protection");
	if ((error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL,
	                      err)) == AA_OK &&
	    dec_protection(&rules, root, &why) < 0) {
		buf_setf(err, "GET %s: unexpected answer: %s", path.ptr,
		         why.ptr);
		error = AA_EAPI;
	}
	if (error < 0) {
		setup_rules_free(rules.v, rules.n);
		rules.v = NULL;
		rules.n = 0;
	}
	*v = rules.v;
	*n = rules.n;
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	return error;
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Standard base64 with line breaks (GitHub's contents encoding). */
static int base64_decode(struct buf *out, const char *s)
{
	unsigned acc = 0;
	int bits = 0, v;

	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == ' ')
			continue;
		if (*s == '=')
			break;
		if ((v = b64_value((unsigned char)*s)) < 0)
			return AA_ERR;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (buf_addch(out, (char)((acc >> bits) & 0xff)) < 0)
				return AA_ERR;
		}
	}
	return AA_OK;
}

static int setup_file(struct github *gh, const char *ref, const char *path_in,
                      char **text, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	struct buf body = BUF_INIT(SETUP_MAX_FILE);
	char *type = NULL, *encoding = NULL, *content = NULL;
	cJSON *root = NULL;
	int error;

	*text = NULL;
	repo_path(l, &path, "/contents/");
	add_segment(&path, path_in, true);
	buf_adds(&path, "?ref=");
	add_segment(&path, ref, false);
	if ((error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL,
	                      err)) < 0)
		goto out;
	error = AA_EAPI;
	if (!cJSON_IsObject(root)) {
		buf_setf(err, "GET %s: not a file", path.ptr);
		goto out;
	}
	if (jget_str(&type, root, "content", "type", 0, &why) < 0 ||
	    jget_str(&encoding, root, "content", "encoding", 0, &why) < 0 ||
	    jget_str(&content, root, "content", "content", 0, &why) < 0) {
		buf_setf(err, "GET %s: unexpected answer: %s", path.ptr,
		         why.ptr);
		goto out;
	}
	if (strcmp(type, "file") != 0 || strcmp(encoding, "base64") != 0 ||
	    base64_decode(&body, content) < 0) {
		buf_setf(err, "GET %s: not a base64 file", path.ptr);
		goto out;
	}
	*text = buf_detach(&body, NULL);
	error = AA_OK;
out:
	free(type);
	free(encoding);
	free(content);
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	buf_release(&body);
	return error;
}

static int setup_team_member(struct github *gh, const char *team,
                             const char *login, bool *member, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	const char *slash = strchr(team, '/');
	char *org = NULL;
	cJSON *root = NULL;
	int error;

	*member = false;
	if (!slash) {
		buf_setf(err, "team '%s' is not ORG/SLUG", team);
		return AA_EAPI;
	}
	org = xstrndup(team, (size_t)(slash - team));
	buf_adds(&path, "/orgs/");
	add_segment(&path, org, false);
	buf_adds(&path, "/teams/");
	add_segment(&path, slash + 1, false);
	/* The team must be visible: a membership 404 then means "not in". */
	if ((error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL,
	                      err)) < 0)
		goto out;
	cJSON_Delete(root);
	root = NULL;
	buf_adds(&path, "/memberships/");
	add_segment(&path, login, false);
	error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL, err);
	if (error == AA_ENOTFOUND)
		error = AA_OK;
	else if (error == AA_OK)
		*member = true; /* active or pending: in it, or about to be */
out:
	free(org);
	cJSON_Delete(root);
	buf_release(&path);
	return error;
}

static int setup_token(struct github *gh, struct setup_token *out,
                       struct buf *err)
{
	struct live *l = L(gh);
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	struct http_response r;
	cJSON *root = NULL;
	int error;

	http_response_init(&r);
	out->kind = l->token_kind;
	error = rest_get(l, l->http, "/user", "/user", &root, &r, err);
	if (r.oauth_scopes) {
		out->has_scopes = true;
		out->scopes = xstrdup(r.oauth_scopes);
	}
	out->expiration = xstrdup_or_null(r.token_expiration);
	if (error == AA_OK &&
	    jget_str(&out->login, root, "user", "login", 0, &why) < 0) {
		buf_setf(err, "GET /user: %s", why.ptr);
		error = AA_EAPI;
	}
	if (error < 0)
		setup_read_fail(&out->read, error, err->ptr);
	cJSON_Delete(root);
	http_response_release(&r);
	buf_release(&why);
	return error;
}

static int page_policies(const cJSON *page, void *ctx, struct buf *err)
{
	size_t alloc = 0; /* ALLOC_PUSH's */
	struct setup_env *e = ctx;
	const cJSON *list, *item;

	if (jget_arr(&list, page, "branch policies", "branch_policies", 0,
		     err) < 0)
		return AA_ERR;
	cJSON_ArrayForEach(item, list)
	{
		struct setup_env_policy *x =
			ALLOC_PUSH(e->policies, e->npolicies, alloc);

		if (jget_str(&x->name, item, "branch_policies[]", "name", 0,
			     err) < 0 ||
		    jget_str(&x->type, item, "branch_policies[]", "type", JOPT,
			     err) < 0)
			return AA_ERR;
	}
	return AA_OK;
}

static int setup_environment(struct github *gh, const char *name,
                             struct setup_env *out, struct buf *err)
{
	struct live *l = L(gh);
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           why = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *policy = NULL;
	cJSON *root = NULL;
	int error;

	repo_path(l, &path, "/environments/");
	add_segment(&path, name, false);
	if ((error = rest_get(l, l->read_http, path.ptr, path.ptr, &root, NULL,
	                      err)) < 0) {
		setup_read_fail(&out->read, error, err->ptr);
		goto out;
	}
	if (jget_obj(&policy, root, "environment", "deployment_branch_policy",
	             JOPT | JNULL, &why) < 0 ||
	    (policy &&
	     (jget_bool(&out->protected_branches, policy,
	                "deployment_branch_policy", "protected_branches", 0,
	                &why) < 0 ||
	      jget_bool(&out->custom, policy, "deployment_branch_policy",
	                "custom_branch_policies", 0, &why) < 0))) {
		buf_setf(err, "GET %s: unexpected answer: %s", path.ptr,
		         why.ptr);
		error = AA_EAPI;
		setup_read_fail(&out->read, error, err->ptr);
		goto out;
	}
	out->restricted = policy != NULL;
	if (out->custom) {
		buf_adds(&path, "/deployment-branch-policies?per_page=100");
		if ((error = rest_pages(l, path.ptr, path.ptr, SETUP_MAX_PAGES,
		                        page_policies, out, err)) < 0)
			setup_read_fail(&out->policies_read, error, err->ptr);
	}
out:
	cJSON_Delete(root);
	buf_release(&path);
	buf_release(&why);
	return error;
}

static char *level(const cJSON *perms, const char *key)
{
	const char *v = json_str(perms, key);

	return xstrdup(v ? v : "");
}

static int setup_app(struct github *gh, struct setup_app *out, struct buf *err)
{
	struct live *l = L(gh);

	out->enabled = l->app != NULL;
	if (!l->app)
		return AA_OK;
	/* Every run mints an installation token: so does doctor, and reads
	 * what the installation was granted from the answer. */
	if (app_token(l, err) < 0) {
		setup_read_fail(&out->read, AA_EAPI, err->ptr);
		return AA_EAPI;
	}
	out->statuses = level(l->app->permissions, "statuses");
	out->issues = level(l->app->permissions, "issues");
	out->pull_requests = level(l->app->permissions, "pull_requests");
	out->contents = level(l->app->permissions, "contents");
	out->metadata = level(l->app->permissions, "metadata");
	return AA_OK;
}

const struct github_setup_ops live_setup_ops = {
    .repo = setup_repo,
    .branches = setup_branches,
    .branch_rules = setup_branch_rules,
    .branch_protected = setup_branch_protected,
    .protection = setup_protection,
    .file = setup_file,
    .team_member = setup_team_member,
    .token = setup_token,
    .environment = setup_environment,
    .app = setup_app,
};
