/*
 * test_marker.c - BEHAVIOR §2: the verdict comment parser, as amended on
 * 2026-12-01: the leading marker run (A2), fences and one check block
 * (A3), every bullet line a row (A4). Rows whose expectation an amendment
 * changed name it.
 *
 * Table-driven: each table is an array of {input, expected} rows walked by
 * one test function; every mismatch is printed with its row index and name
 * and the test fails once at the end, so one run shows every broken row.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/marker.h"

/* --- helpers --- */

#define HA       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HB       "0123456789abcdef0123456789abcdef01234567"
#define HB_UP    "0123456789ABCDEF0123456789ABCDEF01234567"
#define HA_SHORT "aaaaaaa"

#define NHV      "<!-- agentic:needs-human v1 -->\n"
#define YES      "<!-- needs-human: yes -->\n"
#define NO       "<!-- needs-human: no -->\n"
#define HEAD(h)  "<!-- head: " h " -->\n"
#define BASE(b)  "<!-- base: " b " -->\n"
#define OPEN     "<!-- agentic:check v1 -->\n"
#define ROW_OK_A "- id: PRRT_a, status: fixed, severity: high, reason: done\n"

/* Report a row mismatch; `bad` counts them, the test fails at the end. */
#define EXPECT_INT(i, name, got, want)                                         \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (g_ != w_) {                                                \
			print_error(                                           \
			    "row %zu (%s): %s is %lld, expected %lld\n",       \
			    (size_t)(i), (name), #got, g_, w_);                \
			bad++;                                                 \
		}                                                              \
	} while (0)

#define EXPECT_VIEW(i, name, view, want)                                       \
	do {                                                                   \
		struct mview v_ = (view);                                      \
		const char *w_ = (want);                                       \
		if (v_.n != strlen(w_) || (v_.n && memcmp(v_.p, w_, v_.n))) {  \
			print_error("row %zu (%s): %s is \"%.*s\", expected "  \
			            "\"%s\"\n",                                \
			            (size_t)(i), (name), #view, (int)v_.n,     \
			            v_.p ? v_.p : "", w_);                     \
			bad++;                                                 \
		}                                                              \
	} while (0)

#define EXPECT_STR(i, name, got, want)                                         \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (strcmp(g_, w_) != 0) {                                     \
			print_error("row %zu (%s): %s is \"%s\", expected "    \
			            "\"%s\"\n",                                \
			            (size_t)(i), (name), #got, g_, w_);        \
			bad++;                                                 \
		}                                                              \
	} while (0)

static struct mview mvs(const char *s)
{
	struct mview v;

	v.p = s;
	v.n = strlen(s);
	return v;
}

static void parse_str(struct marker_result *m, const char *s)
{
	marker_parse(m, s, strlen(s));
}

/* Independent count of code points: bytes that are not 10xxxxxx. */
static size_t count_chars(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			c++;
	return c;
}

/* Repeat `unit` until `n` copies, then append `tail`. Caller frees. */
static char *repeat(const char *head, const char *unit, size_t n,
                    const char *tail, size_t *len)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail), i;
	char *s = malloc(hl + ul * n + tl + 1), *p = s;

	assert_non_null(s);
	memcpy(p, head, hl);
	p += hl;
	for (i = 0; i < n; i++, p += ul)
		memcpy(p, unit, ul);
	memcpy(p, tail, tl);
	p += tl;
	*p = '\0';
	*len = (size_t)(p - s);
	return s;
}

/* --- marker_nh_line --- */

struct nh_line_row {
	const char *line;
	enum nh_line_kind kind;
	const char *value; /* NULL: not checked */
};

static const struct nh_line_row nh_line_rows[] = {
    /* the verdict line and its whitespace/case rules */
    {"<!-- agentic:needs-human v1 -->", NHL_VERDICT, NULL},
    {"<!--agentic:needs-human v1-->", NHL_VERDICT, NULL},
    {"   <!-- agentic:needs-human v1 -->", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-human v1 -->   ", NHL_VERDICT, NULL},
    {"\t<!-- agentic:needs-human v1 -->\t", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-human v1 -->\r", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-human v1 --> \r", NHL_VERDICT, NULL},
    /* Inside the delimiters only spaces and tabs are ws: a CR is not. */
    {"<!-- needs-human: no\r-->", NHL_VALUE_OTHER, "no\r"},
    {"<!-- agentic:needs-human v1\r -->", NHL_VERDICT_NEAR, NULL},
    {"<!--  \t agentic:needs-human v1 \t -->", NHL_VERDICT, NULL},
    {"<!-- AGENTIC:NEEDS-HUMAN V1 -->", NHL_VERDICT, NULL},
    {"<!-- Agentic:Needs-Human v1 -->", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-human\tv1 -->", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-human    v1 -->", NHL_VERDICT, NULL},
    {"<!-- agentic:needs-humanv1 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs-human v2 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs-human v10 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs-human v -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs-human -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs-human v1 extra -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic: needs-human v1 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic :needs-human v1 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic-needs-human v1 -->", NHL_VERDICT_NEAR, NULL},
    /* anything else on the line: not a marker */
    {"<!-- agentic:needs-human v1 --> and more", NHL_NONE, NULL},
    {"text <!-- agentic:needs-human v1 -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-human v1 --><!-- needs-human: yes -->", NHL_NONE,
     NULL},
    {"<!-- needs-human: yes --> <!-- needs-human: no -->", NHL_NONE, NULL},
    {"<!-- <!-- needs-human: yes -->", NHL_NONE, NULL},
    {"<!-- needs-human: yes --> -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-human v1 -- >", NHL_NONE, NULL},
    {"<! -- agentic:needs-human v1 -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-human v1", NHL_NONE, NULL},
    {"agentic:needs-human v1 -->", NHL_NONE, NULL},
    {"<!---->", NHL_NONE, NULL},
    {"<!-->", NHL_NONE, NULL},
    {"<!--->", NHL_NONE, NULL},
    {"", NHL_NONE, NULL},
    {"   ", NHL_NONE, NULL},
    /* code spans, block quotes, list items, headings */
    {"`<!-- agentic:needs-human v1 -->`", NHL_NONE, NULL},
    {"`<!-- needs-human: no -->`", NHL_NONE, NULL},
    {"> <!-- needs-human: no -->", NHL_NONE, NULL},
    {">  <!-- agentic:needs-human v1 -->", NHL_NONE, NULL},
    {"- <!-- needs-human: no -->", NHL_NONE, NULL},
    {"# <!-- needs-human: no -->", NHL_NONE, NULL},
    /* homoglyphs, zero-width and non-ASCII spaces, full-width colon */
    {"<!-- \xd0\xb0gentic:needs-human v1 -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-hum\xd0\xb0n v1 -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-human v\xef\xbc\x91 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- agentic:needs\xe2\x80\x8b-human v1 -->", NHL_VERDICT_NEAR, NULL},
    {"<!--\xe2\x80\x8b agentic:needs-human v1 -->", NHL_VERDICT_NEAR, NULL},
    {"\xe2\x80\x8b<!-- agentic:needs-human v1 -->", NHL_NONE, NULL},
    {"<!-- agentic:needs-human\xc2\xa0v1 -->", NHL_VERDICT_NEAR, NULL},
    {"<!-- needs-human\xef\xbc\x9a yes -->", NHL_NEAR, NULL},
    {"<!-- needs\xe2\x80\x91human: yes -->", NHL_NEAR, NULL},
    {"<!-- needs-human: y\xd0\xb5s -->", NHL_VALUE_OTHER, NULL},
    {"<!-- needs-human: n\xd0\xbe -->", NHL_VALUE_OTHER, NULL},
    {"<!-- needs-human: yes\xe2\x80\x8b -->", NHL_VALUE_OTHER, NULL},
    {"\xef\xbc\x9c!-- needs-human: yes -->", NHL_NONE, NULL},
    /* a NUL read as U+FFFD (N23) never forms a marker */
    {"<!--\xef\xbf\xbd needs-human: yes -->", NHL_NEAR, NULL},
    {"<!-- needs-human\xef\xbf\xbd: yes -->", NHL_NEAR, NULL},
    {"<!-- needs-human: yes\xef\xbf\xbd -->", NHL_VALUE_OTHER, NULL},
    {"\xef\xbf\xbd<!-- needs-human: yes -->", NHL_NONE, NULL},
    {"<!-- needs-human: yes -->\xef\xbf\xbd", NHL_NONE, NULL},
    /* the value line */
    {"<!-- needs-human: yes -->", NHL_YES, "yes"},
    {"<!-- needs-human:yes -->", NHL_YES, "yes"},
    {"<!--needs-human:yes-->", NHL_YES, "yes"},
    {"<!-- needs-human :  yes -->", NHL_YES, "yes"},
    {"<!-- needs-human\t:\tyes\t-->", NHL_YES, "yes"},
    {"<!-- NEEDS-HUMAN: YES -->", NHL_YES, "YES"},
    {"<!-- Needs-Human: Yes -->", NHL_YES, "Yes"},
    {"  <!-- needs-human: yes -->\r", NHL_YES, "yes"},
    {"<!-- needs-human: no -->", NHL_NO, "no"},
    {"<!-- needs-human: NO -->", NHL_NO, "NO"},
    {"<!-- needs-human: nO -->", NHL_NO, "nO"},
    {"<!-- needs-human: maybe -->", NHL_VALUE_OTHER, "maybe"},
    {"<!-- needs-human: yes please -->", NHL_VALUE_OTHER, "yes please"},
    {"<!-- needs-human: yes, no -->", NHL_VALUE_OTHER, NULL},
    {"<!-- needs-human: y -->", NHL_VALUE_OTHER, "y"},
    {"<!-- needs-human: true -->", NHL_VALUE_OTHER, "true"},
    {"<!-- needs-human: yes --> x", NHL_NONE, NULL},
    {"<!-- needs-human yes -->", NHL_NEAR, NULL},
    {"<!-- needs-human = yes -->", NHL_NEAR, NULL},
    {"<!-- needs-humans: yes -->", NHL_NEAR, NULL},
    {"<!-- agentic:needs-human: yes -->", NHL_VERDICT_NEAR, NULL},
    /* head and base */
    {"<!-- head: " HA " -->", NHL_HEAD, HA},
    {"<!--head:" HA "-->", NHL_HEAD, HA},
    {"<!-- HEAD : " HB_UP " -->", NHL_HEAD, HB_UP},
    {"<!-- head: " HA_SHORT " -->", NHL_HEAD, HA_SHORT},
    {"<!-- head: -->", NHL_HEAD, ""},
    {"<!-- head: " HA " --> ", NHL_HEAD, HA},
    {"<!-- head " HA " -->", NHL_NEAR, NULL},
    {"<!-- base: main -->", NHL_BASE, "main"},
    {"<!-- base:main-->", NHL_BASE, "main"},
    {"<!-- BASE :  release/1.x  -->", NHL_BASE, "release/1.x"},
    {"<!-- base: Main -->", NHL_BASE, "Main"},
    {"<!-- base: feature branch -->", NHL_BASE, "feature branch"},
    {"<!-- base: a--b -->", NHL_BASE, "a--b"},
    {"<!-- base: -->", NHL_BASE, ""},
    {"<!-- base: main --> <!-- x -->", NHL_NONE, NULL},
    {"<!-- bases: main -->", NHL_NONE, NULL},
};

static void test_marker__nh_line_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(nh_line_rows); i++) {
		const struct nh_line_row *r = &nh_line_rows[i];
		struct mview value;
		enum nh_line_kind k = marker_nh_line(mvs(r->line), &value);

		EXPECT_INT(i, r->line, k, r->kind);
		if (k == r->kind && r->value)
			EXPECT_VIEW(i, r->line, value, r->value);
	}
	assert_int_equal(bad, 0);
}

/* --- marker_check_line --- */

struct check_line_row {
	const char *line;
	enum check_line_kind kind;
	const char *value; /* NULL: not checked */
};

static const struct check_line_row check_line_rows[] = {
    {"head: " HA, CKL_HEAD, HA},
    {"head:" HA, CKL_HEAD, HA},
    {"  HEAD :\t" HB_UP "  ", CKL_HEAD, HB_UP},
    {"Head: " HA "\r", CKL_HEAD, HA},
    {"head: " HA_SHORT, CKL_NONE, NULL},
    {"head: " HA " (judged)", CKL_NONE, NULL},
    {"head: " HA "a", CKL_NONE, NULL},
    {"head: " HA ".", CKL_NONE, NULL},
    {"head: `" HA "`", CKL_NONE, NULL},
    {"head:", CKL_NONE, NULL},
    {"head " HA, CKL_NONE, NULL},
    /* A4: a line starting with "*" is a row, bold or not */
    {"**head:** " HA, CKL_ROW, "**head:** " HA},
    {"> head: " HA, CKL_NONE, NULL},
    {"<!-- head: " HA " -->", CKL_NONE, NULL},
    {"the head: " HA, CKL_NONE, NULL},
    {"head\xef\xbc\x9a " HA, CKL_NONE, NULL},
    {"round: 123", CKL_ROUND, "123"},
    {"round:7", CKL_ROUND, "7"},
    {"  Round :  0042 \r", CKL_ROUND, "0042"},
    {"ROUND: 99999999999999999999", CKL_ROUND, "99999999999999999999"},
    {"round: 12a", CKL_NONE, NULL},
    {"round: -5", CKL_NONE, NULL},
    {"round: +5", CKL_NONE, NULL},
    {"round: 1 2", CKL_NONE, NULL},
    {"round: 1.0", CKL_NONE, NULL},
    {"round:", CKL_NONE, NULL},
    {"round: \xd9\xa1", CKL_NONE, NULL},
    {"clean: true", CKL_CLEAN, "true"},
    {"clean: false", CKL_CLEAN, "false"},
    {"Clean : TRUE", CKL_CLEAN, "TRUE"},
    {"CLEAN:False\r", CKL_CLEAN, "False"},
    {"clean: yes", CKL_NONE, NULL},
    {"clean: true.", CKL_NONE, NULL},
    {"clean: true false", CKL_NONE, NULL},
    {"clean: 1", CKL_NONE, NULL},
    {"clean:", CKL_NONE, NULL},
    {"clean=true", CKL_NONE, NULL},
    {"- id: a, status: fixed, severity: nit, reason: r", CKL_ROW, NULL},
    {"-id:a", CKL_ROW, NULL},
    {"  -   ID : x", CKL_ROW, NULL},
    {"\t- id:", CKL_ROW, NULL},
    /* A4: every line whose first non-ws character is "-", "*" or "+" is
     * a row (the value is the trimmed line); near-misses are rows too */
    {"- id", CKL_ROW, "- id"},
    {"* id: x", CKL_ROW, "* id: x"},
    {"+ id: x", CKL_ROW, "+ id: x"},
    {"- idx: y", CKL_ROW, "- idx: y"},
    {"- status: fixed", CKL_ROW, "- status: fixed"},
    {"-- id: x", CKL_ROW, "-- id: x"},
    {"- thread: PRRT_1, status: fixed", CKL_ROW, NULL},
    {"---", CKL_ROW, "---"},
    {"***", CKL_ROW, "***"},
    {"-", CKL_ROW, "-"},
    {"+", CKL_ROW, "+"},
    {"- fixed the typo in the README", CKL_ROW, NULL},
    {"   * id: x \r", CKL_ROW, "* id: x"},
    {"\t+ id: x", CKL_ROW, "+ id: x"},
    {"-id: x", CKL_ROW, "-id: x"},
    {"-head: " HA, CKL_ROW, NULL},
    /* A11: every row-shaped line is a row, whatever its marker */
    {"id: x", CKL_ROW, "id: x"},
    {"> - id: x", CKL_ROW, "> - id: x"},
    {"1. id: x, status: outstanding", CKL_ROW, NULL},
    {"\xe2\x80\x93 id: x", CKL_ROW, NULL},
    {"\xe2\x80\xa2 id: x", CKL_ROW, NULL},
    {"\xe2\x80\xa2 anything", CKL_ROW, NULL},
    {"\xc2\xa0- id: x", CKL_ROW, NULL},
    {"x - id: x", CKL_ROW, NULL},
    {"| PRRT_1 | fixed |", CKL_ROW, NULL},
    {"<li>PRRT_1 fixed", CKL_ROW, NULL},
    {"<LI>", CKL_ROW, NULL},
    {"2) x", CKL_ROW, NULL},
    {"Status : outstanding", CKL_ROW, NULL},
    {"**id**: x", CKL_ROW, NULL},
    {"id&#58; x", CKL_ROW, NULL},
    {"i<!-- -->d: x", CKL_ROW, NULL},
    {"[status](https://x): outstanding", CKL_ROW, NULL},
    {"st\xe2\x80\x8b" "atus: outstanding", CKL_ROW, NULL},
    {"\xef\xbd\x89\xef\xbd\x84\xef\xbc\x9a x", CKL_ROW, NULL},
    {"valid: yes", CKL_ROW, NULL},
    /* not rows: the keys, the list header, markup, a field after reason: */
    {"reason: id: x", CKL_NONE, NULL},
    {"Reason : status: x", CKL_NONE, NULL},
    {"the id is x", CKL_NONE, NULL},
    {"threads:", CKL_NONE, NULL},
    {"threads :  ", CKL_NONE, NULL},
    {"<details>", CKL_NONE, NULL},
    {"</details>", CKL_NONE, NULL},
    {"<summary>Machine ledger (conductor state)</summary>", CKL_NONE, NULL},
    /* N67: a summary that shows a row's fields is a row (adv4 352, 358),
     * an invalid one: a legend too, never silently skipped. */
    {"<summary>Legend: id: thread, status: what</summary>", CKL_ROW, NULL},
    {"<summary>id: PRRT_kwDOAbc2, status: outstanding, severity: high, "
     "reason: x</summary>", CKL_ROW, NULL},
    {"<details><summary>Blocking: id: PRRT_2, status: outstanding, "
     "reason: x</summary>", CKL_ROW, NULL},
    {"<summary>The reason: id: is fine</summary>", CKL_NONE, NULL},
    /* N67: HTML table rows and cells are rows (adv4 357). */
    {"<tr><td>PRRT_kwDOAbc2</td><td>outstanding</td></tr>", CKL_ROW, NULL},
    {"<td>PRRT_kwDOAbc2</td>", CKL_ROW, NULL},
    {"<TH>id</TH>", CKL_ROW, NULL},
    {"<tr>", CKL_ROW, NULL},
    {"<table>", CKL_NONE, NULL},
    {"<track src=x>", CKL_NONE, NULL},
    {"<DETAILS open>", CKL_NONE, NULL},
    {"<detailsx id: x", CKL_ROW, NULL},
    {"<!-- agentic:check v1 -->", CKL_NONE, NULL},
    {"1.5 seconds", CKL_ROW, NULL},
    {"x > y", CKL_NONE, NULL},
    {"", CKL_NONE, NULL},
};

static void test_marker__check_line_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(check_line_rows); i++) {
		const struct check_line_row *r = &check_line_rows[i];
		struct mview value;
		enum check_line_kind k =
		    marker_check_line(mvs(r->line), &value);

		EXPECT_INT(i, r->line, k, r->kind);
		if (k == r->kind && r->value)
			EXPECT_VIEW(i, r->line, value, r->value);
	}
	assert_int_equal(bad, 0);
}

/* --- marker_parse_row --- */

struct row_row {
	const char *line;
	enum row_error error;
	const char *id; /* NULL: not checked */
	enum row_status status;
	enum row_severity severity;
	const char *reason; /* checked when error is ROW_OK / BLOCKING_NIT */
};

#define R_FIX ROW_FIXED
#define R_OBS ROW_OBSOLETE
#define R_RV  ROW_REBUTTED_VALID
#define R_OUT ROW_OUTSTANDING
#define R_RI  ROW_REBUTTED_INVALID

static const struct row_row row_rows[] = {
    /* full shape, every status and severity */
    {"- id: PRRT_1, status: fixed, severity: high, reason: done", ROW_OK,
     "PRRT_1", R_FIX, SEV_HIGH, "done"},
    {"- id: a, status: obsolete, severity: critical, reason: gone", ROW_OK, "a",
     R_OBS, SEV_CRITICAL, "gone"},
    {"- id: a, status: rebutted-valid, severity: should-fix, reason: ok",
     ROW_OK, "a", R_RV, SEV_SHOULD_FIX, "ok"},
    {"- id: a, status: outstanding, severity: high, reason: still there",
     ROW_OK, "a", R_OUT, SEV_HIGH, "still there"},
    {"- id: a, status: rebutted-invalid, severity: critical, reason: no",
     ROW_OK, "a", R_RI, SEV_CRITICAL, "no"},
    {"- id: a, status: fixed, severity: nit, reason: tidy", ROW_OK, "a", R_FIX,
     SEV_NIT, "tidy"},
    {"- id: a, status: obsolete, severity: nit, reason: moot", ROW_OK, "a",
     R_OBS, SEV_NIT, "moot"},
    {"- id: a, status: rebutted-valid, severity: nit, reason: fine", ROW_OK,
     "a", R_RV, SEV_NIT, "fine"},
    /* keys and values case-insensitive */
    {"- ID: a, STATUS: Outstanding, SEVERITY: Critical, REASON: X", ROW_OK, "a",
     R_OUT, SEV_CRITICAL, "X"},
    {"- Id: a, Status: REBUTTED-INVALID, Severity: SHOULD-FIX, Reason: y",
     ROW_OK, "a", R_RI, SEV_SHOULD_FIX, "y"},
    /* whitespace: optional, allowed after commas and around colons */
    {"-id:a,status:fixed,severity:nit,reason:r", ROW_OK, "a", R_FIX, SEV_NIT,
     "r"},
    {"  -   id  :  a,   status  :  fixed,\tseverity\t:\tnit,  reason  :  r  ",
     ROW_OK, "a", R_FIX, SEV_NIT, "r"},
    {"- id: a, status: fixed, severity: nit, reason: r\r", ROW_OK, "a", R_FIX,
     SEV_NIT, "r"},
    {"\t- id: a,\tstatus: fixed,\tseverity: nit,\treason: r", ROW_OK, "a",
     R_FIX, SEV_NIT, "r"},
    /* ids: anything without ws, comma or control characters */
    {"- id: PRRT_kwDOAbc1-_x.y/z, status: fixed, severity: nit, reason: r",
     ROW_OK, "PRRT_kwDOAbc1-_x.y/z", R_FIX, SEV_NIT, "r"},
    {"- id: \xc3\xa9t\xc3\xa9, status: fixed, severity: nit, reason: r", ROW_OK,
     "\xc3\xa9t\xc3\xa9", R_FIX, SEV_NIT, "r"},
    {"- id: , status: fixed, severity: nit, reason: r", ROW_BAD_ID, NULL, 0, 0,
     NULL},
    {"- id:, status: fixed, severity: nit, reason: r", ROW_BAD_ID, NULL, 0, 0,
     NULL},
    {"- id: a b, status: fixed, severity: nit, reason: r", ROW_BAD_ID, NULL, 0,
     0, NULL},
    {"- id: a\x01"
     "b, status: fixed, severity: nit, reason: r",
     ROW_BAD_ID, NULL, 0, 0, NULL},
    {"- id: a\x7f"
     "b, status: fixed, severity: nit, reason: r",
     ROW_BAD_ID, NULL, 0, 0, NULL},
    {"- id:", ROW_BAD_ID, NULL, 0, 0, NULL},
    {"- id:   ", ROW_BAD_ID, NULL, 0, 0, NULL},
    /* the fields in order, each introduced by ", key:" */
    {"- id: a", ROW_NO_STATUS, "a", 0, 0, NULL},
    {"- id: a,", ROW_NO_STATUS, "a", 0, 0, NULL},
    {"- id: a, severity: nit, status: fixed, reason: r", ROW_NO_STATUS, "a", 0,
     0, NULL},
    {"- id: a, stat: fixed, severity: nit, reason: r", ROW_NO_STATUS, "a", 0, 0,
     NULL},
    {"- id: a,, status: fixed, severity: nit, reason: r", ROW_NO_STATUS, "a", 0,
     0, NULL},
    {"- id: a, status fixed, severity: nit, reason: r", ROW_NO_STATUS, "a", 0,
     0, NULL},
    {"- id: a, status: done, severity: nit, reason: r", ROW_BAD_STATUS, "a", 0,
     0, NULL},
    {"- id: a, status: , severity: nit, reason: r", ROW_BAD_STATUS, "a", 0, 0,
     NULL},
    {"- id: a, status: fixed;, severity: nit, reason: r", ROW_BAD_STATUS, "a",
     0, 0, NULL},
    {"- id: a, status: rebutted, severity: nit, reason: r", ROW_BAD_STATUS, "a",
     0, 0, NULL},
    {"- id: a, status: fixed fully, severity: nit, reason: r", ROW_BAD_STATUS,
     "a", 0, 0, NULL},
    {"- id: a, status: fixed", ROW_NO_SEVERITY, "a", 0, 0, NULL},
    {"- id: a, status: fixed, reason: r", ROW_NO_SEVERITY, "a", 0, 0, NULL},
    {"- id: a, status: fixed, sev: nit, reason: r", ROW_NO_SEVERITY, "a", 0, 0,
     NULL},
    {"- id: a, status: fixed, severity: low, reason: r", ROW_BAD_SEVERITY, "a",
     0, 0, NULL},
    {"- id: a, status: fixed, severity: should fix, reason: r",
     ROW_BAD_SEVERITY, "a", 0, 0, NULL},
    {"- id: a, status: fixed, severity: medium, reason: r", ROW_BAD_SEVERITY,
     "a", 0, 0, NULL},
    {"- id: a, status: fixed, severity: nit", ROW_NO_REASON, "a", 0, 0, NULL},
    {"- id: a, status: fixed, severity: nit, why: r", ROW_NO_REASON, "a", 0, 0,
     NULL},
    {"- id: a, status: fixed, severity: nit, reason:", ROW_EMPTY_REASON, "a", 0,
     0, NULL},
    {"- id: a, status: fixed, severity: nit, reason:   \t\r", ROW_EMPTY_REASON,
     "a", 0, 0, NULL},
    /* never whitespace before a comma */
    {"- id: a , status: fixed, severity: nit, reason: r",
     ROW_SPACE_BEFORE_COMMA, NULL, 0, 0, NULL},
    {"- id: a\t, status: fixed, severity: nit, reason: r",
     ROW_SPACE_BEFORE_COMMA, NULL, 0, 0, NULL},
    {"- id: a, status: fixed , severity: nit, reason: r",
     ROW_SPACE_BEFORE_COMMA, "a", 0, 0, NULL},
    {"- id: a, status: fixed, severity: nit  , reason: r",
     ROW_SPACE_BEFORE_COMMA, "a", 0, 0, NULL},
    /* A4: every bullet line of the block is a row, so a near-miss is an
     * invalid row with its error, never skipped */
    {"* id: a, status: outstanding, severity: high, reason: r",
     ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"+ id: a, status: outstanding, severity: high, reason: r",
     ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"  * id: a, status: fixed, severity: nit, reason: r", ROW_BAD_BULLET,
     NULL, 0, 0, NULL},
    {"\t+ id: a", ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"*", ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"***", ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"**Summary**", ROW_BAD_BULLET, NULL, 0, 0, NULL},
    {"- thread: PRRT_1, status: outstanding, severity: high, reason: r",
     ROW_NO_ID, NULL, 0, 0, NULL},
    {"-- id: a, status: fixed, severity: nit, reason: r", ROW_NO_ID, NULL, 0,
     0, NULL},
    {"- - id: a, status: fixed, severity: nit, reason: r", ROW_NO_ID, NULL, 0,
     0, NULL},
    {"---", ROW_NO_ID, NULL, 0, 0, NULL},
    {"-", ROW_NO_ID, NULL, 0, 0, NULL},
    {"-   \r", ROW_NO_ID, NULL, 0, 0, NULL},
    {"- fixed the typo in the README", ROW_NO_ID, NULL, 0, 0, NULL},
    {"- idx: a, status: fixed, severity: nit, reason: r", ROW_NO_ID, NULL, 0,
     0, NULL},
    {"- status: outstanding, severity: high, reason: r", ROW_NO_ID, NULL, 0,
     0, NULL},
    {"- ID a, status: fixed, severity: nit, reason: r", ROW_NO_ID, NULL, 0, 0,
     NULL},
    /* A4: "-id:" (no space after the dash) and indented rows are rows */
    {"-id: a, status: fixed, severity: high, reason: r", ROW_OK, "a", R_FIX,
     SEV_HIGH, "r"},
    {"    - id: a, status: outstanding, severity: high, reason: r", ROW_OK,
     "a", R_OUT, SEV_HIGH, "r"},
    /* A4: a row with a missing field is invalid, naming the field */
    {"- id: a, severity: high, reason: r", ROW_NO_STATUS, "a", 0, 0, NULL},
    {"- id: a, status: outstanding, reason: r", ROW_NO_SEVERITY, "a", 0, 0,
     NULL},
    {"- id: a, status: outstanding, severity: high", ROW_NO_REASON, "a", 0, 0,
     NULL},
    {"- id: a, status: outstanding, severity: high,", ROW_NO_REASON, "a", 0,
     0, NULL},
    /* a nit may not block */
    {"- id: a, status: outstanding, severity: nit, reason: r", ROW_BLOCKING_NIT,
     "a", R_OUT, SEV_NIT, "r"},
    {"- id: a, status: rebutted-invalid, severity: NIT, reason: r",
     ROW_BLOCKING_NIT, "a", R_RI, SEV_NIT, "r"},
    /* the reason is free text, never searched */
    {"- id: a, status: fixed, severity: nit, reason: status: outstanding, "
     "severity: critical",
     ROW_OK, "a", R_FIX, SEV_NIT, "status: outstanding, severity: critical"},
    {"- id: a, status: fixed, severity: high, reason: x, status: "
     "outstanding, severity: nit, reason: y",
     ROW_OK, "a", R_FIX, SEV_HIGH,
     "x, status: outstanding, severity: nit, reason: y"},
    {"- id: a, status: outstanding, severity: high, reason: fixed, "
     "obsolete, clean: true",
     ROW_OK, "a", R_OUT, SEV_HIGH, "fixed, obsolete, clean: true"},
    {"- id: a, status: fixed, severity: nit, reason: - id: b, status: "
     "outstanding",
     ROW_OK, "a", R_FIX, SEV_NIT, "- id: b, status: outstanding"},
    {"- id: a, status: fixed, severity: nit, reason:  a , b ,c  ", ROW_OK, "a",
     R_FIX, SEV_NIT, "a , b ,c"},
};

static void test_marker__row_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(row_rows); i++) {
		const struct row_row *r = &row_rows[i];
		struct marker_row row;

		marker_parse_row(&row, mvs(r->line));
		EXPECT_INT(i, r->line, row.error, r->error);
		if (r->id)
			EXPECT_VIEW(i, r->line, row.id, r->id);
		if (row.error == r->error &&
		    (r->error == ROW_OK || r->error == ROW_BLOCKING_NIT)) {
			EXPECT_INT(i, r->line, row.status, r->status);
			EXPECT_INT(i, r->line, row.severity, r->severity);
			EXPECT_VIEW(i, r->line, row.reason, r->reason);
		}
	}
	assert_int_equal(bad, 0);
}

/* --- needs-human verdicts, whole comments --- */

struct nh_row {
	const char *name;
	const char *body;
	bool present;
	bool any_yes;        /* in the leading run (A2) */
	bool any_no;         /* in the leading run (A2) */
	enum nh_value value; /* checked when present */
	unsigned malformed;  /* checked when present */
	const char *head;    /* "" when malformed */
	const char *base;    /* NULL: not checked */
	size_t nheads;
	bool trigger;        /* the label step's eager trigger (§3.1) */
	size_t stray;        /* first marker line the verdict does not read */
};

/* NHM_NO_VALUE | NHM_NO_HEAD | NHM_NO_BASE: a header whose run ended at
 * once (A2). */
#define NHM_EMPTY_RUN (NHM_NO_VALUE | NHM_NO_HEAD | NHM_NO_BASE)

static const struct nh_row nh_rows[] = {
    {"well-formed yes", NHV YES HEAD(HA) BASE("main"), true, true, false,
     NH_YES, 0, HA, "main", 1, true, 0},
    {"well-formed no", NHV NO HEAD(HA) BASE("main"), true, false, true, NH_NO,
     0, HA, "main", 1, false, 0},
    /* A2: was "markers in any order, amid prose" (a verdict before A2) */
    {"A2: markers amid prose, header not first: no verdict",
     "### No human needed\n\n" BASE("main") "Checked it.\n" HEAD(HA) NO
     "\n" NHV "Thanks.",
     false, false, false, 0, 0, "", "", 0, false, 3},
    {"CRLF line endings",
     "<!-- agentic:needs-human v1 -->\r\n<!-- needs-human: no -->\r\n"
     "<!-- head: " HA " -->\r\n<!-- base: main -->\r\nprose\r\n",
     true, false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"no final newline", NHV NO HEAD(HA) "<!-- base: main -->", true, false,
     true, NH_NO, 0, HA, "main", 1, false, 0},
    {"indented markers (up to 3 columns)",
     "  <!-- agentic:needs-human v1 -->\n   <!-- needs-human: no -->\t\n"
     " <!-- head: " HA " -->\n   <!-- base: main -->   \n",
     true, false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"case-insensitive keywords and value",
     "<!-- AGENTIC:NEEDS-HUMAN V1 -->\n<!-- NEEDS-HUMAN: NO -->\n"
     "<!-- HEAD: " HA " -->\n<!-- BASE: main -->\n",
     true, false, true, NH_NO, 0, HA, "main", 1, false, 0},
    /* A2: without the header nothing is read (any_yes, heads: none) */
    /* N67: marker lines without the header, or under a header that is a
     * near-miss, are a malformed verdict (was: no verdict, so an older
     * no counted). */
    {"no verdict line: yes alone is a malformed verdict",
     YES HEAD(HA) BASE("m"), true, true, false, NH_MALFORMED, NHM_BAD_HEADER,
     "", "m", 1, false, 0},
    {"v2 verdict line is a near-miss of v1",
     "<!-- agentic:needs-human v2 -->\n" NO HEAD(HA) BASE("main"), true, false,
     true, NH_MALFORMED, NHM_BAD_HEADER, "", "main", 1, false, 0},
    {"verdict line without ws before v1",
     "<!-- agentic:needs-humanv1 -->\n" NO HEAD(HA) BASE("main"), true, false,
     true, NH_MALFORMED, NHM_BAD_HEADER, "", "main", 1, false, 0},
    {"verdict line with trailing text",
     "<!-- agentic:needs-human v1 --> ok\n" NO HEAD(HA) BASE("main"), false,
     false, false, 0, 0, "", "", 0, false, 2},
    {"verdict line in a code span",
     "`<!-- agentic:needs-human v1 -->`\n" NO HEAD(HA) BASE("main"), false,
     false, false, 0, 0, "", "", 0, false, 2},
    {"verdict line in a block quote",
     "> <!-- agentic:needs-human v1 -->\n" NO HEAD(HA) BASE("main"), false,
     false, false, 0, 0, "", "", 0, false, 2},
    {"homoglyph verdict line",
     "<!-- agentic:needs-hum\xd0\xb0n v1 -->\n" NO HEAD(HA) BASE("main"), false,
     false, false, 0, 0, "", "", 0, false, 2},
    {"both yes and no", NHV YES NO HEAD(HA) BASE("main"), true, true, true,
     NH_MALFORMED, NHM_BOTH_VALUES, "", "main", 1, true, 0},
    {"yes twice is still yes", NHV YES YES HEAD(HA) BASE("main"), true, true,
     false, NH_YES, 0, HA, "main", 1, true, 0},
    {"neither yes nor no", NHV HEAD(HA) BASE("main"), true, false, false,
     NH_MALFORMED, NHM_NO_VALUE, "", "main", 1, false, 0},
    /* NHM_BAD_VALUE (baf93a4): a value line of the run that is neither
     * yes nor no is never ignored */
    {"other value only",
     NHV "<!-- needs-human: maybe -->\n" HEAD(HA) BASE("main"), true, false,
     false, NH_MALFORMED, NHM_NO_VALUE | NHM_BAD_VALUE, "", "main", 1, false,
     0},
    /* A2: a line that is not one whole HTML comment ends the run, so the
     * markers after it are not read either (was: a well-formed no) */
    {"A2: yes in a code span ends the run",
     NHV "`<!-- needs-human: yes -->`\n" NO HEAD(HA) BASE("main"), true, false,
     false, NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 3},
    {"A2: yes in a block quote ends the run",
     NHV "> <!-- needs-human: yes -->\n" NO HEAD(HA) BASE("main"), true, false,
     false, NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 3},
    {"yes in a code span after the run does not count",
     NHV NO HEAD(HA) BASE("main") "`<!-- needs-human: yes -->`\n", true,
     false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"yes in a block quote after the run does not count",
     NHV NO HEAD(HA) BASE("main") "> <!-- needs-human: yes -->\n", true,
     false, true, NH_NO, 0, HA, "main", 1, false, 0},
    /* NHM_BAD_VALUE: a homoglyph yes is a value line saying neither (was:
     * ignored, the no stood) */
    {"homoglyph yes is a bad value",
     NHV "<!-- needs-human: y\xd0\xb5s -->\n" NO HEAD(HA) BASE("main"), true,
     false, true, NH_MALFORMED, NHM_BAD_VALUE, "", "main", 1, false, 0},
    /* N67: a near-miss yes beside a no is malformed (was: a plain no). */
    {"full-width colon yes is a near-miss",
     NHV "<!-- needs-human\xef\xbc\x9a yes -->\n" NO HEAD(HA) BASE("main"),
     true, false, true, NH_MALFORMED, NHM_NEAR_MISS, "", "main", 1, false, 0},
    {"zero-width space in yes line is a near-miss",
     NHV "<!-- needs\xe2\x80\x8b-human: yes -->\n" NO HEAD(HA) BASE("main"),
     true, false, true, NH_MALFORMED, NHM_NEAR_MISS, "", "main", 1, false, 0},
    {"needs-human yes without its colon is a near-miss (adv4 366)",
     NHV NO HEAD(HA) BASE("main") "<!-- needs-human yes -->\n", true, false,
     true, NH_MALFORMED, NHM_NEAR_MISS, "", "main", 1, false, 0},
    {"a three-dash opener is a near-miss (adv4 367)",
     NHV NO HEAD(HA) BASE("main") "<!--- needs-human: yes -->\n", true, false,
     true, NH_MALFORMED, NHM_NEAR_MISS, "", "main", 1, false, 0},
    {"a head line without its colon is a near-miss",
     NHV NO HEAD(HA) "<!-- head " HB " -->\n" BASE("main"), true, false,
     true, NH_MALFORMED, NHM_NEAR_MISS, "", "main", 1, false, 0},
    {"a no-break space in the header: malformed, a yes still triggers (adv4 363)",
     "<!-- agentic:needs-human\xc2\xa0v1 -->\n" YES HEAD(HA) BASE("main"),
     true, true, false, NH_MALFORMED, NHM_BAD_HEADER, "", "main", 1, true, 0},
    {"a headline comment is no key line",
     NHV NO HEAD(HA) BASE("main") "<!-- headline: x -->\n", true, false,
     true, NH_NO, 0, HA, "main", 1, false, 0},
    {"homoglyph no does not count",
     NHV "<!-- needs-human: n\xd0\xbe -->\n" HEAD(HA) BASE("main"), true, false,
     false, NH_MALFORMED, NHM_NO_VALUE | NHM_BAD_VALUE, "", "main", 1, false,
     0},
    {"A2: yes inside a prose line ends the run",
     NHV "see <!-- needs-human: yes --> here\n" NO HEAD(HA) BASE("main"), true,
     false, false, NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 3},
    {"missing head", NHV NO BASE("main"), true, false, true, NH_MALFORMED,
     NHM_NO_HEAD, "", "main", 0, false, 0},
    {"abbreviated head", NHV NO HEAD(HA_SHORT) BASE("main"), true, false, true,
     NH_MALFORMED, NHM_BAD_HEAD, "", "main", 0, false, 0},
    {"empty head", NHV NO "<!-- head: -->\n" BASE("main"), true, false, true,
     NH_MALFORMED, NHM_BAD_HEAD, "", "main", 0, false, 0},
    {"41 hex digits", NHV NO HEAD(HA "a") BASE("main"), true, false, true,
     NH_MALFORMED, NHM_BAD_HEAD, "", "main", 0, false, 0},
    {"head with trailing word", NHV NO HEAD(HA " (judged)") BASE("main"), true,
     false, true, NH_MALFORMED, NHM_BAD_HEAD, "", "main", 0, false, 0},
    {"valid and abbreviated head", NHV NO HEAD(HA) HEAD(HA_SHORT) BASE("main"),
     true, false, true, NH_MALFORMED, NHM_BAD_HEAD, "", "main", 1, false, 0},
    {"upper-case head accepted and lower-cased",
     NHV NO HEAD(HB_UP) BASE("main"), true, false, true, NH_NO, 0, HB, "main",
     1, false, 0},
    {"same SHA twice counts as one", NHV NO HEAD(HB) HEAD(HB_UP) BASE("main"),
     true, false, true, NH_NO, 0, HB, "main", 1, false, 0},
    {"two different heads", NHV NO HEAD(HA) HEAD(HB) BASE("main"), true, false,
     true, NH_MALFORMED, NHM_HEAD_CONFLICT, "", "main", 2, false, 0},
    {"missing base", NHV NO HEAD(HA), true, false, true, NH_MALFORMED,
     NHM_NO_BASE, "", NULL, 1, false, 0},
    {"empty base", NHV NO HEAD(HA) "<!-- base: -->\n", true, false, true,
     NH_MALFORMED, NHM_NO_BASE, "", NULL, 1, false, 0},
    {"empty base next to a valid one",
     NHV NO HEAD(HA) BASE("main") "<!-- base:   -->\n", true, false, true,
     NH_MALFORMED, NHM_NO_BASE, "", NULL, 1, false, 0},
    {"two identical bases", NHV NO HEAD(HA) BASE("main") BASE(" main "), true,
     false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"two different bases", NHV NO HEAD(HA) BASE("main") BASE("dev"), true,
     false, true, NH_MALFORMED, NHM_BASE_CONFLICT, "", NULL, 1, false, 0},
    {"bases differing in case are different",
     NHV NO HEAD(HA) BASE("main") BASE("Main"), true, false, true, NH_MALFORMED,
     NHM_BASE_CONFLICT, "", NULL, 1, false, 0},
    {"base taken verbatim, trimmed",
     NHV NO HEAD(HA) "<!-- base: \t Release/v1 x \t -->\n", true, false, true,
     NH_NO, 0, HA, "Release/v1 x", 1, false, 0},
    {"everything wrong", NHV YES NO HEAD(HA) HEAD(HB) BASE("a") BASE("b"), true,
     true, true, NH_MALFORMED,
     NHM_BOTH_VALUES | NHM_HEAD_CONFLICT | NHM_BASE_CONFLICT, "", NULL, 2, true,
     0},
    {"empty comment", "", false, false, false, 0, 0, "", NULL, 0, false, 0},

    /* A2: the header is the first non-blank line; the leading marker run */
    {"A2: blank lines before the header are fine",
     "\n  \n\t\n" NHV NO HEAD(HA) BASE("main"), true, false, true, NH_NO, 0, HA,
     "main", 1, false, 0},
    {"A2: CRLF blank lines before the header are fine",
     "\r\n \r\n" NHV NO HEAD(HA) BASE("main"), true, false, true, NH_NO, 0, HA,
     "main", 1, false, 0},
    {"A2: blank lines inside the run are allowed",
     NHV "\n" NO "\n \n" HEAD(HA) "\t\r\n" BASE("main") "\nprose\n", true,
     false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"A2: other HTML comments belong to the run",
     NHV "<!-- written by the conductor -->\n" NO HEAD(HA)
         "<!-- agentic:note v0 -->\n" BASE("main"),
     true, false, true, NH_NO, 0, HA, "main", 1, false, 0},
    {"A2: the header repeated in the run is harmless",
     NHV NHV NO HEAD(HA) BASE("main"), true, false, true, NH_NO, 0, HA, "main",
     1, false, 0},
    {"A2: a prose line ends the run: the base after it is not read",
     NHV NO HEAD(HA) "Thanks.\n" BASE("main"), true, false, true, NH_MALFORMED,
     NHM_NO_BASE, "", "", 1, false, 5},
    {"A2: a prose line ends the run: the value after it is not read",
     NHV HEAD(HA) BASE("main") "\nSee below.\n" NO, true, false, false,
     NH_MALFORMED, NHM_NO_VALUE, "", "main", 1, false, 6},
    {"A2: a yes after the run does not change the no (but triggers)",
     NHV NO HEAD(HA) BASE("main") "Quoting the author:\n" YES, true, false,
     true, NH_NO, 0, HA, "main", 1, true, 6},
    {"A2: a second head after the run is not read",
     NHV NO HEAD(HA) BASE("main") "x\n" HEAD(HB), true, false, true, NH_NO, 0,
     HA, "main", 1, false, 6},
    {"A2: a second base after the run is not read",
     NHV NO HEAD(HA) BASE("main") "x\n" BASE("dev"), true, false, true, NH_NO,
     0, HA, "main", 1, false, 6},
    {"A2: the header after a first prose line is no verdict",
     "Hi\n" NHV NO HEAD(HA) BASE("main"), false, false, false, 0, 0, "", "", 0,
     false, 2},
    {"A2: markers inside <details> are not read",
     NHV "<details>\n" NO HEAD(HA) BASE("main") "</details>\n", true, false,
     false, NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 3},
    {"A2: a verdict wrapped in <details> is no verdict",
     "<details>\n" NHV NO HEAD(HA) BASE("main") "</details>\n", false, false,
     false, 0, 0, "", "", 0, false, 2},
    {"A2: a quoted copy of the four markers is not a verdict",
     "> <!-- agentic:needs-human v1 -->\n> <!-- needs-human: no -->\n"
     "> <!-- head: " HA " -->\n> <!-- base: main -->\n",
     false, false, false, 0, 0, "", "", 0, false, 0},
    {"A2: a quoted yes is not a trigger either",
     "> <!-- agentic:needs-human v1 -->\n> <!-- needs-human: yes -->\n", false,
     false, false, 0, 0, "", "", 0, false, 0},
    {"A2/A3: a fenced copy of the four markers is not a verdict",
     "```\n" NHV NO HEAD(HA) BASE("main") "```\n", false, false, false, 0, 0,
     "", "", 0, false, 2},
    {"A3: a fenced header and yes still fire the eager trigger",
     "Quoting:\n~~~\n" NHV YES HEAD(HA) BASE("main") "~~~\n", false, false,
     false, 0, 0, "", "", 0, true, 3},
    {"A3: a fence ends the run; the fenced markers are not read",
     NHV "```\n" NO HEAD(HA) BASE("main") "```\n", true, false, false,
     NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 3},
    {"A3: a fenced yes after a no verdict: no stays, trigger fires",
     NHV NO HEAD(HA) BASE("main") "```\n" NHV YES HEAD(HB) BASE("dev") "```\n",
     true, false, true, NH_NO, 0, HA, "main", 1, true, 6},
    {"A2: the eager trigger sees a header and a yes in prose",
     "Summary\n" NHV "text\n" YES, false, false, false, 0, 0, "", "", 0, true,
     2},
    {"A2: the trigger needs the header somewhere", "Summary\n" YES HEAD(HA),
     false, false, false, 0, 0, "", "", 0, false, 2},
    {"A2: a yes before the header (not first) triggers, no verdict",
     "x\n" YES NHV, false, false, false, 0, 0, "", "", 0, true, 2},
    {"A2: a malformed verdict with a yes outside the run triggers",
     NHV HEAD(HA) "x\n" YES, true, false, false, NH_MALFORMED,
     NHM_NO_VALUE | NHM_NO_BASE, "", "", 1, true, 4},
    {"A2: a header alone is an empty run", NHV, true, false, false,
     NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 0},
    {"A2: header then prose", NHV "### Verdict\n", true, false, false,
     NH_MALFORMED, NHM_EMPTY_RUN, "", "", 0, false, 0},
    /* NHM_BAD_VALUE (baf93a4) */
    {"bad value next to a yes", NHV YES "<!-- needs-human: maybe -->\n"
     HEAD(HA) BASE("main"), true, true, false, NH_MALFORMED, NHM_BAD_VALUE,
     "", "main", 1, true, 0},
    {"bad value next to a no", NHV "<!-- needs-human: No. -->\n" NO HEAD(HA)
     BASE("main"), true, false, true, NH_MALFORMED, NHM_BAD_VALUE, "", "main",
     1, false, 0},
    {"empty value", NHV "<!-- needs-human: -->\n" NO HEAD(HA) BASE("main"),
     true, false, true, NH_MALFORMED, NHM_BAD_VALUE, "", "main", 1, false, 0},
    {"bad value after the run is not read",
     NHV NO HEAD(HA) BASE("main") "x\n<!-- needs-human: maybe -->\n", true,
     false, true, NH_NO, 0, HA, "main", 1, false, 6},
};

static void test_marker__nh_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(nh_rows); i++) {
		const struct nh_row *r = &nh_rows[i];
		struct marker_result m;

		parse_str(&m, r->body);
		EXPECT_INT(i, r->name, m.nh.present, r->present);
		EXPECT_INT(i, r->name, m.nh.any_yes, r->any_yes);
		EXPECT_INT(i, r->name, m.nh.any_no, r->any_no);
		EXPECT_INT(i, r->name, m.nh.nheads, r->nheads);
		if (r->present) {
			EXPECT_INT(i, r->name, m.nh.value, r->value);
			EXPECT_INT(i, r->name, m.nh.malformed, r->malformed);
			EXPECT_STR(i, r->name, m.nh.head, r->head);
		}
		if (r->base)
			EXPECT_VIEW(i, r->name, m.nh.base, r->base);
		EXPECT_INT(i, r->name, m.nh.trigger, r->trigger);
		EXPECT_INT(i, r->name, m.nh.stray_line, r->stray);
		/* the comment has no check block */
		EXPECT_INT(i, r->name, m.check.present, false);
	}
	assert_int_equal(bad, 0);
}

/* --- N68: the check marker in another form --- */

static const struct {
	const char *body;
	size_t near, second;
} near_rows[] = {
    {"<!-- agentic: check v1 -->\nhead: " HA "\n", 1, 0},
    {"<!--agentic:check v1-->\n", 1, 0},
    {"<!-- Agentic:Check V1 -->\n", 1, 0},
    {"<!-- agentic:check  v1 -->\n", 1, 0},
    {"<!-- agentic:checkv1 -->\n", 1, 0},
    {"<!-- agentic_check v2 -->\n", 1, 0},
    {"prose\n<!-- agentic: check v1 -->\n<!-- agentic:check v1 -->\n", 2, 3},
    {"<!-- agentic:check v1 -->\nhead: x\n<!-- agentic:check v2 -->\n", 0, 3},
    {"<!-- agentic:check v1 -->\n", 0, 0},
    {"```\n<!-- agentic: check v1 -->\n```\n", 0, 0},
    {"<!-- agentic --> check\n", 0, 0},
    {"agentic:check v1\n", 0, 0},
};

static void test_marker__check_near(void **state)
{
	struct marker_result m;
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(near_rows); i++) {
		marker_parse(&m, near_rows[i].body, strlen(near_rows[i].body));
		EXPECT_INT(i, near_rows[i].body, m.check.near_line,
			   near_rows[i].near);
		EXPECT_INT(i, near_rows[i].body, m.check.second_line,
			   near_rows[i].second);
	}
	assert_int_equal(bad, 0);
}

/* --- check blocks, whole comments --- */

struct ck_row {
	const char *name;
	const char *body;
	bool present;
	size_t block_line;
	bool has_head;
	const char *head;
	bool has_round;
	bool round_valid;
	int64_t round;
	bool has_clean;
	bool clean;
	size_t rows, invalid, blocking;
	/* A3 (line numbers, 0 when none): a second opener, a head, round or
	 * clean line disagreeing with the first, the first fenced opener */
	size_t second, head_conflict, round_conflict, clean_conflict, fenced;
};

#define CK_HEAD  "head: " HA "\n"
#define CK_ROUND "round: 901\n"

static const struct ck_row ck_rows[] = {
    {"full verdict",
     "### Agentic review check\n\n<details>\n<summary>Machine ledger"
     "</summary>\n\n" OPEN CK_HEAD CK_ROUND "clean: true\nthreads:\n" ROW_OK_A
     "\n</details>",
     true, 6, true, HA, true, true, 901, true, true, 1, 0, 0, 0, 0, 0, 0, 0},
    {"no block", CK_HEAD CK_ROUND "clean: true\n" ROW_OK_A, false, 0, false, "",
     false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"nothing before the block counts",
     "head: " HB "\nround: 5\nclean: true\n" ROW_OK_A OPEN "prose\n", true, 5,
     false, "", false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"head in the summary is ignored",
     "head: " HB "\n" OPEN CK_HEAD CK_ROUND "clean: false\n", true, 2, true, HA,
     true, true, 901, true, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"clean: true in the summary is ignored",
     "clean: true\n" OPEN CK_HEAD CK_ROUND, true, 2, true, HA, true, true, 901,
     false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"block opener inside a line",
     "text "
     "<!-- agentic:check v1 -->"
     " more\n" CK_HEAD CK_ROUND "clean: true\n",
     true, 1, true, HA, true, true, 901, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"block opener in a block quote still opens (line contains it)",
     "> <!-- agentic:check v1 -->\n" CK_HEAD CK_ROUND, true, 1, true, HA, true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    /* N68: an opener in another form opens a block that apply refuses
     * (near_line, test_marker__check_near), never a skipped comment. */
    {"opener with other spacing opens a block to refuse",
     "<!--agentic:check v1-->\n" CK_HEAD CK_ROUND, true, 1, true, HA, true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"v2 opener opens a block to refuse",
     "<!-- agentic:check v2 -->\n" CK_HEAD CK_ROUND, true, 1, true, HA, true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"opener in a code span opens (contains it)",
     "`<!-- agentic:check v1 -->`\n" CK_HEAD, true, 1, true, HA, false, false,
     0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    /* A3: the first of two openers starts the block, the second makes
     * it ambiguous (R1); was checked for the block line only */
    {"A3: a second opener is ambiguous",
     "a\n" OPEN CK_HEAD "b\n" OPEN "head: " HB "\n" CK_ROUND, true, 2, true, HA,
     true, true, 901, false, false, 0, 0, 0, 5, 6, 0, 0, 0},
    /* A3: was "first head line wins"; the first still wins, and the
     * second is a conflict (R1) */
    {"A3: two different heads conflict", OPEN CK_HEAD "head: " HB "\n" CK_ROUND,
     true, 1, true, HA, true, true, 901, false, false, 0, 0, 0, 0, 3, 0, 0, 0},
    {"head with (judged) is not a head line",
     OPEN "head: " HA " (judged)\nhead: " HB "\n" CK_ROUND, true, 1, true, HB,
     true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"abbreviated head is not a head line",
     OPEN "head: " HA_SHORT "\n" CK_ROUND, true, 1, false, "", true, true, 901,
     false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"upper-case head lower-cased", OPEN "HEAD: " HB_UP "\n", true, 1, true, HB,
     false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"needs-human style head marker is not a check head",
     OPEN "<!-- head: " HA " -->\n", true, 1, false, "", false, false, 0, false,
     false, 0, 0, 0, 0, 0, 0, 0, 0},
    /* A3: was "first round line wins"; now a conflict (R3) */
    {"A3: two different rounds conflict", OPEN CK_HEAD "round: 12\nround: 13\n",
     true, 1, true, HA, true, true, 12, false, false, 0, 0, 0, 0, 0, 4, 0, 0},
    {"round of another form is skipped",
     OPEN CK_HEAD "round: abc\nround: 5 (new)\nround: 77\n", true, 1, true, HA,
     true, true, 77, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"round with leading zeros", OPEN "round: 0042\n", true, 1, false, "", true,
     true, 42, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"round of 20 digits overflows",
     OPEN CK_HEAD "round: 99999999999999999999\n", true, 1, true, HA, true,
     false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"round 2^63 overflows", OPEN "round: 9223372036854775808\n", true, 1,
     false, "", true, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"overflowing round is still the first of its form (A3: and differs)",
     OPEN "round: 99999999999999999999\nround: 5\n", true, 1, false, "", true,
     false, 0, false, false, 0, 0, 0, 0, 0, 3, 0, 0},
    {"largest round", OPEN "round: 9223372036854775807\n", true, 1, false, "",
     true, true, INT64_MAX, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"missing round", OPEN CK_HEAD "clean: true\n", true, 1, true, HA, false,
     false, 0, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"clean case-insensitive TRUE", OPEN "CLEAN: TRUE\n", true, 1, false, "",
     false, false, 0, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"clean False", OPEN "Clean: False\n", true, 1, false, "", false, false, 0,
     true, false, 0, 0, 0, 0, 0, 0, 0, 0},
    /* A3: was "first clean line wins" (clean: false); two answers are
     * none: treated as a missing clean: */
    {"A3: two different cleans are no clean",
     OPEN "clean: false\nclean: true\n", true, 1, false, "", false, false, 0,
     false, false, 0, 0, 0, 0, 0, 0, 3, 0},
    {"clean of another form is skipped",
     OPEN "clean: maybe\nclean: yes\nclean: true\n", true, 1, false, "", false,
     false, 0, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"missing clean", OPEN CK_HEAD CK_ROUND ROW_OK_A, true, 1, true, HA, true,
     true, 901, false, false, 1, 0, 0, 0, 0, 0, 0, 0},
    {"rows before the block do not count",
     "- id: x, status: outstanding, severity: high, reason: r\n" OPEN CK_HEAD
         CK_ROUND "clean: true\n",
     true, 2, true, HA, true, true, 901, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"counts of rows, invalid and blocking",
     OPEN CK_HEAD CK_ROUND
     "clean: false\n"
     "- id: a, status: fixed, severity: high, reason: r\n"
     "- id: b, status: outstanding, severity: high, reason: r\n"
     "- id: c, status: rebutted-invalid, severity: critical, reason: r\n"
     "- id: d , status: fixed, severity: high, reason: r\n"
     "- id: e, status: bogus, severity: high, reason: r\n",
     true, 1, true, HA, true, true, 901, true, false, 5, 2, 2, 0, 0, 0, 0, 0},
    {"blocking nit is invalid and blocking",
     OPEN CK_HEAD CK_ROUND
     "clean: true\n"
     "- id: a, status: outstanding, severity: nit, reason: r\n",
     true, 1, true, HA, true, true, 901, true, true, 1, 1, 1, 0, 0, 0, 0, 0},
    {"reason naming a blocking status changes nothing",
     OPEN CK_HEAD CK_ROUND
     "clean: true\n"
     "- id: a, status: fixed, severity: high, reason: status: "
     "outstanding, severity: critical\n",
     true, 1, true, HA, true, true, 901, true, true, 1, 0, 0, 0, 0, 0, 0, 0},
    {"head/round/clean inside a row reason are not markers",
     OPEN "- id: a, status: fixed, severity: high, reason: head: " HA
          "\n- id: b, status: fixed, severity: high, reason: round: 5\n"
          "- id: c, status: fixed, severity: high, reason: clean: true\n",
     true, 1, false, "", false, false, 0, false, false, 3, 0, 0, 0, 0, 0, 0, 0},
    {"details and summary lines ignored",
     "<details>\n<summary>x</summary>\n" OPEN CK_HEAD CK_ROUND
     "clean: true\n</details>\n",
     true, 3, true, HA, true, true, 901, true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"CRLF block",
     "<!-- agentic:check v1 -->\r\nhead: " HA "\r\nround: 901\r\nclean: "
     "true\r\n- id: a, status: fixed, severity: high, reason: r\r\n",
     true, 1, true, HA, true, true, 901, true, true, 1, 0, 0, 0, 0, 0, 0, 0},
    /* A4: was "markdown list of other kinds is not a row" (0 rows): a
     * "*" bullet is an invalid row; an ordered list item is no bullet */
    {"A11: a * bullet and a 1. item are invalid rows",
     OPEN "* id: a, status: outstanding, severity: high, reason: r\n"
          "1. id: b, status: outstanding, severity: high, reason: r\n",
     true, 1, false, "", false, false, 0, false, false, 2, 2, 0, 0, 0, 0, 0, 0},

    /* A4: every bullet line of the block is a row */
    {"A4: bullets of every kind are rows, invalid but one",
     OPEN CK_HEAD CK_ROUND "clean: true\n" ROW_OK_A
     "* id: b, status: fixed, severity: high, reason: r\n"
     "+ id: c, status: fixed, severity: high, reason: r\n"
     "- thread: d, status: fixed, severity: high, reason: r\n"
     "-- id: e, status: fixed, severity: high, reason: r\n"
     "---\n"
     "- looks good to me\n"
     "  - id: f, status: outstanding, severity: high, reason: r\n"
     "-id: g, status: fixed, severity: high, reason: r\n"
     "- id: h, status: fixed, reason: r\n",
     true, 1, true, HA, true, true, 901, true, true, 10, 7, 1, 0, 0, 0, 0, 0},
    {"A4: an invalid * row that says outstanding does not count as blocking",
     OPEN "* id: a, status: outstanding, severity: high, reason: r\n", true, 1,
     false, "", false, false, 0, false, false, 1, 1, 0, 0, 0, 0, 0, 0},
    {"A4: a bold line in the block is an invalid row",
     OPEN CK_HEAD "**Summary**: all fixed\n", true, 1, true, HA, false, false,
     0, false, false, 1, 1, 0, 0, 0, 0, 0, 0},
    {"A4: bullets before the block are not rows",
     "* note\n- id: x\n---\n" OPEN CK_HEAD, true, 4, true, HA, false, false,
     0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},

    /* A3: conflicting keys; the same value repeated is harmless */
    {"A3: the same head twice is harmless", OPEN CK_HEAD CK_HEAD, true, 1,
     true, HA, false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: the same head in another case is the same head",
     OPEN "head: " HB "\nhead: " HB_UP "\n", true, 1, true, HB, false, false,
     0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a head conflict is the first differing line",
     OPEN CK_HEAD CK_HEAD "head: " HB "\nhead: " HA_SHORT "\nhead: " HB_UP
     "\n", true, 1, true, HA, false, false, 0, false, false, 0, 0, 0, 0, 4, 0,
     0, 0},
    {"A3: a head of another form is no conflict",
     OPEN CK_HEAD "head: " HB " (judged)\nhead: " HA_SHORT "\n", true, 1, true,
     HA, false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: the same round twice is harmless", OPEN CK_ROUND CK_ROUND, true, 1,
     false, "", true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: round 0901 is the same value as 901", OPEN CK_ROUND "round: 0901\n",
     true, 1, false, "", true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: the same clean twice is harmless",
     OPEN "clean: true\nCLEAN: TRUE\n", true, 1, false, "", false, false, 0,
     true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: clean true then false is no clean",
     OPEN "clean: true\nclean: false\n", true, 1, false, "", false, false, 0,
     false, false, 0, 0, 0, 0, 0, 0, 3, 0},
    {"A3: a clean conflict sticks (true, false, true)",
     OPEN "clean: true\nclean: false\nclean: true\n", true, 1, false, "",
     false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 3, 0},
    {"A3: a clean of another form is no conflict",
     OPEN "clean: true\nclean: maybe\n", true, 1, false, "", false, false, 0,
     true, true, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: the opener three times: the second is named",
     OPEN CK_HEAD OPEN OPEN, true, 1, true, HA, false, false, 0, false, false,
     0, 0, 0, 3, 0, 0, 0, 0},
    {"A3: an opener in prose after the block is a second opener",
     OPEN CK_HEAD "see <!-- agentic:check v1 --> above\n", true, 1, true, HA,
     false, false, 0, false, false, 0, 0, 0, 3, 0, 0, 0, 0},

    /* A3: fenced code is never read */
    {"A3: a ``` fence hides the only opener: no block",
     "```\n" OPEN CK_HEAD CK_ROUND "```\n", false, 0, false, "", false, false,
     0, false, false, 0, 0, 0, 0, 0, 0, 0, 2},
    {"A3: a ~~~ fence hides the only opener: no block",
     "Example:\n~~~markdown\n" OPEN CK_HEAD "~~~\n", false, 0, false, "",
     false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 3},
    {"A3: an opener on the fence line itself opens no block",
     "``` " "<!-- agentic:check v1 -->" "\n" CK_HEAD "```\n", false, 0, false,
     "", false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 1},
    {"A3: an unclosed fence before the opener swallows it",
     "```\nintro\n" OPEN CK_HEAD CK_ROUND, false, 0, false, "", false, false,
     0, false, false, 0, 0, 0, 0, 0, 0, 0, 3},
    {"A3: a fenced fake ledger before the real one",
     "```\n" OPEN "head: " HB "\nround: 5\nclean: true\n```\n" OPEN CK_HEAD
     CK_ROUND "clean: false\n" ROW_OK_A,
     true, 7, true, HA, true, true, 901, true, false, 1, 0, 0, 0, 0, 0, 0, 2},
    {"A12: fenced rows in the block count, fenced keys conflict",
     OPEN CK_HEAD CK_ROUND "clean: true\n```\nhead: " HB "\nround: 5\n"
     "clean: false\n- id: x, status: outstanding, severity: high, reason: "
     "r\n* bad\n```\n" ROW_OK_A,
     true, 1, true, HA, true, true, 901, false, false, 3, 1, 1, 0, 6, 7, 8, 0},
    {"A12: a second opener inside a fence in the block is ambiguous",
     OPEN CK_HEAD "```\n" OPEN "```\n" CK_ROUND, true, 1, true, HA, true, true,
     901, false, false, 0, 0, 0, 4, 0, 0, 0, 0},
    {"A3: a longer opening fence is not closed by a shorter run",
     OPEN "````\n```\n" CK_HEAD "````\n" CK_ROUND, true, 1, false, "", true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a longer opening fence is closed by a longer run (A12: the "
     "fenced head conflicts)",
     OPEN "````\nhead: " HB "\n`````\n" CK_HEAD, true, 1, true, HA, false,
     false, 0, false, false, 0, 0, 0, 0, 5, 0, 0, 0},
    {"A3: a ``` fence is not closed by ~~~",
     OPEN "```\n~~~\n" CK_HEAD "```\n" CK_ROUND, true, 1, false, "", true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a ~~~ fence is not closed by ```",
     OPEN "~~~\n```\n" CK_HEAD "~~~\n" CK_ROUND, true, 1, false, "", true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a closing run with text after it does not close",
     OPEN "```\n``` x\n" CK_HEAD "```\n" CK_ROUND, true, 1, false, "", true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a closing run with trailing ws and CR closes (A12: the fenced "
     "head conflicts)",
     OPEN "```\nhead: " HB "\n```  \t\r\n" CK_HEAD, true, 1, true, HA, false,
     false, 0, false, false, 0, 0, 0, 0, 5, 0, 0, 0},
    {"A3: up to 3 spaces of indent open and close a fence",
     OPEN "   ```\n" CK_HEAD "   ```\n" CK_ROUND, true, 1, false, "", true,
     true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: four spaces of indent are not a fence",
     OPEN "    ```\n" CK_HEAD CK_ROUND, true, 1, true, HA, true, true, 901,
     false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a tab indent is not a fence", OPEN "\t```\n" CK_HEAD, true, 1, true,
     HA, false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: a closing run indented 4 spaces does not close",
     OPEN "```\n    ```\n" CK_HEAD "   ```\n" CK_ROUND, true, 1, false, "",
     true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3: two backticks are not a fence", OPEN "``\n" CK_HEAD, true, 1, true,
     HA, false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A12: after an unclosed fence keys are not supplied, rows count",
     OPEN CK_HEAD "```\n" CK_ROUND "clean: true\n" ROW_OK_A, true, 1, true, HA,
     false, false, 0, false, false, 1, 0, 0, 0, 0, 0, 0, 0},
    {"A12: fenced conflicting keys are conflicts",
     OPEN CK_HEAD CK_ROUND "clean: true\n~~~\nhead: " HB "\nround: 7\n"
     "clean: false\n~~~\n",
     true, 1, true, HA, true, true, 901, false, false, 0, 0, 0, 0, 6, 7, 8, 0},
    {"A12: ```go`x` is no fence, the row after it counts",
     OPEN CK_HEAD CK_ROUND "clean: true\n```go`memberQuery`\n"
     "- id: x, status: outstanding, severity: high, reason: r\n```\n",
     true, 1, true, HA, true, true, 901, true, true, 1, 0, 1, 0, 0, 0, 0, 0},
    {"A12: <pre> then ``` hides no row",
     OPEN CK_HEAD CK_ROUND "clean: true\n<pre>\n```\n"
     "- id: x, status: outstanding, severity: high, reason: r\n```\n"
     "</pre>\n",
     true, 1, true, HA, true, true, 901, true, true, 1, 0, 1, 0, 0, 0, 0, 0},
    {"A12: a clean: true only inside a fence supplies nothing",
     OPEN CK_HEAD CK_ROUND "```\nclean: true\n```\n" ROW_OK_A,
     true, 1, true, HA, true, true, 901, false, false, 1, 0, 0, 0, 0, 0, 0, 0},
    {"A12: a fenced key before the unfenced one: the unfenced supplies",
     OPEN "~~~\n" CK_HEAD "~~~\n" CK_HEAD CK_ROUND,
     true, 1, true, HA, true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"A3/A12: before the block ```go`x` opens no fence",
     "```go`x`\n" OPEN CK_HEAD CK_ROUND,
     true, 2, true, HA, true, true, 901, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    /* GitHub shows the marker (no fence), so the block starts there; by
     * A3's letter its keys stand in a fence, so A12 takes none of them */
    {"A3: a fence after <details> (an HTML block) does not hide the marker",
     "<details>\n```\n" OPEN CK_HEAD CK_ROUND "```\n",
     true, 3, false, "", false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
    {"N65: a clean: true in indented code after a blank supplies nothing",
     OPEN CK_HEAD CK_ROUND "\n    clean: true\n" ROW_OK_A,
     true, 1, true, HA, true, true, 901, false, false, 1, 0, 0, 0, 0, 0, 0, 0},
    {"N65: tab-indented keys right after the marker are read",
     OPEN "\t" CK_HEAD "\t" CK_ROUND "\tclean: true\n" ROW_OK_A,
     true, 1, true, HA, true, true, 901, true, true, 1, 0, 0, 0, 0, 0, 0, 0},
    {"N65: a marker that is itself indented code opens no lead",
     "The draft:\n\n    " OPEN "    " CK_HEAD "    " CK_ROUND
     "    clean: true\n",
     true, 3, false, "", false, false, 0, false, false, 0, 0, 0, 0, 0, 0, 0, 0},
};

static void test_marker__check_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ck_rows); i++) {
		const struct ck_row *r = &ck_rows[i];
		struct marker_result m;

		parse_str(&m, r->body);
		EXPECT_INT(i, r->name, m.check.present, r->present);
		if (r->present)
			EXPECT_INT(i, r->name, m.check.block_line,
			           r->block_line);
		EXPECT_INT(i, r->name, m.check.has_head, r->has_head);
		if (r->has_head)
			EXPECT_STR(i, r->name, m.check.head, r->head);
		EXPECT_INT(i, r->name, m.check.has_round, r->has_round);
		EXPECT_INT(i, r->name, m.check.round_valid, r->round_valid);
		if (r->round_valid)
			EXPECT_INT(i, r->name, m.check.round, r->round);
		EXPECT_INT(i, r->name, m.check.has_clean, r->has_clean);
		if (r->has_clean)
			EXPECT_INT(i, r->name, m.check.clean, r->clean);
		EXPECT_INT(i, r->name, m.check.rows, r->rows);
		EXPECT_INT(i, r->name, m.check.invalid, r->invalid);
		EXPECT_INT(i, r->name, m.check.blocking, r->blocking);
		EXPECT_INT(i, r->name, m.check.second_line, r->second);
		EXPECT_INT(i, r->name, m.check.head_conflict,
		           r->head_conflict);
		EXPECT_INT(i, r->name, m.check.round_conflict,
		           r->round_conflict);
		EXPECT_INT(i, r->name, m.check.clean_conflict,
		           r->clean_conflict);
		EXPECT_INT(i, r->name, m.check.fenced_line, r->fenced);
		/* not a needs-human verdict */
		EXPECT_INT(i, r->name, m.nh.present, false);
	}
	assert_int_equal(bad, 0);
}

/* --- fences (A3): marker_fence_line, line by line --- */

struct fence_row {
	const char *name;
	const char *text;
	const char *want; /* per line: 'F' fenced (fence line or inside) */
};

static const struct fence_row fence_rows[] = {
    {"``` opens and closes", "```\na\n```\nb", "FFF."},
    {"~~~ opens and closes", "~~~\na\n~~~\nb", "FFF."},
    {"text before a fence is not fenced", "a\n```\nb\n```\nc", ".FFF."},
    {"an info string on the opening line", "```c\nx\n```\ny", "FFF."},
    {"an info string on a ~~~ opening line", "~~~ markdown  \nx\n~~~\ny",
     "FFF."},
    {"longer opening: a shorter run does not close",
     "````\n```\na\n````\nb", "FFFF."},
    {"longer opening: a longer run closes", "```\na\n`````\nb", "FFF."},
    {"five tildes need five", "~~~~~\n~~~~\n~~~~~~\nx", "FFF."},
    {"``` is not closed by ~~~", "```\n~~~\na\n```\nb", "FFFF."},
    {"~~~ is not closed by ```", "~~~\n```\na\n~~~\nb", "FFFF."},
    {"a closing run with text after it does not close",
     "```\n``` c\ny\n```\nz", "FFFF."},
    {"a closing run with trailing ws and CR closes", "```\nx\n``` \t\r\ny",
     "FFF."},
    {"a closing line with mixed characters does not close",
     "```\n```~\nx\n```\ny", "FFFF."},
    {"up to 3 spaces of indent open and close", "   ```\nx\n   ```\ny",
     "FFF."},
    {"one and two spaces too", " ~~~\nx\n  ~~~\ny", "FFF."},
    {"four spaces of indent do not open", "    ```\nx", ".."},
    {"four spaces of indent do not close", "```\n    ```\nx\n```\ny", "FFFF."},
    {"a tab indent does not open", "\t```\nx", ".."},
    {"a tab indent does not close", "```\n\t```\nx\n```\ny", "FFFF."},
    {"a space and a tab do not open", " \t```\nx", ".."},
    {"two backticks are not a fence", "``\nx", ".."},
    {"two tildes are not a fence", "~~\nx", ".."},
    {"a mixed run is not a fence", "``~\n~`~\nx", "..."},
    {"backticks after text are not a fence", "x ```\ny", ".."},
    {"a code span is not a fence", "`code`\ny", ".."},
    {"an unclosed fence runs to the end", "a\n```\nb\nc\n", ".FFF"},
    {"an unclosed fence on the last line", "a\n~~~", ".F"},
    {"fences in a row", "```\na\n```\n~~~\nb\n~~~\nc", "FFFFFF."},
    {"a fence right after a fence", "```\n```\n```\nx\n```\ny", "FFFFF."},
    {"blank lines inside", "```\n\n\n```\nx", "FFFF."},
    {"a CRLF fence", "```\r\nx\r\n```\r\ny", "FFF."},
    {"a marker inside is fenced",
     "~~~\n<!-- agentic:check v1 -->\n- id: a\n~~~\n- id: b", "FFFF."},
};

static void test_marker__fence_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fence_rows); i++) {
		const struct fence_row *r = &fence_rows[i];
		struct marker_fence f;
		struct mview line;
		size_t off = 0, lineno = 0, len = strlen(r->text);
		char got[64];

		memset(&f, 0, sizeof(f));
		while (text_next_line(r->text, len, &off, &line)) {
			assert_true(lineno < sizeof(got) - 1);
			lineno++;
			got[lineno - 1] =
			    marker_fence_line(&f, line, lineno) ? 'F' : '.';
		}
		got[lineno] = '\0';
		EXPECT_STR(i, r->name, got, r->want);
	}
	assert_int_equal(bad, 0);
}

static void test_marker__fence_state(void **state)
{
	static const char text[] = "a\n  ````x\nb\n```\n````` \nc\n~~~\n";
	struct marker_fence f;
	struct mview line;
	size_t off = 0, lineno = 0;

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_false(marker_fence_line(&f, line, ++lineno));
	assert_int_equal(f.ch, 0);
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_true(marker_fence_line(&f, line, ++lineno)); /* opens */
	assert_int_equal(f.ch, '`');
	assert_int_equal(f.len, 4);
	assert_int_equal(f.open_line, 2);
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_true(marker_fence_line(&f, line, ++lineno)); /* inside */
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_true(marker_fence_line(&f, line, ++lineno)); /* too short */
	assert_int_equal(f.ch, '`');
	assert_int_equal(f.open_line, 2);
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_true(marker_fence_line(&f, line, ++lineno)); /* closes */
	assert_int_equal(f.ch, 0);
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_false(marker_fence_line(&f, line, ++lineno));
	assert_true(text_next_line(text, strlen(text), &off, &line));
	assert_true(marker_fence_line(&f, line, ++lineno)); /* stays open */
	assert_int_equal(f.ch, '~');
	assert_int_equal(f.len, 3);
	assert_int_equal(f.open_line, 7);
	assert_false(text_next_line(text, strlen(text), &off, &line));
}

/* A3: where a fenced opener was, for the skip reason */
static void test_marker__fenced_opener_lines(void **state)
{
	static const char body[] = "Example:\n\n```md\nsome text\n" OPEN CK_HEAD
	                           "```\n";
	static const char on_fence[] = "intro\n~~~ " MARKER_CHECK_OPEN "\n";
	struct marker_result m;

	(void)state;
	parse_str(&m, body);
	assert_false(m.check.present);
	assert_int_equal(m.check.fenced_line, 5);
	assert_int_equal(m.check.fenced_open, 3);
	assert_false(m.check.has_head);
	parse_str(&m, on_fence);
	assert_false(m.check.present);
	assert_int_equal(m.check.fenced_line, 2);
	assert_int_equal(m.check.fenced_open, 2);
}

/* A2: where the leading run ended and where the header was */
static void test_marker__nh_run_lines(void **state)
{
	struct marker_result m;

	(void)state;
	parse_str(&m,
	          "\n" NHV NO "\n" HEAD(HA) BASE("main") "### Verdict\n" YES);
	assert_true(m.nh.present);
	assert_int_equal(m.nh.header_line, 2);
	assert_int_equal(m.nh.run_end_line, 7);
	assert_int_equal(m.nh.stray_line, 8);
	assert_int_equal(m.nh.value, NH_NO);
	assert_true(m.nh.trigger);

	/* a run to the end of the comment */
	parse_str(&m, NHV NO HEAD(HA) BASE("main") "\n");
	assert_int_equal(m.nh.run_end_line, 0);
	assert_int_equal(m.nh.stray_line, 0);

	/* no verdict: the header line is still reported */
	parse_str(&m, "Hello\n\n" NHV YES);
	assert_false(m.nh.present);
	assert_int_equal(m.nh.header_line, 3);
	assert_int_equal(m.nh.stray_line, 3);
	assert_int_equal(m.nh.run_end_line, 0);
	assert_true(m.nh.trigger);

	/* a fenced header is reported too (the trigger sees it) */
	parse_str(&m, "```\n" NHV "```\n");
	assert_false(m.nh.present);
	assert_int_equal(m.nh.header_line, 2);
	assert_false(m.nh.trigger);
}

/* A2 and A3 in one comment: a verdict and a ledger, each read its way */
static void test_marker__nh_and_check_together(void **state)
{
	static const char body[] =
	    NHV NO HEAD(HA) BASE("main") "\n### Check\n" OPEN CK_HEAD CK_ROUND
	    "clean: true\n```\n" NHV YES "```\n" ROW_OK_A;
	struct marker_result m;

	(void)state;
	parse_str(&m, body);
	assert_true(m.nh.present);
	assert_int_equal(m.nh.value, NH_NO);
	assert_true(m.nh.trigger); /* the fenced yes: eager */
	assert_int_equal(m.nh.stray_line, 12);
	assert_true(m.check.present);
	assert_int_equal(m.check.block_line, 7);
	assert_true(m.check.clean);
	assert_int_equal(m.check.rows, 1);
	assert_int_equal(m.check.invalid, 0);
	assert_int_equal(m.check.second_line, 0);
}

/* --- rows iteration and line numbers --- */

static void test_marker__rows_iterate_with_line_numbers(void **state)
{
	static const char body[] =
	    "summary - id: x, status: outstanding\n" /* 1 */
	    "- id: before, status: outstanding, severity: high, "
	    "reason: r\n"                                              /* 2 */
	    "<details>\n"                                              /* 3 */
	    "<!-- agentic:check v1 -->\n"                              /* 4 */
	    "head: " HA "\n"                                           /* 5 */
	    "- id: A, status: fixed, severity: high, reason: ok\n"     /* 6 */
	    "\n"                                                       /* 7 */
	    "  - id: B , status: fixed, severity: high, reason: ok\n"  /* 8 */
	    "- id: C, status: outstanding, severity: nit, reason: x\n" /* 9 */
	    "</details>";                                              /* 10 */
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;

	(void)state;
	marker_parse(&m, body, strlen(body));
	assert_true(m.check.present);
	assert_int_equal(m.check.block_line, 4);
	assert_int_equal(m.check.head_line, 5);
	assert_int_equal(m.check.rows, 3);
	assert_int_equal(m.check.invalid, 2);
	assert_int_equal(m.check.blocking, 1);
	assert_true(m.check.block_off > 0);
	assert_memory_equal(body + m.check.block_off, "<!-- agentic:check", 18);

	marker_rows_init(&it, body, strlen(body), &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 6);
	assert_int_equal(row.error, ROW_OK);
	assert_int_equal(row.id.n, 1);
	assert_memory_equal(row.id.p, "A", 1);
	assert_int_equal(row.text.n,
	                 strlen("- id: A, status: fixed, severity: high, "
	                        "reason: ok"));
	assert_memory_equal(row.text.p, "- id: A,", 8);

	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 8);
	assert_int_equal(row.error, ROW_SPACE_BEFORE_COMMA);

	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 9);
	assert_int_equal(row.error, ROW_BLOCKING_NIT);
	assert_int_equal(row.status, ROW_OUTSTANDING);

	assert_false(marker_rows_next(&it, &row));
	assert_false(marker_rows_next(&it, &row));
}

static void test_marker__rows_without_block_yield_nothing(void **state)
{
	static const char body[] =
	    "- id: A, status: outstanding, severity: high, reason: ok\n";
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;

	(void)state;
	marker_parse(&m, body, strlen(body));
	assert_false(m.check.present);
	assert_int_equal(m.check.rows, 0);
	marker_rows_init(&it, body, strlen(body), &m.check);
	assert_false(marker_rows_next(&it, &row));
}

static void test_marker__rows_opener_on_first_line(void **state)
{
	static const char body[] =
	    OPEN "- id: A, status: fixed, severity: high, reason: ok";
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;

	(void)state;
	marker_parse(&m, body, strlen(body));
	assert_int_equal(m.check.block_line, 1);
	assert_int_equal(m.check.block_off, 0);
	marker_rows_init(&it, body, strlen(body), &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 2);
	assert_int_equal(row.error, ROW_OK);
	assert_false(marker_rows_next(&it, &row));
}

static void test_marker__line_numbers_of_markers(void **state)
{
	static const char body[] = "x\r\n" OPEN "\n\nround: 3\r\nclean: "
	                           "false\n" CK_HEAD;
	struct marker_result m;

	(void)state;
	marker_parse(&m, body, strlen(body));
	assert_int_equal(m.check.block_line, 2);
	assert_int_equal(m.check.round_line, 5);
	assert_int_equal(m.check.clean_line, 6);
	assert_int_equal(m.check.head_line, 7);
	assert_int_equal(m.check.round, 3);
}

/* --- text_next_line --- */

static void test_marker__next_line_splits_at_lf(void **state)
{
	static const char text[] = "a\r\n\nbc\nd";
	size_t off = 0;
	struct mview l;

	(void)state;
	assert_true(text_next_line(text, strlen(text), &off, &l));
	assert_int_equal(l.n, 2); /* the CR stays in the line */
	assert_memory_equal(l.p, "a\r", 2);
	assert_true(text_next_line(text, strlen(text), &off, &l));
	assert_int_equal(l.n, 0);
	assert_true(text_next_line(text, strlen(text), &off, &l));
	assert_int_equal(l.n, 2);
	assert_memory_equal(l.p, "bc", 2);
	assert_true(text_next_line(text, strlen(text), &off, &l));
	assert_int_equal(l.n, 1);
	assert_memory_equal(l.p, "d", 1);
	assert_false(text_next_line(text, strlen(text), &off, &l));

	off = 0;
	assert_false(text_next_line("", 0, &off, &l));
	off = 0;
	assert_true(text_next_line("x\n", 2, &off, &l));
	assert_int_equal(l.n, 1);
	assert_false(text_next_line("x\n", 2, &off, &l));
}

/* --- length limit (N24: code points) --- */

static void test_marker__too_long_at_65537_ascii(void **state)
{
	size_t len;
	char *s;
	struct marker_result m;

	(void)state;
	s = repeat("", "a", MARKER_MAX_CHARS, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65536);
	assert_false(m.too_long);
	free(s);

	s = repeat("", "a", MARKER_MAX_CHARS + 1, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65537);
	assert_true(m.too_long);
	free(s);
}

static void test_marker__length_counts_code_points(void **state)
{
	size_t len;
	char *s;
	struct marker_result m;

	(void)state;
	/* 65,536 two-byte characters: 131,072 bytes, not too long */
	s = repeat("", "\xc3\xa9", MARKER_MAX_CHARS, "", &len);
	assert_int_equal(len, 131072);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65536);
	assert_false(m.too_long);
	free(s);

	/* 65,536 four-byte characters: not too long either */
	s = repeat("", "\xf0\x9f\x98\x80", MARKER_MAX_CHARS, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65536);
	assert_false(m.too_long);
	free(s);

	/* 65,537 three-byte characters: too long */
	s = repeat("", "\xe2\x82\xac", MARKER_MAX_CHARS + 1, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65537);
	assert_true(m.too_long);
	free(s);

	marker_parse(&m, "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10);
	assert_int_equal(m.chars, 4);
}

static void test_marker__too_long_verdict_is_malformed(void **state)
{
	static const char verdict[] = NHV YES HEAD(HA) BASE("main");
	size_t len, pad = MARKER_MAX_CHARS + 1 - (sizeof(verdict) - 1);
	char *s;
	struct marker_result m;

	(void)state;
	s = repeat(verdict, "x", pad, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65537);
	assert_true(m.too_long);
	assert_true(m.nh.present);
	assert_true(m.nh.any_yes); /* the label step still sees the yes */
	assert_int_equal(m.nh.value, NH_MALFORMED);
	assert_true(m.nh.malformed & NHM_TOO_LONG);
	assert_string_equal(m.nh.head, "");
	/* it still names its head (a candidate for the gate) */
	assert_int_equal(m.nh.nheads, 1);
	free(s);

	/* exactly at the limit: well formed */
	s = repeat(verdict, "x", pad - 1, "", &len);
	marker_parse(&m, s, len);
	assert_false(m.too_long);
	assert_int_equal(m.nh.malformed, 0);
	assert_int_equal(m.nh.value, NH_YES);
	free(s);
}

/* --- hostile input --- */

static void test_marker__long_run_of_dashes(void **state)
{
	size_t len;
	char *s;
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;

	(void)state;
	s = repeat("", "-", 65536, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65536);
	assert_false(m.too_long);
	assert_false(m.nh.present);
	assert_false(m.check.present);
	free(s);

	/* A4: a line of dashes in the block is a row (was: no row) */
	s = repeat(OPEN CK_HEAD, "-", 65000, "\n" CK_ROUND "clean: true\n",
	           &len);
	marker_parse(&m, s, len);
	assert_true(m.check.present);
	assert_true(m.check.has_head);
	assert_true(m.check.has_round);
	assert_int_equal(m.check.round, 901);
	assert_true(m.check.clean);
	assert_int_equal(m.check.rows, 1);
	assert_int_equal(m.check.invalid, 1);
	marker_rows_init(&it, s, len, &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 3);
	assert_int_equal(row.error, ROW_NO_ID);
	assert_int_equal(row.text.n, 65000);
	assert_false(marker_rows_next(&it, &row));
	free(s);

	/* A4: 13,000 "*" and "+" bullets, each an invalid row */
	s = repeat(OPEN, "*\n+\n", 6500, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.check.rows, 13000);
	assert_int_equal(m.check.invalid, 13000);
	free(s);

	/* one row line made of a huge id */
	s = repeat(OPEN "- id: ", "-", 65000, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.check.rows, 1);
	assert_int_equal(m.check.invalid, 1);
	marker_rows_init(&it, s, len, &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.error, ROW_NO_STATUS);
	assert_int_equal(row.id.n, 65000);
	free(s);

	/* 13,000 lines of "- id:" */
	s = repeat(OPEN, "- id:\n", 13000, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.check.rows, 13000);
	assert_int_equal(m.check.invalid, 13000);
	assert_int_equal(m.check.blocking, 0);
	free(s);
}

static void test_marker__long_run_of_comment_openers(void **state)
{
	size_t len;
	char *s;
	struct marker_result m;

	(void)state;
	s = repeat("", "<!--", 16384, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.chars, 65536);
	assert_false(m.too_long);
	assert_false(m.nh.present);
	assert_false(m.nh.any_yes);
	assert_false(m.check.present);
	free(s);

	/* openers, then a closer: one line, never a marker */
	s = repeat("", "<!--", 16000, " needs-human: yes -->", &len);
	marker_parse(&m, s, len);
	assert_false(m.nh.any_yes);
	free(s);

	/* a verdict followed by a wall of openers stays well formed */
	s = repeat(NHV NO HEAD(HA) BASE("main"), "<!--", 16000, "", &len);
	marker_parse(&m, s, len);
	assert_true(m.nh.present);
	assert_int_equal(m.nh.malformed, 0);
	assert_int_equal(m.nh.value, NH_NO);
	free(s);

	/* openers on their own lines: the yes at the end is still found,
	 * but A2 reads it only as a stray line (was: any_yes) */
	s = repeat("", "<!--\n", 13000, "<!-- needs-human: yes -->", &len);
	marker_parse(&m, s, len);
	assert_false(m.nh.present);
	assert_false(m.nh.any_yes);
	assert_int_equal(m.nh.stray_line, 13001);
	assert_false(m.nh.trigger);
	free(s);

	/* ... and with a header first: the run ends at the first opener, the
	 * eager trigger still sees the yes */
	s = repeat(NHV, "<!--\n", 13000, "<!-- needs-human: yes -->", &len);
	marker_parse(&m, s, len);
	assert_true(m.nh.present);
	assert_false(m.nh.any_yes);
	assert_int_equal(m.nh.run_end_line, 2);
	assert_int_equal(m.nh.stray_line, 13002);
	assert_true(m.nh.trigger);
	free(s);

	/* a run of 5,000 whole-line comments stays one run */
	s = repeat(NHV, "<!-- x -->\n", 5000, NO HEAD(HA) BASE("main"), &len);
	marker_parse(&m, s, len);
	assert_true(m.nh.present);
	assert_int_equal(m.nh.malformed, 0);
	assert_int_equal(m.nh.value, NH_NO);
	free(s);

	/* openers inside a check block */
	s = repeat(OPEN, "<!-- agentic:check v1 -->", 2600, "\n" CK_HEAD, &len);
	marker_parse(&m, s, len);
	assert_true(m.check.present);
	assert_int_equal(m.check.block_line, 1);
	assert_true(m.check.has_head);
	free(s);
}

/* A3: fences cost no more than any other line */
static void test_marker__long_runs_of_fences(void **state)
{
	size_t len;
	char *s;
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;

	(void)state;
	/* one fence line of 65,536 backticks: opens, never closes */
	s = repeat("", "`", 65536, "", &len);
	marker_parse(&m, s, len);
	assert_false(m.too_long);
	assert_false(m.check.present);
	free(s);

	/* 16,000 fence lines alternate open/close: the opener after an even
	 * number of them is read, after an odd number it is not */
	s = repeat("", "```\n", 16000, OPEN CK_HEAD, &len);
	marker_parse(&m, s, len);
	assert_true(m.check.present);
	assert_int_equal(m.check.block_line, 16001);
	assert_true(m.check.has_head);
	free(s);
	s = repeat("", "```\n", 16001, OPEN CK_HEAD, &len);
	marker_parse(&m, s, len);
	assert_false(m.check.present);
	assert_int_equal(m.check.fenced_line, 16002);
	assert_int_equal(m.check.fenced_open, 16001);
	free(s);

	/* a long opening run, then many shorter runs that never close it:
	 * A12 reads the row after them all */
	s = repeat(OPEN "``````````\n", "`````````\n", 6000,
	           "- id: a, status: outstanding, severity: high, reason: r\n",
	           &len);
	marker_parse(&m, s, len);
	assert_true(m.check.present);
	assert_int_equal(m.check.rows, 1);
	assert_int_equal(m.check.blocking, 1);
	marker_rows_init(&it, s, len, &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 6003);
	assert_false(marker_rows_next(&it, &row));
	free(s);

	/* fenced rows alternate with real ones: A12 reads both, and the
	 * iterator agrees */
	s = repeat(OPEN,
	           "~~~\n- id: x, status: outstanding, severity: high, reason: "
	           "r\n~~~\n" ROW_OK_A,
	           1000, "", &len);
	marker_parse(&m, s, len);
	assert_int_equal(m.check.rows, 2000);
	assert_int_equal(m.check.blocking, 1000);
	marker_rows_init(&it, s, len, &m.check);
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 3);
	assert_true(marker_status_blocks(row.status));
	assert_true(marker_rows_next(&it, &row));
	assert_int_equal(row.line, 5);
	assert_int_equal(row.error, ROW_OK);
	free(s);
}

/* xorshift: a fixed, portable byte stream */
static uint32_t rng_next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void test_marker__binary_garbage_does_not_crash(void **state)
{
	static const char *const frags[] = {"<!--",
	                                    "-->",
	                                    "\n",
	                                    "\r",
	                                    " ",
	                                    ":",
	                                    ",",
	                                    "- id:",
	                                    "head:",
	                                    "round:",
	                                    "clean:",
	                                    "agentic:needs-human v1",
	                                    "needs-human:",
	                                    "<!-- agentic:check v1 -->",
	                                    "status:",
	                                    "severity:",
	                                    "reason:",
	                                    "\xc3",
	                                    "\xa9",
	                                    "\xff",
	                                    "\xf0\x9f",
	                                    "```",
	                                    "~~~",
	                                    "* id:",
	                                    "+ id:",
	                                    "   "};
	size_t len = 200000, i, round;
	uint32_t x = 0x9e3779b9u;
	char *s = malloc(len + 1);

	(void)state;
	assert_non_null(s);
	for (round = 0; round < 8; round++) {
		size_t n = 0;
		struct marker_result m;
		struct marker_rows it;
		struct marker_row row;
		size_t rows = 0;

		while (n < len) {
			uint32_t r = rng_next(&x);

			if (round % 2 && (r & 3) == 0) {
				const char *f =
				    frags[(r >> 8) % ARRAY_SIZE(frags)];
				size_t fl = strlen(f);

				if (n + fl > len)
					break;
				memcpy(s + n, f, fl);
				n += fl;
			} else {
				char c = (char)(r >> 24);

				s[n++] = c ? c : '\x01';
			}
		}
		s[n] = '\0';
		marker_parse(&m, s, n);
		assert_int_equal(m.chars, count_chars(s, n));
		assert_int_equal(m.too_long, m.chars > MARKER_MAX_CHARS);
		if (m.nh.present && m.nh.malformed == 0)
			assert_true(m.nh.value == NH_YES ||
			            m.nh.value == NH_NO);
		assert_true(m.check.invalid <= m.check.rows);
		marker_rows_init(&it, s, n, &m.check);
		while (marker_rows_next(&it, &row)) {
			assert_true(row.line >= m.check.block_line);
			rows++;
		}
		assert_int_equal(rows, m.check.rows);
	}
	/* every non-NUL byte value, on one line and one per line */
	for (i = 0; i < 255; i++)
		s[i] = (char)(i + 1);
	{
		struct marker_result m;

		marker_parse(&m, s, 255);
		assert_false(m.nh.present);
		for (i = 0; i < 255; i++)
			s[2 * i] = (char)(i + 1), s[2 * i + 1] = '\n';
		marker_parse(&m, s, 510);
		assert_false(m.nh.present);
		assert_false(m.check.present);
	}
	free(s);
}

static void test_marker__body_not_nul_terminated(void **state)
{
	/* the length is honoured: a marker past `len` is not read */
	static const char body[] = NHV NO HEAD(HA) BASE("main") YES;
	struct marker_result m;

	(void)state;
	marker_parse(&m, body, strlen(body) - strlen(YES));
	assert_false(m.nh.any_yes);
	assert_int_equal(m.nh.value, NH_NO);
	marker_parse(&m, body, strlen(body));
	assert_true(m.nh.any_yes);
	assert_int_equal(m.nh.malformed, NHM_BOTH_VALUES);
}

/* --- names --- */

static void test_marker__status_blocks(void **state)
{
	(void)state;
	assert_false(marker_status_blocks(ROW_FIXED));
	assert_false(marker_status_blocks(ROW_OBSOLETE));
	assert_false(marker_status_blocks(ROW_REBUTTED_VALID));
	assert_true(marker_status_blocks(ROW_OUTSTANDING));
	assert_true(marker_status_blocks(ROW_REBUTTED_INVALID));
}

static void test_marker__names(void **state)
{
	int e;

	(void)state;
	assert_string_equal(marker_status_name(ROW_FIXED), "fixed");
	assert_string_equal(marker_status_name(ROW_OBSOLETE), "obsolete");
	assert_string_equal(marker_status_name(ROW_REBUTTED_VALID),
	                    "rebutted-valid");
	assert_string_equal(marker_status_name(ROW_OUTSTANDING), "outstanding");
	assert_string_equal(marker_status_name(ROW_REBUTTED_INVALID),
	                    "rebutted-invalid");
	assert_string_equal(marker_severity_name(SEV_CRITICAL), "critical");
	assert_string_equal(marker_severity_name(SEV_HIGH), "high");
	assert_string_equal(marker_severity_name(SEV_SHOULD_FIX), "should-fix");
	assert_string_equal(marker_severity_name(SEV_NIT), "nit");
	for (e = ROW_OK; e <= ROW_BLOCKING_NIT; e++) {
		const char *s = marker_row_error_str((enum row_error)e);

		assert_non_null(s);
		assert_true(strlen(s) > 1);
		assert_string_not_equal(s, "?");
	}
}

/* Every NHM_* bit has exactly one row of words, and no row names
 * another bit: a new bit without its row fails here, not silently. */
static void test_marker__nhm_one_reason_per_bit(void **state)
{
	unsigned all = 0;

	(void)state;
	for (unsigned b = 0; b < NHM_COUNT; b++) {
		size_t rows = 0;

		for (size_t i = 0; i < NHM_COUNT; i++)
			rows += marker_nhm_reasons[i].bit == (1u << b);
		assert_int_equal(rows, 1);
		assert_non_null(marker_nhm_reason(1u << b));
		assert_non_null(marker_nhm_reason(1u << b)->why);
		assert_non_null(marker_nhm_reason(1u << b)->problem);
	}
	for (size_t i = 0; i < NHM_COUNT; i++)
		all |= marker_nhm_reasons[i].bit;
	assert_int_equal(all, (1u << NHM_COUNT) - 1);
	/* Every bit the parser sets is below NHM_COUNT. */
	assert_true(NHM_BAD_VALUE < (1u << NHM_COUNT));
	/* Precedence: too long first; no base only when nothing else. */
	assert_string_equal(marker_nhm_why(NHM_TOO_LONG | NHM_NO_HEAD),
			    "it is longer than 65,536 characters");
	assert_string_equal(marker_nhm_why(NHM_NO_BASE), "it has no base: line");
	assert_string_equal(marker_nhm_why(NHM_NO_HEAD | NHM_NO_BASE),
			    "it has no head: line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_marker__nh_line_table),
	    cmocka_unit_test(test_marker__check_near),
	    cmocka_unit_test(test_marker__check_line_table),
	    cmocka_unit_test(test_marker__row_table),
	    cmocka_unit_test(test_marker__nh_table),
	    cmocka_unit_test(test_marker__check_table),
	    cmocka_unit_test(test_marker__fence_table),
	    cmocka_unit_test(test_marker__fence_state),
	    cmocka_unit_test(test_marker__fenced_opener_lines),
	    cmocka_unit_test(test_marker__nh_run_lines),
	    cmocka_unit_test(test_marker__nh_and_check_together),
	    cmocka_unit_test(test_marker__rows_iterate_with_line_numbers),
	    cmocka_unit_test(test_marker__rows_without_block_yield_nothing),
	    cmocka_unit_test(test_marker__rows_opener_on_first_line),
	    cmocka_unit_test(test_marker__line_numbers_of_markers),
	    cmocka_unit_test(test_marker__next_line_splits_at_lf),
	    cmocka_unit_test(test_marker__too_long_at_65537_ascii),
	    cmocka_unit_test(test_marker__length_counts_code_points),
	    cmocka_unit_test(test_marker__too_long_verdict_is_malformed),
	    cmocka_unit_test(test_marker__long_run_of_dashes),
	    cmocka_unit_test(test_marker__long_run_of_comment_openers),
	    cmocka_unit_test(test_marker__long_runs_of_fences),
	    cmocka_unit_test(test_marker__binary_garbage_does_not_crash),
	    cmocka_unit_test(test_marker__body_not_nul_terminated),
	    cmocka_unit_test(test_marker__status_blocks),
	    cmocka_unit_test(test_marker__names),
	    cmocka_unit_test(test_marker__nhm_one_reason_per_bit),
	};

	return cmocka_run_group_tests_name("marker", tests, NULL, NULL);
}
