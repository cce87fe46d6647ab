/*
 * review.h - the model of one pr-review iteration (PUBLISH.md): the
 * findings input (§3) as formats/findings.c reads it, the prior state a
 * sticky carries (§5.3), and what the mechanical rules (§4, core/merge.c)
 * compute from them for rendering (§5, formats/sticky_render.c) and publishing.
 *
 * Every string is owned by the struct that points to it, NUL-terminated,
 * UTF-8, with CR/CRLF already turned into LF (I6). A NULL string is JSON
 * null. review_input_release() and review_state_release() free them.
 */
#ifndef AA_REVIEW_H
#define AA_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"

/* Ceilings of §3 (I1, I2, I3). */
#define RV_MAX_INPUT_BYTES ((size_t)8 * 1024 * 1024)
#define RV_MAX_FINDINGS_DEFAULT 300
#define RV_MAX_ID 999999 /* ^F[1-9][0-9]{0,5}$ */
#define RV_MAX_SLUG 64
#define RV_MAX_CATEGORY 200 /* code points */
#define RV_MAX_FILE 1024    /* bytes */
#define RV_MAX_BASE 255     /* bytes */
#define RV_MAX_STRING_OVERRIDE 300 /* code points (I7) */
/* GitHub's body limit, in code points (§5.5). */
#define RV_BODY_LIMIT 65536

/* P-codes in rank order: a lower value ranks higher (M2, M8). */
enum rv_pcode { RV_P0, RV_P1, RV_P2, RV_P3, RV_Q, RV_PCODE_COUNT };
/* "P0" … "Q", and the labels lbl(P) = "<emoji> <P>" of I3. */
extern const char *const rv_pcode_names[RV_PCODE_COUNT];
extern const char *const rv_pcode_labels[RV_PCODE_COUNT];
extern const char *const rv_pcode_emoji[RV_PCODE_COUNT];

/* Confidence, highest first (M2, §4.1's ordering). */
enum rv_confidence { RV_HIGH, RV_MEDIUM, RV_LOW, RV_CONFIDENCE_COUNT };
extern const char *const rv_confidence_names[RV_CONFIDENCE_COUNT];

enum rv_mode { RV_FULL, RV_INCREMENTAL, RV_NOOP, RV_LOCAL, RV_MODE_COUNT };
extern const char *const rv_mode_names[RV_MODE_COUNT];

/* Dispositions of L325, in the seed's order. */
enum rv_disposition {
	RV_DISP_OPEN,
	RV_DISP_LIKELY_FIXED,
	RV_DISP_STILL_PRESENT,
	RV_DISP_AWAITING_DECISION,
	RV_DISP_FOLLOW_UP,
	RV_DISP_WONTFIX,
	RV_DISP_BY_DESIGN,
	RV_DISP_COUNT
};
extern const char *const rv_disposition_names[RV_DISP_COUNT];

/* Sections of M6, in the order the state block names them (§5.3). */
enum rv_section {
	RV_SEC_OPEN,
	RV_SEC_AWAITING,
	RV_SEC_ACCEPTED,
	RV_SEC_FIXED,
	RV_SECTION_COUNT
};
extern const char *const rv_section_names[RV_SECTION_COUNT];

/* Tiers of M7 (NOOP only for review-local, §7.5). */
enum rv_tier {
	RV_PASSED,
	RV_PASSED_WITH_NOTES,
	RV_REVIEW_BEFORE_MERGE,
	RV_BLOCKED,
	RV_PARTIAL,
	RV_NOOP_TIER,
	RV_TIER_COUNT
};
/* "PASSED", "PASSED_WITH_NOTES", … (the status= token and §7.5 status). */
extern const char *const rv_tier_tokens[RV_TIER_COUNT];
/* §5.5: the final status's state for a tier: "success" for PASSED and
 * PASSED WITH NOTES, else "failure". */
const char *rv_tier_state(enum rv_tier tier);

/* The thread a finding's row names (§5.2 `<thread>`, §9 `thread`). */
enum rv_thread {
	RV_THREAD_STICKY_ONLY, /* no root; `reason` says why, or none */
	RV_THREAD_POSTED,      /* a root posted by this run: url */
	RV_THREAD_EXISTING,    /* a root from an earlier run: url */
	RV_THREAD_FAILED,      /* the post failed (W4) */
	RV_THREAD_DROPPED,     /* an assertion dropped it (§4.1 step 4) */
	RV_THREAD_PENDING,     /* attempted, outcome not known yet (S) */
	RV_THREAD_COUNT
};

/* §7: a thread that did not end posted or kept: it failed, was dropped
 * or is still pending (the publish is then incomplete). */
bool rv_thread_unfinished(enum rv_thread t);
extern const char *const rv_thread_names[RV_THREAD_COUNT];

struct rv_reply {            /* author_reply (I3) */
	char *kind;          /* rebutted | wontfix | deferred */
	char *reason;
	char *recommendation; /* NULL | "agree with author" | "disagree" */
	char *recommendation_reason; /* set iff recommendation */
};

struct rv_exception {        /* accepted_exception (I3) */
	char *kind;          /* follow_up | wontfix | by_design */
	char *reason;
	char *issue;         /* NULL | "#<n>" */
	char *accepted_by;
};

struct rv_adjustment {       /* severity_adjustment (I3) */
	char *from;
	char *to;            /* lbl(p_code) after the rules */
	char *reason;
};

struct rv_finding {
	/* --- the input (I3) --- */
	uint32_t id;         /* F<id> */
	enum rv_pcode p;
	char *slug;
	char *category;
	char *file;          /* NULL: no location */
	int64_t line_start;  /* 0: null (only with a file) */
	int64_t line_end;
	enum rv_confidence confidence;
	char *blast;         /* Local | Module | Cross-service | Data layer */
	char *justification; /* Reachable … Hygiene */
	char *failure_mode;
	char *mitigation;
	char *evidence;      /* may be "" */
	char *details;       /* NULL when none */
	enum rv_disposition disposition;
	struct rv_reply *reply;          /* NULL when none */
	struct rv_exception *exception;  /* NULL when none */
	struct rv_adjustment *adjustment; /* NULL when none */
	char **reported_by;  /* extension; may be NULL */
	size_t nreported_by;
	char *reversible;    /* NULL | "reversible" | "not reversible" */
	bool reopen_thread;

	/* --- computed by the rules (core/merge.c) --- */
	enum rv_section section;
	bool carried;        /* M3: from the prior state, not the input */
	bool accepted;       /* M4 */
	bool fixed;          /* M5 */
	enum rv_thread thread;
	const char *thread_reason; /* static: "no line anchor", … or NULL */
	int64_t root_id;     /* the root comment (existing or posted), or 0 */
	char *thread_url;    /* its html_url, or NULL */
};

struct rv_verification {     /* prior_verifications[] (I4) */
	uint32_t prior_id;
	char *verification;  /* yes | unclear | no */
	char *note;
};

struct rv_gap {              /* spec_gaps[] (I4) */
	uint32_t id;         /* a Q finding */
	char *section;
	char *title;
	char *spec_quote;
	char *code_quote;
	char **questions;    /* at least one */
	size_t nquestions;
	char *closing;       /* extension; NULL when none */
};

struct rv_clean {            /* checked_and_clean[] (I4) */
	char *slug;
	char *evidence;
};

/* The overridable prose of I7, in the order I7 lists it. */
enum rv_string {
	RV_STR_INLINE_LOCATOR,
	RV_STR_FORCE_PUSH_NOTICE,
	RV_STR_REPLIES_UNAVAILABLE,
	RV_STR_PUBLISH_INCOMPLETE,
	RV_STR_STATUS_UNWRITTEN,
	RV_STR_NEXT_BLOCKED,
	RV_STR_NEXT_REVIEW,
	RV_STR_NEXT_NOTES,
	RV_STR_NEXT_PARTIAL,
	RV_STRING_COUNT
};
/* The key of each string in `strings`, and its English default. */
extern const char *const rv_string_keys[RV_STRING_COUNT];
extern const char *const rv_string_defaults[RV_STRING_COUNT];

/* The findings input (§3), after I1–I7. */
struct review_input {
	enum rv_mode mode;
	char head[SHA_BUF];
	char *base;
	char last_sha[SHA_BUF];      /* "" for null */
	struct rv_finding *findings;
	size_t nfindings;
	char **dispatched;           /* subagents_dispatched */
	size_t ndispatched;
	bool has_dispatched;         /* the key was present */
	char **failures;             /* subagent_failures */
	size_t nfailures;
	char *shape_narrative;       /* NULL when none */
	char *next_action;           /* NULL when none */
	char prior_sha_unreachable[SHA_BUF]; /* "" for null */
	bool replies_unavailable;
	char *strings[RV_STRING_COUNT]; /* NULL: the default */
	struct rv_verification *verifications;
	size_t nverifications;
	struct rv_gap *gaps;
	size_t ngaps;
	struct rv_clean *clean;
	size_t nclean;
};

/* The string for k: the input's override, else the default. */
const char *review_string(const struct review_input *in, enum rv_string k);

void rv_finding_release(struct rv_finding *f);
void review_input_release(struct review_input *in);
/* The input's verification of prior finding `id`, or NULL. */
const struct rv_verification *
rv_verification_of(const struct review_input *in, uint32_t id);

/*
 * The prior state of a trusted sticky (§5.3's state block, or for a
 * state-less version-2 sticky its rows: H5).
 */
struct rv_state_row {
	uint32_t id;
	enum rv_pcode p;
	enum rv_section section;
	enum rv_thread thread;   /* POSTED/EXISTING (a root id), FAILED,
				  * PENDING, DROPPED or STICKY_ONLY (none) */
	int64_t root_id;         /* when the row links a thread */
	enum rv_confidence confidence;
	char *blast;
	char *justification;
	char *slug;
	char *file;              /* NULL for `-` */
	int64_t line_start;      /* 0 for `-` */
	int64_t line_end;
	char *category;
};

struct review_state {
	bool present;            /* a state block was found */
	bool from_rows;          /* H5: rebuilt from rows, not a state block */
	bool complete;           /* false when a nits row hid findings */
	int64_t iteration;
	uint32_t next;           /* next= */
	char *base;              /* base= decoded (B3); NULL: absent */
	struct rv_state_row *rows;
	size_t nrows;
	char **clean;            /* `clean` slugs */
	size_t nclean;
};

void review_state_release(struct review_state *s);

/*
 * one() of §5.1: every input value that lands in a sticky or a root passes
 * through it. LF becomes a space; text over `cap` code points keeps its
 * first cap-1 and gains "…"; then "<!--" becomes "&lt;!--" and "-->"
 * "--&gt;"; with `cell`, "|" becomes "\|" (a table cell). Appends to out.
 */
#define RV_ONE_CAP 500
#define RV_ONE_CAP_LONG 2000 /* failure mode, mitigation, quotes */
void rv_one(struct buf *out, const char *s, size_t cap, bool cell);
/* Code points in s (UTF-8; a stray continuation byte counts as one). */
size_t rv_codepoints(const char *s, size_t len);

/* "F<id>" (a finding's id as the input spells it) into out. */
#define RV_FID_BUF 16
const char *rv_fid(char out[RV_FID_BUF], uint32_t id);

/* Look-ups used everywhere: NULL / -1 when absent. */
const struct rv_finding *review_find(const struct rv_finding *f, size_t n,
				     uint32_t id);

#endif
