/*
 * stamp_spec.h - the model the proof of the stamp selection is stated over
 * (src/core/stamp.c: matches, newest, stamp_round, stamp_clean and
 * stamp_skip; docs/proof.md). Frama-C only: tests/prove/wp.sh
 * force-includes it (-include) ahead of src/core/stamp.c; no compiler
 * ever sees it.
 *
 * The contracts proved are gate_spec.h's, the ones the gate's proof
 * trusts: the result is the newest (the first of the highest id) status
 * satisfying Stamp, or NULL when none does. Here Stamp is defined (the
 * gate's model leaves it abstract): matches is proved to decide it. What
 * matches calls stays trusted: stamp_trusted (T3's creator) and the
 * "pr=#N:" tags (stamp_desc_has_pr, stamp_desc_has_skip).
 */
#ifndef AA_STAMP_SPEC_H
#define AA_STAMP_SPEC_H

#include <string.h>

#include "core/model.h"
#include "core/policy.h"
#include "core/stamp.h"

/* --- what matches reads without this proof reading the body -------------
 * StampTrusted: the status's creator is trusted (T3: the trusted login,
 * or the App's bot; stamp_trusted, which select_spec.h's ListedTrusted
 * names too). DescHasPr, DescHasSkip: the description carries "pr=#N:",
 * "skipped pr=#N:" (has_tag). Trusted, tests/unit/test_stamp.c. */
/*@ axiomatic StampWords {
  predicate StampTrusted{L}(struct snap_status *s, struct policy *p);
  predicate DescHasPr{L}(char *d, integer pr);
  predicate DescHasSkip{L}(char *d, integer pr);
  }
*/

/*@ requires \valid_read(st) && \valid_read(p);
    assigns \nothing;
    ensures \result <==> StampTrusted((struct snap_status *)st, (struct policy *)p); */
bool stamp_trusted(const struct snap_status *st, const struct policy *p);

/*@ assigns \nothing;
    ensures \result <==> DescHasPr((char *)description, pr); */
bool stamp_desc_has_pr(const char *description, int64_t pr);

/*@ assigns \nothing;
    ensures \result <==> DescHasSkip((char *)description, pr); */
bool stamp_desc_has_skip(const char *description, int64_t pr);

/* --- Stamp (BEHAVIOR §4), defined ----------------------------------------
 * A trusted status is the round stamp of PR N (what 0) when its context is
 * the clean context, its state "pending" and its description carries
 * "pr=#N:"; a clean-state status (1) when its context is the clean
 * context and its description carries "pr=#N:" (any state: the state is
 * the verdict); a skip marker (2) when its context is the escalation
 * context, its state "success" and its description carries "skipped
 * pr=#N:". */
/*@ predicate StateIs7{L}(char *s, integer c0, integer c1, integer c2,
			  integer c3, integer c4, integer c5, integer c6) =
    s[0] == c0 && s[1] == c1 && s[2] == c2 && s[3] == c3 && s[4] == c4 &&
    s[5] == c5 && s[6] == c6 && s[7] == '\0';

  predicate Stamp{L}(struct snap_status *s, struct policy *p, integer pr,
		     integer what) =
    StampTrusted(s, p) &&
    ((what == 0 && strcmp(s->context, p->clean_context) == 0 &&
      StateIs7(s->state, 'p', 'e', 'n', 'd', 'i', 'n', 'g') &&
      DescHasPr(s->description, pr)) ||
     (what == 1 && strcmp(s->context, p->clean_context) == 0 &&
      DescHasPr(s->description, pr)) ||
     (what == 2 && strcmp(s->context, p->escalation_context) == 0 &&
      StateIs7(s->state, 's', 'u', 'c', 'c', 'e', 's', 's') &&
      DescHasSkip(s->description, pr)));

  // What matches compares is readable: the status's context and state,
  // the policy's two contexts.
  predicate StampReadable{L}(struct snap_status *s, struct policy *p) =
    valid_read_string(s->context) && valid_read_string(s->state) &&
    valid_read_string(p->clean_context) &&
    valid_read_string(p->escalation_context);

  predicate StampsReadable{L}(struct snap_statuses *st, struct policy *p) =
    \forall integer i; 0 <= i < st->n ==> StampReadable(&st->v[i], p);
*/

/* gate_spec.h's contracts of stamp_round, stamp_clean and stamp_skip,
 * over the definitions above. */
#define AA_STAMP_WORDS
#include "gate_spec.h"

#endif
