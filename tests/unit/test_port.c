/*
 * test_port.c - the port's error contract (port/port.h, N80): a failing
 * operation writes its own message into the err its caller passed, and
 * a succeeding one writes nothing there; a pull keeps the message of its
 * failed parts (gh_pull.error) for a flow that reports them after other
 * calls. Over the in-memory port and fixture 151 (a threads fault on PR
 * #8), bare and wrapped in the dry-run port.
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
	struct buf err = BUF_INIT(BUF_MAX_SMALL),
	           next = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	bool in;

	/* PR #8's threads fail: the caller's err says why, the pull keeps
	 * it. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(
	    gh->ops->pull(gh, 8, PART_PULL | PART_THREADS, &g, &err), AA_OK);
	assert_true(g.failed & PART_THREADS);
	assert_non_null(g.error);
	assert_non_null(strstr(g.error, "threads of PR #8"));
	assert_non_null(strstr(err.ptr, "threads of PR #8"));
	/* The next operation succeeds: nothing written into its err. */
	assert_int_equal(
	    gh->ops->commit_in_pull(
	        gh, 7, "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e", &in, &next),
	    AA_OK);
	assert_string_equal(next.ptr, "");
	/* The pull's own copy is still there, and goes with it. */
	assert_non_null(strstr(g.error, "threads of PR #8"));
	gh_pull_release(&g);
	assert_null(g.error);
	/* A pull with nothing failed has no message. */
	assert_int_equal(
	    gh->ops->pull(gh, 7, PART_PULL | PART_THREADS, &g, &next), AA_OK);
	assert_int_equal(g.failed, 0);
	assert_null(g.error);
	assert_string_equal(next.ptr, "");
	gh_pull_release(&g);
	buf_release(&err);
	buf_release(&next);
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
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct policy p;
	struct github *gh;
	struct gh_pull g;

	(void)state;
	load(&s, &p);
	gh = github_dryrun_new(github_world_new(&s, &p));
	check_contract(gh);
	/* A planned write (the dry run's own) leaves no message either. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(gh->ops->pull(gh, 8, PART_THREADS, &g, &err), AA_OK);
	assert_true(err.len > 0);
	gh_pull_release(&g);
	buf_reset(&err);
	assert_int_equal(gh->ops->add_label(gh, 7, "needs-human", &err), AA_OK);
	assert_string_equal(err.ptr, "");
	buf_release(&err);
	github_free(gh);
	policy_release(&p);
	snapshot_release(&s);
}

/* --- the write contract (port.h, N61): a lost answer is AA_ELOST --- */

#define H "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"

struct world_run {
	struct snapshot s;
	struct policy p;
	struct github *gh;
};

static void world_open(struct world_run *w, const char *fixture)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);

	assert_int_equal(file_read(&text, fixture, &err), AA_OK);
	assert_int_equal(snapshot_from_json(&w->s, text.ptr, text.len, &err),
	                 AA_OK);
	policy_init(&w->p);
	w->gh = github_world_new(&w->s, &w->p);
	buf_release(&text);
	buf_release(&err);
}

static void world_close(struct world_run *w)
{
	github_free(w->gh);
	policy_release(&w->p);
	snapshot_release(&w->s);
}

/* The state of review `id` of PR #7 ("" when there is none), or the
 * number of approvals of H when id is 0. */
static int reviews_of_7(struct world_run *w, int64_t id, const char *state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct gh_pull g;
	int n = 0;

	memset(&g, 0, sizeof(g));
	assert_int_equal(w->gh->ops->pull(w->gh, 7, PART_REVIEWS, &g, &err),
	                 AA_OK);
	buf_release(&err);
	for (size_t i = 0; i < g.pull.nreviews; i++) {
		const struct snap_review *r = &g.pull.reviews[i];

		if (id ? r->id == id && strcmp(r->state, state) == 0
		       : strcmp(r->state, "APPROVED") == 0 &&
		             strcmp(r->commit_id, H) == 0)
			n++;
	}
	gh_pull_release(&g);
	return n;
}

static void test_port__lost_answer_is_elost(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct world_run w;
	int64_t id = -1;

	(void)state;
	/* lost_response: made, then AA_ELOST, with no id; the write's own
	 * message in the caller's err (N80). */
	world_open(&w, "fixtures/992-lost-approve-landed.json");
	assert_int_equal(reviews_of_7(&w, 0, NULL), 0);
	assert_int_equal(w.gh->ops->approve(w.gh, 7, H, "ok", &id, &err),
	                 AA_ELOST);
	assert_non_null(strstr(err.ptr, "response lost"));
	assert_int_equal(id, 0);
	assert_int_equal(reviews_of_7(&w, 0, NULL), 1);
	world_close(&w);
	/* A 503 with no lost_response: not made, AA_ELOST all the same. */
	world_open(&w, "fixtures/993-lost-approve-not-landed.json");
	assert_int_equal(w.gh->ops->approve(w.gh, 7, H, "ok", &id, &err),
	                 AA_ELOST);
	assert_int_equal(reviews_of_7(&w, 0, NULL), 0);
	world_close(&w);
	world_open(&w, "fixtures/994-lost-dismiss-landed.json");
	assert_int_equal(w.gh->ops->dismiss(w.gh, 7, 71, "m", &err), AA_ELOST);
	assert_int_equal(reviews_of_7(&w, 71, "DISMISSED"), 1);
	world_close(&w);
	/* A 422 is an answer: refused, nothing made. */
	world_open(&w, "fixtures/999-create-label-422-not-there.json");
	assert_int_equal(w.gh->ops->create_label(w.gh, 7, "needs-human",
	                                         "b60205", "d", &err),
	                 AA_EREJECTED);
	world_close(&w);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_port__error_is_per_operation),
	    cmocka_unit_test(test_port__dry_run_error_is_per_operation),
	    cmocka_unit_test(test_port__lost_answer_is_elost),
	};

	return cmocka_run_group_tests_name("port", tests, NULL, NULL);
}
