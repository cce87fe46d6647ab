/*
 * flow.h - what the flows of a run (apply.c, gate.c, sweep.c, event.c)
 * share: the writes, each preceded by the identity check (T4) and recorded
 * in the report once, and the port's last error in words. Private to run/.
 */
#ifndef AA_FLOW_H
#define AA_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/engine.h"

/* The port's last error, for a log line. */
const char *flow_error(const struct engine *e);

/*
 * The one identity check (T4, U5), keyed by login: is the write token's
 * login `want` (the `role` it plays, for the messages)? AA_OK, remembered
 * for `want`; AA_EAPI when GET /user failed; AA_EUSAGE when the token is
 * someone else's. The reason goes to step `s`, the note to the report.
 */
int flow_identity_check(struct engine *e, struct report_step *s,
                        const char *want, const char *role);
/*
 * T4: before the first write of a run, the token must be the trusted
 * login. On failure the step ends as an error and the run stops.
 */
int flow_identity(struct engine *e, size_t step);

/* The writes: each checks the identity first, then records the write in
 * the report, or ends the step as an error (exit 3) when it fails. */
int flow_create_label(struct engine *e, size_t step, int64_t pr);
int flow_add_label(struct engine *e, size_t step, int64_t pr);
int flow_set_status(struct engine *e, size_t step, int64_t pr,
		    const char *sha, const char *state,
		    const char *description, const char *target_url);
int flow_approve(struct engine *e, size_t step, int64_t pr, const char *head,
		 int64_t *review_id);
/* §6.2: dismiss every APPROVED review of the trusted login among
 * `reviews`, in id order (N11), attempting all of them. Returns 0, AA_EAPI
 * if any failed, or the identity error. */
int flow_dismiss_all(struct engine *e, size_t step, int64_t pr,
		     const struct snap_review *reviews, size_t n,
		     const char *message);

/* Did this run fail to add the label to PR `pr` (§3.1)? */
bool flow_label_failed(const struct engine *e, int64_t pr);

#endif
