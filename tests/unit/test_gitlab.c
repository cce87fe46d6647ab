/*
 * test_gitlab.c - the GitLab port's pure parts (docs/rules/gitlab.md):
 * G13's quick-action neutralisation, the diff line a position names
 * (G16: old_line only on a context line), and the discussion id the fake
 * and replay derive (fixtures/gitlab D1).
 */
#include "unit.h"

#include <string.h>

#include "base/buf.h"
#include "core/mr_model.h"
#include "formats/gitlab_body.h"
#include "formats/snapshot.h"
#include "port/gitlab.h"

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

/* P65: the words of a failed answer, as the fake GitLab's bodies read. */
static void test_gitlab__answer_words(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL), t = BUF_INIT(BUF_MAX_SMALL);
	char big[400];

	(void)state;
	gitlab_error_body(&b, 400, true, NULL);
	assert_string_equal(b.ptr, "{\"message\":\"400 Bad request - Note "
	                           "{:line_code=>[\\\"can't be blank\\\", "
	                           "\\\"must be a valid line code\\\"]}\"}");
	buf_reset(&b);
	gitlab_error_body(&b, 400, false, NULL);
	assert_string_equal(b.ptr, "{\"message\":\"400 Bad request\"}");
	buf_reset(&b);
	gitlab_error_body(&b, 502, true, NULL);
	assert_string_equal(b.ptr, "{\"message\":\"502 Bad Gateway\"}");
	buf_reset(&b);
	gitlab_error_body(&b, 418, false, NULL);
	assert_string_equal(b.ptr, "{\"message\":\"418\"}");
	buf_reset(&b);
	gitlab_error_body(&b, 404, false, "404 Note Not Found");
	assert_string_equal(b.ptr, "{\"message\":\"404 Note Not Found\"}");
	gitlab_answer_text(&t, "GET", "/projects/a%2Fb/x?per_page=100&page=2",
	                   502, b.ptr, b.len);
	assert_string_equal(t.ptr, "GET /projects/a%2Fb/x: HTTP 502 "
	                           "({\"message\":\"404 Note Not Found\"})");
	memset(big, 'x', sizeof(big));
	gitlab_answer_text(&t, "PUT", "/n", 500, big, sizeof(big));
	assert_string_equal(t.ptr, "PUT /n: HTTP 500");
	gitlab_answer_text(&t, "DELETE", "/n", 404, NULL, 0);
	assert_string_equal(t.ptr, "DELETE /n: HTTP 404");
	buf_reset(&b);
	gitlab_project_enc(&b, "g/sub/p.x-y_z");
	assert_string_equal(b.ptr, "g%2Fsub%2Fp.x-y_z");
	buf_release(&b);
	buf_release(&t);
}

/* P60, P63: a GitLab snapshot written and read back is the same model:
 * the second writing is the first, byte for byte; ids, types, system
 * and internal notes, positions, diff_refs null and statuses survive. */
static void test_gitlab__snapshot_round_trip(void **state)
{
	static const char text[] =
	    "{\"snapshot\": 1, \"platform\": \"gitlab\", \"host\": "
	    "\"gitlab.example.com:8443\", \"repository\": \"g/sub/p\", "
	    "\"project_id\": 42, \"viewer\": \"review.bot\", "
	    "\"config\": {\"review_login\": \"review.bot\"}, "
	    "\"command\": {\"name\": \"review-plan\", \"pr\": \"g/sub/p!7\"}, "
	    "\"pulls\": [], \"merge_requests\": [{\"iid\": 7, \"sha\": "
	    "\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\", \"diff_refs\": "
	    "null, "
	    "\"commits\": [\"6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d\", "
	    "\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\"], "
	    "\"notes\": [{\"id\": 5, \"author\": null, \"system\": true, "
	    "\"body\": \"added 1 commit\", \"created_at\": "
	    "\"2026-11-29T10:00:00Z\"}, {\"id\": 6, \"author\": "
	    "\"review.bot\", "
	    "\"internal\": true, \"body\": \"<!-- pr-review:sticky -->\", "
	    "\"created_at\": \"2026-11-29T10:01:00Z\", \"last_edited_at\": "
	    "\"2026-11-29T10:02:00Z\", \"last_edited_by\": null}], "
	    "\"discussions\": [{\"notes\": [{\"id\": 9, \"type\": "
	    "\"DiffNote\", "
	    "\"author\": \"review.bot\", \"body\": \"root\", \"created_at\": "
	    "\"2026-11-29T10:03:00Z\", \"position\": {\"new_path\": \"a.c\", "
	    "\"new_line\": 3}}, {\"id\": 10, \"type\": \"DiffNote\", "
	    "\"author\": \"dev1\", \"body\": \"reply\", \"created_at\": "
	    "\"2026-11-29T10:04:00Z\"}]}], \"diffs\": [{\"new_path\": \"a.c\", "
	    "\"old_path\": \"b.c\", \"renamed_file\": true, \"diff\": "
	    "\"@@ -1,1 +1,2 @@\\n a\\n+b\\n\"}]}], "
	    "\"commit_statuses\": [{\"id\": 3, \"sha\": "
	    "\"7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e\", \"name\": "
	    "\"pr-review\", "
	    "\"status\": \"failed\", \"author\": \"review.bot\", "
	    "\"created_at\": \"2026-11-29T10:05:00Z\"}]}";
	struct snapshot a, b;
	struct buf err = BUF_INIT(BUF_MAX_SMALL), j1 = BUF_INIT(BUF_MAX_DOC),
	           j2 = BUF_INIT(BUF_MAX_DOC);
	const struct merge_request *mr;

	(void)state;
	assert_int_equal(snapshot_from_json(&a, text, sizeof(text) - 1, &err),
	                 0);
	assert_int_equal(snapshot_to_json(&a, &j1), 0);
	if (snapshot_from_json(&b, j1.ptr, j1.len, &err) != 0)
		fail_msg("%s\n%s", err.ptr, j1.ptr);
	assert_int_equal(snapshot_to_json(&b, &j2), 0);
	assert_string_equal(j1.ptr, j2.ptr);
	assert_non_null(b.gitlab);
	assert_string_equal(b.gitlab->host, "gitlab.example.com:8443");
	assert_int_equal(b.gitlab->project_id, 42);
	mr = &b.gitlab->mrs[0];
	assert_true(mr->diff_refs_null);
	assert_int_equal(mr->ncommits, 2);
	assert_int_equal(mr->ndiscussions, 3);
	assert_true(mr->discussions[0].individual);
	assert_true(mr->discussions[0].notes[0].system);
	assert_null(mr->discussions[0].notes[0].type);
	assert_true(mr->discussions[1].notes[0].internal);
	assert_null(mr->discussions[1].notes[0].last_edited_by);
	assert_true(mr->discussions[1].notes[0].last_edited_at != 0);
	assert_string_equal(mr->discussions[2].id,
	                    a.gitlab->mrs[0].discussions[2].id);
	assert_string_equal(mr->discussions[2].notes[0].type, "DiffNote");
	assert_int_equal(mr->discussions[2].notes[0].new_line, 3);
	assert_int_equal(mr->discussions[2].nnotes, 2);
	assert_true(mr->diffs[0].renamed_file);
	assert_string_equal(mr->diffs[0].old_path, "b.c");
	assert_int_equal(b.gitlab->nstatuses, 1);
	assert_string_equal(b.gitlab->statuses[0].ref, "feature");
	assert_string_equal(b.command->pr_ref, "g/sub/p!7");
	assert_non_null(strstr(j1.ptr, "\"platform\": \"gitlab\""));
	snapshot_release(&a);
	snapshot_release(&b);
	buf_release(&err);
	buf_release(&j1);
	buf_release(&j2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gitlab__neutralise),
	    cmocka_unit_test(test_gitlab__neutralise_ceiling),
	    cmocka_unit_test(test_gitlab__diff_line),
	    cmocka_unit_test(test_gitlab__discussion_id),
	    cmocka_unit_test(test_gitlab__answer_words),
	    cmocka_unit_test(test_gitlab__snapshot_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
