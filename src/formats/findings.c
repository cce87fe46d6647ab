/*
 * findings.c - PUBLISH.md §3, the findings input: I1 (one JSON object, no
 * \u0000, unknown keys ignored), I2 (the top level and its extensions), I3
 * (a finding), I4 (prior verifications, spec gaps, checked and clean), I6
 * (normalisation) and I7 (`strings`).
 *
 * Each object is read from a table of its members: members are taken in
 * the order the document gives them, so the message names the first
 * violation; the rules between members run once the object is read. A key
 * no table names is ignored (I1): that is also how `status`,
 * `status_heading`, `open_counts`, `awaiting` and `accepted_exceptions`
 * are ignored (the binary computes them). findings_read.c holds the
 * readers the tables point to, the messages and the normalisation (I6).
 */
#include "formats/findings.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/findings_int.h"

/* --- the rules of strings, and the names of choices --- */

static const struct text_rule text_rule = { 0, 0, NULL };
static const struct text_rule evidence_rule = { T_RAW | T_EMPTY, 0, NULL };
static const struct text_rule details_rule = { T_RAW, 0, NULL };
static const struct text_rule base_rule = { T_LINE, RV_MAX_BASE, NULL };
static const struct text_rule slug_rule = { T_LINE, RV_MAX_SLUG,
					    fi_check_slug };
static const struct text_rule category_rule = { T_LINE | T_CP,
						RV_MAX_CATEGORY, NULL };
static const struct text_rule file_rule = { 0, RV_MAX_FILE, fi_check_file };
static const struct text_rule issue_rule = { 0, 0, fi_check_issue };
static const struct text_rule override_rule = { T_LINE | T_CP,
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

static int get_mode(struct fi_ctx *c, const cJSON *v, void *dst,
		    const void *arg)
{
	/* RV_LOCAL is the last mode: review-local's only */
	struct choice modes = { rv_mode_names,
				c->local ? RV_MODE_COUNT : RV_LOCAL };
	size_t k;

	(void)arg;
	if (fi_read_choice(c, v, &modes, &k) < 0)
		return AA_ERR;
	*(enum rv_mode *)dst = (enum rv_mode)k;
	return AA_OK;
}

static int get_pcode(struct fi_ctx *c, const cJSON *v, void *dst,
		     const void *arg)
{
	size_t k;

	(void)arg;
	if (fi_read_choice(c, v, &pcodes, &k) < 0)
		return AA_ERR;
	*(enum rv_pcode *)dst = (enum rv_pcode)k;
	return AA_OK;
}

static int get_confidence(struct fi_ctx *c, const cJSON *v, void *dst,
			  const void *arg)
{
	size_t k;

	(void)arg;
	if (fi_read_choice(c, v, &confidences, &k) < 0)
		return AA_ERR;
	*(enum rv_confidence *)dst = (enum rv_confidence)k;
	return AA_OK;
}

static int get_disposition(struct fi_ctx *c, const cJSON *v, void *dst,
			   const void *arg)
{
	size_t k;

	(void)arg;
	if (fi_read_choice(c, v, &dispositions, &k) < 0)
		return AA_ERR;
	*(enum rv_disposition *)dst = (enum rv_disposition)k;
	return AA_OK;
}

/* Checked against p_code once the finding is read (check_finding). */
static int get_emoji(struct fi_ctx *c, const cJSON *v, void *dst,
		     const void *arg)
{
	size_t k;

	(void)dst;
	(void)arg;
	if (fi_read_choice(c, v, &emojis, &k) < 0)
		return AA_ERR;
	c->emoji = (int)k;
	return AA_OK;
}

/* I3: ids unique (the later one is the violation). */
static int get_finding_id(struct fi_ctx *c, const cJSON *v, void *dst,
			  const void *arg)
{
	uint32_t *id = dst;
	size_t j;

	(void)arg;
	if (fi_read_fid(c, v, id) < 0)
		return AA_ERR;
	for (j = 0; j < c->cur; j++)
		if (c->in->findings[j].id == *id)
			return fi_fail(c, "duplicate F%u", *id);
	return AA_OK;
}

/* I4: a prior_id appears once. */
static int get_prior_id(struct fi_ctx *c, const cJSON *v, void *dst,
			const void *arg)
{
	uint32_t *id = dst;
	size_t j;

	(void)arg;
	if (fi_read_fid(c, v, id) < 0)
		return AA_ERR;
	for (j = 0; j < c->cur; j++)
		if (c->in->verifications[j].prior_id == *id)
			return fi_fail(c, "duplicate F%u", *id);
	return AA_OK;
}

/* A spec gap per Q finding. */
static int get_gap_id(struct fi_ctx *c, const cJSON *v, void *dst,
		      const void *arg)
{
	uint32_t *id = dst;
	size_t j;

	(void)arg;
	if (fi_read_fid(c, v, id) < 0)
		return AA_ERR;
	for (j = 0; j < c->cur; j++)
		if (c->in->gaps[j].id == *id)
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
	  &text_rule },
	{ "recommendation", JS, F_NULL, fi_get_choice,
	  offsetof(struct rv_reply, recommendation), &recommendations },
	{ "recommendation_reason", JS, F_NULL, fi_get_text,
	  offsetof(struct rv_reply, recommendation_reason), &text_rule },
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
	  &text_rule },
	{ "issue", JS, F_NULL, fi_get_text,
	  offsetof(struct rv_exception, issue),
	  &issue_rule },
	{ "accepted_by", JS, 0, fi_get_text,
	  offsetof(struct rv_exception, accepted_by), &text_rule },
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
	  &text_rule },
	{ "to", JS, 0, fi_get_text, offsetof(struct rv_adjustment, to),
	  &text_rule },
	{ "reason", JS, 0, fi_get_text, offsetof(struct rv_adjustment, reason),
	  &text_rule },
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
	{ "id", JS, 0, get_finding_id, FOFF(id), NULL },
	{ "p_code", JS, 0, get_pcode, FOFF(p), NULL },
	{ "severity_emoji", JS, F_NULL, get_emoji, 0, NULL },
	{ "slug", JS, 0, fi_get_text, FOFF(slug), &slug_rule },
	{ "category", JS, 0, fi_get_text, FOFF(category), &category_rule },
	{ "file", JS, F_NULL, fi_get_text, FOFF(file), &file_rule },
	{ "line_start", JN, F_NULL, fi_get_line, FOFF(line_start), NULL },
	{ "line_end", JN, F_NULL, fi_get_line, FOFF(line_end), NULL },
	{ "confidence", JS, 0, get_confidence, FOFF(confidence), NULL },
	{ "blast", JS, 0, fi_get_choice, FOFF(blast), &blasts },
	{ "justification", JS, 0, fi_get_choice, FOFF(justification),
	  &justifications },
	{ "failure_mode", JS, 0, fi_get_text, FOFF(failure_mode), &text_rule },
	{ "mitigation", JS, 0, fi_get_text, FOFF(mitigation), &text_rule },
	{ "evidence", JS, 0, fi_get_text, FOFF(evidence), &evidence_rule },
	{ "details", JS, F_NULL, fi_get_text, FOFF(details), &details_rule },
	{ "disposition", JS, 0, get_disposition, FOFF(disposition), NULL },
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

static int get_findings(struct fi_ctx *c, const cJSON *v, void *dst,
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
	{ "prior_id", JS, 0, get_prior_id,
	  offsetof(struct rv_verification, prior_id), NULL },
	{ "verification", JS, 0, fi_get_choice,
	  offsetof(struct rv_verification, verification), &verifications },
	{ "note", JS, 0, fi_get_text, offsetof(struct rv_verification, note),
	  &text_rule },
};

static int one_verification(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, verification_fields, &c->in->verifications[i]);
}

static int get_verifications(struct fi_ctx *c, const cJSON *v, void *dst,
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

	(void)arg;
	if (!count)
		return fi_fail(c, "empty");
	g->questions = xcalloc(count, sizeof(*g->questions));
	cJSON_ArrayForEach(e, v) {
		mark = fi_ptr_index(c, i);
		if (!cJSON_IsString(e))
			return fi_fail(c, "expected a string");
		g->questions[i] = fi_normalise(e->valuestring, false);
		g->nquestions = ++i;
		if (fi_check_text(c, g->questions[i - 1], &text_rule) < 0)
			return AA_ERR;
		fi_ptr_pop(c, mark);
	}
	return AA_OK;
}

#define GOFF(m) offsetof(struct rv_gap, m)
static const struct field gap_fields[] = {
	{ "id", JS, 0, get_gap_id, GOFF(id), NULL },
	{ "section", JS, 0, fi_get_text, GOFF(section), &text_rule },
	{ "title", JS, 0, fi_get_text, GOFF(title), &text_rule },
	{ "spec_quote", JS, 0, fi_get_text, GOFF(spec_quote), &text_rule },
	{ "code_quote", JS, 0, fi_get_text, GOFF(code_quote), &text_rule },
	{ "questions", JA, 0, get_questions, 0, NULL },
	{ "closing", JS, F_NULL, fi_get_text, GOFF(closing), &text_rule },
};

static int one_gap(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, gap_fields, &c->in->gaps[i]);
}

static int get_gaps(struct fi_ctx *c, const cJSON *v, void *dst,
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
	  &text_rule },
};

static int one_clean(struct fi_ctx *c, const cJSON *e, size_t i)
{
	return WALK(c, e, clean_fields, &c->in->clean[i]);
}

static int get_clean(struct fi_ctx *c, const cJSON *v, void *dst,
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

/* --- I7: strings --- */

/* Bytes of the placeholder "{name}" (name: [A-Za-z0-9_]+) at s, or 0. */
static size_t placeholder(const char *s)
{
	size_t i = 1;

	if (s[0] != '{')
		return 0;
	while (is_alnum(s[i]) || s[i] == '_')
		i++;
	return i > 1 && s[i] == '}' ? i + 1 : 0;
}

/* How often s holds the placeholder ph (n bytes). */
static size_t count_placeholder(const char *s, const char *ph, size_t n)
{
	size_t count = 0, k;

	for (; *s; s++) {
		k = placeholder(s);
		if (!k)
			continue;
		if (k == n && memcmp(s, ph, n) == 0)
			count++;
		s += k - 1;
	}
	return count;
}

/* An override keeps exactly the default's placeholders, each once. */
static int check_placeholders(struct fi_ctx *c, const char *s, const char *def)
{
	const char *p;
	size_t k;

	for (p = s; *p; p++) {
		k = placeholder(p);
		if (!k)
			continue;
		if (!count_placeholder(def, p, k))
			return fi_fail(c, "unknown placeholder %.*s", (int)k,
				       p);
		p += k - 1;
	}
	for (p = def; *p; p++) {
		k = placeholder(p);
		if (!k)
			continue;
		if (count_placeholder(s, p, k) != 1)
			return fi_fail(c, "must hold %.*s exactly once", (int)k,
				       p);
		p += k - 1;
	}
	return AA_OK;
}

static int get_strings(struct fi_ctx *c, const cJSON *v, void *dst,
		       const void *arg)
{
	struct review_input *in = dst;
	const cJSON *m;
	size_t k, mark;

	(void)arg;
	cJSON_ArrayForEach(m, v) {
		mark = fi_ptr_key(c, m->string);
		for (k = 0; k < RV_STRING_COUNT; k++)
			if (strcmp(m->string, rv_string_keys[k]) == 0)
				break;
		/* a misspelt key would leave English prose in a sticky
		 * written in the PR's language, silently */
		if (k == RV_STRING_COUNT)
			return fi_fail(c, "not a string of I7");
		if (!cJSON_IsString(m))
			return fi_fail(c, "expected a string");
		in->strings[k] = fi_normalise(m->valuestring, false);
		if (fi_check_text(c, in->strings[k], &override_rule) < 0 ||
		    check_placeholders(c, in->strings[k],
				       rv_string_defaults[k]) < 0)
			return AA_ERR;
		fi_ptr_pop(c, mark);
	}
	return AA_OK;
}

/* --- the top level (I2) --- */

static int get_dispatched(struct fi_ctx *c, const cJSON *v, void *dst,
			  const void *arg)
{
	struct review_input *in = dst;

	(void)arg;
	in->has_dispatched = true;
	return fi_read_names(c, v, &in->dispatched, &in->ndispatched);
}

static int get_failures(struct fi_ctx *c, const cJSON *v, void *dst,
			const void *arg)
{
	struct review_input *in = dst;

	(void)arg;
	return fi_read_names(c, v, &in->failures, &in->nfailures);
}

#define IOFF(m) offsetof(struct review_input, m)
static const struct field root_fields[] = {
	{ "mode", JS, 0, get_mode, IOFF(mode), NULL },
	{ "head", JS, 0, fi_get_sha, IOFF(head), NULL },
	{ "base", JS, 0, fi_get_text, IOFF(base), &base_rule },
	{ "last_sha", JS, F_NULL, fi_get_sha, IOFF(last_sha), NULL },
	{ "findings", JA, 0, get_findings, 0, NULL },
	{ "subagents_dispatched", JA, F_OPT, get_dispatched, 0, NULL },
	{ "subagent_failures", JA, F_OPT, get_failures, 0, NULL },
	{ "shape_narrative", JS, F_NULL, fi_get_text, IOFF(shape_narrative),
	  &text_rule },
	{ "next_action", JS, F_NULL, fi_get_text, IOFF(next_action),
	  &text_rule },
	{ "prior_sha_unreachable", JS, F_NULL, fi_get_sha,
	  IOFF(prior_sha_unreachable), NULL },
	{ "replies_unavailable", JB, F_OPT, fi_get_bool,
	  IOFF(replies_unavailable), NULL },
	{ "strings", JO, F_OPT, get_strings, 0, NULL },
	{ "prior_verifications", JA, F_OPT, get_verifications, 0, NULL },
	{ "spec_gaps", JA, F_OPT, get_gaps, 0, NULL },
	{ "checked_and_clean", JA, F_OPT, get_clean, 0, NULL },
};

_Static_assert(ARRAY_SIZE(root_fields) <= FIELDS_MAX, "seen is 32 bits");
_Static_assert(ARRAY_SIZE(finding_fields) <= FIELDS_MAX, "seen is 32 bits");

static bool in_names(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* The rules between top-level members, and between arrays. */
static int check_root(struct fi_ctx *c)
{
	const struct review_input *in = c->in;
	const struct rv_finding *f;
	size_t i;

	if (in->mode == RV_INCREMENTAL && !in->last_sha[0])
		return fi_fail_at(c, "last_sha",
				  "required when mode is incremental");
	if (in->nfailures && !in->has_dispatched)
		return fi_fail_at(c, "subagents_dispatched",
				  "required when subagent_failures is not "
				  "empty");
	for (i = 0; i < in->nfailures; i++)
		if (!in_names(in->dispatched, in->ndispatched,
			      in->failures[i])) {
			fi_ptr_key(c, "subagent_failures");
			fi_ptr_index(c, i);
			return fi_fail(c,
				       "\"%s\" is not in subagents_dispatched",
				       in->failures[i]);
		}
	if (in->nfindings >= 2 && !in->shape_narrative)
		return fi_fail_at(c, "shape_narrative",
				  "required when findings has 2 or more "
				  "elements");
	for (i = 0; i < in->nverifications; i++) {
		uint32_t id = in->verifications[i].prior_id;

		if (!review_find(in->findings, in->nfindings, id)) {
			fi_ptr_key(c, "prior_verifications");
			fi_ptr_index(c, i);
			return fi_fail_at(c, "prior_id", "F%u is not a finding",
					  id);
		}
	}
	for (i = 0; i < in->ngaps; i++) {
		uint32_t id = in->gaps[i].id;

		f = review_find(in->findings, in->nfindings, id);
		if (!f || f->p != RV_Q) {
			fi_ptr_key(c, "spec_gaps");
			fi_ptr_index(c, i);
			return fi_fail_at(c, "id",
					  f ? "F%u is not a Q finding"
					    : "F%u is not a finding",
					  id);
		}
	}
	return AA_OK;
}

/* --- I1: the document --- */

/*
 * json_parse reads "\u0000" as U+FFFD; I1 refuses it. The text is valid
 * JSON here, so its strings are the spans between unescaped quotes: *k is
 * the index (keys and values, in text order) of the first string holding
 * the escape.
 */
static bool find_nul_escape(const char *t, size_t len, size_t *k)
{
	bool in_str = false;
	size_t strings = 0, i;

	for (i = 0; i < len; i++) {
		if (!in_str) {
			if (t[i] == '"') {
				in_str = true;
				strings++;
			}
		} else if (t[i] == '"') {
			in_str = false;
		} else if (t[i] == '\\') {
			if (i + 5 < len && t[i + 1] == 'u' &&
			    memcmp(t + i + 2, "0000", 4) == 0) {
				*k = strings - 1;
				return true;
			}
			i++;
		}
	}
	return false;
}

/* Point c->ptr at the k-th string of node's subtree (cJSON keeps the
 * text's order: a member's key, then its value). */
static bool locate(struct fi_ctx *c, const cJSON *node, size_t *k)
{
	const cJSON *m;
	size_t i = 0, mark;

	if (cJSON_IsString(node)) {
		if (*k == 0)
			return true;
		(*k)--;
		return false;
	}
	cJSON_ArrayForEach(m, node) {
		mark = cJSON_IsObject(node) ? fi_ptr_key(c, m->string)
					    : fi_ptr_index(c, i);
		if (cJSON_IsObject(node)) {
			if (*k == 0)
				return true;
			(*k)--;
		}
		if (locate(c, m, k))
			return true;
		fi_ptr_pop(c, mark);
		i++;
	}
	return false;
}

int findings_parse(struct review_input *out, const char *text, size_t len,
		   const struct findings_opts *o, struct buf *err)
{
	struct fi_ctx c;
	struct buf jerr = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;
	size_t k;
	int error = AA_ERR;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.in = out;
	c.err = err;
	c.local = o && o->local;
	c.max_findings = o && o->max_findings ? o->max_findings
					      : RV_MAX_FINDINGS_DEFAULT;
	c.emoji = -1;
	buf_init(&c.ptr, BUF_MAX_SMALL);
	if (!text)
		len = 0;

	if (len > RV_MAX_INPUT_BYTES) {
		fi_fail(&c, "larger than %zu bytes (8 MiB)",
			RV_MAX_INPUT_BYTES);
		goto out;
	}
	if (json_parse_at(&root, text ? text : "", len, &jerr, &c.ptr) < 0) {
		/* B8: a duplicate key names its member; the text is no JSON
		 * object otherwise (an empty pointer). */
		fi_fail(&c, "%s", c.ptr.len ? "duplicate key" : jerr.ptr);
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		fi_fail(&c, "not a JSON object");
		goto out;
	}
	if (find_nul_escape(text ? text : "", len, &k)) {
		locate(&c, root, &k);
		fi_fail(&c, "contains \\u0000");
		goto out;
	}
	if (WALK(&c, root, root_fields, out) < 0 || check_root(&c) < 0)
		goto out;
	error = AA_OK;
out:
	if (error)
		review_input_release(out);
	cJSON_Delete(root);
	buf_release(&jerr);
	buf_release(&c.ptr);
	return error;
}
