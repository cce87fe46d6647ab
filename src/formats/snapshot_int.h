/*
 * snapshot_int.h - what the snapshot loader's files share (snapshot.c,
 * snapshot_review.c). Not for other modules.
 */
#ifndef AA_SNAPSHOT_INT_H
#define AA_SNAPSHOT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

#include "base/buf.h"
#include "core/model.h"

/* Largest PR number and id we accept (GitHub's are far below). */
#define SNAP_MAX_NUMBER ((int64_t)2147483647)

/* Builds "parent[i]" or "parent.key" paths for messages into b. */
const char *pathf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

typedef int (*item_loader)(void *item, const cJSON *o, const char *path,
			   struct buf *err);
/*
 * Load obj[key], an optional array, into a new list of `size`-byte items
 * with a per-item loader. *n counts the items started, so a release after a
 * failure frees what the failing loader filled in part.
 */
int load_list(void **list, size_t *n, size_t size, item_loader loader,
	      const cJSON *obj, const char *ppath, const char *key,
	      struct buf *err);
#define LOAD_LIST(obj, ppath, key, list, n, loader, err)                     \
	load_list((void **)&(list), &(n), sizeof(*(list)), loader, obj, ppath, \
		  key, err)

/* PUBLISH §8: a pull's review_comments and files (snapshot_review.c). */
int snapshot_load_publish_parts(struct snap_pull *p, const cJSON *o,
				const char *path, struct buf *err);
/* PUBLISH §8: the optional `command` into s->command. */
int snapshot_load_command(struct snapshot *s, const cJSON *root,
			  struct buf *err);

/* doctor: the optional setup fields into s->setup (snapshot_setup.c). */
int snapshot_load_setup(struct snapshot *s, const cJSON *root,
			struct buf *err);

/* GitLab (snapshot_gitlab.c): the merge requests and statuses of a
 * snapshot with "platform": "gitlab" into s->gitlab, and each merge
 * request as a pull; a GitLab fault kind's enum gh_read/gh_write value,
 * or -1. */
int snapshot_load_gitlab(struct snapshot *s, const cJSON *root,
			 struct buf *err);
int snapshot_gitlab_fault_kind(const char *name, bool read);
/* Its GitLab name, or NULL when the kind keeps GitHub's name. */
const char *snapshot_gitlab_fault_name(int kind, bool read);
/* The snapshot of a GitLab project (snapshot_gitlab_write.c). */
int snapshot_gitlab_to_json(const struct snapshot *s, struct buf *out);

/* Their writers, for snapshot_write.c. */
struct jw;
void snapshot_write_publish_parts(struct jw *w, const struct snap_pull *p);
void snapshot_write_command(struct jw *w, const struct snap_command *c);
/* now, command and config, as both platforms' snapshots write them. */
void snapshot_write_run(struct jw *w, const struct snapshot *s);
void snapshot_write_fault(struct jw *w, const struct snap_fault *f,
			  bool gitlab);

#endif
