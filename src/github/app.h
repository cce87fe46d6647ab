/*
 * app.h - authenticating as a GitHub App (issue "Security", item 5):
 * a JWT signed RS256 with the App's private key, exchanged for an
 * installation token. Everything secret here lives in its own buffer and
 * is wiped (OPENSSL_cleanse) before it is freed; nothing is ever logged.
 */
#ifndef AA_GITHUB_APP_H
#define AA_GITHUB_APP_H

#include <stdint.h>

#include "base/buf.h"

/* How long a JWT is valid (GitHub allows at most 10 minutes), and how far
 * back iat is set to absorb clock skew (GitHub's advice: 60 s). */
#define APP_JWT_TTL_S 540
#define APP_JWT_SKEW_S 60
/* Refresh an installation token this long before it expires. */
#define APP_REFRESH_BEFORE_S 300

/*
 * out = "<header>.<claims>.<signature>" (base64url, no padding) with claims
 * {"iat": now - skew, "exp": now + ttl, "iss": app_id}. `key_pem` is an RSA
 * private key in PEM. 0, or AA_EUSAGE (bad key) with a message in err that
 * never quotes the key. `out` is secret: buf_wipe() it (base/buf.h).
 */
int github_app_jwt(struct buf *out, const char *app_id, const char *key_pem,
		   int64_t now_s, struct buf *err);

#endif
