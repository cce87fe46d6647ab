/*
 * gfmdiff.h - does the verdict parser read what GitHub shows? (issue 20)
 *
 * A comment body is read twice: by cmark-gfm with GitHub's extensions
 * (table, strikethrough, autolink, tagfilter, tasklist; what a reviewer
 * sees) and by a reader — the program's marker parser (core/marker.h) or
 * the spec model of A11/A12 (specmodel.h). gfmdiff_run() lists every place
 * where the reader hides what GitHub shows (the unsafe direction only):
 *
 *   GFMDIFF_HIDDEN_ROW (a)  from the check block's marker line on, a line
 *       that GitHub shows holding "id:" or "status:" (ASCII
 *       case-insensitive, ws allowed before the colon; only the part before
 *       the first "reason:") is not a row the reader reads. What a line
 *       shows: in a paragraph, heading or table row (list items and quotes
 *       included), cmark-gfm's rendered inline text (entities, escapes,
 *       emphasis resolved; inline HTML shows nothing); in a code block, the
 *       line as it stands; in an HTML block or in no block at all, what a
 *       browser shows (no tags, no comments, entities decoded). A table
 *       row under a column headed "id" or "status" must be a row whatever
 *       it holds, and a line that a lone CR starts always fails (cmark-gfm
 *       ends lines there, the program does not: to the program it is the
 *       tail of the line before, inside that row's reason);
 *   GFMDIFF_FENCE (b)  before the block, a non-blank line the reader skips
 *       as fenced code is not code in cmark-gfm;
 *   GFMDIFF_BLOCK_START (b)  a check marker that cmark-gfm does not show
 *       as code comes before the reader's block, or the reader has none
 *       (unless the reader refuses the comment as ambiguous, R1: then it
 *       approves nothing whatever it hid);
 *   GFMDIFF_NH_MARKER (c)  a needs-human marker line the reader accepts is
 *       not in the leading run of top-level HTML blocks in cmark-gfm;
 *   GFMDIFF_KEY_CODE (e)  a head:, round: or clean: line the reader takes
 *       its key from (A12, N65) is, in cmark-gfm, in a code block (fenced
 *       or indented) or in a type-1 HTML block (<pre>, <script>, <style>)
 *       — unless it is in an indented code block that opens on the line
 *       right after the check block's marker line (N65: the conductor's
 *       own lines with leading ws). A key the reader does not take is
 *       never a finding;
 *   GFMDIFF_READER  the program reader's replay of its fences does not
 *       find the block marker_parse() found (the harness would be wrong).
 *
 * Lines are the program's: 1-based, split at LF. cmark-gfm also ends lines
 * at CR and CRLF; its positions are mapped back to LF lines, and its block
 * end positions are repaired (HTML blocks report end lines before their
 * start, code blocks closed by their container end on the closing line).
 *
 * Everything here allocates (x*alloc aborts on out of memory); it is test
 * code, linked only into test binaries.
 */
#ifndef AA_GFMDIFF_H
#define AA_GFMDIFF_H

#include <stdbool.h>
#include <stddef.h>

/* What a reader read, per LF line (index 1..nlines). */
#define GFMDIFF_L_ROW 1u /* a row the reader reads (valid or invalid) */
#define GFMDIFF_L_NH  2u /* a needs-human marker line the verdict reads */
#define GFMDIFF_L_BAD 4u /* ... a row the reader reads as invalid */
#define GFMDIFF_L_KEY 8u /* a key line the reader takes its key from */

struct gfmdiff_reading {
	size_t nlines;
	size_t block_line;    /* the check block's marker line, 0 when none */
	size_t second_line;   /* a second check marker: refused (R1), or 0 */
	unsigned char *flags; /* [nlines + 1]: GFMDIFF_L_* */
	size_t *fence;        /* [nlines + 1]: before the block, the line that
	                       * opened the fence skipping this line, else 0 */
	/* A line holding the check marker that the reader's own fences do
	 * not skip, before its block (or with no block): its replay of the
	 * fences is not what it parsed with (GFMDIFF_READER), else 0. */
	size_t inconsistent;
};

/* Number of LF lines in a body, as text_next_line() splits it. */
size_t gfmdiff_count_lines(const char *body, size_t len);

/* Allocate a reading for a body of nlines lines; _release frees it. */
void gfmdiff_reading_init(struct gfmdiff_reading *r, size_t nlines);
void gfmdiff_reading_release(struct gfmdiff_reading *r);

/* The program's reading: marker_parse(), marker_rows_*(), and the fences
 * before the block replayed with marker_fence_line(). */
void gfmdiff_read_program(struct gfmdiff_reading *r, const char *body,
                          size_t len);

/* Mark a line as one the reader supplies a key from (GFMDIFF_L_KEY). */
void gfmdiff_mark_key(struct gfmdiff_reading *r, size_t line);

enum gfmdiff_kind {
	GFMDIFF_HIDDEN_ROW,
	GFMDIFF_FENCE,
	GFMDIFF_BLOCK_START,
	GFMDIFF_NH_MARKER,
	GFMDIFF_KEY_CODE,
	GFMDIFF_READER
};

/* How cmark-gfm's blocks hold a line: "paragraph < item(ordered) < ...". */
#define GFMDIFF_CONTEXT_MAX 120

struct gfmdiff_finding {
	enum gfmdiff_kind kind;
	size_t line;   /* LF line of the body */
	size_t other;  /* FENCE: its opening line; BLOCK_START: the
	                * reader's block line (0: none) */
	size_t opener; /* BLOCK_START: the line that opened the reader's
	                * fence hiding the marker (0: none); the context
	                * is then cmark-gfm's block at that line */
	/* HIDDEN_ROW: why the line is row-like: "source text", "rendered
	 * text" (only once entities, escapes or markup are rendered) or "a
	 * table row under an id/status column"; KEY_CODE: the code that
	 * holds the key ("fenced code", "indented code", "a <pre> block") */
	const char *why;
	char context[GFMDIFF_CONTEXT_MAX];
};

/* Findings kept per body; `n` counts them all. */
#define GFMDIFF_MAX_FINDINGS 32

struct gfmdiff {
	size_t n;
	struct gfmdiff_finding f[GFMDIFF_MAX_FINDINGS];
	size_t checked_rows;    /* lines of (a) that hold a key */
	size_t checked_fenced;  /* non-blank fenced lines of (b) */
	size_t checked_markers; /* marker lines of (c) */
	size_t checked_keys;    /* key lines of (e) */
};

/*
 * GFMDIFF_FENCE_EFFECT: judge the fences before the block by their effect
 * only (GFMDIFF_BLOCK_START), not line by line (GFMDIFF_FENCE). Before the
 * block a fence can hide nothing but a check marker; a fence GitHub does
 * not show as code (inside an HTML block, say) is harmless until it does.
 */
#define GFMDIFF_FENCE_EFFECT 1u

/* Compare cmark-gfm's parse of the body with `reading`. */
void gfmdiff_run(struct gfmdiff *out, const char *untrusted_body, size_t len,
                 const struct gfmdiff_reading *reading, unsigned opts);

const char *gfmdiff_kind_name(enum gfmdiff_kind k);

/*
 * Could GitHub hold this body? Valid UTF-8 (no overlong forms, surrogates
 * or code points past U+10FFFF) without NUL: GitHub stores text, and
 * cmark-gfm misreads HTML blocks around invalid bytes it is not asked to
 * validate, which no comment can have.
 */
bool gfmdiff_plausible(const char *body, size_t len);

/*
 * Does text hold "id" or "status", ws*, ":" before its first "reason:"
 * (ASCII case-insensitive)? With `shown`, the text is taken as a reader
 * sees it: U+00A0 is a space, and characters that show as nothing (U+00AD,
 * U+200B..U+200D, U+2060, U+FEFF) are gone.
 */
bool gfmdiff_has_key(const char *text, size_t n, bool shown);

/*
 * A fuzzing hint: called once per cmark-gfm block with its type, its
 * parent's and whether the reader reads a row on its first line. NULL by
 * default; fuzz_cmark.c sets it to feed libFuzzer's extra counters.
 */
extern void (*gfmdiff_feel)(int type, int parent, int grandparent, bool row);

#endif
