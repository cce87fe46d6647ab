/*
 * cmd_run.c - the acting commands: `run` (act on the workflow's event),
 * `apply --pr N --comment ID`, `gate --pr N` and `sweep`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "cmd/commands.h"
#include "formats/event.h"
#include "cmd/log.h"
#include "cmd/session.h"

/* Parse, handle --help, open the session; `required` options must be
 * given. -1: done, *code is the exit. */
static int start(struct session *s, struct cli *c, int argc, char **argv,
		 unsigned required, int *code)
{
	bool malformed;

	if (cli_parse(c, argc, argv, command_options(c->command), 0) < 0) {
		*code = EXIT_USAGE;
		return -1;
	}
	if (c->help) {
		usage_command(c->command);
		*code = EXIT_OK;
		return -1;
	}
	log_set_quiet(c->quiet);
	if ((required & OPT_PR) && !c->pr) {
		log_error("%s: --pr N is required", c->command);
		*code = EXIT_USAGE;
		return -1;
	}
	if ((required & OPT_COMMENT) && !c->comment) {
		log_error("%s: --comment ID is required", c->command);
		*code = EXIT_USAGE;
		return -1;
	}
	if (session_open(s, c, NULL, &malformed) != EXIT_OK) {
		*code = EXIT_USAGE;
		return -1;
	}
	return 0;
}

/* The workflow's event payload ($GITHUB_EVENT_PATH). */
static int read_event(struct buf *out, const char *path)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = file_read(out, path, &err);

	if (error < 0)
		log_error("run: GITHUB_EVENT_PATH '%s': %s", path, err.ptr);
	buf_release(&err);
	return error < 0 ? -1 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct cli c = {.command = "run"};
	struct buf payload = BUF_INIT(EVENT_MAX_BYTES);
	struct session s;
	int code;

	if (start(&s, &c, argc, argv, 0, &code) < 0)
		return code;
	if (s.offline) {
		session_run_event(&s, s.snap.event_name, s.snap.event_payload,
				  strlen(s.snap.event_payload));
	} else if (!s.env.event_name) {
		report_note(&s.report, NOTE_ERROR,
			    "run: GITHUB_EVENT_NAME is not set");
		report_exit(&s.report, EXIT_USAGE);
	} else if (!s.env.event_path) {
		report_note(&s.report, NOTE_ERROR,
			    "run: GITHUB_EVENT_PATH is not set (the file of the "
			    "event's payload)");
		report_exit(&s.report, EXIT_USAGE);
	} else if (read_event(&payload, s.env.event_path) < 0) {
		report_exit(&s.report, EXIT_USAGE);
	} else {
		session_run_event(&s, s.env.event_name, payload.ptr,
				  payload.len);
	}
	buf_release(&payload);
	return session_close(&s, c.json);
}

/*
 * An explicit `gate --pr N` or `apply --comment ID` names what it acts on:
 * a PR or comment that does not exist is a usage error (exit 2), as for
 * record and status. Events keep their skip (the engine's), so this is
 * decided here, on the steps of this run.
 */
static void missing_is_usage(struct session *s, const char *command)
{
	struct report_step *st;
	size_t i;

	for (i = 0; i < s->report.nsteps; i++) {
		st = &s->report.steps[i];
		if (strcmp(st->outcome, "skipped") != 0 || !st->nreasons ||
		    (!strstr(st->reasons[0], " not found") &&
		     !strstr(st->reasons[0], " is not a comment of PR ")))
			continue;
		st->outcome = "error";
		st->exit = EXIT_USAGE;
		report_note(&s->report, NOTE_ERROR, "%s: %s", command,
			    st->reasons[0]);
		report_exit(&s->report, EXIT_USAGE);
	}
}

int cmd_apply(int argc, char **argv)
{
	struct cli c = {.command = "apply"};
	struct session s;
	int code;

	if (start(&s, &c, argc, argv, OPT_PR | OPT_COMMENT, &code) < 0)
		return code;
	engine_apply_id(&s.engine, c.pr, c.comment);
	missing_is_usage(&s, c.command);
	return session_close(&s, c.json);
}

int cmd_gate(int argc, char **argv)
{
	struct cli c = {.command = "gate"};
	struct session s;
	int code;

	if (start(&s, &c, argc, argv, OPT_PR, &code) < 0)
		return code;
	engine_gate(&s.engine, c.pr);
	missing_is_usage(&s, c.command);
	return session_close(&s, c.json);
}

int cmd_sweep(int argc, char **argv)
{
	struct cli c = {.command = "sweep"};
	struct session s;
	char *repos = NULL, *p, *next;
	size_t first = 0, i;
	int code;

	if (start(&s, &c, argc, argv, 0, &code) < 0)
		return code;
	s.sweep = true;
	if (!c.repos) {
		engine_sweep(&s.engine);
		return session_close(&s, c.json);
	}
	/* --repos A/B,C/D: one run, one report; steps name their repository. */
	repos = xstrdup(c.repos);
	for (p = repos; p && *p && !s.engine.stop; p = next) {
		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		if (!*p)
			continue;
		if (session_switch_repo(&s, p) != EXIT_OK) {
			report_exit(&s.report, EXIT_USAGE);
			break;
		}
		first = s.report.nsteps;
		engine_sweep(&s.engine);
		for (i = first; i < s.report.nsteps; i++)
			s.report.steps[i].repository = xstrdup(p);
	}
	code = session_close(&s, c.json);
	free(repos);
	return code;
}
