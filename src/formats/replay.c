/*
 * replay.c - the snapshot's lifetime, and the names of its read and write
 * kinds (as faults name them).
 */
#include "formats/replay.h"

#include <stdlib.h>
#include <string.h>


const char *const gh_read_names[READ_KIND_COUNT] = {
	"pull",	   "pulls",   "labels",	  "comments", "timeline",
	"threads", "reviews", "commits", "statuses", "user",
	"review_comments", "files", "compare", "repository", "branches",
	"rules", "contents", "teams", "environments", "notes", "editors"};
const char *const gh_write_names[WRITE_KIND_COUNT] = {
	"label", "status", "approve", "dismiss",
	"comment", "comment_delete", "review"};

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void snapshot_release(struct snapshot *s)
{
	for (size_t i = 0; i < s->nfaults; i++)
		free(s->faults[i].mode);
	free(s->faults);
	if (s->command) {
		free(s->command->findings);
		free(s->command->pr_ref);
		free(s->command->mode);
		free(s->command);
	}
	snapshot_model_release(s);
}
