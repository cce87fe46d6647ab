/*
 * util.h - allocation, overflow-checked sizes, ASCII helpers and times.
 *
 * Out of memory is not an error this program can recover from: the x*alloc
 * helpers abort. Everything else reports errors by return value.
 */
#ifndef AA_UTIL_H
#define AA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Error codes shared by every module: 0 is success, errors are negative. */
#define AA_OK 0
#define AA_ERR (-1)       /* generic failure, message already produced */
#define AA_ETOOBIG (-2)   /* a named ceiling was reached */
#define AA_ENOTFOUND (-3) /* the thing asked for does not exist */
#define AA_EAPI (-4)      /* GitHub API or transport failure */
#define AA_EUSAGE (-5)    /* usage or configuration error */
#define AA_EREJECTED (-6) /* GitHub refused the content (HTTP 422) */
#define AA_EDENIED (-7)   /* the credential may not read it (HTTP 401/403) */

/* A full commit SHA: 40 lower-case hex digits plus NUL. */
#define SHA_HEX_LEN 40
#define SHA_BUF (SHA_HEX_LEN + 1)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* xstrdup that maps NULL to NULL. */
char *xstrdup_or_null(const char *s);

/* a + b and a * b, aborting on overflow (a size that overflows is a bug or
 * an attack, never something to continue with). */
size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);

/*
 * The one growth rule for arrays (git's ALLOC_GROW): grow the array `x`,
 * with `alloc` elements allocated, so that it holds at least `want`; the
 * allocation at least doubles, so n pushes cost O(n) copies in all.
 * ALLOC_PUSH appends one zeroed element to `x` (`nr` used) and is an
 * expression: the new element's address.
 */
#define ALLOC_GROW(x, want, alloc)                                         \
	((x) = alloc_grow((x), (want), &(alloc), sizeof(*(x))))
#define ALLOC_PUSH(x, nr, alloc)                                           \
	(ALLOC_GROW(x, st_add((nr), 1), alloc),                            \
	 memset(&(x)[(nr)], 0, sizeof(*(x))), &(x)[(nr)++])
/* ALLOC_GROW's body: p itself when *alloc >= want. */
void *alloc_grow(void *p, size_t want, size_t *alloc, size_t size);

/* A SHA-256 in lower-case hex, plus NUL. */
#define SHA256_HEX_BUF 65
/* The SHA-256 of len bytes at data, in hex. */
void sha256_hex(char out[SHA256_HEX_BUF], const void *data, size_t len);
/* The SHA-256 of n pieces laid end to end (piece i: lens[i] bytes). */
void sha256_hex_parts(char out[SHA256_HEX_BUF], const void *const *parts,
		      const size_t *lens, size_t n);

/* A SHA-1 in lower-case hex, plus NUL: only for ids GitLab derives
 * that way (a discussion's), never for integrity. */
#define SHA1_HEX_BUF 41
void sha1_hex(char out[SHA1_HEX_BUF], const void *data, size_t len);

/* ASCII-only, locale-independent character tests. */
static inline bool is_ws(int c) { return c == ' ' || c == '\t'; }
static inline bool is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline bool is_alnum(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline int to_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* ASCII case-insensitive equality of two NUL-terminated strings. */
bool str_eq_nocase(const char *a, const char *b);
/* ASCII case-insensitive equality of a counted string and a C string. */
bool mem_eq_nocase(const char *a, size_t alen, const char *b);
/* Does the n bytes at hay contain the C string needle? */
bool mem_contains(const char *hay, size_t n, const char *needle);
/* The first occurrence of needle (non-empty) in hay[0..n), or NULL. */
const char *mem_find(const char *hay, size_t n, const char *needle);
/* Free a NULL-terminated-or-counted list of strings. */
void strv_free(char **v, size_t n);

/*
 * Is s exactly 40 hex digits? If so and out is not NULL, store the
 * lower-cased SHA in out (SHA_BUF bytes).
 */
bool sha_parse(char *out, const char *s, size_t len);

/*
 * Times are milliseconds since the epoch (UTC). time_parse accepts exactly
 * "YYYY-MM-DDTHH:MM:SS[.fff…]Z" and rejects impossible dates.
 */
int time_parse(int64_t *out, const char *s);
/* Writes "YYYY-MM-DDTHH:MM:SSZ" (fractions are kept when non-zero). */
void time_format(char out[32], int64_t ms);
/*
 * The program's two clocks, read nowhere else: the wall clock (ms since
 * the epoch: what GitHub's times are compared with) and a monotonic one
 * (ms from an arbitrary start: what timeouts and waits are measured on).
 * A replay never reads either: its port has the snapshot's clock.
 */
int64_t clock_wall_ms(void);
int64_t clock_mono_ms(void);

/* GitHub's limits: an owner (user or organization) has at most 39
 * characters, a repository name at most 100. */
#define REPO_MAX_OWNER 39
#define REPO_MAX_NAME 100
/* A8: is s an OWNER/NAME repository name: each part of A-Z a-z 0-9 - _ .
 * within the limits above, neither part "." or ".."? */
bool repo_name_valid(const char *s);
/* A branch name as this program accepts one: 1 to 255 bytes, none of them
 * whitespace or a control character. */
bool ref_name_valid(const char *s);

/*
 * Parse s (len bytes, all of them decimal digits, at least one) into an
 * integer of at most max ("0" included: callers that need a positive
 * number check it). Returns 0 or AA_ERR.
 */
int parse_decimal(int64_t *out, const char *s, size_t len, int64_t max);

/*
 * An authority "HOST[:PORT]": HOST is letters, digits, '-' and '.', or a
 * bracketed IPv6 address (hex digits, ':' and '.'); PORT one to five
 * digits. *host_len is HOST's length, brackets included. Anything else
 * (user info, percent signs, backslashes) is refused rather than parsed,
 * so no other parser (libcurl's) can read a different host out of the
 * same text. Callers add their own limits (length, port range).
 */
bool url_authority(const char *a, size_t n, size_t *host_len);

/* 127.0.0.0/8 as four dotted decimal octets, localhost, or [::1]: the
 * hosts plain http may name (A8, G1). */
bool host_is_loopback(const char *h, size_t n);

/* The edit distance of two short names, case folded and "-" read as "_"
 * (SIZE_MAX past 62 bytes): what "did you mean" messages rank by. */
size_t name_distance(const char *a, const char *b);
/* A few edits, fewer for short names: "did you mean", not a guess. */
bool name_near(size_t d, const char *known);

#endif
