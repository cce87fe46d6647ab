/*
 * approval_spec.h - the model the proof of the approval protocol is
 * stated over (src/core/approval.c: approval_exists, approval_recheck,
 * approval_unlisted, approval_withheld, approval_older; docs/proof.md).
 * Frama-C only: tests/prove/wp.sh force-includes it (-include) ahead of
 * src/core/approval.c; no compiler ever sees it.
 *
 * TrustedApproval and verdict_trusted_approval are select_spec.h's; the
 * predicates over an evaluation (EvalOK, ApprovedHead, OlderApproval) are
 * approval.h's.
 */
#ifndef AA_APPROVAL_SPEC_H
#define AA_APPROVAL_SPEC_H

#include "select_spec.h"

#include "core/exit.h"

#endif
