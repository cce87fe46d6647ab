/*
 * kind.h - what the machine account writes, and which kind a given comment
 * is (BEHAVIOR §2; PUBLISH U1, U3, B1).
 *
 * Two features post as one account: the approval loop (the conductor's
 * check verdict, the escalation judge's needs-human verdict, round stamps
 * and skip markers) and pr-review (the summary "sticky", one root comment
 * per inline finding, the pr-review status). They share one threat model:
 * a write path may touch only a comment of its own kind. This is the one
 * place that tells a comment's kinds apart; every command asks it.
 *
 * A comment is exactly one kind. On a PR's conversation, a comment with a
 * line that holds a check marker or a needs-human header anywhere —
 * quoted, fenced, inside other text, spelled as BEHAVIOR §2.1 tolerates —
 * is never a sticky (B1): publish never edits or deletes it. It is a
 * verdict, unless its first line is the sticky marker: then it is a
 * pr-review summary that quotes verdict text (a finding's evidence, an
 * author's reply), and it is nobody's — neither a sticky publish may
 * rewrite nor a verdict the gate may read (KIND_OTHER). The verdict kinds
 * are deliberately broader than what the gate accepts as a verdict
 * (core/marker.c decides that); a look-alike classified as a verdict is
 * only kept away from publish. Review comments on the diff are never
 * verdicts: the gate does not read them.
 *
 * Pure: no allocation, no I/O, linear in the body.
 */
#ifndef AA_KIND_H
#define AA_KIND_H

#include <stdbool.h>
#include <stddef.h>

/* The first lines that make a pr-review comment (PUBLISH §5.2, §5.4). */
#define KIND_STICKY_MARKER "<!-- pr-review:sticky -->"
#define KIND_ROOT_MARKER   "<!-- pr-review:finding-root -->"

enum comment_kind {
	KIND_OTHER = 0,      /* none of the below: nobody's to edit */
	KIND_CHECK_VERDICT,  /* a line holds the agentic:check v1 marker */
	KIND_NEEDS_HUMAN,    /* a line holds the agentic:needs-human v1 header
			      * (and no check marker) */
	KIND_STICKY,         /* first line is the sticky marker (B1), no
			      * verdict marker anywhere */
	KIND_FINDING_ROOT    /* a review comment whose first line is the
			      * finding-root marker (U3) */
};

/* Where the comment was posted: a PR (issue) comment or a review comment
 * on the diff. Only review comments can be finding roots; only issue
 * comments can be stickies or verdicts. */
enum comment_place { PLACE_ISSUE, PLACE_REVIEW };

/* The kind of an untrusted comment body of len bytes (need not be
 * NUL-terminated). Who wrote or edited it is the caller's to check. */
enum comment_kind comment_kind(enum comment_place where,
			       const char *untrusted_body, size_t len);

/* Does any line of the body hold a check marker or a needs-human header,
 * spelled as BEHAVIOR §2.1 tolerates (case-insensitive keywords, optional
 * whitespace inside the delimiters)? */
bool kind_has_verdict_marker(const char *untrusted_body, size_t len);

/* A lowercase name for reports and lint ("check-verdict", "sticky", …). */
const char *comment_kind_name(enum comment_kind k);

/* Statuses are told apart by core/stamp.h (BEHAVIOR §4: the round, the
 * clean state, the skip marker) and by publish's U4 reader. */

#endif
