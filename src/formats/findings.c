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
 * readers the tables point to, the messages and the normalisation (I6);
 * findings_entries.c the tables of the entries (I3, I4). This file: the
 * document (I1), its top level (I2) and `strings` (I7).
 */
#include "formats/findings.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/findings_int.h"

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
	char *s;

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
		if (!json_string(m))
			return fi_fail(c, "expected a string");
		s = fi_normalise(json_string(m), false);
		in->strings[k] = s;
		if (fi_check_text(c, s, &fi_override_rule) < 0 ||
		    check_placeholders(c, s, rv_string_defaults[k]) < 0)
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
	{ "mode", JS, 0, fi_get_mode, IOFF(mode), NULL },
	{ "head", JS, 0, fi_get_sha, IOFF(head), NULL },
	{ "base", JS, 0, fi_get_text, IOFF(base), &fi_base_rule },
	{ "last_sha", JS, F_NULL, fi_get_sha, IOFF(last_sha), NULL },
	{ "findings", JA, 0, fi_get_findings, 0, NULL },
	{ "subagents_dispatched", JA, F_OPT, get_dispatched, 0, NULL },
	{ "subagent_failures", JA, F_OPT, get_failures, 0, NULL },
	{ "shape_narrative", JS, F_NULL, fi_get_text, IOFF(shape_narrative),
	  &fi_text_rule },
	{ "next_action", JS, F_NULL, fi_get_text, IOFF(next_action),
	  &fi_text_rule },
	{ "prior_sha_unreachable", JS, F_NULL, fi_get_sha,
	  IOFF(prior_sha_unreachable), NULL },
	{ "replies_unavailable", JB, F_OPT, fi_get_bool,
	  IOFF(replies_unavailable), NULL },
	{ "strings", JO, F_OPT, get_strings, 0, NULL },
	{ "prior_verifications", JA, F_OPT, fi_get_verifications, 0, NULL },
	{ "spec_gaps", JA, F_OPT, fi_get_gaps, 0, NULL },
	{ "checked_and_clean", JA, F_OPT, fi_get_clean, 0, NULL },
};

_Static_assert(ARRAY_SIZE(root_fields) <= FIELDS_MAX, "seen is 32 bits");

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

	if (json_string(node)) {
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
	size_t k = 0; /* set by find_nul_escape when it answers true */
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
