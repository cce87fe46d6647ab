/*
 * session.c - set up a run (read → decide → write happens in engine.c) and
 * print its outcome: notes and the markdown summary on stderr, the JSON
 * report on stdout.
 */
#include "cmd/session.h"

#include "cmd/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "formats/event.h"
#include "core/mr_model.h"
#include "formats/snapshot.h"
#include "github/app.h"
#include "cmd/log.h"

/* A token goes into headers and ::add-mask::, so it must be one line of
 * printable characters. */
static bool token_valid(const char *t)
{
	for (; t && *t; t++)
		if ((unsigned char)*t <= 0x20 || (unsigned char)*t == 0x7f)
			return false;
	return true;
}

/* GitHub Actions: mask every token in the log (stderr carries workflow
 * commands too, and keeps stdout for the report). */
static void mask(const char *token)
{
	if (token)
		fprintf(stderr, "::add-mask::%s\n", token);
}

static int open_live(struct session *s, const struct cli *c, struct buf *err)
{
	struct live_config lc;
	int error;

	s->policy.gitlab = c->gitlab_pr != NULL; /* P62 */
	error = env_load(&s->env, &s->policy, err);
	log_set_actions(s->env.actions); /* its errors are annotations */
	if (error < 0)
		return AA_EUSAGE;
	if (!token_valid(s->env.token) || !token_valid(s->env.read_token)) {
		buf_setf(err, "a token holds whitespace or control characters");
		return AA_EUSAGE;
	}
	if (s->env.actions) {
		mask(s->env.token);
		mask(s->env.read_token);
	}
	if (c->gitlab_pr) { /* G1-G3 */
		env_live_config(&s->env, NULL, &lc);
		return session_open_gitlab(s, c, &lc, err);
	}
	s->repository = c->repo ? c->repo : s->env.repository;
	if (!s->repository && c->repos) {
		s->repo_owned = xstrndup(c->repos, strcspn(c->repos, ","));
		s->repository = s->repo_owned;
	}
	if (!s->repository) {
		buf_setf(err, "which repository? (--repo OWNER/NAME or "
			      "GITHUB_REPOSITORY)");
		return AA_EUSAGE;
	}
	/* cli.c and env_load checked where it came from; this is the name
	 * every request will carry. */
	if (config_check_repository(s->repository, "repository", err) < 0)
		return AA_EUSAGE;
	if (!s->env.token) {
		buf_setf(err, "no token: set AGENTIC_TOKEN or GITHUB_TOKEN");
		return AA_EUSAGE;
	}
	if (s->env.app_id) {
		/* A key that cannot sign is a configuration error (exit 2),
		 * found before any request. */
		struct buf jwt = BUF_INIT(BUF_MAX_SMALL);
		int bad = github_app_jwt(&jwt, s->env.app_id, s->env.app_key.ptr,
					 0, err);

		buf_wipe(&jwt);
		if (bad < 0)
			return AA_EUSAGE;
	}
	env_live_config(&s->env, s->repository, &lc);
	if (s->env.actions)
		lc.mask = mask;
	return github_live_new(&s->gh, &lc, &s->policy, err);
}

static int open_offline(struct session *s, const char *path, unsigned flags,
			bool *malformed, struct buf *err)
{
	struct buf text = BUF_INIT(SNAP_MAX_BYTES);
	int error;

	error = file_read(&text, path, err);
	if (error == AA_OK)
		error = snapshot_from_json_flags(&s->snap, text.ptr, text.len,
						 flags, err);
	buf_release(&text);
	if (error < 0 ||
	    snapshot_apply_config(&s->snap, &s->policy, err) < 0) {
		*malformed = true;
		return AA_EUSAGE;
	}
	s->offline = true;
	env_load_stats(&s->env);
	s->repository = s->snap.repository;
	s->gh = github_world_new(&s->snap, &s->policy);
	buf_init(&s->trace, BUF_MAX_DOC);
	if (s->env.stats_trace)
		github_world_trace(s->gh, &s->trace);
	return AA_OK;
}

/* A progress line on a terminal: PRs done of total, rewritten in place. */
static void progress_line(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	fprintf(stderr, "\ragentic-apply: sweep %zu/%zu PRs%s", done, total,
		done == total ? "\n" : "");
}

/* Point the engine at this repository's entries of the sweep state. */
static void use_state(struct session *s, const char *repository)
{
	struct sweep_repo *r;

	if (!s->state_path)
		return;
	r = sweepstate_repo(&s->state, repository);
	if (strcmp(r->policy, s->policy_digest) != 0) {
		/* Another policy: nothing recorded under it still holds. */
		r->n = 0;
		memcpy(r->policy, s->policy_digest, SWEEPSTATE_DIGEST);
	}
	s->engine.sweep_state = r;
}

/* Load the sweep state file; a missing or unreadable one starts empty. */
static void load_state(struct session *s, const char *path)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	int error;

	s->state_path = xstrdup(path);
	sweepstate_init(&s->state);
	sweepstate_policy_digest(s->policy_digest, &s->policy);
	error = file_read(&text, path, &err);
	if (error == AA_ENOTFOUND)
		goto out; /* the first sweep */
	if (error < 0 ||
	    sweepstate_from_json(&s->state, text.ptr, text.len, &err) < 0)
		log_warning("sweep state '%s': %s; starting afresh", path,
			    err.ptr);
out:
	buf_release(&text);
	buf_release(&err);
}

static void save_state(struct session *s)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), tmp = BUF_INIT(BUF_MAX_SMALL);
	FILE *f;

	if (sweepstate_to_json(&s->state, &text) < 0 ||
	    buf_addf(&tmp, "%s.tmp", s->state_path) < 0) {
		/* A state cut short is never saved: the next sweep only
		 * costs more reads. */
		log_warning("cannot write the sweep state '%s': too large",
			    s->state_path);
		goto out;
	}
	f = fopen(tmp.ptr, "wb");
	if (!f || fwrite(text.ptr, 1, text.len, f) != text.len ||
	    fclose(f) != 0 || rename(tmp.ptr, s->state_path) != 0) {
		if (f)
			(void)remove(tmp.ptr);
		log_warning("cannot write the sweep state '%s'", s->state_path);
	}
out:
	buf_release(&text);
	buf_release(&tmp);
}

/*
 * GitHub App mode: mint the installation token now, and trust the App's
 * own statuses (T3). If that fails nothing can be read: the run reports an
 * API failure (exit 3) and does nothing else.
 */
static void start_app(struct session *s)
{
	struct github *gh = s->gh;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const char *bot = NULL;

	while (gh && github_dryrun_inner(gh))
		gh = github_dryrun_inner(gh);
	if (!gh)
		return;
	if (github_live_app_start(gh, &bot, &err) < 0 || !bot) {
		report_note(
		    &s->report, NOTE_ERROR,
		    "GitHub App authentication failed: %s; nothing read "
		    "or written",
		    err.len ? err.ptr : "unknown error");
		report_merge_exit(&s->report, EXIT_API);
		s->engine.stop = true;
		buf_release(&err);
		return;
	}
	buf_release(&err);
	if (s->policy.app_login && !str_eq_nocase(s->policy.app_login, bot)) {
		/* app_bot names whose writes are the program's own (T3,
		 * A10); in App mode that is this App and nothing else. */
		report_note(&s->report, NOTE_ERROR,
			    "config app_bot is \"%s\", but this GitHub App's "
			    "bot is \"%s\"; nothing read or written",
			    s->policy.app_login, bot);
		report_merge_exit(&s->report, EXIT_USAGE);
		s->engine.stop = true;
		return;
	}
	free(s->policy.app_login);
	s->policy.app_login = xstrdup(bot);
}

int session_open(struct session *s, const struct cli *c, const char *snapshot,
		 bool *malformed)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const char *path = snapshot ? snapshot : c->snapshot;
	int error;

	memset(s, 0, sizeof(*s));
	*malformed = false;
	policy_init(&s->policy);
	if (path)
		error = open_offline(s, path,
				     !snapshot && strcmp(c->command, "run") != 0
					     ? SNAP_EVENT_OPTIONAL
					     : 0,
				     malformed, &err);
	else
		error = open_live(s, c, &err);
	if (!error && path && c->gitlab_pr && !s->snap.gitlab) {
		buf_setf(&err, "--pr names a GitLab merge request, but the "
			       "snapshot is GitHub's");
		error = AA_EUSAGE;
	} else if (!error && path && c->gitlab_pr &&
		   !cli_gitlab_snapshot_pr(&s->snap, "--pr", c->gitlab_pr)) {
		buf_setf(&err, "--pr does not name the snapshot's merge "
			       "request project");
		error = AA_EUSAGE;
	}
	if (!error && path && c->pr_repo[0] &&
	    !str_eq_nocase(c->pr_repo, s->snap.repository)) {
		/* --pr OWNER/NAME#N names the snapshot's repository or none. */
		buf_setf(&err, "--pr names %s, but the snapshot is %s",
			 c->pr_repo, s->snap.repository);
		*malformed = false;
		error = AA_EUSAGE;
	}
	if (error < 0) {
		if (path)
			log_error("snapshot '%s': %s", path, err.ptr);
		else
			log_error("%s: %s", c->command, err.ptr);
		if (!path && c->json) {
			/* --json promises a report: the one of a usage error,
			 * as replay prints for a snapshot that does not load. */
			buf_reset(&err);
			report_usage_json(&err);
			fputs(err.ptr, stdout);
		}
		buf_release(&err);
		github_free(s->gh);
		snapshot_release(&s->snap);
		env_release(&s->env);
		policy_release(&s->policy);
		return EXIT_USAGE;
	}
	s->dry_run = c->dry_run;
	s->quiet = c->quiet;
	if (c->dry_run)
		s->gh = github_dryrun_new(s->gh);
	report_init(&s->report, NULL, c->dry_run);
	s->report.server_url = xstrdup(s->env.server_url && !s->offline
					       ? s->env.server_url
					       : "https://github.com");
	s->report.repository = xstrdup_or_null(s->repository);
	if (s->gitlab_web || s->snap.gitlab) { /* the summary's links (G0) */
		free(s->report.server_url);
		s->report.server_url = s->gitlab_web ? xstrdup(s->gitlab_web)
						     : NULL;
		if (!s->gitlab_web) {
			/* The scheme of the reference, as live (P65). */
			struct buf u = BUF_INIT(BUF_MAX_SMALL);
			const char *ref = c->gitlab_pr ? c->gitlab_pr
			                  : s->snap.command
			                      ? s->snap.command->pr_ref
			                      : NULL;

			buf_addf(&u, "%s://%s",
			         ref && strncmp(ref, "http://", 7) == 0 ? "http"
			                                                : "https",
			         s->snap.gitlab->host);
			s->report.server_url = buf_detach(&u, NULL);
		}
	}
	if (!s->offline && s->env.action_repo && s->env.action_ref &&
	    repo_name_valid(s->env.action_repo) &&
	    ref_name_valid(s->env.action_ref)) {
		/* The action's own docs, at the version that runs. */
		struct buf u = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&u, "%s/%s/blob/%s/docs", s->report.server_url,
			 s->env.action_repo, s->env.action_ref);
		s->report.docs_url = buf_detach(&u, NULL);
	}
	engine_init(&s->engine, s->gh, &s->policy, s->repository, &s->report);
	s->engine.deadline = s->gh->ops->now(s->gh) +
			     s->policy.deadline * 1000;
	s->engine.sweep_deadline = s->policy.sweep_deadline * 1000;
	github_set_deadline(s->gh, s->engine.deadline);
	if (c->state || (!s->offline && s->env.sweep_state)) {
		load_state(s, c->state ? c->state : s->env.sweep_state);
		s->engine.sweep_ttl_ms =
			(s->offline ? 3600 : s->env.sweep_state_ttl_s) * 1000;
		use_state(s, s->repository);
	}
	if (!c->quiet && isatty(STDERR_FILENO))
		s->engine.progress = progress_line;
	if (!s->offline && s->env.app_id)
		start_app(s);
	buf_release(&err);
	return EXIT_OK;
}

void session_run_event(struct session *s, const char *name,
		       const char *payload, size_t len)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct event ev;

	free(s->report.event);
	s->report.event = xstrdup(name);
	if (event_decode(&ev, name, payload, len, &err) < 0) {
		report_note(&s->report, NOTE_ERROR, "event '%s': %s", name,
			    err.ptr);
		report_merge_exit(&s->report, EXIT_USAGE);
	} else {
		engine_run(&s->engine, &ev);
	}
	event_release(&ev);
	buf_release(&err);
}

int session_switch_repo(struct session *s, const char *repository)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct live_config lc;
	struct github *gh = NULL;

	if (s->offline ||
	    config_check_repository(repository, "--repos", &err) < 0) {
		log_error("sweep: %s",
			  err.len ? err.ptr : "--repos needs a live run");
		buf_release(&err);
		return EXIT_USAGE;
	}
	env_live_config(&s->env, repository, &lc);
	if (github_live_new(&gh, &lc, &s->policy, &err) < 0) {
		log_error("sweep: %s", err.ptr);
		buf_release(&err);
		return EXIT_USAGE;
	}
	if (s->dry_run)
		gh = github_dryrun_new(gh);
	github_free(s->gh);
	s->gh = gh;
	s->repository = repository;
	s->engine.gh = gh;
	s->engine.repository = repository;
	s->engine.steps_name_repository = true; /* one report, several */
	use_state(s, repository);
	buf_release(&err);
	return EXIT_OK;
}

void session_release(struct session *s)
{
	engine_release(&s->engine);
	report_release(&s->report);
	github_free(s->gh);
	s->gh = NULL;
	snapshot_release(&s->snap);
	env_release(&s->env);
	policy_release(&s->policy);
	sweepstate_release(&s->state);
	free(s->state_path);
	s->state_path = NULL;
	free(s->repo_owned);
	free(s->gitlab_web);
	s->repo_owned = NULL;
	buf_release(&s->trace);
}

/* Append text to a file GitHub Actions gave us ($GITHUB_OUTPUT, …). */
static void append_file(const char *path, const struct buf *text)
{
	FILE *f = fopen(path, "ab");

	if (!f || fwrite(text->ptr, 1, text->len, f) != text->len) {
		log_warning("cannot write '%s'", path);
		if (f)
			fclose(f);
		return;
	}
	if (fclose(f) != 0)
		log_warning("cannot write '%s'", path);
}

void session_append_summary(struct session *s, const struct buf *md)
{
	if (!s->offline && s->env.step_summary)
		append_file(s->env.step_summary, md);
}

/*
 * Peak resident memory of this program, in KiB. Linux's ru_maxrss carries
 * the parent's size across execve (a forked Node or shell counts), so the
 * address space's own high-water mark is read first.
 */
static long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	struct rusage ru;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "VmHWM:", 6) == 0) {
			const char *p = line + 6;
			int64_t v;
			size_t n;

			while (*p == ' ' || *p == '\t')
				p++;
			n = strspn(p, "0123456789");
			if (parse_decimal(&v, p, n, INT32_MAX) == 0)
				kb = (long)v;
		}
	if (f)
		fclose(f);
	if (kb >= 0)
		return kb;
	memset(&ru, 0, sizeof(ru));
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* AGENTIC_STATS=1: one line of what the run cost, for benchmarks. */
static void print_stats(struct session *s)
{
	struct http_stats st;
	struct buf tally = BUF_INIT(BUF_MAX_SMALL);
	struct github *gh = s->gh;

	while (gh && github_dryrun_inner(gh))
		gh = github_dryrun_inner(gh);
	github_live_stats(gh, &st);
	github_live_tally(gh, &tally);
	fprintf(stderr,
		"agentic-apply: stats: requests=%ld reads=%ld writes=%ld "
		"retries=%ld graphql_points=%lld bytes_in=%lld "
		"peak_rss_kb=%ld graphql_by_query=%s\n",
		st.requests, st.reads, st.writes, st.retries,
		(long long)st.graphql_points, (long long)st.bytes_in,
		peak_rss_kb(), tally.len ? tally.ptr : "-");
	buf_release(&tally);
}

/* A report document that could not be built whole: one line, exit 3 (N60). */
static int document_failed(const char *what)
{
	log_error("%s is larger than %zu bytes (or a part of it was cut "
		  "short): not written", what, (size_t)BUF_MAX_DOC);
	return EXIT_API;
}

int session_close(struct session *s, bool json)
{
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	struct github *gh = s->gh;
	size_t i;
	int code;

	while (gh && github_dryrun_inner(gh))
		gh = github_dryrun_inner(gh);
	if (gh && gh->no_repo) {
		/* A typo in --repo is not a GitHub failure: no retry fixes it. */
		report_note(&s->report, NOTE_ERROR,
			    "a repository was not found: it does not exist, or "
			    "the token cannot see it (check --repo, --repos or "
			    "GITHUB_REPOSITORY)");
		report_merge_exit(&s->report, EXIT_USAGE);
	}
	if (s->state_path && s->dry_run)
		report_note(&s->report, NOTE_NOTICE,
		            "--dry-run: the sweep state '%s' was read, not "
		            "saved",
		            s->state_path);
	for (i = 0; i < s->report.nnotes; i++)
		log_note(s->report.notes[i].level, s->report.notes[i].text);
	s->report.sweep = s->sweep || (s->report.event &&
				       strcmp(s->report.event, "schedule") == 0);
	code = s->report.exit;
	/* Each document is checked once, whole (buf.h): one that could not
	 * be built is not written at all, never cut short (N60). */
	if (report_to_markdown(&s->report, &out) < 0) {
		code = exit_merge(code, document_failed("the summary"));
	} else {
		if (!s->quiet)
			fputs(out.ptr, stderr);
		if (!s->offline && s->env.step_summary)
			append_file(s->env.step_summary, &out);
	}
	if (!s->offline && s->env.output) {
		buf_reset(&out);
		if (report_outputs(&s->report, &out) < 0)
			code = exit_merge(code, document_failed("the outputs"));
		else
			append_file(s->env.output, &out);
	}
	if (json) {
		buf_reset(&out);
		if (report_to_json(&s->report, &out) < 0) {
			code = exit_merge(code, document_failed("the JSON report"));
		} else {
			fputs(out.ptr, stdout);
			fflush(stdout);
		}
	}
	if (s->state_path && !s->dry_run)
		save_state(s);
	if (s->offline && s->env.stats) {
		fputs(s->trace.ptr, stderr);
		fprintf(stderr, "agentic-apply: stats: calls=%lld\n",
			(long long)github_world_calls(gh));
	} else if (!s->offline && s->env.stats) {
		print_stats(s);
	}
	buf_release(&out);
	session_release(s);
	return code;
}

int session_start(struct session *s, struct cli *c, int argc, char **argv,
		 unsigned required, int *code)
{
	bool malformed;

	if (cli_parse(c, argc, argv, command_options(c->command), 0) < 0) {
		*code = EXIT_USAGE;
		return -1;
	}
	if (c->help) {
		usage_command(c->command);
		*code = EXIT_OK;
		return -1;
	}
	log_set_quiet(c->quiet);
	if ((required & OPT_PR) && !c->pr) {
		log_error("%s: --pr N is required", c->command);
		*code = EXIT_USAGE;
		return -1;
	}
	if ((required & OPT_PR_REF) && !c->pr) {
		log_error("%s: --pr PR is required (N, OWNER/NAME#N or its "
			  "URL)", c->command);
		*code = EXIT_USAGE;
		return -1;
	}
	if ((required & OPT_COMMENT) && !c->comment) {
		log_error("%s: --comment ID is required", c->command);
		*code = EXIT_USAGE;
		return -1;
	}
	if (session_open(s, c, NULL, &malformed) != EXIT_OK) {
		/* session_open printed --json's stub report itself. */
		c->stub_printed = c->json && !c->snapshot;
		*code = EXIT_USAGE;
		return -1;
	}
	return 0;
}

void session_missing_is_usage(struct session *s, const char *command)
{
	s->engine.missing_command = command;
}
