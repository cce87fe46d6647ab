/*
 * select_spec.h - the model the proof of select_decide() is stated over
 * (docs/proof.md). Frama-C only: tests/prove/wp.sh force-includes it
 * (-include) ahead of src/core/select.c; no compiler ever sees it.
 *
 * The stamps and the statuses are gate_spec.h's. What select.c calls
 * without this proof reading the body is trusted, each function tested by
 * its own unit tests (tests/unit/test_policy.c, test_stamp.c,
 * test_verdict.c; select_decide itself in test_apply.c): every contract
 * names its function.
 */
#ifndef AA_SELECT_SPEC_H
#define AA_SELECT_SPEC_H

#include "gate_spec.h"

/* --- the words of §7, left abstract ----------------------------------------
 * IsTrusted: the login is the trusted login (NULL is not). TrustedApproval:
 * the review is an APPROVED review of the trusted login (verdict.c).
 * ListedStamp: a status of the listing is trusted (T3) and its description
 * carries "pr=#N:". */
/*@ axiomatic Select {
  predicate IsTrusted{L}(struct policy *p, char *login);
  predicate TrustedApproval{L}(struct snap_review *r, struct policy *p);
  predicate ListedTrusted{L}(struct snap_status *s, struct policy *p);
  predicate ListedHasPr{L}(char *description, integer pr);
  }
*/

/*@ requires \valid_read(p);
    assigns \nothing;
    ensures \result <==> IsTrusted((struct policy *)p, (char *)login); */
bool policy_is_trusted(const struct policy *p, const char *login);

/*@ requires \valid_read(r) && \valid_read(p);
    assigns \nothing;
    ensures \result <==> TrustedApproval((struct snap_review *)r, (struct policy *)p); */
bool verdict_trusted_approval(const struct snap_review *r,
			      const struct policy *p);

/*@ requires \valid_read(st) && \valid_read(p);
    assigns \nothing;
    ensures \result <==> ListedTrusted((struct snap_status *)st, (struct policy *)p); */
bool stamp_trusted(const struct snap_status *st, const struct policy *p);

/*@ assigns \nothing;
    ensures \result <==> ListedHasPr((char *)description, pr); */
bool stamp_desc_has_pr(const char *description, int64_t pr);

#endif
