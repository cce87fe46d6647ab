/*
 * test_unchanged.c - BEHAVIOR §7's change detection (core/unchanged.h): a
 * sweep skips a PR only when its digest is the last sweep's, that sweep
 * is younger than the TTL and not dated in the future, and its outcome
 * holds until the PR changes (never an error).
 */
#include "unit.h"

#include <stdio.h>

#include "base/util.h"
#include "core/unchanged.h"

#define D1  "d1d1d1d1"
#define D2  "d2d2d2d2"
#define NOW 1000000
#define TTL 60000

static void test_unchanged__holds_table(void **state)
{
	static const struct {
		const char *name;
		const char *digest, *kept_digest, *kept_outcome;
		int64_t kept_at, ttl;
		bool want;
	} rows[] = {
	    {"same digest, withheld a minute ago", D1, D1, "withhold",
	     NOW - 1000, TTL, true},
	    {"approved", D1, D1, "approve", NOW - 1000, TTL, true},
	    {"skipped", D1, D1, "skipped", NOW - 1000, TTL, true},
	    {"evaluated this very moment", D1, D1, "withhold", NOW, TTL, true},
	    {"a new digest", D2, D1, "withhold", NOW - 1000, TTL, false},
	    {"nothing kept", D1, NULL, "", 0, TTL, false},
	    {"no digest in the listing", "", "", "withhold", NOW - 1000, TTL,
	     false},
	    {"an error is read again", D1, D1, "error", NOW - 1000, TTL, false},
	    {"refused is not a gate outcome", D1, D1, "refused", NOW - 1000,
	     TTL, false},
	    {"an empty outcome", D1, D1, "", NOW - 1000, TTL, false},
	    {"just inside the TTL", D1, D1, "withhold", NOW - TTL + 1, TTL,
	     true},
	    {"exactly the TTL old", D1, D1, "withhold", NOW - TTL, TTL, false},
	    {"older than the TTL", D1, D1, "approve", NOW - 2 * TTL, TTL,
	     false},
	    {"dated in the future", D1, D1, "withhold", NOW + 1, TTL, false},
	    {"a TTL of zero", D1, D1, "withhold", NOW, 0, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct unchanged_input in = {
		    .digest = rows[i].digest,
		    .kept_digest = rows[i].kept_digest,
		    .kept_outcome = rows[i].kept_outcome,
		    .kept_at = rows[i].kept_at,
		    .now = NOW,
		    .ttl_ms = rows[i].ttl,
		};

		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(unchanged_holds(&in), rows[i].want);
	}
}

/* An error is kept without its digest, so the next sweep reads it. */
static void test_unchanged__keep(void **state)
{
	(void)state;
	assert_string_equal(unchanged_keep("approve", D1), D1);
	assert_string_equal(unchanged_keep("withhold", D1), D1);
	assert_string_equal(unchanged_keep("skipped", D1), D1);
	assert_string_equal(unchanged_keep("error", D1), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unchanged__holds_table),
	    cmocka_unit_test(test_unchanged__keep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
