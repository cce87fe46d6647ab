/*
 * util.c - allocation that aborts on exhaustion, checked size arithmetic,
 * ASCII comparisons and the one ISO-8601 form GitHub uses.
 */
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

static void die_oom(size_t size)
{
	fprintf(stderr, "agentic-apply: out of memory (%zu bytes)\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die_oom(st_mult(nmemb, size));
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(st_add(n, 1));

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

size_t st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b) {
		fprintf(stderr, "agentic-apply: size overflow\n");
		abort();
	}
	return a + b;
}

size_t st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b) {
		fprintf(stderr, "agentic-apply: size overflow\n");
		abort();
	}
	return a * b;
}

void *alloc_grow(void *p, size_t want, size_t *alloc, size_t size)
{
	size_t n = *alloc < 8 ? 8 : *alloc;

	if (want <= *alloc)
		return p;
	while (n < want)
		n = st_mult(n, 2);
	p = xrealloc(p, st_mult(n, size));
	*alloc = n;
	return p;
}

void sha256_hex_parts(char out[SHA256_HEX_BUF], const void *const *parts,
		      const size_t *lens, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		abort(); /* OpenSSL cannot hash: nothing sensible to do */
	for (size_t k = 0; k < n; k++)
		if (EVP_DigestUpdate(ctx, parts[k], lens[k]) != 1)
			abort();
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1)
		abort();
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < mdlen && i < 32; i++) {
		out[(size_t)i * 2] = hex[md[i] >> 4];
		out[(size_t)i * 2 + 1] = hex[md[i] & 15];
	}
	out[(size_t)i * 2] = '\0';
}

void sha1_hex(char out[SHA1_HEX_BUF], const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (EVP_Digest(data, len, md, &mdlen, EVP_sha1(), NULL) != 1)
		abort(); /* OpenSSL cannot hash: nothing sensible to do */
	for (i = 0; i < mdlen && i < 20; i++) {
		out[(size_t)i * 2] = hex[md[i] >> 4];
		out[(size_t)i * 2 + 1] = hex[md[i] & 15];
	}
	out[(size_t)i * 2] = '\0';
}

void sha256_hex(char out[SHA256_HEX_BUF], const void *data, size_t len)
{
	sha256_hex_parts(out, &data, &len, 1);
}

bool str_eq_nocase(const char *a, const char *b)
{
	/* The WP proof's loop invariants (docs/proof.md), in the model only
	 * tests/prove/wp.sh includes: EVA's runs over this file skip them. */
#ifdef AA_UTIL_SPEC_H
	/*@ loop invariant 0 <= a - \at(a, Pre) <= strlen(\at(a, Pre));
	    loop invariant b - \at(b, Pre) == a - \at(a, Pre);
	    loop invariant a - \at(a, Pre) <= strlen(\at(b, Pre));
	    loop invariant \base_addr(a) == \base_addr(\at(a, Pre));
	    loop invariant \base_addr(b) == \base_addr(\at(b, Pre));
	    loop invariant NoCasePrefix((char *)\at(a, Pre),
	      (char *)\at(b, Pre), a - \at(a, Pre));
	    loop assigns a, b;
	    loop variant strlen(\at(a, Pre)) - (a - \at(a, Pre)); */
#endif
	for (; *a && *b; a++, b++)
		if (to_lower((unsigned char)*a) != to_lower((unsigned char)*b))
			return false;
	return *a == *b;
}

bool mem_eq_nocase(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen; i++) {
		if (!b[i])
			return false;
		if (to_lower((unsigned char)a[i]) != to_lower((unsigned char)b[i]))
			return false;
	}
	return b[alen] == '\0';
}

const char *mem_find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, k) == 0)
			return hay + i;
	return NULL;
}

bool mem_contains(const char *hay, size_t n, const char *needle)
{
	return mem_find(hay, n, needle) != NULL;
}

void strv_free(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool sha_parse(char *out, const char *s, size_t len)
{
	size_t i;

	if (len != SHA_HEX_LEN)
		return false;
	for (i = 0; i < SHA_HEX_LEN; i++)
		if (!is_hex((unsigned char)s[i]))
			return false;
	if (out) {
		for (i = 0; i < SHA_HEX_LEN; i++)
			out[i] = (char)to_lower((unsigned char)s[i]);
		out[SHA_HEX_LEN] = '\0';
	}
	return true;
}

/* One part of OWNER/NAME: 1..max of GitHub's characters, not "." or "..". */
static bool repo_part_valid(const char *s, size_t n, size_t max)
{
	size_t i;

	if (n == 0 || n > max || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (i = 0; i < n; i++)
		if (!is_alnum((unsigned char)s[i]) && s[i] != '-' &&
		    s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

bool repo_name_valid(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash &&
	       repo_part_valid(s, (size_t)(slash - s), REPO_MAX_OWNER) &&
	       repo_part_valid(slash + 1, strlen(slash + 1), REPO_MAX_NAME);
}

int parse_decimal(int64_t *out, const char *s, size_t len, int64_t max)
{
	int64_t v = 0;
	size_t i;

	if (len == 0)
		return AA_ERR;
	for (i = 0; i < len; i++) {
		if (!is_digit((unsigned char)s[i]))
			return AA_ERR;
		if (v > (max - (s[i] - '0')) / 10)
			return AA_ERR;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return AA_OK;
}

/* Decimal digits of 1..3 characters worth at most 255; *v their value. */
static bool octet(const char *s, size_t n, int64_t *v)
{
	return n >= 1 && n <= 3 && parse_decimal(v, s, n, 255) == 0;
}

/* The one parser of an authority (A8, G1): what url_authority says. */
bool url_authority(const char *a, size_t n, size_t *host_len)
{
	size_t i = 0, k;

	if (n && a[0] == '[') {
		while (i < n && a[i] != ']')
			i++;
		if (i == n || i < 3)
			return false;
		for (k = 1; k < i; k++)
			if (!is_hex((unsigned char)a[k]) && a[k] != ':' &&
			    a[k] != '.')
				return false;
		i++;
	} else {
		while (i < n && (is_alnum((unsigned char)a[i]) || a[i] == '-' ||
				 a[i] == '.'))
			i++;
		if (i == 0)
			return false;
	}
	*host_len = i;
	if (i == n)
		return true;
	if (a[i] != ':' || n - i - 1 < 1 || n - i - 1 > 5)
		return false;
	for (i++; i < n; i++)
		if (!is_digit((unsigned char)a[i]))
			return false;
	return true;
}

/* 127.0.0.0/8 as four dotted decimal octets, localhost, or [::1]. */
bool host_is_loopback(const char *h, size_t n)
{
	size_t i, start = 0, parts = 0;
	int64_t v, first = -1;

	if (mem_eq_nocase(h, n, "localhost") ||
	    (n == 5 && memcmp(h, "[::1]", 5) == 0))
		return true;
	for (i = 0; i <= n; i++) {
		if (i < n && h[i] != '.')
			continue;
		if (!octet(h + start, i - start, &v) || ++parts > 4)
			return false;
		if (first < 0)
			first = v;
		start = i + 1;
	}
	return parts == 4 && first == 127;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int fixed_digits(const char *s, int n, int *out)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return AA_ERR;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return AA_OK;
}

int time_parse(int64_t *out, const char *s)
{
	static const unsigned mdays[] = {31, 29, 31, 30, 31, 30,
					 31, 31, 30, 31, 30, 31};
	int y, mo, d, h, mi, sec, ms = 0, scale = 100;
	const char *p;
	bool leap;

	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return AA_ERR;
	if (fixed_digits(s, 4, &y) || fixed_digits(s + 5, 2, &mo) ||
	    fixed_digits(s + 8, 2, &d) || fixed_digits(s + 11, 2, &h) ||
	    fixed_digits(s + 14, 2, &mi) || fixed_digits(s + 17, 2, &sec))
		return AA_ERR;
	p = s + 19;
	if (*p == '.') {
		if (!is_digit((unsigned char)p[1]))
			return AA_ERR;
		for (p++; is_digit((unsigned char)*p); p++) {
			ms += (*p - '0') * scale;
			scale /= 10;
		}
	}
	if (p[0] != 'Z' || p[1] != '\0')
		return AA_ERR;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 ||
	    (unsigned)d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
	    h > 23 || mi > 59 || sec > 60)
		return AA_ERR;
	*out = ((days_from_civil(y, (unsigned)mo, (unsigned)d) * 24 + h) * 60 +
		mi) * 60000 +
	       (int64_t)sec * 1000 + ms;
	return AA_OK;
}

void time_format(char out[32], int64_t ms)
{
	int64_t days = ms / 86400000, rem = ms % 86400000, y;
	unsigned m, d;
	int n;

	if (rem < 0) {
		rem += 86400000;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (rem % 1000)
		n = snprintf(out, 32, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ",
			     (long long)y, m, d, (int)(rem / 3600000),
			     (int)(rem / 60000 % 60), (int)(rem / 1000 % 60),
			     (int)(rem % 1000));
	else
		n = snprintf(out, 32, "%04lld-%02u-%02uT%02d:%02d:%02dZ",
			     (long long)y, m, d, (int)(rem / 3600000),
			     (int)(rem / 60000 % 60), (int)(rem / 1000 % 60));
	if (n < 0 || n >= 32)
		out[0] = '\0'; /* a year beyond 9999: never a GitHub time */
}

int64_t clock_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool ref_name_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 255)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] == 0x7f)
			return false;
	return true;
}

/* Edit distance of two short names, case, "-" and "_" folded. */
size_t name_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64], prev, tmp;

	if (la >= 63 || lb >= 63)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int ca = a[i - 1] == '-'
			             ? '_'
			             : to_lower((unsigned char)a[i - 1]);
			int cb = b[j - 1] == '-'
			             ? '_'
			             : to_lower((unsigned char)b[j - 1]);
			size_t best = prev + (ca != cb);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

bool name_near(size_t d, const char *known)
{
	return d <= 1 + strlen(known) / 4;
}
