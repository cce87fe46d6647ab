/*
 * session_gitlab.c - a live session on a GitLab merge request (G1-G3):
 * the host from the reference and gitlab_host, never a default; the API
 * base https://HOST/api/v4 or gitlab_api_url (A8, with gitlab_host only);
 * the token gitlab_token or GITLAB_TOKEN, never GitHub's.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/session.h"
#include "core/mr_ref.h"
#include "gitlab/live.h"

/* The GraphQL URL: the REST base's /api/v4 replaced by /api/graphql. */
static int graphql_of(struct buf *out, const char *api)
{
	size_t n = strlen(api);

	if (n < 7 || strcmp(api + n - 7, "/api/v4") != 0)
		return AA_EUSAGE;
	buf_add(out, api, n - 7);
	buf_adds(out, "/api/graphql");
	return AA_OK;
}

int session_open_gitlab(struct session *s, const struct cli *c,
                        struct live_config *lc, struct buf *err)
{
	struct gitlab_config gc;
	struct mr_ref ref;
	struct buf api = BUF_INIT(BUF_MAX_SMALL), gql = BUF_INIT(BUF_MAX_SMALL);
	int error = mr_ref_parse(&ref, c->gitlab_pr, strlen(c->gitlab_pr),
	                         s->env.gitlab_host);

	if (error < 0) {
		buf_setf(err, "--pr: %s", mr_ref_strerror(error));
		return AA_EUSAGE;
	}
	if (!s->env.gitlab_token) {
		buf_setf(err, "no GitLab token: set gitlab_token or "
		              "GITLAB_TOKEN");
		return AA_EUSAGE;
	}
	for (const char *t = s->env.gitlab_token; *t; t++)
		if ((unsigned char)*t <= 0x20 || (unsigned char)*t == 0x7f) {
			buf_setf(err, "the GitLab token holds whitespace or "
			              "control characters");
			return AA_EUSAGE;
		}
	if (s->env.actions) /* never in a log line (G3) */
		fprintf(stderr, "::add-mask::%s\n", s->env.gitlab_token);
	if (s->env.gitlab_api_url)
		buf_adds(&api, s->env.gitlab_api_url);
	else
		buf_addf(&api, "%s://%s/api/v4", ref.http ? "http" : "https",
		         ref.host);
	while (api.len && api.ptr[api.len - 1] == '/')
		api.ptr[--api.len] = '\0';
	if (graphql_of(&gql, api.ptr) < 0) {
		buf_setf(err, "gitlab_api_url: must end in /api/v4");
		buf_release(&api);
		buf_release(&gql);
		return AA_EUSAGE;
	}
	memset(&gc, 0, sizeof(gc));
	gc.host = ref.host;
	gc.project = ref.project;
	gc.graphql_url = gql.ptr;
	gc.http = lc->http;
	gc.http.api_url = api.ptr;
	gc.http.token = s->env.gitlab_token;
	{
		struct buf web = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&web, "%s://%s", ref.http ? "http" : "https", ref.host);
		s->gitlab_web = buf_detach(&web, NULL);
	}
	s->repo_owned = xstrdup(ref.project);
	s->repository = s->repo_owned;
	error = gitlab_live_new(&s->gh, &gc, &s->policy, err);
	buf_release(&api);
	buf_release(&gql);
	return error;
}
