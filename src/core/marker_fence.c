/*
 * marker_fence.c - fenced code as the verdict parser sees it (A3, A12): a
 * fence opens with 3 or more backticks or tildes after at most 3 spaces (a
 * backtick fence's info string holds no backtick) and counts only where
 * GitHub renders it as fenced code (core/mdblock.h); A3's letter alone,
 * for A12's rule that a key line inside any fence never supplies its key.
 */
#include "core/marker.h"

#include <string.h>

/* A3: a run of 3+ backticks or tildes after at most 3 spaces. */
static bool fence_run(struct mview line, char *ch, size_t *len,
		      bool *bare)
{
	size_t i = 0, n;

	/*@ loop invariant ViewOK((char *)line.p, line.n);
	    loop invariant 0 <= i <= 4 && i <= line.n;
	    loop assigns i; */
	while (i < line.n && i < 4 && line.p[i] == ' ')
		i++;
	if (i == 4 || i == line.n || (line.p[i] != '`' && line.p[i] != '~'))
		return false;
	*ch = line.p[i];
	/*@ loop invariant ViewOK((char *)line.p, line.n);
	    loop invariant i + n <= line.n;
	    loop assigns n; */
	for (n = 0; i + n < line.n && line.p[i + n] == *ch; n++)
		;
	if (n < 3)
		return false;
	*len = n;
	*bare = text_trim(mview_of(line.p + i + n, line.n - i - n)).n == 0;
	return true;
}

/* A12's CommonMark rule: a backtick fence's info string holds no
 * backtick (```go`x` is text). */
static bool opener_ok(struct mview line, char ch, size_t len)
{
	const char *run = memchr(line.p, ch, line.n);
	size_t off = (size_t)(run - line.p) + len;

	return ch != '`' || !memchr(line.p + off, '`', line.n - off);
}

bool marker_naive_fence_line(struct marker_naive_fence *f, struct mview line,
			     size_t lineno)
{
	char ch;
	size_t len;
	bool bare;

	if (!fence_run(line, &ch, &len, &bare))
		return f->ch != 0;
	if (!f->ch) {
		if (!opener_ok(line, ch, len))
			return false;
		f->ch = ch;
		f->len = len;
		f->open_line = lineno;
	} else if (ch == f->ch && len >= f->len && bare) {
		f->ch = 0;
	}
	return true;
}

bool marker_fence_line(struct marker_fence *f, struct mview line,
		       size_t lineno)
{
	struct md_line ml;
	bool fenced;

	(void)lineno; /* the tracker counts lines itself */
	md_block_line(&f->md, line.p, line.n, &ml);
	fenced = ml.fenced && ml.plain;
	f->any = ml.fenced;
	f->icode = ml.icode;
	f->pre = ml.pre;
	f->quoted = ml.quoted;
	if (fenced) {
		f->open_line = ml.open_line;
		f->len = f->md.flen;
	}
	f->ch = fenced && f->md.leaf == MD_FENCE ? f->md.fch : 0;
	return fenced;
}
