/*
 * cmd_replay.c - `replay SNAPSHOT`: run `run` against a snapshot, offline,
 * or the snapshot's pr-review `command` (PUBLISH.md §8).
 * Its only stdout is the JSON report; the same snapshot always gives the
 * same bytes.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "formats/event.h"
#include "cmd/log.h"
#include "cmd/session.h"

static int usage_report(void)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	report_usage_json(&out);
	fputs(out.ptr, stdout);
	buf_release(&out);
	return EXIT_USAGE;
}

int cmd_replay(int argc, char **argv)
{
	struct cli c = {.command = "replay"};
	struct session s;
	bool malformed;

	if (cli_parse(&c, argc, argv, command_options(c.command), 1) < 0)
		return usage_report();
	if (c.help) {
		usage_command("replay");
		return EXIT_OK;
	}
	if (!c.arg) {
		log_error("replay: which snapshot? (replay SNAPSHOT.json)");
		return usage_report();
	}
	log_set_quiet(c.quiet);
	if (session_open(&s, &c, c.arg, &malformed) != EXIT_OK)
		return usage_report();
	if (s.snap.command) {
		if (replay_command(&s, c.dry_run) < 0) {
			session_release(&s);
			return usage_report();
		}
	} else {
		session_run_event(&s, s.snap.event_name, s.snap.event_payload,
				  strlen(s.snap.event_payload));
	}
	return session_close(&s, true);
}
