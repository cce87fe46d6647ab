/*
 * text_spec.h - the model the proof of the text cursors is stated over
 * (src/base/text.c, the views of every parser of untrusted text;
 * docs/proof.md, docs/proof-alarms.md §2). Frama-C only:
 * tests/prove/wp.sh force-includes it (-include) ahead of the file it
 * proves; no compiler ever sees it, and EVA (tests/prove/eva.sh) does not
 * include it, so the loop annotations of text.c that name its predicates
 * are dropped there (annot-error), as stamp.c's are.
 *
 * V (docs/proof-alarms.md §2): a view is a pointer and a length, and
 * every byte of it is readable (ViewOK). Each function below
 * requires its views ViewOK and hands back views that lie inside them
 * (SubView: the same block, at or after the start, ending at or before
 * the end), so its callers' reads inside a view are inside the text the
 * first view was cut from. Proved with -wp-rte: no read outside a view,
 * no signed overflow. Not checked (docs/spec-notes.md N71): that the
 * bytes are set, and the libc's danglingness preconditions.
 *
 * Trusted here: memchr's result lies inside the n bytes it searched (C11
 * 7.24.5.1; Frama-C's libc says only that it is at or before the first
 * match, in the same block); and the string preconditions, named
 * `string`, are left out where a caller passes a literal (N72).
 */
#ifndef AA_TEXT_SPEC_H
#define AA_TEXT_SPEC_H

#include <string.h>

#include "base/text.h"
#include "base/util.h"

/*@ // Every byte of the view is readable. (That it is set, which
    // memcmp's and memchr's preconditions also ask, is not stated: WP
    // would have to carry it across every write to a cursor;
    // docs/spec-notes.md N71.)
    // And no view is longer than the largest object (PTRDIFF_MAX), so
    // i + k below its length does not wrap.
    predicate ViewOK{L}(char *p, integer n) =
      0 <= n <= 9223372036854775807 && \valid_read(p + (0 .. n - 1));

    // [p, p + n) lies inside [P, P + N): p is P moved forward by p - P
    // (so in the same block; written so, the provers find the offset).
    predicate SubView(char *p, integer n, char *P, integer N) =
      p == P + (p - P) && 0 <= p - P && 0 <= n && (p - P) + n <= N;

    // ... and ends where it ends (a tail: only the start moved).
    predicate Tail(char *p, integer n, char *P, integer N) =
      SubView(p, n, P, N) && (p - P) + n == N;

    // ... and starts where it starts (a head: only the length shrank).
    predicate Head(char *p, integer n, char *P, integer N) =
      p == P && 0 <= n <= N;

    // A string: readable up to its NUL.
    predicate StrOK{L}(char *s) = valid_read_string(s);

    // A part of a view is a view (proved: tests/prove/wp.sh's
    // text-lemma run).
    lemma sub_ok{L}: \forall char *p, *P, integer n, N;
      ViewOK(P, N) && SubView(p, n, P, N) ==> ViewOK(p, n);
*/

/* memchr's result is one of the n bytes it searched (C11 7.24.5.1). */
/*@ ensures in_view: \result == \null ||
      (\base_addr((char *)\result) == \base_addr((char *)s) &&
       0 <= (char *)\result - (char *)s < n); */
extern void *memchr(const void *s, int c, size_t n);

/* --- base/util.h's character tests, and util.c's counted-string helpers,
 * which text.c calls (the character tests proved with it) ------------- */

/*@ assigns \nothing;
    ensures \result <==> (c == ' ' || c == '\t'); */
static inline bool is_ws(int c);

/*@ assigns \nothing;
    ensures \result <==> ('0' <= c <= '9'); */
static inline bool is_digit(int c);

/*@ assigns \nothing;
    ensures \result ==> c >= 0; */
static inline bool is_alpha(int c);

/*@ assigns \nothing;
    ensures \result ==> c >= 0; */
static inline bool is_alnum(int c);

/*@ assigns \nothing;
    ensures 'A' <= c <= 'Z' ==> \result == c + ('a' - 'A');
    ensures !('A' <= c <= 'Z') ==> \result == c; */
static inline int to_lower(int c);

/* --- base/util.c's counted-string helpers, which text.c calls ---------- */

/*@ requires ViewOK((char *)a, alen);
    requires string: StrOK((char *)b);
    assigns \nothing; */
bool mem_eq_nocase(const char *a, size_t alen, const char *b);

/*@ requires ViewOK((char *)hay, n);
    requires string: StrOK((char *)needle);
    requires string: strlen(needle) > 0;
    assigns \nothing;
    ensures \result == \null ||
      SubView((char *)\result, strlen(needle), (char *)hay, n); */
const char *mem_find(const char *hay, size_t n, const char *needle);

/*@ requires ViewOK((char *)hay, n);
    requires string: StrOK((char *)needle);
    requires string: strlen(needle) > 0;
    assigns \nothing; */
bool mem_contains(const char *hay, size_t n, const char *needle);

/* --- base/text.h ---------------------------------------------------------- */

/*@ assigns \nothing;
    ensures \result.p == p && \result.n == n; */
static inline struct mview mview_of(const char *p, size_t n);

/*@ requires ViewOK((char *)v.p, v.n);
    assigns \nothing;
    ensures SubView((char *)\result.p, \result.n, (char *)v.p, v.n);
    ensures ViewOK((char *)\result.p, \result.n); */
struct mview text_trim(struct mview v);

/*@ requires ViewOK((char *)v.p, v.n);
    assigns \nothing;
    ensures SubView((char *)\result.p, \result.n, (char *)v.p, v.n);
    ensures ViewOK((char *)\result.p, \result.n); */
struct mview text_trim_ws(struct mview v);

/*@ requires ViewOK((char *)v.p, v.n);
    assigns \nothing;
    ensures Head((char *)\result.p, \result.n, (char *)v.p, v.n);
    ensures ViewOK((char *)\result.p, \result.n); */
struct mview text_rstrip(struct mview v);

/*@ requires \valid(v) && ViewOK((char *)v->p, v->n);
    requires \separated(v, v->p + (0 .. v->n - 1));
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n); */
void text_skip_ws(struct mview *v);

/*@ requires \valid(v) && ViewOK((char *)v->p, v->n);
    requires \separated(v, v->p + (0 .. v->n - 1));
    requires string: StrOK((char *)word);
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n);
    ensures !\result ==> *v == \old(*v); */
bool text_eat_word(struct mview *v, const char *word);

/*@ requires \valid(v) && ViewOK((char *)v->p, v->n);
    requires \separated(v, v->p + (0 .. v->n - 1));
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n);
    ensures !\result ==> *v == \old(*v); */
bool text_eat_char(struct mview *v, char c);

/*@ requires \valid(v) && ViewOK((char *)v->p, v->n);
    requires \separated(v, v->p + (0 .. v->n - 1));
    requires string: StrOK((char *)key);
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n);
    ensures !\result ==> *v == \old(*v); */
bool text_eat_key(struct mview *v, const char *key);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)s);
    requires string: strlen(s) > 0;
    assigns \nothing; */
bool text_eq(struct mview v, const char *s);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)s);
    requires string: strlen(s) > 0;
    assigns \nothing; */
bool text_starts(struct mview v, const char *s);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)word);
    assigns \nothing; */
bool text_eq_nocase(struct mview v, const char *word);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)needle);
    requires string: strlen(needle) > 0;
    assigns \nothing; */
bool text_contains(struct mview v, const char *needle);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)needle);
    requires string: strlen(needle) > 0;
    assigns \nothing;
    ensures \result == \null ||
      SubView((char *)\result, strlen(needle), (char *)v.p, v.n); */
const char *text_find(struct mview v, const char *needle);

/*@ requires ViewOK((char *)v.p, v.n);
    assigns \nothing; */
bool text_all_digits(struct mview v);

/*@ requires ViewOK((char *)text, len);
    requires \valid(off) && \valid(line);
    requires \separated(off, line, text + (0 .. len - 1));
    requires \separated(off, line);
    assigns *off, *line;
    behavior more:
      assumes *off < len;
      ensures \result;
      ensures \old(*off) < *off <= len;
      ensures line->p == text + \old(*off);
      ensures \old(*off) + line->n < *off || *off == len;
      ensures \old(*off) + line->n <= *off;
      ensures SubView((char *)line->p, line->n, (char *)text, len);
      ensures ViewOK((char *)line->p, line->n);
    behavior end:
      assumes *off >= len;
      assigns \nothing;
      ensures !\result;
    complete behaviors;
    disjoint behaviors; */
bool text_next_line(const char *text, size_t len, size_t *off,
		    struct mview *line);

#endif
