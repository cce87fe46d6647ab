/*
 * buf.c - a growable, always-terminated string with a hard ceiling.
 */
#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "base/util.h"

char buf_empty_[1];

void buf_init(struct buf *b, size_t max)
{
	b->ptr = buf_empty_;
	b->len = 0;
	b->alloc = 0;
	b->max = max;
	b->error = 0;
}

/* A buf owns its block when alloc is not 0; ptr is then never buf_empty_.
 * buf_release and buf_grow test both, for the EVA run of make prove, which
 * does not relate the two fields (docs/proof-alarms-json.md). */
void buf_release(struct buf *b)
{
	if (b->alloc && b->ptr != buf_empty_)
		free(b->ptr);
	buf_init(b, b->max);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->error = 0;
	if (b->alloc)
		b->ptr[0] = '\0';
}

int buf_error(const struct buf *b)
{
	return b->error;
}

void buf_fail(struct buf *b, int error)
{
	if (!b->error)
		b->error = error < 0 ? error : AA_ERR;
}

int buf_grow(struct buf *b, size_t extra)
{
	size_t want, n;

	if (b->error)
		return b->error;
	if (extra > b->max || b->len > b->max - extra)
		return b->error = AA_ETOOBIG;
	want = st_add(st_add(b->len, extra), 1);
	if (want <= b->alloc)
		return AA_OK;
	n = b->alloc ? b->alloc : 64;
	while (n < want)
		n = st_mult(n, 2);
	if (n > b->max + 1 && want <= b->max + 1)
		n = b->max + 1;
	if (b->alloc && b->ptr != buf_empty_) {
		b->ptr = xrealloc(b->ptr, n);
	} else {
		b->ptr = xmalloc(n);
		b->ptr[0] = '\0';
	}
	b->alloc = n;
	return AA_OK;
}

int buf_add(struct buf *b, const void *data, size_t len)
{
	int error;

	if (len == 0)
		return AA_OK;
	if ((error = buf_grow(b, len)) < 0)
		return error;
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return AA_OK;
}

int buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_addch(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n, error;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 && !b->error)
		b->error = AA_ERR;
	if (n < 0)
		return b->error;
	if ((error = buf_grow(b, (size_t)n)) < 0)
		return error;
	if (vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap) != n) {
		b->ptr[b->len] = '\0';
		return b->error = AA_ERR;
	}
	b->len += (size_t)n;
	return AA_OK;
}

int buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int error;

	va_start(ap, fmt);
	error = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return error;
}

int buf_setf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int error;

	buf_reset(b);
	va_start(ap, fmt);
	error = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return error;
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *p;

	if (len)
		*len = b->len;
	p = b->alloc ? b->ptr : xstrdup("");
	buf_init(b, b->max);
	return p;
}

void strv_vaddf(char ***v, size_t *n, const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	buf_vaddf(&b, fmt, ap);
	*v = xrealloc(*v, st_mult(*n + 1, sizeof(char *)));
	(*v)[(*n)++] = buf_detach(&b, NULL);
}

void strv_addf(char ***v, size_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_vaddf(v, n, fmt, ap);
	va_end(ap);
}

void buf_wipe(struct buf *b)
{
	if (b->alloc)
		OPENSSL_cleanse(b->ptr, b->alloc);
	buf_release(b);
}
