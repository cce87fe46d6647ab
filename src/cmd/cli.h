/*
 * cli.h - command-line options shared by the commands (SNAPSHOT.md §1).
 */
#ifndef AA_CLI_H
#define AA_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Options a command accepts (bits). */
#define OPT_REPO (1u << 0)
#define OPT_DRY_RUN (1u << 1)
#define OPT_JSON (1u << 2)
#define OPT_SNAPSHOT (1u << 3)
#define OPT_PR (1u << 4)
#define OPT_COMMENT (1u << 5)
#define OPT_OUT (1u << 6)
#define OPT_ALL (1u << 7)
#define OPT_WATCH (1u << 8)
#define OPT_QUIET (1u << 9)
#define OPT_INTERVAL (1u << 10)
#define OPT_COUNT (1u << 11)
#define OPT_STALL_AFTER (1u << 12)
#define OPT_PENDING_AFTER (1u << 13)
#define OPT_STATE (1u << 14)
#define OPT_REPOS (1u << 15)
/* pr-review (PUBLISH §2) */
#define OPT_PR_REF (1u << 16)   /* --pr N, OWNER/NAME#N or its URL */
#define OPT_MODE (1u << 17)
#define OPT_FINDINGS (1u << 18)
#define OPT_ENVIRONMENT (1u << 19) /* doctor */

struct cli {
	const char *command;
	const char *repo;
	bool dry_run;
	bool json;
	const char *snapshot; /* offline: act on a snapshot, not GitHub */
	int64_t pr;
	int64_t comment;
	const char *out;
	bool all;
	bool watch;
	bool quiet;
	int64_t interval;     /* --watch poll interval, seconds */
	int64_t count;        /* --watch: stop after this many polls */
	int64_t stall_after;  /* --watch: seconds without a new stamp */
	int64_t pending_after; /* --watch: seconds a stamp may stay pending */
	const char *state;    /* --state FILE: the sweep's change detection */
	const char *repos;    /* --repos A/B,C/D: sweep several repositories */
	const char *mode;     /* --mode auto|full|incremental (review-plan) */
	const char *findings; /* --findings FILE|- (publish, review-local) */
	const char *environment; /* --environment NAME (doctor) */
	char pr_repo[256];    /* --pr OWNER/NAME#N or URL: its repository */
	/* --pr as a GitLab merge request (G1): the reference, read again
	 * with gitlab_host when the session opens; NULL on GitHub. */
	const char *gitlab_pr;
	bool stub_printed;    /* session_start: the stub report is out */
	const char *arg;      /* the one positional argument, if any */
	bool help;
};

/*
 * Parse argv (after the command name). Options outside `allowed` and more
 * than `max_args` positional arguments are usage errors: returns -1 after
 * printing one line; 0 otherwise.
 */
int cli_parse(struct cli *c, int argc, char **argv, unsigned allowed,
	      int max_args);

/*
 * Every command's preamble: parse argv with the command's own options
 * (commands.c) and at most `max_args` positional arguments, and answer
 * --help. Returns 0 to go on; -1 when the command is over, with *code its
 * exit code: EXIT_USAGE after one line, EXIT_OK after the help.
 */
int cli_start(struct cli *c, int argc, char **argv, int max_args, int *code);

/*
 * A PR as --pr takes it (PUBLISH §2, B7: N, OWNER/NAME#N or a PR URL) into
 * c->pr, and c->repo/c->pr_repo when it names a repository. Returns -1
 * after printing one line (a GitLab merge request names GitLab); 0.
 */
int cli_pr_ref(struct cli *c, const char *opt, const char *v);

/* A GitLab snapshot's command.pr (G1, G2, B7; cli_gitlab.c): the IID, or
 * 0 after printing one line (exit 2). */
struct snapshot;
struct snap_command;
int64_t cli_gitlab_replay_pr(const struct snapshot *s,
                             const struct snap_command *cmd);
/* A GitLab reference `pr_ref` on GitLab snapshot s (the snapshot's host
 * as gitlab_host, its project): the IID, or 0 after one line naming
 * `what`. */
int64_t cli_gitlab_snapshot_pr(const struct snapshot *s, const char *what,
                               const char *pr_ref);
/* --pr: 1 when v is a GitLab reference (c->gitlab_pr and c->pr set), 0
 * when it is GitHub's to read, -1 after one line (exit 2). */
int cli_gitlab_pr(struct cli *c, const char *opt, const char *v);

/* The options in `allowed`, one a line with their help, or only their
 * names (--list-options); --help last. */
void cli_print_options(FILE *f, unsigned allowed, bool names_only);

#endif
