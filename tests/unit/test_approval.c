/*
 * test_approval.c - BEHAVIOR §6: the approval protocol around the gate
 * (core/approval.h), one table per decision: the existing approval of
 * step 1, the re-check of steps 2 and 4, whose reviews §6.2 dismisses,
 * the approval just posted that the fresh list does not show, the older
 * approval of a concurrent run, and how a step that did not approve ends.
 *
 * Reviews are a few specs on PR heads H and H2; the trusted login is the
 * default policy's (lfx-reviewer).
 */
#include "unit.h"

#include <stdio.h>

#include "core/approval.h"
#include "core/exit.h"
#include "core/policy.h"

#define H  "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H2 "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define TR "lfx-reviewer"

struct rv_spec {
	int64_t id;
	const char *author, *state, *commit;
};

#define MAX_RV 4

/* The strings of the reviews built from specs. */
static char authors[MAX_RV][48], states[MAX_RV][16];

/* Reviews from specs (their strings in authors[] and states[]). */
static size_t reviews(struct snap_review *out, const struct rv_spec *spec)
{
	size_t n = 0;

	memset(out, 0, MAX_RV * sizeof(*out));
	for (; n < MAX_RV && spec[n].id; n++) {
		out[n].id = spec[n].id;
		snprintf(authors[n], sizeof(authors[n]), "%s", spec[n].author);
		snprintf(states[n], sizeof(states[n]), "%s", spec[n].state);
		out[n].author = authors[n];
		out[n].state = states[n];
		snprintf(out[n].commit_id, SHA_BUF, "%s", spec[n].commit);
	}
	return n;
}

static struct approval_eval eval(const char *head, const struct snap_review *v,
                                 size_t n)
{
	struct approval_eval ev;

	memset(&ev, 0, sizeof(ev));
	ev.read = true;
	ev.outcome = GATE_APPROVE;
	ev.head = head;
	ev.reviews_read = v != NULL;
	ev.reviews = v;
	ev.nreviews = n;
	return ev;
}

/* §6.1 step 1, approval_older and approval_unlisted over one table. */
static void test_approval__reviews_table(void **state)
{
	static const struct {
		const char *name;
		struct rv_spec rv[MAX_RV + 1];
		bool unread;
		int64_t mine;
		bool exists;   /* approval_exists for H */
		int64_t older; /* approval_older(mine) */
		bool unlisted; /* approval_unlisted(mine) */
	} rows[] = {
	    {"none", {{0}}, false, 0, false, 0, false},
	    {"ours on H", {{5, TR, "APPROVED", H}}, false, 5, true, 0, false},
	    {"ours, login in another case",
	     {{5, "LFX-Reviewer", "APPROVED", H}},
	     false,
	     5,
	     true,
	     0,
	     false},
	    {"ours on an older head",
	     {{5, TR, "APPROVED", H2}},
	     false,
	     0,
	     false,
	     0,
	     false},
	    {"ours dismissed",
	     {{5, TR, "DISMISSED", H}},
	     false,
	     5,
	     false,
	     0,
	     true},
	    {"someone else's",
	     {{5, "alice", "APPROVED", H}},
	     false,
	     5,
	     false,
	     0,
	     true},
	    {"the [bot] look-alike",
	     {{5, TR "[bot]", "APPROVED", H}},
	     false,
	     5,
	     false,
	     0,
	     true},
	    {"ours commented",
	     {{5, TR, "COMMENTED", H}},
	     false,
	     0,
	     false,
	     0,
	     false},
	    {"a concurrent run approved first",
	     {{3, TR, "APPROVED", H}, {5, TR, "APPROVED", H}},
	     false,
	     5,
	     true,
	     3,
	     false},
	    {"the oldest of two earlier ones stays",
	     {{4, TR, "APPROVED", H},
	      {2, TR, "APPROVED", H},
	      {5, TR, "APPROVED", H}},
	     false,
	     5,
	     true,
	     2,
	     false},
	    {"a later one is not older",
	     {{5, TR, "APPROVED", H}, {7, TR, "APPROVED", H}},
	     false,
	     5,
	     true,
	     0,
	     false},
	    {"an older one of another head does not count",
	     {{3, TR, "APPROVED", H2}, {5, TR, "APPROVED", H}},
	     false,
	     5,
	     true,
	     0,
	     false},
	    {"an older one of someone else does not count",
	     {{3, "alice", "APPROVED", H}, {5, TR, "APPROVED", H}},
	     false,
	     5,
	     true,
	     0,
	     false},
	    {"mine not listed yet",
	     {{3, "alice", "APPROVED", H}},
	     false,
	     9,
	     false,
	     0,
	     true},
	    {"reviews unread",
	     {{5, TR, "APPROVED", H}},
	     true,
	     5,
	     false,
	     0,
	     true},
	    {"nothing posted", {{0}}, true, 0, false, 0, false},
	};
	struct snap_review v[MAX_RV];
	struct policy pol;
	size_t i, n;

	(void)state;
	policy_init(&pol);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct approval_eval ev;

		n = reviews(v, rows[i].rv);
		ev = eval(H, rows[i].unread ? NULL : v, rows[i].unread ? 0 : n);
		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(approval_exists(&ev, &pol), rows[i].exists);
		assert_int_equal(approval_older(&ev, rows[i].mine, &pol),
		                 rows[i].older);
		assert_int_equal(approval_unlisted(&ev, rows[i].mine, &pol),
		                 rows[i].unlisted);
	}
	policy_release(&pol);
}

/* §6.1 steps 2 and 4: the re-check against the first evaluation. */
static void test_approval__recheck_table(void **state)
{
	static const struct {
		const char *name;
		bool read, skip, ungated;
		enum gate_outcome outcome;
		const char *head;
		enum approval_recheck want;
	} rows[] = {
	    {"same head, still approvable", true, false, false, GATE_APPROVE, H,
	     APPROVAL_HOLDS},
	    {"a new head", true, false, false, GATE_APPROVE, H2,
	     APPROVAL_CHANGED},
	    {"a condition fails now", true, false, false, GATE_WITHHOLD, H,
	     APPROVAL_CHANGED},
	    {"closed meanwhile", true, true, false, GATE_SKIPPED, H,
	     APPROVAL_CHANGED},
	    {"retargeted to an ungated base", true, false, true, GATE_SKIPPED,
	     H, APPROVAL_CHANGED},
	    {"a read failed", true, false, false, GATE_ERROR, H,
	     APPROVAL_UNREADABLE},
	    {"a read failed on a new head", true, false, false, GATE_ERROR, H2,
	     APPROVAL_UNREADABLE},
	    {"the PR vanished (or its read failed)", false, false, false,
	     GATE_APPROVE, "", APPROVAL_UNREADABLE},
	    {"skipped as unread", false, true, false, GATE_SKIPPED, "",
	     APPROVAL_UNREADABLE},
	};
	struct approval_eval first = eval(H, NULL, 0);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct approval_eval again = eval(rows[i].head, NULL, 0);

		again.read = rows[i].read;
		again.skip = rows[i].skip;
		again.ungated = rows[i].ungated;
		again.outcome = rows[i].outcome;
		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(approval_recheck(&first, &again),
		                 rows[i].want);
	}
}

/* §6.2: dismiss on the fresh reviews when they were read. */
static void test_approval__reviews_from(void **state)
{
	struct snap_review v[1];
	struct approval_eval first = eval(H, v, 0);
	struct approval_eval again = eval(H, v, 0);

	(void)state;
	assert_ptr_equal(approval_reviews_from(&first, &again), &again);
	again.reviews_read = false;
	assert_ptr_equal(approval_reviews_from(&first, &again), &first);
}

/* §5.3, §6.2, A13: how a step that did not approve ends. */
static void test_approval__withheld_table(void **state)
{
	static const struct {
		const char *name;
		enum gate_outcome kept;
		bool read_failed;
		int dismissed;
		enum gate_outcome outcome;
		int exit;
	} rows[] = {
	    {"withheld, dismissed", GATE_WITHHOLD, false, AA_OK, GATE_WITHHOLD,
	     EXIT_OK},
	    {"a read failed", GATE_WITHHOLD, true, AA_OK, GATE_ERROR, EXIT_API},
	    {"a dismissal failed", GATE_WITHHOLD, false, AA_EAPI, GATE_ERROR,
	     EXIT_API},
	    {"the identity is unreadable", GATE_WITHHOLD, false, AA_EAPI,
	     GATE_ERROR, EXIT_API},
	    {"another login", GATE_WITHHOLD, false, AA_EUSAGE, GATE_ERROR,
	     EXIT_USAGE},
	    {"another login after a failed read", GATE_WITHHOLD, true,
	     AA_EUSAGE, GATE_ERROR, EXIT_USAGE},
	    {"ungated, dismissed", GATE_SKIPPED, false, AA_OK, GATE_SKIPPED,
	     EXIT_OK},
	    {"ungated, reviews unread", GATE_SKIPPED, true, AA_OK, GATE_ERROR,
	     EXIT_API},
	    {"ungated, a dismissal failed", GATE_SKIPPED, false, AA_EAPI,
	     GATE_ERROR, EXIT_API},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct approval_end end = approval_withheld(
		    rows[i].kept, rows[i].read_failed, rows[i].dismissed);

		print_message("row %zu: %s\n", i, rows[i].name);
		assert_int_equal(end.outcome, rows[i].outcome);
		assert_int_equal(end.exit, rows[i].exit);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_approval__reviews_table),
	    cmocka_unit_test(test_approval__recheck_table),
	    cmocka_unit_test(test_approval__reviews_from),
	    cmocka_unit_test(test_approval__withheld_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
