/*
 * report.c - the report of a run, as JSON for machines and markdown for
 * people.
 */
#include "formats/report.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"

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
	free(s->extra);
}

static void write_release(struct report_write *w)
{
	free(w->label);
	free(w->state);
	free(w->context);
	free(w->description);
	free(w->target_url);
	free(w->findings);
}

void report_release(struct report *r)
{
	size_t i;

	free(r->event);
	free(r->server_url);
	free(r->docs_url);
	free(r->repository);
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

void report_merge_exit(struct report *r, int code)
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
	s->outcome = OUT_SKIPPED;
	return s;
}

void step_reason(struct report_step *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_vaddf(&s->reasons, &s->nreasons, fmt, ap);
	va_end(ap);
}

void step_finish(struct report *r, struct report_step *s,
		 enum step_outcome outcome, int exit)
{
	/* Each step is finished once, by the flow that recorded it: a
	 * second finish is a bug, never a merge. */
	assert(!s->finished);
	s->finished = true;
	s->outcome = outcome;
	s->exit = exit;
	report_merge_exit(r, exit);
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

static const char *const step_kind_names[] = { "apply", "gate", "plan",
						"publish", "local" };

/* A step's own members (PUBLISH §9), produced by this program. Members
 * that do not parse (a document cut short) fail the report: never a step
 * silently without them. */
static void json_extra(struct jw *w, const char *extra)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *c;
	cJSON *root = NULL;

	if (extra && json_parse(&root, extra, strlen(extra), &err) == AA_OK)
		cJSON_ArrayForEach(c, root)
		{
			jw_key(w, c->string);
			jw_cjson(w, c);
		}
	else if (extra)
		buf_fail(w->out, AA_ERR);
	cJSON_Delete(root);
	buf_release(&err);
}

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
	jw_str(w, step_kind_names[s->kind]);
	jw_key(w, "outcome");
	jw_str(w, step_outcome_names[s->outcome]);
	jw_key(w, "head");
	jw_str_or_null(w, s->head[0] ? s->head : NULL);
	if (s->kind >= STEP_PLAN) {
		json_extra(w, s->extra);
	} else if (s->kind == STEP_APPLY) {
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

const char *const step_outcome_names[OUT_COUNT] = {
	"skipped", "applied", "refused", "approve", "withhold", "error",
	"planned", "noop", "published", "unchanged", "superseded", "partial"};

static const char *const write_kind_names[] = {
	"create_label", "label", "status", "approve", "dismiss",
	"comment_create", "comment_update", "comment_delete", "review",
	"discussion"};

/* A compact JSON value this program produced, or [] when none. */
static void json_extra_value(struct jw *w, const char *text)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;

	if (text && json_parse(&root, text, strlen(text), &err) == AA_OK) {
		jw_cjson(w, root);
	} else {
		if (text)
			buf_fail(w->out, AA_ERR); /* cut short: fail closed */
		jw_arr_begin(w);
		jw_arr_end(w);
	}
	cJSON_Delete(root);
	buf_release(&err);
}

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
	case W_COMMENT_CREATE:
	case W_COMMENT_UPDATE:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "comment_id");
		if (x->comment_id)
			jw_int(w, x->comment_id);
		else
			jw_null(w);
		jw_key(w, "body_sha256");
		jw_str(w, x->body_sha256);
		break;
	case W_COMMENT_DELETE:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "comment_id");
		jw_int(w, x->comment_id);
		break;
	case W_REVIEW:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "review_id");
		if (x->review_id)
			jw_int(w, x->review_id);
		else
			jw_null(w);
		jw_key(w, "event");
		jw_str(w, "COMMENT");
		jw_key(w, "commit_id");
		jw_str(w, x->commit_id);
		jw_key(w, "findings");
		json_extra_value(w, x->findings);
		break;
	case W_DISCUSSION:
		jw_key(w, "pr");
		jw_int(w, x->pr);
		jw_key(w, "discussion_id");
		jw_str_or_null(w, x->discussion_id[0] ? x->discussion_id : NULL);
		jw_key(w, "note_id");
		if (x->note_id)
			jw_int(w, x->note_id);
		else
			jw_null(w);
		jw_key(w, "commit_id");
		jw_str(w, x->commit_id);
		jw_key(w, "findings");
		json_extra_value(w, x->findings);
		break;
	}
	jw_obj_end(w);
}

int report_to_json(const struct report *r, struct buf *out)
{
	struct jw w;
	size_t i;

	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key(&w, "report");
	jw_int(&w, 1);
	if (r->gitlab) {
		jw_key(&w, "platform");
		jw_str(&w, "gitlab");
	}
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
	return buf_error(out);
}

void report_usage_json(struct buf *out)
{
	buf_adds(out, "{\"report\": 1, \"steps\": [], \"writes\": [], "
		      "\"exit\": 2}\n");
}
