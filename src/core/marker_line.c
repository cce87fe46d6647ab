/*
 * marker_line.c - BEHAVIOR §2 one line at a time: what kind of line a
 * comment line is — a needs-human marker line (A2: one whole HTML comment),
 * a head:, round: or clean: key line (A3's exact forms), a ledger row
 * (A4: "- id: …, status: …, severity: …, reason: …"; A11: every line that
 * looks like a row is one, whatever its marker, in a quote, a table or a
 * <details>) — and the fields of a row (A4). Views into the caller's text,
 * no allocation; marker.c runs the pass over the lines.
 */
#include "core/marker.h"

#include <string.h>

#include "core/visible.h"

/* The inside of a line that is one whole HTML comment. */
static bool comment_inside(struct mview line, struct mview *in)
{
	struct mview l = text_trim(line);

	/* "<!--" + "-->" without overlap needs 7 bytes. */
	if (l.n < 7 || memcmp(l.p, "<!--", 4) != 0 ||
	    memcmp(l.p + l.n - 3, "-->", 3) != 0)
		return false;
	*in = mview_of(l.p + 4, l.n - 7);
	/* One comment per line: a second opener or closer inside is not a
	 * marker line (it would render differently from what it says). */
	return !text_contains(*in, "-->") && !text_contains(*in, "<!--");
}

bool marker_is_comment_line(struct mview line)
{
	struct mview in;

	return comment_inside(line, &in);
}

bool marker_is_blank(struct mview line)
{
	return text_trim(line).n == 0;
}

bool marker_names_row_field(struct mview line)
{
	return visible_names_row_field(line.p, line.n);
}

bool marker_spells(struct mview v, const char *word)
{
	size_t i, k = 0;

	/*@ loop invariant ViewOK((char *)v.p, v.n) && 0 <= i <= v.n;
	    loop invariant 0 <= k <= strlen(word);
	    loop assigns i, k; */
	for (i = 0; i < v.n && word[k]; i++)
		if (is_alnum((unsigned char)v.p[i])) {
			if (to_lower((unsigned char)v.p[i]) != word[k])
				return false;
			k++;
		}
	return !word[k];
}

/*
 * N67: what a comment line that is none of the exact forms is near to. A
 * line whose letters and digits start with "agenticneedshuman" is a
 * header, one whose start with "needshuman" a value line, one whose first
 * word is "head" or "base" a key line — whatever spaces (no-break ones
 * too), dashes, colons or invisible characters stand between them.
 */
static enum nh_line_kind near_miss(struct mview in)
{
	size_t i = 0, w;

	if (marker_spells(in, "agenticneedshuman"))
		return NHL_VERDICT_NEAR;
	if (marker_spells(in, "needshuman"))
		return NHL_NEAR;
	/*@ loop invariant ViewOK((char *)in.p, in.n) && 0 <= i <= in.n;
	    loop assigns i; */
	while (i < in.n && !is_alnum((unsigned char)in.p[i]))
		i++;
	/*@ loop invariant ViewOK((char *)in.p, in.n) && i <= w <= in.n;
	    loop assigns w; */
	for (w = i; w < in.n && is_alpha((unsigned char)in.p[w]); w++)
		;
	if (w - i == 4 && (mem_eq_nocase(in.p + i, 4, "head") ||
			   mem_eq_nocase(in.p + i, 4, "base")))
		return NHL_NEAR;
	return NHL_NONE;
}

enum nh_line_kind marker_nh_line(struct mview line, struct mview *value)
{
	struct mview in, all;

	*value = mview_of(NULL, 0);
	if (!comment_inside(line, &in))
		return NHL_NONE;
	all = in;
	in = text_trim_ws(in); /* only spaces and tabs inside the delimiters */
	if (text_eat_word(&in, "agentic:needs-human")) {
		if (!in.n || !is_ws((unsigned char)in.p[0]))
			return near_miss(all);
		text_skip_ws(&in);
		return text_eq_nocase(in, "v1") ? NHL_VERDICT : near_miss(all);
	}
	if (text_eat_key(&in, "needs-human")) {
		*value = in;
		if (text_eq_nocase(in, "yes"))
			return NHL_YES;
		if (text_eq_nocase(in, "no"))
			return NHL_NO;
		return NHL_VALUE_OTHER;
	}
	if (text_eat_key(&in, "head")) {
		*value = in;
		return NHL_HEAD;
	}
	if (text_eat_key(&in, "base")) {
		*value = in;
		return NHL_BASE;
	}
	return near_miss(all);
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

/* "<tr", "<td" or "<th" (any case) as a whole tag name: an HTML table's
 * row or cell, which GitHub shows as one (N67). */
static bool html_cell(struct mview l)
{
	char c;

	if (l.n < 4 || l.p[0] != '<' || to_lower((unsigned char)l.p[1]) != 't')
		return false;
	c = to_lower((unsigned char)l.p[2]);
	if (c != 'r' && c != 'd' && c != 'h')
		return false;
	return l.p[3] == '>' || l.p[3] == '/' || is_ws((unsigned char)l.p[3]);
}

/* A line's row shape: ROW_OK for "-", an error for another row marker,
 * ROW_NO_MARKER when no marker starts it (then it is a row only if it
 * names a field). *quoted: it stood inside a ">" quote. */
static enum row_error row_marker(struct mview l, bool *quoted)
{
	size_t i;

	*quoted = false;
	/*@ loop invariant Tail((char *)l.p, l.n, (char *)\at(l.p, Pre),
			       \at(l.n, Pre));
	    loop invariant ViewOK((char *)l.p, l.n);
	    loop assigns l, *quoted; */
	while (l.n && l.p[0] == '>') {
		*quoted = true;
		l.p++;
		l.n--;
		text_skip_ws(&l);
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
	if (html_cell(l))
		return ROW_HTML_CELL;
	/*@ loop invariant ViewOK((char *)l.p, l.n);
	    loop assigns i; */
	for (i = 0; i < ARRAY_SIZE(other_bullets); i++)
		if (text_starts(l, other_bullets[i]))
			return ROW_OTHER_BULLET;
	/*@ loop invariant ViewOK((char *)l.p, l.n) && 0 <= i <= l.n;
	    loop assigns i; */
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

	if (text_eat_key(&t, "head") && sha_parse(NULL, t.p, t.n)) {
		*value = t;
		return CKL_HEAD;
	}
	t = l;
	if (text_eat_key(&t, "round") && text_all_digits(t)) {
		*value = t;
		return CKL_ROUND;
	}
	t = l;
	if (text_eat_key(&t, "clean") &&
	    (text_eq_nocase(t, "true") || text_eq_nocase(t, "false"))) {
		*value = t;
		return CKL_CLEAN;
	}
	return CKL_NONE;
}

/* "threads:" alone: the ledger's list header, never a row. */
static bool threads_line(struct mview l)
{
	return text_eat_key(&l, "threads") && !l.n;
}

/* "<name" (any case) then attributes up to ">": consumed from *v. */
static bool eat_tag(struct mview *v, const char *name)
{
	struct mview t = *v;
	const char *gt;

	if (!text_eat_char(&t, '<') || !text_eat_word(&t, name) ||
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
		text_skip_ws(&v);
		if (!v.n)
			return true;
	} else if (eat_tag(&v, "/details") || eat_tag(&v, "/summary")) {
		text_skip_ws(&v);
		return !v.n;
	}
	if (!eat_tag(&v, "summary"))
		return false;
	v = text_trim(v);
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

	/*@ loop invariant ViewOK((char *)l.p, l.n);
	    loop invariant gt == \null ||
	      SubView((char *)gt, 1, (char *)l.p, l.n);
	    loop assigns gt, in; */
	while (gt) {
		in = mview_of(gt + 1, l.n - (size_t)(gt + 1 - l.p));
		text_skip_ws(&in);
		if (!in.n || in.p[0] != '<')
			break;
		gt = memchr(in.p, '>', in.n); /* <details><summary>… */
	}
	if (!gt)
		return false;
	m = row_marker(in, &quoted);
	/* N67: or what it shows names a row's field ("<summary>id: …,
	 * status: outstanding …"), as on any other line. */
	return m != ROW_NO_MARKER || quoted || marker_names_row_field(in);
}

/* A table row without a leading pipe ("id | status", GFM): a "|" before
 * the reason makes a row. */
static bool has_pipe(struct mview l)
{
	size_t i;

	/*@ loop invariant ViewOK((char *)l.p, l.n) && 0 <= i <= l.n;
	    loop assigns i; */
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
		bool details = details_line(l);

		if (details ? !details_shows_row(l)
			    : key_line(l, &v) != CKL_NONE || threads_line(l))
			return false;
		/* A <summary> that shows a row is a row as it stands. */
		if (!details && has_pipe(l))
			m = ROW_TABLE;
		else if (!details && !marker_names_row_field(l))
			return false;
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

	/*@ loop invariant ViewOK((char *)l.p, l.n) && 0 <= i <= l.n;
	    loop assigns i, pipe, dash; */
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
	struct mview l = text_trim(line), v;
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
	struct mview l = text_trim(line);
	enum row_error shape;

	*value = mview_of(NULL, 0);
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
	case ROW_HTML_CELL:
		return "an HTML table row or cell (\"<tr\", \"<td\", \"<th\"): "
		       "rows start with \"- \"";
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

	/*@ loop invariant ViewW(v) && 0 <= i <= v->n;
	    loop assigns i; */
	while (i < v->n) {
		unsigned char c = (unsigned char)v->p[i];

		if (c == ',' || c <= 0x20 || c == 0x7f)
			break;
		i++;
	}
	tok = mview_of(v->p, i);
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

	if (text_eat_char(v, ',')) {
		text_skip_ws(v);
		return ROW_OK;
	}
	text_skip_ws(&t);
	return (t.n && t.p[0] == ',') ? ROW_SPACE_BEFORE_COMMA : bad;
}

static int lookup(struct mview tok, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (text_eq_nocase(tok, names[i]))
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
	struct mview v = text_trim(line), tok;
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
	if (!text_eat_char(&v, '-')) {
		row->error = ROW_BAD_BULLET;
		return;
	}
	text_skip_ws(&v);
	if (!text_eat_key(&v, "id")) {
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
	if (!text_eat_key(&v, "status")) {
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
	if (!text_eat_key(&v, "severity")) {
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
	if (!text_eat_key(&v, "reason")) {
		row->error = ROW_NO_REASON;
		return;
	}
	row->reason = text_trim(v);
	if (!row->reason.n) {
		row->error = ROW_EMPTY_REASON;
		return;
	}
	if (row->severity == SEV_NIT && marker_status_blocks(row->status))
		row->error = ROW_BLOCKING_NIT;
}
