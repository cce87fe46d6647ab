/*
 * event.c - a run from its webhook event (BEHAVIOR §5.1): which flow runs
 * on which PR.
 */
#include "run/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/stamp.h"

bool engine_dispatch_pr(const char *input, int64_t *pr)
{
	size_t n = input ? strlen(input) : 0;

	return n >= 1 && n <= 9 && parse_decimal(pr, input, n, 999999999) == 0 &&
	       *pr >= 1;
}

static bool pull_action_gates(const char *action)
{
	static const char *const actions[] = {"labeled", "unlabeled",
					      "synchronize", "reopened",
					      "edited"};
	size_t i;

	for (i = 0; action && i < ARRAY_SIZE(actions); i++)
		if (strcmp(action, actions[i]) == 0)
			return true;
	return false;
}

/* A status event: which PR does it concern (§5.1)? */
static void run_status(struct engine *e, const struct event *ev)
{
	struct gh_pull_brief *list = NULL;
	int64_t pr = stamp_desc_pr(ev->description), match = 0;
	size_t n = 0, i, matches = 0;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	int error;

	if (strcmp(ev->context, e->policy->clean_context) != 0) {
		report_note(e->report, NOTE_NOTICE,
			    "status of context '%s': nothing to do", ev->context);
		return;
	}
	if (pr) {
		error = e->gh->ops->pull(e->gh, pr, PART_PULL, &g, &err);
		if (error == AA_OK && !(g.ok & PART_PULL)) {
			/* Unknown state: let the gate read again and fail
			 * closed on its own. */
			gh_pull_release(&g);
			buf_release(&err);
			engine_gate(e, pr);
			return;
		}
		if (error == AA_OK && snap_pull_is_open(&g.pull)) {
			gh_pull_release(&g);
			buf_release(&err);
			engine_gate(e, pr);
			return;
		}
		if (error == AA_OK)
			gh_pull_release(&g);
	}
	if (e->gh->ops->open_pulls(e->gh, LISTING_PLAIN, &list, &n, &err) < 0) {
		report_note(e->report, NOTE_ERROR,
		            "cannot list the open pull requests: %s", err.ptr);
		report_merge_exit(e->report, EXIT_API);
		gh_briefs_free(list, n);
		buf_release(&err);
		return;
	}
	buf_release(&err);
	for (i = 0; i < n; i++)
		if (strcmp(list[i].head_sha, ev->sha) == 0) {
			matches++;
			match = list[i].number;
		}
	gh_briefs_free(list, n);
	if (matches == 1)
		engine_gate(e, match);
	else
		report_note(e->report, NOTE_NOTICE,
			    "status on %s matches %zu open PRs: nothing to do",
			    ev->sha, matches);
}

void engine_run(struct engine *e, const struct event *ev)
{
	int64_t pr = 0;

	if (e->stop)
		return;
	switch (ev->kind) {
	case EV_ISSUE_COMMENT:
		if (!ev->on_pull) {
			report_note(e->report, NOTE_NOTICE,
				    "comment on issue #%lld, not a pull request: "
				    "nothing to do", (long long)ev->pr);
			return;
		}
		if (strcmp(ev->action, "created") == 0)
			engine_apply(e, ev->pr, &ev->comment, false);
		engine_gate(e, ev->pr);
		return;
	case EV_PULL_REQUEST:
		if (!pull_action_gates(ev->action)) {
			report_note(e->report, NOTE_NOTICE,
				    "pull request action '%s' on #%lld: nothing "
				    "to do", ev->action, (long long)ev->pr);
			return;
		}
		engine_gate(e, ev->pr);
		return;
	case EV_DISPATCH:
		if (!engine_dispatch_pr(ev->dispatch_pr, &pr)) {
			report_note(e->report, NOTE_ERROR,
				    "workflow_dispatch input pr '%s' is not a "
				    "PR number", ev->dispatch_pr ? ev->dispatch_pr
								 : "");
			report_merge_exit(e->report, EXIT_USAGE);
			return;
		}
		engine_gate(e, pr);
		return;
	case EV_STATUS:
		run_status(e, ev);
		return;
	case EV_SCHEDULE:
		engine_sweep(e);
		return;
	case EV_OTHER:
		report_note(e->report, NOTE_NOTICE,
			    "event '%s': nothing to do", ev->name);
		return;
	}
}

