/*
 * test_snapshot.c - SNAPSHOT.md §2: the strict loader, the writer, and
 * the round trip between them.
 *
 * JSON literals are written with single quotes for legibility; sq() turns
 * them into double quotes before parsing (\\' gives an escaped quote).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/file.h"
#include "base/json.h"
#include "core/policy.h"
#include "formats/snapshot.h"

#define H  "7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e"
#define H2 "0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d"
#define TS "2026-11-29T10:05:00Z"

/* Single quotes to double quotes; the caller frees. */
static char *sq(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '\'')
			*p = '"';
	return d;
}

/* Load a single-quoted snapshot literal; returns the loader's result. */
static int load(struct snapshot *s, const char *literal, struct buf *err)
{
	char *text = sq(literal);
	int r;

	buf_reset(err);
	r = snapshot_from_json(s, text, strlen(text), err);
	free(text);
	return r;
}

static int64_t tm(const char *s)
{
	int64_t t = 0;

	assert_int_equal(time_parse(&t, s), 0);
	return t;
}

static const char full_snapshot[] =
    "{'snapshot': 1, 'repository': 'lf/svc', 'viewer': 'lfx-reviewer',"
    " 'now': '2026-11-29T12:00:00Z',"
    " 'config': {'unlabelers': ['alice', 'bob'], 'approve_drafts': true,"
    "   'sweep_deadline': 300, 'label': 'needs-human'},"
    " 'event': {'name': 'issue_comment', 'payload': {'action': 'created',"
    "   'issue': {'number': 7}, 'x': [1, 2, {'y': null}]}},"
    " 'pulls': [{"
    "   'number': 7, 'state': 'open', 'merged': false, 'draft': true,"
    "   'author': 'dev1', 'updated_at': '2026-11-29T11:00:00Z',"
    "   'head': {'sha': '" H "', 'ref': 'feature', 'repository': 'dev1/svc'},"
    "   'base': {'ref': 'main'},"
    "   'labels': ['needs-human', 'bug'],"
    "   'commits': ['" H2 "', '" H "'],"
    "   'comments': ["
    "     {'id': 501, 'author': 'lfx-reviewer', 'created_at': '" TS "',"
    "      'body': 'line1\\nline2 \\'q\\' \\u00e9 \\\\ end', 'edited_by': null,"
    "      'edited_at': null,"
    "      'html_url': 'https://github.com/lf/svc/pull/7#issuecomment-501'},"
    "     {'id': 502, 'author': null,"
    "      'created_at': '2026-11-29T10:06:00.250Z', 'body': 'b',"
    "      'edited_by': 'dev1', 'edited_at': '2026-11-29T10:07:00Z'}],"
    "   'timeline': ["
    "     {'id': 9001, 'event': 'unlabeled', 'label': 'needs-human',"
    "      'actor': 'alice', 'created_at': '2026-11-29T10:30:00Z'},"
    "     {'id': 9100, 'event': 'base_ref_changed', 'actor': null,"
    "      'created_at': '2026-11-29T09:00:00Z'},"
    "     {'id': 9200, 'event': 'labeled', 'label': 'bug', 'actor': 'dev1',"
    "      'created_at': '2026-11-29T09:10:00Z'}],"
    "   'threads': ["
    "     {'id': 'PRRT_1', 'author': 'copilot-pull-request-reviewer',"
    "      'comments': 2, 'resolved': true},"
    "     {'id': 'PRRT_2', 'author': null, 'comments': 0}],"
    "   'reviews': ["
    "     {'id': 71, 'author': 'lfx-reviewer', 'state': 'APPROVED',"
    "      'commit_id': '" H "', 'submitted_at': '2026-11-29T10:40:00Z'},"
    "     {'id': 72, 'author': 'alice', 'state': 'COMMENTED'}]"
    " }, {'number': 8, 'head': {'sha': '" H2 "'}}],"
    " 'labels': ['needs-human', 'bug'],"
    " 'statuses': {'" H "': ["
    "   {'id': 1001, 'state': 'pending', 'context': 'agentic-review/clean',"
    "    'description': 'conductor pr=#7: awaiting review round',"
    "    'creator': 'lfx-reviewer', 'created_at': '2026-11-29T10:00:00Z',"
    "    'target_url': null},"
    "   {'id': 1002, 'state': 'success', 'context': 'ci', 'creator': null,"
    "    'created_at': '2026-11-29T10:01:00Z', 'target_url': 'https://x'}]},"
    " 'faults': [{'read': 'timeline', 'pr': 7, 'status': 502},"
    "   {'write': 'approve', 'status': 'timeout'},"
    "   {'read': 'statuses', 'sha': '" H "', 'status': 404, 'times': 2}]"
    "}";

static void assert_str_or_null(const char *a, const char *b)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_string_equal(a, b);
}

static void assert_snapshots_equal(const struct snapshot *a,
                                   const struct snapshot *b)
{
	size_t i, j;

	assert_int_equal(a->version, b->version);
	assert_string_equal(a->repository, b->repository);
	assert_str_or_null(a->viewer, b->viewer);
	assert_int_equal(a->now, b->now);
	assert_int_equal(a->nconfig, b->nconfig);
	for (i = 0; i < a->nconfig; i++) {
		assert_string_equal(a->config_keys[i], b->config_keys[i]);
		assert_string_equal(a->config_values[i], b->config_values[i]);
	}
	assert_string_equal(a->event_name, b->event_name);
	assert_string_equal(a->event_payload, b->event_payload);
	assert_int_equal(a->npulls, b->npulls);
	for (i = 0; i < a->npulls; i++) {
		const struct snap_pull *p = &a->pulls[i], *q = &b->pulls[i];

		assert_int_equal(p->number, q->number);
		assert_string_equal(p->state, q->state);
		assert_int_equal(p->merged, q->merged);
		assert_int_equal(p->draft, q->draft);
		assert_str_or_null(p->author, q->author);
		assert_string_equal(p->head_sha, q->head_sha);
		assert_string_equal(p->head_ref, q->head_ref);
		assert_string_equal(p->head_repo, q->head_repo);
		assert_string_equal(p->base_ref, q->base_ref);
		assert_int_equal(p->updated_at, q->updated_at);
		assert_int_equal(p->nlabels, q->nlabels);
		for (j = 0; j < p->nlabels; j++)
			assert_string_equal(p->labels[j], q->labels[j]);
		assert_int_equal(p->ncommits, q->ncommits);
		for (j = 0; j < p->ncommits; j++)
			assert_string_equal(p->commits[j], q->commits[j]);
		assert_int_equal(p->ncomments, q->ncomments);
		for (j = 0; j < p->ncomments; j++) {
			const struct snap_comment *c = &p->comments[j],
			                          *d = &q->comments[j];

			assert_int_equal(c->id, d->id);
			assert_str_or_null(c->author, d->author);
			assert_int_equal(c->created_at, d->created_at);
			assert_int_equal(c->body_len, d->body_len);
			assert_memory_equal(c->body, d->body, c->body_len);
			assert_str_or_null(c->edited_by, d->edited_by);
			assert_int_equal(c->edited, d->edited);
			assert_int_equal(c->edited_at, d->edited_at);
			assert_str_or_null(c->html_url, d->html_url);
		}
		assert_int_equal(p->ntimeline, q->ntimeline);
		for (j = 0; j < p->ntimeline; j++) {
			const struct snap_event *e = &p->timeline[j],
			                        *f = &q->timeline[j];

			assert_int_equal(e->id, f->id);
			assert_int_equal(e->kind, f->kind);
			assert_string_equal(e->event, f->event);
			assert_str_or_null(e->label, f->label);
			assert_str_or_null(e->actor, f->actor);
			assert_int_equal(e->created_at, f->created_at);
		}
		assert_int_equal(p->nthreads, q->nthreads);
		for (j = 0; j < p->nthreads; j++) {
			assert_string_equal(p->threads[j].id, q->threads[j].id);
			assert_str_or_null(p->threads[j].author,
			                   q->threads[j].author);
			assert_int_equal(p->threads[j].comments,
			                 q->threads[j].comments);
			assert_int_equal(p->threads[j].resolved,
			                 q->threads[j].resolved);
		}
		assert_int_equal(p->nreviews, q->nreviews);
		for (j = 0; j < p->nreviews; j++) {
			const struct snap_review *r = &p->reviews[j],
			                         *t = &q->reviews[j];

			assert_int_equal(r->id, t->id);
			assert_str_or_null(r->author, t->author);
			assert_string_equal(r->state, t->state);
			assert_string_equal(r->commit_id, t->commit_id);
			assert_int_equal(r->submitted_at, t->submitted_at);
		}
	}
	assert_int_equal(a->has_labels, b->has_labels);
	assert_int_equal(a->nlabels, b->nlabels);
	for (i = 0; i < a->nlabels; i++)
		assert_string_equal(a->labels[i], b->labels[i]);
	assert_int_equal(a->nstatuses, b->nstatuses);
	for (i = 0; i < a->nstatuses; i++) {
		const struct snap_statuses *s = &a->statuses[i],
		                           *t = &b->statuses[i];

		assert_string_equal(s->sha, t->sha);
		assert_int_equal(s->n, t->n);
		for (j = 0; j < s->n; j++) {
			assert_int_equal(s->v[j].id, t->v[j].id);
			assert_string_equal(s->v[j].state, t->v[j].state);
			assert_string_equal(s->v[j].context, t->v[j].context);
			assert_string_equal(s->v[j].description,
			                    t->v[j].description);
			assert_str_or_null(s->v[j].creator, t->v[j].creator);
			assert_int_equal(s->v[j].created_at,
			                 t->v[j].created_at);
			assert_str_or_null(s->v[j].target_url,
			                   t->v[j].target_url);
		}
	}
	assert_int_equal(a->nfaults, b->nfaults);
	for (i = 0; i < a->nfaults; i++) {
		const struct snap_fault *f = &a->faults[i], *g = &b->faults[i];

		assert_int_equal(f->op, g->op);
		assert_int_equal(f->kind, g->kind);
		assert_int_equal(f->pr, g->pr);
		assert_string_equal(f->sha, g->sha);
		assert_int_equal(f->status, g->status);
		assert_int_equal(f->timeout, g->timeout);
		assert_int_equal(f->times, g->times);
	}
}

/* --- the full snapshot --- */

static void test_snapshot__full_snapshot_fields(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const struct snap_pull *p, *q;
	cJSON *payload = NULL;

	(void)state;
	assert_int_equal(load(&s, full_snapshot, &err), 0);
	assert_int_equal(s.version, 1);
	assert_string_equal(s.repository, "lf/svc");
	assert_string_equal(s.viewer, "lfx-reviewer");
	assert_int_equal(s.now, tm("2026-11-29T12:00:00Z"));
	assert_int_equal(s.nconfig, 4);
	assert_string_equal(s.config_keys[0], "unlabelers");
	assert_string_equal(s.config_values[0], "alice,bob");
	assert_string_equal(s.config_keys[1], "approve_drafts");
	assert_string_equal(s.config_values[1], "true");
	assert_string_equal(s.config_keys[2], "sweep_deadline");
	assert_string_equal(s.config_values[2], "300");
	assert_string_equal(s.event_name, "issue_comment");
	assert_int_equal(json_parse(&payload, s.event_payload,
	                            strlen(s.event_payload), &err),
	                 0);
	assert_string_equal(
	    cJSON_GetObjectItemCaseSensitive(payload, "action")->valuestring,
	    "created");
	cJSON_Delete(payload);

	assert_int_equal(s.npulls, 2);
	p = &s.pulls[0];
	assert_int_equal(p->number, 7);
	assert_string_equal(p->state, "open");
	assert_false(p->merged);
	assert_true(p->draft);
	assert_string_equal(p->author, "dev1");
	assert_int_equal(p->updated_at, tm("2026-11-29T11:00:00Z"));
	assert_string_equal(p->head_sha, H);
	assert_string_equal(p->head_ref, "feature");
	assert_string_equal(p->head_repo, "dev1/svc");
	assert_string_equal(p->base_ref, "main");
	assert_int_equal(p->nlabels, 2);
	assert_string_equal(p->labels[1], "bug");
	assert_int_equal(p->ncommits, 2);
	assert_string_equal(p->commits[0], H2);
	assert_int_equal(p->ncomments, 2);
	assert_int_equal(p->comments[0].id, 501);
	assert_string_equal(p->comments[0].body,
	                    "line1\nline2 \"q\" \xc3\xa9 \\ end");
	assert_int_equal(p->comments[0].body_len,
	                 strlen("line1\nline2 \"q\" \xc3\xa9 \\ end"));
	assert_false(p->comments[0].edited);
	assert_null(p->comments[0].edited_by);
	assert_string_equal(
	    p->comments[0].html_url,
	    "https://github.com/lf/svc/pull/7#issuecomment-501");
	assert_int_equal(p->comments[0].created_at, tm(TS));
	assert_null(p->comments[1].author);
	assert_int_equal(p->comments[1].created_at,
	                 tm("2026-11-29T10:06:00Z") + 250);
	assert_true(p->comments[1].edited);
	assert_string_equal(p->comments[1].edited_by, "dev1");
	assert_int_equal(p->comments[1].edited_at, tm("2026-11-29T10:07:00Z"));
	assert_null(p->comments[1].html_url);
	assert_int_equal(p->ntimeline, 3);
	assert_int_equal(p->timeline[0].kind, TL_UNLABELED);
	assert_string_equal(p->timeline[0].actor, "alice");
	assert_int_equal(p->timeline[1].kind, TL_BASE_REF_CHANGED);
	assert_null(p->timeline[1].actor);
	assert_null(p->timeline[1].label);
	assert_int_equal(p->timeline[2].kind, TL_LABELED); /* A10 */
	assert_string_equal(p->timeline[2].event, "labeled");
	assert_int_equal(p->nthreads, 2);
	assert_true(p->threads[0].resolved);
	assert_int_equal(p->threads[0].comments, 2);
	assert_false(p->threads[1].resolved);
	assert_null(p->threads[1].author);
	assert_int_equal(p->nreviews, 2);
	assert_string_equal(p->reviews[0].commit_id, H);
	assert_string_equal(p->reviews[1].commit_id, "");
	assert_int_equal(p->reviews[1].submitted_at, 0);

	/* defaults of a minimal pull */
	q = &s.pulls[1];
	assert_int_equal(q->number, 8);
	assert_string_equal(q->state, "open");
	assert_false(q->merged);
	assert_false(q->draft);
	assert_null(q->author);
	assert_string_equal(q->head_repo, "lf/svc");
	assert_string_equal(q->head_ref, "");
	assert_string_equal(q->base_ref, "");
	assert_int_equal(q->nlabels + q->ncomments + q->ntimeline +
	                     q->nthreads + q->nreviews + q->ncommits,
	                 0);

	assert_true(s.has_labels);
	assert_int_equal(s.nlabels, 2);
	assert_int_equal(s.nstatuses, 1);
	assert_string_equal(s.statuses[0].sha, H);
	assert_int_equal(s.statuses[0].n, 2);
	assert_string_equal(s.statuses[0].v[1].description, "");
	assert_null(s.statuses[0].v[1].creator);
	assert_string_equal(s.statuses[0].v[1].target_url, "https://x");
	assert_null(s.statuses[0].v[0].target_url);

	assert_int_equal(s.nfaults, 3);
	assert_int_equal(s.faults[0].op, FAULT_READ);
	assert_int_equal(s.faults[0].kind, READ_TIMELINE);
	assert_int_equal(s.faults[0].pr, 7);
	assert_int_equal(s.faults[0].status, 502);
	assert_false(s.faults[0].timeout);
	assert_int_equal(s.faults[1].op, FAULT_WRITE);
	assert_int_equal(s.faults[1].kind, WRITE_APPROVE);
	assert_int_equal(s.faults[1].pr, 0);
	assert_true(s.faults[1].timeout);
	assert_int_equal(s.faults[2].kind, READ_STATUSES);
	assert_string_equal(s.faults[2].sha, H);
	assert_int_equal(s.faults[2].status, 404);
	assert_int_equal(s.faults[2].times, 2);

	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__round_trip(void **state)
{
	struct snapshot a, b, c;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct buf j1 = BUF_INIT(BUF_MAX_DOC), j2 = BUF_INIT(BUF_MAX_DOC);

	(void)state;
	assert_int_equal(load(&a, full_snapshot, &err), 0);
	snapshot_to_json(&a, &j1);
	assert_true(j1.len > 0);
	if (snapshot_from_json(&b, j1.ptr, j1.len, &err) != 0)
		fail_msg("reload failed: %s\n%s", err.ptr, j1.ptr);
	assert_snapshots_equal(&a, &b);
	/* byte-stable: writing the reloaded snapshot gives the same text */
	snapshot_to_json(&b, &j2);
	assert_int_equal(j1.len, j2.len);
	assert_string_equal(j1.ptr, j2.ptr);
	/* and a third generation still loads the same */
	assert_int_equal(snapshot_from_json(&c, j2.ptr, j2.len, &err), 0);
	assert_snapshots_equal(&a, &c);
	snapshot_release(&a);
	snapshot_release(&b);
	snapshot_release(&c);
	buf_release(&j1);
	buf_release(&j2);
	buf_release(&err);
}

static void test_snapshot__round_trip_config_applies(void **state)
{
	struct snapshot a, b;
	struct buf err = BUF_INIT(BUF_MAX_SMALL), j = BUF_INIT(BUF_MAX_DOC);
	struct policy p;

	(void)state;
	assert_int_equal(load(&a, full_snapshot, &err), 0);
	snapshot_to_json(&a, &j);
	assert_int_equal(snapshot_from_json(&b, j.ptr, j.len, &err), 0);
	policy_init(&p);
	assert_int_equal(snapshot_apply_config(&b, &p, &err), 0);
	assert_int_equal(p.nunlabelers, 2);
	assert_string_equal(p.unlabelers[0], "alice");
	assert_string_equal(p.unlabelers[1], "bob");
	assert_true(p.approve_drafts);
	assert_int_equal(p.sweep_deadline, 300);
	assert_string_equal(p.trusted_login, "lfx-reviewer");
	policy_release(&p);
	snapshot_release(&a);
	snapshot_release(&b);
	buf_release(&j);
	buf_release(&err);
}

/* --- errors name the field --- */

#define PRE                                                                    \
	"{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': "           \
	"'schedule'}, "
#define SNAP(rest)  PRE rest "}"
#define PULLS(p)    SNAP("'pulls': [" p "]")
#define PULL(extra) "{'number': 7, 'head': {'sha': '" H "'}" extra "}"
#define CMT         "{'id': 501, 'created_at': '" TS "', 'body': 'x'}"
#define COMMENTS(c) PULLS(PULL(", 'comments': [" CMT ", " c "]"))
#define TL(t)       PULLS(PULL(", 'timeline': [" t "]"))
#define THREADS(t)  PULLS(PULL(", 'threads': [" t "]"))
#define REVIEWS(r)  PULLS(PULL(", 'reviews': [" r "]"))
#define STATUS(x)   SNAP("'pulls': [], 'statuses': {'" H "': [" x "]}")
#define STOK                                                                   \
	"'id': 1, 'state': 'success', 'context': 'c', 'created_at': '" TS "'"
#define FAULT(f)  SNAP("'pulls': [], 'faults': [" f "]")
#define CONFIG(c) SNAP("'pulls': [], 'config': {" c "}")

struct bad_row {
	const char *json;
	const char *path; /* must appear in the message */
};

static const struct bad_row bad_rows[] = {
    /* top level */
    {"{'repository': 'lf/svc', 'event': {'name': 'x'}, 'pulls': []}",
     "snapshot"},
    {"{'snapshot': '1', 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "snapshot"},
    {"{'snapshot': 2, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "version 2"},
    {"{'snapshot': 0, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "snapshot"},
    {"{'snapshot': 1.5, 'repository': 'lf/svc', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "snapshot"},
    {"{'snapshot': 1, 'event': {'name': 'x'}, 'pulls': []}", "repository"},
    {"{'snapshot': 1, 'repository': 5, 'event': {'name': 'x'}, 'pulls': []}",
     "repository"},
    {"{'snapshot': 1, 'repository': 'noslash', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "repository"},
    {"{'snapshot': 1, 'repository': 'a/b/c', 'event': {'name': 'x'}, "
     "'pulls': []}",
     "repository"},
    {"{'snapshot': 1, 'repository': 'lf/svc', 'pulls': []}", "event"},
    {"{'snapshot': 1, 'repository': 'lf/svc', 'event': 'x', 'pulls': []}",
     "event"},
    {"{'snapshot': 1, 'repository': 'lf/svc', 'event': {}, 'pulls': []}",
     "event.name"},
    {"{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': 3}, "
     "'pulls': []}",
     "event.name"},
    {"{'snapshot': 1, 'repository': 'lf/svc', 'event': {'name': 'x', "
     "'payload': []}, 'pulls': []}",
     "event.payload"},
    {SNAP("'x': 1"), "pulls"},
    {SNAP("'pulls': {}"), "pulls"},
    {SNAP("'pulls': null"), "pulls"},
    {SNAP("'pulls': [], 'viewer': 'not a login'"), "viewer"},
    {SNAP("'pulls': [], 'viewer': 7"), "viewer"},
    {SNAP("'pulls': [], 'now': 'noon'"), "now"},
    {SNAP("'pulls': [], 'labels': [1]"), "labels[0]"},
    {SNAP("'pulls': [], 'labels': 'bug'"), "labels"},
    {SNAP("'pulls': [], 'config': []"), "config"},
    /* pulls */
    {PULLS("7"), "pulls[0]"},
    {PULLS(PULL("") ", 8"), "pulls[1]"},
    {PULLS("{'head': {'sha': '" H "'}}"), "pulls[0].number"},
    {PULLS("{'number': '7', 'head': {'sha': '" H "'}}"), "pulls[0].number"},
    {PULLS("{'number': 0, 'head': {'sha': '" H "'}}"), "pulls[0].number"},
    {PULLS("{'number': -7, 'head': {'sha': '" H "'}}"), "pulls[0].number"},
    {PULLS("{'number': 7.5, 'head': {'sha': '" H "'}}"), "pulls[0].number"},
    {PULLS("{'number': 7}"), "pulls[0].head"},
    {PULLS("{'number': 7, 'head': '" H "'}"), "pulls[0].head"},
    {PULLS("{'number': 7, 'head': {}}"), "pulls[0].head.sha"},
    {PULLS("{'number': 7, 'head': {'sha': 'abc1234'}}"), "pulls[0].head.sha"},
    {PULLS("{'number': 7, 'head': {'sha': '" H "', 'ref': 1}}"),
     "pulls[0].head.ref"},
    {PULLS("{'number': 7, 'head': {'sha': '" H "', 'repository': []}}"),
     "pulls[0].head.repository"},
    {PULLS(PULL(", 'base': 'main'")), "pulls[0].base"},
    {PULLS(PULL(", 'base': {'ref': 5}")), "pulls[0].base.ref"},
    {PULLS(PULL(", 'state': 'merged'")), "pulls[0].state"},
    {PULLS(PULL(", 'state': 1")), "pulls[0].state"},
    {PULLS(PULL(", 'draft': 'no'")), "pulls[0].draft"},
    {PULLS(PULL(", 'merged': 0")), "pulls[0].merged"},
    {PULLS(PULL(", 'author': 5")), "pulls[0].author"},
    {PULLS(PULL(", 'updated_at': 'now'")), "pulls[0].updated_at"},
    {PULLS(PULL(", 'labels': [1]")), "pulls[0].labels[0]"},
    {PULLS(PULL(", 'labels': ['a', null]")), "pulls[0].labels[1]"},
    {PULLS(PULL(", 'commits': ['abc']")), "pulls[0].commits[0]"},
    {PULLS(PULL(", 'commits': ['" H "', 5]")), "pulls[0].commits[1]"},
    {PULLS(PULL(", 'commits': {}")), "pulls[0].commits"},
    {PULLS(PULL(", 'comments': {}")), "pulls[0].comments"},
    {PULLS(PULL("") ", " PULL(", 'comments': [" CMT ", 5]")),
     "pulls[1].comments[1]"},
    /* comments */
    {COMMENTS("{'created_at': '" TS "', 'body': 'x'}"),
     "pulls[0].comments[1].id"},
    {COMMENTS("{'id': '502', 'created_at': '" TS "', 'body': 'x'}"),
     "pulls[0].comments[1].id"},
    {COMMENTS("{'id': 0, 'created_at': '" TS "', 'body': 'x'}"),
     "pulls[0].comments[1].id"},
    {COMMENTS("{'id': 502, 'body': 'x'}"), "pulls[0].comments[1].created_at"},
    {COMMENTS("{'id': 502, 'created_at': '2026-11-29 10:05:00', "
              "'body': 'x'}"),
     "pulls[0].comments[1].created_at"},
    {COMMENTS("{'id': 502, 'created_at': 1795946700, 'body': 'x'}"),
     "pulls[0].comments[1].created_at"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "'}"),
     "pulls[0].comments[1].body"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "', 'body': 5}"),
     "pulls[0].comments[1].body"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "', 'body': 'x', "
              "'author': 5}"),
     "pulls[0].comments[1].author"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "', 'body': 'x', "
              "'edited_by': true}"),
     "pulls[0].comments[1].edited_by"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "', 'body': 'x', "
              "'edited_at': 'later'}"),
     "pulls[0].comments[1].edited_at"},
    {COMMENTS("{'id': 502, 'created_at': '" TS "', 'body': 'x', "
              "'html_url': 1}"),
     "pulls[0].comments[1].html_url"},
    /* timeline */
    {TL("{'event': 'unlabeled', 'created_at': '" TS "'}"),
     "pulls[0].timeline[0].id"},
    {TL("{'id': 1, 'created_at': '" TS "'}"), "pulls[0].timeline[0].event"},
    {TL("{'id': 1, 'event': 'unlabeled'}"), "pulls[0].timeline[0].created_at"},
    {TL("{'id': 1, 'event': 'unlabeled', 'created_at': '" TS "', "
        "'actor': 3}"),
     "pulls[0].timeline[0].actor"},
    {TL("{'id': 1, 'event': 'unlabeled', 'created_at': '" TS "', "
        "'label': {}}"),
     "pulls[0].timeline[0].label"},
    /* threads */
    {THREADS("{'comments': 2}"), "pulls[0].threads[0].id"},
    {THREADS("{'id': '', 'comments': 2}"), "pulls[0].threads[0].id"},
    {THREADS("{'id': 5, 'comments': 2}"), "pulls[0].threads[0].id"},
    {THREADS("{'id': 'T'}"), "pulls[0].threads[0].comments"},
    {THREADS("{'id': 'T', 'comments': '2'}"), "pulls[0].threads[0].comments"},
    {THREADS("{'id': 'T', 'comments': -1}"), "pulls[0].threads[0].comments"},
    {THREADS("{'id': 'T', 'comments': 2, 'resolved': 'yes'}"),
     "pulls[0].threads[0].resolved"},
    /* reviews */
    {REVIEWS("{'state': 'APPROVED'}"), "pulls[0].reviews[0].id"},
    {REVIEWS("{'id': 71}"), "pulls[0].reviews[0].state"},
    {REVIEWS("{'id': 71, 'state': 'APPROVED', 'commit_id': 'abc'}"),
     "pulls[0].reviews[0].commit_id"},
    {REVIEWS("{'id': 71, 'state': 'APPROVED', 'submitted_at': 'x'}"),
     "pulls[0].reviews[0].submitted_at"},
    /* statuses */
    {SNAP("'pulls': [], 'statuses': []"), "statuses"},
    {SNAP("'pulls': [], 'statuses': {'abc': []}"), "statuses"},
    {SNAP("'pulls': [], 'statuses': {'" H "': {}}"), "statuses." H},
    {STATUS("{'state': 'success', 'context': 'c', 'created_at': '" TS "'}"),
     "statuses." H "[0].id"},
    {STATUS("{" STOK "}, {'id': 2, 'context': 'c', 'created_at': '" TS "'}"),
     "statuses." H "[1].state"},
    {STATUS("{'id': 1, 'state': 'ok', 'context': 'c', 'created_at': '" TS "'}"),
     "statuses." H "[0].state"},
    {STATUS("{'id': 1, 'state': 'success', 'created_at': '" TS "'}"),
     "statuses." H "[0].context"},
    {STATUS("{'id': 1, 'state': 'success', 'context': 'c'}"),
     "statuses." H "[0].created_at"},
    {STATUS("{" STOK ", 'creator': 1}"), "statuses." H "[0].creator"},
    {STATUS("{" STOK ", 'description': []}"), "statuses." H "[0].description"},
    {STATUS("{" STOK ", 'target_url': 2}"), "statuses." H "[0].target_url"},
    {STATUS("7"), "statuses." H "[0]"},
    /* config */
    {CONFIG("'unlabelers': ['alice', 'bad login!']"), "unlabelers"},
    {CONFIG("'unlabelers': 'alice bad!'"), "unlabelers"},
    {CONFIG("'unlabelers': ['a,b']"), "config.unlabelers"},
    {CONFIG("'unlabelers': [5]"), "config.unlabelers"},
    {CONFIG("'ai_reviewers': ['copilot', 'x y']"), "ai_reviewers"},
    {CONFIG("'trusted_login': 'bad login'"), "trusted_login"},
    {CONFIG("'trusted_login': ''"), "trusted_login"},
    {CONFIG("'approve_drafts': 'maybe'"), "approve_drafts"},
    {CONFIG("'sweep_deadline': 0"), "sweep_deadline"},
    {CONFIG("'sweep_deadline': 'soon'"), "sweep_deadline"},
    {CONFIG("'sweep_deadline': 86401"), "sweep_deadline"},
    {CONFIG("'label': ''"), "label"},
    {CONFIG("'label': 'a\\nb'"), "label"},
    {CONFIG("'clean_context': {}"), "config.clean_context"},
    /* faults */
    {FAULT("{'read': 'timeline', 'write': 'approve', 'status': 502}"),
     "faults[0]"},
    {FAULT("{'status': 502}"), "faults[0]"},
    {FAULT("{'read': 'bogus', 'status': 502}"), "faults[0].read"},
    {FAULT("{'write': 'pull', 'status': 502}"), "faults[0].write"},
    {FAULT("{'read': 'approve', 'status': 502}"), "faults[0].read"},
    {FAULT("{'read': 'pull'}"), "faults[0].status"},
    {FAULT("{'read': 'pull', 'status': 'slow'}"), "faults[0].status"},
    {FAULT("{'read': 'pull', 'status': 42}"), "faults[0].status"},
    {FAULT("{'read': 'pull', 'status': '502'}"), "faults[0].status"},
    {FAULT("{'read': 'pull', 'status': 502.5}"), "faults[0].status"},
    {FAULT("{'read': 'pull', 'status': 502}, {'read': 5, 'status': 502}"),
     "faults[1].read"},
    {FAULT("{'read': 'pull', 'status': 502, 'pr': '7'}"), "faults[0].pr"},
    {FAULT("{'read': 'pull', 'status': 502, 'pr': 0}"), "faults[0].pr"},
    {FAULT("{'read': 'statuses', 'status': 502, 'sha': 'abc'}"),
     "faults[0].sha"},
    {FAULT("7"), "faults[0]"},
    {SNAP("'pulls': [], 'faults': {}"), "faults"},
    /* duplicates */
    {PULLS(PULL("") ", " PULL("")), "pulls[1].number"},
    {SNAP("'pulls': [], 'statuses': {'" H "': [], '"
          "7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E': []}"),
     "statuses"},
};

static void test_snapshot__errors_name_the_field(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		struct snapshot s;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		int r = load(&s, bad_rows[i].json, &err);

		if (r != AA_EUSAGE) {
			print_error("row %zu (%s): returned %d, expected "
			            "AA_EUSAGE\n",
			            i, bad_rows[i].path, r);
			bad++;
		} else if (!strstr(err.ptr, bad_rows[i].path)) {
			print_error("row %zu: message \"%s\" does not name "
			            "\"%s\"\n",
			            i, err.ptr, bad_rows[i].path);
			bad++;
		}
		if (r != 0 && (s.pulls || s.npulls || s.repository)) {
			print_error("row %zu (%s): snapshot not released\n", i,
			            bad_rows[i].path);
			bad++;
		}
		if (r == 0)
			snapshot_release(&s);
		buf_release(&err);
	}
	assert_int_equal(bad, 0);
}

static void test_snapshot__not_json(void **state)
{
	static const char *const texts[] = {"",
	                                    "{",
	                                    "[]",
	                                    "null",
	                                    "7",
	                                    "\"snapshot\"",
	                                    "{'snapshot': 1,}",
	                                    "{} {}",
	                                    "{'snapshot': 1} x"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		struct snapshot s;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		if (load(&s, texts[i], &err) != AA_EUSAGE)
			fail_msg("text %zu (%s) was accepted", i, texts[i]);
		assert_true(err.len > 0);
		buf_release(&err);
	}
}

static void test_snapshot__minimal_and_defaults(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(load(&s, SNAP("'pulls': []"), &err), 0);
	assert_null(s.viewer);
	assert_int_equal(s.npulls, 0);
	assert_false(s.has_labels);
	assert_int_equal(s.nstatuses, 0);
	assert_int_equal(s.nfaults, 0);
	assert_int_equal(s.nconfig, 0);
	assert_int_equal(s.now, 0);
	assert_string_equal(s.event_name, "schedule");
	assert_string_equal(s.event_payload, "{}");
	snapshot_release(&s);

	/* nulls for optional values */
	assert_int_equal(load(&s,
	                      SNAP("'pulls': [], 'viewer': null, "
	                           "'labels': null, 'statuses': null, "
	                           "'faults': null, 'config': null"),
	                      &err),
	                 0);
	assert_null(s.viewer);
	assert_false(s.has_labels);
	snapshot_release(&s);

	/* an empty repository label list is given, not absent */
	assert_int_equal(load(&s, SNAP("'pulls': [], 'labels': []"), &err), 0);
	assert_true(s.has_labels);
	assert_int_equal(s.nlabels, 0);
	snapshot_release(&s);
	buf_release(&err);
}

/* SNAPSHOT §2: an unknown config key is a usage error naming it, and the
 * nearest known key when there is one; other unknown keys are ignored. */
static void test_snapshot__unknown_config_key_is_an_error(void **state)
{
	static const struct {
		const char *config;
		const char *want;
	} rows[] = {
	    {"'trusted-login': 'x'", "config.trusted-login: unknown configuration "
				     "key (did you mean \"trusted_login\"?)"},
	    {"'trustedlogin': 'x'", "did you mean \"trusted_login\"?"},
	    {"'unlabeller': ['a']", "did you mean \"unlabelers\"?"},
	    {"'Bases': 'main'", "did you mean \"bases\"?"},
	    {"'future_key': 'x'", "config.future_key: unknown configuration key"},
	};
	struct buf text = BUF_INIT(BUF_MAX_SMALL);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct snapshot s;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		buf_setf(&text, "{'snapshot': 1, 'repository': 'lf/svc', "
				"'event': {'name': 'schedule'}, 'pulls': [], "
				"'config': {%s}}",
			 rows[i].config);
		assert_int_not_equal(load(&s, text.ptr, &err), 0);
		if (!strstr(err.ptr, rows[i].want))
			fail_msg("row %zu: %s", i, err.ptr);
		snapshot_release(&s);
		buf_release(&err);
	}
	buf_release(&text);
}

static void test_snapshot__unknown_keys_ignored(void **state)
{
	static const char text[] =
	    "{'snapshot': 1, 'zz': {'deep': [1, 2]}, 'repository': 'lf/svc',"
	    " 'event': {'name': 'schedule', 'zz': 1, 'payload': {'zz': 2}},"
	    " 'config': {'trusted_login': 'robot'},"
	    " 'pulls': [{'number': 7, 'zz': 1,"
	    "   'head': {'sha': '" H
	    "', 'zz': 1}, 'base': {'ref': 'main', 'zz': 1},"
	    "   'comments': [{'id': 1, 'created_at': '" TS "', 'body': 'b',"
	    "     'zz': 1, 'reactions': {'+1': 3}}],"
	    "   'timeline': [{'id': 1, 'event': 'unlabeled', 'created_at': '" TS
	    "', 'zz': 1}],"
	    "   'threads': [{'id': 'T', 'comments': 2, 'zz': 1}],"
	    "   'reviews': [{'id': 1, 'state': 'APPROVED', 'zz': 1}]}],"
	    " 'statuses': {'" H "': [{" STOK ", 'zz': 1}]},"
	    " 'faults': [{'read': 'pull', 'status': 500, 'zz': 1}]}";
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	if (load(&s, text, &err) != 0)
		fail_msg("rejected: %s", err.ptr);
	assert_int_equal(s.npulls, 1);
	assert_int_equal(s.pulls[0].ncomments, 1);
	assert_int_equal(s.nconfig, 1);
	assert_string_equal(s.config_keys[0], "trusted_login");
	assert_int_equal(s.nfaults, 1);
	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__unknown_keys_are_case_sensitive(void **state)
{
	/* "Number" is not "number": only case-sensitive lookups */
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(
	    load(&s, PULLS("{'Number': 7, 'head': {'sha': '" H "'}}"), &err),
	    AA_EUSAGE);
	assert_non_null(strstr(err.ptr, "pulls[0].number"));
	buf_release(&err);
}

static void test_snapshot__nul_escape_becomes_replacement(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const struct snap_comment *c;

	(void)state;
	assert_int_equal(load(&s,
	                      PULLS(PULL(", 'comments': [{'id': 1, "
	                                 "'created_at': '" TS "', "
	                                 "'body': 'a\\u0000b\\\\u0000'}]")),
	                      &err),
	                 0);
	c = &s.pulls[0].comments[0];
	/* the escaped NUL is U+FFFD; the escaped backslash stays text */
	assert_int_equal(c->body_len, 1 + 3 + 1 + 6);
	assert_memory_equal(c->body,
	                    "a\xef\xbf\xbd"
	                    "b\\u0000",
	                    c->body_len);
	snapshot_release(&s);

	/* a NUL right before a marker does not hide it */
	assert_int_equal(load(&s,
	                      PULLS(PULL(", 'comments': [{'id': 1, "
	                                 "'created_at': '" TS "', "
	                                 "'body': '\\u0000\\n<!-- x -->'}]")),
	                      &err),
	                 0);
	c = &s.pulls[0].comments[0];
	assert_int_equal(c->body_len, strlen(c->body));
	assert_non_null(strstr(c->body, "<!-- x -->"));
	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__raw_nul_byte_rejected(void **state)
{
	static const char text[] =
	    "{\"snapshot\": 1, \"repository\": \"lf/svc\", "
	    "\"event\": {\"name\": \"x\"}, \"pulls\": [],"
	    " \"now\": \"a\0b\"}";
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(snapshot_from_json(&s, text, sizeof(text) - 1, &err),
	                 AA_EUSAGE);
	assert_true(err.len > 0);
	buf_release(&err);
}

static char *nested(size_t depth)
{
	size_t i, n = 0;
	const char *pre = "{'snapshot': 1, 'repository': 'lf/svc', 'pulls': [],"
	                  " 'event': {'name': 'x', 'payload': {'a': ";
	char *s = xmalloc(strlen(pre) + 2 * depth + 8);

	memcpy(s, pre, strlen(pre));
	n = strlen(pre);
	for (i = 0; i < depth; i++)
		s[n++] = '[';
	for (i = 0; i < depth; i++)
		s[n++] = ']';
	memcpy(s + n, "}}}", 4);
	return s;
}

static void test_snapshot__deep_nesting_rejected(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *text;

	(void)state;
	text = nested(30);
	assert_int_equal(load(&s, text, &err), 0);
	snapshot_release(&s);
	free(text);

	text = nested(100);
	assert_int_equal(load(&s, text, &err), AA_EUSAGE);
	assert_non_null(strstr(err.ptr, "deep"));
	free(text);

	text = nested(100000);
	assert_int_equal(load(&s, text, &err), AA_EUSAGE);
	free(text);
	buf_release(&err);
}

static void test_snapshot__fault_kinds(void **state)
{
	size_t k;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char text[512];
	struct snapshot s;

	(void)state;
	for (k = 0; k < READ_KIND_COUNT; k++) {
		int n = snprintf(text, sizeof(text),
		                 SNAP("'pulls': [], 'faults': [{'read': '%s', "
		                      "'status': 503}]"),
		                 gh_read_names[k]);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		if (load(&s, text, &err) != 0)
			fail_msg("read %s: %s", gh_read_names[k], err.ptr);
		assert_int_equal(s.faults[0].op, FAULT_READ);
		assert_int_equal(s.faults[0].kind, (int)k);
		assert_int_equal(s.faults[0].status, 503);
		snapshot_release(&s);
	}
	for (k = 0; k < WRITE_KIND_COUNT; k++) {
		int n = snprintf(text, sizeof(text),
		                 SNAP("'pulls': [], 'faults': [{'write': '%s', "
		                      "'status': 'timeout', 'pr': 9}]"),
		                 gh_write_names[k]);

		assert_true(n > 0 && (size_t)n < sizeof(text));
		if (load(&s, text, &err) != 0)
			fail_msg("write %s: %s", gh_write_names[k], err.ptr);
		assert_int_equal(s.faults[0].op, FAULT_WRITE);
		assert_int_equal(s.faults[0].kind, (int)k);
		assert_true(s.faults[0].timeout);
		assert_int_equal(s.faults[0].pr, 9);
		snapshot_release(&s);
	}
	/* the names of SNAPSHOT.md §2, in enum order */
	assert_string_equal(gh_read_names[READ_PULL], "pull");
	assert_string_equal(gh_read_names[READ_PULLS], "pulls");
	assert_string_equal(gh_read_names[READ_LABELS], "labels");
	assert_string_equal(gh_read_names[READ_COMMENTS], "comments");
	assert_string_equal(gh_read_names[READ_TIMELINE], "timeline");
	assert_string_equal(gh_read_names[READ_THREADS], "threads");
	assert_string_equal(gh_read_names[READ_REVIEWS], "reviews");
	assert_string_equal(gh_read_names[READ_COMMITS], "commits");
	assert_string_equal(gh_read_names[READ_STATUSES], "statuses");
	assert_string_equal(gh_read_names[READ_USER], "user");
	assert_string_equal(gh_write_names[WRITE_LABEL], "label");
	assert_string_equal(gh_write_names[WRITE_STATUS], "status");
	assert_string_equal(gh_write_names[WRITE_APPROVE], "approve");
	assert_string_equal(gh_write_names[WRITE_DISMISS], "dismiss");
	buf_release(&err);
}

static void test_snapshot__edited_flag(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(
	    load(
	        &s,
	        PULLS(PULL(", 'comments': ["
	                   "{'id': 1, 'created_at': '" TS "', 'body': 'a'},"
	                   "{'id': 2, 'created_at': '" TS "', 'body': 'a',"
	                   " 'edited_by': 'x'},"
	                   "{'id': 3, 'created_at': '" TS "', 'body': 'a',"
	                   " 'edited_at': '" TS "'},"
	                   "{'id': 4, 'created_at': '" TS "', 'body': 'a',"
	                   " 'edited_by': null, 'edited_at': null},"
	                   "{'id': 5, 'created_at': '" TS "', 'body': null}]")),
	        &err),
	    0);
	assert_false(s.pulls[0].comments[0].edited);
	assert_true(s.pulls[0].comments[1].edited);
	assert_true(s.pulls[0].comments[2].edited);
	assert_null(s.pulls[0].comments[2].edited_by);
	assert_false(s.pulls[0].comments[3].edited);
	assert_string_equal(s.pulls[0].comments[4].body, "");
	assert_int_equal(s.pulls[0].comments[4].body_len, 0);
	snapshot_release(&s);
	buf_release(&err);
}

/*
 * N21: "A comment is edited when edited_by or edited_at is set." An
 * edited_at of the epoch is set all the same; it must not read as "never
 * edited" (that would let an unknown editor's change pass T2).
 */
static void test_snapshot__edited_at_epoch_is_still_edited(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	bool edited;

	(void)state;
	assert_int_equal(
	    load(&s,
	         PULLS(PULL(", 'comments': [{'id': 1, 'created_at': '" TS
	                    "', 'body': 'a', 'edited_at': "
	                    "'1970-01-01T00:00:00Z'}]")),
	         &err),
	    0);
	edited = s.pulls[0].comments[0].edited;
	snapshot_release(&s);
	buf_release(&err);
	assert_true(edited);
}

static void test_snapshot__sha_keys_lower_cased(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);

	(void)state;
	assert_int_equal(
	    load(&s,
	         SNAP("'pulls': [{'number': 7, 'head': {'sha': "
	              "'7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E'}}], "
	              "'statuses': {'7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E7E"
	              "7E7E': [{" STOK "}]}"),
	         &err),
	    0);
	assert_string_equal(s.pulls[0].head_sha, H);
	assert_string_equal(s.statuses[0].sha, H);
	assert_non_null(snapshot_statuses(&s, H, false));
	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__lookups(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct snap_statuses *st;

	(void)state;
	assert_int_equal(load(&s, full_snapshot, &err), 0);
	assert_ptr_equal(snapshot_pull(&s, 7), &s.pulls[0]);
	assert_ptr_equal(snapshot_pull(&s, 8), &s.pulls[1]);
	assert_null(snapshot_pull(&s, 9));
	assert_non_null(snapshot_statuses(&s, H, false));
	assert_null(snapshot_statuses(&s, H2, false));
	st = snapshot_statuses(&s, H2, true);
	assert_non_null(st);
	assert_string_equal(st->sha, H2);
	assert_int_equal(st->n, 0);
	assert_int_equal(s.nstatuses, 2);
	assert_ptr_equal(snapshot_statuses(&s, H2, true), st);
	assert_int_equal(s.nstatuses, 2);
	assert_true(snap_pull_is_open(&s.pulls[0]));
	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__pull_is_open(void **state)
{
	struct snap_pull p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.state = xstrdup("open");
	assert_true(snap_pull_is_open(&p));
	p.merged = true;
	assert_false(snap_pull_is_open(&p));
	p.merged = false;
	free(p.state);
	p.state = xstrdup("closed");
	assert_false(snap_pull_is_open(&p));
	free(p.state);
}

static void test_snapshot__pull_copy_parts(void **state)
{
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct snap_pull c;

	(void)state;
	assert_int_equal(load(&s, full_snapshot, &err), 0);
	snap_pull_copy(&c, &s.pulls[0], PART_PULL | PART_COMMENTS);
	assert_int_equal(c.number, 7);
	assert_string_equal(c.head_sha, H);
	assert_int_equal(c.ncomments, 2);
	assert_ptr_not_equal(c.comments[0].body, s.pulls[0].comments[0].body);
	assert_string_equal(c.comments[0].body, s.pulls[0].comments[0].body);
	assert_int_equal(c.nlabels, 0);
	assert_int_equal(c.nreviews, 0);
	assert_int_equal(c.nthreads, 0);
	snap_pull_release(&c);
	snap_pull_copy(&c, &s.pulls[0], PART_ALL);
	assert_int_equal(c.nlabels, 2);
	assert_int_equal(c.ncommits, 2);
	assert_int_equal(c.ntimeline, 3);
	assert_int_equal(c.nthreads, 2);
	assert_int_equal(c.nreviews, 2);
	snap_pull_release(&c);
	snapshot_release(&s);
	buf_release(&err);
}

static void test_snapshot__load_file(void **state)
{
	char path[] = "/tmp/test_snapshot_XXXXXX";
	struct snapshot s;
	struct buf err = BUF_INIT(BUF_MAX_SMALL), raw = BUF_INIT(BUF_MAX_DOC);
	struct buf small = BUF_INIT(BUF_MAX_DOC);
	char *text = sq(full_snapshot);
	int fd;
	FILE *f;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	fclose(f);
	assert_int_equal(file_read(&raw, path, &err), AA_OK);
	assert_int_equal(snapshot_from_json(&s, raw.ptr, raw.len, &err), 0);
	assert_int_equal(s.npulls, 2);
	snapshot_release(&s);
	/* One ceiling behaviour: a file larger than the buffer is an error. */
	small.max = raw.len - 1;
	assert_int_equal(file_read(&small, path, &err), AA_ETOOBIG);
	assert_int_equal(small.len, 0);
	assert_non_null(strstr(err.ptr, "larger than "));
	unlink(path);
	assert_int_equal(file_read(&raw, path, &err), AA_ENOTFOUND);
	/* The caller names the file; the message names the cause, once. */
	assert_non_null(strstr(err.ptr, "cannot open: "));
	assert_null(strstr(err.ptr, path));
	assert_int_equal(file_read(&raw, "/", &err), AA_ERR);
	assert_string_equal(err.ptr, "is a directory");
	buf_release(&raw);
	buf_release(&small);
	free(text);
	buf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_snapshot__full_snapshot_fields),
	    cmocka_unit_test(test_snapshot__round_trip),
	    cmocka_unit_test(test_snapshot__round_trip_config_applies),
	    cmocka_unit_test(test_snapshot__unknown_config_key_is_an_error),
	    cmocka_unit_test(test_snapshot__errors_name_the_field),
	    cmocka_unit_test(test_snapshot__not_json),
	    cmocka_unit_test(test_snapshot__minimal_and_defaults),
	    cmocka_unit_test(test_snapshot__unknown_keys_ignored),
	    cmocka_unit_test(test_snapshot__unknown_keys_are_case_sensitive),
	    cmocka_unit_test(test_snapshot__nul_escape_becomes_replacement),
	    cmocka_unit_test(test_snapshot__raw_nul_byte_rejected),
	    cmocka_unit_test(test_snapshot__deep_nesting_rejected),
	    cmocka_unit_test(test_snapshot__fault_kinds),
	    cmocka_unit_test(test_snapshot__edited_flag),
	    cmocka_unit_test(test_snapshot__edited_at_epoch_is_still_edited),
	    cmocka_unit_test(test_snapshot__sha_keys_lower_cased),
	    cmocka_unit_test(test_snapshot__lookups),
	    cmocka_unit_test(test_snapshot__pull_is_open),
	    cmocka_unit_test(test_snapshot__pull_copy_parts),
	    cmocka_unit_test(test_snapshot__load_file),
	};

	return cmocka_run_group_tests_name("snapshot", tests, NULL, NULL);
}
