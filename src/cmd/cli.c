/*
 * cli.c - option parsing without getopt's global state: every option has a
 * long form, values are validated here, and an option a command does not
 * take is an error rather than silently ignored.
 */
#include "cmd/cli.h"

#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/config.h"
#include "cmd/log.h"
#include "base/util.h"

struct option_def {
	const char *name;
	unsigned bit;
	const char *value; /* NULL: a flag */
	const char *help;
};

/* Every option of every command; each command takes the subset its mask in
 * commands.c names, and its --help is printed from this table. */
static const struct option_def options[] = {
	{"--repo", OPT_REPO, "OWNER/NAME",
	 "the repository (default $GITHUB_REPOSITORY)"},
	{"--dry-run", OPT_DRY_RUN, NULL,
	 "compute everything, write nothing (planned writes are reported)"},
	{"--json", OPT_JSON, NULL, "print the report on stdout"},
	{"--snapshot", OPT_SNAPSHOT, "FILE",
	 "act on a snapshot instead of GitHub (offline)"},
	{"--pr", OPT_PR, "N", "the pull request"},
	{"--pr", OPT_PR_REF, "PR",
	 "the pull request: N, OWNER/NAME#N or its https URL"},
	{"--mode", OPT_MODE, "MODE",
	 "auto (default), full or incremental"},
	{"--findings", OPT_FINDINGS, "FILE",
	 "the findings JSON (- for stdin)"},
	{"--comment", OPT_COMMENT, "ID", "the verdict comment to re-read"},
	{"--out", OPT_OUT, "FILE", "where to write (- for stdout)"},
	{"--all", OPT_ALL, NULL, "every open pull request"},
	{"--watch", OPT_WATCH, NULL, "poll and print changes only"},
	{"--quiet", OPT_QUIET, NULL,
	 "only errors and warnings on stderr, no summary"},
	{"--interval", OPT_INTERVAL, "S",
	 "with --watch: seconds between polls (default 120)"},
	{"--count", OPT_COUNT, "N", "with --watch: stop after N polls"},
	{"--stall-after", OPT_STALL_AFTER, "S",
	 "with --watch: stall line after S s without a new stamp (900)"},
	{"--pending-after", OPT_PENDING_AFTER, "S",
	 "with --watch: stall line for a stamp pending S s (2400)"},
	{"--state", OPT_STATE, "FILE",
	 "the sweep's change detection (skip PRs unchanged since)"},
	{"--repos", OPT_REPOS, "A/B,C/D",
	 "sweep several repositories in one run"},
	{"--environment", OPT_ENVIRONMENT, "NAME",
	 "the environment that holds the token (default agentic)"},
};

void cli_print_options(FILE *f, unsigned allowed, bool names_only)
{
	size_t k;
	int w;

	for (k = 0; k < ARRAY_SIZE(options); k++) {
		if (!(allowed & options[k].bit))
			continue;
		if (names_only) {
			fprintf(f, "%s\n", options[k].name);
			continue;
		}
		/* "--name VALUE" padded to 22 columns, then the help line. */
		w = fprintf(f, "  %s%s%s", options[k].name,
			    options[k].value ? " " : "",
			    options[k].value ? options[k].value : "");
		fprintf(f, "%*s %s\n", w < 24 ? 24 - w : 0, "", options[k].help);
	}
	if (names_only)
		fprintf(f, "--help\n");
	else
		fprintf(f, "  %-22s %s\n", "--help", "this text");
}

static int number(const struct cli *c, int64_t *out, const char *opt,
		  const char *v, int64_t max)
{
	if (!v || parse_decimal(out, v, strlen(v), max) < 0 || *out < 1) {
		log_error("%s: %s: '%s' is not a number from 1 to %lld",
			  c->command, opt, v, (long long)max);
		return -1;
	}
	return 0;
}

/* A8: one repository (--repo) or a comma-separated list of them
 * (--repos; empty entries are skipped, at least one is needed). */
static int repositories(const char *opt, const char *v, bool list)
{
	struct buf one = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	size_t n, count = 0;
	int error = 0;

	while (v && *v && !error) {
		n = list ? strcspn(v, ",") : strlen(v);
		buf_reset(&one);
		buf_add(&one, v, n);
		v += n;
		if (*v)
			v++;
		if (!one.len)
			continue;
		count++;
		if (config_check_repository(one.ptr, opt, &err) < 0) {
			log_error("%s", err.ptr);
			error = -1;
		}
	}
	if (!error && !count) {
		log_error("%s: no repository given", opt);
		error = -1;
	}
	buf_release(&one);
	buf_release(&err);
	return error;
}

/*
 * PUBLISH §2: N, OWNER/NAME#N or https://HOST/OWNER/NAME/pull/N (the last
 * two name the repository too). A GitLab merge request is refused.
 */
static int pr_ref(struct cli *c, const char *opt, const char *v)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const char *hash, *num = v, *repo = NULL;
	size_t rlen = 0;
	int error = 0;

	if (!v)
		return -1; /* cli_parse gives every valued option a value */
	if ((error = cli_gitlab_pr(c, opt, v)) != 0)
		return error < 0 ? -1 : 0;
	hash = strrchr(v, '#');

	if (strncmp(v, "https://", 8) == 0) {
		const char *path = strchr(v + 8, '/'), *pull;

		if (path && strstr(path, "/-/merge_requests/")) {
			log_error("%s: %s: GitLab merge requests are not "
				  "supported (PUBLISH §10)", c->command, opt);
			return -1;
		}
		pull = path ? strstr(path, "/pull/") : NULL;
		if (!pull) {
			log_error("%s: %s: '%s' is not a pull request URL "
				  "(https://HOST/OWNER/NAME/pull/N)",
				  c->command, opt, v);
			return -1;
		}
		repo = path + 1;
		rlen = (size_t)(pull - repo);
		num = pull + 6;
	} else if (hash) {
		repo = v;
		rlen = (size_t)(hash - v);
		num = hash + 1;
	}
	if (repo) {
		if (rlen >= sizeof(c->pr_repo)) {
			log_error("%s: %s: the repository name is too long",
				  c->command, opt);
			return -1;
		}
		memcpy(c->pr_repo, repo, rlen);
		c->pr_repo[rlen] = '\0';
		if (config_check_repository(c->pr_repo, opt, &err) < 0) {
			log_error("%s", err.ptr);
			error = -1;
		}
		c->repo = c->pr_repo;
	}
	buf_release(&err);
	if (error)
		return error;
	return number(c, &c->pr, opt, num, INT32_MAX);
}

int cli_pr_ref(struct cli *c, const char *opt, const char *v)
{
	return pr_ref(c, opt, v);
}

static int set(struct cli *c, const struct option_def *o, const char *v)
{
	switch (o->bit) {
	case OPT_REPO:
		c->repo = v;
		return repositories(o->name, v, false);
	case OPT_DRY_RUN:
		c->dry_run = true;
		return 0;
	case OPT_JSON:
		c->json = true;
		return 0;
	case OPT_SNAPSHOT:
		c->snapshot = v;
		return 0;
	case OPT_PR:
		/* record takes a GitLab reference too (G1, P60). */
		if (v && strcmp(c->command, "record") == 0) {
			int g = cli_gitlab_pr(c, o->name, v);

			if (g)
				return g < 0 ? -1 : 0;
		}
		return number(c, &c->pr, o->name, v, INT32_MAX);
	case OPT_COMMENT:
		return number(c, &c->comment, o->name, v, INT64_MAX / 2);
	case OPT_OUT:
		c->out = v;
		return 0;
	case OPT_ALL:
		c->all = true;
		return 0;
	case OPT_WATCH:
		c->watch = true;
		return 0;
	case OPT_QUIET:
		c->quiet = true;
		return 0;
	case OPT_INTERVAL:
		return number(c, &c->interval, o->name, v, 86400);
	case OPT_STATE:
		c->state = v;
		return 0;
	case OPT_REPOS:
		c->repos = v;
		return repositories(o->name, v, true);
	case OPT_COUNT:
		return number(c, &c->count, o->name, v, INT32_MAX);
	case OPT_STALL_AFTER:
		return number(c, &c->stall_after, o->name, v, (int64_t)7 * 86400);
	case OPT_PENDING_AFTER:
		return number(c, &c->pending_after, o->name, v, (int64_t)7 * 86400);
	case OPT_PR_REF:
		return pr_ref(c, o->name, v);
	case OPT_MODE:
		if (!v || (strcmp(v, "auto") != 0 && strcmp(v, "full") != 0 &&
			   strcmp(v, "incremental") != 0)) {
			log_error("%s: --mode: '%s' is not auto, full or "
				  "incremental", c->command, v);
			return -1;
		}
		c->mode = v;
		return 0;
	case OPT_FINDINGS:
		c->findings = v;
		return 0;
	case OPT_ENVIRONMENT:
		if (!v || !*v || strlen(v) > 255 ||
		    strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			      "0123456789._-") != strlen(v)) {
			log_error("%s: --environment: '%s' is not an environment "
				  "name (letters, digits, '.', '_', '-')",
				  c->command, v ? v : "");
			return -1;
		}
		c->environment = v;
		return 0;
	}
	return -1;
}

/* Options that mean nothing together are refused, not ignored. */
static int combinations(const struct cli *c)
{
	const char *alone = c->interval	     ? "--interval"
			    : c->count	     ? "--count"
			    : c->stall_after   ? "--stall-after"
			    : c->pending_after ? "--pending-after"
					       : NULL;

	if (alone && !c->watch) {
		log_error("%s: %s needs --watch", c->command, alone);
		return -1;
	}
	/* --pr OWNER/NAME#N sets c->repo too: checked against the
	 * snapshot's repository when it loads (session_open). */
	if (c->snapshot && ((c->repo && c->repo != c->pr_repo) || c->repos)) {
		log_error("%s: %s cannot be used with --snapshot (the snapshot "
			  "names its repository)", c->command,
			  c->repo ? "--repo" : "--repos");
		return -1;
	}
	return 0;
}

static size_t find_option(const char *a, size_t len, unsigned allowed)
{
	size_t k, first = ARRAY_SIZE(options);

	for (k = 0; k < ARRAY_SIZE(options); k++) {
		if (strlen(options[k].name) != len ||
		    strncmp(options[k].name, a, len) != 0)
			continue;
		if (allowed & options[k].bit)
			return k;
		if (first == ARRAY_SIZE(options))
			first = k;
	}
	return first;
}

/* The option of this command a mistyped one is a few edits from. */
static const char *nearest_option(const char *a, size_t len, unsigned allowed)
{
	const char *best = NULL;
	char typed[64];
	size_t k, d, bestd = SIZE_MAX;

	if (len >= sizeof(typed))
		return NULL;
	memcpy(typed, a, len);
	typed[len] = '\0';
	for (k = 0; k < ARRAY_SIZE(options); k++) {
		if (!(allowed & options[k].bit))
			continue;
		d = name_distance(typed, options[k].name);
		if (d < bestd) {
			bestd = d;
			best = options[k].name;
		}
	}
	return best && name_near(bestd, best) ? best : NULL;
}

int cli_parse(struct cli *c, int argc, char **argv, unsigned allowed,
	      int max_args)
{
	int i, nargs = 0;
	size_t k;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq, *value = NULL;
		size_t len;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			c->help = true;
			continue;
		}
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (++nargs > max_args) {
				log_error("%s: unexpected argument '%s'",
					  c->command, a);
				return -1;
			}
			c->arg = a;
			continue;
		}
		if (strcmp(a, "--version") == 0) {
			log_error("--version is not an option of %s "
				  "(agentic-apply --version prints the version)",
				  c->command);
			return -1;
		}
		if (strcmp(a, "--") == 0) {
			log_error("%s: '--' is not supported", c->command);
			return -1;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		/* The first entry of that name the command takes; else the
		 * first of that name (for the message). */
		k = find_option(a, len, allowed);
		if (k == ARRAY_SIZE(options)) {
			const char *near = nearest_option(a, len, allowed);

			if (near)
				log_error("%s: unknown option '%.*s' (did you "
				          "mean %s?)",
				          c->command, (int)len, a, near);
			else
				log_error("%s: unknown option '%.*s' "
				          "(agentic-apply help %s lists its "
				          "options)",
				          c->command, (int)len, a, c->command);
			return -1;
		}
		if (!(allowed & options[k].bit)) {
			log_error("%s is not an option of %s (agentic-apply "
				  "help %s lists its options)", options[k].name,
				  c->command, c->command);
			return -1;
		}
		if (options[k].value) {
			if (eq)
				value = eq + 1;
			else if (i + 1 < argc)
				value = argv[++i];
			if (!value || !*value) {
				log_error("%s: %s needs a value", c->command,
					  options[k].name);
				return -1;
			}
		} else if (eq) {
			log_error("%s: %s takes no value", c->command,
				  options[k].name);
			return -1;
		}
		if (set(c, &options[k], value) < 0)
			return -1;
	}
	return combinations(c);
}

int cli_start(struct cli *c, int argc, char **argv, int max_args, int *code)
{
	if (cli_parse(c, argc, argv, command_options(c->command), max_args) <
	    0) {
		*code = EXIT_USAGE;
		return -1;
	}
	if (c->help) {
		usage_command(c->command);
		*code = EXIT_OK;
		return -1;
	}
	return 0;
}
