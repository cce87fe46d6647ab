/*
 * sticky_tables.c - the sticky's blocks 10-15 (PUBLISH.md §5.2): severity
 * adjustments, last iteration changes, the overview by category, spec
 * gaps, checked and clean, the footer and the §5.3 state block.
 */
#include "formats/sticky.h"
#include "formats/sticky_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- block 10: severity adjustments --- */

void sr_block_adjustments(struct rd *r)
{
	struct buf *o = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		const struct rv_adjustment *a = f->adjustment;
		if (!a)
			continue;
		if (!o) {
			buf_adds(sr_block(r),
			         "## " E_SCALES " Severity adjustments");
			o = sr_block(r);
			buf_adds(o, "| # | Category | Adjustment | Reason |\n"
			            "| --- | --- | --- | --- |");
		}
		buf_addf(o, "\n| F%u | `", f->id);
		rv_one(o, f->slug, RV_ONE_CAP, true);
		buf_adds(o, "` | ");
		rv_one(o, a->from, RV_ONE_CAP, true);
		buf_adds(o, ARROW);
		rv_one(o, a->to, RV_ONE_CAP, true);
		buf_adds(o, " | ");
		rv_one(o, a->reason, RV_ONE_CAP, true);
		buf_adds(o, " |");
	}
}

/* --- block 11: last iteration changes --- */

static void change_status(struct buf *o, const struct rv_finding *f,
                          const struct rv_verification *v, const char *head)
{
	const struct rv_exception *e = f->exception;
	const char *note = v->note;

	if (f->section == RV_SEC_ACCEPTED && e) {
		if (strcmp(e->kind, "follow_up") == 0) {
			buf_adds(o, E_HOOK " Follow-up");
			if (e->issue) {
				buf_addch(o, ' ');
				rv_one(o, e->issue, RV_ONE_CAP, true);
			}
		} else if (strcmp(e->kind, "wontfix") == 0) {
			buf_adds(o, E_NO " Wontfix");
		} else {
			buf_adds(o, E_COMPASS " By-design");
		}
		note = e->reason;
	} else if (f->p == RV_Q && strcmp(v->verification, "yes") != 0) {
		buf_adds(o, E_PAUSE " Awaiting spec author");
		return;
	} else if (strcmp(v->verification, "yes") == 0) {
		buf_adds(o, E_CHECK " Likely fixed `");
		sticky_sha7(o, head);
		buf_addch(o, '`');
	} else if (strcmp(v->verification, "no") == 0) {
		buf_adds(o, E_CYCLE " Still present");
	} else {
		buf_adds(o, E_PAUSE " Untouched");
	}
	buf_adds(o, DASH);
	rv_one(o, note, RV_ONE_CAP, true);
}

void sr_block_changes(struct rd *r)
{
	const struct review_input *in = r->in;
	struct buf *o;

	if (in->mode != RV_INCREMENTAL || !in->nverifications)
		return;
	buf_adds(sr_block(r), "## " E_CYCLE " Last iteration changes (`");
	sticky_sha7(r->out, in->last_sha);
	buf_adds(r->out, "..");
	sticky_sha7(r->out, in->head);
	buf_adds(r->out, "`)");
	o = sr_block(r);
	buf_adds(o, "| Prior | Status |\n| --- | --- |");
	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		const struct rv_verification *v = rv_verification_of(in, f->id);
		if (!v)
			continue;
		buf_addf(o, "\n| F%u %s ", f->id, rv_pcode_names[f->p]);
		rv_one(o, f->slug, RV_ONE_CAP, true);
		if (f->file && f->p != RV_Q) {
			buf_adds(o, " (");
			sr_one_loc(o, f, true);
			buf_addch(o, ')');
		}
		buf_adds(o, " | ");
		change_status(o, f, v, in->head);
		buf_adds(o, " |");
	}
}

/* --- block 12: overview by category --- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted distinct values in v (n of them, NULLs skipped); returns the
 * count kept at the front. */
static size_t sort_distinct(const char **v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i])
			v[k++] = v[i];
	if (k)
		qsort(v, k, sizeof(*v), cmp_str);
	n = k;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
			v[k++] = v[i];
	return k;
}

static void category_row(struct rd *r, struct buf *o, const char *slug,
                         const char **tmp)
{
	size_t c[RV_PCODE_COUNT] = {0}, nf = 0;
	struct buf files = BUF_INIT(BUF_MAX_DOC);

	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		if (!sr_is_open(f) || strcmp(f->slug, slug) != 0)
			continue;
		c[f->p]++;
		tmp[nf++] = f->file;
	}
	nf = sort_distinct(tmp, nf);
	for (size_t i = 0; i < nf; i++)
		buf_addf(&files, "%s%s", i ? ", " : "", tmp[i]);
	buf_adds(o, "\n| `");
	rv_one(o, slug, RV_ONE_CAP, true);
	buf_addf(o, "` | %zu | %zu | %zu | %zu | %zu | ", c[RV_P0], c[RV_P1],
	         c[RV_P2], c[RV_P3], c[RV_Q]);
	if (nf && r->dg >= DG_FILES)
		buf_addf(o, "%zu files", nf);
	else
		rv_one(o, files.ptr, RV_ONE_CAP, true);
	buf_adds(o, " |");
	buf_release(&files);
}

void sr_block_overview(struct rd *r)
{
	const char **slugs, **tmp;
	size_t n = 0;
	struct buf *o;

	for (size_t i = 0; i < r->n; i++)
		if (sr_is_open(&r->f[i]))
			n++;
	if (!n)
		return;
	slugs = xcalloc(n, sizeof(*slugs));
	tmp = xcalloc(n, sizeof(*tmp));
	n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (sr_is_open(&r->f[i]))
			slugs[n++] = r->f[i].slug;
	n = sort_distinct(slugs, n);
	buf_adds(sr_block(r), "<details><summary>" E_CHART
	                      " Overview by category</summary>");
	o = sr_block(r);
	buf_adds(o, "| Category | P0 | P1 | P2 | P3 | Q | Files |\n"
	            "| --- | --: | --: | --: | --: | --: | --- |");
	for (size_t i = 0; i < n; i++)
		category_row(r, o, slugs[i], tmp);
	buf_adds(sr_block(r), "</details>");
	free(slugs);
	free(tmp);
}

/* --- block 13: spec gaps --- */

static int cmp_gap(const void *a, const void *b)
{
	const struct rv_gap *x = *(const struct rv_gap *const *)a;
	const struct rv_gap *y = *(const struct rv_gap *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

static void gap_blocks(struct rd *r, const struct rv_gap *g)
{
	const struct rv_finding *f = review_find(r->f, r->n, g->id);
	struct buf *o = sr_block(r);

	buf_addf(o, "### " E_QUESTION " F%u ", g->id);
	rv_one(o, g->section, RV_ONE_CAP, false);
	buf_adds(o, DASH);
	rv_one(o, g->title, RV_ONE_CAP, false);
	if (r->dg >= DG_GAPS)
		return;
	buf_adds(sr_block(r), "`");
	rv_one(r->out, f ? f->blast : "", RV_ONE_CAP, false);
	buf_adds(r->out, "`" DOT "spec-author confirm");
	buf_adds(sr_block(r), "**Spec quote**: ");
	rv_one(r->out, g->spec_quote, RV_ONE_CAP_LONG, false);
	buf_adds(sr_block(r), "**Code quote**: ");
	rv_one(r->out, g->code_quote, RV_ONE_CAP_LONG, false);
	buf_adds(sr_block(r), "**Question for spec author**:");
	/* §5.2 block 13: the numbered questions are a block of their own. */
	o = sr_block(r);
	for (size_t i = 0; i < g->nquestions; i++) {
		buf_addf(o, i ? "\n%zu. " : "%zu. ", i + 1);
		rv_one(o, g->questions[i], RV_ONE_CAP, false);
	}
	if (g->closing) {
		buf_adds(sr_block(r), "> ");
		rv_one(r->out, g->closing, RV_ONE_CAP, false);
	}
}

void sr_block_gaps(struct rd *r)
{
	const struct review_input *in = r->in;
	const struct rv_gap **v;

	if (!in->ngaps)
		return;
	v = xcalloc(in->ngaps, sizeof(const struct rv_gap *));
	for (size_t i = 0; i < in->ngaps; i++)
		v[i] = &in->gaps[i];
	qsort(v, in->ngaps, sizeof(const struct rv_gap *), cmp_gap);
	buf_addf(sr_block(r),
	         "<details><summary>" E_QUESTION
	         " Spec gap questions (%zu)</summary>",
	         in->ngaps);
	for (size_t i = 0; i < in->ngaps; i++)
		gap_blocks(r, v[i]);
	buf_adds(sr_block(r), "</details>");
	free(v);
}

/* --- block 14: checked and clean --- */

void sr_block_clean(struct rd *r)
{
	const struct review_input *in = r->in;
	struct buf *o;

	if (!in->nclean)
		return;
	buf_addf(sr_block(r),
	         "<details><summary>" E_CHECK
	         " Checked & clean (%zu)</summary>",
	         in->nclean);
	o = sr_block(r);
	if (r->dg >= DG_CHECKED) {
		buf_adds(o, "- (omitted: comment size limit)");
	} else {
		for (size_t i = 0; i < in->nclean; i++) {
			buf_adds(o, i ? "\n- `" : "- `");
			rv_one(o, in->clean[i].slug, RV_ONE_CAP, false);
			buf_adds(o, "`: ");
			rv_one(o, in->clean[i].evidence, RV_ONE_CAP, false);
		}
	}
	buf_adds(sr_block(r), "</details>");
}

/* --- block 15: the footer and the state block --- */

static void state_thread(struct buf *o, const struct rv_finding *f)
{
	switch (f->thread) {
	case RV_THREAD_POSTED:
	case RV_THREAD_EXISTING:
		if (sr_links_thread(f) && f->root_id > 0)
			buf_addf(o, "%lld", (long long)f->root_id);
		else
			buf_adds(o, "none");
		return;
	case RV_THREAD_FAILED:
		buf_adds(o, "failed");
		return;
	case RV_THREAD_PENDING:
		buf_adds(o, "pending");
		return;
	case RV_THREAD_DROPPED:
		buf_adds(o, "dropped");
		return;
	default:
		buf_adds(o, "none");
		return;
	}
}

/* A line number, or "-" for none (digits need no encoding). */
static void state_line_no(struct buf *o, int64_t n)
{
	if (n > 0)
		buf_addf(o, "%lld", (long long)n);
	else
		buf_addch(o, '-');
}

static void state_line(struct buf *o, const struct rv_finding *f)
{
	buf_addf(o, "\nF%u %s %s ", f->id, rv_pcode_names[f->p],
	         rv_section_names[f->section]);
	state_thread(o, f);
	buf_addf(o, " %s ", rv_confidence_names[f->confidence]);
	sticky_pct_encode(o, f->blast);
	buf_addch(o, ' ');
	sticky_pct_encode(o, f->justification);
	buf_addch(o, ' ');
	sticky_pct_encode(o, f->slug);
	buf_addch(o, ' ');
	sticky_pct_encode(o, f->file);
	buf_addch(o, ' ');
	state_line_no(o, f->line_start);
	buf_addch(o, ' ');
	state_line_no(o, f->line_end);
	buf_addch(o, ' ');
	sticky_pct_encode(o, f->category);
}

void sr_block_footer(struct rd *r)
{
	const struct review_input *in = r->in;
	struct buf *o;

	buf_adds(sr_block(r), "---");
	o = sr_block(r);
	buf_adds(o, "`pr-review`" DOT "reviewed `");
	rv_one(o, in->base, RV_ONE_CAP, false);
	buf_adds(o, "..");
	sticky_sha7(o, in->head);
	buf_addch(o, '`');
	if (in->mode == RV_INCREMENTAL && in->last_sha[0]) {
		buf_adds(o, DOT "last reviewed `");
		sticky_sha7(o, in->last_sha);
		buf_addch(o, '`');
	}
	o = sr_block(r);
	buf_addf(o, "<!-- pr-review:state=%d iteration=%lld next=%u base=",
	         STICKY_STATE_VERSION, (long long)r->d->iteration,
	         r->d->next_id);
	sticky_pct_encode(o, in->base);
	for (size_t i = 0; i < r->n; i++)
		state_line(o, &r->f[i]);
	if (in->nclean) {
		buf_adds(o, "\nclean");
		for (size_t i = 0; i < in->nclean; i++) {
			buf_addch(o, ' ');
			sticky_pct_encode(o, in->clean[i].slug);
		}
	}
	buf_adds(o, "\n-->");
}
