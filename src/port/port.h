/*
 * port.h - the GitHub port: every read and write the decision code makes.
 *
 * A small table of function pointers (libgit2's pluggable streams): one
 * implementation serves a snapshot in memory (port/world.c: replay, unit
 * tests), one talks REST/GraphQL over libcurl (github/live.c), and one
 * wraps either to plan writes without making them (port/dryrun.c).
 *
 * Every call carries the PR it is made for (0 when none) so faults and
 * logs can name it. Reads return 0, AA_ENOTFOUND, or AA_EAPI. Every op
 * that can fail takes the caller's `struct buf *err` as its last
 * parameter and writes its own message there when it fails, the one
 * channel of N80 (docs/spec-notes.md); the port keeps no message of its
 * own. Results are owned by the caller and released with the snapshot.h
 * release functions.
 *
 * One write contract for every write of every port: AA_OK when GitHub
 * answered that it was made; AA_ELOST when no answer came back (a
 * transport failure, a timeout, a 5xx): the write may have landed, and the
 * port does not guess — the flow reads again and asks core/landed.h
 * whether its effect shows (BEHAVIOR §8, PUBLISH §7.2); AA_ENOTFOUND (404),
 * AA_EREJECTED (422: refused for its content, nothing made) and AA_EAPI
 * (any other failure, nothing made) are answers: the write failed. Each
 * failure's own message is in the err the caller passed.
 */
#ifndef AA_PORT_H
#define AA_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/doctor.h"
#include "core/model.h"

/* A write's answer was lost (above); beside base/util.h's AA_* codes. */
#define AA_ELOST (-8)
/* GitLab (G17): a pending status posted over our own pending one was
 * refused as already so: done, and nothing was written. */
#define AA_ENOOP (-9)

struct github;

/* The result of reading a pull request in parts. */
struct gh_pull {
	struct snap_pull pull; /* only the parts in `ok` are filled */
	unsigned ok;           /* PART_* read completely */
	unsigned failed;       /* PART_* whose read failed */
	/* Why the parts in `failed` failed (the message the read wrote
	 * into its err), so a flow that reports them later still has it;
	 * NULL when none did. */
	char *error;
};

/*
 * A pull() read that must come from GitHub now, never from what a sweep
 * read ahead: the re-checks around a write (§6.1 steps 2 and 4). The
 * re-check of an approval that already exists (step 1, no write) may use
 * a read ahead made after the first one.
 */
#define PART_FRESH (1u << 8)

/* What a statuses() caller will look up (stamp.h). */
#define STATUS_NEED_CLEAN (1u << 0) /* stamp_clean */
#define STATUS_NEED_ROUND (1u << 1) /* stamp_round */
#define STATUS_NEED_SKIP  (1u << 2) /* stamp_skip, and the round it beats */
#define STATUS_NEED_IDS   (1u << 3) /* the real status ids */
/* The four lookups above: what a snapshot records. */
#define STATUS_NEED_LOOKUPS 15u
/* Not a lookup but the whole history, every page (A9: an older round). */
#define STATUS_NEED_HISTORY (1u << 4)
/* The newest status of the review context, when its creator is the review
 * login (PUBLISH U4, W3): enough to tell whether it says what publish would
 * write. */
#define STATUS_NEED_REVIEW (1u << 5)

/* One open pull request of a listing. */
/* What a listing of the open PRs reads (open_pulls). */
enum gh_listing {
	LISTING_PLAIN, /* numbers, heads and updatedAt */
	LISTING_PROBE  /* and, where the port can, a digest and contexts */
};

struct gh_pull_brief {
	int64_t number;
	char head_sha[SHA_BUF];
	int64_t updated_at;
	/* Digest of what the gate reads (sweepstate.h), "" when unknown. */
	char digest[65];
	/* Optional, when the listing could read them cheaply (live): */
	bool has_contexts;
	struct snap_statuses
	    contexts; /* the head's newest status per context */
	bool has_approvers;
	char **approvers; /* authors of APPROVED reviews */
	size_t napprovers;
	bool has_threads;
	int64_t threads; /* its review threads */
};

/* GET compare/{base}...{head} (PUBLISH §6 H1, H3). */
enum gh_compare_status { CMP_AHEAD, CMP_BEHIND, CMP_IDENTICAL, CMP_DIVERGED };
struct gh_compare {
	enum gh_compare_status status;
	char merge_base[SHA_BUF]; /* "" when unknown */
};

/* One line comment of a COMMENT review (PUBLISH §5.4). */
struct gh_inline {
	const char *path;
	int64_t line;
	int64_t start_line; /* 0: single line */
	const char *body;
};

/* What a posted COMMENT review created: the review. Its comments' ids and
 * links come from reading the review comments again (W5's re-read). */
struct gh_review_posted {
	int64_t review_id;
	char *html_url; /* the review's */
};
void gh_review_posted_release(struct gh_review_posted *r);

/* What a GitLab discussion POST created (G16, G22). */
struct gh_discussion_posted {
	int64_t note_id;
	char discussion_id[41];
	char *html_url; /* <web_url>#note_<note_id> */
};

/* What review_pull() reads beside the pull's own fields (PUBLISH §6 H1,
 * §7.1 and the re-reads of §7.2). */
#define RV_READ_COMMENTS                                                       \
	(1u << 0)                 /* the issue comments, with the edit         \
	                           * histories U2 and T2 need */
#define RV_READ_ROOTS   (1u << 1) /* every review comment (U3, H4) */
#define RV_READ_COMMITS (1u << 2) /* the PR's commits (H3's ancestry) */
#define RV_READ_STATUS                                                         \
	(1u << 3) /* let statuses() of the head answer                         \
	           * STATUS_NEED_REVIEW without a request,                     \
	           * where the port can */
#define RV_READ_VIEWER                                                         \
	(1u << 4) /* let user() answer without a request,                      \
	           * where the port can read the write                         \
	           * token's login in the same read */

/* What review_pull() read. */
struct gh_review_pull {
	/* PART_PULL, with PART_COMMENTS (RV_READ_COMMENTS) and PART_COMMITS
	 * (RV_READ_COMMITS); `ok` and `failed` say which parts were read. */
	struct gh_pull pull;
	/* RV_READ_ROOTS: every review comment, ascending id; rc_ok false
	 * when they could not be read. */
	struct snap_review_comment *rc;
	size_t nrc;
	bool rc_ok;
};
void gh_review_pull_release(struct gh_review_pull *r);

/*
 * Each op's type, so that an adapter declares its op by the type
 * (`gh_pull_op live_pull;`) and the signature is written once.
 */
typedef int gh_review_pull_op(struct github *gh, int64_t pr, unsigned what,
                              struct gh_review_pull *out, struct buf *err);
typedef void gh_review_pull_beside_op(struct github *gh, int64_t pr,
                                      unsigned what);
typedef int gh_review_comments_op(struct github *gh, int64_t pr,
                                  struct snap_review_comment **out, size_t *n,
                                  struct buf *err);
typedef int gh_files_op(struct github *gh, int64_t pr, struct snap_file **out,
                        size_t *n, struct buf *err);
typedef int gh_compare_op(struct github *gh, int64_t pr, const char *base,
                          const char *head, struct gh_compare *out,
                          struct buf *err);
typedef int gh_comment_create_op(struct github *gh, int64_t pr,
                                 const char *body, int64_t *id, char **html_url,
                                 struct buf *err);
typedef int gh_comment_update_op(struct github *gh, int64_t pr, int64_t id,
                                 const char *body, struct buf *err);
typedef int gh_comment_delete_op(struct github *gh, int64_t pr, int64_t id,
                                 struct buf *err);
typedef int gh_review_post_op(struct github *gh, int64_t pr,
                              const char *commit_id, const char *body,
                              const struct gh_inline *inl, size_t n,
                              struct gh_review_posted *out, struct buf *err);
typedef int gh_discussion_post_op(struct github *gh, int64_t pr,
                                  const struct gh_inline *inl,
                                  struct gh_discussion_posted *out,
                                  struct buf *err);
typedef int gh_discussion_payload_op(struct github *gh, int64_t pr,
                                     const struct gh_inline *inl,
                                     struct buf *out);
typedef int gh_diff_ready_op(struct github *gh, int64_t pr, struct buf *err);
typedef int gh_discussion_of_op(struct github *gh, int64_t pr, int64_t note_id,
                                char out[41], struct buf *err);

/*
 * The writes and reads only the pr-review commands make (PUBLISH.md §10):
 * a port without them (NULL) cannot publish. Writes follow the write
 * contract above.
 */
struct github_review_ops {
	/*
	 * The pull (fresh: never a read-ahead) and what `what` (RV_READ_*)
	 * adds, in as few requests as the port can. AA_ENOTFOUND when there
	 * is no such PR; AA_OK otherwise, even when some parts failed (see
	 * out->pull.ok/failed and out->rc_ok); a port that must read the parts
	 * apart reads them one by one, so a failure is pinned to its part.
	 */
	gh_review_pull_op *review_pull;
	/* Every review comment of the PR (all pages, ascending id). */
	gh_review_comments_op *review_comments;
	/* The PR's files with their patches (all pages). */
	gh_files_op *files;
	/* compare/{base}...{head}; AA_ENOTFOUND when GitHub answers 404. */
	gh_compare_op *compare;
	/* POST an issue comment: its id and html_url. */
	gh_comment_create_op *comment_create;
	gh_comment_update_op *comment_update;
	gh_comment_delete_op *comment_delete;
	/* POST a COMMENT review on commit_id with `n` line comments. */
	gh_review_post_op *review_post;

	/*
	 * GitLab (docs/rules/gitlab.md); NULL on GitHub. One discussion per
	 * finding at inl->line (G16): AA_EREJECTED when GitLab refused its
	 * position (400/422, nothing made); out->html_url is the caller's.
	 */
	gh_discussion_post_op *discussion_post;
	/* The JSON body that discussion_post sends for inl, appended to out
	 * ({"body", "position"}: a dry run's payload, G22). */
	gh_discussion_payload_op *discussion_payload;
	/* G8: AA_OK when the MR's diff is the head's (diff_refs set and
	 * naming the head); AA_EAPI with the reason otherwise. */
	gh_diff_ready_op *diff_ready;
	/* The id of the discussion whose first note is note_id, as last
	 * read (G20: a lost POST's discussion, found again); AA_ENOTFOUND. */
	gh_discussion_of_op *discussion_of;

	/*
	 * Optional (NULL: reads go out when asked). review_pull(pr, what)'s
	 * read starts together with the next request the port sends, so the
	 * two share a round trip; that review_pull then takes its answer.
	 * Latency only: the read is made no earlier than this call, and an
	 * answer a later write would make stale is dropped (P67).
	 */
	gh_review_pull_beside_op *review_pull_beside;
};

/*
 * What `doctor` reads (docs/actions.md, Doctor): a port without them
 * (NULL) cannot check a setup. Each returns AA_OK, AA_ENOTFOUND (404),
 * AA_EDENIED (401/403: the credential may not read it) or AA_EAPI, with
 * the message in err; outputs are owned by the caller.
 */
struct github_setup_ops {
	/* The repository, read with the write token: its default branch and
	 * whether that token's account may push (-1: not said). */
	int (*repo)(struct github *gh, char **default_branch, int *push,
	            struct buf *err);
	/* Every branch name (all pages). */
	int (*branches)(struct github *gh, char ***names, size_t *n,
	                struct buf *err);
	/* The active ruleset rules of a branch (rules/branches/{branch}). */
	int (*branch_rules)(struct github *gh, const char *branch,
	                    struct setup_rule **v, size_t *n, struct buf *err);
	/* Has the branch a (classic) branch protection rule? */
	int (*branch_protected)(struct github *gh, const char *branch,
	                        bool *out, struct buf *err);
	/* That rule, as rules (admins only: AA_EDENIED otherwise). */
	int (*protection)(struct github *gh, const char *branch,
	                  struct setup_rule **v, size_t *n, struct buf *err);
	/* The text of file `path` at `ref`. */
	int (*file)(struct github *gh, const char *ref, const char *path,
	            char **text, struct buf *err);
	/* Is `login` in team "org/slug"? AA_ENOTFOUND: the team is not
	 * visible to the reader. */
	int (*team_member)(struct github *gh, const char *team,
	                   const char *login, bool *member, struct buf *err);
	/* GET /user with the write token, and what the answer says about the
	 * token (out->read is filled too). */
	int (*token)(struct github *gh, struct setup_token *out,
	             struct buf *err);
	/* Environment `name` and its deployment branch rules. */
	int (*environment)(struct github *gh, const char *name,
	                   struct setup_env *out, struct buf *err);
	/* GitHub App mode: the installation's permissions (out->enabled
	 * false outside App mode). */
	int (*app)(struct github *gh, struct setup_app *out, struct buf *err);
};

/* The ops' types of struct github_ops, as above. */
typedef int gh_user_op(struct github *gh, char **login, struct buf *err);
typedef int gh_open_pulls_op(struct github *gh, enum gh_listing what,
                             struct gh_pull_brief **list, size_t *n,
                             struct buf *err);
typedef int gh_pull_op(struct github *gh, int64_t number, unsigned parts,
                       struct gh_pull *out, struct buf *err);
typedef int gh_commit_in_pull_op(struct github *gh, int64_t number,
                                 const char *sha, bool *out, struct buf *err);
typedef int gh_statuses_op(struct github *gh, int64_t pr, const char *sha,
                           unsigned need, struct snap_statuses *out,
                           struct buf *err);
typedef int gh_label_exists_op(struct github *gh, int64_t pr, const char *name,
                               bool *out, struct buf *err);
typedef int gh_create_label_op(struct github *gh, int64_t pr, const char *name,
                               const char *color, const char *description,
                               struct buf *err);
typedef int gh_add_label_op(struct github *gh, int64_t pr, const char *name,
                            struct buf *err);
typedef int gh_create_status_op(struct github *gh, int64_t pr, const char *sha,
                                const char *state, const char *context,
                                const char *description, const char *target_url,
                                struct buf *err);
typedef int gh_approve_op(struct github *gh, int64_t pr, const char *commit_id,
                          const char *body, int64_t *review_id,
                          struct buf *err);
typedef int gh_dismiss_op(struct github *gh, int64_t pr, int64_t review_id,
                          const char *message, struct buf *err);
typedef void gh_prefetch_op(struct github *gh, const int64_t *prs, size_t n);
typedef void gh_details_op(struct github *gh, struct gh_pull_brief *const *list,
                           size_t n);
typedef void gh_budget_op(struct github *gh, int64_t *graphql, int64_t *rest);
typedef void gh_refresh_op(struct github *gh);

struct github_ops {
	/* GET /user: the login of the write token (T4). */
	gh_user_op *user;
	/* Every open pull request, ascending by number: what `what` asks
	 * for at least. */
	gh_open_pulls_op *open_pulls;
	/*
	 * Read the parts of PR `number`. Returns AA_ENOTFOUND when there is
	 * no such PR, AA_OK otherwise (even when some parts failed: see
	 * out->failed), AA_EAPI when nothing at all could be read.
	 */
	gh_pull_op *pull;
	/* Is `sha` a commit of the PR (its head or one of its commits)? */
	gh_commit_in_pull_op *commit_in_pull;
	/*
	 * The statuses of a commit (order unspecified) — at least enough of
	 * them that the §4 lookups named in `need` (STATUS_NEED_*) for PR
	 * `pr` come out exactly as over the whole history.
	 */
	gh_statuses_op *statuses;
	/* Does the repository have the label? */
	gh_label_exists_op *label_exists;

	gh_create_label_op *create_label;
	gh_add_label_op *add_label;
	gh_create_status_op *create_status;
	/* POST an APPROVE review; *review_id is the new review's id. */
	gh_approve_op *approve;
	gh_dismiss_op *dismiss;

	/*
	 * Read ahead the gate's parts of several PRs (a sweep), so the next
	 * pull() of each is answered without its own request. Best effort:
	 * whatever could not be read ahead is read by pull() as usual.
	 */
	gh_prefetch_op *prefetch;
	/*
	 * Fill in the approvers and the number of review threads of `n`
	 * listed PRs (those a sweep must look at again), for its selection
	 * and its read-ahead. Best effort: what could not be read stays
	 * unknown (has_approvers, has_threads false).
	 */
	gh_details_op *details;
	/* Requests left before GitHub's rate limits: -1 when unknown. */
	gh_budget_op *budget;
	/* Forget anything cached: the next reads must be fresh. */
	gh_refresh_op *refresh;
	/* The clock of this port (ms since the epoch). */
	int64_t (*now)(struct github *gh);
	void (*free)(struct github *gh);
	/* PUBLISH.md; NULL when this port cannot publish. */
	const struct github_review_ops *review;
	/* doctor; NULL when this port cannot read a setup. */
	const struct github_setup_ops *setup;
};

struct github {
	const struct github_ops *ops;
	/* The run's deadline on this port's clock (ms), 0 = none (A6): no
	 * read, retry or wait goes past it; a read cut off by it fails. Set
	 * it with github_set_deadline(). */
	int64_t deadline;
	/* GitHub said the repository does not exist or is not visible: the
	 * run ends as a usage error (exit 2), whatever else failed. */
	bool no_repo;
	/* The port speaks to GitLab (docs/rules/gitlab.md): statuses say
	 * `failed`, bodies are neutralised (G13), the identity is read
	 * first (G4), one discussion per finding (G16). */
	bool gitlab;
};

/* Copy the message of its failed parts, in the err its read was passed,
 * into a pull (gh_pull.error). */
void gh_pull_keep_error(struct gh_pull *p, const struct buf *err);
/* Release a gh_pull's contents. */
void gh_pull_release(struct gh_pull *p);
/* Free a listing. */
void gh_briefs_free(struct gh_pull_brief *list, size_t n);
/* Set the deadline of `gh` and of every port it wraps. */
void github_set_deadline(struct github *gh, int64_t deadline_ms);
/* Free a port (NULL is fine). */
void github_free(struct github *gh);

/* The in-memory implementation over a snapshot (which it borrows and
 * mutates as writes land; the snapshot must outlive the port). */
struct github *github_world_new(struct snapshot *s, const struct policy *p);
/* Calls the world port has served (each part of a read, each write), or
 * -1 when `gh` is not one: how far the error-path torture must go. */
int64_t github_world_calls(struct github *gh);
/* Append one line per call ("call N: read labels pr=7") to `out` (which
 * must outlive the port); NULL stops. */
void github_world_trace(struct github *gh, struct buf *out);

/* Wrap a port so writes are planned, not made, yet visible to later reads.
 * Takes ownership of `inner`. */
struct github *github_dryrun_new(struct github *inner);
/* The port a dry-run port wraps, or NULL when `gh` is not one. */
struct github *github_dryrun_inner(struct github *gh);

#endif
