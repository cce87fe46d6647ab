/*
 * test_port.c - the port's error contract (port/github.h): every operation
 * that can fail starts with gh->error empty, so a failure never carries an
 * earlier one's message; a pull keeps the message of its failed parts
 * (gh_pull.error) for a flow that reports them after other calls. Over the
 * in-memory port and fixture 151 (a threads fault on PR #8), bare and
 * wrapped in the dry-run port.
 */
#include "unit.h"

#include <stdlib.h>

#include "base/file.h"
#include "core/policy.h"
#include "formats/snapshot.h"
#include "port/port.h"

#define FIXTURE "fixtures/151-sweep-one-pr-fails.json"

static void load(struct snapshot *s, struct policy *p)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);

	assert_int_equal(file_read(&text, FIXTURE, &err), AA_OK);
	assert_int_equal(snapshot_from_json(s, text.ptr, text.len, &err), AA_OK);
	policy_init(p);
	buf_release(&text);
	buf_release(&err);
}

static void check_contract(struct github *gh)
{
	struct gh_pull g;
	bool in;

	/* PR #8's threads fail: the pull keeps why. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(gh->ops->pull(gh, 8, PART_PULL | PART_THREADS, &g),
			 AA_OK);
	assert_true(g.failed & PART_THREADS);
	assert_non_null(g.error);
	assert_non_null(strstr(g.error, "threads of PR #8"));
	assert_non_null(strstr(gh->error.ptr, "threads of PR #8"));
	/* The next operation succeeds: no message left behind. */
	assert_int_equal(gh->ops->commit_in_pull(
				 gh, 7, "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e",
				 &in),
			 AA_OK);
	assert_string_equal(gh->error.ptr, "");
	/* The pull's own copy is still there, and goes with it. */
	assert_non_null(strstr(g.error, "threads of PR #8"));
	gh_pull_release(&g);
	assert_null(g.error);
	/* A pull with nothing failed has no message. */
	assert_int_equal(gh->ops->pull(gh, 7, PART_PULL | PART_THREADS, &g),
			 AA_OK);
	assert_int_equal(g.failed, 0);
	assert_null(g.error);
	gh_pull_release(&g);
}

static void test_port__error_is_per_operation(void **state)
{
	struct snapshot s;
	struct policy p;
	struct github *gh;

	(void)state;
	load(&s, &p);
	gh = github_world_new(&s, &p);
	check_contract(gh);
	github_free(gh);
	policy_release(&p);
	snapshot_release(&s);
}

static void test_port__dry_run_error_is_per_operation(void **state)
{
	struct snapshot s;
	struct policy p;
	struct github *gh;
	struct gh_pull g;

	(void)state;
	load(&s, &p);
	gh = github_dryrun_new(github_world_new(&s, &p));
	check_contract(gh);
	/* A planned write (the dry run's own) leaves no message either. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(gh->ops->pull(gh, 8, PART_THREADS, &g), AA_OK);
	assert_true(gh->error.len > 0);
	gh_pull_release(&g);
	assert_int_equal(gh->ops->add_label(gh, 7, "needs-human"), AA_OK);
	assert_string_equal(gh->error.ptr, "");
	github_free(gh);
	policy_release(&p);
	snapshot_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port__error_is_per_operation),
		cmocka_unit_test(test_port__dry_run_error_is_per_operation),
	};

	return cmocka_run_group_tests_name("port", tests, NULL, NULL);
}
