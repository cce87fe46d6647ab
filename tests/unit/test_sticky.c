/*
 * test_sticky.c - PUBLISH §5: the text rules (percent-encoding, fences,
 * sha7, loc), each sticky block, degradation, roots and their assertions,
 * the review and status payloads; and the reading back (U1-U3, §5.3, H5):
 * render → parse gives the same state, look-alikes are not stickies.
 * Whole bodies byte for byte live in tests/golden/publish (test_golden).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "formats/sticky.h"

#define HEAD "0123456789abcdef0123456789abcdef01234567"
#define LAST "fedcba9876543210fedcba9876543210fedcba98"
#define URL  "https://github.com/o/r/pull/7#issuecomment-9"

/* --- a small model built by hand --- */

struct fx {
	struct review_input in;
	struct review_model m;
};

static struct rv_finding *add(struct fx *x, uint32_t id, enum rv_pcode p,
                              const char *slug, const char *file, int64_t s,
                              int64_t e, enum rv_section sec)
{
	struct rv_finding *f;

	x->m.f = xrealloc(x->m.f, (x->m.n + 1) * sizeof(*x->m.f));
	f = &x->m.f[x->m.n++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->p = p;
	f->slug = xstrdup(slug);
	f->category = xstrdup("Error handling");
	f->file = xstrdup_or_null(file);
	f->line_start = s;
	f->line_end = e;
	f->confidence = RV_HIGH;
	f->blast = xstrdup("Local");
	f->justification = xstrdup(p == RV_Q ? "Hygiene" : "Reachable");
	f->failure_mode = xstrdup("the call fails silently");
	f->mitigation = xstrdup("check the return value");
	f->evidence = xstrdup("ret = call();");
	f->section = sec;
	if (sec == RV_SEC_OPEN || sec == RV_SEC_AWAITING)
		x->m.open_counts[p]++;
	if (sec == RV_SEC_ACCEPTED)
		x->m.naccepted++;
	return f;
}

static void fx_init(struct fx *x, enum rv_mode mode)
{
	memset(x, 0, sizeof(*x));
	x->in.mode = mode;
	memcpy(x->in.head, HEAD, SHA_BUF);
	x->in.base = xstrdup("main");
	if (mode == RV_INCREMENTAL)
		memcpy(x->in.last_sha, LAST, SHA_BUF);
}

static void fx_release(struct fx *x)
{
	review_model_release(&x->m);
	review_input_release(&x->in);
}

static void render(struct fx *x, struct buf *out, bool incomplete)
{
	struct sticky_doc d = {&x->in, &x->m, incomplete, false, 2, 9};
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	assert_int_equal(sticky_render(out, &d, &err), 0);
	buf_release(&err);
}

static void assert_has(const char *body, const char *want)
{
	if (!strstr(body, want)) {
		print_error("missing:\n%s\nin:\n%s\n", want, body);
		fail();
	}
}

static void assert_lacks(const char *body, const char *bad)
{
	if (strstr(body, bad)) {
		print_error("unexpected:\n%s\nin:\n%s\n", bad, body);
		fail();
	}
}

/* --- §5.1 and §5.3 text rules --- */

struct pct_row {
	const char *raw; /* NULL: null */
	const char *enc;
};

static const struct pct_row pct_rows[] = {
    {NULL, "-"},
    {"-", "%2D"},
    {"--", "--"},
    {"a-b", "a-b"},
    {"Data layer", "Data%20layer"},
    {"src/a_b.c~1", "src/a_b.c~1"},
    {"100%", "100%25"},
    {"\xC3\xBC", "%C3%BC"},
    {"a|b`c", "a%7Cb%60c"},
    {"-->", "--%3E"},
    {"x\ty", "x%09y"},
};

static void test_sticky__pct_table(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(pct_rows); i++) {
		struct buf b = BUF_INIT(BUF_MAX_SMALL);
		bool is_null;

		sticky_pct_encode(&b, pct_rows[i].raw);
		if (strcmp(b.ptr, pct_rows[i].enc) != 0) {
			print_error("row %zu: encoded %s\n", i, b.ptr);
			bad++;
		}
		buf_reset(&b);
		/* Control characters are not carried back (state rows never
		 * hold one: I3 forbids them). */
		if (pct_rows[i].raw && strchr(pct_rows[i].raw, '\t')) {
			buf_release(&b);
			continue;
		}
		if (sticky_pct_decode(&b, &is_null, pct_rows[i].enc,
		                      strlen(pct_rows[i].enc)) ||
		    is_null != !pct_rows[i].raw ||
		    (pct_rows[i].raw && strcmp(b.ptr, pct_rows[i].raw))) {
			print_error("row %zu: decoded %s\n", i, b.ptr);
			bad++;
		}
		buf_release(&b);
	}
	assert_int_equal(bad, 0);
}

static void test_sticky__pct_decode_strict(void **state)
{
	static const char *const bad_rows[] = {
	    "",    "%2d", "%41", "%0A",   "%00", "%2",  "%",
	    "a b", "%7f", "%7F", "a%2Db", "x|y", "%ZZ",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		struct buf b = BUF_INIT(BUF_MAX_SMALL);
		bool is_null;
		if (sticky_pct_decode(&b, &is_null, bad_rows[i],
		                      strlen(bad_rows[i])) != AA_ERR) {
			print_error("row %zu (%s) accepted\n", i, bad_rows[i]);
			fail();
		}
		buf_release(&b);
	}
}

static void test_sticky__fence_len(void **state)
{
	(void)state;
	assert_int_equal(sticky_fence_len(LIT("")), 3);
	assert_int_equal(sticky_fence_len(LIT("a`b``c")), 3);
	assert_int_equal(sticky_fence_len(LIT("```")), 4);
	assert_int_equal(sticky_fence_len(LIT("x````y``")), 5);
	assert_int_equal(sticky_fence_len(LIT("$(echo `id`)\n~~~~~")), 3);
}

static void test_sticky__sha7_loc_one(void **state)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	sticky_sha7(&b, HEAD);
	assert_string_equal(b.ptr, "0123456");
	buf_reset(&b);
	sticky_loc(&b, "a.c", 3, 3);
	buf_adds(&b, " ");
	sticky_loc(&b, "a.c", 3, 9);
	buf_adds(&b, " ");
	sticky_loc(&b, "a.c", 0, 0);
	assert_string_equal(b.ptr, "a.c:3 a.c:3-9 a.c");
	buf_reset(&b);
	rv_one(&b, "a\nb <!-- x --> |c|", RV_ONE_CAP, true);
	assert_string_equal(b.ptr, "a b &lt;!-- x --&gt; \\|c\\|");
	buf_release(&b);
}

/* --- blocks --- */

static void test_sticky__passed_minimal(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	fx_init(&x, RV_FULL);
	render(&x, &b, false);
	assert_string_equal(
	    b.ptr,
	    "<!-- pr-review:sticky -->\n"
	    "<!-- pr-review:version=2 -->\n"
	    "<!-- pr-review:sha=" HEAD " -->\n"
	    "<!-- pr-review:status=PASSED -->\n\n"
	    "## \xE2\x9C\x85 pr-review: PASSED\n\n"
	    "**Open**: none \xC2\xB7 **Reviewed HEAD**: `0123456` \xC2\xB7 "
	    "**Mode**: full\n"
	    "**Checked**: \xE2\x9C\x85 0 clean\n\n"
	    "---\n\n"
	    "`pr-review` \xC2\xB7 reviewed `main..0123456`\n\n"
	    "<!-- pr-review:state=1 iteration=2 next=9 base=main\n-->");
	buf_release(&b);
	fx_release(&x);
}

static void test_sticky__nits_collapse_over_five(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	fx_init(&x, RV_FULL);
	add(&x, 1, RV_P2, "perf", "a.c", 1, 1, RV_SEC_OPEN);
	for (uint32_t i = 2; i <= 6; i++)
		add(&x, i, RV_P3, "style", "b.c", i, i, RV_SEC_OPEN);
	add(&x, 7, RV_Q, "intent", NULL, 0, 0, RV_SEC_OPEN);
	x.m.tier = RV_PASSED_WITH_NOTES;
	render(&x, &b, false);
	assert_has(b.ptr, "- **F6** P3 `style` \xE2\x80\x94 b.c:6 \xC2\xB7 "
	                  "sticky-only\n- **F7** Q `intent` \xC2\xB7 "
	                  "sticky-only");
	assert_lacks(b.ptr, "nits");
	add(&x, 8, RV_P3, "style", "b.c", 8, 8, RV_SEC_OPEN);
	render(&x, &b, false);
	assert_has(b.ptr, "- **F1** P2 `perf` \xE2\x80\x94 a.c:1 \xC2\xB7 "
	                  "sticky-only\n- \xF0\x9F\x94\xA7 6 nits\n- **F7** Q");
	assert_has(b.ptr, "## \xF0\x9F\x93\x8B Currently open (8) "
	                  "\xE2\x80\x94 awaiting author\n\n- **F1**");
	buf_release(&b);
	fx_release(&x);
}

static void test_sticky__threads_and_partial(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct rv_finding *f;

	(void)state;
	fx_init(&x, RV_FULL);
	f = add(&x, 1, RV_P0, "authz", "a.c", 1, 2, RV_SEC_OPEN);
	f->thread = RV_THREAD_PENDING;
	f = add(&x, 2, RV_P1, "leak", "a.c", 5, 5, RV_SEC_OPEN);
	f->thread = RV_THREAD_DROPPED;
	f->thread_reason = "swallowed identifier";
	f = add(&x, 3, RV_P1, "race", "b.c", 5, 5, RV_SEC_OPEN);
	f->thread = RV_THREAD_EXISTING;
	f->root_id = 77;
	f->thread_url = xstrdup("https://github.com/o/r/pull/7#discussion_r77");
	f = add(&x, 4, RV_P2, "perf", NULL, 0, 0, RV_SEC_OPEN);
	f->thread_reason = "no line anchor";
	render(&x, &b, true);
	assert_has(b.ptr, "<!-- pr-review:status=PARTIAL -->");
	assert_has(b.ptr, "## \xE2\x9A\xA0\xEF\xB8\x8F pr-review: PARTIAL "
	                  "\xE2\x80\x94 publish incomplete\n");
	assert_has(b.ptr, "**Next action**: rerun publish; 2 inline "
	                  "thread(s) did not post; fix F1 before merge");
	assert_has(b.ptr, "\xC2\xB7 \xE2\x8F\xB3 thread pending\n");
	assert_has(b.ptr, "\xC2\xB7 \xE2\x9A\xA0\xEF\xB8\x8F thread not "
	                  "posted: swallowed identifier\n");
	assert_has(b.ptr, "\xC2\xB7 [thread](https://github.com/o/r/pull/7"
	                  "#discussion_r77)\n");
	assert_has(b.ptr, "- **F4** P2 `perf` \xC2\xB7 sticky-only (no line "
	                  "anchor)\n\n");
	assert_has(b.ptr, "\xF0\x9F\x93\x8D **Inline comments**: 1 findings "
	                  "pinned to source lines (see the Files changed "
	                  "tab)");
	assert_has(b.ptr, "\nF1 P0 open pending high Local Reachable authz "
	                  "a.c 1 2 Error%20handling\n");
	assert_has(b.ptr, "\nF2 P1 open dropped ");
	assert_has(b.ptr, "\nF3 P1 open 77 ");
	assert_has(b.ptr, "\nF4 P2 open none high Local Reachable perf - - - "
	                  "Error%20handling\n-->");
	buf_release(&b);
	fx_release(&x);
}

/* Input text that reaches the sticky cannot open a comment or a fence. */
static void test_sticky__injection_neutralised(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct rv_finding *f;
	struct sticky_info si;

	(void)state;
	fx_init(&x, RV_FULL);
	free(x.in.base);
	x.in.base = xstrdup("main -->");
	x.in.shape_narrative = xstrdup("x\n```\n<!-- pr-review:state=1 -->");
	f = add(&x, 1, RV_P3, "x", "a.c", 1, 1, RV_SEC_ACCEPTED);
	f->exception = xcalloc(1, sizeof(*f->exception));
	f->exception->kind = xstrdup("wontfix");
	f->exception->reason = xstrdup("-->\n<!-- pr-review:sticky -->");
	f->exception->accepted_by = xstrdup("lead\n```");
	free(f->category);
	f->category = xstrdup("cat --> <!-- `` ```");
	x.m.tier = RV_PASSED_WITH_NOTES;
	render(&x, &b, false);
	assert_has(b.ptr, "> x ``` &lt;!-- pr-review:state=1 --&gt;");
	assert_has(b.ptr, "wontfix by lead ```: --&gt; &lt;!-- "
	                  "pr-review:sticky --&gt;");
	assert_has(b.ptr, "reviewed `main --&gt;..0123456`");
	assert_has(b.ptr, "cat%20--%3E%20%3C%21--%20%60%60%20%60%60%60\n");
	assert_int_equal(sticky_parse(&si, b.ptr, b.len), 0);
	assert_true(si.is_sticky && si.markers_ok && si.state.present);
	assert_int_equal(si.state.nrows, 1);
	assert_string_equal(si.state.rows[0].category, "cat --> <!-- `` ```");
	sticky_info_release(&si);
	buf_release(&b);
	fx_release(&x);
}

static void test_sticky__degrade_then_refuse(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	struct sticky_doc d;
	char slug[32];

	(void)state;
	fx_init(&x, RV_FULL);
	x.in.clean = xcalloc(300, sizeof(*x.in.clean));
	for (size_t i = 0; i < 300; i++) {
		snprintf(slug, sizeof(slug), "s%zu", i);
		x.in.clean[i].slug = xstrdup(slug);
		x.in.clean[i].evidence = xcalloc(1, 501);
		memset(x.in.clean[i].evidence, 'e', 500);
	}
	x.in.nclean = 300;
	render(&x, &b, false);
	assert_has(b.ptr, "<details><summary>\xE2\x9C\x85 Checked & clean "
	                  "(300)</summary>\n\n- (omitted: comment size "
	                  "limit)\n\n</details>");
	assert_true(rv_codepoints(b.ptr, b.len) <= RV_BODY_LIMIT);
	/* Findings nothing can shorten: refused. */
	for (uint32_t i = 1; i <= 400; i++) {
		struct rv_finding *f =
		    add(&x, i, RV_P1, "s", NULL, 0, 0, RV_SEC_OPEN);
		free(f->category);
		f->category = xcalloc(1, 201);
		memset(f->category, '%', 200);
	}
	d = (struct sticky_doc){&x.in, &x.m, false, false, 1, 401};
	assert_int_equal(sticky_render(&b, &d, &err), AA_ETOOBIG);
	assert_int_equal(b.len, 0);
	assert_has(err.ptr, "after every degradation step");
	buf_release(&b);
	buf_release(&err);
	fx_release(&x);
}

/* Rows nothing but the collapse shortens: every step runs, in order. */
static void test_sticky__degrade_to_collapse(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	char file[32], *url;

	(void)state;
	fx_init(&x, RV_FULL);
	url = xcalloc(1, 2001);
	memset(url, 'u', 2000);
	for (uint32_t i = 1; i <= 40; i++) {
		struct rv_finding *f;
		snprintf(file, sizeof(file), "f%02u.c", i);
		f = add(&x, i, i <= 5 ? RV_P3 : RV_Q, "s", file, 1, 1,
		        RV_SEC_OPEN);
		f->thread = RV_THREAD_EXISTING;
		f->root_id = i;
		f->thread_url = xstrdup(url);
	}
	free(url);
	x.m.tier = RV_PASSED_WITH_NOTES;
	render(&x, &b, false);
	assert_true(rv_codepoints(b.ptr, b.len) <= RV_BODY_LIMIT);
	assert_has(b.ptr, "awaiting author\n\n- \xF0\x9F\x94\xA7 5 nits\n"
	                  "- \xE2\x9D\x93 35 questions\n\n");
	assert_has(b.ptr, "| `s` | 0 | 0 | 0 | 5 | 35 | 40 files |");
	assert_has(b.ptr, "\nF40 Q open 40 high ");
	buf_release(&b);
	fx_release(&x);
}

/* --- roots --- */

static void root_of(struct buf *b, const struct rv_finding *f)
{
	struct root_doc d = {f, RV_INCREMENTAL, HEAD, "main", LAST, URL, NULL};
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	assert_int_equal(root_render(b, &d, &err), 0);
	buf_release(&err);
}

static void test_sticky__root_layout(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct rv_finding *f;
	struct root_info ri;

	(void)state;
	fx_init(&x, RV_INCREMENTAL);
	f = add(&x, 12, RV_P1, "shell-quote", "run.sh", 3, 3, RV_SEC_OPEN);
	free(f->evidence);
	f->evidence = xstrdup("echo ```$(id)``` `x`");
	f->details = xstrdup("see <!-- here -->\n\nmore");
	f->reversible = xstrdup("reversible");
	root_of(&b, f);
	assert_string_equal(
	    b.ptr,
	    "<!-- pr-review:finding-root -->\n"
	    "<!-- pr-review:finding-id=F12 -->\n"
	    "<!-- pr-review:status=open -->\n"
	    "<!-- pr-review:head=" HEAD " -->\n"
	    "<!-- pr-review:sticky-url=" URL " -->\n"
	    "<!-- pr-review:previous-thread-url=none -->\n\n"
	    "**F12 P1 `shell-quote`** \xC2\xB7 \xF0\x9F\x86\x95 New\n\n"
	    "**Sticky summary**: " URL "\n"
	    "**Iteration**: `fedcba9..0123456`<br>\n\n"
	    "**Failure mode**: the call fails silently\n\n"
	    "**Mitigation**: check the return value\n\n"
	    "<details><summary>Evidence</summary>\n\n"
	    "````\necho ```$(id)``` `x`\n````\n\n"
	    "</details>\n\n"
	    "<details><summary>Details</summary>\n\n"
	    "see &lt;!-- here --&gt;\n\nmore\n\n"
	    "</details>\n\n"
	    "<sub>blast: Local \xC2\xB7 reversible \xC2\xB7 confidence: high "
	    "\xC2\xB7 justification: Reachable</sub>\n\n"
	    "<!-- pr-review:justification=Reachable -->");
	root_parse(&ri, b.ptr, b.len);
	assert_true(ri.is_root && ri.has_head);
	assert_int_equal(ri.id, 12);
	assert_int_equal(ri.p, RV_P1);
	assert_string_equal(ri.slug, "shell-quote");
	assert_string_equal(ri.head, HEAD);
	/* H5 reads its texts back through the same parser */
	assert_int_equal(ri.failure_mode.n, strlen("the call fails silently"));
	assert_memory_equal(ri.failure_mode.p, "the call fails silently",
	                    ri.failure_mode.n);
	assert_int_equal(ri.mitigation.n, strlen("check the return value"));
	assert_memory_equal(ri.mitigation.p, "check the return value",
	                    ri.mitigation.n);
	assert_int_equal(ri.evidence.n, strlen("echo ```$(id)``` `x`"));
	assert_memory_equal(ri.evidence.p, "echo ```$(id)``` `x`",
	                    ri.evidence.n);
	buf_release(&b);
	fx_release(&x);
}

/* H5's texts of a root, as root_parse() reads them back. */
struct root_text_row {
	const char *name;
	const char *body;
	const char *fm, *mi, *ev; /* NULL: absent */
};

#define RTX "<!-- pr-review:finding-root -->\n" \
            "<!-- pr-review:finding-id=F4 -->\n\n" \
            "**F4 P2 `a-b`** \xC2\xB7 x\n\n"

static const struct root_text_row root_text_rows[] = {
    {"all three",
     RTX "**Failure mode**: f\n\n**Mitigation**: m\n\n"
         "<details><summary>Evidence</summary>\n\n```\na\n\nb\n```\n",
     "f", "m", "a\n\nb"},
    {"empty evidence",
     RTX "<details><summary>Evidence</summary>\n\n```\n```", NULL, NULL, ""},
    {"unclosed fence", RTX "<details><summary>Evidence</summary>\n\n```\nx",
     NULL, NULL, NULL},
    {"a shorter fence inside",
     RTX "<details><summary>Evidence</summary>\n````\n```\nx\n````", NULL,
     NULL, "```\nx"},
    {"no fence after the summary",
     RTX "<details><summary>Evidence</summary>\n\ntext\n```\nx\n```", NULL,
     NULL, NULL},
    {"first field wins", RTX "**Failure mode**: a\n**Failure mode**: b", "a",
     NULL, NULL},
    {"field inside a line", RTX "x **Mitigation**: m", NULL, NULL, NULL},
    {"texts before the title are not read",
     "<!-- pr-review:finding-root -->\n<!-- pr-review:finding-id=F4 -->\n\n"
     "**Failure mode**: early\n\n**F4 P2 `a-b`** \xC2\xB7 x",
     NULL, NULL, NULL},
};

static bool text_is(struct root_text t, const char *want)
{
	if (!want)
		return t.p == NULL;
	return t.p && t.n == strlen(want) && memcmp(t.p, want, t.n) == 0;
}

static void test_sticky__root_texts_table(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(root_text_rows); i++) {
		const struct root_text_row *r = &root_text_rows[i];
		struct root_info ri;

		root_parse(&ri, r->body, strlen(r->body));
		if (!text_is(ri.failure_mode, r->fm) ||
		    !text_is(ri.mitigation, r->mi) ||
		    !text_is(ri.evidence, r->ev)) {
			print_error("row %zu (%s)\n", i, r->name);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* B3: the state's base= is the input's base, percent-encoded, and reads
 * back decoded. */
static void test_sticky__state_base_round_trip(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct sticky_info si;

	(void)state;
	fx_init(&x, RV_FULL);
	free(x.in.base);
	x.in.base = xstrdup("release/1.x+#50% \xE6\x97\xA5 -->");
	render(&x, &b, false);
	assert_non_null(strstr(b.ptr, " base=release/1.x%2B%2350%25%20%E6%97%A5"
	                              "%20--%3E\n"));
	assert_int_equal(sticky_parse(&si, b.ptr, b.len), 0);
	assert_true(si.state.present);
	assert_string_equal(si.state.base, x.in.base);
	sticky_info_release(&si);
	buf_release(&b);
	fx_release(&x);
}

static void test_sticky__root_over_limit(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct rv_finding *f;
	size_t n = 70000;
	const char *tail;

	(void)state;
	fx_init(&x, RV_FULL);
	f = add(&x, 1, RV_P0, "big", "a.c", 1, 1, RV_SEC_OPEN);
	free(f->evidence);
	f->evidence = xcalloc(1, n + 1);
	memset(f->evidence, 'x', n);
	memcpy(f->evidence + n - 10, "``````````", 10); /* past the cut */
	f->details = xstrdup("dropped first");
	root_of(&b, f);
	assert_int_equal(rv_codepoints(b.ptr, b.len), RV_BODY_LIMIT);
	assert_lacks(b.ptr, "Details");
	assert_has(b.ptr, "xxx\n```\n\xE2\x80\xA6 (evidence truncated)\n\n"
	                  "</details>");
	tail = strstr(b.ptr, "<sub>");
	assert_non_null(tail);
	buf_release(&b);
	fx_release(&x);
}

struct assert_row {
	const char *evidence, *failure, *mitigation, *why;
};

static const struct assert_row assert_rows[] = {
    {"x", "fails", "fix it", NULL},
    {"", "fails", "fix it", "empty evidence"},
    {" \n\t\n", "fails", "fix it", "empty evidence"},
    {"x", "run  now", "fix it", "swallowed identifier"},
    {"x", "fails", "set  to 1", "swallowed identifier"},
    {"x", "a\n\nb", "fix", "swallowed identifier"},
    {"x", "a \tb", "fix", NULL},
    {"x", "a  \tb", "fix", NULL},
    {"x", "  leading and trailing  ", "fix", NULL},
    {"x", "a\nb", "fix", NULL},
};

static void test_sticky__root_assert_table(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(assert_rows); i++) {
		const struct assert_row *r = &assert_rows[i];
		struct rv_finding f;
		const char *why = NULL;
		int rc;

		memset(&f, 0, sizeof(f));
		f.evidence = (char *)(uintptr_t)r->evidence;
		f.failure_mode = (char *)(uintptr_t)r->failure;
		f.mitigation = (char *)(uintptr_t)r->mitigation;
		rc = root_assert(&f, &why);
		if ((rc != 0) != (r->why != NULL) ||
		    (r->why && strcmp(why, r->why))) {
			print_error("row %zu: %d %s\n", i, rc,
			            why ? why : "(none)");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* --- payloads --- */

static void test_sticky__status_and_review(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct review_comment c[2] = {
	    {"a.c", 9, 0, "body1"},
	    {"b.c", 5, 3, "body2"},
	};

	(void)state;
	fx_init(&x, RV_FULL);
	add(&x, 1, RV_P1, "a", "a.c", 1, 1, RV_SEC_OPEN);
	add(&x, 2, RV_Q, "b", NULL, 0, 0, RV_SEC_AWAITING);
	add(&x, 3, RV_P2, "c", NULL, 0, 0, RV_SEC_FIXED);
	{
		struct buf d = BUF_INIT(BUF_MAX_SMALL);

		status_description(&d, RV_REVIEW_BEFORE_MERGE, x.m.f, x.m.n);
		status_payload(&b, rv_tier_state(RV_REVIEW_BEFORE_MERGE), d.ptr,
		               URL, "pr-review", false);
		buf_release(&d);
	}
	assert_string_equal(b.ptr,
	                    "{\"state\":\"failure\",\"target_url\":\"" URL
	                    "\",\"description\":\"REVIEW BEFORE "
	                    "MERGE \xC2\xB7 P1\xC3\x97"
	                    "1, Q\xC3\x97"
	                    "1\",\"context\":\"pr-review\"}");
	buf_reset(&b);
	status_description(&b, RV_PASSED, NULL, 0);
	assert_string_equal(b.ptr, "PASSED");
	assert_string_equal(rv_tier_state(RV_PASSED), "success");
	assert_string_equal(rv_tier_state(RV_PASSED_WITH_NOTES), "success");
	assert_string_equal(rv_tier_state(RV_BLOCKED), "failure");
	buf_reset(&b);
	status_payload(&b, "pending", "publishing", URL, "pr-review", false);
	assert_has(b.ptr, "{\"state\":\"pending\"");
	assert_has(b.ptr, "\"description\":\"publishing\"");
	buf_reset(&b);
	review_payload(&b, HEAD, "BLOCKED", URL, c, 2, false);
	assert_string_equal(
	    b.ptr,
	    "{\"commit_id\":\"" HEAD "\",\"event\":\"COMMENT\",\"body\":"
	    "\"pr-review iteration \xC2\xB7 BLOCKED \xC2\xB7 " URL "\","
	    "\"comments\":[{\"path\":\"a.c\",\"line\":9,\"side\":\"RIGHT\","
	    "\"body\":\"body1\"},{\"path\":\"b.c\",\"line\":5,\"side\":"
	    "\"RIGHT\",\"start_line\":3,\"start_side\":\"RIGHT\",\"body\":"
	    "\"body2\"}]}");
	buf_release(&b);
	fx_release(&x);
}

/* --- reading back --- */

static void test_sticky__state_round_trip(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct sticky_info si;
	struct rv_finding *f;

	(void)state;
	fx_init(&x, RV_INCREMENTAL);
	f = add(&x, 3, RV_P1, "a-b", "dir/\xE6\x97\xA5\xE6\x9C\xAC.c", 4, 9,
	        RV_SEC_OPEN);
	f->thread = RV_THREAD_POSTED;
	f->root_id = 123456789012LL;
	f->thread_url = xstrdup("https://x/#discussion_r123456789012");
	f = add(&x, 7, RV_Q, "q", NULL, 0, 0, RV_SEC_AWAITING);
	f->confidence = RV_LOW;
	free(f->blast);
	f->blast = xstrdup("Data layer");
	f = add(&x, 8, RV_P2, "x", "-", 1, 1, RV_SEC_FIXED);
	f->thread = RV_THREAD_FAILED;
	add(&x, 9, RV_P3, "n", "a b", 2, 2, RV_SEC_ACCEPTED);
	x.in.clean = xcalloc(2, sizeof(*x.in.clean));
	x.in.clean[0].slug = xstrdup("c1");
	x.in.clean[0].evidence = xstrdup("e");
	x.in.clean[1].slug = xstrdup("c2");
	x.in.clean[1].evidence = xstrdup("e");
	x.in.nclean = 2;
	x.m.tier = RV_REVIEW_BEFORE_MERGE;
	render(&x, &b, false);
	assert_int_equal(sticky_parse(&si, b.ptr, b.len), 0);
	assert_true(si.is_sticky && si.markers_ok && si.state.present);
	assert_false(si.state_malformed || si.state.from_rows);
	assert_int_equal(si.version, 2);
	assert_string_equal(si.sha, HEAD);
	assert_int_equal(si.status, RV_REVIEW_BEFORE_MERGE);
	assert_int_equal(si.state.iteration, 2);
	assert_int_equal(si.state.next, 9);
	assert_int_equal(si.state.nrows, x.m.n);
	for (size_t i = 0; i < x.m.n; i++) {
		const struct rv_finding *w = &x.m.f[i];
		const struct rv_state_row *r = &si.state.rows[i];
		assert_int_equal(r->id, w->id);
		assert_int_equal(r->p, w->p);
		assert_int_equal(r->section, w->section);
		assert_int_equal(r->confidence, w->confidence);
		assert_string_equal(r->slug, w->slug);
		assert_string_equal(r->blast, w->blast);
		assert_string_equal(r->justification, w->justification);
		assert_string_equal(r->category, w->category);
		if (w->file)
			assert_string_equal(r->file, w->file);
		else
			assert_null(r->file);
		assert_int_equal(r->line_start, w->line_start);
		assert_int_equal(r->line_end, w->line_end);
	}
	assert_int_equal(si.state.rows[0].thread, RV_THREAD_EXISTING);
	assert_int_equal(si.state.rows[0].root_id, 123456789012LL);
	assert_int_equal(si.state.rows[2].thread, RV_THREAD_FAILED);
	assert_int_equal(si.state.rows[3].thread, RV_THREAD_STICKY_ONLY);
	assert_int_equal(si.state.nclean, 2);
	assert_string_equal(si.state.clean[1], "c2");
	sticky_info_release(&si);
	buf_release(&b);
	fx_release(&x);
}

/* A finding carried from H5 rows has no blast, justification or
 * category: its state line still reads back. */
static void test_sticky__state_round_trip_nulls(void **state)
{
	struct fx x;
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct sticky_info si;
	struct rv_finding *f;

	(void)state;
	fx_init(&x, RV_INCREMENTAL);
	f = add(&x, 4, RV_P2, "carried", "a.c", 1, 1, RV_SEC_OPEN);
	f->carried = true;
	free(f->blast);
	free(f->justification);
	free(f->category);
	f->blast = f->justification = f->category = NULL;
	x.m.tier = RV_PASSED_WITH_NOTES;
	render(&x, &b, false);
	assert_has(b.ptr, "\nF4 P2 open none high - - carried a.c 1 1 -\n");
	assert_int_equal(sticky_parse(&si, b.ptr, b.len), 0);
	assert_true(si.state.present);
	assert_null(si.state.rows[0].blast);
	assert_null(si.state.rows[0].category);
	sticky_info_release(&si);
	buf_release(&b);
	fx_release(&x);
}

#define MK  "<!-- pr-review:sticky -->"
#define SHA "<!-- pr-review:sha=" HEAD " -->"
#define ST  "<!-- pr-review:status=BLOCKED -->"
#define SB  "<!-- pr-review:state=1 iteration=1 next=2\n"
#define SBB "<!-- pr-review:state=1 iteration=1 next=2 base=release/1.x%2B%23\n"
#define ROW "F1 P0 open none high Local Reachable s a.c 1 2 cat\n"

struct look_row {
	const char *name;
	const char *body;
	bool sticky, markers, state, malformed;
};

static const struct look_row look_rows[] = {
    {"plain", MK "\n" SHA "\n" ST "\n" SB ROW "-->", true, true, true, false},
    {"trailing ws and CR", MK " \t\r\n" SHA "\r\n" ST "\n", true, true, false,
     false},
    {"leading text", "x " MK "\n" SHA "\n" ST, false, true, false, false},
    {"leading space", " " MK, false, false, false, false},
    {"in a fence", "```\n" MK "\n```\n" SHA "\n" ST, false, true, false, false},
    {"in an unclosed tilde fence", "~~~~\n" MK "\n" SHA "\n" ST, false, false,
     false, false},
    /* B1: the marker is the first line, and a verdict marker anywhere
     * makes a verdict */
    {"after a closed fence", "```\nx\n```\n" MK, false, false, false, false},
    {"quoted by a check verdict",
     MK "\n" SHA "\n" ST "\n> <!-- agentic:check v1 -->", false, true, false,
     false},
    {"check marker in a fence",
     MK "\n" SHA "\n" ST "\n```\n<!-- agentic:check v1 -->\n```", false,
     true, false, false},
    {"needs-human header, loosely spelled",
     MK "\n" SHA "\n" ST "\nsee <!--AGENTIC:Needs-Human   v1 -->", false,
     true, false, false},
    {"second line", "hello\n" MK "\n" SHA "\n" ST, false, true, false, false},
    /* B3: the state binds its base */
    {"state with base", MK "\n" SHA "\n" ST "\n" SBB ROW "-->", true, true,
     true, false},
    {"state with an empty base", MK "\n" SHA "\n" ST "\n"
     "<!-- pr-review:state=1 iteration=1 next=2 base=\n-->", true, true, false,
     true},
    {"state with a null base", MK "\n" SHA "\n" ST "\n"
     "<!-- pr-review:state=1 iteration=1 next=2 base=-\n-->", true, true,
     false, true},
    {"state with a raw space in base", MK "\n" SHA "\n" ST "\n"
     "<!-- pr-review:state=1 iteration=1 next=2 base=a b\n-->", true, true,
     false, true},
    {"state with a sixth field", MK "\n" SHA "\n" ST "\n"
     "<!-- pr-review:state=1 iteration=1 next=2 base=main x=1\n-->", true,
     true, false, true},
    {"two shas", MK "\n" SHA "\n<!-- pr-review:sha=" LAST " -->\n" ST, true,
     false, false, false},
    {"same sha twice", MK "\n" SHA "\n" SHA "\n" ST "\n" ST, true, true, false,
     false},
    {"short sha", MK "\n<!-- pr-review:sha=abc -->\n" SHA "\n" ST, true, false,
     false, false},
    {"bad status", MK "\n" SHA "\n<!-- pr-review:status=NOOP -->", true, false,
     false, false},
    {"no status", MK "\n" SHA, true, false, false, false},
    {"near-miss status", MK "\n" SHA "\n" ST "\n<!-- pr-review:status=X", true,
     false, false, false},
    {"state unclosed", MK "\n" SHA "\n" ST "\n" SB ROW, true, true, false,
     true},
    {"state two blocks", MK "\n" SB ROW "-->\n" SB "-->", true, false, false,
     true},
    {"state bad field",
     MK "\n" SB "F1 P0 open none high Local Reachable s a.c 1 2 c t\n-->", true,
     false, false, true},
    {"state lower hex",
     MK "\n" SB "F1 P0 open none high Local Reachable s a%2fc 1 2 c\n-->", true,
     false, false, true},
    {"state line without file",
     MK "\n" SB "F1 P0 open none high Local Reachable s - 1 2 c\n-->", true,
     false, false, true},
    {"state start > end",
     MK "\n" SB "F1 P0 open none high Local Reachable s a 3 2 c\n-->", true,
     false, false, true},
    {"state duplicate id", MK "\n" SB ROW ROW "-->", true, false, false, true},
    {"state bad blast",
     MK "\n" SB "F1 P0 open none high Global Reachable s a 1 2 c\n-->", true,
     false, false, true},
    {"state null blast, justification, category",
     MK "\n" SB "F1 P0 open none high - - s a 1 2 -\n-->", true, false, true,
     false},
    {"state double space",
     MK "\n" SB "F1 P0 open none high Local  Reachable s a 1 2 c\n-->", true,
     false, false, true},
    {"state row after clean", MK "\n" SB "clean a\n" ROW "-->", true, false,
     false, true},
    {"state next 0", MK "\n<!-- pr-review:state=1 iteration=1 next=0\n-->",
     true, false, false, true},
    {"state clean only", MK "\n" SB "clean a b\n-->", true, false, true, false},
    {"state in a fence", MK "\n```\n" SB ROW "-->\n```", true, false, false,
     false},
};

static void test_sticky__look_alikes(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(look_rows); i++) {
		const struct look_row *r = &look_rows[i];
		struct sticky_info si;

		sticky_parse(&si, r->body, strlen(r->body));
		if (si.is_sticky != r->sticky || si.markers_ok != r->markers ||
		    si.state.present != r->state ||
		    si.state_malformed != r->malformed) {
			print_error("row %zu (%s): sticky %d markers %d state "
			            "%d malformed %d\n",
			            i, r->name, si.is_sticky, si.markers_ok,
			            si.state.present, si.state_malformed);
			bad++;
		}
		sticky_info_release(&si);
	}
	assert_int_equal(bad, 0);
}

/* H5: a version-2 sticky without a state block gives its rows. */
static void test_sticky__rows_of_stateless_v2(void **state)
{
	static const char body[] = MK
	    "\n<!-- pr-review:version=2 -->\n" SHA "\n" ST "\n\n"
	    "## \xF0\x9F\x93\x8B Currently open (9) \xE2\x80\x94 awaiting "
	    "author\n\n"
	    "- **F1** P0 `authz` \xE2\x80\x94 src/a.c:3-7\n"
	    "- **F2** P1 `leak` \xE2\x80\x94 b.c:4 \xC2\xB7 [thread](https://"
	    "github.com/o/r/pull/7#discussion_r55)\n"
	    "- **F3** Q `why` \xC2\xB7 sticky-only\n"
	    "- \xF0\x9F\x94\xA7 6 nits\n\n"
	    "## \xE2\x8F\xB8\xEF\xB8\x8F Awaiting your decision (1)\n\n"
	    "- **F4** P2 `perf` \xE2\x80\x94 c.c\n"
	    "  - **Author** (wontfix): no\n\n"
	    "<details><summary>\xE2\x86\xAA Accepted exceptions (1)</summary>"
	    "\n\n- **F5** P3 `nit` \xE2\x80\x94 wontfix by lead: ok\n\n"
	    "</details>\n\n```\n- **F6** P0 `fenced` \xE2\x80\x94 x.c:1\n```";
	struct sticky_info si;
	const struct rv_state_row *r;

	(void)state;
	sticky_parse(&si, body, strlen(body));
	assert_true(si.is_sticky && si.markers_ok);
	assert_false(si.state.present);
	assert_true(si.state.from_rows);
	assert_false(si.state.complete);
	assert_int_equal(si.state.nrows, 5);
	r = &si.state.rows[0];
	assert_int_equal(r->id, 1);
	assert_int_equal(r->p, RV_P0);
	assert_string_equal(r->file, "src/a.c");
	assert_int_equal(r->line_start, 3);
	assert_int_equal(r->line_end, 7);
	r = &si.state.rows[1];
	assert_int_equal(r->thread, RV_THREAD_EXISTING);
	assert_int_equal(r->root_id, 55);
	assert_int_equal(r->line_start, 4);
	assert_int_equal(r->line_end, 4);
	r = &si.state.rows[2];
	assert_null(r->file);
	assert_int_equal(r->p, RV_Q);
	r = &si.state.rows[3];
	assert_int_equal(r->section, RV_SEC_AWAITING);
	assert_string_equal(r->file, "c.c");
	assert_int_equal(r->line_start, 0);
	r = &si.state.rows[4];
	assert_int_equal(r->section, RV_SEC_ACCEPTED);
	assert_null(r->file);
	sticky_info_release(&si);
}

struct root_row {
	const char *name;
	const char *body;
	bool root;
	uint32_t id;
	bool has_head;
};

#define RM  "<!-- pr-review:finding-root -->\n"
#define RID "<!-- pr-review:finding-id=F4 -->\n"
#define RH  "<!-- pr-review:head=" HEAD " -->\n"
#define RT  "**F4 P2 `a-b`** \xC2\xB7 x"

static const struct root_row root_rows[] = {
    {"plain", RM RID RH "\n" RT, true, 4, true},
    {"no head", RM RID "\n" RT, true, 4, false},
    {"two heads", RM RID RH "<!-- pr-review:head=" LAST " -->\n\n" RT, true, 4,
     false},
    {"id after the run", RM "\n" RID "\n" RT, false, 0, false},
    {"marker not first", "\n" RM RID "\n" RT, false, 0, false},
    {"title of another id", RM RID "\n**F5 P2 `a-b`** \xC2\xB7 x", false, 0,
     false},
    {"two ids", RM RID "<!-- pr-review:finding-id=F5 -->\n\n" RT, false, 0,
     false},
    {"bad slug", RM RID "\n**F4 P2 `A`** \xC2\xB7 x", false, 0, false},
    {"bad P", RM RID "\n**F4 P4 `a`** \xC2\xB7 x", false, 0, false},
    {"no dot", RM RID "\n**F4 P2 `a`**", false, 0, false},
    {"CRLF",
     "<!-- pr-review:finding-root -->\r\n"
     "<!-- pr-review:finding-id=F4 -->\r\n\r\n" RT,
     true, 4, false},
    /* P46: a root that quotes a verdict marker is a root (U3; review
     * comments are never verdicts, and no root is ever edited) */
    {"quotes a check marker", RM RID RH "\n" RT "\n\n> <!-- agentic:check v1 -->",
     true, 4, true},
    {"needs-human header in the evidence",
     RM RID RH "\n" RT "\n\n```\n<!-- agentic:needs-human v1 -->\n```", true,
     4, true},
};

static void test_sticky__root_parse_table(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(root_rows); i++) {
		const struct root_row *r = &root_rows[i];
		struct root_info ri;

		root_parse(&ri, r->body, strlen(r->body));
		if (ri.is_root != r->root || ri.id != r->id ||
		    ri.has_head != r->has_head) {
			print_error("row %zu (%s): root %d id %u head %d\n", i,
			            r->name, ri.is_root, ri.id, ri.has_head);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sticky__pct_table),
	    cmocka_unit_test(test_sticky__pct_decode_strict),
	    cmocka_unit_test(test_sticky__fence_len),
	    cmocka_unit_test(test_sticky__sha7_loc_one),
	    cmocka_unit_test(test_sticky__passed_minimal),
	    cmocka_unit_test(test_sticky__nits_collapse_over_five),
	    cmocka_unit_test(test_sticky__threads_and_partial),
	    cmocka_unit_test(test_sticky__injection_neutralised),
	    cmocka_unit_test(test_sticky__degrade_then_refuse),
	    cmocka_unit_test(test_sticky__degrade_to_collapse),
	    cmocka_unit_test(test_sticky__root_layout),
	    cmocka_unit_test(test_sticky__root_over_limit),
	    cmocka_unit_test(test_sticky__root_assert_table),
	    cmocka_unit_test(test_sticky__status_and_review),
	    cmocka_unit_test(test_sticky__state_round_trip),
	    cmocka_unit_test(test_sticky__state_round_trip_nulls),
	    cmocka_unit_test(test_sticky__look_alikes),
	    cmocka_unit_test(test_sticky__rows_of_stateless_v2),
	    cmocka_unit_test(test_sticky__root_parse_table),
	    cmocka_unit_test(test_sticky__root_texts_table),
	    cmocka_unit_test(test_sticky__state_base_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
