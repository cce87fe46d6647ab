/*
 * test_review_local.c - PUBLISH.md §7.5: the review-local JSON line, byte
 * for byte (key order, escapes, raw UTF-8, NOOP, PARTIAL's heading).
 */
#include "unit.h"

#include <stdlib.h>

#include "core/merge.h"
#include "formats/review_local.h"

#define H "abcdefabcdefabcdefabcdefabcdefabcdefabcd"

static struct rv_finding *add(struct review_input *in, uint32_t id,
                              enum rv_pcode p, const char *slug,
                              const char *file, int64_t ls, int64_t le)
{
	struct rv_finding *f;

	in->findings =
	    xrealloc(in->findings, (in->nfindings + 1) * sizeof(*in->findings));
	f = &in->findings[in->nfindings++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->p = p;
	f->slug = xstrdup(slug);
	f->file = xstrdup_or_null(file);
	f->line_start = ls;
	f->line_end = le;
	f->confidence = RV_HIGH;
	f->disposition = RV_DISP_OPEN;
	return f;
}

static void text(struct rv_finding *f, const char *category, const char *blast,
                 const char *just, const char *fm, const char *mi,
                 const char *ev, const char *details)
{
	f->category = xstrdup(category);
	f->blast = xstrdup(blast);
	f->justification = xstrdup(just);
	f->failure_mode = xstrdup(fm);
	f->mitigation = xstrdup(mi);
	f->evidence = xstrdup(ev);
	f->details = xstrdup_or_null(details);
}

/* The input of the byte-exact case: CJK, backticks, $(…), emoji,
 * quotes, backslashes and control characters. */
static void rich_input(struct review_input *in)
{
	struct rv_finding *f;
	struct rv_gap *g;

	memset(in, 0, sizeof(*in));
	in->mode = RV_LOCAL;
	memcpy(in->head, H, SHA_BUF);
	in->base = xstrdup("origin/main");

	f = add(in, 3, RV_P0, "race", "a.c", 5, 5);
	text(f, "Concurrency", "Module", "Precedent", "lost update", "lock it",
	     "x++", NULL);
	f->disposition = RV_DISP_FOLLOW_UP;
	f->exception = xcalloc(1, sizeof(*f->exception));
	f->exception->kind = xstrdup("follow_up");
	f->exception->reason = xstrdup("tracked");
	f->exception->issue = xstrdup("#12");
	f->exception->accepted_by = xstrdup("bob");

	f = add(in, 2, RV_P1, "sql-injection", "src/\xE6\x95\xB0\xE6\x8D\xAE.c",
	        10, 12);
	text(f, "\xE5\xAE\x89\xE5\x85\xA8", "Data layer", "Reachable",
	     "\xE6\x8B\xBC\xE6\x8E\xA5 `query` \xE2\x80\x94 $(rm -rf /)",
	     "\xE4\xBD\xBF\xE7\x94\xA8 \xF0\x9F\x94\x92",
	     "+\tq = \"a\\\\b\"\n+end", "\xF0\x9F\x94\xA5\x01\x7f\b\f\r");
	f->disposition = RV_DISP_STILL_PRESENT;
	f->reply = xcalloc(1, sizeof(*f->reply));
	f->reply->kind = xstrdup("rebutted");
	f->reply->reason = xstrdup("\xE4\xB8\x8D\xE6\x98\xAF");
	f->reply->recommendation = xstrdup("disagree");
	f->reply->recommendation_reason = xstrdup("see `F2`");
	strv_addf(&f->reported_by, &f->nreported_by, "sdet");
	f->reopen_thread = true;

	f = add(in, 1, RV_P2, "timeout", NULL, 0, 0);
	text(f, "Spec", "Local", "Asymmetric", "f", "m", "", NULL);
	f->confidence = RV_LOW;

	in->gaps = xcalloc(1, sizeof(*in->gaps));
	in->ngaps = 1;
	g = &in->gaps[0];
	g->id = 1;
	g->section = xstrdup("\xC2\xA7"
	                     "2");
	g->title = xstrdup("\xE8\xB6\x85\xE6\x97\xB6?");
	g->spec_quote = xstrdup("\"30s\"");
	g->code_quote = xstrdup("t = 60");
	strv_addf(&g->questions, &g->nquestions, "which?");
	strv_addf(&g->questions, &g->nquestions, "why\\?");
	g->closing = xstrdup("not in the output");

	in->clean = xcalloc(1, sizeof(*in->clean));
	in->nclean = 1;
	in->clean[0].slug = xstrdup("auth");
	in->clean[0].evidence = xstrdup("checked `login()`");
}

static const char rich_want[] =
    "{\"mode\":\"local\",\"base\":\"origin/main\",\"head\":\"" H "\","
    "\"last_sha\":null,\"status\":\"REVIEW_BEFORE_MERGE\","
    "\"status_heading\":\"\xF0\x9F\x9F\xA0 pr-review: REVIEW BEFORE "
    "MERGE\","
    "\"open_counts\":{\"P0\":0,\"P1\":1,\"P2\":0,\"P3\":0,\"Q\":1},"
    "\"awaiting\":{\"author\":1,\"decision\":1},"
    "\"subagent_failures\":[],"
    "\"next_action\":\"fix F2 or explicitly defer\","
    "\"findings\":["
    "{\"id\":\"F3\",\"p_code\":\"P0\",\"severity_emoji\":"
    "\"\xF0\x9F\x9A\xA8\",\"slug\":\"race\",\"category\":\"Concurrency\","
    "\"file\":\"a.c\",\"line_start\":5,\"line_end\":5,"
    "\"confidence\":\"high\",\"blast\":\"Module\","
    "\"justification\":\"Precedent\",\"failure_mode\":\"lost update\","
    "\"mitigation\":\"lock it\",\"evidence\":\"x++\",\"details\":null,"
    "\"disposition\":\"follow_up\",\"author_reply\":null,"
    "\"accepted_exception\":{\"kind\":\"follow_up\",\"reason\":"
    "\"tracked\",\"issue\":\"#12\",\"accepted_by\":\"bob\"},"
    "\"severity_adjustment\":null},"
    "{\"id\":\"F2\",\"p_code\":\"P1\",\"severity_emoji\":"
    "\"\xE2\x9A\xA0\xEF\xB8\x8F\",\"slug\":\"sql-injection\","
    "\"category\":\"\xE5\xAE\x89\xE5\x85\xA8\","
    "\"file\":\"src/\xE6\x95\xB0\xE6\x8D\xAE.c\",\"line_start\":10,"
    "\"line_end\":12,\"confidence\":\"high\",\"blast\":\"Data layer\","
    "\"justification\":\"Reachable\","
    "\"failure_mode\":\"\xE6\x8B\xBC\xE6\x8E\xA5 `query` \xE2\x80\x94 "
    "$(rm -rf /)\","
    "\"mitigation\":\"\xE4\xBD\xBF\xE7\x94\xA8 \xF0\x9F\x94\x92\","
    "\"evidence\":\"+\\tq = \\\"a\\\\\\\\b\\\"\\n+end\","
    "\"details\":\"\xF0\x9F\x94\xA5\\u0001\x7f\\b\\f\\r\","
    "\"disposition\":\"still_present\","
    "\"author_reply\":{\"kind\":\"rebutted\",\"reason\":"
    "\"\xE4\xB8\x8D\xE6\x98\xAF\",\"recommendation\":\"disagree\","
    "\"recommendation_reason\":\"see `F2`\"},"
    "\"accepted_exception\":null,\"severity_adjustment\":null},"
    "{\"id\":\"F1\",\"p_code\":\"Q\",\"severity_emoji\":\"\xE2\x9D\x93\","
    "\"slug\":\"timeout\",\"category\":\"Spec\",\"file\":null,"
    "\"line_start\":null,\"line_end\":null,\"confidence\":\"low\","
    "\"blast\":\"Local\",\"justification\":\"Asymmetric\","
    "\"failure_mode\":\"f\",\"mitigation\":\"m\",\"evidence\":\"\","
    "\"details\":null,\"disposition\":\"open\",\"author_reply\":null,"
    "\"accepted_exception\":null,\"severity_adjustment\":{\"from\":"
    "\"\xF0\x9F\x92\xA1 P2\",\"to\":\"\xE2\x9D\x93 Q\",\"reason\":"
    "\"confidence: low (merge rule step 2)\"}}],"
    "\"accepted_exceptions\":[{\"finding_id\":\"F3\",\"kind\":"
    "\"follow_up\",\"reason\":\"tracked\",\"issue\":\"#12\","
    "\"accepted_by\":\"bob\"}],"
    "\"spec_gaps\":[{\"id\":\"F1\",\"section\":\"\xC2\xA7"
    "2\","
    "\"title\":\"\xE8\xB6\x85\xE6\x97\xB6?\",\"spec_quote\":"
    "\"\\\"30s\\\"\",\"code_quote\":\"t = 60\",\"questions\":"
    "[\"which?\",\"why\\\\?\"]}],"
    "\"prior_verifications\":[],"
    "\"checked_and_clean\":[{\"slug\":\"auth\",\"evidence\":"
    "\"checked `login()`\"}]}\n";

static void run_local(struct buf *out, struct review_input *in)
{
	struct merge_ctx ctx = {NULL, NULL, NULL, true, false};
	struct review_model m;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	if (review_local_is_noop(in)) {
		memset(&m, 0, sizeof(m));
		m.tier = RV_NOOP_TIER;
	} else {
		assert_int_equal(merge_run(&m, in, &ctx, &err), AA_OK);
	}
	assert_int_equal(review_local_render(out, in, &m, &err), AA_OK);
	review_model_release(&m);
	buf_release(&err);
}

static void test_review_local__byte_exact(void **state)
{
	struct review_input in;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	rich_input(&in);
	run_local(&out, &in);
	assert_string_equal(out.ptr, rich_want);
	assert_int_equal(out.len, sizeof(rich_want) - 1);
	buf_release(&out);
	review_input_release(&in);
}

static void test_review_local__noop(void **state)
{
	struct review_input in;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	rich_input(&in);
	memcpy(in.last_sha, H, SHA_BUF);
	assert_true(review_local_is_noop(&in));
	run_local(&out, &in);
	assert_string_equal(
	    out.ptr,
	    "{\"mode\":\"local\",\"base\":\"origin/main\",\"head\":\"" H
	    "\",\"last_sha\":\"" H "\",\"status\":\"NOOP\","
	    "\"status_heading\":null,\"open_counts\":{\"P0\":0,\"P1\":0,"
	    "\"P2\":0,\"P3\":0,\"Q\":0},\"awaiting\":{\"author\":0,"
	    "\"decision\":0},\"subagent_failures\":[],"
	    "\"next_action\":null,\"findings\":[],"
	    "\"accepted_exceptions\":[],\"spec_gaps\":[],"
	    "\"prior_verifications\":[],\"checked_and_clean\":[]}\n");
	buf_release(&out);
	review_input_release(&in);
}

static void test_review_local__partial_and_next_action(void **state)
{
	struct review_input in;
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	struct rv_finding *f;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.mode = RV_INCREMENTAL;
	memcpy(in.head, H, SHA_BUF);
	memcpy(in.last_sha, "0123456789012345678901234567890123456789",
	       SHA_BUF);
	in.base = xstrdup("main");
	in.has_dispatched = true;
	strv_addf(&in.dispatched, &in.ndispatched, "sec");
	strv_addf(&in.dispatched, &in.ndispatched, "sdet");
	strv_addf(&in.dispatched, &in.ndispatched, "spec");
	strv_addf(&in.failures, &in.nfailures, "spec");
	strv_addf(&in.failures, &in.nfailures, "sec");
	f = add(&in, 4, RV_P3, "nit", "b.c", 1, 1);
	text(f, "Style", "Local", "Reachable", "f", "m", "e", NULL);
	f->disposition = RV_DISP_LIKELY_FIXED;
	in.verifications = xcalloc(1, sizeof(*in.verifications));
	in.nverifications = 1;
	in.verifications[0].prior_id = 4;
	in.verifications[0].verification = xstrdup("yes");
	in.verifications[0].note = xstrdup("gone in \xE2\x80\xA6");
	run_local(&out, &in);
	assert_string_equal(
	    out.ptr,
	    "{\"mode\":\"local\",\"base\":\"main\",\"head\":\"" H
	    "\",\"last_sha\":\"0123456789012345678901234567890123456789\","
	    "\"status\":\"PARTIAL\",\"status_heading\":"
	    "\"\xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL \xE2\x80\x94 2 "
	    "of 3 subagents failed: spec, sec\",\"open_counts\":{\"P0\":0,"
	    "\"P1\":0,\"P2\":0,\"P3\":0,\"Q\":0},\"awaiting\":{\"author\":0,"
	    "\"decision\":0},\"subagent_failures\":[\"spec\",\"sec\"],"
	    "\"next_action\":\"rerun review; spec, sec failed\","
	    "\"findings\":[{\"id\":\"F4\",\"p_code\":\"P3\","
	    "\"severity_emoji\":\"\xF0\x9F\x94\xA7\",\"slug\":\"nit\","
	    "\"category\":\"Style\",\"file\":\"b.c\",\"line_start\":1,"
	    "\"line_end\":1,\"confidence\":\"high\",\"blast\":\"Local\","
	    "\"justification\":\"Reachable\",\"failure_mode\":\"f\","
	    "\"mitigation\":\"m\",\"evidence\":\"e\",\"details\":null,"
	    "\"disposition\":\"likely_fixed\",\"author_reply\":null,"
	    "\"accepted_exception\":null,\"severity_adjustment\":null}],"
	    "\"accepted_exceptions\":[],\"spec_gaps\":[],"
	    "\"prior_verifications\":[{\"prior_id\":\"F4\","
	    "\"verification\":\"yes\",\"note\":\"gone in \xE2\x80\xA6\"}],"
	    "\"checked_and_clean\":[]}\n");

	/* The input's next_action is printed as it is. */
	buf_reset(&out);
	in.next_action = xstrdup("\xE9\x87\x8D\xE8\xB7\x91 <!-- \"x\"");
	f = add(&in, 5, RV_P1, "x", NULL, 0, 0);
	text(f, "c", "Local", "Reachable", "f", "m", "e", NULL);
	in.nfailures = 0; /* the strings stay owned by dispatched's count */
	run_local(&out, &in);
	assert_non_null(strstr(out.ptr, "\"status\":\"REVIEW_BEFORE_MERGE\""));
	assert_non_null(
	    strstr(out.ptr, "\"next_action\":\"\xE9\x87\x8D\xE8\xB7\x91 "
	                    "<!-- \\\"x\\\"\",\"findings\":[{\"id\":\"F5\""));
	in.nfailures = 2;
	buf_release(&out);
	review_input_release(&in);
}

static void test_review_local__passed_has_null_next_action(void **state)
{
	struct review_input in;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	memset(&in, 0, sizeof(in));
	in.mode = RV_FULL;
	memcpy(in.head, H, SHA_BUF);
	in.base = xstrdup("main");
	run_local(&out, &in);
	assert_non_null(strstr(out.ptr, "\"status\":\"PASSED\",\"status_"
	                                "heading\":\"\xE2\x9C\x85 pr-review: "
	                                "PASSED\""));
	assert_non_null(strstr(out.ptr, "\"next_action\":null,"));
	buf_release(&out);
	review_input_release(&in);
}

static void test_review_local__ceiling(void **state)
{
	struct review_input in;
	struct buf out = BUF_INIT(100);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct review_model m;
	struct merge_ctx ctx = {NULL, NULL, NULL, true, false};

	(void)state;
	rich_input(&in);
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(review_local_render(&out, &in, &m, &err), AA_ETOOBIG);
	assert_true(err.len > 0);
	review_model_release(&m);
	review_input_release(&in);
	buf_release(&out);
	buf_release(&err);
}

/* --- the whole command on findings text --- */

/* doc with single quotes turned into double quotes. */
static int run_text(struct buf *out, struct buf *err, const char *doc)
{
	char *t = xstrdup(doc);
	int code;

	for (char *p = t; *p; p++)
		if (*p == '\'')
			*p = '"';
	code = review_local(out, t, strlen(t), err);
	free(t);
	return code;
}

#define DOC_HEAD "{'mode': 'local', 'head': '" H "', 'base': 'main', "
#define FINDING(id, p, slug, conf, file, line)                                 \
	"{'id': '" id "', 'p_code': '" p "', 'slug': '" slug "', "             \
	"'category': 'c', 'file': " file ", 'line_start': " line ", "          \
	"'line_end': " line ", 'confidence': '" conf "', "                     \
	"'blast': 'Local', 'justification': 'Reachable', "                     \
	"'failure_mode': 'f', 'mitigation': 'm', 'evidence': 'e', "            \
	"'details': null, 'disposition': 'open', 'author_reply': null, "       \
	"'accepted_exception': null, 'severity_adjustment': null}"

struct cmd_row {
	const char *name;
	const char *doc;
	int want;
	const char *want_out; /* exact, or NULL: empty */
	const char *want_err; /* prefix, or NULL: empty */
};

static const struct cmd_row cmd_rows[] = {
    {"merged and printed",
     DOC_HEAD "'shape_narrative': 'two', 'findings': [" FINDING(
         "F2", "P2", "a", "high", "'x.c'",
         "3") ", " FINDING("F5", "P1", "a", "low", "'x.c'",
                           "3") "], "
                                "'status': 'PASSED', 'open_counts': {'P0': 9}}",
     RL_EXIT_OK,
     "{\"mode\":\"local\",\"base\":\"main\",\"head\":\"" H "\","
     "\"last_sha\":null,\"status\":\"PASSED_WITH_NOTES\","
     "\"status_heading\":\"\xF0\x9F\x9F\xA1 pr-review: PASSED WITH "
     "NOTES\",\"open_counts\":{\"P0\":0,\"P1\":0,\"P2\":1,\"P3\":0,"
     "\"Q\":0},\"awaiting\":{\"author\":1,\"decision\":0},"
     "\"subagent_failures\":[],\"next_action\":\"optional; no "
     "blocker\",\"findings\":[{\"id\":\"F2\",\"p_code\":\"P2\","
     "\"severity_emoji\":\"\xF0\x9F\x92\xA1\",\"slug\":\"a\","
     "\"category\":\"c\",\"file\":\"x.c\",\"line_start\":3,"
     "\"line_end\":3,\"confidence\":\"high\",\"blast\":\"Local\","
     "\"justification\":\"Reachable\",\"failure_mode\":\"f\","
     "\"mitigation\":\"m\",\"evidence\":\"e\",\"details\":null,"
     "\"disposition\":\"open\",\"author_reply\":null,"
     "\"accepted_exception\":null,\"severity_adjustment\":null}],"
     "\"accepted_exceptions\":[],\"spec_gaps\":[],"
     "\"prior_verifications\":[],\"checked_and_clean\":[]}\n",
     NULL},
    {"noop",
     DOC_HEAD "'last_sha': '" H "', 'findings': [" FINDING(
         "F2", "P0", "a", "high", "'x.c'", "3") "]}",
     RL_EXIT_OK,
     "{\"mode\":\"local\",\"base\":\"main\",\"head\":\"" H "\","
     "\"last_sha\":\"" H "\",\"status\":\"NOOP\","
     "\"status_heading\":null,\"open_counts\":{\"P0\":0,\"P1\":0,"
     "\"P2\":0,\"P3\":0,\"Q\":0},\"awaiting\":{\"author\":0,"
     "\"decision\":0},\"subagent_failures\":[],\"next_action\":null,"
     "\"findings\":[],\"accepted_exceptions\":[],\"spec_gaps\":[],"
     "\"prior_verifications\":[],\"checked_and_clean\":[]}\n",
     NULL},
    {"every subagent failed",
     DOC_HEAD "'subagents_dispatched': ['sec', 'sdet'], "
              "'subagent_failures': ['sdet', 'sec'], 'findings': []}",
     RL_EXIT_REFUSED, NULL, "every dispatched subagent failed"},
    {"malformed", DOC_HEAD "'findings': [}", RL_EXIT_USAGE, NULL, "findings: "},
    {"two prior findings in one group (M2)",
     DOC_HEAD "'shape_narrative': 'two', 'findings': [" FINDING(
         "F2", "P2", "a", "high", "'x.c'",
         "3") ", " FINDING("F5", "P1", "a", "low", "'x.c'",
                           "3") "], "
                                "'prior_verifications': [{'prior_id': 'F2', "
                                "'verification': 'no', "
                                "'note': 'n'}, {'prior_id': 'F5', "
                                "'verification': 'no', "
                                "'note': 'n'}]}",
     RL_EXIT_USAGE, NULL,
     "findings: F2 and F5 are both prior findings with the same file, "
     "lines and slug (M2)"},
};

static void test_review_local__command_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cmd_rows); i++) {
		const struct cmd_row *r = &cmd_rows[i];
		struct buf out = BUF_INIT(BUF_MAX_DOC);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		print_message("row %zu: %s\n", i, r->name);
		assert_int_equal(run_text(&out, &err, r->doc), r->want);
		print_message("err: %s\n", err.ptr);
		assert_string_equal(out.ptr, r->want_out ? r->want_out : "");
		if (r->want_err)
			assert_memory_equal(err.ptr, r->want_err,
			                    strlen(r->want_err));
		else
			assert_int_equal(err.len, 0);
		buf_release(&out);
		buf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_review_local__byte_exact),
	    cmocka_unit_test(test_review_local__noop),
	    cmocka_unit_test(test_review_local__partial_and_next_action),
	    cmocka_unit_test(test_review_local__passed_has_null_next_action),
	    cmocka_unit_test(test_review_local__ceiling),
	    cmocka_unit_test(test_review_local__command_table),
	};

	return cmocka_run_group_tests_name("review_local", tests, NULL, NULL);
}
