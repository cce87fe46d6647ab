/*
 * test_merge.c - PUBLISH.md §4: M1–M9, `next` (§5.3), I5, and the texts
 * of §5.2 blocks 2 and 3 (heading, next action).
 */
#include "unit.h"

#include <stdlib.h>

#include "core/merge.h"

#define LBL_P0 "\xF0\x9F\x9A\xA8 P0"
#define LBL_P1 "\xE2\x9A\xA0\xEF\xB8\x8F P1"
#define LBL_P2 "\xF0\x9F\x92\xA1 P2"
#define LBL_P3 "\xF0\x9F\x94\xA7 P3"
#define LBL_Q  "\xE2\x9D\x93 Q"
#define DOT    " \xC2\xB7 "
#define HEAD   "1111111111111111111111111111111111111111"
#define LAST   "2222222222222222222222222222222222222222"

/* --- builders --- */

static struct rv_finding *add(struct review_input *in, uint32_t id,
                              enum rv_pcode p, const char *slug,
                              const char *file, int64_t ls, int64_t le,
                              enum rv_confidence c)
{
	struct rv_finding *f;

	in->findings =
	    xrealloc(in->findings, (in->nfindings + 1) * sizeof(*in->findings));
	f = &in->findings[in->nfindings++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->p = p;
	f->slug = xstrdup(slug);
	f->category = xstrdup("cat");
	f->file = xstrdup_or_null(file);
	f->line_start = ls;
	f->line_end = le;
	f->confidence = c;
	f->blast = xstrdup("Local");
	f->justification = xstrdup("Reachable");
	f->failure_mode = xstrdup("fm");
	f->mitigation = xstrdup("mi");
	f->evidence = xstrdup("ev");
	f->disposition = RV_DISP_OPEN;
	return f;
}

static void adjust(struct rv_finding *f, const char *from, const char *to,
                   const char *reason)
{
	f->adjustment = xcalloc(1, sizeof(*f->adjustment));
	f->adjustment->from = xstrdup(from);
	f->adjustment->to = xstrdup(to);
	f->adjustment->reason = xstrdup(reason);
}

static void except(struct rv_finding *f, const char *kind, const char *by)
{
	f->exception = xcalloc(1, sizeof(*f->exception));
	f->exception->kind = xstrdup(kind);
	f->exception->reason = xstrdup("later");
	f->exception->accepted_by = xstrdup(by);
}

static void reply(struct rv_finding *f)
{
	f->reply = xcalloc(1, sizeof(*f->reply));
	f->reply->kind = xstrdup("rebutted");
	f->reply->reason = xstrdup("not reachable");
}

static void reporter(struct rv_finding *f, const char *name)
{
	strv_addf(&f->reported_by, &f->nreported_by, "%s", name);
}

static void verify(struct review_input *in, uint32_t id, const char *v)
{
	in->verifications =
	    xrealloc(in->verifications,
	             (in->nverifications + 1) * sizeof(*in->verifications));
	in->verifications[in->nverifications].prior_id = id;
	in->verifications[in->nverifications].verification = xstrdup(v);
	in->verifications[in->nverifications++].note = xstrdup("n");
}

static void failures(struct review_input *in, const char *const *d, size_t nd,
                     const char *const *f, size_t nf)
{
	in->has_dispatched = true;
	for (size_t i = 0; i < nd; i++)
		strv_addf(&in->dispatched, &in->ndispatched, "%s", d[i]);
	for (size_t i = 0; i < nf; i++)
		strv_addf(&in->failures, &in->nfailures, "%s", f[i]);
}

static void row(struct review_state *s, uint32_t id, enum rv_pcode p,
                enum rv_section sec, const char *slug)
{
	struct rv_state_row *r;

	s->rows = xrealloc(s->rows, (s->nrows + 1) * sizeof(*s->rows));
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->p = p;
	r->section = sec;
	r->confidence = RV_MEDIUM;
	r->blast = xstrdup("Module");
	r->justification = xstrdup("Precedent");
	r->slug = xstrdup(slug);
	r->file = xstrdup("a.c");
	r->line_start = 3;
	r->line_end = 4;
	r->category = xstrdup("old cat");
	r->root_id = 900 + id;
}

static void init_input(struct review_input *in, enum rv_mode mode)
{
	memset(in, 0, sizeof(*in));
	in->mode = mode;
	memcpy(in->head, HEAD, SHA_BUF);
	in->base = xstrdup("main");
	if (mode == RV_INCREMENTAL)
		memcpy(in->last_sha, LAST, SHA_BUF);
}

static struct merge_ctx ctx_of(const struct review_state *prior)
{
	struct merge_ctx c = {prior, "Alice", "review-bot", false, false};

	return c;
}

static const struct rv_finding *get(const struct review_model *m, uint32_t id)
{
	return review_find(m->f, m->n, id);
}

static bool has_reason(const struct review_model *m, const char *s)
{
	for (size_t i = 0; i < m->nreasons; i++)
		if (!strcmp(m->reasons[i], s))
			return true;
	return false;
}

static void dump_reasons(const struct review_model *m)
{
	for (size_t i = 0; i < m->nreasons; i++)
		print_message("reason: %s\n", m->reasons[i]);
}

/* --- M1 --- */

struct m1_row {
	enum rv_pcode p;
	enum rv_confidence c;
	const char *adj_from, *adj_to, *adj_reason; /* input; NULL: none */
	enum rv_pcode want_p;
	const char *want_from, *want_to, *want_reason; /* NULL: none */
};

static const struct m1_row m1_rows[] = {
    {RV_P1, RV_LOW, NULL, NULL, NULL, RV_Q, LBL_P1, LBL_Q,
     "confidence: low (merge rule step 2)"},
    {RV_P0, RV_LOW, NULL, NULL, NULL, RV_Q, LBL_P0, LBL_Q,
     "confidence: low (merge rule step 2)"},
    {RV_P3, RV_LOW, NULL, NULL, NULL, RV_Q, LBL_P3, LBL_Q,
     "confidence: low (merge rule step 2)"},
    {RV_P2, RV_LOW, LBL_P0, LBL_P2, "fails the P1 gate", RV_Q, LBL_P0, LBL_Q,
     "fails the P1 gate" DOT "confidence: low (merge rule step 2)"},
    {RV_Q, RV_LOW, NULL, NULL, NULL, RV_Q, NULL, NULL, NULL},
    {RV_P0, RV_MEDIUM, NULL, NULL, NULL, RV_P0, NULL, NULL, NULL},
    {RV_P2, RV_HIGH, LBL_P1, LBL_P2, "r", RV_P2, LBL_P1, LBL_P2, "r"},
};

static void test_merge__m1_confidence_demote(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(m1_rows); i++) {
		const struct m1_row *r = &m1_rows[i];
		struct review_input in;
		struct review_model m;
		struct merge_ctx ctx = ctx_of(NULL);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		struct rv_finding *f;
		const struct rv_finding *g;

		init_input(&in, RV_FULL);
		f = add(&in, 1, r->p, "s", "a.c", 1, 1, r->c);
		if (r->adj_from)
			adjust(f, r->adj_from, r->adj_to, r->adj_reason);
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		g = get(&m, 1);
		print_message("row %zu\n", i);
		assert_int_equal(g->p, r->want_p);
		if (!r->want_from) {
			assert_null(g->adjustment);
		} else {
			assert_string_equal(g->adjustment->from, r->want_from);
			assert_string_equal(g->adjustment->to, r->want_to);
			assert_string_equal(g->adjustment->reason,
			                    r->want_reason);
		}
		review_model_release(&m);
		review_input_release(&in);
		buf_release(&err);
	}
}

/* --- M2 --- */

struct m2_member {
	uint32_t id;
	enum rv_pcode p;
	enum rv_confidence c;
	const char *file;
	int64_t ls, le;
	const char *slug;
	bool prior;
};

struct m2_row {
	const char *name;
	struct m2_member in[4];
	size_t n;
	const uint32_t want_ids[4]; /* the model after M2, M8 order */
	size_t nwant;
	uint32_t survivor; /* 0: none to check */
	enum rv_pcode survivor_p;
};

#define MB(id, p, c, prior)                                                    \
	{                                                                      \
		id, p, c, "a.c", 10, 12, "x", prior                            \
	}

static const struct m2_row m2_rows[] = {
    {"highest rank survives",
     {MB(3, RV_P2, RV_HIGH, false), MB(5, RV_P1, RV_MEDIUM, false)},
     2,
     {5},
     1,
     5,
     RV_P1},
    {"same rank: confidence",
     {MB(3, RV_P2, RV_MEDIUM, false), MB(5, RV_P2, RV_HIGH, false)},
     2,
     {5},
     1,
     5,
     RV_P2},
    {"same rank and confidence: lowest id",
     {MB(9, RV_P2, RV_HIGH, false), MB(4, RV_P2, RV_HIGH, false)},
     2,
     {4},
     1,
     4,
     RV_P2},
    {"the prior one survives and takes the rank",
     {MB(2, RV_P3, RV_MEDIUM, true), MB(7, RV_P1, RV_HIGH, false)},
     2,
     {2},
     1,
     2,
     RV_P1},
    {"three in a group",
     {MB(6, RV_P3, RV_HIGH, false), MB(2, RV_P2, RV_LOW, false),
      MB(8, RV_P0, RV_MEDIUM, false)},
     3,
     {8},
     1,
     8,
     RV_P0},
    {"no file: never merged",
     {{1, RV_P2, RV_HIGH, NULL, 0, 0, "x", false},
      {2, RV_P2, RV_HIGH, NULL, 0, 0, "x", false}},
     2,
     {1, 2},
     2,
     0,
     RV_P2},
    {"no lines: never merged",
     {{1, RV_P2, RV_HIGH, "a.c", 0, 0, "x", false},
      {2, RV_P2, RV_HIGH, "a.c", 0, 0, "x", false}},
     2,
     {1, 2},
     2,
     0,
     RV_P2},
    {"another slug, end, start or file: not the same key",
     {{1, RV_P2, RV_HIGH, "a.c", 10, 12, "x", false},
      {2, RV_P2, RV_HIGH, "a.c", 10, 12, "y", false},
      {3, RV_P2, RV_HIGH, "a.c", 10, 13, "x", false},
      {4, RV_P2, RV_HIGH, "A.c", 10, 12, "x", false}},
     4,
     {4, 1, 2, 3},
     4,
     0,
     RV_P2},
};

static void test_merge__m2_dedup_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(m2_rows); i++) {
		const struct m2_row *r = &m2_rows[i];
		struct review_input in;
		struct review_state prior = {0};
		struct review_model m;
		struct merge_ctx ctx = ctx_of(&prior);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		print_message("row %zu: %s\n", i, r->name);
		init_input(&in, RV_FULL);
		prior.present = true;
		prior.next = 20;
		for (size_t k = 0; k < r->n; k++) {
			const struct m2_member *b = &r->in[k];

			add(&in, b->id, b->p, b->slug, b->file, b->ls, b->le,
			    b->c);
			if (b->prior)
				row(&prior, b->id, b->p, RV_SEC_OPEN, b->slug);
		}
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		assert_int_equal(m.n, r->nwant);
		for (size_t k = 0; k < r->nwant; k++)
			assert_int_equal(m.f[k].id, r->want_ids[k]);
		if (r->survivor)
			assert_int_equal(get(&m, r->survivor)->p,
			                 r->survivor_p);
		assert_int_equal(m.nmerged, r->n - r->nwant);
		review_model_release(&m);
		review_input_release(&in);
		review_state_release(&prior);
		buf_release(&err);
	}
}

static void test_merge__m2_rank_adjustment_and_reporters(void **state)
{
	struct review_input in;
	struct review_state prior = {0};
	struct review_model m;
	struct merge_ctx ctx = ctx_of(&prior);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct rv_finding *f;
	const struct rv_finding *g;

	(void)state;
	init_input(&in, RV_INCREMENTAL);
	f = add(&in, 2, RV_P3, "x", "a.c", 10, 12, RV_MEDIUM);
	reporter(f, "staff-eng");
	reporter(f, "sdet");
	f = add(&in, 7, RV_P1, "x", "a.c", 10, 12, RV_HIGH);
	reporter(f, "security");
	reporter(f, "sdet");
	f = add(&in, 9, RV_P2, "x", "a.c", 10, 12, RV_HIGH);
	adjust(f, LBL_P1, LBL_P2, "gate");
	reporter(f, "spec");
	/* A second group: the survivor's own adjustment's `to` follows. */
	f = add(&in, 3, RV_P2, "y", "b.c", 1, 1, RV_HIGH);
	adjust(f, LBL_P1, LBL_P2, "fails the P1 gate");
	add(&in, 4, RV_P0, "y", "b.c", 1, 1, RV_MEDIUM);
	row(&prior, 2, RV_P3, RV_SEC_OPEN, "x");
	row(&prior, 3, RV_P2, RV_SEC_OPEN, "y");
	prior.present = true;
	prior.next = 5;

	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	dump_reasons(&m);
	assert_int_equal(m.n, 2);
	g = get(&m, 2);
	assert_int_equal(g->p, RV_P1);
	assert_null(g->adjustment); /* a raise makes up no adjustment */
	assert_int_equal(g->nreported_by, 4);
	assert_string_equal(g->reported_by[0], "staff-eng");
	assert_string_equal(g->reported_by[1], "sdet");
	assert_string_equal(g->reported_by[2], "security");
	assert_string_equal(g->reported_by[3], "spec");
	g = get(&m, 3);
	assert_int_equal(g->p, RV_P0);
	assert_string_equal(g->adjustment->from, LBL_P1);
	assert_string_equal(g->adjustment->to, LBL_P0);
	assert_string_equal(g->adjustment->reason, "fails the P1 gate");
	assert_true(has_reason(&m, "F7 merged into F2 (same file, lines and "
	                           "slug)"));
	assert_true(has_reason(&m, "F9 merged into F2 (same file, lines and "
	                           "slug)"));
	assert_true(has_reason(&m, "F4 merged into F3 (same file, lines and "
	                           "slug)"));
	assert_int_equal(m.nmerged, 3);
	/* M8 order: P0 F3 before P1 F2. */
	assert_int_equal(m.f[0].id, 3);
	assert_int_equal(m.tier, RV_BLOCKED);
	/* next: the prior's 5 and the model's 3: merged-away 7, 9 don't
	 * count (§5.3 "the model after M2 and M3"). */
	assert_int_equal(m.next_id, 5);
	review_model_release(&m);
	review_input_release(&in);
	review_state_release(&prior);
	buf_release(&err);
}

static void test_merge__m2_two_priors_is_exit_2(void **state)
{
	struct review_input in;
	struct review_state prior = {0};
	struct review_model m;
	struct merge_ctx ctx = ctx_of(&prior);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	init_input(&in, RV_INCREMENTAL);
	add(&in, 2, RV_P2, "x", "a.c", 10, 12, RV_HIGH);
	add(&in, 6, RV_P2, "x", "a.c", 10, 12, RV_HIGH);
	add(&in, 8, RV_P2, "x", "a.c", 10, 12, RV_HIGH);
	row(&prior, 2, RV_P2, RV_SEC_OPEN, "x");
	row(&prior, 6, RV_P2, RV_SEC_OPEN, "x");
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_EUSAGE);
	assert_string_equal(err.ptr, "F2 and F6 are both prior findings with "
	                             "the same file, lines and slug (M2)");
	assert_int_equal(m.n, 0);
	assert_null(m.f);
	review_input_release(&in);
	review_state_release(&prior);
	buf_release(&err);
}

static void test_merge__m2_local_prior_is_verified(void **state)
{
	struct review_input in;
	struct review_model m;
	struct merge_ctx ctx = {NULL, NULL, NULL, true, false};
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	init_input(&in, RV_LOCAL);
	add(&in, 5, RV_P3, "x", "a.c", 10, 12, RV_HIGH);
	add(&in, 1, RV_P1, "x", "a.c", 10, 12, RV_HIGH);
	verify(&in, 5, "no");
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.f[0].id, 5);
	assert_int_equal(m.f[0].p, RV_P1);
	review_model_release(&m);
	verify(&in, 1, "no");
	add(&in, 1, RV_P1, "x", "a.c", 10, 12, RV_HIGH);
	add(&in, 5, RV_P1, "x", "a.c", 10, 12, RV_HIGH);
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_EUSAGE);
	review_input_release(&in);
	buf_release(&err);
}

/* --- M3 --- */

static void test_merge__m3_carry_forward(void **state)
{
	static const enum rv_mode modes[] = {RV_INCREMENTAL, RV_FULL};
	(void)state;

	for (size_t k = 0; k < ARRAY_SIZE(modes); k++) {
		struct review_input in;
		struct review_state prior = {0};
		struct review_model m;
		struct merge_ctx ctx = ctx_of(&prior);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		const struct rv_finding *g;

		init_input(&in, modes[k]);
		add(&in, 1, RV_P2, "a", "a.c", 1, 1, RV_HIGH);
		row(&prior, 1, RV_P2, RV_SEC_OPEN, "a");
		row(&prior, 2, RV_P1, RV_SEC_OPEN, "b");
		row(&prior, 3, RV_P3, RV_SEC_AWAITING, "c");
		row(&prior, 4, RV_P0, RV_SEC_ACCEPTED, "d");
		row(&prior, 5, RV_P0, RV_SEC_FIXED, "e");
		prior.present = true;
		prior.next = 6;
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		if (modes[k] == RV_FULL) {
			assert_int_equal(m.n, 1);
			assert_int_equal(m.nreasons, 0);
			assert_int_equal(m.tier, RV_PASSED_WITH_NOTES);
		} else {
			assert_int_equal(m.n, 3);
			assert_int_equal(m.f[0].id, 2);
			assert_int_equal(m.f[1].id, 1);
			assert_int_equal(m.f[2].id, 3);
			g = get(&m, 3);
			assert_true(g->carried);
			assert_int_equal(g->section, RV_SEC_OPEN);
			assert_int_equal(g->p, RV_P3);
			assert_string_equal(g->slug, "c");
			assert_string_equal(g->file, "a.c");
			assert_int_equal(g->line_start, 3);
			assert_int_equal(g->line_end, 4);
			assert_string_equal(g->category, "old cat");
			assert_string_equal(g->blast, "Module");
			assert_string_equal(g->failure_mode, "");
			assert_int_equal(g->root_id, 903);
			assert_false(get(&m, 1)->carried);
			assert_null(get(&m, 4));
			assert_true(has_reason(&m,
			                       "F2 carried forward from the "
			                       "prior state (absent from "
			                       "the findings input)"));
			assert_int_equal(m.open_counts[RV_P1], 1);
			assert_int_equal(m.awaiting_author, 3);
			assert_int_equal(m.tier, RV_REVIEW_BEFORE_MERGE);
			assert_int_equal(m.next_id, 6);
		}
		review_model_release(&m);
		review_input_release(&in);
		review_state_release(&prior);
		buf_release(&err);
	}
}

static void test_merge__m3_not_without_prior_or_local(void **state)
{
	struct review_input in;
	struct review_state prior = {0};
	struct review_model m;
	struct merge_ctx ctx = ctx_of(NULL);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	init_input(&in, RV_INCREMENTAL);
	row(&prior, 2, RV_P1, RV_SEC_OPEN, "b");
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(m.n, 0);
	assert_int_equal(m.tier, RV_PASSED);
	review_model_release(&m);
	ctx.prior = &prior;
	ctx.local = true;
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(m.n, 0);
	review_model_release(&m);
	review_input_release(&in);
	review_state_release(&prior);
	buf_release(&err);
}

/* --- M4, M5, M6 --- */

struct m456_row {
	const char *name;
	bool local;
	enum rv_disposition disp;
	const char *exc_by; /* NULL: no accepted_exception */
	bool replied;
	bool in_prior;
	const char *verif; /* NULL: no prior_verifications entry */
	enum rv_section want;
	enum rv_disposition want_disp;
	const char *want_reason; /* NULL: no reason */
};

static const struct m456_row m456_rows[] = {
    {"accepted by a maintainer", false, RV_DISP_FOLLOW_UP, "Bob", false, false,
     NULL, RV_SEC_ACCEPTED, RV_DISP_FOLLOW_UP, NULL},
    {"accepted_by the PR author (case-insensitive)", false, RV_DISP_FOLLOW_UP,
     "aLiCe", false, false, NULL, RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: its accepted_exception does not count: accepted_by is the PR "
     "author (M4)"},
    {"accepted_by review_login", false, RV_DISP_WONTFIX, "REVIEW-BOT", true,
     false, NULL, RV_SEC_AWAITING, RV_DISP_AWAITING_DECISION,
     "F1: its accepted_exception does not count: accepted_by is "
     "review_login (M4)"},
    {"accepted_by empty", false, RV_DISP_BY_DESIGN, "", false, false, NULL,
     RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: its accepted_exception does not count: accepted_by is empty "
     "(M4)"},
    {"disposition wontfix, no exception", false, RV_DISP_WONTFIX, NULL, false,
     false, NULL, RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: disposition wontfix, but there is no accepted_exception: open "
     "(M4)"},
    {"exception with disposition open: accepted", false, RV_DISP_OPEN, "Bob",
     false, false, NULL, RV_SEC_ACCEPTED, RV_DISP_WONTFIX,
     "F1: accepted by its accepted_exception although its disposition is "
     "open (M4)"},
    {"local: the PR author is nobody", true, RV_DISP_FOLLOW_UP, "Alice", false,
     false, NULL, RV_SEC_ACCEPTED, RV_DISP_FOLLOW_UP, NULL},
    {"local: accepted_by empty", true, RV_DISP_FOLLOW_UP, "", false, false,
     NULL, RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: its accepted_exception does not count: accepted_by is empty "
     "(M4)"},
    {"likely fixed, prior, yes", false, RV_DISP_LIKELY_FIXED, NULL, false, true,
     "yes", RV_SEC_FIXED, RV_DISP_LIKELY_FIXED, NULL},
    {"likely fixed, not prior", false, RV_DISP_LIKELY_FIXED, NULL, false, false,
     "yes", RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: disposition likely_fixed, but it is not in the prior state: "
     "open (M5)"},
    {"likely fixed, verification no", false, RV_DISP_LIKELY_FIXED, NULL, false,
     true, "no", RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: disposition likely_fixed, but prior_verifications does not say "
     "yes: open (M5)"},
    {"likely fixed, verification unclear, replied", false, RV_DISP_LIKELY_FIXED,
     NULL, true, true, "unclear", RV_SEC_AWAITING, RV_DISP_AWAITING_DECISION,
     "F1: disposition likely_fixed, but prior_verifications does not say "
     "yes: awaiting (M5)"},
    {"likely fixed, no verification", false, RV_DISP_LIKELY_FIXED, NULL, false,
     true, NULL, RV_SEC_OPEN, RV_DISP_OPEN,
     "F1: disposition likely_fixed, but prior_verifications has no entry "
     "for it: open (M5)"},
    {"local: likely fixed needs only the verification", true,
     RV_DISP_LIKELY_FIXED, NULL, false, false, "yes", RV_SEC_FIXED,
     RV_DISP_LIKELY_FIXED, NULL},
    {"yes but not likely_fixed: still open", false, RV_DISP_STILL_PRESENT, NULL,
     false, true, "yes", RV_SEC_OPEN, RV_DISP_STILL_PRESENT, NULL},
    {"accepted outranks fixed", false, RV_DISP_LIKELY_FIXED, "Bob", false, true,
     "yes", RV_SEC_ACCEPTED, RV_DISP_WONTFIX,
     "F1: accepted by its accepted_exception although its disposition is "
     "likely_fixed (M4)"},
    {"fixed outranks awaiting", false, RV_DISP_LIKELY_FIXED, NULL, true, true,
     "yes", RV_SEC_FIXED, RV_DISP_LIKELY_FIXED, NULL},
    {"a reply: awaiting", false, RV_DISP_AWAITING_DECISION, NULL, true, false,
     NULL, RV_SEC_AWAITING, RV_DISP_AWAITING_DECISION, NULL},
    {"awaiting_decision without a reply: open", false,
     RV_DISP_AWAITING_DECISION, NULL, false, false, NULL, RV_SEC_OPEN,
     RV_DISP_AWAITING_DECISION, NULL},
};

static void test_merge__m4_m5_m6_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(m456_rows); i++) {
		const struct m456_row *r = &m456_rows[i];
		struct review_input in;
		struct review_state prior = {0};
		struct review_model m;
		struct merge_ctx ctx = ctx_of(&prior);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		struct rv_finding *f;
		const struct rv_finding *g;

		print_message("row %zu: %s\n", i, r->name);
		init_input(&in, r->local ? RV_LOCAL : RV_INCREMENTAL);
		ctx.local = r->local;
		if (r->local) {
			ctx.prior = NULL;
			ctx.pr_author = NULL;
			ctx.review_login = NULL;
		}
		f = add(&in, 1, RV_P1, "s", "a.c", 1, 1, RV_HIGH);
		f->disposition = r->disp;
		if (r->exc_by)
			except(f, "wontfix", r->exc_by);
		if (r->replied)
			reply(f);
		if (r->in_prior)
			row(&prior, 1, RV_P1, RV_SEC_OPEN, "s");
		if (r->verif)
			verify(&in, 1, r->verif);
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		dump_reasons(&m);
		g = get(&m, 1);
		assert_int_equal(g->section, r->want);
		assert_int_equal(g->disposition, r->want_disp);
		assert_int_equal(g->accepted, r->want == RV_SEC_ACCEPTED);
		assert_int_equal(g->fixed, r->disp == RV_DISP_LIKELY_FIXED &&
		                               (r->want == RV_SEC_FIXED ||
		                                (r->want == RV_SEC_ACCEPTED &&
		                                 r->in_prior)));
		if (r->want_reason) {
			assert_int_equal(m.nreasons, 1);
			assert_string_equal(m.reasons[0], r->want_reason);
		} else {
			assert_int_equal(m.nreasons, 0);
		}
		review_model_release(&m);
		review_input_release(&in);
		review_state_release(&prior);
		buf_release(&err);
	}
}

static void test_merge__m4_unknown_author_accepts_nothing(void **state)
{
	struct review_input in;
	struct review_model m;
	struct merge_ctx ctx = ctx_of(NULL);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	ctx.pr_author = NULL;
	init_input(&in, RV_FULL);
	except(add(&in, 1, RV_P0, "s", NULL, 0, 0, RV_HIGH), "follow_up",
	       "Bob");
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(m.f[0].section, RV_SEC_OPEN);
	assert_int_equal(m.tier, RV_BLOCKED);
	assert_string_equal(m.reasons[0], "F1: its accepted_exception does "
	                                  "not count: the PR author is "
	                                  "unknown (M4)");
	review_model_release(&m);
	review_input_release(&in);
	buf_release(&err);
}

/* --- M7 --- */

struct tier_row {
	const char *name;
	size_t nfail;
	bool incomplete;
	enum rv_pcode open[3];
	size_t nopen;
	bool accepted;
	bool awaiting;
	enum rv_tier want;
};

static const struct tier_row tier_rows[] = {
    {"nothing", 0, false, {RV_P0}, 0, false, false, RV_PASSED},
    {"accepted only", 0, false, {RV_P0}, 0, true, false, RV_PASSED_WITH_NOTES},
    {"open Q", 0, false, {RV_Q}, 1, false, false, RV_PASSED_WITH_NOTES},
    {"open P3", 0, false, {RV_P3}, 1, false, false, RV_PASSED_WITH_NOTES},
    {"open P2", 0, false, {RV_P2}, 1, false, false, RV_PASSED_WITH_NOTES},
    {"open P1",
     0,
     false,
     {RV_P1, RV_P3},
     2,
     false,
     false,
     RV_REVIEW_BEFORE_MERGE},
    {"awaiting P1", 0, false, {RV_P1}, 1, false, true, RV_REVIEW_BEFORE_MERGE},
    {"open P0", 0, false, {RV_P1, RV_P0}, 2, true, false, RV_BLOCKED},
    {"a failure outranks BLOCKED",
     1,
     false,
     {RV_P0},
     1,
     false,
     false,
     RV_PARTIAL},
    {"publish incomplete outranks BLOCKED",
     0,
     true,
     {RV_P0},
     1,
     false,
     false,
     RV_PARTIAL},
    {"a failure, nothing open", 1, false, {RV_P0}, 0, false, false, RV_PARTIAL},
};

static void test_merge__m7_tier_table(void **state)
{
	static const char *const subs[] = {"sec", "sdet", "spec"};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(tier_rows); i++) {
		const struct tier_row *r = &tier_rows[i];
		struct review_input in;
		struct review_model m;
		struct merge_ctx ctx = ctx_of(NULL);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		uint32_t id = 1;

		print_message("row %zu: %s\n", i, r->name);
		init_input(&in, RV_FULL);
		ctx.publish_incomplete = r->incomplete;
		failures(&in, subs, 3, subs, r->nfail);
		for (size_t k = 0; k < r->nopen; k++) {
			struct rv_finding *f = add(&in, id++, r->open[k], "s",
			                           NULL, 0, 0, RV_HIGH);
			if (r->awaiting)
				reply(f);
		}
		if (r->accepted)
			except(add(&in, id++, RV_P0, "t", NULL, 0, 0, RV_HIGH),
			       "by_design", "Bob");
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		assert_int_equal(m.tier, r->want);
		assert_false(m.all_failed);
		assert_int_equal(merge_tier(&m, r->nfail, r->incomplete),
		                 r->want);
		review_model_release(&m);
		review_input_release(&in);
		buf_release(&err);
	}
}

static void test_merge__m7_all_failed(void **state)
{
	static const char *const d[] = {"sec", "sdet"};
	static const char *const f2[] = {"sdet", "sec"};
	struct {
		size_t nd, nf;
		bool has;
		bool want;
	} rows[] = {
	    {2, 2, true, true},   {2, 1, true, false}, {0, 0, true, false},
	    {0, 0, false, false}, {1, 1, true, true},
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct review_input in;
		struct review_model m;
		struct merge_ctx ctx = ctx_of(NULL);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		init_input(&in, RV_FULL);
		failures(&in, rows[i].nd == 1 ? f2 : d, rows[i].nd, f2,
		         rows[i].nf);
		in.has_dispatched = rows[i].has;
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		assert_int_equal(m.all_failed, rows[i].want);
		review_model_release(&m);
		review_input_release(&in);
		buf_release(&err);
	}
}

/* --- M8 --- */

static void test_merge__m8_sort(void **state)
{
	struct review_input in;
	struct review_model m;
	struct merge_ctx ctx = ctx_of(NULL);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	static const uint32_t want[] = {9, 12, 2, 3, 5, 4, 8, 1, 7, 6};

	(void)state;
	init_input(&in, RV_FULL);
	add(&in, 1, RV_P2, "a", NULL, 0, 0, RV_HIGH);
	add(&in, 2, RV_P2, "a", "B.c", 5, 5, RV_HIGH);
	add(&in, 3, RV_P2, "b", "a.c", 20, 20, RV_HIGH);
	add(&in, 4, RV_P2, "c", "a.c", 0, 0, RV_HIGH);
	add(&in, 5, RV_P2, "d", "a.c", 100, 100, RV_HIGH);
	add(&in, 6, RV_Q, "e", "a.c", 1, 1, RV_HIGH);
	add(&in, 7, RV_P2, "f", NULL, 0, 0, RV_HIGH);
	add(&in, 8, RV_P2, "g", "a/b.c", 1, 1, RV_HIGH);
	add(&in, 9, RV_P0, "h", "z.c", 1, 1, RV_HIGH);
	add(&in, 12, RV_P1, "i", NULL, 0, 0, RV_HIGH);
	/* bytewise: "B.c" < "a.c" < "a/b.c"; 20 < 100 (numbers). */
	assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
	assert_int_equal(m.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < m.n; i++)
		assert_int_equal(m.f[i].id, want[i]);
	review_model_release(&m);
	review_input_release(&in);
	buf_release(&err);
}

/* --- M9 and next --- */

struct m9_row {
	bool trusted, has_state;
	int64_t it;
	const char *sha;
	int64_t want;
};

static const struct m9_row m9_rows[] = {
    {false, true, 5, HEAD, 1},
    {false, false, 0, LAST, 1},
    {true, false, 0, HEAD, 1},
    {true, false, 0, LAST, 2},
    {true, true, 3, HEAD, 3},
    {true, true, 3, LAST, 4},
    {true, true, 0, LAST, 2},
    {true, true, 3, NULL, 4},
    {true, true, 3, "1111111111111111111111111111111111111111", 3},
};

static void test_merge__m9_iteration(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(m9_rows); i++) {
		const struct m9_row *r = &m9_rows[i];

		print_message("row %zu\n", i);
		assert_int_equal(merge_iteration(r->trusted, r->has_state,
		                                 r->it, r->sha, HEAD),
		                 r->want);
	}
}

static void test_merge__next_id(void **state)
{
	struct review_state prior = {0};
	struct review_model m = {0};
	struct rv_finding f[2] = {{0}};
	uint32_t extra[] = {4, 31};

	(void)state;
	assert_int_equal(merge_next_id(NULL, NULL, NULL, 0), 1);
	f[0].id = 3;
	f[1].id = 17;
	m.f = f;
	m.n = 2;
	assert_int_equal(merge_next_id(&m, NULL, NULL, 0), 18);
	prior.next = 40;
	assert_int_equal(merge_next_id(&m, &prior, NULL, 0), 40);
	prior.next = 10;
	assert_int_equal(merge_next_id(&m, &prior, extra, 2), 32);
	assert_int_equal(merge_next_id(&m, &prior, extra, 1), 18);
}

/* --- I5 --- */

struct i5_row {
	const char *name;
	uint32_t id;
	const char *slug;
	bool present;          /* the state has a state block */
	const char *root_slug; /* a root of that id, NULL: none */
	int want;
	const char *want_err;
};

static const struct i5_row i5_rows[] = {
    {"a new id at next", 10, "new", true, NULL, AA_OK, NULL},
    {"a new id above next", 15, "new", true, NULL, AA_OK, NULL},
    {"a prior id, same slug", 2, "b", true, "b", AA_OK, NULL},
    {"(a) absent and below next", 7, "new", true, NULL, AA_EUSAGE,
     "F7 is not in the prior state but below its next=10 (I5: F-ids are "
     "permanent)"},
    {"(a) needs a state block", 7, "new", false, NULL, AA_OK, NULL},
    {"(b) a root of another slug", 12, "new", true, "old", AA_EUSAGE,
     "F12 has an inline root of another slug (I5: F-ids are permanent)"},
    {"(c) a row of another slug", 2, "other", true, NULL, AA_EUSAGE,
     "F2 has a prior-state row of another slug (I5: F-ids are "
     "permanent)"},
};

static void test_merge__i5_ids(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(i5_rows); i++) {
		const struct i5_row *r = &i5_rows[i];
		struct review_state prior = {0};
		struct rv_finding f = {0};
		struct review_model m = {0};
		struct merge_root root = {r->id, r->root_slug};
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		print_message("row %zu: %s\n", i, r->name);
		row(&prior, 2, RV_P1, RV_SEC_OPEN, "b");
		prior.present = r->present;
		prior.from_rows = !r->present;
		prior.next = 10;
		f.id = r->id;
		f.slug = (char *)(uintptr_t)r->slug;
		m.f = &f;
		m.n = 1;
		assert_int_equal(merge_check_ids(&m, &prior, &root,
		                                 r->root_slug ? 1 : 0, &err),
		                 r->want);
		if (r->want_err)
			assert_string_equal(err.ptr, r->want_err);
		assert_int_equal(merge_check_ids(&m, NULL, NULL, 0, &err),
		                 AA_OK);
		review_state_release(&prior);
		buf_release(&err);
	}
}

/* --- heading and next action --- */

struct text_row {
	const char *name;
	enum rv_pcode open[3];
	size_t nopen;
	size_t nfail;
	bool incomplete;
	const char *next_override; /* strings.next_* for the tier */
	const char *next_action;   /* the input's */
	size_t nincomplete;
	bool unwritten;
	const char *heading, *by_tier, *next;
};

static const struct text_row text_rows[] = {
    {"passed",
     {RV_P0},
     0,
     0,
     false,
     NULL,
     NULL,
     0,
     false,
     "\xE2\x9C\x85 pr-review: PASSED",
     "",
     ""},
    {"notes",
     {RV_P3},
     1,
     0,
     false,
     NULL,
     NULL,
     0,
     false,
     "\xF0\x9F\x9F\xA1 pr-review: PASSED WITH NOTES",
     "optional; no blocker",
     "optional; no blocker"},
    {"review",
     {RV_P1, RV_P1, RV_P2},
     3,
     0,
     false,
     NULL,
     NULL,
     0,
     false,
     "\xF0\x9F\x9F\xA0 pr-review: REVIEW BEFORE MERGE",
     "fix F1/F2 or explicitly defer",
     "fix F1/F2 or explicitly defer"},
    {"blocked",
     {RV_P1, RV_P0, RV_P0},
     3,
     0,
     false,
     NULL,
     NULL,
     0,
     false,
     "\xF0\x9F\x94\xB4 pr-review: BLOCKED",
     "fix F2/F3 before merge",
     "fix F2/F3 before merge"},
    {"one failure",
     {RV_P0},
     1,
     1,
     false,
     NULL,
     NULL,
     0,
     false,
     "\xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL \xE2\x80\x94 sec failed",
     "rerun review; sec failed",
     "rerun review; sec failed"},
    {"two failures and incomplete",
     {RV_P0},
     1,
     2,
     true,
     NULL,
     NULL,
     3,
     true,
     "\xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL \xE2\x80\x94 2 of 3 "
     "subagents failed: sec, sdet; publish incomplete",
     "rerun review; sec, sdet failed",
     "rerun publish; 3 inline thread(s) did not post; rerun publish; the "
     "commit status was not written; rerun review; sec, sdet failed"},
    {"publish incomplete only: the tier beneath",
     {RV_P0},
     1,
     0,
     true,
     NULL,
     NULL,
     2,
     false,
     "\xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL \xE2\x80\x94 publish "
     "incomplete",
     "fix F1 before merge",
     "rerun publish; 2 inline thread(s) did not post; fix F1 before "
     "merge"},
    {"an override, through one() in the sticky",
     {RV_P0},
     1,
     0,
     false,
     "\xE4\xBF\xAE\xE5\xA4\x8D {ids} <!-- x",
     NULL,
     0,
     false,
     "\xF0\x9F\x94\xB4 pr-review: BLOCKED",
     "\xE4\xBF\xAE\xE5\xA4\x8D F1 <!-- x",
     "\xE4\xBF\xAE\xE5\xA4\x8D F1 &lt;!-- x"},
    {"the input's next_action wins",
     {RV_P0},
     1,
     0,
     false,
     NULL,
     "rule on F1\nnow -->",
     0,
     true,
     "\xF0\x9F\x94\xB4 pr-review: BLOCKED",
     "fix F1 before merge",
     "rerun publish; the commit status was not written; rule on F1 now "
     "--&gt;"},
};

static void test_merge__heading_and_next_action(void **state)
{
	static const char *const subs[] = {"sec", "sdet", "spec"};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(text_rows); i++) {
		const struct text_row *r = &text_rows[i];
		struct review_input in;
		struct review_model m;
		struct merge_ctx ctx = ctx_of(NULL);
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		struct buf out = BUF_INIT(BUF_MAX_DOC);

		print_message("row %zu: %s\n", i, r->name);
		init_input(&in, RV_FULL);
		ctx.publish_incomplete = r->incomplete;
		failures(&in, subs, 3, subs, r->nfail);
		for (size_t k = 0; k < r->nopen; k++)
			add(&in, (uint32_t)k + 1, r->open[k], "s", NULL, 0, 0,
			    RV_HIGH);
		if (r->next_override)
			in.strings[RV_STR_NEXT_BLOCKED] =
			    xstrdup(r->next_override);
		in.next_action = xstrdup_or_null(r->next_action);
		assert_int_equal(merge_run(&m, &in, &ctx, &err), AA_OK);
		merge_heading(&out, &in, &m);
		assert_string_equal(out.ptr, r->heading);
		buf_reset(&out);
		merge_next_by_tier(&out, &in, &m);
		assert_string_equal(out.ptr, r->by_tier);
		buf_reset(&out);
		merge_next_action(&out, &in, &m, r->nincomplete, r->unwritten);
		assert_string_equal(out.ptr, r->next);
		buf_release(&out);
		review_model_release(&m);
		review_input_release(&in);
		buf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merge__m1_confidence_demote),
	    cmocka_unit_test(test_merge__m2_dedup_table),
	    cmocka_unit_test(test_merge__m2_rank_adjustment_and_reporters),
	    cmocka_unit_test(test_merge__m2_two_priors_is_exit_2),
	    cmocka_unit_test(test_merge__m2_local_prior_is_verified),
	    cmocka_unit_test(test_merge__m3_carry_forward),
	    cmocka_unit_test(test_merge__m3_not_without_prior_or_local),
	    cmocka_unit_test(test_merge__m4_m5_m6_table),
	    cmocka_unit_test(test_merge__m4_unknown_author_accepts_nothing),
	    cmocka_unit_test(test_merge__m7_tier_table),
	    cmocka_unit_test(test_merge__m7_all_failed),
	    cmocka_unit_test(test_merge__m8_sort),
	    cmocka_unit_test(test_merge__m9_iteration),
	    cmocka_unit_test(test_merge__next_id),
	    cmocka_unit_test(test_merge__i5_ids),
	    cmocka_unit_test(test_merge__heading_and_next_action),
	};

	return cmocka_run_group_tests_name("merge", tests, NULL, NULL);
}
