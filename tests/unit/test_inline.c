/*
 * test_inline.c - PUBLISH.md §4.1 steps 1–3 (core/inline.h): which open
 * findings are attempted as inline threads, on which lines, in which
 * order, and what every other finding's row says about its thread.
 *
 * Table-driven: a row is findings (in M8 order), roots and an iteration;
 * every finding's expected thread and the attempts' order. Mismatches are
 * printed with the row and the test fails once at the end.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/inline.h"

#define HEAD "0123456789abcdef0123456789abcdef01234567"
#define HEAD_UP "0123456789ABCDEF0123456789ABCDEF01234567"
#define OLD "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* The pull's files: RIGHT lines of a.c are 1–2 (hunk 0) and 10–13
 * (hunk 1); d.c only line 1 (lines 2–3 are `-`); del.c was deleted;
 * bad.c's patch does not add up; bin.png has none; dup.c is listed
 * twice. */
static const struct {
	const char *path, *patch;
} file_rows[] = {
    {"a.c", "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -10,3 +10,4 @@ f\n x\n+y\n z\n w"},
    {"d.c", "@@ -1,3 +1,1 @@\n-a\n-b\n c"},
    {"del.c", "@@ -1,2 +0,0 @@\n-a\n-b"},
    {"bad.c", "@@ -1,9 +1,9 @@\n a\n b"},
    {"bin.png", NULL},
    {"dup.c", "@@ -1 +1 @@\n-a\n+b"},
    {"dup.c", "@@ -1 +1 @@\n-a\n+b"},
};

struct fspec {
	uint32_t id; /* 0 ends the list */
	enum rv_pcode p;
	enum rv_confidence c;
	enum rv_section sec;
	const char *file;
	int64_t ls, le;
	bool carried, reopen;
	const char *slug; /* NULL: "s" */
};

struct rspec {
	uint32_t id; /* 0 ends the list */
	const char *slug; /* NULL: "s" */
	const char *head;
	int64_t cid; /* its url is "u<cid>" */
};

struct want {
	enum rv_thread t;
	const char *reason;
	int64_t root; /* EXISTING: root_id (url "u<root>"); PENDING: the
		       * previous root's cid, 0 for none */
	int64_t line, start;
};

#define MAXF 8
struct sel_row {
	const char *name;
	int64_t iteration; /* 0: 1 */
	struct fspec f[MAXF];
	struct rspec r[4];
	struct want w[MAXF];
	const char *order; /* the attempts' ids, space-separated */
};

#define F(id_, p_, file_, ls_, le_)                                       \
	{ .id = (id_), .p = (p_), .c = RV_HIGH, .sec = RV_SEC_OPEN,       \
	  .file = (file_), .ls = (ls_), .le = (le_) }
#define FC(id_, p_, c_, file_, ls_, le_)                                  \
	{ .id = (id_), .p = (p_), .c = (c_), .sec = RV_SEC_OPEN,          \
	  .file = (file_), .ls = (ls_), .le = (le_) }
#define FS(id_, p_, sec_)                                                 \
	{ .id = (id_), .p = (p_), .c = RV_HIGH, .sec = (sec_),            \
	  .file = "a.c", .ls = 1, .le = 1 }
#define ATT(line_, start_) { RV_THREAD_PENDING, NULL, 0, (line_), (start_) }
#define REOPEN(line_, start_, prev_)                                      \
	{ RV_THREAD_PENDING, NULL, (prev_), (line_), (start_) }
#define STICKY(reason_) { RV_THREAD_STICKY_ONLY, (reason_), 0, 0, 0 }
#define NONE STICKY(NULL)
#define EXIST(cid_) { RV_THREAD_EXISTING, NULL, (cid_), 0, 0 }

static const struct sel_row sel_rows[] = {
    /* --- step 1: anchor --- */
    {"no file", 1, {{.id = 1, .p = RV_P0, .sec = RV_SEC_OPEN}}, {{0}},
     {STICKY(INLINE_NO_ANCHOR)}, ""},
    {"file without lines", 1, {F(1, RV_P0, "a.c", 0, 0)}, {{0}},
     {STICKY(INLINE_NO_ANCHOR)}, ""},
    {"single line on a + line", 1, {F(1, RV_P0, "a.c", 2, 2)}, {{0}},
     {ATT(2, 0)}, "1"},
    {"single line on context", 1, {F(1, RV_P0, "a.c", 1, 1)}, {{0}},
     {ATT(1, 0)}, "1"},
    {"multi-line in one hunk", 1, {F(1, RV_P0, "a.c", 1, 2)}, {{0}},
     {ATT(2, 1)}, "1"},
    {"multi-line in the second hunk", 1, {F(1, RV_P1, "a.c", 10, 13)},
     {{0}}, {ATT(13, 10)}, "1"},
    {"start in another hunk: single at end", 1,
     {F(1, RV_P0, "a.c", 2, 10)}, {{0}}, {ATT(10, 0)}, "1"},
    {"start not in the diff: single at end", 1,
     {F(1, RV_P0, "a.c", 5, 11)}, {{0}}, {ATT(11, 0)}, "1"},
    {"end past the hunk", 1, {F(1, RV_P0, "a.c", 10, 14)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"end between hunks", 1, {F(1, RV_P0, "a.c", 1, 5)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"a - line's number", 1, {F(1, RV_P0, "d.c", 2, 2)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"the context after -", 1, {F(1, RV_P0, "d.c", 1, 1)}, {{0}},
     {ATT(1, 0)}, "1"},
    {"deleted file", 1, {F(1, RV_P0, "del.c", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"malformed patch", 1, {F(1, RV_P0, "bad.c", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"no patch (binary)", 1, {F(1, RV_P0, "bin.png", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"file not in the pull", 1, {F(1, RV_P0, "zzz.c", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"path differs in case", 1, {F(1, RV_P0, "A.c", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},
    {"file listed twice", 1, {F(1, RV_P0, "dup.c", 1, 1)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF)}, ""},

    /* --- who is a candidate --- */
    {"P3 is never inline", 1, {F(1, RV_P3, "a.c", 1, 1)}, {{0}}, {NONE},
     ""},
    {"Q is never inline", 1, {F(1, RV_Q, "a.c", 1, 1)}, {{0}}, {NONE}, ""},
    {"P3 with a root links it", 1, {F(1, RV_P3, "a.c", 1, 1)},
     {{1, NULL, OLD, 50}}, {EXIST(50)}, ""},
    {"awaiting counts as open", 1, {FS(1, RV_P1, RV_SEC_AWAITING)}, {{0}},
     {ATT(1, 0)}, "1"},
    {"awaiting with a root links it", 1, {FS(1, RV_P1, RV_SEC_AWAITING)},
     {{1, NULL, OLD, 50}}, {EXIST(50)}, ""},
    {"accepted: no thread even with a root", 1,
     {FS(1, RV_P0, RV_SEC_ACCEPTED)}, {{1, NULL, OLD, 50}}, {NONE}, ""},
    {"fixed: no thread even with a root", 1, {FS(1, RV_P0, RV_SEC_FIXED)},
     {{1, NULL, OLD, 50}}, {NONE}, ""},
    {"carried: never posted", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .carried = true}},
     {{0}}, {NONE}, ""},
    {"carried with a root links it", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .carried = true}},
     {{1, NULL, OLD, 50}}, {EXIST(50)}, ""},
    {"an old root: one root per finding", 1, {F(1, RV_P0, "a.c", 1, 1)},
     {{1, NULL, OLD, 50}}, {EXIST(50)}, ""},
    {"an old root, reopened", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 2,
       .reopen = true}},
     {{1, NULL, OLD, 50}}, {REOPEN(2, 1, 50)}, "1"},
    {"reopen names the newest root", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .reopen = true}},
     {{1, NULL, OLD, 70}, {1, NULL, OLD, 90}, {1, NULL, OLD, 60}},
     {REOPEN(1, 0, 90)}, "1"},
    {"a root at head: not again", 1, {F(1, RV_P0, "a.c", 1, 1)},
     {{1, NULL, HEAD, 50}}, {EXIST(50)}, ""},
    {"a root at head, reopen: not again", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .reopen = true}},
     {{1, NULL, HEAD, 50}}, {EXIST(50)}, ""},
    {"a root at head links the newest root", 1, {F(1, RV_P0, "a.c", 1, 1)},
     {{1, NULL, HEAD, 50}, {1, NULL, OLD, 80}}, {EXIST(80)}, ""},
    {"head= in upper case is head", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .reopen = true}},
     {{1, NULL, HEAD_UP, 50}}, {EXIST(50)}, ""},
    {"a root without head= is an old root", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 1, .le = 1,
       .reopen = true}},
     {{1, NULL, NULL, 50}}, {REOPEN(1, 0, 50)}, "1"},
    {"a root of another slug is not F's", 1, {F(1, RV_P0, "a.c", 1, 1)},
     {{1, "other", HEAD, 50}}, {ATT(1, 0)}, "1"},
    {"a root of another id is not F's", 1, {F(1, RV_P0, "a.c", 1, 1)},
     {{2, NULL, HEAD, 50}}, {ATT(1, 0)}, "1"},
    {"a reopened candidate outside the diff", 1,
     {{.id = 1, .p = RV_P0, .file = "a.c", .ls = 5, .le = 5,
       .reopen = true}},
     {{1, NULL, OLD, 50}}, {STICKY(INLINE_NOT_IN_DIFF)}, ""},

    /* --- step 2: ramp (ramp_p2_last_iteration 2) --- */
    {"iteration 1: P2 posts", 1,
     {F(1, RV_P0, "a.c", 1, 1), F(2, RV_P1, "a.c", 2, 2),
      F(3, RV_P2, "a.c", 10, 10)},
     {{0}}, {ATT(1, 0), ATT(2, 0), ATT(10, 0)}, "1 2 3"},
    {"iteration 2: P2 posts", 2,
     {F(1, RV_P0, "a.c", 1, 1), F(2, RV_P1, "a.c", 2, 2),
      F(3, RV_P2, "a.c", 10, 10)},
     {{0}}, {ATT(1, 0), ATT(2, 0), ATT(10, 0)}, "1 2 3"},
    {"iteration 3: P2 ramps", 3,
     {F(1, RV_P0, "a.c", 1, 1), F(2, RV_P1, "a.c", 2, 2),
      F(3, RV_P2, "a.c", 10, 10)},
     {{0}}, {ATT(1, 0), ATT(2, 0), STICKY(INLINE_RAMP)}, "1 2"},
    {"iteration 40: P0/P1 never ramp", 40,
     {F(1, RV_P0, "a.c", 1, 1), F(2, RV_P1, "a.c", 2, 2),
      F(3, RV_P2, "a.c", 10, 10)},
     {{0}}, {ATT(1, 0), ATT(2, 0), STICKY(INLINE_RAMP)}, "1 2"},
    {"anchor comes before the ramp", 3,
     {F(1, RV_P2, "a.c", 5, 5), F(2, RV_P2, NULL, 0, 0)}, {{0}},
     {STICKY(INLINE_NOT_IN_DIFF), STICKY(INLINE_NO_ANCHOR)}, ""},
    {"a reopened P2 ramps too", 3,
     {{.id = 1, .p = RV_P2, .file = "a.c", .ls = 1, .le = 1,
       .reopen = true}},
     {{1, NULL, OLD, 50}}, {STICKY(INLINE_RAMP)}, ""},

    /* --- order: confidence, then M8 (the array's order) --- */
    {"confidence before rank", 1,
     {FC(1, RV_P0, RV_MEDIUM, "a.c", 1, 1),
      FC(2, RV_P1, RV_HIGH, "a.c", 2, 2),
      FC(3, RV_P2, RV_HIGH, "a.c", 10, 10),
      FC(4, RV_P0, RV_HIGH, "a.c", 11, 11),
      FC(5, RV_P2, RV_MEDIUM, "a.c", 12, 12)},
     {{0}}, {ATT(1, 0), ATT(2, 0), ATT(10, 0), ATT(11, 0), ATT(12, 0)},
     "2 3 4 1 5"},
    {"then M8 order, not id", 1,
     {FC(9, RV_P0, RV_HIGH, "a.c", 1, 1),
      FC(3, RV_P0, RV_MEDIUM, "a.c", 2, 2),
      FC(5, RV_P0, RV_HIGH, "a.c", 10, 10)},
     {{0}}, {ATT(1, 0), ATT(2, 0), ATT(10, 0)}, "9 5 3"},
};

static void make_files(struct diff_file *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(file_rows); i++) {
		const char *p = file_rows[i].patch;

		diff_file_init(&v[i], file_rows[i].path, p, p ? strlen(p) : 0,
			       NULL);
	}
}

static void release_files(struct diff_file *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(file_rows); i++)
		diff_file_release(&v[i]);
}

static void make_finding(struct rv_finding *f, const struct fspec *s)
{
	memset(f, 0, sizeof(*f));
	f->id = s->id;
	f->p = s->p;
	f->confidence = s->c;
	f->section = s->sec;
	f->slug = xstrdup(s->slug ? s->slug : "s");
	f->file = xstrdup_or_null(s->file);
	f->line_start = s->ls;
	f->line_end = s->le;
	f->carried = s->carried;
	f->reopen_thread = s->reopen;
	/* What an earlier step may have left: selection overwrites it. */
	f->thread = RV_THREAD_FAILED;
	f->thread_url = xstrdup("stale");
	f->root_id = 99;
}

static char url_store[4][32];

static void make_root(struct inline_root *r, const struct rspec *s,
		      size_t i)
{
	r->id = s->id;
	r->slug = s->slug ? s->slug : "s";
	r->head = s->head;
	r->comment_id = s->cid;
	snprintf(url_store[i], sizeof(url_store[i]), "u%lld",
		 (long long)s->cid);
	r->html_url = url_store[i];
}

/* The ids of the attempts, space-separated. */
static void order_of(char *out, size_t cap, const struct inline_plan *plan,
		     const struct rv_finding *f)
{
	size_t i, k = 0;

	out[0] = '\0';
	for (i = 0; i < plan->n && k < cap; i++)
		k += (size_t)snprintf(out + k, cap - k, "%s%u", i ? " " : "",
				      f[plan->v[i].finding].id);
}

static const struct inline_attempt *attempt_of(const struct inline_plan *p,
					       size_t finding)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].finding == finding)
			return &p->v[i];
	return NULL;
}

static size_t check_finding(const char *name, size_t i,
			    const struct rv_finding *f,
			    const struct inline_plan *plan,
			    const struct want *w)
{
	const struct inline_attempt *a = attempt_of(plan, i);
	char url[32];
	size_t bad = 0;

	if (f->thread != w->t ||
	    (f->thread_reason != w->reason &&
	     (!f->thread_reason || !w->reason ||
	      strcmp(f->thread_reason, w->reason) != 0))) {
		print_error("row \"%s\" F%u: thread %s (%s), expected %s (%s)\n",
			    name, f->id, rv_thread_names[f->thread],
			    f->thread_reason ? f->thread_reason : "-",
			    rv_thread_names[w->t], w->reason ? w->reason : "-");
		bad++;
	}
	if (w->t == RV_THREAD_EXISTING) {
		snprintf(url, sizeof(url), "u%lld", (long long)w->root);
		if (f->root_id != w->root || !f->thread_url ||
		    strcmp(f->thread_url, url) != 0) {
			print_error("row \"%s\" F%u: root %lld %s, expected "
				    "%lld %s\n",
				    name, f->id, (long long)f->root_id,
				    f->thread_url ? f->thread_url : "NULL",
				    (long long)w->root, url);
			bad++;
		}
	} else if (f->root_id != 0 || f->thread_url) {
		print_error("row \"%s\" F%u: a root without a link\n", name,
			    f->id);
		bad++;
	}
	if ((w->t == RV_THREAD_PENDING) != (a != NULL)) {
		print_error("row \"%s\" F%u: attempted is %d\n", name, f->id,
			    a != NULL);
		return bad + 1;
	}
	if (a && (a->line != w->line || a->start_line != w->start ||
		  (a->previous ? a->previous->comment_id : 0) != w->root)) {
		print_error("row \"%s\" F%u: line %lld start %lld prev %lld, "
			    "expected %lld %lld %lld\n",
			    name, f->id, (long long)a->line,
			    (long long)a->start_line,
			    (long long)(a->previous ? a->previous->comment_id
						    : 0),
			    (long long)w->line, (long long)w->start,
			    (long long)w->root);
		bad++;
	}
	return bad;
}

static void test_inline__select_table(void **state)
{
	struct diff_file files[ARRAY_SIZE(file_rows)];
	size_t i, k, bad = 0;

	(void)state;
	make_files(files);
	for (i = 0; i < ARRAY_SIZE(sel_rows); i++) {
		const struct sel_row *row = &sel_rows[i];
		struct rv_finding f[MAXF];
		struct inline_root roots[4];
		struct inline_plan plan;
		struct inline_params p = { HEAD, row->iteration, 12, 2 };
		size_t nf = 0, nr = 0;
		char order[128];

		while (nf < MAXF && row->f[nf].id) {
			make_finding(&f[nf], &row->f[nf]);
			nf++;
		}
		while (nr < 4 && row->r[nr].id) {
			make_root(&roots[nr], &row->r[nr], nr);
			nr++;
		}
		inline_select(&plan, f, nf, files, ARRAY_SIZE(files), roots, nr,
			      &p);
		for (k = 0; k < nf; k++)
			bad += check_finding(row->name, k, &f[k], &plan,
					     &row->w[k]);
		order_of(order, sizeof(order), &plan, f);
		if (strcmp(order, row->order) != 0) {
			print_error("row \"%s\": order \"%s\", expected "
				    "\"%s\"\n",
				    row->name, order, row->order);
			bad++;
		}
		inline_plan_release(&plan);
		for (k = 0; k < nf; k++)
			rv_finding_release(&f[k]);
	}
	release_files(files);
	assert_int_equal(bad, 0);
}

/* --- step 3: cap arithmetic --- */

struct cap_row {
	const char *name;
	int64_t cap;
	size_t high;     /* P0/P1 candidates that anchor */
	size_t p2;       /* P2 candidates that anchor */
	size_t r;        /* input findings with a root at head */
	size_t r_carried; /* carried findings with a root at head */
	size_t high_off; /* P0/P1 candidates that do not anchor */
	size_t want_p2;  /* P2 attempted */
};

static const struct cap_row cap_rows[] = {
    {"all fit", 12, 2, 3, 0, 0, 0, 3},
    {"twelve P2 fill the cap", 12, 0, 12, 0, 0, 0, 12},
    {"the thirteenth P2 is capped", 12, 0, 13, 0, 0, 0, 12},
    {"P0/P1 take slots first", 12, 10, 5, 0, 0, 0, 2},
    {"P0/P1 past the cap all post", 12, 13, 2, 0, 0, 0, 0},
    {"P0/P1 exactly the cap", 12, 12, 1, 0, 0, 0, 0},
    {"unanchored P0/P1 take no slot", 12, 2, 12, 0, 0, 5, 10},
    {"a rerun: R takes slots", 12, 2, 5, 7, 0, 0, 3},
    {"a rerun whose R fills the cap", 12, 0, 3, 12, 0, 0, 0},
    {"R past the cap", 12, 1, 3, 20, 0, 0, 0},
    {"carried roots at head are not R", 12, 0, 5, 0, 12, 0, 5},
    {"cap 0: only P0/P1", 0, 2, 4, 0, 0, 0, 0},
    {"cap 1", 1, 0, 4, 0, 0, 0, 1},
};

static void fill(struct rv_finding *f, uint32_t id, enum rv_pcode p,
		 int64_t line, bool carried)
{
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->p = p;
	f->slug = xstrdup("s");
	f->file = xstrdup("a.c");
	f->line_start = f->line_end = line;
	f->carried = carried;
	f->section = RV_SEC_OPEN;
}

static void test_inline__cap_table(void **state)
{
	struct diff_file files[ARRAY_SIZE(file_rows)];
	size_t i, k, bad = 0;

	(void)state;
	make_files(files);
	for (i = 0; i < ARRAY_SIZE(cap_rows); i++) {
		const struct cap_row *c = &cap_rows[i];
		size_t n = c->high + c->p2 + c->r + c->r_carried + c->high_off;
		struct rv_finding *f = xcalloc(n, sizeof(*f));
		struct inline_root *roots =
			xcalloc(c->r + c->r_carried + 1, sizeof(*roots));
		struct inline_plan plan;
		struct inline_params p = { HEAD, 1, c->cap, 2 };
		size_t nr = 0, m = 0, p2 = 0, capped = 0;

		for (k = 0; k < c->high; k++, m++)
			fill(&f[m], (uint32_t)m + 1, k % 2 ? RV_P1 : RV_P0, 1,
			     false);
		for (k = 0; k < c->high_off; k++, m++)
			fill(&f[m], (uint32_t)m + 1, RV_P0, 5, false);
		for (k = 0; k < c->p2; k++, m++)
			fill(&f[m], (uint32_t)m + 1, RV_P2, 10, false);
		for (k = 0; k < c->r + c->r_carried; k++, m++) {
			fill(&f[m], (uint32_t)m + 1, RV_P2, 11,
			     k >= c->r);
			roots[nr++] = (struct inline_root){
				(uint32_t)m + 1, "s", HEAD, (int64_t)m + 100,
				"u"};
		}
		inline_select(&plan, f, n, files, ARRAY_SIZE(files), roots, nr,
			      &p);
		for (k = 0; k < plan.n; k++)
			p2 += f[plan.v[k].finding].p == RV_P2;
		for (k = 0; k < n; k++)
			capped += f[k].thread_reason == INLINE_CAP;
		if (p2 != c->want_p2 || plan.n != c->high + c->want_p2 ||
		    capped != c->p2 - c->want_p2 || plan.r != c->r ||
		    plan.p2_slots < c->want_p2) {
			print_error("row \"%s\": %zu attempts (%zu P2), %zu "
				    "capped, R %zu, slots %zu\n",
				    c->name, plan.n, p2, capped, plan.r,
				    plan.p2_slots);
			bad++;
		}
		inline_plan_release(&plan);
		for (k = 0; k < n; k++)
			rv_finding_release(&f[k]);
		free(f);
		free(roots);
	}
	release_files(files);
	assert_int_equal(bad, 0);
}

/* With one slot the high-confidence P2 wins over earlier medium ones,
 * ties go to M8 order; the capped ones say so. */
static void test_inline__cap_picks_by_confidence_then_m8(void **state)
{
	struct diff_file files[ARRAY_SIZE(file_rows)];
	struct rv_finding f[5];
	struct inline_plan plan;
	struct inline_params p = { HEAD, 1, 3, 2 };
	size_t k;

	(void)state;
	make_files(files);
	fill(&f[0], 1, RV_P0, 1, false);
	fill(&f[1], 2, RV_P2, 2, false);
	fill(&f[2], 3, RV_P2, 10, false);
	fill(&f[3], 4, RV_P2, 11, false);
	fill(&f[4], 5, RV_P2, 12, false);
	f[0].confidence = RV_MEDIUM;
	f[1].confidence = RV_MEDIUM;
	f[2].confidence = RV_HIGH;
	f[3].confidence = RV_MEDIUM;
	f[4].confidence = RV_HIGH;
	/* slots = 3 - 0 - 1 = 2: F3 and F5 (high), not F2 and F4 */
	inline_select(&plan, f, 5, files, ARRAY_SIZE(files), NULL, 0, &p);
	assert_int_equal(plan.p2_slots, 2);
	assert_int_equal(plan.n, 3);
	assert_int_equal(f[plan.v[0].finding].id, 3);
	assert_int_equal(f[plan.v[1].finding].id, 5);
	assert_int_equal(f[plan.v[2].finding].id, 1);
	assert_ptr_equal(f[1].thread_reason, INLINE_CAP);
	assert_ptr_equal(f[3].thread_reason, INLINE_CAP);
	assert_int_equal(f[1].thread, RV_THREAD_STICKY_ONLY);
	inline_plan_release(&plan);
	for (k = 0; k < 5; k++)
		rv_finding_release(&f[k]);
	release_files(files);
}

/* Step 4 is the caller's: dropping keeps the order and frees no slot. */
static void test_inline__drop_keeps_order(void **state)
{
	struct diff_file files[ARRAY_SIZE(file_rows)];
	struct rv_finding f[3];
	struct inline_plan plan;
	struct inline_params p = { HEAD, 1, 2, 2 };
	size_t k;

	(void)state;
	make_files(files);
	fill(&f[0], 1, RV_P2, 1, false);
	fill(&f[1], 2, RV_P2, 2, false);
	fill(&f[2], 3, RV_P2, 10, false);
	inline_select(&plan, f, 3, files, ARRAY_SIZE(files), NULL, 0, &p);
	assert_int_equal(plan.n, 2);
	inline_plan_drop(&plan, 0);
	assert_int_equal(plan.n, 1);
	assert_int_equal(f[plan.v[0].finding].id, 2);
	inline_plan_drop(&plan, 5); /* out of range: nothing */
	assert_int_equal(plan.n, 1);
	inline_plan_drop(&plan, 0);
	assert_int_equal(plan.n, 0);
	assert_ptr_equal(f[2].thread_reason, INLINE_CAP);
	inline_plan_release(&plan);
	for (k = 0; k < 3; k++)
		rv_finding_release(&f[k]);
	release_files(files);
}

static void test_inline__nothing(void **state)
{
	struct inline_plan plan;
	struct inline_params p = { HEAD, 1, 12, 2 };

	(void)state;
	inline_select(&plan, NULL, 0, NULL, 0, NULL, 0, &p);
	assert_int_equal(plan.n, 0);
	assert_int_equal(plan.r, 0);
	assert_int_equal(plan.p2_slots, 12);
	inline_plan_release(&plan);
}

static void test_inline__root_lookups(void **state)
{
	struct rv_finding f;
	struct inline_root r[3] = {
		{ 1, "s", OLD, 10, "a" },
		{ 1, "s", HEAD, 5, "b" },
		{ 1, "t", OLD, 20, "c" },
	};

	(void)state;
	fill(&f, 1, RV_P0, 1, false);
	assert_ptr_equal(inline_root_of(&f, r, 3), &r[0]);
	assert_true(inline_has_root_at(&f, r, 3, HEAD));
	assert_false(inline_has_root_at(&f, r, 1, HEAD));
	assert_null(inline_root_of(&f, NULL, 0));
	rv_finding_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inline__select_table),
	    cmocka_unit_test(test_inline__cap_table),
	    cmocka_unit_test(test_inline__cap_picks_by_confidence_then_m8),
	    cmocka_unit_test(test_inline__drop_keeps_order),
	    cmocka_unit_test(test_inline__nothing),
	    cmocka_unit_test(test_inline__root_lookups),
	};

	return cmocka_run_group_tests_name("inline", tests, NULL, NULL);
}
