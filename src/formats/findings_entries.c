/*
 * findings_entries.c - PUBLISH.md §3, the entries of the findings input:
 * the rules of its strings and the names of its choices, the getters of
 * their members, a finding (I3) with its reporters, replies, exceptions
 * and adjustments, and I4 (prior verifications, questions, spec gaps,
 * checked and clean). Each is read from a table of its members
 * (findings.c reads the document around them).
 */
#include "formats/findings.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/findings_int.h"

/* --- the rules of strings, and the names of choices --- */

const struct text_rule fi_text_rule = { 0, 0, NULL };
static const struct text_rule evidence_rule = { T_RAW | T_EMPTY, 0, NULL };
static const struct text_rule details_rule = { T_RAW, 0, NULL };
const struct text_rule fi_base_rule = { T_LINE, RV_MAX_BASE, NULL };
static const struct text_rule slug_rule = { T_LINE, RV_MAX_SLUG,
					    fi_check_slug };
static const struct text_rule category_rule = { T_LINE | T_CP,
						RV_MAX_CATEGORY, NULL };
static const struct text_rule file_rule = { 0, RV_MAX_FILE, fi_check_file };
static const struct text_rule issue_rule = { 0, 0, fi_check_issue };
const struct text_rule fi_override_rule = { T_LINE | T_CP,
						RV_MAX_STRING_OVERRIDE, NULL };

static const struct choice pcodes = { rv_pcode_names, RV_PCODE_COUNT };
static const struct choice confidences = { rv_confidence_names,
					    RV_CONFIDENCE_COUNT };
static const struct choice dispositions = { rv_disposition_names,
					     RV_DISP_COUNT };
static const struct choice emojis = { rv_pcode_emoji, RV_PCODE_COUNT };

#define CHOICE(name, ...)                                                  \
	static const char *const name##_names[] = { __VA_ARGS__ };         \
	static const struct choice name = { name##_names,                  \
					    ARRAY_SIZE(name##_names) }
CHOICE(blasts, "Local", "Module", "Cross-service", "Data layer");
CHOICE(justifications, "Reachable", "Precedent", "Asymmetric", "Historical",
       "Hygiene");
CHOICE(reply_kinds, "rebutted", "wontfix", "deferred");
CHOICE(recommendations, "agree with author", "disagree");
CHOICE(exception_kinds, "follow_up", "wontfix", "by_design");
CHOICE(reversibles, "reversible", "not reversible");
CHOICE(verifications, "yes", "unclear", "no");

/* --- getters of this file's members (the JSON type is checked) --- */

int fi_get_mode(struct fi_ctx *c, const cJSON *v, void *dst,
		    const void *arg)
{
	/* RV_LOCAL is the last mode: review-local's only */
	struct choice modes = { rv_mode_names,
				c->local ? RV_MODE_COUNT : RV_LOCAL };
	size_t k = 0; /* set by fi_read_choice when it answers AA_OK */

	(void)arg;
	if (fi_read_choice(c, v, &modes, &k) < 0)
		return AA_ERR;
	*(enum rv_mode *)dst = (enum rv_mode)k;
	return AA_OK;
}

/* A member whose value names one of an enum's choices: the choice's
 * index, stored as that enum (each enum type has its own store). */
struct enum_member {
	const struct choice *choice;
	void (*store)(void *dst, size_t k);
};

static void store_pcode(void *dst, size_t k)
{
	*(enum rv_pcode *)dst = (enum rv_pcode)k;
}

static void store_confidence(void *dst, size_t k)
{
	*(enum rv_confidence *)dst = (enum rv_confidence)k;
}

static void store_disposition(void *dst, size_t k)
{
	*(enum rv_disposition *)dst = (enum rv_disposition)k;
}

static const struct enum_member pcode_member = { &pcodes, store_pcode };
static const struct enum_member confidence_member = { &confidences,
						      store_confidence };
static const struct enum_member disposition_member = { &dispositions,
						       store_disposition };

static int get_enum(struct fi_ctx *c, const cJSON *v, void *dst,
		    const void *arg)
{
	const struct enum_member *m = arg;
	size_t k = 0; /* as in fi_get_mode */

	if (fi_read_choice(c, v, m->choice, &k) < 0)
		return AA_ERR;
	m->store(dst, k);
	return AA_OK;
}

/* Checked against p_code once the finding is read (check_finding). */
static int get_emoji(struct fi_ctx *c, const cJSON *v, void *dst,
		     const void *arg)
{
	size_t k = 0; /* as in fi_get_mode */

	(void)dst;
	(void)arg;
	if (fi_read_choice(c, v, &emojis, &k) < 0)
		return AA_ERR;
	c->emoji = (int)k;
	return AA_OK;
}

/* An id ("F<n>") unique among the array's elements read before it (the
 * later one is the violation): I3 for findings, I4 for prior_id, one
 * spec gap per Q finding. `arg` reads element j's id. */
typedef uint32_t id_at_fn(const struct review_input *in, size_t j);

static uint32_t finding_id_at(const struct review_input *in, size_t j)
{
	return in->findings[j].id;
}

static uint32_t prior_id_at(const struct review_input *in, size_t j)
{
	return in->verifications[j].prior_id;
}

static uint32_t gap_id_at(const struct review_input *in, size_t j)
{
	return in->gaps[j].id;
}

struct id_member {
	id_at_fn *id_at;
};
static const struct id_member finding_ids = { finding_id_at };
static const struct id_member prior_ids = { prior_id_at };
static const struct id_member gap_ids = { gap_id_at };

static int get_unique_id(struct fi_ctx *c, const cJSON *v, void *dst,
			 const void *arg)
{
	const struct id_member *m = arg;
	uint32_t *id = dst;
	size_t j;

	if (fi_read_fid(c, v, id) < 0)
		return AA_ERR;
	for (j = 0; j < c->cur; j++)
		if (m->id_at(c->in, j) == *id)
			return fi_fail(c, "duplicate F%u", *id);
	return AA_OK;
}

/* --- a finding (I3) --- */

#define FOFF(m) offsetof(struct rv_finding, m)

static int get_reported_by(struct fi_ctx *c, const cJSON *v, void *dst,
			   const void *arg)
{
	struct rv_finding *f = dst;

	(void)arg;
	return fi_read_names(c, v, &f->reported_by, &f->nreported_by);
}

static const struct field reply_fields[] = {
	{ "kind", JS, 0, fi_get_choice, offsetof(struct rv_reply, kind),
	  &reply_kinds },
	{ "reason", JS, 0, fi_get_text, offsetof(struct rv_reply, reason),
	  &fi_text_rule },
	{ "recommendation", JS, F_NULL, fi_get_choice,
	  offsetof(struct rv_reply, recommendation), &recommendations },
	{ "recommendation_reason", JS, F_NULL, fi_get_text,
	  offsetof(struct rv_reply, recommendation_reason), &fi_text_rule },
};

static int get_reply(struct fi_ctx *c, const cJSON *v, void *dst,
		     const void *arg)
{
	struct rv_reply *r = xcalloc(1, sizeof(*r));

	(void)arg;
	*(struct rv_reply **)dst = r;
	if (WALK(c, v, reply_fields, r) < 0)
		return AA_ERR;
	if (r->recommendation && !r->recommendation_reason)
		return fi_fail_at(c, "recommendation_reason",
				  "required with a recommendation");
	if (!r->recommendation && r->recommendation_reason)
		return fi_fail_at(c, "recommendation_reason",
				  "set without a recommendation");
	return AA_OK;
}

static const struct field exception_fields[] = {
	{ "kind", JS, 0, fi_get_choice, offsetof(struct rv_exception, kind),
	  &exception_kinds },
	{ "reason", JS, 0, fi_get_text, offsetof(struct rv_exception, reason),
	  &fi_text_rule },
	{ "issue", JS, F_NULL, fi_get_text,
	  offsetof(struct rv_exception, issue),
	  &issue_rule },
	{ "accepted_by", JS, 0, fi_get_text,
	  offsetof(struct rv_exception, accepted_by), &fi_text_rule },
};

static int get_exception(struct fi_ctx *c, const cJSON *v, void *dst,
			 const void *arg)
{
	struct rv_exception *x = xcalloc(1, sizeof(*x));

	(void)arg;
	*(struct rv_exception **)dst = x;
	return WALK(c, v, exception_fields, x);
}

static const struct field adjustment_fields[] = {
	{ "from", JS, 0, fi_get_text, offsetof(struct rv_adjustment, from),
	  &fi_text_rule },
	{ "to", JS, 0, fi_get_text, offsetof(struct rv_adjustment, to),
	  &fi_text_rule },
	{ "reason", JS, 0, fi_get_text, offsetof(struct rv_adjustment, reason),
	  &fi_text_rule },
};

/* `to` = lbl(p_code) is checked with the finding (check_finding). */
static int get_adjustment(struct fi_ctx *c, const cJSON *v, void *dst,
			  const void *arg)
{
	struct rv_adjustment *a = xcalloc(1, sizeof(*a));

	(void)arg;
	*(struct rv_adjustment **)dst = a;
	return WALK(c, v, adjustment_fields, a);
}

static const struct field finding_fields[] = {
	{ "id", JS, 0, get_unique_id, FOFF(id), &finding_ids },
	{ "p_code", JS, 0, get_enum, FOFF(p), &pcode_member },
	{ "severity_emoji", JS, F_NULL, get_emoji, 0, NULL },
	{ "slug", JS, 0, fi_get_text, FOFF(slug), &slug_rule },
	{ "category", JS, 0, fi_get_text, FOFF(category), &category_rule },
	{ "file", JS, F_NULL, fi_get_text, FOFF(file), &file_rule },
	{ "line_start", JN, F_NULL, fi_get_line, FOFF(line_start), NULL },
	{ "line_end", JN, F_NULL, fi_get_line, FOFF(line_end), NULL },
	{ "confidence", JS, 0, get_enum, FOFF(confidence),
	  &confidence_member },
	{ "blast", JS, 0, fi_get_choice, FOFF(blast), &blasts },
	{ "justification", JS, 0, fi_get_choice, FOFF(justification),
	  &justifications },
	{ "failure_mode", JS, 0, fi_get_text, FOFF(failure_mode), &fi_text_rule },
	{ "mitigation", JS, 0, fi_get_text, FOFF(mitigation), &fi_text_rule },
	{ "evidence", JS, 0, fi_get_text, FOFF(evidence), &evidence_rule },
	{ "details", JS, F_NULL, fi_get_text, FOFF(details), &details_rule },
	{ "disposition", JS, 0, get_enum, FOFF(disposition),
	  &disposition_member },
	{ "author_reply", JO, F_NULL, get_reply, FOFF(reply), NULL },
	{ "accepted_exception", JO, F_NULL, get_exception, FOFF(exception),
	  NULL },
	{ "severity_adjustment", JO, F_NULL, get_adjustment,
	  FOFF(adjustment), NULL },
	{ "reported_by", JA, F_OPT, get_reported_by, 0, NULL },
	{ "reversible", JS, F_NULL, fi_get_choice, FOFF(reversible),
	  &reversibles },
	{ "reopen_thread", JB, F_OPT, fi_get_bool, FOFF(reopen_thread), NULL },
};

/* The rules between a finding's members. */
static int check_finding(struct fi_ctx *c, const struct rv_finding *f)
{
	const char *lbl = rv_pcode_labels[f->p];

	if (c->emoji >= 0 && c->emoji != (int)f->p)
		return fi_fail_at(c, "severity_emoji",
				  "does not match p_code %s",
				  rv_pcode_names[f->p]);
	if (!f->line_start != !f->line_end)
		return fi_fail_at(c, f->line_start ? "line_end" : "line_start",
				  "null while %s is not",
				  f->line_start ? "line_start" : "line_end");
	if (f->line_start > f->line_end)
		return fi_fail_at(c, "line_end", "less than line_start");
	if (f->line_start && !f->file)
		return fi_fail_at(c, "line_start", "set without a file");
	if (strcmp(f->justification, "Hygiene") == 0 && f->p != RV_Q)
		return fi_fail_at(c, "justification",
				  "Hygiene is for Q findings only");
	if (f->adjustment && strcmp(f->adjustment->to, lbl) != 0) {
		fi_ptr_key(c, "severity_adjustment");
		return fi_fail_at(c, "to", "not \"%s\", the label of p_code",
				  lbl);
	}
	return AA_OK;
}

static int one_finding(struct fi_ctx *c, const cJSON *e, size_t i)
{
	struct rv_finding *f = &c->in->findings[i];

	c->emoji = -1;
	if (WALK(c, e, finding_fields, f) < 0)
		return AA_ERR;
	return check_finding(c, f);
}

int fi_get_findings(struct fi_ctx *c, const cJSON *v, void *dst,
			const void *arg)
{
	struct review_input *in = dst;
	size_t n = fi_array_size(v);

	(void)arg;
	if (n > c->max_findings)
		return fi_fail(c, "more than %zu findings", c->max_findings);
	if (n)
		in->findings = xcalloc(n, sizeof(*in->findings));
	in->nfindings = n;
	return fi_each_object(c, v, one_finding);
}

/* --- I4 --- */

static const struct field verification_fields[] = {
	{ "prior_id", JS, 0, get_unique_id,
	  offsetof(struct rv_verification, prior_id), &prior_ids },
	{ "verification", JS, 0, fi_get_choice,
	  offsetof(struct rv_verification, verification), &verifications },
	{ "note", JS, 0, fi_get_text, offsetof(struct rv_verification, note),
	  &fi_text_rule },
};

static int one_verification(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, verification_fields, &c->in->verifications[i]);
}

int fi_get_verifications(struct fi_ctx *c, const cJSON *v, void *dst,
			     const void *arg)
{
	struct review_input *in = dst;
	size_t n = fi_array_size(v);

	(void)arg;
	if (n)
		in->verifications = xcalloc(n, sizeof(*in->verifications));
	in->nverifications = n;
	return fi_each_object(c, v, one_verification);
}

static int get_questions(struct fi_ctx *c, const cJSON *v, void *dst,
			 const void *arg)
{
	struct rv_gap *g = dst;
	const cJSON *e;
	size_t count = fi_array_size(v), i = 0, mark;
	char **questions, *s;

	(void)arg;
	if (!count)
		return fi_fail(c, "empty");
	g->questions = questions = xcalloc(count, sizeof(*g->questions));
	cJSON_ArrayForEach(e, v) {
		mark = fi_ptr_index(c, i);
		if (!json_string(e))
			return fi_fail(c, "expected a string");
		s = fi_normalise(json_string(e), false);
		questions[i] = s;
		g->nquestions = ++i;
		if (fi_check_text(c, s, &fi_text_rule) < 0)
			return AA_ERR;
		fi_ptr_pop(c, mark);
	}
	return AA_OK;
}

#define GOFF(m) offsetof(struct rv_gap, m)
static const struct field gap_fields[] = {
	{ "id", JS, 0, get_unique_id, GOFF(id), &gap_ids },
	{ "section", JS, 0, fi_get_text, GOFF(section), &fi_text_rule },
	{ "title", JS, 0, fi_get_text, GOFF(title), &fi_text_rule },
	{ "spec_quote", JS, 0, fi_get_text, GOFF(spec_quote), &fi_text_rule },
	{ "code_quote", JS, 0, fi_get_text, GOFF(code_quote), &fi_text_rule },
	{ "questions", JA, 0, get_questions, 0, NULL },
	{ "closing", JS, F_NULL, fi_get_text, GOFF(closing), &fi_text_rule },
};

static int one_gap(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, gap_fields, &c->in->gaps[i]);
}

int fi_get_gaps(struct fi_ctx *c, const cJSON *v, void *dst,
		    const void *arg)
{
	struct review_input *in = dst;
	size_t n = fi_array_size(v);

	(void)arg;
	if (n)
		in->gaps = xcalloc(n, sizeof(*in->gaps));
	in->ngaps = n;
	return fi_each_object(c, v, one_gap);
}

static const struct field clean_fields[] = {
	{ "slug", JS, 0, fi_get_text, offsetof(struct rv_clean, slug),
	  &slug_rule },
	/* prose (L352 "one-line"), trimmed like every string but a
	 * finding's verbatim evidence */
	{ "evidence", JS, 0, fi_get_text, offsetof(struct rv_clean, evidence),
	  &fi_text_rule },
};

static int one_clean(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, clean_fields, &c->in->clean[i]);
}

int fi_get_clean(struct fi_ctx *c, const cJSON *v, void *dst,
		     const void *arg)
{
	struct review_input *in = dst;
	size_t n = fi_array_size(v);

	(void)arg;
	if (n)
		in->clean = xcalloc(n, sizeof(*in->clean));
	in->nclean = n;
	return fi_each_object(c, v, one_clean);
}

_Static_assert(ARRAY_SIZE(finding_fields) <= FIELDS_MAX, "seen is 32 bits");
