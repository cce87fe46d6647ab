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

/*
 * The contract below is proved for every input by Frama-C/WP (make prove,
 * docs/proof.md), over the model in tests/prove/select_spec.h: a PR is
 * skipped only when the evidence read says §7 allows it.
 */
/*@ predicate SelectInputOK{L}(struct select_input *in) =
    \valid_read(in) && \valid_read(in->policy) &&
    valid_read_string(in->policy->clean_context) &&
    (in->contexts != \null ==> \valid_read(in->contexts) &&
      \valid_read(in->contexts->v + (0 .. in->contexts->n - 1)) &&
      \forall integer i; 0 <= i < in->contexts->n ==>
	valid_read_string(in->contexts->v[i].context)) &&
    (in->statuses != \null ==> StatusesOK(in->statuses)) &&
    (in->approvers_known ==>
      \valid_read(in->approvers + (0 .. in->napprovers - 1))) &&
    (in->reviews != \null ==> \valid_read(in->reviews) &&
      \valid_read(in->reviews->reviews + (0 .. in->reviews->nreviews - 1)));

  // No status of the head's listing has the clean context.
  predicate NoListedClean{L}(struct select_input *in) =
    in->contexts != \null &&
    \forall integer i; 0 <= i < in->contexts->n ==>
      strcmp(in->contexts->v[i].context, in->policy->clean_context) != 0;

  // §7: the head has no trusted pr=#N: clean-context status: the listing
  // has no clean-context status at all, or the statuses read have no
  // trusted clean stamp for the PR (T3).
  predicate NoCleanStamp{L}(struct select_input *in) =
    NoListedClean(in) ||
    (in->statuses != \null &&
      NoStamp(in->statuses, in->policy, in->pr, STAMP_CLEAN));

  // §7: the trusted login has no APPROVED review on the PR, by the
  // listing's authors when it names them, else by the reviews read.
  predicate NoTrustedApproval{L}(struct select_input *in) =
    (in->approvers_known &&
      \forall integer i; 0 <= i < in->napprovers ==>
	!IsTrusted(in->policy, in->approvers[i])) ||
    (!in->approvers_known && in->reviews != \null &&
      \forall integer i; 0 <= i < in->reviews->nreviews ==>
	!TrustedApproval(&in->reviews->reviews[i], in->policy));
*/
/*@ requires SelectInputOK((struct select_input *)in);
    assigns \nothing;
    ensures skip_clean: \result == SELECT_SKIP ==>
      NoCleanStamp((struct select_input *)in);
    ensures skip_approval: \result == SELECT_SKIP ==>
      NoTrustedApproval((struct select_input *)in);
    ensures read_statuses: \result == SELECT_READ_STATUSES ==>
      in->statuses == \null;
    ensures read_reviews: \result == SELECT_READ_REVIEWS ==>
      in->reviews == \null && !in->approvers_known;
*/
enum select_next select_decide(const struct select_input *in);

/* Does the listing name the trusted login among the authors of APPROVED
 * reviews (an approval to re-judge)? */
/*@ requires \valid_read(p);
    requires \valid_read(approvers + (0 .. napprovers - 1));
    assigns \nothing;
    ensures !\result ==> \forall integer i; 0 <= i < napprovers ==>
      !IsTrusted((struct policy *)p, approvers[i]); */
bool select_listed_approval(const struct policy *p, char *const *approvers,
                            size_t napprovers);

#endif
