/*
 * report.c - the report of a run, as JSON for machines and markdown for
 * people.
 */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

void report_init(struct report *r, const char *event, bool dry_run)
{
	memset(r, 0, sizeof(*r));
	r->event = xstrdup_or_null(event);
	r->dry_run = dry_run;
}

static void step_release(struct report_step *s)
{
	int i;

	for (i = 0; i < COND_COUNT; i++)
		free(s->why[i]);
	strv_free(s->reasons, s->nreasons);
	free(s->verdict_url);
	free(s->check_url);
	free(s->repository);
}

static void write_release(struct report_write *w)
{
	free(w->label);
	free(w->state);
	free(w->context);
	free(w->description);
	free(w->target_url);
}

void report_release(struct report *r)
{
	size_t i;

	free(r->event);
	for (i = 0; i < r->nsteps; i++)
		step_release(&r->steps[i]);
	free(r->steps);
	for (i = 0; i < r->nwrites; i++)
		write_release(&r->writes[i]);
	free(r->writes);
	free(r->not_reached);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i].text);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

static int severity(int code)
{
	switch (code) {
	case EXIT_USAGE:
		return 3;
	case EXIT_API:
		return 2;
	case EXIT_REFUSED:
		return 1;
	default:
		return 0;
	}
}

int exit_merge(int a, int b)
{
	return severity(a) >= severity(b) ? a : b;
}

void report_exit(struct report *r, int code)
{
	r->exit = exit_merge(r->exit, code);
}

struct report_step *report_add_step(struct report *r, enum step_kind kind,
				    int64_t pr)
{
	struct report_step *s;

	ALLOC_GROW(r->steps, r->nsteps + 1, r->asteps);
	s = &r->steps[r->nsteps++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->pr = pr;
	s->clean = -1;
	s->draft = -1;
	s->outcome = "skipped";
	return s;
}

void step_reason(struct report_step *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_vaddf(&s->reasons, &s->nreasons, fmt, ap);
	va_end(ap);
}

void step_finish(struct report *r, struct report_step *s, const char *outcome,
		 int exit)
{
	/* A step keeps its most severe outcome (N2: error over refused
	 * over applied): a later, milder finish does not hide it. */
	if (exit_merge(s->exit, exit) == exit)
		s->outcome = outcome;
	s->exit = exit_merge(s->exit, exit);
	report_exit(r, exit);
}

struct report_write *report_add_write(struct report *r, enum write_kind kind,
				      int64_t pr)
{
	struct report_write *w;

	ALLOC_GROW(r->writes, r->nwrites + 1, r->awrites);
	w = &r->writes[r->nwrites++];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->pr = pr;
	return w;
}

void report_note(struct report *r, enum note_level level, const char *fmt, ...)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->notes, r->nnotes + 1, r->anotes);
	r->notes[r->nnotes].level = level;
	r->notes[r->nnotes++].text = buf_detach(&b, NULL);
}

/* --- JSON --- */

static void json_step(struct jw *w, const struct report_step *s)
{
	size_t i;
	int c;

	jw_obj_begin(w);
	if (s->repository) {
		jw_key(w, "repository");
		jw_str(w, s->repository);
	}
	jw_key(w, "pr");
	jw_int(w, s->pr);
	jw_key(w, "step");
	jw_str(w, s->kind == STEP_APPLY ? "apply" : "gate");
	jw_key(w, "outcome");
	jw_str(w, s->outcome);
	jw_key(w, "head");
	jw_str_or_null(w, s->head[0] ? s->head : NULL);
	if (s->kind == STEP_APPLY) {
		jw_key(w, "comment");
		if (s->comment)
			jw_int(w, s->comment);
		else
			jw_null(w);
		jw_key(w, "clean");
		if (s->clean < 0)
			jw_null(w);
		else
			jw_bool(w, s->clean);
		jw_key(w, "needs_human");
		jw_str_or_null(w, s->needs_human);
	} else {
		jw_key(w, "conditions");
		if (s->has_conditions) {
			jw_obj_begin(w);
			for (c = 0; c < COND_COUNT; c++) {
				jw_key(w, gate_cond_keys[c]);
				jw_bool(w, s->cond[c]);
			}
			jw_obj_end(w);
		} else {
			jw_null(w);
		}
		if (s->draft >= 0) {
			jw_key(w, "draft");
			jw_bool(w, s->draft);
		}
	}
	jw_key(w, "reasons");
	jw_arr_begin(w);
	for (i = 0; i < s->nreasons; i++)
		jw_str(w, s->reasons[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static const char *const write_kind_names[] = {"create_label", "label",
					       "status", "approve", "dismiss"};

static void json_write(struct jw *w, const struct report_write *x)
{
	jw_obj_begin(w);
	jw_key(w, "kind");
	jw_str(w, write_kind_names[x->kind]);
	switch (x->kind) {
	case W_CREATE_LABEL:
		jw_key(w, "label");
		jw_str(w, x->label);
		break;
	case W_LABEL:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "label");
		jw_str(w, x->label);
		break;
	case W_STATUS:
		jw_key(w, "sha");
		jw_str(w, x->sha);
		jw_key(w, "state");
		jw_str(w, x->state);
		jw_key(w, "context");
		jw_str(w, x->context);
		jw_key(w, "description");
		jw_str(w, x->description);
		jw_key(w, "target_url");
		jw_str_or_null(w, x->target_url);
		break;
	case W_APPROVE:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "commit_id");
		jw_str(w, x->commit_id);
		break;
	case W_DISMISS:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "review_id");
		jw_int(w, x->review_id);
		break;
	}
	jw_obj_end(w);
}

void report_to_json(const struct report *r, struct buf *out)
{
	struct jw w;
	size_t i;

	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key(&w, "report");
	jw_int(&w, 1);
	jw_key(&w, "event");
	jw_str_or_null(&w, r->event);
	jw_key(&w, "dry_run");
	jw_bool(&w, r->dry_run);
	jw_key(&w, "steps");
	jw_arr_begin(&w);
	for (i = 0; i < r->nsteps; i++)
		json_step(&w, &r->steps[i]);
	jw_arr_end(&w);
	jw_key(&w, "writes");
	jw_arr_begin(&w);
	for (i = 0; i < r->nwrites; i++)
		json_write(&w, &r->writes[i]);
	jw_arr_end(&w);
	if (r->nnot_reached) {
		jw_key(&w, "not_reached");
		jw_arr_begin(&w);
		for (i = 0; i < r->nnot_reached; i++)
			jw_int(&w, r->not_reached[i]);
		jw_arr_end(&w);
	}
	jw_key(&w, "exit");
	jw_int(&w, r->exit);
	jw_obj_end(&w);
}

/* The step the outputs describe: the last gate step, else the last step. */
static const struct report_step *deciding_step(const struct report *r)
{
	size_t i = r->nsteps;

	while (i-- > 0)
		if (r->steps[i].kind == STEP_GATE)
			return &r->steps[i];
	return r->nsteps ? &r->steps[r->nsteps - 1] : NULL;
}

void report_outputs(const struct report *r, bool sweep, struct buf *out)
{
	const struct report_step *last = deciding_step(r);
	bool approved;
	size_t i, napproved = 0;

	if (sweep)
		buf_adds(out, "decision=sweep\npr=\nhead=\n");
	else if (last)
		buf_addf(out, "decision=%s\npr=%lld\nhead=%s\n", last->outcome,
			 (long long)last->pr, last->head);
	else
		buf_adds(out, "decision=none\npr=\nhead=\n");
	buf_adds(out, "approved_prs=");
	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i].kind == STEP_GATE &&
		    strcmp(r->steps[i].outcome, "approve") == 0)
			buf_addf(out, "%s%lld", napproved++ ? "," : "",
				 (long long)r->steps[i].pr);
	if (sweep)
		approved = napproved > 0;
	else
		approved = last && last->kind == STEP_GATE &&
			   strcmp(last->outcome, "approve") == 0;
	buf_addf(out, "\napproved=%s\n", approved ? "true" : "false");
}

void report_usage_json(struct buf *out)
{
	buf_adds(out, "{\"report\": 1, \"steps\": [], \"writes\": [], "
		      "\"exit\": 2}\n");
}

/* --- markdown --- */

/*
 * Text for a markdown table cell: control characters become spaces, and
 * characters markdown or HTML would act on are escaped, so untrusted text
 * (branch names, logins) shows as itself and cannot break the table.  An
 * underscore between two letters or digits stays: it cannot open or close
 * emphasis there (CommonMark flanking rules), and "issue_comment" reads
 * better than its escape.
 */
static void md_cell(struct buf *out, const char *s)
{
	const char *start = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			buf_addch(out, ' ');
		else if (c == '_' && s > start && is_alnum(s[-1]) &&
			 is_alnum(s[1]))
			buf_addch(out, '_');
		else if (strchr("|\\`*_[]<>~", c))
			buf_addf(out, "&#%d;", c);
		else
			buf_addch(out, (char)c);
	}
}

/* A link only for a plain https URL that cannot break out of markdown. */
static void md_link(struct buf *out, const char *text, const char *url,
		    bool *first)
{
	size_t i;

	if (!url || strncmp(url, "https://", 8) != 0)
		return;
	for (i = 0; url[i]; i++)
		if ((unsigned char)url[i] <= 0x20 || strchr("()<>[]\"'`\\|", url[i]))
			return;
	buf_addf(out, "%s[%s](%s)", *first ? "Verdicts: " : " · ", text, url);
	*first = false;
}

static void md_gate(struct buf *out, const struct report_step *s)
{
	bool first = true;

	int c;

	buf_addf(out, "### PR #%lld: %s", (long long)s->pr, s->outcome);
	if (s->head[0])
		buf_addf(out, " (head %.7s)", s->head);
	buf_adds(out, "\n\n");
	if (s->has_conditions) {
		buf_adds(out, "| condition | | reason |\n|---|---|---|\n");
		for (c = 0; c < COND_COUNT; c++) {
			buf_addf(out, "| %s | %s | ", gate_cond_titles[c],
				 s->cond[c] ? "✅" : "❌");
			md_cell(out, s->why[c] ? s->why[c] : "");
			buf_adds(out, " |\n");
		}
		buf_adds(out, "\n");
	}
	md_link(out, "check verdict", s->check_url, &first);
	md_link(out, "needs-human verdict", s->verdict_url, &first);
	if (!first)
		buf_adds(out, "\n\n");
}

static void md_write(struct buf *out, const struct report_write *w)
{
	buf_adds(out, "- ");
	switch (w->kind) {
	case W_CREATE_LABEL:
		buf_adds(out, "created the repository label ");
		md_cell(out, w->label);
		break;
	case W_LABEL:
		buf_addf(out, "added the label ");
		md_cell(out, w->label);
		buf_addf(out, " to PR #%lld", (long long)w->pr);
		break;
	case W_STATUS:
		buf_addf(out, "set %s to %s on %.7s: ", w->context, w->state,
			 w->sha);
		md_cell(out, w->description);
		break;
	case W_APPROVE:
		buf_addf(out, "approved PR #%lld at %.7s", (long long)w->pr,
			 w->commit_id);
		break;
	case W_DISMISS:
		buf_addf(out, "dismissed review %lld on PR #%lld",
			 (long long)w->review_id, (long long)w->pr);
		break;
	}
	buf_adds(out, "\n");
}

/* Is this reason one the conditions table already shows? */
static bool in_table(const struct report_step *s, const char *reason)
{
	int c;

	if (s->kind != STEP_GATE || !s->has_conditions)
		return false;
	for (c = 0; c < COND_COUNT; c++)
		if (!s->cond[c] && s->why[c] && strcmp(s->why[c], reason) == 0)
			return true;
	return false;
}

void report_to_markdown(const struct report *r, struct buf *out)
{
	size_t i, j;

	buf_adds(out, "## agentic-apply");
	if (r->event) {
		/* The event name comes from the environment or a snapshot:
		 * escaped like any untrusted cell. */
		buf_adds(out, " (");
		md_cell(out, r->event);
		buf_addch(out, ')');
	}
	buf_adds(out, "\n\n");
	for (i = 0; i < r->nsteps; i++) {
		const struct report_step *s = &r->steps[i];
		bool listed = false;

		if (s->kind == STEP_GATE) {
			md_gate(out, s);
		} else {
			buf_addf(out, "### PR #%lld: apply %s", (long long)s->pr,
				 s->outcome);
			if (s->comment)
				buf_addf(out, " (comment %lld)",
					 (long long)s->comment);
			buf_adds(out, "\n\n");
		}
		for (j = 0; j < s->nreasons; j++) {
			if (in_table(s, s->reasons[j]))
				continue;
			buf_adds(out, "- ");
			md_cell(out, s->reasons[j]);
			buf_adds(out, "\n");
			listed = true;
		}
		if (listed)
			buf_adds(out, "\n");
	}
	if (!r->nsteps)
		buf_adds(out, "Nothing to do.\n\n");
	buf_addf(out, "**Writes%s:** %s\n",
		 r->dry_run ? " (dry run, planned)" : "",
		 r->nwrites ? "" : "none");
	for (i = 0; i < r->nwrites; i++)
		md_write(out, &r->writes[i]);
	if (r->nnot_reached) {
		buf_adds(out, "\n**Not reached before the deadline:**");
		for (i = 0; i < r->nnot_reached; i++)
			buf_addf(out, " #%lld", (long long)r->not_reached[i]);
		buf_adds(out, "\n");
	}
	buf_addf(out, "\nExit code %d.\n", r->exit);
}
