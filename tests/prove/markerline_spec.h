/*
 * markerline_spec.h - the contracts of core/marker_line.c's view readers
 * (docs/proof.md §2, docs/proof-alarms.md §2): each requires its views
 * readable (text_spec.h's ViewOK) and is proved with -wp-rte to read only
 * inside them; those that consume from a view leave a tail of it. Frama-C
 * only: tests/prove/wp.sh force-includes it ahead of
 * src/core/marker_line.c.
 *
 * Trusted here: core/visible.c's visible_names_row_field reads only its
 * n bytes (its rows in docs/proof-alarms.md stay argued). The run leaves
 * out the `string` preconditions of the calls (that a literal is a
 * string: docs/spec-notes.md N72).
 */
#ifndef AA_MARKERLINE_SPEC_H
#define AA_MARKERLINE_SPEC_H

#include "text_spec.h"

#include "core/marker.h"
#include "core/visible.h"

/*@ predicate ViewW{L}(struct mview *v) =
      \valid(v) && ViewOK((char *)v->p, v->n) &&
      \separated(v, v->p + (0 .. v->n - 1));
*/

/*@ requires ViewOK((char *)untrusted_line, n);
    assigns \nothing; */
bool visible_names_row_field(const char *untrusted_line, size_t n);

/*@ requires ViewOK((char *)line.p, line.n);
    assigns \nothing; */
bool marker_names_row_field(struct mview line);

/*@ requires ViewOK((char *)line.p, line.n) && \valid(in);
    assigns *in;
    ensures \result ==> SubView((char *)in->p, in->n, (char *)line.p, line.n);
    ensures \result ==> ViewOK((char *)in->p, in->n); */
static bool comment_inside(struct mview line, struct mview *in);

/*@ requires ViewOK((char *)v.p, v.n);
    requires string: StrOK((char *)word);
    assigns \nothing; */
bool marker_spells(struct mview v, const char *word);

/*@ requires ViewOK((char *)in.p, in.n);
    assigns \nothing; */
static enum nh_line_kind near_miss(struct mview in);

/*@ requires ViewOK((char *)line.p, line.n) && \valid(value);
    assigns *value;
    ensures ViewOK((char *)value->p, value->n); */
enum nh_line_kind marker_nh_line(struct mview line, struct mview *value);

/*@ requires ViewOK((char *)l.p, l.n);
    assigns \nothing; */
static bool html_cell(struct mview l);

/*@ requires ViewOK((char *)l.p, l.n) && \valid(quoted);
    assigns *quoted; */
static enum row_error row_marker(struct mview l, bool *quoted);

/*@ requires ViewW(v);
    requires string: StrOK((char *)name);
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n); */
static bool eat_tag(struct mview *v, const char *name);

/*@ requires ViewOK((char *)l.p, l.n);
    assigns \nothing; */
static bool details_shows_row(struct mview l);

/*@ requires ViewOK((char *)l.p, l.n);
    assigns \nothing; */
static bool has_pipe(struct mview l);

/*@ requires ViewOK((char *)l.p, l.n);
    assigns \nothing; */
static bool bare_cr(struct mview l);

/*@ requires ViewOK((char *)l.p, l.n);
    assigns \nothing; */
static bool delimiter_row(struct mview l);

/*@ requires ViewW(v);
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n);
    ensures \result.p == \old(v->p) && ViewOK((char *)\result.p, \result.n); */
static struct mview take_token(struct mview *v);

/*@ requires ViewW(v);
    assigns *v;
    ensures Tail((char *)v->p, v->n, (char *)\old(v->p), \old(v->n));
    ensures ViewOK((char *)v->p, v->n); */
static enum row_error field_end(struct mview *v, enum row_error bad);

#endif
