/*
 * review_local.c - PUBLISH.md §7.5: the one JSON line of `review-local`.
 * Its key order is the seed's document (L297–L354) and its escaping is
 * the seed's consumer's: only `"`, `\` and control characters, so that
 * CJK, emoji and every other code point reach the caller byte for byte.
 * base/json.c's writer escapes DEL and writes \b and \f as \u00xx, hence
 * the small writer of its own here.
 */
#include "formats/review_local.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "formats/findings.h"

/* A compact JSON writer: `comma` says a value came before at this level
 * (a key clears it, so its value takes none; the value sets it again). */
struct lw {
	struct buf *out;
	bool comma;
	int error;
};

static void raw(struct lw *w, const char *s, size_t n)
{
	int e = buf_add(w->out, s, n);

	if (e && !w->error)
		w->error = e;
}

static void raws(struct lw *w, const char *s)
{
	raw(w, s, strlen(s));
}

static void quote(struct lw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0, i;

	raws(w, "\"");
	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		char u[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
		const char *e = NULL;

		if (c == '"')
			e = "\\\"";
		else if (c == '\\')
			e = "\\\\";
		else if (c == '\n')
			e = "\\n";
		else if (c == '\t')
			e = "\\t";
		else if (c == '\r')
			e = "\\r";
		else if (c == '\b')
			e = "\\b";
		else if (c == '\f')
			e = "\\f";
		else if (c < 0x20)
			e = u;
		if (!e)
			continue;
		raw(w, s + run, i - run);
		raws(w, e);
		run = i + 1;
	}
	raw(w, s + run, i - run);
	raws(w, "\"");
}

static void item(struct lw *w)
{
	if (w->comma)
		raws(w, ",");
	w->comma = true;
}

static void key(struct lw *w, const char *k)
{
	item(w);
	quote(w, k);
	raws(w, ":");
	w->comma = false;
}

static void begin(struct lw *w, const char *k, const char *c)
{
	if (k)
		key(w, k);
	else
		item(w);
	raws(w, c);
	w->comma = false;
}

static void end(struct lw *w, const char *c)
{
	raws(w, c);
	w->comma = true;
}

static void str(struct lw *w, const char *k, const char *s)
{
	if (k)
		key(w, k);
	else
		item(w);
	if (s)
		quote(w, s);
	else
		raws(w, "null");
	w->comma = true;
}

static void num(struct lw *w, const char *k, int64_t v, bool null)
{
	char n[32];
	int len = snprintf(n, sizeof(n), "%lld", (long long)v);

	key(w, k);
	if (null || len < 0 || (size_t)len >= sizeof(n))
		raws(w, "null");
	else
		raw(w, n, (size_t)len);
	w->comma = true;
}

static void id(struct lw *w, const char *k, uint32_t v)
{
	char n[16];
	int len = snprintf(n, sizeof(n), "F%u", v);

	str(w, k, len > 0 && (size_t)len < sizeof(n) ? n : NULL);
}

static void strv(struct lw *w, const char *k, char *const *v, size_t n)
{
	begin(w, k, "[");
	for (size_t i = 0; i < n; i++)
		str(w, NULL, v[i]);
	end(w, "]");
}

/* --- the finding (L309's keys, nothing else) --- */

static void reply(struct lw *w, const struct rv_reply *r)
{
	if (!r) {
		str(w, "author_reply", NULL);
		return;
	}
	begin(w, "author_reply", "{");
	str(w, "kind", r->kind);
	str(w, "reason", r->reason);
	str(w, "recommendation", r->recommendation);
	str(w, "recommendation_reason", r->recommendation_reason);
	end(w, "}");
}

static void exception(struct lw *w, const struct rv_exception *x)
{
	if (!x) {
		str(w, "accepted_exception", NULL);
		return;
	}
	begin(w, "accepted_exception", "{");
	str(w, "kind", x->kind);
	str(w, "reason", x->reason);
	str(w, "issue", x->issue);
	str(w, "accepted_by", x->accepted_by);
	end(w, "}");
}

static void adjustment(struct lw *w, const struct rv_adjustment *a)
{
	if (!a) {
		str(w, "severity_adjustment", NULL);
		return;
	}
	begin(w, "severity_adjustment", "{");
	str(w, "from", a->from);
	str(w, "to", a->to);
	str(w, "reason", a->reason);
	end(w, "}");
}

static void finding(struct lw *w, const struct rv_finding *f)
{
	bool lines = f->file && f->line_start > 0;

	begin(w, NULL, "{");
	id(w, "id", f->id);
	str(w, "p_code", rv_pcode_names[f->p]);
	str(w, "severity_emoji", rv_pcode_emoji[f->p]);
	str(w, "slug", f->slug);
	str(w, "category", f->category);
	str(w, "file", f->file);
	num(w, "line_start", f->line_start, !lines);
	num(w, "line_end", f->line_end, !lines);
	str(w, "confidence", rv_confidence_names[f->confidence]);
	str(w, "blast", f->blast);
	str(w, "justification", f->justification);
	str(w, "failure_mode", f->failure_mode);
	str(w, "mitigation", f->mitigation);
	str(w, "evidence", f->evidence);
	str(w, "details", f->details);
	str(w, "disposition", rv_disposition_names[f->disposition]);
	reply(w, f->reply);
	exception(w, f->exception);
	adjustment(w, f->adjustment);
	end(w, "}");
}

/* --- the document --- */

static void counts(struct lw *w, const struct review_model *m)
{
	begin(w, "open_counts", "{");
	for (int p = 0; p < RV_PCODE_COUNT; p++)
		num(w, rv_pcode_names[p], (int64_t)m->open_counts[p], false);
	end(w, "}");
	begin(w, "awaiting", "{");
	num(w, "author", (int64_t)m->awaiting_author, false);
	num(w, "decision", (int64_t)m->awaiting_decision, false);
	end(w, "}");
}

static void heading_and_next(struct lw *w, const struct review_input *in,
                             const struct review_model *m)
{
	struct buf h = BUF_INIT(BUF_MAX_DOC), next = BUF_INIT(BUF_MAX_DOC);
	bool noop = m->tier == RV_NOOP_TIER;

	if (!noop)
		merge_heading(&h, in, m);
	str(w, "status_heading", noop ? NULL : h.ptr);
	counts(w, m);
	strv(w, "subagent_failures", in->failures, in->nfailures);
	if (!in->next_action)
		merge_next_by_tier(&next, in, m);
	str(w, "next_action",
	    in->next_action ? in->next_action
	    : next.len      ? next.ptr
	                    : NULL);
	buf_release(&h);
	buf_release(&next);
}

static void findings(struct lw *w, const struct review_model *m, bool noop)
{
	begin(w, "findings", "[");
	for (size_t i = 0; !noop && i < m->n; i++)
		finding(w, &m->f[i]);
	end(w, "]");
	begin(w, "accepted_exceptions", "[");
	for (size_t i = 0; !noop && i < m->n; i++) {
		const struct rv_finding *f = &m->f[i];

		if (f->section != RV_SEC_ACCEPTED || !f->exception)
			continue;
		begin(w, NULL, "{");
		id(w, "finding_id", f->id);
		str(w, "kind", f->exception->kind);
		str(w, "reason", f->exception->reason);
		str(w, "issue", f->exception->issue);
		str(w, "accepted_by", f->exception->accepted_by);
		end(w, "}");
	}
	end(w, "]");
}

static void gaps(struct lw *w, const struct review_input *in, bool noop)
{
	begin(w, "spec_gaps", "[");
	for (size_t i = 0; !noop && i < in->ngaps; i++) {
		const struct rv_gap *g = &in->gaps[i];

		begin(w, NULL, "{");
		id(w, "id", g->id);
		str(w, "section", g->section);
		str(w, "title", g->title);
		str(w, "spec_quote", g->spec_quote);
		str(w, "code_quote", g->code_quote);
		strv(w, "questions", g->questions, g->nquestions);
		end(w, "}");
	}
	end(w, "]");
}

static void verifications_and_clean(struct lw *w, const struct review_input *in,
                                    bool noop)
{
	begin(w, "prior_verifications", "[");
	for (size_t i = 0; !noop && i < in->nverifications; i++) {
		const struct rv_verification *v = &in->verifications[i];

		begin(w, NULL, "{");
		id(w, "prior_id", v->prior_id);
		str(w, "verification", v->verification);
		str(w, "note", v->note);
		end(w, "}");
	}
	end(w, "]");
	begin(w, "checked_and_clean", "[");
	for (size_t i = 0; !noop && i < in->nclean; i++) {
		begin(w, NULL, "{");
		str(w, "slug", in->clean[i].slug);
		str(w, "evidence", in->clean[i].evidence);
		end(w, "}");
	}
	end(w, "]");
}

bool review_local_is_noop(const struct review_input *in)
{
	return in->last_sha[0] && str_eq_nocase(in->last_sha, in->head);
}

int review_local_render(struct buf *out, const struct review_input *in,
                        const struct review_model *m, struct buf *err)
{
	struct lw w = {out, false, AA_OK};
	bool noop = m->tier == RV_NOOP_TIER;

	begin(&w, NULL, "{");
	str(&w, "mode", "local");
	str(&w, "base", in->base);
	str(&w, "head", in->head);
	str(&w, "last_sha", in->last_sha[0] ? in->last_sha : NULL);
	str(&w, "status", rv_tier_tokens[m->tier]);
	heading_and_next(&w, in, m);
	findings(&w, m, noop);
	gaps(&w, in, noop);
	verifications_and_clean(&w, in, noop);
	end(&w, "}");
	raws(&w, "\n");
	if (w.error)
		buf_setf(err,
		         "review-local: the output is over its size limit");
	return w.error;
}

/* Parse, merge, render; 0, 1 or 2 as review_local.h says. */
static int local_run(struct buf *out, struct review_input *in, struct buf *err)
{
	struct merge_ctx ctx = {NULL, NULL, NULL, true, false};
	struct review_model m;
	struct buf msg = BUF_INIT(BUF_MAX_SMALL);
	int code = RL_EXIT_OK;

	memset(&m, 0, sizeof(m));
	if (review_local_is_noop(in)) {
		m.tier = RV_NOOP_TIER;
	} else if (merge_run(&m, in, &ctx, &msg)) {
		buf_setf(err, "findings: %s", msg.ptr);
		buf_release(&msg);
		return RL_EXIT_USAGE;
	}
	/* Nothing to refuse in a noop: no review ran (as publish, §7.1). */
	if (m.all_failed) {
		buf_setf(err, "every dispatched subagent failed: refused, "
		              "no review to report");
		code = RL_EXIT_REFUSED;
	} else if (review_local_render(out, in, &m, err)) {
		code = RL_EXIT_REFUSED;
	}
	review_model_release(&m);
	buf_release(&msg);
	return code;
}

int review_local(struct buf *out, const char *text, size_t len, struct buf *err)
{
	struct findings_opts o = {true, 0};
	struct review_input in;
	struct buf msg = BUF_INIT(BUF_MAX_SMALL);
	struct buf doc = BUF_INIT(out->max);
	int code;

	if (findings_parse(&in, text, len, &o, &msg)) {
		buf_setf(err, "findings: %s", msg.ptr);
		buf_release(&msg);
		return RL_EXIT_USAGE;
	}
	code = local_run(&doc, &in, err);
	if (code == RL_EXIT_OK && buf_add(out, doc.ptr, doc.len)) {
		buf_setf(err, "review-local: the output is over its size "
		              "limit");
		code = RL_EXIT_REFUSED;
	}
	review_input_release(&in);
	buf_release(&doc);
	buf_release(&msg);
	return code;
}
