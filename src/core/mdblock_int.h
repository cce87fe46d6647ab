/*
 * mdblock_int.h - what mdblock.c and mdblock_line.c share: the cursor over
 * one line, and what a line may start (private to them).
 */
#ifndef AA_MDBLOCK_INT_H
#define AA_MDBLOCK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/mdblock.h"

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

static inline int at(const struct cur *c, size_t i)
{
	return i < c->n ? (unsigned char)c->p[i] : -1;
}

static inline bool space_or_tab(int ch)
{
	return ch == ' ' || ch == '\t';
}

void mdl_first_nonspace(struct cur *c);
void mdl_advance(struct cur *c, size_t count, bool columns);
size_t mdl_run_len(const struct cur *c, size_t i, char ch);
bool mdl_rest_blank(const struct cur *c, size_t i);
size_t mdl_fence_open(const struct cur *c);
int mdl_html_start(const struct cur *c, bool para);
bool mdl_html_end(const struct cur *c, int type);
bool mdl_atx_heading(const struct cur *c);
bool mdl_thematic_break(const struct cur *c);
bool mdl_setext_line(const struct cur *c);
size_t mdl_list_marker(const struct cur *c, bool interrupts);
bool mdl_plain_prefix(const struct cur *c);

#endif
