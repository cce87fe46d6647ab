/*
 * select.c - BEHAVIOR §7's selection of the PRs a sweep gates (select.h).
 */
#include "core/select.h"

#include <string.h>

#include "core/stamp.h"
#include "core/verdict.h"

/* What the listing's newest status per context says. */
enum pick { PICK_YES, PICK_NO, PICK_UNSURE };

/*@ requires SelectInputOK((struct select_input *)in);
    assigns \nothing;
    ensures \result == PICK_YES || \result == PICK_NO ||
      \result == PICK_UNSURE;
    ensures \result == PICK_NO ==> NoListedClean((struct select_input *)in); */
static enum pick from_contexts(const struct select_input *in)
{
	const struct snap_status *clean = NULL;
	size_t i;

	if (!in->contexts)
		return PICK_UNSURE;
	/*@ loop invariant 0 <= i <= in->contexts->n;
	    loop invariant clean == \null ==> \forall integer j; 0 <= j < i ==>
	      strcmp(in->contexts->v[j].context, in->policy->clean_context) != 0;
	    loop invariant clean == \null || \exists integer k; 0 <= k < i &&
	      clean == &in->contexts->v[k];
	    loop assigns i, clean;
	    loop variant in->contexts->n - i; */
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

bool select_listed_approval(const struct policy *p, char *const *approvers,
                            size_t napprovers)
{
	size_t i;

	/*@ loop invariant 0 <= i <= napprovers;
	    loop invariant \forall integer j; 0 <= j < i ==>
	      !IsTrusted((struct policy *)p, approvers[j]);
	    loop assigns i;
	    loop variant napprovers - i; */
	for (i = 0; i < napprovers; i++)
		if (policy_is_trusted(p, approvers[i]))
			return true;
	return false;
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
	if (in->approvers_known)
		return select_listed_approval(in->policy, in->approvers,
		                              in->napprovers)
		           ? SELECT_EVALUATE
		           : SELECT_SKIP;
	if (!in->reviews)
		return SELECT_READ_REVIEWS;
	/*@ loop invariant 0 <= i <= in->reviews->nreviews;
	    loop invariant \forall integer j; 0 <= j < i ==>
	      !TrustedApproval(&in->reviews->reviews[j], in->policy);
	    loop assigns i;
	    loop variant in->reviews->nreviews - i; */
	for (i = 0; i < in->reviews->nreviews; i++)
		if (verdict_trusted_approval(&in->reviews->reviews[i],
					     in->policy))
			return SELECT_EVALUATE;
	return SELECT_SKIP;
}
