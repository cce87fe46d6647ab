/*
 * test_kind.c - the one classifier of what the machine account writes:
 * every comment is exactly one kind, and a verdict marker anywhere wins
 * (PUBLISH B1; the write-path rule of SECURITY.md).
 */
#include "unit.h"

#include "core/kind.h"

struct kind_row {
	enum comment_place where;
	const char *body;
	enum comment_kind want;
};

#define CHECK "<!-- agentic:check v1 -->"
#define NH    "<!-- agentic:needs-human v1 -->"
#define STK   "<!-- pr-review:sticky -->"
#define ROOT  "<!-- pr-review:finding-root -->"

static const struct kind_row rows[] = {
    {PLACE_ISSUE, "", KIND_OTHER},
    {PLACE_ISSUE, "hello", KIND_OTHER},
    {PLACE_ISSUE, STK "\nbody", KIND_STICKY},
    {PLACE_ISSUE, STK, KIND_STICKY},
    {PLACE_ISSUE, STK " \r\nbody", KIND_STICKY},
    {PLACE_ISSUE, " " STK "\nbody", KIND_OTHER},      /* B1: first line */
    {PLACE_ISSUE, "x\n" STK "\nbody", KIND_OTHER},    /* B1: first line */
    {PLACE_ISSUE, "> " STK "\nbody", KIND_OTHER},
    {PLACE_REVIEW, STK "\nbody", KIND_OTHER},         /* not on the diff */
    {PLACE_ISSUE, ROOT "\nbody", KIND_OTHER},
    {PLACE_REVIEW, ROOT "\nbody", KIND_FINDING_ROOT},
    /* A root stays a root; review comments are never verdicts. */
    {PLACE_REVIEW, ROOT "\n" CHECK, KIND_FINDING_ROOT},
    {PLACE_REVIEW, CHECK "\nhead: x", KIND_OTHER},
    /* B1: a verdict marker anywhere: never a sticky. With the sticky's
     * first line it is quoted text: nobody's. */
    {PLACE_ISSUE, STK "\n" CHECK "\nhead: x", KIND_OTHER},
    {PLACE_ISSUE, STK "\n> " CHECK, KIND_OTHER},
    {PLACE_ISSUE, STK "\n```\n" CHECK "\n```", KIND_OTHER},
    {PLACE_ISSUE, STK "\nquote: " CHECK " end", KIND_OTHER},
    {PLACE_ISSUE, STK "\n" NH "\n<!-- needs-human: yes -->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n> " NH, KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!--agentic:needs-human\tv1-->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!--  AGENTIC:Needs-Human   V1  -->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!--Agentic:Check v1-->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!-- agentic:check v1 --!>", KIND_OTHER},
    /* Without the sticky's first line, the marker makes a verdict. */
    {PLACE_ISSUE, "Quote:\n> " STK "\n" CHECK, KIND_CHECK_VERDICT},
    {PLACE_ISSUE, "x\n<!--agentic:needs-human\tv1-->", KIND_NEEDS_HUMAN},
    {PLACE_ISSUE, "x\n<!--Agentic:Check v1-->", KIND_CHECK_VERDICT},
    /* Not a marker: no delimiter. N68: a check marker in another form
     * (no separator, no version) is one: apply refuses it. */
    {PLACE_ISSUE, STK "\nagentic:check v1", KIND_STICKY},
    {PLACE_ISSUE, STK "\n<!-- agentic:checkv1 -->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!-- agentic:check -->", KIND_OTHER},
    {PLACE_ISSUE, "x\n<!-- agentic: check v1 -->", KIND_CHECK_VERDICT},
    {PLACE_ISSUE, STK "\n<!-- agentic --> check", KIND_STICKY},
    /* N67: a needs-human marker near its form is one too (the parser
     * reads it as a malformed verdict): never a sticky. */
    {PLACE_ISSUE, STK "\n<!-- agentic:needs-human: yes -->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!-- agentic:needs-human\xc2\xa0v1 -->", KIND_OTHER},
    {PLACE_ISSUE, STK "\n<!-- needs human yes -->", KIND_OTHER},
    {PLACE_ISSUE, "x\n<!-- agentic: needs-human v1 -->", KIND_NEEDS_HUMAN},
    {PLACE_ISSUE, "<!-- needs-human: yes -->\nx", KIND_NEEDS_HUMAN},
    {PLACE_ISSUE, "<!--- needs-human: yes -->", KIND_NEEDS_HUMAN},
    /* ... but only inside the comment. */
    {PLACE_ISSUE, STK "\n<!-- x --> needs-human", KIND_STICKY},
    {PLACE_ISSUE, STK "\n<!-- humans needed -->", KIND_STICKY},
    /* Both verdicts: the check marker decides. */
    {PLACE_ISSUE, NH "\n" CHECK, KIND_CHECK_VERDICT},
    {PLACE_ISSUE, NH "\n<!-- needs-human: no -->", KIND_NEEDS_HUMAN},
    {PLACE_ISSUE, "text\n" CHECK "\nhead: x", KIND_CHECK_VERDICT},
    /* A marker split over two lines is no line marker. */
    {PLACE_ISSUE, STK "\n<!--\nagentic:check v1 -->", KIND_STICKY},
    {PLACE_ISSUE, "<<<!-- agentic:check v1", KIND_CHECK_VERDICT},
};

static void test_kind__comment_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct kind_row *r = &rows[i];
		enum comment_kind k =
			comment_kind(r->where, r->body, strlen(r->body));

		if (k != r->want) {
			print_error("row %zu: %s, want %s\n", i,
				    comment_kind_name(k),
				    comment_kind_name(r->want));
			bad++;
		}
		if (r->where == PLACE_ISSUE && r->want != KIND_OTHER &&
		    kind_has_verdict_marker(r->body, strlen(r->body)) !=
			    (r->want == KIND_CHECK_VERDICT ||
			     r->want == KIND_NEEDS_HUMAN)) {
			print_error("row %zu: has_verdict_marker\n", i);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The body need not be NUL-terminated: a marker cut by len is none. */
static void test_kind__length_bounds(void **state)
{
	const char body[] = STK "\n" CHECK;

	(void)state;
	assert_int_equal(comment_kind(PLACE_ISSUE, body, strlen(STK)),
			 KIND_STICKY);
	assert_int_equal(comment_kind(PLACE_ISSUE, body, strlen(STK) + 10),
			 KIND_STICKY);
	assert_int_equal(comment_kind(PLACE_ISSUE, body, sizeof(body) - 1),
			 KIND_OTHER);
	assert_int_equal(comment_kind(PLACE_ISSUE, body + strlen(STK) + 1,
				      strlen(CHECK)),
			 KIND_CHECK_VERDICT);
	assert_int_equal(comment_kind(PLACE_ISSUE, body, 5), KIND_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kind__comment_table),
	    cmocka_unit_test(test_kind__length_bounds),
	};

	return cmocka_run_group_tests_name("kind", tests, NULL, NULL);
}
