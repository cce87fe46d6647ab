/*
 * approval.h - BEHAVIOR §6: the approval protocol around gate_decide():
 * approve with its re-checks (§6.1), withhold and dismiss (§6.2), and the
 * A13 backstop for an ungated base.
 *
 * Pure like gate.h: the flow in run/gate.c evaluates the gate from fresh
 * reads (an approval_eval each time), asks these functions what the
 * protocol says, and performs the writes they settle on:
 *
 *	approval_exists(first)                  §6.1 step 1: no stacked POST
 *	approval_recheck(first, again)          step 2 (and step 4 after POST)
 *	approval_reviews_from(first, again)     whose reviews §6.2 dismisses
 *	approval_unlisted(after, mine)          step 4: dismiss the one posted
 *	approval_older(after, mine)             two runs approved at once
 *	approval_withheld(…)                    how the step ends
 *
 * Nothing here reads, writes, allocates or prints.
 */
#ifndef AA_APPROVAL_H
#define AA_APPROVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/gate.h"
#include "core/model.h"
#include "core/policy.h"

/* One evaluation of the gate from fresh reads, as the protocol sees it. */
struct approval_eval {
	bool read;    /* the pull was read (false: failed, or gone) */
	bool skip;    /* nothing to decide any more (closed, merged, fork) */
	bool ungated; /* A13: the base is not a gated one */
	enum gate_outcome outcome; /* gate_decide's; unset when skip/ungated */
	const char *head;  /* the head read ("" when the pull was not) */
	bool reviews_read; /* the reviews below were read */
	const struct snap_review *reviews;
	size_t nreviews;
};

/*@ // The reviews an evaluation read are readable, their commits and the
  // head strings (tests/prove/approval_spec.h; docs/proof.md).
  predicate EvalOK{L}(struct approval_eval *ev) =
    \valid_read(ev) && valid_read_string(ev->head) &&
    (ev->reviews_read ==>
      \valid_read(ev->reviews + (0 .. ev->nreviews - 1)) &&
      \forall integer i; 0 <= i < ev->nreviews ==>
	valid_read_string(&ev->reviews[i].commit_id[0]));

  // A trusted APPROVED review of this head among those read.
  predicate ApprovedHead{L}(struct approval_eval *ev, struct policy *p) =
    ev->reviews_read && \exists integer i; 0 <= i < ev->nreviews &&
      TrustedApproval(&ev->reviews[i], p) &&
      strcmp(&ev->reviews[i].commit_id[0], ev->head) == 0;
*/

/* §6.1 step 1: does an APPROVED review of the trusted login for the
 * evaluation's head already exist? */
/*@ requires EvalOK((struct approval_eval *)ev) && \valid_read(p);
    assigns \nothing;
    ensures exists: \result <==>
      ApprovedHead((struct approval_eval *)ev, (struct policy *)p); */
bool approval_exists(const struct approval_eval *ev, const struct policy *p);

enum approval_recheck {
	APPROVAL_HOLDS,     /* same head, still approvable */
	APPROVAL_CHANGED,   /* anything changed: withhold, exit 0 */
	APPROVAL_UNREADABLE /* a read failed (the PR vanished too): exit 3 */
};

/* §6.1 step 2 (and step 4): did the re-check `again` come out as
 * `first` did? Holds only when the fresh evaluation read the pull, gated
 * it, approves, and on the head the first one decided on. */
/*@ requires \valid_read(first) && \valid_read(again);
    requires again->read ==> valid_read_string(again->head) &&
      valid_read_string(first->head);
    assigns \nothing;
    ensures holds: \result == APPROVAL_HOLDS ==> again->read &&
      !again->skip && !again->ungated && again->outcome == GATE_APPROVE &&
      strcmp(again->head, first->head) == 0;
    ensures unread: !again->read ==> \result == APPROVAL_UNREADABLE;
    ensures error: again->read && !again->skip && !again->ungated &&
      again->outcome == GATE_ERROR ==> \result == APPROVAL_UNREADABLE;
    ensures \result == APPROVAL_HOLDS || \result == APPROVAL_CHANGED ||
      \result == APPROVAL_UNREADABLE; */
enum approval_recheck approval_recheck(const struct approval_eval *first,
                                       const struct approval_eval *again);

/* §6.2 after a failed re-check: dismiss on the fresh reviews when they
 * were read, else on the first evaluation's (returns `again` or
 * `first`). */
const struct approval_eval *
approval_reviews_from(const struct approval_eval *first,
                      const struct approval_eval *again);

/* §6.1 step 4: must the approval `mine` just posted be dismissed on its
 * own, because the fresh list does not show it among the trusted
 * approvals (unread, or not there yet)? False when mine is 0. */
/*@ requires \valid_read(after) && \valid_read(p);
    requires after->reviews_read ==>
      \valid_read(after->reviews + (0 .. after->nreviews - 1));
    assigns \nothing;
    ensures unlisted: \result <==> mine != 0 &&
      !(after->reviews_read && \exists integer i; 0 <= i < after->nreviews &&
	after->reviews[i].id == mine &&
	TrustedApproval(&after->reviews[i], (struct policy *)p)); */
bool approval_unlisted(const struct approval_eval *after, int64_t mine,
                       const struct policy *p);

/* No stacked approvals: the oldest trusted approval of after's head
 * older than `mine` (another run approved at the same time), or 0. The
 * oldest stays; `mine` is dismissed. */
/*@ // Review i, read, is a trusted approval of the head older than mine.
  predicate OlderApproval{L}(struct approval_eval *ev, struct policy *p,
                             integer mine, integer i) =
    ev->reviews_read && 0 <= i < ev->nreviews && ev->reviews[i].id < mine &&
    TrustedApproval(&ev->reviews[i], p) &&
    strcmp(&ev->reviews[i].commit_id[0], ev->head) == 0;
*/
/*@ requires EvalOK((struct approval_eval *)after) && \valid_read(p);
    requires ids: after->reviews_read ==> \forall integer i;
      0 <= i < after->nreviews ==> after->reviews[i].id != 0;
    assigns \nothing;
    ensures kept: \result != 0 ==> \result < mine && \exists integer i;
      OlderApproval((struct approval_eval *)after, (struct policy *)p, mine,
                    i) && after->reviews[i].id == \result;
    ensures oldest: \result != 0 ==> \forall integer i;
      OlderApproval((struct approval_eval *)after, (struct policy *)p, mine,
                    i) ==> \result <= after->reviews[i].id;
    ensures none: \result == 0 <==> !\exists integer i;
      OlderApproval((struct approval_eval *)after, (struct policy *)p, mine,
                    i); */
int64_t approval_older(const struct approval_eval *after, int64_t mine,
                       const struct policy *p);

/* How a step ends (an outcome of gate.h and BEHAVIOR §10's code). */
struct approval_end {
	enum gate_outcome outcome;
	int exit;
};

/*
 * §5.3, §6.2, A13: how a step that did not approve ends. `kept` is the
 * outcome when all went well (GATE_WITHHOLD, or GATE_SKIPPED for an
 * ungated base); `read_failed`: a read failed (or the reviews to dismiss
 * could not be read); `dismissed`: AA_OK, AA_EAPI (a dismissal failed)
 * or the identity check's error (AA_EUSAGE: another login, exit 2).
 */
/*@ assigns \nothing;
    ensures never_approves: \result.outcome == kept ||
      \result.outcome == GATE_ERROR;
    ensures failed: read_failed || dismissed < 0 ==>
      \result.outcome == GATE_ERROR && \result.exit != EXIT_OK; */
struct approval_end approval_withheld(enum gate_outcome kept, bool read_failed,
                                      int dismissed);

#endif
