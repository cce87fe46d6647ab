/*
 * app.c - the App's JWT (RFC 7519, RS256 per RFC 7518 §3.3), built with
 * OpenSSL's EVP interface. The token exchange itself is in app_token.c,
 * beside the live port's HTTP clients.
 */
#include "github/app.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "base/util.h"

static void base64url(struct buf *out, const unsigned char *p, size_t n)
{
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
				  "vwxyz0123456789-_";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		buf_addch(out, tbl[p[i] >> 2]);
		buf_addch(out, tbl[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		buf_addch(out, tbl[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)]);
		buf_addch(out, tbl[p[i + 2] & 63]);
	}
	if (n - i == 1) {
		buf_addch(out, tbl[p[i] >> 2]);
		buf_addch(out, tbl[(p[i] & 3) << 4]);
	} else if (n - i == 2) {
		buf_addch(out, tbl[p[i] >> 2]);
		buf_addch(out, tbl[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		buf_addch(out, tbl[(p[i + 1] & 15) << 2]);
	}
}

static bool app_id_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 64)
		return false;
	for (i = 0; i < n; i++)
		if (!is_alnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

int github_app_jwt(struct buf *out, const char *app_id, const char *key_pem,
		   int64_t now_s, struct buf *err)
{
	struct buf claims = BUF_INIT(BUF_MAX_SMALL);
	unsigned char *sig = NULL;
	size_t siglen = 0;
	EVP_PKEY *key = NULL;
	EVP_MD_CTX *md = NULL;
	BIO *bio = NULL;
	int error = AA_EUSAGE;

	buf_reset(out);
	if (!app_id_valid(app_id)) {
		buf_setf(err, "AGENTIC_APP_ID: not an App id or client id");
		goto out;
	}
	bio = BIO_new_mem_buf(key_pem, -1);
	if (!bio || !(key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL)) ||
	    EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
		buf_setf(err, "AGENTIC_APP_PRIVATE_KEY: not an RSA private key "
			      "in PEM");
		goto out;
	}
	base64url(out, (const unsigned char *)"{\"alg\":\"RS256\",\"typ\":\"JWT\"}",
		  27);
	buf_addch(out, '.');
	buf_addf(&claims, "{\"iat\":%lld,\"exp\":%lld,\"iss\":\"%s\"}",
		 (long long)(now_s - APP_JWT_SKEW_S),
		 (long long)(now_s + APP_JWT_TTL_S), app_id);
	base64url(out, (const unsigned char *)claims.ptr, claims.len);
	if (!(md = EVP_MD_CTX_new()) ||
	    EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1 ||
	    EVP_DigestSign(md, NULL, &siglen, (const unsigned char *)out->ptr,
			   out->len) != 1) {
		buf_setf(err, "signing the App's JWT failed");
		goto out;
	}
	sig = xmalloc(siglen);
	if (EVP_DigestSign(md, sig, &siglen, (const unsigned char *)out->ptr,
			   out->len) != 1) {
		buf_setf(err, "signing the App's JWT failed");
		goto out;
	}
	buf_addch(out, '.');
	base64url(out, sig, siglen);
	error = AA_OK;
out:
	if (error)
		buf_reset(out);
	free(sig);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(key);
	BIO_free(bio);
	buf_release(&claims);
	return error;
}
