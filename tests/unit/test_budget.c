/*
 * test_budget.c - BEHAVIOR §7, §8 (A6) as core/budget.h decides them: a
 * sweep stops at its deadline (none when 0), and before either rate limit
 * falls below its reserve (an unknown budget never stops it).
 */
#include "unit.h"

#include <stdio.h>

#include "base/util.h"
#include "core/budget.h"

static void test_budget__deadline_table(void **state)
{
	static const struct {
		int64_t now, deadline;
		bool want;
	} rows[] = {
	    {1000, 0, false},   {999, 1000, false}, {1000, 1000, true},
	    {1001, 1000, true}, {0, 1, false},      {5, 0, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		print_message("row %zu\n", i);
		assert_int_equal(
		    budget_deadline_passed(rows[i].now, rows[i].deadline),
		    rows[i].want);
	}
}

static void test_budget__rate_table(void **state)
{
	static const struct {
		int64_t graphql, rest;
		bool want;
	} rows[] = {
	    {-1, -1, false},
	    {5000, 5000, false},
	    {BUDGET_RESERVE_GRAPHQL, BUDGET_RESERVE_REST, false},
	    {BUDGET_RESERVE_GRAPHQL - 1, 5000, true},
	    {5000, BUDGET_RESERVE_REST - 1, true},
	    {0, -1, true},
	    {-1, 0, true},
	    {-1, 5000, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		print_message("row %zu\n", i);
		assert_int_equal(
		    budget_rate_spent(rows[i].graphql, rows[i].rest),
		    rows[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_budget__deadline_table),
	    cmocka_unit_test(test_budget__rate_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
