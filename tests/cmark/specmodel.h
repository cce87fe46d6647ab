/*
 * specmodel.h - BEHAVIOR §2.2 with A11 and A12 as written, a reader for
 * gfmdiff (test code only). It lets the differential test judge the spec
 * itself before (and apart from) the program: where cmark-gfm shows a
 * row-like line that A11 does not call a row, the finding is the spec's.
 *
 * Where the text leaves a choice, the model takes the reading that calls
 * fewer lines rows (so every gap it shows is a gap of every reading):
 * `head:`, `round:`, `clean:` and `threads:` lines are any line starting
 * with that key, `<details>` / `<summary>` lines any line starting with
 * `<details`, `</details`, `<summary` or `</summary`.
 */
#ifndef AA_SPECMODEL_H
#define AA_SPECMODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "gfmdiff.h"

/* Is this block line a row (A4, A11)? */
bool specmodel_row(const char *line, size_t n);

/* The model's reading: the block starts at the first line holding the
 * check marker outside A3/A12 fences; from there every A11 row is a row;
 * needs-human markers are the program's (A2 is not amended). */
void specmodel_read(struct gfmdiff_reading *r, const char *body, size_t len);

#endif
