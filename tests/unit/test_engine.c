/*
 * test_engine.c - the steps of a run (BEHAVIOR §3, §5–§7, §10, T4, and
 * the amendments A1-A4, A9) over the in-memory GitHub port, on snapshots
 * written in the test.
 *
 * Snapshot literals use single quotes (sq() makes them JSON). What a run
 * wrote is read twice: from the report's writes and from the snapshot the
 * port mutated, so "nothing written" is proved on both sides.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "run/engine.h"
#include "formats/event.h"
#include "port/github.h"
#include "core/marker.h"
#include "core/policy.h"
#include "formats/report.h"
#include "formats/snapshot.h"

#define H       "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H2      "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define H3      "3333333333333333333333333333333333333333"
#define TR      "lfx-reviewer"
#define TS(hms) "2026-11-29T" hms "Z"

/* Bodies, with the line separator as a parameter: "\n" for C strings
 * handed to engine_apply, "\\n" inside JSON literals. */
#define NHBODY(NL, v, h, b)                                                    \
	"<!-- agentic:needs-human v1 -->" NL "<!-- needs-human: " v " -->" NL  \
	"<!-- head: " h " -->" NL "<!-- base: " b " -->" NL "### Verdict"
#define CKBODY(NL, h, round, rest)                                             \
	"### Check" NL "<details>" NL "<!-- agentic:check v1 -->" NL           \
	"head: " h NL "round: " round NL rest "</details>"
#define CKROW(NL, id, st, sev)                                                 \
	"- id: " id ", status: " st ", severity: " sev ", reason: r" NL

#define JNO NHBODY("\\n", "no", H, "main")
#define COMMENT_NO                                                             \
	"{'id': 501, 'author': 'lfx-reviewer', 'created_at': '" TS(            \
	    "10:05:00") "', 'body': '" JNO "'}"

#define ROUND_ST(id, sha_pr, at)                                               \
	"{'id': " #id ", 'state': 'pending', 'context': "                      \
	"'agentic-review/clean', 'description': 'conductor pr=#" sha_pr        \
	": awaiting review round', 'creator': 'lfx-reviewer', "                \
	"'created_at': '" TS(at) "'}"
#define CLEAN_ST(id, state, at)                                                \
	"{'id': " #id ", 'state': '" state "', 'context': "                    \
	"'agentic-review/clean', 'description': 'conductor pr=#7: clean=x',"   \
	" 'creator': 'lfx-reviewer', 'created_at': '" TS(at) "'}"
#define ST_ROUND "'" H "': [" ROUND_ST(1001, "7", "10:00:00") "]"
#define ST_OK                                                                  \
	"'" H "': [" ROUND_ST(1001, "7", "10:00:00") ", " CLEAN_ST(            \
	    1002, "success", "10:20:00") "]"
#define ST_FAIL                                                                \
	"'" H "': [" ROUND_ST(1001, "7", "10:00:00") ", " CLEAN_ST(            \
	    1002, "failure", "10:20:00") "]"

#define REVIEW(id, author, state, commit)                                      \
	"{'id': " #id ", 'author': '" author "', 'state': '" state             \
	"', 'commit_id': '" commit "'}"

/* PR 7 on head H, base main, one answered AI thread. */
#define PULL7(extra)                                                           \
	"{'number': 7, 'head': {'sha': '" H "', 'ref': 'feature', "            \
	"'repository': 'lf/svc'}, 'base': {'ref': 'main'}, 'commits': ['" H2   \
	"', '" H "'], 'threads': [{'id': 'PRRT_1', 'author': "                 \
	"'copilot-pull-request-reviewer', 'comments': 2}]" extra "}"
#define SNAP(top, pulls, statuses)                                             \
	"{'snapshot': 1, 'repository': 'lf/svc', " top " 'event': {'name': "   \
	"'workflow_dispatch', 'payload': {'inputs': {'pr': '7'}}}, "           \
	"'pulls': [" pulls "], 'statuses': {" statuses "}}"

/* The approvable PR: clean, no label, threads answered, verdict no. */
#define APPROVABLE(top, extra)                                                 \
	SNAP(top, PULL7(", 'comments': [" COMMENT_NO "]" extra), ST_OK)

/* --- the fixture --- */

struct fx {
	struct snapshot snap;
	struct policy pol;
	struct github *gh;
	struct report rep;
	struct engine e;
};

static char *sq(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '\'')
			*p = '"';
	return d;
}

static void fx_open(struct fx *f, const char *literal, bool dry_run)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *text = sq(literal);

	if (snapshot_from_json(&f->snap, text, strlen(text), &err) != 0)
		fail_msg("bad test snapshot: %s\n%s", err.ptr, text);
	free(text);
	policy_init(&f->pol);
	if (snapshot_apply_config(&f->snap, &f->pol, &err) != 0)
		fail_msg("bad config: %s", err.ptr);
	report_init(&f->rep, f->snap.event_name, dry_run);
	f->gh = github_world_new(&f->snap, &f->pol);
	if (dry_run)
		f->gh = github_dryrun_new(f->gh);
	engine_init(&f->e, f->gh, &f->pol, f->snap.repository, &f->rep);
	buf_release(&err);
}

static void fx_close(struct fx *f)
{
	engine_release(&f->e);
	github_free(f->gh);
	report_release(&f->rep);
	policy_release(&f->pol);
	snapshot_release(&f->snap);
}

static size_t writes_of(const struct fx *f, enum write_kind k)
{
	size_t i, n = 0;

	for (i = 0; i < f->rep.nwrites; i++)
		n += f->rep.writes[i].kind == k;
	return n;
}

static struct snap_pull *pull(struct fx *f, int64_t n)
{
	struct snap_pull *p = snapshot_pull(&f->snap, n);

	assert_non_null(p);
	return p;
}

static size_t approvals_in_world(struct fx *f, int64_t n)
{
	struct snap_pull *p = pull(f, n);
	size_t i, c = 0;

	for (i = 0; i < p->nreviews; i++)
		c += strcmp(p->reviews[i].state, "APPROVED") == 0;
	return c;
}

static size_t statuses_in_world(struct fx *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->snap.nstatuses; i++)
		n += f->snap.statuses[i].n;
	return n;
}

static const struct report_step *step(const struct fx *f, size_t i)
{
	if (i >= f->rep.nsteps)
		fail_msg("no step %zu (have %zu)", i, f->rep.nsteps);
	return &f->rep.steps[i];
}

static bool step_has_reason(const struct report_step *s, const char *needle)
{
	size_t i;

	for (i = 0; i < s->nreasons; i++)
		if (strstr(s->reasons[i], needle))
			return true;
	return false;
}

static void comment_init(struct snap_comment *c, int64_t id, const char *author,
                         const char *body)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->author = xstrdup_or_null(author);
	c->body = xstrdup(body);
	c->body_len = strlen(body);
	c->html_url = xstrdup("https://github.com/lf/svc/pull/7#c");
	assert_int_equal(time_parse(&c->created_at, TS("10:30:00")), 0);
}

/* --- approve (§6.1) --- */

static void test_engine__approve_writes_exactly_one_approval(void **state)
{
	struct fx f;
	const struct report_step *s;
	struct snap_pull *p;
	int c;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nsteps, 1);
	s = step(&f, 0);
	assert_int_equal(s->kind, STEP_GATE);
	assert_string_equal(step_outcome_names[s->outcome], "approve");
	assert_string_equal(s->head, H);
	assert_true(s->has_conditions);
	for (c = 0; c < COND_COUNT; c++)
		assert_true(s->cond[c]);
	assert_int_equal(s->nreasons, 0);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_APPROVE);
	assert_int_equal(f.rep.writes[0].pr, 7);
	assert_string_equal(f.rep.writes[0].commit_id, H);
	/* the world has the approval, by the trusted login, on H */
	p = pull(&f, 7);
	assert_int_equal(p->nreviews, 1);
	assert_string_equal(p->reviews[0].state, "APPROVED");
	assert_string_equal(p->reviews[0].author, TR);
	assert_string_equal(p->reviews[0].commit_id, H);
	assert_int_equal(f.e.identity, ID_TRUSTED);
	fx_close(&f);
}

static void test_engine__existing_approval_no_write(void **state)
{
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    APPROVABLE("", ", 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	    false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(pull(&f, 7)->nreviews, 1);
	fx_close(&f);
}

static void test_engine__existing_approval_needs_no_identity(void **state)
{
	/* nothing is written, so a foreign token does not matter */
	struct fx f;

	(void)state;
	fx_open(&f,
	        APPROVABLE("'viewer': 'mallory',",
	                   ", 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__approval_of_old_commit_is_not_reused(void **state)
{
	/* an approval on another commit does not count for H; the approve
	 * path writes only the new approval (N12) */
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    APPROVABLE("", ", 'reviews': [" REVIEW(71, TR, "APPROVED", H2) "]"),
	    false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_APPROVE);
	assert_string_equal(f.rep.writes[0].commit_id, H);
	assert_int_equal(approvals_in_world(&f, 7), 2);
	fx_close(&f);
}

static void test_engine__approval_by_someone_else_does_not_count(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        APPROVABLE("", ", 'reviews': [" REVIEW(
	                           71, "alice", "APPROVED",
	                           H) ", " REVIEW(72, "lfx-reviewer[bot]",
	                                          "APPROVED", H) "]"),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(writes_of(&f, W_APPROVE), 1);
	assert_int_equal(writes_of(&f, W_DISMISS), 0);
	fx_close(&f);
}

/* --- withhold and dismiss (§6.2, N11) --- */

static void test_engine__withhold_dismisses_trusted_in_id_order(void **state)
{
	struct fx f;
	struct snap_pull *p;
	size_t i;

	(void)state;
	fx_open(
	    &f,
	    SNAP(
	        "",
	        PULL7(", 'comments': [" COMMENT_NO "], 'reviews': [" REVIEW(80, TR, "APPROVED", H2) ", " REVIEW(
	            75, TR, "APPROVED",
	            H) ", " REVIEW(77, "alice", "APPROVED",
	                           H) ", " REVIEW(78, TR, "COMMENTED",
	                                          H) ", " REVIEW(79,
	                                                         "lfx-reviewer["
	                                                         "bot]",
	                                                         "APPROVED",
	                                                         H) ", " REVIEW(81,
	                                                                        "LFX-Reviewer",
	                                                                        "APPROVED",
	                                                                        H) ", " REVIEW(76,
	                                                                                       TR,
	                                                                                       "CHANGES_REQUESTED",
	                                                                                       H) ", " REVIEW(74,
	                                                                                                      TR,
	                                                                                                      "DISMISSED",
	                                                                                                      H) "]"),
	        ST_FAIL),
	    false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_false(step(&f, 0)->cond[COND_CLEAN]);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(f.rep.nwrites, 3);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(f.rep.writes[0].review_id, 75);
	assert_int_equal(f.rep.writes[1].review_id, 80);
	assert_int_equal(f.rep.writes[2].review_id, 81);
	assert_int_equal(writes_of(&f, W_APPROVE), 0);
	p = pull(&f, 7);
	for (i = 0; i < p->nreviews; i++) {
		const struct snap_review *r = &p->reviews[i];
		const char *want;

		switch (r->id) {
		case 75:
		case 80:
		case 81:
		case 74:
			want = "DISMISSED";
			break;
		case 77:
		case 79:
			want = "APPROVED";
			break;
		case 78:
			want = "COMMENTED";
			break;
		default:
			want = "CHANGES_REQUESTED";
			break;
		}
		if (strcmp(r->state, want) != 0)
			fail_msg("review %lld is %s, expected %s",
			         (long long)r->id, r->state, want);
	}
	fx_close(&f);
}

static void test_engine__withhold_without_approvals_writes_nothing(void **state)
{
	/* and needs no identity check: the token is someone else's */
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("'viewer': 'mallory',",
	             PULL7(", 'comments': [" COMMENT_NO "]"), ST_FAIL),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(f.e.identity, ID_UNCHECKED);
	fx_close(&f);
}

static void test_engine__draft_withheld_and_dismissed(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'draft': true, 'comments': [" COMMENT_NO
	                   "], 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	             ST_OK),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_int_equal(step(&f, 0)->draft, 1);
	assert_true(step_has_reason(step(&f, 0), "draft"));
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

static void test_engine__draft_approved_when_configured(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("'config': {'approve_drafts': true},",
	             PULL7(", 'draft': true, 'comments': [" COMMENT_NO "]"),
	             ST_OK),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(writes_of(&f, W_APPROVE), 1);
	fx_close(&f);
}

static void test_engine__dismiss_failure_attempts_all(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'reviews': [" REVIEW(71, TR, "APPROVED", H) ", " REVIEW(
	                72, TR, "APPROVED",
	                H2) "]") "], 'faults': [{'write': 'dismiss', 'status': "
	                         "502, 'times': 1}]}",
	        false);
	engine_gate(&f.e, 7);
	/* the first dismissal failed, the second was still made */
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(f.rep.writes[0].review_id, 72);
	assert_int_equal(approvals_in_world(&f, 7), 1);
	fx_close(&f);
}

static void test_engine__approve_write_fault(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'comments': [" COMMENT_NO
	            "]") "], 'statuses': {" ST_OK
	                 "}, 'faults': [{'write': 'approve', "
	                 "'status': 'timeout'}]}",
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(f.rep.nwrites,
	                 0); /* N17: a failed write is not listed */
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

/* --- skips --- */

#define GONE(x)                                                                \
	SNAP("",                                                               \
	     PULL7(", 'comments': [" COMMENT_NO                                \
	           "], 'reviews': [" REVIEW(71, TR, "APPROVED", H2) "]" x),    \
	     ST_OK)

static void test_engine__closed_merged_fork_skipped(void **state)
{
	static const char *const snaps[] = {
	    GONE(", 'state': 'closed'"),
	    GONE(", 'state': 'closed', 'merged': true"),
	    GONE(", 'merged': true"),
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(snaps); i++) {
		struct fx f;

		fx_open(&f, snaps[i], false);
		engine_gate(&f.e, 7);
		assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
		assert_false(step(&f, 0)->has_conditions);
		assert_int_equal(f.rep.nwrites, 0);
		assert_int_equal(f.rep.exit, 0);
		/* nothing to decide: the old approval is not touched */
		assert_int_equal(approvals_in_world(&f, 7), 1);
		fx_close(&f);
	}
}

static void test_engine__fork_skipped(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             "{'number': 7, 'head': {'sha': '" H "', "
	             "'repository': 'mallory/svc'}, 'base': {'ref': "
	             "'main'}, 'comments': [" COMMENT_NO "]}",
	             ST_OK),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);

	/* the same repository in another case is not a fork */
	fx_open(&f,
	        SNAP("",
	             "{'number': 7, 'head': {'sha': '" H "', "
	             "'repository': 'LF/Svc'}, 'base': {'ref': "
	             "'main'}, 'comments': [" COMMENT_NO "]}",
	             ST_OK),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	fx_close(&f);
}

static void test_engine__unknown_pr_skipped(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	engine_gate(&f.e, 99);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

/* --- read faults: never an approval --- */

struct fault_row {
	const char *fault;
	int exit;
	const char *outcome;
};

static const struct fault_row fault_rows[] = {
    {"{'read': 'pull', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'pull', 'status': 'timeout'}", EXIT_API, "error"},
    {"{'read': 'pull', 'status': 404}", EXIT_OK, "skipped"},
    {"{'read': 'labels', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'labels', 'status': 404}", EXIT_API, "error"},
    {"{'read': 'comments', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'comments', 'status': 404}", EXIT_API, "error"},
    {"{'read': 'timeline', 'status': 'timeout'}", EXIT_API, "error"},
    {"{'read': 'threads', 'status': 500}", EXIT_API, "error"},
    {"{'read': 'reviews', 'status': 503}", EXIT_API, "error"},
    {"{'read': 'statuses', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'statuses', 'sha': '" H "', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'statuses', 'pr': 7, 'status': 403}", EXIT_API, "error"},
    {"{'read': 'user', 'status': 502}", EXIT_API, "error"},
    {"{'read': 'user', 'status': 404}", EXIT_API, "error"},
    {"{'read': 'user', 'status': 'timeout'}", EXIT_API, "error"},
    /* a fault on the only call of its kind still fails closed once */
    {"{'read': 'labels', 'status': 502, 'times': 1}", EXIT_API, "error"},
};

static void test_engine__read_faults_never_approve(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fault_rows); i++) {
		struct fx f;
		char text[8192];
		int n = snprintf(
		    text, sizeof(text),
		    "{'snapshot': 1, 'repository': 'lf/svc', "
		    "'event': {'name': 'schedule'}, 'pulls': [" PULL7(
		        ", 'comments': [" COMMENT_NO
		        "]") "], 'statuses': {" ST_OK "}, 'faults': [%s]}",
		    fault_rows[i].fault);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		fx_open(&f, text, false);
		engine_gate(&f.e, 7);
		if (writes_of(&f, W_APPROVE) || approvals_in_world(&f, 7)) {
			print_error("row %zu (%s): approved\n", i,
			            fault_rows[i].fault);
			bad++;
		}
		if (f.rep.exit != fault_rows[i].exit || f.rep.nsteps != 1 ||
		    strcmp(step_outcome_names[f.rep.steps[0].outcome], fault_rows[i].outcome)) {
			print_error("row %zu (%s): exit %d outcome %s\n", i,
			            fault_rows[i].fault, f.rep.exit,
			            f.rep.nsteps ? step_outcome_names[f.rep.steps[0].outcome]
			                         : "-");
			bad++;
		}
		fx_close(&f);
	}
	assert_int_equal(bad, 0);
}

static void test_engine__faults_of_other_prs_do_not_matter(void **state)
{
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	    "'schedule'}, 'pulls': [" PULL7(
	        ", 'comments': [" COMMENT_NO
	        "]") "], 'statuses': {" ST_OK
	             "}, 'faults': [{'read': 'comments', "
	             "'pr': 8, 'status': 502}, {'read': 'statuses', 'sha': '" H2
	             "', 'status': 502}, {'read': 'commits', 'status': 502}, "
	             "{'read': 'pulls', 'status': 502}]}",
	    false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(writes_of(&f, W_APPROVE), 1);
	fx_close(&f);
}

static void test_engine__read_fault_still_dismisses(void **state)
{
	/* §5.3: a failed read withholds, and the backstop dismisses when the
	 * reviews can still be listed */
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'comments': [" COMMENT_NO "], 'reviews': [" REVIEW(
	                71, TR, "APPROVED",
	                H) "]") "], 'statuses': {" ST_OK
	                        "}, 'faults': [{'read': 'timeline', "
	                        "'status': 502}]}",
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_false(step(&f, 0)->cond[COND_ESCALATION]);
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

/* --- T4: identity --- */

static void test_engine__viewer_mismatch_stops_the_run(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("'viewer': 'mallory',", ""), false);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	assert_true(f.e.stop);
	/* the run stops: a later step is not even reported (N19) */
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nsteps, 1);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

static void test_engine__viewer_bot_account_is_not_trusted(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("'viewer': 'lfx-reviewer[bot]',", ""), false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

static void test_engine__viewer_other_case_is_trusted(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("'viewer': 'LFX-Reviewer',", ""), false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(writes_of(&f, W_APPROVE), 1);
	fx_close(&f);
}

static void test_engine__viewer_mismatch_blocks_dismissals(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("'viewer': 'mallory',",
	             PULL7(", 'comments': [" COMMENT_NO
	                   "], 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	             ST_FAIL),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(approvals_in_world(&f, 7), 1);
	fx_close(&f);
}

static void test_engine__viewer_mismatch_in_run_stops_before_gate(void **state)
{
	/* apply would add the label: T4 fails, exit 2, and the gate of the
	 * same run is not reported */
	struct fx f;
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *payload =
	    sq("{'action': 'created', 'issue': {'number': 7, "
	       "'pull_request': {}}, 'comment': {'id': 600, 'user': "
	       "{'login': 'lfx-reviewer'}, 'body': '" NHBODY("\\n", "yes", H,
	                                                     "main") "'}}");

	(void)state;
	fx_open(&f, APPROVABLE("'viewer': 'mallory',", ""), false);
	assert_int_equal(
	    event_decode(&ev, "issue_comment", payload, strlen(payload), &err),
	    0);
	engine_run(&f.e, &ev);
	assert_int_equal(f.rep.nsteps, 1);
	assert_int_equal(step(&f, 0)->kind, STEP_APPLY);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(pull(&f, 7)->nlabels, 0);
	event_release(&ev);
	free(payload);
	buf_release(&err);
	fx_close(&f);
}

static void test_engine__unreadable_user_exits_3(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'comments': [" COMMENT_NO
	            "]") "], 'statuses': {" ST_OK
	                 "}, 'faults': [{'read': 'user', "
	                 "'status': 502}]}",
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(f.rep.nwrites, 0);
	assert_true(f.e.stop);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nsteps, 1);
	fx_close(&f);
}

/* --- dry run (N18) --- */

static void test_engine__dry_run_plans_and_leaves_world_unchanged(void **state)
{
	struct fx f;
	struct buf before = BUF_INIT(BUF_MAX_DOC),
	           after = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	fx_open(&f, APPROVABLE("", ""), true);
	snapshot_to_json(&f.snap, &before);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_APPROVE);
	assert_string_equal(f.rep.writes[0].commit_id, H);
	snapshot_to_json(&f.snap, &after);
	assert_string_equal(before.ptr, after.ptr);
	assert_int_equal(pull(&f, 7)->nreviews, 0);
	buf_release(&before);
	buf_release(&after);
	fx_close(&f);
}

static void test_engine__dry_run_later_reads_see_planned_writes(void **state)
{
	/* apply plans the clean status, the gate of the same run sees it and
	 * plans the approval; the world stays as it was */
	struct fx f;
	struct snap_comment c;
	size_t nst;

	(void)state;
	fx_open(&f, SNAP("", PULL7(", 'comments': [" COMMENT_NO "]"), ST_ROUND),
	        true);
	nst = statuses_in_world(&f);
	comment_init(
	    &c, 600, TR,
	    CKBODY("\n", H, "1001",
	           "clean: true\n" CKROW("\n", "PRRT_1", "fixed", "high")));
	engine_apply(&f.e, 7, &c, false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "applied");
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 2);
	assert_int_equal(f.rep.writes[0].kind, W_STATUS);
	assert_string_equal(f.rep.writes[0].state, "success");
	assert_int_equal(f.rep.writes[1].kind, W_APPROVE);
	assert_int_equal(statuses_in_world(&f), nst);
	assert_int_equal(pull(&f, 7)->nreviews, 0);
	snap_comment_release(&c);
	fx_close(&f);
}

static void test_engine__dry_run_still_checks_identity(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("'viewer': 'mallory',", ""), true);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

static void test_engine__dry_run_dismissals_planned(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	             ST_FAIL),
	        true);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(approvals_in_world(&f, 7), 1);
	fx_close(&f);
}

/* --- apply: the check step (§3.2, §3.3) --- */

static void apply_body(struct fx *f, const char *snapshot, const char *body)
{
	struct snap_comment c;

	fx_open(f, snapshot, false);
	comment_init(&c, 600, TR, body);
	engine_apply(&f->e, 7, &c, false);
	snap_comment_release(&c);
}

#define SNAP_ROUND SNAP("", PULL7(""), ST_ROUND)

static void test_engine__check_clean_writes_success(void **state)
{
	struct fx f;
	const struct report_write *w;

	(void)state;
	apply_body(&f, SNAP_ROUND,
	           CKBODY("\n", H, "1001",
	                  "clean: true\nthreads:\n" CKROW("\n", "PRRT_1",
	                                                  "fixed", "high")));
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "applied");
	assert_int_equal(step(&f, 0)->clean, 1);
	assert_string_equal(step(&f, 0)->head, H);
	assert_int_equal(step(&f, 0)->comment, 600);
	assert_null(step(&f, 0)->needs_human);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(f.rep.nwrites, 1);
	w = &f.rep.writes[0];
	assert_int_equal(w->kind, W_STATUS);
	assert_string_equal(w->sha, H);
	assert_string_equal(w->state, "success");
	assert_string_equal(w->context, "agentic-review/clean");
	assert_string_equal(w->description, "conductor pr=#7: clean=true");
	assert_string_equal(w->target_url,
	                    "https://github.com/lf/svc/pull/7#c");
	assert_int_equal(statuses_in_world(&f), 2);
	fx_close(&f);
}

struct check_row {
	const char *name;
	const char *snapshot;
	const char *body;
	const char *outcome;
	int exit;
	size_t writes;      /* status writes */
	const char *state;  /* of the status written */
	const char *sha;    /* where it was written */
	const char *reason; /* a reason must mention it */
};

#define CK(rest)          CKBODY("\n", H, "1001", rest)
#define ROWN(id, st, sev) CKROW("\n", id, st, sev)

static const struct check_row check_rows[] = {
    {"clean: false", SNAP_ROUND,
     CK("clean: false\n" ROWN("PRRT_1", "outstanding", "high")), "applied", 0,
     1, "failure", H, NULL},
    {"missing clean: is false, still applied", SNAP_ROUND,
     CK(ROWN("PRRT_1", "fixed", "high")), "applied", 0, 1, "failure", H, NULL},
    {"clean: true with a blocking row", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "outstanding", "high")), "applied", 0, 1,
     "failure", H, NULL},
    {"clean: true with a foreign row", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_9", "fixed", "high")), "applied", 0, 1,
     "failure", H, NULL},
    {"clean: true with an invalid row", SNAP_ROUND,
     CK("clean: true\n- id: PRRT_1 , status: fixed, severity: high, "
        "reason: r\n"),
     "applied", 0, 1, "failure", H, NULL},
    {"clean: true with a blocking nit", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "outstanding", "nit")), "applied", 0, 1,
     "failure", H, NULL},
    {"R1: no head", SNAP_ROUND,
     "<!-- agentic:check v1 -->\nround: 1001\nclean: true\n", "refused",
     EXIT_REFUSED, 0, NULL, NULL, "R1"},
    {"R1: abbreviated head", SNAP_ROUND,
     "<!-- agentic:check v1 -->\nhead: 7e7e7e7\nround: 1001\nclean: true\n",
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R1"},
    {"R1: head only in the summary", SNAP_ROUND,
     "head: " H "\n<!-- agentic:check v1 -->\nround: 1001\nclean: true\n",
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R1"},
    {"R3: no round", SNAP_ROUND,
     "<!-- agentic:check v1 -->\nhead: " H "\nclean: true\n", "refused",
     EXIT_REFUSED, 0, NULL, NULL, "R3"},
    {"R3: round overflows", SNAP_ROUND,
     "<!-- agentic:check v1 -->\nhead: " H
     "\nround: 99999999999999999999\nclean: true\n",
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R3"},
    {"R2: head not in the PR", SNAP_ROUND,
     CKBODY("\n", H3, "1001", "clean: true\n"), "refused", EXIT_REFUSED, 0,
     NULL, NULL, "R2"},
    /* A9: an older trusted round of the same head and PR lost a race:
     * refused quietly, exit 0 (was EXIT_REFUSED before A9) */
    {"A9: a superseded round of this head and PR: refused, exit 0",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(1001, "7", "10:00:00") ", " ROUND_ST(
              1003, "7", "10:30:00") "]"),
     CK("clean: true\n"), "refused", EXIT_OK, 0, NULL, NULL, "superseded"},
    {"A9: an older round of PR 70 on the head stays exit 1",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(1001, "70", "10:00:00") ", " ROUND_ST(
              1003, "7", "10:30:00") "]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"A9: an older untrusted round stamp stays exit 1",
     SNAP("", PULL7(""),
          "'" H "': [{'id': 1001, 'state': 'pending', 'context': "
          "'agentic-review/clean', 'description': 'conductor pr=#7: "
          "awaiting review round', 'creator': 'dev1', 'created_at': '" TS(
              "10:00:00") "'}, " ROUND_ST(1003, "7", "10:30:00") "]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"A9: an older status that is no round stamp stays exit 1",
     SNAP("", PULL7(""),
          "'" H "': [" CLEAN_ST(1001, "failure", "10:00:00") ", " ROUND_ST(
              1003, "7", "10:30:00") "]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"A9: a round id newer than the newest round stays exit 1",
     SNAP("", PULL7(""), "'" H "': [" ROUND_ST(1001, "7", "10:00:00") "]"),
     CKBODY("\n", H, "1005", "clean: true\n"), "refused", EXIT_REFUSED, 0,
     NULL, NULL, "R4"},
    {"A9: an older round of another head is no race: exit 1",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(1003, "7", "10:30:00") "], '" H2
          "': [" ROUND_ST(1001, "7", "10:00:00") "]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"R4: no such round", SNAP_ROUND, CKBODY("\n", H, "999", "clean: true\n"),
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"R4: no round stamp at all", SNAP("", PULL7(""), ""), CK("clean: true\n"),
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"R4: untrusted round stamp",
     SNAP("", PULL7(""),
          "'" H "': [{'id': 1001, 'state': 'pending', 'context': "
          "'agentic-review/clean', 'description': 'conductor pr=#7: "
          "awaiting review round', 'creator': 'dev1', 'created_at': '" TS(
              "10:00:00") "'}]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"R4: round stamp of PR 70",
     SNAP("", PULL7(""), "'" H "': [" ROUND_ST(1001, "70", "10:00:00") "]"),
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R4"},
    {"verdict on an older commit writes there",
     SNAP("", PULL7(""), "'" H2 "': [" ROUND_ST(900, "7", "09:00:00") "]"),
     CKBODY("\n", H2, "900", "clean: true\n" ROWN("PRRT_1", "fixed", "high")),
     "applied", 0, 1, "success", H2, NULL},
    {"idempotent: the same status is not written again",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(
              1001, "7", "10:00:00") ", {'id': 1002, "
                                     "'state': 'success', 'context': "
                                     "'agentic-review/clean', "
                                     "'description': 'conductor pr=#7: "
                                     "clean=true', 'creator': "
                                     "'lfx-reviewer', 'created_at': '" TS(
                                         "10:20:00") "'}]"),
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0, 0, NULL,
     NULL, NULL},
    {"an untrusted identical status does not make it idempotent",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(1001, "7",
                                "10:00:00") ", {'id': 1002, "
                                            "'state': 'success', 'context': "
                                            "'agentic-review/clean', "
                                            "'description': 'conductor pr=#7: "
                                            "clean=true', 'creator': "
                                            "'dev1', 'created_at': '" TS(
                                                "10:20:00") "'}]"),
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0, 1,
     "success", H, NULL},
    {"same state, another description is written",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(
              1001, "7", "10:00:00") ", {'id': 1002, "
                                     "'state': 'success', 'context': "
                                     "'agentic-review/clean', "
                                     "'description': 'conductor pr=#7: "
                                     "clean=yes', 'creator': "
                                     "'lfx-reviewer', 'created_at': '" TS(
                                         "10:20:00") "'}]"),
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0, 1,
     "success", H, NULL},
    {"only the newest trusted status counts for idempotence",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(
              1001, "7",
              "10:00:00") ", {'id': 1002, "
                          "'state': 'success', 'context': "
                          "'agentic-review/clean', "
                          "'description': 'conductor pr=#7: clean=true', "
                          "'creator': "
                          "'lfx-reviewer', 'created_at': '" TS(
                              "10:20:00") "'}, {'id': "
                                          "1003, 'state': 'failure', "
                                          "'context': 'agentic-review/clean', "
                                          "'description': 'conductor pr=#7: "
                                          "clean=false', 'creator': "
                                          "'lfx-reviewer', 'created_at': '" TS(
                                              "10:10:00") "'}]"),
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0, 1,
     "success", H, NULL},
    {"a different state is written",
     SNAP("", PULL7(""),
          "'" H "': [" ROUND_ST(
              1001, "7", "10:00:00") ", {'id': 1002, "
                                     "'state': 'success', 'context': "
                                     "'agentic-review/clean', "
                                     "'description': 'conductor pr=#7: "
                                     "clean=true', 'creator': "
                                     "'lfx-reviewer', 'created_at': '" TS(
                                         "10:20:00") "'}]"),
     CK("clean: false\n" ROWN("PRRT_1", "outstanding", "high")), "applied", 0,
     1, "failure", H, NULL},
    {"no verdict marker: skipped", SNAP_ROUND, "just a comment\nhead: " H,
     "skipped", 0, 0, NULL, NULL, NULL},
    {"PR not found", SNAP("", "", ""), CK("clean: true\n"), "skipped", 0, 0,
     NULL, NULL, NULL},
    {"pull read 404: skipped (N10)",
     "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': [" PULL7("") "], 'statuses': {" ST_ROUND "}, 'faults': "
                            "[{'read': 'pull', 'status': 404}]}",
     CK("clean: true\n"), "skipped", 0, 0, NULL, NULL, NULL},
    /* A3: one block, one meaning */
    {"A3: two check blocks: R1",
     SNAP_ROUND, CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")) "\n"
     CK("clean: true\n"), "refused", EXIT_REFUSED, 0, NULL, NULL, "R1"},
    {"A3: two heads that differ: R1", SNAP_ROUND,
     CK("head: " H2 "\nclean: true\n"), "refused", EXIT_REFUSED, 0, NULL,
     NULL, "R1"},
    {"A3: the same head twice is harmless", SNAP_ROUND,
     CK("head: " H "\nclean: true\n" ROWN("PRRT_1", "fixed", "high")),
     "applied", 0, 1, "success", H, NULL},
    {"A3: two rounds that differ: R3", SNAP_ROUND,
     CK("round: 1002\nclean: true\n"), "refused", EXIT_REFUSED, 0, NULL,
     NULL, "R3"},
    {"A3: the same round twice is harmless", SNAP_ROUND,
     CK("round: 1001\nclean: true\n" ROWN("PRRT_1", "fixed", "high")),
     "applied", 0, 1, "success", H, NULL},
    {"A3: two cleans that differ: no clean, failure", SNAP_ROUND,
     CK("clean: true\nclean: false\n" ROWN("PRRT_1", "fixed", "high")),
     "applied", 0, 1, "failure", H, "conflicting"},
    {"A3: the same clean twice is harmless", SNAP_ROUND,
     CK("clean: true\nclean: TRUE\n" ROWN("PRRT_1", "fixed", "high")),
     "applied", 0, 1, "success", H, NULL},
    {"A3: a second block inside a fence is not ambiguous", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")) "\n```\n"
     CK("clean: false\n") "\n```\n",
     "applied", 0, 1, "success", H, NULL},
    {"A3: a check block only inside a fence: skipped", SNAP_ROUND,
     "Example:\n```\n" CK("clean: true\n") "\n```\n", "skipped", 0, 0,
     NULL, NULL, "code fence"},
    {"A3: fenced rows, head and clean in the block are not read", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high") "~~~\n"
        "head: " H2 "\nclean: false\n" ROWN("PRRT_9", "outstanding", "high")
        "~~~\n"),
     "applied", 0, 1, "success", H, NULL},
    {"A3: an unclosed fence hides the round: R3", SNAP_ROUND,
     "<!-- agentic:check v1 -->\nhead: " H "\n```\nround: 1001\n"
     "clean: true\n",
     "refused", EXIT_REFUSED, 0, NULL, NULL, "R3"},
    /* A4: every bullet line of the block is a row */
    {"A4: a * row is invalid: failure", SNAP_ROUND,
     CK("clean: true\n* id: PRRT_1, status: fixed, severity: high, "
        "reason: r\n"),
     "applied", 0, 1, "failure", H, "1 invalid"},
    {"A4: a - thread: row is invalid: failure", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")
        "- thread: PRRT_1, status: outstanding, severity: high, "
        "reason: r\n"),
     "applied", 0, 1, "failure", H, "1 invalid"},
    {"A4: a prose bullet in the block is invalid: failure", SNAP_ROUND,
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")
        "- everything else looks fine\n"),
     "applied", 0, 1, "failure", H, "1 invalid"},
    {"A4: a --- rule in the block is invalid: failure", SNAP_ROUND,
     CK("clean: true\n---\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0,
     1, "failure", H, "1 invalid"},
    {"A4: a row with a missing field is invalid: failure", SNAP_ROUND,
     CK("clean: true\n- id: PRRT_1, status: fixed, reason: r\n"),
     "applied", 0, 1, "failure", H, "1 invalid"},
    {"A4: an indented row and -id: are valid rows", SNAP_ROUND,
     CK("clean: true\n  - id: PRRT_1, status: fixed, severity: high, "
        "reason: r\n-id: PRRT_1, status: obsolete, severity: nit, "
        "reason: r\n"),
     "applied", 0, 1, "success", H, NULL},
    {"A4: bullets before the block are not rows", SNAP_ROUND,
     "* summary\n- id: x\n" CK("clean: true\n"), "applied", 0, 1, "success",
     H, NULL},
    {"a closed PR's verdict is applied (N6)",
     "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': [" PULL7(", 'state': 'closed'") "], 'statuses': {" ST_ROUND "}}",
     CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")), "applied", 0, 1,
     "success", H, NULL},
};

static void test_engine__check_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(check_rows); i++) {
		const struct check_row *r = &check_rows[i];
		struct fx f;
		size_t before;

		fx_open(&f, r->snapshot, false);
		before = statuses_in_world(&f);
		{
			struct snap_comment c;

			comment_init(&c, 600, TR, r->body);
			engine_apply(&f.e, 7, &c, false);
			snap_comment_release(&c);
		}
		if (f.rep.nsteps != 1 ||
		    strcmp(step_outcome_names[f.rep.steps[0].outcome], r->outcome) != 0 ||
		    f.rep.exit != r->exit) {
			print_error("row %zu (%s): outcome %s exit %d\n", i,
			            r->name,
			            f.rep.nsteps ? step_outcome_names[f.rep.steps[0].outcome] : "-",
			            f.rep.exit);
			bad++;
		}
		if (writes_of(&f, W_STATUS) != r->writes ||
		    f.rep.nwrites != r->writes ||
		    statuses_in_world(&f) != before + r->writes) {
			print_error("row %zu (%s): %zu writes, expected %zu\n",
			            i, r->name, f.rep.nwrites, r->writes);
			bad++;
		} else if (r->writes &&
		           (strcmp(f.rep.writes[0].state, r->state) != 0 ||
		            strcmp(f.rep.writes[0].sha, r->sha) != 0)) {
			print_error("row %zu (%s): wrote %s on %s\n", i,
			            r->name, f.rep.writes[0].state,
			            f.rep.writes[0].sha);
			bad++;
		}
		if (r->writes && strcmp(f.rep.writes[0].description,
		                        strcmp(r->state, "success") == 0
		                            ? "conductor pr=#7: clean=true"
		                            : "conductor pr=#7: clean=false")) {
			print_error("row %zu (%s): description %s\n", i,
			            r->name, f.rep.writes[0].description);
			bad++;
		}
		if (r->reason && f.rep.nsteps &&
		    !step_has_reason(&f.rep.steps[0], r->reason)) {
			print_error("row %zu (%s): no reason names %s\n", i,
			            r->name, r->reason);
			bad++;
		}
		fx_close(&f);
	}
	assert_int_equal(bad, 0);
}

static void test_engine__check_refusals_all_listed(void **state)
{
	/* N4: R1 and R3 both fail, both are listed, nothing is read */
	struct fx f;

	(void)state;
	apply_body(
	    &f,
	    "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	    "'x'}, 'pulls': [" PULL7(
	        "") "], 'faults': [{'read': 'pull', "
	            "'status': 502}, {'read': 'statuses', 'status': 502}]}",
	    "<!-- agentic:check v1 -->\nclean: true\n");
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_true(step_has_reason(step(&f, 0), "R1"));
	assert_true(step_has_reason(step(&f, 0), "R3"));
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

static void test_engine__check_too_long_refused(void **state)
{
	struct fx f;
	struct snap_comment c;
	static const char body[] =
	    CK("clean: true\n" ROWN("PRRT_1", "fixed", "high"));
	size_t n = sizeof(body) - 1, total = MARKER_MAX_CHARS + 1;
	char *s = xmalloc(total + 1);

	(void)state;
	memcpy(s, body, n);
	memset(s + n, 'x', total - n);
	s[total] = '\0';
	fx_open(&f, SNAP_ROUND, false);
	comment_init(&c, 600, TR, s);
	engine_apply(&f.e, 7, &c, false);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_int_equal(f.rep.nwrites, 0);
	snap_comment_release(&c);
	free(s);
	fx_close(&f);
}

struct check_fault_row {
	const char *fault;
	const char *body;
};

static const struct check_fault_row check_fault_rows[] = {
    {"{'read': 'pull', 'status': 502}", CK("clean: true\n")},
    {"{'read': 'statuses', 'status': 502}", CK("clean: true\n")},
    {"{'read': 'threads', 'status': 502}", CK("clean: true\n")},
    {"{'read': 'commits', 'status': 502}",
     CKBODY("\n", H2, "900", "clean: true\n")},
    {"{'write': 'status', 'status': 502}", CK("clean: true\n")},
    {"{'read': 'user', 'status': 502}", CK("clean: true\n")},
};

static void test_engine__check_failed_reads_exit_3(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(check_fault_rows); i++) {
		struct fx f;
		char text[4096];
		int n = snprintf(
		    text, sizeof(text),
		    "{'snapshot': 1, 'repository': 'lf/svc', "
		    "'event': {'name': 'x'}, 'pulls': [" PULL7(
		        "") "], 'statuses': {" ST_ROUND ", '" H2
		            "': [" ROUND_ST(900, "7",
		                            "09:00:00") "]}, 'faults': [%s]}",
		    check_fault_rows[i].fault);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		apply_body(&f, text, check_fault_rows[i].body);
		if (f.rep.exit != EXIT_API || f.rep.nwrites != 0 ||
		    strcmp(step_outcome_names[step(&f, 0)->outcome], "error") != 0) {
			print_error("row %zu (%s): exit %d, %zu writes, %s\n",
			            i, check_fault_rows[i].fault, f.rep.exit,
			            f.rep.nwrites, step_outcome_names[step(&f, 0)->outcome]);
			bad++;
		}
		fx_close(&f);
	}
	assert_int_equal(bad, 0);
}

static void test_engine__apply_untrusted_author_skipped(void **state)
{
	static const char *const authors[] = {"dev1", "lfx-reviewer[bot]",
	                                      "copilot"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(authors); i++) {
		struct fx f;
		struct snap_comment c;

		fx_open(&f, SNAP_ROUND, false);
		comment_init(&c, 600, authors[i],
		             CK("clean: true\n" ROWN(
		                 "PRRT_1", "fixed",
		                 "high")) "\n" NHBODY("\n", "yes", H, "main"));
		engine_apply(&f.e, 7, &c, false);
		assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
		assert_int_equal(f.rep.exit, 0);
		assert_int_equal(f.rep.nwrites, 0);
		snap_comment_release(&c);
		fx_close(&f);
	}
}

/* --- apply: the label step (§3.1, N1, N5) --- */

struct label_row {
	const char *name;
	const char *snapshot;
	const char *body;
	const char *outcome;
	int exit;
	const char *needs_human;
	enum write_kind w[2];
	size_t nw;
};

#define PULL7_LABELS(l) PULL7(", 'labels': [" l "]")
#define LSNAP(top, labels, repo_labels)                                        \
	"{'snapshot': 1, 'repository': 'lf/svc', " top " 'event': {'name': "   \
	"'x'}, 'pulls': [" PULL7_LABELS(labels) "]" repo_labels "}"
#define YES_B NHBODY("\n", "yes", H, "main")

static const struct label_row label_rows[] = {
    {"yes adds the label",
     LSNAP("", "'bug'", ""),
     YES_B,
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"yes creates the repository label first",
     LSNAP("", "", ", 'labels': ['bug']"),
     YES_B,
     "applied",
     0,
     "yes",
     {W_CREATE_LABEL, W_LABEL},
     2},
    {"repository label in another case exists",
     LSNAP("", "", ", 'labels': ['Needs-Human']"),
     YES_B,
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"label already present: no write",
     LSNAP("", "'needs-human'", ""),
     YES_B,
     "applied",
     0,
     "yes",
     {0},
     0},
    {"label present in another case: no write",
     LSNAP("", "'NEEDS-HUMAN'", ""),
     YES_B,
     "applied",
     0,
     "yes",
     {0},
     0},
    {"no writes nothing",
     LSNAP("", "", ""),
     NHBODY("\n", "no", H, "main"),
     "applied",
     0,
     "no",
     {0},
     0},
    /* A2: the second head is after the prose line that ends the run,
     * so it is not read: a well-formed yes (was "malformed") */
    {"A2: a head after the run is not read: yes",
     LSNAP("", "", ""),
     NHBODY("\n", "yes", H, "main") "\n<!-- head: " H2 " -->",
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"malformed yes (two heads in the run) still adds",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n"
     "<!-- head: " H " -->\n<!-- head: " H2 " -->\n<!-- base: main -->",
     "applied",
     0,
     "malformed",
     {W_LABEL},
     1},
    {"malformed yes (no base) still adds",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n"
     "<!-- head: " H " -->",
     "applied",
     0,
     "malformed",
     {W_LABEL},
     1},
    /* A2: the no is after the prose line: not read (was "malformed") */
    {"A2: a no after the run is not read: yes",
     LSNAP("", "", ""),
     NHBODY("\n", "yes", H, "main") "\n<!-- needs-human: no -->",
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"yes and no in the run: malformed, the yes line still adds",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n"
     "<!-- needs-human: no -->\n<!-- head: " H " -->\n<!-- base: main -->",
     "applied",
     0,
     "malformed",
     {W_LABEL},
     1},
    {"yes for an older head still adds",
     LSNAP("", "", ""),
     NHBODY("\n", "yes", H2, "main"),
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"malformed without yes writes nothing",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n<!-- head: " H " -->",
     "applied",
     0,
     "malformed",
     {0},
     0},
    {"yes without the verdict line is no verdict",
     LSNAP("", "", ""),
     "<!-- needs-human: yes -->\n<!-- head: " H " -->\n<!-- base: main -->",
     "skipped",
     0,
     NULL,
     {0},
     0},
    /* A2: the code span line ends the run, the markers after it are
     * not read: malformed (was "no"); a code span is no marker line, so
     * the trigger does not fire either */
    {"A2: yes in a code span does not add, and ends the run",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n`<!-- needs-human: yes -->`\n"
     "<!-- needs-human: no -->\n<!-- head: " H " -->\n<!-- base: main -->",
     "applied",
     0,
     "malformed",
     {0},
     0},
    /* §3.1: the label trigger is eager (unchanged by A2/A3) */
    {"A2: a verdict not at the start is none, its yes still adds",
     LSNAP("", "", ""),
     "Summary of the review\n" YES_B,
     "applied",
     0,
     NULL,
     {W_LABEL},
     1},
    {"A3: a fenced header and yes still add",
     LSNAP("", "", ""),
     "Quoting the author:\n```\n" YES_B "\n```\n",
     "applied",
     0,
     NULL,
     {W_LABEL},
     1},
    {"A2: a yes after a no verdict's run adds, the verdict stays no",
     LSNAP("", "", ""),
     NHBODY("\n", "no", H, "main") "\n<!-- needs-human: yes -->",
     "applied",
     0,
     "no",
     {W_LABEL},
     1},
    {"A2: a quoted header and yes are no marker lines: skipped",
     LSNAP("", "", ""),
     "> <!-- agentic:needs-human v1 -->\n> <!-- needs-human: yes -->\n"
     "> <!-- head: " H " -->\n> <!-- base: main -->",
     "skipped",
     0,
     NULL,
     {0},
     0},
    {"A2: markers without a first-line header: skipped",
     LSNAP("", "", ""),
     "Hello\n<!-- needs-human: no -->\n<!-- head: " H " -->",
     "skipped",
     0,
     NULL,
     {0},
     0},
    {"a bad value in the run is malformed (NHM_BAD_VALUE)",
     LSNAP("", "", ""),
     "<!-- agentic:needs-human v1 -->\n<!-- needs-human: nope -->\n"
     "<!-- head: " H " -->\n<!-- base: main -->",
     "applied",
     0,
     "malformed",
     {0},
     0},
    {"labels unreadable: added anyway, never created",
     LSNAP("", "",
           ", 'labels': [], 'faults': [{'read': 'labels', "
           "'status': 502}]"),
     YES_B,
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"a closed PR is labeled all the same (N6)",
     "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': [" PULL7(", 'state': 'closed', 'merged': true") "]}",
     YES_B,
     "applied",
     0,
     "yes",
     {W_LABEL},
     1},
    {"label write fails: exit 3",
     LSNAP("", "", ", 'faults': [{'write': 'label', 'status': 502}]"),
     YES_B,
     "error",
     EXIT_API,
     "yes",
     {0},
     0},
    {"label unreadable and write fails: exit 3",
     LSNAP("", "",
           ", 'faults': [{'read': 'labels', 'status': 502}, "
           "{'write': 'label', 'status': 502}]"),
     YES_B,
     "error",
     EXIT_API,
     "yes",
     {0},
     0},
    {"repository label creation fails: exit 3",
     LSNAP("", "",
           ", 'labels': [], 'faults': [{'write': 'label', "
           "'status': 422, 'times': 1}]"),
     YES_B,
     "error",
     EXIT_API,
     "yes",
     {0},
     0},
};

static void test_engine__label_table(void **state)
{
	size_t i, k;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(label_rows); i++) {
		const struct label_row *r = &label_rows[i];
		struct fx f;

		apply_body(&f, r->snapshot, r->body);
		if (f.rep.nsteps != 1 ||
		    strcmp(step_outcome_names[f.rep.steps[0].outcome], r->outcome) != 0 ||
		    f.rep.exit != r->exit) {
			print_error("row %zu (%s): outcome %s exit %d\n", i,
			            r->name,
			            f.rep.nsteps ? step_outcome_names[f.rep.steps[0].outcome] : "-",
			            f.rep.exit);
			bad++;
		}
		if (f.rep.nsteps &&
		    !(r->needs_human ? f.rep.steps[0].needs_human &&
		                           !strcmp(f.rep.steps[0].needs_human,
		                                   r->needs_human)
		                     : !f.rep.steps[0].needs_human)) {
			print_error("row %zu (%s): needs_human %s\n", i,
			            r->name,
			            f.rep.steps[0].needs_human
			                ? f.rep.steps[0].needs_human
			                : "null");
			bad++;
		}
		if (f.rep.nwrites != r->nw) {
			print_error("row %zu (%s): %zu writes, expected %zu\n",
			            i, r->name, f.rep.nwrites, r->nw);
			bad++;
		} else {
			for (k = 0; k < r->nw; k++)
				if (f.rep.writes[k].kind != r->w[k]) {
					print_error("row %zu (%s): write %zu "
					            "is kind %d\n",
					            i, r->name, k,
					            f.rep.writes[k].kind);
					bad++;
				}
		}
		/* the label is never removed */
		if (strstr(r->snapshot, "'needs-human'") ||
		    strstr(r->snapshot, "'NEEDS-HUMAN'"))
			if (pull(&f, 7)->nlabels != 1) {
				print_error("row %zu (%s): label removed\n", i,
				            r->name);
				bad++;
			}
		fx_close(&f);
	}
	assert_int_equal(bad, 0);
}

static void test_engine__label_added_to_world(void **state)
{
	struct fx f;
	struct snap_pull *p;

	(void)state;
	apply_body(&f, LSNAP("", "'bug'", ", 'labels': ['bug']"), YES_B);
	p = pull(&f, 7);
	assert_int_equal(p->nlabels, 2);
	assert_string_equal(p->labels[1], "needs-human");
	assert_int_equal(f.snap.nlabels, 2);
	assert_string_equal(f.rep.writes[1].label, "needs-human");
	assert_int_equal(f.rep.writes[1].pr, 7);
	fx_close(&f);
}

static void test_engine__both_markers_one_step(void **state)
{
	/* N2: the label step then the check step, one apply step */
	struct fx f;

	(void)state;
	apply_body(&f, SNAP_ROUND,
	           NHBODY("\n", "yes", H, "main") "\n" CK(
	               "clean: true\n" ROWN("PRRT_1", "fixed", "high")));
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "applied");
	assert_string_equal(step(&f, 0)->needs_human, "yes");
	assert_int_equal(step(&f, 0)->clean, 1);
	assert_int_equal(f.rep.nwrites, 2);
	assert_int_equal(f.rep.writes[0].kind, W_LABEL);
	assert_int_equal(f.rep.writes[1].kind, W_STATUS);
	fx_close(&f);

	/* a refused check after an applied label: refused wins */
	apply_body(&f, SNAP_ROUND,
	           NHBODY("\n", "yes", H, "main") "\n" CKBODY("\n", H, "999",
	                                                      "clean: true\n"));
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_LABEL);
	fx_close(&f);
}

static void test_engine__apply_step_head_field(void **state)
{
	/* N3: the check block's head, else a well-formed verdict's head,
	 * else null */
	struct fx f;

	(void)state;
	apply_body(&f, LSNAP("", "'needs-human'", ""),
	           NHBODY("\n", "yes", H2, "main"));
	assert_string_equal(step(&f, 0)->head, H2);
	assert_int_equal(step(&f, 0)->clean, -1);
	fx_close(&f);
	/* A2: a head after the run is not read (was: malformed, head "") */
	apply_body(&f, LSNAP("", "'needs-human'", ""),
	           NHBODY("\n", "yes", H2, "main") "\n<!-- head: " H " -->");
	assert_string_equal(step(&f, 0)->head, H2);
	assert_string_equal(step(&f, 0)->needs_human, "yes");
	fx_close(&f);
	/* two heads in the run: malformed, no head */
	apply_body(&f, LSNAP("", "'needs-human'", ""),
	           "<!-- agentic:needs-human v1 -->\n"
	           "<!-- needs-human: yes -->\n<!-- head: " H2 " -->\n"
	           "<!-- head: " H " -->\n<!-- base: main -->");
	assert_string_equal(step(&f, 0)->head, "");
	assert_string_equal(step(&f, 0)->needs_human, "malformed");
	fx_close(&f);
	apply_body(&f, SNAP_ROUND,
	           NHBODY("\n", "no", H2, "main") "\n" CK(
	               "clean: true\n" ROWN("PRRT_1", "fixed", "high")));
	assert_string_equal(step(&f, 0)->head, H);
	assert_string_equal(step(&f, 0)->needs_human, "no");
	fx_close(&f);
	/* a refused check: the head judged is still reported, clean null */
	apply_body(&f, SNAP_ROUND, CKBODY("\n", H, "999", "clean: true\n"));
	assert_string_equal(step(&f, 0)->head, H);
	assert_int_equal(step(&f, 0)->clean, -1);
	fx_close(&f);
	/* A3: an ambiguous head is no head: two blocks, two heads */
	apply_body(&f, SNAP_ROUND,
	           CK("clean: true\n") "\n" CKBODY("\n", H2, "1001", ""));
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_string_equal(step(&f, 0)->head, "");
	fx_close(&f);
	apply_body(&f, SNAP_ROUND, CK("head: " H2 "\nclean: true\n"));
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_string_equal(step(&f, 0)->head, "");
	fx_close(&f);
	/* ... and then a well-formed needs-human verdict's head is used */
	apply_body(&f, SNAP_ROUND,
	           NHBODY("\n", "no", H2, "main") "\n" CK("head: " H3
	                                                   "\nclean: true\n"));
	assert_string_equal(step(&f, 0)->head, H2);
	fx_close(&f);
	/* the same head twice is one head */
	apply_body(&f, SNAP_ROUND,
	           CK("head: " H "\nclean: true\n" ROWN("PRRT_1", "fixed",
	                                                 "high")));
	assert_string_equal(step(&f, 0)->head, H);
	assert_int_equal(step(&f, 0)->clean, 1);
	fx_close(&f);
}

static void test_engine__dry_run_gate_sees_planned_label(void **state)
{
	struct fx f;
	struct snap_comment c;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), true);
	comment_init(&c, 600, TR, NHBODY("\n", "yes", H, "main"));
	engine_apply(&f.e, 7, &c, false);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_LABEL);
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "withhold");
	assert_false(step(&f, 1)->cond[COND_LABEL_ABSENT]);
	assert_true(step(&f, 1)->cond[COND_CLEAN]);
	assert_int_equal(pull(&f, 7)->nlabels, 0);
	snap_comment_release(&c);
	fx_close(&f);
}

/* --- A9 and A1 through the engine --- */

/* A9: the quiet refusal is a notice, never an error annotation. */
static void test_engine__a9_superseded_round_is_a_notice(void **state)
{
	struct fx f;
	size_t i, notices = 0, errors = 0;

	(void)state;
	apply_body(&f,
	           SNAP("", PULL7(""),
	                "'" H "': [" ROUND_ST(1001, "7", "10:00:00") ", "
	                ROUND_ST(1003, "7", "10:30:00") "]"),
	           CK("clean: true\n" ROWN("PRRT_1", "fixed", "high")));
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(f.rep.exit, EXIT_OK);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(statuses_in_world(&f), 2);
	assert_int_equal(step(&f, 0)->clean, -1);
	for (i = 0; i < f.rep.nnotes; i++) {
		notices += f.rep.notes[i].level == NOTE_NOTICE &&
		           strstr(f.rep.notes[i].text, "superseded");
		errors += f.rep.notes[i].level == NOTE_ERROR;
	}
	assert_int_equal(notices, 1);
	assert_int_equal(errors, 0);
	fx_close(&f);
}

/* A9 in `run`: the gate still runs after the quiet refusal, exit 0. */
static void test_engine__a9_then_gate_exit_0(void **state)
{
	struct fx f;
	struct snap_comment c;

	(void)state;
	fx_open(&f,
	        SNAP("", PULL7(", 'comments': [" COMMENT_NO "]"),
	             "'" H "': [" ROUND_ST(1001, "7", "10:00:00") ", " ROUND_ST(
	                 1003, "7", "10:30:00") "]"),
	        false);
	comment_init(&c, 600, TR, CK("clean: true\n"));
	engine_apply(&f.e, 7, &c, false);
	engine_gate(&f.e, 7);
	snap_comment_release(&c);
	assert_int_equal(f.rep.nsteps, 2);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "withhold");
	assert_false(step(&f, 1)->cond[COND_CLEAN]);
	assert_int_equal(f.rep.exit, EXIT_OK);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

/* An older yes (for the previous head) the label of which went away
 * without an unlabeled event (renamed or deleted label). */
#define COMMENT_YES_H2                                                         \
	"{'id': 500, 'author': 'lfx-reviewer', 'created_at': '" TS(            \
	    "09:05:00") "', 'body': '" NHBODY("\\n", "yes", H2, "main") "'}"
#define UNLABEL(id, actor, at)                                                 \
	"{'id': " #id ", 'event': 'unlabeled', 'label': 'needs-human', "       \
	"'actor': '" actor "', 'created_at': '" TS(at) "'}"

/* A1: the gate withholds and dismisses the stale approval. */
static void test_engine__a1_yes_on_older_head_withholds(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("'config': {'unlabelers': ['alice']},",
	             PULL7(", 'comments': [" COMMENT_YES_H2 ", " COMMENT_NO
	                   "], 'reviews': [" REVIEW(70, TR, "APPROVED",
	                                            H) "]"),
	             ST_OK),
	        false);
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_true(step(&f, 0)->cond[COND_LABEL_ABSENT]);
	assert_false(step(&f, 0)->cond[COND_ESCALATION]);
	assert_true(step_has_reason(step(&f, 0), "comment 500"));
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	assert_int_equal(f.rep.exit, EXIT_OK);
	fx_close(&f);
}

/* A1: an allowlisted unlabel after the yes lifts it; an unauthorized
 * one, or one in the same second, does not. */
static void test_engine__a1_unlabel_lifts_the_hold(void **state)
{
	static const char *const timelines[] = {
	    UNLABEL(9001, "alice", "09:06:00"),
	    UNLABEL(9001, "mallory", "09:06:00"),
	    UNLABEL(9001, "alice", "09:05:00"),
	};
	static const char *const want[] = {"approve", "withhold", "withhold"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(timelines); i++) {
		struct fx f;
		char text[8192];
		int n = snprintf(
		    text, sizeof(text),
		    SNAP("'config': {'unlabelers': ['alice']},",
		         PULL7(", 'comments': [" COMMENT_YES_H2 ", " COMMENT_NO
		               "], 'timeline': [%s]"),
		         ST_OK),
		    timelines[i]);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		fx_open(&f, text, false);
		engine_gate(&f.e, 7);
		if (strcmp(step_outcome_names[step(&f, 0)->outcome], want[i]) != 0)
			fail_msg("timeline %zu: %s, expected %s", i,
			         step_outcome_names[step(&f, 0)->outcome], want[i]);
		assert_int_equal(f.rep.nwrites,
		                 strcmp(want[i], "approve") == 0);
		fx_close(&f);
	}
}

/* The machine account's comment, edited by mallory and then by itself
 * (A5: the history tells). */
#define COMMENT_TAMPERED                                                       \
	"{'id': 502, 'author': 'lfx-reviewer', 'created_at': '" TS(            \
	    "10:06:00") "', 'body': 'Thanks!', 'edited_by': 'lfx-reviewer', "  \
	"'edited_at': '" TS("10:30:00") "', 'edits': [{'editor': 'mallory', "  \
	"'edited_at': '" TS("10:07:00") "'}, {'editor': 'lfx-reviewer', "      \
	"'edited_at': '" TS("10:30:00") "'}]}"

/* A1/A5: it holds until an allowlisted unlabel after its newest edit. */
static void test_engine__a1_tampered_comment_holds(void **state)
{
	static const char *const timelines[] = {
	    UNLABEL(9001, "alice", "10:10:00"),
	    UNLABEL(9001, "alice", "10:40:00"),
	};
	static const char *const want[] = {"withhold", "approve"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(timelines); i++) {
		struct fx f;
		char text[8192];
		int n = snprintf(
		    text, sizeof(text),
		    SNAP("'config': {'unlabelers': ['alice']},",
		         PULL7(", 'comments': [" COMMENT_NO
		               ", " COMMENT_TAMPERED "], 'timeline': [%s]"),
		         ST_OK),
		    timelines[i]);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		fx_open(&f, text, false);
		engine_gate(&f.e, 7);
		if (strcmp(step_outcome_names[step(&f, 0)->outcome], want[i]) != 0)
			fail_msg("timeline %zu: %s, expected %s", i,
			         step_outcome_names[step(&f, 0)->outcome], want[i]);
		if (i == 0)
			assert_true(step_has_reason(step(&f, 0), "mallory"));
		fx_close(&f);
	}
}

/* --- apply --comment ID (T2, N7) --- */

#define EDITED_COMMENT(id, edited)                                             \
	"{'id': " #id ", 'author': 'lfx-reviewer', 'created_at': '" TS(        \
	    "10:30:00") "', 'body': '" NHBODY("\\n", "yes", H,                 \
	                                      "main") "' " edited "}"

static void test_engine__apply_id_edited_by_other_refused(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" EDITED_COMMENT(
	                 610, ", 'edited_by': 'dev1', 'edited_at': '" TS(
	                          "10:31:00") "'") "]"),
	             ""),
	        false);
	engine_apply_id(&f.e, 7, 610);
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(step(&f, 0)->comment, 610);
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_true(step_has_reason(step(&f, 0), "dev1"));
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(pull(&f, 7)->nlabels, 0);
	fx_close(&f);
}

static void test_engine__apply_id_edited_unknown_editor_refused(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" EDITED_COMMENT(
	                 610, ", 'edited_at': '" TS("10:31:00") "'") "]"),
	             ""),
	        false);
	engine_apply_id(&f.e, 7, 610);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

/* N21 again: an edit time of the epoch is an edit time all the same. */
static void test_engine__apply_id_edited_at_epoch_refused(void **state)
{
	struct fx f;
	const char *outcome;
	int exit_code;
	size_t nwrites;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" EDITED_COMMENT(
	                 610, ", 'edited_by': null, 'edited_at': "
	                      "'1970-01-01T00:00:00Z'") "]"),
	             ""),
	        false);
	engine_apply_id(&f.e, 7, 610);
	outcome = step_outcome_names[step(&f, 0)->outcome]; /* a static string */
	exit_code = f.rep.exit;
	nwrites = f.rep.nwrites;
	fx_close(&f);
	assert_string_equal(outcome, "refused");
	assert_int_equal(exit_code, EXIT_REFUSED);
	assert_int_equal(nwrites, 0);
}

static void test_engine__apply_id_edited_by_trusted_applied(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" EDITED_COMMENT(
	                 610, ", 'edited_by': 'LFX-Reviewer', "
	                      "'edited_at': '" TS("10:31:00") "'") "]"),
	             ""),
	        false);
	engine_apply_id(&f.e, 7, 610);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "applied");
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(writes_of(&f, W_LABEL), 1);
	fx_close(&f);
}

static void test_engine__apply_id_unknown_skipped(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, SNAP("", PULL7(", 'comments': [" COMMENT_NO "]"), ""),
	        false);
	engine_apply_id(&f.e, 7, 999);
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
	assert_int_equal(step(&f, 0)->comment, 999);
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);

	/* a comment of another PR is not a comment of this one */
	fx_open(&f,
	        SNAP("",
	             PULL7("") ", {'number': 8, 'head': {'sha': '" H2
	                       "'}, 'comments': [" EDITED_COMMENT(610, "") "]}",
	             ""),
	        false);
	engine_apply_id(&f.e, 7, 610);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);

	/* no such PR */
	fx_open(&f, SNAP("", PULL7(""), ""), false);
	engine_apply_id(&f.e, 99, 610);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "skipped");
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__apply_id_comments_unreadable(void **state)
{
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	    "'x'}, 'pulls': [" PULL7(", 'comments': [" EDITED_COMMENT(
	        610,
	        "") "]") "], 'faults': [{'read': 'comments', 'status': 502}]}",
	    false);
	engine_apply_id(&f.e, 7, 610);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(f.rep.nwrites, 0);
	fx_close(&f);
}

/* --- runs (§10, N13) --- */

static void run_event(struct fx *f, const char *name, const char *literal)
{
	struct event ev;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *payload = sq(literal);

	if (event_decode(&ev, name, payload, strlen(payload), &err) != 0)
		fail_msg("bad test event: %s", err.ptr);
	engine_run(&f->e, &ev);
	event_release(&ev);
	free(payload);
	buf_release(&err);
}

static void test_engine__run_comment_apply_then_gate(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, SNAP("", PULL7(", 'comments': [" COMMENT_NO "]"), ST_ROUND),
	        false);
	run_event(&f, "issue_comment",
	          "{'action': 'created', 'issue': {'number': 7, "
	          "'pull_request': {}}, 'comment': {'id': 600, 'user': "
	          "{'login': 'lfx-reviewer'}, 'body': '" CKBODY(
	              "\\n", H, "1001",
	              "clean: true\\n" CKROW("\\n", "PRRT_1", "fixed",
	                                     "high")) "'}}");
	assert_int_equal(f.rep.nsteps, 2);
	assert_int_equal(step(&f, 0)->kind, STEP_APPLY);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "applied");
	assert_int_equal(step(&f, 1)->kind, STEP_GATE);
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "approve");
	assert_int_equal(f.rep.nwrites, 2);
	assert_int_equal(f.rep.writes[0].kind, W_STATUS);
	assert_int_equal(f.rep.writes[1].kind, W_APPROVE);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__run_gate_after_refused_apply(void **state)
{
	/* §10: the gate runs after a refusal, and may still dismiss */
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" COMMENT_NO
	                   "], 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	             ST_ROUND),
	        false);
	run_event(&f, "issue_comment",
	          "{'action': 'created', 'issue': {'number': 7, "
	          "'pull_request': {}}, 'comment': {'id': 600, 'user': "
	          "{'login': 'lfx-reviewer'}, 'body': '" CKBODY(
	              "\\n", H, "999", "clean: true\\n") "'}}");
	assert_int_equal(f.rep.nsteps, 2);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "refused");
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "withhold");
	assert_int_equal(f.rep.exit, EXIT_REFUSED);
	assert_int_equal(f.rep.nwrites, 1);
	assert_int_equal(f.rep.writes[0].kind, W_DISMISS);
	fx_close(&f);
}

static void test_engine__run_nothing_to_do(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	run_event(&f, "issue_comment",
	          "{'action': 'created', 'issue': {'number': 7}, 'comment': "
	          "{'id': 600, 'user': {'login': 'lfx-reviewer'}, 'body': '" JNO
	          "'}}");
	run_event(&f, "push", "{}");
	run_event(&f, "pull_request", "{'action': 'closed', 'number': 7}");
	run_event(&f, "pull_request", "{'action': 'assigned', 'number': 7}");
	run_event(&f, "status",
	          "{'sha': '" H "', 'context': 'ci/build', "
	          "'description': 'conductor pr=#7: x'}");
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__run_gate_events(void **state)
{
	static const struct {
		const char *name, *payload;
	} events[] = {
	    {"issue_comment", "{'action': 'edited', 'issue': {'number': 7, "
	                      "'pull_request': {}}}"},
	    {"issue_comment", "{'action': 'deleted', 'issue': {'number': 7, "
	                      "'pull_request': {}}}"},
	    {"pull_request", "{'action': 'synchronize', 'number': 7}"},
	    {"pull_request_target", "{'action': 'reopened', 'number': 7}"},
	    {"pull_request", "{'action': 'edited', 'number': 7}"},
	    {"pull_request", "{'action': 'labeled', 'number': 7}"},
	    {"pull_request", "{'action': 'unlabeled', 'number': 7}"},
	    {"workflow_dispatch", "{'inputs': {'pr': '7'}}"},
	    {"status", "{'sha': '" H "', 'context': 'agentic-review/clean', "
	               "'description': 'conductor pr=#7: clean=true'}"},
	    {"status", "{'sha': '" H "', 'context': 'agentic-review/clean', "
	               "'description': 'no number here'}"},
	    {"status", "{'sha': '" H "', 'context': 'agentic-review/clean', "
	               "'description': 'conductor pr=#99: clean=true'}"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		struct fx f;

		fx_open(&f, APPROVABLE("", ""), false);
		run_event(&f, events[i].name, events[i].payload);
		if (f.rep.nsteps != 1 || f.rep.steps[0].kind != STEP_GATE ||
		    f.rep.steps[0].pr != 7 ||
		    strcmp(step_outcome_names[f.rep.steps[0].outcome], "approve") != 0)
			fail_msg("event %zu (%s %s): %zu steps", i,
			         events[i].name, events[i].payload,
			         f.rep.nsteps);
		assert_int_equal(writes_of(&f, W_APPROVE), 1);
		fx_close(&f);
	}
}

static void test_engine__run_status_matches_no_or_several_prs(void **state)
{
	struct fx f;

	(void)state;
	/* two open PRs on the same head: nothing to do */
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" COMMENT_NO
	                   "]") ", "
	                        "{'number': 8, 'head': {'sha': '" H "'}}",
	             ST_OK),
	        false);
	run_event(&f, "status",
	          "{'sha': '" H "', 'context': "
	          "'agentic-review/clean', 'description': 'x'}");
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);

	/* no open PR on that SHA */
	fx_open(&f, APPROVABLE("", ""), false);
	run_event(&f, "status",
	          "{'sha': '" H3 "', 'context': "
	          "'agentic-review/clean', 'description': 'x'}");
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);

	/* a failed open-PR listing: exit 3 (N14) */
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'x'}, 'pulls': [" PULL7("") "], 'faults': [{'read': 'pulls', "
	                                     "'status': 502}]}",
	        false);
	run_event(&f, "status",
	          "{'sha': '" H "', 'context': "
	          "'agentic-review/clean', 'description': 'x'}");
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.exit, EXIT_API);
	fx_close(&f);
}

static void test_engine__run_dispatch_bad_input(void **state)
{
	static const char *const payloads[] = {
	    "{'inputs': {'pr': '0'}}",
	    "{'inputs': {'pr': '-7'}}",
	    "{'inputs': {'pr': ' 7'}}",
	    "{'inputs': {'pr': '7a'}}",
	    "{'inputs': {}}",
	    "{}",
	    "{'inputs': {'pr': '1234567890'}}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(payloads); i++) {
		struct fx f;

		fx_open(&f, APPROVABLE("", ""), false);
		run_event(&f, "workflow_dispatch", payloads[i]);
		if (f.rep.exit != EXIT_USAGE || f.rep.nsteps != 0 ||
		    f.rep.nwrites != 0)
			fail_msg("payload %s: exit %d", payloads[i],
			         f.rep.exit);
		fx_close(&f);
	}
}

/* --- sweep (§7, N15) --- */

static void test_engine__sweep(void **state)
{
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    SNAP("",
	         "{'number': 9, 'head': {'sha': '" H3 "'}, 'reviews': [" REVIEW(
	             90, TR, "APPROVED",
	             H3) "]}, "
	                 "{'number': 8, 'head': {'sha': '" H2 "'}}, "
	                 "{'number': 6, 'state': 'closed', 'head': {'sha': '" H2
	                 "'}, 'reviews': [" REVIEW(
	                     60, TR, "APPROVED",
	                     H2) "]}, " PULL7(", 'comments': [" COMMENT_NO "]"),
	         ST_OK),
	    false);
	engine_sweep(&f.e);
	/* open PRs in ascending order, one gate step each */
	assert_int_equal(f.rep.nsteps, 3);
	assert_int_equal(step(&f, 0)->pr, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(step(&f, 1)->pr, 8);
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "skipped");
	assert_false(step(&f, 1)->has_conditions);
	/* an approval with no stamp is re-judged, so it cannot survive */
	assert_int_equal(step(&f, 2)->pr, 9);
	assert_string_equal(step_outcome_names[step(&f, 2)->outcome], "withhold");
	assert_int_equal(f.rep.nwrites, 2);
	assert_int_equal(f.rep.writes[0].kind, W_APPROVE);
	assert_int_equal(f.rep.writes[1].kind, W_DISMISS);
	assert_int_equal(f.rep.writes[1].review_id, 90);
	assert_int_equal(approvals_in_world(&f, 6), 1); /* closed: untouched */
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__sweep_listing_fails(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'comments': [" COMMENT_NO
	            "]") "], 'statuses': {" ST_OK
	                 "}, 'faults': [{'read': 'pulls', "
	                 "'status': 502}]}",
	        false);
	engine_sweep(&f.e);
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.exit, EXIT_API);
	fx_close(&f);
}

static void test_engine__sweep_one_failure_does_not_stop_others(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        "{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "
	        "'schedule'}, 'pulls': [" PULL7(
	            ", 'comments': [" COMMENT_NO
	            "]") ", {'number': 5, 'head': {'sha': '" H2
	                 "'}, 'reviews': [" REVIEW(
	                     50, TR, "APPROVED",
	                     H2) "]}], 'statuses': {" ST_OK
	                         "}, 'faults': [{'read': 'comments', 'pr': 5, "
	                         "'status': 502}]}",
	        false);
	engine_sweep(&f.e);
	assert_int_equal(f.rep.nsteps, 2);
	assert_int_equal(step(&f, 0)->pr, 5);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(step(&f, 1)->pr, 7);
	assert_string_equal(step_outcome_names[step(&f, 1)->outcome], "approve");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(writes_of(&f, W_APPROVE), 1);
	/* the backstop still dismissed PR 5's approval */
	assert_int_equal(approvals_in_world(&f, 5), 0);
	fx_close(&f);
}

/* --- the re-checks of §6.1, with a port whose world moves --- */

/*
 * A port wrapping the in-memory one: before the Nth pull read it changes
 * the snapshot (a push, a label), or it fails the Nth statuses read, so
 * the re-checks around the approval see inputs move under them.
 */
struct moving {
	struct github gh;
	struct github *inner;
	struct snapshot *s;
	int pulls, change_at;
	void (*change)(struct snapshot *s);
	int statuses, fail_statuses_at;
};

static struct moving *MV(struct github *gh)
{
	return (struct moving *)gh;
}

static void mv_err(struct github *gh)
{
	buf_reset(&gh->error);
	buf_add(&gh->error, MV(gh)->inner->error.ptr, MV(gh)->inner->error.len);
}

static int mv_user(struct github *gh, char **login)
{
	int r = MV(gh)->inner->ops->user(MV(gh)->inner, login);

	mv_err(gh);
	return r;
}

static int mv_open_pulls(struct github *gh, struct gh_pull_brief **list,
                         size_t *n)
{
	int r = MV(gh)->inner->ops->open_pulls(MV(gh)->inner, list, n);

	mv_err(gh);
	return r;
}

static int mv_pull(struct github *gh, int64_t number, unsigned parts,
                   struct gh_pull *out)
{
	struct moving *m = MV(gh);
	int r;

	if (++m->pulls == m->change_at)
		m->change(m->s);
	r = m->inner->ops->pull(m->inner, number, parts, out);
	mv_err(gh);
	return r;
}

static int mv_commit_in_pull(struct github *gh, int64_t number, const char *sha,
                             bool *out)
{
	int r =
	    MV(gh)->inner->ops->commit_in_pull(MV(gh)->inner, number, sha, out);

	mv_err(gh);
	return r;
}

static int mv_statuses(struct github *gh, int64_t pr, const char *sha,
                       unsigned need, struct snap_statuses *out)
{
	struct moving *m = MV(gh);
	int r;

	if (++m->statuses == m->fail_statuses_at) {
		memset(out, 0, sizeof(*out));
		buf_setf(&gh->error, "read statuses: HTTP 502");
		return AA_EAPI;
	}
	r = m->inner->ops->statuses(m->inner, pr, sha, need, out);
	mv_err(gh);
	return r;
}

static int mv_label_exists(struct github *gh, int64_t pr, const char *name,
                           bool *out)
{
	int r = MV(gh)->inner->ops->label_exists(MV(gh)->inner, pr, name, out);

	mv_err(gh);
	return r;
}

static int mv_create_label(struct github *gh, int64_t pr, const char *name,
                           const char *color, const char *description)
{
	int r = MV(gh)->inner->ops->create_label(MV(gh)->inner, pr, name, color,
	                                         description);

	mv_err(gh);
	return r;
}

static int mv_add_label(struct github *gh, int64_t pr, const char *name)
{
	int r = MV(gh)->inner->ops->add_label(MV(gh)->inner, pr, name);

	mv_err(gh);
	return r;
}

static int mv_create_status(struct github *gh, int64_t pr, const char *sha,
                            const char *state, const char *context,
                            const char *description, const char *target_url)
{
	int r = MV(gh)->inner->ops->create_status(
	    MV(gh)->inner, pr, sha, state, context, description, target_url);

	mv_err(gh);
	return r;
}

static int mv_approve(struct github *gh, int64_t pr, const char *commit_id,
                      const char *body, int64_t *review_id)
{
	int r = MV(gh)->inner->ops->approve(MV(gh)->inner, pr, commit_id, body,
	                                    review_id);

	mv_err(gh);
	return r;
}

static int mv_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                      const char *message)
{
	int r =
	    MV(gh)->inner->ops->dismiss(MV(gh)->inner, pr, review_id, message);

	mv_err(gh);
	return r;
}

static void mv_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	MV(gh)->inner->ops->prefetch(MV(gh)->inner, prs, n);
}

static void mv_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	MV(gh)->inner->ops->budget(MV(gh)->inner, graphql, rest);
}

static void mv_refresh(struct github *gh)
{
	MV(gh)->inner->ops->refresh(MV(gh)->inner);
}

static int64_t mv_now(struct github *gh)
{
	return MV(gh)->inner->ops->now(MV(gh)->inner);
}

static void mv_free(struct github *gh)
{
	github_free(MV(gh)->inner);
	buf_release(&gh->error);
	free(gh);
}

static const struct github_ops moving_ops = {
    mv_user,          mv_open_pulls,   mv_pull,         mv_commit_in_pull,
    mv_statuses,      mv_label_exists, mv_create_label, mv_add_label,
    mv_create_status, mv_approve,      mv_dismiss,      mv_prefetch,
    mv_budget,        mv_refresh,      mv_now,          mv_free,
};

/* Wrap the fixture's port (after fx_open). */
static struct moving *fx_moving(struct fx *f, int change_at,
                                void (*change)(struct snapshot *s),
                                int fail_statuses_at)
{
	struct moving *m = xcalloc(1, sizeof(*m));

	m->gh.ops = &moving_ops;
	buf_init(&m->gh.error, BUF_MAX_SMALL);
	m->inner = f->gh;
	m->s = &f->snap;
	m->change_at = change_at;
	m->change = change;
	m->fail_statuses_at = fail_statuses_at;
	f->gh = &m->gh;
	engine_init(&f->e, f->gh, &f->pol, f->snap.repository, &f->rep);
	return m;
}

static void push_new_head(struct snapshot *s)
{
	memcpy(s->pulls[0].head_sha, H3, SHA_BUF);
}

static void add_label(struct snapshot *s)
{
	struct snap_pull *p = &s->pulls[0];

	p->labels = xrealloc(p->labels, (p->nlabels + 1) * sizeof(char *));
	p->labels[p->nlabels++] = xstrdup("needs-human");
}

static void test_engine__recheck_new_head_withholds(void **state)
{
	/* a push between the decision and the approval: no approval on
	 * either head, and the trusted approval is dismissed */
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    APPROVABLE("", ", 'reviews': [" REVIEW(71, TR, "APPROVED", H2) "]"),
	    false);
	fx_moving(&f, 2, push_new_head, 0);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nsteps, 1);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_int_equal(f.rep.exit, 0);
	assert_int_equal(writes_of(&f, W_APPROVE), 0);
	assert_int_equal(writes_of(&f, W_DISMISS), 1);
	assert_int_equal(f.rep.writes[0].review_id, 71);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

static void test_engine__recheck_label_added_withholds(void **state)
{
	struct fx f;

	(void)state;
	fx_open(
	    &f,
	    APPROVABLE("", ", 'reviews': [" REVIEW(71, TR, "APPROVED", H) "]"),
	    false);
	fx_moving(&f, 2, add_label, 0);
	engine_gate(&f.e, 7);
	/* the existing approval on H is re-checked, and dismissed */
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "withhold");
	assert_false(step(&f, 0)->cond[COND_LABEL_ABSENT]);
	assert_int_equal(writes_of(&f, W_APPROVE), 0);
	assert_int_equal(writes_of(&f, W_DISMISS), 1);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	assert_int_equal(f.rep.exit, 0);
	fx_close(&f);
}

static void test_engine__recheck_unreadable_is_error(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	fx_moving(&f, 0, NULL, 2); /* the re-check's statuses read fails */
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(writes_of(&f, W_APPROVE), 0);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

static void
test_engine__compensating_recheck_dismisses_new_approval(void **state)
{
	/* the label lands right after the POST: the approval just posted is
	 * dismissed */
	struct fx f;
	struct snap_pull *p;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	fx_moving(&f, 3, add_label, 0);
	engine_gate(&f.e, 7);
	assert_int_equal(f.rep.nwrites, 2);
	assert_int_equal(f.rep.writes[0].kind, W_APPROVE);
	assert_int_equal(f.rep.writes[1].kind, W_DISMISS);
	p = pull(&f, 7);
	assert_int_equal(p->nreviews, 1);
	assert_int_equal(f.rep.writes[1].review_id, p->reviews[0].id);
	assert_string_equal(p->reviews[0].state, "DISMISSED");
	assert_string_not_equal(step_outcome_names[step(&f, 0)->outcome], "approve");
	assert_int_equal(approvals_in_world(&f, 7), 0);
	fx_close(&f);
}

static void test_engine__compensating_recheck_unreadable(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, APPROVABLE("", ""), false);
	fx_moving(&f, 0, NULL, 3); /* the read after the POST fails */
	engine_gate(&f.e, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_API);
	assert_int_equal(approvals_in_world(&f, 7), 0);
	assert_int_equal(writes_of(&f, W_DISMISS), 1);
	fx_close(&f);
}

/* --- sweep deadline and identity (N15, N19) --- */

static void test_engine__sweep_deadline_lists_not_reached(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("",
	             PULL7(", 'comments': [" COMMENT_NO
	                   "]") ", "
	                        "{'number': 8, 'head': {'sha': '" H2 "'}}",
	             ST_OK),
	        false);
	f.e.deadline = 1; /* long past on the port's clock */
	engine_sweep(&f.e);
	assert_int_equal(f.rep.nsteps, 0);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(f.rep.nnot_reached, 2);
	assert_int_equal(f.rep.not_reached[0], 7);
	assert_int_equal(f.rep.not_reached[1], 8);
	fx_close(&f);
}

static void test_engine__sweep_stops_on_identity_failure(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f,
	        SNAP("'viewer': 'mallory',",
	             PULL7(", 'comments': [" COMMENT_NO
	                   "]") ", "
	                        "{'number': 8, 'head': {'sha': '" H
	                        "'}, 'comments': [" COMMENT_NO
	                        "], 'reviews': [" REVIEW(80, TR, "APPROVED",
	                                                 H) "]}",
	             ST_OK),
	        false);
	engine_sweep(&f.e);
	/* PR 7 would be approved: T4 fails there and PR 8 is not visited */
	assert_int_equal(f.rep.nsteps, 1);
	assert_int_equal(step(&f, 0)->pr, 7);
	assert_string_equal(step_outcome_names[step(&f, 0)->outcome], "error");
	assert_int_equal(f.rep.exit, EXIT_USAGE);
	assert_int_equal(f.rep.nwrites, 0);
	assert_int_equal(approvals_in_world(&f, 8), 1);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_engine__approve_writes_exactly_one_approval),
	    cmocka_unit_test(test_engine__existing_approval_no_write),
	    cmocka_unit_test(test_engine__existing_approval_needs_no_identity),
	    cmocka_unit_test(test_engine__approval_of_old_commit_is_not_reused),
	    cmocka_unit_test(
	        test_engine__approval_by_someone_else_does_not_count),
	    cmocka_unit_test(
	        test_engine__withhold_dismisses_trusted_in_id_order),
	    cmocka_unit_test(
	        test_engine__withhold_without_approvals_writes_nothing),
	    cmocka_unit_test(test_engine__draft_withheld_and_dismissed),
	    cmocka_unit_test(test_engine__draft_approved_when_configured),
	    cmocka_unit_test(test_engine__dismiss_failure_attempts_all),
	    cmocka_unit_test(test_engine__approve_write_fault),
	    cmocka_unit_test(test_engine__closed_merged_fork_skipped),
	    cmocka_unit_test(test_engine__fork_skipped),
	    cmocka_unit_test(test_engine__unknown_pr_skipped),
	    cmocka_unit_test(test_engine__read_faults_never_approve),
	    cmocka_unit_test(test_engine__faults_of_other_prs_do_not_matter),
	    cmocka_unit_test(test_engine__read_fault_still_dismisses),
	    cmocka_unit_test(test_engine__viewer_mismatch_stops_the_run),
	    cmocka_unit_test(test_engine__viewer_bot_account_is_not_trusted),
	    cmocka_unit_test(test_engine__viewer_other_case_is_trusted),
	    cmocka_unit_test(test_engine__viewer_mismatch_blocks_dismissals),
	    cmocka_unit_test(
	        test_engine__viewer_mismatch_in_run_stops_before_gate),
	    cmocka_unit_test(test_engine__unreadable_user_exits_3),
	    cmocka_unit_test(
	        test_engine__dry_run_plans_and_leaves_world_unchanged),
	    cmocka_unit_test(
	        test_engine__dry_run_later_reads_see_planned_writes),
	    cmocka_unit_test(test_engine__dry_run_still_checks_identity),
	    cmocka_unit_test(test_engine__dry_run_dismissals_planned),
	    cmocka_unit_test(test_engine__check_clean_writes_success),
	    cmocka_unit_test(test_engine__check_table),
	    cmocka_unit_test(test_engine__check_refusals_all_listed),
	    cmocka_unit_test(test_engine__check_too_long_refused),
	    cmocka_unit_test(test_engine__check_failed_reads_exit_3),
	    cmocka_unit_test(test_engine__apply_untrusted_author_skipped),
	    cmocka_unit_test(test_engine__label_table),
	    cmocka_unit_test(test_engine__label_added_to_world),
	    cmocka_unit_test(test_engine__both_markers_one_step),
	    cmocka_unit_test(test_engine__apply_step_head_field),
	    cmocka_unit_test(test_engine__dry_run_gate_sees_planned_label),
	    cmocka_unit_test(test_engine__a9_superseded_round_is_a_notice),
	    cmocka_unit_test(test_engine__a9_then_gate_exit_0),
	    cmocka_unit_test(test_engine__a1_yes_on_older_head_withholds),
	    cmocka_unit_test(test_engine__a1_unlabel_lifts_the_hold),
	    cmocka_unit_test(test_engine__a1_tampered_comment_holds),
	    cmocka_unit_test(test_engine__apply_id_edited_by_other_refused),
	    cmocka_unit_test(
	        test_engine__apply_id_edited_unknown_editor_refused),
	    cmocka_unit_test(test_engine__apply_id_edited_at_epoch_refused),
	    cmocka_unit_test(test_engine__apply_id_edited_by_trusted_applied),
	    cmocka_unit_test(test_engine__apply_id_unknown_skipped),
	    cmocka_unit_test(test_engine__apply_id_comments_unreadable),
	    cmocka_unit_test(test_engine__run_comment_apply_then_gate),
	    cmocka_unit_test(test_engine__run_gate_after_refused_apply),
	    cmocka_unit_test(test_engine__run_nothing_to_do),
	    cmocka_unit_test(test_engine__run_gate_events),
	    cmocka_unit_test(test_engine__run_status_matches_no_or_several_prs),
	    cmocka_unit_test(test_engine__run_dispatch_bad_input),
	    cmocka_unit_test(test_engine__sweep),
	    cmocka_unit_test(test_engine__sweep_listing_fails),
	    cmocka_unit_test(
	        test_engine__sweep_one_failure_does_not_stop_others),
	    cmocka_unit_test(test_engine__recheck_new_head_withholds),
	    cmocka_unit_test(test_engine__recheck_label_added_withholds),
	    cmocka_unit_test(test_engine__recheck_unreadable_is_error),
	    cmocka_unit_test(
	        test_engine__compensating_recheck_dismisses_new_approval),
	    cmocka_unit_test(test_engine__compensating_recheck_unreadable),
	    cmocka_unit_test(test_engine__sweep_deadline_lists_not_reached),
	    cmocka_unit_test(test_engine__sweep_stops_on_identity_failure),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
