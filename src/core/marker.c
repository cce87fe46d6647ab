/*
 * marker.c - BEHAVIOR §2: what a verdict comment says, as the deterministic
 * steps read it.
 *
 * A needs-human verdict is a comment whose first non-blank line is its
 * header, read from the run of whole-line HTML comments right after it
 * (A2); the check ledger is everything from the first line outside fenced
 * code that contains "<!-- agentic:check v1 -->" to the end (A3), every
 * line of it read, fenced or not (A12), every line that looks like a row a
 * row (A4, A11). Fences are the ones GitHub renders (core/mdblock.c). Both
 * verdicts are read in one pass over the lines, with views into the
 * caller's text and no allocation. Every line is looked at a bounded
 * number of times, so the work is linear in the input whatever it holds.
 */
#include "core/marker.h"

#include "core/visible.h"

#include <string.h>

static struct mview mv(const char *p, size_t n)
{
	struct mview v;

	v.p = p;
	v.n = n;
	return v;
}

/* Leading spaces/tabs and trailing spaces/tabs/CR (a trailing CR is ws). */
static struct mview trim(struct mview v)
{
	while (v.n && is_ws((unsigned char)v.p[0])) {
		v.p++;
		v.n--;
	}
	while (v.n && (is_ws((unsigned char)v.p[v.n - 1]) ||
		       v.p[v.n - 1] == '\r'))
		v.n--;
	return v;
}

/* Leading and trailing spaces and tabs only. */
static struct mview trim_ws(struct mview v)
{
	while (v.n && is_ws((unsigned char)v.p[0])) {
		v.p++;
		v.n--;
	}
	while (v.n && is_ws((unsigned char)v.p[v.n - 1]))
		v.n--;
	return v;
}

static void skip_ws(struct mview *v)
{
	while (v->n && is_ws((unsigned char)v->p[0])) {
		v->p++;
		v->n--;
	}
}

/* Consume `word` (ASCII case-insensitive) at the start of v. */
static bool eat_word(struct mview *v, const char *word)
{
	size_t n = strlen(word), i;

	if (v->n < n)
		return false;
	for (i = 0; i < n; i++)
		if (to_lower((unsigned char)v->p[i]) != word[i])
			return false;
	v->p += n;
	v->n -= n;
	return true;
}

static bool eat_char(struct mview *v, char c)
{
	if (!v->n || v->p[0] != c)
		return false;
	v->p++;
	v->n--;
	return true;
}

/* "key ws* : ws*" at the start of v; v is left after it. */
static bool eat_key(struct mview *v, const char *key)
{
	struct mview t = *v;

	if (!eat_word(&t, key))
		return false;
	skip_ws(&t);
	if (!eat_char(&t, ':'))
		return false;
	skip_ws(&t);
	*v = t;
	return true;
}

static bool view_eq_nocase(struct mview v, const char *word)
{
	return mem_eq_nocase(v.p, v.n, word);
}

static bool contains(struct mview v, const char *needle)
{
	return mem_contains(v.p, v.n, needle);
}

bool marker_next_line(const char *text, size_t len, size_t *off,
		      struct mview *line)
{
	const char *nl;

	if (*off >= len)
		return false;
	nl = memchr(text + *off, '\n', len - *off);
	if (nl) {
		*line = mv(text + *off, (size_t)(nl - (text + *off)));
		*off = (size_t)(nl - text) + 1;
	} else {
		*line = mv(text + *off, len - *off);
		*off = len;
	}
	return true;
}

/* The inside of a line that is one whole HTML comment. */
static bool comment_inside(struct mview line, struct mview *in)
{
	struct mview l = trim(line);

	/* "<!--" + "-->" without overlap needs 7 bytes. */
	if (l.n < 7 || memcmp(l.p, "<!--", 4) != 0 ||
	    memcmp(l.p + l.n - 3, "-->", 3) != 0)
		return false;
	*in = mv(l.p + 4, l.n - 7);
	/* One comment per line: a second opener or closer inside is not a
	 * marker line (it would render differently from what it says). */
	return !contains(*in, "-->") && !contains(*in, "<!--");
}

bool marker_is_comment_line(struct mview line)
{
	struct mview in;

	return comment_inside(line, &in);
}

bool marker_is_blank(struct mview line)
{
	return trim(line).n == 0;
}

bool marker_names_row_field(struct mview line)
{
	return visible_names_row_field(line.p, line.n);
}

enum nh_line_kind marker_nh_line(struct mview line, struct mview *value)
{
	struct mview in;

	*value = mv(NULL, 0);
	if (!comment_inside(line, &in))
		return NHL_NONE;
	in = trim_ws(in); /* only spaces and tabs inside the delimiters */
	if (eat_word(&in, "agentic:needs-human")) {
		if (!in.n || !is_ws((unsigned char)in.p[0]))
			return NHL_NONE;
		skip_ws(&in);
		return view_eq_nocase(in, "v1") ? NHL_VERDICT : NHL_NONE;
	}
	if (eat_key(&in, "needs-human")) {
		*value = in;
		if (view_eq_nocase(in, "yes"))
			return NHL_YES;
		if (view_eq_nocase(in, "no"))
			return NHL_NO;
		return NHL_VALUE_OTHER;
	}
	if (eat_key(&in, "head")) {
		*value = in;
		return NHL_HEAD;
	}
	if (eat_key(&in, "base")) {
		*value = in;
		return NHL_BASE;
	}
	return NHL_NONE;
}

static bool all_digits(struct mview v)
{
	size_t i;

	if (!v.n)
		return false;
	for (i = 0; i < v.n; i++)
		if (!is_digit((unsigned char)v.p[i]))
			return false;
	return true;
}

/* --- A11: which lines are rows --- */

/*
 * How a row-shaped line starts, after leading whitespace and any ">"
 * quote markers (A11). ROW_OK is A4's own "-"; the others name the shape
 * that makes the row invalid.
 */
static const char *const other_bullets[] = {
	"\xe2\x80\xa2", /* • U+2022 */
	"\xe2\x80\xa3", /* ‣ U+2023 */
	"\xe2\x97\xa6", /* ◦ U+25E6 */
	"\xe2\x81\x83", /* ⁃ U+2043 */
	"\xe2\x88\x99", /* ∙ U+2219 */
	"\xc2\xb7",     /* · U+00B7 */
};

static bool starts_with(struct mview v, const char *w)
{
	size_t n = strlen(w);

	return v.n >= n && memcmp(v.p, w, n) == 0;
}

/* A line's row shape: ROW_OK for "-", an error for another row marker,
 * ROW_NO_MARKER when no marker starts it (then it is a row only if it
 * names a field). *quoted: it stood inside a ">" quote. */
static enum row_error row_marker(struct mview l, bool *quoted)
{
	size_t i;

	*quoted = false;
	while (l.n && l.p[0] == '>') {
		*quoted = true;
		l.p++;
		l.n--;
		skip_ws(&l);
	}
	if (!l.n)
		return ROW_NO_MARKER;
	if (l.p[0] == '-')
		return ROW_OK;
	if (l.p[0] == '*' || l.p[0] == '+')
		return ROW_BAD_BULLET;
	if (l.p[0] == '|')
		return ROW_TABLE;
	if (l.n >= 3 && l.p[0] == '<' && to_lower((unsigned char)l.p[1]) == 'l' &&
	    to_lower((unsigned char)l.p[2]) == 'i')
		return ROW_HTML_ITEM;
	for (i = 0; i < ARRAY_SIZE(other_bullets); i++)
		if (starts_with(l, other_bullets[i]))
			return ROW_OTHER_BULLET;
	for (i = 0; i < l.n && is_digit((unsigned char)l.p[i]); i++)
		;
	if (i && i < l.n && (l.p[i] == '.' || l.p[i] == ')'))
		return ROW_ORDERED;
	return ROW_NO_MARKER;
}

/* A line that is a head:, round: or clean: line (A3's exact forms). */
static enum check_line_kind key_line(struct mview l, struct mview *value)
{
	struct mview t = l;

	if (eat_key(&t, "head") && sha_parse(NULL, t.p, t.n)) {
		*value = t;
		return CKL_HEAD;
	}
	t = l;
	if (eat_key(&t, "round") && all_digits(t)) {
		*value = t;
		return CKL_ROUND;
	}
	t = l;
	if (eat_key(&t, "clean") &&
	    (view_eq_nocase(t, "true") || view_eq_nocase(t, "false"))) {
		*value = t;
		return CKL_CLEAN;
	}
	return CKL_NONE;
}

/* "threads:" alone: the ledger's list header, never a row. */
static bool threads_line(struct mview l)
{
	return eat_key(&l, "threads") && !l.n;
}

/* "<name" (any case) then attributes up to ">": consumed from *v. */
static bool eat_tag(struct mview *v, const char *name)
{
	struct mview t = *v;
	const char *gt;

	if (!eat_char(&t, '<') || !eat_word(&t, name) ||
	    (t.n && t.p[0] != '>' && !is_ws((unsigned char)t.p[0])))
		return false;
	gt = memchr(t.p, '>', t.n);
	if (!gt)
		return false;
	v->n -= (size_t)(gt + 1 - v->p);
	v->p = gt + 1;
	return true;
}

/*
 * A <details> or <summary> line (§2.2: ignored, never a row, A11): the
 * tags alone, or "<summary>…</summary>" (after an optional <details>).
 * Anything else on the line makes it an ordinary line.
 */
static bool details_line(struct mview l)
{
	struct mview v = l;

	if (eat_tag(&v, "details")) {
		skip_ws(&v);
		if (!v.n)
			return true;
	} else if (eat_tag(&v, "/details") || eat_tag(&v, "/summary")) {
		skip_ws(&v);
		return !v.n;
	}
	if (!eat_tag(&v, "summary"))
		return false;
	v = trim(v);
	return v.n >= 10 && mem_eq_nocase(v.p + v.n - 10, 10, "</summary>");
}

/*
 * A <details> or <summary> line is no row (§2.2, A11) — unless what it
 * shows starts like one ("<summary>- id: …"): then GitHub shows a row,
 * and it is read as an invalid one.
 */
static bool details_shows_row(struct mview l)
{
	const char *gt = memchr(l.p, '>', l.n);
	struct mview in;
	bool quoted;
	enum row_error m;

	while (gt) {
		in = mv(gt + 1, l.n - (size_t)(gt + 1 - l.p));
		skip_ws(&in);
		if (!in.n || in.p[0] != '<')
			break;
		gt = memchr(in.p, '>', in.n); /* <details><summary>… */
	}
	if (!gt)
		return false;
	m = row_marker(in, &quoted);
	return m != ROW_NO_MARKER || quoted;
}

/* A table row without a leading pipe ("id | status", GFM): a "|" before
 * the reason makes a row. */
static bool has_pipe(struct mview l)
{
	size_t i;

	for (i = 0; i < l.n; i++) {
		if (l.p[i] == '|')
			return true;
		if (i + 7 <= l.n && mem_eq_nocase(l.p + i, 7, "reason:"))
			return false;
	}
	return false;
}

/* A CR that is not the line's last character: lines end at LF (§2),
 * but GitHub's renderer ends a line at a lone CR too. */
static bool bare_cr(struct mview l)
{
	const char *cr = memchr(l.p, '\r', l.n);

	return cr && cr != l.p + l.n - 1;
}

/* A11: a row, whatever its marker; ROW_OK when it has A4's "-". */
static bool row_line(struct mview l, enum row_error *shape)
{
	bool quoted;
	enum row_error m = row_marker(l, &quoted);
	struct mview v;

	if (bare_cr(l) && (m != ROW_NO_MARKER || has_pipe(l) ||
			   marker_names_row_field(l))) {
		*shape = ROW_BARE_CR; /* what follows the CR shows as a line */
		return true;
	}

	if (m == ROW_NO_MARKER) {
		if (details_line(l)) {
			if (!details_shows_row(l))
				return false;
		} else if (key_line(l, &v) != CKL_NONE || threads_line(l)) {
			return false;
		} else if (has_pipe(l)) {
			m = ROW_TABLE;
		} else if (!marker_names_row_field(l)) {
			return false;
		}
	}
	*shape = quoted ? ROW_QUOTED : m;
	return true;
}

/* A table's delimiter row: "|", "-", ":" and whitespace, a pipe and a
 * dash at least ("| --- | :-: |", "--- | ---"). */
static bool delimiter_row(struct mview l)
{
	size_t i;
	bool pipe = false, dash = false;

	for (i = 0; i < l.n; i++) {
		if (l.p[i] == '|')
			pipe = true;
		else if (l.p[i] == '-')
			dash = true;
		else if (l.p[i] != ':' && !is_ws((unsigned char)l.p[i]))
			return false;
	}
	return pipe && dash;
}

/*
 * A GFM table takes every following line up to a blank line as a row,
 * pipe or not ("e7e7" under an id | status header shows in the id
 * column): once a delimiter row is seen, a line that is nothing else is a
 * table row (A11). Not knowing where another block would end the table
 * only makes more rows, which fail closed.
 */
bool marker_table_line(struct marker_table *t, struct mview line)
{
	struct mview l = trim(line), v;
	bool in = t->open;

	if (!l.n) {
		t->open = false;
		return false;
	}
	if (delimiter_row(l))
		t->open = true;
	return in && key_line(l, &v) == CKL_NONE && !threads_line(l) &&
	       !details_line(l);
}

enum check_line_kind marker_check_line(struct mview line, struct mview *value)
{
	struct mview l = trim(line);
	enum row_error shape;

	*value = mv(NULL, 0);
	if (row_line(l, &shape)) {
		*value = l;
		return CKL_ROW;
	}
	return key_line(l, value);
}

static const char *const status_names[] = {
	"fixed", "obsolete", "rebutted-valid", "outstanding", "rebutted-invalid"};
static const char *const severity_names[] = {"critical", "high", "should-fix",
					     "nit"};

const char *marker_status_name(enum row_status s)
{
	return status_names[s];
}

const char *marker_severity_name(enum row_severity s)
{
	return severity_names[s];
}

bool marker_status_blocks(enum row_status s)
{
	return s == ROW_OUTSTANDING || s == ROW_REBUTTED_INVALID;
}

const char *marker_row_error_str(enum row_error e)
{
	switch (e) {
	case ROW_OK:
		return "ok";
	case ROW_BAD_BULLET:
		return "a row starts with \"- \"; a \"*\" or \"+\" bullet is not "
		       "a row";
	case ROW_QUOTED:
		return "a row inside a \">\" quote: rows start with \"- \" at "
		       "the start of the line, never quoted";
	case ROW_ORDERED:
		return "a numbered item (\"1.\" or \"1)\"): rows start with "
		       "\"- \"";
	case ROW_OTHER_BULLET:
		return "a \"\xe2\x80\xa2\"-style bullet: rows start with "
		       "\"- \"";
	case ROW_TABLE:
		return "a table row (\"|\"): rows start with \"- \"";
	case ROW_HTML_ITEM:
		return "an HTML list item (\"<li\"): rows start with \"- \"";
	case ROW_BARE_CR:
		return "a carriage return inside the line: lines end at LF, "
		       "but GitHub shows the text after it as a line of its "
		       "own";
	case ROW_NO_MARKER:
		return "a line that names an id: or status: is a row, and a row "
		       "starts with \"- \"";
	case ROW_NO_ID:
		return "a row starts with \"- id:\"; every bullet line of the "
		       "block is a row";
	case ROW_BAD_ID:
		return "the id is empty or holds whitespace or control characters";
	case ROW_NO_STATUS:
		return "\", status:\" must follow the id";
	case ROW_BAD_STATUS:
		return "status must be one of fixed, obsolete, rebutted-valid, "
		       "outstanding, rebutted-invalid";
	case ROW_NO_SEVERITY:
		return "\", severity:\" must follow the status";
	case ROW_BAD_SEVERITY:
		return "severity must be one of critical, high, should-fix, nit";
	case ROW_NO_REASON:
		return "\", reason:\" must follow the severity";
	case ROW_EMPTY_REASON:
		return "the reason is empty";
	case ROW_SPACE_BEFORE_COMMA:
		return "whitespace before a comma";
	case ROW_BLOCKING_NIT:
		return "a nit may not be outstanding or rebutted-invalid";
	}
	return "?";
}

/* A token ends at ws, a comma or the end; a control byte ends it too. */
static struct mview take_token(struct mview *v)
{
	size_t i = 0;
	struct mview tok;

	while (i < v->n) {
		unsigned char c = (unsigned char)v->p[i];

		if (c == ',' || c <= 0x20 || c == 0x7f)
			break;
		i++;
	}
	tok = mv(v->p, i);
	v->p += i;
	v->n -= i;
	return tok;
}

/*
 * After a field's token: the comma must come at once, then ws may follow.
 * Whitespace and then a comma is the one mistake worth naming; anything
 * else means the token itself was bad (`bad`).
 */
static enum row_error field_end(struct mview *v, enum row_error bad)
{
	struct mview t = *v;

	if (eat_char(v, ',')) {
		skip_ws(v);
		return ROW_OK;
	}
	skip_ws(&t);
	return (t.n && t.p[0] == ',') ? ROW_SPACE_BEFORE_COMMA : bad;
}

static int lookup(struct mview tok, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (view_eq_nocase(tok, names[i]))
			return (int)i;
	return -1;
}

/* The separator after a field; `missing` when the line ends there. */
static enum row_error next_field(struct mview *v, enum row_error bad,
				 enum row_error missing)
{
	return v->n ? field_end(v, bad) : missing;
}

void marker_parse_row(struct marker_row *row, struct mview line)
{
	struct mview v = trim(line), tok;
	int k;

	enum row_error shape;

	memset(row, 0, sizeof(*row));
	row->text = v;
	row->severity = SEV_NIT;
	if (!row_line(v, &shape))
		shape = ROW_NO_MARKER; /* not a row at all: say what rows are */
	if (shape != ROW_OK) {
		row->error = shape;
		return;
	}
	if (!eat_char(&v, '-')) {
		row->error = ROW_BAD_BULLET;
		return;
	}
	skip_ws(&v);
	if (!eat_key(&v, "id")) {
		row->error = ROW_NO_ID;
		return;
	}

	row->id = take_token(&v);
	if (!row->id.n) {
		row->error = ROW_BAD_ID;
		return;
	}
	if ((row->error = next_field(&v, ROW_BAD_ID, ROW_NO_STATUS)))
		return;
	if (!eat_key(&v, "status")) {
		row->error = ROW_NO_STATUS;
		return;
	}
	tok = take_token(&v);
	if ((k = lookup(tok, status_names, ARRAY_SIZE(status_names))) < 0) {
		row->error = ROW_BAD_STATUS;
		return;
	}
	row->status = (enum row_status)k;
	if ((row->error = next_field(&v, ROW_BAD_STATUS, ROW_NO_SEVERITY)))
		return;
	if (!eat_key(&v, "severity")) {
		row->error = ROW_NO_SEVERITY;
		return;
	}
	tok = take_token(&v);
	if ((k = lookup(tok, severity_names, ARRAY_SIZE(severity_names))) < 0) {
		row->error = ROW_BAD_SEVERITY;
		return;
	}
	row->severity = (enum row_severity)k;
	if ((row->error = next_field(&v, ROW_BAD_SEVERITY, ROW_NO_REASON)))
		return;
	if (!eat_key(&v, "reason")) {
		row->error = ROW_NO_REASON;
		return;
	}
	row->reason = trim(v);
	if (!row->reason.n) {
		row->error = ROW_EMPTY_REASON;
		return;
	}
	if (row->severity == SEV_NIT && marker_status_blocks(row->status))
		row->error = ROW_BLOCKING_NIT;
}

static void nh_add_head(struct marker_nh *nh, struct mview v)
{
	char sha[SHA_BUF];
	size_t i;

	if (!sha_parse(sha, v.p, v.n))
		return;
	for (i = 0; i < nh->nheads; i++)
		if (memcmp(nh->heads[i], sha, SHA_BUF) == 0)
			return;
	if (nh->nheads == MARKER_MAX_HEADS) {
		nh->heads_overflow = true;
		return;
	}
	memcpy(nh->heads[nh->nheads++], sha, SHA_BUF);
}

/* A3: a run of 3+ backticks or tildes after at most 3 spaces. */
static bool fence_run(struct mview line, char *ch, size_t *len,
		      bool *bare)
{
	size_t i = 0, n;

	while (i < line.n && i < 4 && line.p[i] == ' ')
		i++;
	if (i == 4 || i == line.n || (line.p[i] != '`' && line.p[i] != '~'))
		return false;
	*ch = line.p[i];
	for (n = 0; i + n < line.n && line.p[i + n] == *ch; n++)
		;
	if (n < 3)
		return false;
	*len = n;
	*bare = trim(mv(line.p + i + n, line.n - i - n)).n == 0;
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
	if (fenced) {
		f->open_line = ml.open_line;
		f->len = f->md.flen;
	}
	f->ch = fenced && f->md.leaf == MD_FENCE ? f->md.fch : 0;
	return fenced;
}

struct nh_scan {
	enum { NH_BEFORE, NH_RUN, NH_AFTER } where;
	bool any_header; /* the eager trigger's two halves */
	bool any_yes;
	bool bad_head;
	bool bad_value;
	bool empty_base;
	bool base_conflict;
};

/* A marker line of the leading run (A2). */
static void nh_run_line(struct marker_nh *nh, struct nh_scan *s,
			enum nh_line_kind kind, struct mview value)
{
	switch (kind) {
	case NHL_NONE:
	case NHL_VERDICT:
		break;
	case NHL_VALUE_OTHER:
		s->bad_value = true; /* a near-miss is never ignored */
		break;
	case NHL_YES:
		nh->any_yes = true;
		break;
	case NHL_NO:
		nh->any_no = true;
		break;
	case NHL_HEAD:
		if (sha_parse(NULL, value.p, value.n))
			nh_add_head(nh, value);
		else
			s->bad_head = true;
		break;
	case NHL_BASE:
		if (!value.n)
			s->empty_base = true;
		else if (!nh->base.n)
			nh->base = value;
		else if (nh->base.n != value.n ||
			 memcmp(nh->base.p, value.p, value.n) != 0)
			s->base_conflict = true;
		break;
	}
}

/*
 * A marker line indented by 4 columns or more is an indented code block
 * on GitHub, not the HTML comment it looks like (issue 20's differential
 * against cmark-gfm): it neither starts nor continues a leading run. At
 * the top of a comment, after nothing but HTML comments and blank lines,
 * that is the only way a whole-line comment is not an HTML block.
 */
static bool md_code(struct mview line)
{
	return md_indent(line.p, line.n) >= 4;
}

/* Every line, fenced or not: the trigger, the header and its run. */
static void nh_line(struct marker_nh *nh, struct nh_scan *s, struct mview line,
		    size_t lineno, bool fenced)
{
	struct mview value;
	enum nh_line_kind kind = marker_nh_line(line, &value);

	if (kind == NHL_VERDICT) {
		s->any_header = true;
		if (!nh->header_line)
			nh->header_line = lineno;
	} else if (kind == NHL_YES) {
		s->any_yes = true;
	}
	if (s->where == NH_BEFORE && !marker_is_blank(line)) {
		s->where = kind == NHL_VERDICT && !fenced && !md_code(line)
				   ? NH_RUN
				   : NH_AFTER;
		nh->present = s->where == NH_RUN;
		if (nh->present)
			return;
	} else if (s->where == NH_RUN && !marker_is_blank(line)) {
		if (marker_is_comment_line(line) && !md_code(line)) {
			nh_run_line(nh, s, kind, value);
			return;
		}
		s->where = NH_AFTER;
		nh->run_end_line = lineno;
	}
	if (kind != NHL_NONE && !nh->stray_line && s->where != NH_BEFORE)
		nh->stray_line = lineno;
}

static void nh_finish(struct marker_nh *nh, const struct nh_scan *s,
		      bool too_long)
{
	unsigned m = 0;

	nh->trigger = s->any_header && s->any_yes;
	if (!nh->present)
		return;
	if (nh->any_yes && nh->any_no)
		m |= NHM_BOTH_VALUES;
	else if (!nh->any_yes && !nh->any_no)
		m |= NHM_NO_VALUE;
	if (s->bad_value)
		m |= NHM_BAD_VALUE;
	if (s->bad_head)
		m |= NHM_BAD_HEAD;
	else if (nh->nheads == 0)
		m |= NHM_NO_HEAD;
	if (nh->nheads > 1 || nh->heads_overflow)
		m |= NHM_HEAD_CONFLICT;
	if (!nh->base.n || s->empty_base)
		m |= NHM_NO_BASE;
	if (s->base_conflict)
		m |= NHM_BASE_CONFLICT;
	if (too_long)
		m |= NHM_TOO_LONG;
	nh->malformed = m;
	if (!m) {
		nh->value = nh->any_yes ? NH_YES : NH_NO;
		memcpy(nh->head, nh->heads[0], SHA_BUF);
	}
}

/* The values a key took on the lines read so far (A3's conflicts). */
struct key_seen {
	struct marker_table table;
	bool head, round, clean;
	char head_sha[SHA_BUF];
	bool round_valid;
	int64_t round_v;
	bool clean_v;
};

/*
 * One line of the block. A12: every line counts; a head:, round: or
 * clean: line inside a fence only counts for A3's conflicts, it never
 * supplies the key.
 */
static void check_line(struct marker_check *c, struct key_seen *k,
		       struct mview line, size_t lineno, bool fenced)
{
	struct marker_row row;
	struct mview value;
	char sha[SHA_BUF];
	int64_t v;
	bool valid, b;
	enum check_line_kind kind = marker_check_line(line, &value);

	if (fenced && kind != CKL_NONE && kind != CKL_ROW && !c->fenced_key)
		c->fenced_key = lineno;
	if (kind == CKL_NONE && marker_table_line(&k->table, line)) {
		c->rows++; /* a GFM table's row without a pipe (A11) */
		c->invalid++;
		return;
	}
	if (kind != CKL_NONE)
		marker_table_line(&k->table, line);
	else if (marker_is_blank(line))
		k->table.open = false;
	switch (kind) {
	case CKL_NONE:
		break;
	case CKL_HEAD:
		sha_parse(sha, value.p, value.n);
		if (!k->head) {
			k->head = true;
			memcpy(k->head_sha, sha, SHA_BUF);
		} else if (strcmp(k->head_sha, sha) != 0 && !c->head_conflict) {
			c->head_conflict = lineno;
		}
		if (!fenced && !c->has_head) {
			c->has_head = true;
			memcpy(c->head, sha, SHA_BUF);
			c->head_line = lineno;
		}
		break;
	case CKL_ROUND:
		valid = parse_decimal(&v, value.p, value.n, INT64_MAX) == 0;
		if (!k->round) {
			k->round = true;
			k->round_valid = valid;
			k->round_v = v;
		} else if ((valid != k->round_valid ||
			    (valid && v != k->round_v)) &&
			   !c->round_conflict) {
			c->round_conflict = lineno;
		}
		if (!fenced && !c->has_round) {
			c->has_round = true;
			c->round_line = lineno;
			c->round_valid = valid;
			c->round = valid ? v : 0;
		}
		break;
	case CKL_CLEAN:
		b = view_eq_nocase(value, "true");
		if (!k->clean) {
			k->clean = true;
			k->clean_v = b;
		} else if (b != k->clean_v && !c->clean_conflict) {
			c->clean_conflict = lineno;
		}
		if (!fenced && !c->clean_line) {
			c->has_clean = true;
			c->clean = b;
			c->clean_line = lineno;
		}
		break;
	case CKL_ROW:
		c->rows++;
		marker_parse_row(&row, line);
		if (row.error != ROW_OK)
			c->invalid++;
		if ((row.error == ROW_OK || row.error == ROW_BLOCKING_NIT) &&
		    marker_status_blocks(row.status))
			c->blocking++;
		break;
	}
}

void marker_parse(struct marker_result *out, const char *untrusted_body,
		  size_t len)
{
	struct marker_fence fence;
	struct marker_naive_fence naive;
	struct nh_scan scan;
	struct key_seen seen;
	struct mview line;
	size_t off = 0, lineno = 0, i, line_off;
	bool fenced, naive_fenced, opens;

	memset(out, 0, sizeof(*out));
	memset(&scan, 0, sizeof(scan));
	memset(&fence, 0, sizeof(fence));
	memset(&naive, 0, sizeof(naive));
	memset(&seen, 0, sizeof(seen));
	for (i = 0; i < len; i++)
		if (((unsigned char)untrusted_body[i] & 0xC0) != 0x80)
			out->chars++;
	out->too_long = out->chars > MARKER_MAX_CHARS;

	while (line_off = off,
	       marker_next_line(untrusted_body, len, &off, &line)) {
		lineno++;
		fenced = marker_fence_line(&fence, line, lineno);
		naive_fenced = marker_naive_fence_line(&naive, line, lineno);
		nh_line(&out->nh, &scan, line, lineno, fenced);
		opens = contains(line, MARKER_CHECK_OPEN);
		if (out->check.present) {
			/* A12: inside the block every line is read. */
			if (opens && !out->check.second_line)
				out->check.second_line = lineno;
			fenced = fenced || naive_fenced || fence.any;
			if (fenced && !out->check.block_fence)
				out->check.block_fence = lineno;
			check_line(&out->check, &seen, line, lineno, fenced);
			continue;
		}
		if (opens && fenced && !out->check.fenced_line) {
			out->check.fenced_line = lineno;
			out->check.fenced_open = fence.ch ? fence.open_line
							  : lineno;
		}
		if (fenced || !opens)
			continue;
		out->check.present = true;
		out->check.block_off = line_off;
		out->check.block_line = lineno;
		check_line(&out->check, &seen, line, lineno, false);
	}
	if (out->check.clean_conflict) { /* A3: two answers are none */
		out->check.has_clean = false;
		out->check.clean = false;
	}
	nh_finish(&out->nh, &scan, out->too_long);
}

void marker_rows_init(struct marker_rows *it, const char *untrusted_body,
		      size_t len, const struct marker_check *check)
{
	memset(it, 0, sizeof(*it));
	it->text = untrusted_body;
	it->len = check->present ? len : 0;
	it->off = check->present ? check->block_off : 0;
	it->line = check->present ? check->block_line - 1 : 0;
}

bool marker_rows_next(struct marker_rows *it, struct marker_row *row)
{
	struct mview line, value;

	while (marker_next_line(it->text, it->len, &it->off, &line)) {
		bool table = marker_table_line(&it->table, line);

		it->line++; /* A12: fenced or not, every line of the block */
		if (marker_check_line(line, &value) != CKL_ROW) {
			if (!table)
				continue;
			memset(row, 0, sizeof(*row));
			row->text = trim(line);
			row->severity = SEV_NIT;
			row->error = ROW_TABLE;
		} else {
			marker_parse_row(row, line);
		}
		row->line = it->line;
		return true;
	}
	return false;
}
