/*
 * select.c - BEHAVIOR §7's selection of the PRs a sweep gates (select.h).
 */
#include "core/select.h"

#include <string.h>

#include "core/stamp.h"
#include "core/verdict.h"

/* What the listing's newest status per context says. */
enum pick { PICK_YES, PICK_NO, PICK_UNSURE };

static enum pick from_contexts(const struct select_input *in)
{
	const struct snap_status *clean = NULL;
	size_t i;

	if (!in->contexts)
		return PICK_UNSURE;
	for (i = 0; i < in->contexts->n; i++)
		if (strcmp(in->contexts->v[i].context,
			   in->policy->clean_context) == 0)
			clean = &in->contexts->v[i];
	if (!clean)
		return PICK_NO; /* no clean-context status at all */
	if (stamp_trusted(clean, in->policy) &&
	    stamp_desc_has_pr(clean->description, in->pr))
		return PICK_YES;
	return PICK_UNSURE; /* an older trusted one may hide below */
}

enum select_next select_decide(const struct select_input *in)
{
	enum pick pick = from_contexts(in);
	size_t i;

	if (pick == PICK_YES)
		return SELECT_EVALUATE;
	if (pick == PICK_UNSURE) {
		if (!in->statuses)
			return SELECT_READ_STATUSES;
		if (stamp_clean(in->statuses, in->policy, in->pr))
			return SELECT_EVALUATE;
	}
	if (in->approvers_known) {
		for (i = 0; i < in->napprovers; i++)
			if (policy_is_trusted(in->policy, in->approvers[i]))
				return SELECT_EVALUATE;
		return SELECT_SKIP;
	}
	if (!in->reviews)
		return SELECT_READ_REVIEWS;
	for (i = 0; i < in->reviews->nreviews; i++)
		if (verdict_trusted_approval(&in->reviews->reviews[i],
					     in->policy))
			return SELECT_EVALUATE;
	return SELECT_SKIP;
}
