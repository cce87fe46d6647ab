/*
 * findings_read.c - the reading half of the findings input (findings.c):
 * the JSON pointer a message names, the messages, I6's normalisation, and
 * the readers of typed members that the tables of findings.c point to.
 */
#include "formats/findings_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* An unknown key can be megabytes long: a message shows its first bytes. */
#define PTR_MAX_KEY 64
/* line_start/line_end: a diff line number, an int on GitHub's side. */
#define MAX_LINE INT32_MAX

/* --- the JSON pointer (RFC 6901) and messages --- */

size_t fi_ptr_key(struct fi_ctx *c, const char *key)
{
	size_t mark = c->ptr.len, n = strlen(key), cut = n, i;

	if (n > PTR_MAX_KEY) {
		cut = PTR_MAX_KEY; /* on a UTF-8 boundary */
		while (cut > 0 && ((unsigned char)key[cut] & 0xC0) == 0x80)
			cut--;
	}
	buf_addch(&c->ptr, '/');
	for (i = 0; i < cut; i++) {
		if (key[i] == '~')
			buf_adds(&c->ptr, "~0");
		else if (key[i] == '/')
			buf_adds(&c->ptr, "~1");
		else
			buf_addch(&c->ptr, key[i]);
	}
	if (cut < n)
		buf_adds(&c->ptr, "\xE2\x80\xA6"); /* … */
	return mark;
}

size_t fi_ptr_index(struct fi_ctx *c, size_t i)
{
	size_t mark = c->ptr.len;

	buf_addf(&c->ptr, "/%zu", i);
	return mark;
}

void fi_ptr_pop(struct fi_ctx *c, size_t mark)
{
	if (c->ptr.len > mark) {
		c->ptr.len = mark;
		c->ptr.ptr[mark] = '\0';
	}
}

__attribute__((format(printf, 2, 0))) static int vfail(struct fi_ctx *c,
						       const char *fmt,
						       va_list ap)
{
	buf_reset(c->err);
	buf_add(c->err, c->ptr.ptr, c->ptr.len);
	buf_adds(c->err, ": ");
	buf_vaddf(c->err, fmt, ap);
	return AA_ERR;
}

/* "<pointer>: <reason>" for the value being read. */
int fi_fail(struct fi_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, fmt, ap);
	va_end(ap);
	return AA_ERR;
}

/* The same for the member `key` of the object being read. */
int fi_fail_at(struct fi_ctx *c, const char *key, const char *fmt, ...)
{
	va_list ap;

	fi_ptr_key(c, key);
	va_start(ap, fmt);
	vfail(c, fmt, ap);
	va_end(ap);
	return AA_ERR;
}

/* --- I6: normalisation --- */

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' ||
	       ch == '\f';
}

/*
 * A new string: CRLF and CR become LF; then the whitespace at both ends
 * goes, or with `raw` (evidence, details: verbatim code, indentation
 * matters) only the lines at both ends that hold nothing but whitespace.
 */
char *fi_normalise(const char *s, bool raw)
{
	size_t n = strlen(s), len = 0, b, e, i;
	char *d = xmalloc(st_add(n, 1));

	for (i = 0; i < n; i++) {
		if (s[i] == '\r') {
			d[len++] = '\n';
			if (s[i + 1] == '\n')
				i++;
		} else {
			d[len++] = s[i];
		}
	}
	b = 0;
	e = len;
	while (b < e && is_space(d[b]))
		b++;
	while (e > b && is_space(d[e - 1]))
		e--;
	if (raw && b < e) {
		while (b > 0 && d[b - 1] != '\n')
			b--;
		while (e < len && d[e] != '\n')
			e++;
	}
	memmove(d, d + b, e - b);
	d[e - b] = '\0';
	return d;
}

int fi_check_text(struct fi_ctx *c, const char *s, const struct text_rule *r)
{
	size_t n = strlen(s);

	if (!n && !(r->flags & T_EMPTY))
		return fi_fail(c, "empty");
	if ((r->flags & T_LINE) && memchr(s, '\n', n))
		return fi_fail(c, "more than one line");
	if (r->max && (r->flags & T_CP) && rv_codepoints(s, n) > r->max)
		return fi_fail(c, "longer than %zu code points", r->max);
	if (r->max && !(r->flags & T_CP) && n > r->max)
		return fi_fail(c, "longer than %zu bytes", r->max);
	return r->check ? r->check(c, s, n) : AA_OK;
}

/* ^[a-z0-9][a-z0-9-]{0,63}$: subagent names (I2) and reported_by (I3). */
static bool name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 1 || n > 64 || !fi_is_lower_alnum(s[0]))
		return false;
	for (i = 1; i < n; i++)
		if (!fi_is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

int fi_get_text(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg)
{
	const struct text_rule *r = arg;
	char **out = dst;
	char *s;

	free(*out);
	s = fi_normalise(json_string(v), r->flags & T_RAW);
	*out = s;
	return fi_check_text(c, s, r);
}

int fi_read_choice(struct fi_ctx *c, const cJSON *v, const struct choice *ch,
		   size_t *idx)
{
	char *s = fi_normalise(json_string(v), false);
	struct buf list = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	for (i = 0; i < ch->n; i++)
		if (strcmp(s, ch->names[i]) == 0)
			break;
	free(s);
	if (i < ch->n) {
		*idx = i;
		return AA_OK;
	}
	for (i = 0; i < ch->n; i++)
		buf_addf(&list, "%s%s", i ? ", " : "", ch->names[i]);
	fi_fail(c, "not one of %s", list.ptr);
	buf_release(&list);
	return AA_ERR;
}

/* A choice kept as its (canonical) name. */
int fi_get_choice(struct fi_ctx *c, const cJSON *v, void *dst,
		  const void *arg)
{
	const struct choice *ch = arg;
	char **out = dst;
	size_t k = 0; /* set by fi_read_choice when it answers AA_OK */

	if (fi_read_choice(c, v, ch, &k) < 0)
		return AA_ERR;
	free(*out);
	*out = xstrdup(ch->names[k]);
	return AA_OK;
}

/* 40 lower-case hex digits (head, last_sha, prior_sha_unreachable). */
int fi_get_sha(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg)
{
	char *s = fi_normalise(json_string(v), false);
	size_t i, n = strlen(s);

	(void)arg;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			break;
	if (n != SHA_HEX_LEN || i != n) {
		free(s);
		return fi_fail(c, "not 40 lower-case hex digits");
	}
	memcpy(dst, s, SHA_BUF);
	free(s);
	return AA_OK;
}

int fi_get_bool(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg)
{
	(void)c;
	(void)arg;
	*(bool *)dst = cJSON_IsTrue(v);
	return AA_OK;
}

int fi_get_line(struct fi_ctx *c, const cJSON *v, void *dst, const void *arg)
{
	(void)arg;
	if (!json_int_value(dst, v, 1, MAX_LINE))
		return fi_fail(c, "not an integer from 1 to %d", MAX_LINE);
	return AA_OK;
}

/* ^F[1-9][0-9]{0,5}$ */
int fi_read_fid(struct fi_ctx *c, const cJSON *v, uint32_t *out)
{
	char *s = fi_normalise(json_string(v), false);
	size_t n = strlen(s), i;
	uint32_t id = 0;
	bool ok = n >= 2 && n <= 7 && s[0] == 'F' && s[1] != '0';

	for (i = 1; ok && i < n; i++) {
		ok = is_digit(s[i]);
		id = id * 10 + (uint32_t)(s[i] - '0');
	}
	free(s);
	if (!ok)
		return fi_fail(c, "does not match ^F[1-9][0-9]{0,5}$");
	*out = id;
	return AA_OK;
}

/* Walk the members of node by table t into obj; then the missing ones. */
static const char *type_name(int type)
{
	if (type & cJSON_Object)
		return "an object";
	if (type & cJSON_Array)
		return "an array";
	if (type & cJSON_Number)
		return "an integer";
	if (type & cJSON_True)
		return "true or false";
	return "a string";
}

/* The member m of the row f: null where the row allows it, or its getter
 * on it. */
static int walk_member(struct fi_ctx *c, const cJSON *m, const struct field *f,
		       void *obj)
{
	size_t mark;

	if (cJSON_IsNull(m) && (f->flags & F_NULL))
		return AA_OK;
	mark = fi_ptr_key(c, f->key);
	if (!(m->type & f->type))
		return fi_fail(c, "expected %s%s", type_name(f->type),
			       (f->flags & F_NULL) ? " or null" : "");
	if (f->get(c, m, (char *)obj + f->off, f->arg) < 0)
		return AA_ERR;
	fi_ptr_pop(c, mark);
	return AA_OK;
}

int fi_walk(struct fi_ctx *c, const cJSON *node, const struct field *t,
	    size_t n, void *obj)
{
	uint32_t seen = 0;
	const cJSON *m;
	size_t k;

	cJSON_ArrayForEach(m, node) {
		for (k = 0; k < n; k++)
			if (strcmp(t[k].key, m->string) == 0)
				break;
		/* I1: unknown keys are ignored (k == n; ">=" bounds k
		 * for EVA, which otherwise reads rows past the table:
		 * docs/proof-alarms-findings.md) */
		if (k >= n)
			continue;
		seen |= (uint32_t)1 << k;
		if (walk_member(c, m, &t[k], obj) < 0)
			return AA_ERR;
	}
	for (k = 0; k < n; k++)
		if (!(seen & ((uint32_t)1 << k)) &&
		    !(t[k].flags & (F_OPT | F_NULL)))
			return fi_fail_at(c, t[k].key, "missing");
	return AA_OK;
}

/* Each element of the array v, an object, read by one(c, e, i). */
int fi_each_object(struct fi_ctx *c, const cJSON *v,
		   int (*one)(struct fi_ctx *c, const cJSON *e, size_t i))
{
	const cJSON *e;
	size_t i = 0, mark;

	cJSON_ArrayForEach(e, v) {
		mark = fi_ptr_index(c, i);
		if (!cJSON_IsObject(e))
			return fi_fail(c, "expected an object");
		c->cur = i;
		if (one(c, e, i) < 0)
			return AA_ERR;
		fi_ptr_pop(c, mark);
		i++;
	}
	return AA_OK;
}

size_t fi_array_size(const cJSON *v)
{
	int n = cJSON_GetArraySize(v);

	return n > 0 ? (size_t)n : 0;
}

/* An array of distinct names, ^[a-z0-9][a-z0-9-]{0,63}$. */
int fi_read_names(struct fi_ctx *c, const cJSON *v, char ***out, size_t *n)
{
	const cJSON *e;
	size_t count = fi_array_size(v), i = 0, j, mark;
	char **names, *s;

	if (!count)
		return AA_OK; /* an empty list: nothing to read */
	*out = names = xcalloc(count, sizeof(**out));
	cJSON_ArrayForEach(e, v) {
		mark = fi_ptr_index(c, i);
		if (!json_string(e))
			return fi_fail(c, "expected a string");
		s = fi_normalise(json_string(e), false);
		names[i] = s;
		*n = ++i;
		if (!name_ok(s))
			return fi_fail(c, "does not match "
				       "^[a-z0-9][a-z0-9-]{0,63}$");
		for (j = 0; j + 1 < i; j++)
			if (strcmp(names[j], s) == 0)
				return fi_fail(c, "duplicate \"%s\"", names[j]);
		fi_ptr_pop(c, mark);
	}
	return AA_OK;
}

/* --- patterns (I3) --- */

#define SLUG_RE "^[a-z0-9]+(-[a-z0-9]+)*$"
int fi_check_slug(struct fi_ctx *c, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fi_is_lower_alnum(s[i]) &&
		    (s[i] != '-' || i == 0 || i + 1 == n || s[i - 1] == '-'))
			return fi_fail(c, "does not match " SLUG_RE);
	return AA_OK;
}

/* ^#[1-9][0-9]*$ */
int fi_check_issue(struct fi_ctx *c, const char *s, size_t n)
{
	size_t i;

	if (n < 2 || s[0] != '#' || s[1] == '0')
		return fi_fail(c, "does not match ^#[1-9][0-9]*$");
	for (i = 1; i < n; i++)
		if (!is_digit(s[i]))
			return fi_fail(c, "does not match ^#[1-9][0-9]*$");
	return AA_OK;
}

/* C0, DEL and C1 (U+0080-U+009F, UTF-8 C2 80-C2 9F). */
static bool has_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x20 || ch == 0x7F ||
		    (ch == 0xC2 && i + 1 < n &&
		     (unsigned char)s[i + 1] >= 0x80 &&
		     (unsigned char)s[i + 1] <= 0x9F))
			return true;
	}
	return false;
}

static bool has_dotdot_segment(const char *s, size_t n)
{
	size_t i = 0, j;

	while (i <= n) {
		j = i;
		while (j < n && s[j] != '/')
			j++;
		if (j - i == 2 && s[i] == '.' && s[i + 1] == '.')
			return true;
		i = j + 1;
	}
	return false;
}

/* I3 `file`: a relative path that can open no comment in a sticky. */
int fi_check_file(struct fi_ctx *c, const char *s, size_t n)
{
	if (s[0] == '/')
		return fi_fail(c, "not a relative path (leading /)");
	if (has_dotdot_segment(s, n))
		return fi_fail(c, "has a .. segment");
	if (has_control(s, n))
		return fi_fail(c, "has a control character");
	if (strstr(s, "<!--") || strstr(s, "-->"))
		return fi_fail(c, "holds <!-- or -->");
	return AA_OK;
}
