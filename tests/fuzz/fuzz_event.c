/*
 * fuzz_event.c - webhook payload decoding. The first byte picks the event
 * name; the rest is the payload.
 */
#include "formats/event.h"
#include "fuzz.h"

static const char *const names[] = {"issue_comment", "status",
				    "pull_request", "pull_request_target",
				    "workflow_dispatch", "schedule", "push"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct event ev;
	const char *name;

	if (size < 1)
		return 0;
	name = names[data[0] % (sizeof(names) / sizeof(names[0]))];
	if (event_decode(&ev, name, (const char *)data + 1, size - 1, &err) ==
	    0) {
		if (ev.kind == EV_ISSUE_COMMENT)
			FUZZ_ASSERT(ev.pr > 0);
		if (ev.has_comment)
			FUZZ_ASSERT(ev.comment.body != NULL);
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	event_release(&ev);
	buf_release(&err);
	return 0;
}
