/*
 * test_findings.c - the findings input (PUBLISH.md §3, formats/findings.c):
 * a full example with every field, one row per rule that refuses it with
 * the exact message, and the normalisation of I6.
 *
 * Documents use single quotes; doc_with() turns them into double quotes
 * after replacing one piece of the full example.
 */
#include "unit.h"

#include <stdlib.h>

#include "formats/findings.h"

#define HEAD "0123456789abcdef0123456789abcdef01234567"
#define LAST "89abcdef0123456789abcdef0123456789abcdef"
#define E_P0 "\xF0\x9F\x9A\xA8"
#define E_P1 "\xE2\x9A\xA0\xEF\xB8\x8F"
#define E_P2 "\xF0\x9F\x92\xA1"
#define X15 "xxxxxxxxxxxxxxx"
#define X16 X15 "x"
#define X64 X16 X16 X16 X16
#define X256 X64 X64 X64 X64
#define X1024 X256 X256 X256 X256
#define E10 "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9" \
	    "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9" /* é×10 */
#define E100 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10

static const char full[] =
	"{'mode': 'incremental', 'head': '" HEAD "', 'base': 'origin/main', "
	"'last_sha': '" LAST "', "
	"'status': 'BLOCKED', 'status_heading': 7, 'open_counts': null, "
	"'awaiting': [1], 'accepted_exceptions': 'x', 'future_key': {}, "
	"'subagents_dispatched': ['security', 'perf-2'], "
	"'subagent_failures': ['perf-2'], "
	"'shape_narrative': 'Two issues in the parser.', "
	"'next_action': 'fix F1 before merge', "
	"'prior_sha_unreachable': null, 'replies_unavailable': true, "
	"'strings': {'next_blocked': 'corrige {ids} avant la fusion', "
	"'next_notes': 'optionnel'}, "
	"'findings': ["
	"{'id': 'F1', 'p_code': 'P1', 'severity_emoji': '" E_P1 "', "
	"'slug': 'null-deref', 'category': 'Memory [mem-1] from security', "
	"'file': 'src/a.c', 'line_start': 10, 'line_end': 12, "
	"'confidence': 'high', 'blast': 'Module', "
	"'justification': 'Reachable', "
	"'failure_mode': 'crash on empty input', "
	"'mitigation': 'check for NULL', "
	"'evidence': '\\n  p->x = 1;\\n', 'details': 'More.\\nLines.', "
	"'disposition': 'still_present', "
	"'author_reply': {'kind': 'rebutted', 'reason': 'cannot happen', "
	"'recommendation': 'disagree', 'recommendation_reason': 'it can'}, "
	"'accepted_exception': null, "
	"'severity_adjustment': {'from': '" E_P0 " P0', 'to': '" E_P1 " P1', "
	"'reason': 'not reachable remotely'}, "
	"'reported_by': ['security'], 'reversible': 'not reversible', "
	"'reopen_thread': true}, "
	"{'id': 'F7', 'p_code': 'Q', 'slug': 'spec-gap', "
	"'category': 'Spec', 'file': null, 'line_start': null, "
	"'line_end': null, 'confidence': 'medium', 'blast': 'Data layer', "
	"'justification': 'Hygiene', 'failure_mode': 'unclear rule', "
	"'mitigation': 'ask', 'evidence': '', 'details': null, "
	"'disposition': 'follow_up', 'author_reply': null, "
	"'accepted_exception': {'kind': 'follow_up', 'reason': 'later', "
	"'issue': '#12', 'accepted_by': 'alice'}, "
	"'severity_adjustment': null}], "
	"'prior_verifications': [{'prior_id': 'F1', 'verification': 'no', "
	"'note': 'still there'}], "
	"'spec_gaps': [{'id': 'F7', 'section': '3.2', 'title': 'Retry', "
	"'spec_quote': 'retries', 'code_quote': 'retry()', "
	"'questions': ['How many?', 'When?'], 'closing': 'Thanks'}], "
	"'checked_and_clean': [{'slug': 'sql-injection', "
	"'evidence': 'all queries bound'}]}";

/* The full example with `from` (present exactly once; NULL: nothing)
 * replaced by `to`, single quotes turned into double quotes. */
static char *doc_with(const char *from, const char *to)
{
	const char *at = from ? strstr(full, from) : full;
	size_t nf = from ? strlen(from) : 0, nt = from ? strlen(to) : 0;
	size_t head = (size_t)(at ? at - full : 0);
	char *d, *p;

	if (!at || (from && strstr(at + 1, from)))
		fail_msg("\"%s\" is not in the example exactly once", from);
	d = malloc(strlen(full) - nf + nt + 1);
	assert_non_null(d);
	memcpy(d, full, head);
	if (nt)
		memcpy(d + head, to, nt);
	memcpy(d + head + nt, full + head + nf, strlen(full + head + nf) + 1);
	for (p = d; *p; p++)
		if (*p == '\'')
			*p = '"';
	return d;
}

static int parse_doc(struct review_input *in, const char *from,
		     const char *to, const struct findings_opts *o,
		     struct buf *err)
{
	char *d = doc_with(from, to);
	int r;

	buf_reset(err);
	r = findings_parse(in, d, strlen(d), o, err);
	free(d);
	return r;
}

static void test_findings__full_example(void **state)
{
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const struct rv_finding *f;

	(void)state;
	if (parse_doc(&in, NULL, NULL, NULL, &err) != AA_OK)
		fail_msg("%s", err.ptr);
	assert_int_equal(in.mode, RV_INCREMENTAL);
	assert_string_equal(in.head, HEAD);
	assert_string_equal(in.base, "origin/main");
	assert_string_equal(in.last_sha, LAST);
	assert_true(in.has_dispatched);
	assert_int_equal(in.ndispatched, 2);
	assert_string_equal(in.dispatched[0], "security");
	assert_string_equal(in.dispatched[1], "perf-2");
	assert_int_equal(in.nfailures, 1);
	assert_string_equal(in.failures[0], "perf-2");
	assert_string_equal(in.shape_narrative, "Two issues in the parser.");
	assert_string_equal(in.next_action, "fix F1 before merge");
	assert_string_equal(in.prior_sha_unreachable, "");
	assert_true(in.replies_unavailable);
	assert_string_equal(in.strings[RV_STR_NEXT_BLOCKED],
			    "corrige {ids} avant la fusion");
	assert_string_equal(in.strings[RV_STR_NEXT_NOTES], "optionnel");
	assert_null(in.strings[RV_STR_INLINE_LOCATOR]);
	assert_string_equal(review_string(&in, RV_STR_INLINE_LOCATOR),
			    rv_string_defaults[RV_STR_INLINE_LOCATOR]);

	assert_int_equal(in.nfindings, 2);
	f = &in.findings[0];
	assert_int_equal(f->id, 1);
	assert_int_equal(f->p, RV_P1);
	assert_string_equal(f->slug, "null-deref");
	assert_string_equal(f->category, "Memory [mem-1] from security");
	assert_string_equal(f->file, "src/a.c");
	assert_int_equal(f->line_start, 10);
	assert_int_equal(f->line_end, 12);
	assert_int_equal(f->confidence, RV_HIGH);
	assert_string_equal(f->blast, "Module");
	assert_string_equal(f->justification, "Reachable");
	assert_string_equal(f->failure_mode, "crash on empty input");
	assert_string_equal(f->mitigation, "check for NULL");
	assert_string_equal(f->evidence, "  p->x = 1;");
	assert_string_equal(f->details, "More.\nLines.");
	assert_int_equal(f->disposition, RV_DISP_STILL_PRESENT);
	assert_non_null(f->reply);
	assert_string_equal(f->reply->kind, "rebutted");
	assert_string_equal(f->reply->reason, "cannot happen");
	assert_string_equal(f->reply->recommendation, "disagree");
	assert_string_equal(f->reply->recommendation_reason, "it can");
	assert_null(f->exception);
	assert_non_null(f->adjustment);
	assert_string_equal(f->adjustment->from, E_P0 " P0");
	assert_string_equal(f->adjustment->to, E_P1 " P1");
	assert_string_equal(f->adjustment->reason, "not reachable remotely");
	assert_int_equal(f->nreported_by, 1);
	assert_string_equal(f->reported_by[0], "security");
	assert_string_equal(f->reversible, "not reversible");
	assert_true(f->reopen_thread);

	f = &in.findings[1];
	assert_int_equal(f->id, 7);
	assert_int_equal(f->p, RV_Q);
	assert_null(f->file);
	assert_int_equal(f->line_start, 0);
	assert_int_equal(f->line_end, 0);
	assert_int_equal(f->confidence, RV_MEDIUM);
	assert_string_equal(f->blast, "Data layer");
	assert_string_equal(f->justification, "Hygiene");
	assert_string_equal(f->evidence, "");
	assert_null(f->details);
	assert_int_equal(f->disposition, RV_DISP_FOLLOW_UP);
	assert_null(f->reply);
	assert_non_null(f->exception);
	assert_string_equal(f->exception->kind, "follow_up");
	assert_string_equal(f->exception->reason, "later");
	assert_string_equal(f->exception->issue, "#12");
	assert_string_equal(f->exception->accepted_by, "alice");
	assert_null(f->adjustment);
	assert_null(f->reported_by);
	assert_null(f->reversible);
	assert_false(f->reopen_thread);

	assert_int_equal(in.nverifications, 1);
	assert_int_equal(in.verifications[0].prior_id, 1);
	assert_string_equal(in.verifications[0].verification, "no");
	assert_string_equal(in.verifications[0].note, "still there");
	assert_int_equal(in.ngaps, 1);
	assert_int_equal(in.gaps[0].id, 7);
	assert_string_equal(in.gaps[0].section, "3.2");
	assert_string_equal(in.gaps[0].title, "Retry");
	assert_string_equal(in.gaps[0].spec_quote, "retries");
	assert_string_equal(in.gaps[0].code_quote, "retry()");
	assert_int_equal(in.gaps[0].nquestions, 2);
	assert_string_equal(in.gaps[0].questions[0], "How many?");
	assert_string_equal(in.gaps[0].questions[1], "When?");
	assert_string_equal(in.gaps[0].closing, "Thanks");
	assert_int_equal(in.nclean, 1);
	assert_string_equal(in.clean[0].slug, "sql-injection");
	assert_string_equal(in.clean[0].evidence, "all queries bound");
	review_input_release(&in);
	buf_release(&err);
}

/* The least a document can be: absent optional keys read as null/none. */
static void test_findings__minimal(void **state)
{
	static const char doc[] = "{\"mode\": \"noop\", \"head\": \"" HEAD
				  "\", \"base\": \"main\", \"findings\": []}";
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t k;

	(void)state;
	if (findings_parse(&in, LIT(doc), NULL, &err) != AA_OK)
		fail_msg("%s", err.ptr);
	assert_int_equal(in.mode, RV_NOOP);
	assert_string_equal(in.last_sha, "");
	assert_string_equal(in.prior_sha_unreachable, "");
	assert_int_equal(in.nfindings, 0);
	assert_false(in.has_dispatched);
	assert_int_equal(in.ndispatched + in.nfailures, 0);
	assert_null(in.shape_narrative);
	assert_null(in.next_action);
	assert_false(in.replies_unavailable);
	for (k = 0; k < RV_STRING_COUNT; k++)
		assert_null(in.strings[k]);
	assert_int_equal(in.nverifications + in.ngaps + in.nclean, 0);
	review_input_release(&in);
	buf_release(&err);
}

struct bad_row {
	const char *from, *to; /* the change to the full example */
	const char *msg;       /* the whole message */
};

#define F0 "/findings/0/"
#define F1 "/findings/1/"
#define ID_RE "does not match ^F[1-9][0-9]{0,5}$"
#define NAME_RE "does not match ^[a-z0-9][a-z0-9-]{0,63}$"
#define SLUG_RE "does not match ^[a-z0-9]+(-[a-z0-9]+)*$"

static const struct bad_row bad_rows[] = {
	/* I1: the document */
	{ "{'mode'", "['mode'", ": invalid JSON at byte 7" },
	{ "'base': 'origin/main'", "'base': 'origin/main', 'mode': 'full'",
	  "/mode: duplicate key" },
	{ "'slug': 'null-deref'", "'slug': 'null\\u0000deref'",
	  F0 "slug: contains \\u0000" },
	{ "'future_key': {}", "'future_key': {'a': ['x', 'y\\u0000']}",
	  "/future_key/a/1: contains \\u0000" },
	{ "'future_key'", "'fut/ure~\\u0000'",
	  "/fut~1ure~0\xEF\xBF\xBD: contains \\u0000" },
	{ "'mode': 'incremental'", "'mode': 7",
	  "/mode: expected a string" },
	/* I2 */
	{ "'mode': 'incremental', ", "", "/mode: missing" },
	{ "'mode': 'incremental'", "'mode': 'local'",
	  "/mode: not one of full, incremental, noop" },
	{ "'head': '" HEAD "'",
	  "'head': '0123456789ABCDEF0123456789abcdef01234567'",
	  "/head: not 40 lower-case hex digits" },
	{ "'head': '" HEAD "'", "'head': '" LAST "0'",
	  "/head: not 40 lower-case hex digits" },
	{ "'head': '" HEAD "'", "'head': null", "/head: expected a string" },
	{ "'origin/main'", "'origin\\nmain'", "/base: more than one line" },
	{ "'origin/main'", "'origin\\rmain'", "/base: more than one line" },
	{ "'origin/main'", "' \\t '", "/base: empty" },
	{ "'origin/main'", "'" X256 "'", "/base: longer than 255 bytes" },
	{ "'last_sha': '" LAST "'", "'last_sha': null",
	  "/last_sha: required when mode is incremental" },
	{ "'last_sha': '" LAST "', ", "",
	  "/last_sha: required when mode is incremental" },
	{ "'last_sha': '" LAST "'", "'last_sha': 'abc'",
	  "/last_sha: not 40 lower-case hex digits" },
	{ "'findings': [", "'findings': {}, 'x': [",
	  "/findings: expected an array" },
	{ "'findings': [{", "'findings': [7, {",
	  "/findings/0: expected an object" },
	{ "['security', 'perf-2']", "['security', 'Perf']",
	  "/subagents_dispatched/1: " NAME_RE },
	{ "['security', 'perf-2']", "['security', '-perf']",
	  "/subagents_dispatched/1: " NAME_RE },
	{ "['security', 'perf-2']", "['security', 'a" X64 "']",
	  "/subagents_dispatched/1: " NAME_RE },
	{ "['security', 'perf-2']", "['security', 'security']",
	  "/subagents_dispatched/1: duplicate \"security\"" },
	{ "['security', 'perf-2']", "['security', 2]",
	  "/subagents_dispatched/1: expected a string" },
	{ "['security', 'perf-2']", "null",
	  "/subagents_dispatched: expected an array" },
	{ "['perf-2']", "['perf-2', 'lint']",
	  "/subagent_failures/1: \"lint\" is not in subagents_dispatched" },
	{ "'subagents_dispatched': ['security', 'perf-2'], ", "",
	  "/subagents_dispatched: required when subagent_failures is not "
	  "empty" },
	{ "'shape_narrative': 'Two issues in the parser.', ", "",
	  "/shape_narrative: required when findings has 2 or more elements" },
	{ "'Two issues in the parser.'", "null",
	  "/shape_narrative: required when findings has 2 or more elements" },
	{ "'fix F1 before merge'", "''", "/next_action: empty" },
	{ "'prior_sha_unreachable': null", "'prior_sha_unreachable': 'x'",
	  "/prior_sha_unreachable: not 40 lower-case hex digits" },
	{ "'replies_unavailable': true", "'replies_unavailable': 'yes'",
	  "/replies_unavailable: expected true or false" },
	{ "'replies_unavailable': true", "'replies_unavailable': null",
	  "/replies_unavailable: expected true or false" },
	/* I3 */
	{ "'id': 'F1'", "'id': 'F0'", F0 "id: " ID_RE },
	{ "'id': 'F1'", "'id': 'F1234567'", F0 "id: " ID_RE },
	{ "'id': 'F1'", "'id': 'f1'", F0 "id: " ID_RE },
	{ "'id': 'F1'", "'id': 1", F0 "id: expected a string" },
	{ "'id': 'F7', 'p_code'", "'id': 'F1', 'p_code'",
	  F1 "id: duplicate F1" },
	{ "'id': 'F1', ", "", F0 "id: missing" },
	{ "'p_code': 'P1'", "'p_code': 'P4'",
	  F0 "p_code: not one of P0, P1, P2, P3, Q" },
	{ "'severity_emoji': '" E_P1 "'", "'severity_emoji': '" E_P2 "'",
	  F0 "severity_emoji: does not match p_code P1" },
	{ "'severity_emoji': '" E_P1 "'", "'severity_emoji': 'P1'",
	  F0 "severity_emoji: not one of \xF0\x9F\x9A\xA8, "
	     "\xE2\x9A\xA0\xEF\xB8\x8F, \xF0\x9F\x92\xA1, \xF0\x9F\x94\xA7, "
	     "\xE2\x9D\x93" },
	{ "'slug': 'null-deref'", "'slug': 'Null-deref'", F0 "slug: " SLUG_RE },
	{ "'slug': 'null-deref'", "'slug': 'null--deref'",
	  F0 "slug: " SLUG_RE },
	{ "'slug': 'null-deref'", "'slug': 'null-'", F0 "slug: " SLUG_RE },
	{ "'slug': 'null-deref'", "'slug': 'null deref'", F0 "slug: " SLUG_RE },
	{ "'slug': 'null-deref'", "'slug': 'a" X64 "'",
	  F0 "slug: longer than 64 bytes" },
	{ "'Memory [mem-1] from security'", "'Memory\\n[mem-1]'",
	  F0 "category: more than one line" },
	{ "'Memory [mem-1] from security'",
	  "'" E100 E100 "x'", F0 "category: longer than 200 code points" },
	{ "'src/a.c'", "'/src/a.c'",
	  F0 "file: not a relative path (leading /)" },
	{ "'src/a.c'", "'../a.c'", F0 "file: has a .. segment" },
	{ "'src/a.c'", "'src/../a.c'", F0 "file: has a .. segment" },
	{ "'src/a.c'", "'src/..'", F0 "file: has a .. segment" },
	{ "'src/a.c'", "'src/a\\tb.c'", F0 "file: has a control character" },
	{ "'src/a.c'", "'src/a\\u0085.c'",
	  F0 "file: has a control character" },
	{ "'src/a.c'", "'src/a.c\\nb'", F0 "file: has a control character" },
	{ "'src/a.c'", "'src/<!--a.c'", F0 "file: holds <!-- or -->" },
	{ "'src/a.c'", "'src/a-->.c'", F0 "file: holds <!-- or -->" },
	{ "'src/a.c'", "'" X1024 "x'", F0 "file: longer than 1024 bytes" },
	{ "'src/a.c'", "''", F0 "file: empty" },
	{ "'file': 'src/a.c'", "'file': null",
	  F0 "line_start: set without a file" },
	{ "'line_start': 10", "'line_start': 0",
	  F0 "line_start: not an integer from 1 to 2147483647" },
	{ "'line_start': 10", "'line_start': 1.5",
	  F0 "line_start: not an integer from 1 to 2147483647" },
	{ "'line_start': 10", "'line_start': '10'",
	  F0 "line_start: expected an integer or null" },
	{ "'line_end': 12", "'line_end': 2147483648",
	  F0 "line_end: not an integer from 1 to 2147483647" },
	{ "'line_end': 12", "'line_end': null",
	  F0 "line_end: null while line_start is not" },
	{ "'line_start': 10", "'line_start': null",
	  F0 "line_start: null while line_end is not" },
	{ "'line_start': 10", "'line_start': 13",
	  F0 "line_end: less than line_start" },
	{ "'line_start': null", "'line_start': 1",
	  F1 "line_end: null while line_start is not" },
	{ "'confidence': 'high'", "'confidence': 'High'",
	  F0 "confidence: not one of high, medium, low" },
	{ "'blast': 'Module'", "'blast': 'module'",
	  F0 "blast: not one of Local, Module, Cross-service, Data layer" },
	{ "'justification': 'Reachable'", "'justification': 'Obvious'",
	  F0 "justification: not one of Reachable, Precedent, Asymmetric, "
	     "Historical, Hygiene" },
	{ "'justification': 'Reachable'", "'justification': 'Hygiene'",
	  F0 "justification: Hygiene is for Q findings only" },
	{ "'crash on empty input'", "' \\n '", F0 "failure_mode: empty" },
	{ "'mitigation': 'check for NULL', ", "", F0 "mitigation: missing" },
	{ "'evidence': ''", "'evidence': null",
	  F1 "evidence: expected a string" },
	{ "'evidence': ''", "'evidenc': ''", F1 "evidence: missing" },
	{ "'More.\\nLines.'", "''", F0 "details: empty" },
	{ "'More.\\nLines.'", "' \\n\\t\\n'", F0 "details: empty" },
	{ "'disposition': 'still_present'", "'disposition': 'closed'",
	  F0 "disposition: not one of open, likely_fixed, still_present, "
	     "awaiting_decision, follow_up, wontfix, by_design" },
	{ "'kind': 'rebutted'", "'kind': 'rejected'",
	  F0 "author_reply/kind: not one of rebutted, wontfix, deferred" },
	{ "'reason': 'cannot happen'", "'reason': ''",
	  F0 "author_reply/reason: empty" },
	{ "'recommendation': 'disagree'", "'recommendation': 'agree'",
	  F0 "author_reply/recommendation: not one of agree with author, "
	     "disagree" },
	{ ", 'recommendation_reason': 'it can'", "",
	  F0 "author_reply/recommendation_reason: required with a "
	     "recommendation" },
	{ "'recommendation': 'disagree'", "'recommendation': null",
	  F0 "author_reply/recommendation_reason: set without a "
	     "recommendation" },
	{ "'author_reply': {", "'author_reply': 'x', 'z': {",
	  F0 "author_reply: expected an object or null" },
	{ "'issue': '#12'", "'issue': '12'",
	  F1 "accepted_exception/issue: does not match ^#[1-9][0-9]*$" },
	{ "'issue': '#12'", "'issue': '#012'",
	  F1 "accepted_exception/issue: does not match ^#[1-9][0-9]*$" },
	{ "'issue': '#12'", "'issue': '#'",
	  F1 "accepted_exception/issue: does not match ^#[1-9][0-9]*$" },
	{ "'kind': 'follow_up'", "'kind': 'follow-up'",
	  F1 "accepted_exception/kind: not one of follow_up, wontfix, "
	     "by_design" },
	{ ", 'accepted_by': 'alice'", "",
	  F1 "accepted_exception/accepted_by: missing" },
	{ "'to': '" E_P1 " P1'", "'to': '" E_P2 " P2'",
	  F0 "severity_adjustment/to: not \"" E_P1 " P1\", the label of "
	     "p_code" },
	{ "'to': '" E_P1 " P1'", "'to': 'P1'",
	  F0 "severity_adjustment/to: not \"" E_P1 " P1\", the label of "
	     "p_code" },
	{ "'reason': 'not reachable remotely'", "'reason': 3",
	  F0 "severity_adjustment/reason: expected a string" },
	{ "'reported_by': ['security']", "'reported_by': ['Sec']",
	  F0 "reported_by/0: " NAME_RE },
	{ "'reported_by': ['security']", "'reported_by': null",
	  F0 "reported_by: expected an array" },
	{ "'reversible': 'not reversible'", "'reversible': 'maybe'",
	  F0 "reversible: not one of reversible, not reversible" },
	{ "'reopen_thread': true", "'reopen_thread': 1",
	  F0 "reopen_thread: expected true or false" },
	/* I4 */
	{ "'prior_id': 'F1'", "'prior_id': 'F9'",
	  "/prior_verifications/0/prior_id: F9 is not a finding" },
	{ "'note': 'still there'}]",
	  "'note': 'still there'}, {'prior_id': 'F1', 'verification': "
	  "'yes', 'note': 'n'}]",
	  "/prior_verifications/1/prior_id: duplicate F1" },
	{ "'verification': 'no'", "'verification': 'maybe'",
	  "/prior_verifications/0/verification: not one of yes, unclear, no" },
	{ ", 'note': 'still there'", "",
	  "/prior_verifications/0/note: missing" },
	{ "'prior_verifications': [", "'prior_verifications': null, 'y': [",
	  "/prior_verifications: expected an array" },
	{ "{'id': 'F7', 'section'", "{'id': 'F1', 'section'",
	  "/spec_gaps/0/id: F1 is not a Q finding" },
	{ "{'id': 'F7', 'section'", "{'id': 'F8', 'section'",
	  "/spec_gaps/0/id: F8 is not a finding" },
	{ "'closing': 'Thanks'}]",
	  "'closing': 'Thanks'}, {'id': 'F7', 'section': 's', 'title': 't', "
	  "'spec_quote': 'q', 'code_quote': 'c', 'questions': ['?']}]",
	  "/spec_gaps/1/id: duplicate F7" },
	{ "['How many?', 'When?']", "[]", "/spec_gaps/0/questions: empty" },
	{ "['How many?', 'When?']", "['How many?', ' ']",
	  "/spec_gaps/0/questions/1: empty" },
	{ "['How many?', 'When?']", "['How many?', null]",
	  "/spec_gaps/0/questions/1: expected a string" },
	{ "'title': 'Retry', ", "", "/spec_gaps/0/title: missing" },
	{ "'spec_quote': 'retries'", "'spec_quote': ''",
	  "/spec_gaps/0/spec_quote: empty" },
	{ "'closing': 'Thanks'", "'closing': ''",
	  "/spec_gaps/0/closing: empty" },
	{ "'slug': 'sql-injection'", "'slug': 'SQL'",
	  "/checked_and_clean/0/slug: " SLUG_RE },
	{ "'all queries bound'", "'  '",
	  "/checked_and_clean/0/evidence: empty" },
	/* I7 */
	{ "'next_notes': 'optionnel'", "'next_note': 'optionnel'",
	  "/strings/next_note: not a string of I7" },
	{ "'next_notes': 'optionnel'", "'a/b~c': 'x'",
	  "/strings/a~1b~0c: not a string of I7" },
	{ "'next_notes': 'optionnel'", "'next_notes': null",
	  "/strings/next_notes: expected a string" },
	{ "'next_notes': 'optionnel'", "'next_notes': ''",
	  "/strings/next_notes: empty" },
	{ "'next_notes': 'optionnel'", "'next_notes': 'a\\r\\nb'",
	  "/strings/next_notes: more than one line" },
	{ "'next_notes': 'optionnel'", "'next_notes': '" E100 E100 E100 "x'",
	  "/strings/next_notes: longer than 300 code points" },
	{ "'next_notes': 'optionnel'", "'next_notes': 'opt {n}'",
	  "/strings/next_notes: unknown placeholder {n}" },
	{ "'corrige {ids} avant la fusion'", "'corrige avant la fusion'",
	  "/strings/next_blocked: must hold {ids} exactly once" },
	{ "'corrige {ids} avant la fusion'", "'corrige {ids} et {ids}'",
	  "/strings/next_blocked: must hold {ids} exactly once" },
	{ "'corrige {ids} avant la fusion'", "'corrige {IDS} {ids}'",
	  "/strings/next_blocked: unknown placeholder {IDS}" },
	{ "'strings': {", "'strings': [], 'w': {",
	  "/strings: expected an object" },
	/* the first violation in document order: the members of an object,
	 * then what is missing from it, then the rules between members */
	{ "'id': 'F1', 'p_code': 'P1'", "'p_code': 'P9', 'id': 'F0'",
	  F0 "p_code: not one of P0, P1, P2, P3, Q" },
	{ "'mitigation': 'check for NULL', 'evidence'", "'evidence'",
	  F0 "mitigation: missing" },
	{ "'mitigation': 'check for NULL', 'evidence': '\\n  p->x = 1;\\n'",
	  "'evidence': 7", F0 "evidence: expected a string" },
	/* B8: a duplicate key names its member */
	{ "'line_start': 10", "'line_start': 11, 'p_code': 'P0'",
	  F0 "p_code: duplicate key" },
	{ "'prior_id': 'F1'", "'prior_id': 'F9', 'verification': 'x'",
	  "/prior_verifications/0/verification: duplicate key" },
	{ "'sql-injection'", "'SQL'}, {'slug': 7",
	  "/checked_and_clean/0/slug: " SLUG_RE },
	{ "'note': 'still there'}]", "'note': 'x'}, {'prior_id': 'F9'}]",
	  "/prior_verifications/1/verification: missing" },
};

static void test_findings__bad_rows(void **state)
{
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		const struct bad_row *r = &bad_rows[i];

		if (parse_doc(&in, r->from, r->to, NULL, &err) != AA_ERR)
			fail_msg("row %zu (%s): accepted", i, r->msg);
		if (strcmp(err.ptr, r->msg) != 0)
			fail_msg("row %zu: got \"%s\", want \"%s\"", i, err.ptr,
				 r->msg);
		/* refused: nothing left to release */
		assert_null(in.findings);
		assert_int_equal(in.nfindings, 0);
		assert_null(in.base);
	}
	buf_release(&err);
}

struct good_row {
	const char *from, *to;
	const char *(*get)(const struct review_input *in);
	const char *want;
};

static const char *f0_failure_mode(const struct review_input *in)
{
	return in->findings[0].failure_mode;
}
static const char *f0_evidence(const struct review_input *in)
{
	return in->findings[0].evidence;
}
static const char *f0_details(const struct review_input *in)
{
	return in->findings[0].details;
}
static const char *f0_category(const struct review_input *in)
{
	return in->findings[0].category;
}
static const char *f0_slug(const struct review_input *in)
{
	return in->findings[0].slug;
}
static const char *f0_pcode(const struct review_input *in)
{
	return rv_pcode_names[in->findings[0].p];
}
static const char *f0_file(const struct review_input *in)
{
	return in->findings[0].file;
}
static const char *head(const struct review_input *in)
{
	return in->head;
}
static const char *base(const struct review_input *in)
{
	return in->base;
}
static const char *clean_evidence(const struct review_input *in)
{
	return in->clean[0].evidence;
}
static const char *question1(const struct review_input *in)
{
	return in->gaps[0].questions[1];
}
static const char *next_notes(const struct review_input *in)
{
	return in->strings[RV_STR_NEXT_NOTES];
}

/* I6, and what is accepted at the edges of the rules. */
static const struct good_row good_rows[] = {
	{ "'crash on empty input'", "'  crash\\r\\non empty \\r '",
	  f0_failure_mode, "crash\non empty" },
	{ "'crash on empty input'", "'a\\rb\\r\\rc'", f0_failure_mode,
	  "a\nb\n\nc" },
	{ "'\\n  p->x = 1;\\n'", "'\\n \\t\\n  p->x = 1;\\r\\n  q();  \\n \\n'",
	  f0_evidence, "  p->x = 1;\n  q();  " },
	{ "'\\n  p->x = 1;\\n'", "' \\t '", f0_evidence, "" },
	{ "'\\n  p->x = 1;\\n'", "'\\r\\n\\r\\n'", f0_evidence, "" },
	{ "'\\n  p->x = 1;\\n'", "'a\\n\\n\\nb'", f0_evidence, "a\n\n\nb" },
	{ "'More.\\nLines.'", "' \\n\\tMore.\\r\\n\\n  Lines. \\n'",
	  f0_details, "\tMore.\n\n  Lines. " },
	{ "'Memory [mem-1] from security'", "'  Memory \\r'", f0_category,
	  "Memory" },
	{ "'Memory [mem-1] from security'", "'" E100 E100 "'", f0_category,
	  E100 E100 },
	{ "'slug': 'null-deref'", "'slug': ' null-deref\\n'", f0_slug,
	  "null-deref" },
	{ "'slug': 'null-deref'", "'slug': '0'", f0_slug, "0" },
	{ "'slug': 'null-deref'", "'slug': '" X64 "'", f0_slug, X64 },
	{ "'p_code': 'P1'", "'p_code': ' P1\\t'", f0_pcode, "P1" },
	{ "'src/a.c'", "'src/a..b/.c'", f0_file, "src/a..b/.c" },
	{ "'src/a.c'", "'" X1024 "'", f0_file, X1024 },
	{ "'head': '" HEAD "'", "'head': ' " HEAD "\\n'", head, HEAD },
	{ "'origin/main'", "'" X64 X64 X64 X16 X16 X16 X15 "'", base,
	  X64 X64 X64 X16 X16 X16 X15 },
	{ "'all queries bound'", "'  all bound  '", clean_evidence,
	  "all bound" },
	{ "'When?'", "' When?\\r'", question1, "When?" },
	{ "'optionnel'", "'  rien de bloquant '", next_notes,
	  "rien de bloquant" },
	{ "'optionnel'", "'{ x } {} {'", next_notes, "{ x } {} {" },
	{ "'optionnel'", "'" E100 E100 E100 "'", next_notes, E100 E100 E100 },
	/* a literal backslash before u0000 is no \u0000 */
	{ "'crash on empty input'", "'a \\\\u0000'", f0_failure_mode,
	  "a \\u0000" },
};

static void test_findings__normalisation(void **state)
{
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good_rows); i++) {
		const struct good_row *r = &good_rows[i];

		if (parse_doc(&in, r->from, r->to, NULL, &err) != AA_OK)
			fail_msg("row %zu: %s", i, err.ptr);
		if (strcmp(r->get(&in), r->want) != 0)
			fail_msg("row %zu: got \"%s\", want \"%s\"", i,
				 r->get(&in), r->want);
		review_input_release(&in);
	}
	buf_release(&err);
}

static void test_findings__local_mode(void **state)
{
	struct findings_opts o = { true, 0 };
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	if (parse_doc(&in, "'mode': 'incremental'", "'mode': 'local'", &o,
		      &err) != AA_OK)
		fail_msg("%s", err.ptr);
	assert_int_equal(in.mode, RV_LOCAL);
	review_input_release(&in);
	/* local needs no last_sha */
	if (parse_doc(&in, "'mode': 'incremental', 'head': '" HEAD
			   "', 'base': 'origin/main', 'last_sha': '" LAST "'",
		      "'mode': 'local', 'head': '" HEAD
		      "', 'base': 'origin/main', 'last_sha': null",
		      &o, &err) != AA_OK)
		fail_msg("%s", err.ptr);
	assert_string_equal(in.last_sha, "");
	review_input_release(&in);
	assert_int_equal(parse_doc(&in, "'mode': 'incremental'",
				   "'mode': 'locale'", &o, &err),
			 AA_ERR);
	assert_string_equal(err.ptr,
			    "/mode: not one of full, incremental, noop, local");
	buf_release(&err);
}

static void test_findings__max_findings(void **state)
{
	struct findings_opts o = { false, 2 };
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	if (parse_doc(&in, NULL, NULL, &o, &err) != AA_OK)
		fail_msg("%s", err.ptr);
	review_input_release(&in);
	o.max_findings = 1;
	assert_int_equal(parse_doc(&in, NULL, NULL, &o, &err), AA_ERR);
	assert_string_equal(err.ptr, "/findings: more than 1 findings");
	buf_release(&err);
}

static void test_findings__document(void **state)
{
	struct review_input in;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t n = RV_MAX_INPUT_BYTES + 1;
	char *big = malloc(n);

	(void)state;
	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	assert_int_equal(findings_parse(&in, big, n, NULL, &err), AA_ERR);
	assert_string_equal(err.ptr, ": larger than 8388608 bytes (8 MiB)");
	/* at the limit, the size is no violation */
	big[n - 2] = '}';
	assert_int_equal(findings_parse(&in, big, n - 1, NULL, &err), AA_ERR);
	assert_string_equal(err.ptr, "/mode: missing");
	free(big);

	assert_int_equal(findings_parse(&in, LIT("[]"), NULL, &err), AA_ERR);
	assert_string_equal(err.ptr, ": not a JSON object");
	assert_int_equal(findings_parse(&in, LIT("\"\\u0000\""), NULL, &err),
			 AA_ERR);
	assert_string_equal(err.ptr, ": not a JSON object");
	assert_int_equal(findings_parse(&in, LIT("{\"a\": \"\xff\"}"), NULL,
					&err),
			 AA_ERR);
	assert_string_equal(err.ptr,
			    ": JSON text is not valid UTF-8 at byte 7");
	assert_int_equal(findings_parse(&in, LIT("{\"a\": \"\0\"}"), NULL,
					&err),
			 AA_ERR);
	assert_string_equal(err.ptr, ": JSON text holds a NUL byte");
	assert_int_equal(findings_parse(&in, NULL, 0, NULL, &err), AA_ERR);
	assert_string_equal(err.ptr, ": invalid JSON at byte 0");
	assert_int_equal(findings_parse(&in, LIT("{} {}"), NULL, &err), AA_ERR);
	assert_string_equal(err.ptr, ": invalid JSON at byte 3");
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_findings__full_example),
		cmocka_unit_test(test_findings__minimal),
		cmocka_unit_test(test_findings__bad_rows),
		cmocka_unit_test(test_findings__normalisation),
		cmocka_unit_test(test_findings__local_mode),
		cmocka_unit_test(test_findings__max_findings),
		cmocka_unit_test(test_findings__document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
