/*
 * test_identity.c - T4 and U5 in one run: the identity check is made for
 * the login a write needs (trusted_login for the gate's writes,
 * review_login for publish's), so a token verified for one login never
 * passes the check for the other. No single command mixes the two today;
 * these tests drive the run's two checks directly, over the in-memory port
 * and fixture 151 (PR #7 approvable).
 */
#include "unit.h"

#include <stdlib.h>

#include "base/file.h"
#include "core/policy.h"
#include "formats/report.h"
#include "formats/snapshot.h"
#include "port/port.h"
#include "run/engine.h"
#include "run/flow.h"
#include "run/review_int.h"

#define FIXTURE "fixtures/151-sweep-one-pr-fails.json"

struct run {
	struct snapshot snap;
	struct policy policy;
	struct report report;
	struct github *gh;
	struct engine e;
};

/* A run over FIXTURE whose token belongs to `viewer`, with review_login
 * set to `review_login` (NULL: the default, the trusted login). */
static void run_open(struct run *r, const char *viewer,
		     const char *review_login)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);

	memset(r, 0, sizeof(*r));
	assert_int_equal(file_read(&text, FIXTURE, &err), AA_OK);
	assert_int_equal(snapshot_from_json(&r->snap, text.ptr, text.len, &err),
			 AA_OK);
	free(r->snap.viewer);
	r->snap.viewer = xstrdup(viewer);
	policy_init(&r->policy);
	if (review_login)
		assert_int_equal(policy_set(&r->policy, "review_login",
					    review_login, &err),
				 AA_OK);
	report_init(&r->report, NULL, false);
	r->gh = github_world_new(&r->snap, &r->policy);
	engine_init(&r->e, r->gh, &r->policy, r->snap.repository, &r->report);
	buf_release(&text);
	buf_release(&err);
}

static void run_close(struct run *r)
{
	engine_release(&r->e);
	github_free(r->gh);
	report_release(&r->report);
	policy_release(&r->policy);
	snapshot_release(&r->snap);
}

static size_t approvals(const struct report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nwrites; i++)
		n += r->writes[i].kind == W_APPROVE;
	return n;
}

/* publish's check (U5) passes for review_login; the gate's approval that
 * follows must check trusted_login on its own and refuse (T4, exit 2). */
static void test_identity__review_login_does_not_cover_approval(void **state)
{
	struct run r;
	struct report_step *s;

	(void)state;
	run_open(&r, "pr-review-bot", "pr-review-bot");
	s = report_add_step(&r.report, STEP_PUBLISH, 7);
	assert_int_equal(rv_identity(&r.e, s), AA_OK);
	engine_gate(&r.e, 7);
	assert_int_equal(approvals(&r.report), 0);
	assert_int_equal(r.report.nsteps, 2);
	assert_int_equal(r.report.steps[1].outcome, OUT_ERROR);
	assert_int_equal(r.report.exit, EXIT_USAGE);
	assert_true(r.e.stop);
	run_close(&r);
}

/* The gate's check (T4) passes for trusted_login; publish's check that
 * follows must check review_login on its own and refuse (U5). */
static void test_identity__trusted_login_does_not_cover_publish(void **state)
{
	struct run r;
	struct report_step *s;

	(void)state;
	run_open(&r, "lfx-reviewer", "pr-review-bot");
	engine_gate(&r.e, 7);
	assert_int_equal(approvals(&r.report), 1);
	s = report_add_step(&r.report, STEP_PUBLISH, 7);
	assert_int_equal(rv_identity(&r.e, s), AA_EUSAGE);
	run_close(&r);
}

/* One login for both (review_login unset): /user is read once, and both
 * checks pass. */
static void test_identity__one_login_checked_once(void **state)
{
	struct run r;
	struct report_step *s;
	struct buf trace = BUF_INIT(BUF_MAX_DOC);
	const char *p;
	int reads = 0;

	(void)state;
	run_open(&r, "lfx-reviewer", NULL);
	github_world_trace(r.gh, &trace);
	s = report_add_step(&r.report, STEP_PUBLISH, 7);
	assert_int_equal(rv_identity(&r.e, s), AA_OK);
	engine_gate(&r.e, 7);
	assert_int_equal(approvals(&r.report), 1);
	for (p = trace.ptr; (p = strstr(p, "read user")) != NULL; p++)
		reads++;
	assert_int_equal(reads, 1);
	github_world_trace(r.gh, NULL);
	buf_release(&trace);
	run_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity__review_login_does_not_cover_approval),
		cmocka_unit_test(test_identity__trusted_login_does_not_cover_publish),
		cmocka_unit_test(test_identity__one_login_checked_once),
	};

	return cmocka_run_group_tests_name("identity", tests, NULL, NULL);
}
