/*
 * policy.c - BEHAVIOR §1: actors, defaults, and how logins compare.
 *
 * GitHub logins and label names are unique regardless of case, so every
 * comparison here is ASCII-case-insensitive. Only AI reviewer comparisons
 * drop a "[bot]" suffix: "lfx-reviewer[bot]" is a different account from
 * the machine user "lfx-reviewer" and must never be trusted as it.
 */
#include "core/policy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const policy_keys[] = {
	"trusted_login",  "unlabelers",	    "ai_reviewers",   "label",
	"clean_context",  "escalation_context", "approve_drafts",
	"sweep_deadline", "deadline", "review_login", "review_context",
	"inline_cap", "ramp_p2_last_iteration", "max_findings", "bases",
	"app_bot", NULL};

static const char *const default_ai_reviewers[] = {
	"copilot", "copilot-pull-request-reviewer", "github-actions"};

void policy_init(struct policy *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->trusted_login = xstrdup("lfx-reviewer");
	p->nai_reviewers = ARRAY_SIZE(default_ai_reviewers);
	p->ai_reviewers = xcalloc(p->nai_reviewers, sizeof(char *));
	for (i = 0; i < p->nai_reviewers; i++)
		p->ai_reviewers[i] = xstrdup(default_ai_reviewers[i]);
	p->label = xstrdup("needs-human");
	p->clean_context = xstrdup("agentic-review/clean");
	p->escalation_context = xstrdup("agentic-review/escalation");
	p->approve_drafts = false;
	p->sweep_deadline = 480;
	p->deadline = 120;
	p->review_context = xstrdup("pr-review");
	p->inline_cap = 12;
	p->ramp_p2_last_iteration = 2;
	p->max_findings = 300;
}

void policy_release(struct policy *p)
{
	free(p->trusted_login);
	strv_free(p->unlabelers, p->nunlabelers);
	strv_free(p->ai_reviewers, p->nai_reviewers);
	free(p->label);
	free(p->clean_context);
	free(p->escalation_context);
	free(p->app_login);
	free(p->review_login);
	free(p->review_context);
	strv_free(p->bases, p->nbases);
	memset(p, 0, sizeof(*p));
}

bool policy_login_valid(const char *login)
{
	size_t n = strlen(login), i;

	if (n >= 5 && strcmp(login + n - 5, "[bot]") == 0)
		n -= 5;
	if (n == 0 || n > POLICY_MAX_LOGIN)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)login[i];

		if (!is_digit(c) && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && c != '-' && c != '_')
			return false;
	}
	return true;
}

bool policy_gitlab_login_valid(const char *login)
{
	size_t n = strlen(login), i;

	if (n == 0 || n > 255 || login[0] == '-' || login[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)login[i];

		if (!is_digit(c) && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && c != '-' && c != '_' && c != '.')
			return false;
	}
	return true;
}

/* Printable ASCII only, no control characters, bounded. */
static bool text_valid(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			return false;
	return true;
}

static int set_list(char ***v, size_t *n, const char *value,
		    struct buf *err)
{
	char **list = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = value;

	while (*p) {
		size_t len = strcspn(p, ", \t\n");
		char *item;

		if (len == 0) {
			p++;
			continue;
		}
		item = xstrndup(p, len);
		p += len;
		if (!policy_login_valid(item) || nr == POLICY_MAX_LIST) {
			buf_setf(err, "\"%s\" is not a GitHub login", item);
			free(item);
			strv_free(list, nr);
			return AA_EUSAGE;
		}
		ALLOC_GROW(list, nr + 1, alloc);
		list[nr++] = item;
	}
	strv_free(*v, *n);
	*v = list;
	*n = nr;
	return AA_OK;
}

static int set_text(char **dst, const char *value, size_t max,
		    struct buf *err)
{
	if (!text_valid(value, max)) {
		buf_setf(err, "must be 1 to %zu printable characters", max);
		return AA_EUSAGE;
	}
	free(*dst);
	*dst = xstrdup(value);
	return AA_OK;
}

static int set_bool(bool *dst, const char *value,
		    struct buf *err)
{
	if (str_eq_nocase(value, "true") || strcmp(value, "1") == 0 ||
	    str_eq_nocase(value, "yes")) {
		*dst = true;
	} else if (str_eq_nocase(value, "false") || strcmp(value, "0") == 0 ||
		   str_eq_nocase(value, "no") || !*value) {
		*dst = false;
	} else {
		buf_setf(err, "expected true or false (yes, no, 1, 0 and "
		              "empty are read too)");
		return AA_EUSAGE;
	}
	return AA_OK;
}

/* A deadline in seconds: 1 s to one day (A6). */
#define POLICY_MAX_DEADLINE 86400

static int set_seconds(int64_t *out, const char *value,
		       struct buf *err)
{
	if (parse_decimal(out, value, strlen(value), POLICY_MAX_DEADLINE) < 0 ||
	    *out < 1) {
		buf_setf(err, "expected seconds from 1 to %d",
			 POLICY_MAX_DEADLINE);
		return AA_EUSAGE;
	}
	return AA_OK;
}

/* A count from 0 to max (PUBLISH §1's numbers). */
static int set_count(int64_t *out, const char *value,
		     int64_t max, struct buf *err)
{
	if (parse_decimal(out, value, strlen(value), max) < 0) {
		buf_setf(err, "expected a number from 0 to %lld",
			 (long long)max);
		return AA_EUSAGE;
	}
	return AA_OK;
}

/* A branch pattern: 1 to 255 printable characters, no whitespace or
 * comma (they separate patterns). */
static bool pattern_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > POLICY_MAX_CONTEXT)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] == 0x7f)
			return false;
	return true;
}

/* A13: comma- or space-separated branch patterns. */
static int set_bases(struct policy *p, const char *value, struct buf *err)
{
	char **list = NULL;
	size_t nr = 0, alloc = 0;
	const char *s = value;

	while (*s) {
		size_t len = strcspn(s, ", \t\n");
		char *item;

		if (len == 0) {
			s++;
			continue;
		}
		item = xstrndup(s, len);
		s += len;
		if (!pattern_valid(item) || nr == POLICY_MAX_LIST) {
			buf_setf(err, "\"%s\" is not a branch pattern", item);
			free(item);
			strv_free(list, nr);
			return AA_EUSAGE;
		}
		ALLOC_GROW(list, nr + 1, alloc);
		list[nr++] = item;
	}
	strv_free(p->bases, p->nbases);
	p->bases = list;
	p->nbases = nr;
	return AA_OK;
}

int policy_set_value(struct policy *p, const char *key, const char *value,
		     struct buf *err)
{
	if (strcmp(key, "trusted_login") == 0) {
		if (!policy_login_valid(value)) {
			buf_setf(err, "\"%s\" is not a GitHub login", value);
			return AA_EUSAGE;
		}
		free(p->trusted_login);
		p->trusted_login = xstrdup(value);
		return AA_OK;
	}
	if (strcmp(key, "unlabelers") == 0)
		return set_list(&p->unlabelers, &p->nunlabelers, value,
				err);
	if (strcmp(key, "ai_reviewers") == 0)
		return set_list(&p->ai_reviewers, &p->nai_reviewers, value,
				err);
	if (strcmp(key, "label") == 0)
		return set_text(&p->label, value, POLICY_MAX_LABEL, err);
	if (strcmp(key, "clean_context") == 0)
		return set_text(&p->clean_context, value,
				POLICY_MAX_CONTEXT, err);
	if (strcmp(key, "escalation_context") == 0)
		return set_text(&p->escalation_context, value,
				POLICY_MAX_CONTEXT, err);
	if (strcmp(key, "approve_drafts") == 0)
		return set_bool(&p->approve_drafts, value, err);
	if (strcmp(key, "sweep_deadline") == 0)
		return set_seconds(&p->sweep_deadline, value, err);
	if (strcmp(key, "deadline") == 0)
		return set_seconds(&p->deadline, value, err);
	if (strcmp(key, "review_login") == 0) {
		if (p->gitlab ? !policy_gitlab_login_valid(value)
		              : !policy_login_valid(value)) {
			buf_setf(err, "\"%s\" is not a %s", value,
			         p->gitlab ? "GitLab username"
			                   : "GitHub login");
			return AA_EUSAGE;
		}
		free(p->review_login);
		p->review_login = xstrdup(value);
		return AA_OK;
	}
	if (strcmp(key, "review_context") == 0)
		return set_text(&p->review_context, value,
				POLICY_MAX_CONTEXT, err);
	if (strcmp(key, "inline_cap") == 0)
		return set_count(&p->inline_cap, value, 1000, err);
	if (strcmp(key, "ramp_p2_last_iteration") == 0)
		return set_count(&p->ramp_p2_last_iteration, value, 1000000,
				 err);
	if (strcmp(key, "max_findings") == 0)
		return set_count(&p->max_findings, value, 100000, err);
	if (strcmp(key, "bases") == 0)
		return set_bases(p, value, err);
	if (strcmp(key, "app_bot") == 0) {
		if (*value && !policy_login_valid(value)) {
			buf_setf(err, "\"%s\" is not a GitHub login", value);
			return AA_EUSAGE;
		}
		free(p->app_login);
		p->app_login = *value ? xstrdup(value) : NULL;
		return AA_OK;
	}
	return AA_ENOTFOUND;
}

static void join(struct buf *out, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_addf(out, "%s%s", i ? "," : "", v[i]);
}

int policy_get(const struct policy *p, const char *key, struct buf *out)
{
	buf_reset(out);
	if (strcmp(key, "trusted_login") == 0)
		buf_adds(out, p->trusted_login);
	else if (strcmp(key, "unlabelers") == 0)
		join(out, p->unlabelers, p->nunlabelers);
	else if (strcmp(key, "ai_reviewers") == 0)
		join(out, p->ai_reviewers, p->nai_reviewers);
	else if (strcmp(key, "label") == 0)
		buf_adds(out, p->label);
	else if (strcmp(key, "clean_context") == 0)
		buf_adds(out, p->clean_context);
	else if (strcmp(key, "escalation_context") == 0)
		buf_adds(out, p->escalation_context);
	else if (strcmp(key, "approve_drafts") == 0)
		buf_adds(out, p->approve_drafts ? "true" : "false");
	else if (strcmp(key, "sweep_deadline") == 0)
		buf_addf(out, "%lld", (long long)p->sweep_deadline);
	else if (strcmp(key, "deadline") == 0)
		buf_addf(out, "%lld", (long long)p->deadline);
	else if (strcmp(key, "review_login") == 0)
		buf_adds(out, policy_review_login(p));
	else if (strcmp(key, "review_context") == 0)
		buf_adds(out, p->review_context);
	else if (strcmp(key, "inline_cap") == 0)
		buf_addf(out, "%lld", (long long)p->inline_cap);
	else if (strcmp(key, "ramp_p2_last_iteration") == 0)
		buf_addf(out, "%lld", (long long)p->ramp_p2_last_iteration);
	else if (strcmp(key, "max_findings") == 0)
		buf_addf(out, "%lld", (long long)p->max_findings);
	else if (strcmp(key, "bases") == 0)
		join(out, p->bases, p->nbases);
	else if (strcmp(key, "app_bot") == 0)
		buf_adds(out, p->app_login ? p->app_login : "");
	else
		return AA_ENOTFOUND;
	return AA_OK;
}

const char *policy_review_login(const struct policy *p)
{
	return p->review_login ? p->review_login : p->trusted_login;
}

bool policy_is_review_login(const struct policy *p, const char *login)
{
	return login && str_eq_nocase(login, policy_review_login(p));
}

bool policy_is_trusted(const struct policy *p, const char *login)
{
	return login && str_eq_nocase(login, p->trusted_login);
}

bool policy_is_unlabeler(const struct policy *p, const char *login)
{
	size_t i;

	if (!login)
		return false;
	/*@ loop invariant 0 <= i <= p->nunlabelers;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      !SameName((char *)login, p->unlabelers[k]);
	    loop assigns i;
	    loop variant p->nunlabelers - i; */
	for (i = 0; i < p->nunlabelers; i++)
		if (str_eq_nocase(login, p->unlabelers[i]))
			return true;
	return false;
}

/* Length of a login without a trailing "[bot]". */
static size_t bare_len(const char *login)
{
	size_t n = strlen(login);

	if (n > 5 && memcmp(login + n - 5, "[bot]", 5) == 0)
		return n - 5;
	return n;
}

bool policy_is_ai_reviewer(const struct policy *p, const char *login)
{
	size_t i, n;

	if (!login)
		return false;
	n = bare_len(login);
	for (i = 0; i < p->nai_reviewers; i++) {
		const char *r = p->ai_reviewers[i];
		size_t rn = bare_len(r), k;

		if (rn != n)
			continue;
		for (k = 0; k < n; k++)
			if (to_lower((unsigned char)login[k]) !=
			    to_lower((unsigned char)r[k]))
				break;
		if (k == n)
			return true;
	}
	return false;
}

bool policy_is_label(const struct policy *p, const char *name)
{
	return name && str_eq_nocase(name, p->label);
}

bool policy_is_own_writer(const struct policy *p, const char *login)
{
	return policy_is_trusted(p, login) ||
	       (login && p->app_login && str_eq_nocase(login, p->app_login));
}

/* Does `s` match `pat`, where "*" is any run of characters? Iterative,
 * with one backtrack point: linear in |s| times the number of stars. */
static bool glob(const char *pat, const char *s)
{
	const char *star = NULL, *mark = NULL;

	while (*s) {
		if (*pat == '*') {
			star = pat++;
			mark = s;
		} else if (*pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star + 1;
			s = ++mark;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

bool policy_base_gated(const struct policy *p, const char *base,
		       const char *default_branch)
{
	size_t i;

	if (!base)
		return false;
	if (!p->nbases)
		return default_branch && strcmp(base, default_branch) == 0;
	for (i = 0; i < p->nbases; i++)
		if (glob(p->bases[i], base))
			return true;
	return false;
}

void policy_bases_describe(const struct policy *p, const char *default_branch,
			   struct buf *out)
{
	if (!p->nbases) {
		if (default_branch)
			buf_addf(out, "the default branch \"%s\" (setting "
				      "bases unset)", default_branch);
		else
			buf_adds(out, "the default branch, which is unknown "
				      "(setting bases unset)");
		return;
	}
	buf_adds(out, "bases \"");
	join(out, p->bases, p->nbases);
	buf_adds(out, "\"");
}

const char *policy_nearest_key(const char *name)
{
	const char *best = NULL;
	size_t i, d, bestd = SIZE_MAX;

	for (i = 0; policy_keys[i]; i++) {
		d = name_distance(name, policy_keys[i]);
		if (d < bestd) {
			bestd = d;
			best = policy_keys[i];
		}
	}
	return best && name_near(bestd, best) ? best : NULL;
}

int policy_set(struct policy *p, const char *key, const char *value,
	       struct buf *err)
{
	struct buf cause = BUF_INIT(BUF_MAX_SMALL);
	int error = policy_set_value(p, key, value, &cause);

	if (error == AA_EUSAGE)
		buf_setf(err, "config %s: %s", key, cause.ptr);
	buf_release(&cause);
	return error;
}
