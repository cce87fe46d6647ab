/*
 * cmd_sweep.c - `sweep [--repos A/B,C/D]`: gate every open PR in the review flow of
 * one repository, or of several in one run and one report (BEHAVIOR §7).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/session.h"

int cmd_sweep(int argc, char **argv)
{
	struct cli c = {.command = "sweep"};
	struct session s;
	char *repos = NULL, *p, *next;
	int code;

	if (session_start(&s, &c, argc, argv, 0, &code) < 0)
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
			report_merge_exit(&s.report, EXIT_USAGE);
			break;
		}
		engine_sweep(&s.engine); /* its steps name their repository */
	}
	code = session_close(&s, c.json);
	free(repos);
	return code;
}
