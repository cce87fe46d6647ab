/*
 * cmd_apply.c - `apply --pr N --comment ID`: read comment ID of PR N and apply its
 * verdict (BEHAVIOR §3), as the issue_comment event would.
 */

#include "cmd/commands.h"
#include "cmd/session.h"

int cmd_apply(int argc, char **argv)
{
	struct cli c = {.command = "apply"};
	struct session s;
	int code;

	if (session_start(&s, &c, argc, argv, OPT_PR | OPT_COMMENT, &code) < 0)
		return code;
	session_missing_is_usage(&s, c.command);
	engine_apply_id(&s.engine, c.pr, c.comment);
	return session_close(&s, c.json);
}
