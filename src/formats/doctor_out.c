/*
 * doctor_out.c - doctor's three outputs (doctor_out.h). The text and the
 * markdown say the same: one line per check, its verdict, what was found
 * and, unless it is ok, the fix.
 */
#include "formats/doctor_out.h"

#include <string.h>

#include "base/json.h"
#include "base/util.h"

/* Control characters shown as \xNN: nothing read can start a new line. */
static void text(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			buf_addf(out, "\\x%02x", c);
		else
			buf_addch(out, (char)c);
	}
}

/* A markdown table cell: control characters dropped, what markdown or HTML
 * would act on escaped. */
static void cell(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			buf_addch(out, ' ');
		else if (strchr("\\`*_[]<>|#!~&@:", c))
			buf_addf(out, "&#%d;", c);
		else
			buf_addch(out, (char)c);
	}
}

static void header(struct buf *out, const struct doctor_facts *f,
		   void (*esc)(struct buf *, const char *))
{
	size_t i;

	esc(out, f->repository);
	buf_adds(out, ", default branch ");
	esc(out, f->default_branch ? f->default_branch : "unknown");
	buf_adds(out, ", gated bases: ");
	for (i = 0; i < f->nbases; i++) {
		if (i)
			buf_adds(out, ", ");
		esc(out, f->bases[i].name);
	}
	if (!f->nbases)
		buf_adds(out, "none");
}

static const char *const json_verdicts[] = {"ok", "missing", "cannot_tell",
					    "skipped"};

static void summary_line(struct buf *out, const struct doctor_result *r)
{
	buf_addf(out, "%d ok, %d missing, %d cannot tell, %d skipped: exit %d",
		 r->counts[DOCTOR_OK], r->counts[DOCTOR_MISSING],
		 r->counts[DOCTOR_CANNOT_TELL], r->counts[DOCTOR_SKIPPED],
		 doctor_exit(r));
}

void doctor_text(struct buf *out, const struct doctor_result *r,
		 const struct doctor_facts *f)
{
	struct buf name = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	buf_adds(out, "agentic-apply doctor: ");
	header(out, f, text);
	buf_adds(out, "\n");
	for (i = 0; i < r->n; i++) {
		const struct doctor_check *c = &r->checks[i];

		buf_reset(&name);
		buf_adds(&name, c->id);
		if (c->subject) {
			buf_adds(&name, " ");
			text(&name, c->subject);
		}
		buf_addf(out, "%-12s %-24s ",
			 doctor_verdict_names[c->verdict], name.ptr);
		text(out, c->detail);
		buf_adds(out, "\n");
		if (c->fix) {
			buf_addf(out, "%-12s %-24s fix: ", "", "");
			text(out, c->fix);
			buf_adds(out, "\n");
		}
	}
	buf_adds(out, "doctor: ");
	summary_line(out, r);
	buf_adds(out, doctor_exit(r) ? " (something needed is missing or "
				       "cannot be told)\n"
				     : " (everything needed is in place)\n");
	buf_release(&name);
}

void doctor_json(struct buf *out, const struct doctor_result *r,
		 const struct doctor_facts *f)
{
	struct jw w;
	size_t i;

	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key(&w, "doctor");
	jw_int(&w, 1);
	jw_key(&w, "repository");
	jw_str(&w, f->repository);
	jw_key(&w, "default_branch");
	jw_str_or_null(&w, f->default_branch);
	jw_key(&w, "bases");
	jw_arr_begin(&w);
	for (i = 0; i < f->nbases; i++)
		jw_str(&w, f->bases[i].name);
	jw_arr_end(&w);
	jw_key(&w, "checks");
	jw_arr_begin(&w);
	for (i = 0; i < r->n; i++) {
		const struct doctor_check *c = &r->checks[i];

		jw_obj_begin(&w);
		jw_key(&w, "check");
		jw_str(&w, c->id);
		jw_key(&w, "subject");
		jw_str_or_null(&w, c->subject);
		jw_key(&w, "verdict");
		jw_str(&w, json_verdicts[c->verdict]);
		jw_key(&w, "detail");
		jw_str_or_null(&w, c->detail);
		jw_key(&w, "fix");
		jw_str_or_null(&w, c->fix);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "counts");
	jw_obj_begin(&w);
	for (i = 0; i < ARRAY_SIZE(json_verdicts); i++) {
		jw_key(&w, json_verdicts[i]);
		jw_int(&w, r->counts[i]);
	}
	jw_obj_end(&w);
	jw_key(&w, "exit");
	jw_int(&w, doctor_exit(r));
	jw_obj_end(&w);
	buf_adds(out, "\n");
}

void doctor_markdown(struct buf *out, const struct doctor_result *r,
		     const struct doctor_facts *f)
{
	static const char *const marks[] = {"✅", "❌", "❔", "➖"};
	size_t i;

	buf_adds(out, "## agentic-apply doctor\n\n");
	header(out, f, cell);
	buf_adds(out, "\n\n| | check | found | fix |\n|---|---|---|---|\n");
	for (i = 0; i < r->n; i++) {
		const struct doctor_check *c = &r->checks[i];

		buf_addf(out, "| %s | %s", marks[c->verdict], c->id);
		if (c->subject) {
			buf_adds(out, " (");
			cell(out, c->subject);
			buf_adds(out, ")");
		}
		buf_adds(out, " | ");
		cell(out, c->detail);
		buf_adds(out, " | ");
		cell(out, c->fix);
		buf_adds(out, " |\n");
	}
	buf_adds(out, "\n");
	summary_line(out, r);
	buf_adds(out, "\n");
}
