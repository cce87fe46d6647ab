/*
 * cmd_lint.c - `lint [FILE|-]`: show an agent exactly what the parser sees
 * in a verdict comment: each marker, each ledger row accepted or rejected
 * and why, and whether apply and the gate could use it. Needs no network;
 * cannot check that thread ids belong to the PR.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "base/json.h"
#include "cmd/log.h"
#include "core/kind.h"
#include "core/marker.h"
#include "formats/report.h"

/* Read at most this much: far above a body of 65,536 characters, so that
 * the parser says "too long" about any real comment (a larger file is an
 * error of its own). */
#define LINT_MAX_BYTES BUF_MAX_DOC
/* Characters of a line quoted in the output. */
#define LINT_QUOTE 100

struct lint {
	struct buf out;
	struct jw w;
	bool json;
	const char *text;
	size_t len;
	struct marker_result m;
	size_t problems;
};

static void quote_line(struct buf *out, struct mview line)
{
	struct buf raw = BUF_INIT(BUF_MAX_SMALL);
	size_t n = line.n > LINT_QUOTE ? LINT_QUOTE : line.n;

	buf_add(&raw, line.p, n);
	buf_adds(out, "  | ");
	log_escape(out, raw.ptr);
	if (n < line.n)
		buf_adds(out, "…");
	buf_addch(out, '\n');
	buf_release(&raw);
}

static void say(struct lint *l, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct lint *l, size_t line, const char *fmt, ...)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (line)
		buf_addf(&l->out, "  line %-4zu ", line);
	else
		buf_adds(&l->out, "  ");
	log_escape(&l->out, b.ptr);
	buf_addch(&l->out, '\n');
	buf_release(&b);
}

static void problem(struct lint *l, const char *what)
{
	l->problems++;
	if (l->json)
		jw_str(&l->w, what);
	else
		say(l, 0, "PROBLEM: %s", what);
}

/*
 * No head line apply reads: say which line looks like one and why it is
 * not (issue 24: "head: 47bceea" is a short SHA, not a missing line).
 */
static void lint_no_head(struct lint *l, size_t block_line)
{
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	size_t no = 1, i = 0;

	while (i < l->len) {
		const char *nl = memchr(l->text + i, '\n', l->len - i);
		size_t end = nl ? (size_t)(nl - l->text) : l->len, k = i;

		while (k < end && (l->text[k] == ' ' || l->text[k] == '\t'))
			k++;
		if (no > block_line && end - k >= 5 &&
		    mem_eq_nocase(l->text + k, 5, "head:")) {
			struct mview v = {l->text + k + 5, end - k - 5};

			while (v.n && (v.p[0] == ' ' || v.p[0] == '\t')) {
				v.p++;
				v.n--;
			}
			while (v.n &&
			       (v.p[v.n - 1] == ' ' || v.p[v.n - 1] == '\t' ||
			        v.p[v.n - 1] == '\r'))
				v.n--;
			buf_setf(&why,
			         "line %zu: head: \"%.*s\" is not a full "
			         "40-hex SHA: apply refuses it (R1)",
			         no, (int)(v.n > 60 ? 60 : v.n), v.p);
			problem(l, why.ptr);
			buf_release(&why);
			return;
		}
		i = end + 1;
		no++;
	}
	buf_release(&why);
	problem(l, "no \"head: <40 hex>\" line in the block: apply refuses "
	           "it (R1)");
}

static const char *nh_kind_name(enum nh_line_kind k, struct mview v)
{
	switch (k) {
	case NHL_VERDICT:
		return "header (agentic:needs-human v1)";
	case NHL_YES:
		return "needs-human: yes";
	case NHL_NO:
		return "needs-human: no";
	case NHL_VALUE_OTHER:
		return "needs-human: with a value that is not yes or no";
	case NHL_HEAD:
		return sha_parse(NULL, v.p, v.n) ? "head: (valid SHA)"
						 : "head: NOT a 40-hex SHA";
	case NHL_BASE:
		return "base:";
	case NHL_VERDICT_NEAR:
		return "NEAR-MISS of the header (agentic:needs-human v1): "
		       "malformed, never ignored";
	case NHL_NEAR:
		return "NEAR-MISS of a marker line (needs-human:, head:, "
		       "base:): malformed, never ignored";
	case NHL_NONE:
		break;
	}
	return "?";
}

/*
 * Every needs-human marker line, and whether the verdict reads it (A2: only
 * the leading marker run of a comment that starts with the header; A3:
 * never inside a code fence).
 */
static void lint_nh_lines(struct lint *l)
{
	const struct marker_nh *nh = &l->m.nh;
	struct marker_fence fence;
	struct mview line, v;
	size_t off = 0, no = 0;
	bool fenced;

	memset(&fence, 0, sizeof(fence));
	while (text_next_line(l->text, l->len, &off, &line)) {
		enum nh_line_kind k = marker_nh_line(line, &v);

		no++;
		fenced = marker_fence_line(&fence, line, no);
		if (k == NHL_NONE) {
			if (!fenced && mem_contains(line.p, line.n, "<!--") &&
			    (mem_contains(line.p, line.n, "needs-human") ||
			     mem_contains(line.p, line.n, "head") ||
			     mem_contains(line.p, line.n, "base"))) {
				say(l, no, "not a marker line (markers are "
					   "whole lines like <!-- head: SHA "
					   "-->):");
				quote_line(&l->out, line);
			}
			continue;
		}
		if (fenced)
			say(l, no, "%s — NOT READ, inside a code fence opened at "
				   "line %zu", nh_kind_name(k, v),
			    fence.ch ? fence.open_line : no);
		else if (!nh->present)
			say(l, no, "%s — NOT READ, the comment does not start "
				   "with the header", nh_kind_name(k, v));
		else if (nh->run_end_line && no > nh->run_end_line)
			say(l, no, "%s — NOT READ, after the leading marker run "
				   "(which ended at line %zu)",
			    nh_kind_name(k, v), nh->run_end_line);
		else if (k == NHL_BASE)
			say(l, no, "base: %s%.*s%s", v.n ? "\"" : "(empty)",
			    (int)v.n, v.p, v.n ? "\"" : "");
		else
			say(l, no, "%s", nh_kind_name(k, v));
	}
}

/* Needs-human: every marker line, then the verdict. */
static void lint_needs_human(struct lint *l)
{
	const struct marker_nh *nh = &l->m.nh;
	unsigned b;

	if (!l->json) {
		buf_adds(&l->out, nh->present
					  ? "needs-human verdict:\n"
					  : "needs-human markers (NOT a verdict):\n");
		lint_nh_lines(l);
	}
	if (l->json) {
		jw_key(&l->w, "verdict");
		jw_bool(&l->w, nh->present);
		jw_key(&l->w, "value");
		if (nh->present)
			jw_str(&l->w, nh->malformed		? "malformed"
				      : nh->value == NH_YES ? "yes"
							    : "no");
		else
			jw_null(&l->w);
		jw_key(&l->w, "head");
		jw_str_or_null(&l->w, nh->malformed || !nh->present ? NULL
								     : nh->head);
		jw_key(&l->w, "base");
		if (nh->present && nh->base.n)
			jw_strn(&l->w, nh->base.p, nh->base.n);
		else
			jw_null(&l->w);
		jw_key(&l->w, "run_end_line");
		jw_int(&l->w, (int64_t)nh->run_end_line);
		jw_key(&l->w, "adds_label");
		jw_bool(&l->w, nh->trigger);
		jw_key(&l->w, "problems");
		jw_arr_begin(&l->w);
	}
	if (!nh->present)
		problem(l, nh->header_line
				   ? "the agentic:needs-human v1 header is not the "
				     "first non-blank line: these markers are "
				     "not a verdict (a quoted verdict never "
				     "counts)"
				   : "needs-human markers without an agentic:"
				     "needs-human v1 first line are not a "
				     "verdict");
	else if (nh->stray_line)
		problem(l, "needs-human markers after the leading marker run "
			   "are not read (the run ends at the first line that "
			   "is not a whole <!-- --> comment)");
	/* Every bit set, in bit order; the words are core's (one table). */
	for (b = 0; nh->present && b < NHM_COUNT; b++) {
		const struct nhm_reason *r = marker_nhm_reason(1u << b);

		if ((nh->malformed & (1u << b)) && r)
			problem(l, r->problem);
	}
	if (l->json) {
		jw_arr_end(&l->w);
		return;
	}
	if (!nh->present)
		say(l, 0, "=> NOT A VERDICT%s",
		    nh->trigger ? " (the yes line still adds the label)" : "");
	else if (!nh->malformed) {
		say(l, 0, "=> well-formed: needs-human: %s, head %s, base \"%.*s\"",
		    nh->value == NH_YES ? "yes" : "no", nh->head, (int)nh->base.n,
		    nh->base.p);
		say(l, 0, "note: the gate approves only PRs into gated bases "
			  "(setting bases; unset: the repository's default "
			  "branch); a PR into \"%.*s\" is never approved "
			  "unless that base is one (A13)",
		    (int)nh->base.n, nh->base.p);
	}
	else
		say(l, 0, "=> MALFORMED: the gate will never accept it%s",
		    nh->trigger ? " (a yes line still adds the label)" : "");
}

static void lint_row(struct lint *l, const struct marker_row *r)
{
	if (l->json) {
		jw_obj_begin(&l->w);
		jw_key(&l->w, "line");
		jw_int(&l->w, (int64_t)r->line);
		jw_key(&l->w, "ok");
		jw_bool(&l->w, r->error == ROW_OK);
		jw_key(&l->w, "error");
		jw_str_or_null(&l->w, r->error == ROW_OK
					      ? NULL
					      : marker_row_error_str(r->error));
		jw_key(&l->w, "id");
		if (r->id.n)
			jw_strn(&l->w, r->id.p, r->id.n);
		else
			jw_null(&l->w);
		if (r->error == ROW_OK || r->error == ROW_BLOCKING_NIT) {
			jw_key(&l->w, "status");
			jw_str(&l->w, marker_status_name(r->status));
			jw_key(&l->w, "severity");
			jw_str(&l->w, marker_severity_name(r->severity));
			jw_key(&l->w, "blocking");
			jw_bool(&l->w, marker_status_blocks(r->status));
		}
		jw_obj_end(&l->w);
		return;
	}
	if (r->error == ROW_OK) {
		say(l, r->line, "row accepted: %.*s, %s, %s%s", (int)r->id.n,
		    r->id.p, marker_status_name(r->status),
		    marker_severity_name(r->severity),
		    marker_status_blocks(r->status) ? " (BLOCKING)" : "");
		return;
	}
	say(l, r->line, "row REJECTED: %s", marker_row_error_str(r->error));
	quote_line(&l->out, r->text);
}

/* A problem found on two lines (A3): name both. */
static void lint_conflict(struct lint *l, const char *what, size_t a, size_t b)
{
	struct buf m = BUF_INIT(BUF_MAX_SMALL);

	buf_setf(&m, "lines %zu and %zu: %s", a, b, what);
	problem(l, m.ptr);
	buf_release(&m);
}

/*
 * Code fences inside the check block (A12): read anyway. Every fence line
 * GitHub renders, or that A3's form opens, is named once, with what it
 * does and does not do there.
 */
static void lint_fences(struct lint *l, size_t from)
{
	struct marker_fence fence;
	struct marker_naive_fence naive;
	struct mview line, v;
	size_t off = 0, no = 0;
	bool in = false, f;

	memset(&fence, 0, sizeof(fence));
	memset(&naive, 0, sizeof(naive));
	while (text_next_line(l->text, l->len, &off, &line)) {
		no++;
		f = marker_fence_line(&fence, line, no);
		f = marker_naive_fence_line(&naive, line, no) || f || fence.any;
		if (no < from)
			continue;
		if (f && !in)
			say(l, no, "code fence: read anyway — inside the check "
				   "block every line counts, fenced or not "
				   "(A12)");
		in = f;
		if (f) {
			enum check_line_kind k = marker_check_line(line, &v);

			if (k == CKL_HEAD || k == CKL_ROUND || k == CKL_CLEAN)
				say(l, no, "a %s line inside a code fence: it "
					   "counts only when it disagrees with "
					   "another, it never supplies the "
					   "value (A12)",
				    k == CKL_HEAD    ? "head:"
				    : k == CKL_ROUND ? "round:"
						     : "clean:");
		}
	}
}

static void lint_check(struct lint *l)
{
	const struct marker_check *c = &l->m.check;
	struct marker_rows it;
	struct marker_row row;
	size_t before = l->problems;

	if (l->json) {
		jw_key(&l->w, "block_line");
		jw_int(&l->w, (int64_t)c->block_line);
		jw_key(&l->w, "head");
		jw_str_or_null(&l->w, c->has_head ? c->head : NULL);
		jw_key(&l->w, "round");
		if (c->has_round && c->round_valid)
			jw_int(&l->w, c->round);
		else
			jw_null(&l->w);
		jw_key(&l->w, "clean");
		if (c->has_clean)
			jw_bool(&l->w, c->clean);
		else
			jw_null(&l->w);
		jw_key(&l->w, "rows");
		jw_arr_begin(&l->w);
	} else {
		buf_addf(&l->out, "agentic-check verdict (block from line %zu):\n",
			 c->block_line);
		if (c->has_head)
			say(l, c->head_line, "head: %s", c->head);
		if (c->has_round)
			say(l, c->round_line, "round: %lld%s",
			    (long long)c->round,
			    c->round_valid ? "" : " (too large)");
		if (c->has_clean)
			say(l, c->clean_line, "clean: %s",
			    c->clean ? "true" : "false");
	}
	if (!l->json)
		lint_fences(l, c->block_line);
	marker_rows_init(&it, l->text, l->len, c);
	while (marker_rows_next(&it, &row))
		lint_row(l, &row);
	if (l->json) {
		jw_arr_end(&l->w);
		jw_key(&l->w, "problems");
		jw_arr_begin(&l->w);
	}
	if (l->m.too_long)
		problem(l, "longer than 65,536 characters: apply refuses it (R1)");
	if (c->near_line)
		problem(l, "the block's first line holds the agentic:check "
			   "marker in another form, not the exact <!-- "
			   "agentic:check v1 -->: apply refuses it (R1, N68)");
	if (c->second_line)
		lint_conflict(l, "a second <!-- agentic:check v1 --> line (before "
				 "the block outside code fences, inside it "
				 "anywhere, A12): the verdict is ambiguous "
				 "and apply refuses it (R1)",
			      c->block_line, c->second_line);
	if (!c->has_head)
		lint_no_head(l, c->block_line);
	else if (c->head_conflict)
		lint_conflict(l, "two head: lines name different commits: apply "
				 "refuses it (R1)",
			      c->head_line, c->head_conflict);
	if (!c->has_round || !c->round_valid)
		problem(l, "no \"round: <digits>\" line in the block: apply "
			   "refuses it (R3)");
	else if (c->round_conflict)
		lint_conflict(l, "two round: lines disagree: apply refuses it "
				 "(R3)",
			      c->round_line, c->round_conflict);
	if (c->clean_conflict)
		lint_conflict(l, "two clean: lines disagree: treated as no "
				 "clean: line, so clean: false",
			      c->clean_line, c->clean_conflict);
	else if (!c->has_clean)
		problem(l, "no \"clean: true|false\" line: treated as clean: "
			   "false");
	if (c->invalid)
		problem(l, "invalid rows make the verdict clean: false");
	if (c->has_clean && c->clean && c->blocking)
		problem(l, "clean: true with blocking rows: written as clean: "
			   "false");
	if (l->json) {
		jw_arr_end(&l->w);
		return;
	}
	say(l, 0, "=> %s: %zu rows, %zu invalid, %zu blocking",
	    l->problems == before ? "usable" : "NOT USABLE AS WRITTEN", c->rows,
	    c->invalid, c->blocking);
}

static int read_all(struct buf *b, const char *path)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = file_read(b, path, &err);

	if (error < 0)
		log_error("lint: '%s': %s", path, err.ptr);
	buf_release(&err);
	return error < 0 ? -1 : 0;
}

/* Needs-human markers of any kind, a verdict or not. */
static bool nh_seen(const struct marker_result *m)
{
	return m->nh.present || m->nh.header_line || m->nh.stray_line;
}

/* The only check marker is fenced: say so, it is not a block (A3). */
static void fenced_check(struct lint *l)
{
	struct buf m = BUF_INIT(BUF_MAX_SMALL);

	buf_setf(&m, "line %zu: the <!-- agentic:check v1 --> marker is inside "
		     "a code fence opened at line %zu; fenced code is never "
		     "read, so there is no check block",
		 l->m.check.fenced_line, l->m.check.fenced_open);
	if (l->json) {
		jw_key(&l->w, "fenced_check_marker");
		jw_str(&l->w, m.ptr);
		l->problems++;
	} else {
		problem(l, m.ptr);
	}
	buf_release(&m);
}

int cmd_lint(int argc, char **argv)
{
	struct cli c = {.command = "lint"};
	struct buf text = BUF_INIT(LINT_MAX_BYTES);
	struct lint l;
	enum comment_kind kind;
	bool ok, quoted, cut;
	int code;

	if (cli_start(&c, argc, argv, 1, &code) < 0)
		return code;
	if (read_all(&text, c.arg ? c.arg : "-") < 0) {
		buf_release(&text);
		return EXIT_USAGE;
	}
	memset(&l, 0, sizeof(l));
	buf_init(&l.out, BUF_MAX_DOC);
	l.json = c.json;
	l.text = text.ptr;
	l.len = text.len;
	marker_parse(&l.m, l.text, l.len);
	kind = comment_kind(PLACE_ISSUE, l.text, l.len);
	/* As apply reads it (core/kind.h): only a verdict's kind holds a
	 * check block. */
	quoted = kind == KIND_OTHER && kind_has_verdict_marker(l.text, l.len);
	if (kind != KIND_CHECK_VERDICT)
		l.m.check.present = false;
	jw_init(&l.w, &l.out, true);
	if (l.json) {
		jw_obj_begin(&l.w);
		jw_key(&l.w, "characters");
		jw_int(&l.w, (int64_t)l.m.chars);
		jw_key(&l.w, "kind");
		jw_str(&l.w, comment_kind_name(kind));
		jw_key(&l.w, "needs_human");
		if (nh_seen(&l.m)) {
			jw_obj_begin(&l.w);
			lint_needs_human(&l);
			jw_obj_end(&l.w);
		} else {
			jw_null(&l.w);
		}
		jw_key(&l.w, "check");
		if (l.m.check.present) {
			jw_obj_begin(&l.w);
			lint_check(&l);
			jw_obj_end(&l.w);
		} else {
			jw_null(&l.w);
		}
	} else {
		buf_addf(&l.out, "%zu characters, kind %s\n", l.m.chars,
			 comment_kind_name(kind));
		if (quoted)
			buf_adds(&l.out, "  its first line is <!-- pr-review:sticky "
					 "-->: a pr-review summary, whose verdict "
					 "markers are quoted text, never a verdict\n");
		if (nh_seen(&l.m))
			lint_needs_human(&l);
		if (l.m.check.present)
			lint_check(&l);
	}
	if (!l.m.check.present && l.m.check.fenced_line)
		fenced_check(&l);
	ok = (l.m.nh.present || l.m.check.present) && !l.problems;
	if (l.json) {
		jw_key(&l.w, "ok");
		jw_bool(&l.w, ok);
		jw_obj_end(&l.w);
	} else if (!l.m.nh.present && !l.m.check.present && !l.problems) {
		buf_adds(&l.out, "no verdict marker: neither <!-- agentic:needs-"
				 "human v1 --> nor <!-- agentic:check v1 --> "
				 "was found\n");
	} else if (!l.m.nh.present && !l.m.check.present) {
		buf_adds(&l.out, "not a verdict: fix the problems above\n");
	} else {
		buf_addf(&l.out, "%s\n", ok ? "ok: apply and the gate can use "
					      "this verdict"
					    : "not ok: fix the problems above");
	}
	/* Never an explanation cut short (N60); the input's own ceiling
	 * keeps it far below the output's. */
	cut = buf_error(&l.out) < 0;
	if (cut)
		log_error("lint: the explanation is larger than %zu bytes: not "
			  "written", (size_t)BUF_MAX_DOC);
	else
		fputs(l.out.ptr, stdout);
	buf_release(&l.out);
	buf_release(&text);
	if (cut)
		return EXIT_USAGE;
	return ok ? EXIT_OK : EXIT_REFUSED;
}
