/*
 * marker.h - the verdict comment parser (BEHAVIOR §2).
 *
 * One parser serves every command. It reads untrusted comment text and
 * reports what the deterministic steps may use: the needs-human verdict
 * (§2.1) and the agentic-check ledger (§2.2). It never allocates: results
 * hold views into the caller's text, which must outlive them. It runs in
 * time linear in the length of the text, whatever the text is.
 *
 * Amendments: a needs-human verdict is read only from the leading marker
 * run of a comment that starts with its header (A2); fenced code before
 * the check block is never read, and one check block may not say two
 * things (A3); every line of the block that looks like a row is a row,
 * whatever its marker, and only the exact "- id: …" shape is a valid one
 * (A4, A11); inside the block every line is read, fenced or not, and a
 * head/round/clean line inside a fence never supplies its key (A12).
 * Fences are the ones GitHub renders (core/mdblock.h). The label trigger
 * stays eager: it sees a header and a yes anywhere, fences included.
 */
#ifndef AA_MARKER_H
#define AA_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/text.h"
#include "base/util.h"
#include "core/mdblock.h"

/* GitHub's limit on an issue comment body, in characters. */
#define MARKER_MAX_CHARS 65536
/* Distinct head SHAs remembered per needs-human verdict; more than this is
 * malformed anyway and makes the verdict a candidate for any head. */
#define MARKER_MAX_HEADS 4
/* The line that opens the check block (matched as a substring). */
#define MARKER_CHECK_OPEN "<!-- agentic:check v1 -->"

enum nh_value { NH_MALFORMED = 0, NH_YES, NH_NO };

/* Why a needs-human verdict is malformed (bits). */
#define NHM_NO_VALUE (1u << 0)      /* neither yes nor no */
#define NHM_BOTH_VALUES (1u << 1)   /* yes and no */
#define NHM_NO_HEAD (1u << 2)       /* no head: line */
#define NHM_BAD_HEAD (1u << 3)      /* a head: that is not 40 hex digits */
#define NHM_HEAD_CONFLICT (1u << 4) /* several different heads */
#define NHM_NO_BASE (1u << 5)       /* no base: line (or an empty one) */
#define NHM_BASE_CONFLICT (1u << 6) /* several different bases */
#define NHM_TOO_LONG (1u << 7)      /* over MARKER_MAX_CHARS */
#define NHM_BAD_VALUE (1u << 8)     /* a needs-human: line with another value */
#define NHM_BAD_HEADER (1u << 9)    /* N67: the first line is a near-miss of the
				     * header, or a marker line without it */
#define NHM_NEAR_MISS (1u << 10)    /* N67: a run line near a marker's form */
#define NHM_COUNT 11                /* the bits above: 1u << 0 .. 1u << 10 */

/*
 * What each NHM_* bit means, in words: one row per bit, keyed by its
 * value (tests/unit/test_marker.c checks every bit has exactly one row).
 * `why` completes "... is malformed: " in the gate's reason; `problem`
 * is lint's line. The rows stand in the gate's order of precedence: a
 * verdict malformed several ways is reported by the first that applies.
 */
struct nhm_reason {
	unsigned bit;
	const char *why;
	const char *problem;
};
extern const struct nhm_reason marker_nhm_reasons[NHM_COUNT];
/* The row of one bit, or NULL. */
const struct nhm_reason *marker_nhm_reason(unsigned bit);
/* The gate's reason for a malformed verdict: the first row, in
 * precedence, whose bit is set (the last row when none is). */
const char *marker_nhm_why(unsigned malformed);

struct marker_nh {
	/* A2: the first non-blank line is the agentic:needs-human v1 header;
	 * the fields below up to `base` come from its leading marker run. */
	bool present;
	bool any_yes;        /* the run has a needs-human: yes line */
	bool any_no;         /* the run has a needs-human: no line */
	enum nh_value value; /* NH_YES / NH_NO only when well formed */
	unsigned malformed;  /* NHM_* bits; 0 when well formed */
	char head[SHA_BUF];  /* the head when well formed, else "" */
	/* Distinct valid heads seen (for the gate's candidate lookup). */
	char heads[MARKER_MAX_HEADS][SHA_BUF];
	size_t nheads;
	bool heads_overflow;
	struct mview base;   /* the bound base (trimmed), valid when n > 0 */
	size_t run_end_line; /* the line that ended the run, 0 at the end */

	/* The label trigger (§3.1), eager: a header line and a yes line
	 * anywhere in the comment, fenced or not, verdict or not. */
	bool trigger;
	size_t header_line;  /* first header line anywhere, 0 if none */
	/* First needs-human marker line (header, value, head or base) that
	 * the verdict does not read: outside the run or the comment is no
	 * verdict (quoted, fenced, not leading); 0 if none. */
	size_t stray_line;
};

enum row_status {
	ROW_FIXED,
	ROW_OBSOLETE,
	ROW_REBUTTED_VALID,
	ROW_OUTSTANDING,
	ROW_REBUTTED_INVALID
};

enum row_severity { SEV_CRITICAL, SEV_HIGH, SEV_SHOULD_FIX, SEV_NIT };

/* What is wrong with a ledger row (ROW_OK when nothing). */
enum row_error {
	ROW_OK,
	ROW_BAD_BULLET,    /* a "*" or "+" bullet: rows start with "-" (A4) */
	ROW_QUOTED,        /* a row inside a ">" quote (A11) */
	ROW_ORDERED,       /* a numbered item, "1." or "1)" (A11) */
	ROW_OTHER_BULLET,  /* a "•", "‣", "◦", "⁃", "∙" or "·" bullet (A11) */
	ROW_TABLE,         /* a table row, "|" first (A11) */
	ROW_HTML_ITEM,     /* an HTML list item, "<li" first (A11) */
	ROW_HTML_CELL,     /* N67: an HTML table row or cell, "<tr", "<td"
	                    * or "<th" first */
	ROW_NO_MARKER,     /* names an id: or status: without "- " (A11) */
	ROW_BARE_CR,       /* a CR inside the line: GitHub shows two lines */
	ROW_NO_ID,         /* the bullet is not followed by "id:" (A4) */
	ROW_BAD_ID,        /* id empty, or holds whitespace or control chars */
	ROW_NO_STATUS,     /* ", status:" does not follow the id */
	ROW_BAD_STATUS,    /* status not one of the five */
	ROW_NO_SEVERITY,   /* ", severity:" does not follow the status */
	ROW_BAD_SEVERITY,  /* severity not one of the four */
	ROW_NO_REASON,     /* ", reason:" does not follow the severity */
	ROW_EMPTY_REASON,  /* reason is empty */
	ROW_SPACE_BEFORE_COMMA, /* ws between a field and its comma */
	ROW_BLOCKING_NIT   /* a nit with a blocking status (forbidden) */
};

struct marker_row {
	size_t line;            /* 1-based line number in the comment */
	struct mview text;      /* the whole line */
	enum row_error error;
	struct mview id;        /* valid when error is ROW_OK or later than BAD_ID */
	enum row_status status;
	enum row_severity severity;
	struct mview reason;
};

struct marker_check {
	bool present;       /* a line outside fences contains MARKER_CHECK_OPEN */
	size_t block_off;   /* byte offset of that line */
	size_t block_line;  /* its 1-based line number */
	size_t second_line; /* A3: a second such line (ambiguous: R1), or 0 */
	/* N68: the line that opened the block holds a near-miss of the
	 * marker (`<!-- agentic: check v1 -->`), not the marker: refused
	 * (R1), never skipped. 0 when the block opened at the marker. */
	size_t near_line;
	size_t fenced_line; /* first fenced line holding the marker, or 0 */
	size_t fenced_open; /* ... and the line that opened its fence */
	/* A12: the first line inside the block that GitHub renders as a
	 * code fence, or a fence by A3's letter (read anyway), or 0. */
	size_t block_fence;
	bool has_head;
	char head[SHA_BUF];
	size_t head_line;
	bool has_round;     /* a round: line of the right form was found */
	bool round_valid;   /* ... and its value fits in a status id */
	int64_t round;
	size_t round_line;
	bool has_clean;     /* one clean: value (false after a conflict) */
	bool clean;
	size_t clean_line;
	/* A3: a later line of the same key with another value (line number;
	 * 0 when none). head → R1, round → R3, clean → no clean: line. A12:
	 * fenced key lines count here, though they never supply the key. */
	size_t head_conflict;
	size_t round_conflict;
	size_t clean_conflict;
	/* A12: the first key line inside a fence (head, round or clean), or
	 * 0: it counted only for the conflicts. */
	size_t fenced_key;
	size_t rows;           /* lines that are rows (A4, A11) */
	size_t invalid;        /* rows with any error (blocking nits included) */
	size_t blocking;       /* well-shaped rows with a blocking status */
};

struct marker_result {
	size_t chars;  /* Unicode code points in the text */
	bool too_long; /* chars > MARKER_MAX_CHARS */
	struct marker_nh nh;
	struct marker_check check;
};

/* Parse a comment body of len bytes (need not be NUL-terminated). */
void marker_parse(struct marker_result *out, const char *untrusted_body,
		  size_t len);

/* Is this a blocking status (outstanding or rebutted-invalid)? */
bool marker_status_blocks(enum row_status s);
const char *marker_status_name(enum row_status s);
const char *marker_severity_name(enum row_severity s);
const char *marker_row_error_str(enum row_error e);

/*
 * Iterate over the ledger rows of a parsed check block, in order:
 *
 *	struct marker_rows it;
 *	struct marker_row row;
 *	marker_rows_init(&it, body, len, &result.check);
 *	while (marker_rows_next(&it, &row)) ...
 */
/*
 * Fenced code (A3, A12): feed every line of a comment in order (zero the
 * struct first); returns true when the line is fenced (a fence line, or
 * inside a fence). A fence is honoured when A3's form opens it — a line
 * that starts, after at most 3 spaces, with 3 or more backticks or tildes,
 * a backtick fence's info string holding no backtick — AND GitHub renders
 * it as fenced code (core/mdblock.h: not inside an HTML block, ended where
 * its container ends); it closes at a line of at least as many of the
 * same character and nothing but whitespace; an unclosed fence runs to
 * the end.
 */
struct marker_fence {
	char ch;          /* '`' or '~' while a fence is open, else 0 */
	size_t len;       /* length of the opening run */
	size_t open_line; /* line that opened the fence */
	bool any;         /* the last line is fenced code on GitHub, even in
			   * a fence A3's form does not open (quoted, deep) */
	bool icode;       /* the last line is in an indented code block */
	bool pre;         /* ... in a <pre> (type-1 HTML) block: both are
			   * shown as code without a fence (A12, N65) */
	bool quoted;      /* ... inside a block quote on GitHub (N66) */
	struct md_block md;
};
bool marker_fence_line(struct marker_fence *f, struct mview line,
		       size_t lineno);
/* A3's letter alone (with CommonMark's info-string rule), for A12's rule
 * that a key line inside any fence never supplies its key: the same
 * contract as marker_fence_line, without GitHub's view. */
struct marker_naive_fence {
	char ch;
	size_t len;
	size_t open_line;
};
bool marker_naive_fence_line(struct marker_naive_fence *f, struct mview line,
			     size_t lineno);

/* A GFM table open in the block (its lines are rows, A11). */
struct marker_table {
	bool open;
};
/* Feed every line of the block in order (zero the struct first): is this
 * line a row only because a table holds it? */
bool marker_table_line(struct marker_table *t, struct mview line);

struct marker_rows {
	const char *text;
	size_t len;
	size_t off;
	size_t line;
	struct marker_table table;
};
void marker_rows_init(struct marker_rows *it, const char *untrusted_body,
		      size_t len, const struct marker_check *check);
bool marker_rows_next(struct marker_rows *it, struct marker_row *row);

/* Line-level classification, exposed for `lint`. */
enum nh_line_kind {
	NHL_NONE,    /* not a needs-human marker line */
	NHL_VERDICT, /* <!-- agentic:needs-human v1 --> */
	NHL_YES,
	NHL_NO,
	NHL_VALUE_OTHER, /* <!-- needs-human: something else --> */
	NHL_HEAD,        /* value in `value`; valid when 40 hex digits */
	NHL_BASE,        /* value in `value` (trimmed, verbatim) */
	/* N67: near-misses, never ignored. A comment line that spells the
	 * header with other spacing or punctuation (a no-break space, a
	 * space after the colon, none before v1) or another version: */
	NHL_VERDICT_NEAR,
	/* ... or a needs-human:, head: or base: line in another form
	 * (`needs-human yes`, `<!--- needs-human: yes -->`, `head SHA`): */
	NHL_NEAR
};
enum nh_line_kind marker_nh_line(struct mview line, struct mview *value);
/* Do the ASCII letters and digits of v start with `word` (lower case),
 * whatever else stands between them (N67's near-misses)? */
bool marker_spells(struct mview v, const char *word);
/* Is the line one whole HTML comment (what a marker run is made of)? */
bool marker_is_comment_line(struct mview line);
/* Is the line empty or whitespace only? */
bool marker_is_blank(struct mview line);
/* A11: does the visible text of the line (markup, entities and invisible
 * characters as GitHub renders them) name an id: or status: before its
 * first reason:? */
bool marker_names_row_field(struct mview line);

enum check_line_kind {
	CKL_NONE,
	CKL_HEAD,  /* head: <40 hex> */
	CKL_ROUND, /* round: <digits> */
	CKL_CLEAN, /* clean: true|false */
	CKL_ROW    /* a row: a list marker, "|", "<li" or an id:/status:
		    * before the first reason: (A4, A11) */
};
enum check_line_kind marker_check_line(struct mview line, struct mview *value);
/* Parse one row line (which marker_check_line classified as CKL_ROW). */
void marker_parse_row(struct marker_row *row, struct mview line);

#endif
