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

/*
 * The contract below is proved for every input by Frama-C/WP (make prove,
 * docs/proof.md); the predicates it names are BEHAVIOR §5.2's, written over
 * the model in tests/prove/gate_spec.h.
 */
/*@ predicate CleanOK{L}(struct gate_input *in, struct policy *p) =
    in->statuses != \null &&
    \exists integer i; NewestStamp(in->statuses, p, in->pr, STAMP_CLEAN, i) &&
      IsSuccess(in->statuses->v[i].state);

  predicate LabelAbsentOK{L}(struct gate_input *in, struct policy *p) =
    !in->label_write_failed &&
    \forall integer i; 0 <= i < in->pull->nlabels ==>
      !IsLabel(p, in->pull->labels[i]);

  predicate ThreadsOK{L}(struct gate_input *in) =
    \forall integer i; 0 <= i < in->pull->nthreads ==>
      in->pull->threads[i].comments >= 2;

  // The table of §5.2, row by row, then A1/A10's hold.
  predicate EscalationOK{L}(struct gate_input *in, struct policy *p) =
    \let pull = in->pull; \let h = &pull->head_sha[0];
    \let k = NhIndex(pull, h, p);
    (k >= 0 ==>
      NhMalformed(pull, h, p) == 0 &&
      ViewIs(NhBaseP(pull, h, p), NhBaseN(pull, h, p), pull->base_ref) &&
      (NhValue(pull, h, p) == NH_YES ==>
	AuthAfter(pull, p, pull->comments[k].created_at)) &&
      (NhValue(pull, h, p) != NH_YES ==> !UnauthorizedUnlabel(pull, p))) &&
    (k < 0 ==>
      in->statuses != \null &&
      \exists integer s, r;
	NewestStamp(in->statuses, p, in->pr, STAMP_SKIP, s) &&
	NewestStamp(in->statuses, p, in->pr, STAMP_ROUND, r) &&
	in->statuses->v[s].id > in->statuses->v[r].id &&
	AuthAfter(pull, p, in->statuses->v[r].created_at)) &&
    (NhHeld(pull, p) ==> AuthAfter(pull, p, NhHoldAt(pull, p)));

  predicate GateInputOK{L}(struct gate_input *in, struct policy *p) =
    \valid_read(in) && \valid_read(p) &&
    ((in->ok & PART_PULL) != 0 ==> PullOK(in->pull)) &&
    (in->statuses != \null ==> StatusesOK(in->statuses));
*/
/*@ requires GateInputOK((struct gate_input *)in, (struct policy *)p);
    requires \valid(out);
    requires \separated(out, in, p, in->pull, in->statuses);
    requires (in->ok & PART_PULL) != 0 ==> \separated(out,
      in->pull->labels + (0 .. in->pull->nlabels - 1),
      in->pull->threads + (0 .. in->pull->nthreads - 1),
      in->pull->timeline + (0 .. in->pull->ntimeline - 1),
      in->pull->comments + (0 .. in->pull->ncomments - 1));
    requires in->statuses != \null ==>
      \separated(out, in->statuses->v + (0 .. in->statuses->n - 1));
    assigns *out;
    ensures read: out->outcome == GATE_APPROVE ==>
      (in->ok & PART_PULL) != 0 && (in->failed & PART_ALL) == 0;
    ensures clean: out->outcome == GATE_APPROVE ==>
      \old(CleanOK((struct gate_input *)in, (struct policy *)p));
    ensures label_absent: out->outcome == GATE_APPROVE ==>
      (in->ok & PART_LABELS) != 0 &&
      \old(LabelAbsentOK((struct gate_input *)in, (struct policy *)p));
    ensures threads_answered: out->outcome == GATE_APPROVE ==>
      (in->ok & PART_THREADS) != 0 &&
      \old(ThreadsOK((struct gate_input *)in));
    ensures escalation: out->outcome == GATE_APPROVE ==>
      (in->ok & PART_COMMENTS) != 0 && (in->ok & PART_TIMELINE) != 0 &&
      \old(EscalationOK((struct gate_input *)in, (struct policy *)p));
    ensures draft: out->outcome == GATE_APPROVE ==>
      !in->pull->draft || p->approve_drafts;
    ensures a1: out->outcome == GATE_APPROVE ==>
      \old(\forall integer k; 0 <= k < in->pull->ncomments &&
	Trigger(&in->pull->comments[k], (struct policy *)p) ==>
	AuthAfter(in->pull, (struct policy *)p,
		  in->pull->comments[k].created_at));
    ensures a10: out->outcome == GATE_APPROVE ==>
      \old(\forall integer j;
	OwnLabeled(in->pull, (struct policy *)p, j) ==>
	AuthAfter(in->pull, (struct policy *)p,
		  in->pull->timeline[j].created_at));
*/
void gate_decide(struct gate_decision *out, const struct gate_input *in,
		 const struct policy *p);

/* Add a reason (printf-style) to a decision. */
void gate_add_reason(struct gate_decision *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
