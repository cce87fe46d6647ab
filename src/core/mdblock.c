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
 * multiple of 4; a tab may be consumed in part. This file holds the
 * containers and the leaves; mdblock_line.c the cursor over one line and
 * what a line may start (fences, HTML blocks, headings, breaks, items).
 */
#include "core/mdblock.h"

#include <string.h>

#include "base/util.h"
#include "core/mdblock_int.h"

static bool push(struct md_block *b, char kind, unsigned need)
{
	/* >=, not ==: the bound EVA needs for c[] (docs/proof-alarms.md) */
	if (b->depth >= MD_MAX_DEPTH) {
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

		mdl_first_nonspace(c);
		if (k->kind == 'q') {
			if (c->indent > 3 || at(c, c->fns) != '>')
				break;
			mdl_advance(c, c->indent + 1, true);
			if (space_or_tab(at(c, c->off)))
				mdl_advance(c, 1, true);
		} else if (c->indent >= k->need) {
			mdl_advance(c, k->need, true);
		} else if (c->blank && k->has_content) {
			mdl_advance(c, c->fns - c->off, false);
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

	mdl_advance(c, c->fns + width - c->off, false);
	save_off = c->off;
	save_col = c->col;
	while (c->col - save_col <= 5 && space_or_tab(at(c, c->off)))
		mdl_advance(c, 1, true);
	pad = c->col - save_col;
	if (pad >= 5 || pad < 1 || c->off >= c->n) {
		c->off = save_off;
		c->col = save_col;
		if (pad > 0)
			mdl_advance(c, 1, true);
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
	bool icode_line;     /* in an indented code block */
	bool pre_line;       /* in a type-1 HTML block (<pre>, <script>...) */
};

/* The open leaf, when every container matched: does the line continue it
 * (and for a fence, close it)? Returns true when the line is done. */
static bool continue_leaf(struct md_block *b, struct cur *c, struct step *s)
{
	size_t run;

	mdl_first_nonspace(c);
	switch (b->leaf) {
	case MD_FENCE:
		s->fence_line = true;
		run = c->indent <= 3 && at(c, c->fns) == b->fch
			      ? mdl_run_len(c, c->fns, b->fch)
			      : 0;
		if (run >= b->flen && mdl_rest_blank(c, c->fns + run))
			b->leaf = MD_NONE; /* the closing fence */
		return true;
	case MD_HTML:
		if ((b->html == 6 || b->html == 7) && c->blank) {
			s->all_matched = false;
			return false;
		}
		s->html_line = true;
		s->pre_line = s->pre_line || b->html == 1;
		if (mdl_html_end(c, b->html))
			b->leaf = MD_NONE;
		return true;
	case MD_ICODE:
		if (c->indent >= CODE_INDENT || c->blank) {
			s->icode_line = true;
			return true;
		}
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

	if (mdl_atx_heading(c)) {
		close_for_new(b, s);
		return true;
	}
	if ((n = mdl_fence_open(c)) != 0) {
		close_for_new(b, s);
		b->leaf = MD_FENCE;
		b->fch = c->p[c->fns];
		b->flen = n;
		b->fplain = mdl_plain_prefix(c);
		b->fopen_line = b->line;
		s->fence_line = true;
		s->fence_opened = true;
		return true;
	}
	if ((type = mdl_html_start(c, para)) != 0) {
		close_for_new(b, s);
		b->leaf = MD_HTML;
		b->html = type;
		s->html_line = true;
		s->pre_line = s->pre_line || type == 1;
		if (mdl_html_end(c, type))
			b->leaf = MD_NONE;
		return true;
	}
	if (para && mdl_setext_line(c)) {
		b->leaf = MD_NONE; /* the paragraph became a heading */
		s->opened = true;
		return true;
	}
	if (mdl_thematic_break(c)) {
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

		mdl_first_nonspace(c);
		if (c->indent >= CODE_INDENT) {
			if (!maybe_lazy && !c->blank) {
				close_for_new(b, s);
				b->leaf = MD_ICODE;
				s->leaf_opened = true;
				s->icode_line = true;
			}
			return;
		}
		if (at(c, c->fns) == '>') {
			close_for_new(b, s);
			mdl_advance(c, c->fns + 1 - c->off, false);
			if (space_or_tab(at(c, c->off)))
				mdl_advance(c, 1, true);
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
		if ((width = mdl_list_marker(c, para)) != 0) {
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

/* N65: a <pre> or <code> element opened in an HTML block (`<details><pre>`,
 * `<div><code>`) shows what follows as code until it closes, in a browser,
 * whatever block cmark puts the lines in. Counted on HTML block lines
 * only (a code span in prose is not an element). */
static bool tag_at(const char *p, size_t n, size_t i, const char *name)
{
	size_t k, m = strlen(name);

	for (k = 0; k < m; k++)
		if (i + k >= n || to_lower((unsigned char)p[i + k]) != name[k])
			return false;
	return i + m == n || p[i + m] == '>' || p[i + m] == ' ' ||
	       p[i + m] == '\t' || p[i + m] == '/';
}

static void pre_scan(struct md_block *b, const char *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (p[i] != '<')
			continue;
		if (tag_at(p, n, i + 1, "pre") || tag_at(p, n, i + 1, "code")) {
			if (b->pre_open < 64)
				b->pre_open++;
		} else if (p[i + 1] == '/' && b->pre_open &&
			   (tag_at(p, n, i + 2, "pre") ||
			    tag_at(p, n, i + 2, "code"))) {
			b->pre_open--;
		}
	}
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
	s.pre_line = b->pre_open > 0;
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
	mdl_first_nonspace(&c);
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
	if (s.html_line)
		pre_scan(b, p, n);
	for (size_t i = 0; i < b->depth && !out->quoted; i++)
		out->quoted = b->c[i].kind == 'q';
	out->fenced = s.fence_line;
	out->opens = s.fence_opened;
	out->plain = s.fence_line && b->fplain;
	out->html = s.html_line;
	out->icode = s.icode_line;
	out->pre = s.pre_line;
	out->depth = b->depth;
}

unsigned md_indent(const char *line, size_t n)
{
	struct cur c;

	memset(&c, 0, sizeof(c));
	c.p = line;
	c.n = n;
	mdl_first_nonspace(&c);
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
		out->icode = out->icode || one.icode;
		out->pre = out->pre || one.pre;
		out->quoted = out->quoted || one.quoted;
		out->depth = one.depth;
		start = i + 1;
	}
	out->fenced = fenced;
	out->plain = fenced && plain;
	out->opens = out->opens && out->fenced;
	out->open_line = b->fopen_line;
}
