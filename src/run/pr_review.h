/*
 * pr_review.h - the pr-review flows (PUBLISH.md): review-plan (§6) and
 * publish (§7) over the GitHub port, recorded in the run's report like
 * every other step, once, and returned. review-local needs no port
 * (formats/review_local.h).
 *
 * Like the other flows nothing here prints or exits: a dry run's payloads
 * (§7.4) are handed back in a buf for the command to print.
 */
#ifndef AA_RUN_PR_REVIEW_H
#define AA_RUN_PR_REVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/review.h"
#include "run/engine.h"

/* What a review-plan came to: its step, and when H3 found nothing new
 * since the last reviewed head, that head (L259's line names it; ""
 * otherwise). */
struct engine_plan {
	struct engine_result step;
	char nothing_new_since[SHA_BUF];
};

/* review-plan --pr N --mode auto|full|incremental. The plan JSON goes to
 * `plan_out` (one document, pretty) and into the step. */
struct engine_plan engine_review_plan(struct engine *e, int64_t pr,
                                      const char *mode, struct buf *plan_out);

/*
 * publish --pr N with an already parsed findings input (I1-I4, I6, I7 are
 * the caller's: they fail before any read). `in` is consumed (its findings
 * move into the model). With dry_run nothing is written and the §7.4
 * text goes to `dry_out`.
 */
struct engine_result engine_publish(struct engine *e, int64_t pr,
                                    struct review_input *in, bool dry_run,
                                    struct buf *dry_out);

#endif
