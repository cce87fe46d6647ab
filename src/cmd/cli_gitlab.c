/*
 * cli_gitlab.c - a GitLab merge request reference where a PR is named
 * (docs/rules/gitlab.md G1, G2; PUBLISH B7): a snapshot's `command.pr`
 * on a GitLab snapshot.
 */
#include <string.h>

#include "cmd/cli.h"
#include "cmd/log.h"
#include "core/mr_model.h"
#include "core/mr_ref.h"
#include "formats/replay.h"

int64_t cli_gitlab_snapshot_pr(const struct snapshot *s, const char *what,
                               const char *pr_ref)
{
	const struct snap_gitlab *g = s->gitlab;
	struct mr_ref ref;
	int error;

	/* D2: the snapshot's host is the run's gitlab_host. */
	error = mr_ref_parse(&ref, pr_ref, strlen(pr_ref), g->host);
	if (error == MR_REF_ENOT_GITLAB) {
		log_error("%s: '%s' is not a GitLab merge request reference, "
		          "and the snapshot is GitLab's", what, pr_ref);
		return 0;
	}
	if (error < 0) {
		log_error("%s: %s", what, mr_ref_strerror(error));
		return 0;
	}
	if (!mr_ref_names(&ref, g->host, s->repository)) {
		log_error("%s: '%s' names %s on %s, not the snapshot's project "
		          "%s on %s", what, pr_ref, ref.project, ref.host,
		          s->repository, g->host);
		return 0;
	}
	return ref.iid;
}

int64_t cli_gitlab_replay_pr(const struct snapshot *s,
                             const struct snap_command *cmd)
{
	if (!cmd->pr_ref)
		return cmd->pr;
	return cli_gitlab_snapshot_pr(s, "replay: command.pr", cmd->pr_ref);
}

int cli_gitlab_pr(struct cli *c, const char *opt, const char *v)
{
	struct mr_ref ref;
	int error = mr_ref_parse(&ref, v, strlen(v), NULL);

	/* The ! form's host is gitlab_host, read with the environment: the
	 * IID is taken now, the reference read again then (G2). */
	if (error == MR_REF_ENO_HOST)
		error = mr_ref_parse(&ref, v, strlen(v), "gitlab.invalid");
	if (error == MR_REF_ENOT_GITLAB)
		return 0;
	if (error < 0) {
		log_error("%s: %s: %s", c->command, opt, mr_ref_strerror(error));
		return -1;
	}
	c->gitlab_pr = v;
	c->pr = ref.iid;
	return 1;
}
