/*
 * test_gate.c - BEHAVIOR §5: the four conditions and the escalation table,
 * with the hold of A1 (a yes binds until an allowlisted unlabel after it,
 * and so does an edit of the trusted login's comment by someone else),
 * over small hand-built pull requests and statuses.
 *
 * One table: each row builds PR #7 of lf/svc on head H from a few specs
 * (statuses on H, comments, timeline events, threads, labels, failed
 * reads) and states the outcome and the four conditions the spec demands.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/gate.h"
#include "core/policy.h"
#include "formats/snapshot.h"

#define H      "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H_UP   "7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E"
#define H2     "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define TR     "lfx-reviewer"
#define CTX    "agentic-review/clean"
#define ESC    "agentic-review/escalation"
#define T(hms) "2026-11-29T" hms "Z"

struct st_spec {
	int64_t id;
	const char *state, *context, *desc, *creator, *at;
};
struct cm_spec {
	int64_t id;
	const char *author, *at, *body, *edited_by, *edited_at;
};
struct tl_spec {
	int64_t id;
	const char *event, *label, *actor, *at;
};
struct th_spec {
	const char *id;
	int64_t comments;
};
/* One entry of a comment's edit history (A5): cm is the 1-based index of
 * the comment in the row's cm[]; editor NULL is a deleted account. */
struct ed_spec {
	int cm;
	const char *editor, *at;
};

#define ROUND(id, at)                                                          \
	{                                                                      \
		id, "pending", CTX, "conductor pr=#7: awaiting review round",  \
		    TR, at                                                     \
	}
#define CLEAN(id, state, at)                                                   \
	{                                                                      \
		id, state, CTX, "conductor pr=#7: clean=" state, TR, at        \
	}
#define SKIP(id, at)                                                           \
	{                                                                      \
		id, "success", ESC, "skipped pr=#7: needs-human label set",    \
		    TR, at                                                     \
	}
#define ST_OK ROUND(1001, T("10:00:00")), CLEAN(1002, "success", T("10:20:00"))

#define NHB(v, h, b)                                                           \
	"<!-- agentic:needs-human v1 -->\n<!-- needs-human: " v " -->\n"       \
	"<!-- head: " h " -->\n<!-- base: " b " -->\n### Verdict\n"
#define MALFORMED_BOTH                                                         \
	"<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n"         \
	"<!-- needs-human: no -->\n<!-- head: " H                              \
	" -->\n<!-- base: main -->\n"
#define VERDICT(id, at, v, h, b)                                               \
	{                                                                      \
		id, TR, at, NHB(v, h, b), NULL, NULL                           \
	}
#define NO_OK  VERDICT(501, T("10:05:00"), "no", H, "main")
#define YES_OK VERDICT(501, T("10:05:00"), "yes", H, "main")

#define UNL(id, actor, at)                                                     \
	{                                                                      \
		id, "unlabeled", "needs-human", actor, at                      \
	}
/* The unlabelers allowlist of the A1 rows. */
#define ALICE "alice"
#define EPOCH "1970-01-01T00:00:00Z"
#define FENCED_YES                                                             \
	"Quoting the author:\n```\n<!-- agentic:needs-human v1 -->\n"         \
	"<!-- needs-human: yes -->\n```\n"

#define RETARGET(id, at)                                                       \
	{                                                                      \
		id, "base_ref_changed", NULL, "dev1", at                       \
	}

struct gate_row {
	const char *name;
	bool draft;
	bool approve_drafts;
	const char *unlabelers;
	const char *base; /* the PR's base; NULL = "main" */
	const char *labels[3];
	bool no_threads;      /* no review threads at all */
	struct th_spec th[4]; /* empty: two answered threads */
	struct st_spec st[6];
	struct cm_spec cm[4];
	struct tl_spec tl[4];
	struct ed_spec ed[3]; /* edit histories of the comments */
	unsigned failed; /* PART_* whose read failed */
	bool statuses_failed;
	enum gate_outcome want;
	bool cond[COND_COUNT];  /* clean, label absent, threads, escalation */
	const char *reason_has; /* a substring some reason must contain */
};

#define ALL                                                                    \
	{                                                                      \
		1, 1, 1, 1                                                     \
	}

static const struct gate_row rows[] = {
    {.name = "all four conditions hold",
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* 1. clean */
    {.name = "only the round stamp: not clean",
     .st = {ROUND(1001, T("10:00:00"))},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "no statuses at all",
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "clean state failure",
     .st = {ROUND(1001, T("10:00:00")), CLEAN(1002, "failure", T("10:20:00"))},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "clean state error",
     .st = {ROUND(1001, T("10:00:00")), CLEAN(1002, "error", T("10:20:00"))},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "a newer round after success: pending is not success",
     .st = {ST_OK, ROUND(1003, T("10:30:00"))},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "newest by id: success with the older timestamp wins",
     .st = {CLEAN(1004, "failure", T("10:30:00")),
            CLEAN(1005, "success", T("10:00:00"))},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "newest by id: failure with the older timestamp wins",
     .st = {CLEAN(1004, "success", T("10:30:00")),
            CLEAN(1005, "failure", T("10:00:00"))},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "newest by id regardless of list order",
     .st = {CLEAN(1009, "success", T("10:00:00")),
            CLEAN(1003, "failure", T("10:30:00"))},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "T3: untrusted success only",
     .st = {{1002, "success", CTX, "conductor pr=#7: clean=true", "dev1",
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "T3: untrusted newer success over trusted failure",
     .st = {CLEAN(1002, "failure", T("10:20:00")),
            {1003, "success", CTX, "conductor pr=#7: clean=true", "dev1",
             T("10:21:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "T3: trusted login in another case",
     .st = {{1002, "success", CTX, "conductor pr=#7: clean=true",
             "LFX-Reviewer", T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "T3: the [bot] account is another account",
     .st = {{1002, "success", CTX, "conductor pr=#7: clean=true",
             "lfx-reviewer[bot]", T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "T3: unknown creator",
     .st = {{1002, "success", CTX, "conductor pr=#7: clean=true", NULL,
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "status of PR 70 does not count for PR 7",
     .st = {{1002, "success", CTX, "conductor pr=#70: clean=true", TR,
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "pr=#7 without its colon does not count",
     .st = {{1002, "success", CTX, "conductor pr=#7 clean=true", TR,
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "PR 70's newer failure does not hide PR 7's success",
     .st = {ST_OK,
            {1003, "failure", CTX, "conductor pr=#70: clean=false", TR,
             T("10:30:00")}},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "another context does not count",
     .st = {{1002, "success", "agentic-review/clean-x",
             "conductor pr=#7: clean=true", TR, T("10:20:00")},
            {1003, "success", "ci/build", "conductor pr=#7: clean=true", TR,
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},
    {.name = "an escalation-context success is not clean",
     .st = {{1002, "success", ESC, "conductor pr=#7: clean=true", TR,
             T("10:20:00")}},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {0, 1, 1, 1}},

    /* 2. label absent */
    {.name = "label set",
     .labels = {"needs-human"},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 0, 1, 1}},
    {.name = "label set in another case",
     .labels = {"bug", "Needs-Human"},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 0, 1, 1}},
    {.name = "other labels only",
     .labels = {"bug", "needs-humans", "enhancement"},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* 3. threads answered */
    {.name = "a thread with one comment",
     .th = {{"PRRT_1", 2}, {"PRRT_2", 1}},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 0, 1},
     .reason_has = "PRRT_2"},
    {.name = "a thread with no comment",
     .th = {{"PRRT_1", 0}},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 0, 1}},
    {.name = "threads with many comments",
     .th = {{"PRRT_1", 2}, {"PRRT_2", 9}, {"PRRT_3", 3}},
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "no review threads at all",
     .no_threads = true,
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* 4. escalation: the verdict lookup */
    {.name = "lookup failed: comments unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_COMMENTS,
     .want = GATE_ERROR,
     .cond = {1, 1, 1, 0}},
    {.name = "lookup failed: timeline unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_TIMELINE,
     .want = GATE_ERROR,
     .cond = {1, 1, 1, 0}},
    {.name = "malformed verdict (yes and no)",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), MALFORMED_BOTH, NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "a newer malformed verdict hides an older no",
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), MALFORMED_BOTH, NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    /* A1: the older malformed verdict says yes (and no): it holds; was
     * GATE_APPROVE before A1 */
    {.name = "A1: a newer no over an older malformed yes+no holds",
     .st = {ST_OK},
     .cm = {{500, TR, T("10:01:00"), MALFORMED_BOTH, NULL, NULL}, NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 500 said needs-human: yes"},
    {.name = "a newer no over an older malformed verdict, lifted",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {{500, TR, T("10:01:00"), MALFORMED_BOTH, NULL, NULL}, NO_OK},
     .tl = {UNL(9001, "alice", T("10:02:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "a newer no over an older malformed verdict without a yes",
     .st = {ST_OK},
     .cm = {{500, TR, T("10:01:00"),
             "<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n"
             "<!-- head: " H " -->\n",
             NULL, NULL},
            NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "the highest comment id decides, not list order",
     .st = {ST_OK},
     .cm = {{502, TR, T("10:10:00"), MALFORMED_BOTH, NULL, NULL}, NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "malformed verdict without a base",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"),
             "<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n"
             "<!-- head: " H " -->\n",
             NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "a verdict naming H and another head is a malformed candidate",
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"),
             "<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n"
             "<!-- head: " H2 " -->\n<!-- head: " H " -->\n"
             "<!-- base: main -->\n",
             NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "a verdict for another head only: no verdict",
     .st = {ST_OK},
     .cm = {VERDICT(501, T("10:05:00"), "no", H2, "main")},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    /* A1: a yes binds whatever head it names; was GATE_APPROVE ("a
     * newer yes for an older head does not matter") before A1 */
    {.name = "A1: a newer yes for an older head holds",
     .st = {ST_OK},
     .cm = {NO_OK, VERDICT(502, T("10:10:00"), "yes", H2, "main")},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 said needs-human: yes"},
    {.name = "a newer yes for an older head is not the verdict for H",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK, VERDICT(502, T("10:10:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:11:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "upper-case head in the verdict names H",
     .st = {ST_OK},
     .cm = {VERDICT(501, T("10:05:00"), "no", H_UP, "main")},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "base mismatch",
     .st = {ST_OK},
     .cm = {VERDICT(501, T("10:05:00"), "no", H, "master")},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "base differing only in case",
     .st = {ST_OK},
     .cm = {VERDICT(501, T("10:05:00"), "no", H, "Main")},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "verdict base equals a non-default PR base",
     .base = "release/1.x",
     .st = {ST_OK},
     .cm = {VERDICT(501, T("10:05:00"), "no", H, "release/1.x")},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "verdict for main after a retarget to release (no event yet)",
     .base = "release/1.x",
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},

    /* T1 / T2 */
    {.name = "T1: verdict by an untrusted author is no verdict",
     .st = {ST_OK},
     .cm = {{501, "dev1", T("10:05:00"), NHB("no", H, "main"), NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T1: trusted login in another case",
     .st = {ST_OK},
     .cm = {{501, "LFX-REVIEWER", T("10:05:00"), NHB("no", H, "main"), NULL,
             NULL}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "T1: the [bot] account is not trusted",
     .st = {ST_OK},
     .cm = {{501, "lfx-reviewer[bot]", T("10:05:00"), NHB("no", H, "main"),
             NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T1: deleted author",
     .st = {ST_OK},
     .cm = {{501, NULL, T("10:05:00"), NHB("no", H, "main"), NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T2: edited by someone else",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), NHB("no", H, "main"), "dev1",
             T("10:06:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T2: edited by an unknown editor",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), NHB("no", H, "main"), NULL,
             T("10:06:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T2: edited by the trusted login",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), NHB("no", H, "main"), "lfx-reviewer",
             T("10:06:00")}},
     .want = GATE_APPROVE,
     .cond = ALL},
    /* A1: the edit by someone else is itself a hold; was GATE_APPROVE
     * before A1 */
    {.name = "A1/T2: a newer yes edited by someone else holds",
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), NHB("yes", H, "main"), "dev1",
             T("10:11:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "edited by dev1"},
    {.name = "T2: a newer yes edited by someone else is no verdict",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), NHB("yes", H, "main"), "dev1",
             T("10:11:00")}},
     .tl = {UNL(9001, "alice", T("10:12:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "T2: an older no edited by someone else does not vouch",
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), NHB("no", H, "main"), "dev1",
             T("10:11:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "T1: a newer untrusted yes is not a verdict",
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, "dev1", T("10:10:00"), NHB("yes", H, "main"), NULL, NULL}},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* verdict yes */
    {.name = "yes, authorized unlabel newer than the verdict",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "yes, authorized unlabel at the same second",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:05:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, authorized unlabel older than the verdict",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:00:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, the label was never lifted",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, unauthorized newest after authorized older",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:30:00")),
            UNL(9002, "mallory", T("10:40:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     /* the yes is refused for its own reason, not only by A1's hold */
     .reason_has = "who is not allowed to"},
    {.name = "yes, newest by id is unauthorized though earlier in time",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9002, "alice", T("10:40:00")),
            UNL(9003, "mallory", T("10:35:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     /* the yes is refused for its own reason, not only by A1's hold */
     .reason_has = "who is not allowed to"},
    {.name = "yes, newest by id is authorized though earlier in time",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9003, "alice", T("10:30:00")),
            UNL(9002, "mallory", T("10:40:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "yes, unlabel without an actor",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, NULL, T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, unlabel of another label does not count",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {{9001, "unlabeled", "bug", "alice", T("10:30:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, unlabel of the label in another case counts",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {{9001, "unlabeled", "Needs-Human", "alice", T("10:30:00")}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "yes, a labeled event is not an unlabel",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {{9001, "labeled", "needs-human", "alice", T("10:30:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, nobody may unlabel with an empty list",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, unlabelers compare case-insensitively",
     .unlabelers = "Alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "aLiCe", T("10:30:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "yes, [bot] suffix is another account for unlabelers",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice[bot]", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, timeline unreadable",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .failed = PART_TIMELINE,
     .want = GATE_ERROR,
     .cond = {1, 1, 1, 0}},
    {.name = "yes, and the label is still set",
     .unlabelers = "alice",
     .labels = {"needs-human"},
     .st = {ST_OK},
     .cm = {YES_OK},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 0, 1, 1}},

    /* verdict no */
    {.name = "no, authorized unlabel",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, "alice", T("09:30:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "no, unauthorized unlabel",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, "mallory", T("09:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "no, unauthorized unlabel after the verdict",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, "mallory", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "no, unlabel without an actor",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, NULL, T("09:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "no, authorized newest after unauthorized older",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, "mallory", T("09:30:00")),
            UNL(9002, "alice", T("09:40:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "no, unauthorized newest after authorized older",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {UNL(9001, "alice", T("09:30:00")),
            UNL(9002, "mallory", T("09:40:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "no, unauthorized unlabel of another label is irrelevant",
     .unlabelers = "alice",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {{9001, "unlabeled", "bug", "mallory", T("10:30:00")}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "no, timeline unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_TIMELINE,
     .want = GATE_ERROR,
     .cond = {1, 1, 1, 0}},

    /* no verdict: the skip marker row */
    {.name = "none, valid skip marker, authorized lift after round start",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "none, lift at the same second as the round start",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("10:00:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, lift before the round start",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("09:50:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker older than the round",
     .unlabelers = "alice",
     .st = {SKIP(1000, T("09:59:00")), ST_OK},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, a newer round after the skip marker",
     .unlabelers = "alice",
     .st = {ROUND(1001, T("10:00:00")), SKIP(1003, T("10:01:00")),
            ROUND(1004, T("10:02:00")), CLEAN(1005, "success", T("10:20:00"))},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, untrusted skip marker",
     .unlabelers = "alice",
     .st = {ST_OK,
            {1003, "success", ESC, "skipped pr=#7: needs-human label set",
             "dev1", T("10:01:00")}},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, no skip marker: the judge is still running",
     .unlabelers = "alice",
     .st = {ST_OK},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker but no round",
     .unlabelers = "alice",
     .st = {CLEAN(1002, "success", T("10:20:00")), SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker of PR 70",
     .unlabelers = "alice",
     .st = {ST_OK,
            {1003, "success", ESC, "skipped pr=#70: needs-human label set", TR,
             T("10:01:00")}},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker not in success state",
     .unlabelers = "alice",
     .st = {ST_OK,
            {1003, "pending", ESC, "skipped pr=#7: needs-human label set", TR,
             T("10:01:00")}},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker in the clean context",
     .unlabelers = "alice",
     .st = {ST_OK,
            {1003, "success", CTX, "skipped pr=#7: needs-human label set", TR,
             T("10:21:00")}},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker, unauthorized lift",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "mallory", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker, never lifted",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, skip marker, unauthorized lift after authorized one",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("10:10:00")),
            UNL(9002, "mallory", T("10:12:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "none, statuses unreadable",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .statuses_failed = true,
     .want = GATE_ERROR,
     .cond = {0, 1, 1, 0}},

    /* A1: a yes binds until an allowlisted unlabel strictly after it,
     * whatever happened to the label (renamed or deleted: no unlabeled
     * event, no label on the PR) and whatever a newer verdict says */
    {.name = "A1: yes on an older head, label gone without an unlabel",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 500 said needs-human: yes"},
    {.name = "A1: yes on an older head, lifted by an allowlisted unlabel",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "alice", T("10:02:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: an unlabel in the same second as the yes does not lift",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "alice", T("10:01:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: an unlabel before the yes does not lift",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "alice", T("10:00:59"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: a newer yes after an authorized unlabel holds again",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK,
            VERDICT(502, T("10:20:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 said needs-human: yes"},
    {.name = "A1: a yes for H lifted, then a yes for another head holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {YES_OK, VERDICT(502, T("10:40:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: an unauthorized unlabel after the yes does not lift",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "mallory", T("10:02:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: the newest unlabel unauthorized, an older one allowed",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "alice", T("10:02:00")),
            UNL(9002, "mallory", T("10:03:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: yes for another base holds",
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "dev"), NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: a fenced yes (the eager trigger) holds",
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), FENCED_YES, NULL, NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 said needs-human: yes"},
    {.name = "A1: a fenced yes lifted by an allowlisted unlabel",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), FENCED_YES, NULL, NULL}},
     .tl = {UNL(9001, "alice", T("10:11:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: an untrusted yes does not hold",
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, "dev1", T("10:10:00"), NHB("yes", H2, "main"), NULL, NULL}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: a yes by the [bot] look-alike does not hold",
     .st = {ST_OK},
     .cm = {NO_OK, {502, "lfx-reviewer[bot]", T("10:10:00"),
                    NHB("yes", H2, "main"), NULL, NULL}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: a hold with the label still set fails both",
     .unlabelers = ALICE,
     .labels = {"needs-human"},
     .st = {ST_OK},
     .cm = {VERDICT(500, T("10:01:00"), "yes", H2, "main"), NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 0, 1, 0}},

    /* A1: a trusted comment edited by someone else (T2 fails) holds
     * until an allowlisted unlabel after its newest edit time */
    {.name = "A1: a plain trusted comment edited by someone else holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", "dev1", T("10:20:00")}},
     .tl = {UNL(9001, "alice", T("10:15:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 of the machine account was edited by dev1"},
    {.name = "A1: ... lifted by an allowlisted unlabel after the edit",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", "dev1", T("10:20:00")}},
     .tl = {UNL(9001, "alice", T("10:25:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: ... an unlabel in the edit's second does not lift",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", "dev1", T("10:20:00")}},
     .tl = {UNL(9001, "alice", T("10:20:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1/A5: the newest edit time counts, a trusted edit included",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", TR, T("10:40:00")}},
     .ed = {{2, "dev1", T("10:20:00")}, {2, TR, T("10:40:00")}},
     .tl = {UNL(9001, "alice", T("10:30:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "edited by dev1"},
    {.name = "A1/A5: ... lifted after the newest edit",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", TR, T("10:40:00")}},
     .ed = {{2, "dev1", T("10:20:00")}, {2, TR, T("10:40:00")}},
     .tl = {UNL(9001, "alice", T("10:41:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1/A5: a null editor in the history holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, TR, T("10:10:00"), "Thanks!", TR, T("10:30:00")}},
     .ed = {{2, NULL, T("10:20:00")}, {2, TR, T("10:30:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "edited by an unknown account"},
    {.name = "A1: an unknown last editor holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), "Thanks!", NULL, T("10:20:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: a [bot] look-alike editor holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), "Thanks!", "lfx-reviewer[bot]",
                    T("10:20:00")}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "edited by lfx-reviewer[bot]"},
    {.name = "A1: the deciding no itself edited by someone else holds",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {{501, TR, T("10:05:00"), NHB("no", H, "main"), "dev1",
             T("10:06:00")}},
     .tl = {UNL(9001, "alice", T("10:07:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: edits by the trusted login only do not hold",
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), "Thanks!", TR, T("10:20:00")}},
     .ed = {{2, TR, T("10:15:00")}, {2, TR, T("10:20:00")}},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: an outsider's comment edited by another does not hold",
     .st = {ST_OK},
     .cm = {NO_OK,
            {502, "dev1", T("10:10:00"), "lgtm", "mallory", T("10:20:00")}},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* A1 on the no-verdict row: the skip marker and a hold */
    {.name = "A1: none, skip marker lifted, then a yes for an older head",
     .unlabelers = ALICE,
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .cm = {VERDICT(502, T("10:20:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 said needs-human: yes"},
    {.name = "A1: none, skip marker, a yes before the lift is lifted too",
     .unlabelers = ALICE,
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .cm = {VERDICT(502, T("09:30:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "A1: none, skip marker lifted, then a tampering edit",
     .unlabelers = ALICE,
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .cm = {{502, TR, T("09:30:00"), "Thanks!", "dev1", T("10:20:00")}},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: none, no skip marker: a hold changes nothing",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(502, T("09:30:00"), "yes", H2, "main")},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "still running"},

    /* retarget */
    {.name = "verdict older than the retarget is dropped",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {RETARGET(9100, T("10:10:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "verdict at the retarget's second is dropped",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {RETARGET(9100, T("10:05:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "verdict newer than the retarget stands",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {RETARGET(9100, T("10:04:59"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "the newest retarget is the highest id (keeps)",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {RETARGET(9100, T("10:10:00")), RETARGET(9200, T("10:00:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "the newest retarget is the highest id (drops)",
     .st = {ST_OK},
     .cm = {NO_OK},
     .tl = {RETARGET(9200, T("10:10:00")), RETARGET(9100, T("10:00:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    /* A1: the dropped verdict is a yes, which still holds (any base);
     * was GATE_APPROVE before A1 */
    {.name = "A1: a yes dropped by a retarget still holds",
     .st = {ST_OK},
     .cm = {VERDICT(502, T("09:50:00"), "yes", H, "main"), NO_OK},
     .tl = {RETARGET(9100, T("10:00:00"))},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0},
     .reason_has = "comment 502 said needs-human: yes"},
    {.name = "a dropped higher-id verdict does not hide a kept one",
     .st = {ST_OK},
     .cm = {VERDICT(502, T("09:50:00"), "no", H, "master"), NO_OK},
     .tl = {RETARGET(9100, T("10:00:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
    {.name = "retarget drops the only verdict: the skip marker decides",
     .unlabelers = "alice",
     .st = {ST_OK, SKIP(1003, T("10:01:00"))},
     .cm = {NO_OK},
     .tl = {RETARGET(9100, T("10:10:00")), UNL(9001, "alice", T("10:20:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* drafts */
    {.name = "draft withheld",
     .draft = true,
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_WITHHOLD,
     .cond = ALL,
     .reason_has = "draft"},
    {.name = "draft approved with approve_drafts",
     .draft = true,
     .approve_drafts = true,
     .st = {ST_OK},
     .cm = {NO_OK},
     .want = GATE_APPROVE,
     .cond = ALL},

    /* failed reads: error, the condition false */
    {.name = "labels unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_LABELS,
     .want = GATE_ERROR,
     .cond = {1, 0, 1, 1}},
    {.name = "threads unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_THREADS,
     .want = GATE_ERROR,
     .cond = {1, 1, 0, 1}},
    {.name = "reviews unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_REVIEWS,
     .want = GATE_ERROR,
     .cond = ALL,
     .reason_has = "reviews"},
    {.name = "statuses unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .statuses_failed = true,
     .want = GATE_ERROR,
     .cond = {0, 1, 1, 1}},
    {.name = "several reads failed",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_LABELS | PART_THREADS | PART_COMMENTS,
     .want = GATE_ERROR,
     .cond = {1, 0, 0, 0}},
    {.name = "the pull itself unreadable",
     .st = {ST_OK},
     .cm = {NO_OK},
     .failed = PART_PULL,
     .want = GATE_ERROR,
     .cond = {0, 0, 0, 0}},
};

/* --- building the input --- */

static int64_t tm(const char *s)
{
	int64_t t = 0;

	if (!s)
		return 0;
	assert_int_equal(time_parse(&t, s), 0);
	return t;
}

static void build(struct snap_pull *p, struct snap_statuses *st,
                  const struct gate_row *r)
{
	static const struct th_spec default_threads[] = {{"PRRT_1", 2},
	                                                 {"PRRT_2", 3}};
	size_t i, n;

	memset(p, 0, sizeof(*p));
	p->number = 7;
	p->state = xstrdup("open");
	p->draft = r->draft;
	p->author = xstrdup("dev1");
	memcpy(p->head_sha, H, SHA_BUF);
	p->head_ref = xstrdup("feature");
	p->head_repo = xstrdup("lf/svc");
	p->base_ref = xstrdup(r->base ? r->base : "main");

	for (n = 0; n < 3 && r->labels[n]; n++)
		;
	p->labels = xcalloc(n ? n : 1, sizeof(char *));
	for (i = 0; i < n; i++)
		p->labels[p->nlabels++] = xstrdup(r->labels[i]);

	for (n = 0; n < 4 && r->cm[n].id; n++)
		;
	p->comments = xcalloc(n ? n : 1, sizeof(*p->comments));
	for (i = 0; i < n; i++) {
		struct snap_comment *c = &p->comments[p->ncomments++];

		c->id = r->cm[i].id;
		c->author = xstrdup_or_null(r->cm[i].author);
		c->created_at = tm(r->cm[i].at);
		c->body = xstrdup(r->cm[i].body);
		c->body_len = strlen(c->body);
		c->edited_by = xstrdup_or_null(r->cm[i].edited_by);
		c->edited_at = tm(r->cm[i].edited_at);
		c->edited = r->cm[i].edited_by || r->cm[i].edited_at;
	}
	for (n = 0; n < 3 && r->ed[n].cm; n++) {
		struct snap_comment *c = &p->comments[r->ed[n].cm - 1];

		assert_true((size_t)r->ed[n].cm <= p->ncomments);
		c->edits = xrealloc(c->edits,
		                    (c->nedits + 1) * sizeof(*c->edits));
		c->edits[c->nedits].editor = xstrdup_or_null(r->ed[n].editor);
		c->edits[c->nedits].edited_at = tm(r->ed[n].at);
		c->nedits++;
	}

	for (n = 0; n < 4 && r->tl[n].id; n++)
		;
	p->timeline = xcalloc(n ? n : 1, sizeof(*p->timeline));
	for (i = 0; i < n; i++) {
		struct snap_event *e = &p->timeline[p->ntimeline++];

		e->id = r->tl[i].id;
		e->event = xstrdup(r->tl[i].event);
		e->kind = strcmp(e->event, "unlabeled") == 0 ? TL_UNLABELED
		          : strcmp(e->event, "base_ref_changed") == 0
		              ? TL_BASE_REF_CHANGED
		              : TL_OTHER;
		e->label = xstrdup_or_null(r->tl[i].label);
		e->actor = xstrdup_or_null(r->tl[i].actor);
		e->created_at = tm(r->tl[i].at);
	}

	if (!r->no_threads) {
		const struct th_spec *th =
		    r->th[0].id ? r->th : default_threads;
		size_t max = r->th[0].id ? 4 : ARRAY_SIZE(default_threads);

		for (n = 0; n < max && th[n].id; n++)
			;
		p->threads = xcalloc(n ? n : 1, sizeof(*p->threads));
		for (i = 0; i < n; i++) {
			struct snap_thread *t = &p->threads[p->nthreads++];

			t->id = xstrdup(th[i].id);
			t->author = xstrdup("copilot-pull-request-reviewer");
			t->comments = th[i].comments;
		}
	}

	memset(st, 0, sizeof(*st));
	memcpy(st->sha, H, SHA_BUF);
	for (n = 0; n < 6 && r->st[n].id; n++)
		;
	st->v = xcalloc(n ? n : 1, sizeof(*st->v));
	for (i = 0; i < n; i++) {
		struct snap_status *x = &st->v[st->n++];

		x->id = r->st[i].id;
		x->state = xstrdup(r->st[i].state);
		x->context = xstrdup(r->st[i].context);
		x->description = xstrdup(r->st[i].desc);
		x->creator = xstrdup_or_null(r->st[i].creator);
		x->created_at = tm(r->st[i].at);
	}
}

static void policy_for(struct policy *p, const struct gate_row *r)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	policy_init(p);
	if (r->unlabelers)
		assert_int_equal(
		    policy_set(p, "unlabelers", r->unlabelers, &err), 0);
	if (r->approve_drafts)
		assert_int_equal(policy_set(p, "approve_drafts", "true", &err),
		                 0);
	buf_release(&err);
}

static bool has_reason(const struct gate_decision *d, const char *needle)
{
	size_t i;

	for (i = 0; i < d->nreasons; i++)
		if (strstr(d->reasons[i], needle))
			return true;
	return false;
}

/* Walk a table of gate rows; returns the number of mismatches. */
static int check_rows(const struct gate_row *table, size_t nrows)
{
	size_t i;
	int bad = 0, c;

	for (i = 0; i < nrows; i++) {
		const struct gate_row *r = &table[i];
		struct snap_pull pull;
		struct snap_statuses st;
		struct policy pol;
		struct gate_input in;
		struct gate_decision d;
		size_t nfailed = 0, k;

		build(&pull, &st, r);
		policy_for(&pol, r);
		memset(&in, 0, sizeof(in));
		in.repository = "lf/svc";
		in.pr = 7;
		in.pull = &pull;
		in.failed = r->failed;
		in.ok = GATE_PARTS & ~r->failed;
		in.statuses = r->statuses_failed ? NULL : &st;
		gate_decision_init(&d);
		gate_decide(&d, &in, &pol);

		if (d.outcome != r->want) {
			print_error("row %zu (%s): outcome %s, expected %s\n",
			            i, r->name, gate_outcome_names[d.outcome],
			            gate_outcome_names[r->want]);
			bad++;
		}
		for (c = 0; c < COND_COUNT; c++) {
			if (d.cond[c] != r->cond[c]) {
				print_error("row %zu (%s): condition %s is %d, "
				            "expected %d (%s)\n",
				            i, r->name, gate_cond_keys[c],
				            d.cond[c], r->cond[c],
				            d.why[c].ptr);
				bad++;
			}
			if (!d.cond[c])
				nfailed++;
			/* one sentence each, pass or fail */
			if (d.evaluated && d.why[c].len == 0) {
				print_error("row %zu (%s): empty why for %s\n",
				            i, r->name, gate_cond_keys[c]);
				bad++;
			}
		}
		if (!(r->failed & PART_PULL) && !d.evaluated) {
			print_error("row %zu (%s): not evaluated\n", i,
			            r->name);
			bad++;
		}
		/* every failed condition and every other cause has a reason */
		if (d.evaluated &&
		    d.nreasons < nfailed + (r->draft && !r->approve_drafts)) {
			print_error("row %zu (%s): %zu reasons for %zu failed "
			            "conditions\n",
			            i, r->name, d.nreasons, nfailed);
			bad++;
		}
		if (d.outcome != GATE_APPROVE && d.nreasons == 0) {
			print_error("row %zu (%s): not approved, no reason\n",
			            i, r->name);
			bad++;
		}
		if (d.outcome == GATE_APPROVE && d.nreasons != 0) {
			print_error(
			    "row %zu (%s): approved with reason \"%s\"\n", i,
			    r->name, d.reasons[0]);
			bad++;
		}
		for (k = 0; k < d.nreasons; k++)
			if (!d.reasons[k] || !*d.reasons[k]) {
				print_error("row %zu (%s): empty reason\n", i,
				            r->name);
				bad++;
			}
		for (c = 0; c < COND_COUNT && d.evaluated; c++) {
			if (d.cond[c])
				continue;
			if (!has_reason(&d, d.why[c].ptr)) {
				print_error("row %zu (%s): failed %s not among "
				            "the reasons\n",
				            i, r->name, gate_cond_keys[c]);
				bad++;
			}
		}
		if (r->reason_has && !has_reason(&d, r->reason_has)) {
			print_error("row %zu (%s): no reason mentions \"%s\"\n",
			            i, r->name, r->reason_has);
			bad++;
		}
		gate_decision_release(&d);
		policy_release(&pol);
		snap_pull_release(&pull);
		snap_statuses_release(&st);
	}
	return bad;
}

static void test_gate__table(void **state)
{
	(void)state;
	assert_int_equal(check_rows(rows, ARRAY_SIZE(rows)), 0);
}

/*
 * A1 with a time of zero: Y exists when a trusted comment fires the label
 * trigger or was edited by someone else, whatever its time says. An edit
 * at the epoch is an edit all the same (N21, as for T2 in fixture 893),
 * and so is an edit whose time is not known; a hold at time 0 is lifted
 * only by an allowlisted unlabel after it.
 */
static const struct gate_row zero_rows[] = {
    {.name = "A1: an edit by someone else at the epoch holds",
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), "Thanks!", NULL, EPOCH}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: an edit by someone else at an unknown time holds",
     .st = {ST_OK},
     .cm = {NO_OK, {502, TR, T("10:10:00"), "Thanks!", "dev1", NULL}},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: a yes created at the epoch holds",
     .st = {ST_OK},
     .cm = {VERDICT(500, EPOCH, "yes", H2, "main"), NO_OK},
     .want = GATE_WITHHOLD,
     .cond = {1, 1, 1, 0}},
    {.name = "A1: a hold at the epoch is lifted by an allowlisted unlabel",
     .unlabelers = ALICE,
     .st = {ST_OK},
     .cm = {VERDICT(500, EPOCH, "yes", H2, "main"), NO_OK},
     .tl = {UNL(9001, "alice", T("10:10:00"))},
     .want = GATE_APPROVE,
     .cond = ALL},
};

static void test_gate__a1_hold_at_time_zero(void **state)
{
	(void)state;
	assert_int_equal(check_rows(zero_rows, ARRAY_SIZE(zero_rows)), 0);
}

/* --- skips --- */

struct skip_row {
	const char *name;
	const char *state;
	bool merged;
	const char *head_repo;
	const char *repository;
	bool skip;
	const char *why_has;
};

static const struct skip_row skip_rows[] = {
    {"open, same repository", "open", false, "lf/svc", "lf/svc", false, NULL},
    {"closed", "closed", false, "lf/svc", "lf/svc", true, "closed"},
    {"merged", "closed", true, "lf/svc", "lf/svc", true, "merged"},
    {"merged flag wins even if state says open", "open", true, "lf/svc",
     "lf/svc", true, "merged"},
    {"fork", "open", false, "mallory/svc", "lf/svc", true, "fork"},
    {"fork with the same name elsewhere", "open", false, "lf/svc2", "lf/svc",
     true, "fork"},
    {"same repository in another case", "open", false, "LF/SVC", "lf/svc",
     false, NULL},
    {"repository argument in another case", "open", false, "lf/svc", "Lf/Svc",
     false, NULL},
    {"closed fork", "closed", false, "mallory/svc", "lf/svc", true, NULL},
};

static void test_gate__skip_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(skip_rows); i++) {
		const struct skip_row *r = &skip_rows[i];
		struct snap_pull p;
		struct buf why = BUF_INIT(BUF_MAX_SMALL);
		bool got;

		memset(&p, 0, sizeof(p));
		p.number = 7;
		p.state = xstrdup(r->state);
		p.merged = r->merged;
		memcpy(p.head_sha, H, SHA_BUF);
		p.head_ref = xstrdup("feature");
		p.head_repo = xstrdup(r->head_repo);
		p.base_ref = xstrdup("main");
		got = gate_skip(&p, r->repository, &why);
		if (got != r->skip) {
			print_error("row %zu (%s): skip %d, expected %d\n", i,
			            r->name, got, r->skip);
			bad++;
		}
		if (got && why.len == 0) {
			print_error("row %zu (%s): no sentence\n", i, r->name);
			bad++;
		}
		if (r->why_has && !strstr(why.ptr, r->why_has)) {
			print_error("row %zu (%s): \"%s\" lacks \"%s\"\n", i,
			            r->name, why.ptr, r->why_has);
			bad++;
		}
		buf_release(&why);
		snap_pull_release(&p);
	}
	assert_int_equal(bad, 0);
}

/* --- smaller contracts --- */

static void test_gate__names(void **state)
{
	(void)state;
	assert_string_equal(gate_cond_keys[COND_CLEAN], "clean");
	assert_string_equal(gate_cond_keys[COND_LABEL_ABSENT], "label_absent");
	assert_string_equal(gate_cond_keys[COND_THREADS_ANSWERED],
	                    "threads_answered");
	assert_string_equal(gate_cond_keys[COND_ESCALATION], "escalation");
	assert_string_equal(gate_outcome_names[GATE_APPROVE], "approve");
	assert_string_equal(gate_outcome_names[GATE_WITHHOLD], "withhold");
	assert_string_equal(gate_outcome_names[GATE_SKIPPED], "skipped");
	assert_string_equal(gate_outcome_names[GATE_ERROR], "error");
}

static void test_gate__custom_policy_names(void **state)
{
	/* label, contexts and trusted login come from the policy */
	struct gate_row r;
	struct snap_pull pull;
	struct snap_statuses st;
	struct policy pol;
	struct gate_input in;
	struct gate_decision d;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	memset(&r, 0, sizeof(r));
	r.labels[0] = "needs-human"; /* not the configured label any more */
	r.st[0] = (struct st_spec){1002,         "success",
	                           "ci/verdict", "conductor pr=#7: clean=true",
	                           "robot",      T("10:20:00")};
	r.cm[0] = (struct cm_spec){
	    501, "robot", T("10:05:00"), NHB("no", H, "main"), NULL, NULL};
	build(&pull, &st, &r);
	policy_init(&pol);
	assert_int_equal(policy_set(&pol, "trusted_login", "robot", &err), 0);
	assert_int_equal(policy_set(&pol, "clean_context", "ci/verdict", &err),
	                 0);
	assert_int_equal(policy_set(&pol, "label", "escalate", &err), 0);
	memset(&in, 0, sizeof(in));
	in.repository = "lf/svc";
	in.pr = 7;
	in.pull = &pull;
	in.ok = GATE_PARTS;
	in.statuses = &st;
	gate_decision_init(&d);
	gate_decide(&d, &in, &pol);
	assert_int_equal(d.outcome, GATE_APPROVE);
	gate_decision_release(&d);

	/* the default trusted login is no longer trusted */
	free(pull.comments[0].author);
	pull.comments[0].author = xstrdup("lfx-reviewer");
	gate_decision_init(&d);
	gate_decide(&d, &in, &pol);
	assert_int_equal(d.outcome, GATE_WITHHOLD);
	assert_false(d.cond[COND_ESCALATION]);
	assert_true(d.cond[COND_CLEAN]);
	gate_decision_release(&d);

	policy_release(&pol);
	snap_pull_release(&pull);
	snap_statuses_release(&st);
	buf_release(&err);
}

static void test_gate__add_reason(void **state)
{
	struct gate_decision d;

	(void)state;
	gate_decision_init(&d);
	gate_add_reason(&d, "one %d", 1);
	gate_add_reason(&d, "%s", "two");
	assert_int_equal(d.nreasons, 2);
	assert_string_equal(d.reasons[0], "one 1");
	assert_string_equal(d.reasons[1], "two");
	gate_decision_release(&d);
	assert_int_equal(d.nreasons, 0);
	assert_null(d.reasons);
}

static void test_gate__verdict_links(void **state)
{
	/* the summary links the deciding verdict and the clean status's
	 * target: taken from them, never from another comment */
	struct gate_row r;
	struct snap_pull pull;
	struct snap_statuses st;
	struct policy pol;
	struct gate_input in;
	struct gate_decision d;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.st[0] = (struct st_spec)ROUND(1001, T("10:00:00"));
	r.st[1] = (struct st_spec)CLEAN(1002, "success", T("10:20:00"));
	r.cm[0] = (struct cm_spec)VERDICT(500, T("10:01:00"), "yes", H, "main");
	r.cm[1] = (struct cm_spec)NO_OK;
	r.cm[2] = (struct cm_spec){
	    502, "dev1", T("10:07:00"), NHB("yes", H, "main"), NULL, NULL};
	/* A1: the older yes (500) holds until an allowlisted unlabel */
	r.tl[0] = (struct tl_spec)UNL(9001, "alice", T("10:30:00"));
	r.unlabelers = ALICE;
	build(&pull, &st, &r);
	pull.comments[0].html_url = xstrdup("https://x/500");
	pull.comments[1].html_url = xstrdup("https://x/501");
	pull.comments[2].html_url = xstrdup("https://x/502");
	st.v[1].target_url = xstrdup("https://x/check");
	policy_for(&pol, &r);
	memset(&in, 0, sizeof(in));
	in.repository = "lf/svc";
	in.pr = 7;
	in.pull = &pull;
	in.ok = GATE_PARTS;
	in.statuses = &st;
	gate_decision_init(&d);
	gate_decide(&d, &in, &pol);
	assert_int_equal(d.outcome, GATE_APPROVE);
	assert_non_null(d.verdict_url);
	assert_string_equal(d.verdict_url, "https://x/501");
	assert_non_null(d.check_url);
	assert_string_equal(d.check_url, "https://x/check");
	gate_decision_release(&d);
	policy_release(&pol);
	snap_pull_release(&pull);
	snap_statuses_release(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gate__table),
	    cmocka_unit_test(test_gate__a1_hold_at_time_zero),
	    cmocka_unit_test(test_gate__skip_table),
	    cmocka_unit_test(test_gate__names),
	    cmocka_unit_test(test_gate__custom_policy_names),
	    cmocka_unit_test(test_gate__add_reason),
	    cmocka_unit_test(test_gate__verdict_links),
	};

	return cmocka_run_group_tests_name("gate", tests, NULL, NULL);
}
