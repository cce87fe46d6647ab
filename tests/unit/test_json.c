/*
 * test_json.c - strict reading (json_parse, jget_*) and the deterministic
 * writer (struct jw, json_quote).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/json.h"
#include "base/util.h"

#define SHA "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"

static cJSON *parse_ok(const char *text)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;

	if (json_parse(&root, text, strlen(text), &err) != 0)
		fail_msg("json_parse(%s): %s", text, err.ptr);
	buf_release(&err);
	return root;
}

/* Is s valid UTF-8 (no overlongs, surrogates or values past U+10FFFF)? */
static bool valid_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = p[i];
		size_t len, k;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			len = 2, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			len = 3, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			len = 4, cp = c & 0x07;
		else
			return false;
		if (i + len > n)
			return false;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i + k] & 0x3F);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += len;
	}
	return true;
}

/* --- json_parse --- */

static void test_json__parse_ok(void **state)
{
	cJSON *root;

	(void)state;
	root = parse_ok("{\"a\": [1, 2, {\"b\": null}], \"c\": \"d\"}");
	assert_true(cJSON_IsObject(root));
	cJSON_Delete(root);
	/* not NUL-terminated input: only len bytes are read */
	{
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		const char text[] = "{\"a\": 1}garbage";

		assert_int_equal(json_parse(&root, text, 8, &err), 0);
		assert_non_null(root);
		cJSON_Delete(root);
		buf_release(&err);
	}
}

static void test_json__parse_errors(void **state)
{
	static const char *const bad[] = {
	    "",          "{",     "}",
	    "{\"a\" 1}", "[1,]",  "{\"a\":1,}",
	    "{} x",      "{}{}",  "'a'",
	    "tru",       "[\"a]", "{\"a\":\"\\x\"}",
	    "NaN",       "[01x]", "\"unterminated",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		cJSON dummy, *root = &dummy; /* must be reset to NULL */

		if (json_parse(&root, bad[i], strlen(bad[i]), &err) != AA_ERR)
			fail_msg("accepted %s", bad[i]);
		assert_null(root);
		assert_true(err.len > 0);
		buf_release(&err);
	}
}

static void test_json__parse_error_names_offset(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root;

	(void)state;
	assert_int_equal(json_parse(&root, "{\"a\": x}", 8, &err), AA_ERR);
	assert_non_null(strstr(err.ptr, "invalid JSON"));
	assert_non_null(strstr(err.ptr, "byte"));
	buf_release(&err);
}

static void test_json__raw_nul_rejected(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root;
	const char text[] = "{\"a\": \"x\0y\"}";

	(void)state;
	assert_int_equal(json_parse(&root, text, sizeof(text) - 1, &err),
	                 AA_ERR);
	assert_null(root);
	assert_non_null(strstr(err.ptr, "NUL"));
	buf_release(&err);
}

static void test_json__nul_escape_is_replacement_char(void **state)
{
	cJSON *root;

	(void)state;
	root = parse_ok("[\"a\\u0000b\", \"\\\\u0000\", \"\\\\\\u0000\", "
	                "\"\\u0000\"]");
	assert_string_equal(cJSON_GetArrayItem(root, 0)->valuestring,
	                    "a\xef\xbf\xbd"
	                    "b");
	/* an escaped backslash then "u0000" is literal text */
	assert_string_equal(cJSON_GetArrayItem(root, 1)->valuestring,
	                    "\\u0000");
	/* an escaped backslash then an escaped NUL */
	assert_string_equal(cJSON_GetArrayItem(root, 2)->valuestring,
	                    "\\\xef\xbf\xbd");
	assert_string_equal(cJSON_GetArrayItem(root, 3)->valuestring,
	                    "\xef\xbf\xbd");
	cJSON_Delete(root);
	/* in keys too */
	root = parse_ok("{\"k\\u0000\": 1}");
	assert_non_null(
	    cJSON_GetObjectItemCaseSensitive(root, "k\xef\xbf\xbd"));
	cJSON_Delete(root);
	/* outside strings "\u0000" is not an escape (and not JSON) */
}

static char *brackets(size_t depth)
{
	char *s = xmalloc(2 * depth + 1);
	size_t i;

	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[2 * depth - 1 - i] = ']';
	}
	s[2 * depth] = '\0';
	return s;
}

static void test_json__depth_limit(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root;
	char *s;

	(void)state;
	s = brackets(JSON_MAX_DEPTH);
	assert_int_equal(json_parse(&root, s, strlen(s), &err), 0);
	cJSON_Delete(root);
	free(s);

	s = brackets(JSON_MAX_DEPTH + 1);
	assert_int_equal(json_parse(&root, s, strlen(s), &err), AA_ERR);
	assert_null(root);
	assert_non_null(strstr(err.ptr, "deeper"));
	free(s);

	s = brackets(200000);
	assert_int_equal(json_parse(&root, s, strlen(s), &err), AA_ERR);
	free(s);

	/* brackets inside strings do not count */
	root =
	    parse_ok("[\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	             "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\""
	             "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"
	             "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\"]");
	cJSON_Delete(root);
	buf_release(&err);
}

/* --- jget_* --- */

static const char doc[] =
    "{\"s\": \"text\", \"n\": null, \"i\": 42, \"neg\": -3, "
    "\"f\": 1.5, \"big\": 9007199254740992, \"huge\": 9007199254740994, "
    "\"max\": 9007199254740991, "
    "\"b\": true, \"t\": \"2026-11-29T10:05:00Z\", \"tbad\": "
    "\"2026-13-01T00:00:00Z\", "
    "\"sha\": \"7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E\", \"short\": "
    "\"7e7e\", "
    "\"o\": {}, \"a\": [], \"zero\": 0, \"istr\": \"42\"}";

static void test_json__jget_str(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = parse_ok(doc);
	char *out = NULL;

	(void)state;
	assert_int_equal(jget_str(&out, root, "x", "s", 0, &err), 0);
	assert_string_equal(out, "text");
	/* a second read replaces (and frees) the first */
	assert_int_equal(jget_str(&out, root, "x", "s", 0, &err), 0);
	assert_string_equal(out, "text");

	assert_int_equal(jget_str(&out, root, "x", "missing", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "x.missing: missing");
	assert_int_equal(jget_str(&out, root, "x", "missing", JOPT, &err), 0);
	assert_string_equal(out, "text"); /* untouched */

	assert_int_equal(jget_str(&out, root, "x", "n", 0, &err), AA_ERR);
	assert_non_null(strstr(err.ptr, "x.n"));
	assert_int_equal(jget_str(&out, root, "x", "n", JOPT, &err), AA_ERR);
	assert_int_equal(jget_str(&out, root, "x", "n", JNULL, &err), 0);
	assert_string_equal(out, "text");

	assert_int_equal(
	    jget_str(&out, root, "pulls[0].comments[1]", "i", 0, &err), AA_ERR);
	assert_string_equal(err.ptr,
	                    "pulls[0].comments[1].i: expected a string");
	/* an empty path names the key alone */
	assert_int_equal(jget_str(&out, root, "", "b", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "b: expected a string");
	assert_int_equal(jget_str(&out, root, NULL, "o", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "o: expected a string");
	/* case-sensitive lookup */
	assert_int_equal(jget_str(&out, root, "x", "S", 0, &err), AA_ERR);
	/* a NULL object: the key is missing */
	assert_int_equal(jget_str(&out, NULL, "x", "s", 0, &err), AA_ERR);
	assert_int_equal(jget_str(&out, NULL, "x", "s", JOPT, &err), 0);
	free(out);
	cJSON_Delete(root);
	buf_release(&err);
}

struct int_row {
	const char *key;
	int64_t min, max;
	int want_rc;
	int64_t want;
};

static const struct int_row int_rows[] = {
    {"i", 0, 100, 0, 42},
    {"i", 42, 42, 0, 42},
    {"i", 43, 100, AA_ERR, 0},
    {"i", 0, 41, AA_ERR, 0},
    {"neg", -10, 10, 0, -3},
    {"neg", 0, 10, AA_ERR, 0},
    {"zero", 1, 10, AA_ERR, 0},
    {"zero", 0, 10, 0, 0},
    {"f", 0, 10, AA_ERR, 0},
    /* 2^53 may be a rounded 2^53 + 1: refused; 2^53 - 1 is exact. */
    {"big", 0, INT64_MAX, AA_ERR, 0},
    {"max", 0, JSON_MAX_INT, 0, JSON_MAX_INT},
    {"huge", 0, INT64_MAX, AA_ERR, 0},
    {"s", 0, 10, AA_ERR, 0},
    {"istr", 0, 100, AA_ERR, 0},
    {"b", 0, 10, AA_ERR, 0},
    {"n", 0, 10, AA_ERR, 0},
    {"missing", 0, 10, AA_ERR, 0},
    {"o", 0, 10, AA_ERR, 0},
};

static void test_json__jget_int_table(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = parse_ok(doc);
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(int_rows); i++) {
		const struct int_row *r = &int_rows[i];
		int64_t out = -777;
		int rc =
		    jget_int(&out, root, "p", r->key, 0, r->min, r->max, &err);

		if (rc != r->want_rc) {
			print_error("row %zu (%s): rc %d, expected %d\n", i,
			            r->key, rc, r->want_rc);
			bad++;
		} else if (rc == 0 && out != r->want) {
			print_error("row %zu (%s): %lld, expected %lld\n", i,
			            r->key, (long long)out, (long long)r->want);
			bad++;
		} else if (rc != 0 && !strstr(err.ptr, "p.")) {
			print_error("row %zu (%s): message \"%s\"\n", i, r->key,
			            err.ptr);
			bad++;
		}
	}
	{
		int64_t out = 5;

		assert_int_equal(
		    jget_int(&out, root, "p", "n", JNULL, 0, 9, &err), 0);
		assert_int_equal(out, 5);
		assert_int_equal(
		    jget_int(&out, root, "p", "nope", JOPT, 0, 9, &err), 0);
		assert_int_equal(out, 5);
	}
	cJSON_Delete(root);
	buf_release(&err);
	assert_int_equal(bad, 0);
}

static void test_json__jget_bool_time_sha(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = parse_ok(doc);
	bool b = false;
	int64_t t = 0;
	char sha[SHA_BUF];

	(void)state;
	assert_int_equal(jget_bool(&b, root, "p", "b", 0, &err), 0);
	assert_true(b);
	assert_int_equal(jget_bool(&b, root, "p", "i", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "p.i: expected true or false");
	assert_int_equal(jget_bool(&b, root, "p", "zero", 0, &err), AA_ERR);
	assert_int_equal(jget_bool(&b, root, "p", "s", 0, &err), AA_ERR);

	assert_int_equal(jget_time(&t, root, "p", "t", 0, &err), 0);
	assert_int_equal(t, 1795946700000LL);
	assert_int_equal(jget_time(&t, root, "p", "tbad", 0, &err), AA_ERR);
	assert_non_null(strstr(err.ptr, "p.tbad"));
	assert_int_equal(jget_time(&t, root, "p", "i", 0, &err), AA_ERR);
	assert_int_equal(jget_time(&t, root, "p", "n", JNULL, &err), 0);
	assert_int_equal(t, 1795946700000LL);

	assert_int_equal(jget_sha(sha, root, "p", "sha", 0, &err), 0);
	assert_string_equal(sha, SHA);
	assert_int_equal(jget_sha(sha, root, "p", "short", 0, &err), AA_ERR);
	assert_non_null(strstr(err.ptr, "p.short"));
	assert_int_equal(jget_sha(sha, root, "p", "i", 0, &err), AA_ERR);
	cJSON_Delete(root);
	buf_release(&err);
}

static void test_json__jget_obj_arr(void **state)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = parse_ok(doc);
	const cJSON *o = root;

	(void)state;
	assert_int_equal(jget_obj(&o, root, "p", "o", 0, &err), 0);
	assert_true(cJSON_IsObject(o));
	assert_int_equal(jget_obj(&o, root, "p", "a", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "p.a: expected an object");
	assert_null(o);
	o = root;
	assert_int_equal(jget_obj(&o, root, "p", "missing", JOPT, &err), 0);
	assert_null(o);
	o = root;
	assert_int_equal(jget_obj(&o, root, "p", "n", JNULL, &err), 0);
	assert_null(o);

	assert_int_equal(jget_arr(&o, root, "p", "a", 0, &err), 0);
	assert_true(cJSON_IsArray(o));
	assert_int_equal(jget_arr(&o, root, "p", "o", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "p.o: expected an array");
	assert_int_equal(jget_arr(&o, root, "p", "missing", 0, &err), AA_ERR);
	assert_string_equal(err.ptr, "p.missing: missing");
	cJSON_Delete(root);
	buf_release(&err);
}

static void test_json__int_value(void **state)
{
	cJSON *root = parse_ok("[5, -5, 5.5, 1e3, \"5\", 9007199254740993, "
	                       "-9007199254740991, 1e300, -9007199254740992]");
	int64_t v = 0;

	(void)state;
	assert_true(json_int_value(&v, cJSON_GetArrayItem(root, 0), 0, 10));
	assert_int_equal(v, 5);
	assert_true(json_int_value(&v, cJSON_GetArrayItem(root, 1), -5, 0));
	assert_int_equal(v, -5);
	assert_false(json_int_value(&v, cJSON_GetArrayItem(root, 1), -4, 0));
	assert_false(json_int_value(&v, cJSON_GetArrayItem(root, 2), 0, 10));
	assert_true(json_int_value(&v, cJSON_GetArrayItem(root, 3), 0, 1000));
	assert_int_equal(v, 1000);
	assert_false(json_int_value(&v, cJSON_GetArrayItem(root, 4), 0, 10));
	assert_false(
	    json_int_value(&v, cJSON_GetArrayItem(root, 7), 0, INT64_MAX));
	assert_true(
	    json_int_value(&v, cJSON_GetArrayItem(root, 6), INT64_MIN, 0));
	assert_int_equal(v, -JSON_MAX_INT);
	assert_false(
	    json_int_value(&v, cJSON_GetArrayItem(root, 8), INT64_MIN, 0));
	assert_false(json_int_value(&v, NULL, 0, 10));
	cJSON_Delete(root);
}

/* --- writer --- */

struct quote_row {
	const char *in;
	size_t n;
	const char *want;
};

static const struct quote_row quote_rows[] = {
    {LIT("plain"), "\"plain\""},
    {LIT(""), "\"\""},
    {LIT("a\"b\\c"), "\"a\\\"b\\\\c\""},
    {LIT("\n\t\r"), "\"\\n\\t\\r\""},
    {LIT("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\""},
    {LIT("\x1b[31m"), "\"\\u001b[31m\""},
    {"a\0b", 3, "\"a\\u0000b\""},
    {LIT("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
     "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""},
    {LIT("\xff"), "\"\\ufffd\""},
    {LIT("a\x80z"), "\"a\\ufffdz\""},
    {LIT("\xc0\xaf"), "\"\\ufffd\\ufffd\""},            /* overlong */
    {LIT("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""}, /* surrogate */
    {LIT("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},
    {LIT("</script>"), "\"</script>\""},
    {LIT("\xe2\x80\xa8"), "\"\xe2\x80\xa8\""},
};

static void test_json__quote_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(quote_rows); i++) {
		struct buf out = BUF_INIT(BUF_MAX_SMALL);

		json_quote(&out, quote_rows[i].in, quote_rows[i].n);
		if (strcmp(out.ptr, quote_rows[i].want) != 0) {
			print_error("row %zu: got %s, expected %s\n", i,
			            out.ptr, quote_rows[i].want);
			bad++;
		}
		buf_release(&out);
	}
	assert_int_equal(bad, 0);
}

static void test_json__quote_output_is_valid_json(void **state)
{
	/* every byte value and broken sequences: the output must parse
	 * back, be valid UTF-8 and hold no raw control character */
	char in[512];
	size_t i, n = 0;
	struct buf out = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root;

	(void)state;
	for (i = 0; i < 256; i++)
		in[n++] = (char)i;
	memcpy(in + n, "\xe2\x82\xf0\x9f\x98\xc3", 6);
	n += 6;
	json_quote(&out, in, n);
	assert_true(valid_utf8(out.ptr, out.len));
	for (i = 0; i < out.len; i++)
		assert_true((unsigned char)out.ptr[i] >= 0x20 &&
		            (unsigned char)out.ptr[i] != 0x7f);
	root = parse_ok(out.ptr);
	assert_true(cJSON_IsString(root));
	/* printable ASCII survives unchanged */
	assert_non_null(
	    strstr(root->valuestring, " !\"#$%&'()*+,-./0123456789"));
	cJSON_Delete(root);
	buf_release(&out);
}

static void write_doc(struct buf *out, bool pretty)
{
	struct jw w;

	jw_init(&w, out, pretty);
	jw_obj_begin(&w);
	jw_key(&w, "a");
	jw_int(&w, 1);
	jw_key(&w, "b");
	jw_arr_begin(&w);
	jw_bool(&w, true);
	jw_null(&w);
	jw_str(&w, "x\n");
	jw_int(&w, -9007199254740992LL);
	jw_arr_end(&w);
	jw_key(&w, "c");
	jw_obj_begin(&w);
	jw_obj_end(&w);
	jw_key(&w, "d");
	jw_arr_begin(&w);
	jw_arr_end(&w);
	jw_key(&w, "e");
	jw_str_or_null(&w, NULL);
	jw_key(&w, "f");
	jw_str_or_null(&w, "y");
	jw_key(&w, "g");
	jw_strn(&w, "abcdef", 3);
	jw_key(&w, "t");
	jw_time(&w, 1795946700250LL);
	jw_key(&w, "k\"ey");
	jw_bool(&w, false);
	jw_obj_end(&w);
}

static void test_json__writer_compact_exact(void **state)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	write_doc(&out, false);
	assert_string_equal(out.ptr,
	                    "{\"a\":1,\"b\":[true,null,\"x\\n\","
	                    "-9007199254740992],\"c\":{},\"d\":[],\"e\":null,"
	                    "\"f\":\"y\",\"g\":\"abc\","
	                    "\"t\":\"2026-11-29T10:05:00.250Z\","
	                    "\"k\\\"ey\":false}");
	buf_release(&out);
}

static void test_json__writer_pretty_exact(void **state)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	write_doc(&out, true);
	assert_string_equal(out.ptr, "{\n"
	                             "  \"a\": 1,\n"
	                             "  \"b\": [\n"
	                             "    true,\n"
	                             "    null,\n"
	                             "    \"x\\n\",\n"
	                             "    -9007199254740992\n"
	                             "  ],\n"
	                             "  \"c\": {},\n"
	                             "  \"d\": [],\n"
	                             "  \"e\": null,\n"
	                             "  \"f\": \"y\",\n"
	                             "  \"g\": \"abc\",\n"
	                             "  \"t\": \"2026-11-29T10:05:00.250Z\",\n"
	                             "  \"k\\\"ey\": false\n"
	                             "}\n");
	buf_release(&out);
}

static void test_json__writer_byte_stable(void **state)
{
	struct buf a = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root;

	(void)state;
	write_doc(&a, true);
	write_doc(&b, true);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.ptr, b.ptr, a.len);
	root = parse_ok(a.ptr);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(root, "a")->valueint,
	                 1);
	cJSON_Delete(root);
	buf_release(&a);
	buf_release(&b);
}

static void test_json__writer_top_level_values(void **state)
{
	struct buf out = BUF_INIT(BUF_MAX_SMALL);
	struct jw w;

	(void)state;
	jw_init(&w, &out, false);
	jw_arr_begin(&w);
	jw_arr_begin(&w);
	jw_arr_end(&w);
	jw_obj_begin(&w);
	jw_key(&w, "");
	jw_int(&w, 0);
	jw_obj_end(&w);
	jw_arr_end(&w);
	assert_string_equal(out.ptr, "[[],{\"\":0}]");
	buf_release(&out);
}

/* The lenient reads: absent, null, another type or no object at all
 * give NULL (false), never an error. */
static void test_json__lenient_reads(void **state)
{
	cJSON *root = parse_ok("{\"s\":\"x\",\"n\":1,\"z\":null,"
			       "\"o\":{\"t\":\"NOT_FOUND\"},"
			       "\"token\":\"ghs\"}");
	const cJSON *o = json_get(root, "o");

	(void)state;
	assert_string_equal(json_str(root, "s"), "x");
	assert_null(json_str(root, "n"));
	assert_null(json_str(root, "z"));
	assert_null(json_str(root, "missing"));
	assert_null(json_str(NULL, "s"));
	assert_null(json_get(NULL, "s"));
	assert_null(json_get(json_get(root, "s"), "t"));
	assert_true(json_is_str(json_get(o, "t"), "NOT_FOUND"));
	assert_false(json_is_str(o, "NOT_FOUND"));
	assert_false(json_is_str(json_get(root, "n"), "1"));
	assert_null(json_string(o));
	json_delete_wiping(root, "token");
	json_delete_wiping(NULL, "token");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json__parse_ok),
	    cmocka_unit_test(test_json__parse_errors),
	    cmocka_unit_test(test_json__parse_error_names_offset),
	    cmocka_unit_test(test_json__raw_nul_rejected),
	    cmocka_unit_test(test_json__nul_escape_is_replacement_char),
	    cmocka_unit_test(test_json__depth_limit),
	    cmocka_unit_test(test_json__jget_str),
	    cmocka_unit_test(test_json__jget_int_table),
	    cmocka_unit_test(test_json__jget_bool_time_sha),
	    cmocka_unit_test(test_json__jget_obj_arr),
	    cmocka_unit_test(test_json__int_value),
	    cmocka_unit_test(test_json__quote_table),
	    cmocka_unit_test(test_json__quote_output_is_valid_json),
	    cmocka_unit_test(test_json__writer_compact_exact),
	    cmocka_unit_test(test_json__writer_pretty_exact),
	    cmocka_unit_test(test_json__writer_byte_stable),
	    cmocka_unit_test(test_json__writer_top_level_values),
	    cmocka_unit_test(test_json__lenient_reads),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
