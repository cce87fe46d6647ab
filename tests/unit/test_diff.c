/*
 * test_diff.c - the `patch` parser of PUBLISH.md §4.1 step 1 (core/diff.h):
 * which RIGHT lines a review comment may anchor to, and strict rejection
 * of every patch whose counts do not add up.
 *
 * Table-driven: every mismatch is printed with its row and the test fails
 * once at the end, so one run shows every broken row.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/diff.h"

#define EXPECT_INT(name, what, got, want)                                  \
	do {                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);   \
		if (g_ != w_) {                                            \
			print_error("row \"%s\": %s is %lld, expected %lld\n", \
				    (name), (what), g_, w_);               \
			bad++;                                             \
		}                                                          \
	} while (0)

/* --- diff_parse --- */

struct parse_row {
	const char *name;
	const char *patch;  /* NULL: no patch */
	size_t len;         /* 0: strlen(patch) */
	const char *hunks;  /* "old,oc,new,nc" per hunk, space-separated;
			     * NULL: AA_ERR expected */
	const char *err;    /* the exact message for AA_ERR, or NULL */
};

#define MULTI                                                              \
	"@@ -1,2 +1,2 @@ static int a(void)\n"                             \
	" a\n"                                                             \
	"-b\n"                                                             \
	"+B\n"                                                             \
	"@@ -10,3 +10,4 @@ int main(void)\n"                               \
	" x\n"                                                             \
	"+y\n"                                                             \
	" z\n"                                                             \
	" w"

static const struct parse_row parse_rows[] = {
    /* absent or empty: a binary file, or one too large to show */
    {"null patch", NULL, 0, "", NULL},
    {"empty patch", "", 0, "", NULL},
    /* shapes git writes */
    {"one hunk", "@@ -1,3 +1,4 @@\n a\n-b\n+c\n+d\n e", 0, "1,3,1,4", NULL},
    {"two hunks with headings", MULTI, 0, "1,2,1,2 10,3,10,4", NULL},
    {"final LF", "@@ -1,3 +1,4 @@\n a\n-b\n+c\n+d\n e\n", 0, "1,3,1,4",
     NULL},
    {"omitted counts", "@@ -1 +1 @@\n-a\n+b", 0, "1,1,1,1", NULL},
    {"omitted old count", "@@ -5 +5,2 @@\n a\n+b", 0, "5,1,5,2", NULL},
    {"omitted new count", "@@ -5,2 +5 @@\n a\n-b", 0, "5,2,5,1", NULL},
    {"empty heading after a space", "@@ -1 +1 @@ \n-a\n+b", 0, "1,1,1,1",
     NULL},
    {"heading holding @@", "@@ -1 +1 @@ x @@ -9 +9 @@\n-a\n+b", 0,
     "1,1,1,1", NULL},
    {"no newline, both sides",
     "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
     "\\ No newline at end of file",
     0, "1,1,1,1", NULL},
    {"no newline ends the patch", "@@ -1 +1 @@\n-a\n+a\n\\ No newline", 0,
     "1,1,1,1", NULL},
    {"added file", "@@ -0,0 +1,3 @@\n+a\n+b\n+c", 0, "0,0,1,3", NULL},
    {"deleted file", "@@ -1,2 +0,0 @@\n-a\n-b", 0, "1,2,0,0", NULL},
    {"empty file added", "", 0, "", NULL},
    {"pure deletion mid-file", "@@ -4,2 +3,0 @@\n-a\n-b", 0, "4,2,3,0",
     NULL},
    {"empty context line", "@@ -1,3 +1,3 @@\n a\n\n-b\n+c", 0, "1,3,1,3",
     NULL},
    {"CRLF throughout",
     "@@ -1,2 +1,2 @@ f\r\n a\r\n-b\r\n+B\r\n@@ -10 +10 @@\r\n-x\r\n+y\r\n", 0,
     "1,2,1,2 10,1,10,1", NULL},
    {"CR only in content", "@@ -1 +1 @@\n-a\r\n+a\r", 0, "1,1,1,1", NULL},
    {"NUL in content", "@@ -1 +1 @@\n-a\0b\n+c",
     sizeof("@@ -1 +1 @@\n-a\0b\n+c") - 1, "1,1,1,1", NULL},
    {"largest line", "@@ -1 +2147483647 @@\n-a\n+a", 0,
     "1,1,2147483647,1", NULL},
    {"leading zeros", "@@ -01,1 +001 @@\n-a\n+a", 0, "1,1,1,1", NULL},
    {"adjacent hunks", "@@ -1 +1 @@\n-a\n+b\n@@ -2 +2 @@\n-c\n+d", 0,
     "1,1,1,1 2,1,2,1", NULL},

    /* counts that do not match the lines */
    {"hunk too short", "@@ -1,3 +1,3 @@\n a\n b", 0, NULL,
     "patch line 4 is missing: the hunk is shorter than its header"},
    {"hunk too long", "@@ -1 +1 @@\n a\n b", 0, NULL,
     "patch line 3 is neither in a hunk nor a hunk header"},
    {"too many +", "@@ -1 +1 @@\n-a\n+b\n+c", 0, NULL,
     "patch line 4 is neither in a hunk nor a hunk header"},
    {"- when only + is owed", "@@ -1 +1 @@\n-a\n-b\n+c", 0, NULL,
     "patch line 3 does not fit its hunk"},
    {"+ and - interleaved", "@@ -1,2 +1 @@\n+a\n-b\n-c", 0, "1,2,1,1",
     NULL},
    {"context when the right is done", "@@ -1,2 +1 @@\n+a\n c", 0, NULL,
     "patch line 3 does not fit its hunk"},
    {"blank line after the hunk", "@@ -1 +1 @@\n-a\n+b\n\n", 0, NULL,
     "patch line 4 is neither in a hunk nor a hunk header"},
    {"unknown line kind", "@@ -1 +1 @@\n*a\n+b", 0, NULL,
     "patch line 2 does not fit its hunk"},
    {"header too early", "@@ -1,2 +1,2 @@\n a\n@@ -5 +5 @@\n-x\n+y", 0,
     NULL, "patch line 3 does not fit its hunk"},

    /* headers */
    {"file header first", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"diff --git first", "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"letters for a number", "@@ -a +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"no space before @@", "@@ -1 +1@@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"two spaces", "@@  -1 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"empty count", "@@ -1, +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"heading without space", "@@ -1 +1 @@x\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"combined diff", "@@@ -1 -1 +1 @@@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"unclosed header", "@@ -1 +1\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"signed number", "@@ -+1 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"negative number", "@@ --1 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"sides swapped", "@@ +1 -1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"line 0 with a count", "@@ -0 +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"a hunk of no lines", "@@ -0,0 +0,0 @@", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"line past 2^31-1", "@@ -1 +2147483648 @@\n-a\n+a", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"end past 2^31-1", "@@ -1 +2147483647,2 @@\n-a\n+a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"count past 2^31-1", "@@ -1 +1,2147483648 @@\n-a\n+a", 0, NULL,
     "patch line 1 is not a hunk header"},
    {"huge number", "@@ -1 +99999999999999999999999999 @@\n-a\n+a", 0,
     NULL, "patch line 1 is not a hunk header"},
    {"huge count claims lines", "@@ -1,2147483647 +1,2147483647 @@\n a",
     0, NULL, "patch line 3 is missing: the hunk is shorter than its header"},
    {"CR inside the header", "@@ -1\r +1 @@\n-a\n+b", 0, NULL,
     "patch line 1 is not a hunk header"},

    /* order */
    {"hunks out of order", "@@ -10 +10 @@\n-a\n+b\n@@ -1 +1 @@\n-a\n+b", 0,
     NULL, "patch line 4 starts a hunk out of order"},
    {"hunks overlapping", "@@ -1,2 +1,2 @@\n a\n b\n@@ -2 +2 @@\n-b\n+c", 0,
     NULL, "patch line 4 starts a hunk out of order"},
    {"right side overlapping", "@@ -1 +1,2 @@\n a\n+b\n@@ -5 +2 @@\n-x\n+y",
     0, NULL, "patch line 4 starts a hunk out of order"},

    /* `\` lines */
    {"backslash first", "\\ No newline at end of file\n@@ -1 +1 @@\n-a\n+b",
     0, NULL, "patch line 1 is outside a hunk"},
    {"backslash after header", "@@ -1 +1 @@\n\\ No newline\n-a\n+b", 0,
     NULL, "patch line 2 does not fit its hunk"},
    {"backslash twice", "@@ -1 +1 @@\n-a\n\\ x\n\\ x\n+b", 0, NULL,
     "patch line 4 does not fit its hunk"},
    {"backslash twice at the end", "@@ -1 +1 @@\n-a\n+b\n\\ x\n\\ x", 0,
     NULL, "patch line 5 is outside a hunk"},
};

/* "1,3,1,4 10,2,11,3" as hunks; returns how many. */
static size_t want_hunks(struct diff_hunk *w, size_t max, const char *s)
{
	size_t n = 0;
	char *end;

	while (*s && n < max) {
		w[n].old_start = strtoll(s, &end, 10);
		w[n].old_count = strtoll(end + 1, &end, 10);
		w[n].new_start = strtoll(end + 1, &end, 10);
		w[n].new_count = strtoll(end + 1, &end, 10);
		n++;
		s = *end ? end + 1 : end;
	}
	return n;
}

static void test_diff__parse_table(void **state)
{
	size_t i, k, bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(parse_rows); i++) {
		const struct parse_row *r = &parse_rows[i];
		struct diff_hunks h = { NULL, 0 };
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		struct diff_hunk w[8];
		size_t len = r->len ? r->len : r->patch ? strlen(r->patch) : 0;
		int rc = diff_parse(&h, r->patch, len, &err);

		EXPECT_INT(r->name, "rc", rc, r->hunks ? AA_OK : AA_ERR);
		if (r->hunks) {
			size_t nw = want_hunks(w, ARRAY_SIZE(w), r->hunks);

			EXPECT_INT(r->name, "n", h.n, nw);
			for (k = 0; k < h.n && k < nw; k++) {
				EXPECT_INT(r->name, "old_start",
					   h.v[k].old_start, w[k].old_start);
				EXPECT_INT(r->name, "old_count",
					   h.v[k].old_count, w[k].old_count);
				EXPECT_INT(r->name, "new_start",
					   h.v[k].new_start, w[k].new_start);
				EXPECT_INT(r->name, "new_count",
					   h.v[k].new_count, w[k].new_count);
			}
		} else {
			EXPECT_INT(r->name, "n", h.n, 0);
			if (r->err && strcmp(err.ptr, r->err) != 0) {
				print_error("row \"%s\": err is \"%s\", "
					    "expected \"%s\"\n",
					    r->name, err.ptr, r->err);
				bad++;
			}
		}
		diff_hunks_release(&h);
		buf_release(&err);
	}
	assert_int_equal(bad, 0);
}

/* --- diff_hunk_of --- */

struct hunk_of_row {
	const char *name;
	const char *patch;
	int64_t line;
	int want;
};

#define DELETES "@@ -1,3 +1,1 @@\n-a\n-b\n c"

static const struct hunk_of_row hunk_of_rows[] = {
    {"first line of the first hunk", MULTI, 1, 0},
    {"its + line", MULTI, 2, 0},
    {"between hunks", MULTI, 3, -1},
    {"just before the second", MULTI, 9, -1},
    {"second hunk's context", MULTI, 10, 1},
    {"second hunk's + line", MULTI, 11, 1},
    {"second hunk's last line", MULTI, 13, 1},
    {"after the last hunk", MULTI, 14, -1},
    {"line 0", MULTI, 0, -1},
    {"a negative line", MULTI, -5, -1},
    {"the largest int64", MULTI, INT64_MAX, -1},
    {"the smallest int64", MULTI, INT64_MIN, -1},
    {"a - line's number is not on the right", DELETES, 2, -1},
    {"the context after two -", DELETES, 1, 0},
    {"added file", "@@ -0,0 +1,3 @@\n+a\n+b\n+c", 3, 0},
    {"past the added file", "@@ -0,0 +1,3 @@\n+a\n+b\n+c", 4, -1},
    {"deleted file has no RIGHT line", "@@ -1,2 +0,0 @@\n-a\n-b", 1, -1},
    {"deleted file, line 0", "@@ -1,2 +0,0 @@\n-a\n-b", 0, -1},
    {"pure deletion names no line", "@@ -4,2 +3,0 @@\n-a\n-b", 3, -1},
    {"no patch", "", 1, -1},
    {"a malformed patch has no line", "@@ -1,3 +1,3 @@\n a\n b", 1, -1},
    {"largest line", "@@ -1 +2147483647 @@\n-a\n+a", 2147483647, 0},
};

static void test_diff__hunk_of_table(void **state)
{
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hunk_of_rows); i++) {
		const struct hunk_of_row *r = &hunk_of_rows[i];
		struct diff_hunks h = { NULL, 0 };

		diff_parse(&h, r->patch, strlen(r->patch), NULL);
		EXPECT_INT(r->name, "hunk", diff_hunk_of(&h, r->line), r->want);
		diff_hunks_release(&h);
	}
	assert_int_equal(bad, 0);
}

/* --- files --- */

static void test_diff__file_keeps_path_without_lines_when_malformed(
	void **state)
{
	struct diff_file f;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const char *bad = "@@ -1,9 +1,9 @@\n a";

	(void)state;
	assert_int_equal(diff_file_init(&f, "src/a.c", bad, strlen(bad), &err),
			 AA_ERR);
	assert_string_equal(f.path, "src/a.c");
	assert_int_equal(f.hunks.n, 0);
	assert_int_equal(diff_hunk_of(&f.hunks, 1), -1);
	assert_true(strlen(err.ptr) > 0);
	diff_file_release(&f);
	diff_file_release(&f); /* released twice: still safe */
	buf_release(&err);
}

static void test_diff__find_by_path(void **state)
{
	struct diff_file v[4];
	const char *p = "@@ -1 +1 @@\n-a\n+b";

	(void)state;
	assert_int_equal(diff_file_init(&v[0], "a.c", p, strlen(p), NULL), 0);
	assert_int_equal(diff_file_init(&v[1], "b.c", p, strlen(p), NULL), 0);
	assert_int_equal(diff_file_init(&v[2], "twice.c", p, strlen(p), NULL),
			 0);
	assert_int_equal(diff_file_init(&v[3], "twice.c", NULL, 0, NULL), 0);
	assert_ptr_equal(diff_file_find(v, 4, "b.c"), &v[1]);
	assert_null(diff_file_find(v, 4, "B.c"));  /* bytewise */
	assert_null(diff_file_find(v, 4, "c.c"));
	assert_null(diff_file_find(v, 4, "twice.c")); /* ambiguous */
	assert_null(diff_file_find(NULL, 0, "a.c"));
	for (size_t i = 0; i < 4; i++)
		diff_file_release(&v[i]);
}

/* Many hunks: the array grows, every one is found. */
static void test_diff__many_hunks(void **state)
{
	struct buf p = BUF_INIT(BUF_MAX_DOC);
	struct diff_hunks h = { NULL, 0 };
	int64_t i;

	(void)state;
	for (i = 0; i < 5000; i++)
		assert_int_equal(buf_addf(&p, "@@ -%lld +%lld @@ h\n-a\n+b\n",
					  (long long)(2 * i + 1),
					  (long long)(2 * i + 1)),
				 0);
	assert_int_equal(diff_parse(&h, p.ptr, p.len, NULL), 0);
	assert_int_equal(h.n, 5000);
	assert_int_equal(diff_hunk_of(&h, 1), 0);
	assert_int_equal(diff_hunk_of(&h, 2), -1);
	assert_int_equal(diff_hunk_of(&h, 9999), 4999);
	diff_hunks_release(&h);
	buf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_diff__parse_table),
	    cmocka_unit_test(test_diff__hunk_of_table),
	    cmocka_unit_test(
		test_diff__file_keeps_path_without_lines_when_malformed),
	    cmocka_unit_test(test_diff__find_by_path),
	    cmocka_unit_test(test_diff__many_hunks),
	};

	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
