/*
 * verdict.c - T1/T2, the row validation of §3.3 and the escalation verdict
 * lookup of §5.2.
 *
 * A verdict counts only when the trusted login wrote it and nobody else
 * edited it since. A ledger row counts only when it has the full shape and
 * names an AI-reviewer thread of this very PR; its reason is never searched.
 */
#include "core/verdict.h"

#include "core/kind.h"

#include <stdlib.h>
#include <string.h>

bool verdict_author_trusted(const struct snap_comment *c,
			    const struct policy *p)
{
	return policy_is_trusted(p, c->author);
}

bool verdict_history_needed(const struct snap_comment *c,
			    const struct policy *p)
{
	return c->edited && policy_is_trusted(p, c->author);
}

bool verdict_trusted_approval(const struct snap_review *r,
			      const struct policy *p)
{
	return r->state && strcmp(r->state, "APPROVED") == 0 &&
	       policy_is_trusted(p, r->author);
}

bool verdict_edit_trusted(const struct snap_comment *c, const struct policy *p)
{
	size_t i;

	if (c->edited && !policy_is_trusted(p, c->edited_by))
		return false;
	for (i = 0; i < c->nedits; i++) /* A5: the whole history */
		if (!policy_is_trusted(p, c->edits[i].editor))
			return false;
	return true;
}

const char *verdict_untrusted_editor(const struct snap_comment *c,
				     const struct policy *p)
{
	size_t i;

	for (i = 0; i < c->nedits; i++)
		if (!policy_is_trusted(p, c->edits[i].editor))
			return c->edits[i].editor;
	return policy_is_trusted(p, c->edited_by) ? NULL : c->edited_by;
}

int64_t verdict_last_edit(const struct snap_comment *c)
{
	int64_t t = c->edited ? c->edited_at : 0;
	size_t i;

	for (i = 0; i < c->nedits; i++)
		if (c->edits[i].edited_at > t)
			t = c->edits[i].edited_at;
	return t;
}

struct idref {
	const char *p;
	size_t n;
};

static int cmp_idref(const void *a, const void *b)
{
	const struct idref *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->p, y->p, n);

	if (c)
		return c;
	return (x->n > y->n) - (x->n < y->n);
}

void verdict_judge_check(struct check_judgement *out,
			 const char *untrusted_body, size_t len,
			 const struct marker_check *check,
			 const struct snap_thread *threads, size_t nthreads,
			 const struct policy *p)
{
	struct idref *ai = xcalloc(nthreads ? nthreads : 1, sizeof(*ai));
	struct marker_rows it;
	struct marker_row row;
	size_t nai = 0, i;

	memset(out, 0, sizeof(*out));
	memset(&row, 0, sizeof(row)); /* for EVA: set when read */
	for (i = 0; i < nthreads; i++) {
		/* X21 (PUBLISH §11): a pr-review finding's thread, opened by
		 * review_login, is an AI reviewer's thread too. */
		if (!policy_is_ai_reviewer(p, threads[i].author) &&
		    !policy_is_review_login(p, threads[i].author))
			continue;
		ai[nai].p = threads[i].id;
		ai[nai].n = strlen(threads[i].id);
		nai++;
	}
	qsort(ai, nai, sizeof(*ai), cmp_idref);

	marker_rows_init(&it, untrusted_body, len, check);
	while (marker_rows_next(&it, &row)) {
		struct idref key;

		out->rows++;
		if (row.error != ROW_OK && !out->invalid++) {
			out->invalid_line = row.line;
			out->invalid_error = row.error;
		}
		if (row.error != ROW_OK && row.error != ROW_BLOCKING_NIT)
			continue;
		if (marker_status_blocks(row.status))
			out->blocking++;
		key.p = row.id.p;
		key.n = row.id.n;
		if (!bsearch(&key, ai, nai, sizeof(*ai), cmp_idref) &&
		    !out->foreign++) {
			out->foreign_line = row.line;
			out->foreign_id = row.id;
		}
	}
	free(ai);
	out->has_clean = check->has_clean;
	out->said_clean = check->has_clean && check->clean;
	out->clean = out->said_clean && !out->invalid && !out->foreign &&
		     !out->blocking;
}

bool verdict_names_head(const struct marker_nh *nh, const char *head)
{
	size_t i;

	if (nh->heads_overflow)
		return true; /* too many heads to tell: fail closed */
	for (i = 0; i < nh->nheads; i++)
		if (strcmp(nh->heads[i], head) == 0)
			return true;
	return false;
}

/* A1: a hold at `at` (the latest one wins; ties keep the first). */
static void hold(struct nh_lookup *out, const struct snap_comment *c,
		 int64_t at, const char *editor, bool edited)
{
	if (out->held && at <= out->hold_at)
		return;
	out->held = true;
	out->hold = c;
	out->hold_event = NULL;
	out->hold_at = at;
	out->hold_editor = editor;
	out->hold_edited = edited;
}

/*
 * A10: the label added by this program's own writer is a hold too. A
 * writer can delete any comment, the yes included, and GitHub records no
 * event for it; the machine's own labeled event stays.
 */
static void hold_labeled(struct nh_lookup *out, const struct snap_event *e,
			 const struct policy *p)
{
	if (e->kind != TL_LABELED || !policy_is_label(p, e->label) ||
	    !policy_is_own_writer(p, e->actor))
		return;
	if (out->held && e->created_at <= out->hold_at)
		return;
	out->held = true;
	out->hold = NULL;
	out->hold_event = e;
	out->hold_at = e->created_at;
	out->hold_editor = NULL;
	out->hold_edited = false;
}

void verdict_lookup(struct nh_lookup *out, const struct snap_pull *pull,
		    const char *head, const struct policy *p)
{
	struct marker_result m;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < pull->ntimeline; i++) {
		const struct snap_event *e = &pull->timeline[i];

		if (e->kind == TL_BASE_REF_CHANGED &&
		    (!out->retarget || e->id > out->retarget->id))
			out->retarget = e;
		hold_labeled(out, e, p);
	}
	for (i = 0; i < pull->ncomments; i++) {
		const struct snap_comment *c = &pull->comments[i];

		if (!verdict_author_trusted(c, p))
			continue;
		marker_parse(&m, c->body, c->body_len);
		if (!verdict_edit_trusted(c, p)) {
			/* Someone else's edit could have removed a yes. */
			hold(out, c, verdict_last_edit(c),
			     verdict_untrusted_editor(c, p), true);
			if ((m.nh.present && verdict_names_head(&m.nh, head)) &&
			    (!out->tampered || c->id > out->tampered->id)) {
				out->tampered = c;
				out->edited_by_other =
					verdict_untrusted_editor(c, p);
			}
			continue;
		}
		if (m.nh.trigger)
			hold(out, c, c->created_at, NULL, false);
		if (!m.nh.present && m.nh.stray_line &&
		    mem_contains(c->body, c->body_len, head) &&
		    (!out->quoted || c->id > out->quoted->id)) {
			out->quoted = c;
			out->quoted_line = m.nh.stray_line;
		}
		/* Only a verdict's kind can be one (core/kind.h); a pr-review
		 * summary quoting a verdict is nobody's. */
		if (!m.nh.present || !verdict_names_head(&m.nh, head) ||
		    comment_kind(PLACE_ISSUE, c->body, c->body_len) ==
			    KIND_OTHER)
			continue;
		if (out->retarget && c->created_at <= out->retarget->created_at) {
			out->dropped++;
			continue;
		}
		if (!out->comment || c->id > out->comment->id) {
			out->comment = c;
			out->marker = m;
		}
	}
}
