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

/* A publish's few writes go out unpaced (github_live_write_burst's
 * twin); a no-op on any other port. */
void gitlab_live_write_burst(struct github *gh, int n);

#endif
