/*
 * test_util.c - times (N22), SHAs, decimals, ASCII comparisons.
 */
#include "unit.h"

#include <stdlib.h>

#include "base/util.h"

/* --- time_parse --- */

struct time_row {
	const char *text;
	bool ok;
	int64_t ms; /* when ok */
};

static const struct time_row time_rows[] = {
    {"1970-01-01T00:00:00Z", true, 0},
    {"2026-11-29T10:05:00Z", true, 1795946700000LL},
    {"2024-02-29T00:00:00Z", true, 1709164800000LL}, /* leap year */
    {"2000-02-29T23:59:59Z", true, 951868799000LL},  /* divisible by 400 */
    {"2099-12-31T23:59:59Z", true, 4102444799000LL},
    {"2026-11-29T10:05:00.5Z", true, 1795946700500LL},
    {"2026-11-29T10:05:00.25Z", true, 1795946700250LL},
    {"2026-11-29T10:05:00.123Z", true, 1795946700123LL},
    {"2026-11-29T10:05:00.123999Z", true, 1795946700123LL},
    {"2026-11-29T10:05:00.000Z", true, 1795946700000LL},
    {"2026-11-29T10:05:00.1234567890123Z", true, 1795946700123LL},
    {"2023-02-28T00:00:00Z", true, 1677542400000LL},
    {"2026-12-31T23:59:59Z", true, 1798761599000LL},
    /* impossible dates */
    {"2023-02-29T00:00:00Z", false, 0}, /* not a leap year */
    {"2100-02-29T00:00:00Z", false, 0}, /* century, not /400 */
    {"2026-02-30T00:00:00Z", false, 0},
    {"2026-04-31T00:00:00Z", false, 0},
    {"2026-13-01T00:00:00Z", false, 0},
    {"2026-00-10T00:00:00Z", false, 0},
    {"2026-01-00T00:00:00Z", false, 0},
    {"2026-01-32T00:00:00Z", false, 0},
    {"2026-01-01T24:00:00Z", false, 0},
    {"2026-01-01T23:60:00Z", false, 0},
    {"2026-01-01T23:59:61Z", false, 0},
    /* only the one form, with its Z */
    {"2026-11-29T10:05:00", false, 0},
    {"2026-11-29T10:05:00z", false, 0},
    {"2026-11-29T10:05:00+00:00", false, 0},
    {"2026-11-29T10:05:00Z ", false, 0},
    {" 2026-11-29T10:05:00Z", false, 0},
    {"2026-11-29T10:05:00ZZ", false, 0},
    {"2026-11-29 10:05:00Z", false, 0},
    {"2026-11-29t10:05:00Z", false, 0},
    {"2026-11-29T10:05Z", false, 0},
    {"2026-11-29", false, 0},
    {"2026-1-29T10:05:00Z", false, 0},
    {"26-11-29T10:05:00Z", false, 0},
    {"+2026-11-29T10:05:00Z", false, 0},
    {"2026/11/29T10:05:00Z", false, 0},
    {"2026-11-29T10:05:00.Z", false, 0},
    {"2026-11-29T10:05:00,5Z", false, 0},
    {"2026-11-29T10:05:00.5", false, 0},
    {"2026-11-29T1a:05:00Z", false, 0},
    {"2026-11-29T-1:05:00Z", false, 0},
    {"", false, 0},
    {"Z", false, 0},
    {"1969-12-31T23:59:59Z", false, 0}, /* before the epoch */
};

static void test_util__time_parse_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(time_rows); i++) {
		int64_t ms = -1;
		int rc = time_parse(&ms, time_rows[i].text);

		if ((rc == 0) != time_rows[i].ok) {
			print_error("row %zu (%s): rc %d\n", i,
			            time_rows[i].text, rc);
			bad++;
		} else if (rc == 0 && ms != time_rows[i].ms) {
			print_error("row %zu (%s): %lld, expected %lld\n", i,
			            time_rows[i].text, (long long)ms,
			            (long long)time_rows[i].ms);
			bad++;
		} else if (rc != 0 && rc != AA_ERR) {
			print_error("row %zu (%s): rc %d is not AA_ERR\n", i,
			            time_rows[i].text, rc);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_util__time_parse_strictly_ordered(void **state)
{
	/* one second and one millisecond apart compare as such (N22) */
	int64_t a, b, c;

	(void)state;
	assert_int_equal(time_parse(&a, "2026-11-29T10:05:00Z"), 0);
	assert_int_equal(time_parse(&b, "2026-11-29T10:05:01Z"), 0);
	assert_int_equal(time_parse(&c, "2026-11-29T10:05:00.001Z"), 0);
	assert_true(a < c && c < b);
	assert_int_equal(b - a, 1000);
	assert_int_equal(c - a, 1);
	/* day, month and year boundaries */
	assert_int_equal(time_parse(&a, "2026-12-31T23:59:59Z"), 0);
	assert_int_equal(time_parse(&b, "2027-01-01T00:00:00Z"), 0);
	assert_int_equal(b - a, 1000);
	assert_int_equal(time_parse(&a, "2024-02-28T00:00:00Z"), 0);
	assert_int_equal(time_parse(&b, "2024-03-01T00:00:00Z"), 0);
	assert_int_equal(b - a, 2 * 86400000LL);
}

/* --- time_format --- */

static void test_util__time_format(void **state)
{
	char out[32];

	(void)state;
	time_format(out, 0);
	assert_string_equal(out, "1970-01-01T00:00:00Z");
	time_format(out, 1795946700000LL);
	assert_string_equal(out, "2026-11-29T10:05:00Z");
	time_format(out, 1795946700250LL);
	assert_string_equal(out, "2026-11-29T10:05:00.250Z");
	time_format(out, 1795946700001LL);
	assert_string_equal(out, "2026-11-29T10:05:00.001Z");
	time_format(out, 1709164800000LL);
	assert_string_equal(out, "2024-02-29T00:00:00Z");
	time_format(out, 951868799999LL);
	assert_string_equal(out, "2000-02-29T23:59:59.999Z");
}

static void test_util__time_round_trip(void **state)
{
	static const char *const texts[] = {
	    "1970-01-01T00:00:00Z",     "2026-11-29T10:05:00Z",
	    "2024-02-29T12:34:56Z",     "2000-02-29T23:59:59Z",
	    "2026-11-29T10:05:00.250Z", "2099-12-31T23:59:59.999Z",
	    "2038-01-19T03:14:08Z",     "2100-03-01T00:00:00Z",
	};
	size_t i;
	int64_t ms, t;
	char out[32];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		assert_int_equal(time_parse(&ms, texts[i]), 0);
		time_format(out, ms);
		assert_string_equal(out, texts[i]);
	}
	/* every day of four years survives format then parse */
	for (t = 1704067200000LL; t < 1704067200000LL + 4 * 366 * 86400000LL;
	     t += 86400000LL + 3723001LL) {
		time_format(out, t);
		assert_int_equal(time_parse(&ms, out), 0);
		assert_int_equal(ms, t);
	}
}

/* --- sha_parse --- */

static void test_util__sha_parse(void **state)
{
	char out[SHA_BUF];
	const char *up = "0123456789ABCDEFABCDEF0123456789abcdefAB";

	(void)state;
	assert_true(
	    sha_parse(out, "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e", 40));
	assert_string_equal(out, "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e");
	assert_true(sha_parse(out, up, 40));
	assert_string_equal(out, "0123456789abcdefabcdef0123456789abcdefab");
	assert_true(sha_parse(NULL, up, 40));
	/* exactly 40 */
	assert_false(sha_parse(out, up, 39));
	assert_false(
	    sha_parse(out, "0123456789abcdef0123456789abcdef012345678", 41));
	assert_false(sha_parse(out, "", 0));
	assert_false(sha_parse(out, "abc1234", 7));
	/* hex digits only */
	assert_false(
	    sha_parse(out, "g123456789abcdef0123456789abcdef01234567", 40));
	assert_false(
	    sha_parse(out, "0123456789abcdef0123456789abcdef0123456 ", 40));
	assert_false(
	    sha_parse(out, "0123456789abcdef0123456789abcdef012345-7", 40));
	assert_false(
	    sha_parse(out, "0123456789abcdef0123456789abcdef0123456\0", 40));
	/* a longer string: len decides */
	assert_true(
	    sha_parse(out, "0123456789abcdef0123456789abcdef01234567xyz", 40));
	assert_string_equal(out, "0123456789abcdef0123456789abcdef01234567");
}

/* --- parse_decimal --- */

struct dec_row {
	const char *s;
	int64_t max;
	bool ok;
	int64_t v;
};

static const struct dec_row dec_rows[] = {
    {"1", 100, true, 1},
    {"42", 100, true, 42},
    {"100", 100, true, 100},
    {"101", 100, false, 0},
    {"007", 100, true, 7},
    {"9223372036854775807", INT64_MAX, true, INT64_MAX},
    {"9223372036854775808", INT64_MAX, false, 0},
    {"99999999999999999999", INT64_MAX, false, 0},
    {"18446744073709551617", INT64_MAX, false, 0},
    {"999999999", 999999999, true, 999999999},
    {"1000000000", 999999999, false, 0},
    {"2147483648", 2147483647, false, 0},
    {"", 100, false, 0},
    {"-1", 100, false, 0},
    {"+1", 100, false, 0},
    {" 1", 100, false, 0},
    {"1 ", 100, false, 0},
    {"1a", 100, false, 0},
    {"0x1", 100, false, 0},
    {"1.0", 100, false, 0},
    {"\xd9\xa1", 100, false, 0},
};

static void test_util__parse_decimal_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(dec_rows); i++) {
		const struct dec_row *r = &dec_rows[i];
		int64_t v = -99;
		int rc = parse_decimal(&v, r->s, strlen(r->s), r->max);

		if ((rc == 0) != r->ok) {
			print_error("row %zu (%s): rc %d\n", i, r->s, rc);
			bad++;
		} else if (rc == 0 && v != r->v) {
			print_error("row %zu (%s): %lld\n", i, r->s,
			            (long long)v);
			bad++;
		} else if (rc != 0 && v != -99) {
			print_error("row %zu (%s): output written on error\n",
			            i, r->s);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	/* only len bytes are read */
	{
		int64_t v;

		assert_int_equal(parse_decimal(&v, "12345", 2, 100), 0);
		assert_int_equal(v, 12);
	}
}

/* --- ASCII helpers --- */

static void test_util__case_insensitive_compare(void **state)
{
	(void)state;
	assert_true(str_eq_nocase("lfx-reviewer", "LFX-Reviewer"));
	assert_true(str_eq_nocase("", ""));
	assert_false(str_eq_nocase("lfx-reviewer", "lfx-reviewer[bot]"));
	assert_false(str_eq_nocase("lfx-reviewer[bot]", "lfx-reviewer"));
	assert_false(str_eq_nocase("a", ""));
	/* ASCII only: no Unicode folding */
	assert_false(str_eq_nocase("\xc3\xa9", "\xc3\x89"));
	assert_false(str_eq_nocase("K", "\xe2\x84\xaa")); /* Kelvin sign */

	assert_true(mem_eq_nocase("ABC", 3, "abc"));
	assert_true(mem_eq_nocase("ABCdef", 3, "abc"));
	assert_false(mem_eq_nocase("AB", 2, "abc"));
	assert_false(mem_eq_nocase("ABC", 3, "ab"));
	assert_true(mem_eq_nocase("", 0, ""));
	assert_false(mem_eq_nocase("a\0", 2, "a"));
}

static void test_util__mem_contains(void **state)
{
	(void)state;
	assert_true(mem_contains("conductor pr=#7: x", 18, "pr=#7:"));
	assert_false(mem_contains("conductor pr=#7: x", 15, "pr=#7:"));
	assert_true(mem_contains("conductor pr=#7: x", 16, "pr=#7:"));
	assert_false(mem_contains("ab", 2, "abc"));
	assert_false(mem_contains("", 0, "a"));
	assert_true(mem_contains("aab", 3, "ab"));
	assert_true(mem_contains("x\0ab", 4, "ab"));
}

static void test_util__sizes_and_strings(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(st_add(2, 3), 5);
	assert_int_equal(st_add(SIZE_MAX - 1, 1), SIZE_MAX);
	assert_int_equal(st_mult(6, 7), 42);
	assert_int_equal(st_mult(0, SIZE_MAX), 0);
	assert_int_equal(st_mult(SIZE_MAX, 1), SIZE_MAX);
	s = xstrndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = xstrdup("");
	assert_string_equal(s, "");
	free(s);
	assert_null(xstrdup_or_null(NULL));
	s = xstrdup_or_null("x");
	assert_string_equal(s, "x");
	free(s);
	strv_free(NULL, 3);
	{
		char **v = xcalloc(2, sizeof(char *));

		v[0] = xstrdup("a");
		v[1] = xstrdup("b");
		strv_free(v, 2);
	}
}

static void test_util__char_classes(void **state)
{
	int c;

	(void)state;
	for (c = 0; c < 256; c++) {
		assert_int_equal(is_ws(c), c == ' ' || c == '\t');
		assert_int_equal(is_digit(c), c >= '0' && c <= '9');
		assert_int_equal(is_hex(c), (c >= '0' && c <= '9') ||
		                                (c >= 'a' && c <= 'f') ||
		                                (c >= 'A' && c <= 'F'));
	}
	assert_int_equal(to_lower('A'), 'a');
	assert_int_equal(to_lower('Z'), 'z');
	assert_int_equal(to_lower('a'), 'a');
	assert_int_equal(to_lower('@'), '@');
	assert_int_equal(to_lower('['), '[');
	assert_int_equal(to_lower(0xC9), 0xC9);
	assert_false(is_ws('\r'));
	assert_false(is_ws('\n'));
	assert_false(is_ws(0xA0));
}

static void test_util__repo_name_valid(void **state)
{
	static const struct {
		const char *s;
		bool ok;
	} rows[] = {
	    {"lf/svc", true},    {"LF-x/svc.go_2", true},  {"a/b", true},
	    {"", false},         {"noslash", false},       {"/svc", false},
	    {"lf/", false},      {"a/b/c", false},         {"lf/s vc", false},
	    {"lf/svc\n", false}, {"lf/sv\xc3\xa9", false}, {"lf/../x", false},
	};
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		if (repo_name_valid(rows[i].s) != rows[i].ok) {
			print_error("row %zu (%s): expected %d\n", i, rows[i].s,
			            rows[i].ok);
			bad++;
		}
	assert_int_equal(bad, 0);
}

/* --- url_authority: HOST[:PORT] (A8, G1) --- */

struct authority_row {
	const char *text;
	bool ok;
	size_t host_len; /* when ok */
};

static const struct authority_row authority_rows[] = {
    {"gitlab.example.com", true, 18},
    {"gitlab.example.com:8443", true, 18},
    {"127.0.0.1:1", true, 9},
    {"[::1]", true, 5},
    {"[::1]:8080", true, 5},
    {"[fe80::1.2.3.4]:99999", true, 15}, /* the range: the caller's */
    {"-host-", true, 6},                 /* letters at the ends: the caller's */
    {"", false, 0},
    {":80", false, 0},
    {"host:", false, 0},
    {"host:123456", false, 0},
    {"host:8a", false, 0},
    {"user@host", false, 0},
    {"host%2f", false, 0},
    {"host\\evil", false, 0},
    {"[]", false, 0},
    {"[::1", false, 0},
    {"[::g]", false, 0},
    {"[::1]x", false, 0},
};

static void test_util__url_authority_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(authority_rows); i++) {
		const struct authority_row *r = &authority_rows[i];
		size_t host_len = 0;
		bool ok = url_authority(r->text, strlen(r->text), &host_len);

		if (ok != r->ok || (ok && host_len != r->host_len))
			fail_msg("row %zu \"%s\": %d, host %zu", i, r->text,
				 ok, host_len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_util__time_parse_table),
	    cmocka_unit_test(test_util__time_parse_strictly_ordered),
	    cmocka_unit_test(test_util__time_format),
	    cmocka_unit_test(test_util__time_round_trip),
	    cmocka_unit_test(test_util__sha_parse),
	    cmocka_unit_test(test_util__parse_decimal_table),
	    cmocka_unit_test(test_util__case_insensitive_compare),
	    cmocka_unit_test(test_util__mem_contains),
	    cmocka_unit_test(test_util__sizes_and_strings),
	    cmocka_unit_test(test_util__char_classes),
	    cmocka_unit_test(test_util__repo_name_valid),
	    cmocka_unit_test(test_util__url_authority_table),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
