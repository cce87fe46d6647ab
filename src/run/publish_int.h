/*
 * publish_int.h - what the files of `publish` share (publish.c: the reads,
 * the model and the write protocol; publish_out.c; publish_writes.c).
 * Private to run/.
 */
#ifndef AA_RUN_PUBLISH_INT_H
#define AA_RUN_PUBLISH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/merge.h"
#include "core/publish.h"
#include "run/pr_review.h"
#include "run/review_int.h"

/* Everything one publish holds (largest members first: no padding). */
struct pub {
	struct engine *e;
	struct review_input *in;
	const struct review_state *prior; /* the trusted sticky's state */
	struct diff_file *files;
	/* Per finding: the previous thread's link of a reopened one, copied
	 * (W4's re-list replaces the roots the plan points into). */
	char **prev_url;
	/* The sticky this run wrote (or found equal): id and url. */
	char *sticky_url;
	const char *sticky_action; /* create, update, unchanged; NULL */
	int64_t *deleted;
	size_t step, nfiles, ndropped, nfailed, nrejected, ndeleted, adeleted;
	int64_t pr, iteration, sticky_id;
	int64_t created_id; /* the sticky this run created (0: none) */
	struct rv_pr p;
	struct snap_statuses st;
	struct review_model m;
	struct inline_plan plan;
	struct buf body; /* the last sticky body written */
	struct buf files_error; /* why the files could not be read */
	uint32_t next_id;
	int exit; /* what the writes so far add up to */
	/* What the step came to (pub_finish), recorded once at the end. */
	enum step_outcome outcome;
	int outcome_exit;
	int files_read; /* 0 not read, 1 read, -1 failed */
	bool dry, has_st, has_model, status_unwritten;
	bool incomplete; /* the last sticky written is PARTIAL */
	bool head_stale; /* a read came after the PR's: W1 needs its G */
};

static inline struct report_step *STEP(struct pub *u)
{
	return &u->e->report->steps[u->step];
}

/* publish_out.c: the step's members, the bodies, the dry run (each is
 * described where it is defined). */

void pub_doc_init(struct pub *u, struct sticky_doc *d, bool incomplete);
void pub_dry_run(struct pub *u, const struct buf *first, bool create,
		 bool unchanged, enum rv_tier final_tier,
		 struct buf *dry_out);
/* Say what the step came to: `out` with exit `code` merged into the
 * run's so far, as B4 lets it read (core/publish.h). A later call says
 * it again; engine_publish records the last in the report, once. */
void pub_finish(struct pub *u, enum step_outcome out, int code);
void pub_finish_extra(struct pub *u, enum rv_tier tier,
		      const struct buf *payloads);
void pub_json_fid(struct jw *w, uint32_t id);
int pub_render(struct pub *u, struct buf *out, bool incomplete,
	       enum rv_tier *tier);
bool pub_rows_incomplete(const struct pub *u);
bool pub_same_body(const char *have, size_t n, const struct buf *want);
void pub_status_fields(const struct pub *u, enum rv_tier tier,
		       bool pending, const char **state, struct buf *desc);
bool pub_status_matches(const struct pub *u, const char *state,
			const char *desc, const char *url);
/* G17: the target_url a status is sent with (NULL: without one). */
#define GITLAB_TARGET_URL_MAX 255
const char *pub_status_url(const struct pub *u, const char *url);

/* publish_writes.c: the writes and their lost answers, the inline
 * threads. */

/* A failed call of the flow, with its own message (N80): noted, and the
 * run ends exit 3. */
void pub_api_failure(struct pub *u, const char *what, const char *msg);
/* The writes: AA_OK, or the failure's kind with its own message in err
 * (N80), a lost answer's judged by reading again. */
int pub_delete_comment(struct pub *u, int64_t id, struct buf *err);
int pub_head_unmoved(struct pub *u, unsigned what, struct buf *err);
void pub_link_posted(struct pub *u);
void pub_record_comment(struct pub *u, enum write_kind kind, int64_t id,
			const struct buf *body);
void pub_record_review(struct pub *u, int64_t review_id,
		       const size_t *idx, size_t n);
void pub_record_status(struct pub *u, const char *state, const char *desc,
		       const char *url);
int pub_render_root(struct pub *u, size_t i, struct buf *out, struct buf *err);
int pub_set_status(struct pub *u, const char *state, const char *desc,
                   struct buf *err);
int pub_sticky_create(struct pub *u, const struct buf *body, struct buf *err);
int pub_sticky_patch(struct pub *u, int64_t id, const struct buf *body,
                     struct buf *err);
void pub_thread_failed(struct pub *u, size_t i);
void pub_write_threads(struct pub *u, const char *description);

/* GitLab (publish_writes.c): the `discussion` write of attempt i (posted
 * NULL: a dry run's, ids null); W4 as one discussion per attempt (G16);
 * the dry run's payloads.review (G22). */
void pub_record_discussion(struct pub *u,
			   const struct gh_discussion_posted *posted,
			   size_t i);
void pub_write_discussions(struct pub *u, const size_t *idx, size_t n);
struct review_comment;
void pub_discussion_payloads(struct pub *u, const struct review_comment *rc,
			     struct buf *out);

#endif
