/*
 * cmd_record.c - `record --pr N --out FILE` (or `--all`): capture what the
 * program can see of a repository as a snapshot, read-only, so that
 * `replay FILE` reproduces the live decision. The event recorded is the
 * one that would make that decision: workflow_dispatch for one PR,
 * schedule for all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/log.h"
#include "cmd/session.h"
#include "formats/snapshot.h"
#include "gitlab/live.h"

/* PUBLISH §8: the review comments and files publish reads. */
static int record_review_parts(struct session *s, struct snap_pull *p,
                               struct buf *err)
{
	const struct github_review_ops *r = s->gh->ops->review;

	if (!r)
		return AA_OK;
	if (r->review_comments(s->gh, p->number, &p->review_comments,
	                       &p->nreview_comments, err) < 0 ||
	    r->files(s->gh, p->number, &p->files, &p->nfiles, err) < 0)
		return AA_EAPI;
	return AA_OK;
}

/* Read one PR completely into the snapshot; 0 or AA_EAPI. */
static int record_pull(struct session *s, struct snapshot *snap, int64_t pr)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	struct snap_statuses st;
	struct snap_statuses *dst;
	int error;

	error = s->gh->ops->pull(s->gh, pr, PART_ALL, &g, &err);
	if (error == AA_ENOTFOUND) {
		log_error("record: PR #%lld not found", (long long)pr);
		buf_release(&err);
		return AA_ENOTFOUND;
	}
	if (error < 0 || g.failed) {
		log_error("record: PR #%lld could not be read: %s",
		          (long long)pr,
		          error == AA_OK && g.error ? g.error : err.ptr);
		gh_pull_release(&g);
		buf_release(&err);
		return AA_EAPI;
	}
	if (s->gh->ops->statuses(s->gh, pr, g.pull.head_sha,
	                         STATUS_NEED_LOOKUPS, &st, &err) < 0) {
		log_error("record: statuses of PR #%lld could not be read: %s",
		          (long long)pr, err.ptr);
		gh_pull_release(&g);
		buf_release(&err);
		return AA_EAPI;
	}
	if (record_review_parts(s, &g.pull, &err) < 0) {
		log_error("record: review comments or files of PR #%lld could "
		          "not be read: %s",
		          (long long)pr, err.ptr);
		gh_pull_release(&g);
		snap_statuses_release(&st);
		buf_release(&err);
		return AA_EAPI;
	}
	buf_release(&err);
	/* PRs can share a head: keep the first history read. */
	if (snapshot_statuses(snap, st.sha, false)) {
		snap_statuses_release(&st);
	} else {
		dst = snapshot_statuses(snap, st.sha, true);
		*dst = st;
	}
	ALLOC_GROW(snap->pulls, snap->npulls + 1, snap->apulls);
	snap->pulls[snap->npulls++] = g.pull;
	return AA_OK;
}

static void record_config(struct snapshot *snap, const struct policy *p)
{
	struct buf v = BUF_INIT(BUF_MAX_SMALL);
	size_t n = 0, i;

	while (policy_keys[n])
		n++;
	snap->config_keys = xcalloc(n, sizeof(char *));
	snap->config_values = xcalloc(n, sizeof(char *));
	snap->nconfig = 0;
	for (i = 0; i < n; i++) {
		policy_get(p, policy_keys[i], &v);
		/* An empty app_bot is no app_bot (the default): left out, so
		 * the recording is a valid snapshot (a login pattern). */
		if (!v.ptr[0] && strcmp(policy_keys[i], "app_bot") == 0)
			continue;
		snap->config_keys[snap->nconfig] = xstrdup(policy_keys[i]);
		snap->config_values[snap->nconfig++] = xstrdup(v.ptr);
	}
	buf_release(&v);
}

static int write_out(const char *path, const struct buf *text)
{
	struct buf tmp = BUF_INIT(BUF_MAX_SMALL);
	FILE *f;
	int error = -1;

	if (strcmp(path, "-") == 0) {
		fputs(text->ptr, stdout);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	buf_addf(&tmp, "%s.tmp", path);
	if (!(f = fopen(tmp.ptr, "wb"))) {
		log_error("record: cannot write '%s': %s", tmp.ptr,
			  strerror(errno));
		goto out;
	}
	if (fwrite(text->ptr, 1, text->len, f) != text->len || fclose(f) != 0) {
		log_error("record: cannot write '%s'", tmp.ptr);
		remove(tmp.ptr);
		goto out;
	}
	if (rename(tmp.ptr, path) < 0) {
		log_error("record: cannot rename to '%s': %s", path,
			  strerror(errno));
		remove(tmp.ptr);
		goto out;
	}
	error = 0;
out:
	buf_release(&tmp);
	return error;
}

static int record(struct session *s, const struct cli *c)
{
	struct snapshot snap;
	struct buf text = BUF_INIT(SNAP_MAX_BYTES);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull_brief *list = NULL;
	size_t n = 0, i;
	bool exists = true;
	int code = EXIT_API;

	snapshot_init(&snap);
	snap.version = 1;
	snap.repository = xstrdup(s->repository);
	snap.now = s->gh->ops->now(s->gh);
	record_config(&snap, &s->policy);
	if (s->gh->ops->user(s->gh, &snap.viewer, &err) < 0) {
		log_error("record: GET /user failed: %s", err.ptr);
		goto out;
	}
	if (c->all) {
		snap.event_name = xstrdup("schedule");
		snap.event_payload = xstrdup("{}");
		if (s->gh->ops->open_pulls(s->gh, LISTING_PLAIN, &list, &n,
		                           &err) < 0) {
			log_error("record: cannot list the open pull requests: "
			          "%s",
			          err.ptr);
			goto out;
		}
		for (i = 0; i < n; i++)
			if (record_pull(s, &snap, list[i].number) < 0)
				goto out;
	} else {
		struct buf payload = BUF_INIT(BUF_MAX_SMALL);

		snap.event_name = xstrdup("workflow_dispatch");
		buf_addf(&payload, "{\"inputs\":{\"pr\":\"%lld\"}}",
			 (long long)c->pr);
		snap.event_payload = buf_detach(&payload, NULL);
		if ((code = record_pull(s, &snap, c->pr)) < 0) {
			code = code == AA_ENOTFOUND || s->gh->no_repo
				       ? EXIT_USAGE
				       : EXIT_API;
			goto out;
		}
		code = EXIT_API;
	}
	if (s->gh->ops->label_exists(s->gh, 0, s->policy.label, &exists, &err) <
	    0) {
		log_error("record: label lookup failed: %s", err.ptr);
		goto out;
	}
	if (!exists)
		snap.has_labels = true; /* an empty list: replay creates it */
	if (snapshot_to_json(&snap, &text) < 0) {
		/* Never a snapshot cut short (N60). */
		log_error("record: the snapshot is larger than %zu bytes: not "
			  "written", (size_t)BUF_MAX_DOC);
		code = EXIT_API;
		goto out;
	}
	code = write_out(c->out, &text) < 0 ? EXIT_USAGE : EXIT_OK;
out:
	gh_briefs_free(list, n);
	buf_release(&text);
	buf_release(&err);
	snapshot_release(&snap);
	return code;
}

/*
 * A GitLab merge request (G23, P60): the MR read completely into a GitLab
 * snapshot whose command is `review-plan` on the reference given, the one
 * command that reads what publish reads and writes nothing: replaying the
 * file prints the report `review-plan --pr REF` prints live, and the same
 * file with another command (a publish and its findings) replays that.
 */
static int record_gitlab(struct session *s, const struct cli *c)
{
	struct snapshot snap;
	struct buf text = BUF_INIT(SNAP_MAX_BYTES),
	           err = BUF_INIT(BUF_MAX_SMALL);
	int code = EXIT_API, error;

	snapshot_init(&snap);
	snap.version = 1;
	snap.repository = xstrdup(s->repository);
	snap.now = s->gh->ops->now(s->gh);
	record_config(&snap, &s->policy);
	error = gitlab_record(s->gh, c->pr, &snap, &err);
	if (error < 0) {
		log_error("record: %s", err.ptr);
		/* G4: a refused token; G5: no such MR (or no access). */
		code = error == AA_EDENIED || error == AA_ENOTFOUND ? EXIT_USAGE
		                                                    : EXIT_API;
		goto out;
	}
	snap.command = xcalloc(1, sizeof(*snap.command));
	snap.command->name = SNAP_CMD_PLAN;
	snap.command->pr = c->pr;
	snap.command->pr_ref = xstrdup(c->gitlab_pr);
	if (snapshot_to_json(&snap, &text) < 0) {
		log_error("record: the snapshot is larger than %zu bytes: not "
			  "written", (size_t)BUF_MAX_DOC);
		goto out;
	}
	code = write_out(c->out, &text) < 0 ? EXIT_USAGE : EXIT_OK;
out:
	buf_release(&text);
	buf_release(&err);
	snapshot_release(&snap);
	return code;
}

int cmd_record(int argc, char **argv)
{
	struct cli c = {.command = "record"};
	struct session s;
	bool malformed;
	int code;

	if (cli_start(&c, argc, argv, 0, &code) < 0)
		return code;
	if (!c.out || (!c.pr == !c.all)) {
		log_error("record: needs --out FILE and one of --pr N or --all");
		return EXIT_USAGE;
	}
	if (c.gitlab_pr && (c.all || c.snapshot)) {
		/* A GitLab snapshot is already the recording (P60). */
		log_error("record: a GitLab merge request is recorded live, "
			  "with --pr only (not --all, not --snapshot)");
		return EXIT_USAGE;
	}
	if (session_open(&s, &c, NULL, &malformed) != EXIT_OK)
		return EXIT_USAGE;
	code = c.gitlab_pr ? record_gitlab(&s, &c) : record(&s, &c);
	session_release(&s);
	return code;
}
