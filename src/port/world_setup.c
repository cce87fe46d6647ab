/*
 * world_setup.c - the doctor reads of the in-memory port, from the
 * snapshot's setup fields (docs/snapshot.md, The repository's setup), with
 * the answers GitHub gives: a branch protection only an admin reads, an
 * installation token without a user, a team not listed is not visible.
 * Faults of the setup kinds answered 401 or 403 are AA_EDENIED.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "port/world_int.h"

static const struct snap_setup *S(struct world *w)
{
	return w->s->setup;
}

static const char *default_branch(struct world *w)
{
	return w->s->default_branch ? w->s->default_branch : "main";
}

/* A setup read: the fault check, 401/403 as AA_EDENIED. */
static int fault(struct world *w, enum gh_read kind, struct buf *err)
{
	size_t i;
	int error =
	    world_fault(w, FAULT_READ, (int)kind, 0, NULL, 0, NULL, err);

	if (error != AA_EAPI)
		return error;
	for (i = 0; i < w->s->nfaults; i++) {
		const struct snap_fault *f = &w->s->faults[i];

		if (f->op == FAULT_READ && (int)f->kind == (int)kind &&
		    (f->status == 401 || f->status == 403))
			return AA_EDENIED;
	}
	return error;
}

static const char *role(struct world *w)
{
	return S(w) && S(w)->permission ? S(w)->permission : "write";
}

static int ws_repo(struct github *gh, char **branch, int *push, struct buf *err)
{
	struct world *w = W(gh);
	const char *r;
	int error;

	*branch = NULL;
	*push = -1;
	if ((error = fault(w, READ_REPOSITORY, err)) < 0)
		return error;
	r = role(w);
	*branch = xstrdup(default_branch(w));
	*push = strcmp(r, "admin") == 0 || strcmp(r, "maintain") == 0 ||
		strcmp(r, "write") == 0;
	return AA_OK;
}

static void add_name(char ***v, size_t *n, size_t *alloc, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = xstrdup(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The snapshot's branches, or: the default branch, the pulls' bases and
 * every branch the rules and protections name. */
static void all_branches(struct world *w, char ***v, size_t *n)
{
	const struct snap_setup *s = S(w);
	size_t i, alloc = 0; /* ALLOC_GROW's */

	*v = NULL;
	*n = 0;
	if (s && s->has_branches) {
		for (i = 0; i < s->nbranches; i++)
			add_name(v, n, &alloc, s->branches[i]);
	} else {
		add_name(v, n, &alloc, default_branch(w));
		for (i = 0; i < w->s->npulls; i++)
			if (w->s->pulls[i].base_ref)
				add_name(v, n, &alloc, w->s->pulls[i].base_ref);
		for (i = 0; s && i < s->nrules; i++)
			add_name(v, n, &alloc, s->rules[i].branch);
		for (i = 0; s && i < s->nprotection; i++)
			add_name(v, n, &alloc, s->protection[i].branch);
	}
	if (*n)
		qsort(*v, *n, sizeof(**v), cmp_str);
}

static int ws_branches(struct github *gh, char ***names, size_t *n,
                       struct buf *err)
{
	struct world *w = W(gh);
	int error;

	*names = NULL;
	*n = 0;
	if ((error = fault(w, READ_BRANCHES, err)) < 0)
		return error;
	all_branches(w, names, n);
	return AA_OK;
}

static bool branch_exists(struct world *w, const char *branch)
{
	char **v;
	size_t n, i;
	bool found = false;

	all_branches(w, &v, &n);
	for (i = 0; i < n; i++)
		found |= strcmp(v[i], branch) == 0;
	strv_free(v, n);
	return found;
}

static void copy_rules(const struct snap_branch_rules *b,
		       struct setup_rule **v, size_t *n)
{
	size_t i, j;

	*v = xcalloc(b->n ? b->n : 1, sizeof(**v));
	*n = b->n;
	for (i = 0; i < b->n; i++) {
		(*v)[i].type = xstrdup(b->v[i].type);
		(*v)[i].approvals = b->v[i].approvals;
		(*v)[i].dismiss_stale = b->v[i].dismiss_stale;
		(*v)[i].last_push = b->v[i].last_push;
		(*v)[i].ncontexts = b->v[i].ncontexts;
		(*v)[i].contexts = xcalloc(b->v[i].ncontexts + 1,
					   sizeof(char *));
		for (j = 0; j < b->v[i].ncontexts; j++)
			(*v)[i].contexts[j] = xstrdup(b->v[i].contexts[j]);
	}
}

static const struct snap_branch_rules *find(const struct snap_branch_rules *v,
					    size_t n, const char *branch)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].branch, branch) == 0)
			return &v[i];
	return NULL;
}

static int ws_branch_rules(struct github *gh, const char *branch,
                           struct setup_rule **v, size_t *n, struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_branch_rules *b;
	int error;

	*v = NULL;
	*n = 0;
	if ((error = fault(w, READ_RULES, err)) < 0)
		return error;
	/* GitHub lists the rules that would apply, even for a branch that
	 * does not exist yet. */
	b = S(w) ? find(S(w)->rules, S(w)->nrules, branch) : NULL;
	if (b)
		copy_rules(b, v, n);
	return AA_OK;
}

static int ws_branch_protected(struct github *gh, const char *branch, bool *out,
                               struct buf *err)
{
	struct world *w = W(gh);
	int error;

	*out = false;
	if ((error = fault(w, READ_BRANCHES, err)) < 0)
		return error;
	if (!branch_exists(w, branch)) {
		buf_setf(err, "branch %s: HTTP 404", branch);
		return AA_ENOTFOUND;
	}
	*out = S(w) && find(S(w)->protection, S(w)->nprotection, branch);
	return AA_OK;
}

static int ws_protection(struct github *gh, const char *branch,
                         struct setup_rule **v, size_t *n, struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_branch_rules *b;
	int error;

	*v = NULL;
	*n = 0;
	if ((error = fault(w, READ_BRANCHES, err)) < 0)
		return error;
	if (strcmp(role(w), "admin") != 0) {
		buf_setf(err,
		         "branch protection of %s: HTTP 403 (Must "
		         "have admin rights to Repository.)",
		         branch);
		return AA_EDENIED;
	}
	b = S(w) ? find(S(w)->protection, S(w)->nprotection, branch) : NULL;
	if (!b) {
		buf_setf(err,
		         "branch protection of %s: HTTP 404 (Branch "
		         "not protected)",
		         branch);
		return AA_ENOTFOUND;
	}
	copy_rules(b, v, n);
	return AA_OK;
}

static int ws_file(struct github *gh, const char *ref, const char *path,
                   char **text, struct buf *err)
{
	struct world *w = W(gh);
	size_t i;
	int error;

	(void)ref; /* the snapshot's files are the same on every branch */
	*text = NULL;
	if ((error = fault(w, READ_CONTENTS, err)) < 0)
		return error;
	for (i = 0; S(w) && i < S(w)->ncontents; i++)
		if (strcmp(S(w)->contents[i].path, path) == 0) {
			*text = xstrdup(S(w)->contents[i].text);
			return AA_OK;
		}
	buf_setf(err, "contents %s: HTTP 404", path);
	return AA_ENOTFOUND;
}

static int ws_team_member(struct github *gh, const char *team,
                          const char *login, bool *member, struct buf *err)
{
	struct world *w = W(gh);
	size_t i, j;
	int error;

	*member = false;
	if ((error = fault(w, READ_TEAMS, err)) < 0)
		return error;
	for (i = 0; S(w) && i < S(w)->nteams; i++) {
		const struct snap_team *t = &S(w)->teams[i];

		if (!str_eq_nocase(t->name, team))
			continue;
		for (j = 0; j < t->n; j++)
			*member |= str_eq_nocase(t->members[j], login);
		return AA_OK;
	}
	buf_setf(err, "team %s: HTTP 404", team);
	return AA_ENOTFOUND;
}

static int ws_token(struct github *gh, struct setup_token *out, struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_setup *s = S(w);
	int kind = s ? s->token_kind : TOKEN_FINE_GRAINED;
	int error;

	out->kind = (enum token_kind)kind;
	if (kind == TOKEN_CLASSIC || kind == TOKEN_OAUTH) {
		out->has_scopes = true;
		out->scopes = xstrdup(s && s->token_scopes ? s->token_scopes
							   : "repo");
	}
	if (s && s->token_expires) {
		char t[32];

		/* GitHub's header form: "2027-01-01 00:00:00 UTC". */
		time_format(t, s->token_expires);
		t[10] = ' ';
		memcpy(t + 19, " UTC", 5);
		out->expiration = xstrdup(t);
	}
	if ((error = world_fault(w, FAULT_READ, READ_USER, 0, NULL, 0, NULL,
	                         err)) < 0) {
		setup_read_fail(&out->read, error, err->ptr);
		return error;
	}
	if (kind == TOKEN_INSTALLATION) {
		buf_setf(err, "GET /user: HTTP 403 (Resource not "
		              "accessible by integration)");
		setup_read_fail(&out->read, AA_EDENIED, err->ptr);
		return AA_EDENIED;
	}
	out->login = xstrdup(world_viewer(w));
	return AA_OK;
}

static int ws_environment(struct github *gh, const char *name,
                          struct setup_env *out, struct buf *err)
{
	struct world *w = W(gh);
	size_t i, j;
	int error;

	if ((error = fault(w, READ_ENVIRONMENTS, err)) < 0) {
		setup_read_fail(&out->read, error, err->ptr);
		return error;
	}
	for (i = 0; S(w) && i < S(w)->nenvs; i++) {
		const struct snap_env *e = &S(w)->envs[i];

		if (strcmp(e->name, name) != 0)
			continue;
		out->restricted = e->restricted;
		out->protected_branches = e->protected_branches;
		out->custom = e->custom;
		if (!e->custom)
			return AA_OK;
		out->policies = xcalloc(e->npolicies + 1,
					sizeof(*out->policies));
		for (j = 0; j < e->npolicies; j++) {
			out->policies[j].name = xstrdup(e->policies[j].name);
			out->policies[j].type =
				xstrdup_or_null(e->policies[j].type);
		}
		out->npolicies = e->npolicies;
		return AA_OK;
	}
	buf_setf(err, "environment %s: HTTP 404", name);
	setup_read_fail(&out->read, AA_ENOTFOUND, err->ptr);
	return AA_ENOTFOUND;
}

static int ws_app(struct github *gh, struct setup_app *out, struct buf *err)
{
	(void)gh;
	(void)err;
	out->enabled = false; /* a replay has no App mode */
	return AA_OK;
}

const struct github_setup_ops world_setup_ops = {
    .repo = ws_repo,
    .branches = ws_branches,
    .branch_rules = ws_branch_rules,
    .branch_protected = ws_branch_protected,
    .protection = ws_protection,
    .file = ws_file,
    .team_member = ws_team_member,
    .token = ws_token,
    .environment = ws_environment,
    .app = ws_app,
};
