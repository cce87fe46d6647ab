/*
 * test_stamp.c - BEHAVIOR §4: rounds, clean state and skip markers.
 */
#include "unit.h"

#include <stdlib.h>

#include "core/policy.h"
#include "formats/snapshot.h"
#include "core/stamp.h"

#define H   "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define TR  "lfx-reviewer"
#define CTX "agentic-review/clean"
#define ESC "agentic-review/escalation"

/* --- descriptions --- */

struct desc_row {
	const char *desc;
	int64_t pr;
	bool has_pr;
	bool has_skip;
};

static const struct desc_row desc_rows[] = {
    {"conductor pr=#7: clean=true", 7, true, false},
    {"conductor pr=#7: awaiting review round", 7, true, false},
    {"skipped pr=#7: needs-human label set", 7, true, true},
    {"conductor pr=#70: clean=true", 7, false, false},
    {"conductor pr=#7: clean=true", 70, false, false},
    {"skipped pr=#70: needs-human label set", 7, false, false},
    {"conductor pr=#17: clean=true", 7, false, false},
    {"conductor pr=#7 clean=true", 7, false, false},
    {"conductor pr=7: clean=true", 7, false, false},
    {"conductor PR=#7: clean=true", 7, false, false},
    {"conductor pr=#07: clean=true", 7, false, false},
    {"xpr=#7:", 7, true, false},
    {"pr=#8: and pr=#7:", 7, true, false},
    {"skipped  pr=#7:", 7, true, false},
    {"Skipped pr=#7:", 7, true, false},
    {"skipped pr=#7", 7, false, false},
    {"", 7, false, false},
    {"pr=#0:", 0, false, false},
    {"pr=#-1:", -1, false, false},
    {"pr=#2147483647:", 2147483647, true, false},
};

static void test_stamp__description_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(desc_rows); i++) {
		const struct desc_row *r = &desc_rows[i];

		if (stamp_desc_has_pr(r->desc, r->pr) != r->has_pr) {
			print_error("row %zu (%s, %lld): has_pr expected %d\n",
			            i, r->desc, (long long)r->pr, r->has_pr);
			bad++;
		}
		if (stamp_desc_has_skip(r->desc, r->pr) != r->has_skip) {
			print_error(
			    "row %zu (%s, %lld): has_skip expected %d\n", i,
			    r->desc, (long long)r->pr, r->has_skip);
			bad++;
		}
	}
	assert_false(stamp_desc_has_pr(NULL, 7));
	assert_false(stamp_desc_has_skip(NULL, 7));
	assert_int_equal(bad, 0);
}

struct descpr_row {
	const char *desc;
	int64_t pr;
};

static const struct descpr_row descpr_rows[] = {
    {"conductor pr=#7: clean=true", 7},
    {"conductor pr=#1234: awaiting review round", 1234},
    {"skipped pr=#12: needs-human label set", 12},
    {"pr=#abc: then pr=#5:", 5},
    {"pr=#5 then pr=#6:", 6},
    {"pr=#0: x", 0},
    {"pr=#: x", 0},
    {"pr=#7", 0},
    {"conductor", 0},
    {"", 0},
    {"pr=#99999999999: x", 0},
    {"pr=#2147483647:", 2147483647},
    {"pr=#2147483648:", 0},
    {"pr=#3:pr=#4:", 3},
};

static void test_stamp__desc_pr_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(descpr_rows); i++) {
		int64_t got = stamp_desc_pr(descpr_rows[i].desc);

		if (got != descpr_rows[i].pr) {
			print_error("row %zu (%s): %lld, expected %lld\n", i,
			            descpr_rows[i].desc, (long long)got,
			            (long long)descpr_rows[i].pr);
			bad++;
		}
	}
	assert_int_equal(stamp_desc_pr(NULL), 0);
	assert_int_equal(bad, 0);
}

/* --- picking the newest trusted status --- */

struct st_spec {
	int64_t id;
	const char *state, *context, *desc, *creator;
	int64_t at; /* seconds, only to show ids (not times) decide */
};

static void fill(struct snap_statuses *st, const struct st_spec *v, size_t n)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	memcpy(st->sha, H, SHA_BUF);
	st->v = xcalloc(n ? n : 1, sizeof(*st->v));
	for (i = 0; i < n; i++) {
		struct snap_status *x = &st->v[st->n++];

		x->id = v[i].id;
		x->state = xstrdup(v[i].state);
		x->context = xstrdup(v[i].context);
		x->description = xstrdup(v[i].desc);
		x->creator = xstrdup_or_null(v[i].creator);
		x->created_at = v[i].at * 1000;
	}
}

static const struct st_spec mixed[] = {
    /* id, state, context, description, creator, time */
    {1001, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 100},
    {1002, "success", CTX, "conductor pr=#7: clean=true", TR, 900},
    {1003, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 50},
    {1010, "pending", CTX, "conductor pr=#7: awaiting review round", "dev1",
     300},
    {1011, "success", CTX, "conductor pr=#7: clean=true", NULL, 300},
    {1012, "pending", CTX, "conductor pr=#70: awaiting review round", TR, 300},
    {1013, "pending", ESC, "conductor pr=#7: awaiting review round", TR, 300},
    {1014, "failure", CTX, "conductor pr=#70: clean=false", TR, 300},
    {1004, "success", ESC, "skipped pr=#7: needs-human label set", TR, 60},
    {1015, "success", ESC, "skipped pr=#7: needs-human label set",
     "lfx-reviewer[bot]", 300},
    {1016, "failure", ESC, "skipped pr=#7: needs-human label set", TR, 300},
    {1017, "success", ESC, "skipped pr=#70: needs-human label set", TR, 300},
    {1018, "success", CTX, "skipped pr=#7: needs-human label set x", "dev1",
     300},
};

static void test_stamp__round_clean_skip_pick(void **state)
{
	struct snap_statuses st;
	struct policy p;
	const struct snap_status *x;

	(void)state;
	policy_init(&p);
	fill(&st, mixed, ARRAY_SIZE(mixed));

	/* round: newest trusted pending clean-context with pr=#7: by id,
	 * though its created_at is the oldest */
	x = stamp_round(&st, &p, 7);
	assert_non_null(x);
	assert_int_equal(x->id, 1003);
	/* clean: any state; 1003 is the newest trusted one for PR 7 */
	x = stamp_clean(&st, &p, 7);
	assert_non_null(x);
	assert_int_equal(x->id, 1003);
	assert_string_equal(x->state, "pending");
	/* skip marker: trusted, success, escalation context */
	x = stamp_skip(&st, &p, 7);
	assert_non_null(x);
	assert_int_equal(x->id, 1004);
	/* PR 70 */
	x = stamp_round(&st, &p, 70);
	assert_non_null(x);
	assert_int_equal(x->id, 1012);
	x = stamp_clean(&st, &p, 70);
	assert_int_equal(x->id, 1014);
	x = stamp_skip(&st, &p, 70);
	assert_int_equal(x->id, 1017);
	/* nothing for PR 8 */
	assert_null(stamp_round(&st, &p, 8));
	assert_null(stamp_clean(&st, &p, 8));
	assert_null(stamp_skip(&st, &p, 8));
	/* NULL statuses: nothing */
	assert_null(stamp_round(NULL, &p, 7));
	assert_null(stamp_clean(NULL, &p, 7));
	assert_null(stamp_skip(NULL, &p, 7));

	snap_statuses_release(&st);
	policy_release(&p);
}

static void test_stamp__only_trusted_count(void **state)
{
	static const struct st_spec v[] = {
	    {5, "success", CTX, "conductor pr=#7: clean=true", "dev1", 1},
	    {6, "pending", CTX, "conductor pr=#7: awaiting review round",
	     "github-actions[bot]", 1},
	    {7, "success", ESC, "skipped pr=#7: needs-human label set", NULL,
	     1},
	    {8, "success", CTX, "conductor pr=#7: clean=true",
	     "lfx-reviewer[bot]", 1},
	};
	struct snap_statuses st;
	struct policy p;

	(void)state;
	policy_init(&p);
	fill(&st, v, ARRAY_SIZE(v));
	assert_null(stamp_round(&st, &p, 7));
	assert_null(stamp_clean(&st, &p, 7));
	assert_null(stamp_skip(&st, &p, 7));
	assert_false(stamp_trusted(&st.v[0], &p));
	assert_false(stamp_trusted(&st.v[2], &p));
	assert_false(stamp_trusted(&st.v[3], &p));
	snap_statuses_release(&st);
	policy_release(&p);
}

static void test_stamp__trusted_case_insensitive(void **state)
{
	static const struct st_spec v[] = {
	    {5, "success", CTX, "conductor pr=#7: clean=true", "LFX-REVIEWER",
	     1},
	};
	struct snap_statuses st;
	struct policy p;

	(void)state;
	policy_init(&p);
	fill(&st, v, 1);
	assert_true(stamp_trusted(&st.v[0], &p));
	assert_non_null(stamp_clean(&st, &p, 7));
	snap_statuses_release(&st);
	policy_release(&p);
}

static void test_stamp__contexts_from_policy(void **state)
{
	static const struct st_spec v[] = {
	    {1, "pending", "ci/round", "conductor pr=#7: x", "robot", 1},
	    {2, "success", "ci/esc", "skipped pr=#7: x", "robot", 1},
	    {3, "success", CTX, "conductor pr=#7: clean=true", "robot", 1},
	};
	struct snap_statuses st;
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_set(&p, "clean_context", "ci/round", &err), 0);
	assert_int_equal(policy_set(&p, "escalation_context", "ci/esc", &err),
	                 0);
	assert_int_equal(policy_set(&p, "trusted_login", "robot", &err), 0);
	fill(&st, v, ARRAY_SIZE(v));
	assert_int_equal(stamp_round(&st, &p, 7)->id, 1);
	assert_int_equal(stamp_clean(&st, &p, 7)->id, 1);
	assert_int_equal(stamp_skip(&st, &p, 7)->id, 2);
	snap_statuses_release(&st);
	policy_release(&p);
	buf_release(&err);
}

static void test_stamp__context_compare_is_exact(void **state)
{
	static const struct st_spec v[] = {
	    {1, "pending", "Agentic-Review/Clean",
	     "conductor pr=#7: awaiting review round", TR, 1},
	    {2, "pending", "agentic-review/clean ",
	     "conductor pr=#7: awaiting review round", TR, 1},
	    {3, "success", "agentic-review/escalation/x",
	     "skipped pr=#7: needs-human label set", TR, 1},
	};
	struct snap_statuses st;
	struct policy p;

	(void)state;
	policy_init(&p);
	fill(&st, v, ARRAY_SIZE(v));
	assert_null(stamp_round(&st, &p, 7));
	assert_null(stamp_clean(&st, &p, 7));
	assert_null(stamp_skip(&st, &p, 7));
	snap_statuses_release(&st);
	policy_release(&p);
}

static void test_stamp__empty_list(void **state)
{
	struct snap_statuses st;
	struct policy p;

	(void)state;
	policy_init(&p);
	fill(&st, NULL, 0);
	assert_null(stamp_round(&st, &p, 7));
	assert_null(stamp_clean(&st, &p, 7));
	assert_null(stamp_skip(&st, &p, 7));
	snap_statuses_release(&st);
	policy_release(&p);
}

/* --- what the live port asks: one clean status, a history read so far --- */

struct counts_row {
	const char *state, *context, *desc, *creator;
	int64_t pr;
	bool counts;
};

static const struct counts_row counts_rows[] = {
    /* any state of a trusted clean-context pr=#N: status */
    {"success", CTX, "conductor pr=#7: clean=true", TR, 7, true},
    {"failure", CTX, "conductor pr=#7: clean=false", TR, 7, true},
    {"pending", CTX, "conductor pr=#7: awaiting review round", TR, 7, true},
    {"error", CTX, "conductor pr=#7: x", TR, 7, true},
    {"success", CTX, "conductor pr=#7: clean=true", "LFX-Reviewer", 7, true},
    {"success", CTX, "conductor pr=#7: clean=true", "ai-bot[bot]", 7, true},
    /* another PR's, or none */
    {"success", CTX, "conductor pr=#70: clean=true", TR, 7, false},
    {"success", CTX, "conductor pr=#7: clean=true", TR, 70, false},
    {"success", CTX, "conductor pr=#7 clean=true", TR, 7, false},
    {"success", CTX, "", TR, 7, false},
    /* untrusted (T3) */
    {"success", CTX, "conductor pr=#7: clean=true", "dev1", 7, false},
    {"success", CTX, "conductor pr=#7: clean=true", NULL, 7, false},
    {"success", CTX, "conductor pr=#7: clean=true", "lfx-reviewer[bot]", 7,
     false},
    {"success", CTX, "conductor pr=#7: clean=true", "ai-bot", 7, false},
    /* another context */
    {"success", ESC, "conductor pr=#7: clean=true", TR, 7, false},
    {"success", "Agentic-Review/Clean", "conductor pr=#7: clean=true", TR, 7,
     false},
};

static void test_stamp__counts_for_clean_table(void **state)
{
	struct policy p;
	size_t i;
	int bad = 0;

	(void)state;
	policy_init(&p);
	p.app_login = xstrdup("ai-bot[bot]"); /* App mode: its own statuses */
	for (i = 0; i < ARRAY_SIZE(counts_rows); i++) {
		const struct counts_row *r = &counts_rows[i];
		struct snap_status x;

		memset(&x, 0, sizeof(x));
		x.id = 1;
		x.state = xstrdup(r->state);
		x.context = xstrdup(r->context);
		x.description = xstrdup(r->desc);
		x.creator = xstrdup_or_null(r->creator);
		if (stamp_counts_for_clean(&x, &p, r->pr) != r->counts) {
			print_error("row %zu (%s %s \"%s\" by %s, PR %lld): "
			            "expected %d\n",
			            i, r->state, r->context, r->desc,
			            r->creator ? r->creator : "(none)",
			            (long long)r->pr, r->counts);
			bad++;
		}
		snap_status_release(&x);
	}
	assert_false(stamp_counts_for_clean(NULL, &p, 7));
	assert_int_equal(bad, 0);
	policy_release(&p);
}

struct enough_row {
	const char *name;
	struct st_spec v[3]; /* newest first; id 0 ends the list */
	int64_t pr;
	bool enough;
};

static const struct enough_row enough_rows[] = {
    {"empty", {{0}}, 7, false},
    {"a round",
     {{9, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 1}},
     7,
     true},
    {"a round below the clean status",
     {{9, "success", CTX, "conductor pr=#7: clean=true", TR, 1},
      {8, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 1}},
     7,
     true},
    {"a round below a skip marker",
     {{9, "success", ESC, "skipped pr=#7: needs-human label set", TR, 1},
      {8, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 1}},
     7,
     true},
    {"clean and skip, no round yet",
     {{9, "success", CTX, "conductor pr=#7: clean=true", TR, 1},
      {8, "success", ESC, "skipped pr=#7: needs-human label set", TR, 1}},
     7,
     false},
    {"another PR's round",
     {{9, "pending", CTX, "conductor pr=#70: awaiting review round", TR, 1}},
     7,
     false},
    {"an untrusted round",
     {{9, "pending", CTX, "conductor pr=#7: awaiting review round", "dev1",
       1}},
     7,
     false},
    {"a pending status in the escalation context",
     {{9, "pending", ESC, "conductor pr=#7: awaiting review round", TR, 1}},
     7,
     false},
    {"a round not pending",
     {{9, "failure", CTX, "conductor pr=#7: awaiting review round", TR, 1}},
     7,
     false},
};

static void test_stamp__history_enough_table(void **state)
{
	struct policy p;
	size_t i;
	int bad = 0;

	(void)state;
	policy_init(&p);
	for (i = 0; i < ARRAY_SIZE(enough_rows); i++) {
		const struct enough_row *r = &enough_rows[i];
		struct snap_statuses st;
		size_t n = 0;

		while (n < ARRAY_SIZE(r->v) && r->v[n].id)
			n++;
		fill(&st, r->v, n);
		if (stamp_history_enough(&st, &p, r->pr) != r->enough) {
			print_error("row %zu (%s): expected %d\n", i, r->name,
			            r->enough);
			bad++;
		}
		snap_statuses_release(&st);
	}
	assert_false(stamp_history_enough(NULL, &p, 7));
	assert_int_equal(bad, 0);
	policy_release(&p);
}

static int cmp_id_desc(const void *a, const void *b)
{
	const struct st_spec *x = a, *y = b;

	return (x->id < y->id) - (x->id > y->id);
}

/* An older round and skip marker of PR 7 below `mixed`, and a skip marker
 * of PR 8, which has no round. */
static const struct st_spec older[] = {
    {990, "success", ESC, "skipped pr=#7: needs-human label set", TR, 40},
    {985, "pending", CTX, "conductor pr=#7: awaiting review round", TR, 30},
    {1020, "success", ESC, "skipped pr=#8: needs-human label set", TR, 400},
};

/* The skip marker that counts (§4): above the newest round. */
static int64_t valid_skip(const struct snap_statuses *st,
                          const struct policy *p, int64_t pr)
{
	const struct snap_status *round = stamp_round(st, p, pr);
	const struct snap_status *skip = stamp_skip(st, p, pr);

	return round && skip && skip->id > round->id ? skip->id : 0;
}

/* Where it says "enough", the §4 lookups over the part read are those
 * over the whole history: stopping there changes no decision. */
static void test_stamp__history_enough_decides_as_whole(void **state)
{
	static const int64_t prs[] = {7, 70, 8};
	struct st_spec v[ARRAY_SIZE(mixed) + ARRAY_SIZE(older)];
	struct snap_statuses whole, part;
	struct policy p;
	size_t i, k, stops[ARRAY_SIZE(prs)] = {0};

	(void)state;
	policy_init(&p);
	memcpy(v, mixed, sizeof(mixed));
	memcpy(v + ARRAY_SIZE(mixed), older, sizeof(older));
	qsort(v, ARRAY_SIZE(v), sizeof(v[0]), cmp_id_desc);
	fill(&whole, v, ARRAY_SIZE(v));
	for (i = 0; i < ARRAY_SIZE(prs); i++) {
		for (k = 0; k <= ARRAY_SIZE(v); k++) {
			const struct snap_status *a, *b;

			fill(&part, v, k);
			if (!stamp_history_enough(&part, &p, prs[i])) {
				snap_statuses_release(&part);
				continue;
			}
			stops[i]++;
			a = stamp_round(&part, &p, prs[i]);
			b = stamp_round(&whole, &p, prs[i]);
			assert_non_null(a);
			assert_int_equal(a->id, b->id);
			a = stamp_clean(&part, &p, prs[i]);
			b = stamp_clean(&whole, &p, prs[i]);
			assert_int_equal(a ? a->id : 0, b ? b->id : 0);
			assert_int_equal(valid_skip(&part, &p, prs[i]),
			                 valid_skip(&whole, &p, prs[i]));
			snap_statuses_release(&part);
		}
	}
	/* PR 7 and PR 70 have rounds; PR 8 never has enough. */
	assert_true(stops[0] > 0);
	assert_true(stops[1] > 0);
	assert_int_equal(stops[2], 0);
	snap_statuses_release(&whole);
	policy_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stamp__description_table),
	    cmocka_unit_test(test_stamp__desc_pr_table),
	    cmocka_unit_test(test_stamp__round_clean_skip_pick),
	    cmocka_unit_test(test_stamp__only_trusted_count),
	    cmocka_unit_test(test_stamp__trusted_case_insensitive),
	    cmocka_unit_test(test_stamp__contexts_from_policy),
	    cmocka_unit_test(test_stamp__context_compare_is_exact),
	    cmocka_unit_test(test_stamp__empty_list),
	    cmocka_unit_test(test_stamp__counts_for_clean_table),
	    cmocka_unit_test(test_stamp__history_enough_table),
	    cmocka_unit_test(test_stamp__history_enough_decides_as_whole),
	};

	return cmocka_run_group_tests_name("stamp", tests, NULL, NULL);
}
