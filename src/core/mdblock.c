/*
 * mdblock.c - cmark-gfm's block structure, as far as it decides which
 * lines are fenced code (mdblock.h).
 *
 * The algorithm is CommonMark's (spec 0.29, appendix "A parsing strategy",
 * as cmark's blocks.c implements it): each line first continues the open
 * containers it can (block quotes: `>`; list items: enough indent, or a
 * blank line once the item has content), then opens new blocks on what is
 * left, then lands as text in the deepest block — or, when nothing new
 * opened and a paragraph was open, continues that paragraph lazily and
 * keeps the unmatched containers open. Columns count tabs to the next
 * multiple of 4; a tab may be consumed in part.
 */
#include "core/mdblock.h"

#include <string.h>

#include "base/util.h"

#define TAB_STOP    4
#define CODE_INDENT 4

/* A line being consumed: byte offset, column, and what lies ahead. */
struct cur {
	const char *p;
	size_t n;
	size_t off;
	unsigned col;
	size_t fns;       /* first non-space at or after off */
	unsigned fns_col;
	unsigned indent;  /* fns_col - col */
	bool blank;       /* nothing but spaces/tabs from off */
};

static int at(const struct cur *c, size_t i)
{
	return i < c->n ? (unsigned char)c->p[i] : -1;
}

static bool space_or_tab(int ch)
{
	return ch == ' ' || ch == '\t';
}

/* cmark_isspace, with the line's end counting as one. */
static bool space_or_end(int ch)
{
	return ch < 0 || ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f';
}

static void first_nonspace(struct cur *c)
{
	unsigned to_tab = TAB_STOP - (c->col % TAB_STOP);
	size_t i = c->off;
	unsigned col = c->col;

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
static void advance(struct cur *c, size_t count, bool columns)
{
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
	for (k = 0; k < n; k++)
		if (to_lower((unsigned char)c->p[i + k]) != w[k])
			return false;
	return true;
}

/* Does [from, n) contain `w` (ASCII case-insensitive)? */
static bool contains_from(const struct cur *c, size_t from, const char *w)
{
	size_t i;

	for (i = from; i < c->n; i++)
		if (word_at(c, i, w))
			return true;
	return false;
}

/* A run of the character at i: its length. */
static size_t run_len(const struct cur *c, size_t i, char ch)
{
	size_t k = i;

	while (k < c->n && c->p[k] == ch)
		k++;
	return k - i;
}

static bool rest_blank(const struct cur *c, size_t i)
{
	for (; i < c->n; i++)
		if (!space_or_tab((unsigned char)c->p[i]))
			return false;
	return true;
}

/* ``` or ~~~ at fns: the run's length, 0 when no opener (a backtick
 * fence's info string holds no backtick). */
static size_t fence_open(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t n, i;

	if (ch != '`' && ch != '~')
		return 0;
	n = run_len(c, c->fns, (char)ch);
	if (n < 3)
		return 0;
	if (ch == '`')
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
	while (i < c->n && spacechar((unsigned char)c->p[i]))
		i++;
	return i;
}

/* [A-Za-z][A-Za-z0-9-]*: the end, or 0 when none. */
static size_t tagname(const struct cur *c, size_t i)
{
	if (!is_alpha(at(c, i)))
		return 0;
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
		for (k = i + 1; k < c->n; k++)
			if (c->p[k] == q)
				return k + 1;
		return 0;
	}
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
		for (;;) { /* attribute* */
			k = skip_space(c, i);
			if (k == i || !(is_alpha(at(c, k)) || at(c, k) == '_' ||
					 at(c, k) == ':'))
				break;
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
static int html_start(const struct cur *c, bool para)
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
static bool html_end(const struct cur *c, int type)
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
static bool atx_heading(const struct cur *c)
{
	size_t n = run_len(c, c->fns, '#');

	return n >= 1 && n <= 6 && space_or_end(at(c, c->fns + n));
}

/* Three or more of `*`, `-` or `_`, spaces and tabs between, nothing
 * else. */
static bool thematic_break(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t i, count = 0;

	if (ch != '*' && ch != '-' && ch != '_')
		return false;
	for (i = c->fns; i < c->n; i++) {
		if (c->p[i] == ch)
			count++;
		else if (!space_or_tab((unsigned char)c->p[i]))
			return false;
	}
	return count >= 3;
}

/* `=`+ or `-`+, then only spaces and tabs. */
static bool setext_line(const struct cur *c)
{
	int ch = at(c, c->fns);
	size_t n;

	if (ch != '=' && ch != '-')
		return false;
	n = run_len(c, c->fns, (char)ch);
	return rest_blank(c, c->fns + n);
}

/*
 * A list marker at fns (cmark's parse_list_marker): its width, 0 when
 * none. `interrupts`: it would interrupt a paragraph (then an empty item
 * or an ordered start other than 1 is no item).
 */
static size_t list_marker(const struct cur *c, bool interrupts)
{
	size_t i = c->fns, start = i;
	int ch = at(c, i);

	if (ch == '*' || ch == '-' || ch == '+') {
		i++;
	} else if (is_digit(ch)) {
		unsigned long v = 0;
		int digits = 0;

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
	if (interrupts && rest_blank(c, i))
		return 0;
	return i - start;
}

/* Only spaces, at most 3, before fns: BEHAVIOR A3's own fence form. */
static bool plain_prefix(const struct cur *c)
{
	size_t i;

	if (c->fns > 3)
		return false;
	for (i = 0; i < c->fns; i++)
		if (c->p[i] != ' ')
			return false;
	return true;
}

static bool push(struct md_block *b, char kind, unsigned need)
{
	if (b->depth == MD_MAX_DEPTH) {
		b->overflow = true;
		return false;
	}
	b->c[b->depth].kind = kind;
	b->c[b->depth].need = need;
	b->c[b->depth].has_content = false;
	b->depth++;
	return true;
}

/* Continue the open containers; returns how many the line continues. */
static size_t match_containers(struct md_block *b, struct cur *c)
{
	size_t i;

	for (i = 0; i < b->depth; i++) {
		struct md_container *k = &b->c[i];

		first_nonspace(c);
		if (k->kind == 'q') {
			if (c->indent > 3 || at(c, c->fns) != '>')
				break;
			advance(c, c->indent + 1, true);
			if (space_or_tab(at(c, c->off)))
				advance(c, 1, true);
		} else if (c->indent >= k->need) {
			advance(c, k->need, true);
		} else if (c->blank && k->has_content) {
			advance(c, c->fns - c->off, false);
		} else {
			break;
		}
	}
	return i;
}

/* A new list item at fns: push it, consume its marker and padding. */
static bool open_item(struct md_block *b, struct cur *c, size_t width)
{
	unsigned marker_offset = c->indent, save_col, pad;
	size_t save_off;

	advance(c, c->fns + width - c->off, false);
	save_off = c->off;
	save_col = c->col;
	while (c->col - save_col <= 5 && space_or_tab(at(c, c->off)))
		advance(c, 1, true);
	pad = c->col - save_col;
	if (pad >= 5 || pad < 1 || c->off >= c->n) {
		c->off = save_off;
		c->col = save_col;
		if (pad > 0)
			advance(c, 1, true);
		pad = 1;
	}
	return push(b, 'l', marker_offset + (unsigned)width + pad);
}

struct step {
	size_t matched;      /* containers the line continued */
	bool all_matched;    /* ... all of them, and the open leaf */
	bool opened;         /* a new container or leaf opened */
	bool leaf_opened;    /* a new leaf opened (or a paragraph turned) */
	bool fence_line;     /* the line is fenced code (open, close, in) */
	bool fence_opened;
	bool html_line;
};

/* The open leaf, when every container matched: does the line continue it
 * (and for a fence, close it)? Returns true when the line is done. */
static bool continue_leaf(struct md_block *b, struct cur *c, struct step *s)
{
	size_t run;

	first_nonspace(c);
	switch (b->leaf) {
	case MD_FENCE:
		s->fence_line = true;
		run = c->indent <= 3 && at(c, c->fns) == b->fch
			      ? run_len(c, c->fns, b->fch)
			      : 0;
		if (run >= b->flen && rest_blank(c, c->fns + run))
			b->leaf = MD_NONE; /* the closing fence */
		return true;
	case MD_HTML:
		if ((b->html == 6 || b->html == 7) && c->blank) {
			s->all_matched = false;
			return false;
		}
		s->html_line = true;
		if (html_end(c, b->html))
			b->leaf = MD_NONE;
		return true;
	case MD_ICODE:
		if (c->indent >= CODE_INDENT || c->blank)
			return true;
		s->all_matched = false;
		return false;
	case MD_PARA:
		if (c->blank)
			s->all_matched = false;
		return false;
	case MD_NONE:
		return false;
	}
	return false;
}

/* A new block opens: what the line did not continue closes, and so does
 * the open leaf (a paragraph cannot hold a block). */
static void close_for_new(struct md_block *b, struct step *s)
{
	b->depth = s->matched;
	b->leaf = MD_NONE;
	s->opened = true;
}

/* The leaf blocks a line can open (after its containers). `para`: the
 * open paragraph continues on this line (cmark's "container is a
 * paragraph"), so only some blocks may interrupt it. */
static bool open_leaf(struct md_block *b, struct cur *c, struct step *s,
		      bool para)
{
	size_t n;
	int type;

	if (atx_heading(c)) {
		close_for_new(b, s);
		return true;
	}
	if ((n = fence_open(c)) != 0) {
		close_for_new(b, s);
		b->leaf = MD_FENCE;
		b->fch = c->p[c->fns];
		b->flen = n;
		b->fplain = plain_prefix(c);
		b->fopen_line = b->line;
		s->fence_line = true;
		s->fence_opened = true;
		return true;
	}
	if ((type = html_start(c, para)) != 0) {
		close_for_new(b, s);
		b->leaf = MD_HTML;
		b->html = type;
		s->html_line = true;
		if (html_end(c, type))
			b->leaf = MD_NONE;
		return true;
	}
	if (para && setext_line(c)) {
		b->leaf = MD_NONE; /* the paragraph became a heading */
		s->opened = true;
		return true;
	}
	if (thematic_break(c)) {
		close_for_new(b, s);
		return true;
	}
	return false;
}

/* Open new blocks on what the containers left. */
static void open_blocks(struct md_block *b, struct cur *c, struct step *s)
{
	bool maybe_lazy = b->leaf == MD_PARA;

	for (;;) {
		bool para = s->all_matched && b->leaf == MD_PARA &&
			    !s->opened;
		size_t width;

		first_nonspace(c);
		if (c->indent >= CODE_INDENT) {
			if (!maybe_lazy && !c->blank) {
				close_for_new(b, s);
				b->leaf = MD_ICODE;
				s->leaf_opened = true;
			}
			return;
		}
		if (at(c, c->fns) == '>') {
			close_for_new(b, s);
			advance(c, c->fns + 1 - c->off, false);
			if (space_or_tab(at(c, c->off)))
				advance(c, 1, true);
			if (!push(b, 'q', 0))
				return;
			s->matched = b->depth;
			maybe_lazy = false;
			continue;
		}
		if (open_leaf(b, c, s, para)) {
			s->leaf_opened = true;
			return;
		}
		if ((width = list_marker(c, para)) != 0) {
			close_for_new(b, s);
			if (!open_item(b, c, width))
				return;
			s->matched = b->depth;
			maybe_lazy = false;
			continue;
		}
		return;
	}
}

static void mark_content(struct md_block *b, bool leaf_here)
{
	size_t i;

	for (i = 0; i + 1 < b->depth; i++)
		if (b->c[i].kind == 'l')
			b->c[i].has_content = true;
	if (leaf_here && b->depth && b->c[b->depth - 1].kind == 'l')
		b->c[b->depth - 1].has_content = true;
}

/* One line as cmark splits them (no CR or LF inside). */
static void process(struct md_block *b, const char *p, size_t n,
		    struct md_line *out)
{
	struct cur c;
	struct step s;

	memset(&c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));
	c.p = p;
	c.n = n;
	s.matched = match_containers(b, &c);
	s.all_matched = s.matched == b->depth;
	if (s.all_matched && continue_leaf(b, &c, &s)) {
		mark_content(b, true);
		goto done;
	}
	if (!s.all_matched && b->leaf != MD_PARA) {
		/* Only a paragraph continues lazily. */
		b->depth = s.matched;
		b->leaf = MD_NONE;
	}
	open_blocks(b, &c, &s);
	first_nonspace(&c);
	if (!s.opened && !s.all_matched && !c.blank && b->leaf == MD_PARA)
		goto done; /* lazy: the paragraph and its containers stay */
	if (!s.all_matched && !s.opened) {
		b->depth = s.matched;
		b->leaf = MD_NONE;
	}
	if (!s.leaf_opened && !c.blank && b->leaf != MD_PARA)
		b->leaf = MD_PARA;
	mark_content(b, s.leaf_opened || !c.blank);
done:
	out->fenced = s.fence_line;
	out->opens = s.fence_opened;
	out->plain = s.fence_line && b->fplain;
	out->html = s.html_line;
	out->depth = b->depth;
}

void md_block_init(struct md_block *b)
{
	memset(b, 0, sizeof(*b));
}

unsigned md_indent(const char *line, size_t n)
{
	struct cur c;

	memset(&c, 0, sizeof(c));
	c.p = line;
	c.n = n;
	first_nonspace(&c);
	return c.indent;
}

void md_block_line(struct md_block *b, const char *untrusted_line, size_t n,
		   struct md_line *out)
{
	size_t start = 0, i;
	bool fenced = true, plain = true;
	struct md_line one;

	memset(out, 0, sizeof(*out));
	b->line++;
	out->indent = md_indent(untrusted_line, n);
	if (n && untrusted_line[n - 1] == '\r')
		n--; /* the line's own end */
	/* cmark ends a line at a lone CR too: this line may be several. */
	for (i = 0; i <= n; i++) {
		if (i < n && untrusted_line[i] != '\r')
			continue;
		memset(&one, 0, sizeof(one));
		if (!b->overflow)
			process(b, untrusted_line + start, i - start, &one);
		fenced = fenced && one.fenced && !b->overflow;
		plain = plain && one.plain;
		out->opens = out->opens || one.opens;
		out->html = out->html || one.html;
		out->depth = one.depth;
		start = i + 1;
	}
	out->fenced = fenced;
	out->plain = fenced && plain;
	out->opens = out->opens && out->fenced;
	out->open_line = b->fopen_line;
}
