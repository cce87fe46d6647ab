/*
 * mr_model.h - a GitLab project and its merge requests as a snapshot
 * holds them (docs/snapshot.md, "GitLab merge requests"; G23): the notes
 * in their discussions, the diffs with their diff_refs, the commit
 * statuses (external CI jobs). The in-memory GitLab port (port/
 * world_gitlab.c) serves it the way the fake GitLab does.
 *
 * struct snap_gitlab owns everything it points to; snap_gitlab_free()
 * frees it (NULL is fine).
 */
#ifndef AA_MR_MODEL_H
#define AA_MR_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* GitLab's discussion ids: 40 lower-case hex digits. */
#define MR_DISCUSSION_ID_BUF 41

struct mr_note {
	int64_t id;
	char *type;         /* NULL, "DiscussionNote" or "DiffNote" */
	char *author;       /* NULL: a deleted account */
	char *body;
	bool system, internal;
	int64_t created_at, updated_at;
	int64_t last_edited_at; /* 0: never edited */
	char *last_edited_by;   /* NULL: unknown (G10) */
	/* A DiffNote's position (new_path NULL otherwise). */
	char *new_path, *old_path;
	int64_t new_line, old_line; /* 0: null */
	char commit_id[SHA_BUF];
};

struct mr_discussion {
	char id[MR_DISCUSSION_ID_BUF];
	bool individual;
	struct mr_note *notes; /* the first note first */
	size_t nnotes;
};

struct mr_diff {
	char *old_path, *new_path;
	char *diff; /* NULL: nothing anchorable */
	bool new_file, renamed_file, deleted_file;
};

struct merge_request {
	int64_t iid;
	char *state; /* opened, closed, merged, locked */
	bool draft;
	char *author;
	char *source_branch, *target_branch;
	int64_t source_project_id, target_project_id;
	char sha[SHA_BUF];
	bool diff_refs_null;
	char base_sha[SHA_BUF], start_sha[SHA_BUF], head_sha[SHA_BUF];
	char *web_url;
	char (*commits)[SHA_BUF]; /* oldest first, head last */
	size_t ncommits;
	struct mr_discussion *discussions;
	size_t ndiscussions, adiscussions; /* ALLOC_GROW's; 0: unknown */
	struct mr_diff *diffs;
	size_t ndiffs;
};

struct mr_status {
	int64_t id;
	char sha[SHA_BUF];
	char *ref, *name, *status, *description, *target_url, *author;
	int64_t created_at;
	int64_t project_id;
};

struct snap_gitlab {
	char *host;       /* HOST[:PORT], lower case */
	int64_t project_id;
	struct merge_request *mrs;
	size_t nmrs;
	struct mr_status *statuses;
	size_t nstatuses, astatuses; /* ALLOC_GROW's; 0: unknown */
};

void mr_note_release(struct mr_note *n);
void mr_discussion_release(struct mr_discussion *d);
void mr_status_release(struct mr_status *st);
void snap_gitlab_free(struct snap_gitlab *g);

/* The merge request of that IID, or NULL. */
struct merge_request *snap_gitlab_mr(struct snap_gitlab *g, int64_t iid);

/* The highest note id of the project (every MR, system notes
 * included): a new note gets the next (the fake's rule, D3). */
int64_t snap_gitlab_max_note_id(const struct snap_gitlab *g);

/* The id GitLab (the fake, and replay) gives a discussion created with
 * first note `note_id`: SHA-1 hex of "discussion:<iid>:<note_id>". */
void mr_discussion_id(char out[MR_DISCUSSION_ID_BUF], int64_t iid,
                      int64_t note_id);

/* What a diff says of the new side's line `new_line`: MR_LINE_ADDED
 * (a `+` line), MR_LINE_CONTEXT (and its old-side number in
 * *old_line), or 0 when the diff holds no such line. GitLab places a
 * position on the one line whose old and new numbers both match it
 * (G16). */
#define MR_LINE_ADDED 1
#define MR_LINE_CONTEXT 2
int mr_diff_line(const char *diff, int64_t new_line, int64_t *old_line);

#endif
