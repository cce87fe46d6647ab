/*
 * apply.h - BEHAVIOR §3: what applying one trusted comment decides.
 *
 * Pure, like gate.h: reads go in, a decision comes out, with the sentences
 * a reviewer reads. The apply step needs some reads only on some paths (the
 * PR's commits when the verdict names an older head, R2; the whole status
 * history when its round is older than the newest, A9), so each decision
 * either names the read it needs next or is final. The flow in run/apply.c
 * performs that read, puts the result in the input, and asks again:
 *
 *	apply_classify(&d, &in);               comment alone: T1, T2, R1, R3
 *	apply_label_decide(&in.label) …        §3.1 (when d.label)
 *	apply_check_decide(&c, &in.check) …    §3.3 (when d.check)
 *
 * Nothing here reads, writes, allocates outside the decision, or prints.
 */
#ifndef AA_APPLY_H
#define AA_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/kind.h"
#include "core/marker.h"
#include "core/model.h"
#include "core/policy.h"

/* How loud a log line is (the report's note levels, in the same order). */
enum say_level { SAY_ERROR, SAY_WARNING, SAY_NOTICE, SAY_INFO };

/* A sentence for the step's reasons and its line for the log, together. */
struct apply_say {
	enum say_level level;
	char *reason; /* the report step's reason; NULL: none */
	char *note;   /* the log line; NULL: none */
};

enum apply_outcome { APPLY_APPLIED, APPLY_SKIPPED, APPLY_REFUSED };

/* --- the comment alone --- */

struct apply_input {
	const struct policy *policy;
	int64_t pr;
	const struct snap_comment *comment;
	bool reread; /* it came from the API, not a payload: T2 applies */
};

struct apply_decision {
	enum apply_outcome outcome;
	bool quiet;              /* a refusal that is normal operation (A9) */
	struct marker_result marker;
	enum comment_kind kind;  /* core/kind.h: only a check verdict's kind
				  * may hold a check block */
	const char *needs_human; /* "yes", "no", "malformed" or NULL */
	char head[SHA_BUF];      /* the head the verdict names (N3), or "" */
	bool label;              /* §3.1: add the label */
	bool check;              /* §3.3: judge the check block */
	struct apply_say say[4]; /* what happened, in order */
	size_t nsay;
};

/*
 * The contracts below are proved for every input by Frama-C/WP (make
 * prove, docs/proof.md), over the model in tests/prove/apply_spec.h:
 * applied only when T1 (and on a re-read T2) holds; the label and the
 * check steps only when applied.
 */
/*@ requires \valid(d) && \valid_read(in);
    requires \valid_read(in->comment) && \valid_read(in->policy);
    requires \separated(d, in, in->comment, in->policy);
    assigns *d;
    ensures t1: d->outcome == APPLY_APPLIED ==>
      \old(AuthorTrusted((struct snap_comment *)in->comment,
			 (struct policy *)in->policy));
    ensures t2: d->outcome == APPLY_APPLIED && in->reread ==>
      \old(EditTrusted((struct snap_comment *)in->comment,
		       (struct policy *)in->policy));
    ensures refused: d->outcome == APPLY_REFUSED ==> in->reread &&
      \old(!EditTrusted((struct snap_comment *)in->comment,
			(struct policy *)in->policy));
    ensures label: d->label ==> d->outcome == APPLY_APPLIED;
    ensures check: d->check ==> d->outcome == APPLY_APPLIED &&
      d->kind == KIND_CHECK_VERDICT && d->marker.check.present;
    ensures say: d->nsay <= 4;
*/
void apply_classify(struct apply_decision *d, const struct apply_input *in);
void apply_decision_release(struct apply_decision *d);

/* --- §3.1: the label --- */

enum apply_label {
	LABEL_READ_EXISTS, /* read whether the repository has the label */
	LABEL_PRESENT,     /* already on the PR: nothing to write */
	LABEL_ADD,         /* add it (GitHub creates a missing one, N5) */
	LABEL_CREATE_ADD   /* create it in the repository, then add it */
};

struct apply_label_input {
	const struct policy *policy;
	const struct snap_pull *pull; /* its labels; NULL: the read failed */
	bool exists_known;            /* the repository lookup was done */
	bool exists;                  /* …and found it (a failure: true) */
};

/* No write only when the label is on the PR; never a removal (§3.1). */
/*@ requires \valid_read(in) && \valid_read(in->policy);
    requires in->pull != \null ==> \valid_read(in->pull) &&
      \valid_read(in->pull->labels + (0 .. in->pull->nlabels - 1));
    assigns \nothing;
    ensures present: \result == LABEL_PRESENT ==> in->pull != \null &&
      \exists integer i; 0 <= i < in->pull->nlabels &&
	IsLabel((struct policy *)in->policy, in->pull->labels[i]);
    ensures found: in->pull != \null && (\exists integer i;
      0 <= i < in->pull->nlabels &&
	IsLabel((struct policy *)in->policy, in->pull->labels[i])) ==>
      \result == LABEL_PRESENT;
    ensures read_exists: \result == LABEL_READ_EXISTS ==>
      in->pull != \null && !in->exists_known;
    ensures create: \result == LABEL_CREATE_ADD ==>
      in->exists_known && !in->exists;
*/
enum apply_label apply_label_decide(const struct apply_label_input *in);

/* --- §3.3: the check block --- */

enum tri { TRI_UNKNOWN, TRI_NO, TRI_YES };

enum apply_check_next {
	CHECK_READ_PULL,     /* the PR and its review threads */
	CHECK_READ_COMMITS,  /* is the named head a commit of the PR (R2)? */
	CHECK_READ_STATUSES, /* clean and round stamps of the named head */
	CHECK_READ_HISTORY,  /* its whole status history (A9) */
	CHECK_REFUSED,       /* final: refused (say[] has why) */
	CHECK_UNREAD,        /* final: a part it needs could not be read */
	CHECK_WRITE,         /* final: write `state`/`description` */
	CHECK_UNCHANGED      /* final: the status already says so */
};

struct apply_check_input {
	const struct policy *policy;
	int64_t pr;
	const struct snap_comment *comment;
	const struct marker_result *marker;
	const struct snap_pull *pull;   /* NULL until read */
	bool threads_ok;                /* the pull's threads were read */
	enum tri head_in_pull;          /* TRI_UNKNOWN until read */
	const struct snap_statuses *statuses; /* NULL until read */
	const struct snap_statuses *history;  /* NULL until read */
};

struct apply_check {
	enum apply_check_next next;
	bool quiet;          /* CHECK_REFUSED as a notice, exit 0 (A9) */
	const char *unread;  /* CHECK_UNREAD: which part, in words */
	bool clean;          /* CHECK_WRITE, CHECK_UNCHANGED */
	const char *state;   /* "success" or "failure" */
	struct buf description;
	struct apply_say say[6];
	size_t nsay;
};

void apply_check_init(struct apply_check *c);

/*@ // What the flow hands apply_check_decide (run/apply.c): the marker
  // and the comment it was parsed from; the pull, the statuses and the
  // history once read; a decision asking for a read, or fresh (next is
  // CHECK_READ_PULL, 0, after apply_check_init).
  predicate CheckInputOK{L}(struct apply_check_input *in) =
    \valid_read(in) && \valid_read(in->policy) && \valid_read(in->marker) &&
    \valid_read(in->comment) &&
    valid_read_string(&in->marker->check.head[0]) &&
    (in->head_in_pull == TRI_UNKNOWN || in->head_in_pull == TRI_NO ||
     in->head_in_pull == TRI_YES) &&
    (in->pull != \null ==> PullOK(in->pull) &&
      valid_read_string(&in->pull->head_sha[0])) &&
    (in->statuses != \null ==> StatusesOK(in->statuses) &&
      \forall integer i; 0 <= i < in->statuses->n ==>
	valid_read_string(in->statuses->v[i].description)) &&
    (in->history != \null ==> StatusesOK(in->history));

  predicate CheckAsks{L}(struct apply_check *c) =
    c->next == CHECK_READ_PULL || c->next == CHECK_READ_COMMITS ||
    c->next == CHECK_READ_STATUSES || c->next == CHECK_READ_HISTORY;

  // R1 and R3 (BEHAVIOR §3.2): one valid head: and one valid round: in
  // one check block, opened at the exact marker (N68), of a comment
  // within the length limit.
  predicate R1R3{L}(struct marker_result *m) =
    !m->too_long && !m->check.near_line && !m->check.second_line &&
    m->check.has_head && !m->check.head_conflict &&
    m->check.has_round && m->check.round_valid && !m->check.round_conflict;

  // R2: head: is the PR's current head, or a commit of the PR.
  predicate R2{L}(struct apply_check_input *in) =
    strcmp(&in->pull->head_sha[0], &in->marker->check.head[0]) == 0 ||
    in->head_in_pull == TRI_YES;

  // R4: round: is the id of the newest trusted round stamp of (head, N).
  predicate R4{L}(struct apply_check_input *in) =
    in->statuses != \null &&
    \exists integer i; NewestStamp(in->statuses, in->policy, in->pr,
				   STAMP_ROUND, i) &&
      in->statuses->v[i].id == in->marker->check.round;
*/
/*@ requires CheckInputOK((struct apply_check_input *)in);
    requires \valid(c) && CheckAsks(c) && c->nsay <= 6;
    requires valid_read_string(c->description.ptr);
    requires \separated(c, in, in->policy, in->marker, in->comment);
    requires in->pull != \null ==> \separated(c, in->pull);
    requires in->statuses != \null ==> \separated(c, in->statuses) &&
      \separated(c, in->statuses->v + (0 .. in->statuses->n - 1));
    requires in->history != \null ==> \separated(c, in->history) &&
      \separated(c, in->history->v + (0 .. in->history->n - 1));
    assigns *c;
    ensures say: c->nsay <= 6;
    ensures r1_r3: c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED ==>
      \old(R1R3((struct marker_result *)in->marker));
    ensures r2: c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED ==>
      \old(in->pull) != \null && \old(R2((struct apply_check_input *)in));
    ensures r4: c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED ==>
      \old(R4((struct apply_check_input *)in));
    ensures threads: c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED ==>
      \old(in->threads_ok);
    ensures clean: c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED ==>
      (c->clean <==> \old(JudgeClean(in->comment->body,
	in->comment->body_len, &in->marker->check, in->pull->threads,
	in->pull->nthreads, in->policy))) &&
      (IsSuccess(c->state) ==> c->clean);
    ensures read_pull: c->next == CHECK_READ_PULL ==> \old(in->pull) == \null;
    ensures read_commits: c->next == CHECK_READ_COMMITS ==>
      \old(in->head_in_pull) == TRI_UNKNOWN;
    ensures read_statuses: c->next == CHECK_READ_STATUSES ==>
      \old(in->statuses) == \null;
    ensures read_history: c->next == CHECK_READ_HISTORY ==>
      \old(in->history) == \null;
*/
void apply_check_decide(struct apply_check *c,
			const struct apply_check_input *in);
void apply_check_release(struct apply_check *c);

#endif
