/*
 * sticky.h - the pr-review comments, byte for byte (PUBLISH.md §5), and
 * the reading back of what this program wrote (U1-U3, §5.3, H5).
 *
 * Rendering takes the model the mechanical rules computed (core/review.h:
 * findings in M8 order with section, thread, root and url set) and writes
 * UTF-8 text with LF line ends and no final LF into a buf. Every input
 * value that lands in a comment passes through rv_one() (§5.1), except the
 * state block's values (percent-encoded) and a root's evidence (fenced,
 * verbatim) and details (comments neutralised).
 *
 * Parsing reads untrusted comment bodies. sticky_parse() and root_parse()
 * decide only what the text says; who wrote and edited the comment (U1's
 * author, U2's edit history, U3's in_reply_to) is the caller's to check.
 */
#ifndef AA_STICKY_H
#define AA_STICKY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"
#include "core/kind.h"
#include "core/merge.h"
#include "core/review.h"

/* The marker lines of §5.2 block 1 and §5.4. */
#define STICKY_MARKER        KIND_STICKY_MARKER
#define ROOT_MARKER          KIND_ROOT_MARKER
#define STICKY_VERSION       2
#define STICKY_STATE_VERSION 1
/* §5.5: the ⏸️ reasons' cap in degradation step 4 (code points). */
#define STICKY_DEGRADED_REASON 120
/* §5.5: a status description's ceiling (code points). */
#define STICKY_STATUS_DESC_MAX 140
/* Rows a state block may hold: more than any body under RV_BODY_LIMIT
 * (a row is at least 40 bytes), so a larger count is malformed. */
#define STICKY_MAX_ROWS 2048

/*
 * What a sticky shows (§5.2, §5.3). `m` is the merged model (findings in
 * M8 order, carried, accepted and fixed ones included) with each finding's
 * thread, thread_reason, root_id and thread_url set by publish. The doc's
 * `publish_incomplete` decides PARTIAL (the model's own flag and tier are
 * not read), so one model renders both S and F (§7.2). Borrowed pointers.
 */
struct sticky_doc {
	const struct review_input *in; /* head, base, last_sha, mode, gaps,
	                                * clean, verifications, strings … */
	const struct review_model *m;
	bool publish_incomplete; /* §7: an attempt pending, failed, dropped */
	bool status_unwritten;   /* W6: the final status was not written */
	int64_t iteration;       /* M9 */
	uint32_t next_id;        /* §5.3 next= */
};

/* The tier the sticky shows (M7 with the doc's publish incompleteness). */
enum rv_tier sticky_tier(const struct sticky_doc *d);

/*
 * Render the sticky (§5.2 blocks 1-15 and the §5.3 state block), applying
 * §5.5's degradation steps in order until the body is at most
 * RV_BODY_LIMIT code points. Replaces out's contents. Returns 0, or
 * AA_ETOOBIG (message in err) when even the last step does not fit.
 */
int sticky_render(struct buf *out, const struct sticky_doc *d, struct buf *err);

/*
 * Open buckets of block 3 over open findings (open and awaiting): "none"
 * or "P0×a, P1×b, …" with only the non-zero ones; appends to out.
 */
void sticky_open_buckets(struct buf *out, const struct rv_finding *f, size_t n);

/* An inline root (§5.4). Borrowed pointers only. */
struct root_doc {
	const struct rv_finding *f;
	enum rv_mode mode;    /* full: the range starts at base */
	const char *head;     /* 40 hex */
	const char *base;     /* the input's base (full mode) */
	const char *last_sha; /* incremental: 40 hex */
	const char *sticky_url;
	const char *previous_url; /* NULL: none */
};

/*
 * Render a root; over RV_BODY_LIMIT code points it loses Details, then its
 * evidence is cut (§5.5). Replaces out's contents. Returns 0, or
 * AA_ETOOBIG (message in err) when it cannot fit.
 */
int root_render(struct buf *out, const struct root_doc *d, struct buf *err);

/*
 * §4.1 step 4 on what the root renders: 0 when the finding may be posted,
 * else AA_ERR with *why "empty evidence" or "swallowed identifier" (the
 * reasons a `dropped` thread names).
 */
int root_assert(const struct rv_finding *f, const char **why);

/* One attempted inline comment of the review (§5.4 "Review"). */
struct review_comment {
	const char *path;
	int64_t line;
	int64_t start_line; /* 0: a single-line comment */
	const char *body;   /* a rendered root */
};

/*
 * The review payload: {"commit_id", "event": "COMMENT", "body":
 * "pr-review iteration · <description> · <sticky url>", "comments"}.
 * Appends to out.
 */
void review_payload(struct buf *out, const char *head, const char *description,
                    const char *sticky_url, const struct review_comment *c,
                    size_t n, bool pretty);

/*
 * The status description of §5.5 for a tier and the model's open
 * findings: "<TIER NAME>[ · <open buckets>]", at most
 * STICKY_STATUS_DESC_MAX code points. Appends to out.
 */
void status_description(struct buf *out, enum rv_tier tier,
                        const struct rv_finding *f, size_t n);

/*
 * The status payload {"state", "target_url", "description", "context"}
 * (state from rv_tier_state(), or the transitional "pending" with
 * "publishing" of §7.2). Appends.
 */
void status_payload(struct buf *out, const char *state, const char *desc,
                    const char *target_url, const char *context, bool pretty);

/* --- reading back (U1-U3, §5.3, H5) --- */

struct sticky_info {
	bool is_sticky; /* U1, B1: comment_kind() says KIND_STICKY */
	int version;    /* the one version= value, else 0 */
	/* U2's marker half: exactly one distinct valid sha= and status=
	 * value, and no invalid sha=/status= line. */
	bool markers_ok;
	char sha[SHA_BUF];   /* when markers_ok */
	enum rv_tier status; /* when markers_ok (never RV_NOOP_TIER) */
	/* §5.3: present when one well-formed state block was found. A
	 * malformed block (or two) leaves state_malformed set and no state
	 * from it; a version-2 sticky without a usable state block gets its
	 * rows (H5: from_rows, complete false when a row hid findings). */
	bool state_malformed;
	struct review_state state;
	/* B5: the highest F-number of the rows of blocks 6-8 of a version-2
	 * sticky, whether or not it has a state block (0: none). */
	uint32_t rows_max_id;
};

/*
 * Parse len bytes of an untrusted comment body. Always fills *out (zeroed
 * first); release with sticky_info_release(). Returns 0; AA_ERR only for
 * a body over RV_BODY_LIMIT code points (not a sticky this program
 * wrote), with *out empty.
 */
int sticky_parse(struct sticky_info *out, const char *untrusted_body,
                 size_t len);
void sticky_info_release(struct sticky_info *s);

/* A piece of an untrusted body: a view, not NUL-terminated (p NULL: the
 * piece is absent). */
struct root_text {
	const char *p;
	size_t n;
};

/* U3's reading of a root's text, and the texts H5 hands back to the
 * skill. No allocation: the texts are views into the body. */
struct root_info {
	bool is_root;
	uint32_t id;
	enum rv_pcode p;
	char slug[RV_MAX_SLUG + 1];
	bool has_head;
	char head[SHA_BUF]; /* head= of the marker run, lower case */
	/* §5.4's blocks after the title, as rendered: the first
	 * `**Failure mode**: ` and `**Mitigation**: ` lines' values, and
	 * the text fenced under `<details><summary>Evidence</summary>`
	 * (absent unless its fence closes). */
	struct root_text failure_mode, mitigation, evidence;
};

/* Parse a review comment body (len bytes). Fills *out; never fails. The
 * one reader of a root, for every command (publish's U3, the plan's H5). */
void root_parse(struct root_info *out, const char *untrusted_body, size_t len);

/* --- the text rules of §5.1, exposed for tests --- */

/* The first 7 hex digits of a SHA ("" stays ""); appends to out. */
void sticky_sha7(struct buf *out, const char *sha);
/* loc(f) of §5.1, raw (the caller passes it through rv_one). */
void sticky_loc(struct buf *out, const char *file, int64_t start, int64_t end);
/* §5.3: bytes outside A-Za-z0-9-._~/ as %XX (upper case); NULL as "-",
 * a literal "-" as "%2D". Appends to out. */
void sticky_pct_encode(struct buf *out, const char *s);
/*
 * The inverse, strict: only %XX with upper-case hex, only the safe bytes
 * raw, no decoded NUL or control character. "-" gives *is_null. Returns 0
 * or AA_ERR.
 */
int sticky_pct_decode(struct buf *out, bool *is_null, const char *s, size_t n);
/* A fence for text: max(3, its longest backtick run + 1). */
size_t sticky_fence_len(const char *s, size_t n);

#endif
