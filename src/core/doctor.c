/*
 * doctor.c - what `agentic-apply doctor` reads, before it judges
 * (docs/actions.md, Doctor; N52-N59): the names, the facts' lifecycle,
 * which bases are gated (the policy's bases against the branch list), and
 * CODEOWNERS read as owners per line. The checks themselves, one verdict
 * per item and its fix, are in doctor_checks.c.
 */
#include "core/doctor.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const doctor_codeowners_paths[DOCTOR_NCODEOWNERS] = {
	".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"};

const char *const token_kind_names[] = {
	"unknown",	  "fine-grained personal access token",
	"classic personal access token", "OAuth token",
	"GitHub App user token", "GitHub App installation token"};

const char *const doctor_verdict_names[] = {"ok", "missing", "cannot tell",
					    "skipped"};

enum token_kind token_kind_of(const char *token)
{
	static const struct {
		const char *prefix;
		enum token_kind kind;
	} prefixes[] = {{"github_pat_", TOKEN_FINE_GRAINED},
			{"ghp_", TOKEN_CLASSIC},
			{"gho_", TOKEN_OAUTH},
			{"ghu_", TOKEN_USER_TO_SERVER},
			{"ghs_", TOKEN_INSTALLATION}};
	size_t i;

	for (i = 0; token && i < ARRAY_SIZE(prefixes); i++)
		if (strncmp(token, prefixes[i].prefix,
			    strlen(prefixes[i].prefix)) == 0)
			return prefixes[i].kind;
	return TOKEN_UNKNOWN;
}

void setup_rules_free(struct setup_rule *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].type);
		strv_free(v[i].contexts, v[i].ncontexts);
	}
	free(v);
}

static void env_policies_free(struct setup_env_policy *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].type);
	}
	free(v);
}

static void branch_rules_free(struct snap_branch_rules *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].branch);
		setup_rules_free(v[i].v, v[i].n);
	}
	free(v);
}

void snap_setup_free(struct snap_setup *s)
{
	size_t i;

	if (!s)
		return;
	strv_free(s->branches, s->nbranches);
	branch_rules_free(s->rules, s->nrules);
	branch_rules_free(s->protection, s->nprotection);
	free(s->permission);
	for (i = 0; i < s->ncontents; i++) {
		free(s->contents[i].path);
		free(s->contents[i].text);
	}
	free(s->contents);
	for (i = 0; i < s->nteams; i++) {
		free(s->teams[i].name);
		strv_free(s->teams[i].members, s->teams[i].n);
	}
	free(s->teams);
	free(s->token_scopes);
	for (i = 0; i < s->nenvs; i++) {
		free(s->envs[i].name);
		env_policies_free(s->envs[i].policies, s->envs[i].npolicies);
	}
	free(s->envs);
	free(s);
}

void setup_read_fail(struct setup_read *r, int error, const char *why)
{
	r->error = error;
	free(r->why);
	r->why = xstrdup_or_null(why);
}

void doctor_facts_init(struct doctor_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->push = -1;
}

static void read_release(struct setup_read *r)
{
	free(r->why);
	r->why = NULL;
}

void doctor_facts_release(struct doctor_facts *f)
{
	size_t i, j;

	read_release(&f->repo_read);
	free(f->default_branch);
	read_release(&f->branches_read);
	for (i = 0; i < f->nbases; i++) {
		struct setup_base *b = &f->bases[i];

		free(b->name);
		read_release(&b->rules_read);
		setup_rules_free(b->rules, b->nrules);
		read_release(&b->branch_read);
		read_release(&b->protection_read);
		setup_rules_free(b->protection, b->nprotection);
		read_release(&b->codeowners_read);
		free(b->codeowners);
		for (j = 0; j < b->nteams; j++) {
			free(b->teams[j].name);
			read_release(&b->teams[j].read);
		}
		free(b->teams);
	}
	free(f->bases);
	read_release(&f->label_read);
	read_release(&f->token.read);
	free(f->token.login);
	free(f->token.scopes);
	free(f->token.expiration);
	read_release(&f->env.read);
	read_release(&f->env.policies_read);
	env_policies_free(f->env.policies, f->env.npolicies);
	read_release(&f->app.read);
	free(f->app.statuses);
	free(f->app.issues);
	free(f->app.pull_requests);
	free(f->app.contents);
	free(f->app.metadata);
	memset(f, 0, sizeof(*f));
}

/* --- which bases ------------------------------------------------------ */

bool doctor_needs_branch_list(const struct policy *p)
{
	size_t i;

	for (i = 0; i < p->nbases; i++)
		if (strchr(p->bases[i], '*'))
			return true;
	return false;
}

static void add_unique(char ***v, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xrealloc(*v, st_mult(*n + 1, sizeof(**v)));
	(*v)[(*n)++] = xstrdup(s);
}

void doctor_gated_bases(const struct policy *p, const char *default_branch,
			char *const *branches, size_t nbranches, char ***out,
			size_t *n, bool *cut)
{
	size_t i;

	*out = NULL;
	*n = 0;
	*cut = false;
	if (!p->nbases) {
		if (default_branch)
			add_unique(out, n, default_branch);
		return;
	}
	/* Exact names are gated whether or not the branch exists yet. */
	for (i = 0; i < p->nbases; i++)
		if (!strchr(p->bases[i], '*'))
			add_unique(out, n, p->bases[i]);
	for (i = 0; i < nbranches; i++) {
		if (!policy_base_gated(p, branches[i], default_branch))
			continue;
		if (*n >= DOCTOR_MAX_BASES) {
			*cut = true;
			break;
		}
		add_unique(out, n, branches[i]);
	}
}

/* --- CODEOWNERS ----------------------------------------------------------- */

/*
 * Call `fn` for every owner of every rule line: a line is a pattern and
 * its owners, separated by blanks; "#" starts a comment (an escaped "\#"
 * stays part of a pattern).
 */
static void owners(const char *text,
		   void (*fn)(void *ctx, const char *owner, size_t len,
			      size_t line),
		   void *ctx)
{
	size_t line = 0;

	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text), i = 0;
		bool first = true;

		line++;
		while (i < len) {
			size_t start;

			while (i < len && (text[i] == ' ' || text[i] == '\t' ||
					   text[i] == '\r'))
				i++;
			if (i >= len || (text[i] == '#' &&
					 (i == 0 || text[i - 1] != '\\')))
				break;
			start = i;
			while (i < len && text[i] != ' ' && text[i] != '\t' &&
			       text[i] != '\r')
				i++;
			if (!first)
				fn(ctx, text + start, i - start, line);
			first = false;
		}
		text = end ? end + 1 : text + len;
	}
}

struct team_list {
	char **v;
	size_t n;
};

static void collect_team(void *ctx, const char *o, size_t len, size_t line)
{
	struct team_list *t = ctx;
	char *name;

	(void)line;
	if (len < 4 || o[0] != '@' || !memchr(o, '/', len))
		return;
	name = xstrndup(o + 1, len - 1);
	add_unique(&t->v, &t->n, name);
	free(name);
}

void doctor_codeowners_teams(const char *text, char ***out, size_t *n)
{
	struct team_list t = {NULL, 0};

	owners(text, collect_team, &t);
	*out = t.v;
	*n = t.n;
}

static void scan_owner(void *ctx, const char *o, size_t len, size_t line)
{
	struct owner_scan *s = ctx;

	if (len > 1 && o[0] == '@' && !memchr(o, '/', len) &&
	    mem_eq_nocase(o + 1, len - 1, s->login)) {
		if (!s->named_line)
			s->named_line = line;
	} else if (o[0] != '@' && memchr(o, '@', len) && !s->email_line) {
		s->email_line = line;
	}
}

void doctor_codeowners_scan(struct owner_scan *s, const char *text)
{
	owners(text, scan_owner, s);
}
