/*
 * publish.h - PUBLISH §7 and §9's outcome rules: when a publish is
 * refused or superseded before any write (§7.1 step 3, B2, B3), what a
 * publish that wrote comes to (B4: the outcome agrees with the exit), and
 * the status state of a tier (§5.5).
 *
 * Pure: counts and strings in, a decision out. run/publish.c performs the
 * reads and writes, asks these, and records the step once.
 */
#ifndef AA_PUBLISH_H
#define AA_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/review.h"

/* A publish step's outcomes (§9), in the report's words through run/. */
enum publish_outcome {
	PUBLISH_PUBLISHED,
	PUBLISH_UNCHANGED,
	PUBLISH_NOOP,
	PUBLISH_SKIPPED,
	PUBLISH_REFUSED,
	PUBLISH_SUPERSEDED,
	PUBLISH_PARTIAL,
	PUBLISH_ERROR
};

/* §7.1 step 3 after I5: why the input is refused before any write. */
enum publish_refusal {
	REFUSAL_NONE,
	REFUSAL_NO_TRUSTED_STATE, /* B2: incremental without a trusted past */
	REFUSAL_BASE,             /* B3: the input's base is not the PR's */
	REFUSAL_STATE_BASE,       /* B3: incremental over another base */
	REFUSAL_SUPERSEDED        /* the sticky reviews a later head */
};

struct publish_refusal_input {
	bool incremental;     /* the input's mode */
	const char *base;     /* the input's base */
	const char *last_sha; /* the input's last_sha */
	const char *head;     /* the input's head */
	const char *pr_base;  /* the PR's base ref; NULL: unknown */
	/* The canonical sticky (H2): present, trusted (U2), with a state
	 * block (§5.3) whose base= is state_base (NULL: absent) and sha. */
	bool sticky, trusted, state;
	const char *state_base;
	const char *sticky_sha;
};

/* B2, B3, then `superseded` (exit 1 all; nothing written). */
enum publish_refusal publish_refusal(const struct publish_refusal_input *in);

/* B4: the outcome a step may report with exit code `exit` (BEHAVIOR
 * §10's): `error` for 2 and 3, `partial` for what published with exit 1,
 * else `out`. */
enum publish_outcome publish_agree(enum publish_outcome out, int exit);

/* What a publish that wrote its last sticky found along the way. */
struct publish_tally {
	size_t dropped;  /* threads the assertions dropped (§4.1 step 4) */
	size_t rejected; /* threads GitHub refused (422) */
	size_t failed;   /* threads whose write failed */
	bool status_unwritten; /* the final status could not be written */
	bool incomplete;       /* the last sticky written is PARTIAL */
};

/* §7.2, §7.3: `published`, or `partial` when anything is missing; *exit
 * is 1 when a thread was dropped or rejected (a rerun does the same),
 * else 0. */
enum publish_outcome publish_conclude(const struct publish_tally *t, int *exit);

/* Can any input finding become a §4.1 candidate, whatever the prior
 * state says? One with a file and a line, P0-P2 and not low confidence
 * (M1 demotes those; M2's survivor of a group holds its key and its
 * highest rank). A superset of the candidates: the files are then read
 * before the PR (P38), and inline_candidate() decides. */
bool publish_may_post(const struct review_input *in);

#endif
