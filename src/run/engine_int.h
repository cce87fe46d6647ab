/*
 * engine_int.h - what the flows of a run (apply.c, gate.c, sweep.c,
 * event.c, and the pr-review flows) share: how a step ends (engine.c:
 * each flow records its step's result once), the gate's and apply's
 * writes (writes.c), each preceded by the identity check (T4) and
 * recorded in the report, and a failed pull's message in words. Private
 * to run/; one prefix, engine_, like engine.h.
 */
#ifndef AA_ENGINE_INT_H
#define AA_ENGINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/engine.h"

/* A step's result of an error code: `error`, exit 2 for another login
 * (AA_EUSAGE), else 3. */
struct engine_result engine_result_error(int error);
/* Merge a later result into `r` the way BEHAVIOR §10 merges exit codes:
 * the more severe one wins, and on a tie the later outcome (N2). */
void engine_result_merge(struct engine_result *r, enum step_outcome outcome,
                         int exit);
/* A new step of the report, naming its repository when the run spans
 * several (steps_name_repository); its index goes to *step. */
struct report_step *engine_add_step(struct engine *e, enum step_kind kind,
                                    int64_t pr, size_t *step);
/* Record step `step`'s result in the report: the only finish of a step. */
void engine_finish(struct engine *e, size_t step, struct engine_result r);
/* The PR or comment of step `s` does not exist (N10): the reason (printf
 * style) goes on the step; the result is `skipped`, or for a direct
 * command (missing_command) an error, exit 2, with a log line. */
struct engine_result engine_missing(struct engine *e, struct report_step *s,
                                    const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Why a pull() passed `err` failed (`error` < 0) or came back with parts
 * failed (g->error): the message to record (N80). */
const char *engine_pull_error(int error, const struct gh_pull *g,
                              const struct buf *err);

/*
 * The one identity check (T4, U5), keyed by login: is the write token's
 * login `want` (the `role` it plays, for the messages)? AA_OK, remembered
 * for `want`; AA_EAPI when GET /user failed; AA_EUSAGE when the token is
 * someone else's. The reason goes to step `s`, the note to the report.
 */
int engine_identity_is(struct engine *e, struct report_step *s,
                       const char *want, const char *role);
/*
 * T4: before the first write of a run, the token must be the trusted
 * login. On failure (AA_EAPI: unreadable, AA_EUSAGE: another login) the
 * step has its reason, the run stops, and the flow ends the step as an
 * error (engine_result_error).
 */
int engine_identity_check(struct engine *e, size_t step);

/* The writes: each checks the identity first, then records the write in
 * the report, or gives the step its reason and returns AA_EAPI (or the
 * identity's error) when it fails: the flow ends the step as an error. */
int engine_create_label(struct engine *e, size_t step, int64_t pr);
int engine_add_label(struct engine *e, size_t step, int64_t pr);
int engine_set_status(struct engine *e, size_t step, int64_t pr,
                      const char *sha, const char *state,
                      const char *description, const char *target_url);
/* §6.1 step 3: POST the approval of `head`; its id goes to *approval_id. */
int engine_write_approval(struct engine *e, size_t step, int64_t pr,
                          const char *head, int64_t *approval_id);
/* §6.2: dismiss every approval of the trusted login (an APPROVED review)
 * among `reviews`, in id order (N11), attempting all of them. Returns 0,
 * AA_EAPI if any failed, or the identity error. */
int engine_dismiss_approvals(struct engine *e, size_t step, int64_t pr,
                             const struct snap_review *reviews, size_t n,
                             const char *message);

/* Did this run fail to add the label to PR `pr` (§3.1)? */
bool engine_label_failed(const struct engine *e, int64_t pr);

#endif
