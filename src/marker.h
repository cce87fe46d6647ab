/*
 * marker.h - the verdict comment parser (BEHAVIOR §2).
 *
 * One parser serves every command. It reads untrusted comment text and
 * reports what the deterministic steps may use: the needs-human verdict
 * (§2.1) and the agentic-check ledger (§2.2). It never allocates: results
 * hold views into the caller's text, which must outlive them. It runs in
 * time linear in the length of the text, whatever the text is.
 */
#ifndef AA_MARKER_H
#define AA_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* GitHub's limit on an issue comment body, in characters. */
#define MARKER_MAX_CHARS 65536
/* Distinct head SHAs remembered per needs-human verdict; more than this is
 * malformed anyway and makes the verdict a candidate for any head. */
#define MARKER_MAX_HEADS 4
/* The line that opens the check block (matched as a substring). */
#define MARKER_CHECK_OPEN "<!-- agentic:check v1 -->"

/* A view: pointer and length into someone else's text. */
struct mview {
	const char *p;
	size_t n;
};

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

struct marker_nh {
	bool present;        /* has the agentic:needs-human v1 line */
	bool any_yes;        /* some line is a needs-human: yes marker */
	bool any_no;         /* some line is a needs-human: no marker */
	enum nh_value value; /* NH_YES / NH_NO only when well formed */
	unsigned malformed;  /* NHM_* bits; 0 when well formed */
	char head[SHA_BUF];  /* the head when well formed, else "" */
	/* Distinct valid heads seen (for the gate's candidate lookup). */
	char heads[MARKER_MAX_HEADS][SHA_BUF];
	size_t nheads;
	bool heads_overflow;
	struct mview base;   /* the bound base (trimmed), valid when n > 0 */
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
	bool present;       /* a line contains MARKER_CHECK_OPEN */
	size_t block_off;   /* byte offset of that line */
	size_t block_line;  /* its 1-based line number */
	bool has_head;
	char head[SHA_BUF];
	size_t head_line;
	bool has_round;     /* a round: line of the right form was found */
	bool round_valid;   /* ... and its value fits in a status id */
	int64_t round;
	size_t round_line;
	bool has_clean;
	bool clean;
	size_t clean_line;
	size_t rows;           /* lines that start a row */
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
struct marker_rows {
	const char *text;
	size_t len;
	size_t off;
	size_t line;
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
	NHL_BASE         /* value in `value` (trimmed, verbatim) */
};
enum nh_line_kind marker_nh_line(struct mview line, struct mview *value);

enum check_line_kind {
	CKL_NONE,
	CKL_HEAD,  /* head: <40 hex> */
	CKL_ROUND, /* round: <digits> */
	CKL_CLEAN, /* clean: true|false */
	CKL_ROW    /* starts with "- id:" */
};
enum check_line_kind marker_check_line(struct mview line, struct mview *value);
/* Parse one row line (which marker_check_line classified as CKL_ROW). */
void marker_parse_row(struct marker_row *row, struct mview line);

/* Split text into lines: returns false at the end. `off` advances. */
bool marker_next_line(const char *text, size_t len, size_t *off,
		      struct mview *line);

#endif
