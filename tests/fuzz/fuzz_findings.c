/*
 * fuzz_findings.c - the findings input (PUBLISH.md §3) on arbitrary bytes.
 * The first byte picks the options (bit 0: review-local, bit 1: a ceiling
 * of 2 findings); the rest is the document. Beyond "no crash", checks what
 * callers rely on: a refusal is one "<pointer>: <reason>" line and leaves
 * nothing behind; an accepted input holds normalised strings (I6) and
 * keeps the rules between its parts (I2-I4, I7).
 */
#include <string.h>

#include "formats/findings.h"
#include "fuzz.h"

/* I6: no CR; trimmed strings have no whitespace at either end. */
static void check_str(const char *s, int trimmed)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	FUZZ_ASSERT(!strchr(s, '\r'));
	if (trimmed && n) {
		FUZZ_ASSERT(!strchr(" \t\n\v\f", s[0]));
		FUZZ_ASSERT(!strchr(" \t\n\v\f", s[n - 1]));
	}
}

static void check_finding(const struct review_input *in, size_t i)
{
	const struct rv_finding *f = &in->findings[i];
	size_t j;

	FUZZ_ASSERT(f->id >= 1 && f->id <= RV_MAX_ID);
	for (j = 0; j < i; j++)
		FUZZ_ASSERT(in->findings[j].id != f->id);
	FUZZ_ASSERT(f->slug && f->slug[0] && strlen(f->slug) <= RV_MAX_SLUG);
	FUZZ_ASSERT(f->category && !strchr(f->category, '\n'));
	FUZZ_ASSERT(!f->file || (f->file[0] && f->file[0] != '/' &&
				 strlen(f->file) <= RV_MAX_FILE));
	FUZZ_ASSERT(!f->line_start == !f->line_end);
	FUZZ_ASSERT(f->line_start <= f->line_end);
	FUZZ_ASSERT(!f->line_start || f->file);
	FUZZ_ASSERT(f->evidence && f->failure_mode[0] && f->mitigation[0]);
	FUZZ_ASSERT(!f->details || f->details[0]);
	FUZZ_ASSERT(!f->adjustment ||
		    strcmp(f->adjustment->to, rv_pcode_labels[f->p]) == 0);
	FUZZ_ASSERT(strcmp(f->justification, "Hygiene") != 0 ||
		    f->p == RV_Q);
	FUZZ_ASSERT(!f->reply || !f->reply->recommendation ==
					 !f->reply->recommendation_reason);
	check_str(f->slug, 1);
	check_str(f->failure_mode, 1);
	check_str(f->mitigation, 1);
	check_str(f->evidence, 0);
	check_str(f->details, 0);
}

static void check_input(const struct review_input *in, size_t max)
{
	size_t i, k;

	FUZZ_ASSERT(strlen(in->head) == SHA_HEX_LEN);
	FUZZ_ASSERT(in->base && in->base[0] && !strchr(in->base, '\n'));
	FUZZ_ASSERT(in->mode != RV_INCREMENTAL || in->last_sha[0]);
	FUZZ_ASSERT(in->nfindings <= max);
	FUZZ_ASSERT(in->nfindings < 2 || in->shape_narrative);
	FUZZ_ASSERT(!in->nfailures || in->has_dispatched);
	check_str(in->base, 1);
	check_str(in->next_action, 1);
	for (i = 0; i < in->nfindings; i++)
		check_finding(in, i);
	for (i = 0; i < in->nverifications; i++)
		FUZZ_ASSERT(review_find(in->findings, in->nfindings,
					in->verifications[i].prior_id));
	for (i = 0; i < in->ngaps; i++) {
		const struct rv_finding *f = review_find(
			in->findings, in->nfindings, in->gaps[i].id);

		FUZZ_ASSERT(f && f->p == RV_Q);
		FUZZ_ASSERT(in->gaps[i].nquestions > 0);
	}
	for (k = 0; k < RV_STRING_COUNT; k++) {
		FUZZ_ASSERT(!in->strings[k] || !strchr(in->strings[k], '\n'));
		check_str(in->strings[k], 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct findings_opts o = { false, 0 };
	struct review_input in;

	if (size < 1)
		return 0;
	o.local = data[0] & 1;
	o.max_findings = (data[0] & 2) ? 2 : 0;
	if (findings_parse(&in, (const char *)data + 1, size - 1, &o, &err) ==
	    AA_OK) {
		check_input(&in, o.max_findings ? o.max_findings
						: RV_MAX_FINDINGS_DEFAULT);
		FUZZ_ASSERT(o.local || in.mode != RV_LOCAL);
		review_input_release(&in);
	} else {
		/* "<pointer>: <reason>", the pointer empty or "/…" */
		FUZZ_ASSERT(err.len > 2 && strstr(err.ptr, ": "));
		FUZZ_ASSERT(err.ptr[0] == '/' || err.ptr[0] == ':');
		FUZZ_ASSERT(!in.findings && !in.nfindings && !in.base);
	}
	buf_release(&err);
	return 0;
}
