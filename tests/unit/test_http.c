/*
 * test_http.c - http_request_many and a read beside a request
 * (http_read_beside) when libcurl itself fails (issue 20, item 5; P67). The test binary defines curl_multi_perform,
 * curl_multi_add_handle and curl_multi_remove_handle itself: the library
 * objects linked into it call these, which count the handles in the multi
 * handle and fail on demand, and otherwise call libcurl's own.
 *
 * Nothing is listening at the API URL (port 1 on the loopback), so every
 * request that is sent fails at once with "connection refused"; no test
 * needs a server. An alarm ends a run that hangs (a batch whose running
 * count never comes down) as a failure.
 */
#define _GNU_SOURCE
#include "unit.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <unistd.h>

#include "base/util.h"
#include "github/http.h"

static struct {
	bool fail_perform;   /* curl_multi_perform fails */
	bool fail_add;       /* curl_multi_add_handle refuses */
	long live;           /* handles added and not yet removed */
	long performs;
} shim;

typedef CURLMcode (*perform_fn)(CURLM *, int *);
typedef CURLMcode (*handle_fn)(CURLM *, CURL *);

/* libcurl's own definition of `name`, behind this binary's. */
static void *next_symbol(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p)
		fail_msg("libcurl has no %s", name);
	return p;
}

CURLMcode curl_multi_perform(CURLM *m, int *running)
{
	perform_fn real;
	void *p;

	shim.performs++;
	if (shim.fail_perform)
		return CURLM_INTERNAL_ERROR;
	p = next_symbol("curl_multi_perform");
	memcpy(&real, &p, sizeof(real));
	return real(m, running);
}

CURLMcode curl_multi_add_handle(CURLM *m, CURL *c)
{
	handle_fn real;
	void *p;
	CURLMcode rc;

	if (shim.fail_add)
		return CURLM_OUT_OF_MEMORY;
	p = next_symbol("curl_multi_add_handle");
	memcpy(&real, &p, sizeof(real));
	if ((rc = real(m, c)) == CURLM_OK)
		shim.live++;
	return rc;
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *c)
{
	handle_fn real;
	void *p;
	CURLMcode rc;

	p = next_symbol("curl_multi_remove_handle");
	memcpy(&real, &p, sizeof(real));
	if ((rc = real(m, c)) == CURLM_OK)
		shim.live--;
	return rc;
}

static struct http *client(void)
{
	struct http_config c;
	struct http *h = NULL;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	memset(&c, 0, sizeof(c));
	c.api_url = "http://127.0.0.1:1";
	c.token = "test-token";
	c.user_agent = "agentic-apply-test";
	c.connect_timeout_ms = 2000;
	c.timeout_ms = 2000;
	c.low_speed_time_s = 2;
	c.retries = 0;
	c.retry_base_ms = 1;
	c.max_wait_s = 1;
	assert_int_equal(http_new(&h, &c, &err), AA_OK);
	buf_release(&err);
	return h;
}

static void items_init(struct http_batch_item *it, size_t n)
{
	static const char *const urls[] = {"/repos/o/r/pulls/1",
					   "/repos/o/r/pulls/2",
					   "/repos/o/r/pulls/3"};
	size_t i;

	memset(it, 0, n * sizeof(*it));
	for (i = 0; i < n; i++)
		it[i].url = urls[i % 3];
}

static void items_release(struct http_batch_item *it, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		http_response_release(&it[i].resp);
		buf_release(&it[i].err);
	}
}

/* No item comes back as if answered: each failed, without a status. */
static void assert_all_failed(const struct http_batch_item *it, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		assert_int_not_equal(it[i].error, 0);
		assert_int_equal(it[i].resp.status, 0);
		assert_true(it[i].err.len > 0);
	}
}

static void reset_shim(void)
{
	memset(&shim, 0, sizeof(shim));
}

/* curl_multi_perform fails: every handle leaves the multi handle before
 * the call returns (one left in would be driven by the next batch into
 * these items), every item is a failed read, and the next batch works. */
static void test_http__failed_perform_leaves_no_handle(void **state)
{
	struct http_batch_item first[3], second[2];
	struct http *h = client();

	(void)state;
	reset_shim();
	items_init(first, 3);
	shim.fail_perform = true;
	http_request_many(h, first, 3, 2);
	assert_true(shim.performs > 0);
	assert_int_equal(shim.live, 0);
	assert_all_failed(first, 3);
	/* These items' memory is gone before the next batch runs. */
	items_release(first, 3);
	memset(first, 0xA5, sizeof(first));

	shim.fail_perform = false;
	items_init(second, 2);
	http_request_many(h, second, 2, 2);
	assert_int_equal(shim.live, 0);
	assert_all_failed(second, 2);
	items_release(second, 2);
	http_free(h);
}

/* curl_multi_add_handle refuses: the item is never counted as running
 * (the batch would wait for it forever), fails, and takes the careful
 * path; nothing is left in the multi handle. */
static void test_http__refused_add_handle_fails_the_item(void **state)
{
	struct http_batch_item it[3];
	struct http *h = client();

	(void)state;
	reset_shim();
	items_init(it, 3);
	shim.fail_add = true;
	http_request_many(h, it, 3, 2);
	assert_int_equal(shim.live, 0);
	assert_all_failed(it, 3);
	items_release(it, 3);
	http_free(h);
}

/* A batch that libcurl runs to the end: each item answered by libcurl
 * (here a refused connection), no handle left behind. */
static void test_http__batch_without_failures_leaves_no_handle(void **state)
{
	struct http_batch_item it[3];
	struct http *h = client();

	(void)state;
	reset_shim();
	items_init(it, 3);
	http_request_many(h, it, 3, 3);
	assert_true(shim.performs > 0);
	assert_int_equal(shim.live, 0);
	assert_all_failed(it, 3);
	items_release(it, 3);
	http_free(h);
}

/* --- a read beside the next request (http_read_beside) --- */

static const char beside_url[] = "/graphql-beside";
static const char beside_body[] = "{\"query\":\"{viewer{login}}\"}";

static long requests(const struct http *h)
{
	return http_stats(h)->requests;
}

/* One request of h (a write when `write`, else the beside read itself):
 * nothing listens, so it fails; its response holds no status. */
static void send_one(struct http *h, bool write)
{
	struct http_response r;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	http_response_init(&r);
	assert_int_equal(write ? http_request(h, "POST", "/repos/o/r/statuses/x",
	                                      "{}", false, &r, &err)
	                       : http_request(h, "POST", beside_url,
	                                      beside_body, true, &r, &err),
	                 AA_EAPI);
	assert_int_equal(r.status, 0);
	assert_true(err.len > 0);
	http_response_release(&r);
	buf_release(&err);
}

/* A client with the beside read waiting, the shim reset. */
static struct http *beside_client(void)
{
	struct http *h = client();

	reset_shim();
	http_read_beside(h, beside_url, beside_body);
	return h;
}

/* The read itself comes first: it goes out once, as itself. */
static void test_http__beside_read_sent_as_itself(void **state)
{
	struct http *h = beside_client();

	(void)state;
	send_one(h, false);
	assert_int_equal(requests(h), 1);
	assert_int_equal(shim.live, 0);
	http_free(h);
}

/* A write carries it: two exchanges, no handle left in the multi handle;
 * an answer that is not clean (here refused) is sent again. */
static void test_http__beside_rides_with_a_write(void **state)
{
	struct http *h = beside_client();

	(void)state;
	send_one(h, true);
	assert_true(shim.performs > 0);
	assert_int_equal(shim.live, 0);
	assert_int_equal(requests(h), 2);
	send_one(h, false);
	assert_int_equal(requests(h), 3);
	http_free(h);
}

/* libcurl fails under the pair: the write has no answer (the caller
 * re-reads), no handle is left, the read is sent again later. */
static void test_http__beside_failed_perform(void **state)
{
	struct http *h = beside_client();

	(void)state;
	shim.fail_perform = true;
	send_one(h, true);
	assert_int_equal(shim.live, 0);
	shim.fail_perform = false;
	send_one(h, false);
	assert_int_equal(shim.live, 0);
	http_free(h);
}

/* The multi handle refuses the read: the write goes alone, once. */
static void test_http__beside_refused_write_alone(void **state)
{
	struct http *h = beside_client();

	(void)state;
	shim.fail_add = true;
	send_one(h, true);
	assert_int_equal(requests(h), 1);
	assert_int_equal(shim.live, 0);
	http_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http__failed_perform_leaves_no_handle),
		cmocka_unit_test(test_http__refused_add_handle_fails_the_item),
		cmocka_unit_test(
			test_http__batch_without_failures_leaves_no_handle),
		cmocka_unit_test(test_http__beside_read_sent_as_itself),
		cmocka_unit_test(test_http__beside_rides_with_a_write),
		cmocka_unit_test(test_http__beside_failed_perform),
		cmocka_unit_test(test_http__beside_refused_write_alone),
	};
	int rc;

	alarm(30);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return 1;
	rc = cmocka_run_group_tests_name("http", tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}
