/*
 * merge.h - the mechanical rules of a pr-review iteration (PUBLISH.md §4,
 * M1–M9, and the I5 id check): from a parsed findings input and the
 * trusted prior state to the model the sticky (§5) and the review-local
 * JSON (§7.5) are rendered from. Pure: memory in, memory out.
 */
#ifndef AA_MERGE_H
#define AA_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/review.h"

struct merge_ctx {
	/* The trusted prior state (U2), or NULL: none, or untrusted. */
	const struct review_state *prior;
	/* Logins M4 refuses as accepted_by (case-insensitive). Outside
	 * local mode a NULL one accepts nothing (fail-closed). */
	const char *pr_author;
	const char *review_login;
	/* review-local (§7.5): no M3, M4 only asks for a non-empty
	 * accepted_by, and the "prior" findings of M2 and M5 are the
	 * input's prior_verifications. */
	bool local;
	/* M7: the publish is incomplete (§7): the tier is PARTIAL. */
	bool publish_incomplete;
};

/* M2: finding `from` was merged into `into`. */
struct merge_pair {
	uint32_t from;
	uint32_t into;
};

/*
 * The merged model. `f` owns its findings: the input's, moved in, minus
 * those M2 merged away, plus those M3 carried forward (carried = true;
 * their failure_mode, mitigation and evidence are "" and details NULL:
 * the state block does not hold them, the caller fills them from the
 * roots when it has them). section, accepted and fixed are set; f is in
 * M8 order. A carried finding's root_id is the state row's; every
 * finding's thread is RV_THREAD_STICKY_ONLY (publish decides threads).
 * When M4/M5 refuse what the input's disposition claims, the disposition
 * is rewritten to the section's (open or awaiting_decision; an accepted
 * finding's to its exception's kind), and a reason says why.
 */
struct review_model {
	struct rv_finding *f;
	size_t n;
	enum rv_tier tier;
	/* Open findings (open ∪ awaiting) per P-code. */
	size_t open_counts[RV_PCODE_COUNT];
	size_t awaiting_author;   /* section open */
	size_t awaiting_decision; /* section awaiting */
	size_t naccepted;
	size_t nfixed;
	/* M7: every dispatched subagent failed: refuse, exit 1. */
	bool all_failed;
	bool publish_incomplete; /* as the ctx said */
	/* §5.3 next from the prior state and the model only; the caller
	 * adds roots and legacy rows with merge_next_id(). */
	uint32_t next_id;
	struct merge_pair *merged;
	size_t nmerged;
	/* One human-readable line per M2 merge and per M3–M5 override of
	 * the input (§9 reasons). Never quotes input text. */
	char **reasons;
	size_t nreasons;
};

void review_model_release(struct review_model *m);
/* PUBLISH §7: is the publish incomplete — a finding whose thread failed,
 * was dropped or is still pending? */
bool review_model_incomplete(const struct review_model *m);

/*
 * Apply M1–M8 to `in`. Its findings are moved into out (in->findings is
 * left empty; the rest of `in` is untouched and still the caller's).
 * Returns AA_OK, or AA_EUSAGE with a one-line message in err when two
 * prior findings fall in one M2 group (exit 2); out is then empty.
 */
int merge_run(struct review_model *out, struct review_input *in,
              const struct merge_ctx *ctx, struct buf *err);

/* M7 over a model's counts: nfailures subagent failures of the input,
 * and whether the publish is incomplete. Never NOOP. */
enum rv_tier merge_tier(const struct review_model *m, size_t nfailures,
                        bool publish_incomplete);

/* M8: rank, file bytewise (NULL last), line_start (null last), id. For
 * qsort over struct rv_finding. */
int merge_cmp(const void *a, const void *b);

/*
 * M9. trusted: a trusted sticky exists (U2); has_state: it has a state
 * block whose iteration is state_iteration; sticky_sha its `sha=`.
 */
int64_t merge_iteration(bool trusted, bool has_state, int64_t state_iteration,
                        const char *sticky_sha, const char *head);

/*
 * §5.3 next = 1 + the highest F-number seen: prior->next - 1 (prior may
 * be NULL), the model's ids, and `extra` (ids of roots, legacy rows).
 */
uint32_t merge_next_id(const struct review_model *m,
                       const struct review_state *prior, const uint32_t *extra,
                       size_t nextra);

/* A U3 root as I5 (b) needs it: the finding id and slug it names. */
struct merge_root {
	uint32_t id;
	const char *slug;
};

/*
 * I5, after the reads and M2: a model finding's id (a) absent from the
 * trusted prior state's rows and below its next (only when a state block
 * was read), (b) with a root of another slug, (c) with a prior-state row
 * of another slug. AA_OK, or AA_EUSAGE with a message (exit 2).
 */
int merge_check_ids(const struct review_model *m,
                    const struct review_state *prior,
                    const struct merge_root *roots, size_t nroots,
                    struct buf *err);

/*
 * The status heading of §5.2 block 2 without "## " and without the
 * awaiting suffix: "✅ pr-review: PASSED", …, "⚠️ pr-review: PARTIAL —
 * <why>" (one failure: "<name> failed"; more: "<k> of <d> subagents
 * failed: <names, ", ">"; "publish incomplete"; both joined "; ").
 * Nothing is appended for RV_NOOP_TIER.
 */
void merge_heading(struct buf *out, const struct review_input *in,
                   const struct review_model *m);

/*
 * §5.2 block 3's next action by the tier, ignoring publish
 * incompleteness: next_blocked / next_review with {ids} the open P0 / P1
 * ids in M8 order joined "/", next_notes, next_partial with {names} the
 * failures joined ", "; nothing for PASSED (and NOOP). The strings are
 * review_string()'s, raw (no one()).
 */
void merge_next_by_tier(struct buf *out, const struct review_input *in,
                        const struct review_model *m);

/*
 * The whole next action of the sticky (§5.2 block 3): `publish_incomplete`
 * with {n} = nincomplete when it is > 0, then `status_unwritten` when
 * status_unwritten, then one(in->next_action) or merge_next_by_tier(),
 * each part through one() and the non-empty ones joined "; ". Appends
 * nothing when every part is empty.
 */
void merge_next_action(struct buf *out, const struct review_input *in,
                       const struct review_model *m, size_t nincomplete,
                       bool status_unwritten);

#endif
