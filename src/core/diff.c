/*
 * diff.c - the RIGHT lines of a unified-diff patch (diff.h), PUBLISH.md
 * §4.1 step 1: a review comment with side RIGHT may sit on a hunk's
 * context or `+` line and nowhere else, so a finding is only attempted
 * inline on such a line. Every count is checked against the lines that
 * follow: a patch that does not add up names no line at all.
 */
#include "core/diff.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* A line of the patch, without its LF and one CR before it. */
struct line {
	const char *p;
	size_t n;
};

/* The parser's position: the next line to read and the hunk it is in. */
struct cursor {
	const char *p, *end;
	size_t lineno;       /* 1-based number of the line last read */
	int64_t left, right; /* lines the current hunk still owes */
	bool after_body;     /* the last line was a body line (for `\`) */
};

static bool next_line(struct cursor *c, struct line *out)
{
	const char *lf;

	if (c->p >= c->end)
		return false;
	lf = memchr(c->p, '\n', (size_t)(c->end - c->p));
	out->p = c->p;
	out->n = lf ? (size_t)(lf - c->p) : (size_t)(c->end - c->p);
	c->p = lf ? lf + 1 : c->end;
	if (out->n && out->p[out->n - 1] == '\r')
		out->n--;
	c->lineno++;
	return true;
}

/* Digits at *s (advanced past them) as a number ≤ DIFF_MAX_LINE. */
static int take_number(int64_t *out, const char **s, const char *end)
{
	const char *q = *s;

	while (q < end && is_digit((unsigned char)*q))
		q++;
	if (parse_decimal(out, *s, (size_t)(q - *s), DIFF_MAX_LINE) < 0)
		return AA_ERR;
	*s = q;
	return AA_OK;
}

/* `a[,b]` after the sign: an omitted count is 1. */
static int take_range(int64_t *start, int64_t *count, const char **s,
                      const char *end)
{
	if (take_number(start, s, end) < 0)
		return AA_ERR;
	*count = 1;
	if (*s < end && **s == ',') {
		(*s)++;
		if (take_number(count, s, end) < 0)
			return AA_ERR;
	}
	/* Line 0 only names the spot before line 1 of an empty side. */
	if (*count > 0 && *start == 0)
		return AA_ERR;
	if (*count > 0 && *start - 1 > DIFF_MAX_LINE - *count)
		return AA_ERR; /* its last line past the bound */
	return AA_OK;
}

static bool take_lit(const char **s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *s) < n || memcmp(*s, lit, n) != 0)
		return false;
	*s += n;
	return true;
}

/* `@@ -a[,b] +c[,d] @@` then the end of the line or a space and a heading. */
static int parse_header(struct diff_hunk *h, const struct line *l)
{
	const char *s = l->p, *end = l->p + l->n;

	if (!take_lit(&s, end, "@@ -") ||
	    take_range(&h->old_start, &h->old_count, &s, end) < 0 ||
	    !take_lit(&s, end, " +") ||
	    take_range(&h->new_start, &h->new_count, &s, end) < 0 ||
	    !take_lit(&s, end, " @@"))
		return AA_ERR;
	if (s < end && *s != ' ')
		return AA_ERR;
	if (h->old_count == 0 && h->new_count == 0)
		return AA_ERR; /* a hunk of no lines */
	return AA_OK;
}

/* Hunks come in order and never overlap, on both sides: diff_hunk_of()
 * relies on it, and a patch that breaks it was not made by git. */
static bool follows(const struct diff_hunk *prev, const struct diff_hunk *h)
{
	return h->old_start >= prev->old_start + prev->old_count &&
	       h->new_start >= prev->new_start + prev->new_count &&
	       (h->old_start > prev->old_start ||
	        h->new_start > prev->new_start);
}

/* One body line of the current hunk: which sides it takes a line from. */
static int take_body(struct cursor *c, const struct line *l)
{
	char k = l->n ? l->p[0] : ' '; /* empty: an empty context line */
	bool left = k == ' ' || k == '-', right = k == ' ' || k == '+';

	if (k == '\\') {
		if (!c->after_body)
			return AA_ERR;
		c->after_body = false;
		return AA_OK;
	}
	if (!left && !right)
		return AA_ERR;
	if ((left && c->left == 0) || (right && c->right == 0))
		return AA_ERR;
	c->left -= left;
	c->right -= right;
	c->after_body = true;
	return AA_OK;
}

static void add_hunk(struct diff_hunks *out, size_t *alloc,
                     const struct diff_hunk *h)
{
	ALLOC_GROW(out->v, out->n + 1, *alloc);
	out->v[out->n++] = *h;
}

int diff_parse(struct diff_hunks *out, const char *patch, size_t len,
               struct buf *err)
{
	struct cursor c = {patch, patch, 0, 0, 0, false};
	struct line l;
	struct diff_hunk h;
	size_t alloc = 0;
	const char *why = NULL;

	out->v = NULL;
	out->n = 0;
	if (!patch || len == 0)
		return AA_OK; /* no patch: binary or too large */
	c.end = patch + len;
	while (!why && next_line(&c, &l)) {
		bool owed = c.left > 0 || c.right > 0;

		if (owed || (l.n && l.p[0] == '\\')) {
			if (take_body(&c, &l) < 0)
				why = owed ? "does not fit its hunk"
				           : "is outside a hunk";
			continue;
		}
		if (parse_header(&h, &l) < 0)
			why = out->n ? "is neither in a hunk nor a hunk header"
			             : "is not a hunk header";
		else if (out->n && !follows(&out->v[out->n - 1], &h))
			why = "starts a hunk out of order";
		else {
			add_hunk(out, &alloc, &h);
			c.left = h.old_count;
			c.right = h.new_count;
			c.after_body = false;
		}
	}
	if (!why && (c.left > 0 || c.right > 0)) {
		why = "is missing: the hunk is shorter than its header";
		c.lineno++;
	}
	if (!why)
		return AA_OK;
	if (err)
		buf_setf(err, "patch line %zu %s", c.lineno, why);
	diff_hunks_release(out);
	return AA_ERR;
}

void diff_hunks_release(struct diff_hunks *h)
{
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

int diff_hunk_of(const struct diff_hunks *h, int64_t line)
{
	size_t i;

	if (line < 1)
		return -1;
	for (i = 0; i < h->n && i < (size_t)INT32_MAX; i++)
		if (line >= h->v[i].new_start &&
		    line - h->v[i].new_start < h->v[i].new_count)
			return (int)i;
	return -1;
}

int diff_file_init(struct diff_file *f, const char *path, const char *patch,
                   size_t len, struct buf *err)
{
	f->path = xstrdup(path);
	return diff_parse(&f->hunks, patch, len, err);
}

void diff_file_release(struct diff_file *f)
{
	free(f->path);
	f->path = NULL;
	diff_hunks_release(&f->hunks);
}

const struct diff_file *diff_file_find(const struct diff_file *v, size_t n,
                                       const char *path)
{
	const struct diff_file *found = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].path, path) != 0)
			continue;
		if (found)
			return NULL;
		found = &v[i];
	}
	return found;
}
