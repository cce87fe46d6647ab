/*
 * live_int.h - what the live GitLab port's files share (live.c: the
 * lifecycle, the requests and the reads; writes.c: the writes). Private
 * to gitlab/.
 */
#ifndef AA_GITLAB_LIVE_INT_H
#define AA_GITLAB_LIVE_INT_H

#include <cJSON.h>

#include "core/mr_model.h"
#include "gitlab/live.h"

/* G9: at most this many pages of one list (10,000 items). */
#define GL_MAX_PAGES 100
#define GL_PER_PAGE 100

struct gl_live {
	struct github gh;
	struct http *http;
	const struct policy *policy;
	char *host;
	char *project;      /* GROUP[/SUBGROUP…]/PROJECT */
	char *project_enc;  /* the project path, URL-encoded */
	char *graphql_url;
	char *viewer;       /* GET /user's username, once read */
	/* The merge request as last read (its discussions and diffs when
	 * read), for the shapes, the positions and G8. */
	struct merge_request mr;
	bool have_mr;
	int64_t now_offset;
};

static inline struct gl_live *GL(struct github *gh)
{
	return (struct gl_live *)gh;
}

/* The live GitLab port under gh (a dry run's included), or NULL. */
struct gl_live *gl_of(struct github *gh);

/* One request; *status its HTTP status (0: no answer). AA_OK for 2xx with
 * the JSON in *root (when root), else AA_ENOTFOUND (404), AA_EDENIED
 * (401/403), AA_EREJECTED (400/422), AA_ELOST (a write without answer:
 * 5xx, a transport failure), AA_EAPI; the message in err (N80), as
 * every read below writes its own. */
int gl_request(struct gl_live *l, const char *method, const char *path,
               const char *body, cJSON **root, long *status, struct buf *err);

/* live.c: helpers of the reads. */
void gl_enc(struct buf *out, const char *s);
int gl_list(struct gl_live *l, const char *path, cJSON **out, struct buf *err);
const char *gl_jstr(const cJSON *o, const char *key);
int64_t gl_jint(const cJSON *o, const char *key);
void gl_mr_clear(struct gl_live *l);
int gl_read_mr(struct gl_live *l, int64_t iid, struct buf *err);
int gl_read_discussions(struct gl_live *l, struct buf *err);
int64_t gl_jtime(const cJSON *o, const char *key);
char *gl_juser(const cJSON *o, const char *key);

/* reads.c: the ops table's reads; the editors of every note (G11). */
int gl_read_editors(struct gl_live *l, struct buf *err);
extern const struct github_review_ops gl_review_ops;
gh_user_op gl_user;
gh_statuses_op gl_statuses;
gh_pull_op gl_pull;

/* writes.c */
gh_comment_create_op gl_comment_create;
gh_comment_update_op gl_comment_update;
gh_comment_delete_op gl_comment_delete;
gh_create_status_op gl_create_status;
gh_discussion_post_op gl_discussion_post;
gh_discussion_payload_op gl_discussion_payload;

#endif
