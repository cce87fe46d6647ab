/*
 * summary_int.h - what the summary (summary.c) and the outputs
 * (outputs.c) both ask of a report (A7), private to them.
 */
#ifndef AA_SUMMARY_INT_H
#define AA_SUMMARY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/report.h"

/* Did this run write (or, dry, plan) an approval of PR `pr`? */
bool summary_approval_written(const struct report *r, int64_t pr);
/* Is the step a gate step whose outcome is an approval? */
bool summary_is_approve(const struct report_step *s);
/* Does an approval exist after the run (not merely planned)? */
bool summary_approval_exists(const struct report *r,
			     const struct report_step *s);

#endif
