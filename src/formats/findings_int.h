/*
 * findings_int.h - what findings.c and findings_entries.c (the tables of
 * §3's objects and the rules between their members) and findings_read.c
 * (the JSON pointer, messages, I6's normalisation and the typed member
 * readers) share.
 * Private to them.
 */
#ifndef AA_FINDINGS_INT_H
#define AA_FINDINGS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "base/buf.h"
#include "base/util.h"
#include "core/review.h"

/* The parse of one document. */
struct fi_ctx {
	struct review_input *in;
	bool local;          /* mode "local" allowed */
	size_t max_findings;
	struct buf ptr;      /* the JSON pointer of the value being read */
	struct buf *err;
	size_t cur;          /* index of the array element being read */
	int emoji;           /* the finding's severity_emoji, -1 when none */
};

/* How a string is normalised and checked (fi_check_text). */
#define T_RAW 1u   /* normalised as evidence and details are */
#define T_EMPTY 2u /* may be empty */
#define T_LINE 4u  /* one line */
#define T_CP 8u    /* `max` counts code points, not bytes */

struct text_rule {
	unsigned flags;
	size_t max; /* 0: no limit but the document's */
	int (*check)(struct fi_ctx *c, const char *s, size_t n);
};

/* A member of an object, one row of its table (fi_walk). */
struct field {
	const char *key;
	int type;       /* cJSON type bits accepted */
	unsigned flags; /* F_OPT, F_NULL */
	int (*get)(struct fi_ctx *c, const cJSON *v, void *dst,
		   const void *arg);
	size_t off;     /* dst = the object + off */
	const void *arg;
};
#define F_OPT 1u  /* may be left out */
#define F_NULL 2u /* may be null, and so may be left out (the same) */
/* A table is at most this long: `seen` is a bit mask. */
#define FIELDS_MAX 32

/* The JSON types of members. */
#define JS cJSON_String
#define JA cJSON_Array
#define JO cJSON_Object
#define JN cJSON_Number
#define JB (cJSON_True | cJSON_False)

/* The values a string may take (fi_read_choice). */
struct choice {
	const char *const *names;
	size_t n;
};

/* The JSON pointer (RFC 6901) of the value being read: push a member or
 * an element (returns the mark), pop back to a mark. */
size_t fi_ptr_key(struct fi_ctx *c, const char *key);
size_t fi_ptr_index(struct fi_ctx *c, size_t i);
void fi_ptr_pop(struct fi_ctx *c, size_t mark);
/* Set the one message, "<pointer>: <reason>", for the value being read /
 * for its member `key`. Return AA_ERR. */
int fi_fail(struct fi_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int fi_fail_at(struct fi_ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* I6: a new string, CR/CRLF as LF, trimmed (raw: only its empty lines at
 * both ends dropped). The caller frees it. */
char *fi_normalise(const char *s, bool raw);
/* The rule r over a normalised string. */
int fi_check_text(struct fi_ctx *c, const char *s, const struct text_rule *r);
/* The normalised string v is one of ch's names: *idx. */
int fi_read_choice(struct fi_ctx *c, const cJSON *v, const struct choice *ch,
		   size_t *idx);
/* ^F[1-9][0-9]{0,5}$ */
int fi_read_fid(struct fi_ctx *c, const cJSON *v, uint32_t *out);

/* Member getters (struct field): dst is the member, arg the field's. */
int fi_get_text(struct fi_ctx *c, const cJSON *v, void *dst,
		const void *arg); /* char *; arg: struct text_rule */
int fi_get_choice(struct fi_ctx *c, const cJSON *v, void *dst,
		  const void *arg); /* char *, the name; arg: struct choice */
int fi_get_sha(struct fi_ctx *c, const cJSON *v, void *dst,
	       const void *arg); /* char[SHA_BUF], lower-case hex */
int fi_get_bool(struct fi_ctx *c, const cJSON *v, void *dst,
		const void *arg); /* bool */
int fi_get_line(struct fi_ctx *c, const cJSON *v, void *dst,
		const void *arg); /* int64_t, 1 to INT32_MAX */

/* Read the members of node by the table t (n rows) into obj, in document
 * order (unknown keys ignored: I1), then refuse a missing one. */
int fi_walk(struct fi_ctx *c, const cJSON *node, const struct field *t,
	    size_t n, void *obj);
#define WALK(c, node, table, obj)                                         \
	fi_walk((c), (node), (table), ARRAY_SIZE(table), (obj))
/* Each element of the array v, an object, read by one(c, e, i). */
int fi_each_object(struct fi_ctx *c, const cJSON *v,
		   int (*one)(struct fi_ctx *c, const cJSON *e, size_t i));
size_t fi_array_size(const cJSON *v);
/* An array of distinct names, ^[a-z0-9][a-z0-9-]{0,63}$ (I2, I3). */
int fi_read_names(struct fi_ctx *c, const cJSON *v, char ***out, size_t *n);

/* text_rule checks: a slug (^[a-z0-9]+(-[a-z0-9]+)*$), an issue
 * (^#[1-9][0-9]*$), a file (I3: relative, no .. segment, no control
 * character, no <!-- or -->). */
int fi_check_slug(struct fi_ctx *c, const char *s, size_t n);
int fi_check_issue(struct fi_ctx *c, const char *s, size_t n);
int fi_check_file(struct fi_ctx *c, const char *s, size_t n);

static inline bool fi_is_lower_alnum(char ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z');
}

/* Shared by findings.c (the document) and findings_entries.c (its
 * entries): the string rules the top level uses too, and the getters of
 * the top level's members that are entries. */
extern const struct text_rule fi_text_rule, fi_base_rule, fi_override_rule;
int fi_get_mode(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg);
int fi_get_findings(struct fi_ctx *c, const cJSON *v, void *dst,
		    const void *arg);
int fi_get_verifications(struct fi_ctx *c, const cJSON *v, void *dst,
			 const void *arg);
int fi_get_gaps(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg);
int fi_get_clean(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg);

#endif
