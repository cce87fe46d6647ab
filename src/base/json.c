/*
 * json.c - typed, path-naming reads over cJSON and a byte-stable writer.
 */
#include "base/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "base/util.h"

/* Length of a valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/*
 * Rewrite every "\u0000" escape outside of an escaped backslash into
 * "\ufffd" (same length, so it can be done in place), check that the text
 * is UTF-8, and check the nesting depth of arrays and objects.
 */
static int prescan(char *text, size_t len, struct buf *err)
{
	bool in_str = false;
	size_t opens = 0, closes = 0; /* the depth is opens - closes */
	size_t i, k;

	for (i = 0; i < len; i++) {
		char c = text[i];

		if ((unsigned char)c >= 0x80) {
			/* JSON is UTF-8 (RFC 8259); GitHub sends nothing else. */
			k = utf8_seq((const unsigned char *)text + i, len - i);
			if (!k) {
				buf_setf(err, "JSON text is not valid UTF-8 at "
					      "byte %zu", i);
				return AA_ERR;
			}
			i += k - 1;
			continue;
		}

		if (in_str) {
			if (c == '\\') {
				if (i + 5 < len && text[i + 1] == 'u' &&
				    memcmp(text + i + 2, "0000", 4) == 0)
					memcpy(text + i + 2, "fffd", 4);
				i++; /* skip the escaped character */
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			if (++opens > closes + JSON_MAX_DEPTH) {
				buf_setf(err, "JSON nested deeper than %d levels",
					 JSON_MAX_DEPTH);
				return AA_ERR;
			}
		} else if (c == ']' || c == '}') {
			closes++;
		}
	}
	return AA_OK;
}

/* A key and where it stands among its object's members. */
struct key_at {
	const char *key;
	size_t index;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* One RFC 6901 reference token: "~" as "~0", "/" as "~1". */
static void ptr_token(struct buf *ptr, const char *key)
{
	buf_addch(ptr, '/');
	for (; *key; key++) {
		if (*key == '~')
			buf_adds(ptr, "~0");
		else if (*key == '/')
			buf_adds(ptr, "~1");
		else
			buf_addch(ptr, *key);
	}
}

/*
 * Refuse an object that names a key twice, at any depth. `ptr` holds the
 * JSON pointer of `node`; on a duplicate it becomes the pointer of the
 * member named twice (the one whose second naming comes first).
 */
static int unique_keys(const cJSON *node, struct buf *ptr, struct buf *err)
{
	const cJSON *child;
	struct key_at *keys = NULL;
	size_t n = 0, i, mark = ptr->len;
	const char *dup = NULL;
	size_t dup_at = 0;
	int error = AA_OK;

	if (cJSON_IsObject(node)) {
		cJSON_ArrayForEach(child, node)
			n++;
		keys = xcalloc(n ? n : 1, sizeof(*keys));
		n = 0;
		cJSON_ArrayForEach(child, node) {
			keys[n].key = child->string ? child->string : "";
			keys[n].index = n;
			n++;
		}
		qsort(keys, n, sizeof(*keys), cmp_key);
		for (i = 1; i < n; i++)
			if (strcmp(keys[i - 1].key, keys[i].key) == 0 &&
			    (!dup || keys[i].index < dup_at)) {
				dup = keys[i].key;
				dup_at = keys[i].index;
			}
		if (dup) {
			ptr_token(ptr, dup);
			buf_setf(err, "JSON object has the key \"%s\" twice",
				 dup);
			error = AA_ERR;
		}
		free(keys);
	}
	if (error == AA_OK && (cJSON_IsObject(node) || cJSON_IsArray(node))) {
		i = 0;
		cJSON_ArrayForEach(child, node) {
			if (cJSON_IsObject(node))
				ptr_token(ptr, child->string ? child->string
							     : "");
			else
				buf_addf(ptr, "/%zu", i);
			if ((error = unique_keys(child, ptr, err)) < 0)
				return error;
			if (ptr->len > mark) {
				ptr->len = mark;
				ptr->ptr[mark] = '\0';
			}
			i++;
		}
	}
	return error;
}

int json_parse(cJSON **out, const char *text, size_t len, struct buf *err)
{
	return json_parse_at(out, text, len, err, NULL);
}

int json_parse_at(cJSON **out, const char *text, size_t len, struct buf *err,
		  struct buf *where)
{
	struct buf ptr = BUF_INIT(BUF_MAX_SMALL);
	const char *end = NULL;
	char *copy;
	int error = AA_ERR;

	*out = NULL;
	copy = xstrndup(text, len);
	if (memchr(text, '\0', len)) {
		buf_setf(err, "JSON text holds a NUL byte");
		goto out;
	}
	if (prescan(copy, len, err) < 0)
		goto out;
	/* With require_null_terminated, cJSON wants the NUL inside the
	 * length it is given. */
	*out = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
	if (!*out) {
		size_t at = end && end >= copy ? (size_t)(end - copy) : 0;

		buf_setf(err, "invalid JSON at byte %zu", at);
		goto out;
	}
	if (unique_keys(*out, &ptr, err) < 0) {
		cJSON_Delete(*out);
		*out = NULL;
		if (where)
			buf_add(where, ptr.ptr, ptr.len);
		goto out;
	}
	error = AA_OK;
out:
	buf_release(&ptr);
	free(copy);
	return error;
}

static void path_err(struct buf *err, const char *path, const char *key,
		     const char *what)
{
	if (path && *path)
		buf_setf(err, "%s.%s: %s", path, key, what);
	else
		buf_setf(err, "%s: %s", key, what);
}

/* Look up key; 1 = present value, 0 = absent/null and allowed, -1 error. */
static int lookup(const cJSON **item, const cJSON *obj, const char *path,
		  const char *key, unsigned flags, struct buf *err)
{
	*item = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
	if (!*item) {
		if (flags & JOPT)
			return 0;
		path_err(err, path, key, "missing");
		return -1;
	}
	if (cJSON_IsNull(*item)) {
		if (flags & JNULL)
			return 0;
		path_err(err, path, key, "must not be null");
		return -1;
	}
	return 1;
}

int jget_str(char **out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsString(item) || !item->valuestring) {
		path_err(err, path, key, "expected a string");
		return AA_ERR;
	}
	free(*out);
	*out = xstrdup(item->valuestring);
	return AA_OK;
}

bool json_has(const cJSON *obj, const char *key)
{
	const cJSON *item = obj ? cJSON_GetObjectItemCaseSensitive(obj, key)
				: NULL;

	return item && !cJSON_IsNull(item);
}

const cJSON *json_get(const cJSON *obj, const char *key)
{
	return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *json_string(const cJSON *item)
{
	return cJSON_IsString(item) ? item->valuestring : NULL;
}

bool json_is_str(const cJSON *item, const char *want)
{
	const char *s = json_string(item);

	return s && strcmp(s, want) == 0;
}

const char *json_str(const cJSON *obj, const char *key)
{
	return json_string(json_get(obj, key));
}

void json_delete_wiping(cJSON *root, const char *key)
{
	cJSON *t = root ? cJSON_GetObjectItemCaseSensitive(root, key) : NULL;

	if (t && cJSON_IsString(t) && t->valuestring)
		OPENSSL_cleanse(t->valuestring, strlen(t->valuestring));
	cJSON_Delete(root);
}

bool json_int_value(int64_t *out, const cJSON *item, int64_t min, int64_t max)
{
	double d;

	if (!cJSON_IsNumber(item))
		return false;
	d = item->valuedouble;
	if (!isfinite(d) || d != floor(d) || d < -(double)JSON_MAX_INT ||
	    d > (double)JSON_MAX_INT)
		return false;
	if ((int64_t)d < min || (int64_t)d > max)
		return false;
	*out = (int64_t)d;
	return true;
}

int jget_int(int64_t *out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, int64_t min, int64_t max, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!json_int_value(out, item, min, max)) {
		path_err(err, path, key, "expected an integer in range");
		return AA_ERR;
	}
	return AA_OK;
}

int jget_bool(bool *out, const cJSON *obj, const char *path, const char *key,
	      unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsBool(item)) {
		path_err(err, path, key, "expected true or false");
		return AA_ERR;
	}
	*out = cJSON_IsTrue(item);
	return AA_OK;
}

int jget_time(int64_t *out, const cJSON *obj, const char *path,
	      const char *key, unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsString(item) || time_parse(out, item->valuestring) < 0) {
		path_err(err, path, key,
			 "expected an ISO-8601 UTC time like 2026-11-29T10:05:00Z");
		return AA_ERR;
	}
	return AA_OK;
}

int jget_sha(char *out, const cJSON *obj, const char *path, const char *key,
	     unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsString(item) ||
	    !sha_parse(out, item->valuestring, strlen(item->valuestring))) {
		path_err(err, path, key, "expected a 40-hex-digit commit SHA");
		return AA_ERR;
	}
	return AA_OK;
}

int jget_obj(const cJSON **out, const cJSON *obj, const char *path,
	     const char *key, unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	*out = NULL;
	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsObject(item)) {
		path_err(err, path, key, "expected an object");
		return AA_ERR;
	}
	*out = item;
	return AA_OK;
}

int jget_arr(const cJSON **out, const cJSON *obj, const char *path,
	     const char *key, unsigned flags, struct buf *err)
{
	const cJSON *item;
	int r = lookup(&item, obj, path, key, flags, err);

	*out = NULL;
	if (r <= 0)
		return r < 0 ? AA_ERR : AA_OK;
	if (!cJSON_IsArray(item)) {
		path_err(err, path, key, "expected an array");
		return AA_ERR;
	}
	*out = item;
	return AA_OK;
}

/* --- writer --- */

void json_quote(struct buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	buf_addch(out, '"');
	while (i < n) {
		unsigned char c = p[i];
		size_t k;

		if (c == '"' || c == '\\') {
			buf_addch(out, '\\');
			buf_addch(out, (char)c);
			i++;
		} else if (c == '\n') {
			buf_adds(out, "\\n");
			i++;
		} else if (c == '\t') {
			buf_adds(out, "\\t");
			i++;
		} else if (c == '\r') {
			buf_adds(out, "\\r");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			buf_addf(out, "\\u%04x", c);
			i++;
		} else if ((k = utf8_seq(p + i, n - i)) == 0) {
			buf_adds(out, "\\ufffd");
			i++;
		} else {
			buf_add(out, p + i, k);
			i += k;
		}
	}
	buf_addch(out, '"');
}

void jw_init(struct jw *w, struct buf *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
}

static void newline(struct jw *w)
{
	int i;

	if (!w->pretty)
		return;
	buf_addch(w->out, '\n');
	for (i = 0; i < w->depth; i++)
		buf_adds(w->out, "  ");
}

/* Before a value or key: a comma and a new line when needed. */
static void before_item(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->need_comma[w->depth])
		buf_addch(w->out, ',');
	w->need_comma[w->depth] = true;
	w->has_items[w->depth] = true;
	newline(w);
}

static void jw_open(struct jw *w, char c)
{
	before_item(w);
	buf_addch(w->out, c);
	if (w->depth + 1 >= JW_MAX_DEPTH)
		abort(); /* a bug in the caller, never input-driven */
	w->depth++;
	w->need_comma[w->depth] = false;
	w->has_items[w->depth] = false;
}

static void jw_close(struct jw *w, char c)
{
	bool had = w->has_items[w->depth];

	w->depth--;
	if (had)
		newline(w);
	buf_addch(w->out, c);
	if (w->depth == 0 && w->pretty)
		buf_addch(w->out, '\n');
}

void jw_obj_begin(struct jw *w) { jw_open(w, '{'); }
void jw_obj_end(struct jw *w) { jw_close(w, '}'); }
void jw_arr_begin(struct jw *w) { jw_open(w, '['); }
void jw_arr_end(struct jw *w) { jw_close(w, ']'); }

void jw_key(struct jw *w, const char *key)
{
	before_item(w);
	json_quote(w->out, key, strlen(key));
	buf_adds(w->out, w->pretty ? ": " : ":");
	w->after_key = true;
}

void jw_strn(struct jw *w, const char *s, size_t n)
{
	before_item(w);
	json_quote(w->out, s, n);
}

void jw_str(struct jw *w, const char *s)
{
	jw_strn(w, s, strlen(s));
}

void jw_str_or_null(struct jw *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		jw_null(w);
}

void jw_key_str(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_str_or_null(w, s);
}

void jw_key_int(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}

void jw_int(struct jw *w, int64_t v)
{
	before_item(w);
	buf_addf(w->out, "%lld", (long long)v);
}

void jw_bool(struct jw *w, bool v)
{
	before_item(w);
	buf_adds(w->out, v ? "true" : "false");
}

void jw_null(struct jw *w)
{
	before_item(w);
	buf_adds(w->out, "null");
}

void jw_time(struct jw *w, int64_t ms)
{
	char t[32];

	time_format(t, ms);
	jw_str(w, t);
}

void jw_cjson(struct jw *w, const cJSON *item)
{
	const cJSON *c;
	int64_t v;

	if (cJSON_IsObject(item)) {
		jw_obj_begin(w);
		cJSON_ArrayForEach(c, item)
		{
			jw_key(w, c->string);
			jw_cjson(w, c);
		}
		jw_obj_end(w);
	} else if (cJSON_IsArray(item)) {
		jw_arr_begin(w);
		cJSON_ArrayForEach(c, item)
		{
			jw_cjson(w, c);
		}
		jw_arr_end(w);
	} else if (cJSON_IsString(item)) {
		jw_str(w, item->valuestring);
	} else if (cJSON_IsBool(item)) {
		jw_bool(w, cJSON_IsTrue(item));
	} else if (cJSON_IsNumber(item) &&
		   json_int_value(&v, item, -JSON_MAX_INT, JSON_MAX_INT)) {
		jw_int(w, v);
	} else {
		/* null, and numbers that are not exact integers (never
		 * written by this program) */
		jw_null(w);
	}
}
