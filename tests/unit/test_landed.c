/*
 * test_landed.c - the lost-answer rule (core/landed.c): for every write
 * kind, rows of (what was sent, what a re-read shows) → did it land, and
 * which object shows it.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/landed.h"
#include "base/util.h"
#include "core/policy.h"

#define H      "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define O      "0101010101010101010101010101010101010101"
#define TR     "lfx-reviewer"
#define CTX    "agentic-review/clean"
#define RCTX   "pr-review"
#define CLEAN7 "conductor pr=#7: clean=true"

/* A row's re-read, in literals; seen_open() turns it into a landed_seen. */
struct st_lit {
	int64_t id;
	const char *state, *context, *description, *creator, *target_url;
};
struct rv_lit {
	int64_t id;
	const char *author, *state, *commit_id;
};
struct cm_lit {
	int64_t id;
	const char *author, *body;
};
struct seen_lit {
	const char *labels[3];
	struct st_lit st[3];
	struct rv_lit rv[3];
	struct cm_lit cm[3];
	bool roots; /* the two roots below */
};

#define LABELS(...)   .labels = {__VA_ARGS__}
#define STATUSES(...) .st = {__VA_ARGS__}
#define REVIEWS(...)  .rv = {__VA_ARGS__}
#define COMMENTS(...) .cm = {__VA_ARGS__}
#define ST(i, st, ctx, desc, who, url)                                         \
	{                                                                      \
		(i), (st), (ctx), (desc), (who), (url)                         \
	}
#define RV(i, who, st, sha)                                                    \
	{                                                                      \
		(i), (who), (st), (sha)                                        \
	}
#define CM(i, who, text)                                                       \
	{                                                                      \
		(i), (who), (text)                                             \
	}

/* The findings and roots of the ROOT rows. */
static char slug3[] = "null-deref", slug4[] = "leak";
static struct rv_finding f3 = {.id = 3, .slug = slug3};
static struct rv_finding f4 = {.id = 4, .slug = slug4};
static const struct inline_root roots[] = {
    {.id = 4, .slug = "leak", .head = O, .comment_id = 90},
    {.id = 3, .slug = "null-deref", .head = H, .comment_id = 91},
};

/* The writes of the status rows: apply's clean status of PR 7, and a
 * publish status. */
#define W_CLEAN7(url)                                                          \
	{                                                                      \
		.kind = LANDED_STATUS, .state = "success", .context = CTX,     \
		.description = CLEAN7, .target_url = (url), .pr = 7            \
	}
#define W_PUB(st, desc, url)                                                   \
	{                                                                      \
		.kind = LANDED_STATUS, .state = (st), .context = RCTX,         \
		.description = (desc), .target_url = (url),                    \
		.as_review_login = true                                        \
	}

struct row {
	const char *name;
	struct landed_write w;
	struct seen_lit seen;
	ptrdiff_t want;
};

static const struct row rows[] = {
    /* --- labels (§3.1) --- */
    {"create: the label exists",
     {.kind = LANDED_CREATE_LABEL, .label = "needs-human"},
     {LABELS("needs-human")},
     0},
    {"create: not there",
     {.kind = LANDED_CREATE_LABEL, .label = "needs-human"},
     {.labels = {NULL}},
     -1},
    {"add: on the PR, other case",
     {.kind = LANDED_ADD_LABEL, .label = "needs-human"},
     {LABELS("bug", "Needs-Human")},
     0},
    {"add: another label only",
     {.kind = LANDED_ADD_LABEL, .label = "needs-human"},
     {LABELS("bug", "needs-humans")},
     -1},

    /* --- statuses (§3.3; W3, W6) --- */
    {"status: the newest of ours says it",
     W_CLEAN7("u"),
     {STATUSES(
         ST(10, "failure", CTX, "conductor pr=#7: clean=false", TR, "u"),
         ST(11, "success", CTX, CLEAN7, TR, "u"),
         ST(12, "failure", CTX, "conductor pr=#8: clean=false", TR, NULL))},
     1},
    {"status: a newer one of ours says otherwise",
     W_CLEAN7(NULL),
     {STATUSES(
         ST(11, "success", CTX, CLEAN7, TR, NULL),
         ST(13, "failure", CTX, "conductor pr=#7: clean=false", TR, NULL))},
     -1},
    {"status: only someone else's says it",
     W_CLEAN7(NULL),
     {STATUSES(ST(14, "success", CTX, CLEAN7, "mallory", NULL))},
     -1},
    {"status: no creator is not ours",
     W_CLEAN7(NULL),
     {STATUSES(ST(14, "success", CTX, CLEAN7, NULL, NULL))},
     -1},
    {"status: someone else's newer one does not hide ours",
     W_CLEAN7(NULL),
     {STATUSES(ST(11, "success", CTX, CLEAN7, TR, NULL),
               ST(15, "failure", CTX, "conductor pr=#7: clean=false", "mallory",
                  NULL))},
     0},
    {"status: another context",
     W_CLEAN7(NULL),
     {STATUSES(ST(11, "success", "other", CLEAN7, TR, NULL))},
     -1},
    {"status: another PR's newer status does not count",
     W_CLEAN7(NULL),
     {STATUSES(
         ST(11, "success", CTX, CLEAN7, TR, NULL),
         ST(16, "failure", CTX, "conductor pr=#70: clean=false", TR, NULL))},
     0},
    {"status: the URL differs",
     W_PUB("success", "passed", "s#1"),
     {STATUSES(ST(20, "success", RCTX, "passed", TR, "s#2"))},
     -1},
    {"status: a URL where none was sent",
     W_PUB("success", "passed", NULL),
     {STATUSES(ST(20, "success", RCTX, "passed", TR, "s#2"))},
     -1},
    {"status: publish's, by the review login",
     W_PUB("pending", "publishing", "s#1"),
     {STATUSES(ST(19, "success", RCTX, "passed", TR, "s#1"),
               ST(20, "pending", RCTX, "publishing", TR, "s#1"))},
     1},
    {"status: publish's, by the App's bot: not the review login",
     W_PUB("pending", "publishing", "s#1"),
     {STATUSES(ST(20, "pending", RCTX, "publishing", "app[bot]", "s#1"))},
     -1},
    {"status: the state differs",
     W_CLEAN7(NULL),
     {STATUSES(ST(11, "failure", CTX, CLEAN7, TR, NULL))},
     -1},

    /* --- approvals and dismissals (§6.1, §6.2) --- */
    {"approve: ours, that commit",
     {.kind = LANDED_APPROVE, .commit_id = H},
     {REVIEWS(RV(70, TR, "APPROVED", O), RV(71, TR, "APPROVED", H),
              RV(72, "mallory", "APPROVED", H))},
     1},
    {"approve: ours, another commit",
     {.kind = LANDED_APPROVE, .commit_id = H},
     {REVIEWS(RV(70, TR, "APPROVED", O))},
     -1},
    {"approve: someone else's of that commit",
     {.kind = LANDED_APPROVE, .commit_id = H},
     {REVIEWS(RV(72, "mallory", "APPROVED", H))},
     -1},
    {"approve: ours, dismissed",
     {.kind = LANDED_APPROVE, .commit_id = H},
     {REVIEWS(RV(71, TR, "DISMISSED", H))},
     -1},
    {"approve: the newest of two",
     {.kind = LANDED_APPROVE, .commit_id = H},
     {REVIEWS(RV(75, TR, "APPROVED", H), RV(71, TR, "APPROVED", H))},
     0},
    {"dismiss: that review dismissed",
     {.kind = LANDED_DISMISS, .id = 71},
     {REVIEWS(RV(70, TR, "DISMISSED", O), RV(71, TR, "DISMISSED", H))},
     1},
    {"dismiss: still approved",
     {.kind = LANDED_DISMISS, .id = 71},
     {REVIEWS(RV(70, TR, "DISMISSED", O), RV(71, TR, "APPROVED", H))},
     -1},
    {"dismiss: gone", {.kind = LANDED_DISMISS, .id = 71}, {.rv = {{0}}}, -1},

    /* --- comments (W1, W2, W5) --- */
    {"create: ours, newer, the body",
     {.kind = LANDED_COMMENT_CREATE,
      .id = 500,
      .body = "sticky",
      .body_len = 6,
      .as_review_login = true},
     {COMMENTS(CM(500, TR, "sticky"), CM(501, "bob", "sticky"),
               CM(502, TR, "sticky\r\n\n"))},
     2},
    {"create: only an older one holds the body",
     {.kind = LANDED_COMMENT_CREATE,
      .id = 500,
      .body = "sticky",
      .body_len = 6,
      .as_review_login = true},
     {COMMENTS(CM(500, TR, "sticky"), CM(501, "bob", "sticky"))},
     -1},
    {"create: ours, newer, another body",
     {.kind = LANDED_COMMENT_CREATE,
      .id = 500,
      .body = "sticky",
      .body_len = 6,
      .as_review_login = true},
     {COMMENTS(CM(502, TR, "sticky!"))},
     -1},
    {"patch: the comment holds the body",
     {.kind = LANDED_COMMENT_PATCH, .id = 501, .body = "a\nb", .body_len = 3},
     {COMMENTS(CM(500, TR, "a\nb"), CM(501, TR, "a\r\nb\n"))},
     1},
    {"patch: the comment holds the old body",
     {.kind = LANDED_COMMENT_PATCH, .id = 501, .body = "a\nb", .body_len = 3},
     {COMMENTS(CM(500, TR, "a\nb"), CM(501, TR, "a\nc"))},
     -1},
    {"delete: gone",
     {.kind = LANDED_COMMENT_DELETE, .id = 501},
     {COMMENTS(CM(500, TR, "x"), CM(502, TR, "y"))},
     0},
    {"delete: still there",
     {.kind = LANDED_COMMENT_DELETE, .id = 501},
     {COMMENTS(CM(500, TR, "x"), CM(501, TR, "y"))},
     -1},

    /* --- inline roots (W4) --- */
    {"root: the finding's root on the head",
     {.kind = LANDED_ROOT, .finding = &f3, .head = H},
     {.roots = true},
     1},
    {"root: only on an older head",
     {.kind = LANDED_ROOT, .finding = &f4, .head = H},
     {.roots = true},
     -1},
};

/* The snapshot structs own char *: copies of the row's literals. */
struct seen_buf {
	char *labels[3];
	struct snap_status st[3];
	struct snap_review rv[3];
	struct snap_comment cm[3];
};

static void seen_open(struct landed_seen *out, struct seen_buf *b,
                      const struct seen_lit *l)
{
	memset(out, 0, sizeof(*out));
	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < 3; i++) {
		if (l->labels[i])
			b->labels[out->nlabels++] = xstrdup(l->labels[i]);
		if (l->st[i].id) {
			struct snap_status *x = &b->st[out->nstatuses++];

			x->id = l->st[i].id;
			x->state = xstrdup(l->st[i].state);
			x->context = xstrdup(l->st[i].context);
			x->description = xstrdup(l->st[i].description);
			x->creator = xstrdup_or_null(l->st[i].creator);
			x->target_url = xstrdup_or_null(l->st[i].target_url);
		}
		if (l->rv[i].id) {
			struct snap_review *r = &b->rv[out->nreviews++];

			r->id = l->rv[i].id;
			r->author = xstrdup_or_null(l->rv[i].author);
			r->state = xstrdup(l->rv[i].state);
			memcpy(r->commit_id, l->rv[i].commit_id, SHA_BUF);
		}
		if (l->cm[i].id) {
			struct snap_comment *c = &b->cm[out->ncomments++];

			c->id = l->cm[i].id;
			c->author = xstrdup_or_null(l->cm[i].author);
			c->body = xstrdup(l->cm[i].body);
			c->body_len = strlen(c->body);
		}
	}
	out->labels = b->labels;
	out->statuses = b->st;
	out->reviews = b->rv;
	out->comments = b->cm;
	if (l->roots) {
		out->roots = roots;
		out->nroots = ARRAY_SIZE(roots);
	}
}

static void seen_close(struct landed_seen *s, struct seen_buf *b)
{
	for (size_t i = 0; i < 3; i++) {
		free(b->labels[i]);
		snap_status_release(&b->st[i]);
		snap_review_release(&b->rv[i]);
		snap_comment_release(&b->cm[i]);
	}
	memset(s, 0, sizeof(*s));
}

static void test_landed__table(void **state)
{
	struct policy p;
	int bad = 0;

	(void)state;
	policy_init(&p);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct landed_seen seen;
		struct seen_buf b;
		ptrdiff_t got;

		seen_open(&seen, &b, &rows[i].seen);
		got = landed(&rows[i].w, &seen, &p);
		if (got != rows[i].want) {
			print_error("row %zu (%s): expected %td, got %td\n", i,
			            rows[i].name, rows[i].want, got);
			bad++;
		}
		seen_close(&seen, &b);
	}
	policy_release(&p);
	assert_int_equal(bad, 0);
}

struct body_row {
	const char *have, *want;
	bool same;
};

static const struct body_row body_rows[] = {
    {"abc", "abc", true},         {"abc\n", "abc", true},
    {"abc\r\n\r\n", "abc", true}, {"a\r\nb", "a\nb", true},
    {"abc\r", "abc", false},      {"abc\r", "abc\r", true},
    {"abc\r\r\n", "abc\r", true}, {"ab", "abc", false},
    {"abcd", "abc", false},       {"\n\n", "", true},
    {"a\n\nb\n", "a\n\nb", true}, {"a\rb", "a\nb", false},
};

static void test_landed__same_body(void **state)
{
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(body_rows); i++) {
		const struct body_row *r = &body_rows[i];

		if (landed_same_body(r->have, strlen(r->have), r->want,
		                     strlen(r->want)) != r->same) {
			print_error("body row %zu: expected %d\n", i, r->same);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_landed__table),
	    cmocka_unit_test(test_landed__same_body),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
