/*
 * test_publish.c - PUBLISH §7.1, §9 and §5.5's rules of core/publish.h:
 * the refusals before any write (B2, B3, superseded), the outcome that
 * agrees with the exit (B4), what a publish that wrote comes to, and the
 * status state of each tier.
 */
#include "unit.h"

#include <stdio.h>

#include "core/exit.h"
#include "core/publish.h"

#define HEAD "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define LAST "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define NEWR "abababababababababababababababababababab"

static void test_publish__refusal_table(void **state)
{
	static const struct {
		const char *name;
		bool incremental;
		const char *base, *pr_base;
		bool sticky, trusted, st;
		const char *state_base, *sticky_sha;
		enum publish_refusal want;
	} rows[] = {
	    {"full, no sticky", false, "main", "main", false, false, false,
	     NULL, "", REFUSAL_NONE},
	    {"full over an untrusted sticky", false, "main", "main", true,
	     false, false, NULL, LAST, REFUSAL_NONE},
	    {"full, another base", false, "dev", "main", false, false, false,
	     NULL, "", REFUSAL_BASE},
	    {"full, the PR's base unknown", false, "main", NULL, false, false,
	     false, NULL, "", REFUSAL_BASE},
	    {"incremental over its last review", true, "main", "main", true,
	     true, true, "main", LAST, REFUSAL_NONE},
	    {"incremental, the sticky already at head", true, "main", "main",
	     true, true, true, "main", HEAD, REFUSAL_NONE},
	    {"B2: incremental, no sticky", true, "main", "main", false, false,
	     false, NULL, "", REFUSAL_NO_TRUSTED_STATE},
	    {"B2: incremental, untrusted sticky", true, "main", "main", true,
	     false, true, "main", LAST, REFUSAL_NO_TRUSTED_STATE},
	    {"B2: incremental, no state block", true, "main", "main", true,
	     true, false, NULL, LAST, REFUSAL_NO_TRUSTED_STATE},
	    {"B2 before B3", true, "dev", "main", false, false, false, NULL, "",
	     REFUSAL_NO_TRUSTED_STATE},
	    {"B3: incremental, another base", true, "dev", "main", true, true,
	     true, "main", LAST, REFUSAL_BASE},
	    {"B3: the state names no base", true, "main", "main", true, true,
	     true, NULL, LAST, REFUSAL_STATE_BASE},
	    {"B3: the state reviewed another base", true, "main", "main", true,
	     true, true, "dev", LAST, REFUSAL_STATE_BASE},
	    {"B3 before superseded", true, "main", "main", true, true, true,
	     "dev", NEWR, REFUSAL_STATE_BASE},
	    {"superseded: the sticky reviews a later head", true, "main",
	     "main", true, true, true, "main", NEWR, REFUSAL_SUPERSEDED},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct publish_refusal_input in = {
		    .incremental = rows[i].incremental,
		    .base = rows[i].base,
		    .last_sha = LAST,
		    .head = HEAD,
		    .pr_base = rows[i].pr_base,
		    .sticky = rows[i].sticky,
		    .trusted = rows[i].trusted,
		    .state = rows[i].st,
		    .state_base = rows[i].state_base,
		    .sticky_sha = rows[i].sticky_sha,
		};

		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(publish_refusal(&in), rows[i].want);
	}
}

/* B4: every outcome against every exit code. */
static void test_publish__agree_table(void **state)
{
	static const struct {
		enum publish_outcome out;
		enum publish_outcome want[4]; /* by exit 0, 1, 2, 3 */
	} rows[] = {
	    {PUBLISH_PUBLISHED,
	     {PUBLISH_PUBLISHED, PUBLISH_PARTIAL, PUBLISH_ERROR,
	      PUBLISH_ERROR}},
	    {PUBLISH_UNCHANGED,
	     {PUBLISH_UNCHANGED, PUBLISH_PARTIAL, PUBLISH_ERROR,
	      PUBLISH_ERROR}},
	    {PUBLISH_NOOP,
	     {PUBLISH_NOOP, PUBLISH_NOOP, PUBLISH_ERROR, PUBLISH_ERROR}},
	    {PUBLISH_SKIPPED,
	     {PUBLISH_SKIPPED, PUBLISH_SKIPPED, PUBLISH_ERROR, PUBLISH_ERROR}},
	    {PUBLISH_REFUSED,
	     {PUBLISH_REFUSED, PUBLISH_REFUSED, PUBLISH_ERROR, PUBLISH_ERROR}},
	    {PUBLISH_SUPERSEDED,
	     {PUBLISH_SUPERSEDED, PUBLISH_SUPERSEDED, PUBLISH_ERROR,
	      PUBLISH_ERROR}},
	    {PUBLISH_PARTIAL,
	     {PUBLISH_PARTIAL, PUBLISH_PARTIAL, PUBLISH_ERROR, PUBLISH_ERROR}},
	    {PUBLISH_ERROR,
	     {PUBLISH_ERROR, PUBLISH_ERROR, PUBLISH_ERROR, PUBLISH_ERROR}},
	};
	size_t i;
	int code;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		for (code = EXIT_OK; code <= EXIT_API; code++) {
			print_message("row %zu, exit %d\n", i, code);
			assert_int_equal(publish_agree(rows[i].out, code),
			                 rows[i].want[code]);
		}
}

static void test_publish__conclude_table(void **state)
{
	static const struct {
		const char *name;
		struct publish_tally t;
		enum publish_outcome want;
		int exit;
	} rows[] = {
	    {"every thread posted",
	     {0, 0, 0, false, false},
	     PUBLISH_PUBLISHED,
	     EXIT_OK},
	    {"a dropped thread",
	     {1, 0, 0, false, false},
	     PUBLISH_PARTIAL,
	     EXIT_REFUSED},
	    {"a rejected thread",
	     {0, 2, 0, false, false},
	     PUBLISH_PARTIAL,
	     EXIT_REFUSED},
	    {"a failed thread",
	     {0, 0, 1, false, false},
	     PUBLISH_PARTIAL,
	     EXIT_OK},
	    {"the status unwritten",
	     {0, 0, 0, true, false},
	     PUBLISH_PARTIAL,
	     EXIT_OK},
	    {"the sticky incomplete",
	     {0, 0, 0, false, true},
	     PUBLISH_PARTIAL,
	     EXIT_OK},
	    {"everything at once",
	     {1, 1, 1, true, true},
	     PUBLISH_PARTIAL,
	     EXIT_REFUSED},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		int code = -1;

		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(publish_conclude(&rows[i].t, &code),
		                 rows[i].want);
		assert_int_equal(code, rows[i].exit);
	}
}

/* P38: may any input finding post inline (the files are read first)? */
static void test_publish__may_post_table(void **state)
{
	static const struct {
		const char *name;
		bool file;
		int64_t line;
		enum rv_pcode p;
		enum rv_confidence c;
		bool want;
	} rows[] = {
	    {"P0 on a line", true, 10, RV_P0, RV_HIGH, true},
	    {"P2, medium confidence", true, 3, RV_P2, RV_MEDIUM, true},
	    {"P3 never posts", true, 10, RV_P3, RV_HIGH, false},
	    {"a question never posts", true, 10, RV_Q, RV_HIGH, false},
	    {"low confidence (M1 demotes it)", true, 10, RV_P1, RV_LOW, false},
	    {"no file", false, 10, RV_P0, RV_HIGH, false},
	    {"a file, no line", true, 0, RV_P0, RV_HIGH, false},
	};
	char file[] = "src/a.c";
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct rv_finding f[2];
		struct review_input in;

		memset(f, 0, sizeof(f));
		memset(&in, 0, sizeof(in));
		f[0].p = RV_P3; /* a first finding that never posts */
		f[1].file = rows[i].file ? file : NULL;
		f[1].line_start = rows[i].line;
		f[1].p = rows[i].p;
		f[1].confidence = rows[i].c;
		in.findings = f;
		in.nfindings = 2;
		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(publish_may_post(&in), rows[i].want);
	}
}

/* §5.5: only PASSED and PASSED_WITH_NOTES are success. */
static void test_publish__tier_state(void **state)
{
	static const char *const want[RV_TIER_COUNT] = {
	    [RV_PASSED] = "success",
	    [RV_PASSED_WITH_NOTES] = "success",
	    [RV_REVIEW_BEFORE_MERGE] = "failure",
	    [RV_BLOCKED] = "failure",
	    [RV_PARTIAL] = "failure",
	    [RV_NOOP_TIER] = "failure",
	};
	int t;

	(void)state;
	for (t = 0; t < RV_TIER_COUNT; t++)
		assert_string_equal(rv_tier_state((enum rv_tier)t),
		                    want[t]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_publish__refusal_table),
	    cmocka_unit_test(test_publish__agree_table),
	    cmocka_unit_test(test_publish__conclude_table),
	    cmocka_unit_test(test_publish__may_post_table),
	    cmocka_unit_test(test_publish__tier_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
