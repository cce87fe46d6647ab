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

#include <string.h>

const struct nhm_reason marker_nhm_reasons[NHM_COUNT] = {
	{NHM_TOO_LONG, "it is longer than 65,536 characters",
	 "longer than 65,536 characters"},
	{NHM_BAD_HEADER,
	 "its first line is not the exact <!-- agentic:needs-human v1 --> "
	 "header (a near-miss is never ignored)",
	 "the first line is a near-miss of <!-- agentic:needs-human v1 --> "
	 "or a marker line without it: a malformed verdict, never ignored"},
	{NHM_BOTH_VALUES, "it says both yes and no", "both yes and no"},
	{NHM_BAD_VALUE, "a needs-human: line says neither yes nor no",
	 "a needs-human: line says neither yes nor no"},
	{NHM_NEAR_MISS,
	 "a marker line of its leading run is not in its exact form",
	 "a marker line of the leading run is a near-miss of <!-- "
	 "needs-human: yes|no -->, <!-- head: SHA --> or <!-- base: BRANCH "
	 "-->"},
	{NHM_NO_VALUE, "it has no needs-human: yes/no line",
	 "no needs-human: yes/no line in the leading marker run"},
	{NHM_BAD_HEAD, "a head: line is not a full 40-hex SHA",
	 "a head: that is not a full 40-hex SHA"},
	{NHM_HEAD_CONFLICT, "it names several heads", "several different heads"},
	{NHM_NO_HEAD, "it has no head: line",
	 "no head: line in the leading marker run"},
	{NHM_BASE_CONFLICT, "it names several bases", "several different bases"},
	{NHM_NO_BASE, "it has no base: line",
	 "no base: line (or an empty one) in the leading marker run"},
};

const struct nhm_reason *marker_nhm_reason(unsigned bit)
{
	for (size_t i = 0; i < NHM_COUNT; i++)
		if (marker_nhm_reasons[i].bit == bit)
			return &marker_nhm_reasons[i];
	return NULL;
}

const char *marker_nhm_why(unsigned malformed)
{
	for (size_t i = 0; i + 1 < NHM_COUNT; i++)
		if (malformed & marker_nhm_reasons[i].bit)
			return marker_nhm_reasons[i].why;
	return marker_nhm_reasons[NHM_COUNT - 1].why;
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
	/* >=, not ==: the bound EVA needs for heads[] (docs/proof-alarms.md) */
	if (nh->nheads >= MARKER_MAX_HEADS) {
		nh->heads_overflow = true;
		return;
	}
	memcpy(nh->heads[nh->nheads++], sha, SHA_BUF);
}

struct nh_scan {
	enum { NH_BEFORE, NH_RUN, NH_AFTER } where;
	bool any_header; /* the eager trigger's two halves */
	bool any_yes;
	bool bad_header; /* N67 */
	bool near;
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
	case NHL_VERDICT_NEAR:
	case NHL_NEAR:
		s->near = true; /* N67: a near-miss is never ignored */
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

	if (kind == NHL_VERDICT || kind == NHL_VERDICT_NEAR) {
		s->any_header = true;
		if (!nh->header_line)
			nh->header_line = lineno;
	} else if (kind == NHL_YES) {
		s->any_yes = true;
	}
	if (s->where == NH_BEFORE && !marker_is_blank(line)) {
		/* N67: a first line near the header, or another marker line
		 * with no header, starts a malformed verdict. */
		s->where = kind != NHL_NONE && !fenced && !md_code(line)
				   ? NH_RUN
				   : NH_AFTER;
		nh->present = s->where == NH_RUN;
		if (nh->present && kind != NHL_VERDICT) {
			s->bad_header = true;
			if (kind != NHL_VERDICT_NEAR)
				nh_run_line(nh, s, kind, value);
		}
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
	if (s->bad_header)
		m |= NHM_BAD_HEADER;
	if (s->near)
		m |= NHM_NEAR_MISS;
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
	bool lead;      /* every line since the marker was indented code: the
			 * conductor's own layout of its lines */
};

/*
 * N65: A12's reason — a key shown as code is not the conductor's verdict —
 * covers code GitHub shows without a fence: an indented code block, a <pre>
 * block. The one exception is §2.2's leading ws on the conductor's own
 * lines: indented code that opens on the line right after the marker is read
 * as the conductor wrote it. Any later indented code (after a blank line,
 * a heading, a rule...) may be quoted text, and supplies no key.
 */
static bool shown_as_code(struct key_seen *k, const struct marker_fence *f)
{
	if (!f->icode)
		k->lead = false;
	/* N66: a line GitHub shows inside a block quote (a lazy line too) is
	 * quoted text, whatever its own form. */
	return f->pre || f->quoted || (f->icode && !k->lead);
}

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
	int64_t v = 0; /* copied to round_v even when invalid */
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
		b = text_eq_nocase(value, "true");
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

/*
 * N68: a line that holds `<!--` and, before that comment closes, letters
 * spelling "agenticcheck" — the check marker in another form (a space
 * after the colon, another case or spacing, another version).
 */
static bool check_near(struct mview line)
{
	const char *open = text_find(line, "<!--"), *close;
	struct mview in;

	if (!open)
		return false;
	in = mview_of(open + 4, line.n - (size_t)(open + 4 - line.p));
	close = text_find(in, "-->");
	if (close)
		in.n = (size_t)(close - in.p);
	return marker_spells(in, "agenticcheck");
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
	bool fenced, naive_fenced, opens, near;

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
	       text_next_line(untrusted_body, len, &off, &line)) {
		lineno++;
		fenced = marker_fence_line(&fence, line, lineno);
		naive_fenced = marker_naive_fence_line(&naive, line, lineno);
		nh_line(&out->nh, &scan, line, lineno, fenced);
		opens = text_contains(line, MARKER_CHECK_OPEN);
		near = !opens && check_near(line);
		if (out->check.present) {
			/* A12: inside the block every line is read; N68: a
			 * near-miss is a second marker too. */
			if ((opens || near) && !out->check.second_line)
				out->check.second_line = lineno;
			fenced = fenced || naive_fenced || fence.any ||
				 shown_as_code(&seen, &fence);
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
		if (fenced || !(opens || near))
			continue;
		/* N68: a near-miss opens the block too, to be refused. */
		out->check.present = true;
		if (near)
			out->check.near_line = lineno;
		out->check.block_off = line_off;
		out->check.block_line = lineno;
		/* N65: the code must open after the marker line; a marker
		 * that is itself indented code is quoted with its keys. */
		seen.lead = !fence.icode;
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

	while (text_next_line(it->text, it->len, &it->off, &line)) {
		bool table = marker_table_line(&it->table, line);

		it->line++; /* A12: fenced or not, every line of the block */
		if (marker_check_line(line, &value) != CKL_ROW) {
			if (!table)
				continue;
			memset(row, 0, sizeof(*row));
			row->text = text_trim(line);
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
