/*
 * report.h - what a run did (SNAPSHOT.md §3): its steps, its writes, its
 * exit code, and notes for the log. The decision code fills it; the command
 * layer prints it as JSON (--json, replay) and as a markdown summary.
 *
 * Exit codes merge by severity: 2 over 3 over 1 over 0 (BEHAVIOR §10).
 */
#ifndef AA_REPORT_H
#define AA_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"
#include "core/exit.h"
#include "core/gate.h"

enum step_kind { STEP_APPLY, STEP_GATE, STEP_PLAN, STEP_PUBLISH, STEP_LOCAL };

/* What a step came to; its name in the report is step_outcome_names[]. */
enum step_outcome {
	OUT_SKIPPED,
	OUT_APPLIED,
	OUT_REFUSED,
	OUT_APPROVE,
	OUT_WITHHOLD,
	OUT_ERROR,
	/* pr-review (PUBLISH §9) */
	OUT_PLANNED,
	OUT_NOOP,
	OUT_PUBLISHED,
	OUT_UNCHANGED,
	OUT_SUPERSEDED,
	OUT_PARTIAL,
	OUT_COUNT
};
extern const char *const step_outcome_names[OUT_COUNT];

struct report_step {
	enum step_kind kind;
	int64_t pr;
	enum step_outcome outcome;
	char head[SHA_BUF];       /* "" = null */
	/* apply */
	int64_t comment;          /* 0 = none */
	int clean;                /* -1 = null, else 0/1 */
	const char *needs_human;  /* "yes"/"no"/"malformed" or NULL */
	/* gate */
	bool has_conditions;
	bool cond[COND_COUNT];
	char *why[COND_COUNT];    /* one sentence each (may be NULL) */
	int draft;                /* -1 = unknown */
	char *repository;         /* set in multi-repository sweeps only */
	char *verdict_url;        /* links for the summary (untrusted) */
	char *check_url;
	char **reasons;
	size_t nreasons;
	int exit;
	bool missing;  /* its PR or comment does not exist */
	bool finished; /* step_finish() was called */
	/* plan, publish, local (PUBLISH §9): the step's own members as a
	 * compact JSON object, written between head and reasons; NULL when
	 * none. */
	char *extra;
};

enum write_kind {
	W_CREATE_LABEL,
	W_LABEL,
	W_STATUS,
	W_APPROVE,
	W_DISMISS,
	W_COMMENT_CREATE, /* PUBLISH §9 */
	W_COMMENT_UPDATE,
	W_COMMENT_DELETE,
	W_REVIEW,
	W_DISCUSSION /* GitLab (G22) */
};

struct report_write {
	enum write_kind kind;
	int64_t pr;
	char *label;
	char sha[SHA_BUF];
	char *state;
	char *context;
	char *description;
	char *target_url;
	char commit_id[SHA_BUF];
	int64_t review_id;
	/* PUBLISH §9 */
	int64_t comment_id;
	char body_sha256[SHA256_HEX_BUF]; /* sha256_hex of the body written */
	char *findings;           /* review: compact JSON array of ids */
	/* GitLab's discussion (G22): "" and 0 for a dry run's (null). */
	char discussion_id[41];
	int64_t note_id;
};

enum note_level { NOTE_ERROR, NOTE_WARNING, NOTE_NOTICE, NOTE_INFO };

struct report_note {
	enum note_level level;
	char *text; /* may hold untrusted text: escape when printing */
};

struct report {
	char *event;      /* NULL for direct commands */
	bool dry_run;
	bool sweep;       /* the run swept every open PR */
	/* For links in the summary: the web server ("https://github.com")
	 * and OWNER/NAME; NULL: no links. */
	char *server_url;
	/* https://SERVER/OWNER/NAME/blob/REF/docs of the running action, or
	 * NULL: where the step summary's rule codes link to. */
	char *docs_url;
	char *repository;
	struct report_step *steps;
	size_t nsteps, asteps;
	struct report_write *writes;
	size_t nwrites, awrites;
	bool gitlab; /* "platform": "gitlab" (G22) */
	int64_t *not_reached;
	size_t nnot_reached, anot_reached;
	struct report_note *notes;
	size_t nnotes, anotes;
	int exit;
};

void report_init(struct report *r, const char *event, bool dry_run);
void report_release(struct report *r);

/* Merge `code` into the run's exit code (exit_merge); exits nothing. */
void report_merge_exit(struct report *r, int code);

/* A new step; the pointer is valid until the next report_add_step. */
struct report_step *report_add_step(struct report *r, enum step_kind kind,
				    int64_t pr);
void step_reason(struct report_step *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set a step's outcome and exit code (merged into the report's). A step
 * is finished exactly once: the flow that made it decides its outcome
 * before it records it. */
void step_finish(struct report *r, struct report_step *s,
		 enum step_outcome outcome, int exit);

struct report_write *report_add_write(struct report *r, enum write_kind kind,
				      int64_t pr);
void report_note(struct report *r, enum note_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* SNAPSHOT.md §3, pretty-printed, appended to out. 0, or out's sticky
 * error (buf.h: past its ceiling, or a step's members cut short): then
 * out holds no usable report. The same for the two below. */
int report_to_json(const struct report *r, struct buf *out);
/* The page of docs/rules/ (no ".md") that defines a rule code, or NULL. */
const char *summary_rule_page(const char *code);

/*
 * The human summary (summary.c): a heading per PR that says what happened
 * and why, the four conditions as a table, what was written (or, in a dry
 * run, would be); a sweep leads with an overview and keeps per-PR lines
 * collapsed. Untrusted text is escaped; links are plain https only.
 */
int report_to_markdown(const struct report *r, struct buf *out);

/*
 * The GitHub Actions outputs as NAME=value lines (BEHAVIOR §9, A7): they
 * describe GitHub after the run, so a dry run never claims an approval.
 * decision, pr, head, approved, approved_prs, would_approve_prs, dry_run.
 */
int report_outputs(const struct report *r, struct buf *out);

/* The minimal report of a malformed snapshot (SNAPSHOT.md §2). */
void report_usage_json(struct buf *out);

#endif
