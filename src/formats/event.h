/*
 * event.h - the webhook event that starts a run (SNAPSHOT.md §1, BEHAVIOR
 * §5.1), decoded from its JSON payload into the few fields this program
 * reads. Everything in it is untrusted.
 */
#ifndef AA_EVENT_H
#define AA_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "core/model.h"

enum event_kind {
	EV_ISSUE_COMMENT,
	EV_STATUS,
	EV_PULL_REQUEST, /* pull_request and pull_request_target */
	EV_DISPATCH,     /* workflow_dispatch */
	EV_SCHEDULE,
	EV_OTHER
};

struct event {
	enum event_kind kind;
	char *name;
	char *action;             /* may be NULL */
	int64_t pr;               /* issue / pull number, 0 when none */
	bool on_pull;             /* issue_comment: the issue is a PR */
	bool has_comment;
	struct snap_comment comment; /* issue_comment: the comment */
	char sha[SHA_BUF];        /* status */
	char *context;            /* status */
	char *description;        /* status ("" when none) */
	char *dispatch_pr;        /* workflow_dispatch inputs.pr, raw */
};

/* Payloads larger than this are refused (GitHub's are far smaller). */
#define EVENT_MAX_BYTES ((size_t)25 * 1024 * 1024)

/*
 * Decode the payload of event `name`. Fields this program needs must be
 * present and of the right type; AA_EUSAGE with a message otherwise.
 */
int event_decode(struct event *ev, const char *name, const char *payload,
		 size_t len, struct buf *err);
void event_release(struct event *ev);

#endif
