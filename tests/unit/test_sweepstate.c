/*
 * test_sweepstate.c - the sweep's change detection: digests that change
 * with every input the gate reads (and only with them), and the state file.
 */
#include "unit.h"

#include <stdlib.h>

#include "formats/snapshot.h"
#include "formats/sweepstate.h"

static const char base_snapshot[] =
	"{\"snapshot\":1,\"repository\":\"lf/svc\",\"event\":{\"name\":"
	"\"schedule\",\"payload\":{}},\"pulls\":[{\"number\":7,\"head\":{\"sha\":"
	"\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\"},\"base\":{\"ref\":"
	"\"main\"},\"labels\":[\"bug\",\"ui\"],\"comments\":[{\"id\":501,"
	"\"author\":\"lfx-reviewer\",\"created_at\":\"2026-11-29T10:00:00Z\","
	"\"body\":\"x\"},{\"id\":502,\"author\":\"dev1\",\"created_at\":"
	"\"2026-11-29T10:01:00Z\",\"body\":\"y\"}],\"timeline\":[{\"id\":9001,"
	"\"event\":\"unlabeled\",\"label\":\"needs-human\",\"actor\":\"alice\","
	"\"created_at\":\"2026-11-29T10:02:00Z\"}],\"threads\":[{\"id\":"
	"\"PRRT_1\",\"author\":\"copilot\",\"comments\":2}],\"reviews\":[{\"id\":"
	"71,\"author\":\"lfx-reviewer\",\"state\":\"APPROVED\",\"commit_id\":"
	"\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\"}]}],\"statuses\":{"
	"\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\":[{\"id\":1001,\"state\":"
	"\"success\",\"context\":\"agentic-review/clean\",\"description\":"
	"\"conductor pr=#7: clean=true\",\"creator\":\"lfx-reviewer\","
	"\"created_at\":\"2026-11-29T10:03:00Z\"}]}}";

struct fixture {
	struct snapshot s;
	char digest[SWEEPSTATE_DIGEST];
};

static void load(struct fixture *f)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	assert_int_equal(snapshot_from_json(&f->s, LIT(base_snapshot), &err), 0);
	buf_release(&err);
	sweepstate_pull_digest(f->digest, &f->s.pulls[0], &f->s.statuses[0]);
	assert_int_equal(strlen(f->digest), 64);
}

static void digest_now(struct fixture *f, char out[SWEEPSTATE_DIGEST])
{
	sweepstate_pull_digest(out, &f->s.pulls[0], &f->s.statuses[0]);
}

static void test_sweepstate__digest_is_stable(void **state)
{
	struct fixture f;
	char again[SWEEPSTATE_DIGEST];

	(void)state;
	load(&f);
	digest_now(&f, again);
	assert_string_equal(f.digest, again);
	snapshot_release(&f.s);
}

static void test_sweepstate__digest_ignores_list_order(void **state)
{
	struct fixture f;
	char again[SWEEPSTATE_DIGEST];
	char *t;
	struct snap_comment c;

	(void)state;
	load(&f);
	t = f.s.pulls[0].labels[0];
	f.s.pulls[0].labels[0] = f.s.pulls[0].labels[1];
	f.s.pulls[0].labels[1] = t;
	c = f.s.pulls[0].comments[0];
	f.s.pulls[0].comments[0] = f.s.pulls[0].comments[1];
	f.s.pulls[0].comments[1] = c;
	digest_now(&f, again);
	assert_string_equal(f.digest, again);
	snapshot_release(&f.s);
}

/* Each mutation of something the gate reads must change the digest. */
static void mutate(struct snapshot *s, int which)
{
	struct snap_pull *p = &s->pulls[0];

	switch (which) {
	case 0: p->head_sha[0] = 'a'; break;
	case 1: free(p->base_ref); p->base_ref = strdup("release"); break;
	case 2: free(p->labels[0]); p->labels[0] = strdup("needs-human"); break;
	case 3: p->comments[1].id = 503; break;
	case 4: p->comments[0].edited = true; break;
	case 5: p->comments[0].edited_by = strdup("mallory"); break;
	case 6: p->timeline[0].actor[0] = 'b'; break;
	case 7: p->timeline[0].created_at += 1000; break;
	case 8: p->threads[0].comments = 1; break;
	case 9: free(p->reviews[0].state); p->reviews[0].state = strdup("DISMISSED"); break;
	case 10: p->reviews[0].commit_id[0] = 'a'; break;
	case 11: free(s->statuses[0].v[0].state); s->statuses[0].v[0].state = strdup("failure"); break;
	case 12: free(s->statuses[0].v[0].creator); s->statuses[0].v[0].creator = strdup("mallory"); break;
	case 13: p->draft = true; break;
	case 14: p->updated_at = 1; break;
	case 15: p->nlabels--; free(p->labels[p->nlabels]); break;
	case 16: p->nthreads = 0; free(p->threads[0].id); free(p->threads[0].author); break;
	}
}

static void test_sweepstate__digest_sees_every_input(void **state)
{
	int which;

	(void)state;
	for (which = 0; which <= 16; which++) {
		struct fixture f;
		char after[SWEEPSTATE_DIGEST];

		load(&f);
		mutate(&f.s, which);
		digest_now(&f, after);
		if (strcmp(f.digest, after) == 0)
			fail_msg("mutation %d did not change the digest", which);
		snapshot_release(&f.s);
	}
}

static void test_sweepstate__policy_digest_changes_with_policy(void **state)
{
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char a[SWEEPSTATE_DIGEST], b[SWEEPSTATE_DIGEST];

	(void)state;
	policy_init(&p);
	sweepstate_policy_digest(a, &p);
	assert_int_equal(policy_set(&p, "unlabelers", "alice", &err), 0);
	sweepstate_policy_digest(b, &p);
	assert_string_not_equal(a, b);
	policy_release(&p);
	buf_release(&err);
}

static void test_sweepstate__file_round_trip(void **state)
{
	struct sweep_state s, t;
	struct sweep_repo *r;
	struct buf text = BUF_INIT(BUF_MAX_DOC), again = BUF_INIT(BUF_MAX_DOC),
		   err = BUF_INIT(BUF_MAX_SMALL);
	int64_t open[] = {7, 9};

	(void)state;
	sweepstate_init(&s);
	r = sweepstate_repo(&s, "lf/svc");
	memcpy(r->policy, "abc", 4);
	sweepstate_put(r, 7, "d7", "approve", 1764410400000);
	sweepstate_put(r, 8, "d8", "withhold", 1764410400000);
	sweepstate_put(r, 9, "d9", "skipped", 1764410400000);
	sweepstate_put(r, 7, "d7b", "withhold", 1764410401000);
	assert_int_equal(r->n, 3);
	sweepstate_keep(r, open, 2);
	assert_int_equal(r->n, 2);
	assert_null(sweepstate_find(r, 8));
	assert_string_equal(sweepstate_find(r, 7)->digest, "d7b");
	assert_string_equal(sweepstate_find(r, 7)->outcome, "withhold");
	sweepstate_to_json(&s, &text);
	assert_int_equal(sweepstate_from_json(&t, text.ptr, text.len, &err), 0);
	sweepstate_to_json(&t, &again);
	assert_string_equal(text.ptr, again.ptr);
	assert_string_equal(sweepstate_repo(&t, "LF/SVC")->policy, "abc");
	sweepstate_release(&s);
	sweepstate_release(&t);
	buf_release(&text);
	buf_release(&again);
	buf_release(&err);
}

static void test_sweepstate__bad_files_are_errors(void **state)
{
	static const char *const bad[] = {
		"", "[]", "{\"agentic_sweep_state\":2,\"repositories\":{}}",
		"{\"agentic_sweep_state\":1}",
		"{\"agentic_sweep_state\":1,\"repositories\":{\"nope\":{"
		"\"policy\":\"x\",\"pulls\":[]}}}",
		"{\"agentic_sweep_state\":1,\"repositories\":{\"a/b\":{"
		"\"policy\":\"x\",\"pulls\":[{\"number\":\"7\"}]}}}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sweep_state s;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		if (sweepstate_from_json(&s, bad[i], strlen(bad[i]), &err) == 0)
			fail_msg("bad file %zu was accepted", i);
		assert_true(err.len > 0);
		buf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweepstate__digest_is_stable),
		cmocka_unit_test(test_sweepstate__digest_ignores_list_order),
		cmocka_unit_test(test_sweepstate__digest_sees_every_input),
		cmocka_unit_test(test_sweepstate__policy_digest_changes_with_policy),
		cmocka_unit_test(test_sweepstate__file_round_trip),
		cmocka_unit_test(test_sweepstate__bad_files_are_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
