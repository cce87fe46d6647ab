/*
 * markerfence_spec.h - the contract of core/marker_fence.c's fence_run
 * (docs/proof.md §2, docs/proof-alarms.md §2): given a readable line
 * (text_spec.h's ViewOK) it reads only inside it. Frama-C only:
 * tests/prove/wp.sh force-includes it ahead of src/core/marker_fence.c.
 * opener_ok is not covered: that its second memchr starts inside the line
 * rests on the run fence_run found being the first of its character
 * (docs/proof-alarms.md rows 15-18).
 */
#ifndef AA_MARKERFENCE_SPEC_H
#define AA_MARKERFENCE_SPEC_H

#include "text_spec.h"

#include "core/marker.h"

/*@ requires ViewOK((char *)line.p, line.n);
    requires \valid(ch) && \valid(len) && \valid(bare);
    assigns *ch, *len, *bare; */
static bool fence_run(struct mview line, char *ch, size_t *len,
		      bool *bare);

#endif
