/*
 * cmd_gate.c - `gate --pr N`: decide PR N now and approve, withhold or dismiss
 * (BEHAVIOR §5, §6).
 */

#include "cmd/commands.h"
#include "cmd/session.h"

int cmd_gate(int argc, char **argv)
{
	struct cli c = {.command = "gate"};
	struct session s;
	int code;

	if (session_start(&s, &c, argc, argv, OPT_PR, &code) < 0)
		return code;
	session_missing_is_usage(&s, c.command);
	engine_gate(&s.engine, c.pr);
	return session_close(&s, c.json);
}
