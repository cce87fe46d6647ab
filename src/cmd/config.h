/*
 * config.h - the environment, read once (STYLE: environment is an input),
 * and the validation of what names the server (A8).
 *
 * GitHub Actions' variables select the server, repository and event; each
 * policy key comes from the action input INPUT_<KEY> (hyphens or
 * underscores) or AGENTIC_<KEY>, which must agree when several are set
 * (config.c says the order); AGENTIC_* also tunes the HTTP client. Tokens
 * are only referenced here, never copied into messages.
 */
#ifndef AA_CONFIG_H
#define AA_CONFIG_H

#include <stdbool.h>

#include "base/buf.h"
#include "github/live.h"
#include "core/policy.h"

struct env_config {
	const char *repository;   /* GITHUB_REPOSITORY */
	const char *event_name;   /* GITHUB_EVENT_NAME */
	const char *event_path;   /* GITHUB_EVENT_PATH */
	const char *api_url;      /* GITHUB_API_URL (default api.github.com) */
	char *graphql_url;        /* GITHUB_GRAPHQL_URL (default derived) */
	const char *token;        /* AGENTIC_TOKEN, else GITHUB_TOKEN */
	const char *read_token;   /* AGENTIC_READ_TOKEN (optional) */
	bool actions;             /* GITHUB_ACTIONS=true */
	const char *step_summary; /* GITHUB_STEP_SUMMARY */
	const char *runner_environment; /* RUNNER_ENVIRONMENT (doctor) */
	const char *output;       /* GITHUB_OUTPUT */
	const char *server_url;   /* GITHUB_SERVER_URL: links in the summary */
	const char *action_repo;  /* GITHUB_ACTION_REPOSITORY: rule links */
	const char *action_ref;   /* GITHUB_ACTION_REF */
	const char *ca_file;      /* SSL_CERT_FILE */
	const char *ca_path;      /* SSL_CERT_DIR (default /etc/ssl/certs) */
	long timeout_s;           /* AGENTIC_HTTP_TIMEOUT (30) */
	long connect_timeout_s;   /* AGENTIC_CONNECT_TIMEOUT (10) */
	long retries;             /* AGENTIC_RETRIES (3) */
	long retry_base_ms;       /* AGENTIC_RETRY_BASE_MS (1000) */
	long max_wait_s;          /* AGENTIC_MAX_WAIT (60) */
	bool h2c;                 /* AGENTIC_HTTP2_PRIOR_KNOWLEDGE */
	long write_interval_ms;   /* AGENTIC_WRITE_INTERVAL_MS (1000) */
	const char *sweep_state;  /* AGENTIC_SWEEP_STATE: change detection */
	long sweep_state_ttl_s;   /* AGENTIC_SWEEP_STATE_TTL (3600) */
	bool stats;               /* AGENTIC_STATS: print what the run cost */
	bool stats_trace;         /* AGENTIC_STATS=trace: and every port call */
	/* AGENTIC_REPLAY_STATE=FILE (replay, the torture suite): the
	 * snapshot after the run's writes. */
	const char *replay_state;
	/* GitHub App mode (input app-id, …): see github/live.h. */
	const char *app_id;       /* AGENTIC_APP_ID */
	struct buf app_key;       /* AGENTIC_APP_PRIVATE_KEY[_FILE]: secret */
	int64_t app_installation; /* AGENTIC_APP_INSTALLATION_ID */
	/* GitLab (docs/rules/gitlab.md G2, G3): */
	const char *gitlab_host;    /* gitlab_host: HOST[:PORT] */
	const char *gitlab_api_url; /* gitlab_api_url: the REST base */
	const char *gitlab_token;   /* gitlab_token, else GITLAB_TOKEN */
};

/*
 * Read the environment into `e` and each policy key into `p`. Returns 0,
 * or AA_EUSAGE with one line in err naming the variable (both variables
 * when two that set the same thing disagree). `e` must be released either
 * way.
 */
int env_load(struct env_config *e, struct policy *p, struct buf *err);
/* Only AGENTIC_STATS and AGENTIC_REPLAY_STATE: all an offline run
 * (replay) reads of the environment. */
void env_load_stats(struct env_config *e);
void env_release(struct env_config *e);

/*
 * A8: is `name` a repository name (OWNER/NAME, each part 1-39 / 1-100 of
 * A-Z a-z 0-9 - _ ., neither part "." or "..")? 0, or AA_EUSAGE with one
 * line in err naming `source` (the option or variable it came from).
 */
int config_check_repository(const char *name, const char *source,
			    struct buf *err);
/*
 * A8: may the token be sent to this API URL? https://, or http:// only to
 * a loopback host (127.0.0.0/8 as four decimal octets, localhost, [::1]);
 * the authority must be a plain HOST[:PORT] (no user info). 0, or
 * AA_EUSAGE with one line in err naming `source`.
 */
int config_check_api_url(const char *url, const char *source, struct buf *err);

/* The live port's configuration from the environment (and --repo). */
void env_live_config(const struct env_config *e, const char *repository,
		     struct live_config *out);

#endif
