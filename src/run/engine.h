/*
 * engine.h - the steps of a run (BEHAVIOR §3, §5–§7, §10) over the GitHub
 * port: apply a verdict, gate a PR (with the approve/dismiss protocol),
 * sweep every open PR, and dispatch a webhook event to them.
 *
 * One file per flow (apply.c, gate.c, sweep.c, event.c; writes.c holds
 * every write): each reads what a decision of core/ (apply.h, gate.h,
 * select.h) asks for, decides with it, writes, and records the outcome in
 * the report, exit code included. Nothing here prints, exits, or touches
 * anything but the port.
 */
#ifndef AA_ENGINE_H
#define AA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/event.h"
#include "port/port.h"
#include "core/policy.h"
#include "formats/report.h"
#include "formats/sweepstate.h"

enum identity_state { ID_UNCHECKED, ID_TRUSTED, ID_FAILED };

/* A sweep stops (and reports the PRs it did not reach) rather than spend
 * the last of GitHub's rate limits, which other workflows share. */
#define ENGINE_RESERVE_GRAPHQL 100
#define ENGINE_RESERVE_REST 100
/* PRs a sweep reads ahead at once (memory: one PR's parts each). */
#define ENGINE_SWEEP_PREFETCH 40
/*
 * The fewest PRs to look at for which a sweep reads their approvals and
 * threads first (details): a point per 70 PRs, which packs their
 * read-ahead to about 18 PRs a point instead of 7, and spares the
 * selection a read per PR outside the flow. Below it, that point is
 * rarely won back.
 */
#define ENGINE_SWEEP_DETAILS_MIN 8

struct engine {
	struct github *gh;
	const struct policy *policy;
	const char *repository;
	struct report *report;
	/* T4 and U5: the login GET /user was last checked against (trusted
	 * or review login) and how it came out. A check for another login
	 * reads /user again: each login is checked on its own. */
	char *identity_login;
	enum identity_state identity;
	bool stop;        /* T4 failed: no further steps */
	/* The run's deadline on the port's clock (0 = none); the first sweep
	 * replaces it with its start + sweep_deadline (ms), listing included
	 * (A6). One deadline bounds the whole sweep: the repositories of
	 * `sweep --repos` after the first share it (sweep_started). */
	int64_t deadline;
	int64_t sweep_deadline;
	bool sweep_started;
	/* Change detection across sweeps (NULL: every PR is evaluated). */
	struct sweep_repo *sweep_state;
	int64_t sweep_ttl_ms;
	/* Progress of a sweep (PRs done of total), for a terminal. */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *progress_ctx;
	/* PRs whose escalation label could not be added in this run. */
	int64_t *label_failed;
	size_t nlabel_failed, alabel_failed;
};

void engine_init(struct engine *e, struct github *gh, const struct policy *p,
		 const char *repository, struct report *r);
void engine_release(struct engine *e);

/* The identity check's cache (T4, U5): how the check for `login` came
 * out in this run, ID_UNCHECKED when it was not made for that login. */
enum identity_state engine_identity(const struct engine *e,
				    const char *login);
/* Remember how the check for `login` came out (it replaces the last). */
void engine_identity_set(struct engine *e, const char *login,
			 enum identity_state state);

/* Act on a webhook event (the `run` and `replay` commands). */
void engine_run(struct engine *e, const struct event *ev);
/* Apply a comment (§3). `reread`: it came from the API, so T2 applies. */
void engine_apply(struct engine *e, int64_t pr, const struct snap_comment *c,
		  bool reread);
/* Re-read comment `id` of PR `pr` and apply it (`apply --comment`). */
void engine_apply_id(struct engine *e, int64_t pr, int64_t id);
/* Decide and act on PR `pr` (§5, §6). */
void engine_gate(struct engine *e, int64_t pr);
/* Gate every open PR that is in the review flow (§7). */
void engine_sweep(struct engine *e);

/* Is a workflow_dispatch `pr` input a plain PR number (N16)? */
bool engine_dispatch_pr(const char *input, int64_t *pr);

/* The body of the approving review and the dismissal message. */
extern const char engine_approve_body[];
extern const char engine_dismiss_message[];
extern const char engine_dismiss_changed_message[];
extern const char engine_dismiss_duplicate_message[];
extern const char engine_dismiss_ungated_message[];

#endif
