/*
 * test_policy.c - BEHAVIOR §1 and N20: the configuration, its defaults,
 * its validation, and how logins and labels compare.
 */
#include "unit.h"

#include <stdlib.h>

#include "core/policy.h"
#include "base/util.h"

static void test_policy__defaults(void **state)
{
	struct policy p;

	(void)state;
	policy_init(&p);
	assert_string_equal(p.trusted_login, "lfx-reviewer");
	assert_int_equal(p.nunlabelers, 0);
	assert_int_equal(p.nai_reviewers, 3);
	assert_string_equal(p.ai_reviewers[0], "copilot");
	assert_string_equal(p.ai_reviewers[1], "copilot-pull-request-reviewer");
	assert_string_equal(p.ai_reviewers[2], "github-actions");
	assert_string_equal(p.label, "needs-human");
	assert_string_equal(p.clean_context, "agentic-review/clean");
	assert_string_equal(p.escalation_context, "agentic-review/escalation");
	assert_false(p.approve_drafts);
	assert_int_equal(p.sweep_deadline, 480);
	assert_int_equal(p.deadline, 120); /* A6 */
	/* empty list: nobody can lift the label */
	assert_false(policy_is_unlabeler(&p, "alice"));
	assert_false(policy_is_unlabeler(&p, "lfx-reviewer"));
	policy_release(&p);
}

static void test_policy__keys_listed(void **state)
{
	static const char *const want[] = {
	    "trusted_login",  "unlabelers",    "ai_reviewers",
	    "label",          "clean_context", "escalation_context",
	    "approve_drafts", "sweep_deadline", "deadline",
	    "review_login",   "review_context", "inline_cap",
	    "ramp_p2_last_iteration", "max_findings", "bases", "app_bot"};
	size_t i, j, n = 0;

	(void)state;
	while (policy_keys[n])
		n++;
	assert_int_equal(n, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		for (j = 0; j < n; j++)
			if (strcmp(policy_keys[j], want[i]) == 0)
				break;
		if (j == n)
			fail_msg("key %s is not listed", want[i]);
	}
}

struct set_row {
	const char *key;
	const char *value;
	int rc;
};

static const struct set_row set_rows[] = {
    {"trusted_login", "robot", 0},
    {"trusted_login", "robot[bot]", 0},
    {"trusted_login", "", AA_EUSAGE},
    {"trusted_login", "two words", AA_EUSAGE},
    {"trusted_login", "a,b", AA_EUSAGE},
    {"trusted_login", "[bot]", AA_EUSAGE},
    {"trusted_login", "r\xc3\xa9viewer", AA_EUSAGE},
    {"unlabelers", "alice", 0},
    {"unlabelers", "alice,bob", 0},
    {"unlabelers", "alice bob", 0},
    {"unlabelers", " alice, ,bob\t carol\n", 0},
    {"unlabelers", "", 0},
    {"unlabelers", "alice,bad!", AA_EUSAGE},
    {"unlabelers", "alice;bob", AA_EUSAGE},
    {"ai_reviewers", "copilot,coderabbitai[bot]", 0},
    {"ai_reviewers", "x/y", AA_EUSAGE},
    {"label", "escalate", 0},
    {"label", "needs human", 0},
    {"label", "", AA_EUSAGE},
    {"label", "a\nb", AA_EUSAGE},
    {"label", "a\x7f", AA_EUSAGE},
    {"label", "123456789012345678901234567890123456789012345678901", AA_EUSAGE},
    {"label", "12345678901234567890123456789012345678901234567890", 0},
    {"clean_context", "ci/clean", 0},
    {"clean_context", "", AA_EUSAGE},
    {"clean_context", "a\tb", AA_EUSAGE},
    {"escalation_context", "ci/esc", 0},
    {"escalation_context", "\x1b[31m", AA_EUSAGE},
    {"approve_drafts", "true", 0},
    {"approve_drafts", "FALSE", 0},
    {"approve_drafts", "1", 0},
    {"approve_drafts", "0", 0},
    {"approve_drafts", "yes", 0},
    {"approve_drafts", "No", 0},
    {"approve_drafts", "maybe", AA_EUSAGE},
    {"approve_drafts", "2", AA_EUSAGE},
    {"sweep_deadline", "1", 0},
    {"sweep_deadline", "86400", 0},
    {"sweep_deadline", "0", AA_EUSAGE},
    {"sweep_deadline", "86401", AA_EUSAGE},
    {"sweep_deadline", "-5", AA_EUSAGE},
    {"sweep_deadline", "8m", AA_EUSAGE},
    {"sweep_deadline", "", AA_EUSAGE},
    {"deadline", "5", 0},
    {"deadline", "86400", 0},
    {"deadline", "0", AA_EUSAGE},
    {"deadline", "86401", AA_EUSAGE},
    {"deadline", "2m", AA_EUSAGE},
    {"review_login", "lfx-reviewer[bot]", 0},
    {"review_login", "two words", AA_EUSAGE},
    {"review_context", "ci/pr-review", 0},
    {"review_context", "", AA_EUSAGE},
    {"inline_cap", "0", 0},
    {"inline_cap", "1000", 0},
    {"inline_cap", "1001", AA_EUSAGE},
    {"inline_cap", "-1", AA_EUSAGE},
    {"ramp_p2_last_iteration", "2", 0},
    {"ramp_p2_last_iteration", "x", AA_EUSAGE},
    {"max_findings", "300", 0},
    {"max_findings", "100001", AA_EUSAGE},
    {"no_such_key", "x", AA_ENOTFOUND},
    {"Trusted_Login", "robot", AA_ENOTFOUND},
    {"", "x", AA_ENOTFOUND},
};

/* A13: which bases are gated. */
static void test_policy__bases_table(void **state)
{
	static const struct {
		const char *bases; /* NULL: unset */
		const char *base;
		const char *dflt;
		bool gated;
	} rows[] = {
	    {NULL, "main", "main", true},
	    {NULL, "develop", "main", false},
	    {NULL, "main", "develop", false},
	    {NULL, "main", NULL, false},  /* default branch unknown */
	    {NULL, "Main", "main", false}, /* names compare exactly */
	    {"main", "main-next", "main", false},
	    {"release/*", "release/1.2", "main", true},
	    {"release/*", "release/a/b", "main", true}, /* "*" crosses "/" */
	    {"release/*", "release", "main", false},
	    {"release/*", "release/", "main", true},
	    {"release/*", "main", "main", false}, /* bases replaces the default */
	    {"main,develop", "develop", "x", true},
	    {"main develop", "develop", "x", true},
	    {"*", "anything/at/all", NULL, true},
	    {"a*b*c", "aXbYc", NULL, true},
	    {"a*b*c", "aXbY", NULL, false},
	    {"*-stable", "v1-stable", NULL, true},
	    {"*-stable", "v1-stable2", NULL, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct policy p;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		policy_init(&p);
		if (rows[i].bases)
			assert_int_equal(policy_set(&p, "bases", rows[i].bases,
						    &err),
					 0);
		if (policy_base_gated(&p, rows[i].base, rows[i].dflt) !=
		    rows[i].gated)
			fail_msg("row %zu: %s into %s", i,
				 rows[i].bases ? rows[i].bases : "(unset)",
				 rows[i].base);
		policy_release(&p);
		buf_release(&err);
	}
}

static void test_policy__nearest_key(void **state)
{
	(void)state;
	assert_string_equal(policy_nearest_key("trusted-login"),
			    "trusted_login");
	assert_string_equal(policy_nearest_key("TRUSTED_LOGIN"),
			    "trusted_login");
	assert_string_equal(policy_nearest_key("trustedlogin"), "trusted_login");
	assert_string_equal(policy_nearest_key("unlabeller"), "unlabelers");
	assert_string_equal(policy_nearest_key("base"), "bases");
	assert_null(policy_nearest_key("future_key"));
	assert_null(policy_nearest_key("apply_bin"));
}

static void test_policy__set_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(set_rows); i++) {
		const struct set_row *r = &set_rows[i];
		struct policy p;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		int rc;

		policy_init(&p);
		rc = policy_set(&p, r->key, r->value, &err);
		if (rc != r->rc) {
			print_error(
			    "row %zu (%s=%s): rc %d, expected %d (%s)\n", i,
			    r->key, r->value, rc, r->rc, err.ptr);
			bad++;
		} else if (rc == AA_EUSAGE &&
		           (err.len == 0 || !strstr(err.ptr, r->key))) {
			print_error("row %zu (%s): message \"%s\" does not "
			            "name the key\n",
			            i, r->key, err.ptr);
			bad++;
		}
		policy_release(&p);
		buf_release(&err);
	}
	assert_int_equal(bad, 0);
}

static void test_policy__set_values(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	policy_init(&p);
	assert_int_equal(
	    policy_set(&p, "unlabelers", " alice, ,bob\t carol\n", &err), 0);
	assert_int_equal(p.nunlabelers, 3);
	assert_string_equal(p.unlabelers[0], "alice");
	assert_string_equal(p.unlabelers[1], "bob");
	assert_string_equal(p.unlabelers[2], "carol");
	/* a later set replaces the list */
	assert_int_equal(policy_set(&p, "unlabelers", "dave", &err), 0);
	assert_int_equal(p.nunlabelers, 1);
	assert_false(policy_is_unlabeler(&p, "alice"));
	assert_true(policy_is_unlabeler(&p, "dave"));
	/* a rejected value leaves the previous one in place */
	assert_int_equal(policy_set(&p, "unlabelers", "eve,bad!", &err),
	                 AA_EUSAGE);
	assert_int_equal(p.nunlabelers, 1);
	assert_true(policy_is_unlabeler(&p, "dave"));
	assert_false(policy_is_unlabeler(&p, "eve"));
	assert_int_equal(policy_set(&p, "trusted_login", "bad login", &err),
	                 AA_EUSAGE);
	assert_string_equal(p.trusted_login, "lfx-reviewer");
	assert_int_equal(policy_set(&p, "sweep_deadline", "0", &err),
	                 AA_EUSAGE);
	/* an empty list empties it */
	assert_int_equal(policy_set(&p, "unlabelers", "", &err), 0);
	assert_int_equal(p.nunlabelers, 0);
	assert_int_equal(policy_set(&p, "approve_drafts", "yes", &err), 0);
	assert_true(p.approve_drafts);
	assert_int_equal(policy_set(&p, "approve_drafts", "false", &err), 0);
	assert_false(p.approve_drafts);
	assert_int_equal(policy_set(&p, "sweep_deadline", "300", &err), 0);
	assert_int_equal(p.sweep_deadline, 300);
	assert_int_equal(policy_set(&p, "label", "escalate", &err), 0);
	assert_string_equal(p.label, "escalate");
	assert_true(policy_is_label(&p, "ESCALATE"));
	assert_false(policy_is_label(&p, "needs-human"));
	policy_release(&p);
	buf_release(&err);
}

static void test_policy__list_limit(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL);
	int i;

	(void)state;
	policy_init(&p);
	for (i = 0; i < POLICY_MAX_LIST; i++)
		buf_addf(&v, "u%d,", i);
	assert_int_equal(policy_set(&p, "unlabelers", v.ptr, &err), 0);
	assert_int_equal(p.nunlabelers, POLICY_MAX_LIST);
	buf_adds(&v, "one-too-many");
	assert_int_equal(policy_set(&p, "unlabelers", v.ptr, &err), AA_EUSAGE);
	assert_int_equal(p.nunlabelers, POLICY_MAX_LIST);
	policy_release(&p);
	buf_release(&err);
	buf_release(&v);
}

struct login_row {
	const char *login;
	bool valid;
};

static const struct login_row login_rows[] = {
    {"alice", true},
    {"a", true},
    {"a-b-c", true},
    {"A1", true},
    {"dependabot[bot]", true},
    {"copilot-pull-request-reviewer", true},
    {"", false},
    {"[bot]", false},
    {"a b", false},
    {"a,b", false},
    {"a/b", false},
    {"a.b", false},
    {"a@b", false},
    {"a\n", false},
    {"\xc3\xa9", false},
    {"bot]", false},
    {"x[bot][bot]", false},
    {"x[BOT]", false},
    {"a23456789012345678901234567890123456789", true},
    {"12345678901234567890123456789012345678901234567890123456789012345",
     false},
};

static void test_policy__login_valid_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(login_rows); i++)
		if (policy_login_valid(login_rows[i].login) !=
		    login_rows[i].valid) {
			print_error("row %zu (%s): expected %d\n", i,
			            login_rows[i].login, login_rows[i].valid);
			bad++;
		}
	assert_int_equal(bad, 0);
}

/* P62: a GitLab username (review_login on GitLab). */
static const struct {
	const char *login;
	bool valid;
} gitlab_rows[] = {
    {"review.bot", true},
    {"a", true},
    {"a_b-c.d", true},
    {"x.", true}, /* GitLab refuses it at sign-up; never matches then */
    {"_a", true},
    {"1.2", true},
    {"", false},
    {".a", false},
    {"-a", false},
    {"a b", false},
    {"a/b", false},
    {"a@b", false},
    {"bot[bot]", false},
    {"\xc3\xa9", false},
};

static void test_policy__gitlab_login_valid_table(void **state)
{
	char long_ok[256], long_bad[257];
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gitlab_rows); i++)
		if (policy_gitlab_login_valid(gitlab_rows[i].login) !=
		    gitlab_rows[i].valid) {
			print_error("row %zu (%s): expected %d\n", i,
			            gitlab_rows[i].login, gitlab_rows[i].valid);
			bad++;
		}
	assert_int_equal(bad, 0);
	memset(long_ok, 'a', 255);
	long_ok[255] = '\0';
	memset(long_bad, 'a', 256);
	long_bad[256] = '\0';
	assert_true(policy_gitlab_login_valid(long_ok));
	assert_false(policy_gitlab_login_valid(long_bad));
}

/* P62: review_login takes the platform's rule; no other key changes. */
static void test_policy__review_login_platform(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_set(&p, "review_login", "review.bot", &err),
	                 AA_EUSAGE);
	assert_non_null(strstr(err.ptr, "not a GitHub login"));
	p.gitlab = true;
	assert_int_equal(policy_set(&p, "review_login", "review.bot", &err),
	                 AA_OK);
	assert_string_equal(policy_review_login(&p), "review.bot");
	assert_true(policy_is_review_login(&p, "Review.Bot"));
	assert_int_equal(policy_set(&p, "review_login", ".bot", &err),
	                 AA_EUSAGE);
	assert_non_null(strstr(err.ptr, "not a GitLab username"));
	assert_int_equal(policy_set(&p, "review_login", "bot[bot]", &err),
	                 AA_EUSAGE);
	/* trusted_login and app_bot stay GitHub's (the gate's keys). */
	assert_int_equal(policy_set(&p, "trusted_login", "review.bot", &err),
	                 AA_EUSAGE);
	assert_int_equal(policy_set(&p, "app_bot", "review.bot", &err),
	                 AA_EUSAGE);
	buf_release(&err);
	policy_release(&p);
	assert_false(p.gitlab); /* cleared with the rest */
}

static void test_policy__trusted(void **state)
{
	struct policy p;

	(void)state;
	policy_init(&p);
	assert_true(policy_is_trusted(&p, "lfx-reviewer"));
	assert_true(policy_is_trusted(&p, "LFX-Reviewer"));
	assert_true(policy_is_trusted(&p, "LFX-REVIEWER"));
	/* the [bot] account is another account (N20) */
	assert_false(policy_is_trusted(&p, "lfx-reviewer[bot]"));
	assert_false(policy_is_trusted(&p, "lfx-reviewer "));
	assert_false(policy_is_trusted(&p, "lfx-reviewe"));
	assert_false(policy_is_trusted(&p, "xlfx-reviewer"));
	assert_false(policy_is_trusted(&p, ""));
	assert_false(policy_is_trusted(&p, NULL));
	policy_release(&p);
}

static void test_policy__unlabelers(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_set(&p, "unlabelers", "Alice,bob", &err), 0);
	assert_true(policy_is_unlabeler(&p, "alice"));
	assert_true(policy_is_unlabeler(&p, "ALICE"));
	assert_true(policy_is_unlabeler(&p, "Bob"));
	/* no actor never may */
	assert_false(policy_is_unlabeler(&p, NULL));
	/* the suffix is not dropped for unlabelers (N20) */
	assert_false(policy_is_unlabeler(&p, "alice[bot]"));
	assert_false(policy_is_unlabeler(&p, "carol"));
	assert_false(policy_is_unlabeler(&p, "alic"));
	assert_false(policy_is_unlabeler(&p, ""));
	/* the trusted login is not an unlabeler by default */
	assert_false(policy_is_unlabeler(&p, "lfx-reviewer"));
	policy_release(&p);
	buf_release(&err);
}

static void test_policy__ai_reviewers(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	policy_init(&p);
	assert_true(policy_is_ai_reviewer(&p, "copilot"));
	assert_true(policy_is_ai_reviewer(&p, "Copilot"));
	assert_true(policy_is_ai_reviewer(&p, "copilot[bot]"));
	assert_true(policy_is_ai_reviewer(&p, "copilot-pull-request-reviewer"));
	assert_true(
	    policy_is_ai_reviewer(&p, "COPILOT-PULL-REQUEST-REVIEWER[bot]"));
	assert_true(policy_is_ai_reviewer(&p, "github-actions[bot]"));
	assert_false(policy_is_ai_reviewer(&p, "copilot-x"));
	assert_false(policy_is_ai_reviewer(&p, "copilo"));
	assert_false(policy_is_ai_reviewer(&p, "copilot[bot]x"));
	assert_false(policy_is_ai_reviewer(&p, "dev1"));
	assert_false(policy_is_ai_reviewer(&p, "lfx-reviewer"));
	assert_false(policy_is_ai_reviewer(&p, "[bot]"));
	assert_false(policy_is_ai_reviewer(&p, ""));
	assert_false(policy_is_ai_reviewer(&p, NULL));
	/* a configured entry with the suffix matches the bare login */
	assert_int_equal(
	    policy_set(&p, "ai_reviewers", "coderabbitai[bot]", &err), 0);
	assert_true(policy_is_ai_reviewer(&p, "coderabbitai"));
	assert_true(policy_is_ai_reviewer(&p, "CodeRabbitAI[bot]"));
	assert_false(policy_is_ai_reviewer(&p, "copilot"));
	policy_release(&p);
	buf_release(&err);
}

static void test_policy__label(void **state)
{
	struct policy p;

	(void)state;
	policy_init(&p);
	assert_true(policy_is_label(&p, "needs-human"));
	assert_true(policy_is_label(&p, "Needs-Human"));
	assert_true(policy_is_label(&p, "NEEDS-HUMAN"));
	assert_false(policy_is_label(&p, "needs-human "));
	assert_false(policy_is_label(&p, "needs_human"));
	assert_false(policy_is_label(&p, "needs-humans"));
	assert_false(policy_is_label(&p, NULL));
	policy_release(&p);
}

static void test_policy__get_round_trips(void **state)
{
	struct policy a, b;
	struct buf err = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	(void)state;
	policy_init(&a);
	assert_int_equal(policy_set(&a, "unlabelers", "alice bob", &err), 0);
	assert_int_equal(policy_set(&a, "approve_drafts", "yes", &err), 0);
	assert_int_equal(policy_set(&a, "sweep_deadline", "90", &err), 0);
	assert_int_equal(policy_set(&a, "label", "esc", &err), 0);
	assert_int_equal(policy_get(&a, "unlabelers", &v), 0);
	assert_string_equal(v.ptr, "alice,bob");
	assert_int_equal(policy_get(&a, "approve_drafts", &v), 0);
	assert_string_equal(v.ptr, "true");
	assert_int_equal(policy_get(&a, "sweep_deadline", &v), 0);
	assert_string_equal(v.ptr, "90");
	assert_int_equal(policy_get(&a, "nope", &v), AA_ENOTFOUND);
	/* every key's string form sets the same value again */
	policy_init(&b);
	for (i = 0; policy_keys[i]; i++) {
		assert_int_equal(policy_get(&a, policy_keys[i], &v), 0);
		if (policy_set(&b, policy_keys[i], v.ptr, &err) != 0)
			fail_msg("%s=%s: %s", policy_keys[i], v.ptr, err.ptr);
	}
	for (i = 0; policy_keys[i]; i++) {
		struct buf w = BUF_INIT(BUF_MAX_SMALL);

		assert_int_equal(policy_get(&a, policy_keys[i], &v), 0);
		assert_int_equal(policy_get(&b, policy_keys[i], &w), 0);
		assert_string_equal(v.ptr, w.ptr);
		buf_release(&w);
	}
	/* an empty list reads back as empty */
	assert_int_equal(policy_set(&b, "unlabelers", "", &err), 0);
	assert_int_equal(policy_get(&b, "unlabelers", &v), 0);
	assert_string_equal(v.ptr, "");
	policy_release(&a);
	policy_release(&b);
	buf_release(&err);
	buf_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_policy__defaults),
	    cmocka_unit_test(test_policy__keys_listed),
	    cmocka_unit_test(test_policy__bases_table),
	    cmocka_unit_test(test_policy__gitlab_login_valid_table),
	    cmocka_unit_test(test_policy__review_login_platform),
	    cmocka_unit_test(test_policy__nearest_key),
	    cmocka_unit_test(test_policy__set_table),
	    cmocka_unit_test(test_policy__set_values),
	    cmocka_unit_test(test_policy__list_limit),
	    cmocka_unit_test(test_policy__login_valid_table),
	    cmocka_unit_test(test_policy__trusted),
	    cmocka_unit_test(test_policy__unlabelers),
	    cmocka_unit_test(test_policy__ai_reviewers),
	    cmocka_unit_test(test_policy__label),
	    cmocka_unit_test(test_policy__get_round_trips),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
