/*
 * test_github_app.c - the GitHub App JWT: RS256 over base64url(header) "."
 * base64url(claims), verifiable with the public key; bad keys refused with
 * a message that never quotes them.
 */
#include "unit.h"

#include <stdlib.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "github/app.h"
#include "base/util.h"

static EVP_PKEY *key;
static char *pem;

static int setup(void **state)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *data;
	long n;

	(void)state;
	key = EVP_RSA_gen(2048);
	if (!key || !b || !PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL,
						    NULL))
		return -1;
	n = BIO_get_mem_data(b, &data);
	pem = malloc((size_t)n + 1);
	memcpy(pem, data, (size_t)n);
	pem[n] = '\0';
	BIO_free(b);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	EVP_PKEY_free(key);
	free(pem);
	return 0;
}

static int b64url_val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

/* Decode base64url (no padding); returns the length. */
static size_t b64url_decode(unsigned char *out, const char *s, size_t n)
{
	size_t i, o = 0;
	unsigned v = 0;
	int bits = 0;

	for (i = 0; i < n; i++) {
		int d = b64url_val(s[i]);

		assert_true(d >= 0);
		v = (v << 6) | (unsigned)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(v >> bits);
		}
	}
	return o;
}

static void test_github_app__jwt_verifies_with_the_public_key(void **state)
{
	struct buf jwt = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	unsigned char part[1024], sig[1024];
	const char *dot1, *dot2;
	size_t n, siglen;
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	(void)state;
	assert_int_equal(github_app_jwt(&jwt, "4242", pem, 1764410400, &err), 0);
	dot1 = strchr(jwt.ptr, '.');
	assert_non_null(dot1);
	dot2 = strchr(dot1 + 1, '.');
	assert_non_null(dot2);
	assert_null(strchr(dot2 + 1, '.'));
	assert_null(strchr(jwt.ptr, '='));

	n = b64url_decode(part, jwt.ptr, (size_t)(dot1 - jwt.ptr));
	part[n] = '\0';
	assert_string_equal((char *)part, "{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
	n = b64url_decode(part, dot1 + 1, (size_t)(dot2 - dot1 - 1));
	part[n] = '\0';
	assert_string_equal((char *)part,
			    "{\"iat\":1764410340,\"exp\":1764410940,\"iss\":\"4242\"}");

	siglen = b64url_decode(sig, dot2 + 1, strlen(dot2 + 1));
	assert_int_equal(siglen, 256);
	assert_int_equal(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key), 1);
	assert_int_equal(EVP_DigestVerify(md, sig, siglen,
					  (const unsigned char *)jwt.ptr,
					  (size_t)(dot2 - jwt.ptr)),
			 1);
	/* A changed byte breaks it. */
	jwt.ptr[3] ^= 1;
	assert_int_not_equal(EVP_DigestVerify(md, sig, siglen,
					      (const unsigned char *)jwt.ptr,
					      (size_t)(dot2 - jwt.ptr)),
			     1);
	EVP_MD_CTX_free(md);
	buf_wipe(&jwt);
	buf_release(&err);
}

static void test_github_app__bad_keys_and_ids_are_refused(void **state)
{
	static const char *const bad_keys[] = {
		"", "not a key",
		"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
	};
	struct buf jwt = BUF_INIT(BUF_MAX_SMALL), err = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++) {
		buf_reset(&err);
		assert_int_equal(github_app_jwt(&jwt, "4242", bad_keys[i], 1, &err),
				 AA_EUSAGE);
		assert_int_equal(jwt.len, 0);
		assert_non_null(strstr(err.ptr, "AGENTIC_APP_PRIVATE_KEY"));
		if (bad_keys[i][0])
			assert_null(strstr(err.ptr, bad_keys[i]));
	}
	buf_reset(&err);
	assert_int_equal(github_app_jwt(&jwt, "42\",\"x\":\"", pem, 1, &err),
			 AA_EUSAGE);
	assert_non_null(strstr(err.ptr, "AGENTIC_APP_ID"));
	buf_wipe(&jwt);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_github_app__jwt_verifies_with_the_public_key),
		cmocka_unit_test(test_github_app__bad_keys_and_ids_are_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
