/*
 * select.h - BEHAVIOR §7: is an open PR in the review flow, so that a
 * sweep runs its gate?
 *
 * It is when its head carries a trusted pr=#N: clean-context status, or
 * the trusted login has an approval on it to re-judge. Pure: the listing
 * says what it cheaply can; when that is not certain the decision names
 * the read it needs, and the sweep asks again with the result. A read that
 * fails is the sweep's to handle (it selects the PR: N15).
 */
#ifndef AA_SELECT_H
#define AA_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/policy.h"

enum select_next {
	SELECT_EVALUATE,      /* in the review flow: run the gate */
	SELECT_SKIP,          /* not in it */
	SELECT_READ_STATUSES, /* read the head's clean-context statuses */
	SELECT_READ_REVIEWS   /* read the PR's reviews */
};

struct select_input {
	const struct policy *policy;
	int64_t pr;
	/* From the listing, NULL when it could not say: the head's newest
	 * status per context, and the authors of APPROVED reviews. */
	const struct snap_statuses *contexts;
	char *const *approvers;
	size_t napprovers;
	bool approvers_known;
	/* Read on request, NULL until then. */
	const struct snap_statuses *statuses;
	const struct snap_pull *reviews; /* a pull whose reviews were read */
};

enum select_next select_decide(const struct select_input *in);

/* Does the listing name the trusted login among the authors of APPROVED
 * reviews (an approval to re-judge)? */
bool select_listed_approval(const struct policy *p, char *const *approvers,
                            size_t napprovers);

#endif
