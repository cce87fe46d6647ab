/*
 * live.h - the live GitLab port (docs/rules/gitlab.md): the same port
 * as github/live.h, over GitLab's REST API v4 (and GraphQL for the note
 * editors, G11), for one merge request's project on one host.
 */
#ifndef AA_GITLAB_LIVE_H
#define AA_GITLAB_LIVE_H

#include "core/policy.h"
#include "github/http.h"
#include "port/port.h"

struct gitlab_config {
	const char *host;        /* HOST[:PORT] (G2), for messages */
	const char *project;     /* GROUP[/SUBGROUP…]/PROJECT */
	const char *graphql_url; /* on the API URL's origin */
	struct http_config http; /* api_url (…/api/v4), token, timeouts… */
};

/*
 * Create the live GitLab port. 0, or AA_EUSAGE with a message (a bad
 * URL). `p` must outlive the port.
 */
int gitlab_live_new(struct github **out, const struct gitlab_config *c,
                    const struct policy *p, struct buf *err);

/*
 * `record --pr <GitLab reference>` (G23, P60): GET /user, then the merge
 * request `iid` completely - its discussions with every note (system and
 * internal ones too), the editors of every edited note (GraphQL), its
 * diffs, its commits and every status of its head in its source project
 * - into snap as a GitLab snapshot (snap->gitlab, snap->viewer).
 * Read-only. AA_OK; AA_EDENIED (401/403 on GET /user), AA_ENOTFOUND (no
 * such MR), AA_EAPI (any other failure): the message in err (N80).
 */
struct snapshot;
int gitlab_record(struct github *gh, int64_t iid, struct snapshot *snap,
                  struct buf *err);

/* A publish's few writes go out unpaced (github_live_write_burst's
 * twin); a no-op on any other port. */
void gitlab_live_write_burst(struct github *gh, int n);

#endif
