/*
 * stamp.h - BEHAVIOR §4: rounds, clean state and skip markers, derived
 * from a commit's statuses.
 *
 * Only statuses created by the trusted login count (T3). "Newest" is the
 * highest status id. `pr=#N:` is matched as a substring with its colon, so
 * `pr=#70:` never matches PR 7.
 */
#ifndef AA_STAMP_H
#define AA_STAMP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/policy.h"
#include "core/model.h"

/* Does the description contain "pr=#N:"? */
bool stamp_desc_has_pr(const char *description, int64_t pr);
/* Does the description contain "skipped pr=#N:"? */
bool stamp_desc_has_skip(const char *description, int64_t pr);
/* The PR number of the first "pr=#N:" in a description, or 0. */
int64_t stamp_desc_pr(const char *description);

/* T3: was the status created by the trusted login (or, in GitHub App mode,
 * by this program's own App)? */
bool stamp_trusted(const struct snap_status *st, const struct policy *p);

/* Newest trusted pending clean-context status with pr=#N: (the round). */
const struct snap_status *stamp_round(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr);
/* The trusted round stamp of PR N with this id, or NULL (A9: a verdict of
 * an older round of the same head and PR). */
const struct snap_status *stamp_round_by_id(const struct snap_statuses *st,
					    const struct policy *p, int64_t pr,
					    int64_t id);
/* Newest trusted clean-context status with pr=#N:, any state. */
const struct snap_status *stamp_clean(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr);
/* Newest trusted success escalation-context "skipped pr=#N:" status. */
const struct snap_status *stamp_skip(const struct snap_statuses *st,
				     const struct policy *p, int64_t pr);

/*
 * §4 clean state, of one status: is `st` one the clean state of (sha, N)
 * is read from — trusted (T3), clean context, "pr=#N:", any state? NULL:
 * false. When the newest clean-context status is one, its state is the
 * clean state, without the rest of the history.
 */
bool stamp_counts_for_clean(const struct snap_status *st,
			    const struct policy *p, int64_t pr);
/*
 * §4 "newest" is the highest id, and the skip marker counts only above the
 * newest round: in a history read newest first (highest ids first), once
 * the part read holds a round of (sha, N), nothing older can change the
 * round, the clean state (a round is itself a clean-context "pr=#N:"
 * status) or the skip marker. Does `newest_first` hold one? NULL: false.
 */
bool stamp_history_enough(const struct snap_statuses *newest_first,
			  const struct policy *p, int64_t pr);

#endif
