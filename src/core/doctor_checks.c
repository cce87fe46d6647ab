/*
 * doctor_checks.c - the setup checks of `agentic-apply doctor`
 * (docs/actions.md, Doctor; N52-N59): from what a token could read, one
 * verdict per item and the fix. A read that failed is "cannot tell", never
 * "ok"; an item the run cannot judge where it runs (the runner outside
 * Actions, the App without App mode) is "skipped" and needed by nobody.
 */
#include "core/doctor.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

/* --- the checks ------------------------------------------------------------ */

static struct doctor_check *add(struct doctor_result *r, const char *id,
				const char *subject, enum doctor_verdict v)
{
	struct doctor_check *c = ALLOC_PUSH(r->checks, r->n, r->alloc);

	c->id = id;
	c->subject = xstrdup_or_null(subject);
	c->verdict = v;
	r->counts[v]++;
	return c;
}

static char *vfmt(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
static char *vfmt(const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	buf_vaddf(&b, fmt, ap);
	return buf_detach(&b, NULL);
}

static void detail(struct doctor_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void detail(struct doctor_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(c->detail);
	c->detail = vfmt(fmt, ap);
	va_end(ap);
}

static void fix(struct doctor_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fix(struct doctor_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(c->fix);
	c->fix = vfmt(fmt, ap);
	va_end(ap);
}

/* Why a read gave nothing, in words: "the token may not read it (…)". */
static const char *read_why(const struct setup_read *r)
{
	return r->why ? r->why : "the read failed";
}

/*
 * The one shape of "cannot tell": a read the check needs gave nothing.
 * The detail is "<what> could not be read (<why>)"; `fix` is said as is.
 */
static void unread(struct doctor_result *r, const char *id,
		   const char *subject, const char *what,
		   const struct setup_read *rd, const char *fix_text)
{
	struct doctor_check *c = add(r, id, subject, DOCTOR_CANNOT_TELL);

	detail(c, "%s could not be read (%s)", what, read_why(rd));
	fix(c, "%s", fix_text);
}

static void check_token(struct doctor_result *r, const struct doctor_facts *f,
			const struct policy *p)
{
	const struct setup_token *t = &f->token;
	struct doctor_check *c;
	enum token_kind kind = t->kind;

	if (t->read.error == AA_OK && t->login &&
	    policy_is_trusted(p, t->login)) {
		c = add(r, "token-login", NULL, DOCTOR_OK);
		detail(c, "the token is %s's, the trusted login", t->login);
	} else if (t->read.error == AA_OK && t->login) {
		c = add(r, "token-login", NULL, DOCTOR_MISSING);
		detail(c, "the token is %s's, not the trusted login %s's",
		       t->login, p->trusted_login);
		fix(c, "store a token of %s as AGENTIC_TOKEN, or set "
		       "trusted-login (AGENTIC_TRUSTED_LOGIN) to the account "
		       "that posts the verdicts", p->trusted_login);
	} else if (kind == TOKEN_INSTALLATION) {
		c = add(r, "token-login", NULL, DOCTOR_MISSING);
		detail(c, "the token is a GitHub App installation token, "
			  "which belongs to no user (GET /user: %s)",
		       read_why(&t->read));
		fix(c, "AGENTIC_TOKEN must be a token of %s; an App joins it "
		       "through app-id and app-private-key (docs/actions.md, "
		       "GitHub App mode)", p->trusted_login);
	} else {
		c = add(r, "token-login", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "whose token this is could not be read (GET /user: "
			  "%s)", read_why(&t->read));
		fix(c, "check that AGENTIC_TOKEN is set in the environment and "
		       "still valid");
	}

	if (kind == TOKEN_UNKNOWN && t->has_scopes)
		kind = TOKEN_CLASSIC; /* GitHub lists scopes for classic ones */
	switch (kind) {
	case TOKEN_FINE_GRAINED:
		c = add(r, "token-kind", NULL, DOCTOR_OK);
		detail(c, "a fine-grained personal access token%s%s; its write "
			  "permissions (pull requests, issues, commit "
			  "statuses) cannot be read without writing: the "
			  "first run's writes prove them",
		       t->expiration ? ", expiring " : " with no expiry date",
		       t->expiration ? t->expiration : "");
		break;
	case TOKEN_CLASSIC:
		c = add(r, "token-kind", NULL, DOCTOR_MISSING);
		detail(c, "a classic personal access token (scopes: %s): it "
			  "reaches every repository the account can",
		       t->scopes && *t->scopes ? t->scopes : "none listed");
		fix(c, "make a fine-grained token of %s limited to this "
		       "repository: Metadata read, Contents read, Pull "
		       "requests, Commit statuses and Issues read and write "
		       "(docs/actions.md, The machine account and its token)",
		    p->trusted_login);
		break;
	case TOKEN_UNKNOWN:
		c = add(r, "token-kind", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "the token has no known prefix and GitHub listed no "
			  "scopes for it");
		fix(c, "use a fine-grained personal access token "
		       "(github_pat_…)");
		break;
	default:
		c = add(r, "token-kind", NULL, DOCTOR_MISSING);
		detail(c, "a %s", token_kind_names[kind]);
		fix(c, "AGENTIC_TOKEN must be a fine-grained personal access "
		       "token of %s", p->trusted_login);
		break;
	}
}

static void check_repo(struct doctor_result *r, const struct doctor_facts *f,
		       const struct policy *p)
{
	struct doctor_check *c;

	if (f->repo_read.error != AA_OK || f->push < 0) {
		unread(r, "account-access", NULL,
		       "the repository's permissions for the token's account",
		       &f->repo_read,
		       "give the token Metadata: read on this repository");
	} else if (f->push) {
		c = add(r, "account-access", NULL, DOCTOR_OK);
		detail(c, "the token's account can write to %s: its "
			  "approvals count toward required reviews",
		       f->repository);
	} else {
		c = add(r, "account-access", NULL, DOCTOR_MISSING);
		detail(c, "the token's account cannot write to %s: its "
			  "approvals would not count", f->repository);
		fix(c, "give %s the Write role on the repository, nothing "
		       "more", p->trusted_login);
	}
}

static void check_label(struct doctor_result *r, const struct doctor_facts *f,
			const struct policy *p)
{
	struct doctor_check *c;

	if (f->label_read.error != AA_OK) {
		unread(r, "label", p->label, "the repository's labels",
		       &f->label_read, "give the read token Issues: read");
	} else if (f->label_exists) {
		c = add(r, "label", p->label, DOCTOR_OK);
		detail(c, "the label %s exists", p->label);
	} else {
		c = add(r, "label", p->label, DOCTOR_MISSING);
		detail(c, "the repository has no label %s", p->label);
		fix(c, "create it (Issues, Labels, New label); the first yes "
		       "verdict would create it too, but a hold needs it to be "
		       "seen and lifted");
	}
}

static void check_unlabelers(struct doctor_result *r,
			     const struct doctor_facts *f,
			     const struct policy *p)
{
	struct doctor_check *c;
	struct buf list = BUF_INIT(BUF_MAX_SMALL);

	(void)f;
	if (!p->nunlabelers) {
		c = add(r, "unlabelers", NULL, DOCTOR_MISSING);
		detail(c, "unlabelers is empty: nobody can lift a hold, so one "
			  "edit of a machine comment by any writer blocks that "
			  "PR for good");
		fix(c, "set the repository variable AGENTIC_UNLABELERS (input "
		       "unlabelers) to the logins that may remove the %s "
		       "label (docs/actions.md, Holds and the unlabelers)",
		    p->label);
		return;
	}
	policy_get(p, "unlabelers", &list);
	c = add(r, "unlabelers", NULL, DOCTOR_OK);
	detail(c, "a hold can be lifted by %s", list.ptr);
	buf_release(&list);
}

/* The merged rules of a base: ruleset rules, then classic protection. */
struct merged {
	bool pr_rule;
	int64_t approvals;
	bool dismiss_stale, last_push;
	bool clean_required;
};

static void merge(struct merged *m, const struct setup_rule *v, size_t n,
		  const struct policy *p)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].type, "pull_request") == 0) {
			m->pr_rule = true;
			if (v[i].approvals > m->approvals)
				m->approvals = v[i].approvals;
			m->dismiss_stale |= v[i].dismiss_stale;
			m->last_push |= v[i].last_push;
		} else if (strcmp(v[i].type, "required_status_checks") == 0) {
			for (j = 0; j < v[i].ncontexts; j++)
				m->clean_required |= strcmp(v[i].contexts[j],
							    p->clean_context) ==
						     0;
		}
	}
}

/* One property of a base: ok, else cannot tell while something that could
 * hold it was unreadable, else missing. */
static void property(struct doctor_result *r, const char *id,
		     const struct setup_base *b, bool ok, const char *unknown,
		     const char *found, const char *missing_fix)
{
	struct doctor_check *c;

	if (ok) {
		c = add(r, id, b->name, DOCTOR_OK);
		detail(c, "%s", found);
	} else if (unknown) {
		c = add(r, id, b->name, DOCTOR_CANNOT_TELL);
		detail(c, "%s", unknown);
		fix(c, "%s", missing_fix);
	} else {
		c = add(r, id, b->name, DOCTOR_MISSING);
		detail(c, "no rule of %s sets it", b->name);
		fix(c, "%s", missing_fix);
	}
}

static void check_base(struct doctor_result *r, const struct doctor_facts *f,
		       const struct setup_base *b, const struct policy *p)
{
	struct merged m = {false, 0, false, false, false};
	struct buf unknown = BUF_INIT(BUF_MAX_SMALL);
	struct buf msg = BUF_INIT(BUF_MAX_SMALL);
	const char *u = NULL;
	const char *where = "in a branch ruleset targeting it (Settings, "
			    "Rules, Rulesets; docs/actions.md, Branch "
			    "protection)";

	(void)f;
	if (b->rules_read.error == AA_OK)
		merge(&m, b->rules, b->nrules, p);
	else
		buf_addf(&unknown, "the rules of %s could not be read (%s)",
			 b->name, read_why(&b->rules_read));
	if (b->branch_read.error == AA_OK && b->is_protected) {
		if (b->protection_read.error == AA_OK)
			merge(&m, b->protection, b->nprotection, p);
		else if (!unknown.len)
			buf_addf(&unknown, "%s has a branch protection rule, "
					   "which only an admin can read (%s)",
				 b->name, read_why(&b->protection_read));
	} else if (b->branch_read.error != AA_OK &&
		   b->branch_read.error != AA_ENOTFOUND && !unknown.len) {
		buf_addf(&unknown, "whether %s has a branch protection rule "
				   "could not be read (%s)",
			 b->name, read_why(&b->branch_read));
	}
	if (unknown.len)
		u = unknown.ptr;

	buf_setf(&msg, "set Require a pull request before merging with at "
		       "least 1 required approval %s", where);
	{
		struct buf found = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&found, "%lld approval%s required",
			 (long long)m.approvals, m.approvals == 1 ? "" : "s");
		property(r, "approvals", b, m.approvals >= 1, u, found.ptr,
			 msg.ptr);
		buf_release(&found);
	}
	buf_setf(&msg, "turn on Dismiss stale pull request approvals when new "
		       "commits are pushed %s", where);
	property(r, "dismiss-stale", b, m.dismiss_stale, u,
		 "stale approvals are dismissed on push", msg.ptr);
	buf_setf(&msg, "turn on Require approval of the most recent reviewable "
		       "push %s", where);
	property(r, "last-push", b, m.last_push, u,
		 "the most recent push needs an approval", msg.ptr);
	buf_setf(&msg, "add %s to the required status checks %s (in App mode "
		       "pinned to the App)", p->clean_context, where);
	{
		struct buf found = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&found, "%s is a required status check",
			 p->clean_context);
		property(r, "clean-required", b, m.clean_required, u,
			 found.ptr, msg.ptr);
		buf_release(&found);
	}
	buf_release(&unknown);
	buf_release(&msg);
}

static void check_codeowners(struct doctor_result *r,
			     const struct doctor_facts *f,
			     const struct setup_base *b,
			     const struct policy *p)
{
	struct doctor_check *c;
	struct owner_scan s = {p->trusted_login, 0, 0};
	size_t i;

	(void)f;
	if (b->codeowners_read.error == AA_ENOTFOUND) {
		c = add(r, "codeowners", b->name, DOCTOR_OK);
		detail(c, "%s has no CODEOWNERS file", b->name);
		return;
	}
	if (b->codeowners_read.error != AA_OK) {
		c = add(r, "codeowners", b->name, DOCTOR_CANNOT_TELL);
		detail(c, "CODEOWNERS of %s could not be read (%s)", b->name,
		       read_why(&b->codeowners_read));
		fix(c, "give the read token Contents: read, or check by hand "
		       "that CODEOWNERS never names %s", p->trusted_login);
		return;
	}
	doctor_codeowners_scan(&s, b->codeowners);
	if (s.named_line) {
		c = add(r, "codeowners", b->name, DOCTOR_MISSING);
		detail(c, "%s line %zu names @%s: its approval would count as "
			  "a code owner's review",
		       b->codeowners_path, s.named_line, p->trusted_login);
		fix(c, "remove @%s from CODEOWNERS", p->trusted_login);
		return;
	}
	for (i = 0; i < b->nteams; i++) {
		const struct setup_team *t = &b->teams[i];

		if (t->read.error == AA_OK && t->member) {
			c = add(r, "codeowners", b->name, DOCTOR_MISSING);
			detail(c, "%s names the team @%s, which %s is in: its "
				  "approval would count as a code owner's "
				  "review",
			       b->codeowners_path, t->name, p->trusted_login);
			fix(c, "remove %s from the team @%s, or the team from "
			       "CODEOWNERS", p->trusted_login, t->name);
			return;
		}
	}
	for (i = 0; i < b->nteams; i++) {
		const struct setup_team *t = &b->teams[i];

		if (t->read.error == AA_OK)
			continue;
		c = add(r, "codeowners", b->name, DOCTOR_CANNOT_TELL);
		detail(c, "%s names the team @%s, whose members could not be "
			  "read (%s)",
		       b->codeowners_path, t->name, read_why(&t->read));
		fix(c, "check that %s is not in @%s, or give the read token "
		       "the organisation's Members: read",
		    p->trusted_login, t->name);
		return;
	}
	if (b->nteams > DOCTOR_MAX_TEAMS || s.email_line) {
		c = add(r, "codeowners", b->name, DOCTOR_CANNOT_TELL);
		if (s.email_line)
			detail(c, "%s line %zu names an owner by e-mail, which "
				  "could be %s's",
			       b->codeowners_path, s.email_line,
			       p->trusted_login);
		else
			detail(c, "%s names more than %d teams",
			       b->codeowners_path, DOCTOR_MAX_TEAMS);
		fix(c, "name owners by @login or @org/team");
		return;
	}
	c = add(r, "codeowners", b->name, DOCTOR_OK);
	detail(c, "%s does not name %s%s", b->codeowners_path,
	       p->trusted_login, b->nteams ? " nor a team it is in" : "");
}

static void check_environment(struct doctor_result *r,
			      const struct doctor_facts *f,
			      const struct policy *p)
{
	const struct setup_env *e = &f->env;
	const char *db = f->default_branch ? f->default_branch : "main";
	struct doctor_check *c;
	struct buf found = BUF_INIT(BUF_MAX_SMALL);
	bool only_default = true;
	size_t i;

	(void)p;
	if (e->read.error == AA_ENOTFOUND) {
		c = add(r, "environment", f->env_name, DOCTOR_MISSING);
		detail(c, "the repository has no environment %s", f->env_name);
		fix(c, "create it with one deployment branch rule, %s, and the "
		       "token as its secret (docs/actions.md, Adopting, steps "
		       "3-4)", db);
		return;
	}
	if (e->read.error != AA_OK ||
	    (e->custom && e->policies_read.error != AA_OK)) {
		c = add(r, "environment", f->env_name, DOCTOR_CANNOT_TELL);
		detail(c, "the environment %s could not be read (%s)",
		       f->env_name,
		       read_why(e->read.error != AA_OK ? &e->read
						       : &e->policies_read));
		fix(c, "give the read token Actions: read (in a workflow: "
		       "permissions actions: read and read-token: "
		       "${{ github.token }}, examples/agentic-doctor.yml)");
		return;
	}
	if (!e->restricted) {
		c = add(r, "environment", f->env_name, DOCTOR_MISSING);
		detail(c, "%s has no deployment branch rule: a workflow of any "
			  "branch gets its secrets", f->env_name);
		fix(c, "Settings, Environments, %s: Deployment branches and "
		       "tags, Selected branches and tags, one rule: %s",
		    f->env_name, db);
		return;
	}
	if (e->protected_branches) {
		c = add(r, "environment", f->env_name, DOCTOR_MISSING);
		detail(c, "%s admits every protected branch, not only %s",
		       f->env_name, db);
		fix(c, "choose Selected branches and tags with one rule: %s",
		    db);
		return;
	}
	for (i = 0; i < e->npolicies; i++) {
		const struct setup_env_policy *x = &e->policies[i];

		buf_addf(&found, "%s%s %s", i ? ", " : "",
			 x->type ? x->type : "branch", x->name);
		only_default &= (!x->type || strcmp(x->type, "branch") == 0) &&
				strcmp(x->name, db) == 0;
	}
	if (!e->npolicies || !only_default) {
		c = add(r, "environment", f->env_name, DOCTOR_MISSING);
		detail(c, "%s admits %s", f->env_name,
		       e->npolicies ? found.ptr : "no branch at all");
		fix(c, "keep one deployment branch rule: the branch %s", db);
	} else {
		c = add(r, "environment", f->env_name, DOCTOR_OK);
		detail(c, "%s admits the default branch %s only", f->env_name,
		       db);
	}
	buf_release(&found);
}

static bool level_at_least(const char *have, const char *want)
{
	if (!have || !*have)
		return false;
	if (strcmp(want, "read") == 0)
		return strcmp(have, "read") == 0 || strcmp(have, "write") == 0;
	return strcmp(have, "write") == 0;
}

static void check_app(struct doctor_result *r, const struct doctor_facts *f,
		      const struct policy *p)
{
	const struct setup_app *a = &f->app;
	struct doctor_check *c;
	struct buf lacks = BUF_INIT(BUF_MAX_SMALL);
	const struct {
		const char *name;
		const char *have;
		const char *want;
	} need[] = {{"Commit statuses", a->statuses, "write"},
		    {"Issues", a->issues, "write"},
		    {"Pull requests", a->pull_requests, "read"},
		    {"Contents", a->contents, "read"},
		    {"Metadata", a->metadata, "read"}};
	size_t i;

	(void)p;
	if (!a->enabled) {
		c = add(r, "app", NULL, DOCTOR_SKIPPED);
		detail(c, "GitHub App mode is off");
		return;
	}
	if (a->read.error != AA_OK) {
		unread(r, "app", NULL, "the App's installation", &a->read,
		       "install the App on this repository and check app-id "
		       "and app-private-key");
		buf_release(&lacks);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(need); i++)
		if (!level_at_least(need[i].have, need[i].want))
			buf_addf(&lacks, "%s%s: %s", lacks.len ? ", " : "",
				 need[i].name, need[i].want);
	if (lacks.len) {
		c = add(r, "app", NULL, DOCTOR_MISSING);
		detail(c, "the App's installation lacks %s", lacks.ptr);
		fix(c, "grant the App those repository permissions and accept "
		       "them on the installation");
	} else {
		c = add(r, "app", NULL, DOCTOR_OK);
		detail(c, "the App's installation can write statuses and "
			  "labels and read the rest");
	}
	buf_release(&lacks);
}

static void check_runner(struct doctor_result *r, const struct doctor_facts *f,
			 const struct policy *p)
{
	struct doctor_check *c;

	(void)p;
	switch (f->runner) {
	case RUNNER_NOT_ACTIONS:
		c = add(r, "runner", NULL, DOCTOR_SKIPPED);
		detail(c, "not run in GitHub Actions: run doctor in the "
			  "workflow to check the runner");
		break;
	case RUNNER_GITHUB_HOSTED:
		c = add(r, "runner", NULL, DOCTOR_OK);
		detail(c, "a GitHub-hosted runner: a fresh machine per job");
		break;
	case RUNNER_SELF_HOSTED:
		c = add(r, "runner", NULL, DOCTOR_MISSING);
		detail(c, "a self-hosted runner: one that outlives its job lets "
			  "the next job plant what the token runs");
		fix(c, "runs-on: ubuntu-latest for every job that holds the "
		       "token (docs/actions.md, Runners)");
		break;
	default:
		c = add(r, "runner", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "RUNNER_ENVIRONMENT is '%s'",
		       f->runner_name ? f->runner_name : "");
		fix(c, "run the jobs that hold the token on GitHub-hosted "
		       "runners");
		break;
	}
}

/* Which bases are gated: nothing to check per base when it is unknown. */
static void check_bases(struct doctor_result *r, const struct doctor_facts *f,
			const struct policy *p)
{
	struct doctor_check *c;

	if (!f->default_branch && !p->nbases) {
		c = add(r, "bases", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "the default branch could not be read, so which "
			  "bases are gated is unknown");
		fix(c, "give the token Metadata: read");
	} else if (f->branches_read.error != AA_OK) {
		c = add(r, "bases", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "the branches could not be listed for the patterns of "
			  "bases (%s)", read_why(&f->branches_read));
		fix(c, "give the read token Contents: read");
	} else if (f->bases_cut) {
		c = add(r, "bases", NULL, DOCTOR_CANNOT_TELL);
		detail(c, "bases matches more than %d branches; the first %d "
			  "are checked", DOCTOR_MAX_BASES, DOCTOR_MAX_BASES);
		fix(c, "narrow bases, or check the rest by hand");
	} else if (!f->nbases) {
		c = add(r, "bases", NULL, DOCTOR_SKIPPED);
		detail(c, "bases matches no branch yet: nothing is approved");
	}
}

/*
 * The checks, in the order doctor prints them: the repository's, each
 * gated base's, then the workflow's. Every check is one function of the
 * facts and the policy that adds its verdicts.
 */
typedef void repo_check_fn(struct doctor_result *r,
			   const struct doctor_facts *f,
			   const struct policy *p);
typedef void base_check_fn(struct doctor_result *r,
			   const struct doctor_facts *f,
			   const struct setup_base *b, const struct policy *p);

static repo_check_fn *const repo_checks[] = {
	check_token, check_repo, check_app, check_label, check_unlabelers,
	check_bases,
};
static base_check_fn *const base_checks[] = {check_base, check_codeowners};
static repo_check_fn *const workflow_checks[] = {check_environment,
						 check_runner};

void doctor_decide(struct doctor_result *out, const struct doctor_facts *f,
		   const struct policy *p)
{
	size_t i, k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < ARRAY_SIZE(repo_checks); k++)
		repo_checks[k](out, f, p);
	for (i = 0; i < f->nbases; i++)
		for (k = 0; k < ARRAY_SIZE(base_checks); k++)
			base_checks[k](out, f, &f->bases[i], p);
	for (k = 0; k < ARRAY_SIZE(workflow_checks); k++)
		workflow_checks[k](out, f, p);
}

int doctor_exit(const struct doctor_result *r)
{
	return r->counts[DOCTOR_MISSING] || r->counts[DOCTOR_CANNOT_TELL] ? 1
									 : 0;
}

void doctor_result_release(struct doctor_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->checks[i].subject);
		free(r->checks[i].detail);
		free(r->checks[i].fix);
	}
	free(r->checks);
	memset(r, 0, sizeof(*r));
}
