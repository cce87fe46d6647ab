/*
 * text.c - views and cursors over untrusted text (base/text.h).
 */
#include "base/text.h"

#include <string.h>

#include "base/util.h"

struct mview text_trim(struct mview v)
{
	/*@ loop invariant Tail((char *)v.p, v.n, (char *)\at(v.p, Pre),
			       \at(v.n, Pre));
	    loop assigns v;
	    loop variant v.n; */
	while (v.n && is_ws((unsigned char)v.p[0])) {
		v.p++;
		v.n--;
	}
	/*@ loop invariant SubView((char *)v.p, v.n, (char *)\at(v.p, Pre),
				  \at(v.n, Pre));
	    loop invariant v.p == \at(v.p, LoopEntry);
	    loop assigns v.n;
	    loop variant v.n; */
	while (v.n && (is_ws((unsigned char)v.p[v.n - 1]) ||
		       v.p[v.n - 1] == '\r'))
		v.n--;
	return v;
}

struct mview text_trim_ws(struct mview v)
{
	/*@ loop invariant Tail((char *)v.p, v.n, (char *)\at(v.p, Pre),
			       \at(v.n, Pre));
	    loop assigns v;
	    loop variant v.n; */
	while (v.n && is_ws((unsigned char)v.p[0])) {
		v.p++;
		v.n--;
	}
	/*@ loop invariant SubView((char *)v.p, v.n, (char *)\at(v.p, Pre),
				  \at(v.n, Pre));
	    loop invariant v.p == \at(v.p, LoopEntry);
	    loop assigns v.n;
	    loop variant v.n; */
	while (v.n && is_ws((unsigned char)v.p[v.n - 1]))
		v.n--;
	return v;
}

struct mview text_rstrip(struct mview v)
{
	/*@ loop invariant SubView((char *)v.p, v.n, (char *)\at(v.p, Pre),
				  \at(v.n, Pre));
	    loop invariant v.p == \at(v.p, LoopEntry);
	    loop assigns v.n;
	    loop variant v.n; */
	while (v.n && (is_ws((unsigned char)v.p[v.n - 1]) ||
		       v.p[v.n - 1] == '\r'))
		v.n--;
	return v;
}

void text_skip_ws(struct mview *v)
{
	/*@ loop invariant Tail((char *)v->p, v->n, (char *)\at(v->p, Pre),
			       \at(v->n, Pre));
	    loop assigns *v;
	    loop variant v->n; */
	while (v->n && is_ws((unsigned char)v->p[0])) {
		v->p++;
		v->n--;
	}
}

bool text_eat_word(struct mview *v, const char *word)
{
	size_t n = strlen(word), i;

	if (v->n < n)
		return false;
	/*@ loop invariant 0 <= i <= n;
	    loop invariant ViewOK((char *)v->p, v->n);
	    loop assigns i;
	    loop variant n - i; */
	for (i = 0; i < n; i++)
		if (to_lower((unsigned char)v->p[i]) != word[i])
			return false;
	/*@ assert ViewOK((char *)v->p + n, v->n - n); */
	v->p += n;
	v->n -= n;
	return true;
}

bool text_eat_char(struct mview *v, char c)
{
	if (!v->n || v->p[0] != c)
		return false;
	v->p++;
	v->n--;
	return true;
}

bool text_eat_key(struct mview *v, const char *key)
{
	struct mview t = *v;

	if (!text_eat_word(&t, key))
		return false;
	text_skip_ws(&t);
	if (!text_eat_char(&t, ':'))
		return false;
	text_skip_ws(&t);
	*v = t;
	return true;
}

bool text_eq(struct mview v, const char *s)
{
	return v.n == strlen(s) && memcmp(v.p, s, v.n) == 0;
}

bool text_starts(struct mview v, const char *s)
{
	size_t n = strlen(s);

	return v.n >= n && memcmp(v.p, s, n) == 0;
}

bool text_eq_nocase(struct mview v, const char *word)
{
	return mem_eq_nocase(v.p, v.n, word);
}

bool text_contains(struct mview v, const char *needle)
{
	return mem_contains(v.p, v.n, needle);
}

const char *text_find(struct mview v, const char *needle)
{
	return mem_find(v.p, v.n, needle);
}

bool text_all_digits(struct mview v)
{
	size_t i;

	if (!v.n)
		return false;
	/*@ loop invariant 0 <= i <= v.n;
	    loop invariant ViewOK((char *)v.p, v.n);
	    loop assigns i;
	    loop variant v.n - i; */
	for (i = 0; i < v.n; i++)
		if (!is_digit((unsigned char)v.p[i]))
			return false;
	return true;
}

bool text_next_line(const char *text, size_t len, size_t *off,
		    struct mview *line)
{
	const char *nl;

	if (*off >= len)
		return false;
	nl = memchr(text + *off, '\n', len - *off);
	if (nl) {
		*line = mview_of(text + *off, (size_t)(nl - (text + *off)));
		*off = (size_t)(nl - text) + 1;
	} else {
		*line = mview_of(text + *off, len - *off);
		*off = len;
	}
	return true;
}
