/*
 * mdblock.h - which lines GitHub renders as fenced code.
 *
 * BEHAVIOR A3 and A12 say fences follow CommonMark, and issue 20 found
 * that every difference between the program's idea of a fence and GitHub's
 * Markdown engine (cmark-gfm, CommonMark 0.29 block structure) is a place
 * where the two disagree on what the machine account said. This tracker
 * follows cmark's block algorithm line by line — block quotes and list
 * items as containers, fenced and indented code, HTML blocks (types 1-7),
 * paragraphs (for lazy continuation and for what may interrupt them) —
 * and reports, for each line, whether it belongs to a fenced code
 * block as GitHub shows it.
 *
 * Where the tracker cannot be exact it errs towards "not fenced": a fence
 * the program honours must be one GitHub renders (tests/cmark checks it
 * against cmark-gfm), because a fence hides lines. Type-7 HTML blocks are
 * assumed wherever a tag starts a line, even where cmark would see a
 * paragraph continue; a table (cmark-gfm's extension) is read as the
 * paragraph it starts as, which lets fewer blocks interrupt it; nesting
 * deeper than MD_MAX_DEPTH is read as plain text.
 *
 * Pure: no allocation; each line is looked at a bounded number of times.
 */
#ifndef AA_MDBLOCK_H
#define AA_MDBLOCK_H

#include <stdbool.h>
#include <stddef.h>

/* Containers (block quotes, list items) tracked; deeper is plain text. */
#define MD_MAX_DEPTH 32

enum md_leaf {
	MD_NONE,  /* nothing open (after a blank line, a heading, a break) */
	MD_PARA,  /* a paragraph: lazy continuation, no type-7 interruption */
	MD_FENCE, /* a fenced code block */
	MD_HTML,  /* an HTML block, md_block.html its type */
	MD_ICODE  /* an indented code block */
};

struct md_container {
	char kind;          /* 'q' block quote, 'l' list item */
	unsigned need;      /* list item: columns of indent that continue it */
	bool has_content;   /* list item: a non-blank line was added */
};

struct md_block {
	struct md_container c[MD_MAX_DEPTH];
	size_t depth;
	bool overflow;      /* nesting went past MD_MAX_DEPTH: plain text */
	enum md_leaf leaf;
	int html;           /* 1..7 while leaf is MD_HTML */
	char fch;           /* the fence's character */
	size_t flen;        /* its opening run */
	bool fplain;        /* opened by a line that is, as raw text, at most
			     * 3 spaces and the run (BEHAVIOR A3's own form) */
	size_t fopen_line;
	size_t line;        /* lines seen */
};

struct md_line {
	bool fenced;       /* an opening, content or closing line of a fenced
			    * code block GitHub renders */
	bool plain;        /* ... one whose opener has A3's form (what the
			    * program honours as a fence) */
	bool opens;        /* this line opened the fence */
	size_t open_line;  /* the line that opened it (when fenced) */
	bool html;         /* the line is part of an HTML block */
	bool icode;        /* the line (or a part of it cmark splits off at
			    * a lone CR) is in an indented code block */
	bool pre;          /* ... in a type-1 HTML block such as <pre> */
	unsigned indent;   /* columns of leading whitespace (tabs to 4) */
	size_t depth;      /* containers the line is in */
};

/* A struct md_block starts zeroed (memset, or = {0}): no block open. */
/* Feed the next line (without its LF; a trailing CR is whitespace). */
void md_block_line(struct md_block *b, const char *untrusted_line, size_t n,
		   struct md_line *out);

/* Columns of leading whitespace of a line (tabs advance to 4). */
unsigned md_indent(const char *line, size_t n);

#endif
