/*
 * mdline_spec.h - the model the proof of core/mdblock_line.c's line
 * helpers is stated over (docs/proof.md, docs/proof-alarms.md §2). Frama-C
 * only: tests/prove/wp.sh force-includes it ahead of
 * src/core/mdblock_line.c; no compiler and no EVA run sees it.
 *
 * A cursor (struct cur) is a view of one line (text_spec.h's ViewOK of
 * c->p, c->n) plus positions; every helper below requires its line
 * readable (CurOK) and is proved with -wp-rte to read only inside it. The
 * helpers that move the cursor also require the cursor itself apart from
 * the line's bytes (CurW).
 */
#ifndef AA_MDLINE_SPEC_H
#define AA_MDLINE_SPEC_H

#include "text_spec.h"

#include "core/mdblock_int.h"

/*@ predicate CurOK{L}(struct cur *c) =
      \valid_read(c) && ViewOK((char *)c->p, c->n);
    predicate CurW{L}(struct cur *c) =
      \valid(c) && ViewOK((char *)c->p, c->n) &&
      \separated(c, c->p + (0 .. c->n - 1));
*/

/* --- mdblock_int.h's and util.h's character tests -------------------- */

/*@ requires CurOK(c);
    assigns \nothing;
    ensures -1 <= \result <= 255;
    ensures i >= c->n ==> \result == -1;
    ensures i < c->n ==> \result >= 0; */
static inline int at(const struct cur *c, size_t i);

/*@ assigns \nothing;
    ensures \result <==> (ch == ' ' || ch == '\t'); */
static inline bool space_or_tab(int ch);

/*@ assigns \nothing; */
static bool space_or_end(int ch);

/*@ assigns \nothing; */
static bool spacechar(int ch);

/* --- mdblock_line.c ------------------------------------------------------ */

/*@ requires CurW(c);
    assigns c->fns, c->fns_col, c->indent, c->blank;
    ensures c->off <= c->n ==> c->off <= c->fns <= c->n;
    ensures c->off > c->n ==> c->fns == c->off; */
void mdl_first_nonspace(struct cur *c);

/*@ requires CurW(c);
    assigns c->off, c->col;
    ensures \old(c->off) <= c->n ==> \old(c->off) <= c->off <= c->n;
    ensures \old(c->off) > c->n ==> c->off == \old(c->off); */
void mdl_advance(struct cur *c, size_t count, bool columns);

/*@ requires CurOK(c);
    requires string: StrOK((char *)w);
    assigns \nothing;
    ensures \result ==> i + strlen(w) <= c->n; */
static bool word_at(const struct cur *c, size_t i, const char *w);

/*@ requires CurOK(c);
    requires string: StrOK((char *)w);
    assigns \nothing; */
static bool contains_from(const struct cur *c, size_t from, const char *w);

/*@ requires CurOK(c);
    assigns \nothing;
    ensures i <= c->n ==> i + \result <= c->n;
    ensures i > c->n ==> \result == 0; */
size_t mdl_run_len(const struct cur *c, size_t i, char ch);

/*@ requires CurOK(c);
    assigns \nothing; */
bool mdl_rest_blank(const struct cur *c, size_t i);

/*@ requires CurOK(c);
    assigns \nothing; */
size_t mdl_fence_open(const struct cur *c);

/*@ requires CurOK(c);
    assigns \nothing;
    ensures i <= \result;
    ensures i <= c->n ==> \result <= c->n;
    ensures i > c->n ==> \result == i; */
static size_t skip_space(const struct cur *c, size_t i);

/*@ requires CurOK(c);
    assigns \nothing;
    ensures \result == 0 || \result <= c->n; */
static size_t tagname(const struct cur *c, size_t i);

/*@ requires CurOK(c);
    assigns \nothing;
    ensures \result == 0 || \result <= c->n; */
static size_t attr_value(const struct cur *c, size_t i);

/*@ requires CurOK(c);
    assigns \nothing; */
static bool html7(const struct cur *c);

/*@ requires CurOK(c);
    assigns \nothing; */
int mdl_html_start(const struct cur *c, bool para);

/*@ requires CurOK(c);
    assigns \nothing; */
bool mdl_html_end(const struct cur *c, int type);

/*@ requires CurOK(c);
    assigns \nothing; */
bool mdl_atx_heading(const struct cur *c);

/*@ requires CurOK(c);
    assigns \nothing; */
bool mdl_thematic_break(const struct cur *c);

/*@ requires CurOK(c);
    assigns \nothing; */
bool mdl_setext_line(const struct cur *c);

/*@ requires CurOK(c);
    assigns \nothing; */
size_t mdl_list_marker(const struct cur *c, bool interrupts);

/*@ requires CurOK(c);
    requires c->fns <= c->n;
    assigns \nothing; */
bool mdl_plain_prefix(const struct cur *c);

#endif
