/*
 * doctor.h - is a repository set up so that the gate's approvals mean what
 * they should (docs/actions.md, Doctor; N52-N59)? The facts a read token
 * can see, and the pure decision: one check per item, each ok, missing or
 * cannot tell, with the fix.
 *
 * The command reads (cmd/cmd_doctor.c through the port's setup
 * operations), fills a struct doctor_facts, and asks doctor_decide(); what
 * it cannot read stays a failed read, which is "cannot tell", never "ok".
 */
#ifndef AA_DOCTOR_H
#define AA_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/policy.h"

/* Branches one doctor run checks (patterns can match many). */
#define DOCTOR_MAX_BASES 20
/* Teams of one CODEOWNERS file whose membership is read. */
#define DOCTOR_MAX_TEAMS 20
/* The CODEOWNERS files GitHub reads, in its order: the first found counts. */
#define DOCTOR_NCODEOWNERS 3
extern const char *const doctor_codeowners_paths[DOCTOR_NCODEOWNERS];

/* What a snapshot says about the repository's setup (docs/snapshot.md,
 * The repository's setup): only `doctor` reads it. */
struct snap_branch_rules {
	char *branch;
	struct setup_rule *v;
	size_t n;
};
struct snap_content {
	char *path;
	char *text;
};
struct snap_team {
	char *name; /* "org/slug" */
	char **members;
	size_t n;
};
struct snap_env;
struct snap_setup {
	bool has_branches;
	char **branches;
	size_t nbranches;
	struct snap_branch_rules *rules;
	size_t nrules;
	struct snap_branch_rules *protection;
	size_t nprotection;
	char *permission; /* the token account's role; NULL: "write" */
	struct snap_content *contents;
	size_t ncontents;
	struct snap_team *teams;
	size_t nteams;
	int token_kind;   /* enum token_kind; TOKEN_FINE_GRAINED default */
	char *token_scopes;
	int64_t token_expires; /* ms; 0: none */
	struct snap_env *envs;
	size_t nenvs;
};
void snap_setup_free(struct snap_setup *s);

/* One rule of a branch, as GitHub's rules/branches lists it (or a classic
 * branch protection read as rules): only what the gate depends on. */
struct setup_rule {
	char *type;        /* "pull_request", "required_status_checks", … */
	int64_t approvals; /* pull_request: required approving reviews */
	bool dismiss_stale;
	bool last_push;
	char **contexts;   /* required_status_checks: the contexts */
	size_t ncontexts;
};
void setup_rules_free(struct setup_rule *v, size_t n);

/* The outcome of one read: what the port returned (AA_OK, AA_ENOTFOUND,
 * AA_EDENIED, AA_EAPI) and, on failure, its message. */
struct setup_read {
	int error;
	char *why;
};

/* The kinds of token (by its prefix, or the scopes header). */
enum token_kind {
	TOKEN_UNKNOWN,
	TOKEN_FINE_GRAINED, /* github_pat_ */
	TOKEN_CLASSIC,      /* ghp_, or any token GitHub lists scopes for */
	TOKEN_OAUTH,        /* gho_ */
	TOKEN_USER_TO_SERVER, /* ghu_ */
	TOKEN_INSTALLATION  /* ghs_ */
};
extern const char *const token_kind_names[];
/* The kind of `token` by its prefix (the token itself is never kept). */
enum token_kind token_kind_of(const char *token);

struct setup_token {
	struct setup_read read; /* GET /user with the write token */
	char *login;
	enum token_kind kind;
	bool has_scopes;        /* X-OAuth-Scopes was sent */
	char *scopes;
	char *expiration;       /* github-authentication-token-expiration */
};

struct setup_env_policy {
	char *name;
	char *type; /* "branch" or "tag" */
};

/* An environment as a snapshot gives it. */
struct snap_env {
	char *name;
	bool restricted;  /* deployment_branch_policy is not null */
	bool protected_branches;
	bool custom;
	struct setup_env_policy *policies;
	size_t npolicies;
};

struct setup_env {
	struct setup_read read;  /* the environment; AA_ENOTFOUND: none */
	bool restricted;         /* deployment_branch_policy is not null */
	bool protected_branches;
	bool custom;
	struct setup_read policies_read;
	struct setup_env_policy *policies;
	size_t npolicies;
};

/* GitHub App mode: the installation's permissions (read, write or ""). */
struct setup_app {
	bool enabled;
	struct setup_read read;
	char *statuses, *issues, *pull_requests, *contents, *metadata;
};

/* One team named in CODEOWNERS and whether the account is in it. */
struct setup_team {
	char *name;           /* "org/slug" */
	struct setup_read read; /* AA_ENOTFOUND: the team is not visible */
	bool member;
};

struct setup_base {
	char *name;
	struct setup_read rules_read;
	struct setup_rule *rules;
	size_t nrules;
	struct setup_read branch_read; /* GET the branch: protected? */
	bool is_protected;
	struct setup_read protection_read; /* only when protected */
	struct setup_rule *protection;
	size_t nprotection;
	/* CODEOWNERS: the first of doctor_codeowners_paths found. */
	struct setup_read codeowners_read; /* AA_ENOTFOUND: no file */
	const char *codeowners_path;
	char *codeowners;
	struct setup_team *teams;
	size_t nteams;
};

/* Where the run happens (RUNNER_ENVIRONMENT, read by the command). */
enum setup_runner { RUNNER_NOT_ACTIONS, RUNNER_GITHUB_HOSTED,
		    RUNNER_SELF_HOSTED, RUNNER_UNKNOWN };

struct doctor_facts {
	const char *repository;
	struct setup_read repo_read; /* GET the repository (write token) */
	char *default_branch;
	int push;                    /* the token's account: -1 unknown */
	struct setup_read branches_read; /* only when a pattern needs them */
	struct setup_base *bases;
	size_t nbases;
	bool bases_cut;              /* more than DOCTOR_MAX_BASES matched */
	struct setup_read label_read;
	bool label_exists;
	struct setup_token token;
	struct setup_env env;
	const char *env_name;
	struct setup_app app;
	enum setup_runner runner;
	const char *runner_name;     /* RUNNER_ENVIRONMENT as given */
};
void doctor_facts_init(struct doctor_facts *f);
void doctor_facts_release(struct doctor_facts *f);
void setup_read_fail(struct setup_read *r, int error, const char *why);

/*
 * Which branches are gated (A13): the default branch, or every branch of
 * `branches` (sorted, each once) one of the policy's `bases` matches —
 * at most DOCTOR_MAX_BASES (`*cut` when more). `needs_list` says whether
 * the policy's patterns need the branch list at all (a pattern with `*`).
 */
bool doctor_needs_branch_list(const struct policy *p);
void doctor_gated_bases(const struct policy *p, const char *default_branch,
			char *const *branches, size_t nbranches, char ***out,
			size_t *n, bool *cut);

/* The teams ("org/slug") a CODEOWNERS text names, each once, in order. */
void doctor_codeowners_teams(const char *text, char ***out, size_t *n);
/* Where a CODEOWNERS text names `login` as an owner, and the first owner
 * that is an e-mail address (line numbers from 1; 0: none). */
struct owner_scan {
	const char *login;
	size_t named_line; /* the first line naming the login, 0: none */
	size_t email_line; /* the first line naming an e-mail address */
};
void doctor_codeowners_scan(struct owner_scan *s, const char *text);

enum doctor_verdict { DOCTOR_OK, DOCTOR_MISSING, DOCTOR_CANNOT_TELL,
		      DOCTOR_SKIPPED };
extern const char *const doctor_verdict_names[];

struct doctor_check {
	const char *id;      /* "token-login", "approvals", … (static) */
	char *subject;       /* the base, the environment…; NULL: none */
	enum doctor_verdict verdict;
	char *detail;        /* what was found, one sentence */
	char *fix;           /* what to do; NULL when ok or skipped */
};

struct doctor_result {
	struct doctor_check *checks;
	size_t n, alloc;
	int counts[4];       /* per verdict */
};
void doctor_result_release(struct doctor_result *r);

/* Decide every check from the facts. */
void doctor_decide(struct doctor_result *out, const struct doctor_facts *f,
		   const struct policy *p);
/* 0 when every check is ok or skipped, else 1. */
int doctor_exit(const struct doctor_result *r);

#endif
