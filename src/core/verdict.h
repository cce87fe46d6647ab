/*
 * verdict.h - who may speak a verdict and what a verdict is worth
 * (BEHAVIOR T1, T2, §3.3 and the verdict lookup of §5.2). Pure functions
 * over the snapshot model.
 */
#ifndef AA_VERDICT_H
#define AA_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/marker.h"
#include "core/policy.h"
#include "core/model.h"

/* T1: authored by the trusted login. */
bool verdict_author_trusted(const struct snap_comment *c,
			    const struct policy *p);
/* T2 (A5): never edited, or every edit in its history (`edited_by` and
 * each of `edits`) by the trusted login. */
bool verdict_edit_trusted(const struct snap_comment *c, const struct policy *p);
/* The first editor in c's history who is not the trusted login (NULL for
 * a deleted account or an unknown editor); call only when T2 fails. */
const char *verdict_untrusted_editor(const struct snap_comment *c,
				     const struct policy *p);
/* Must T2 see c's whole edit history (A5)? Every edited comment of the
 * trusted login: one whose markers someone else removed, and that the
 * trusted login edited after them, is still an A1 hold, and its body no
 * longer says so. */
bool verdict_history_needed(const struct snap_comment *c,
			    const struct policy *p);
/* An APPROVED review by the trusted login (§6: the approvals this program
 * owns: it dismisses them, and approves only where none is current). */
bool verdict_trusted_approval(const struct snap_review *r,
			      const struct policy *p);
/* The newest edit time in c's history (0 when never edited). */
int64_t verdict_last_edit(const struct snap_comment *c);

/* §3.3: the rows of a check block judged against the PR's threads. */
struct check_judgement {
	size_t rows;
	size_t invalid;  /* bad shape, plus blocking nits */
	size_t foreign;  /* not an AI-reviewer thread of this PR */
	size_t blocking; /* blocking status */
	bool has_clean;  /* a clean: line was present */
	bool said_clean; /* ... and said true */
	bool clean;      /* the value the status is written from */
	/* The first invalid row and the first foreign one (their line, 0
	 * when none), so a reason can name them. */
	size_t invalid_line;
	enum row_error invalid_error;
	size_t foreign_line;
	struct mview foreign_id; /* a view into the body */
};

void verdict_judge_check(struct check_judgement *out,
			 const char *untrusted_body, size_t len,
			 const struct marker_check *check,
			 const struct snap_thread *threads, size_t nthreads,
			 const struct policy *p);

/* §5.2: the escalation verdict for head H, and the hold of A1. */
struct nh_lookup {
	const struct snap_comment *comment; /* the deciding verdict, or NULL */
	struct marker_result marker;        /* its parse */
	const struct snap_event *retarget;  /* newest base_ref_changed, or NULL */
	size_t dropped;                     /* candidates older than retarget */
	/* A1: Y, the latest time a yes (any head, any base, malformed or
	 * not) was said by a trusted comment, or a comment of the trusted
	 * login was edited by someone else; A10: or the trusted login (or the
	 * App's bot) added the label. Valid when `held` is set. */
	bool held;
	int64_t hold_at;
	const struct snap_comment *hold;    /* the comment that set hold_at,
					     * or NULL: */
	const struct snap_event *hold_event; /* the labeled event that did */
	const char *hold_editor;            /* non-NULL: held by tampering */
	bool hold_edited;                   /* ... by an edit (editor unknown
					     * when hold_editor is NULL) */
	/* A2/A3 near-misses, for reasons: the newest trusted comment whose
	 * needs-human markers name H but are not a verdict (quoted, fenced,
	 * not leading), or NULL. */
	const struct snap_comment *quoted;
	size_t quoted_line;
	/* The newest comment of the trusted login naming H that T2 excludes,
	 * or NULL (its editor in `edited_by_other`). */
	const struct snap_comment *tampered;
	const char *edited_by_other;
};

void verdict_lookup(struct nh_lookup *out, const struct snap_pull *pull,
		    const char *head, const struct policy *p);

/* Does a parsed needs-human verdict name `head` (even if malformed)? */
bool verdict_names_head(const struct marker_nh *nh, const char *head);

#endif
