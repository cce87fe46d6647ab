/*
 * stamp_spec.h - the model the proof of the stamp selection is stated over
 * (src/core/stamp.c: stamp_round, stamp_clean, stamp_skip and newest;
 * docs/proof.md). Frama-C only: tests/prove/wp.sh force-includes it
 * (-include) ahead of src/core/stamp.c; no compiler ever sees it.
 *
 * The contracts proved are gate_spec.h's, the ones the gate's proof
 * trusts: the result is the newest (the first of the highest id) status
 * satisfying Stamp, or NULL when none does. Which statuses satisfy Stamp
 * (stamp.c's matches: T3's trusted creator, the context, the state, the
 * "pr=#N:" tag) stays trusted: its contract says it decides Stamp.
 */
#ifndef AA_STAMP_SPEC_H
#define AA_STAMP_SPEC_H

#include "gate_spec.h"

#endif
