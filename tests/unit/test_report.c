/*
 * test_report.c - SNAPSHOT.md §3 (the JSON report), BEHAVIOR §10 (exit
 * code severity) and §9 (the markdown summary, with untrusted text that
 * can never break the table or forge a line).
 */
#include "unit.h"

#include <stdlib.h>

#include "base/file.h"
#include "base/json.h"
#include "base/util.h"
#include "formats/report.h"

#define H "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"

/* --- exit codes --- */

static void test_report__exit_merge_table(void **state)
{
	/* severity 2 > 3 > 1 > 0 */
	static const int want[4][4] = {
	    /* b=0  1  2  3 */
	    {0, 1, 2, 3}, /* a=0 */
	    {1, 1, 2, 3}, /* a=1 */
	    {2, 2, 2, 2}, /* a=2 */
	    {3, 3, 2, 3}, /* a=3 */
	};
	int a, b, bad = 0;

	(void)state;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			if (exit_merge(a, b) != want[a][b]) {
				print_error("exit_merge(%d, %d) = %d, expected "
				            "%d\n",
				            a, b, exit_merge(a, b), want[a][b]);
				bad++;
			}
	assert_int_equal(bad, 0);
	assert_int_equal(EXIT_OK, 0);
	assert_int_equal(EXIT_REFUSED, 1);
	assert_int_equal(EXIT_USAGE, 2);
	assert_int_equal(EXIT_API, 3);
}

static void test_report__merge_exit_accumulates(void **state)
{
	struct report r;

	(void)state;
	report_init(&r, NULL, false);
	assert_int_equal(r.exit, 0);
	report_merge_exit(&r, 1);
	assert_int_equal(r.exit, 1);
	report_merge_exit(&r, 0);
	assert_int_equal(r.exit, 1);
	report_merge_exit(&r, 3);
	assert_int_equal(r.exit, 3);
	report_merge_exit(&r, 1);
	assert_int_equal(r.exit, 3);
	report_merge_exit(&r, 2);
	assert_int_equal(r.exit, 2);
	report_merge_exit(&r, 3);
	assert_int_equal(r.exit, 2);
	report_release(&r);
}

static void test_report__step_defaults_and_finish(void **state)
{
	struct report r;
	struct report_step *s;

	(void)state;
	report_init(&r, "issue_comment", false);
	s = report_add_step(&r, STEP_APPLY, 7);
	assert_int_equal(s->kind, STEP_APPLY);
	assert_int_equal(s->pr, 7);
	assert_int_equal(s->clean, -1);
	assert_int_equal(s->draft, -1);
	assert_null(s->needs_human);
	assert_string_equal(s->head, "");
	assert_int_equal(s->nreasons, 0);

	/* A step is finished once, with what its flow decided; the run's
	 * exit is the most severe of its steps' (§10). */
	assert_false(s->finished);
	step_finish(&r, s, OUT_ERROR, EXIT_API);
	assert_true(s->finished);
	assert_string_equal(step_outcome_names[s->outcome], "error");
	assert_int_equal(s->exit, EXIT_API);
	assert_int_equal(r.exit, EXIT_API);

	s = report_add_step(&r, STEP_GATE, 8);
	step_finish(&r, s, OUT_REFUSED, EXIT_REFUSED);
	assert_string_equal(step_outcome_names[s->outcome], "refused");
	assert_int_equal(r.exit, EXIT_API);
	s = report_add_step(&r, STEP_GATE, 9);
	step_finish(&r, s, OUT_ERROR, EXIT_USAGE);
	assert_int_equal(r.exit, EXIT_USAGE);

	step_reason(s, "because %d", 42);
	assert_int_equal(s->nreasons, 1);
	assert_string_equal(s->reasons[0], "because 42");
	assert_int_equal(r.nsteps, 3);
	report_release(&r);
}

/* --- JSON --- */

static void build(struct report *r)
{
	struct report_step *s;
	struct report_write *w;

	report_init(r, "issue_comment", false);
	s = report_add_step(r, STEP_APPLY, 7);
	memcpy(s->head, H, SHA_BUF);
	s->comment = 501;
	s->clean = 1;
	s->needs_human = "yes";
	step_finish(r, s, OUT_APPLIED, EXIT_OK);

	s = report_add_step(r, STEP_GATE, 7);
	memcpy(s->head, H, SHA_BUF);
	s->has_conditions = true;
	s->cond[COND_CLEAN] = true;
	s->cond[COND_LABEL_ABSENT] = false;
	s->cond[COND_THREADS_ANSWERED] = true;
	s->cond[COND_ESCALATION] = false;
	s->draft = 0;
	step_reason(s, "the needs-human label is set");
	step_reason(s, "quote \" and newline\n");
	step_finish(r, s, OUT_WITHHOLD, EXIT_OK);

	s = report_add_step(r, STEP_GATE, 9);
	step_reason(s, "PR #9 is closed");
	step_finish(r, s, OUT_SKIPPED, EXIT_OK);

	s = report_add_step(r, STEP_APPLY, 10);
	step_finish(r, s, OUT_REFUSED, EXIT_REFUSED);

	w = report_add_write(r, W_CREATE_LABEL, 7);
	w->label = xstrdup("needs-human");
	w = report_add_write(r, W_LABEL, 7);
	w->label = xstrdup("needs-human");
	w = report_add_write(r, W_STATUS, 7);
	memcpy(w->sha, H, SHA_BUF);
	w->state = xstrdup("success");
	w->context = xstrdup("agentic-review/clean");
	w->description = xstrdup("conductor pr=#7: clean=true");
	w->target_url = xstrdup("https://x/501");
	w = report_add_write(r, W_STATUS, 7);
	memcpy(w->sha, H, SHA_BUF);
	w->state = xstrdup("failure");
	w->context = xstrdup("agentic-review/clean");
	w->description = xstrdup("conductor pr=#7: clean=false");
	w = report_add_write(r, W_APPROVE, 7);
	memcpy(w->commit_id, H, SHA_BUF);
	w = report_add_write(r, W_DISMISS, 7);
	w->review_id = 71;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!v)
		fail_msg("key %s missing", k);
	return v;
}

static void assert_keys(const cJSON *o, const char *const *keys, size_t n)
{
	const cJSON *c;
	size_t i = 0;

	cJSON_ArrayForEach (c, o) {
		if (i >= n)
			fail_msg("extra key %s", c->string);
		if (strcmp(c->string, keys[i]) != 0)
			fail_msg("key %zu is %s, expected %s", i, c->string,
			         keys[i]);
		i++;
	}
	assert_int_equal(i, n);
}

static void test_report__json_shape(void **state)
{
	static const char *const top[] = {"report", "event",  "dry_run",
	                                  "steps",  "writes", "exit"};
	static const char *const apply_keys[] = {
	    "pr",      "step",  "outcome",     "head",
	    "comment", "clean", "needs_human", "reasons"};
	static const char *const cond_keys[] = {
	    "clean", "label_absent", "threads_answered", "escalation"};
	struct report r;
	struct buf out = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	const cJSON *steps, *s, *writes, *w, *c;

	(void)state;
	build(&r);
	report_to_json(&r, &out);
	if (json_parse(&root, out.ptr, out.len, &err) != 0)
		fail_msg("%s\n%s", err.ptr, out.ptr);
	assert_keys(root, top, ARRAY_SIZE(top));
	assert_int_equal(get(root, "report")->valueint, 1);
	assert_string_equal(get(root, "event")->valuestring, "issue_comment");
	assert_true(cJSON_IsFalse(get(root, "dry_run")));
	assert_int_equal(get(root, "exit")->valueint, 1);

	steps = get(root, "steps");
	assert_int_equal(cJSON_GetArraySize(steps), 4);
	s = cJSON_GetArrayItem(steps, 0);
	assert_keys(s, apply_keys, ARRAY_SIZE(apply_keys));
	assert_int_equal(get(s, "pr")->valueint, 7);
	assert_string_equal(get(s, "step")->valuestring, "apply");
	assert_string_equal(get(s, "outcome")->valuestring, "applied");
	assert_string_equal(get(s, "head")->valuestring, H);
	assert_int_equal(get(s, "comment")->valueint, 501);
	assert_true(cJSON_IsTrue(get(s, "clean")));
	assert_string_equal(get(s, "needs_human")->valuestring, "yes");
	assert_int_equal(cJSON_GetArraySize(get(s, "reasons")), 0);

	s = cJSON_GetArrayItem(steps, 1);
	assert_string_equal(get(s, "step")->valuestring, "gate");
	assert_string_equal(get(s, "outcome")->valuestring, "withhold");
	c = get(s, "conditions");
	assert_keys(c, cond_keys, ARRAY_SIZE(cond_keys));
	assert_true(cJSON_IsTrue(get(c, "clean")));
	assert_true(cJSON_IsFalse(get(c, "label_absent")));
	assert_true(cJSON_IsTrue(get(c, "threads_answered")));
	assert_true(cJSON_IsFalse(get(c, "escalation")));
	assert_true(cJSON_IsFalse(get(s, "draft")));
	assert_null(cJSON_GetObjectItemCaseSensitive(s, "comment"));
	assert_int_equal(cJSON_GetArraySize(get(s, "reasons")), 2);
	assert_string_equal(
	    cJSON_GetArrayItem(get(s, "reasons"), 1)->valuestring,
	    "quote \" and newline\n");

	/* a gate stopped before evaluating: conditions null, no draft */
	s = cJSON_GetArrayItem(steps, 2);
	assert_true(cJSON_IsNull(get(s, "conditions")));
	assert_true(cJSON_IsNull(get(s, "head")));
	assert_null(cJSON_GetObjectItemCaseSensitive(s, "draft"));
	assert_string_equal(get(s, "outcome")->valuestring, "skipped");

	/* an apply step with nothing known: nulls */
	s = cJSON_GetArrayItem(steps, 3);
	assert_true(cJSON_IsNull(get(s, "head")));
	assert_true(cJSON_IsNull(get(s, "comment")));
	assert_true(cJSON_IsNull(get(s, "clean")));
	assert_true(cJSON_IsNull(get(s, "needs_human")));
	assert_string_equal(get(s, "outcome")->valuestring, "refused");

	writes = get(root, "writes");
	assert_int_equal(cJSON_GetArraySize(writes), 6);
	w = cJSON_GetArrayItem(writes, 0);
	{
		static const char *const k[] = {"kind", "label"};

		assert_keys(w, k, 2);
		assert_string_equal(get(w, "kind")->valuestring,
		                    "create_label");
	}
	w = cJSON_GetArrayItem(writes, 1);
	{
		static const char *const k[] = {"kind", "pr", "label"};

		assert_keys(w, k, 3);
		assert_string_equal(get(w, "kind")->valuestring, "label");
		assert_int_equal(get(w, "pr")->valueint, 7);
		assert_string_equal(get(w, "label")->valuestring,
		                    "needs-human");
	}
	w = cJSON_GetArrayItem(writes, 2);
	{
		static const char *const k[] = {"kind",        "sha",
		                                "state",       "context",
		                                "description", "target_url"};

		assert_keys(w, k, ARRAY_SIZE(k));
		assert_string_equal(get(w, "sha")->valuestring, H);
		assert_string_equal(get(w, "state")->valuestring, "success");
		assert_string_equal(get(w, "context")->valuestring,
		                    "agentic-review/clean");
		assert_string_equal(get(w, "description")->valuestring,
		                    "conductor pr=#7: clean=true");
		assert_string_equal(get(w, "target_url")->valuestring,
		                    "https://x/501");
	}
	w = cJSON_GetArrayItem(writes, 3);
	assert_true(cJSON_IsNull(get(w, "target_url")));
	w = cJSON_GetArrayItem(writes, 4);
	{
		static const char *const k[] = {"kind", "pr", "commit_id"};

		assert_keys(w, k, 3);
		assert_string_equal(get(w, "kind")->valuestring, "approve");
		assert_string_equal(get(w, "commit_id")->valuestring, H);
	}
	w = cJSON_GetArrayItem(writes, 5);
	{
		static const char *const k[] = {"kind", "pr", "review_id"};

		assert_keys(w, k, 3);
		assert_string_equal(get(w, "kind")->valuestring, "dismiss");
		assert_int_equal(get(w, "review_id")->valueint, 71);
	}
	/* no not_reached when empty */
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "not_reached"));
	cJSON_Delete(root);
	report_release(&r);
	buf_release(&out);
	buf_release(&err);
}

static void test_report__json_empty_and_not_reached(void **state)
{
	struct report r;
	struct buf out = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	const cJSON *nr;

	(void)state;
	report_init(&r, NULL, true);
	report_to_json(&r, &out);
	assert_int_equal(json_parse(&root, out.ptr, out.len, &err), 0);
	assert_true(cJSON_IsNull(get(root, "event")));
	assert_true(cJSON_IsTrue(get(root, "dry_run")));
	assert_int_equal(cJSON_GetArraySize(get(root, "steps")), 0);
	assert_int_equal(cJSON_GetArraySize(get(root, "writes")), 0);
	assert_int_equal(get(root, "exit")->valueint, 0);
	cJSON_Delete(root);

	r.not_reached = xcalloc(2, sizeof(int64_t));
	r.not_reached[0] = 12;
	r.not_reached[1] = 15;
	r.nnot_reached = r.anot_reached = 2;
	buf_reset(&out);
	report_to_json(&r, &out);
	assert_int_equal(json_parse(&root, out.ptr, out.len, &err), 0);
	nr = get(root, "not_reached");
	assert_int_equal(cJSON_GetArraySize(nr), 2);
	assert_int_equal(cJSON_GetArrayItem(nr, 1)->valueint, 15);
	cJSON_Delete(root);
	report_release(&r);
	buf_release(&out);
	buf_release(&err);
}

static void test_report__json_byte_stable(void **state)
{
	struct report a, b;
	struct buf x = BUF_INIT(BUF_MAX_DOC), y = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	build(&a);
	build(&b);
	report_to_json(&a, &x);
	report_to_json(&b, &y);
	assert_string_equal(x.ptr, y.ptr);
	assert_int_equal(x.ptr[x.len - 1], '\n');
	report_release(&a);
	report_release(&b);
	buf_release(&x);
	buf_release(&y);
}

static void test_report__usage_json(void **state)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;

	(void)state;
	report_usage_json(&out);
	assert_int_equal(json_parse(&root, out.ptr, out.len, &err), 0);
	assert_int_equal(get(root, "report")->valueint, 1);
	assert_int_equal(cJSON_GetArraySize(get(root, "steps")), 0);
	assert_int_equal(cJSON_GetArraySize(get(root, "writes")), 0);
	assert_int_equal(get(root, "exit")->valueint, 2);
	cJSON_Delete(root);
	buf_release(&out);
	buf_release(&err);
}

/* --- markdown --- */

/* Count the lines of s that contain needle. */
static size_t lines_with(const char *s, const char *needle)
{
	size_t n = 0;
	const char *line = s;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *copy = xstrndup(line, len);

		if (strstr(copy, needle))
			n++;
		free(copy);
		if (!nl)
			break;
		line = nl + 1;
	}
	return n;
}

static size_t count_char(const char *s, char c)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void test_report__markdown_escapes_untrusted_reasons(void **state)
{
	struct report r;
	struct report_step *s;
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	const char *p;

	(void)state;
	report_init(&r, "issue_comment", false);
	s = report_add_step(&r, STEP_APPLY, 7);
	step_reason(s, "evil | cell\n| forged | row |\n::error::owned\r\n"
	               "<script>`x`</script>");
	step_finish(&r, s, OUT_REFUSED, EXIT_REFUSED);
	report_to_markdown(&r, &out);

	/* the reason stays on one line: no forged row, no command line */
	assert_int_equal(lines_with(out.ptr, "evil"), 1);
	assert_int_equal(lines_with(out.ptr, "forged"), 1);
	assert_int_equal(lines_with(out.ptr, "evil"), 1);
	p = strstr(out.ptr, "evil");
	assert_non_null(p);
	assert_non_null(strstr(p, "forged"));
	assert_null(strstr(out.ptr, "\n| forged"));
	assert_null(strstr(out.ptr, "\n::error::"));
	assert_null(strstr(out.ptr, "\r"));
	/* the line of the reason has no raw table pipe or HTML */
	{
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));

		assert_int_equal(count_char(line, '|'), 0);
		assert_null(strstr(line, "<script>"));
		assert_int_equal(count_char(line, '`'), 0);
		assert_non_null(strstr(line, "&#124;"));
		free(line);
	}
	report_release(&r);
	buf_release(&out);
}

static void test_report__markdown_table_cells(void **state)
{
	struct report r;
	struct report_step *s;
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	const char *row;
	char *line;
	int c;

	(void)state;
	report_init(&r, "status", false);
	s = report_add_step(&r, STEP_GATE, 7);
	memcpy(s->head, H, SHA_BUF);
	s->has_conditions = true;
	for (c = 0; c < COND_COUNT; c++) {
		s->cond[c] = c != COND_ESCALATION;
		s->why[c] = xstrdup("fine");
	}
	free(s->why[COND_ESCALATION]);
	s->why[COND_ESCALATION] =
	    xstrdup("made for base \"a|b\nc\", not \"main\"");
	step_reason(s, "%s", s->why[COND_ESCALATION]);
	step_finish(&r, s, OUT_WITHHOLD, EXIT_OK);
	report_to_markdown(&r, &out);

	row = strstr(out.ptr, "| human sign-off not needed, or given |");
	assert_non_null(row);
	line = xstrndup(row, (size_t)(strchr(row, '\n') - row));
	/* exactly the four pipes of a three-column row */
	assert_int_equal(count_char(line, '|'), 4);
	assert_non_null(strstr(line, "a&#124;b c"));
	assert_non_null(strstr(line, "❌"));
	free(line);
	assert_non_null(strstr(out.ptr, "| clean status | ✅ |"));
	assert_non_null(strstr(out.ptr, "### PR #7: not approved (head 7e7e7e7)"));
	/* the reason already in the table is not repeated */
	assert_int_equal(lines_with(out.ptr, "made for base"), 1);
	report_release(&r);
	buf_release(&out);
}

static void test_report__markdown_writes_and_exit(void **state)
{
	struct report r;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	report_init(&r, NULL, true);
	report_to_markdown(&r, &out);
	assert_non_null(strstr(out.ptr, "Nothing to do."));
	assert_non_null(strstr(out.ptr, "none"));
	assert_non_null(strstr(out.ptr, "Exit code 0: ran to completion."));
	buf_reset(&out);

	w = report_add_write(&r, W_LABEL, 7);
	w->label = xstrdup("needs|human");
	w = report_add_write(&r, W_APPROVE, 7);
	memcpy(w->commit_id, H, SHA_BUF);
	w = report_add_write(&r, W_DISMISS, 7);
	w->review_id = 71;
	report_merge_exit(&r, EXIT_API);
	report_to_markdown(&r, &out);
	assert_non_null(strstr(out.ptr, "dry run, nothing was written"));
	assert_non_null(strstr(out.ptr, "needs&#124;human"));
	/* A7: planned writes are never in the past tense */
	assert_non_null(strstr(out.ptr, "would approve PR #7 at 7e7e7e7"));
	assert_null(strstr(out.ptr, "- approved PR"));
	assert_non_null(strstr(out.ptr, "would dismiss review 71 on PR #7"));
	assert_non_null(strstr(out.ptr, "Exit code 3: "));
	report_release(&r);
	buf_release(&out);
}

static void test_report__markdown_underscores(void **state)
{
	struct report r;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	report_init(&r, "issue_comment", false);
	w = report_add_write(&r, W_LABEL, 7);
	w->label = xstrdup("_em_ a__b x_ _y snake_case_2");
	report_to_markdown(&r, &out);
	/* inside a word an underscore cannot make emphasis, so it stays */
	assert_non_null(strstr(out.ptr, "## agentic-apply (issue_comment)\n"));
	/* at a word edge it could, so it is escaped */
	assert_non_null(strstr(out.ptr,
	    "&#95;em&#95; a&#95;&#95;b x&#95; &#95;y snake_case_2"));
	report_release(&r);
	buf_release(&out);
}

static void test_report__notes_kept(void **state)
{
	struct report r;

	(void)state;
	report_init(&r, NULL, false);
	report_note(&r, NOTE_WARNING, "PR #%d: %s", 7, "x\ny");
	report_note(&r, NOTE_ERROR, "e");
	assert_int_equal(r.nnotes, 2);
	assert_int_equal(r.notes[0].level, NOTE_WARNING);
	assert_string_equal(r.notes[0].text, "PR #7: x\ny");
	assert_int_equal(r.notes[1].level, NOTE_ERROR);
	report_release(&r);
	assert_int_equal(r.nnotes, 0);
}

static void test_report__outputs(void **state)
{
	struct report r;
	struct report_step *st;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	report_init(&r, "issue_comment", false);
	report_outputs(&r, &out);
	assert_non_null(strstr(out.ptr, "decision=none\n"));
	assert_non_null(strstr(out.ptr, "approved=false\n"));
	assert_non_null(strstr(out.ptr, "dry_run=false\n"));
	buf_reset(&out);

	st = report_add_step(&r, STEP_APPLY, 7);
	step_finish(&r, st, OUT_APPLIED, 0);
	st = report_add_step(&r, STEP_GATE, 7);
	memcpy(st->head, H, SHA_BUF);
	step_finish(&r, st, OUT_APPROVE, 0);
	w = report_add_write(&r, W_APPROVE, 7);
	memcpy(w->commit_id, H, SHA_BUF);
	report_outputs(&r, &out);
	/* the gate decides the outputs, not the apply before it */
	assert_non_null(strstr(out.ptr, "decision=approve\n"));
	assert_non_null(strstr(out.ptr, "pr=7\n"));
	assert_non_null(strstr(out.ptr, "head=" H "\n"));
	assert_non_null(strstr(out.ptr, "approved=true\n"));
	assert_non_null(strstr(out.ptr, "approved_prs=7\n"));
	assert_non_null(strstr(out.ptr, "would_approve_prs=\n"));
	buf_reset(&out);

	/* a sweep: 9 was already approved before the run (no write) */
	r.sweep = true;
	st = report_add_step(&r, STEP_GATE, 8);
	step_finish(&r, st, OUT_WITHHOLD, 0);
	st = report_add_step(&r, STEP_GATE, 9);
	step_finish(&r, st, OUT_APPROVE, 0);
	report_outputs(&r, &out);
	assert_non_null(strstr(out.ptr, "decision=sweep\n"));
	assert_non_null(strstr(out.ptr, "approved_prs=7\n"));
	assert_non_null(strstr(out.ptr, "approved=true\n"));
	report_release(&r);
	buf_release(&out);
}

/* A7: a dry run never claims an approval, in outputs or words. */
/* Issue 20: a report past its buf's ceiling is an error, checked once at
 * the end, and what the buf holds never passes for a report (before, the
 * pieces that still fitted were appended and the caller printed it). */
static void test_report__oversized_documents_fail(void **state)
{
	struct report r;
	struct buf out = BUF_INIT(300), err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;

	(void)state;
	build(&r);
	assert_int_equal(report_to_json(&r, &out), AA_ETOOBIG);
	assert_true(out.len <= 300);
	assert_int_not_equal(json_parse(&root, out.ptr, out.len, &err), 0);
	buf_reset(&out);
	assert_int_equal(report_to_markdown(&r, &out), AA_ETOOBIG);
	buf_release(&out);
	buf_init(&out, 40);
	assert_int_equal(report_outputs(&r, &out), AA_ETOOBIG);
	/* the same report fits a document's ceiling */
	buf_release(&out);
	buf_init(&out, BUF_MAX_DOC);
	assert_int_equal(report_to_json(&r, &out), 0);
	assert_int_equal(json_parse(&root, out.ptr, out.len, &err), 0);
	cJSON_Delete(root);
	buf_reset(&out);
	assert_int_equal(report_to_markdown(&r, &out), 0);
	buf_reset(&out);
	assert_int_equal(report_outputs(&r, &out), 0);
	buf_release(&out);
	buf_release(&err);
	report_release(&r);
}

/* A step's own members cut short (PUBLISH §9: a plan, a publish step)
 * fail the report; before, the step was written without them. */
static void test_report__cut_step_members_fail_the_report(void **state)
{
	struct report r;
	struct report_step *s;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	report_init(&r, NULL, false);
	s = report_add_step(&r, STEP_PLAN, 7);
	s->extra = xstrdup("{\"plan\":{\"plan\":1,\"pr\":7");
	step_finish(&r, s, OUT_PLANNED, EXIT_OK);
	assert_int_equal(report_to_json(&r, &out), AA_ERR);
	free(s->extra);
	s->extra = xstrdup("{\"plan\":{\"plan\":1,\"pr\":7}}");
	buf_reset(&out);
	assert_int_equal(report_to_json(&r, &out), 0);
	w = report_add_write(&r, W_REVIEW, 7);
	w->findings = xstrdup("[\"F1\",");
	buf_reset(&out);
	assert_int_equal(report_to_json(&r, &out), AA_ERR);
	buf_release(&out);
	report_release(&r);
}

static void test_report__outputs_dry_run(void **state)
{
	struct report r;
	struct report_step *st;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	report_init(&r, "issue_comment", true);
	st = report_add_step(&r, STEP_GATE, 42);
	memcpy(st->head, H, SHA_BUF);
	step_finish(&r, st, OUT_APPROVE, 0);
	w = report_add_write(&r, W_APPROVE, 42);
	memcpy(w->commit_id, H, SHA_BUF);
	report_outputs(&r, &out);
	assert_non_null(strstr(out.ptr, "decision=would-approve\n"));
	assert_non_null(strstr(out.ptr, "approved=false\n"));
	assert_non_null(strstr(out.ptr, "approved_prs=\n"));
	assert_non_null(strstr(out.ptr, "would_approve_prs=42\n"));
	assert_non_null(strstr(out.ptr, "dry_run=true\n"));
	buf_reset(&out);
	report_to_markdown(&r, &out);
	assert_non_null(strstr(out.ptr, "### PR #42: would approve"));
	assert_null(strstr(out.ptr, ": approved"));
	report_release(&r);
	buf_release(&out);

	/* an approval that existed before the dry run is a fact */
	buf_init(&out, BUF_MAX_SMALL);
	report_init(&r, "issue_comment", true);
	st = report_add_step(&r, STEP_GATE, 42);
	memcpy(st->head, H, SHA_BUF);
	step_finish(&r, st, OUT_APPROVE, 0);
	report_outputs(&r, &out);
	assert_non_null(strstr(out.ptr, "decision=approve\n"));
	assert_non_null(strstr(out.ptr, "approved=true\n"));
	assert_non_null(strstr(out.ptr, "approved_prs=\n"));
	report_release(&r);
	buf_release(&out);
}

/* Item 2: what decided the outcome is in the heading when the table does
 * not show it (a draft, a failed write, a token of the wrong account). */
static void test_report__markdown_heading_names_cause(void **state)
{
	struct report r;
	struct report_step *s;
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	int c;

	(void)state;
	report_init(&r, "status", false);
	s = report_add_step(&r, STEP_GATE, 7);
	s->has_conditions = true;
	for (c = 0; c < COND_COUNT; c++) {
		s->cond[c] = true;
		s->why[c] = xstrdup("fine");
	}
	step_reason(s, "the PR is a draft");
	step_finish(&r, s, OUT_WITHHOLD, EXIT_OK);
	s = report_add_step(&r, STEP_APPLY, 7);
	step_reason(s, "R4: round 998 was superseded by round 1001");
	step_finish(&r, s, OUT_REFUSED, EXIT_REFUSED);
	report_to_markdown(&r, &out);
	assert_non_null(strstr(out.ptr, "### PR #7: not approved — the PR is a "
					"draft\n"));
	/* words first; the code after them, where its rule is defined */
	assert_non_null(strstr(out.ptr, "verdict refused — round 998 was "
					"superseded by round 1001 (R4, "
					"docs/rules/rounds.md#r4)\n"));
	assert_null(strstr(out.ptr, "R4:"));
	buf_reset(&out);
	r.docs_url = xstrdup("https://github.com/o/agentic-apply/blob/v1/docs");
	report_to_markdown(&r, &out);
	assert_non_null(strstr(out.ptr, "superseded by round 1001 ([R4]("
					"https://github.com/o/agentic-apply/"
					"blob/v1/docs/rules/rounds.md#r4))\n"));
	report_release(&r);
	buf_release(&out);
}

/* Item 4: a run that decided nothing says why. */
static void test_report__markdown_nothing_says_why(void **state)
{
	struct report r;
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	report_init(&r, "issue_comment", false);
	report_note(&r, NOTE_ERROR, "event 'issue_comment': not JSON");
	report_merge_exit(&r, EXIT_USAGE);
	report_to_markdown(&r, &out);
	assert_null(strstr(out.ptr, "Nothing to do."));
	assert_non_null(strstr(out.ptr, "- event 'issue_comment': not JSON"));
	assert_non_null(strstr(out.ptr, "Exit code 2: usage, configuration"));
	report_release(&r);
	buf_release(&out);
}

/* Item 12: a 1,000-PR sweep leads with an overview and stays far below
 * GitHub's 1 MiB step summary limit. */
static void test_report__markdown_sweep_overview_size(void **state)
{
	struct report r;
	struct report_step *s;
	struct report_write *w;
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	int64_t pr;
	int c;

	(void)state;
	report_init(&r, "schedule", false);
	r.sweep = true;
	r.server_url = xstrdup("https://github.com");
	r.repository = xstrdup("lf/svc");
	for (pr = 1; pr <= 1000; pr++) {
		s = report_add_step(&r, STEP_GATE, pr);
		memcpy(s->head, H, SHA_BUF);
		s->has_conditions = true;
		for (c = 0; c < COND_COUNT; c++) {
			s->cond[c] = c != COND_THREADS_ANSWERED;
			s->why[c] = xstrdup("2 review threads without a reply: "
					    "PRRT_kwDOAbc1 PRRT_kwDOAbc2");
		}
		step_reason(s, "%s", s->why[COND_THREADS_ANSWERED]);
		step_finish(&r, s, pr % 10 ? OUT_WITHHOLD : OUT_APPROVE, EXIT_OK);
		if (pr % 10 == 0) {
			w = report_add_write(&r, W_APPROVE, pr);
			memcpy(w->commit_id, H, SHA_BUF);
		} else if (pr % 10 == 1) {
			w = report_add_write(&r, W_DISMISS, pr);
			w->review_id = pr;
		}
	}
	report_to_markdown(&r, &out);
	assert_true(out.len < 400 * 1024);
	assert_non_null(strstr(out.ptr, "**1000 PRs:** 100 approved · 900 not "
					"approved · 0 errors · 0 skipped"));
	assert_non_null(strstr(out.ptr, "- Approved: [#10](https://github.com/"
					"lf/svc/pull/10), [#20]"));
	assert_non_null(strstr(out.ptr, "- Approvals dismissed: [#1]"));
	assert_non_null(strstr(out.ptr, "<details><summary>Every PR</summary>"));
	/* no full table per PR */
	assert_null(strstr(out.ptr, "| condition |"));
	report_release(&r);
	buf_release(&out);
}

/* Every rule code a reason may start with links to a page of docs/rules/
 * that defines it under that anchor (issue 24). */
static void test_report__rule_pages_define_their_codes(void **state)
{
	static const char *const codes[] = {
	    "R1", "R2", "R3", "R4", "T1", "T2", "T3", "T4", "A1", "A2",
	    "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12",
	    "A13", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "U1",
	    "U2", "U3", "U4", "U5", "U6", "W1", "W5", "I5", "M1", "H3"};
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		struct buf path = BUF_INIT(BUF_MAX_SMALL);
		struct buf text = BUF_INIT(BUF_MAX_DOC);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		struct buf anchor = BUF_INIT(BUF_MAX_SMALL);
		const char *page = summary_rule_page(codes[i]);

		assert_non_null(page);
		buf_addf(&path, "docs/rules/%s.md", page);
		assert_int_equal(file_read(&text, path.ptr, &err), 0);
		buf_adds(&anchor, "<a id=\"");
		for (k = 0; codes[i][k]; k++)
			buf_addf(&anchor, "%c",
				 to_lower((unsigned char)codes[i][k]));
		buf_adds(&anchor, "\">");
		if (!strstr(text.ptr, anchor.ptr))
			fail_msg("%s: %s has no %s", codes[i], path.ptr,
				 anchor.ptr);
		buf_release(&path);
		buf_release(&text);
		buf_release(&err);
		buf_release(&anchor);
	}
	assert_null(summary_rule_page("N7"));
}

static void test_report__markdown_links_only_safe_urls(void **state)
{
	static const struct {
		const char *url;
		bool linked;
	} rows[] = {
	    {"https://github.com/lf/svc/pull/7#issuecomment-501", true},
	    {"http://github.com/x", false},
	    {"javascript:alert(1)", false},
	    {"https://x/a)[y](https://evil", false},
	    {"https://x/a b", false},
	    {"https://x/a\n## forged", false},
	    {"https://x/<script>", false},
	    {"https://x/a|b", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct report r;
		struct report_step *st;
		struct buf out = BUF_INIT(BUF_MAX_SMALL);

		report_init(&r, NULL, false);
		st = report_add_step(&r, STEP_GATE, 7);
		st->has_conditions = true;
		st->verdict_url = xstrdup(rows[i].url);
		step_finish(&r, st, OUT_WITHHOLD, 0);
		report_to_markdown(&r, &out);
		if ((strstr(out.ptr, "](") != NULL) != rows[i].linked)
			fail_msg("row %zu (%s): linked %d\n%s", i, rows[i].url,
			         !rows[i].linked, out.ptr);
		assert_null(strstr(out.ptr, "\n## forged"));
		assert_null(strstr(out.ptr, "<script>"));
		report_release(&r);
		buf_release(&out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_report__exit_merge_table),
	    cmocka_unit_test(test_report__merge_exit_accumulates),
	    cmocka_unit_test(test_report__step_defaults_and_finish),
	    cmocka_unit_test(test_report__json_shape),
	    cmocka_unit_test(test_report__json_empty_and_not_reached),
	    cmocka_unit_test(test_report__json_byte_stable),
	    cmocka_unit_test(test_report__usage_json),
	    cmocka_unit_test(test_report__markdown_escapes_untrusted_reasons),
	    cmocka_unit_test(test_report__markdown_table_cells),
	    cmocka_unit_test(test_report__markdown_writes_and_exit),
	    cmocka_unit_test(test_report__markdown_underscores),
		cmocka_unit_test(test_report__notes_kept),
	    cmocka_unit_test(test_report__outputs),
	    cmocka_unit_test(test_report__outputs_dry_run),
	    cmocka_unit_test(test_report__oversized_documents_fail),
	    cmocka_unit_test(test_report__cut_step_members_fail_the_report),
	    cmocka_unit_test(test_report__markdown_heading_names_cause),
	    cmocka_unit_test(test_report__markdown_nothing_says_why),
	    cmocka_unit_test(test_report__markdown_sweep_overview_size),
	    cmocka_unit_test(test_report__markdown_links_only_safe_urls),
	    cmocka_unit_test(test_report__rule_pages_define_their_codes),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
