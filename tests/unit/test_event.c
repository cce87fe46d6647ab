/*
 * test_event.c - decoding the webhook payloads (SNAPSHOT.md §1, BEHAVIOR
 * §5.1): each event kind's fields, and what makes a payload unusable.
 *
 * Payload literals use single quotes; sq() turns them into double quotes.
 */
#include "unit.h"

#include <stdlib.h>

#include "run/engine.h"
#include "formats/event.h"
#include "base/util.h"

#define SHA "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"

static char *sq(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '\'')
			*p = '"';
	return d;
}

static int decode(struct event *ev, const char *name, const char *literal,
                  struct buf *err)
{
	char *text = sq(literal);
	int r;

	buf_reset(err);
	r = event_decode(ev, name, text, strlen(text), err);
	free(text);
	return r;
}

#define COMMENT_OK                                                             \
	"{'action': 'created', 'issue': {'number': 7, 'pull_request': "        \
	"{'url': 'u'}}, 'comment': {'id': 501, 'user': {'login': "             \
	"'lfx-reviewer'}, 'body': 'hello\\nworld', 'created_at': "             \
	"'2026-11-29T10:05:00Z', 'html_url': 'https://x/501'}}"

static void test_event__issue_comment_created(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int64_t t;

	(void)state;
	if (decode(&ev, "issue_comment", COMMENT_OK, &err) != 0)
		fail_msg("%s", err.ptr);
	assert_int_equal(ev.kind, EV_ISSUE_COMMENT);
	assert_string_equal(ev.name, "issue_comment");
	assert_string_equal(ev.action, "created");
	assert_int_equal(ev.pr, 7);
	assert_true(ev.on_pull);
	assert_true(ev.has_comment);
	assert_int_equal(ev.comment.id, 501);
	assert_string_equal(ev.comment.author, "lfx-reviewer");
	assert_string_equal(ev.comment.body, "hello\nworld");
	assert_int_equal(ev.comment.body_len, 11);
	assert_int_equal(time_parse(&t, "2026-11-29T10:05:00Z"), 0);
	assert_int_equal(ev.comment.created_at, t);
	assert_string_equal(ev.comment.html_url, "https://x/501");
	/* a payload comment is the author's original text: never edited */
	assert_false(ev.comment.edited);
	assert_null(ev.comment.edited_by);
	event_release(&ev);
	buf_release(&err);
}

static void test_event__issue_comment_variants(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	/* an issue, not a pull request */
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'created', 'issue': {'number': 3}, "
	                        "'comment': {'id': 9, 'user': {'login': 'a'}, "
	                        "'body': 'x'}}",
	                        &err),
	                 0);
	assert_false(ev.on_pull);
	assert_int_equal(ev.pr, 3);
	event_release(&ev);
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'created', 'issue': {'number': 3, "
	                        "'pull_request': null}, 'comment': {'id': 9, "
	                        "'user': {'login': 'a'}, 'body': 'x'}}",
	                        &err),
	                 0);
	assert_false(ev.on_pull);
	event_release(&ev);

	/* a deleted account: user null, author NULL */
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'created', 'issue': {'number': 3}, "
	                        "'comment': {'id': 9, 'user': null, 'body': "
	                        "null}}",
	                        &err),
	                 0);
	assert_null(ev.comment.author);
	assert_string_equal(ev.comment.body, "");
	assert_int_equal(ev.comment.body_len, 0);
	event_release(&ev);

	/* edited / deleted: the comment is not needed */
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'edited', 'issue': {'number': 7, "
	                        "'pull_request': {}}}",
	                        &err),
	                 0);
	assert_string_equal(ev.action, "edited");
	assert_true(ev.on_pull);
	assert_false(ev.has_comment);
	event_release(&ev);
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'deleted', 'issue': {'number': 7}, "
	                        "'comment': 5}",
	                        &err),
	                 0);
	assert_false(ev.has_comment);
	event_release(&ev);

	/* a NUL escape in the body is U+FFFD, the rest is kept (N23) */
	assert_int_equal(decode(&ev, "issue_comment",
	                        "{'action': 'created', 'issue': {'number': 3}, "
	                        "'comment': {'id': 9, 'user': {'login': 'a'}, "
	                        "'body': 'x\\u0000<!-- needs-human: yes -->'}}",
	                        &err),
	                 0);
	assert_string_equal(ev.comment.body,
	                    "x\xef\xbf\xbd<!-- needs-human: yes -->");
	assert_int_equal(ev.comment.body_len, strlen(ev.comment.body));
	event_release(&ev);
	buf_release(&err);
}

struct bad_row {
	const char *name;
	const char *payload;
	const char *path; /* must appear in the message */
};

static const struct bad_row bad_rows[] = {
    {"issue_comment", "{'issue': {'number': 7}}", "payload.action"},
    {"issue_comment", "{'action': 5, 'issue': {'number': 7}}",
     "payload.action"},
    {"issue_comment", "{'action': 'created'}", "payload.issue"},
    {"issue_comment", "{'action': 'edited', 'issue': 7}", "payload.issue"},
    {"issue_comment", "{'action': 'created', 'issue': {}}",
     "payload.issue.number"},
    {"issue_comment", "{'action': 'created', 'issue': {'number': '7'}}",
     "payload.issue.number"},
    {"issue_comment", "{'action': 'created', 'issue': {'number': 0}}",
     "payload.issue.number"},
    {"issue_comment", "{'action': 'created', 'issue': {'number': 7.5}}",
     "payload.issue.number"},
    {"issue_comment", "{'action': 'created', 'issue': {'number': 2147483648}}",
     "payload.issue.number"},
    {"issue_comment", "{'action': 'created', 'issue': {'number': 7}}",
     "payload.comment"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': []}",
     "payload.comment"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'user': "
     "{'login': 'a'}, 'body': 'x'}}",
     "payload.comment.id"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': "
     "'9', 'user': {'login': 'a'}, 'body': 'x'}}",
     "payload.comment.id"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'body': 'x'}}",
     "payload.comment.user"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'user': {}, 'body': 'x'}}",
     "payload.comment.user.login"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'user': {'login': 5}, 'body': 'x'}}",
     "payload.comment.user.login"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'user': {'login': 'a'}}}",
     "payload.comment.body"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'user': {'login': 'a'}, 'body': 5}}",
     "payload.comment.body"},
    {"issue_comment",
     "{'action': 'created', 'issue': {'number': 7}, 'comment': {'id': 9, "
     "'user': {'login': 'a'}, 'body': 'x', 'created_at': 'today'}}",
     "payload.comment.created_at"},
    {"pull_request", "{'number': 7}", "payload.action"},
    {"pull_request", "{'action': 'synchronize'}", "payload.number"},
    {"pull_request", "{'action': 'synchronize', 'number': '7'}",
     "payload.number"},
    {"pull_request", "{'action': 'synchronize', 'number': -1}",
     "payload.number"},
    {"pull_request", "{'action': 'synchronize', 'pull_request': {}}",
     "payload.pull_request.number"},
    {"pull_request", "{'action': 'synchronize', 'pull_request': 7}",
     "payload.pull_request"},
    {"pull_request_target", "{'action': 'edited'}", "payload.number"},
    {"status", "{'context': 'c'}", "payload.sha"},
    {"status", "{'sha': 'abc', 'context': 'c'}", "payload.sha"},
    {"status", "{'sha': '" SHA "'}", "payload.context"},
    {"status", "{'sha': '" SHA "', 'context': 5}", "payload.context"},
    {"status", "{'sha': '" SHA "', 'context': 'c', 'description': 5}",
     "payload.description"},
    {"workflow_dispatch", "{'inputs': 5}", "payload.inputs"},
    {"workflow_dispatch", "{'inputs': {'pr': {}}}", "payload.inputs.pr"},
    {"workflow_dispatch", "{'inputs': {'pr': true}}", "payload.inputs.pr"},
    {"workflow_dispatch", "{'inputs': {'pr': -3}}", "payload.inputs.pr"},
    {"status", "[]", "payload"},
    {"status", "{", "JSON"},
    {"pull_request", "", "JSON"},
    {"issue_comment", "'x'", "payload"},
};

static void test_event__bad_payload_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		const struct bad_row *r = &bad_rows[i];
		struct event ev;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		int rc = decode(&ev, r->name, r->payload, &err);

		if (rc != AA_EUSAGE) {
			print_error("row %zu (%s %s): rc %d\n", i, r->name,
			            r->payload, rc);
			bad++;
		} else if (!strstr(err.ptr, r->path)) {
			print_error("row %zu: message \"%s\" lacks \"%s\"\n", i,
			            err.ptr, r->path);
			bad++;
		}
		event_release(&ev);
		buf_release(&err);
	}
	assert_int_equal(bad, 0);
}

static void test_event__pull_request(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(decode(&ev, "pull_request",
	                        "{'action': 'synchronize', 'number': 12, "
	                        "'pull_request': {'number': 12}}",
	                        &err),
	                 0);
	assert_int_equal(ev.kind, EV_PULL_REQUEST);
	assert_int_equal(ev.pr, 12);
	assert_string_equal(ev.action, "synchronize");
	event_release(&ev);
	/* the number from the pull_request object when the top one is absent */
	assert_int_equal(decode(&ev, "pull_request_target",
	                        "{'action': 'labeled', 'pull_request': "
	                        "{'number': 13}}",
	                        &err),
	                 0);
	assert_int_equal(ev.kind, EV_PULL_REQUEST);
	assert_int_equal(ev.pr, 13);
	event_release(&ev);
	buf_release(&err);
}

static void test_event__status(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(
	    decode(&ev, "status",
	           "{'sha': '7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E',"
	           " 'context': 'agentic-review/clean', "
	           "'description': 'conductor pr=#7: clean=true', "
	           "'state': 'success'}",
	           &err),
	    0);
	assert_int_equal(ev.kind, EV_STATUS);
	assert_string_equal(ev.sha, SHA);
	assert_string_equal(ev.context, "agentic-review/clean");
	assert_string_equal(ev.description, "conductor pr=#7: clean=true");
	event_release(&ev);
	/* description missing or null: "" */
	assert_int_equal(decode(&ev, "status",
	                        "{'sha': '" SHA "', 'context': 'c', "
	                        "'description': null}",
	                        &err),
	                 0);
	assert_string_equal(ev.description, "");
	event_release(&ev);
	assert_int_equal(
	    decode(&ev, "status", "{'sha': '" SHA "', 'context': 'c'}", &err),
	    0);
	assert_string_equal(ev.description, "");
	event_release(&ev);
	buf_release(&err);
}

static void test_event__workflow_dispatch(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(
	    decode(&ev, "workflow_dispatch", "{'inputs': {'pr': '12'}}", &err),
	    0);
	assert_int_equal(ev.kind, EV_DISPATCH);
	assert_string_equal(ev.dispatch_pr, "12");
	event_release(&ev);
	/* the raw text is kept: validation is N16's job */
	assert_int_equal(
	    decode(&ev, "workflow_dispatch", "{'inputs': {'pr': ' 12'}}", &err),
	    0);
	assert_string_equal(ev.dispatch_pr, " 12");
	event_release(&ev);
	assert_int_equal(
	    decode(&ev, "workflow_dispatch", "{'inputs': {'pr': 12}}", &err),
	    0);
	assert_string_equal(ev.dispatch_pr, "12");
	event_release(&ev);
	assert_int_equal(decode(&ev, "workflow_dispatch", "{}", &err), 0);
	assert_null(ev.dispatch_pr);
	event_release(&ev);
	assert_int_equal(
	    decode(&ev, "workflow_dispatch", "{'inputs': {'pr': null}}", &err),
	    0);
	assert_null(ev.dispatch_pr);
	event_release(&ev);
	buf_release(&err);
}

static void test_event__schedule_and_others_read_nothing(void **state)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(decode(&ev, "schedule", "not json at all", &err), 0);
	assert_int_equal(ev.kind, EV_SCHEDULE);
	event_release(&ev);
	assert_int_equal(decode(&ev, "push", "{", &err), 0);
	assert_int_equal(ev.kind, EV_OTHER);
	assert_string_equal(ev.name, "push");
	event_release(&ev);
	assert_int_equal(decode(&ev, "Issue_Comment", "{", &err), 0);
	assert_int_equal(ev.kind, EV_OTHER);
	event_release(&ev);
	buf_release(&err);
}

struct dispatch_row {
	const char *input;
	bool ok;
	int64_t pr;
};

static const struct dispatch_row dispatch_rows[] = {
    {"1", true, 1},
    {"12", true, 12},
    {"007", true, 7},
    {"999999999", true, 999999999},
    {"0", false, 0},
    {"000", false, 0},
    {"1234567890", false, 0},
    {"0000000001", false, 0}, /* ten digits, even if the value is 1 */
    {"-1", false, 0},
    {"+1", false, 0},
    {" 1", false, 0},
    {"1 ", false, 0},
    {"", false, 0},
    {"1e3", false, 0},
    {"0x10", false, 0},
    {"#7", false, 0},
    {"\xd9\xa1", false, 0},
};

static void test_event__dispatch_pr_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(dispatch_rows); i++) {
		int64_t pr = 0;
		bool ok = engine_dispatch_pr(dispatch_rows[i].input, &pr);

		if (ok != dispatch_rows[i].ok ||
		    (ok && pr != dispatch_rows[i].pr)) {
			print_error("row %zu (\"%s\"): ok %d pr %lld\n", i,
			            dispatch_rows[i].input, ok, (long long)pr);
			bad++;
		}
	}
	{
		int64_t pr = 0;

		assert_false(engine_dispatch_pr(NULL, &pr));
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_event__issue_comment_created),
	    cmocka_unit_test(test_event__issue_comment_variants),
	    cmocka_unit_test(test_event__bad_payload_table),
	    cmocka_unit_test(test_event__pull_request),
	    cmocka_unit_test(test_event__status),
	    cmocka_unit_test(test_event__workflow_dispatch),
	    cmocka_unit_test(test_event__schedule_and_others_read_nothing),
	    cmocka_unit_test(test_event__dispatch_pr_table),
	};

	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
