/*
 * test_verdict.c - T1, T2 (N21) over the whole edit history (A5), the row
 * judgement of §3.3 and the needs-human verdict lookup of §5.2 with the
 * hold of A1.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/marker.h"
#include "core/policy.h"
#include "formats/snapshot.h"
#include "core/verdict.h"

#define H  "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H2 "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define TR "lfx-reviewer"

static int64_t tm(const char *hms)
{
	char s[32] = "2026-11-29T";
	int64_t t = 0;

	memcpy(s + 11, hms, 8);
	s[19] = 'Z';
	s[20] = '\0';
	assert_int_equal(time_parse(&t, s), 0);
	return t;
}

/* --- T1 / T2 --- */

static void comment_init(struct snap_comment *c, const char *author,
                         const char *edited_by, bool edited)
{
	memset(c, 0, sizeof(*c));
	c->id = 1;
	c->author = xstrdup_or_null(author);
	c->edited_by = xstrdup_or_null(edited_by);
	c->edited = edited;
	c->body = xstrdup("");
}

struct trust_row {
	const char *author;
	const char *edited_by;
	bool edited;
	bool author_ok;
	bool edit_ok;
};

static const struct trust_row trust_rows[] = {
    {TR, NULL, false, true, true},
    {"LFX-Reviewer", NULL, false, true, true},
    {"lfx-reviewer[bot]", NULL, false, false, true},
    {"dev1", NULL, false, false, true},
    {NULL, NULL, false, false, true},
    {TR, TR, true, true, true},
    {TR, "LFX-REVIEWER", true, true, true},
    {TR, "dev1", true, true, false},
    {TR, "lfx-reviewer[bot]", true, true, false},
    {TR, NULL, true, true, false}, /* edited, editor unknown (N21) */
};

static void test_verdict__trust_table(void **state)
{
	size_t i;
	int bad = 0;
	struct policy p;

	(void)state;
	policy_init(&p);
	for (i = 0; i < ARRAY_SIZE(trust_rows); i++) {
		const struct trust_row *r = &trust_rows[i];
		struct snap_comment c;

		comment_init(&c, r->author, r->edited_by, r->edited);
		if (verdict_author_trusted(&c, &p) != r->author_ok) {
			print_error("row %zu: author_trusted expected %d\n", i,
			            r->author_ok);
			bad++;
		}
		if (verdict_edit_trusted(&c, &p) != r->edit_ok) {
			print_error("row %zu: edit_trusted expected %d\n", i,
			            r->edit_ok);
			bad++;
		}
		snap_comment_release(&c);
	}
	policy_release(&p);
	assert_int_equal(bad, 0);
}

/* --- T2 over the whole edit history (A5) --- */

struct edit_spec {
	const char *editor; /* NULL: a deleted or unknown account */
	const char *at;     /* hh:mm:ss; NULL ends the list */
};

struct history_row {
	const char *name;
	const char *edited_by;   /* the last editor (GraphQL editor) */
	const char *edited_at;   /* NULL: never edited (with edited_by NULL) */
	struct edit_spec edits[3];
	bool edit_ok;
	const char *untrusted;   /* verdict_untrusted_editor when T2 fails */
	const char *last;        /* verdict_last_edit; NULL: 0 */
};

static const struct history_row history_rows[] = {
    {"never edited", NULL, NULL, {{NULL, NULL}}, true, NULL, NULL},
    {"only trusted history passes",
     TR,
     "10:02:00",
     {{TR, "10:01:00"}, {TR, "10:02:00"}},
     true,
     NULL,
     "10:02:00"},
    {"trusted history in another case passes",
     "LFX-Reviewer",
     "10:02:00",
     {{"lfx-REVIEWER", "10:01:00"}, {"LFX-Reviewer", "10:02:00"}},
     true,
     NULL,
     "10:02:00"},
    {"A5: an outsider then the trusted login still fails",
     TR,
     "10:03:00",
     {{"dev1", "10:01:00"}, {TR, "10:03:00"}},
     false,
     "dev1",
     "10:03:00"},
    {"A5: an outsider in the middle of the history fails",
     TR,
     "10:03:00",
     {{TR, "10:01:00"}, {"mallory", "10:02:00"}, {TR, "10:03:00"}},
     false,
     "mallory",
     "10:03:00"},
    {"A5: a null editor in edits fails",
     TR,
     "10:02:00",
     {{NULL, "10:01:00"}, {TR, "10:02:00"}},
     false,
     NULL,
     "10:02:00"},
    {"A5: a [bot] look-alike in edits fails",
     TR,
     "10:02:00",
     {{"lfx-reviewer[bot]", "10:01:00"}, {TR, "10:02:00"}},
     false,
     "lfx-reviewer[bot]",
     "10:02:00"},
    {"A5: the first outsider is the one named",
     TR,
     "10:04:00",
     {{"dev1", "10:01:00"}, {"dev2", "10:02:00"}, {TR, "10:04:00"}},
     false,
     "dev1",
     "10:04:00"},
    {"A5: history alone counts, without a last editor",
     NULL,
     NULL,
     {{"dev1", "10:01:00"}},
     false,
     "dev1",
     "10:01:00"},
    {"last editor an outsider, trusted history",
     "dev1",
     "10:05:00",
     {{TR, "10:01:00"}},
     false,
     "dev1",
     "10:05:00"},
    {"last editor unknown, trusted history",
     NULL,
     "10:05:00",
     {{TR, "10:01:00"}},
     false,
     NULL,
     "10:05:00"},
    {"the newest edit time is the latest, not the last entry",
     TR,
     "10:03:00",
     {{TR, "10:05:00"}, {TR, "10:02:00"}},
     true,
     NULL,
     "10:05:00"},
};

static void comment_with_history(struct snap_comment *c,
                                 const char *edited_by, const char *edited_at,
                                 const struct edit_spec *edits, size_t max)
{
	size_t n;

	for (n = 0; n < max && edits[n].at; n++)
		;
	c->edited_by = xstrdup_or_null(edited_by);
	c->edited = edited_by || edited_at;
	c->edited_at = edited_at ? tm(edited_at) : 0;
	c->edits = n ? xcalloc(n, sizeof(*c->edits)) : NULL;
	for (c->nedits = 0; c->nedits < n; c->nedits++) {
		c->edits[c->nedits].editor =
		    xstrdup_or_null(edits[c->nedits].editor);
		c->edits[c->nedits].edited_at = tm(edits[c->nedits].at);
	}
}

static void test_verdict__edit_history_table(void **state)
{
	size_t i;
	int bad = 0;
	struct policy p;

	(void)state;
	policy_init(&p);
	for (i = 0; i < ARRAY_SIZE(history_rows); i++) {
		const struct history_row *r = &history_rows[i];
		struct snap_comment c;
		const char *who;
		int64_t want = r->last ? tm(r->last) : 0;

		comment_init(&c, TR, NULL, false);
		comment_with_history(&c, r->edited_by, r->edited_at, r->edits,
		                     ARRAY_SIZE(r->edits));
		if (verdict_edit_trusted(&c, &p) != r->edit_ok) {
			print_error("row %zu (%s): edit_trusted expected %d\n",
			            i, r->name, r->edit_ok);
			bad++;
		}
		if (!r->edit_ok) {
			who = verdict_untrusted_editor(&c, &p);
			if (r->untrusted ? !who || strcmp(who, r->untrusted)
			                 : who != NULL) {
				print_error("row %zu (%s): untrusted editor "
				            "%s, expected %s\n",
				            i, r->name, who ? who : "NULL",
				            r->untrusted ? r->untrusted
				                         : "NULL");
				bad++;
			}
		}
		if (verdict_last_edit(&c) != want) {
			print_error("row %zu (%s): last edit %lld, expected "
			            "%lld\n",
			            i, r->name,
			            (long long)verdict_last_edit(&c),
			            (long long)want);
			bad++;
		}
		snap_comment_release(&c);
	}
	policy_release(&p);
	assert_int_equal(bad, 0);
}

/* --- §3.3: judging the rows --- */

static const struct snap_thread *threads(size_t *n)
{
	static char ids[6][16] = {"PRRT_1", "PRRT_2", "PRRT_H",
	                          "PRRT_N", "PRRT_G", "PRRT_B"};
	static char authors[6][40] = {
	    "copilot-pull-request-reviewer", "Copilot[bot]", "dev1", "",
	    "github-actions[bot]",           "lfx-reviewer"};
	static struct snap_thread t[6];
	size_t i;

	for (i = 0; i < 6; i++) {
		t[i].id = ids[i];
		t[i].author = authors[i][0] ? authors[i] : NULL;
		t[i].comments = 2;
	}
	*n = 6;
	return t;
}

#define OPEN "<!-- agentic:check v1 -->\nhead: " H "\nround: 9\n"
#define ROW(id, st, sev)                                                       \
	"- id: " id ", status: " st ", severity: " sev ", reason: r\n"

struct judge_row {
	const char *name;
	const char *body;
	bool no_threads;
	size_t rows, invalid, foreign, blocking;
	bool has_clean, said_clean, clean;
};

static const struct judge_row judge_rows[] = {
    {"clean, one fixed AI row",
     OPEN "clean: true\n" ROW("PRRT_1", "fixed", "high"), false, 1, 0, 0, 0,
     true, true, true},
    {"AI authors with [bot] and other case",
     OPEN "clean: true\n" ROW("PRRT_2", "obsolete", "high")
         ROW("PRRT_G", "rebutted-valid", "critical"),
     false, 2, 0, 0, 0, true, true, true},
    {"no rows, clean", OPEN "clean: true\n", false, 0, 0, 0, 0, true, true,
     true},
    {"human thread is foreign",
     OPEN "clean: true\n" ROW("PRRT_H", "fixed", "high"), false, 1, 0, 1, 0,
     true, true, false},
    /* PUBLISH X21: a pr-review finding's thread (opened by the review
     * login, by default the trusted one) is an AI reviewer's thread. */
    {"thread of the review login is an AI reviewer's (X21)",
     OPEN "clean: true\n" ROW("PRRT_B", "fixed", "high"), false, 1, 0, 0, 0,
     true, true, true},
    {"thread without author is foreign",
     OPEN "clean: true\n" ROW("PRRT_N", "fixed", "high"), false, 1, 0, 1, 0,
     true, true, false},
    {"id not a thread of this PR",
     OPEN "clean: true\n" ROW("PRRT_X", "fixed", "high"), false, 1, 0, 1, 0,
     true, true, false},
    {"ids compare exactly (case)",
     OPEN "clean: true\n" ROW("prrt_1", "fixed", "high"), false, 1, 0, 1, 0,
     true, true, false},
    {"ids compare exactly (prefix)",
     OPEN "clean: true\n" ROW("PRRT_10", "fixed", "high")
         ROW("PRRT_", "fixed", "high"),
     false, 2, 0, 2, 0, true, true, false},
    {"no threads at all: every row is foreign",
     OPEN "clean: true\n" ROW("PRRT_1", "fixed", "high"), true, 1, 0, 1, 0,
     true, true, false},
    {"blocking row", OPEN "clean: true\n" ROW("PRRT_1", "outstanding", "high"),
     false, 1, 0, 0, 1, true, true, false},
    {"rebutted-invalid blocks",
     OPEN "clean: true\n" ROW("PRRT_1", "rebutted-invalid", "critical"), false,
     1, 0, 0, 1, true, true, false},
    {"blocking nit is invalid and blocking",
     OPEN "clean: true\n" ROW("PRRT_1", "outstanding", "nit"), false, 1, 1, 0,
     1, true, true, false},
    {"invalid row",
     OPEN "clean: true\n"
          "- id: PRRT_1, status: fixed, severity: low, "
          "reason: r\n",
     false, 1, 1, 0, 0, true, true, false},
    {"clean: false stays false",
     OPEN "clean: false\n" ROW("PRRT_1", "fixed", "high"), false, 1, 0, 0, 0,
     true, false, false},
    {"missing clean: is false", OPEN ROW("PRRT_1", "fixed", "high"), false, 1,
     0, 0, 0, false, false, false},
    {"rows before the block do not count",
     ROW("PRRT_X", "outstanding", "high") OPEN
     "clean: true\n" ROW("PRRT_1", "fixed", "high"),
     false, 1, 0, 0, 0, true, true, true},
    {"a reason naming another id changes nothing",
     OPEN "clean: true\n- id: PRRT_1, status: fixed, severity: high, "
          "reason: PRRT_X, status: outstanding\n",
     false, 1, 0, 0, 0, true, true, true},
    {"mixed",
     OPEN "clean: true\n" ROW("PRRT_1", "fixed", "high")
         ROW("PRRT_H", "outstanding", "high")
             ROW("PRRT_2", "outstanding",
                 "nit") "- id: , status: fixed, severity: nit, reason: r\n",
     false, 4, 2, 1, 2, true, true, false},
};

/* A5: which comments' edit histories a read must fetch, and which
 * reviews are the trusted login's approvals. */
static void test_verdict__history_and_approvals(void **state)
{
	char tr[] = "lfx-reviewer", other[] = "mallory", ok[] = "APPROVED",
	     no[] = "COMMENTED";
	struct snap_comment c;
	struct snap_review r;
	struct policy p;

	(void)state;
	policy_init(&p);
	memset(&c, 0, sizeof(c));
	c.author = tr;
	assert_false(verdict_history_needed(&c, &p)); /* never edited */
	c.edited = true;
	assert_true(verdict_history_needed(&c, &p)); /* markers or not */
	c.author = other;
	assert_false(verdict_history_needed(&c, &p)); /* never a verdict */
	c.author = NULL;
	assert_false(verdict_history_needed(&c, &p));
	memset(&r, 0, sizeof(r));
	r.author = tr;
	r.state = ok;
	assert_true(verdict_trusted_approval(&r, &p));
	r.state = no;
	assert_false(verdict_trusted_approval(&r, &p));
	r.state = ok;
	r.author = other;
	assert_false(verdict_trusted_approval(&r, &p));
	r.author = NULL;
	assert_false(verdict_trusted_approval(&r, &p));
	policy_release(&p);
}

static void test_verdict__judge_table(void **state)
{
	size_t i, nt;
	int bad = 0;
	struct policy p;
	const struct snap_thread *t = threads(&nt);

	(void)state;
	policy_init(&p);
	for (i = 0; i < ARRAY_SIZE(judge_rows); i++) {
		const struct judge_row *r = &judge_rows[i];
		struct marker_result m;
		struct check_judgement j;

		marker_parse(&m, r->body, strlen(r->body));
		verdict_judge_check(&j, r->body, strlen(r->body), &m.check, t,
		                    r->no_threads ? 0 : nt, &p);
#define JCHK(field)                                                            \
	if ((long long)j.field != (long long)r->field) {                       \
		print_error("row %zu (%s): " #field " %lld, expected %lld\n",  \
		            i, r->name, (long long)j.field,                    \
		            (long long)r->field);                              \
		bad++;                                                         \
	}
		JCHK(rows)
		JCHK(invalid)
		JCHK(foreign)
		JCHK(blocking)
		JCHK(has_clean)
		JCHK(said_clean)
		JCHK(clean)
#undef JCHK
	}
	policy_release(&p);
	assert_int_equal(bad, 0);
}

static void test_verdict__judge_follows_ai_reviewers(void **state)
{
	static const char body[] =
	    OPEN "clean: true\n" ROW("PRRT_1", "fixed", "high")
	        ROW("PRRT_H", "fixed", "high");
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct marker_result m;
	struct check_judgement j;
	size_t nt;
	const struct snap_thread *t = threads(&nt);

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_set(&p, "ai_reviewers", "dev1", &err), 0);
	marker_parse(&m, body, strlen(body));
	verdict_judge_check(&j, body, strlen(body), &m.check, t, nt, &p);
	/* now the human thread is the AI one and copilot's is foreign */
	assert_int_equal(j.rows, 2);
	assert_int_equal(j.foreign, 1);
	assert_false(j.clean);
	assert_int_equal(policy_set(&p, "ai_reviewers", "dev1,copilot", &err),
	                 0);
	verdict_judge_check(&j, body, strlen(body), &m.check, t, nt, &p);
	assert_int_equal(j.foreign, 1); /* PRRT_1 is copilot-pull-request-… */
	assert_int_equal(policy_set(&p, "ai_reviewers",
	                            "dev1,copilot-pull-request-reviewer", &err),
	                 0);
	verdict_judge_check(&j, body, strlen(body), &m.check, t, nt, &p);
	assert_int_equal(j.foreign, 0);
	assert_true(j.clean);
	policy_release(&p);
	buf_release(&err);
}

/* --- §5.2: the verdict lookup --- */

#define NHB(v, h, b)                                                           \
	"<!-- agentic:needs-human v1 -->\n<!-- needs-human: " v " -->\n"       \
	"<!-- head: " h " -->\n<!-- base: " b " -->\n"

struct cm {
	int64_t id;
	const char *author, *at, *body, *edited_by;
};

static void pull_with(struct snap_pull *p, const struct cm *c, size_t n,
                      const char *retarget_at, const char *retarget2_at)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->number = 7;
	memcpy(p->head_sha, H, SHA_BUF);
	p->comments = xcalloc(n ? n : 1, sizeof(*p->comments));
	for (i = 0; i < n; i++) {
		struct snap_comment *x = &p->comments[p->ncomments++];

		x->id = c[i].id;
		x->author = xstrdup_or_null(c[i].author);
		x->created_at = tm(c[i].at);
		x->body = xstrdup(c[i].body);
		x->body_len = strlen(x->body);
		x->edited_by = xstrdup_or_null(c[i].edited_by);
		x->edited = c[i].edited_by != NULL;
	}
	p->timeline = xcalloc(3, sizeof(*p->timeline));
	p->timeline[p->ntimeline].id = 9000;
	p->timeline[p->ntimeline].kind = TL_UNLABELED;
	p->timeline[p->ntimeline].event = xstrdup("unlabeled");
	p->timeline[p->ntimeline++].created_at = tm("23:00:00");
	if (retarget_at) {
		p->timeline[p->ntimeline].id = 9100;
		p->timeline[p->ntimeline].kind = TL_BASE_REF_CHANGED;
		p->timeline[p->ntimeline].event = xstrdup("base_ref_changed");
		p->timeline[p->ntimeline++].created_at = tm(retarget_at);
	}
	if (retarget2_at) {
		p->timeline[p->ntimeline].id = 9050;
		p->timeline[p->ntimeline].kind = TL_BASE_REF_CHANGED;
		p->timeline[p->ntimeline].event = xstrdup("base_ref_changed");
		p->timeline[p->ntimeline++].created_at = tm(retarget2_at);
	}
}

static const struct cm lookup_comments[] = {
    {501, TR, "10:05:00", NHB("no", H, "main"), NULL},
    {502, "dev1", "10:06:00", NHB("yes", H, "main"), NULL},
    {503, TR, "10:07:00", NHB("yes", H, "main"), "dev1"},
    {504, TR, "10:08:00", NHB("yes", H2, "main"), NULL},
    {505, TR, "10:09:00", "<!-- agentic:check v1 -->\nhead: " H "\nround: 1\n",
     NULL},
    {506, TR, "10:10:00",
     "> <!-- needs-human: yes -->\n> <!-- head: " H " -->\n", NULL},
    {500, TR, "10:11:00", NHB("yes", H, "main"), NULL},
};

static void test_verdict__lookup_picks_trusted_newest_for_head(void **state)
{
	struct snap_pull p;
	struct policy pol;
	struct nh_lookup lk;

	(void)state;
	policy_init(&pol);
	pull_with(&p, lookup_comments, ARRAY_SIZE(lookup_comments), NULL, NULL);
	verdict_lookup(&lk, &p, H, &pol);
	/* 502 untrusted, 503 edited by another, 504 another head, 505 and
	 * 506 not needs-human verdicts, 500 a lower id than 501 */
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 501);
	assert_int_equal(lk.marker.nh.value, NH_NO);
	assert_null(lk.retarget);
	assert_int_equal(lk.dropped, 0);

	verdict_lookup(&lk, &p, H2, &pol);
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 504);

	verdict_lookup(&lk, &p, "1111111111111111111111111111111111111111",
	               &pol);
	assert_null(lk.comment);
	snap_pull_release(&p);
	policy_release(&pol);
}

/* N67: a newer trusted comment whose markers have no header, or a header
 * near its form, is a malformed verdict for the head: it is the newest,
 * so the older no is not what the gate reads. */
static const struct cm near_comments[] = {
    {601, TR, "10:05:00", NHB("no", H, "main"), NULL},
    {602, TR, "10:06:00",
     "<!-- agentic:needs-human\xc2\xa0v1 -->\n<!-- needs-human: yes -->\n"
     "<!-- head: " H " -->\n<!-- base: main -->\n",
     NULL},
    {603, TR, "10:07:00", "<!-- needs-human: yes -->\n<!-- head: " H2 " -->\n",
     NULL},
};

static void test_verdict__lookup_near_miss_is_newest(void **state)
{
	struct snap_pull p;
	struct policy pol;
	struct nh_lookup lk;

	(void)state;
	policy_init(&pol);
	pull_with(&p, near_comments, ARRAY_SIZE(near_comments), NULL, NULL);
	verdict_lookup(&lk, &p, H, &pol);
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 602);
	assert_int_equal(lk.marker.nh.value, NH_MALFORMED);
	assert_true(lk.marker.nh.malformed & NHM_BAD_HEADER);
	verdict_lookup(&lk, &p, H2, &pol);
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 603);
	assert_int_equal(lk.marker.nh.value, NH_MALFORMED);
	snap_pull_release(&p);
	policy_release(&pol);
}

static void test_verdict__lookup_retarget(void **state)
{
	struct snap_pull p;
	struct policy pol;
	struct nh_lookup lk;

	(void)state;
	policy_init(&pol);
	/* a retarget at 10:05:00 drops 501 (same second) and 500 is newer */
	pull_with(&p, lookup_comments, ARRAY_SIZE(lookup_comments), "10:05:00",
	          NULL);
	verdict_lookup(&lk, &p, H, &pol);
	assert_non_null(lk.retarget);
	assert_int_equal(lk.retarget->id, 9100);
	assert_int_equal(lk.dropped, 1);
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 500);
	snap_pull_release(&p);

	/* a retarget after every verdict drops them all */
	pull_with(&p, lookup_comments, ARRAY_SIZE(lookup_comments), "12:00:00",
	          NULL);
	verdict_lookup(&lk, &p, H, &pol);
	assert_null(lk.comment);
	assert_int_equal(lk.dropped, 2);
	snap_pull_release(&p);

	/* the newest retarget is the highest id, not the latest time */
	pull_with(&p, lookup_comments, ARRAY_SIZE(lookup_comments), "09:00:00",
	          "12:00:00");
	verdict_lookup(&lk, &p, H, &pol);
	assert_int_equal(lk.retarget->id, 9100);
	assert_non_null(lk.comment);
	assert_int_equal(lk.comment->id, 501);
	assert_int_equal(lk.dropped, 0);
	snap_pull_release(&p);
	policy_release(&pol);
}

static void test_verdict__names_head(void **state)
{
	static const char two[] =
	    NHB("no", H, "main") "<!-- head: " H2 " -->\n";
	struct marker_result m;
	size_t len;
	char *s, *q;
	int i;

	(void)state;
	marker_parse(&m, two, strlen(two));
	assert_true(verdict_names_head(&m.nh, H));
	assert_true(verdict_names_head(&m.nh, H2));
	assert_false(verdict_names_head(
	    &m.nh, "1111111111111111111111111111111111111111"));

	/* more distinct heads than remembered: names any head (fail closed:
	 * the malformed verdict is a candidate and blocks) */
	len = strlen(NHB("no", H, "main")) + 6 * 60;
	s = xmalloc(len + 1);
	q = s;
	memcpy(q, NHB("no", H, "main"), strlen(NHB("no", H, "main")));
	q += strlen(NHB("no", H, "main"));
	for (i = 0; i < 6; i++) {
		int n = snprintf(q, 60, "<!-- head: %040d -->\n", i + 1);

		assert_true(n > 0 && n < 60);
		q += n;
	}
	*q = '\0';
	marker_parse(&m, s, (size_t)(q - s));
	assert_true(m.nh.heads_overflow);
	assert_true(m.nh.malformed & NHM_HEAD_CONFLICT);
	assert_true(verdict_names_head(
	    &m.nh, "2222222222222222222222222222222222222222"));
	free(s);
}

/* --- A1: the hold (Y) and the near-miss reasons of verdict_lookup --- */

struct hold_cm {
	int64_t id;
	const char *author, *at, *body, *edited_by, *edited_at;
	struct edit_spec edits[2];
};

struct hold_row {
	const char *name;
	struct hold_cm cm[4];
	int64_t hold;            /* the comment that set Y; 0: no hold */
	const char *hold_at;     /* Y, when hold != 0 */
	bool hold_edited;        /* Y is an edit by someone else */
	const char *hold_editor; /* ... by this editor (NULL: unknown) */
	int64_t comment;         /* the deciding verdict for H, or 0 */
	int64_t tampered;        /* a T2-excluded verdict naming H, or 0 */
	int64_t quoted;          /* a near-miss naming H, or 0 */
	size_t quoted_line;
};

#define QUOTED_NO                                                              \
	"Quoting the judge:\n```\n" NHB("no", H, "main") "```\n"
#define FENCED_YES                                                             \
	"Summary\n~~~\n<!-- agentic:needs-human v1 -->\n"                      \
	"<!-- needs-human: yes -->\n~~~\n"

static const struct hold_row hold_rows[] = {
    {"a no: no hold",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}}},
     0, NULL, false, NULL, 501, 0, 0, 0},
    {"a yes for H holds at its creation",
     {{501, TR, "10:05:00", NHB("yes", H, "main"), NULL, NULL, {{0}}}},
     501, "10:05:00", false, NULL, 501, 0, 0, 0},
    {"A1: a yes for an older head holds",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:08:00", NHB("yes", H2, "main"), NULL, NULL, {{0}}}},
     502, "10:08:00", false, NULL, 501, 0, 0, 0},
    {"A1: a yes for another base holds",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:08:00", NHB("yes", H, "dev"), NULL, NULL, {{0}}}},
     502, "10:08:00", false, NULL, 502, 0, 0, 0},
    {"A1: a malformed yes (yes and no) holds",
     {{500, TR, "10:01:00",
       "<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n"
       "<!-- needs-human: no -->\n<!-- head: " H " -->\n",
       NULL, NULL, {{0}}},
      {501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}}},
     500, "10:01:00", false, NULL, 501, 0, 0, 0},
    {"A1: a fenced yes (eager trigger) holds",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:09:00", FENCED_YES, NULL, NULL, {{0}}}},
     502, "10:09:00", false, NULL, 501, 0, 0, 0},
    {"A1: the latest yes by time sets Y, not the highest id",
     {{510, TR, "10:05:00", NHB("yes", H2, "main"), NULL, NULL, {{0}}},
      {505, TR, "10:09:00", NHB("yes", H2, "main"), NULL, NULL, {{0}}}},
     505, "10:09:00", false, NULL, 0, 0, 0, 0},
    {"T1: an untrusted yes does not hold",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, "dev1", "10:08:00", NHB("yes", H, "main"), NULL, NULL, {{0}}}},
     0, NULL, false, NULL, 501, 0, 0, 0},
    {"T1: a yes by the [bot] look-alike does not hold",
     {{502, "lfx-reviewer[bot]", "10:08:00", NHB("yes", H, "main"), NULL,
       NULL, {{0}}}},
     0, NULL, false, NULL, 0, 0, 0, 0},
    {"A1: a trusted comment edited by someone else holds at the edit",
     {{501, TR, "10:05:00", NHB("no", H, "main"), "dev1", "10:20:00",
       {{"dev1", "10:10:00"}, {"dev1", "10:20:00"}}}},
     501, "10:20:00", true, "dev1", 0, 501, 0, 0},
    {"A1: a plain trusted comment edited by someone else holds",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:06:00", "Thanks for the fixes.", "dev1", "10:30:00",
       {{0}}}},
     502, "10:30:00", true, "dev1", 501, 0, 0, 0},
    {"A1/A5: an outsider then the trusted login: Y is the newest edit",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:06:00", "Thanks.", TR, "10:40:00",
       {{"mallory", "10:10:00"}, {TR, "10:40:00"}}}},
     502, "10:40:00", true, "mallory", 501, 0, 0, 0},
    {"A1/A5: a null editor in edits holds, editor unknown",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:06:00", "Thanks.", NULL, "10:10:00",
       {{NULL, "10:10:00"}}}},
     502, "10:10:00", true, NULL, 501, 0, 0, 0},
    {"A1: a [bot] look-alike editor holds",
     {{501, TR, "10:05:00", NHB("no", H, "main"), "lfx-reviewer[bot]",
       "10:07:00", {{0}}}},
     501, "10:07:00", true, "lfx-reviewer[bot]", 0, 501, 0, 0},
    {"an edit by the trusted login only: no hold",
     {{501, TR, "10:05:00", NHB("no", H, "main"), TR, "10:07:00",
       {{TR, "10:07:00"}}}},
     0, NULL, false, NULL, 501, 0, 0, 0},
    {"an outsider's comment edited by another outsider: no hold",
     {{501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, "dev1", "10:06:00", "lgtm", "mallory", "10:30:00", {{0}}}},
     0, NULL, false, NULL, 501, 0, 0, 0},
    {"A1: a yes after a tampering edit: the later one sets Y",
     {{501, TR, "10:05:00", NHB("no", H, "main"), "dev1", "10:10:00",
       {{0}}},
      {502, TR, "10:20:00", NHB("yes", H2, "main"), NULL, NULL, {{0}}}},
     502, "10:20:00", false, NULL, 0, 501, 0, 0},
    {"A1: a tampering edit after a yes: the edit sets Y",
     {{501, TR, "10:05:00", NHB("yes", H2, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:06:00", NHB("no", H, "main"), "dev1", "10:20:00",
       {{0}}}},
     502, "10:20:00", true, "dev1", 0, 502, 0, 0},
    {"A2/A3: fenced markers naming H are a near-miss, not a verdict",
     {{501, TR, "10:05:00", QUOTED_NO, NULL, NULL, {{0}}}},
     0, NULL, false, NULL, 0, 0, 501, 3},
    {"A2: a verdict not on the first line is a near-miss",
     {{501, TR, "10:05:00", "Hello\n" NHB("no", H, "main"), NULL, NULL,
       {{0}}}},
     0, NULL, false, NULL, 0, 0, 501, 2},
    {"A2: a near-miss naming another head is not reported",
     {{501, TR, "10:05:00", "Hello\n" NHB("no", H2, "main"), NULL, NULL,
       {{0}}}},
     0, NULL, false, NULL, 0, 0, 0, 0},
    {"A2: the newest near-miss is reported, a verdict still decides",
     {{500, TR, "10:01:00", "Hello\n" NHB("no", H, "main"), NULL, NULL,
       {{0}}},
      {501, TR, "10:05:00", NHB("no", H, "main"), NULL, NULL, {{0}}},
      {502, TR, "10:06:00", QUOTED_NO, NULL, NULL, {{0}}}},
     0, NULL, false, NULL, 501, 0, 502, 3},
};

static void hold_pull(struct snap_pull *p, const struct hold_row *r)
{
	size_t i, n;

	memset(p, 0, sizeof(*p));
	p->number = 7;
	memcpy(p->head_sha, H, SHA_BUF);
	for (n = 0; n < ARRAY_SIZE(r->cm) && r->cm[n].id; n++)
		;
	p->comments = xcalloc(n ? n : 1, sizeof(*p->comments));
	for (i = 0; i < n; i++) {
		const struct hold_cm *s = &r->cm[i];
		struct snap_comment *x = &p->comments[p->ncomments++];

		x->id = s->id;
		x->author = xstrdup_or_null(s->author);
		x->created_at = tm(s->at);
		x->body = xstrdup(s->body);
		x->body_len = strlen(x->body);
		comment_with_history(x, s->edited_by, s->edited_at, s->edits,
		                     ARRAY_SIZE(s->edits));
	}
}

static void test_verdict__lookup_hold_table(void **state)
{
	size_t i;
	int bad = 0;
	struct policy pol;

	(void)state;
	policy_init(&pol);
	for (i = 0; i < ARRAY_SIZE(hold_rows); i++) {
		const struct hold_row *r = &hold_rows[i];
		struct snap_pull p;
		struct nh_lookup lk;
		int64_t want_at = r->hold_at ? tm(r->hold_at) : 0;

		hold_pull(&p, r);
		verdict_lookup(&lk, &p, H, &pol);
#define HCHK(what, got, want)                                                  \
	if ((long long)(got) != (long long)(want)) {                           \
		print_error("row %zu (%s): %s %lld, expected %lld\n", i,       \
		            r->name, what, (long long)(got),                   \
		            (long long)(want));                                \
		bad++;                                                         \
	}
		HCHK("hold", lk.hold ? lk.hold->id : 0, r->hold)
		HCHK("hold_at", lk.hold_at, want_at)
		HCHK("hold_edited", lk.hold_edited, r->hold_edited)
		HCHK("comment", lk.comment ? lk.comment->id : 0, r->comment)
		HCHK("tampered", lk.tampered ? lk.tampered->id : 0, r->tampered)
		HCHK("quoted", lk.quoted ? lk.quoted->id : 0, r->quoted)
		if (r->quoted)
			HCHK("quoted_line", lk.quoted_line, r->quoted_line)
#undef HCHK
		if (r->hold_edited &&
		    (r->hold_editor ? !lk.hold_editor ||
		                          strcmp(lk.hold_editor, r->hold_editor)
		                    : lk.hold_editor != NULL)) {
			print_error("row %zu (%s): hold editor %s\n", i,
			            r->name,
			            lk.hold_editor ? lk.hold_editor : "NULL");
			bad++;
		}
		snap_pull_release(&p);
	}
	policy_release(&pol);
	assert_int_equal(bad, 0);
}

/* --- A10: the machine's own labeled event is a hold --- */

struct a10_row {
	const char *name;
	const char *actor;
	const char *label;
	bool labeled;        /* "labeled" (else "unlabeled") */
	const char *at;
	const char *app_bot; /* config app_bot, or NULL */
	bool held;
};

static const struct a10_row a10_rows[] = {
    {"trusted login labels", TR, "needs-human", true, "10:00:00", NULL, true},
    {"login and label compare without case", "LFX-Reviewer", "Needs-Human",
     true, "10:00:00", NULL, true},
    {"the App's bot labels", "agentic[bot]", "needs-human", true,
     "10:00:00", "agentic[bot]", true},
    {"a bot that is not configured", "agentic[bot]", "needs-human", true,
     "10:00:00", NULL, false},
    {"a writer labels: no hold", "carol", "needs-human", true, "10:00:00",
     NULL, false},
    {"the [bot] look-alike of the trusted login", TR "[bot]", "needs-human",
     true, "10:00:00", NULL, false},
    {"another label", TR, "bug", true, "10:00:00", NULL, false},
    {"an unlabel is no hold", TR, "needs-human", false, "10:00:00", NULL,
     false},
    {"no actor", NULL, "needs-human", true, "10:00:00", NULL, false},
};

static void test_verdict__a10_labeled_event_holds(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(a10_rows); i++) {
		const struct a10_row *r = &a10_rows[i];
		struct snap_pull p;
		struct nh_lookup lk;
		struct policy pol;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		policy_init(&pol);
		if (r->app_bot)
			assert_int_equal(policy_set(&pol, "app_bot", r->app_bot,
						    &err),
					 0);
		memset(&p, 0, sizeof(p));
		p.timeline = xcalloc(1, sizeof(*p.timeline));
		p.ntimeline = 1;
		p.timeline[0].id = 9000;
		p.timeline[0].kind = r->labeled ? TL_LABELED : TL_UNLABELED;
		p.timeline[0].event = xstrdup(r->labeled ? "labeled"
							 : "unlabeled");
		p.timeline[0].label = xstrdup(r->label);
		p.timeline[0].actor = xstrdup_or_null(r->actor);
		p.timeline[0].created_at = tm(r->at);
		verdict_lookup(&lk, &p, H, &pol);
		if (lk.held != r->held)
			fail_msg("row %zu (%s): held %d", i, r->name, lk.held);
		if (r->held) {
			assert_ptr_equal(lk.hold_event, &p.timeline[0]);
			assert_null(lk.hold);
			assert_int_equal(lk.hold_at, tm(r->at));
		}
		snap_pull_release(&p);
		policy_release(&pol);
		buf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdict__a10_labeled_event_holds),
	    cmocka_unit_test(test_verdict__trust_table),
	    cmocka_unit_test(test_verdict__edit_history_table),
	    cmocka_unit_test(test_verdict__history_and_approvals),
	    cmocka_unit_test(test_verdict__judge_table),
	    cmocka_unit_test(test_verdict__judge_follows_ai_reviewers),
	    cmocka_unit_test(
	        test_verdict__lookup_picks_trusted_newest_for_head),
	    cmocka_unit_test(test_verdict__lookup_retarget),
	    cmocka_unit_test(test_verdict__lookup_near_miss_is_newest),
	    cmocka_unit_test(test_verdict__names_head),
	    cmocka_unit_test(test_verdict__lookup_hold_table),
	};

	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
