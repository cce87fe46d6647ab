/*
 * visible.h - what a reader sees of one line of a comment (BEHAVIOR A11).
 *
 * A11 makes a ledger line a row when it names an `id:` or a `status:`
 * before its first `reason:`. GitHub shows that text even when the source
 * spells it otherwise — `**id**:`, `` `status`: ``, `id&#58;`, `i<!-- -->d:`,
 * `[status](x):`, a zero-width space inside a word, a full-width colon — so
 * the test reads the line the way it renders: inline markup that shows as
 * nothing is skipped, character references are decoded, invisible code
 * points dropped, full-width forms and colon look-alikes folded, ASCII
 * letters compared without case. Seeing a field where there is none only
 * makes a row invalid (fail closed); missing one would hide a row.
 *
 * Pure: no allocation, one pass over the line.
 */
#ifndef AA_VISIBLE_H
#define AA_VISIBLE_H

#include <stdbool.h>
#include <stddef.h>

/* Does the line's visible text — or its source as it stands — hold `id`
 * or `status` followed by a colon (whitespace allowed between) before the
 * first `reason` + colon (a word of its own)? */
bool visible_names_row_field(const char *untrusted_line, size_t n);

#endif
