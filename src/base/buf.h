/*
 * buf.h - the one string builder (modelled on git's strbuf and curl's dynbuf).
 *
 * A buf is always NUL-terminated and never has a NULL ptr, so it can be
 * handed to any C string function. Every buf has a ceiling set at init:
 * growing past it fails with AA_ETOOBIG instead of reallocating without
 * bound, so untrusted input can never make one grow forever.
 *
 * Ownership: the buf owns ptr; buf_release() frees it and leaves an empty
 * buf; buf_detach() is the only way to take the memory out.
 */
#ifndef AA_BUF_H
#define AA_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *ptr;    /* NUL-terminated, never NULL */
	size_t len;   /* bytes used, excluding the NUL */
	size_t alloc; /* bytes allocated; 0 while ptr is the shared empty string */
	size_t max;   /* ceiling for len */
	int error;    /* first failed append (sticky), or 0 */
};

/* Default ceiling for small strings (messages, names, URLs). */
#define BUF_MAX_SMALL ((size_t)64 * 1024)
/* Ceiling for documents this program builds or reads whole (reports,
 * snapshots, API responses): large enough for 100 comments of 65,536
 * characters each, 4 bytes per character, plus JSON escaping. */
#define BUF_MAX_DOC ((size_t)64 * 1024 * 1024)

#define BUF_INIT(max_) {buf_empty_, 0, 0, (max_), 0}
extern char buf_empty_[];

void buf_init(struct buf *b, size_t max);
void buf_release(struct buf *b);
/* Truncate to zero length, keeping the allocation; clears the error. */
void buf_reset(struct buf *b);
/* 0, or the error of the first append that failed since the buf was last
 * started afresh (AA_ETOOBIG past the ceiling). */
int buf_error(const struct buf *b);
/* Mark the document in b as failed (a part of it could not be written
 * whole): `error` becomes its sticky error unless it has one already. */
void buf_fail(struct buf *b, int error);
/* Make room for `extra` more bytes. 0, or AA_ETOOBIG past the ceiling
 * (or the buf's sticky error). */
int buf_grow(struct buf *b, size_t extra);
int buf_add(struct buf *b, const void *data, size_t len);
int buf_adds(struct buf *b, const char *s);
int buf_addch(struct buf *b, char c);
int buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Replace the contents with a formatted string (past the ceiling the
 * buf is left empty and AA_ETOOBIG returned). */
int buf_setf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Take the memory: the caller frees the result; b is left empty. */
char *buf_detach(struct buf *b, size_t *len);
/* Append a formatted string to a list of n strings (growing it by one). */
void strv_addf(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void strv_vaddf(char ***v, size_t *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* For a buf that held a secret (token, key, JWT): zero all of its memory
 * (OPENSSL_cleanse, which the compiler cannot drop), then release it. */
void buf_wipe(struct buf *b);

#endif
