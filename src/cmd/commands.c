/*
 * commands.c - the command table and help. Everything a command does
 * lives in its cmd_<verb>.c; this file only picks one.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/log.h"
#include "formats/report.h"

#ifndef AGENTIC_APPLY_VERSION
#define AGENTIC_APPLY_VERSION "unknown"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
	const char *help;
	unsigned opts;	   /* the options it takes (cli.h) */
	const char *exits; /* its exit codes */
};

#define ACT (OPT_REPO | OPT_DRY_RUN | OPT_JSON | OPT_SNAPSHOT | OPT_QUIET)

static const char exit_codes[] =
	"Exit codes:\n"
	"  0  ran to completion (approved, withheld, skipped, nothing to do)\n"
	"  1  a verdict was refused (nothing written by apply)\n"
	"  2  usage or configuration error, or the token is not the trusted "
	"login\n"
	"  3  GitHub API or transport failure: failed closed, nothing "
	"approved\n"
	"When several steps run, the most severe code wins: 2 > 3 > 1 > 0.\n";

static const char exit_read[] =
	"Exit codes:\n"
	"  0  done\n"
	"  2  usage or configuration error, or the PR does not exist\n"
	"  3  GitHub API or transport failure\n";

static const char exit_lint[] =
	"Exit codes:\n"
	"  0  apply and the gate can use the comment\n"
	"  1  not usable: no verdict marker, or malformed\n"
	"  2  usage error, or the file cannot be read\n";

static const char exit_review[] =
	"Exit codes:\n"
	"  0  published, unchanged, nothing to do, skipped (a dry run exits\n"
	"     with the code of the outcome it reports)\n"
	"  1  refused or incomplete because of the content: a rerun does the\n"
	"     same (stale head, superseded, every subagent failed, a thread\n"
	"     dropped or refused by GitHub, a summary too large)\n"
	"  2  usage, configuration, identity, malformed findings: nothing "
	"written\n"
	"  3  GitHub API or transport failure: failed closed\n";

static const char exit_local[] =
	"Exit codes:\n"
	"  0  the JSON was printed (NOOP included)\n"
	"  1  every dispatched subagent failed: nothing to report\n"
	"  2  usage error, or malformed findings\n";

static const char exit_doctor[] =
	"Exit codes:\n"
	"  0  everything needed is in place\n"
	"  1  something needed is missing, or cannot be told from what the\n"
	"     tokens may read (each line says which, and the fix)\n"
	"  2  usage or configuration error, or the repository does not\n"
	"     exist for the token\n";

static const struct command commands[] = {
	{"run", cmd_run,
	 "run [--json] [--dry-run] [--snapshot FILE] [--state FILE]",
	 "Act on the workflow's event ($GITHUB_EVENT_NAME, $GITHUB_EVENT_PATH):\n"
	 "  issue_comment created -> apply, then gate; status, pull_request,\n"
	 "  workflow_dispatch -> gate; schedule -> sweep.",
	 ACT | OPT_STATE, exit_codes},
	{"apply", cmd_apply,
	 "apply --pr N --comment ID [--json] [--dry-run] [--snapshot FILE]",
	 "Re-read comment ID of PR N and apply its verdict (label, status).",
	 ACT | OPT_PR | OPT_COMMENT, exit_codes},
	{"gate", cmd_gate, "gate --pr N [--json] [--dry-run] [--snapshot FILE]",
	 "Decide whether PR N may be approved; approve or dismiss.",
	 ACT | OPT_PR, exit_codes},
	{"sweep", cmd_sweep,
	 "sweep [--json] [--dry-run] [--snapshot FILE | --repos A/B,C/D]\n"
	 "        [--state FILE]",
	 "Gate every open PR of the repository that is in the review flow.",
	 ACT | OPT_STATE | OPT_REPOS, exit_codes},
	{"replay", cmd_replay, "replay SNAPSHOT.json [--dry-run] [--quiet]",
	 "Run `run` against a snapshot, offline (or its `command`:\n"
	 "  publish, review-plan, review-local); print the JSON report.",
	 OPT_DRY_RUN | OPT_JSON | OPT_QUIET, exit_codes},
	{"record", cmd_record,
	 "record (--pr N | --all) --out FILE [--repo OWNER/NAME]\n"
	 "  record --pr GITLAB_MR --out FILE",
	 "Capture live state as a snapshot (read-only): replaying it\n"
	 "  reproduces the live decision (--out - writes to stdout).\n"
	 "  A GitLab merge request (its URL or GROUP/PROJECT!IID) is\n"
	 "  recorded with the command review-plan on it.",
	 OPT_REPO | OPT_PR | OPT_ALL | OPT_OUT | OPT_SNAPSHOT | OPT_QUIET,
	 exit_read},
	{"status", cmd_status,
	 "status --pr N [--watch [--interval S] [--count N] [--stall-after S]\n"
	 "                       [--pending-after S]]",
	 "One line: head, newest PR-bound stamp, label, approved-for-head,\n"
	 "  the head's escalation verdict, unanswered threads. --watch prints\n"
	 "  changes only, and stall lines (no new stamp after --stall-after,\n"
	 "  default 900 s; pending older than --pending-after, default 2400 s).",
	 OPT_REPO | OPT_PR | OPT_SNAPSHOT | OPT_WATCH | OPT_INTERVAL |
		 OPT_COUNT | OPT_STALL_AFTER | OPT_PENDING_AFTER | OPT_QUIET,
	 exit_read},
	{"review-plan", cmd_review_plan,
	 "review-plan --pr PR [--mode auto|full|incremental] [--json]\n"
	 "        [--snapshot FILE]",
	 "Plan the next pr-review iteration of PR (mode, ranges, prior\n"
	 "  findings, the author's replies) and print it as JSON.",
	 OPT_PR_REF | OPT_MODE | OPT_JSON | OPT_SNAPSHOT | OPT_QUIET |
		 OPT_REPO,
	 exit_review},
	{"publish", cmd_publish,
	 "publish --pr PR --findings FILE|- [--dry-run] [--json]\n"
	 "        [--snapshot FILE]",
	 "Publish a pr-review iteration: the summary comment, the inline\n"
	 "  threads and the pr-review status, reconciled with what posted.",
	 OPT_PR_REF | OPT_FINDINGS | OPT_DRY_RUN | OPT_JSON | OPT_SNAPSHOT |
		 OPT_QUIET | OPT_REPO,
	 exit_review},
	{"review-local", cmd_review_local, "review-local --findings FILE|-",
	 "Apply the mechanical merge rules to a local review's findings\n"
	 "  and print its JSON (no network).",
	 OPT_FINDINGS, exit_local},
	{"doctor", cmd_doctor,
	 "doctor [--repo OWNER/NAME] [--environment NAME] [--json]\n"
	 "        [--snapshot FILE]",
	 "Check the repository's setup, reading only: the rules of every\n"
	 "  gated base, the label, CODEOWNERS, unlabelers, the token, the\n"
	 "  environment, the runner; ok / missing / cannot tell, and the fix.",
	 OPT_REPO | OPT_JSON | OPT_SNAPSHOT | OPT_QUIET | OPT_ENVIRONMENT,
	 exit_doctor},
	{"lint", cmd_lint, "lint [FILE|-] [--json]",
	 "Show how the parser reads a verdict comment; exit 0 only when\n"
	 "  apply and the gate can use it.",
	 OPT_JSON, exit_lint},
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: agentic-apply COMMAND [OPTIONS]\n\n"
		   "Decides whether a pull request may be approved by the "
		   "machine account,\nfrom the agentic review's verdict "
		   "comments and statuses.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", commands[i].synopsis);
	fprintf(f, "\nEach command takes its own options: `agentic-apply help "
		   "COMMAND` lists them\nand its exit codes. agentic-apply "
		   "--version prints the version.\n\n%s", exit_codes);
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

unsigned command_options(const char *name)
{
	const struct command *c = find(name);

	return c ? c->opts : 0;
}

void usage_command(const char *name)
{
	const struct command *c = find(name);

	if (!c)
		return;
	printf("usage: agentic-apply %s\n\n  %s\n\nOptions:\n", c->synopsis,
	       c->help);
	cli_print_options(stdout, c->opts, false);
	printf("\n%s", c->exits);
}

int commands_main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {
		if (!find(argv[2])) {
			log_error("help: unknown command '%s' (agentic-apply "
				  "--help lists them)", argv[2]);
			return EXIT_USAGE;
		}
		usage_command(argv[2]);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("agentic-apply %s\n", AGENTIC_APPLY_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i].name, argv[1]) != 0)
			continue;
		/* Hidden: the parser's options, for tests/options.sh. */
		if (argc == 3 && strcmp(argv[2], "--list-options") == 0) {
			cli_print_options(stdout, commands[i].opts, true);
			return EXIT_OK;
		}
		return commands[i].fn(argc - 2, argv + 2);
	}
	log_error("unknown command '%s' (agentic-apply --help lists them)",
		  argv[1]);
	return EXIT_USAGE;
}

int usage_exit(bool json)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	if (json) {
		report_usage_json(&out);
		fputs(out.ptr, stdout);
	}
	buf_release(&out);
	return EXIT_USAGE;
}
