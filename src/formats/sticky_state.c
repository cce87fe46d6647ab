/*
 * sticky_state.c - reading back a sticky's state block (PUBLISH §5.3),
 * line by line for sticky_parse(): the header "<!-- pr-review:state=…",
 * one row per finding (twelve space-separated fields), at most one
 * "clean" line, and "-->". A block that is not exactly what
 * sticky_render() writes is no state (U2): any field out of its form,
 * a duplicate id or a row after the clean line fails the whole block.
 */
#include "formats/sticky.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/marker.h"
#include "formats/sticky_int.h"

#define STATE_FIELDS 12
/* Largest iteration a state block may carry (a status id's range). */
#define STATE_MAX_ITERATION 2147483647

static const char *const blasts[] = {"Local", "Module", "Cross-service",
                                     "Data layer"};
static const char *const justifications[] = {
    "Reachable", "Precedent", "Asymmetric", "Historical", "Hygiene"};

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

/* --- the state block --- */

struct fields {
	struct mview v[STATE_FIELDS];
	size_t n;
};

/* Split on single spaces; an empty field is malformed. */
static bool split(struct fields *f, struct mview l, size_t max)
{
	size_t start = 0;

	f->n = 0;
	for (size_t i = 0; i <= l.n; i++) {
		if (i < l.n && l.p[i] != ' ')
			continue;
		if (i == start || f->n == max)
			return false;
		f->v[f->n++] = mview_of(l.p + start, i - start);
		start = i + 1;
	}
	return true;
}

/* A decoded value (NULL for "-"), or AA_ERR. */
static int field_str(char **out, struct mview v, bool nullable)
{
	struct buf b = BUF_INIT((size_t)RV_MAX_FILE * 4);
	bool is_null;

	*out = NULL;
	if (sticky_pct_decode(&b, &is_null, v.p, v.n) ||
	    (is_null && !nullable)) {
		buf_release(&b);
		return AA_ERR;
	}
	if (!is_null)
		*out = buf_detach(&b, NULL);
	buf_release(&b);
	return 0;
}

static int field_line(int64_t *out, struct mview v)
{
	*out = 0;
	if (v.n == 1 && v.p[0] == '-')
		return 0;
	if (parse_decimal(out, v.p, v.n, INT32_MAX) || *out < 1 ||
	    v.p[0] == '0')
		return AA_ERR;
	return 0;
}

static int field_thread(struct rv_state_row *r, struct mview v)
{
	int64_t id;

	r->thread = RV_THREAD_STICKY_ONLY;
	if (text_eq(v, "none"))
		return 0;
	if (text_eq(v, "failed") || text_eq(v, "pending") || text_eq(v, "dropped")) {
		r->thread = v.p[0] == 'f'   ? RV_THREAD_FAILED
		            : v.p[0] == 'p' ? RV_THREAD_PENDING
		                            : RV_THREAD_DROPPED;
		return 0;
	}
	if (v.p[0] == '0' || parse_decimal(&id, v.p, v.n, JSON_MAX_INT) ||
	    id < 1)
		return AA_ERR;
	r->thread = RV_THREAD_EXISTING;
	r->root_id = id;
	return 0;
}

static int enum_field(struct mview v, const char *const *names, size_t n,
                      int *out)
{
	char *s = NULL;

	if (field_str(&s, v, false))
		return AA_ERR;
	*out = name_index(names, n, s);
	free(s);
	return *out < 0 ? AA_ERR : 0;
}

static bool text_ok(const char *s, size_t max_bytes)
{
	size_t n = s ? strlen(s) : 0;

	if (!s || n > max_bytes)
		return s == NULL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
			return false;
	return true;
}

static int state_row(struct rv_state_row *r, struct mview l)
{
	struct fields f;
	int k;

	memset(r, 0, sizeof(*r));
	if (!split(&f, l, STATE_FIELDS) || f.n != STATE_FIELDS ||
	    !sp_id_parse(&r->id, f.v[0].p, f.v[0].n))
		return AA_ERR;
	if (enum_field(f.v[1], rv_pcode_names, RV_PCODE_COUNT, &k))
		return AA_ERR;
	r->p = (enum rv_pcode)k;
	if (enum_field(f.v[2], rv_section_names, RV_SECTION_COUNT, &k))
		return AA_ERR;
	r->section = (enum rv_section)k;
	if (field_thread(r, f.v[3]) ||
	    enum_field(f.v[4], rv_confidence_names, RV_CONFIDENCE_COUNT, &k))
		return AA_ERR;
	r->confidence = (enum rv_confidence)k;
	/* Blast, justification and category may be null ("-"): a
	 * finding carried from H5 rows has none, and its state line must
	 * read back. */
	if (!text_eq(f.v[5], "-")) {
		if (enum_field(f.v[5], blasts, ARRAY_SIZE(blasts), &k))
			return AA_ERR;
		r->blast = xstrdup(blasts[k]);
	}
	if (!text_eq(f.v[6], "-")) {
		if (enum_field(f.v[6], justifications,
		               ARRAY_SIZE(justifications), &k))
			return AA_ERR;
		r->justification = xstrdup(justifications[k]);
	}
	if (field_str(&r->slug, f.v[7], false) ||
	    !sp_slug_valid(r->slug, strlen(r->slug)) ||
	    field_str(&r->file, f.v[8], true) ||
	    !text_ok(r->file, RV_MAX_FILE) || (r->file && !r->file[0]) ||
	    field_line(&r->line_start, f.v[9]) ||
	    field_line(&r->line_end, f.v[10]) ||
	    field_str(&r->category, f.v[11], true) ||
	    !text_ok(r->category, (size_t)RV_MAX_CATEGORY * 4))
		return AA_ERR;
	/* I3's line rule: both or neither, start ≤ end, only with a file. */
	if ((r->line_start > 0) != (r->line_end > 0) ||
	    r->line_start > r->line_end || (r->line_start && !r->file))
		return AA_ERR;
	return 0;
}

static void row_free(struct rv_state_row *r)
{
	free(r->blast);
	free(r->justification);
	free(r->slug);
	free(r->file);
	free(r->category);
	memset(r, 0, sizeof(*r));
}

/* KEY=<n> at field F, KEY SKIP bytes long: 1 to MAX, no leading zero. A
 * field that is the key alone has no digit to look at (the view is not
 * NUL-terminated: a fuzzed `next=` at the end of a body read past it). */
static bool state_number(int64_t *v, struct mview f, size_t skip, int64_t max)
{
	return f.n > skip && f.p[skip] != '0' &&
	       !parse_decimal(v, f.p + skip, f.n - skip, max) && *v >= 1;
}

/* `<!-- pr-review:state=1 iteration=<i> next=<m>[ base=<ref>]` (B3: a
 * state written before B3 has no base=, and binds no base). */
bool sp_state_header(struct review_state *s, struct mview l)
{
	struct fields f;
	int64_t v;

	if (!split(&f, l, 5) || f.n < 4 || !text_eq(f.v[0], "<!--") ||
	    !text_eq(f.v[1], "pr-review:state=1") || !text_starts(f.v[2], "iteration=") ||
	    !text_starts(f.v[3], "next="))
		return false;
	if (!state_number(&v, f.v[2], 10, STATE_MAX_ITERATION))
		return false;
	s->iteration = v;
	if (!state_number(&v, f.v[3], 5, RV_MAX_ID + 1))
		return false;
	s->next = (uint32_t)v;
	if (f.n == 5) {
		if (!text_starts(f.v[4], "base=") ||
		    field_str(&s->base, mview_of(f.v[4].p + 5, f.v[4].n - 5),
		              false) ||
		    !s->base[0] || !text_ok(s->base, RV_MAX_BASE))
			return false;
	}
	return true;
}

static bool clean_line(struct review_state *s, struct mview l)
{
	struct mview rest;

	if (!text_starts(l, "clean ") || s->nclean)
		return false;
	rest = mview_of(l.p + 6, l.n - 6);
	while (rest.n) {
		const char *sp = memchr(rest.p, ' ', rest.n);
		struct mview v =
		    mview_of(rest.p, sp ? (size_t)(sp - rest.p) : rest.n);
		char *slug = NULL;

		if (s->nclean == STICKY_MAX_ROWS || field_str(&slug, v, false))
			return false;
		strv_addf(&s->clean, &s->nclean, "%s", slug);
		free(slug);
		if (!sp_slug_valid(s->clean[s->nclean - 1],
		                strlen(s->clean[s->nclean - 1])))
			return false;
		if (!sp)
			break;
		rest = mview_of(sp + 1, rest.n - v.n - 1);
		if (!rest.n)
			return false; /* a trailing space */
	}
	return s->nclean > 0;
}

static void state_fail(struct sp_scan *s)
{
	s->bad = true;
	s->state = 2;
}

void sp_state_line(struct sp_scan *s, struct mview l)
{
	struct rv_state_row r;

	if (text_eq(l, "-->")) {
		s->state = 2;
		return;
	}
	if (s->clean_seen) {
		state_fail(s);
		return;
	}
	if (text_starts(l, "clean ")) {
		s->clean_seen = true;
		if (!clean_line(&s->st, l))
			state_fail(s);
		return;
	}
	if (s->st.nrows == STICKY_MAX_ROWS || state_row(&r, l)) {
		if (s->st.nrows < STICKY_MAX_ROWS)
			row_free(&r);
		state_fail(s);
		return;
	}
	for (size_t i = 0; i < s->st.nrows; i++)
		if (s->st.rows[i].id == r.id) {
			row_free(&r);
			state_fail(s);
			return;
		}
	ALLOC_GROW(s->st.rows, s->st.nrows + 1, s->rows_alloc);
	s->st.rows[s->st.nrows++] = r;
}

