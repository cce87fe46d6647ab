/*
 * world_int.h - what the in-memory port's files share (world.c,
 * world_review.c). Not for other modules.
 */
#ifndef AA_WORLD_INT_H
#define AA_WORLD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/replay.h"
#include "port/port.h"

struct world {
	struct github gh;
	struct snapshot *s;
	const struct policy *policy;
	int64_t *fault_used; /* calls each fault has failed (for "times") */
	int64_t *fault_seen; /* calls each fault has matched (for "skip") */
	int64_t calls;       /* reads (per part) and writes made so far */
	struct buf *trace;   /* when set: one line per call */
	int64_t now;
	/* review_pull read the viewer (RV_READ_VIEWER): user() answers
	 * without a call of its own, as the live port does. */
	bool viewer_read;
	/* GitLab: the page a list read asks (a fault with `page` hits only
	 * it), and the HTTP status and Retry-After of the last fault hit. */
	int64_t page;
	int last_status;
	int64_t last_retry_after;
	bool last_by_call; /* the last fault hit was a {"call": N} */
};

static inline struct world *W(struct github *gh)
{
	return (struct world *)gh;
}

/*
 * Does a fault hit this call? Returns 0 (no), AA_ENOTFOUND (a 404) or
 * AA_EAPI, and for a write AA_EREJECTED (a 422) or AA_ELOST (a 5xx or a
 * timeout: not made, but the program cannot tell), with the message in
 * err. `comment_id` narrows faults
 * that name one (0: the call is not about a comment). With `lost` (a
 * write), a lost_response fault returns 0 and sets *lost: the caller makes
 * the write, then fails with the message already set.
 */
int world_fault(struct world *w, enum fault_op op, int kind, int64_t pr,
                const char *sha, int64_t comment_id, bool *lost,
                struct buf *err);
/* The login of the write token. */
const char *world_viewer(struct world *w);

extern const struct github_review_ops world_review_ops;
extern const struct github_ops world_ops;

/* GitLab (world_gitlab.c): make w serve s->gitlab. */
void world_gitlab_init(struct world *w);
/* world_fault for GitLab: a 429 (or a 409 on a status) is retried after
 * its Retry-After unless the wait would pass the deadline (G21). */
int world_gitlab_fault(struct world *w, enum fault_op op, int kind, int64_t pr,
                       int64_t comment_id, const char *sha, bool *lost,
                       struct buf *err);
/* The words the live port prints for the request a GitLab call stands
 * for, answered `status` with the fake's error body (`message` or its
 * default), into err (P65). `id` is a note's (0: none), `sha` a
 * status call's. */
void world_gitlab_words(struct world *w, enum fault_op op, int kind, int64_t pr,
                        int64_t id, const char *sha, long status,
                        const char *message, struct buf *err);
extern const struct github_review_ops world_gitlab_review_ops;
extern struct github_ops world_gitlab_ops;

struct merge_request;
/* The MR of IID pr (a 404's message in err when none). */
struct merge_request *world_gitlab_mr(struct world *w, int64_t pr,
                                      struct buf *err);

/* world_gitlab_writes.c: the writes, as the fake GitLab makes them. */
gh_comment_create_op world_gitlab_comment_create;
gh_comment_update_op world_gitlab_comment_update;
gh_comment_delete_op world_gitlab_comment_delete;
gh_create_status_op world_gitlab_create_status;
gh_discussion_post_op world_gitlab_discussion_post;
int world_gitlab_discussion_payload(struct github *gh, int64_t pr,
                                    const struct gh_inline *inl,
                                    struct buf *out);
extern const struct github_setup_ops world_setup_ops;

#endif
