/*
 * test_engine.c - how a flow's step ends (run/engine.c): a step's result
 * merges what its parts came to the way BEHAVIOR §10 merges exit codes
 * (N2: error over refused over applied, whatever the order; on a tie the
 * later outcome), and the flow records it once.
 */
#include "unit.h"

#include <stdio.h>

#include "run/engine_int.h"

static void test_engine__result_merge_table(void **state)
{
	static const struct {
		const char *name;
		struct engine_result parts[4];
		size_t n;
		struct engine_result want;
	} rows[] = {
	    {"applied", {{OUT_APPLIED, EXIT_OK}}, 1, {OUT_APPLIED, EXIT_OK}},
	    {"applied, then its label write failed",
	     {{OUT_APPLIED, EXIT_OK}, {OUT_ERROR, EXIT_API}},
	     2,
	     {OUT_ERROR, EXIT_API}},
	    {"error over refused over applied",
	     {{OUT_APPLIED, EXIT_OK},
	      {OUT_ERROR, EXIT_API},
	      {OUT_REFUSED, EXIT_REFUSED},
	      {OUT_APPLIED, EXIT_OK}},
	     4,
	     {OUT_ERROR, EXIT_API}},
	    {"refused, then applied",
	     {{OUT_REFUSED, EXIT_REFUSED}, {OUT_APPLIED, EXIT_OK}},
	     2,
	     {OUT_REFUSED, EXIT_REFUSED}},
	    {"a usage error outranks an API error",
	     {{OUT_ERROR, EXIT_API}, {OUT_ERROR, EXIT_USAGE}},
	     2,
	     {OUT_ERROR, EXIT_USAGE}},
	    {"a quiet refusal after applied (A9): the later wins a tie",
	     {{OUT_APPLIED, EXIT_OK}, {OUT_REFUSED, EXIT_OK}},
	     2,
	     {OUT_REFUSED, EXIT_OK}},
	    {"a PR gone after applied: skipped",
	     {{OUT_APPLIED, EXIT_OK}, {OUT_SKIPPED, EXIT_OK}},
	     2,
	     {OUT_SKIPPED, EXIT_OK}},
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct engine_result r = {OUT_SKIPPED, EXIT_OK};

		print_message("row %zu: %s\n", i, rows[i].name);
		for (k = 0; k < rows[i].n; k++)
			engine_result_merge(&r, rows[i].parts[k].outcome,
			                    rows[i].parts[k].exit);
		assert_int_equal(r.outcome, rows[i].want.outcome);
		assert_int_equal(r.exit, rows[i].want.exit);
	}
}

/* An error code's result: exit 2 for another login, 3 otherwise. */
static void test_engine__result_error(void **state)
{
	(void)state;
	assert_int_equal(engine_result_error(AA_EUSAGE).exit, EXIT_USAGE);
	assert_int_equal(engine_result_error(AA_EAPI).exit, EXIT_API);
	assert_int_equal(engine_result_error(AA_EAPI).outcome, OUT_ERROR);
}

/* A missing PR: skipped for an event, exit 2 for a direct command. */
static void test_engine__missing(void **state)
{
	struct report r;
	struct engine e;
	struct engine_result res;
	struct report_step *s;

	(void)state;
	report_init(&r, NULL, false);
	engine_init(&e, NULL, NULL, "o/r", &r);
	s = report_add_step(&r, STEP_GATE, 7);
	res = engine_missing(&e, s, "PR #%d not found", 7);
	assert_int_equal(res.outcome, OUT_SKIPPED);
	assert_int_equal(res.exit, EXIT_OK);
	assert_true(s->missing);
	assert_int_equal(r.nnotes, 0);
	e.missing_command = "gate";
	s = report_add_step(&r, STEP_GATE, 8);
	res = engine_missing(&e, s, "PR #%d not found", 8);
	assert_int_equal(res.outcome, OUT_ERROR);
	assert_int_equal(res.exit, EXIT_USAGE);
	assert_int_equal(r.nnotes, 1);
	assert_string_equal(r.notes[0].text, "gate: PR #8 not found");
	engine_finish(&e, 1, res);
	assert_int_equal(r.exit, EXIT_USAGE);
	engine_release(&e);
	report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_engine__result_merge_table),
	    cmocka_unit_test(test_engine__result_error),
	    cmocka_unit_test(test_engine__missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
