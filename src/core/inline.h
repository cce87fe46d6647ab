/*
 * inline.h - which findings publish attempts as inline threads (PUBLISH.md
 * §4.1 steps 1–3: anchor, ramp, cap) and what every other row's thread
 * says. Pure: the caller has read the roots (U3) and the pull's files.
 *
 * Candidates are the open findings (section open or awaiting: M6's "open
 * findings") of P0–P2, not carried (M3), with no root whose head= is
 * `head`, and either no root at all or `reopen_thread`. Then, in order:
 *   1. anchor: no file/line → sticky-only "no line anchor"; line_end not a
 *      RIGHT line of the file's patch → sticky-only "line not in diff";
 *      else a multi-line comment from line_start when line_start differs
 *      and lies in the same hunk, a single-line one at line_end otherwise;
 *   2. ramp: iteration > ramp_p2_last_iteration → P2 sticky-only
 *      "iteration ramp" (P0/P1 never);
 *   3. cap: the P2s left get max(0, inline_cap − R − P0/P1 left) slots,
 *      R = the input's (not carried) findings with a root whose head= is
 *      `head`, so a rerun never lifts the cap; P2s by confidence, then M8
 *      order; the rest sticky-only "volume cap".
 * The remaining candidates are the attempts, ordered by confidence then
 * M8 order (the order of the findings array, which must be M8's).
 *
 * Step 4 is the caller's: it renders each attempt's root, asks
 * root_assert(), and for a failing one sets the finding's thread to
 * RV_THREAD_DROPPED with the assertion's reason and removes the attempt
 * with inline_plan_drop(). A drop frees no slot (step 4 follows step 3).
 */
#ifndef AA_INLINE_H
#define AA_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diff.h"
#include "core/review.h"

/* The reasons of §5.2's `sticky-only (<reason>)` this selection gives. */
extern const char INLINE_NO_ANCHOR[];   /* "no line anchor" */
extern const char INLINE_NOT_IN_DIFF[]; /* "line not in diff" */
extern const char INLINE_RAMP[];        /* "iteration ramp" */
extern const char INLINE_CAP[];         /* "volume cap" */

/*
 * A U3 root as the caller read it: a review comment by review_login with
 * no in_reply_to, the finding-root marker, finding-id= and the title's
 * slug. Non-owning: every pointer stays the caller's.
 */
struct inline_root {
	uint32_t id;        /* finding-id=F<id> */
	const char *slug;   /* the title's slug */
	const char *head;   /* its head= value; NULL when it has none */
	int64_t comment_id; /* newest = highest (U3, BEHAVIOR) */
	const char *html_url;
};

struct inline_params {
	const char *head;               /* the input's head (40 hex) */
	int64_t iteration;              /* M9 */
	int64_t inline_cap;             /* 12 by default (§1) */
	int64_t ramp_p2_last_iteration; /* 2 by default (§1) */
};

/* One finding to post inline (§5.4's review `comments` entry). */
struct inline_attempt {
	size_t finding;     /* index into the findings array */
	int64_t line;       /* RIGHT line: the finding's line_end */
	int64_t start_line; /* RIGHT line_start of a multi-line one, or 0 */
	/* The finding's newest root when reopening (previous-thread-url=),
	 * else NULL; points into the caller's roots. */
	const struct inline_root *previous;
};

struct inline_plan {
	struct inline_attempt *v; /* owned, in posting order */
	size_t n;
	size_t r;        /* R of step 3 */
	size_t p2_slots; /* the P2 slots step 3 had */
};

/*
 * Select over the n findings f (in M8 order) and set each one's thread:
 *   - an attempt: RV_THREAD_PENDING (the S sticky's `⏳ thread pending`),
 *     no reason, root_id 0, thread_url NULL;
 *   - a candidate steps 1–3 turned away: RV_THREAD_STICKY_ONLY with one
 *     of the reasons above (even when an older root exists);
 *   - any other open finding with a root: RV_THREAD_EXISTING, root_id and
 *     thread_url (a copy) of its newest root;
 *   - everything else (no root, or accepted/fixed: their rows link no
 *     thread, §5.3): RV_THREAD_STICKY_ONLY with no reason.
 * A finding's roots are those with its id and slug. files are the pull's
 * files (diff_file_find: a path listed twice anchors nothing). out is
 * filled in posting order; release it with inline_plan_release(). Never
 * fails (out of memory aborts).
 */
void inline_select(struct inline_plan *out, struct rv_finding *f, size_t n,
                   const struct diff_file *files, size_t nfiles,
                   const struct inline_root *roots, size_t nroots,
                   const struct inline_params *p);
void inline_plan_release(struct inline_plan *plan);

/* Remove attempt i, keeping the others' order (step 4's drop, W4's
 * re-list). The finding's thread is the caller's to set. */
void inline_plan_drop(struct inline_plan *plan, size_t i);

/* F's root (U3): the newest root with F's id and slug, or NULL. */
const struct inline_root *inline_root_of(const struct rv_finding *f,
                                         const struct inline_root *roots,
                                         size_t nroots);
/* §4.1, before its steps: is `f` a candidate for an inline thread on
 * `head`? Open or awaiting, P0-P2, not carried, no root on this head, and
 * no older root unless it reopens its thread (X13). publish asks it to
 * know whether to read the PR's files. */
bool inline_candidate(const struct rv_finding *f,
                      const struct inline_root *roots, size_t nroots,
                      const char *head);
/* Does F have a root whose head= is head? (The candidate test, R, and
 * W4's re-list.) */
bool inline_has_root_at(const struct rv_finding *f,
                        const struct inline_root *roots, size_t nroots,
                        const char *head);

#endif
