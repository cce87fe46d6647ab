/*
 * json.h - strict reading of JSON documents and a deterministic writer.
 *
 * Reading: json_parse() wraps cJSON with the limits this program needs; the
 * jget_* helpers copy one typed field out of an object and, when it is
 * missing or of the wrong type, write one message naming the field by its
 * path ("pulls[0].comments[2].id: expected an integer") and return AA_ERR.
 * Only case-sensitive lookups are used.
 *
 * Writing: struct jw emits JSON into a buf with fixed key order and
 * two-space indentation, so the same data always gives the same bytes. A
 * write past the buf's ceiling is sticky (buf.h): whoever produces a
 * document checks buf_error() once at its end, and never hands on a
 * document cut short.
 */
#ifndef AA_JSON_H
#define AA_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "base/buf.h"
#include "base/util.h"

/* Deepest nesting accepted; GitHub's documents stay far below it. */
#define JSON_MAX_DEPTH 64
/* Largest integer a JSON number carries exactly (2^53 - 1: a double
 * reading 2^53 may have been 2^53 + 1). */
#define JSON_MAX_INT ((int64_t)9007199254740991LL)

/*
 * Parse len bytes of text. A "\u0000" escape is read as U+FFFD (cJSON's
 * strings end at NUL, and a body cut at a NUL could hide a marker). Text
 * that is not UTF-8, nesting deeper than JSON_MAX_DEPTH, and an object
 * with the same key twice (which one would count?) are errors. On error returns AA_ERR with a
 * message in err and *out NULL. The caller frees *out with cJSON_Delete.
 */
int json_parse(cJSON **out, const char *text, size_t len, struct buf *err);
/* json_parse(); when a key is named twice, `where` (when not NULL) gets
 * the JSON pointer (RFC 6901) of that member appended. */
int json_parse_at(cJSON **out, const char *text, size_t len, struct buf *err,
		  struct buf *where);

/* Flags for jget_*: the field may be absent / may be null. */
#define JOPT 1u
#define JNULL 2u

/*
 * Each jget_* reads obj[key]; `path` names obj in messages. Absent (with
 * JOPT) or null (with JNULL) leaves the output untouched and returns 0.
 */
int jget_str(char **out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, struct buf *err);
int jget_int(int64_t *out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, int64_t min, int64_t max, struct buf *err);
int jget_bool(bool *out, const cJSON *obj, const char *path, const char *key,
	      unsigned flags, struct buf *err);
int jget_time(int64_t *out, const cJSON *obj, const char *path,
	      const char *key, unsigned flags, struct buf *err);
int jget_sha(char *out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, struct buf *err);
/* Object/array members; *out is NULL when absent/null and allowed. */
int jget_obj(const cJSON **out, const cJSON *obj, const char *path,
	     const char *key, unsigned flags, struct buf *err);
int jget_arr(const cJSON **out, const cJSON *obj, const char *path,
	     const char *key, unsigned flags, struct buf *err);
/* Is obj[key] present and not null? */
bool json_has(const cJSON *obj, const char *key);
/*
 * Lenient reads, for fields whose absence or odd type is no error (an
 * error's message, a hint): obj[key] or NULL (obj may be NULL); the text
 * of a string node or NULL; is the node the string `want`?
 */
const cJSON *json_get(const cJSON *obj, const char *key);
const char *json_string(const cJSON *item);
bool json_is_str(const cJSON *item, const char *want);
/* json_string(json_get(obj, key)). */
const char *json_str(const cJSON *obj, const char *key);
/* cJSON_Delete(root), after wiping the string root[key] (a secret: a
 * token an answer carried; cJSON_Delete does not wipe). NULL is a no-op. */
void json_delete_wiping(cJSON *root, const char *key);
/* Integer value of a number node (exact, within [min,max]). */
bool json_int_value(int64_t *out, const cJSON *item, int64_t min, int64_t max);

/* Writer. */
#define JW_MAX_DEPTH 32
struct jw {
	struct buf *out;
	int depth;
	bool pretty;
	bool need_comma[JW_MAX_DEPTH];
	bool after_key;
	bool has_items[JW_MAX_DEPTH];
};

void jw_init(struct jw *w, struct buf *out, bool pretty);
void jw_obj_begin(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s);
void jw_strn(struct jw *w, const char *s, size_t n);
void jw_str_or_null(struct jw *w, const char *s);
/* A member: jw_key, then jw_str_or_null or jw_int. */
void jw_key_str(struct jw *w, const char *key, const char *s);
void jw_key_int(struct jw *w, const char *key, int64_t v);
void jw_int(struct jw *w, int64_t v);
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);
void jw_time(struct jw *w, int64_t ms);
/* A parsed value, written with the writer's layout (objects keep their
 * member order). */
void jw_cjson(struct jw *w, const cJSON *item);
/* Append text as a JSON string literal (with quotes) to a buf. Invalid
 * UTF-8 becomes U+FFFD; control characters are escaped. */
void json_quote(struct buf *out, const char *s, size_t n);

#endif
