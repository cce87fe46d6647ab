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

void specmodel_read(struct gfmdiff_reading *r, const char *body, size_t len)
{
	struct mfence f;
	struct mview line;
	size_t off = 0, lineno = 0, open, i;

	gfmdiff_read_program(r, body, len);
	r->block_line = 0;
	r->second_line = 0;
	r->inconsistent = 0;
	for (i = 0; i <= r->nlines; i++) {
		r->flags[i] &= (unsigned char)~GFMDIFF_L_ROW;
		r->fence[i] = 0;
	}
	memset(&f, 0, sizeof(f));
	while (text_next_line(body, len, &off, &line)) {
		lineno++;
		if (!r->block_line) {
			open = f.ch ? f.open : lineno;
			if (model_fence(&f, line, lineno)) {
				r->fence[lineno] = f.ch ? f.open : open;
				continue;
			}
			if (!mem_contains(line.p, line.n, MARKER_CHECK_OPEN))
				continue;
			r->block_line = lineno;
		} else if (!r->second_line &&
		           mem_contains(line.p, line.n, MARKER_CHECK_OPEN)) {
			r->second_line = lineno; /* A3, A12: R1 */
		}
		if (specmodel_row(line.p, line.n))
			r->flags[lineno] |= GFMDIFF_L_ROW;
	}
}
