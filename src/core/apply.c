/*
 * apply.c - BEHAVIOR §3 as decisions: which comment is a verdict (T1, T2,
 * A2–A4), which verdict is refused and why (R1–R4, A9), what the label and
 * the clean status become. See apply.h for the read-and-ask-again protocol.
 */
#include "core/apply.h"

#include "core/kind.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stamp.h"
#include "core/verdict.h"

/* Add a line: its reason and its note, each printf-style (NULL: none).
 * Trusted by the proof (docs/proof.md), like gate.c's gate_add_reason: it
 * writes the decision's sentences, which no property reads, so its
 * contract names only the count. */
/*@ requires \valid(n) && *n <= cap;
    requires \valid(v + (0 .. cap - 1));
    requires \separated(n, v + (0 .. cap - 1));
    assigns *n;
    ensures *n <= cap; */
static void say(struct apply_say *v, size_t cap, size_t *n,
		enum say_level level, const char *reason, const char *note)
{
	if (*n == cap)
		return; /* the array is sized for the longest path */
	v[*n].level = level;
	v[*n].reason = reason ? xstrdup(reason) : NULL;
	v[*n].note = note ? xstrdup(note) : NULL;
	(*n)++;
}

static void say_release(struct apply_say *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].reason);
		free(v[i].note);
	}
}

/* --- the comment alone --- */

#define DSAY(d, lvl, r, n) say((d)->say, ARRAY_SIZE((d)->say), &(d)->nsay, lvl, r, n)

/* Why a trusted comment is no verdict: nothing, or a near-miss (A2, A3). */
/*@ requires \valid(d) && d->nsay <= 4 && \valid_read(c);
    requires \separated(d, c);
    assigns d->nsay;
    ensures d->nsay <= 4; */
static void no_verdict(struct apply_decision *d, const struct snap_comment *c)
{
	int64_t id = c->id;
	const struct marker_result *m = &d->marker;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);

	if (m->check.fenced_line) {
		buf_setf(&why, "comment %lld has no verdict: its agentic:check "
			       "marker (line %zu) is inside a code fence opened "
			       "at line %zu, and fenced code is never read",
			 (long long)id, m->check.fenced_line,
			 m->check.fenced_open);
		DSAY(d, SAY_INFO, why.ptr, NULL);
	}
	if (m->nh.stray_line) {
		buf_setf(&why, "comment %lld has no needs-human verdict: its "
			       "markers (line %zu) are not a leading marker run "
			       "under an agentic:needs-human v1 first line",
			 (long long)id, m->nh.stray_line);
		DSAY(d, SAY_INFO, why.ptr, NULL);
	}
	if (d->kind == KIND_OTHER &&
	    kind_has_verdict_marker(c->body, c->body_len)) {
		buf_setf(&why, "comment %lld is a pr-review summary (its first "
			       "line is <!-- pr-review:sticky -->): the verdict "
			       "markers in it are quoted text, never a verdict",
			 (long long)id);
		DSAY(d, SAY_INFO, why.ptr, NULL);
	} else if (!m->check.fenced_line && !m->nh.stray_line) {
		buf_setf(&why, "comment %lld has no verdict marker",
			 (long long)id);
		DSAY(d, SAY_INFO, why.ptr, NULL);
	}
	buf_release(&why);
}

/* What a decision starts from: all zero. A memset through char * is a cast
 * WP's Typed memory model cannot follow, so the zero is a copy; the
 * provers cannot take a field out of a copy of a struct this size, so the
 * fields apply_classify's proof reads are written again, with the same
 * values (docs/proof.md). */
static const struct apply_decision apply_decision_zero;

/*@ requires \valid(d);
    assigns *d;
    ensures d->outcome == APPLY_APPLIED && d->nsay == 0 && !d->label &&
      !d->check && d->kind == KIND_OTHER; */
static void decision_zero(struct apply_decision *d)
{
	*d = apply_decision_zero;
	d->outcome = APPLY_APPLIED;
	d->kind = KIND_OTHER;
	d->label = false;
	d->check = false;
	d->nsay = 0;
}

void apply_classify(struct apply_decision *d, const struct apply_input *in)
{
	const struct snap_comment *c = in->comment;
	const struct marker_result *m = &d->marker;
	struct buf r = BUF_INIT(BUF_MAX_SMALL), n = BUF_INIT(BUF_MAX_SMALL);

	decision_zero(d);
	if (!verdict_author_trusted(c, in->policy)) { /* T1 */
		buf_setf(&r, "comment %lld is by %s, not the trusted login",
			 (long long)c->id,
			 c->author ? c->author : "a deleted account");
		DSAY(d, SAY_INFO, r.ptr, NULL);
		d->outcome = APPLY_SKIPPED;
		goto out;
	}
	marker_parse(&d->marker, c->body, c->body_len);
	d->kind = comment_kind(PLACE_ISSUE, c->body, c->body_len);
	if (d->kind != KIND_CHECK_VERDICT) {
		/* core/kind.h: only a verdict's kind holds a check block; a
		 * pr-review summary quoting one is nobody's. */
		d->marker.check.present = false;
	}
	if (!m->nh.present && !m->check.present && !m->nh.trigger) {
		no_verdict(d, c);
		d->outcome = APPLY_SKIPPED;
		goto out;
	}
	if (m->nh.present)
		d->needs_human = m->nh.malformed	? "malformed"
				 : m->nh.value == NH_YES ? "yes"
							 : "no";
	if (m->check.has_head && !m->check.head_conflict &&
	    !m->check.second_line &&
	    !m->check.near_line) /* N3: only a head that means one thing */
		memcpy(d->head, m->check.head, SHA_BUF);
	else if (m->nh.present && !m->nh.malformed)
		memcpy(d->head, m->nh.head, SHA_BUF);
	if (in->reread && !verdict_edit_trusted(c, in->policy)) { /* T2 */
		const char *who = c->edited_by ? c->edited_by
					       : "an unknown account";

		buf_setf(&r, "T2: comment %lld was edited by %s",
			 (long long)c->id, who);
		buf_setf(&n, "PR #%lld: verdict refused: comment %lld was "
			     "edited by %s",
			 (long long)in->pr, (long long)c->id, who);
		DSAY(d, SAY_ERROR, r.ptr, n.ptr);
		d->outcome = APPLY_REFUSED;
		goto out;
	}
	d->outcome = APPLY_APPLIED;
	d->label = m->nh.trigger;
	d->check = m->check.present;
out:
	buf_release(&r);
	buf_release(&n);
}

void apply_decision_release(struct apply_decision *d)
{
	say_release(d->say, d->nsay);
	d->nsay = 0;
}

/* --- §3.1: the label --- */

enum apply_label apply_label_decide(const struct apply_label_input *in)
{
	size_t i;

	if (!in->pull)
		return LABEL_ADD; /* unknown: add anyway (never fewer labels) */
	/*@ loop invariant 0 <= i <= in->pull->nlabels;
	    loop invariant \forall integer j; 0 <= j < i ==>
	      !IsLabel((struct policy *)in->policy, in->pull->labels[j]);
	    loop assigns i;
	    loop variant in->pull->nlabels - i; */
	for (i = 0; i < in->pull->nlabels; i++)
		if (policy_is_label(in->policy, in->pull->labels[i]))
			return LABEL_PRESENT;
	if (!in->exists_known)
		return LABEL_READ_EXISTS;
	return in->exists ? LABEL_ADD : LABEL_CREATE_ADD;
}

/* --- §3.3: the check block --- */

#define CSAY(c, lvl, r, n) say((c)->say, ARRAY_SIZE((c)->say), &(c)->nsay, lvl, r, n)

void apply_check_init(struct apply_check *c)
{
	memset(c, 0, sizeof(*c));
	buf_init(&c->description, BUF_MAX_SMALL);
}

void apply_check_release(struct apply_check *c)
{
	say_release(c->say, c->nsay);
	c->nsay = 0;
	buf_release(&c->description);
}

/* A refusal: "RULE: why" as the reason, and its log line. */
/*@ requires \valid(c) && c->nsay <= 6;
    assigns c->nsay, c->next, c->quiet;
    ensures c->next == CHECK_REFUSED && c->nsay <= 6; */
static void refuse(struct apply_check *c, int64_t pr, const char *rule,
		   const char *why, bool quiet)
{
	struct buf r = BUF_INIT(BUF_MAX_SMALL), n = BUF_INIT(BUF_MAX_SMALL);

	buf_setf(&r, "%s: %s", rule, why);
	if (quiet)
		buf_setf(&n, "PR #%lld: verdict not applied (%s): %s",
			 (long long)pr, rule, why);
	else
		buf_setf(&n, "PR #%lld: verdict refused (%s): %s",
			 (long long)pr, rule, why);
	CSAY(c, quiet ? SAY_NOTICE : SAY_ERROR, r.ptr, n.ptr);
	c->next = CHECK_REFUSED;
	c->quiet = quiet;
	buf_release(&r);
	buf_release(&n);
}

/* R1 and R3 (and the length limit) need no read: N4. Does one of them
 * refuse the block? (Read without writing: refuse_early says why.) */
/*@ requires \valid_read(m);
    assigns \nothing;
    ensures !\result <==> R1R3((struct marker_result *)m); */
static bool refused_early(const struct marker_result *m)
{
	return m->too_long || m->check.near_line || m->check.second_line ||
	       !m->check.has_head || m->check.head_conflict ||
	       !m->check.has_round || !m->check.round_valid ||
	       m->check.round_conflict;
}

/* Refuse the block refused_early refuses, with every reason. */
/*@ requires \valid(c) && c->nsay <= 6;
    requires \valid_read(m) && \separated(c, m);
    requires !R1R3((struct marker_result *)m);
    assigns c->nsay, c->next, c->quiet;
    ensures c->nsay <= 6 && c->next == CHECK_REFUSED; */
static void refuse_early(struct apply_check *c, int64_t pr,
			 const struct marker_result *m)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);

	if (m->too_long)
		refuse(c, pr, "R1",
		       "the comment is longer than 65,536 characters", false);
	if (m->check.near_line) {
		buf_setf(&why, "line %zu holds the agentic:check marker in "
			       "another form: the block opens only at the "
			       "exact line <!-- agentic:check v1 --> (N68)",
			 m->check.near_line);
		refuse(c, pr, "R1", why.ptr, false);
	}
	if (m->check.second_line) {
		buf_setf(&why, "two agentic:check blocks (lines %zu and %zu): "
			       "the verdict is ambiguous",
			 m->check.block_line, m->check.second_line);
		refuse(c, pr, "R1", why.ptr, false);
	}
	if (!m->check.has_head) {
		refuse(c, pr, "R1", "no valid head: line in the check block",
		       false);
	} else if (m->check.head_conflict) {
		buf_setf(&why, "two head: lines name different commits (lines "
			       "%zu and %zu)",
			 m->check.head_line, m->check.head_conflict);
		refuse(c, pr, "R1", why.ptr, false);
	}
	if (!m->check.has_round || !m->check.round_valid) {
		refuse(c, pr, "R3", "no valid round: line in the check block",
		       false);
	} else if (m->check.round_conflict) {
		buf_setf(&why, "two round: lines disagree (lines %zu and %zu)",
			 m->check.round_line, m->check.round_conflict);
		refuse(c, pr, "R3", why.ptr, false);
	}
	buf_release(&why);
}

/*
 * Issue 24: a round id that names a status of this head which is not a
 * trusted round stamp says so, and why, instead of reading as if it were
 * absent.
 */
/*@ requires \valid_read(in) && \valid_read(in->policy);
    requires in->statuses != \null ==> StatusesOK(in->statuses);
    requires in->history != \null ==> StatusesOK(in->history);
    assigns \nothing; */
static void stamp_not_ours(struct buf *why, const struct apply_check_input *in,
			   int64_t id)
{
	const struct snap_statuses *lists[2] = {in->statuses, in->history};
	size_t i, k;

	/*@ loop invariant 0 <= i <= 2;
	    loop invariant lists[0] == in->statuses && lists[1] == in->history;
	    loop assigns i, k;
	    loop variant 2 - i; */
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		if (!lists[i])
			continue;
		/*@ loop invariant 0 <= k <= lists[i]->n;
		    loop assigns k;
		    loop variant lists[i]->n - k; */
		for (k = 0; k < lists[i]->n; k++) {
			const struct snap_status *st = &lists[i]->v[k];

			if (st->id != id)
				continue;
			if (!stamp_trusted(st, in->policy))
				buf_addf(why, "; status %lld on this head was "
					      "posted by %s, not the trusted "
					      "login",
					 (long long)id,
					 st->creator ? st->creator
						     : "an unknown account");
			else
				buf_addf(why, "; status %lld on this head is "
					      "not a round stamp of PR #%lld "
					      "(context %s)",
					 (long long)id, (long long)in->pr,
					 st->context);
			return;
		}
	}
}

/* R4: round: is the newest trusted round stamp of (head, N). */
/*@ requires \valid_read(in) && \valid_read(in->marker) &&
      \valid_read(in->policy);
    requires StatusesOK(in->statuses);
    assigns \nothing;
    ensures \result ==> R4((struct apply_check_input *)in); */
static bool round_holds(const struct apply_check_input *in)
{
	const struct snap_status *round =
		stamp_round(in->statuses, in->policy, in->pr);

	return round && round->id == in->marker->check.round;
}

/*
 * R4 fails: an older round of the same head and PR lost a race to a push
 * or a retarget (A9); telling it apart needs the whole status history.
 */
/*@ requires CheckInputOK((struct apply_check_input *)in);
    requires in->statuses != \null;
    requires \valid(c) && c->nsay <= 6 && CheckAsks(c);
    requires \separated(c, in) && \separated(c, in->policy) &&
      \separated(c, in->marker) && \separated(c, in->statuses);
    assigns c->nsay, c->next, c->quiet;
    ensures c->nsay <= 6;
    ensures c->next == CHECK_REFUSED ||
      (c->next == CHECK_READ_HISTORY && in->history == \null); */
static void round_lost(struct apply_check *c,
		       const struct apply_check_input *in)
{
	const struct marker_check *k = &in->marker->check;
	const struct snap_status *round =
		stamp_round(in->statuses, in->policy, in->pr);
	struct buf why = BUF_INIT(BUF_MAX_SMALL);

	if (round && k->round < round->id && !in->history) {
		c->next = CHECK_READ_HISTORY;
		return;
	}
	if (round && k->round < round->id &&
	    stamp_round_by_id(in->history, in->policy, in->pr, k->round)) {
		buf_setf(&why, "round %lld was superseded by round %lld of PR "
			       "#%lld on %.7s (a push or retarget started a "
			       "new review round while this one was judged)",
			 (long long)k->round, (long long)round->id,
			 (long long)in->pr, k->head);
		refuse(c, in->pr, "R4", why.ptr, true);
	} else {
		if (round)
			buf_setf(&why, "round %lld is not a review round of PR "
				       "#%lld on %.7s (the newest is %lld)",
				 (long long)k->round, (long long)in->pr,
				 k->head, (long long)round->id);
		else
			buf_setf(&why, "no trusted round stamp of PR #%lld on "
				       "%.7s",
				 (long long)in->pr, k->head);
		stamp_not_ours(&why, in, k->round);
		refuse(c, in->pr, "R4", why.ptr, false);
	}
	buf_release(&why);
}

/* Which rows made the block unclean (issue 24: an operator must be able
 * to tell which id was foreign, and why a row was invalid). */
/*@ requires \valid_read(j);
    assigns \nothing; */
static void row_details(struct buf *t, const struct check_judgement *j)
{
	if (j->invalid_line)
		buf_addf(t, "; line %zu is an invalid row: %s",
			 j->invalid_line,
			 marker_row_error_str(j->invalid_error));
	if (j->foreign_line)
		buf_addf(t, "; line %zu names %.*s, which is not an AI "
			    "reviewer's review thread of this PR",
			 j->foreign_line,
			 (int)(j->foreign_id.n > 80 ? 80 : j->foreign_id.n),
			 j->foreign_id.p);
}

/* Whether the status says clean (or not) with this description. */
/*@ requires \valid_read(s) && valid_read_string(s->state);
    requires valid_read_string(s->description) &&
      valid_read_string(description);
    assigns \nothing; */
static bool status_says(const struct snap_status *s, bool clean,
			const char *description)
{
	if (strcmp(s->description, description) != 0)
		return false;
	if (clean)
		return strcmp(s->state, "success") == 0;
	return strcmp(s->state, "failure") == 0;
}

/* §3.3: judge the rows; the status to write, or that it already says so. */
/*@ requires CheckInputOK((struct apply_check_input *)in);
    requires in->pull != \null && in->statuses != \null;
    requires \valid(c) && c->nsay <= 6;
    requires valid_read_string(c->description.ptr);
    requires \separated(c, in) && \separated(c, in->policy) &&
      \separated(c, in->marker) && \separated(c, in->comment) &&
      \separated(c, in->pull) && \separated(c, in->statuses);
    requires \separated(c, in->statuses->v + (0 .. in->statuses->n - 1));
    assigns c->nsay, c->next, c->clean, c->state;
    ensures c->nsay <= 6;
    ensures c->next == CHECK_WRITE || c->next == CHECK_UNCHANGED;
    ensures c->clean <==> \old(JudgeClean(in->comment->body,
      in->comment->body_len, &in->marker->check, in->pull->threads,
      in->pull->nthreads, in->policy));
    ensures IsSuccess(c->state) ==> c->clean; */
static void judge(struct apply_check *c, const struct apply_check_input *in)
{
	const struct marker_check *k = &in->marker->check;
	const struct policy *p = in->policy;
	struct check_judgement j;
	struct buf t = BUF_INIT(BUF_MAX_SMALL);
	/* The newest clean status, read before anything is written (pure:
	 * the proof's frame). */
	const struct snap_status *cur = stamp_clean(in->statuses, p, in->pr);
	long long pr = (long long)in->pr;
	bool same;

	verdict_judge_check(&j, in->comment->body, in->comment->body_len, k,
			    in->pull->threads, in->pull->nthreads, p);
	/* What to write, and whether the newest clean status says it
	 * already: compared before anything of c is written (the proof's
	 * frame: nothing written yet can touch the description's bytes). */
	buf_setf(&c->description, "conductor pr=#%lld: clean=%s", pr,
		 j.clean ? "true" : "false");
	same = cur && status_says(cur, j.clean, c->description.ptr);
	c->clean = j.clean;
	if (k->clean_conflict)
		buf_setf(&t, "PR #%lld: two clean: lines disagree (lines %zu "
			     "and %zu); treated as clean: false",
			 pr, k->clean_line, k->clean_conflict);
	else if (!j.has_clean && k->fenced_key)
		buf_setf(&t, "PR #%lld: the check block has no clean: line "
			     "outside code fences (A12: a key line inside a "
			     "fence, line %zu, never supplies its key); treated "
			     "as clean: false", pr, k->fenced_key);
	else if (!j.has_clean)
		buf_setf(&t, "PR #%lld: the check block has no clean: line; "
			     "treated as clean: false", pr);
	else if (j.said_clean && !j.clean)
		buf_setf(&t, "PR #%lld: the verdict says clean: true, but %zu "
			     "invalid, %zu foreign and %zu blocking rows make "
			     "it clean: false",
			 pr, j.invalid, j.foreign, j.blocking);
	if (t.len)
		CSAY(c, SAY_WARNING, NULL, t.ptr);
	buf_reset(&t);
	if (!j.clean) {
		buf_setf(&t, "not clean: clean: %s, %zu invalid, %zu foreign, "
			     "%zu blocking of %zu rows",
			 k->clean_conflict ? "conflicting"
			 : !j.has_clean	   ? "missing"
			 : j.said_clean	   ? "true"
					   : "false",
			 j.invalid, j.foreign, j.blocking, j.rows);
		row_details(&t, &j);
	}
	if (t.len)
		CSAY(c, SAY_INFO, t.ptr, NULL);
	c->state = j.clean ? "success" : "failure";
	if (same) {
		buf_setf(&t, "PR #%lld: %s is already %s on %.7s", pr,
			 p->clean_context, c->state, k->head);
		CSAY(c, SAY_INFO, NULL, t.ptr);
		c->next = CHECK_UNCHANGED;
	} else {
		c->next = CHECK_WRITE;
	}
	buf_release(&t);
}

void apply_check_decide(struct apply_check *c,
			const struct apply_check_input *in)
{
	const struct marker_check *k = &in->marker->check;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);

	if (refused_early(in->marker)) {
		refuse_early(c, in->pr, in->marker);
		goto out;
	}
	/*@ assert r1_r3_hold:
	      \at(R1R3((struct marker_result *)in->marker), Pre); */
	if (!in->pull) {
		c->next = CHECK_READ_PULL;
		goto out;
	}
	if (strcmp(in->pull->head_sha, k->head) != 0) { /* R2 */
		if (in->head_in_pull == TRI_UNKNOWN) {
			c->next = CHECK_READ_COMMITS;
			goto out;
		}
		if (in->head_in_pull == TRI_NO) {
			buf_setf(&why, "head %s is not a commit of PR #%lld",
				 k->head, (long long)in->pr);
			refuse(c, in->pr, "R2", why.ptr, false);
			goto out;
		}
	}
	/*@ assert r2_holds: \at(R2((struct apply_check_input *)in), Pre); */
	if (!in->statuses) {
		c->next = CHECK_READ_STATUSES;
		goto out;
	}
	if (!round_holds(in)) {
		round_lost(c, in);
		goto out;
	}
	/*@ assert r4_holds: \at(R4((struct apply_check_input *)in), Pre); */
	if (!in->threads_ok) {
		c->next = CHECK_UNREAD;
		c->unread = "review threads";
		goto out;
	}
	judge(c, in);
out:
	buf_release(&why);
}
