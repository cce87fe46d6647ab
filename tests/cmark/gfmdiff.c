/*
 * gfmdiff.c - issue 20's differential test: cmark-gfm (GitHub's Markdown
 * engine, with the extensions GitHub renders comments with) against a
 * reader of the verdict format, in the unsafe direction only: every line
 * GitHub shows as a row-like line inside the check block must be a row
 * (A4, A11), every fence skipped before the block must be code on GitHub
 * (A3, A12), every needs-human marker read must be one of the leading HTML
 * blocks (A2), every key the reader takes must be shown as text, not code
 * (A12, N65). cmark-gfm's positions are in its own lines (CR, LF, CRLF);
 * everything is mapped to the program's LF lines before comparing.
 */
#include "gfmdiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "base/util.h"
#include "core/marker.h"

void (*gfmdiff_feel)(int type, int parent, int grandparent, bool row);

/* GitHub renders comments with these (cmark-gfm's names). */
static const char *const extensions[] = {"table", "strikethrough", "autolink",
                                         "tagfilter", "tasklist"};

size_t gfmdiff_count_lines(const char *body, size_t len)
{
	size_t off = 0, n = 0;
	struct mview line;

	while (text_next_line(body, len, &off, &line))
		n++;
	return n;
}

void gfmdiff_reading_init(struct gfmdiff_reading *r, size_t nlines)
{
	memset(r, 0, sizeof(*r));
	r->nlines = nlines;
	r->flags = xcalloc(nlines + 1, sizeof(*r->flags));
	r->fence = xcalloc(nlines + 1, sizeof(*r->fence));
}

void gfmdiff_reading_release(struct gfmdiff_reading *r)
{
	free(r->flags);
	free(r->fence);
	memset(r, 0, sizeof(*r));
}

void gfmdiff_mark_key(struct gfmdiff_reading *r, size_t line)
{
	if (line >= 1 && line <= r->nlines)
		r->flags[line] |= GFMDIFF_L_KEY;
}

void gfmdiff_read_program(struct gfmdiff_reading *r, const char *body,
                          size_t len)
{
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;
	struct marker_fence fence;
	struct mview line, value;
	size_t off = 0, lineno = 0, run_end, open;
	bool fenced, past_header = false;

	marker_parse(&m, body, len);
	r->block_line = m.check.present ? m.check.block_line : 0;
	r->second_line = m.check.second_line;
	marker_rows_init(&it, body, len, &m.check);
	while (marker_rows_next(&it, &row)) {
		if (row.line < 1 || row.line > r->nlines)
			continue;
		r->flags[row.line] |= GFMDIFF_L_ROW;
		if (row.error != ROW_OK)
			r->flags[row.line] |= GFMDIFF_L_BAD;
	}
	/* (e): the key lines the block's keys come from (A12, N65). */
	if (m.check.has_head)
		gfmdiff_mark_key(r, m.check.head_line);
	if (m.check.has_round)
		gfmdiff_mark_key(r, m.check.round_line);
	if (m.check.has_clean)
		gfmdiff_mark_key(r, m.check.clean_line);

	/* Before the block the fences decide where it starts (A3, A12). */
	memset(&fence, 0, sizeof(fence));
	run_end = m.nh.run_end_line ? m.nh.run_end_line : r->nlines + 1;
	while (text_next_line(body, len, &off, &line)) {
		lineno++;
		if (!r->block_line || lineno < r->block_line) {
			open = fence.ch ? fence.open_line : lineno;
			fenced = marker_fence_line(&fence, line, lineno);
			if (fenced)
				r->fence[lineno] =
				    fence.ch ? fence.open_line : open;
			else if (!r->inconsistent &&
			         mem_contains(line.p, line.n,
			                      MARKER_CHECK_OPEN))
				r->inconsistent = lineno;
		}
		/* A2: the header and the marker lines of its leading run. */
		if (!m.nh.present || lineno >= run_end)
			continue;
		if (!past_header) {
			if (marker_is_blank(line))
				continue;
			past_header = true; /* the first non-blank line */
			r->flags[lineno] |= GFMDIFF_L_NH;
			continue;
		}
		if (marker_is_comment_line(line) &&
		    marker_nh_line(line, &value) != NHL_NONE)
			r->flags[lineno] |= GFMDIFF_L_NH;
	}
}

/* ---- matching "id:" / "status:" ---------------------------------------- */

static bool word_at(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word), i;

	if (n < k)
		return false;
	for (i = 0; i < k; i++)
		if (to_lower((unsigned char)p[i]) != word[i])
			return false;
	return true;
}

/* After `word` at p: ws* ":"? */
static bool key_at(const char *p, size_t n, const char *word)
{
	size_t i = strlen(word);

	if (!word_at(p, n, word))
		return false;
	while (i < n && is_ws((unsigned char)p[i]))
		i++;
	return i < n && p[i] == ':';
}

/* Characters that show as nothing (soft hyphen, zero-width space, joiners,
 * word joiner, BOM), and the no-break space that shows as a space. */
static size_t invisible(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0xC2 && p[1] == 0xAD)
		return 2; /* U+00AD */
	if (n >= 3 && p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x8B &&
	    p[2] <= 0x8D)
		return 3; /* U+200B..U+200D */
	if (n >= 3 && p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0xA0)
		return 3; /* U+2060 */
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		return 3; /* U+FEFF */
	return 0;
}

bool gfmdiff_has_key(const char *text, size_t n, bool shown)
{
	size_t i, cut = n, k, m = 0;
	char *t;
	bool found;

	if (shown) {
		t = xmalloc(n + 1);
		for (i = 0; i < n; i += k ? k : 1) {
			const unsigned char *u =
			    (const unsigned char *)text + i;

			k = invisible(u, n - i);
			if (k)
				continue;
			if (n - i >= 2 && u[0] == 0xC2 && u[1] == 0xA0) {
				t[m++] = ' '; /* U+00A0 */
				k = 2;
				continue;
			}
			t[m++] = text[i];
		}
		found = gfmdiff_has_key(t, m, false);
		free(t);
		return found;
	}
	for (i = 0; i + 7 <= n; i++)
		if (word_at(text + i, n - i, "reason:")) {
			cut = i;
			break;
		}
	for (i = 0; i < cut; i++)
		if (key_at(text + i, cut - i, "id") ||
		    key_at(text + i, cut - i, "status"))
			return true;
	return false;
}

/* ---- lines: the program's (LF) and cmark-gfm's (CR, LF, CRLF) ------------ */

struct lines {
	const char *text;
	size_t len;
	size_t nlf;       /* LF lines */
	size_t *lf_start; /* [nlf + 2]: byte offset of each LF line */
	size_t ncm;       /* cmark-gfm lines */
	size_t *cm_start; /* [ncm + 2] */
	size_t *cm_lf;    /* [ncm + 2]: the LF line holding each cmark line */
};

static void lines_init(struct lines *l, const char *text, size_t len,
                       size_t nlf)
{
	size_t i, lf = 1, cm = 1, ends = 0;

	for (i = 0; i < len; i++)
		if (text[i] == '\n' || text[i] == '\r')
			ends++;
	l->text = text;
	l->len = len;
	l->nlf = nlf;
	l->lf_start = xcalloc(ends + 3, sizeof(size_t));
	l->cm_start = xcalloc(ends + 3, sizeof(size_t));
	l->cm_lf = xcalloc(ends + 3, sizeof(size_t));
	l->cm_lf[1] = 1;
	l->lf_start[1] = 0;
	for (i = 0; i < len; i++) {
		if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue; /* CRLF: the LF ends both */
		if (text[i] == '\n') {
			lf++;
			l->lf_start[lf] = i + 1;
		} else if (text[i] != '\r') {
			continue;
		}
		cm++;
		l->cm_start[cm] = i + 1;
		l->cm_lf[cm] = lf;
	}
	l->ncm = cm;
	/* A final line end opens no line in either count. */
	for (i = 1; i <= l->ncm; i++)
		if (l->cm_lf[i] > nlf)
			l->cm_lf[i] = nlf ? nlf : 1;
}

static void lines_release(struct lines *l)
{
	free(l->lf_start);
	free(l->cm_start);
	free(l->cm_lf);
}

static struct mview lf_line(const struct lines *l, size_t lf)
{
	struct mview v = {l->text, 0};
	size_t end;

	if (lf < 1 || lf > l->nlf)
		return v;
	v.p = l->text + l->lf_start[lf];
	end = lf < l->nlf ? l->lf_start[lf + 1] - 1 : l->len;
	v.n = end - l->lf_start[lf];
	return v;
}

/* A cmark line's text, without its line end. */
static struct mview cm_line(const struct lines *l, size_t cm)
{
	struct mview v = {l->text, 0};
	size_t s, e;

	if (cm < 1 || cm > l->ncm)
		return v;
	s = l->cm_start[cm];
	e = cm < l->ncm ? l->cm_start[cm + 1] : l->len;
	while (e > s && (l->text[e - 1] == '\n' || l->text[e - 1] == '\r'))
		e--;
	v.p = l->text + s;
	v.n = e - s;
	return v;
}

static bool blank(struct mview v)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (!is_ws((unsigned char)v.p[i]))
			return false;
	return true;
}

static size_t clamp_cm(const struct lines *l, int line)
{
	if (line < 1)
		return 1;
	if ((size_t)line > l->ncm)
		return l->ncm;
	return (size_t)line;
}

/* ---- cmark-gfm's blocks ------------------------------------------------- */

struct leaf {
	cmark_node *node;
	size_t start, end; /* cmark lines, repaired */
	bool guess;        /* no usable positions inside: count line breaks */
	bool lost;         /* no position at all: placed between neighbours */
};

struct walk {
	const struct lines *l;
	const struct gfmdiff_reading *r;
	struct gfmdiff *out;
	unsigned opts;
	struct leaf *leaves;
	size_t nleaves, aleaves;
	unsigned char *cm_code; /* [ncm + 1]: in a code block */
	unsigned char *cm_lead; /* [ncm + 1]: in a leading HTML block */
	unsigned char *lf_done; /* [nlf + 1]: (a) checked */
	unsigned char *cm_done; /* [ncm + 1]: (a) checked, after a lone CR */
	char *text;             /* the rendered text of one line */
	size_t ntext, atext;
};

static bool is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);

	return t && strcmp(t, name) == 0;
}

static bool is_leaf_block(cmark_node *n)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_HEADING:
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_THEMATIC_BREAK:
		return true;
	default:
		return is_type(n, "table_row") || is_type(n, "table_header");
	}
}

static size_t count_nl(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

/*
 * A table that interrupts a paragraph reports the paragraph's first line
 * as its own and its header row's (and leaves the paragraph, and the
 * header's cells, without usable positions). Its body rows are right: the
 * header is two lines above the first of them (the delimiter row between),
 * or, without a body, the line above the table's last (the delimiter).
 */
static int header_line(cmark_node *table)
{
	cmark_node *head = cmark_node_first_child(table);
	cmark_node *row = head ? cmark_node_next(head) : NULL;

	if (row)
		return cmark_node_get_start_line(row) - 2;
	return cmark_node_get_end_line(table) - 1;
}

static void collect_leaves(struct walk *w, cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	size_t i;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		struct leaf *lf;

		if (ev != CMARK_EVENT_ENTER || !is_leaf_block(n))
			continue;
		ALLOC_GROW(w->leaves, w->nleaves + 1, w->aleaves);
		lf = &w->leaves[w->nleaves++];
		memset(lf, 0, sizeof(*lf));
		lf->node = n;
		lf->start = clamp_cm(w->l, cmark_node_get_start_line(n));
		lf->end = clamp_cm(w->l, cmark_node_get_end_line(n));
		if (cmark_node_get_start_line(n) <= 0)
			lf->lost = lf->guess = true;
		if (is_type(n, "table_header")) {
			lf->start = lf->end =
			    clamp_cm(w->l, header_line(cmark_node_parent(n)));
			lf->guess = true;
		} else if (is_type(n, "table_row")) {
			lf->end = lf->start; /* one line each */
		}
		/* HTML blocks report wrong end lines; their literal holds
		 * every line of the block. */
		if (cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK) {
			size_t k = count_nl(cmark_node_get_literal(n));

			lf->end =
			    clamp_cm(w->l, (int)(lf->start + (k ? k - 1 : 0)));
		}
		if (lf->end < lf->start)
			lf->end = lf->start;
	}
	cmark_iter_free(it);
	/* A block without a position lies between its neighbours. */
	for (i = 0; i < w->nleaves; i++) {
		if (!w->leaves[i].lost)
			continue;
		w->leaves[i].start = i ? w->leaves[i - 1].end + 1 : 1;
		w->leaves[i].end =
		    i + 1 < w->nleaves ? w->leaves[i + 1].start - 1 : w->l->ncm;
		w->leaves[i].start = clamp_cm(w->l, (int)w->leaves[i].start);
		w->leaves[i].end = clamp_cm(w->l, (int)w->leaves[i].end);
		if (w->leaves[i].end < w->leaves[i].start)
			w->leaves[i].end = w->leaves[i].start;
	}
	/* A block closed by its container's end reports the closing line:
	 * no leaf reaches into the next one. */
	for (i = 0; i + 1 < w->nleaves; i++) {
		size_t next = w->leaves[i + 1].start;

		if (next > w->leaves[i].start && w->leaves[i].end >= next)
			w->leaves[i].end = next - 1;
	}
}

static void context(char *out, size_t cap, cmark_node *n)
{
	size_t used = 0;
	int k;

	out[0] = '\0';
	for (; n && cmark_node_get_type(n) != CMARK_NODE_DOCUMENT;
	     n = cmark_node_parent(n)) {
		const char *t = cmark_node_get_type_string(n);
		const char *extra = "";

		if (cmark_node_get_type(n) == CMARK_NODE_LIST)
			continue; /* the item says which */
		if (cmark_node_get_type(n) == CMARK_NODE_ITEM)
			extra = cmark_node_get_list_type(
			            cmark_node_parent(n)) == CMARK_ORDERED_LIST
			            ? "(ordered)"
			            : "(bullet)";
		k = snprintf(out + used, cap - used, "%s%s%s",
		             used ? " < " : "", t ? t : "?", extra);
		if (k < 0 || (size_t)k >= cap - used)
			return; /* cut: the context is a diagnostic only */
		used += (size_t)k;
	}
}

static void add(struct walk *w, enum gfmdiff_kind kind, size_t line,
                size_t other, const char *why, cmark_node *n)
{
	struct gfmdiff_finding *f;

	if (w->out->n < GFMDIFF_MAX_FINDINGS) {
		f = &w->out->f[w->out->n];
		memset(f, 0, sizeof(*f));
		f->kind = kind;
		f->line = line;
		f->other = other;
		f->why = why;
		if (n)
			context(f->context, sizeof(f->context), n);
	}
	w->out->n++;
}

static bool in_block(const struct walk *w, size_t lf)
{
	return w->r->block_line && lf >= w->r->block_line && lf <= w->l->nlf;
}

/*
 * (a): cmark line cm, which cmark-gfm shows in block `node`, is row-like.
 * The reader must read its LF line as a row; but a line that a lone CR
 * started is, to the reader, the tail of the line before it (in a valid
 * row, part of the reason): GitHub shows it as a line of its own.
 */
static void row_like(struct walk *w, size_t cm, const char *why,
                     cmark_node *node)
{
	size_t lf = w->l->cm_lf[cm];
	bool after_cr = cm > 1 && w->l->cm_lf[cm - 1] == lf;

	if (!in_block(w, lf) || (after_cr ? w->cm_done[cm] : w->lf_done[lf]))
		return;
	w->out->checked_rows++;
	if (after_cr) {
		/* Read as an invalid row, the LF line fails closed whatever
		 * its tail says; a valid row would hide the tail. */
		w->cm_done[cm] = 1;
		if ((w->r->flags[lf] & (GFMDIFF_L_ROW | GFMDIFF_L_BAD)) !=
		    (GFMDIFF_L_ROW | GFMDIFF_L_BAD))
			add(w, GFMDIFF_HIDDEN_ROW, lf, 0,
			    "a line a lone CR starts", node);
		return;
	}
	w->lf_done[lf] = 1;
	if (!(w->r->flags[lf] & GFMDIFF_L_ROW))
		add(w, GFMDIFF_HIDDEN_ROW, lf, 0, why, node);
}

static void row_line(struct walk *w, size_t cm, const char *text, size_t n,
                     const char *why, cmark_node *node)
{
	if (gfmdiff_has_key(text, n, true))
		row_like(w, cm, why, node);
}

/* The rendered text of the inline content of a leaf, line by line. */
struct inl {
	struct walk *w;
	cmark_node *leaf;
	size_t lo, hi; /* the leaf's cmark lines */
	size_t cur;    /* the cmark line of the text being gathered */
	bool guess;    /* positions unusable: only line breaks move on */
};

static void text_add(struct walk *w, const char *s, size_t n)
{
	ALLOC_GROW(w->text, w->ntext + n + 1, w->atext);
	memcpy(w->text + w->ntext, s, n);
	w->ntext += n;
	w->text[w->ntext] = '\0';
}

/* Does the program read a row on any LF line of cmark lines lo..hi? */
static bool any_row_in(const struct walk *w, size_t lo, size_t hi)
{
	size_t cm;

	for (cm = lo; cm <= hi && cm <= w->l->ncm; cm++)
		if (w->r->flags[w->l->cm_lf[cm]] & GFMDIFF_L_ROW)
			return true;
	return false;
}

static void inl_flush(struct inl *in)
{
	/* cmark-gfm gave this block no position (0:0): which line the text
	 * stands on is a guess, so a row the program reads anywhere in the
	 * block's guessed lines answers it. */
	if (in->w->ntext && in->guess && any_row_in(in->w, in->lo, in->hi))
		in->w->ntext = 0;
	if (in->w->ntext)
		row_line(in->w, in->cur, in->w->text, in->w->ntext,
		         "rendered text", in->leaf);
	in->w->ntext = 0;
}

/* Move to cmark line `to` (never backwards: cmark-gfm's inline positions
 * lag after a backslash hard break, break counting after a code span that
 * spans lines; the larger of the two is right). */
static void inl_goto(struct inl *in, int to)
{
	size_t t;

	if (to < (int)in->lo)
		return;
	t = (size_t)to > in->hi ? in->hi : (size_t)to;
	if (t <= in->cur)
		return;
	inl_flush(in);
	in->cur = t;
}

static void code_span_lines(struct inl *in, cmark_node *c)
{
	size_t cm, lo = (size_t)cmark_node_get_start_line(c),
	           hi = (size_t)cmark_node_get_end_line(c);
	int sc = cmark_node_get_start_column(c),
	    ec = cmark_node_get_end_column(c);
	struct mview v;

	for (cm = lo; cm <= hi; cm++) {
		size_t from = 0, to;

		if (cm < in->lo || cm > in->hi)
			continue;
		v = cm_line(in->w->l, cm);
		to = v.n;
		/* Only the span's own text: columns count bytes from 1. */
		if (cm == lo && sc > 1 && (size_t)sc - 1 < v.n)
			from = (size_t)sc - 1;
		if (cm == hi && ec > 0 && (size_t)ec < v.n)
			to = (size_t)ec;
		if (to < from)
			to = from;
		row_line(in->w, cm, v.p + from, to - from,
		         "a code span's source", in->leaf);
	}
}

static void inl_walk(struct inl *in, cmark_node *n)
{
	cmark_node *c;
	const char *lit;

	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		/* An inline with children (a link, emphasis) is placed by its
		 * children: cmark-gfm gives a link that spans lines the
		 * position of its last line (`[a\nb](x)` starts "2:...") and
		 * a move there first would pin the first line's text to the
		 * last (fuzz_cmark, 2026-12-03). */
		if (!in->guess && !cmark_node_first_child(c))
			inl_goto(in, cmark_node_get_start_line(c));
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_CODE:
			/* A code span over several lines shows its source as
			 * it stands; its literal has lost the line ends that
			 * would place its text: judge its lines' source. */
			if (!in->guess && cmark_node_get_end_line(c) >
			                      cmark_node_get_start_line(c)) {
				code_span_lines(in, c);
				text_add(in->w, "\x1f", 1);
				break;
			}
			/* fall through */
		case CMARK_NODE_TEXT:
			lit = cmark_node_get_literal(c);
			if (lit)
				text_add(in->w, lit, strlen(lit));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			inl_goto(in, (int)in->cur + 1);
			break;
		case CMARK_NODE_HTML_INLINE:
			break; /* tags and comments are not shown as text */
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			text_add(in->w, "\x1f", 1); /* a number, not a key */
			break;
		default:
			if (is_type(c, "table_cell") && cmark_node_previous(c))
				text_add(in->w, "\x1f", 1); /* cells apart */
			inl_walk(in, c);
			break;
		}
		if (!in->guess)
			inl_goto(in, cmark_node_get_end_line(c));
	}
}

/* Where an HTML block line stands: in text, in a comment, in a tag. */
enum html_state { HTML_TEXT, HTML_COMMENT, HTML_TAG };

static const struct {
	const char *name;
	const char *utf8;
} entities[] = {{"colon", ":"},      {"nbsp", "\xC2\xA0"},
                {"amp", "&"},        {"lt", "<"},
                {"gt", ">"},         {"quot", "\""},
                {"apos", "'"},       {"Tab", "\t"},
                {"lpar", "("},       {"rpar", ")"},
                {"comma", ","},      {"period", "."},
                {"shy", "\xC2\xAD"}, {"ZeroWidthSpace", "\xE2\x80\x8B"}};

static void add_cp(struct walk *w, unsigned long cp)
{
	char u[4];
	size_t k;

	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		u[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		k = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		k = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		k = 4;
	}
	text_add(w, u, k);
}

/* An entity at p ("&...;"): its length, its text appended; 0 if none. */
static size_t entity(struct walk *w, const char *p, size_t n)
{
	size_t i = 1, k;
	unsigned long cp = 0;

	if (n > 2 && p[1] == '#') {
		bool hex = n > 3 && (p[2] == 'x' || p[2] == 'X');

		for (i = hex ? 3 : 2; i < n && i < 12; i++) {
			int c = (unsigned char)p[i];

			if (is_digit(c))
				cp = cp * (hex ? 16 : 10) +
				     (unsigned long)(c - '0');
			else if (hex && is_hex(c))
				cp = cp * 16 +
				     (unsigned long)(to_lower(c) - 'a' + 10);
			else
				break;
		}
		if (i < n && p[i] == ';' && i > (hex ? 3u : 2u)) {
			add_cp(w, cp);
			return i + 1;
		}
		return 0;
	}
	for (k = 0; k < ARRAY_SIZE(entities); k++) {
		size_t m = strlen(entities[k].name);

		if (n > m + 1 && memcmp(p + 1, entities[k].name, m) == 0 &&
		    p[m + 1] == ';') {
			text_add(w, entities[k].utf8, strlen(entities[k].utf8));
			return m + 2;
		}
	}
	return 0;
}

/*
 * What a browser shows of one line of an HTML block, into w->text: no
 * comments, no tags (HTML's tokenizer: "<" then a letter, "/", "!" or "?"
 * up to ">"; a comment up to "-->" or "--!>", "<!-->" a whole one),
 * entities decoded (the common ones). `st` carries a
 * comment or a tag over to the next line. GitHub's tagfilter shows
 * <script>, <style>, <textarea>… as text, so no element hides its content.
 */
static void html_shown(struct walk *w, struct mview v, enum html_state *st)
{
	size_t i = 0, k;

	w->ntext = 0;
	text_add(w, "", 0);
	while (i < v.n) {
		if (*st == HTML_COMMENT) {
			if (i + 3 <= v.n && memcmp(v.p + i, "-->", 3) == 0) {
				*st = HTML_TEXT;
				i += 3;
			} else if (i + 4 <= v.n &&
			           memcmp(v.p + i, "--!>", 4) == 0) {
				*st = HTML_TEXT;
				i += 4;
			} else {
				i++;
			}
			continue;
		}
		if (*st == HTML_TAG) {
			if (v.p[i] == '>')
				*st = HTML_TEXT;
			i++;
			continue;
		}
		if (v.p[i] == '<' && i + 4 <= v.n &&
		    memcmp(v.p + i, "<!--", 4) == 0) {
			/* HTML's <!--> and <!---> are whole (empty) comments */
			if (i + 5 <= v.n && v.p[i + 4] == '>') {
				i += 5;
				continue;
			}
			if (i + 6 <= v.n && memcmp(v.p + i + 4, "->", 2) == 0) {
				i += 6;
				continue;
			}
			*st = HTML_COMMENT;
			i += 4;
			continue;
		}
		if (v.p[i] == '<' && i + 1 < v.n &&
		    (is_alpha((unsigned char)v.p[i + 1]) || v.p[i + 1] == '/' ||
		     v.p[i + 1] == '!' || v.p[i + 1] == '?')) {
			*st = HTML_TAG; /* inline tags part no words */
			i++;
			continue;
		}
		if (v.p[i] == '&' && (k = entity(w, v.p + i, v.n - i)) > 0) {
			i += k;
			continue;
		}
		text_add(w, v.p + i, 1);
		i++;
	}
}

/* The shown text of an inline subtree, appended to w->text. */
static void plain(struct walk *w, cmark_node *n)
{
	cmark_node *c;
	const char *lit;

	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		cmark_node_type t = cmark_node_get_type(c);

		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
			lit = cmark_node_get_literal(c);
			if (lit)
				text_add(w, lit, strlen(lit));
		} else if (t == CMARK_NODE_SOFTBREAK ||
		           t == CMARK_NODE_LINEBREAK) {
			text_add(w, " ", 1);
		} else {
			plain(w, c);
		}
	}
}

/* Is this a table row under a column headed "id" or "status"? GitHub
 * then shows a ledger, whatever its cells say. */
static bool under_key_column(struct walk *w, cmark_node *row)
{
	cmark_node *table = cmark_node_parent(row), *head, *cell;
	bool found = false;

	if (!is_type(row, "table_row") || !table)
		return false;
	head = cmark_node_first_child(table);
	if (!head || !is_type(head, "table_header"))
		return false;
	for (cell = cmark_node_first_child(head); cell && !found;
	     cell = cmark_node_next(cell)) {
		struct mview v;

		w->ntext = 0;
		plain(w, cell);
		v.p = w->text ? w->text : "";
		v.n = w->ntext;
		while (v.n && (is_ws((unsigned char)v.p[0]) || v.p[0] == ':' ||
		               v.p[0] == '*')) {
			v.p++;
			v.n--;
		}
		while (v.n && (is_ws((unsigned char)v.p[v.n - 1]) ||
		               v.p[v.n - 1] == ':' || v.p[v.n - 1] == '*'))
			v.n--;
		found = mem_eq_nocase(v.p, v.n, "id") ||
		        mem_eq_nocase(v.p, v.n, "status");
	}
	w->ntext = 0;
	return found;
}

/* "<name" (any case), then attributes up to ">": consumed. */
static bool eat_tag(struct mview *v, const char *name)
{
	size_t n = strlen(name);
	const char *gt;

	if (v->n < n + 1 || v->p[0] != '<' || !mem_eq_nocase(v->p + 1, n, name) ||
	    (v->n > n + 1 && v->p[n + 1] != '>' && v->p[n + 1] != ' ' &&
	     v->p[n + 1] != '\t'))
		return false;
	gt = memchr(v->p, '>', v->n);
	if (!gt)
		return false;
	v->n -= (size_t)(gt + 1 - v->p);
	v->p = gt + 1;
	return true;
}

static void skip_blank(struct mview *v)
{
	while (v->n && (v->p[0] == ' ' || v->p[0] == '\t')) {
		v->p++;
		v->n--;
	}
}

/* Does this text start the way a row does (A11's markers)? */
static bool starts_like_row(struct mview v)
{
	static const char *const bullets[] = {"\xe2\x80\xa2", "\xe2\x80\xa3",
					      "\xe2\x97\xa6", "\xe2\x81\x83",
					      "\xe2\x88\x99", "\xc2\xb7"};
	size_t k, i = 0;

	skip_blank(&v);
	if (!v.n)
		return false;
	for (k = 0; k < sizeof(bullets) / sizeof(bullets[0]); k++)
		if (v.n >= strlen(bullets[k]) &&
		    memcmp(v.p, bullets[k], strlen(bullets[k])) == 0)
			return true;
	while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9')
		i++;
	if (i && i < v.n && (v.p[i] == '.' || v.p[i] == ')'))
		return true;
	return v.p[0] == '-' || v.p[0] == '*' || v.p[0] == '+' ||
	       v.p[0] == '|' || v.p[0] == '>' ||
	       (v.n >= 3 && mem_eq_nocase(v.p, 3, "<li"));
}

/*
 * BEHAVIOR §2.2/A11: "the <details> / <summary> lines are not rows" — the
 * spec's own exception, fenced or not (A12 reads fence lines as ordinary
 * lines): the tags alone, or <summary>…</summary> after an optional
 * <details>. The program keeps it unless what the summary says starts
 * like a row: then GitHub shows a row and the program reads an invalid one.
 * N67: nor when what it shows holds id: or status: — row_line then asks
 * for a row like on any other line.
 */
static bool spec_details_line(struct mview raw)
{
	struct mview v = raw;

	skip_blank(&v);
	while (v.n && (v.p[v.n - 1] == ' ' || v.p[v.n - 1] == '\t' ||
		       v.p[v.n - 1] == '\r'))
		v.n--;
	if (eat_tag(&v, "details")) {
		skip_blank(&v);
		if (!v.n)
			return true;
	} else if (eat_tag(&v, "/details") || eat_tag(&v, "/summary")) {
		skip_blank(&v);
		return !v.n;
	}
	if (!eat_tag(&v, "summary") || v.n < 10 ||
	    !mem_eq_nocase(v.p + v.n - 10, 10, "</summary>"))
		return false;
	v.n -= 10;
	return !starts_like_row(v) && !gfmdiff_has_key(v.p, v.n, true);
}

/* N67: "<tr", "<td" or "<th" first, a whole tag name: GitHub shows an
 * HTML table's row or cell, which must be a row whatever it holds (as a
 * GFM table's row under an id or status column). */
static bool html_table_line(struct mview v)
{
	skip_blank(&v);
	return eat_tag(&v, "tr") || eat_tag(&v, "td") || eat_tag(&v, "th");
}

static void leaf_rows(struct walk *w, const struct leaf *lf)
{
	cmark_node_type t = cmark_node_get_type(lf->node);
	size_t cm;
	struct mview v;
	struct inl in;
	enum html_state st = HTML_TEXT;

	switch (t) {
	case CMARK_NODE_THEMATIC_BREAK:
		return;
	case CMARK_NODE_CODE_BLOCK: /* shown as it stands */
		for (cm = lf->start; cm <= lf->end; cm++) {
			v = cm_line(w->l, cm);
			if (!spec_details_line(v))
				row_line(w, cm, v.p, v.n, "code as it stands",
					 lf->node);
		}
		return;
	case CMARK_NODE_HTML_BLOCK: /* tags and comments show nothing */
		for (cm = lf->start; cm <= lf->end; cm++) {
			v = cm_line(w->l, cm);
			html_shown(w, v, &st);
			if (html_table_line(v))
				row_like(w, cm, "an HTML table row or cell",
				         lf->node);
			else if (!spec_details_line(v))
				row_line(w, cm, w->text, w->ntext,
					 "shown HTML text", lf->node);
		}
		w->ntext = 0;
		return;
	default:
		break;
	}
	if (under_key_column(w, lf->node))
		row_like(w, lf->start, "a table row under an id/status column",
		         lf->node);
	/* The rendered text: what entities, escapes, emphasis and inline
	 * HTML make of the source. */
	in.w = w;
	in.leaf = lf->node;
	in.lo = lf->start;
	in.hi = lf->end;
	in.cur = lf->start;
	in.guess = lf->guess;
	w->ntext = 0;
	inl_walk(&in, lf->node);
	inl_flush(&in);
}

/* Lines in no block: a link reference definition (not shown), or one that
 * cmark-gfm misplaced. Held to the source rule all the same. */
static void uncovered_rows(struct walk *w)
{
	unsigned char *covered = xcalloc(w->l->ncm + 2, 1);
	size_t i, cm;
	struct mview v;
	enum html_state st;

	for (i = 0; i < w->nleaves; i++)
		for (cm = w->leaves[i].start; cm <= w->leaves[i].end; cm++)
			covered[cm] = 1;
	for (cm = 1; cm <= w->l->ncm; cm++) {
		if (covered[cm])
			continue;
		st = HTML_TEXT;
		v = cm_line(w->l, cm);
		html_shown(w, v, &st);
		row_line(w, cm, w->text, w->ntext, "shown text", NULL);
	}
	w->ntext = 0;
	free(covered);
}

static void feel(const struct walk *w, cmark_node *doc)
{
	cmark_iter *it;
	cmark_event_type ev;

	if (!gfmdiff_feel)
		return;
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it), *p, *g;
		size_t cm, lf;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		p = cmark_node_parent(n);
		g = p ? cmark_node_parent(p) : NULL;
		cm = clamp_cm(w->l, cmark_node_get_start_line(n));
		lf = w->l->cm_lf[cm];
		gfmdiff_feel((int)cmark_node_get_type(n),
		             p ? (int)cmark_node_get_type(p) : 0,
		             g ? (int)cmark_node_get_type(g) : 0,
		             lf <= w->r->nlines &&
		                 (w->r->flags[lf] & GFMDIFF_L_ROW));
	}
	cmark_iter_free(it);
}

static cmark_node *parse(const char *text, size_t len)
{
	cmark_parser *p;
	cmark_node *doc;
	size_t i;

	cmark_gfm_core_extensions_ensure_registered();
	/* SOURCEPOS: without it cmark-gfm does not track where an inline
	 * that spans lines ends, and the text after it lands a line early. */
	p = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_SOURCEPOS |
	                     CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8);
	if (!p)
		abort();
	for (i = 0; i < ARRAY_SIZE(extensions); i++) {
		cmark_syntax_extension *e =
		    cmark_find_syntax_extension(extensions[i]);

		if (!e || !cmark_parser_attach_syntax_extension(p, e))
			abort(); /* libcmark-gfm without GitHub's extensions */
	}
	cmark_parser_feed(p, text, len);
	doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	if (!doc)
		abort();
	return doc;
}

/* The cmark line of a byte offset. */
static size_t cm_of(const struct lines *l, size_t off)
{
	size_t lo = 1, hi = l->ncm;

	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (l->cm_start[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The innermost block cmark-gfm shows cmark line cm in, or NULL. */
static cmark_node *leaf_at(const struct walk *w, size_t cm)
{
	size_t i;

	for (i = 0; i < w->nleaves; i++)
		if (w->leaves[i].start <= cm && cm <= w->leaves[i].end)
			return w->leaves[i].node;
	return NULL;
}

/* (b): fences before the block, and where the block starts. */
static void check_fences(struct walk *w)
{
	const struct lines *l = w->l;
	size_t lf, cm, last_open = 0, shown = 0, shown_cm = 0;

	for (lf = 1; lf <= l->nlf; lf++) {
		struct mview v = lf_line(l, lf);
		size_t first;
		bool code = true;

		if (w->r->block_line && lf >= w->r->block_line)
			break;
		if (!w->r->fence[lf] || blank(v))
			continue;
		w->out->checked_fenced++;
		first = cm_of(l, l->lf_start[lf]);
		for (cm = first; cm <= l->ncm && l->cm_lf[cm] == lf; cm++)
			if (!w->cm_code[cm] && !blank(cm_line(l, cm)))
				code = false;
		if (!code && w->r->fence[lf] != last_open &&
		    !(w->opts & GFMDIFF_FENCE_EFFECT)) {
			last_open = w->r->fence[lf];
			add(w, GFMDIFF_FENCE, lf, last_open, NULL,
			    leaf_at(w, first));
		}
	}
	/* The first check marker GitHub does not show as code. */
	for (lf = 1; lf <= l->nlf && !shown; lf++) {
		struct mview v = lf_line(l, lf);
		size_t i;

		for (i = 0; i + sizeof(MARKER_CHECK_OPEN) - 1 <= v.n; i++) {
			if (memcmp(v.p + i, MARKER_CHECK_OPEN,
			           sizeof(MARKER_CHECK_OPEN) - 1) != 0)
				continue;
			cm = cm_of(l, l->lf_start[lf] + i);
			if (!w->cm_code[cm]) {
				shown = lf;
				shown_cm = cm;
				break;
			}
		}
	}
	if (shown && (!w->r->block_line || shown < w->r->block_line) &&
	    !w->r->second_line) {
		size_t open = w->r->fence[shown];

		add(w, GFMDIFF_BLOCK_START, shown, w->r->block_line, NULL,
		    leaf_at(w, open ? cm_of(l, l->lf_start[open]) : shown_cm));
		if (w->out->n <= GFMDIFF_MAX_FINDINGS)
			w->out->f[w->out->n - 1].opener = open;
	}
}

/* (c): every needs-human marker read is a leading top-level HTML block. */
static void check_markers(struct walk *w, cmark_node *doc)
{
	const struct lines *l = w->l;
	cmark_node *c;
	size_t i, lf, cm;

	for (c = cmark_node_first_child(doc); c; c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) != CMARK_NODE_HTML_BLOCK)
			break;
		for (i = 0; i < w->nleaves; i++)
			if (w->leaves[i].node == c)
				for (cm = w->leaves[i].start;
				     cm <= w->leaves[i].end; cm++)
					w->cm_lead[cm] = 1;
	}
	for (lf = 1; lf <= l->nlf; lf++) {
		bool ok = true;

		if (!(w->r->flags[lf] & GFMDIFF_L_NH))
			continue;
		w->out->checked_markers++;
		for (cm = cm_of(l, l->lf_start[lf]);
		     cm <= l->ncm && l->cm_lf[cm] == lf; cm++)
			if (!w->cm_lead[cm] && !blank(cm_line(l, cm)))
				ok = false;
		if (!ok)
			add(w, GFMDIFF_NH_MARKER, lf, 0, NULL,
			    leaf_at(w, cm_of(l, l->lf_start[lf])));
	}
}

/* cmark-gfm 0.29's type-1 HTML block: "<pre", "<script" or "<style" (any
 * case) then ws, ">" or the end of the line, after at most 3 spaces (its
 * literal may keep them). Its content shows as it stands. */
static bool html_type1(cmark_node *n)
{
	static const char *const tags[] = {"pre", "script", "style"};
	const char *lit = cmark_node_get_literal(n);
	size_t i, k, m;

	if (!lit)
		return false;
	while (*lit == ' ' || *lit == '\t')
		lit++;
	if (*lit != '<')
		return false;
	lit++;
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		m = strlen(tags[i]);
		for (k = 0; k < m; k++)
			if (to_lower((unsigned char)lit[k]) != tags[i][k])
				break;
		if (k == m && (lit[m] == '\0' || lit[m] == '>' ||
		               is_ws((unsigned char)lit[m]) || lit[m] == '\n' ||
		               lit[m] == '\r'))
			return true;
	}
	return false;
}

/* Does a block starting at cmark line cm open on the line right after the
 * check block's marker line (at its start, not after a lone CR)? */
static bool opens_after_marker(const struct walk *w, size_t cm)
{
	const struct lines *l = w->l;

	return w->r->block_line && l->cm_lf[cm] == w->r->block_line + 1 &&
	       (cm == 1 || l->cm_lf[cm - 1] != l->cm_lf[cm]);
}

/*
 * (e): every key line the reader supplies a key from is shown as text, not
 * as code or a quote: not in a fenced or indented code block, nor in a
 * type-1 HTML block, nor in a block quote (N66) — except indented code that opens on the line right after the
 * block's marker line (N65). The part of the line that holds the key is
 * its first non-blank cmark line.
 */
static void check_keys(struct walk *w)
{
	const struct lines *l = w->l;
	size_t lf, cm, i;

	for (lf = 1; lf <= l->nlf; lf++) {
		const struct leaf *in = NULL;
		cmark_node *n;
		const char *why = NULL;
		int flen, foff;
		char fch;

		if (!(w->r->flags[lf] & GFMDIFF_L_KEY))
			continue;
		w->out->checked_keys++;
		for (cm = cm_of(l, l->lf_start[lf]);
		     cm < l->ncm && l->cm_lf[cm + 1] == lf &&
		     blank(cm_line(l, cm));
		     cm++)
			;
		for (i = 0; i < w->nleaves && !in; i++)
			if (w->leaves[i].start <= cm && cm <= w->leaves[i].end)
				in = &w->leaves[i];
		if (!in)
			continue;
		n = in->node;
		if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK) {
			if (cmark_node_get_fenced(n, &flen, &foff, &fch))
				why = "fenced code";
			else if (!opens_after_marker(w, in->start))
				why = "indented code";
		} else if (cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK &&
		           html_type1(n)) {
			why = "a <pre> block";
		}
		for (cmark_node *up = cmark_node_parent(n); up && !why;
		     up = cmark_node_parent(up))
			if (cmark_node_get_type(up) == CMARK_NODE_BLOCK_QUOTE)
				why = "a block quote"; /* N66 */
		if (why)
			add(w, GFMDIFF_KEY_CODE, lf, 0, why, n);
	}
}

void gfmdiff_run(struct gfmdiff *out, const char *untrusted_body, size_t len,
                 const struct gfmdiff_reading *reading, unsigned opts)
{
	struct lines l;
	struct walk w;
	cmark_node *doc;
	size_t i, cm;

	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	lines_init(&l, untrusted_body, len, reading->nlines);
	doc = parse(untrusted_body, len);
	w.l = &l;
	w.r = reading;
	w.out = out;
	w.opts = opts;
	w.cm_code = xcalloc(l.ncm + 2, 1);
	w.cm_lead = xcalloc(l.ncm + 2, 1);
	w.lf_done = xcalloc(l.nlf + 2, 1);
	w.cm_done = xcalloc(l.ncm + 2, 1);

	if (reading->inconsistent)
		add(&w, GFMDIFF_READER, reading->inconsistent, 0, NULL, NULL);
	collect_leaves(&w, doc);
	for (i = 0; i < w.nleaves; i++)
		if (cmark_node_get_type(w.leaves[i].node) ==
		    CMARK_NODE_CODE_BLOCK)
			for (cm = w.leaves[i].start; cm <= w.leaves[i].end;
			     cm++)
				w.cm_code[cm] = 1;
	for (i = 0; i < w.nleaves; i++)
		leaf_rows(&w, &w.leaves[i]);
	uncovered_rows(&w);
	check_fences(&w);
	check_markers(&w, doc);
	check_keys(&w);
	feel(&w, doc);

	free(w.leaves);
	free(w.cm_code);
	free(w.cm_lead);
	free(w.lf_done);
	free(w.cm_done);
	free(w.text);
	cmark_node_free(doc);
	lines_release(&l);
}

const char *gfmdiff_kind_name(enum gfmdiff_kind k)
{
	switch (k) {
	case GFMDIFF_HIDDEN_ROW:
		return "hidden row";
	case GFMDIFF_FENCE:
		return "fence not code on GitHub";
	case GFMDIFF_BLOCK_START:
		return "check marker shown before the block";
	case GFMDIFF_NH_MARKER:
		return "needs-human marker not a leading HTML block";
	case GFMDIFF_KEY_CODE:
		return "key shown as code";
	case GFMDIFF_READER:
		return "reader inconsistent";
	}
	return "?";
}

bool gfmdiff_plausible(const char *body, size_t len)
{
	const unsigned char *p = (const unsigned char *)body;
	size_t i = 0, k, need;
	unsigned long cp, min;

	while (i < len) {
		if (p[i] == 0)
			return false;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((p[i] & 0xE0) == 0xC0) {
			need = 1;
			cp = p[i] & 0x1Fu;
			min = 0x80;
		} else if ((p[i] & 0xF0) == 0xE0) {
			need = 2;
			cp = p[i] & 0x0Fu;
			min = 0x800;
		} else if ((p[i] & 0xF8) == 0xF0) {
			need = 3;
			cp = p[i] & 0x07u;
			min = 0x10000;
		} else {
			return false;
		}
		if (len - i <= need)
			return false;
		for (k = 1; k <= need; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i + k] & 0x3Fu);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += need + 1;
	}
	return true;
}
