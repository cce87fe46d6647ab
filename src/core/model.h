/*
 * model.h - the state of one repository as this program sees it: the model
 * every GitHub read is decoded into and every decision reads (SNAPSHOT.md
 * §2 names its fields). formats/snapshot.h reads and writes it as JSON.
 *
 * A snapshot owns every string and array it points to; snapshot_release()
 * (formats/replay.h) frees them all.
 */
#ifndef AA_MODEL_H
#define AA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/policy.h"
#include "base/util.h"

/* Ceilings on what one snapshot may hold (each far above real use). */
#define SNAP_MAX_BYTES ((size_t)256 * 1024 * 1024)
#define SNAP_MAX_ITEMS 1000000

/* One entry of a comment's edit history (A5; SNAPSHOT.md `edits`). */
struct snap_edit {
	char *editor;     /* NULL for a deleted account: never trusted */
	int64_t edited_at;
};

struct snap_comment {
	int64_t id;
	char *author;     /* NULL for a deleted account */
	int64_t created_at;
	char *body;       /* untrusted; NUL-free (see json_parse) */
	size_t body_len;
	char *edited_by;  /* NULL when never edited or editor unknown */
	bool edited;      /* edited_by or edited_at set */
	int64_t edited_at;
	struct snap_edit *edits; /* whole history, oldest first; may be NULL */
	size_t nedits;
	size_t aedits;    /* ALLOC_GROW's; 0: unknown (a copy, a load) */
	char *html_url;   /* may be NULL */
	int64_t updated_at; /* 0 when unknown (PUBLISH §8) */
};

enum tl_kind { TL_OTHER, TL_UNLABELED, TL_BASE_REF_CHANGED, TL_LABELED };

struct snap_event {
	int64_t id;
	enum tl_kind kind;
	char *event;      /* the event name as given */
	char *label;      /* for label events; may be NULL */
	char *actor;      /* may be NULL (no actor) */
	int64_t created_at;
};

struct snap_thread {
	char *id;         /* GraphQL node id */
	char *url;        /* its first comment's html URL; may be NULL */
	char *author;     /* first comment's author; may be NULL */
	int64_t comments;
	bool resolved;
};

struct snap_review {
	int64_t id;
	char *author;     /* may be NULL */
	char *state;      /* APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED… */
	char commit_id[SHA_BUF]; /* "" when unknown */
	int64_t submitted_at;    /* 0 when unknown */
	char *body;       /* may be NULL (PUBLISH §8) */
};

/* A review comment: a line comment of a review (PUBLISH §8). */
struct snap_review_comment {
	int64_t id;
	char *author;     /* NULL for a deleted account */
	char *body;       /* untrusted */
	char *path;
	int64_t line;     /* 0 when null (outdated) */
	int64_t start_line; /* 0 when single-line */
	char *side;       /* "RIGHT", "LEFT"; may be NULL */
	char commit_id[SHA_BUF]; /* "" when unknown */
	int64_t in_reply_to; /* 0 when it starts a thread */
	int64_t review_id;   /* 0 when unknown */
	int64_t created_at;
	char *html_url;   /* may be NULL */
	/* GitLab (G10): edited, and by whom (NULL: unknown, untrusted). */
	bool edited;
	char *edited_by;
};

/* A file of a PR's diff (`GET /pulls/{n}/files`). */
struct snap_file {
	char *filename;
	char *status;     /* added, modified, removed, renamed, … */
	char *patch;      /* NULL: none (binary or too large) */
};

struct snap_status {
	int64_t id;
	char *state;      /* pending, success, failure, error */
	char *context;
	char *description; /* "" when none */
	char *creator;    /* NULL when unknown: never trusted */
	int64_t created_at;
	char *target_url; /* may be NULL */
};

struct snap_pull {
	int64_t number;
	char *state;      /* "open" or "closed" */
	bool merged;
	bool draft;
	char *author;
	char head_sha[SHA_BUF];
	char *head_ref;
	char *head_repo;  /* owner/name */
	char *base_ref;
	char **labels;
	size_t nlabels;
	size_t alabels;   /* ALLOC_GROW's, as each a* below; 0: unknown */
	char (*commits)[SHA_BUF];
	size_t ncommits;
	struct snap_comment *comments;
	size_t ncomments, acomments;
	struct snap_event *timeline;
	size_t ntimeline, atimeline;
	struct snap_thread *threads;
	size_t nthreads;
	struct snap_review *reviews;
	size_t nreviews, areviews;
	int64_t updated_at; /* 0 when unknown */
	/* A13: the repository's default branch as read with the PR (live:
	 * defaultBranchRef; replay: the snapshot's); NULL when unknown. */
	char *default_branch;
	/* PUBLISH §8 (optional): */
	char base_sha[SHA_BUF];  /* "" when unknown */
	struct snap_review_comment *review_comments;
	size_t nreview_comments, areview_comments;
	struct snap_file *files;
	size_t nfiles;
	/* GitLab: the MR's web_url (PART_PULL); NULL on GitHub. */
	char *html_url;
};

/* The statuses of one commit. */
struct snap_statuses {
	char sha[SHA_BUF];
	struct snap_status *v;
	size_t n;
	size_t alloc;     /* ALLOC_GROW's; 0: unknown */
};

/* Replay's parts of a snapshot (formats/replay.h): its faults and the
 * command it runs. Live runs leave them empty. */
struct snap_fault;
struct snap_command;
struct snap_setup;
struct snap_gitlab;

struct snapshot {
	int64_t version;
	char *repository;   /* owner/name */
	char *viewer;       /* login of the write token (T4) */
	char *default_branch; /* A13: NULL means "main" (SNAPSHOT §2) */
	/* "config": key/value pairs in string form, validated at load. */
	char **config_keys;
	char **config_values;
	size_t nconfig;
	char *event_name;
	char *event_payload; /* the payload object as compact JSON */
	struct snap_pull *pulls;
	size_t npulls, apulls; /* apulls: ALLOC_GROW's; 0: unknown */
	bool has_labels;     /* the repository's labels were given */
	char **labels;
	size_t nlabels, alabels; /* alabels, astatuses: ALLOC_GROW's */
	struct snap_statuses *statuses;
	size_t nstatuses, astatuses;
	struct snap_fault *faults;
	size_t nfaults;
	int64_t now;         /* extension: the clock of a replay (ms) */
	struct snap_command *command; /* PUBLISH §8; NULL: run `run` */
	struct snap_setup *setup;     /* doctor's fields; NULL: none given */
	/* platform "gitlab" (core/mr_model.h); NULL: a GitHub snapshot. */
	struct snap_gitlab *gitlab;
};

/* snapshot_init() and snapshot_release() are in formats/replay.h: the
 * snapshot owns its replay parts. This frees the rest, and leaves *s
 * empty (its replay parts must have been freed). */
void snapshot_model_release(struct snapshot *s);

/* Apply the snapshot's "config" to a policy. */
int snapshot_apply_config(const struct snapshot *s, struct policy *p,
			  struct buf *err);

/* Lookups. */
struct snap_pull *snapshot_pull(struct snapshot *s, int64_t number);
struct snap_statuses *snapshot_statuses(struct snapshot *s, const char *sha,
					bool create);

/* Deep copies and releases of the parts. */
void snap_comment_copy(struct snap_comment *dst, const struct snap_comment *src);
void snap_comment_release(struct snap_comment *c);
void snap_status_copy(struct snap_status *dst, const struct snap_status *src);
void snap_status_release(struct snap_status *st);
void snap_statuses_copy(struct snap_statuses *dst,
			const struct snap_statuses *src);
void snap_statuses_release(struct snap_statuses *st);
void snap_review_copy(struct snap_review *dst, const struct snap_review *src);
void snap_review_release(struct snap_review *r);
void snap_review_comment_copy(struct snap_review_comment *dst,
			      const struct snap_review_comment *src);
void snap_review_comment_release(struct snap_review_comment *c);
void snap_file_release(struct snap_file *f);

/* Parts of a pull request, for partial copies and reads. */
#define PART_PULL (1u << 0)     /* number, state, draft, head, base, author */
#define PART_LABELS (1u << 1)
#define PART_COMMENTS (1u << 2)
#define PART_TIMELINE (1u << 3)
#define PART_THREADS (1u << 4)
#define PART_REVIEWS (1u << 5)
#define PART_COMMITS (1u << 6)
#define PART_ALL 0x7fu

void snap_pull_copy(struct snap_pull *dst, const struct snap_pull *src,
		    unsigned parts);
void snap_pull_release(struct snap_pull *p);

/* Is the pull open (state "open" and not merged)? */
bool snap_pull_is_open(const struct snap_pull *p);

#endif
