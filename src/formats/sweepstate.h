/*
 * sweepstate.h - change detection across sweeps (issue "Sweep at scale").
 *
 * A sweep records, per open PR, a digest of everything the gate reads
 * (head, base, labels, comments and their edits, unlabel/retarget events,
 * threads and their replies, reviews, the head's newest status per
 * context) and the outcome it reached. The next sweep re-evaluates only
 * PRs whose digest changed, whose last outcome was an error or was not
 * reached, or whose entry is older than a time to live — so an input the
 * digest cannot see (an edit to an old comment) is caught within the TTL.
 * A poisoned file can only make a sweep skip work: approvals are never
 * posted without a full evaluation (see docs/sweep.md).
 *
 * The file is JSON, keyed by repository; this module parses and writes it
 * (no file I/O here).
 */
#ifndef AA_SWEEPSTATE_H
#define AA_SWEEPSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/policy.h"
#include "core/model.h"

#define SWEEPSTATE_DIGEST SHA256_HEX_BUF /* SHA-256 in hex, plus NUL */

struct sweep_entry {
	int64_t number;
	char digest[SWEEPSTATE_DIGEST];
	char outcome[16];   /* approve, withhold, skipped */
	int64_t evaluated_at; /* ms */
};

struct sweep_repo {
	char *repository;
	char policy[SWEEPSTATE_DIGEST]; /* digest of the policy in force */
	struct sweep_entry *v;
	size_t n, alloc;
};

struct sweep_state {
	struct sweep_repo *repos;
	size_t n;
	size_t alloc; /* ALLOC_GROW's */
};

void sweepstate_init(struct sweep_state *s);
void sweepstate_release(struct sweep_state *s);

/* Parse a state file. A file that does not parse is not an error for a
 * sweep (it only costs work): callers start from an empty state. */
int sweepstate_from_json(struct sweep_state *s, const char *text, size_t len,
			 struct buf *err);
/* 0, or out's sticky error (buf.h): then out holds no usable state. */
int sweepstate_to_json(const struct sweep_state *s, struct buf *out);

/* The entries of `repository`, created empty when absent. */
struct sweep_repo *sweepstate_repo(struct sweep_state *s,
				   const char *repository);
struct sweep_entry *sweepstate_find(struct sweep_repo *r, int64_t number);
/* Set (or add) the entry of PR `number`. */
void sweepstate_put(struct sweep_repo *r, int64_t number, const char *digest,
		    const char *outcome, int64_t now);
/* Keep only the PRs in `open` (closed PRs drop out). */
void sweepstate_keep(struct sweep_repo *r, const int64_t *open, size_t n);

/* Digest of a policy (its keys and values). */
void sweepstate_policy_digest(char out[SWEEPSTATE_DIGEST],
			      const struct policy *p);

/*
 * Digest of what the gate reads of one PR: the parts of `pull` that are
 * filled and the head's statuses (newest per context is enough). Order
 * inside lists does not matter.
 */
void sweepstate_pull_digest(char out[SWEEPSTATE_DIGEST],
			    const struct snap_pull *pull,
			    const struct snap_statuses *head_statuses);

/* Digest of any text (a listing node as the server sent it). */
void sweepstate_text_digest(char out[SWEEPSTATE_DIGEST], const char *text,
			    size_t len);

#endif
