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
 * 5xx, a transport failure), AA_EAPI; the message in gh.error. */
int gl_request(struct gl_live *l, const char *method, const char *path,
               const char *body, cJSON **root, long *status);

/* live.c: helpers of the reads. */
void gl_enc(struct buf *out, const char *s);
int gl_list(struct gl_live *l, const char *path, cJSON **out);
const char *gl_jstr(const cJSON *o, const char *key);
int64_t gl_jint(const cJSON *o, const char *key);
void gl_mr_clear(struct gl_live *l);
int gl_read_mr(struct gl_live *l, int64_t iid);
int gl_read_discussions(struct gl_live *l);
int64_t gl_jtime(const cJSON *o, const char *key);
char *gl_juser(const cJSON *o, const char *key);

/* reads.c: the ops table's reads; the editors of every note (G11). */
int gl_read_editors(struct gl_live *l);
extern const struct github_review_ops gl_review_ops;
int gl_user(struct github *gh, char **login);
int gl_statuses(struct github *gh, int64_t pr, const char *sha,
                unsigned need, struct snap_statuses *out);
int gl_pull(struct github *gh, int64_t number, unsigned parts,
            struct gh_pull *out);

/* writes.c */
int gl_comment_create(struct github *gh, int64_t pr, const char *body,
                      int64_t *id, char **html_url);
int gl_comment_update(struct github *gh, int64_t pr, int64_t id,
                      const char *body);
int gl_comment_delete(struct github *gh, int64_t pr, int64_t id);
int gl_create_status(struct github *gh, int64_t pr, const char *sha,
                     const char *state, const char *context,
                     const char *description, const char *target_url);
int gl_discussion_post(struct github *gh, int64_t pr,
                       const struct gh_inline *inl,
                       struct gh_discussion_posted *out);
int gl_discussion_payload(struct github *gh, int64_t pr,
                          const struct gh_inline *inl, struct buf *out);

#endif
