/*
 * specmodel.h - BEHAVIOR §2.2 with A11 and A12 as written, a reader for
 * gfmdiff (test code only). It lets the differential test judge the spec
 * itself before (and apart from) the program: where cmark-gfm shows a
 * row-like line that A11 does not call a row, the finding is the spec's.
 *
 * Where the text leaves a choice, the model reads it narrowly: the lines
 * A11 says are not rows (`head:`, `round:`, `clean:`, `threads:`,
 * `<details>`, `<summary>`) are those lines as §2.2 defines them — a head,
 * round or clean line of exactly its form, `threads:` alone, a details or
 * summary tag line — and none of those has a list marker, `|`, `<li` or
 * an `id:` / `status:`, so the exclusion excludes nothing. Read broadly
 * (any line starting with `head:` or `<summary>`), it hides lines GitHub
 * shows: tests/cmark/cases/ holds them.
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
