/*
 * mdblock_line.c - one line as cmark-gfm's block parser sees it
 * (core/mdblock.c runs the containers): the cursor (columns, tabs counted
 * to the next multiple of 4 and consumed in part) and what the rest of a
 * line may start: a code fence, an HTML block of the seven kinds and its
 * end, an ATX heading, a thematic break, a setext underline, a list
 * marker, and the prefixes that stay plain text.
 */
#include "core/mdblock_int.h"

#include <string.h>

#include "base/util.h"

/* cmark_isspace, with the line's end counting as one. */
static bool space_or_end(int ch)
{
	return ch < 0 || ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f';
}

void mdl_first_nonspace(struct cur *c)
{
	unsigned to_tab = TAB_STOP - (c->col % TAB_STOP);
	size_t i = c->off;
	unsigned col = c->col;

	/*@ loop invariant CurOK(c);
	    loop invariant c->off <= c->n ==> c->off <= i <= c->n;
	    loop invariant c->off > c->n ==> i == c->off;
	    loop assigns i, col, to_tab; */
	while (i < c->n) {
		if (c->p[i] == ' ') {
			i++;
			col++;
			if (--to_tab == 0)
				to_tab = TAB_STOP;
		} else if (c->p[i] == '\t') {
			i++;
			col += to_tab;
			to_tab = TAB_STOP;
		} else {
			break;
		}
	}
	c->fns = i;
	c->fns_col = col;
	c->indent = col - c->col;
	c->blank = i >= c->n;
}

/* Advance by `count` columns (a tab may be taken in part) or bytes. */
void mdl_advance(struct cur *c, size_t count, bool columns)
{
	/*@ loop invariant CurW(c);
	    loop invariant \at(c->off, Pre) <= c->n ==>
	      \at(c->off, Pre) <= c->off <= c->n;
	    loop invariant \at(c->off, Pre) > c->n ==>
	      c->off == \at(c->off, Pre);
	    loop assigns count, c->off, c->col; */
	while (count > 0 && c->off < c->n) {
		if (c->p[c->off] == '\t') {
			unsigned to_tab = TAB_STOP - (c->col % TAB_STOP);

			if (columns) {
				unsigned step = to_tab < count
							? to_tab
							: (unsigned)count;

				c->col += step;
				if (step == to_tab)
					c->off++;
				count -= step;
			} else {
				c->col += to_tab;
				c->off++;
				count--;
			}
		} else {
			c->off++;
			c->col++;
			count--;
		}
	}
}

static bool word_at(const struct cur *c, size_t i, const char *w)
{
	size_t k, n = strlen(w);

	if (i > c->n || c->n - i < n)
		return false;
	/*@ loop invariant CurOK(c) && 0 <= k <= n;
	    loop assigns k; */
	for (k = 0; k < n; k++)
		if (to_lower((unsigned char)c->p[i + k]) != w[k])
			return false;
	return true;
}

/* Does [from, n) contain `w` (ASCII case-insensitive)? */
static bool contains_from(const struct cur *c, size_t from, const char *w)
{
	size_t i;

	/*@ loop invariant CurOK(c);
	    loop assigns i; */
	for (i = from; i < c->n; i++)
		if (word_at(c, i, w))
			return true;
	return false;
}

/* A run of the character at i: its length. */
size_t mdl_run_len(const struct cur *c, size_t i, char ch)
{
	size_t k = i;

	/*@ loop invariant CurOK(c) && i <= k;
	    loop invariant i <= c->n ==> k <= c->n;
	    loop invariant i > c->n ==> k == i;
	    loop assigns k; */
	while (k < c->n && c->p[k] == ch)
		k++;
	return k - i;
}

bool mdl_rest_blank(const struct cur *c, size_t i)
{
	/*@ loop invariant CurOK(c);
	    loop assigns i; */
	for (; i < c->n; i++)
		if (!space_or_tab((unsigned char)c->p[i]))
			return false;
	return true;
}

/* ``` or ~~~ at fns: the run's length, 0 when no opener (a backtick
 * fence's info string holds no backtick). */
size_t mdl_fence_open(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t n, i;

	if (ch != '`' && ch != '~')
		return 0;
	n = mdl_run_len(c, c->fns, (char)ch);
	if (n < 3)
		return 0;
	if (ch == '`')
		/*@ loop invariant CurOK(c);
		    loop assigns i; */
		for (i = c->fns + n; i < c->n; i++)
			if (c->p[i] == '`')
				return 0;
	return n;
}

static const char *const html6_tags[] = {
	"address", "article", "aside", "base", "basefont", "blockquote",
	"body", "caption", "center", "col", "colgroup", "dd", "details",
	"dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
	"figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
	"h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend",
	"li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
	"optgroup", "option", "p", "param", "section", "source", "summary",
	"table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
	"track", "ul"};

/* cmark's spacechar, without the line end (our lines have none). */
static bool spacechar(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch < 0;
}

static size_t skip_space(const struct cur *c, size_t i)
{
	/*@ loop invariant CurOK(c) && \at(i, Pre) <= i;
	    loop invariant \at(i, Pre) <= c->n ==> i <= c->n;
	    loop invariant \at(i, Pre) > c->n ==> i == \at(i, Pre);
	    loop assigns i; */
	while (i < c->n && spacechar((unsigned char)c->p[i]))
		i++;
	return i;
}

/* [A-Za-z][A-Za-z0-9-]*: the end, or 0 when none. */
static size_t tagname(const struct cur *c, size_t i)
{
	if (!is_alpha(at(c, i)))
		return 0;
	/*@ loop invariant CurOK(c) && i <= c->n;
	    loop assigns i; */
	while (is_alnum(at(c, i)) || at(c, i) == '-')
		i++;
	return i;
}

/* An attribute's value (unquoted, '…' or "…"): its end, or 0. */
static size_t attr_value(const struct cur *c, size_t i)
{
	int q = at(c, i);
	size_t k;

	if (q == '\'' || q == '"') {
		/*@ loop invariant CurOK(c);
		    loop assigns k; */
		for (k = i + 1; k < c->n; k++)
			if (c->p[k] == q)
				return k + 1;
		return 0;
	}
	/*@ loop invariant CurOK(c);
	    loop invariant i <= c->n ==> k <= c->n;
	    loop invariant i > c->n ==> k == i;
	    loop assigns k; */
	for (k = i; k < c->n; k++)
		if (spacechar((unsigned char)c->p[k]) ||
		    strchr("\"'=<>`", c->p[k]))
			break;
	return k > i ? k : 0;
}

/* Type 7: one complete open or closing tag, then only whitespace. */
static bool html7(const struct cur *c)
{
	size_t i = c->fns + 1, k, v;

	if (at(c, i) == '/') {
		if (!(i = tagname(c, i + 1)))
			return false;
		i = skip_space(c, i);
	} else {
		if (!(i = tagname(c, i)))
			return false;
		/*@ loop invariant CurOK(c);
		    loop assigns i, k, v; */
		for (;;) { /* attribute* */
			k = skip_space(c, i);
			if (k == i || !(is_alpha(at(c, k)) || at(c, k) == '_' ||
					 at(c, k) == ':'))
				break;
			/*@ loop invariant CurOK(c);
			    loop assigns k; */
			while (is_alnum(at(c, k)) ||
			       (at(c, k) > 0 && strchr("_.:-", at(c, k))))
				k++;
			i = k;
			k = skip_space(c, k);
			if (at(c, k) == '=') {
				k = skip_space(c, k + 1);
				if (!(v = attr_value(c, k)))
					return false;
				i = v;
			}
		}
		i = skip_space(c, i);
		if (at(c, i) == '/')
			i++;
	}
	if (at(c, i) != '>')
		return false;
	/*@ loop invariant CurOK(c);
	    loop assigns i; */
	for (i++; i < c->n; i++)
		if (c->p[i] != ' ' && c->p[i] != '\t' && c->p[i] != '\f')
			return false;
	return true;
}

/*
 * The HTML block that starts at fns (CommonMark 0.29 §4.6, as cmark-gfm
 * scans it), or 0. `para`: a paragraph goes on here, which type 7 may not
 * interrupt.
 */
int mdl_html_start(const struct cur *c, bool para)
{
	size_t i = c->fns, k, name;
	static const char *const type1[] = {"script", "pre", "style"};

	if (at(c, i) != '<')
		return 0;
	for (k = 0; k < ARRAY_SIZE(type1); k++) {
		int e = at(c, i + 1 + strlen(type1[k]));

		if (word_at(c, i + 1, type1[k]) && (spacechar(e) || e == '>'))
			return 1;
	}
	if (word_at(c, i, "<!--"))
		return 2;
	if (word_at(c, i, "<?"))
		return 3;
	if (at(c, i + 1) == '!' && at(c, i + 2) >= 'A' && at(c, i + 2) <= 'Z')
		return 4;
	if (word_at(c, i, "<![cdata["))
		return 5;
	name = i + 1 + (at(c, i + 1) == '/');
	for (k = 0; k < ARRAY_SIZE(html6_tags); k++) {
		size_t e = name + strlen(html6_tags[k]);

		if (word_at(c, name, html6_tags[k]) &&
		    (spacechar(at(c, e)) || at(c, e) == '>' ||
		     (at(c, e) == '/' && at(c, e + 1) == '>')))
			return 6;
	}
	return !para && html7(c) ? 7 : 0;
}

/* Does the line, from fns, end an HTML block of this type? */
bool mdl_html_end(const struct cur *c, int type)
{
	switch (type) {
	case 1:
		return contains_from(c, c->fns, "</script>") ||
		       contains_from(c, c->fns, "</pre>") ||
		       contains_from(c, c->fns, "</style>");
	case 2:
		return contains_from(c, c->fns, "-->");
	case 3:
		return contains_from(c, c->fns, "?>");
	case 4:
		return contains_from(c, c->fns, ">");
	case 5:
		return contains_from(c, c->fns, "]]>");
	default:
		return false; /* 6, 7: a blank line ends them */
	}
}

/* `#`{1,6} then a space, a tab or the end. */
bool mdl_atx_heading(const struct cur *c)
{
	size_t n = mdl_run_len(c, c->fns, '#');

	return n >= 1 && n <= 6 && space_or_end(at(c, c->fns + n));
}

/* Three or more of `*`, `-` or `_`, spaces and tabs between, nothing
 * else. */
bool mdl_thematic_break(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t i, count = 0;

	if (ch != '*' && ch != '-' && ch != '_')
		return false;
	/*@ loop invariant CurOK(c);
	    loop assigns i, count; */
	for (i = c->fns; i < c->n; i++) {
		if (c->p[i] == ch)
			count++;
		else if (!space_or_tab((unsigned char)c->p[i]))
			return false;
	}
	return count >= 3;
}

/* `=`+ or `-`+, then only spaces and tabs. */
bool mdl_setext_line(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t n;

	if (ch != '=' && ch != '-')
		return false;
	n = mdl_run_len(c, c->fns, (char)ch);
	return mdl_rest_blank(c, c->fns + n);
}

/*
 * A list marker at fns (cmark's parse_list_marker): its width, 0 when
 * none. `interrupts`: it would interrupt a paragraph (then an empty item
 * or an ordered start other than 1 is no item).
 */
size_t mdl_list_marker(const struct cur *c, bool interrupts)
{
	size_t i = c->fns, start = i;
	int ch = at(c, i);

	if (ch == '*' || ch == '-' || ch == '+') {
		i++;
	} else if (is_digit(ch)) {
		unsigned long v = 0;
		int digits = 0;

		/*@ loop invariant CurOK(c) && 0 <= digits <= 8;
		    loop assigns v, i, digits; */
		do {
			v = v * 10 + (unsigned long)(at(c, i) - '0');
			i++;
			digits++;
		} while (digits < 9 && is_digit(at(c, i)));
		if (interrupts && v != 1)
			return 0;
		if (at(c, i) != '.' && at(c, i) != ')')
			return 0;
		i++;
	} else {
		return 0;
	}
	if (!space_or_end(at(c, i)))
		return 0;
	if (interrupts && mdl_rest_blank(c, i))
		return 0;
	return i - start;
}

/* Only spaces, at most 3, before fns: BEHAVIOR A3's own fence form. */
bool mdl_plain_prefix(const struct cur *c)
{
	size_t i;

	if (c->fns > 3)
		return false;
	/*@ loop invariant CurOK(c) && 0 <= i <= c->fns;
	    loop assigns i; */
	for (i = 0; i < c->fns; i++)
		if (c->p[i] != ' ')
			return false;
	return true;
}

