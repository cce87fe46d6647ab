/*
 * cmd_status.c - `status --pr N [--watch]`: the one-line fingerprint a PR
 * driver waits on (seed 001's monitor): the head, the newest PR-bound
 * stamp, the label, whether the trusted login approved this head, the
 * head's escalation verdict, and the unanswered threads. --watch prints a
 * line only when it changes, plus stall lines when no stamp newer than the
 * round's baseline comes, or a pending stamp outlives its deadline.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "cmd/log.h"
#include "cmd/session.h"
#include "core/stamp.h"
#include "core/verdict.h"

#define STATUS_PARTS                                                       \
	(PART_PULL | PART_LABELS | PART_COMMENTS | PART_TIMELINE |         \
	 PART_THREADS | PART_REVIEWS)
/* Consecutive failed polls before a poll-error line. */
#define STATUS_MAX_FAILS 5

struct fingerprint {
	char head[SHA_BUF];
	int64_t stamp_id;   /* 0: none */
	int64_t stamp_time; /* its created_at */
	bool pending;
};

/* Read the PR and write its fingerprint line into `line`; a failed
 * read's message in err. */
static int fingerprint(struct session *s, int64_t pr, struct fingerprint *fp,
                       struct buf *line, struct buf *err)
{
	const struct snap_status *stamp;
	struct snap_statuses st;
	struct nh_lookup lk;
	struct gh_pull g;
	const char *verdict = "none";
	bool label = false, approved = false;
	size_t i, unanswered = 0;
	int error;

	memset(fp, 0, sizeof(*fp));
	memset(&st, 0, sizeof(st));
	s->gh->ops->refresh(s->gh);
	error = s->gh->ops->pull(s->gh, pr, STATUS_PARTS, &g, err);
	if (error == AA_OK && g.failed) {
		if (g.error)
			buf_setf(err, "%s", g.error);
		error = AA_EAPI;
	}
	if (error == AA_OK &&
	    s->gh->ops->statuses(s->gh, pr, g.pull.head_sha,
	                         STATUS_NEED_CLEAN | STATUS_NEED_IDS, &st,
	                         err) < 0)
		error = AA_EAPI;
	if (error < 0) {
		if (error != AA_ENOTFOUND)
			gh_pull_release(&g);
		return error;
	}
	memcpy(fp->head, g.pull.head_sha, SHA_BUF);
	if ((stamp = stamp_clean(&st, &s->policy, pr))) {
		fp->stamp_id = stamp->id;
		fp->stamp_time = stamp->created_at;
		fp->pending = strcmp(stamp->state, "pending") == 0;
	}
	for (i = 0; i < g.pull.nlabels; i++)
		label |= policy_is_label(&s->policy, g.pull.labels[i]);
	for (i = 0; i < g.pull.nreviews; i++) {
		const struct snap_review *r = &g.pull.reviews[i];

		approved |= strcmp(r->state, "APPROVED") == 0 &&
			    policy_is_trusted(&s->policy, r->author) &&
			    strcmp(r->commit_id, fp->head) == 0;
	}
	for (i = 0; i < g.pull.nthreads; i++)
		unanswered += g.pull.threads[i].comments < 2;
	verdict_lookup(&lk, &g.pull, fp->head, &s->policy);
	if (lk.comment)
		verdict = lk.marker.nh.malformed		 ? "malformed"
			  : lk.marker.nh.value == NH_YES ? "yes"
							 : "no";
	buf_reset(line);
	buf_addf(line, "head=%s stamp=", fp->head);
	if (stamp)
		buf_addf(line, "%lld/%s", (long long)stamp->id, stamp->state);
	else
		buf_adds(line, "none");
	buf_addf(line, " label=%s approved=%s verdict=%s unanswered=%zu",
		 label ? "true" : "false", approved ? "true" : "false", verdict,
		 unanswered);
	snap_statuses_release(&st);
	gh_pull_release(&g);
	return AA_OK;
}

static void say(const char *line)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void sleep_s(int64_t s)
{
	struct timespec ts = {(time_t)s, 0};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The watch loop: the bash monitor of seed 001, as one process. */
static int watch(struct session *s, const struct cli *c, int64_t stall_after,
		 int64_t pending_after)
{
	struct buf line = BUF_INIT(BUF_MAX_SMALL),
	           prev = BUF_INIT(BUF_MAX_SMALL),
	           err = BUF_INIT(BUF_MAX_SMALL);
	struct fingerprint fp;
	char last_head[SHA_BUF] = "";
	int64_t base = -1, max_seen = 0, since = 0, last_stamp = -1;
	int64_t polls = 0, fails = 0, now;
	bool stalled = false, pending_stalled = false;

	for (;;) {
		if (c->interval && polls)
			sleep_s(c->interval);
		polls++;
		/* A6: the deadline bounds one poll (a hung read must not stall
		 * the watch), not the watch, which runs as long as asked. */
		github_set_deadline(s->gh, s->gh->ops->now(s->gh) +
						   s->policy.deadline * 1000);
		if (fingerprint(s, c->pr, &fp, &line, &err) < 0) {
			if (++fails >= STATUS_MAX_FAILS) {
				say("poll-error: state queries failing "
				    "repeatedly");
				fails = 0;
			}
			goto next;
		}
		fails = 0;
		now = clock_wall_ms(); /* real time, whatever port it polls */
		/* The baseline: stamps at or below it belong to an earlier
		 * round; it moves past all seen when the head moves. */
		if (base < 0)
			base = fp.stamp_id;
		if (strcmp(fp.head, last_head) != 0) {
			if (last_head[0])
				base = max_seen;
			memcpy(last_head, fp.head, SHA_BUF);
			since = now;
			stalled = pending_stalled = false;
		}
		if (fp.stamp_id > max_seen)
			max_seen = fp.stamp_id;
		if (fp.stamp_id != last_stamp) {
			last_stamp = fp.stamp_id;
			since = now;
			pending_stalled = false;
		}
		if (fp.stamp_id <= base) {
			if (!stalled && now - since >= stall_after * 1000) {
				say("stall: no stamp newer than the round "
				    "baseline; the review round is likely dead "
				    "(a failed or cancelled conductor run, or "
				    "its token missing): look at the PR's "
				    "workflow runs and report what they show "
				    "rather than pushing again");
				stalled = true;
			}
		} else if (fp.pending && !pending_stalled &&
			   now - fp.stamp_time >= pending_after * 1000) {
			say("stall: pending outlived its deadline; the "
			    "review round is likely dead (a failed or "
			    "cancelled conductor run): look at the PR's "
			    "workflow runs and report what they show rather "
			    "than pushing again");
			pending_stalled = true;
		}
		if (strcmp(line.ptr, prev.ptr) != 0) {
			say(line.ptr);
			buf_setf(&prev, "%s", line.ptr);
		}
next:
		if (c->count && polls >= c->count)
			break;
	}
	buf_release(&line);
	buf_release(&err);
	buf_release(&prev);
	return EXIT_OK;
}

int cmd_status(int argc, char **argv)
{
	struct cli c = {.command = "status"};
	struct buf line = BUF_INIT(BUF_MAX_SMALL),
	           err = BUF_INIT(BUF_MAX_SMALL);
	struct fingerprint fp;
	struct session s;
	bool malformed;
	int code = EXIT_OK, error;

	if (cli_start(&c, argc, argv, 0, &code) < 0)
		return code;
	if (!c.pr) {
		log_error("status: --pr N is required");
		return EXIT_USAGE;
	}
	if (session_open(&s, &c, NULL, &malformed) != EXIT_OK)
		return EXIT_USAGE;
	if (c.watch) {
		if (!c.interval)
			c.interval = 120;
		code = watch(&s, &c, c.stall_after ? c.stall_after : 900,
			     c.pending_after ? c.pending_after : 2400);
	} else if ((error = fingerprint(&s, c.pr, &fp, &line, &err)) < 0) {
		log_error("status: PR #%lld: %s", (long long)c.pr,
		          error == AA_ENOTFOUND ? "not found" : err.ptr);
		code = error == AA_ENOTFOUND || s.gh->no_repo ? EXIT_USAGE
							       : EXIT_API;
	} else {
		say(line.ptr);
	}
	buf_release(&line);
	buf_release(&err);
	session_release(&s);
	return code;
}
