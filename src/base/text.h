/*
 * text.h - views into someone else's text, and the cursor helpers every
 * parser of untrusted text uses (curl's strparse: a cursor advances only
 * on success). Nothing here allocates; a view is valid as long as the
 * text it points into.
 */
#ifndef AA_TEXT_H
#define AA_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* A view: pointer and length into someone else's text. */
struct mview {
	const char *p;
	size_t n;
};

static inline struct mview mview_of(const char *p, size_t n)
{
	struct mview v;

	v.p = p;
	v.n = n;
	return v;
}

/* Leading spaces/tabs and trailing spaces/tabs/CR (a trailing CR is ws). */
struct mview text_trim(struct mview v);
/* Leading and trailing spaces and tabs only. */
struct mview text_trim_ws(struct mview v);
/* Trailing spaces, tabs and CR only. */
struct mview text_rstrip(struct mview v);
/* Skip spaces and tabs at the start of *v. */
void text_skip_ws(struct mview *v);

/* Consume `word` (lower case; matched ASCII case-insensitively) at the
 * start of *v; false (and *v untouched) when it is not there. */
bool text_eat_word(struct mview *v, const char *word);
/* Consume the byte c at the start of *v. */
bool text_eat_char(struct mview *v, char c);
/* "key ws* : ws*" (key as text_eat_word) at the start of *v. */
bool text_eat_key(struct mview *v, const char *key);

/* v is exactly s / starts with s (bytes). */
bool text_eq(struct mview v, const char *s);
bool text_starts(struct mview v, const char *s);
/* v is word, ASCII case-insensitively. */
bool text_eq_nocase(struct mview v, const char *word);
/* needle occurs in v. */
bool text_contains(struct mview v, const char *needle);
/* Where needle first occurs in v, or NULL. */
const char *text_find(struct mview v, const char *needle);
/* v is one or more ASCII digits. */
bool text_all_digits(struct mview v);

/* Split text into lines at LF (a trailing CR stays in the line): the next
 * line from *off, which advances; false at the end. */
bool text_next_line(const char *text, size_t len, size_t *off,
		    struct mview *line);

#endif
