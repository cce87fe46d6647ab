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
#include "formats/snapshot.h"

/* AGENTIC_REPLAY_STATE: the snapshot as the run's writes left it (what
 * fakehub would now serve), so tests can check the end state itself. */
static void write_state(const struct snapshot *snap, const char *path)
{
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	FILE *f = fopen(path, "w");
	bool failed;

	if (!f) {
		log_error("replay: cannot write '%s'", path);
		return;
	}
	failed = snapshot_to_json(snap, &out) < 0 || fputs(out.ptr, f) == EOF;
	if (fclose(f) != 0 || failed)
		log_error("replay: cannot write '%s'", path);
	buf_release(&out);
}

int cmd_replay(int argc, char **argv)
{
	struct cli c = {.command = "replay"};
	struct session s;
	bool malformed;
	int code;

	if (cli_start(&c, argc, argv, 1, &code) < 0)
		return code == EXIT_USAGE ? usage_exit(true) : code;
	if (!c.arg) {
		log_error("replay: which snapshot? (replay SNAPSHOT.json)");
		return usage_exit(true);
	}
	log_set_quiet(c.quiet);
	if (session_open(&s, &c, c.arg, &malformed) != EXIT_OK)
		return usage_exit(true);
	if (s.snap.command) {
		if (replay_command(&s, c.dry_run) < 0) {
			session_release(&s);
			return usage_exit(true);
		}
	} else {
		session_run_event(&s, s.snap.event_name, s.snap.event_payload,
				  strlen(s.snap.event_payload));
	}
	if (s.env.replay_state)
		write_state(&s.snap, s.env.replay_state);
	return session_close(&s, true);
}
