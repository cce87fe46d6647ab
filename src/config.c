/*
 * config.c - read the environment once into a struct; nothing below the
 * command layer calls getenv.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "github_app.h"
#include "util.h"

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

/* The action input for a policy key: INPUT_TRUSTED-LOGIN (how the runner
 * names input "trusted-login") or INPUT_TRUSTED_LOGIN; NULL when empty. */
static const char *input(struct buf *name, const char *key)
{
	const char *v;
	size_t k;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		buf_setf(name, "INPUT_");
		for (k = 0; key[k]; k++) {
			char c = key[k];

			if (c == '_' && pass == 0)
				c = '-';
			buf_addch(name, (char)(c >= 'a' && c <= 'z' ? c - 32 : c));
		}
		if ((v = env(name->ptr)))
			return v;
	}
	return NULL;
}

/* An input (INPUT_APP-ID or INPUT_APP_ID) or else an AGENTIC_ variable. */
static const char *input_or(const char *hyphen, const char *underscore,
			    const char *var)
{
	if (env(hyphen))
		return env(hyphen);
	if (env(underscore))
		return env(underscore);
	return env(var);
}

/* GitHub App mode: id, key (text or file), installation. */
static int load_app(struct env_config *e, struct buf *err)
{
	const char *key = input_or("INPUT_APP-PRIVATE-KEY", "INPUT_APP_PRIVATE_KEY",
				   "AGENTIC_APP_PRIVATE_KEY");
	const char *file = env("AGENTIC_APP_PRIVATE_KEY_FILE");
	const char *inst = input_or("INPUT_APP-INSTALLATION-ID",
				    "INPUT_APP_INSTALLATION_ID",
				    "AGENTIC_APP_INSTALLATION_ID");
	char chunk[4096];
	size_t n;
	FILE *f;

	e->app_id = input_or("INPUT_APP-ID", "INPUT_APP_ID", "AGENTIC_APP_ID");
	buf_init(&e->app_key, BUF_MAX_SMALL);
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
		if (!(f = fopen(file, "rb"))) {
			buf_setf(err, "AGENTIC_APP_PRIVATE_KEY_FILE: cannot open "
				      "'%s'", file);
			return AA_EUSAGE;
		}
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			if (buf_add(&e->app_key, chunk, n) < 0)
				break;
		OPENSSL_cleanse(chunk, sizeof(chunk));
		fclose(f);
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

int env_load(struct env_config *e, struct policy *p, struct buf *err)
{
	struct buf name = BUF_INIT(BUF_MAX_SMALL), iname = BUF_INIT(BUF_MAX_SMALL);
	const char *in;
	size_t i, k;
	int error = AA_OK;

	memset(e, 0, sizeof(*e));
	e->repository = env("GITHUB_REPOSITORY");
	e->event_name = env("GITHUB_EVENT_NAME");
	e->event_path = env("GITHUB_EVENT_PATH");
	e->api_url = env("GITHUB_API_URL");
	if (!e->api_url)
		e->api_url = "https://api.github.com";
	e->graphql_url = env("GITHUB_GRAPHQL_URL")
				 ? xstrdup(env("GITHUB_GRAPHQL_URL"))
				 : derive_graphql(e->api_url);
	e->token = env("AGENTIC_TOKEN");
	if (!e->token)
		e->token = env("GITHUB_TOKEN");
	e->read_token = env("AGENTIC_READ_TOKEN");
	e->actions = env_true("GITHUB_ACTIONS");
	e->step_summary = env("GITHUB_STEP_SUMMARY");
	e->output = env("GITHUB_OUTPUT");
	e->ca_file = env("SSL_CERT_FILE");
	e->ca_path = env("SSL_CERT_DIR");
	if (!e->ca_file && !e->ca_path && access("/etc/ssl/certs", R_OK) == 0)
		e->ca_path = "/etc/ssl/certs";
	e->h2c = env_true("AGENTIC_HTTP2_PRIOR_KNOWLEDGE");
	if (load_app(e, err) < 0)
		return AA_EUSAGE;
	e->sweep_state = env("AGENTIC_SWEEP_STATE");
	if (env("INPUT_SWEEP-STATE") || env("INPUT_SWEEP_STATE"))
		e->sweep_state = env("INPUT_SWEEP-STATE") ? env("INPUT_SWEEP-STATE")
							  : env("INPUT_SWEEP_STATE");
	e->stats = env_true("AGENTIC_STATS");
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
		     7L * 86400, err)) {
		error = AA_EUSAGE;
		goto out;
	}
	/* Action inputs (INPUT_*) win over AGENTIC_*; empty inputs are unset. */
	if (env("INPUT_TOKEN"))
		e->token = env("INPUT_TOKEN");
	if (env("INPUT_READ-TOKEN") || env("INPUT_READ_TOKEN"))
		e->read_token = env("INPUT_READ-TOKEN") ? env("INPUT_READ-TOKEN")
							: env("INPUT_READ_TOKEN");
	for (i = 0; policy_keys[i]; i++) {
		const char *v;

		buf_setf(&name, "AGENTIC_");
		for (k = 0; policy_keys[i][k]; k++) {
			char c = policy_keys[i][k];

			buf_addch(&name, (char)(c >= 'a' && c <= 'z' ? c - 32 : c));
		}
		v = getenv(name.ptr);
		if ((in = input(&iname, policy_keys[i])))
			v = in;
		if (!v)
			continue;
		if (policy_set(p, policy_keys[i], v, err) < 0) {
			/* "config KEY: …" names the key; say the variable. */
			struct buf msg = BUF_INIT(BUF_MAX_SMALL);

			buf_addf(&msg, "%s: %s", name.ptr, err->ptr);
			buf_setf(err, "%s", msg.ptr);
			buf_release(&msg);
			error = AA_EUSAGE;
			goto out;
		}
	}
out:
	buf_release(&name);
	buf_release(&iname);
	return error;
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
	struct timespec ts;

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
	clock_gettime(CLOCK_REALTIME, &ts);
	out->http.seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}
