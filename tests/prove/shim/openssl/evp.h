/*
 * A shim of <openssl/evp.h> for Frama-C (make prove): only what
 * src/base/util.c names, so that its ASCII and number helpers are analysed
 * from their real source. OpenSSL is trusted (docs/proof.md); the hash is
 * never reached by the parsers the EVA run covers.
 */
#ifndef AA_SHIM_OPENSSL_EVP_H
#define AA_SHIM_OPENSSL_EVP_H

#include <stddef.h>

#define EVP_MAX_MD_SIZE 64
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;

/*@ assigns \result \from \nothing; */
EVP_MD_CTX *EVP_MD_CTX_new(void);
/*@ assigns \nothing; */
void EVP_MD_CTX_free(EVP_MD_CTX *ctx);
/*@ assigns \result \from \nothing; */
const EVP_MD *EVP_sha256(void);
/*@ assigns \result \from ctx, type; */
int EVP_DigestInit_ex(EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl);
/*@ assigns \result \from ctx, cnt; */
int EVP_DigestUpdate(EVP_MD_CTX *ctx, const void *d, size_t cnt);
/*@ requires \valid(md + (0 .. EVP_MAX_MD_SIZE - 1)) && \valid(s);
    assigns md[0 .. EVP_MAX_MD_SIZE - 1], *s, \result \from ctx;
    ensures *s <= EVP_MAX_MD_SIZE; */
int EVP_DigestFinal_ex(EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s);

#endif
