/*
 * policy_spec.h - the model the proof of the escalation label's words and
 * the unlabelers list is stated over (src/core/policy.c: policy_is_label
 * and policy_is_unlabeler; docs/proof.md). Frama-C only: tests/prove/wp.sh
 * force-includes it (-include) ahead of src/core/policy.c; no compiler
 * ever sees it.
 *
 * The contracts proved are gate_spec.h's, the ones the gate's proof
 * trusts (IsLabel, IsUnlabeler). Here the two predicates get their
 * meaning, BEHAVIOR §1 and A1: the name is the policy's label, and the
 * login is one of the unlabelers, each compared as GitHub compares logins
 * and labels, case-insensitively (SameName: base/util.c's str_eq_nocase,
 * trusted, tests/unit/test_util.c); NULL is neither.
 */
#ifndef AA_POLICY_SPEC_H
#define AA_POLICY_SPEC_H

#include "core/policy.h"
#include "util_spec.h"

/*@ predicate IsLabel{L}(struct policy *p, char *name) =
    name != \null && SameName(name, p->label);

  predicate IsUnlabeler{L}(struct policy *p, char *login) =
    login != \null && \exists integer i; 0 <= i < p->nunlabelers &&
      SameName(login, p->unlabelers[i]);

  // What str_eq_nocase reads is readable: the name (when not NULL) and
  // the policy's label; the login (when not NULL) and every unlabeler.
  // The gate's model assumes nothing of the strings it passes (gate_spec.h).
  predicate LabelReadable{L}(struct policy *p, char *name) =
    name != \null ==> valid_read_string(name) && valid_read_string(p->label);

  predicate UnlabelersReadable{L}(struct policy *p, char *login) =
    login != \null ==> valid_read_string(login) &&
      \valid_read(p->unlabelers + (0 .. p->nunlabelers - 1)) &&
      \forall integer i; 0 <= i < p->nunlabelers ==>
	valid_read_string(p->unlabelers[i]);
*/

/* gate_spec.h's contracts of policy_is_label and policy_is_unlabeler,
 * over the two definitions above. */
#define AA_POLICY_WORDS
#include "gate_spec.h"

#endif
