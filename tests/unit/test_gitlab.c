/*
 * test_gitlab.c - the GitLab port's pure parts (docs/rules/gitlab.md):
 * G13's quick-action neutralisation, the diff line a position names
 * (G16: old_line only on a context line), and the discussion id the fake
 * and replay derive (fixtures/gitlab D1).
 */
#include "unit.h"

#include <string.h>

#include "core/mr_model.h"
#include "formats/gitlab_body.h"

static void test_gitlab__neutralise(void **state)
{
	static const struct {
		const char *in, *out;
	} rows[] = {
	    {"", ""},
	    {"/approve", " /approve"},
	    {"a\n/merge\nb", "a\n /merge\nb"},
	    {"x /approve", "x /approve"},          /* not in column one */
	    {"```\n/approve\n```", "```\n /approve\n```"}, /* fences too */
	    {"/a\n/b\n", " /a\n /b\n"},
	    {"\n/label ~x", "\n /label ~x"},
	    {" /already", " /already"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		struct buf b = BUF_INIT(BUF_MAX_SMALL);

		buf_adds(&b, rows[i].in);
		assert_int_equal(gitlab_neutralise(&b), 0);
		assert_string_equal(b.ptr, rows[i].out);
		buf_release(&b);
	}
}

static void test_gitlab__neutralise_ceiling(void **state)
{
	struct buf b = BUF_INIT(4);

	(void)state;
	buf_adds(&b, "/a\n/");
	assert_true(gitlab_neutralise(&b) < 0);
	assert_true(buf_error(&b) < 0);
	buf_release(&b);
}

static void test_gitlab__diff_line(void **state)
{
	/* fixture 2000's first hunk, and a second hunk further down */
	const char *d = "@@ -10,4 +10,6 @@\n line 1\n+line 2\n+line 3\n-line "
	                "4\n+line 5\n line 6\n line 7\n@@ -40,3 +42,4 @@ f\n "
	                "a\n+b\n c\n d\n\\ No newline at end of file\n";
	int64_t old;

	(void)state;
	assert_int_equal(mr_diff_line(d, 10, &old), MR_LINE_CONTEXT);
	assert_int_equal(old, 10);
	assert_int_equal(mr_diff_line(d, 11, &old), MR_LINE_ADDED);
	assert_int_equal(old, 0);
	assert_int_equal(mr_diff_line(d, 13, &old), MR_LINE_ADDED);
	assert_int_equal(mr_diff_line(d, 14, &old), MR_LINE_CONTEXT);
	assert_int_equal(old, 12);
	assert_int_equal(mr_diff_line(d, 15, &old), MR_LINE_CONTEXT);
	assert_int_equal(old, 13);
	assert_int_equal(mr_diff_line(d, 16, &old), 0); /* between hunks */
	assert_int_equal(mr_diff_line(d, 42, &old), MR_LINE_CONTEXT);
	assert_int_equal(old, 40);
	assert_int_equal(mr_diff_line(d, 43, &old), MR_LINE_ADDED);
	assert_int_equal(mr_diff_line(d, 45, &old), MR_LINE_CONTEXT);
	assert_int_equal(old, 42);
	assert_int_equal(mr_diff_line(d, 46, &old), 0);
	assert_int_equal(mr_diff_line(NULL, 1, &old), 0);
	assert_int_equal(mr_diff_line("not a diff\n", 1, &old), 0);
}

static void test_gitlab__discussion_id(void **state)
{
	char id[MR_DISCUSSION_ID_BUF];

	(void)state;
	/* fixture 2000: the discussion of note 453 on !7 */
	mr_discussion_id(id, 7, 453);
	assert_string_equal(id, "12a44c85a55209c9fb7b7d91dff8ce8f0e54cf9f");
	assert_int_equal(strlen(id), 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gitlab__neutralise),
	    cmocka_unit_test(test_gitlab__neutralise_ceiling),
	    cmocka_unit_test(test_gitlab__diff_line),
	    cmocka_unit_test(test_gitlab__discussion_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
