/*
 * specmodel.c - §2.2 as amended by A11 (every row-shaped line is a row)
 * and A12 (fences decide only where the block starts; a backtick fence's
 * info string holds no backtick), written from the text of the spec and
 * nothing else, so that gfmdiff can hold the spec against cmark-gfm.
 */
#include "specmodel.h"

#include <string.h>

#include "base/util.h"
#include "core/marker.h"

static bool starts_nocase(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word), i;

	if (n < k)
		return false;
	for (i = 0; i < k; i++)
		if (to_lower((unsigned char)p[i]) != word[i])
			return false;
	return true;
}

/* A11's bullets other than "-", "*" and "+", in UTF-8. */
static const char *const bullets[] = {
    "\xE2\x80\xA2", /* U+2022 bullet */
    "\xE2\x80\xA3", /* U+2023 triangular bullet */
    "\xE2\x97\xA6", /* U+25E6 white bullet */
    "\xE2\x81\x83", /* U+2043 hyphen bullet */
    "\xE2\x88\x99", /* U+2219 bullet operator */
    "\xC2\xB7",     /* U+00B7 middle dot */
};

bool specmodel_row(const char *line, size_t n)
{
	const char *p = line;
	size_t i;

	while (n && (is_ws((unsigned char)p[0]))) {
		p++;
		n--;
	}
	while (n && (is_ws((unsigned char)p[n - 1]) || p[n - 1] == '\r'))
		n--;
	/* A11 says head:, round:, clean:, threads: and <details> /
	 * <summary> lines are not rows; none of them, read narrowly, has a
	 * list marker or a key (see the header), so nothing is excluded. */
	/* After leading ws and any ">" quote markers: the line's marker. */
	{
		const char *q = p;
		size_t m = n;

		while (m && (is_ws((unsigned char)q[0]) || q[0] == '>')) {
			q++;
			m--;
		}
		if (m &&
		    (q[0] == '-' || q[0] == '*' || q[0] == '+' || q[0] == '|'))
			return true;
		if (starts_nocase(q, m, "<li"))
			return true;
		for (i = 0; i < ARRAY_SIZE(bullets); i++)
			if (m >= strlen(bullets[i]) &&
			    memcmp(q, bullets[i], strlen(bullets[i])) == 0)
				return true;
		for (i = 0; i < m && is_digit((unsigned char)q[i]); i++)
			;
		if (i > 0 && i < m && (q[i] == '.' || q[i] == ')'))
			return true;
	}
	return gfmdiff_has_key(p, n, false);
}

/* A3 with A12's CommonMark opener: the fence state before one line. */
struct mfence {
	char ch;
	size_t len, open;
};

static bool model_fence(struct mfence *f, struct mview line, size_t lineno)
{
	size_t i = 0, k, j;
	char ch;

	while (i < line.n && i < 4 && line.p[i] == ' ')
		i++;
	if (i == 4 || i == line.n || (line.p[i] != '`' && line.p[i] != '~'))
		return f->ch != 0;
	ch = line.p[i];
	for (k = 0; i + k < line.n && line.p[i + k] == ch; k++)
		;
	if (k < 3)
		return f->ch != 0;
	if (f->ch) {
		bool bare = true;

		for (j = i + k; j < line.n; j++)
			if (!is_ws((unsigned char)line.p[j]) &&
			    line.p[j] != '\r')
				bare = false;
		if (ch == f->ch && k >= f->len && bare)
			f->ch = 0;
		return true;
	}
	if (ch == '`' && memchr(line.p + i + k, '`', line.n - i - k))
		return false; /* A12: not a fence on GitHub */
	f->ch = ch;
	f->len = k;
	f->open = lineno;
	return true;
}

/* ---- the keys: §2.2's head:, round:, clean: lines, A12 and N65 ---------- */

enum mkey { MK_NONE, MK_HEAD, MK_ROUND, MK_CLEAN };

static struct mview trim(struct mview v)
{
	while (v.n && (is_ws((unsigned char)v.p[0]) || v.p[0] == '\r')) {
		v.p++;
		v.n--;
	}
	while (v.n &&
	       (is_ws((unsigned char)v.p[v.n - 1]) || v.p[v.n - 1] == '\r'))
		v.n--;
	return v;
}

/* §2.2: a line of its own, the key (any case), ws around the colon and at
 * both ends, a value of the key's form: 40 hex digits, decimal digits,
 * true or false. `*clean` is the clean: value. */
static enum mkey model_key(struct mview line, bool *clean)
{
	static const char *const names[] = {"head", "round", "clean"};
	struct mview v = trim(line);
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(names); k++)
		if (starts_nocase(v.p, v.n, names[k]))
			break;
	if (k == ARRAY_SIZE(names))
		return MK_NONE;
	v.p += strlen(names[k]);
	v.n -= strlen(names[k]);
	v = trim(v);
	if (!v.n || v.p[0] != ':')
		return MK_NONE;
	v.p++;
	v.n--;
	v = trim(v);
	if (!v.n)
		return MK_NONE;
	for (i = 0; i < v.n && k < 2; i++) {
		int c = (unsigned char)v.p[i];

		if (k == 0 ? !is_hex(c) : !is_digit(c))
			return MK_NONE;
	}
	if (k == 0)
		return v.n == 40 ? MK_HEAD : MK_NONE;
	if (k == 1)
		return MK_ROUND;
	*clean = mem_eq_nocase(v.p, v.n, "true");
	if (!*clean && !mem_eq_nocase(v.p, v.n, "false"))
		return MK_NONE;
	return MK_CLEAN;
}

/* Columns of leading ws (a tab to the next multiple of 4); blank lines
 * count as SIZE_MAX. */
static size_t indent_cols(struct mview v)
{
	size_t i, col = 0;

	for (i = 0; i < v.n; i++) {
		if (v.p[i] == ' ')
			col++;
		else if (v.p[i] == '\t')
			col += 4 - col % 4;
		else if (v.p[i] != '\r')
			return col;
	}
	return (size_t)-1;
}

/* After ws and quote markers, does the line start with one of these tags
 * ("<" name, then ws, ">" or the end)? */
static bool starts_tag(struct mview v, const char *const *tags, size_t n)
{
	size_t k, m;

	while (v.n && (is_ws((unsigned char)v.p[0]) || v.p[0] == '>')) {
		v.p++;
		v.n--;
	}
	if (!v.n || v.p[0] != '<')
		return false;
	for (k = 0; k < n; k++) {
		m = strlen(tags[k]);
		if (starts_nocase(v.p + 1, v.n - 1, tags[k]) &&
		    (v.n == m + 1 || v.p[m + 1] == '>' ||
		     is_ws((unsigned char)v.p[m + 1]) || v.p[m + 1] == '\r'))
			return true;
	}
	return false;
}

/*
 * Can an indented code block open on the line after this one? N65 names
 * the cases: after a blank line, a heading, a rule or an HTML line (the
 * check marker's own line is one); after paragraph text a 4-column line
 * continues the paragraph.
 */
static bool code_may_follow(struct mview v)
{
	struct mview t = trim(v);
	size_t i, k = 0;

	if (!t.n || t.p[0] == '#' || t.p[0] == '<')
		return true;
	for (i = 0; i < t.n; i++)
		if (t.p[i] == t.p[0])
			k++;
		else if (!is_ws((unsigned char)t.p[i]))
			return false;
	return k >= 3 && (t.p[0] == '-' || t.p[0] == '*' || t.p[0] == '_' ||
	                  t.p[0] == '`' || t.p[0] == '~');
}

/* Does the line hold one of CommonMark's type-1 end tags (any case)? */
static bool pre_ends(struct mview v)
{
	static const char *const ends[] = {"</pre>", "</script>", "</style>"};
	size_t i, k;

	for (i = 0; i < v.n; i++)
		for (k = 0; k < ARRAY_SIZE(ends); k++)
			if (starts_nocase(v.p + i, v.n - i, ends[k]))
				return true;
	return false;
}

/* What N65 calls code without a fence, line by line. */
struct mcode {
	bool icode;      /* the line is in an indented code block */
	bool pre;        /* ... in a <pre> (type-1 HTML) block */
	bool pre_open;   /* the <pre> block goes on past the line */
	bool may_follow; /* the line allows indented code to open after it */
	bool lead;       /* every block line since the marker was indented
	                  * code that opened right after it (N65) */
};

static void model_code(struct mcode *c, struct mview line)
{
	static const char *const type1[] = {"pre", "script", "style"};
	size_t cols = indent_cols(line);
	bool blank = cols == (size_t)-1;

	c->pre = c->pre_open;
	if (!c->pre && !(c->icode && (blank || cols >= 4)) &&
	    !(c->may_follow && !blank && cols >= 4) &&
	    starts_tag(line, type1, ARRAY_SIZE(type1)))
		c->pre = true; /* a <pre> line opens one */
	if (c->pre) {
		c->icode = false;
		c->pre_open = !pre_ends(line);
		c->may_follow = !c->pre_open;
		return;
	}
	if (c->icode && !blank && cols < 4)
		c->icode = false;
	else if (!c->icode && !blank && cols >= 4 && c->may_follow)
		c->icode = true;
	c->may_follow = c->icode || code_may_follow(line);
}

void specmodel_read(struct gfmdiff_reading *r, const char *body, size_t len)
{
	struct mfence f, kf;
	struct mcode code;
	struct mview line;
	size_t off = 0, lineno = 0, open, i;
	size_t key_line[4] = {0, 0, 0, 0};
	bool clean = false, clean_v = false, clean_conflict = false;

	gfmdiff_read_program(r, body, len);
	r->block_line = 0;
	r->second_line = 0;
	r->inconsistent = 0;
	for (i = 0; i <= r->nlines; i++) {
		r->flags[i] &= (unsigned char)~(GFMDIFF_L_ROW | GFMDIFF_L_KEY);
		r->fence[i] = 0;
	}
	memset(&f, 0, sizeof(f));
	memset(&kf, 0, sizeof(kf));
	memset(&code, 0, sizeof(code));
	code.may_follow = true;
	while (text_next_line(body, len, &off, &line)) {
		lineno++;
		/* N65's code without a fence, from the first line on. */
		model_code(&code, line);
		if (r->block_line) {
			enum mkey k;
			bool v = false, fenced;

			if (!code.icode)
				code.lead = false;
			/* A12: a key in an A3 fence only counts for the
			 * conflicts; N65: nor one shown as code. */
			fenced = model_fence(&kf, line, lineno) || code.pre ||
			         (code.icode && !code.lead);
			k = model_key(line, &v);
			if (k == MK_CLEAN && clean && v != clean_v)
				clean_conflict = true;
			if (k == MK_CLEAN && !clean) {
				clean = true;
				clean_v = v;
			}
			if (k != MK_NONE && !fenced && !key_line[k])
				key_line[k] = lineno;
		}
		if (!r->block_line) {
			open = f.ch ? f.open : lineno;
			if (model_fence(&f, line, lineno)) {
				r->fence[lineno] = f.ch ? f.open : open;
				continue;
			}
			if (!mem_contains(line.p, line.n, MARKER_CHECK_OPEN))
				continue;
			r->block_line = lineno;
			code.lead = !code.icode; /* N65 */
		} else if (!r->second_line &&
		           mem_contains(line.p, line.n, MARKER_CHECK_OPEN)) {
			r->second_line = lineno; /* A3, A12: R1 */
		}
		if (specmodel_row(line.p, line.n))
			r->flags[lineno] |= GFMDIFF_L_ROW;
	}
	/* A3: two clean: values are none. */
	if (clean_conflict)
		key_line[MK_CLEAN] = 0;
	for (i = MK_HEAD; i <= MK_CLEAN; i++)
		if (key_line[i])
			gfmdiff_mark_key(r, key_line[i]);
}
