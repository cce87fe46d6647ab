/*
 * gate_spec.h - the model the proof of gate_decide() is stated over
 * (docs/proof.md). Frama-C only: mk/prove.mk force-includes it (-include)
 * ahead of src/core/gate.c; no compiler ever sees it.
 *
 * Two parts. The predicates BEHAVIOR §5.2's four conditions are written in
 * (gate.h states gate_decide's contract with them). And the contracts of
 * what gate.c calls without this proof reading the body: the trusted base,
 * each one tested by its own unit tests (tests/unit/test_policy.c,
 * test_stamp.c, test_verdict.c, test_buf.c). Every such contract names
 * its function; nothing else is assumed.
 */
#ifndef AA_GATE_SPEC_H
#define AA_GATE_SPEC_H

#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "core/marker.h"
#include "core/model.h"
#include "core/policy.h"
#include "core/stamp.h"
#include "core/verdict.h"

struct gate_decision;

/* --- the words of the policy (BEHAVIOR §1), left abstract ------------------
 * IsLabel: the name is the escalation label, case-insensitively (NULL is
 * not). IsUnlabeler: the login is in the unlabelers list (NULL is not).
 * policy_spec.h, the model of their proof, defines the two instead
 * (AA_POLICY_WORDS). */
#ifndef AA_POLICY_WORDS
/*@ axiomatic Policy {
  predicate IsLabel{L}(struct policy *p, char *name);
  predicate IsUnlabeler{L}(struct policy *p, char *login);
  }
*/
/* That the strings compared are readable: policy_spec.h says which; here
 * (the gate's, the selection's, apply's models) nothing is assumed or
 * shown of them (docs/proof.md, "Not proved": memory safety). */
/*@ predicate LabelReadable{L}(struct policy *p, char *name) = \true;
    predicate UnlabelersReadable{L}(struct policy *p, char *login) = \true;
*/
#endif
/*@ axiomatic OwnWriter {
  predicate IsOwnWriter{L}(struct policy *p, char *login);
  }
*/

/*@ requires \valid_read(p);
    requires LabelReadable(p, (char *)name);
    assigns \nothing;
    ensures \result <==> IsLabel(p, (char *)name); */
bool policy_is_label(const struct policy *p, const char *name);

/*@ requires \valid_read(p);
    requires UnlabelersReadable(p, (char *)login);
    assigns \nothing;
    ensures \result <==> IsUnlabeler(p, (char *)login);
    ensures login == \null ==> !\result; */
bool policy_is_unlabeler(const struct policy *p, const char *login);

/* --- statuses (BEHAVIOR §4, T3) ---------------------------------------------
 * Stamp(s, p, N, what): s is trusted (T3) and is, by its context, state
 * and "pr=#N:", a round stamp (what 0), a clean-state status (1) or a skip
 * marker (2). Newest: the first of the highest id among them. */
#ifndef AA_STAMP_WORDS
/*@ axiomatic Stamps {
  predicate Stamp{L}(struct snap_status *s, struct policy *p, integer pr,
		     integer what);
  }
*/
/* That the strings Stamp compares are readable: stamp_spec.h, the model
 * of stamp.c's proof, says which (and defines Stamp: AA_STAMP_WORDS);
 * here nothing is assumed or shown of them (docs/proof.md, "Not
 * proved": memory safety). */
/*@ predicate StampsReadable{L}(struct snap_statuses *st, struct policy *p) =
    \true;
*/
#endif
/*@
  logic integer STAMP_ROUND = 0;
  logic integer STAMP_CLEAN = 1;
  logic integer STAMP_SKIP = 2;

  predicate StatusesOK{L}(struct snap_statuses *st) =
    \valid_read(st) && \valid_read(st->v + (0 .. st->n - 1)) &&
    (\forall integer i; 0 <= i < st->n ==> valid_read_string(st->v[i].state));

  predicate NewestStamp{L}(struct snap_statuses *st, struct policy *p,
			   integer pr, integer what, integer i) =
    0 <= i < st->n && Stamp(&st->v[i], p, pr, what) &&
    (\forall integer j; 0 <= j < st->n && Stamp(&st->v[j], p, pr, what) ==>
       st->v[j].id <= st->v[i].id) &&
    (\forall integer j; 0 <= j < i && Stamp(&st->v[j], p, pr, what) ==>
       st->v[j].id < st->v[i].id);

  predicate NoStamp{L}(struct snap_statuses *st, struct policy *p, integer pr,
		       integer what) =
    \forall integer j; 0 <= j < st->n ==> !Stamp(&st->v[j], p, pr, what);

  // The state string is exactly "success".
  predicate IsSuccess{L}(char *s) =
    s[0] == 's' && s[1] == 'u' && s[2] == 'c' && s[3] == 'c' &&
    s[4] == 'e' && s[5] == 's' && s[6] == 's' && s[7] == '\0';
*/

/*@ requires st == \null || StatusesOK((struct snap_statuses *)st);
    requires \valid_read(p);
    requires st != \null ==> StampsReadable((struct snap_statuses *)st, (struct policy *)p);
    assigns \nothing;
    ensures st == \null ==> \result == \null;
    ensures st != \null && NoStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_ROUND) ==> \result == \null;
    ensures \result != \null ==> \exists integer i;
      NewestStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_ROUND, i) && \result == &st->v[i]; */
const struct snap_status *stamp_round(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr);

/*@ requires st == \null || StatusesOK((struct snap_statuses *)st);
    requires \valid_read(p);
    requires st != \null ==> StampsReadable((struct snap_statuses *)st, (struct policy *)p);
    assigns \nothing;
    ensures st == \null ==> \result == \null;
    ensures st != \null && NoStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_CLEAN) ==> \result == \null;
    ensures st != \null && \result == \null ==> NoStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_CLEAN);
    ensures \result != \null ==> \exists integer i;
      NewestStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_CLEAN, i) && \result == &st->v[i]; */
const struct snap_status *stamp_clean(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr);

/*@ requires st == \null || StatusesOK((struct snap_statuses *)st);
    requires \valid_read(p);
    requires st != \null ==> StampsReadable((struct snap_statuses *)st, (struct policy *)p);
    assigns \nothing;
    ensures st == \null ==> \result == \null;
    ensures st != \null && NoStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_SKIP) ==> \result == \null;
    ensures \result != \null ==> \exists integer i;
      NewestStamp((struct snap_statuses *)st, (struct policy *)p, pr, STAMP_SKIP, i) && \result == &st->v[i]; */
const struct snap_status *stamp_skip(const struct snap_statuses *st,
				     const struct policy *p, int64_t pr);

/* --- the pull request as the gate reads it -----------------------------------
 * PullOK: the arrays the gate walks are readable (what formats/snapshot.c
 * and github/decode.c build). */
/*@ predicate PullOK{L}(struct snap_pull *pull) =
    \valid_read(pull) &&
    \valid_read(pull->labels + (0 .. pull->nlabels - 1)) &&
    \valid_read(pull->threads + (0 .. pull->nthreads - 1)) &&
    \valid_read(pull->timeline + (0 .. pull->ntimeline - 1)) &&
    \valid_read(pull->comments + (0 .. pull->ncomments - 1)) &&
    \valid_read(&pull->head_sha[0 .. SHA_HEX_LEN]);

  // §5.2 unlabel history: an unlabeled event of the policy label.
  predicate Unlabel{L}(struct snap_pull *pull, struct policy *p, integer i) =
    pull->timeline[i].kind == TL_UNLABELED &&
    IsLabel(p, pull->timeline[i].label);

  // The newest (the first of the highest event id) of them.
  predicate NewestUnlabel{L}(struct snap_pull *pull, struct policy *p,
			     integer i) =
    0 <= i < pull->ntimeline && Unlabel(pull, p, i) &&
    (\forall integer j; 0 <= j < pull->ntimeline && Unlabel(pull, p, j) ==>
       pull->timeline[j].id <= pull->timeline[i].id) &&
    (\forall integer j; 0 <= j < i && Unlabel(pull, p, j) ==>
       pull->timeline[j].id < pull->timeline[i].id);

  predicate NoUnlabel{L}(struct snap_pull *pull, struct policy *p) =
    \forall integer j; 0 <= j < pull->ntimeline ==> !Unlabel(pull, p, j);

  // AUTH exists and AUTH > t.
  predicate AuthAfter{L}(struct snap_pull *pull, struct policy *p,
			 integer t) =
    \exists integer i; NewestUnlabel(pull, p, i) &&
      IsUnlabeler(p, pull->timeline[i].actor) &&
      pull->timeline[i].created_at > t;

  // The newest unlabel exists and its actor may not lift the label.
  predicate UnauthorizedUnlabel{L}(struct snap_pull *pull, struct policy *p) =
    \exists integer i; NewestUnlabel(pull, p, i) &&
      !IsUnlabeler(p, pull->timeline[i].actor);

  // A10: a labeled event of the policy label by the trusted login or the
  // App's bot.
  predicate OwnLabeled{L}(struct snap_pull *pull, struct policy *p,
			  integer i) =
    0 <= i < pull->ntimeline && pull->timeline[i].kind == TL_LABELED &&
    IsLabel(p, pull->timeline[i].label) &&
    IsOwnWriter(p, pull->timeline[i].actor);
*/

/* --- the verdict lookup of §5.2 (core/verdict.c), left abstract -------------
 * NhIndex: the deciding verdict for head H (T1, T2, A2, A3, the retarget
 * rule, the highest comment id), an index into pull->comments, or -1.
 * NhMalformed, NhValue, NhBaseP/NhBaseN: its parse (core/marker.c).
 * NhHeld/NhHoldAt: A1's Y, with A10. Trigger(c): comment c is trusted (T1,
 * T2) and fires the label trigger (§2.1). */
/*@ axiomatic VerdictLookup {
  logic integer NhIndex{L}(struct snap_pull *pull, char *head,
			   struct policy *p);
  logic integer NhMalformed{L}(struct snap_pull *pull, char *head,
			       struct policy *p);
  logic integer NhValue{L}(struct snap_pull *pull, char *head,
			   struct policy *p);
  logic char *NhBaseP{L}(struct snap_pull *pull, char *head,
			 struct policy *p);
  logic integer NhBaseN{L}(struct snap_pull *pull, char *head,
			   struct policy *p);
  predicate NhHeld{L}(struct snap_pull *pull, struct policy *p);
  logic integer NhHoldAt{L}(struct snap_pull *pull, struct policy *p);
  predicate Trigger{L}(struct snap_comment *c, struct policy *p);
  }
*/

/* What it says of the pull is said of the pull before the call (\old): out
 * is separated from what it reads, so the pull is the same after. */
/*@ requires \valid(out);
    requires PullOK((struct snap_pull *)pull);
    requires \valid_read(p);
    requires \separated(out, pull);
    requires \separated(out, pull->comments + (0 .. pull->ncomments - 1));
    requires \separated(out, pull->timeline + (0 .. pull->ntimeline - 1));
    assigns *out;
    ensures NhIndex((struct snap_pull *)pull, (char *)head, (struct policy *)p) < \old(pull->ncomments);
    ensures NhIndex((struct snap_pull *)pull, (char *)head, (struct policy *)p) < 0 ==>
      out->comment == \null;
    ensures NhIndex((struct snap_pull *)pull, (char *)head, (struct policy *)p) >= 0 ==>
      out->comment == \old(pull->comments) + NhIndex((struct snap_pull *)pull, (char *)head, (struct policy *)p);
    ensures out->comment != \null ==>
      out->marker.nh.malformed == NhMalformed((struct snap_pull *)pull, (char *)head, (struct policy *)p) &&
      out->marker.nh.value == NhValue((struct snap_pull *)pull, (char *)head, (struct policy *)p) &&
      out->marker.nh.base.p == NhBaseP((struct snap_pull *)pull, (char *)head, (struct policy *)p) &&
      out->marker.nh.base.n == NhBaseN((struct snap_pull *)pull, (char *)head, (struct policy *)p);
    ensures out->held <==> NhHeld((struct snap_pull *)pull, (struct policy *)p);
    ensures out->held ==> out->hold_at == NhHoldAt((struct snap_pull *)pull, (struct policy *)p);
    ensures a1: \forall integer k; 0 <= k < \old(pull->ncomments) &&
      Trigger(\old(pull->comments) + k, (struct policy *)p) ==>
      out->held && out->hold_at >= \old(pull->comments[k].created_at);
    ensures a10: \forall integer j;
      \old(OwnLabeled((struct snap_pull *)pull, (struct policy *)p, j)) ==>
      out->held && out->hold_at >= \old(pull->timeline[j].created_at); */
void verdict_lookup(struct nh_lookup *out, const struct snap_pull *pull,
		    const char *head, const struct policy *p);

/* --- base/text.c: a view is exactly a string -------------------------------- */
/*@ axiomatic Text {
  // The n bytes at vp are exactly the string s (strlen(s) == n).
  predicate ViewIs{L}(char *vp, integer n, char *s);
  }
*/
/*@ assigns \nothing;
    ensures \result <==> ViewIs((char *)v.p, v.n, (char *)s); */
bool text_eq(struct mview v, const char *s);

/* --- the sentences -------------------------------------------------------------
 * The builders of the decision's sentences (base/buf.c) are modelled as
 * writing nothing: they write only a buf's own fields and memory, which
 * no property proved here reads, and gate_decide requires its output to
 * be separated from its input. (Modelling their writes exactly, as
 * `assigns b->ptr, b->len, ...`, states the same and is sound too, but
 * leaves the provers a frame to prove after every sentence: docs/proof.md.)
 */
/*@ assigns \nothing; */
int buf_setf(struct buf *b, const char *fmt, ...);
/*@ assigns \nothing; */
int buf_addf(struct buf *b, const char *fmt, ...);
/*@ assigns \nothing; */
int buf_adds(struct buf *b, const char *s);
/* gate.c's own: adds a sentence to the decision's list of reasons. */
/*@ assigns \nothing; */
void gate_add_reason(struct gate_decision *d, const char *fmt, ...);
/*@ assigns \result \from s; */
char *xstrdup_or_null(const char *s);
/*@ assigns \nothing; */
const char *marker_nhm_why(unsigned malformed);

#endif
