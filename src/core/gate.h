/*
 * gate.h - BEHAVIOR §5: may PR N be approved on its current head?
 *
 * gate_decide() is a pure function: the reads go in (with which of them
 * succeeded), the four conditions come out, each with one human sentence,
 * plus the outcome. It never does I/O and never approves by default: a
 * condition whose inputs were not read is false, and any failed read makes
 * the outcome GATE_ERROR.
 */
#ifndef AA_GATE_H
#define AA_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/policy.h"
#include "core/model.h"

enum gate_cond {
	COND_CLEAN,
	COND_LABEL_ABSENT,
	COND_THREADS_ANSWERED,
	COND_ESCALATION,
	COND_COUNT
};

/* Report keys ("clean", "label_absent", …) and table titles. */
extern const char *const gate_cond_keys[COND_COUNT];
extern const char *const gate_cond_titles[COND_COUNT];

enum gate_outcome { GATE_APPROVE, GATE_WITHHOLD, GATE_SKIPPED, GATE_ERROR };
extern const char *const gate_outcome_names[4];

/* The parts of a PR the gate reads. */
#define GATE_PARTS                                                       \
	(PART_PULL | PART_LABELS | PART_COMMENTS | PART_TIMELINE |         \
	 PART_THREADS | PART_REVIEWS)

struct gate_input {
	const char *repository;          /* owner/name, to spot forks */
	int64_t pr;
	const struct snap_pull *pull;    /* parts in `ok` are valid */
	unsigned ok;                     /* PART_* read */
	unsigned failed;                 /* PART_* whose read failed: any
					  * of them makes GATE_ERROR; a part
					  * in neither set was not asked for
					  * and its conditions are false */
	const struct snap_statuses *statuses; /* of the head; NULL: failed */
	bool label_write_failed; /* this run failed to add the label (§3.1):
				  * the label counts as set */
};

struct gate_decision {
	enum gate_outcome outcome;
	bool evaluated;               /* the conditions were evaluated */
	bool cond[COND_COUNT];
	struct buf why[COND_COUNT];   /* one sentence each, pass or fail */
	char **reasons;               /* failed conditions and other causes */
	size_t nreasons;
	char *verdict_url;            /* the deciding needs-human verdict */
	char *check_url;              /* the clean status's target (verdict) */
};

void gate_decision_init(struct gate_decision *d);
void gate_decision_release(struct gate_decision *d);

/*
 * Does the gate have nothing to decide for this pull (closed, merged,
 * fork)? When it does not, `why` holds the sentence that says why.
 */
bool gate_skip(const struct snap_pull *pull, const char *repository,
	       struct buf *why);

void gate_decide(struct gate_decision *out, const struct gate_input *in,
		 const struct policy *p);

/* Add a reason (printf-style) to a decision. */
void gate_add_reason(struct gate_decision *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
