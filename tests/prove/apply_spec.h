/*
 * apply_spec.h - the model the proof of apply's decisions is stated over
 * (src/core/apply.c: apply_classify, apply_label_decide,
 * apply_check_decide; docs/proof.md). Frama-C only: tests/prove/wp.sh
 * force-includes it (-include) ahead of src/core/apply.c; no compiler
 * ever sees it.
 *
 * The stamps, the statuses, the pull and the label are gate_spec.h's,
 * stamp_trusted select_spec.h's. What apply.c calls without this proof
 * reading the body is trusted, each function tested by its own unit
 * tests (tests/unit/test_verdict.c, test_marker.c, test_kind.c,
 * test_stamp.c, test_util.c; apply.c itself in test_apply.c): every
 * contract names its function.
 */
#ifndef AA_APPLY_SPEC_H
#define AA_APPLY_SPEC_H

#include "select_spec.h"

#include "core/kind.h"

/* --- BEHAVIOR §1's trust rules and §3.3's judgement, left abstract ---------
 * AuthorTrusted: T1, the comment's author is the trusted login.
 * EditTrusted: T2 (A5), never edited, or every edit by the trusted login.
 * JudgeClean: §3.3's clean = (clean: true) and no invalid, foreign or
 * blocking row, of the block k in the body against the PR's threads. */
/*@ axiomatic ApplyTrust {
  predicate AuthorTrusted{L}(struct snap_comment *c, struct policy *p);
  predicate EditTrusted{L}(struct snap_comment *c, struct policy *p);
  predicate JudgeClean{L}(char *body, integer len, struct marker_check *k,
			  struct snap_thread *threads, integer nthreads,
			  struct policy *p);
  }
*/

/*@ requires \valid_read(c) && \valid_read(p);
    assigns \nothing;
    ensures \result <==> AuthorTrusted((struct snap_comment *)c, (struct policy *)p); */
bool verdict_author_trusted(const struct snap_comment *c,
			    const struct policy *p);

/*@ requires \valid_read(c) && \valid_read(p);
    assigns \nothing;
    ensures \result <==> EditTrusted((struct snap_comment *)c, (struct policy *)p); */
bool verdict_edit_trusted(const struct snap_comment *c, const struct policy *p);

/*@ requires \valid(out);
    assigns *out;
    ensures out->clean <==> JudgeClean((char *)untrusted_body, len,
      (struct marker_check *)check, (struct snap_thread *)threads, nthreads,
      (struct policy *)p); */
void verdict_judge_check(struct check_judgement *out,
			 const char *untrusted_body, size_t len,
			 const struct marker_check *check,
			 const struct snap_thread *threads, size_t nthreads,
			 const struct policy *p);

/* The marker parser and the kind (core/marker*.c, core/kind.c): what they
 * find is not modelled; apply's properties hold whatever they find. */
/*@ requires \valid(out);
    assigns *out; */
void marker_parse(struct marker_result *out, const char *untrusted_body,
		  size_t len);
/*@ assigns \nothing; */
enum comment_kind comment_kind(enum comment_place where,
			       const char *untrusted_body, size_t len);
/*@ assigns \nothing; */
bool kind_has_verdict_marker(const char *untrusted_body, size_t len);
/*@ assigns \nothing; */
const char *marker_row_error_str(enum row_error e);

/*@ requires st == \null || StatusesOK((struct snap_statuses *)st);
    requires \valid_read(p);
    assigns \nothing; */
const struct snap_status *stamp_round_by_id(const struct snap_statuses *st,
					    const struct policy *p, int64_t pr,
					    int64_t id);

/* The sentences (base/buf.c, base/util.c): as in gate_spec.h, modelled as
 * writing nothing that a property reads; xstrdup returns fresh memory. */
/*@ assigns \nothing; */
void buf_release(struct buf *b);
/*@ assigns \nothing; */
void buf_reset(struct buf *b);
/*@ assigns \nothing; */
char *xstrdup(const char *s);

#endif
