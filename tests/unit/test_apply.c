/*
 * test_apply.c - BEHAVIOR §3 and §7 as pure decisions (core/apply.h,
 * core/select.h): which comment is a verdict, which verdict is refused and
 * why, which reads each decision asks for and in what order, what the
 * label and the clean status become; which PRs a sweep selects.
 *
 * The scenarios of a whole run live in fixtures/; these tables pin the
 * decisions one input at a time, including the reads a decision must ask
 * for before it may decide (a decision that skipped one would approve or
 * refuse on what it never saw).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/apply.h"
#include "core/select.h"

#define H   "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H2  "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define TR  "lfx-reviewer"
#define CTX "agentic-review/clean"

#define NH(v, h) "<!-- agentic:needs-human v1 -->\n<!-- needs-human: " v \
	" -->\n<!-- head: " h " -->\n<!-- base: main -->\n### Verdict\n"
#define CK(h, round, rest) "### Check\n<details>\n<!-- agentic:check v1 -->\n" \
	"head: " h "\nround: " round "\n" rest "</details>\n"
/* The model's strings are not const; these tests never write them. */
#define MUT(s) ((char *)(uintptr_t)(s))
#define ROW_OK "- id: PRRT_1, status: fixed, severity: high, reason: r\n"

static struct policy pol;

static int setup(void **state)
{
	(void)state;
	policy_init(&pol);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	policy_release(&pol);
	return 0;
}

static void comment(struct snap_comment *c, const char *author,
		    const char *edited_by, const char *body)
{
	memset(c, 0, sizeof(*c));
	c->id = 501;
	c->author = MUT(author);
	c->edited_by = MUT(edited_by);
	c->edited = edited_by != NULL;
	c->body = MUT(body);
	c->body_len = strlen(body);
}

/* Did any line the decision said contain `want` (reason or note)? */
static bool said(const struct apply_say *v, size_t n, const char *want)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i].reason && strstr(v[i].reason, want)) ||
		    (v[i].note && strstr(v[i].note, want)))
			return true;
	return false;
}

/* --- the comment alone --- */

static const struct classify_row {
	const char *name, *author, *edited_by;
	bool reread;
	const char *body;
	enum apply_outcome outcome;
	const char *needs_human;
	bool label, check;
	const char *says;
} classify_rows[] = {
	{"T1: another author", "mallory", NULL, false, NH("no", H),
	 APPLY_SKIPPED, NULL, false, false, "is by mallory, not the trusted"},
	{"T1: a deleted account", NULL, NULL, false, NH("no", H),
	 APPLY_SKIPPED, NULL, false, false, "is by a deleted account"},
	{"no marker", TR, NULL, false, "looks good to me\n", APPLY_SKIPPED,
	 NULL, false, false, "has no verdict marker"},
	{"A3: check marker in a fence", TR, NULL, false,
	 "```\n" CK(H, "9", "clean: true\n") "```\n", APPLY_SKIPPED, NULL,
	 false, false, "inside a code fence"},
	{"a no verdict", TR, NULL, false, NH("no", H), APPLY_APPLIED, "no",
	 false, false, NULL},
	{"a yes verdict fires the label", TR, NULL, false, NH("yes", H),
	 APPLY_APPLIED, "yes", true, false, NULL},
	{"a check block", TR, NULL, false, CK(H, "9", "clean: true\n"),
	 APPLY_APPLIED, NULL, false, true, NULL},
	{"T2 does not apply to a payload", TR, "mallory", false, NH("no", H),
	 APPLY_APPLIED, "no", false, false, NULL},
	{"T2: edited by another account", TR, "mallory", true, NH("yes", H),
	 APPLY_REFUSED, "yes", false, false, "T2: comment 501 was edited by "
					     "mallory"},
	{"T2: an edit by the trusted login", TR, TR, true, NH("no", H),
	 APPLY_APPLIED, "no", false, false, NULL},
};

static void test_apply__classify_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(classify_rows); i++) {
		const struct classify_row *r = &classify_rows[i];
		struct snap_comment c;
		struct apply_decision d;
		struct apply_input in;

		comment(&c, r->author, r->edited_by, r->body);
		in.policy = &pol;
		in.pr = 7;
		in.comment = &c;
		in.reread = r->reread;
		apply_classify(&d, &in);
		if (d.outcome != r->outcome || d.label != r->label ||
		    d.check != r->check ||
		    (r->needs_human == NULL) != (d.needs_human == NULL) ||
		    (r->needs_human && strcmp(r->needs_human, d.needs_human)) ||
		    (r->says && !said(d.say, d.nsay, r->says)))
			fail_msg("row %zu (%s): outcome %d label %d check %d "
				 "needs_human %s, first said: %s",
				 i, r->name, (int)d.outcome, d.label, d.check,
				 d.needs_human ? d.needs_human : "(none)",
				 d.nsay && d.say[0].reason ? d.say[0].reason
							   : "(nothing)");
		apply_decision_release(&d);
	}
}

/* --- §3.1: the label --- */

static void test_apply__label_table(void **state)
{
	char *with[] = {MUT("bug"), MUT("Needs-Human")}, *without[] = {MUT("bug")};
	struct snap_pull on, off;
	struct apply_label_input in;

	(void)state;
	memset(&on, 0, sizeof(on));
	memset(&off, 0, sizeof(off));
	on.labels = with;
	on.nlabels = 2;
	off.labels = without;
	off.nlabels = 1;
	memset(&in, 0, sizeof(in));
	in.policy = &pol;
	/* The labels could not be read: add anyway, never fewer labels. */
	assert_int_equal(apply_label_decide(&in), LABEL_ADD);
	in.pull = &on; /* present in another case (§3.1) */
	assert_int_equal(apply_label_decide(&in), LABEL_PRESENT);
	in.pull = &off; /* absent: ask whether the repository has it */
	assert_int_equal(apply_label_decide(&in), LABEL_READ_EXISTS);
	in.exists_known = true;
	in.exists = true;
	assert_int_equal(apply_label_decide(&in), LABEL_ADD);
	in.exists = false;
	assert_int_equal(apply_label_decide(&in), LABEL_CREATE_ADD);
}

/* --- §3.3: the check block --- */

/* The world a check row runs against: what each read returns. */
struct world {
	const char *pull_head;   /* the PR's head */
	bool threads_ok;         /* its threads could be read */
	bool head_in_pull;       /* the named head is one of its commits */
	int64_t round;           /* newest trusted round stamp on the head (0: none) */
	int64_t old_round;       /* an older round in the history (0: none) */
	const char *clean_state; /* the clean status already there, or NULL */
	bool clean_true;         /* …its description says clean=true */
};

static const struct check_row {
	const char *name;
	const char *body;
	struct world w;
	const char *reads; /* the reads asked for, in order: P C S H */
	enum apply_check_next final;
	bool quiet, clean;
	const char *says;
} check_rows[] = {
	{"clean on the head, round holds", CK(H, "9", "clean: true\n" ROW_OK),
	 {H, true, true, 9, 0, NULL, false}, "PS", CHECK_WRITE, false, true,
	 NULL},
	{"R1 before any read: no head", CK("nothead", "9", "clean: true\n"),
	 {H, true, true, 9, 0, NULL, false}, "", CHECK_REFUSED, false, false,
	 "R1: no valid head"},
	{"R3 before any read: no round", CK(H, "x", "clean: true\n"),
	 {H, true, true, 9, 0, NULL, false}, "", CHECK_REFUSED, false, false,
	 "R3: no valid round"},
	{"R2: an older head of the PR is read for", CK(H2, "9", "clean: true\n"),
	 {H, true, true, 9, 0, NULL, false}, "PCS", CHECK_WRITE, false, true,
	 NULL},
	{"R2: a head that is no commit of the PR", CK(H2, "9", "clean: true\n"),
	 {H, true, false, 9, 0, NULL, false}, "PC", CHECK_REFUSED, false,
	 false, "R2: head " H2 " is not a commit of PR #7"},
	{"R4: no round stamp", CK(H, "9", "clean: true\n"),
	 {H, true, true, 0, 0, NULL, false}, "PS", CHECK_REFUSED, false, false,
	 "R4: no trusted round stamp"},
	{"R4: a round newer than the newest", CK(H, "12", "clean: true\n"),
	 {H, true, true, 9, 0, NULL, false}, "PS", CHECK_REFUSED, false, false,
	 "(the newest is 9)"},
	{"A9: an older round of the PR is superseded, quietly",
	 CK(H, "5", "clean: true\n"), {H, true, true, 9, 5, NULL, false},
	 "PSH", CHECK_REFUSED, true, false, "round 5 was superseded by round 9"},
	{"R4: an older round that never was", CK(H, "4", "clean: true\n"),
	 {H, true, true, 9, 5, NULL, false}, "PSH", CHECK_REFUSED, false,
	 false, "round 4 is not a review round"},
	{"the threads could not be read", CK(H, "9", "clean: true\n"),
	 {H, false, true, 9, 0, NULL, false}, "PS", CHECK_UNREAD, false, false,
	 NULL},
	{"no clean: line is clean: false", CK(H, "9", ""),
	 {H, true, true, 9, 0, NULL, false}, "PS", CHECK_WRITE, false, false,
	 "no clean: line"},
	{"an invalid row overrules clean: true",
	 CK(H, "9", "clean: true\n- id: PRRT_1, status: maybe\n"),
	 {H, true, true, 9, 0, NULL, false}, "PS", CHECK_WRITE, false, false,
	 "the verdict says clean: true, but 1 invalid"},
	{"the status already says so", CK(H, "9", "clean: true\n" ROW_OK),
	 {H, true, true, 9, 0, "success", true}, "PS", CHECK_UNCHANGED, false,
	 true, "is already success"},
	{"the status says otherwise", CK(H, "9", "clean: true\n" ROW_OK),
	 {H, true, true, 9, 0, "failure", false}, "PS", CHECK_WRITE, false,
	 true, NULL},
};

static void status(struct snap_status *st, int64_t id, const char *state,
		   const char *desc)
{
	memset(st, 0, sizeof(*st));
	st->id = id;
	st->state = MUT(state);
	st->context = MUT(CTX);
	st->description = MUT(desc);
	st->creator = MUT(TR);
	st->created_at = id * 1000;
}

static void test_apply__check_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(check_rows); i++) {
		const struct check_row *r = &check_rows[i];
		struct snap_status now[2], all[3];
		struct snap_statuses st = {H, now, 0, 0}, history = {H, all, 0, 0};
		struct snap_thread thread = {MUT("PRRT_1"), NULL,
					     MUT("copilot-pull-request-reviewer"),
					     2, false};
		struct snap_pull pull;
		struct snap_comment c;
		struct marker_result m;
		struct apply_check_input in;
		struct apply_check out;
		char reads[8] = "";
		size_t nreads = 0;

		if (r->w.round)
			status(&now[st.n++], r->w.round, "pending",
			       "conductor pr=#7: awaiting review round");
		if (r->w.clean_state)
			status(&now[st.n++], 20, r->w.clean_state,
			       r->w.clean_true ? "conductor pr=#7: clean=true"
					       : "conductor pr=#7: clean=false");
		memcpy(all, now, sizeof(now));
		history.n = st.n;
		if (r->w.old_round)
			status(&all[history.n++], r->w.old_round, "pending",
			       "conductor pr=#7: awaiting review round");
		memset(&pull, 0, sizeof(pull));
		pull.number = 7;
		memcpy(pull.head_sha, r->w.pull_head, SHA_BUF);
		pull.threads = &thread;
		pull.nthreads = 1;
		comment(&c, TR, NULL, r->body);
		marker_parse(&m, c.body, c.body_len);
		memset(&in, 0, sizeof(in));
		in.policy = &pol;
		in.pr = 7;
		in.comment = &c;
		in.marker = &m;
		apply_check_init(&out);
		for (;;) {
			apply_check_decide(&out, &in);
			if (out.next == CHECK_READ_PULL) {
				reads[nreads++] = 'P';
				in.pull = &pull;
				in.threads_ok = r->w.threads_ok;
			} else if (out.next == CHECK_READ_COMMITS) {
				reads[nreads++] = 'C';
				in.head_in_pull = r->w.head_in_pull ? TRI_YES
								    : TRI_NO;
			} else if (out.next == CHECK_READ_STATUSES) {
				reads[nreads++] = 'S';
				in.statuses = &st;
			} else if (out.next == CHECK_READ_HISTORY) {
				reads[nreads++] = 'H';
				in.history = &history;
			} else {
				break;
			}
			if (nreads == sizeof(reads) - 1)
				fail_msg("row %zu (%s): asks again and again",
					 i, r->name);
		}
		if (strcmp(reads, r->reads) != 0 || out.next != r->final ||
		    out.quiet != r->quiet ||
		    ((r->final == CHECK_WRITE || r->final == CHECK_UNCHANGED) &&
		     out.clean != r->clean) ||
		    (r->says && !said(out.say, out.nsay, r->says)))
			fail_msg("row %zu (%s): reads '%s' (want '%s'), next %d "
				 "(want %d), quiet %d, clean %d, first said: %s",
				 i, r->name, reads, r->reads, (int)out.next,
				 (int)r->final, out.quiet, out.clean,
				 out.nsay && out.say[0].reason
					 ? out.say[0].reason
				 : out.nsay && out.say[0].note
					 ? out.say[0].note
					 : "(nothing)");
		apply_check_release(&out);
	}
}

/* --- §7: selection --- */

static void test_apply__select_table(void **state)
{
	struct snap_status ours, theirs, other;
	struct snap_statuses ctx = {H, &ours, 1, 0}, ctx_other = {H, &other, 1, 0},
			     ctx_theirs = {H, &theirs, 1, 0}, none = {H, NULL, 0, 0};
	char *approver_tr[] = {MUT("LFX-Reviewer")}, *approver_x[] = {MUT("octocat")};
	struct snap_review rv = {71, MUT(TR), MUT("APPROVED"), H, 0, NULL};
	struct snap_pull reviewed, unreviewed;
	struct select_input in;

	(void)state;
	status(&ours, 1, "success", "conductor pr=#7: clean=true");
	status(&theirs, 2, "success", "conductor pr=#7: clean=true");
	theirs.creator = MUT("mallory");
	status(&other, 3, "success", "build ok");
	other.context = MUT("ci/build");
	memset(&reviewed, 0, sizeof(reviewed));
	reviewed.reviews = &rv;
	reviewed.nreviews = 1;
	memset(&unreviewed, 0, sizeof(unreviewed));
	memset(&in, 0, sizeof(in));
	in.policy = &pol;
	in.pr = 7;

	/* The listing's trusted clean status of this PR: no read at all. */
	in.contexts = &ctx;
	assert_int_equal(select_decide(&in), SELECT_EVALUATE);
	/* Only another context, approvers known: decided from the listing. */
	in.contexts = &ctx_other;
	in.approvers_known = true;
	in.approvers = approver_x;
	in.napprovers = 1;
	assert_int_equal(select_decide(&in), SELECT_SKIP);
	in.approvers = approver_tr; /* a trusted approval to re-judge */
	assert_int_equal(select_decide(&in), SELECT_EVALUATE);
	/* A forged newest clean status may hide an older trusted one. */
	in.contexts = &ctx_theirs;
	in.approvers = approver_x;
	assert_int_equal(select_decide(&in), SELECT_READ_STATUSES);
	in.statuses = &ctx;
	assert_int_equal(select_decide(&in), SELECT_EVALUATE);
	in.statuses = &none;
	assert_int_equal(select_decide(&in), SELECT_SKIP);
	/* Nothing known from the listing: statuses, then reviews. */
	in.contexts = NULL;
	in.statuses = NULL;
	in.approvers_known = false;
	assert_int_equal(select_decide(&in), SELECT_READ_STATUSES);
	in.statuses = &none;
	assert_int_equal(select_decide(&in), SELECT_READ_REVIEWS);
	in.reviews = &unreviewed;
	assert_int_equal(select_decide(&in), SELECT_SKIP);
	in.reviews = &reviewed;
	assert_int_equal(select_decide(&in), SELECT_EVALUATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply__classify_table),
		cmocka_unit_test(test_apply__label_table),
		cmocka_unit_test(test_apply__check_table),
		cmocka_unit_test(test_apply__select_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
