/*
 * config.c - read the environment once into a struct; nothing below the
 * command layer calls getenv. The one place that validates what the
 * environment and the command line name: repositories and API URLs (A8).
 *
 * Where a setting comes from. A setting has up to three names, looked at
 * in this order: the action input as the runner names it
 * (INPUT_TRUSTED-LOGIN), the same with underscores (INPUT_TRUSTED_LOGIN,
 * what action.yml sets), then AGENTIC_TRUSTED_LOGIN; with none set, the
 * default applies. An empty INPUT_ variable is unset (the runner sets
 * every declared input, empty when not given). For a policy key an
 * AGENTIC_ variable that exists is set even when empty (an empty list is
 * a value); for the other settings an empty one is unset. When two set
 * names disagree nothing picks one: the run stops with a usage error
 * (exit 2) naming both, so an earlier step's GITHUB_ENV line cannot
 * silently replace what the workflow gave the action. Equal values (for a
 * policy key: equal once parsed) are fine. The write token is input
 * `token` / AGENTIC_TOKEN the same way, then GITHUB_TOKEN as a fallback.
 */
#include "cmd/config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/util.h"

#ifndef AGENTIC_APPLY_VERSION
#define AGENTIC_APPLY_VERSION "unknown"
#endif

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static int env_long(long *out, const char *name, long dflt, long min, long max,
		    struct buf *err)
{
	const char *v = env(name);
	int64_t n;

	*out = dflt;
	if (!v)
		return AA_OK;
	if (parse_decimal(&n, v, strlen(v), max) < 0 || n < min) {
		buf_setf(err, "%s: expected a number from %ld to %ld", name, min,
			 max);
		return AA_EUSAGE;
	}
	*out = (long)n;
	return AA_OK;
}

static bool env_true(const char *name)
{
	const char *v = env(name);

	return v && (str_eq_nocase(v, "true") || strcmp(v, "1") == 0 ||
		     str_eq_nocase(v, "yes"));
}

/* GitHub Enterprise Server: https://HOST/api/v3 → https://HOST/api/graphql;
 * github.com: https://api.github.com → https://api.github.com/graphql. */
static char *derive_graphql(const char *api)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	size_t n = strlen(api);

	while (n && api[n - 1] == '/')
		n--;
	if (n >= 7 && strncmp(api + n - 7, "/api/v3", 7) == 0)
		buf_addf(&b, "%.*s/api/graphql", (int)(n - 7), api);
	else
		buf_addf(&b, "%.*s/graphql", (int)n, api);
	return buf_detach(&b, NULL);
}

/* --- A8: repository names and API URLs --- */

int config_check_repository(const char *name, const char *source,
			    struct buf *err)
{
	if (repo_name_valid(name)) /* the rule, shared with snapshots */
		return AA_OK;
	buf_setf(err, "%s: '%s' is not OWNER/NAME (each part of letters, "
		      "digits, '-', '_' and '.', neither part '.' or '..')",
		 source, name);
	return AA_EUSAGE;
}

int config_check_api_url(const char *url, const char *source, struct buf *err)
{
	const char *rest;
	size_t n, host_len, i;
	bool https = strncmp(url, "https://", 8) == 0;

	if (!https && strncmp(url, "http://", 7) != 0) {
		buf_setf(err, "%s: '%s' is not an https:// URL", source, url);
		return AA_EUSAGE;
	}
	for (i = 0; url[i]; i++) {
		unsigned char c = (unsigned char)url[i];

		if (c <= 0x20 || c == 0x7f) {
			buf_setf(err, "%s: the URL holds a space or a control "
				      "character", source);
			return AA_EUSAGE;
		}
	}
	rest = url + (https ? 8 : 7);
	n = strcspn(rest, "/?#");
	if (!url_authority(rest, n, &host_len)) {
		buf_setf(err, "%s: '%s' is not a plain "
			      "http(s)://HOST[:PORT]/… URL", source, url);
		return AA_EUSAGE;
	}
	/* The token travels with every request: in clear only on loopback. */
	if (!https && !host_is_loopback(rest, host_len)) {
		buf_setf(err, "%s: '%s': plain http:// is accepted only for a "
			      "loopback host (127.0.0.0/8, localhost, [::1]); "
			      "use https://", source, url);
		return AA_EUSAGE;
	}
	return AA_OK;
}

/* --- where settings come from (see the top of this file) --- */

/* Names a setting may come from: INPUT_ with hyphens, with underscores,
 * AGENTIC_. */
#define CONFIG_SOURCES 3
/* Longest variable name built here ("AGENTIC_" + the longest key). */
#define CONFIG_MAX_NAME 64

struct source {
	char name[CONFIG_MAX_NAME];
	const char *value; /* set: never NULL */
};

/* PREFIX + KEY upper-cased, each '_' of KEY written as `sep`. */
static void var_name(char *out, const char *prefix, const char *key, char sep)
{
	size_t n = 0, k;

	for (k = 0; prefix[k] && n + 1 < CONFIG_MAX_NAME; k++)
		out[n++] = prefix[k];
	for (k = 0; key[k] && n + 1 < CONFIG_MAX_NAME; k++) {
		char c = key[k] == '_' ? sep : key[k];

		out[n++] = (char)(c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c);
	}
	out[n] = '\0';
}

static void add_source(struct source *src, size_t *n, const char *name,
		       const char *value)
{
	if (!value)
		return;
	memcpy(src[*n].name, name, CONFIG_MAX_NAME);
	src[*n].value = value;
	(*n)++;
}

/*
 * The set names of setting `key` (snake_case), in order. `empty_agentic`:
 * an existing but empty AGENTIC_<KEY> is set (policy keys).
 */
static size_t sources(struct source src[CONFIG_SOURCES], const char *key,
		      bool empty_agentic)
{
	char hyphen[CONFIG_MAX_NAME], underscore[CONFIG_MAX_NAME],
		agentic[CONFIG_MAX_NAME];
	size_t n = 0;

	var_name(hyphen, "INPUT_", key, '-');
	var_name(underscore, "INPUT_", key, '_');
	var_name(agentic, "AGENTIC_", key, '_');
	add_source(src, &n, hyphen, env(hyphen));
	if (strcmp(hyphen, underscore) != 0)
		add_source(src, &n, underscore, env(underscore));
	add_source(src, &n, agentic, empty_agentic ? getenv(agentic)
						   : env(agentic));
	return n;
}

static int disagree(struct buf *err, const char *what, const char *a,
		    const char *b)
{
	buf_setf(err, "%s: %s and %s are both set and disagree; set only one "
		      "of them (or both to the same value)", what, a, b);
	return AA_EUSAGE;
}

/*
 * A setting other than a policy key: *out is its value, NULL when no name
 * is set. Values are compared as text and never printed (some are
 * secrets).
 */
static int setting(const char **out, const char *key, struct buf *err)
{
	struct source src[CONFIG_SOURCES];
	size_t n = sources(src, key, false), i;

	*out = n ? src[0].value : NULL;
	for (i = 1; i < n; i++)
		if (strcmp(src[i].value, src[0].value) != 0)
			return disagree(err, key, src[0].name, src[i].name);
	return AA_OK;
}

/*
 * Policy key `key`: every set name must hold a valid value (the message
 * names the variable) and all must mean the same (policy_get's form);
 * then the value is applied to `p`. Nothing set leaves the default.
 */
static int policy_setting(struct policy *p, const char *key, struct buf *err)
{
	struct source src[CONFIG_SOURCES];
	struct buf first = BUF_INIT(BUF_MAX_SMALL),
		   other = BUF_INIT(BUF_MAX_SMALL), msg = BUF_INIT(BUF_MAX_SMALL);
	struct policy scratch;
	size_t n = sources(src, key, true), i;
	const char *cause, *c;
	int error = AA_OK;

	policy_init(&scratch);
	scratch.gitlab = p->gitlab;
	for (i = 0; i < n; i++) {
		if (policy_set_value(&scratch, key, src[i].value, err) < 0) {
			/* Name what the user set: input `trusted-login`, or
			 * the variable. */
			cause = err->ptr;
			if (strncmp(src[i].name, "INPUT_", 6) == 0) {
				buf_adds(&msg, "input '");
				for (c = src[i].name + 6; *c; c++)
					buf_addf(&msg, "%c",
						 *c == '_' ? '-'
							   : (char)tolower(
								     (unsigned char)*c));
				buf_addf(&msg, "' (%s)", src[i].name);
			} else {
				buf_adds(&msg, src[i].name);
			}
			buf_addf(&msg, ": %s", cause);
			buf_setf(err, "%s", msg.ptr);
			error = AA_EUSAGE;
			goto out;
		}
		policy_get(&scratch, key, i ? &other : &first);
		if (i && strcmp(other.ptr, first.ptr) != 0) {
			buf_addf(&msg, "config %s", key);
			error = disagree(err, msg.ptr, src[0].name,
					 src[i].name);
			goto out;
		}
	}
	if (n)
		error = policy_set(p, key, src[0].value, err);
out:
	policy_release(&scratch);
	buf_release(&first);
	buf_release(&other);
	buf_release(&msg);
	return error;
}

/* The AGENTIC_ names that are settings but not policy keys. */
static const char *const other_settings[] = {
	"token", "read_token", "sweep_state", "app_id", "app_private_key",
	"app_private_key_file", "app_installation_id", "stats",
	"replay_state", "http_timeout", "connect_timeout", "retries",
	"retry_base_ms", "max_wait", "write_interval_ms", "sweep_state_ttl",
	"http2_prior_knowledge", "gitlab_host", "gitlab_api_url",
	"gitlab_token", NULL};

static bool known_setting(const char *key)
{
	size_t i;

	for (i = 0; policy_keys[i]; i++)
		if (strcmp(key, policy_keys[i]) == 0)
			return true;
	for (i = 0; other_settings[i]; i++)
		if (strcmp(key, other_settings[i]) == 0)
			return true;
	return false;
}

/*
 * SNAPSHOT §2: an unknown key is an error, never a silent default. A name
 * under AGENTIC_ or INPUT_ that looks like a setting — a known key spelled
 * another way (AGENTIC_TRUSTED-LOGIN, AGENTIC_trusted_login), or a few
 * edits from a policy key (AGENTIC_TRUSTEDLOGIN) — but is not one of the
 * names the program reads stops the run. Other names are someone else's
 * (AGENTIC_APPLY_* belongs to the tools around the program).
 */
static int check_names(struct buf *err)
{
	extern char **environ;
	char **e, key[CONFIG_MAX_NAME], want[CONFIG_MAX_NAME];

	for (e = environ; e && *e; e++) {
		const char *name = *e, *eq = strchr(name, '='), *rest;
		const char *prefix = strncmp(name, "AGENTIC_", 8) == 0 ? "AGENTIC_"
				     : strncmp(name, "INPUT_", 6) == 0 ? "INPUT_"
									 : NULL;
		const char *near;
		size_t n, i;

		if (!prefix || !eq || strncmp(name, "AGENTIC_APPLY_", 14) == 0)
			continue;
		rest = name + strlen(prefix);
		n = (size_t)(eq - rest);
		if (n == 0 || n >= sizeof(key))
			continue;
		for (i = 0; i < n; i++)
			key[i] = rest[i] == '-' ? '_'
						: (char)tolower((unsigned char)rest[i]);
		key[n] = '\0';
		var_name(want, prefix, key, '_');
		if (known_setting(key)) {
			char hyphen[CONFIG_MAX_NAME];
			size_t nl = (size_t)(eq - name);

			var_name(hyphen, prefix, key, '-');
			if ((strlen(want) == nl && memcmp(name, want, nl) == 0) ||
			    (*prefix == 'I' && strlen(hyphen) == nl &&
			     memcmp(name, hyphen, nl) == 0))
				continue; /* a name the program reads */
			buf_setf(err, "%.*s: not a name this program reads; "
				      "write %s", (int)nl, name, want);
			return AA_EUSAGE;
		}
		if ((near = policy_nearest_key(key)) != NULL) {
			var_name(want, prefix, near, '_');
			buf_setf(err, "%.*s: unknown setting (did you mean %s?)",
				 (int)(eq - name), name, want);
			return AA_EUSAGE;
		}
	}
	return AA_OK;
}

/* GitHub App mode: id, key (text or file), installation. */
static int load_app(struct env_config *e, struct buf *err)
{
	const char *key, *file = env("AGENTIC_APP_PRIVATE_KEY_FILE"), *inst;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);

	if (setting(&e->app_id, "app_id", err) < 0 ||
	    setting(&key, "app_private_key", err) < 0 ||
	    setting(&inst, "app_installation_id", err) < 0)
		return AA_EUSAGE;
	if (!e->app_id && !key && !file)
		return AA_OK;
	if (!e->app_id) {
		buf_setf(err, "AGENTIC_APP_PRIVATE_KEY is set but AGENTIC_APP_ID "
			      "is not");
		return AA_EUSAGE;
	}
	if (key) {
		buf_adds(&e->app_key, key);
	} else if (file) {
		if (file_read(&e->app_key, file, &why) < 0) {
			buf_setf(err, "AGENTIC_APP_PRIVATE_KEY_FILE '%s': %s",
				 file, why.ptr);
			buf_release(&why);
			return AA_EUSAGE;
		}
		buf_release(&why);
	} else {
		buf_setf(err, "AGENTIC_APP_ID is set but neither "
			      "AGENTIC_APP_PRIVATE_KEY nor "
			      "AGENTIC_APP_PRIVATE_KEY_FILE is");
		return AA_EUSAGE;
	}
	if (inst && (parse_decimal(&e->app_installation, inst, strlen(inst),
				   (int64_t)9007199254740992LL) < 0 ||
		     e->app_installation < 1)) {
		buf_setf(err, "AGENTIC_APP_INSTALLATION_ID: not a number");
		return AA_EUSAGE;
	}
	return AA_OK;
}

/* Where the program talks to (A8): repository and both API URLs. */
static int load_server(struct env_config *e, struct buf *err)
{
	e->repository = env("GITHUB_REPOSITORY");
	e->api_url = env("GITHUB_API_URL");
	if (!e->api_url)
		e->api_url = "https://api.github.com";
	e->graphql_url = env("GITHUB_GRAPHQL_URL")
				 ? xstrdup(env("GITHUB_GRAPHQL_URL"))
				 : derive_graphql(e->api_url);
	if ((e->repository && config_check_repository(e->repository,
						      "GITHUB_REPOSITORY",
						      err) < 0) ||
	    config_check_api_url(e->api_url, "GITHUB_API_URL", err) < 0 ||
	    config_check_api_url(e->graphql_url, "GITHUB_GRAPHQL_URL", err) < 0)
		return AA_EUSAGE;
	return AA_OK;
}

/* G2, G3: the GitLab host, API override and token (GITLAB_TOKEN, never
 * GITHUB_TOKEN); the override is A8's and needs gitlab_host. */
static int load_gitlab(struct env_config *e, struct buf *err)
{
	const char *token;

	if (setting(&e->gitlab_host, "gitlab_host", err) < 0 ||
	    setting(&e->gitlab_api_url, "gitlab_api_url", err) < 0 ||
	    setting(&token, "gitlab_token", err) < 0)
		return AA_EUSAGE;
	e->gitlab_token = token ? token : env("GITLAB_TOKEN");
	if (e->gitlab_api_url && !e->gitlab_host) {
		buf_setf(err, "gitlab_api_url is set without gitlab_host: an "
			      "API override serves one named host (G2)");
		return AA_EUSAGE;
	}
	if (e->gitlab_api_url &&
	    config_check_api_url(e->gitlab_api_url, "gitlab_api_url", err) < 0)
		return AA_EUSAGE;
	return AA_OK;
}

void env_load_stats(struct env_config *e)
{
	const char *v = env("AGENTIC_STATS");

	/* =1 prints what the run cost; =trace (replay, the torture suite)
	 * also lists every call to the port. */
	e->stats_trace = v && strcmp(v, "trace") == 0;
	e->stats = env_true("AGENTIC_STATS") || e->stats_trace;
	v = env("AGENTIC_REPLAY_STATE");
	e->replay_state = v && *v ? v : NULL;
}

int env_load(struct env_config *e, struct policy *p, struct buf *err)
{
	const char *token;
	size_t i;

	memset(e, 0, sizeof(*e));
	buf_init(&e->app_key, BUF_MAX_SMALL);
	/* First: a configuration error below is an annotation under Actions. */
	e->actions = env_true("GITHUB_ACTIONS");
	if (load_server(e, err) < 0 || check_names(err) < 0)
		return AA_EUSAGE;
	e->event_name = env("GITHUB_EVENT_NAME");
	e->event_path = env("GITHUB_EVENT_PATH");
	e->step_summary = env("GITHUB_STEP_SUMMARY");
	e->runner_environment = env("RUNNER_ENVIRONMENT");
	e->server_url = env("GITHUB_SERVER_URL");
	e->action_repo = env("GITHUB_ACTION_REPOSITORY");
	e->action_ref = env("GITHUB_ACTION_REF");
	e->output = env("GITHUB_OUTPUT");
	e->ca_file = env("SSL_CERT_FILE");
	e->ca_path = env("SSL_CERT_DIR");
	if (!e->ca_file && !e->ca_path && access("/etc/ssl/certs", R_OK) == 0)
		e->ca_path = "/etc/ssl/certs";
	e->h2c = env_true("AGENTIC_HTTP2_PRIOR_KNOWLEDGE");
	env_load_stats(e);
	if (setting(&token, "token", err) < 0 ||
	    setting(&e->read_token, "read_token", err) < 0 ||
	    setting(&e->sweep_state, "sweep_state", err) < 0 ||
	    load_app(e, err) < 0)
		return AA_EUSAGE;
	e->token = token ? token : env("GITHUB_TOKEN");
	if (load_gitlab(e, err) < 0)
		return AA_EUSAGE;
	if (env_long(&e->timeout_s, "AGENTIC_HTTP_TIMEOUT", 30, 1, 3600, err) ||
	    env_long(&e->connect_timeout_s, "AGENTIC_CONNECT_TIMEOUT", 10, 1, 600,
		     err) ||
	    env_long(&e->retries, "AGENTIC_RETRIES", 3, 0, 10, err) ||
	    env_long(&e->retry_base_ms, "AGENTIC_RETRY_BASE_MS", 1000, 1, 60000,
		     err) ||
	    env_long(&e->max_wait_s, "AGENTIC_MAX_WAIT", 60, 0, 3600, err) ||
	    env_long(&e->write_interval_ms, "AGENTIC_WRITE_INTERVAL_MS", 1000, 0,
		     60000, err) ||
	    env_long(&e->sweep_state_ttl_s, "AGENTIC_SWEEP_STATE_TTL", 3600, 0,
		     7L * 86400, err))
		return AA_EUSAGE;
	for (i = 0; policy_keys[i]; i++)
		if (policy_setting(p, policy_keys[i], err) < 0)
			return AA_EUSAGE;
	return AA_OK;
}

void env_release(struct env_config *e)
{
	buf_wipe(&e->app_key);
	free(e->graphql_url);
	memset(e, 0, sizeof(*e));
}

void env_live_config(const struct env_config *e, const char *repository,
		     struct live_config *out)
{
	memset(out, 0, sizeof(*out));
	out->repository = repository;
	out->graphql_url = e->graphql_url;
	out->read_token = e->read_token;
	out->http.api_url = e->api_url;
	out->http.token = e->token;
	out->http.user_agent = "agentic-apply/" AGENTIC_APPLY_VERSION;
	out->http.ca_file = e->ca_file;
	out->http.ca_path = e->ca_path;
	out->http.connect_timeout_ms = e->connect_timeout_s * 1000;
	out->http.timeout_ms = e->timeout_s * 1000;
	out->http.low_speed_time_s = e->timeout_s;
	out->http.retries = (int)e->retries;
	out->http.retry_base_ms = e->retry_base_ms;
	out->http.max_wait_s = e->max_wait_s;
	out->http.h2c = e->h2c;
	out->http.write_interval_ms = e->write_interval_ms;
	out->app_id = e->app_id;
	out->app_key_pem = e->app_id ? e->app_key.ptr : NULL;
	out->app_installation_id = e->app_installation;
	out->http.seed = (uint64_t)clock_wall_ms() ^ ((uint64_t)getpid() << 32);
}
