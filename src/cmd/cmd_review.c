/*
 * cmd_review.c - the pr-review commands (PUBLISH.md §2): review-plan,
 * publish and review-local, and what replay runs for a snapshot's
 * `command` (§8).
 *
 * The findings input is read and checked before anything else: a
 * malformed one is exit 2 with one stderr line and, with --json, the
 * stub report, and not a single GitHub read is made (§3 I1).
 */
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/log.h"
#include "cmd/session.h"
#include "formats/findings.h"
#include "formats/review_local.h"
#include "formats/snapshot.h"
#include "github/live.h"
#include "gitlab/live.h"
#include "run/pr_review.h"

/*
 * Writes of one publish sent without AGENTIC_WRITE_INTERVAL_MS between
 * them (serially still): PUBLISH §7.2 makes five (S, the pending status,
 * the review, R, the final status) plus a delete per duplicate sticky.
 * GitHub's one-second guidance is for "a large number" of writes (FACTS);
 * a publish that must delete many duplicates is paced after these.
 */
#define PUBLISH_WRITE_BURST 8

/* The findings file's text (I1's ceiling plus one byte: larger is an
 * error findings_parse names). */
static int read_findings(struct buf *text, const char *command,
			 const char *path)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error;

	if (!path) {
		log_error("%s: which findings? (--findings FILE, - for stdin)",
			  command);
		return -1;
	}
	buf_init(text, RV_MAX_INPUT_BYTES + 1);
	error = file_read(text, path, &err);
	if (error == AA_ETOOBIG)
		log_error_bare("findings: : larger than %zu bytes (8 MiB)",
			       RV_MAX_INPUT_BYTES);
	else if (error < 0)
		log_error("%s: findings '%s': %s", command, path, err.ptr);
	buf_release(&err);
	return error < 0 ? -1 : 0;
}

/* Parse findings text for publish: AA_OK, or the exit-2 line printed. */
static int parse_findings(struct review_input *in, const char *text,
			  size_t len, const struct policy *p)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct findings_opts o = { .local = false,
				   .max_findings = (size_t)p->max_findings };
	int error = findings_parse(in, text, len, &o, &err);

	if (error < 0)
		log_error_bare("findings: %s", err.ptr); /* B8 */
	buf_release(&err);
	return error;
}

/* review-local's failure: RL_EXIT_USAGE is a findings line, printed
 * as B8 spells it; a refusal is an error line. */
static void local_error(int code, const char *msg)
{
	if (code == RL_EXIT_USAGE)
		log_error_bare("%s", msg);
	else
		log_error("%s", msg);
}

int cmd_review_local(int argc, char **argv)
{
	struct cli c = {.command = "review-local"};
	struct buf text, out = BUF_INIT(BUF_MAX_DOC);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int code;

	if (cli_parse(&c, argc, argv, command_options(c.command), 0) < 0)
		return EXIT_USAGE;
	if (c.help) {
		usage_command(c.command);
		return EXIT_OK;
	}
	if (read_findings(&text, c.command, c.findings) < 0)
		return EXIT_USAGE;
	code = review_local(&out, text.ptr, text.len, &err);
	if (code == EXIT_OK)
		fputs(out.ptr, stdout);
	else
		local_error(code, err.ptr);
	buf_release(&text);
	buf_release(&out);
	buf_release(&err);
	return code;
}

/* H3: a noop over a reviewed head prints the seed's line (L259). */
static void plan_noop_line(const struct engine_plan *plan)
{
	if (plan->step.outcome != OUT_NOOP || !plan->nothing_new_since[0])
		return;
	fprintf(stderr,
	        "pr-review: nothing new since %s. Skipping. Use "
	        "mode=full to force a re-review.\n",
	        plan->nothing_new_since);
}

/* Print a document to stdout whole, or not at all (N60): one cut short
 * is one line on stderr and exit 3. */
static void print_whole(struct session *s, const struct buf *doc,
			const char *what)
{
	if (buf_error(doc) < 0) {
		log_error("%s is larger than %zu bytes: not written", what,
			  (size_t)BUF_MAX_DOC);
		report_merge_exit(&s->report, EXIT_API);
		return;
	}
	fputs(doc->ptr, stdout);
}

/*
 * Was --json asked for, wherever it stands? A usage error found while
 * parsing (an unreadable --pr, B7) is exit 2 before any read, and with
 * --json that prints SNAPSHOT §2's stub report even when --json comes
 * after the option that failed.
 */
static bool wants_json(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0)
			return true;
	return false;
}

int cmd_review_plan(int argc, char **argv)
{
	struct cli c = {.command = "review-plan"};
	struct buf plan = BUF_INIT(BUF_MAX_DOC);
	struct engine_plan result;
	struct session s;
	int code;

	if (session_start(&s, &c, argc, argv, OPT_PR_REF, &code) < 0)
		return code == EXIT_USAGE ? usage_exit(wants_json(argc, argv) &&
						       !c.stub_printed)
					  : code;
	result = engine_review_plan(&s.engine, c.pr, c.mode ? c.mode : "auto",
	                            &plan);
	plan_noop_line(&result);
	if (!c.json && (plan.len || buf_error(&plan)))
		print_whole(&s, &plan, "the plan");
	buf_release(&plan);
	return session_close(&s, c.json);
}

int cmd_publish(int argc, char **argv)
{
	struct cli c = {.command = "publish"};
	struct review_input in = {0};
	struct buf text, dry = BUF_INIT(BUF_MAX_DOC);
	struct policy p;
	struct session s;
	int code;

	/* §3: the findings first, before any configuration is read off
	 * the network. The policy's ceiling comes from the environment and
	 * the snapshot later; here the default and AGENTIC_MAX_FINDINGS. */
	if (cli_parse(&c, argc, argv, command_options(c.command), 0) < 0)
		return usage_exit(wants_json(argc, argv));
	if (c.help) {
		usage_command(c.command);
		return EXIT_OK;
	}
	if (read_findings(&text, c.command, c.findings) < 0)
		return usage_exit(c.json);
	policy_init(&p);
	code = parse_findings(&in, text.ptr, text.len, &p);
	policy_release(&p);
	buf_release(&text);
	if (code < 0)
		return usage_exit(c.json);
	if (session_start(&s, &c, argc, argv, OPT_PR_REF, &code) < 0) {
		review_input_release(&in);
		return code == EXIT_USAGE ? usage_exit(c.json && !c.stub_printed)
					  : code;
	}
	if (in.nfindings > (size_t)s.policy.max_findings) {
		log_error_bare("findings: /findings: more than %lld findings "
			       "(max_findings)",
			       (long long)s.policy.max_findings);
		review_input_release(&in);
		session_release(&s);
		return usage_exit(c.json);
	}
	github_live_write_burst(s.gh, PUBLISH_WRITE_BURST);
	gitlab_live_write_burst(s.gh, PUBLISH_WRITE_BURST);
	session_missing_is_usage(&s, c.command);
	engine_publish(&s.engine, c.pr, &in, c.dry_run, &dry);
	review_input_release(&in);
	if (c.dry_run && !c.json)
		print_whole(&s, &dry, "the dry run's output");
	buf_release(&dry);
	return session_close(&s, c.json);
}

/* review-local inside a snapshot (§7.6): a step {"step": "local",
 * "local": <the printed JSON>}; no port is used. */
static void replay_local(struct session *s, const struct snap_command *cmd)
{
	struct buf out = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	struct report_step *st = report_add_step(&s->report, STEP_LOCAL, 0);
	int code = review_local(&out, cmd->findings, cmd->findings_len, &err);

	if (code == EXIT_OK) {
		struct buf extra = BUF_INIT(BUF_MAX_DOC);

		while (out.len && out.ptr[out.len - 1] == '\n')
			out.ptr[--out.len] = '\0';
		buf_adds(&extra, "{\"local\":");
		buf_add(&extra, out.ptr, out.len);
		buf_adds(&extra, "}");
		st->extra = buf_detach(&extra, NULL);
		step_finish(&s->report, st, OUT_PLANNED, EXIT_OK);
	} else {
		local_error(code, err.ptr);
		step_reason(st, "%s", err.ptr);
		step_finish(&s->report, st,
			    code == EXIT_USAGE ? OUT_ERROR : OUT_REFUSED, code);
	}
	buf_release(&out);
	buf_release(&err);
}

/*
 * B7: a snapshot's `command.pr` given as --pr takes it; a repository
 * other than the snapshot's is a usage error before any read. Returns
 * the PR, or 0 after printing one line.
 */
static int64_t replay_pr(const struct session *s, const struct snap_command *cmd)
{
	struct cli c = {.command = "replay"};

	if (s->snap.gitlab)
		return cli_gitlab_replay_pr(&s->snap, cmd);
	if (!cmd->pr_ref)
		return cmd->pr;
	if (cli_pr_ref(&c, "command.pr", cmd->pr_ref) < 0)
		return 0;
	if (c.gitlab_pr) { /* B7: not on a GitHub snapshot */
		log_error("replay: command.pr: '%s' is a GitLab merge request, "
			  "and the snapshot is GitHub's", cmd->pr_ref);
		return 0;
	}
	if (c.repo && s->snap.repository &&
	    !str_eq_nocase(c.repo, s->snap.repository)) {
		log_error("replay: command.pr: '%s' names %s, not the "
			  "snapshot's repository %s", cmd->pr_ref, c.repo,
			  s->snap.repository);
		return 0;
	}
	return c.pr;
}

int replay_command(struct session *s, bool dry_run)
{
	const struct snap_command *cmd = s->snap.command;
	struct review_input in = {0};
	int64_t pr = 0;

	if (cmd->name != SNAP_CMD_LOCAL && !(pr = replay_pr(s, cmd)))
		return -1; /* the stub report, exit 2 */
	switch (cmd->name) {
	case SNAP_CMD_LOCAL:
		replay_local(s, cmd);
		return 0;
	case SNAP_CMD_PLAN: {
		struct engine_plan plan =
		    engine_review_plan(&s->engine, pr, cmd->mode, NULL);

		plan_noop_line(&plan);
		return 0;
	}
	case SNAP_CMD_PUBLISH:
		if (parse_findings(&in, cmd->findings, cmd->findings_len,
				   &s->policy) < 0)
			return -1; /* §3: the stub report, exit 2 */
		/* The line live prints for a PR that does not exist (P65). */
		session_missing_is_usage(s, "publish");
		if (cmd->dry_run || dry_run) {
			s->dry_run = true;
			s->report.dry_run = true;
		}
		engine_publish(&s->engine, pr, &in, s->dry_run, NULL);
		review_input_release(&in);
		return 0;
	}
	return 0;
}
