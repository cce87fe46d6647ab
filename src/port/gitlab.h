/*
 * gitlab.h - what every GitLab implementation of the port shares (the
 * in-memory one, port/world_gitlab*.c, and the live one, gitlab/): a
 * merge request's notes handed to the flows in the shapes every platform
 * shares, a note's link, and the JSON body of a discussion (G16).
 */
#ifndef AA_PORT_GITLAB_H
#define AA_PORT_GITLAB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/json.h"
#include "core/mr_model.h"
#include "port/port.h"

/* <web_url>#note_<id> (G0, L1113), owned by the caller. */
char *gitlab_note_url(const struct merge_request *mr, int64_t note_id);

/*
 * The notes of mr in the shared shapes, ascending id (G6): the first note
 * of a discussion whose first note is not a DiffNote is a comment (into
 * p->comments, when p); a DiffNote-first discussion's first note is a
 * review comment starting a thread, and every later note of any
 * discussion is a reply to its discussion's first note (into *rc, when
 * rc). System and internal notes are left out (G6).
 */
void gitlab_notes_out(const struct merge_request *mr, struct snap_pull *p,
                      struct snap_review_comment **rc, size_t *nrc);

/* pull() of a GitLab port through its review_pull `rp`: an MR is read
 * whole, so `parts` asks only whether the notes come too. */
int gitlab_pull_by_review(gh_review_pull_op *rp, struct github *gh,
                          int64_t number, unsigned parts, struct gh_pull *out,
                          struct buf *err);

/* The id of the discussion whose first note is note_id: AA_OK, or
 * AA_ENOTFOUND. */
int gitlab_discussion_of(const struct merge_request *mr, int64_t note_id,
                         char out[MR_DISCUSSION_ID_BUF]);

/* The diff of new_path `path`, or NULL. */
const struct mr_diff *gitlab_diff_of(const struct merge_request *mr,
                                     const char *path);
/* G16's JSON body {"body", "position"} of inl's discussion. */
void gitlab_discussion_json(struct jw *j, const struct merge_request *mr,
                            const struct gh_inline *inl);
/* Would GitLab place inl's position (one diff line whose old and new
 * numbers both match)? */
bool gitlab_position_ok(const struct merge_request *mr,
                        const struct gh_inline *inl);

/*
 * The words of a failed GitLab answer, the same live and in replay (P65):
 * "METHOD PATH: HTTP STATUS", PATH without its query, then " (BODY)" when
 * the answer has a body shorter than 300 bytes (set in out).
 */
void gitlab_answer_text(struct buf *out, const char *method,
                        const char *path, long status, const char *body,
                        size_t body_len);
/* GitLab's JSON error body of `status` as the fake GitLab answers a
 * fault: {"message":"<status> <reason>"}, or `message` when given; a 400
 * on a discussion POST is the refused position's (G16). */
void gitlab_error_body(struct buf *out, long status, bool discussion,
                       const char *message);
/* A project path URL-encoded for the API (`/` as %2F). */
void gitlab_project_enc(struct buf *out, const char *project);

#endif
