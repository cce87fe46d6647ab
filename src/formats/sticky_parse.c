/*
 * sticky_parse.c - reading back the comments this program wrote: the
 * sticky's markers (U1, U2), its state block (§5.3) or, for a version-2
 * sticky without one, its rows (H5); and a root's markers and title (U3).
 *
 * The text is untrusted: any author can write a comment that looks like a
 * sticky, and the conductor's verdicts (same account) may quote one. So
 * the reading is strict. Which kind a comment is comes from core/kind.h
 * alone (B1: the sticky marker is the first line, and a verdict marker
 * anywhere makes a verdict); the other marker lines must be whole lines
 * (trailing whitespace and CR aside) outside fenced code, found by the
 * one fence scanner the verdict parser uses (core/marker.h); a state
 * block that is not exactly what sticky_render() writes is no state.
 */
#include "formats/sticky.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/marker.h"

#define E_CLIPBOARD  "\xF0\x9F\x93\x8B"         /* 📋 */
#define E_PAUSE      "\xE2\x8F\xB8\xEF\xB8\x8F" /* ⏸️ */
#define E_HOOK       "\xE2\x86\xAA"             /* ↪ */
#define E_WRENCH     "\xF0\x9F\x94\xA7"         /* 🔧 */
#define E_QUESTION   "\xE2\x9D\x93"             /* ❓ */
#define E_WARN       "\xE2\x9A\xA0\xEF\xB8\x8F" /* ⚠️ */
#define E_HOURGLASS  "\xE2\x8F\xB3"             /* ⏳ */
#define DOT          " \xC2\xB7 "               /* · */
#define DASH         " \xE2\x80\x94 "           /* — */

#define STATE_OPEN   "<!-- pr-review:state="
#define STATE_FIELDS 12
/* Largest iteration a state block may carry (a status id's range). */
#define STATE_MAX_ITERATION 2147483647

static const char *const blasts[] = {"Local", "Module", "Cross-service",
                                     "Data layer"};
static const char *const justifications[] = {
    "Reachable", "Precedent", "Asymmetric", "Historical", "Hygiene"};

static struct mview mvw(const char *p, size_t n)
{
	struct mview v = {p, n};
	return v;
}

/* The line without trailing whitespace and CR. */
static struct mview rstrip(struct mview l)
{
	while (l.n && (is_ws(l.p[l.n - 1]) || l.p[l.n - 1] == '\r'))
		l.n--;
	return l;
}

static bool eq(struct mview l, const char *s)
{
	return l.n == strlen(s) && memcmp(l.p, s, l.n) == 0;
}

static bool starts(struct mview l, const char *s)
{
	size_t n = strlen(s);
	return l.n >= n && memcmp(l.p, s, n) == 0;
}

/* The value of a marker line `<!-- pr-review:<key>=<value> -->`. */
static bool marker_value(struct mview l, const char *prefix, struct mview *v)
{
	size_t n = strlen(prefix);

	if (!starts(l, prefix) || l.n < n + 4 ||
	    memcmp(l.p + l.n - 4, " -->", 4) != 0)
		return false;
	*v = mvw(l.p + n, l.n - n - 4);
	return true;
}

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

static bool slug_valid(const char *s, size_t n)
{
	if (n == 0 || n > RV_MAX_SLUG || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '-' ? s[i + 1] == '-'
		             : !(is_digit(c) || (c >= 'a' && c <= 'z')))
			return false;
	}
	return true;
}

/* "F<n>": ^F[1-9][0-9]{0,5}$ */
static bool id_parse(uint32_t *out, const char *s, size_t n)
{
	int64_t v;

	if (n < 2 || n > 7 || s[0] != 'F' || s[1] == '0' ||
	    parse_decimal(&v, s + 1, n - 1, RV_MAX_ID) || v < 1)
		return false;
	*out = (uint32_t)v;
	return true;
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
		f->v[f->n++] = mvw(l.p + start, i - start);
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
	if (eq(v, "none"))
		return 0;
	if (eq(v, "failed") || eq(v, "pending") || eq(v, "dropped")) {
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
	    !id_parse(&r->id, f.v[0].p, f.v[0].n))
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
	if (!eq(f.v[5], "-")) {
		if (enum_field(f.v[5], blasts, ARRAY_SIZE(blasts), &k))
			return AA_ERR;
		r->blast = xstrdup(blasts[k]);
	}
	if (!eq(f.v[6], "-")) {
		if (enum_field(f.v[6], justifications,
		               ARRAY_SIZE(justifications), &k))
			return AA_ERR;
		r->justification = xstrdup(justifications[k]);
	}
	if (field_str(&r->slug, f.v[7], false) ||
	    !slug_valid(r->slug, strlen(r->slug)) ||
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

/* `<!-- pr-review:state=1 iteration=<i> next=<m>[ base=<ref>]` (B3: a
 * state written before B3 has no base=, and binds no base). */
static bool state_header(struct review_state *s, struct mview l)
{
	struct fields f;
	int64_t v;

	if (!split(&f, l, 5) || f.n < 4 || !eq(f.v[0], "<!--") ||
	    !eq(f.v[1], "pr-review:state=1") || !starts(f.v[2], "iteration=") ||
	    !starts(f.v[3], "next="))
		return false;
	if (f.v[2].p[10] == '0' ||
	    parse_decimal(&v, f.v[2].p + 10, f.v[2].n - 10,
	                  STATE_MAX_ITERATION) ||
	    v < 1)
		return false;
	s->iteration = v;
	if (f.v[3].p[5] == '0' ||
	    parse_decimal(&v, f.v[3].p + 5, f.v[3].n - 5, RV_MAX_ID + 1) ||
	    v < 1)
		return false;
	s->next = (uint32_t)v;
	if (f.n == 5) {
		if (!starts(f.v[4], "base=") ||
		    field_str(&s->base, mvw(f.v[4].p + 5, f.v[4].n - 5),
		              false) ||
		    !s->base[0] || !text_ok(s->base, RV_MAX_BASE))
			return false;
	}
	return true;
}

static bool clean_line(struct review_state *s, struct mview l)
{
	struct mview rest;

	if (!starts(l, "clean ") || s->nclean)
		return false;
	rest = mvw(l.p + 6, l.n - 6);
	while (rest.n) {
		const char *sp = memchr(rest.p, ' ', rest.n);
		struct mview v =
		    mvw(rest.p, sp ? (size_t)(sp - rest.p) : rest.n);
		char *slug = NULL;

		if (s->nclean == STICKY_MAX_ROWS || field_str(&slug, v, false))
			return false;
		strv_addf(&s->clean, &s->nclean, "%s", slug);
		free(slug);
		if (!slug_valid(s->clean[s->nclean - 1],
		                strlen(s->clean[s->nclean - 1])))
			return false;
		if (!sp)
			break;
		rest = mvw(sp + 1, rest.n - v.n - 1);
		if (!rest.n)
			return false; /* a trailing space */
	}
	return s->nclean > 0;
}

struct scan {
	struct sticky_info *out;
	int state; /* 0 before, 1 inside, 2 after a block */
	size_t rows_alloc;
	struct review_state st;
	bool clean_seen;
	bool bad;
	/* markers */
	int nsha, nstatus, nversion;
	bool bad_marker;
	char sha[SHA_BUF];
	int status;
	int version;
};

static void state_fail(struct scan *s)
{
	s->bad = true;
	s->state = 2;
}

static void state_line(struct scan *s, struct mview l)
{
	struct rv_state_row r;

	if (eq(l, "-->")) {
		s->state = 2;
		return;
	}
	if (s->clean_seen) {
		state_fail(s);
		return;
	}
	if (starts(l, "clean ")) {
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

/* --- markers --- */

static void sha_line(struct scan *s, struct mview v)
{
	char sha[SHA_BUF];

	if (!sha_parse(sha, v.p, v.n) ||
	    (s->nsha && memcmp(s->sha, sha, SHA_BUF) != 0)) {
		s->bad_marker = true;
		return;
	}
	if (!s->nsha++)
		memcpy(s->sha, sha, SHA_BUF);
}

static void status_line(struct scan *s, struct mview v)
{
	int t = -1;

	for (int i = 0; i < RV_NOOP_TIER; i++)
		if (v.n == strlen(rv_tier_tokens[i]) &&
		    memcmp(v.p, rv_tier_tokens[i], v.n) == 0)
			t = i;
	if (t < 0 || (s->nstatus && s->status != t)) {
		s->bad_marker = true;
		return;
	}
	if (!s->nstatus++)
		s->status = t;
}

static void version_line(struct scan *s, struct mview v)
{
	int64_t n;

	if (v.n == 0 || v.p[0] == '0' || parse_decimal(&n, v.p, v.n, 1000) ||
	    (s->nversion && s->version != (int)n)) {
		s->version = -1;
		s->nversion = 1; /* stays -1 */
		return;
	}
	if (!s->nversion++)
		s->version = (int)n;
}

static void outside_line(struct scan *s, struct mview l)
{
	struct mview v;

	if (marker_value(l, "<!-- pr-review:sha=", &v))
		sha_line(s, v);
	else if (marker_value(l, "<!-- pr-review:status=", &v))
		status_line(s, v);
	else if (marker_value(l, "<!-- pr-review:version=", &v))
		version_line(s, v);
	else if (starts(l, "<!-- pr-review:sha=") ||
	         starts(l, "<!-- pr-review:status="))
		s->bad_marker = true; /* a near-miss is never ignored */
	else if (starts(l, STATE_OPEN)) {
		if (s->state || !state_header(&s->st, l)) {
			s->bad = true;
			s->state = 2;
		} else {
			s->state = 1;
		}
	}
}

/* --- H5: the rows of a state-less version-2 sticky --- */

struct rows_scan {
	int section; /* -1: not in blocks 6-8 */
	size_t alloc;
};

/* `<file>[:<start>[-<end>]]` */
static void parse_loc(struct rv_state_row *r, struct mview v)
{
	size_t i = v.n, dash = 0;
	int64_t a, b;

	while (i && is_digit(v.p[i - 1]))
		i--;
	if (i < v.n && i && v.p[i - 1] == '-') {
		dash = i - 1;
		i = dash;
		while (i && is_digit(v.p[i - 1]))
			i--;
	}
	if (i < v.n && i && v.p[i - 1] == ':' && i < (dash ? dash : v.n) &&
	    !parse_decimal(&a, v.p + i, (dash ? dash : v.n) - i, INT32_MAX) &&
	    a > 0) {
		b = a;
		if (dash && parse_decimal(&b, v.p + dash + 1, v.n - dash - 1,
		                          INT32_MAX))
			b = 0;
		if (b >= a) {
			r->line_start = a;
			r->line_end = b;
			v.n = i - 1;
		}
	}
	if (v.n)
		r->file = xstrndup(v.p, v.n);
}

static void parse_thread(struct rv_state_row *r, struct mview t)
{
	static const char key[] = "#discussion_r";
	int64_t id;

	r->thread = RV_THREAD_STICKY_ONLY;
	if (starts(t, "[thread](") && t.n && t.p[t.n - 1] == ')') {
		struct mview u = mvw(t.p + 9, t.n - 10);
		for (size_t i = 0; i + sizeof(key) - 1 <= u.n; i++) {
			if (memcmp(u.p + i, key, sizeof(key) - 1) != 0)
				continue;
			i += sizeof(key) - 1;
			if (!parse_decimal(&id, u.p + i, u.n - i,
			                   JSON_MAX_INT) &&
			    id > 0) {
				r->thread = RV_THREAD_EXISTING;
				r->root_id = id;
			}
			return;
		}
	} else if (starts(t, E_WARN " thread failed to post")) {
		r->thread = RV_THREAD_FAILED;
	} else if (starts(t, E_WARN " thread not posted")) {
		r->thread = RV_THREAD_DROPPED;
	} else if (starts(t, E_HOURGLASS " thread pending")) {
		r->thread = RV_THREAD_PENDING;
	}
}

/* The last occurrence of needle in v, or NULL. */
static const char *last_of(struct mview v, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = v.n; i >= n; i--)
		if (memcmp(v.p + i - n, needle, n) == 0)
			return v.p + i - n;
	return NULL;
}

/* `- **F<n>** <P> `<slug>`…` */
static void rows_row(struct review_state *st, struct rows_scan *rs,
                     struct mview l)
{
	struct rv_state_row r;
	const char *p = l.p + 4, *end = l.p + l.n, *q;
	int k;

	memset(&r, 0, sizeof(r));
	q = memchr(p, '*', (size_t)(end - p));
	if (!q || !id_parse(&r.id, p, (size_t)(q - p)) || end - q < 4 ||
	    memcmp(q, "** ", 3) != 0)
		return;
	p = q + 3;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q)
		return;
	for (k = 0; k < RV_PCODE_COUNT; k++)
		if (strlen(rv_pcode_names[k]) == (size_t)(q - p) &&
		    memcmp(p, rv_pcode_names[k], (size_t)(q - p)) == 0)
			break;
	if (k == RV_PCODE_COUNT || end - q < 2 || q[1] != '`')
		return;
	r.p = (enum rv_pcode)k;
	p = q + 2;
	q = memchr(p, '`', (size_t)(end - p));
	if (!q || !slug_valid(p, (size_t)(q - p)))
		return;
	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].id == r.id)
			return;
	r.slug = xstrndup(p, (size_t)(q - p));
	r.section = (enum rv_section)rs->section;
	r.confidence = RV_HIGH;
	p = q + 1;
	if (rs->section != RV_SEC_ACCEPTED) {
		struct mview rest = mvw(p, (size_t)(end - p));
		const char *dot = last_of(rest, DOT);
		struct mview loc = rest;

		if (dot) {
			parse_thread(&r,
			             mvw(dot + strlen(DOT),
			                 (size_t)(end - dot) - strlen(DOT)));
			loc.n = (size_t)(dot - p);
		}
		if (starts(loc, DASH))
			parse_loc(&r, mvw(loc.p + strlen(DASH),
			                  loc.n - strlen(DASH)));
	}
	ALLOC_GROW(st->rows, st->nrows + 1, rs->alloc);
	st->rows[st->nrows++] = r;
}

static void rows_line(struct review_state *st, struct rows_scan *rs,
                      struct mview l)
{
	if (starts(l, "## " E_CLIPBOARD " Currently open ("))
		rs->section = RV_SEC_OPEN;
	else if (starts(l, "## " E_PAUSE " Awaiting your decision ("))
		rs->section = RV_SEC_AWAITING;
	else if (starts(l, "<details><summary>" E_HOOK " Accepted exceptions"))
		rs->section = RV_SEC_ACCEPTED;
	else if (starts(l, "#") || starts(l, "<details>") ||
	         starts(l, "</details>") || eq(l, "---"))
		rs->section = -1;
	else if (rs->section < 0 || st->nrows == STICKY_MAX_ROWS)
		return;
	else if (starts(l, "- " E_WRENCH " ") || starts(l, "- " E_QUESTION " "))
		st->complete = false;
	else if (starts(l, "- **F"))
		rows_row(st, rs, l);
}

static uint32_t rows_max(const struct review_state *st)
{
	uint32_t max = 0;

	for (size_t i = 0; i < st->nrows; i++)
		if (st->rows[i].id > max)
			max = st->rows[i].id;
	return max;
}

static void parse_rows(struct review_state *st, const char *body, size_t len)
{
	struct marker_fence fence;
	struct rows_scan rs = {-1, 0};
	struct mview line;
	size_t off = 0, no = 0;

	memset(&fence, 0, sizeof(fence));
	st->from_rows = true;
	st->complete = true;
	while (text_next_line(body, len, &off, &line)) {
		if (marker_fence_line(&fence, line, ++no))
			continue;
		rows_line(st, &rs, rstrip(line));
	}
}

int sticky_parse(struct sticky_info *out, const char *untrusted_body,
                 size_t len)
{
	struct scan s;
	struct marker_fence fence;
	struct mview line;
	size_t off = 0, no = 0;

	memset(out, 0, sizeof(*out));
	memset(&fence, 0, sizeof(fence));
	if (rv_codepoints(untrusted_body, len) > RV_BODY_LIMIT)
		return AA_ERR;
	memset(&s, 0, sizeof(s));
	s.out = out;
	/* U1 with B1: the first line is the marker, and no verdict marker
	 * stands anywhere (core/kind.h decides, for every command). */
	out->is_sticky = comment_kind(PLACE_ISSUE, untrusted_body, len) ==
	                 KIND_STICKY;
	while (text_next_line(untrusted_body, len, &off, &line)) {
		bool fenced = marker_fence_line(&fence, line, ++no);
		struct mview l = rstrip(line);

		/* A state row never looks like a fence; one that does is
		 * malformed, so the block is read whatever the scanner says. */
		if (s.state == 1)
			state_line(&s, l);
		else if (!fenced)
			outside_line(&s, l);
	}
	if (s.state == 1)
		s.bad = true; /* never closed */
	out->version = s.version > 0 ? s.version : 0;
	out->markers_ok = !s.bad_marker && s.nsha > 0 && s.nstatus > 0;
	if (out->markers_ok) {
		memcpy(out->sha, s.sha, SHA_BUF);
		out->status = (enum rv_tier)s.status;
	}
	out->state_malformed = s.bad;
	if (s.state == 2 && !s.bad) {
		out->state = s.st;
		out->state.present = true;
		out->state.complete = true;
		if (out->is_sticky && out->version == STICKY_VERSION) {
			struct review_state rows = {0};

			parse_rows(&rows, untrusted_body, len);
			out->rows_max_id = rows_max(&rows);
			review_state_release(&rows);
		}
		return 0;
	}
	review_state_release(&s.st);
	if (out->is_sticky && out->version == STICKY_VERSION) {
		parse_rows(&out->state, untrusted_body, len);
		out->rows_max_id = rows_max(&out->state);
		/* The rows never hold all a state block held (collapsed
		 * nits, next=): after a broken block they are a floor. */
		if (out->state_malformed)
			out->state.complete = false;
	}
	return 0;
}

void sticky_info_release(struct sticky_info *s)
{
	review_state_release(&s->state);
	memset(s, 0, sizeof(*s));
}

/* --- U3: a root --- */

static bool title_ok(struct root_info *r, struct mview l, uint32_t id)
{
	const char *p = l.p, *end = l.p + l.n, *q;
	uint32_t tid;
	int k;

	if (!starts(l, "**F"))
		return false;
	p += 2;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q || !id_parse(&tid, p, (size_t)(q - p)) || tid != id)
		return false;
	p = q + 1;
	q = memchr(p, ' ', (size_t)(end - p));
	if (!q)
		return false;
	for (k = 0; k < RV_PCODE_COUNT; k++)
		if (strlen(rv_pcode_names[k]) == (size_t)(q - p) &&
		    memcmp(p, rv_pcode_names[k], (size_t)(q - p)) == 0)
			break;
	if (k == RV_PCODE_COUNT || end - q < 2 || q[1] != '`')
		return false;
	p = q + 2;
	q = memchr(p, '`', (size_t)(end - p));
	if (!q || !slug_valid(p, (size_t)(q - p)) ||
	    (size_t)(end - q) < 1 + strlen("**" DOT) ||
	    memcmp(q + 1, "**" DOT, strlen("**" DOT)) != 0)
		return false;
	r->p = (enum rv_pcode)k;
	memcpy(r->slug, p, (size_t)(q - p));
	r->slug[q - p] = '\0';
	return true;
}

#define ROOT_FAILURE_MODE "**Failure mode**: "
#define ROOT_MITIGATION   "**Mitigation**: "
#define ROOT_EVIDENCE     "<details><summary>Evidence</summary>"

/* A line of backticks only, at least three: its length, else 0. */
static size_t fence_of(struct mview l)
{
	size_t i = 0;

	while (i < l.n && l.p[i] == '`')
		i++;
	return i == l.n && i >= 3 ? i : 0;
}

/* The blocks after a root's title (§5.4): the texts H5 reads. */
static void root_texts(struct root_info *out, const char *body, size_t len,
                       size_t off)
{
	struct mview line;
	size_t fence = 0, start = 0;
	int stage = 0; /* 0 fields, 1 before the fence, 2 inside it */

	while (text_next_line(body, len, &off, &line)) {
		struct mview l = rstrip(line);

		if (stage == 2) {
			if (l.n == fence && fence_of(l) == fence) {
				size_t end = (size_t)(line.p - body);

				out->evidence.p = body + start;
				out->evidence.n = end > start ? end - start - 1 : 0;
				return;
			}
		} else if (stage == 1) {
			if (!l.n)
				continue;
			if (!(fence = fence_of(l)))
				return;
			start = off;
			stage = 2;
		} else if (starts(l, ROOT_FAILURE_MODE) && !out->failure_mode.p) {
			out->failure_mode.p = l.p + strlen(ROOT_FAILURE_MODE);
			out->failure_mode.n = l.n - strlen(ROOT_FAILURE_MODE);
		} else if (starts(l, ROOT_MITIGATION) && !out->mitigation.p) {
			out->mitigation.p = l.p + strlen(ROOT_MITIGATION);
			out->mitigation.n = l.n - strlen(ROOT_MITIGATION);
		} else if (eq(l, ROOT_EVIDENCE)) {
			stage = 1;
		}
	}
}

void root_parse(struct root_info *out, const char *untrusted_body, size_t len)
{
	struct mview line, v;
	size_t off = 0;
	uint32_t id = 0, x;
	int nhead = 0;
	bool bad = false, head_bad = false, run = true;

	memset(out, 0, sizeof(*out));
	/* U3: the first line is the root marker (core/kind.c; a verdict
	 * marker elsewhere does not matter on the diff, P46). */
	if (comment_kind(PLACE_REVIEW, untrusted_body, len) !=
	        KIND_FINDING_ROOT ||
	    !text_next_line(untrusted_body, len, &off, &line))
		return;
	while (text_next_line(untrusted_body, len, &off, &line)) {
		struct mview l = rstrip(line);

		if (run && !l.n) {
			run = false;
			continue;
		}
		if (!run) {
			if (!l.n)
				continue;
			if (!bad && id && title_ok(out, l, id)) {
				out->is_root = true;
				out->id = id;
				root_texts(out, untrusted_body, len, off);
			}
			break;
		}
		if (marker_value(l, "<!-- pr-review:finding-id=", &v)) {
			if (!id_parse(&x, v.p, v.n) || (id && id != x))
				bad = true;
			else
				id = x;
		} else if (marker_value(l, "<!-- pr-review:head=", &v)) {
			char sha[SHA_BUF];
			/* Two heads, or a bad one: no head (so the finding
			 * counts as not yet posted on this head). */
			if (!sha_parse(sha, v.p, v.n) ||
			    (nhead && strcmp(sha, out->head) != 0))
				head_bad = true;
			else if (!nhead++)
				memcpy(out->head, sha, SHA_BUF);
		}
	}
	if (!out->is_root) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->has_head = nhead > 0 && !head_bad;
	if (!out->has_head)
		out->head[0] = '\0';
}
