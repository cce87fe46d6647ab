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

#include "gate_spec.h"

/*@ axiomatic PolicyWords {
  predicate SameName{L}(char *a, char *b);

  axiom is_label{L}: \forall struct policy *p, char *name;
    IsLabel(p, name) <==> name != \null && SameName(name, p->label);

  axiom is_unlabeler{L}: \forall struct policy *p, char *login;
    IsUnlabeler(p, login) <==> login != \null &&
      \exists integer i; 0 <= i < p->nunlabelers &&
	SameName(login, p->unlabelers[i]);
  }
*/

/*@ assigns \nothing;
    ensures \result <==> SameName((char *)a, (char *)b); */
bool str_eq_nocase(const char *a, const char *b);

#endif
