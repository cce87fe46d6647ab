/*
 * apply.h - BEHAVIOR §3: what applying one trusted comment decides.
 *
 * Pure, like gate.h: reads go in, a decision comes out, with the sentences
 * a reviewer reads. The apply step needs some reads only on some paths (the
 * PR's commits when the verdict names an older head, R2; the whole status
 * history when its round is older than the newest, A9), so each decision
 * either names the read it needs next or is final. The flow in run/apply.c
 * performs that read, puts the result in the input, and asks again:
 *
 *	apply_classify(&d, &in);               comment alone: T1, T2, R1, R3
 *	apply_label_decide(&in.label) …        §3.1 (when d.label)
 *	apply_check_decide(&c, &in.check) …    §3.3 (when d.check)
 *
 * Nothing here reads, writes, allocates outside the decision, or prints.
 */
#ifndef AA_APPLY_H
#define AA_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/kind.h"
#include "core/marker.h"
#include "core/model.h"
#include "core/policy.h"

/* How loud a log line is (the report's note levels, in the same order). */
enum say_level { SAY_ERROR, SAY_WARNING, SAY_NOTICE, SAY_INFO };

/* A sentence for the step's reasons and its line for the log, together. */
struct apply_say {
	enum say_level level;
	char *reason; /* the report step's reason; NULL: none */
	char *note;   /* the log line; NULL: none */
};

enum apply_outcome { APPLY_APPLIED, APPLY_SKIPPED, APPLY_REFUSED };

/* --- the comment alone --- */

struct apply_input {
	const struct policy *policy;
	int64_t pr;
	const struct snap_comment *comment;
	bool reread; /* it came from the API, not a payload: T2 applies */
};

struct apply_decision {
	enum apply_outcome outcome;
	bool quiet;              /* a refusal that is normal operation (A9) */
	struct marker_result marker;
	enum comment_kind kind;  /* core/kind.h: only a check verdict's kind
				  * may hold a check block */
	const char *needs_human; /* "yes", "no", "malformed" or NULL */
	char head[SHA_BUF];      /* the head the verdict names (N3), or "" */
	bool label;              /* §3.1: add the label */
	bool check;              /* §3.3: judge the check block */
	struct apply_say say[4]; /* what happened, in order */
	size_t nsay;
};

void apply_classify(struct apply_decision *d, const struct apply_input *in);
void apply_decision_release(struct apply_decision *d);

/* --- §3.1: the label --- */

enum apply_label {
	LABEL_READ_EXISTS, /* read whether the repository has the label */
	LABEL_PRESENT,     /* already on the PR: nothing to write */
	LABEL_ADD,         /* add it (GitHub creates a missing one, N5) */
	LABEL_CREATE_ADD   /* create it in the repository, then add it */
};

struct apply_label_input {
	const struct policy *policy;
	const struct snap_pull *pull; /* its labels; NULL: the read failed */
	bool exists_known;            /* the repository lookup was done */
	bool exists;                  /* …and found it (a failure: true) */
};

enum apply_label apply_label_decide(const struct apply_label_input *in);

/* --- §3.3: the check block --- */

enum tri { TRI_UNKNOWN, TRI_NO, TRI_YES };

enum apply_check_next {
	CHECK_READ_PULL,     /* the PR and its review threads */
	CHECK_READ_COMMITS,  /* is the named head a commit of the PR (R2)? */
	CHECK_READ_STATUSES, /* clean and round stamps of the named head */
	CHECK_READ_HISTORY,  /* its whole status history (A9) */
	CHECK_REFUSED,       /* final: refused (say[] has why) */
	CHECK_UNREAD,        /* final: a part it needs could not be read */
	CHECK_WRITE,         /* final: write `state`/`description` */
	CHECK_UNCHANGED      /* final: the status already says so */
};

struct apply_check_input {
	const struct policy *policy;
	int64_t pr;
	const struct snap_comment *comment;
	const struct marker_result *marker;
	const struct snap_pull *pull;   /* NULL until read */
	bool threads_ok;                /* the pull's threads were read */
	enum tri head_in_pull;          /* TRI_UNKNOWN until read */
	const struct snap_statuses *statuses; /* NULL until read */
	const struct snap_statuses *history;  /* NULL until read */
};

struct apply_check {
	enum apply_check_next next;
	bool quiet;          /* CHECK_REFUSED as a notice, exit 0 (A9) */
	const char *unread;  /* CHECK_UNREAD: which part, in words */
	bool clean;          /* CHECK_WRITE, CHECK_UNCHANGED */
	const char *state;   /* "success" or "failure" */
	struct buf description;
	struct apply_say say[6];
	size_t nsay;
};

void apply_check_init(struct apply_check *c);
void apply_check_decide(struct apply_check *out,
			const struct apply_check_input *in);
void apply_check_release(struct apply_check *c);

#endif
