/*
 * landed.h - did a write whose answer was lost land? (BEHAVIOR §8: "never
 * retry a write blindly — re-read to see whether it landed"; PUBLISH §7.2:
 * "done if its effect shows, else failed"; P27, N61.)
 *
 * An adapter of the port never guesses: a write whose answer did not come
 * back returns AA_ELOST (port/port.h). The flow reads again what the write
 * would change and asks landed(): the write is done when its effect shows
 * in what was read, failed otherwise. Pure: memory in, a verdict out.
 */
#ifndef AA_LANDED_H
#define AA_LANDED_H

#include <stddef.h>
#include <stdint.h>

#include "core/inline.h"
#include "core/model.h"
#include "core/policy.h"

/* Every write a run makes whose answer can be lost. */
enum landed_kind {
	LANDED_CREATE_LABEL,   /* the repository label (§3.1) */
	LANDED_ADD_LABEL,      /* the label on the PR (§3.1) */
	LANDED_STATUS,         /* a commit status (§3.3, W3, W6) */
	LANDED_APPROVE,        /* an APPROVE review (§6.1) */
	LANDED_DISMISS,        /* a dismissal (§6.2) */
	LANDED_COMMENT_CREATE, /* a new sticky (W1) */
	LANDED_COMMENT_PATCH,  /* a sticky edited (W1, W5) */
	LANDED_COMMENT_DELETE, /* a comment deleted (W2, W5) */
	LANDED_ROOT,           /* one root of a COMMENT review (W4) */
};

/*
 * What was sent. Only the fields of its kind are read; every pointer
 * stays the caller's.
 */
struct landed_write {
	enum landed_kind kind;
	/* The login the write was made as: the review login (pr-review's
	 * writes, U5) or else the trusted login (T4; a status may also be by
	 * the App's bot, T3). */
	bool as_review_login;
	const char *label; /* CREATE_LABEL, ADD_LABEL */
	/* STATUS: what the status says; target_url NULL when it had none. */
	const char *state, *context, *description, *target_url;
	/* STATUS: the PR whose `pr=#N:` the description carries, 0 when it
	 * names none (publish's). */
	int64_t pr;
	const char *commit_id; /* APPROVE */
	/* DISMISS: the review; COMMENT_PATCH, _DELETE: the comment;
	 * COMMENT_CREATE: the newest comment id known before the write. */
	int64_t id;
	const char *body; /* COMMENT_CREATE, _PATCH */
	size_t body_len;
	const struct rv_finding *finding; /* ROOT: the finding it is for */
	const char *head;                 /* ROOT: the head it was posted on */
};

/* What the re-read shows: only what the write's kind needs. */
struct landed_seen {
	/* CREATE_LABEL: the repository's labels (as far as asked: the one
	 * name when it exists); ADD_LABEL: the PR's labels. */
	char *const *labels;
	size_t nlabels;
	const struct snap_status *statuses; /* STATUS: the commit's */
	size_t nstatuses;
	const struct snap_review *reviews; /* APPROVE, DISMISS: the PR's */
	size_t nreviews;
	const struct snap_comment *comments; /* COMMENT_*: the PR's */
	size_t ncomments;
	const struct inline_root *roots; /* ROOT: U3's roots of the PR */
	size_t nroots;
};

/*
 * Did the write's effect show in `seen`? -1 when it did not (the write
 * failed); otherwise the index of what shows it in its list of `seen`
 * (the status, the review, the comment, the root; 0 for a label and for a
 * deletion, which show by a presence or an absence).
 */
ptrdiff_t landed(const struct landed_write *w, const struct landed_seen *seen,
                 const struct policy *p);

/* CRLF → LF, final LFs trimmed: is `have` the body GitHub shows for
 * `want` (W1)? */
bool landed_same_body(const char *have, size_t have_len, const char *want,
                      size_t want_len);

#endif
