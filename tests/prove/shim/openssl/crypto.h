/*
 * A shim of <openssl/crypto.h> for Frama-C (make prove): only what
 * src/base/buf.c and src/base/json.c name. OpenSSL is trusted
 * (docs/proof.md).
 */
#ifndef AA_SHIM_OPENSSL_CRYPTO_H
#define AA_SHIM_OPENSSL_CRYPTO_H

#include <stddef.h>

/*@ requires \valid((char *)ptr + (0 .. len - 1));
    assigns ((char *)ptr)[0 .. len - 1] \from \nothing; */
void OPENSSL_cleanse(void *ptr, size_t len);

#endif
