/*
 * test_buf.c - the string builder: always terminated, never NULL, and a
 * ceiling that fails with AA_ETOOBIG instead of growing.
 */
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/util.h"

/* The invariants every buf keeps, whatever happened to it. */
static void assert_buf_ok(const struct buf *b)
{
	assert_non_null(b->ptr);
	assert_int_equal(b->ptr[b->len], '\0');
	assert_true(b->len <= b->max);
	if (b->alloc)
		assert_true(b->len < b->alloc);
	else
		assert_int_equal(b->len, 0);
}

static void test_buf__init_is_empty_string(void **state)
{
	struct buf a = BUF_INIT(16), b;

	(void)state;
	assert_buf_ok(&a);
	assert_string_equal(a.ptr, "");
	assert_int_equal(a.len, 0);
	assert_int_equal(a.max, 16);
	buf_init(&b, 32);
	assert_buf_ok(&b);
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.max, 32);
	/* releasing an untouched buf is fine, and twice too */
	buf_release(&a);
	buf_release(&a);
	assert_buf_ok(&a);
	assert_int_equal(a.max, 16);
	buf_release(&b);
}

static void test_buf__add_variants(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(buf_add(&b, "ab", 2), 0);
	assert_int_equal(buf_adds(&b, "cd"), 0);
	assert_int_equal(buf_addch(&b, 'e'), 0);
	assert_int_equal(buf_addf(&b, "%d-%s", 42, "x"), 0);
	assert_string_equal(b.ptr, "abcde42-x");
	assert_int_equal(b.len, 9);
	assert_int_equal(buf_add(&b, "", 0), 0);
	assert_int_equal(buf_addf(&b, "%s", ""), 0);
	assert_int_equal(b.len, 9);
	/* binary data with a NUL: len counts it, the buf stays terminated */
	assert_int_equal(buf_add(&b, "\0z", 2), 0);
	assert_int_equal(b.len, 11);
	assert_memory_equal(b.ptr + 9, "\0z", 3);
	assert_buf_ok(&b);
	buf_release(&b);
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.len, 0);
}

static void test_buf__growth_many_times(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		assert_int_equal(buf_addch(&b, (char)('a' + i % 26)), 0);
	assert_int_equal(b.len, 100000);
	assert_int_equal(b.ptr[0], 'a');
	assert_int_equal(b.ptr[99999], (char)('a' + 99999 % 26));
	assert_buf_ok(&b);
	buf_release(&b);
}

static void test_buf__ceiling_exact_fit(void **state)
{
	struct buf b = BUF_INIT(8);

	(void)state;
	assert_int_equal(buf_adds(&b, "12345678"), 0);
	assert_int_equal(b.len, 8);
	assert_string_equal(b.ptr, "12345678");
	assert_buf_ok(&b);
	buf_release(&b);
}

static void test_buf__ceiling_add_fails_intact(void **state)
{
	struct buf b = BUF_INIT(8);

	(void)state;
	assert_int_equal(buf_adds(&b, "12345"), 0);
	assert_int_equal(buf_error(&b), 0);
	assert_int_equal(buf_adds(&b, "6789"), AA_ETOOBIG);
	assert_string_equal(b.ptr, "12345");
	assert_int_equal(b.len, 5);
	assert_int_equal(buf_add(&b, "xxxxxxxxxxxxxxxxxxxxxxxx", 24),
	                 AA_ETOOBIG);
	assert_string_equal(b.ptr, "12345");
	assert_int_equal(buf_error(&b), AA_ETOOBIG);
	assert_buf_ok(&b);
	buf_release(&b);
}

/* Issue 20: a failed append is sticky. "678" fits after "12345", but the
 * "6789" before it did not land: appending it would make a document with
 * a hole in it look whole (a report missing a step, ending in its "}"). */
static void test_buf__ceiling_failure_is_sticky(void **state)
{
	struct buf b = BUF_INIT(8);

	(void)state;
	assert_int_equal(buf_adds(&b, "12345"), 0);
	assert_int_equal(buf_adds(&b, "6789"), AA_ETOOBIG);
	assert_int_equal(buf_adds(&b, "678"), AA_ETOOBIG);
	assert_int_equal(buf_addch(&b, '}'), AA_ETOOBIG);
	assert_int_equal(buf_addf(&b, "%d", 1), AA_ETOOBIG);
	assert_int_equal(buf_grow(&b, 1), AA_ETOOBIG);
	assert_string_equal(b.ptr, "12345");
	assert_int_equal(b.len, 5);
	assert_int_equal(buf_error(&b), AA_ETOOBIG);
	assert_buf_ok(&b);
	/* A new document starts afresh. */
	buf_reset(&b);
	assert_int_equal(buf_error(&b), 0);
	assert_int_equal(buf_adds(&b, "12345678"), 0);
	assert_string_equal(b.ptr, "12345678");
	assert_int_equal(buf_addch(&b, '9'), AA_ETOOBIG);
	assert_int_equal(buf_setf(&b, "%s", "ok"), 0);
	assert_int_equal(buf_error(&b), 0);
	buf_release(&b);
	assert_int_equal(buf_error(&b), 0);
	/* buf_fail marks a document whose part was cut elsewhere. */
	buf_fail(&b, AA_ERR);
	assert_int_equal(buf_adds(&b, "x"), AA_ERR);
	buf_fail(&b, AA_ETOOBIG); /* the first error stays */
	assert_int_equal(buf_error(&b), AA_ERR);
	buf_release(&b);
}

static void test_buf__ceiling_addf_fails_intact(void **state)
{
	struct buf b = BUF_INIT(10);

	(void)state;
	assert_int_equal(buf_addf(&b, "%s", "abc"), 0);
	assert_int_equal(buf_addf(&b, "%d%d", 123456, 7890), AA_ETOOBIG);
	assert_string_equal(b.ptr, "abc");
	assert_int_equal(b.len, 3);
	assert_buf_ok(&b);
	buf_release(&b);
}

static void test_buf__ceiling_grow_overflow(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(buf_adds(&b, "keep"), 0);
	/* sizes that would overflow len + extra must fail, not wrap */
	assert_int_equal(buf_grow(&b, SIZE_MAX), AA_ETOOBIG);
	buf_reset(&b);
	assert_int_equal(buf_adds(&b, "keep"), 0);
	assert_int_equal(buf_grow(&b, SIZE_MAX - 2), AA_ETOOBIG);
	buf_reset(&b);
	assert_int_equal(buf_adds(&b, "keep"), 0);
	assert_int_equal(buf_grow(&b, BUF_MAX_SMALL), AA_ETOOBIG);
	buf_reset(&b);
	assert_int_equal(buf_adds(&b, "keep"), 0);
	assert_int_equal(buf_grow(&b, BUF_MAX_SMALL - 4), 0);
	assert_int_equal(buf_grow(&b, BUF_MAX_SMALL - 3), AA_ETOOBIG);
	assert_string_equal(b.ptr, "keep");
	assert_buf_ok(&b);
	buf_release(&b);
}

static void test_buf__ceiling_zero(void **state)
{
	struct buf b = BUF_INIT(0);

	(void)state;
	assert_int_equal(buf_addch(&b, 'x'), AA_ETOOBIG);
	assert_int_equal(buf_add(&b, "", 0), 0);
	assert_string_equal(b.ptr, "");
	assert_buf_ok(&b);
	buf_release(&b);
}

static void test_buf__ceiling_of_an_empty_buf_shares_nothing(void **state)
{
	/* a failed add on an empty buf leaves the shared empty string "" */
	struct buf a = BUF_INIT(2), b = BUF_INIT(2);

	(void)state;
	assert_int_equal(buf_adds(&a, "abc"), AA_ETOOBIG);
	assert_string_equal(a.ptr, "");
	assert_int_equal(buf_adds(&b, "ab"), 0);
	assert_string_equal(a.ptr, "");
	assert_string_equal(b.ptr, "ab");
	buf_release(&a);
	buf_release(&b);
}

static void test_buf__reset_keeps_allocation(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	size_t alloc;

	(void)state;
	buf_adds(&b, "hello world");
	alloc = b.alloc;
	buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.alloc, alloc);
	buf_adds(&b, "x");
	assert_string_equal(b.ptr, "x");
	buf_release(&b);
	/* reset of an untouched buf */
	buf_reset(&b);
	assert_string_equal(b.ptr, "");
}

static void test_buf__setf_replaces(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	buf_adds(&b, "old contents");
	assert_int_equal(buf_setf(&b, "new %d", 1), 0);
	assert_string_equal(b.ptr, "new 1");
	assert_int_equal(b.len, 5);
	assert_int_equal(buf_setf(&b, "%s", ""), 0);
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(buf_setf(&b, "%s-%s", "a", "b"), 0);
	assert_string_equal(b.ptr, "a-b");
	buf_release(&b);
	/* setf on an untouched buf */
	assert_int_equal(buf_setf(&b, "x%c", 'y'), 0);
	assert_string_equal(b.ptr, "xy");
	buf_release(&b);
}

static void test_buf__setf_past_ceiling(void **state)
{
	struct buf b = BUF_INIT(4);

	(void)state;
	buf_adds(&b, "abc");
	assert_int_equal(buf_setf(&b, "%s", "too long"), AA_ETOOBIG);
	assert_buf_ok(&b);
	assert_int_equal(b.len, strlen(b.ptr));
	assert_int_equal(buf_setf(&b, "%s", "four"), 0);
	assert_string_equal(b.ptr, "four");
	buf_release(&b);
}

static void test_buf__detach(void **state)
{
	struct buf b = BUF_INIT(100);
	size_t len = 0;
	char *p;

	(void)state;
	buf_adds(&b, "owned");
	p = buf_detach(&b, &len);
	assert_string_equal(p, "owned");
	assert_int_equal(len, 5);
	/* the buf is empty, usable, and keeps its ceiling */
	assert_string_equal(b.ptr, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(b.alloc, 0);
	assert_int_equal(b.max, 100);
	assert_ptr_not_equal(b.ptr, p);
	buf_adds(&b, "again");
	assert_string_equal(p, "owned"); /* not shared with the buf */
	free(p);
	buf_release(&b);

	/* detaching an empty buf gives a freeable empty string */
	p = buf_detach(&b, &len);
	assert_non_null(p);
	assert_string_equal(p, "");
	assert_int_equal(len, 0);
	free(p);
	/* len may be NULL */
	buf_adds(&b, "z");
	p = buf_detach(&b, NULL);
	assert_string_equal(p, "z");
	free(p);
}

static void test_buf__wipe_zeroes_before_release(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	buf_adds(&b, "ghs_secret");
	buf_wipe(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.alloc, 0);
	assert_string_equal(b.ptr, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buf__init_is_empty_string),
	    cmocka_unit_test(test_buf__add_variants),
	    cmocka_unit_test(test_buf__growth_many_times),
	    cmocka_unit_test(test_buf__ceiling_exact_fit),
	    cmocka_unit_test(test_buf__ceiling_add_fails_intact),
	    cmocka_unit_test(test_buf__ceiling_failure_is_sticky),
	    cmocka_unit_test(test_buf__ceiling_addf_fails_intact),
	    cmocka_unit_test(test_buf__ceiling_grow_overflow),
	    cmocka_unit_test(test_buf__ceiling_zero),
	    cmocka_unit_test(test_buf__ceiling_of_an_empty_buf_shares_nothing),
	    cmocka_unit_test(test_buf__reset_keeps_allocation),
	    cmocka_unit_test(test_buf__setf_replaces),
	    cmocka_unit_test(test_buf__setf_past_ceiling),
	    cmocka_unit_test(test_buf__detach),
	    cmocka_unit_test(test_buf__wipe_zeroes_before_release),
	};

	return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
