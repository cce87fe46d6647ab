/*
 * snapshot_setup.c - the snapshot's optional description of a repository's
 * setup, which only `doctor` reads (docs/snapshot.md, The repository's
 * setup): branches, their ruleset rules and classic protections in
 * GitHub's own shapes, the token account's role, files (CODEOWNERS),
 * teams, the token, environments. Loaded strictly like the rest: a
 * mistyped field is a malformed snapshot naming it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/doctor.h"
#include "formats/snapshot_int.h"

/* Lengths a snapshot's setup strings may have. */
#define SETUP_MAX_NAME 255
#define SETUP_MAX_TEXT ((size_t)3 * 1024 * 1024)

static int strv(char ***v, size_t *n, const cJSON *arr, const char *path,
		struct buf *err)
{
	const cJSON *x;
	size_t i = 0, alloc = 0; /* ALLOC_GROW's */

	if (!cJSON_IsArray(arr)) {
		buf_setf(err, "%s: expected a list", path);
		return AA_ERR;
	}
	cJSON_ArrayForEach(x, arr)
	{
		if (!json_string(x) || !*json_string(x) ||
		    strlen(json_string(x)) > SETUP_MAX_NAME) {
			buf_setf(err, "%s[%zu]: expected a name", path, i);
			return AA_ERR;
		}
		ALLOC_GROW(*v, *n + 1, alloc);
		(*v)[(*n)++] = xstrdup(json_string(x));
		i++;
	}
	return AA_OK;
}

/* A ruleset rule in GitHub's shape: {type, parameters}. */
static int load_rule(struct setup_rule *r, const cJSON *o, const char *path,
		     struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *params = NULL, *checks = NULL, *x;
	size_t i = 0, alloc = 0; /* ALLOC_GROW's */
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		goto out;
	}
	if (jget_str(&r->type, o, path, "type", 0, err) ||
	    jget_obj(&params, o, path, "parameters", JOPT | JNULL, err))
		goto out;
	pathf(&p, "%s.parameters", path);
	if (params && strcmp(r->type, "pull_request") == 0) {
		if (jget_int(&r->approvals, params, p.ptr,
			     "required_approving_review_count", JOPT, 0, 10,
			     err) ||
		    jget_bool(&r->dismiss_stale, params, p.ptr,
			      "dismiss_stale_reviews_on_push", JOPT, err) ||
		    jget_bool(&r->last_push, params, p.ptr,
			      "require_last_push_approval", JOPT, err))
			goto out;
	} else if (params && strcmp(r->type, "required_status_checks") == 0) {
		if (jget_arr(&checks, params, p.ptr, "required_status_checks",
			     JOPT, err))
			goto out;
		cJSON_ArrayForEach(x, checks)
		{
			char *context = NULL;

			pathf(&p, "%s.parameters.required_status_checks[%zu]",
			      path, i++);
			if (jget_str(&context, x, p.ptr, "context", 0, err))
				goto out;
			ALLOC_GROW(r->contexts, r->ncontexts + 1, alloc);
			r->contexts[r->ncontexts++] = context;
		}
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

/* A classic protection in GitHub's shape, read as rules. */
static int load_protection(struct snap_branch_rules *b, const cJSON *o,
			   const char *path, struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *reviews = NULL, *checks = NULL, *contexts = NULL;
	struct setup_rule *r;
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		goto out;
	}
	if (jget_obj(&reviews, o, path, "required_pull_request_reviews",
		     JOPT | JNULL, err) ||
	    jget_obj(&checks, o, path, "required_status_checks", JOPT | JNULL,
		     err))
		goto out;
	b->v = xcalloc(2, sizeof(*b->v));
	if (reviews) {
		r = &b->v[b->n++];
		r->type = xstrdup("pull_request");
		pathf(&p, "%s.required_pull_request_reviews", path);
		if (jget_int(&r->approvals, reviews, p.ptr,
			     "required_approving_review_count", JOPT, 0, 10,
			     err) ||
		    jget_bool(&r->dismiss_stale, reviews, p.ptr,
			      "dismiss_stale_reviews", JOPT, err) ||
		    jget_bool(&r->last_push, reviews, p.ptr,
			      "require_last_push_approval", JOPT, err))
			goto out;
	}
	if (checks) {
		r = &b->v[b->n++];
		r->type = xstrdup("required_status_checks");
		pathf(&p, "%s.required_status_checks", path);
		if (jget_arr(&contexts, checks, p.ptr, "contexts", JOPT, err))
			goto out;
		pathf(&p, "%s.required_status_checks.contexts", path);
		if (contexts && strv(&r->contexts, &r->ncontexts, contexts,
				     p.ptr, err))
			goto out;
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

/* An object keyed by branch: {branch: [rules]} or {branch: protection}. */
static int load_by_branch(struct snap_branch_rules **v, size_t *n,
			  const cJSON *obj, const char *key, bool classic,
			  struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *item, *r;
	size_t alloc = 0; /* ALLOC_GROW's */
	int error = AA_ERR;

	if (!cJSON_IsObject(obj)) {
		buf_setf(err, "%s: expected an object", key);
		goto out;
	}
	cJSON_ArrayForEach(item, obj)
	{
		struct snap_branch_rules *b;
		size_t i = 0;

		ALLOC_GROW(*v, *n + 1, alloc);
		b = &(*v)[(*n)++];
		memset(b, 0, sizeof(*b));
		b->branch = xstrdup(item->string);
		if (!ref_name_valid(b->branch)) {
			buf_setf(err, "%s: '%s' is not a branch name", key,
				 b->branch);
			goto out;
		}
		pathf(&p, "%s.%s", key, b->branch);
		if (classic) {
			if (load_protection(b, item, p.ptr, err))
				goto out;
			continue;
		}
		if (!cJSON_IsArray(item)) {
			buf_setf(err, "%s: expected a list of rules", p.ptr);
			goto out;
		}
		b->v = xcalloc((size_t)cJSON_GetArraySize(item) + 1,
			       sizeof(*b->v));
		cJSON_ArrayForEach(r, item)
		{
			pathf(&p, "%s.%s[%zu]", key, b->branch, i++);
			b->n++;
			if (load_rule(&b->v[b->n - 1], r, p.ptr, err))
				goto out;
		}
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static int load_contents(struct snap_setup *s, const cJSON *obj,
			 struct buf *err)
{
	const cJSON *item;
	size_t alloc = 0; /* ALLOC_GROW's */

	if (!cJSON_IsObject(obj)) {
		buf_setf(err, "contents: expected an object of path: text");
		return AA_ERR;
	}
	cJSON_ArrayForEach(item, obj)
	{
		if (!json_string(item) ||
		    strlen(json_string(item)) > SETUP_MAX_TEXT) {
			buf_setf(err, "contents.%s: expected the file's text",
				 item->string);
			return AA_ERR;
		}
		ALLOC_GROW(s->contents, s->ncontents + 1, alloc);
		s->contents[s->ncontents].path = xstrdup(item->string);
		s->contents[s->ncontents++].text = xstrdup(json_string(item));
	}
	return AA_OK;
}

static int load_teams(struct snap_setup *s, const cJSON *obj, struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *item;
	size_t alloc = 0; /* ALLOC_GROW's */
	int error = AA_ERR;

	if (!cJSON_IsObject(obj)) {
		buf_setf(err, "teams: expected an object of ORG/SLUG: logins");
		goto out;
	}
	cJSON_ArrayForEach(item, obj)
	{
		struct snap_team *t;

		ALLOC_GROW(s->teams, s->nteams + 1, alloc);
		t = &s->teams[s->nteams++];
		memset(t, 0, sizeof(*t));
		t->name = xstrdup(item->string);
		pathf(&p, "teams.%s", t->name);
		if (!strchr(t->name, '/')) {
			buf_setf(err, "%s: a team is ORG/SLUG", p.ptr);
			goto out;
		}
		if (strv(&t->members, &t->n, item, p.ptr, err))
			goto out;
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static const char *const kinds[] = {"unknown",	     "fine-grained",
				    "classic",	     "oauth",
				    "user-to-server", "installation"};

static int load_token(struct snap_setup *s, const cJSON *o, struct buf *err)
{
	char *kind = NULL;
	size_t i;
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "token: expected an object");
		return AA_ERR;
	}
	if (jget_str(&kind, o, "token", "kind", JOPT | JNULL, err) ||
	    jget_str(&s->token_scopes, o, "token", "scopes", JOPT | JNULL,
		     err) ||
	    jget_time(&s->token_expires, o, "token", "expires_at",
		      JOPT | JNULL, err))
		goto out;
	if (kind) {
		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			if (strcmp(kind, kinds[i]) == 0)
				break;
		if (i == ARRAY_SIZE(kinds)) {
			buf_setf(err, "token.kind: '%s' is not fine-grained, "
				      "classic, oauth, user-to-server, "
				      "installation or unknown", kind);
			goto out;
		}
		s->token_kind = (int)i;
	}
	error = AA_OK;
out:
	free(kind);
	return error;
}

static int load_env(struct snap_env *e, const cJSON *o, const char *path,
		    struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *policy = NULL, *list = NULL, *x;
	size_t i = 0, alloc = 0; /* ALLOC_GROW's */
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		goto out;
	}
	if (jget_obj(&policy, o, path, "deployment_branch_policy", JOPT | JNULL,
		     err) ||
	    jget_arr(&list, o, path, "branch_policies", JOPT | JNULL, err))
		goto out;
	pathf(&p, "%s.deployment_branch_policy", path);
	if (policy &&
	    (jget_bool(&e->protected_branches, policy, p.ptr,
		       "protected_branches", 0, err) ||
	     jget_bool(&e->custom, policy, p.ptr, "custom_branch_policies", 0,
		       err)))
		goto out;
	e->restricted = policy != NULL;
	cJSON_ArrayForEach(x, list)
	{
		struct setup_env_policy *bp;

		ALLOC_GROW(e->policies, e->npolicies + 1, alloc);
		bp = &e->policies[e->npolicies++];
		memset(bp, 0, sizeof(*bp));
		pathf(&p, "%s.branch_policies[%zu]", path, i++);
		if (jget_str(&bp->name, x, p.ptr, "name", 0, err) ||
		    jget_str(&bp->type, x, p.ptr, "type", JOPT | JNULL, err))
			goto out;
		if (bp->type && strcmp(bp->type, "branch") != 0 &&
		    strcmp(bp->type, "tag") != 0) {
			buf_setf(err, "%s.type: branch or tag", p.ptr);
			goto out;
		}
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static int load_envs(struct snap_setup *s, const cJSON *obj, struct buf *err)
{
	struct buf p = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *item;
	size_t alloc = 0; /* ALLOC_GROW's */
	int error = AA_ERR;

	if (!cJSON_IsObject(obj)) {
		buf_setf(err, "environments: expected an object of name: "
			      "environment");
		goto out;
	}
	cJSON_ArrayForEach(item, obj)
	{
		struct snap_env *e;

		ALLOC_GROW(s->envs, s->nenvs + 1, alloc);
		e = &s->envs[s->nenvs++];
		memset(e, 0, sizeof(*e));
		e->name = xstrdup(item->string);
		pathf(&p, "environments.%s", e->name);
		if (load_env(e, item, p.ptr, err))
			goto out;
	}
	error = AA_OK;
out:
	buf_release(&p);
	return error;
}

static const char *const roles[] = {"admin", "maintain", "write", "triage",
				    "read"};

int snapshot_load_setup(struct snapshot *snap, const cJSON *root,
			struct buf *err)
{
	static const char *const keys[] = {"branches", "rules", "protection",
					   "permission", "contents", "teams",
					   "token", "environments"};
	const cJSON *x;
	struct snap_setup *s;
	size_t i;
	bool any = false;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		x = json_get(root, keys[i]);
		any |= x && !cJSON_IsNull(x);
	}
	if (!any)
		return AA_OK;
	s = snap->setup = xcalloc(1, sizeof(*s));
	s->token_kind = TOKEN_FINE_GRAINED;
	if ((x = json_get(root, "branches")) &&
	    !cJSON_IsNull(x)) {
		s->has_branches = true;
		if (strv(&s->branches, &s->nbranches, x, "branches", err))
			return AA_ERR;
		for (i = 0; i < s->nbranches; i++)
			if (!ref_name_valid(s->branches[i])) {
				buf_setf(err, "branches[%zu]: not a branch name",
					 i);
				return AA_ERR;
			}
	}
	if ((x = json_get(root, "rules")) &&
	    !cJSON_IsNull(x) &&
	    load_by_branch(&s->rules, &s->nrules, x, "rules", false, err))
		return AA_ERR;
	if ((x = json_get(root, "protection")) &&
	    !cJSON_IsNull(x) &&
	    load_by_branch(&s->protection, &s->nprotection, x, "protection",
			   true, err))
		return AA_ERR;
	if (jget_str(&s->permission, root, "", "permission", JOPT | JNULL, err))
		return AA_ERR;
	if (s->permission) {
		for (i = 0; i < ARRAY_SIZE(roles); i++)
			if (strcmp(s->permission, roles[i]) == 0)
				break;
		if (i == ARRAY_SIZE(roles)) {
			buf_setf(err, "permission: admin, maintain, write, "
				      "triage or read");
			return AA_ERR;
		}
	}
	if ((x = json_get(root, "contents")) &&
	    !cJSON_IsNull(x) && load_contents(s, x, err))
		return AA_ERR;
	if ((x = json_get(root, "teams")) &&
	    !cJSON_IsNull(x) && load_teams(s, x, err))
		return AA_ERR;
	if ((x = json_get(root, "token")) &&
	    !cJSON_IsNull(x) && load_token(s, x, err))
		return AA_ERR;
	if ((x = json_get(root, "environments")) &&
	    !cJSON_IsNull(x) && load_envs(s, x, err))
		return AA_ERR;
	return AA_OK;
}
