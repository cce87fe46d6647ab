/*
 * session.h - what every acting command shares: configuration, the port
 * (a snapshot in memory, or live GitHub), the report, and printing it.
 */
#ifndef AA_SESSION_H
#define AA_SESSION_H

#include <stdbool.h>

#include "cmd/cli.h"
#include "cmd/config.h"
#include "run/engine.h"
#include "port/port.h"
#include "core/policy.h"
#include "formats/report.h"
#include "core/model.h"
#include "formats/sweepstate.h"

struct session {
	struct snapshot snap;
	bool offline;         /* acting on a snapshot */
	struct policy policy;
	struct github *gh;
	struct report report;
	struct engine engine;
	const char *repository;
	struct env_config env; /* live sessions only */
	bool sweep;            /* the run is a sweep (for the outputs) */
	bool dry_run;
	bool quiet;            /* no summary on stderr, errors and warnings only */
	struct sweep_state state; /* change detection (with --state) */
	char *state_path;
	char *repo_owned;      /* the first of --repos, when no other */
	char *gitlab_web;      /* a live GitLab session: https://HOST */
	struct buf trace;      /* replay's calls, with AGENTIC_STATS=trace */
	char policy_digest[SWEEPSTATE_DIGEST];
};

/*
 * Open a session for command `c`: offline on c->snapshot (or `snapshot`
 * when given), else live on GitHub as the environment says. On a usage or
 * configuration error prints one line and returns EXIT_USAGE; `malformed`
 * tells a bad snapshot apart.
 */
int session_open(struct session *s, const struct cli *c, const char *snapshot,
		 bool *malformed);
/* open_live's GitLab half (session_gitlab.c): the port for c->gitlab_pr
 * (G1-G3). 0, or AA_EUSAGE with one line in err. */
struct live_config;
int session_open_gitlab(struct session *s, const struct cli *c,
			struct live_config *lc, struct buf *err);
/* Decode the event `name` with its JSON payload and act on it; a payload
 * that does not decode is a usage error recorded in the report. */
void session_run_event(struct session *s, const char *name,
		       const char *payload, size_t len);
/* Sweep another repository in the same run and report (`sweep --repos`):
 * a live port for it replaces the current one. 0, or EXIT_USAGE. */
int session_switch_repo(struct session *s, const char *repository);

/*
 * The prologue of a command that runs: parse argv with the command's
 * options (cli.h), print --help, check the `required` OPT_* were given,
 * open the session. Returns 0, or -1 when the command is done and *code
 * is its exit.
 */
int session_start(struct session *s, struct cli *c, int argc, char **argv,
		  unsigned required, int *code);

/*
 * An explicit `gate --pr N`, `apply --comment ID` or `publish --pr N`
 * names what it acts on: a PR or comment that does not exist is a usage
 * error (exit 2), as for record and status. Events keep their skip, so the
 * command says so before it runs its flow (engine.missing_command), and
 * the flow records the step that way once.
 */
void session_missing_is_usage(struct session *s, const char *command);

/* Append markdown to the step summary of a live run in Actions (a no-op
 * otherwise). */
void session_append_summary(struct session *s, const struct buf *md);

/* Release everything a session holds (without printing). */
void session_release(struct session *s);
/* Print notes, the summary and (when `json`) the report; returns the exit
 * code. Releases everything. */
int session_close(struct session *s, bool json);

#endif
