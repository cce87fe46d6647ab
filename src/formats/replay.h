/*
 * replay.h - the parts of a snapshot only replay uses (SNAPSHOT.md §2,
 * PUBLISH §8): the faults the world port honours and the command replay
 * runs instead of `run`. core/model.h names them without their fields;
 * formats/snapshot.c reads them, port/world.c acts on them.
 *
 * The snapshot owns them, so its lifetime is here too.
 */
#ifndef AA_REPLAY_H
#define AA_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* FAULT_CALL (extension, replay only): the N-th call to the port fails,
 * whatever it is — the error-path torture of tests/torture. */
enum fault_op { FAULT_READ, FAULT_WRITE, FAULT_CALL };

/* Read and write kinds, as named in snapshots (SNAPSHOT.md §2). */
enum gh_read {
	READ_PULL,
	READ_PULLS,
	READ_LABELS,
	READ_COMMENTS,
	READ_TIMELINE,
	READ_THREADS,
	READ_REVIEWS,
	READ_COMMITS,
	READ_STATUSES,
	READ_USER,
	READ_REVIEW_COMMENTS, /* PUBLISH §8 */
	READ_FILES,
	READ_COMPARE,
	READ_REPOSITORY,      /* doctor (docs/snapshot.md, setup) */
	READ_BRANCHES,
	READ_RULES,
	READ_CONTENTS,
	READ_TEAMS,
	READ_ENVIRONMENTS,
	READ_NOTE,            /* GitLab: GET …/notes/:id */
	READ_EDITORS,         /* GitLab: the note editors (G11) */
	READ_KIND_COUNT
};
enum gh_write {
	WRITE_LABEL,
	WRITE_STATUS,
	WRITE_APPROVE,
	WRITE_DISMISS,
	WRITE_COMMENT,        /* PUBLISH §8: create and update */
	WRITE_COMMENT_DELETE,
	WRITE_REVIEW,         /* a COMMENT review */
	WRITE_KIND_COUNT
};

extern const char *const gh_read_names[READ_KIND_COUNT];
extern const char *const gh_write_names[WRITE_KIND_COUNT];

struct snap_fault {
	enum fault_op op;
	int kind;          /* enum gh_read or enum gh_write */
	int64_t pr;        /* 0 = any */
	char sha[SHA_BUF]; /* "" = any */
	int status;        /* HTTP status; 0 with timeout */
	bool timeout;
	int64_t times;     /* extension: fail only this many calls; 0 = all */
	int64_t page;      /* extension (fake server): only this page */
	char *mode;        /* extension (fake server): how it fails */
	int64_t retry_after;
	int64_t call;      /* FAULT_CALL: which call (1-based) */
	int64_t comment_id; /* PUBLISH §8: only writes to it; 0 any */
	int64_t skip;      /* PUBLISH §8: the first N matching calls pass */
	bool lost_response; /* mode "lost_response": applied, then fails */
};

/* The command a snapshot asks replay to run instead of `run` (PUBLISH §8). */
enum snap_command_name { SNAP_CMD_PUBLISH, SNAP_CMD_PLAN, SNAP_CMD_LOCAL };
struct snap_command {
	enum snap_command_name name;
	int64_t pr;         /* 0 for review-local, and until pr_ref is read */
	char *pr_ref;       /* B7: `pr` given as OWNER/REPO#N or a URL (what
			     * --pr takes); NULL when given as a number */
	char *findings;     /* the findings file's text (an object as compact
			     * JSON; a string as it is); NULL for review-plan */
	size_t findings_len;
	bool findings_text; /* given as a string, not an object */
	char *mode;         /* review-plan: auto, full, incremental */
	bool dry_run;
};

void snapshot_init(struct snapshot *s);
/* Frees everything s points to, its replay parts included; s is then
 * empty (as snapshot_init leaves it). */
void snapshot_release(struct snapshot *s);

#endif
