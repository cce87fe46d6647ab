/*
 * policy.h - the configuration every decision reads (BEHAVIOR §1).
 *
 * Nothing here is a constant buried in code: every key can be set from the
 * snapshot's "config" object or from AGENTIC_<KEY> in the environment.
 * Values are validated when set, so a policy in use is always well formed.
 */
#ifndef AA_POLICY_H
#define AA_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* Longest login GitHub allows is 39; "[bot]" adds 5. */
#define POLICY_MAX_LOGIN 64
/* Longest label name GitHub allows. */
#define POLICY_MAX_LABEL 50
/* Longest status context we accept. */
#define POLICY_MAX_CONTEXT 255
/* Entries in a list (unlabelers, AI reviewers). */
#define POLICY_MAX_LIST 256

struct policy {
	char *trusted_login;
	char **unlabelers;
	size_t nunlabelers;
	char **ai_reviewers;
	size_t nai_reviewers;
	char *label;
	char *clean_context;
	char *escalation_context;
	bool approve_drafts;
	int64_t sweep_deadline; /* seconds: the whole sweep (A6) */
	int64_t deadline;       /* seconds: any other run (A6) */
	/* pr-review (PUBLISH §1): */
	char *review_login;     /* NULL: the trusted login */
	char *review_context;
	int64_t inline_cap;
	int64_t ramp_p2_last_iteration;
	int64_t max_findings;
	/* A13: the branch patterns whose PRs may be approved ("*" matches
	 * any run of characters, "/" included); none: the default branch. */
	char **bases;
	size_t nbases;
	/* Key app_bot, and in GitHub App mode the App's own bot login
	 * ("<slug>[bot]"): its statuses are this program's own (T3), its
	 * labeled events set the hold like the trusted login's (A10). */
	char *app_login;
	/* The platform's login rule for review_login (G0, P62): a GitLab
	 * username (`.` allowed) when set, else a GitHub login. Set before
	 * the configuration is read; policy_init clears it. */
	bool gitlab;
};

/* A GitLab username (docs/snapshot.md, "GitLab merge requests"): 1-255
 * of A-Z a-z 0-9 _ - ., not starting with - or . (P62). */
bool policy_gitlab_login_valid(const char *login);

/* The keys policy_set understands, NULL-terminated (snake_case). */
extern const char *const policy_keys[];

/* Fill with the defaults of BEHAVIOR §1. */
void policy_init(struct policy *p);
void policy_release(struct policy *p);

/*
 * Set `key` from its string form: lists are comma- or space-separated,
 * booleans true/false/1/0/yes/no, numbers decimal. Returns 0, AA_ENOTFOUND
 * for an unknown key, or AA_EUSAGE with a message in err,
 * "config KEY: <cause>".
 */
int policy_set(struct policy *p, const char *key, const char *value,
	       struct buf *err);
/* The same, with only the cause in err: for a caller that names the
 * setting its own way (the variable the user set). */
int policy_set_value(struct policy *p, const char *key, const char *value,
		     struct buf *err);

/* The string form of `key` (lists comma-separated), as policy_set reads
 * it. Returns AA_ENOTFOUND for an unknown key. */
int policy_get(const struct policy *p, const char *key, struct buf *out);

/* Is `login` a syntactically valid GitHub login (optionally "[bot]")? */
bool policy_login_valid(const char *login);

/* T1/T3/T4: is `login` the trusted login (case-insensitive, exact)? */
bool policy_is_trusted(const struct policy *p, const char *login);
/* May `login` lift the label? NULL (no actor) never may. */
bool policy_is_unlabeler(const struct policy *p, const char *login);
/* Is `login` an AI reviewer (a "[bot]" suffix is ignored)? */
bool policy_is_ai_reviewer(const struct policy *p, const char *login);
/* The login whose pr-review comments are trusted (PUBLISH U1-U5). */
const char *policy_review_login(const struct policy *p);
/* Is `login` that login (case-insensitive, exact)? */
bool policy_is_review_login(const struct policy *p, const char *login);

/* Is `name` the escalation label (labels are case-insensitive)? */
bool policy_is_label(const struct policy *p, const char *name);
/* Is `login` this program's own writer: the trusted login, or the App's
 * bot (A10, T3)? */
bool policy_is_own_writer(const struct policy *p, const char *login);

/*
 * A13: may a PR into `base` be approved? With no `bases` set only the
 * repository's default branch is (`default_branch`; NULL, unknown: no
 * base is). Branch names compare exactly.
 */
bool policy_base_gated(const struct policy *p, const char *base,
		       const char *default_branch);
/* The `bases` setting as a reason shows it ("the default branch main"). */
void policy_bases_describe(const struct policy *p, const char *default_branch,
			   struct buf *out);

/* The known key nearest to an unknown `name` (case, "-" and "_" folded;
 * a few edits away at most), or NULL: the "did you mean" of a usage
 * error. */
const char *policy_nearest_key(const char *name);

#endif
