/*
 * cmd_run.c - `run`: act on the workflow's event ($GITHUB_EVENT_NAME and
 * the payload at $GITHUB_EVENT_PATH), or on a snapshot's event.
 */
#include <string.h>

#include "base/file.h"
#include "cmd/commands.h"
#include "formats/event.h"
#include "cmd/log.h"
#include "cmd/session.h"

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

	if (session_start(&s, &c, argc, argv, 0, &code) < 0)
		return code;
	if (s.offline) {
		session_run_event(&s, s.snap.event_name, s.snap.event_payload,
				  strlen(s.snap.event_payload));
	} else if (!s.env.event_name) {
		report_note(&s.report, NOTE_ERROR,
			    "run: GITHUB_EVENT_NAME is not set");
		report_merge_exit(&s.report, EXIT_USAGE);
	} else if (!s.env.event_path) {
		report_note(&s.report, NOTE_ERROR,
			    "run: GITHUB_EVENT_PATH is not set (the file of the "
			    "event's payload)");
		report_merge_exit(&s.report, EXIT_USAGE);
	} else if (read_event(&payload, s.env.event_path) < 0) {
		report_merge_exit(&s.report, EXIT_USAGE);
	} else {
		session_run_event(&s, s.env.event_name, payload.ptr,
				  payload.len);
	}
	buf_release(&payload);
	return session_close(&s, c.json);
}
