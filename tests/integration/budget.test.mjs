// The request budget of BEHAVIOR §8 (one GraphQL query per PR plus, when
// needed, one REST page of statuses), from fakehub's request log: a gate
// evaluation makes at most those two reads — only the GraphQL query when
// its newest status per context already decides the conditions exactly,
// the REST history too when it does not (an untrusted status on top, an
// escalation-context status); the approve path of a dispatch run makes at
// most six requests, in the order below; a run that writes nothing never
// asks GET /user (T4: no write, no check). A comment that was edited and
// could be a verdict costs one more GraphQL query per read of its PR (its
// whole edit history, A5) — and only such a comment: the unedited happy
// path keeps its single read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite, requestLines } from './lib/fakehub.mjs';
import { allFixtures, fixture } from './lib/fixtures.mjs';
import { runLive } from './lib/run.mjs';

const REPO = 'lf/svc';
/** A request for comments' edit histories (A5), not part of the pull read. */
// A query of edit histories only (A5); a read of the PR that asks for the
// histories it needed last time beside it (edits:nodes(ids:$ids)) is a read.
const isEditHistory = (e) => e.path === '/graphql' && /userContentEdits/.test(e.body?.query ?? '') && !/pullRequest\(number:\$number\)/.test(e.body?.query ?? '');
const asksHistories = (e) => e.path === '/graphql' && /edits:nodes\(ids:\$ids\)/.test(e.body?.query ?? '');
/** Comments whose histories the live port must read: edited and by the trusted login (A1, A5). */
// Every edited comment of the trusted login, marker or not (A5: a verdict
// edited away by someone else, then re-edited, is still the hold it was).
function editedTrusted(snapshot) {
  const trusted = (snapshot.config?.trusted_login ?? 'lfx-reviewer').toLowerCase();
  return snapshot.pulls.flatMap((p) => (p.comments ?? []).filter((c) => (c.edited_by || c.edited_at)
    && c.author?.toLowerCase() === trusted));
}
const statusesOf = (sha) => `GET /repos/${REPO}/commits/${sha}/statuses`;

/** The approve path: the optional statuses page after the first query. */
function approvePath(lines, sha, pr) {
  const withStatuses = lines[1] === statusesOf(sha);
  return ['POST /graphql', ...(withStatuses ? [statusesOf(sha)] : []), 'GET /user', 'POST /graphql',
    `POST /repos/${REPO}/pulls/${pr}/reviews`, 'POST /graphql'];
}

/** Dispatch fixtures with one gate step, no faults, no extra arguments. */
function dispatchGates() {
  return allFixtures().filter((fx) => fx.snapshot.event?.name === 'workflow_dispatch'
    && !fx.snapshot.faults?.length && !fx.args.length && fx.snapshot.repository === REPO
    && fx.expect.steps?.length === 1 && fx.expect.steps[0].step === 'gate');
}

function withApproval(snapshot, pr) {
  const s = structuredClone(snapshot);
  const p = s.pulls.find((x) => x.number === pr);
  p.reviews = [...(p.reviews ?? []), {
    id: 990, author: s.viewer ?? 'lfx-reviewer', state: 'APPROVED', commit_id: p.head.sha, submitted_at: '2026-11-29T11:00:00Z',
  }];
  return s;
}

describe('budget', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  /** A live run; `log` leaves out the edit-history reads, counted in `edits`. */
  async function run(snapshot, args = [], command = undefined) {
    await hub.load(snapshot);
    const r = await runLive(snapshot, hub, { args, command });
    const all = await hub.log();
    return { ...r, log: all.filter((e) => !isEditHistory(e)), edits: all.filter(isEditHistory), all };
  }

  for (const [label, command] of [['gate --pr 7', ['gate', '--pr', '7', '--json']], ['run (workflow_dispatch)', undefined]]) {
    it(`${label}: withhold = 1 read, approve = 5 requests (GraphQL decides the status)`, async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const head = fx.snapshot.pulls[0].head.sha;
      const withheld = structuredClone(fx.snapshot);
      withheld.pulls[0].threads.push({ id: 'PRRT_open', author: 'alice', comments: 1, resolved: false });
      const w = await run(withheld, [], command);
      assert.equal(w.report?.steps[0].outcome, 'withhold', w.stderr.slice(-300));
      assert.deepEqual(requestLines(w.log), ['POST /graphql']);
      const a = await run(fx.snapshot, [], command);
      assert.equal(a.report?.steps[0].outcome, 'approve', a.stderr.slice(-300));
      assert.deepEqual(requestLines(a.log), ['POST /graphql', 'GET /user', 'POST /graphql',
        `POST /repos/${REPO}/pulls/7/reviews`, 'POST /graphql']);
      void head;
    });
  }

  it('apply --comment: 4 requests (one GraphQL read of the comment, the PR and its threads; the statuses page; the identity; the status)', async () => {
    const fx = fixture('000-demo');
    const { comment } = fx.snapshot.event.payload;
    const r = await run(fx.snapshot, [], ['apply', '--pr', '42', '--comment', String(comment.id), '--json']);
    assert.equal(r.code, 0, r.stderr.slice(-300));
    assert.equal(r.report.steps[0].outcome, 'applied');
    const head = fx.snapshot.pulls[0].head.sha;
    assert.deepEqual(requestLines(r.all), ['POST /graphql', `GET /repos/${fx.snapshot.repository}/commits/${head}/statuses`,
      'GET /user', `POST /repos/${fx.snapshot.repository}/statuses/${head}`]);
  });

  it('AGENTIC_STATS=1: the program counts the GraphQL points GitHub charged (rateLimit.cost), as fakehub does', async () => {
    const fx = fixture('150-sweep-mixed');
    await hub.load(fx.snapshot);
    const r = await runLive(fx.snapshot, hub, { command: ['sweep', '--json'], env: { AGENTIC_STATS: '1' } });
    const log = await hub.log();
    const charged = log.filter((e) => e.path === '/graphql').reduce((n, e) => n + (e.points ?? 0), 0);
    const m = /graphql_points=(\d+)/.exec(r.stderr);
    assert.ok(m, r.stderr.slice(-300));
    assert.ok(charged > 0);
    assert.equal(Number(m[1]), charged);
  });

  it('withhold (label present, no approval to dismiss): one GraphQL query', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.pulls[0].labels = ['needs-human'];
    const r = await run(s);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.steps[0].outcome, 'withhold');
    assert.deepEqual(r.report.writes, []);
    assert.deepEqual(requestLines(r.log), ['POST /graphql']);
  });

  it('an untrusted clean status on top: GraphQL + one statuses page, same decision', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    const head = s.pulls[0].head.sha;
    s.pulls[0].labels = ['needs-human'];
    s.statuses[head].push({ id: 99999, state: 'success', context: 'agentic-review/clean',
      description: 'conductor pr=#7: clean=true', creator: 'mallory', created_at: '2026-11-29T12:00:00Z', target_url: null });
    const r = await run(s);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.steps[0].outcome, 'withhold');
    assert.deepEqual(requestLines(r.log), ['POST /graphql', statusesOf(head)]);
    assert.equal(r.log[1].query.per_page, '100', 'one page of up to 100 statuses');
  });

  it('approve path with an escalation-context status: exactly the six requests', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    const head = s.pulls[0].head.sha;
    s.statuses[head].push({ id: 99999, state: 'success', context: 'agentic-review/escalation',
      description: 'judged pr=#7: routine', creator: 'lfx-reviewer', created_at: '2026-11-29T12:00:00Z', target_url: null });
    const r = await run(s);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.steps[0].outcome, 'approve');
    assert.deepEqual(requestLines(r.log), ['POST /graphql', statusesOf(head), 'GET /user', 'POST /graphql',
      `POST /repos/${REPO}/pulls/7/reviews`, 'POST /graphql']);
  });

  it('approve path of a dispatch run: five requests, GET /user before the first write', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const head = fx.snapshot.pulls[0].head.sha;
    const r = await run(fx.snapshot);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.steps[0].outcome, 'approve');
    assert.ok(r.log.length <= 6, `at most 6 requests, got ${r.log.length}: ${requestLines(r.log).join(', ')}`);
    assert.deepEqual(requestLines(r.log), [
      'POST /graphql', // the PR: pull fields, labels, comments, timeline, threads, reviews, head status
      'GET /user', // T4 before the first write
      'POST /graphql', // §6.1 step 2: re-check from fresh reads
      `POST /repos/${REPO}/pulls/7/reviews`, // the approval
      'POST /graphql', // §6.1 step 4: compensating re-check
    ]);
    assert.equal(r.log[3].body.event, 'APPROVE');
    assert.equal(r.log[3].body.commit_id, head);
  });

  it('an edited comment of the trusted login costs one more query on the first read of its PR, none on the later ones; an unedited one none (A1, A5)', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    assert.deepEqual(editedTrusted(fx.snapshot), [], 'the happy path has no edited verdict');
    const plain = await run(fx.snapshot);
    assert.deepEqual(plain.edits, [], 'no history read without an edited verdict');
    const s = structuredClone(fx.snapshot);
    const verdict = s.pulls[0].comments.find((c) => /agentic:needs-human/.test(c.body));
    assert.ok(verdict, 'the fixture has a needs-human verdict');
    verdict.edits = [{ editor: 'lfx-reviewer', edited_at: '2026-11-29T10:30:00Z' }];
    verdict.edited_by = 'lfx-reviewer';
    verdict.edited_at = '2026-11-29T10:30:00Z';
    // A trusted note without a marker is read too (someone may have edited
    // a yes away, A1); a marker in someone else's comment is not.
    s.pulls[0].comments.push({ id: 88001, author: 'lfx-reviewer', created_at: '2026-11-29T10:00:00Z',
      body: 'just a note', edited_by: 'lfx-reviewer', edited_at: '2026-11-29T10:10:00Z' });
    s.pulls[0].comments.push({ id: 88002, author: 'dev1', created_at: '2026-11-29T10:00:00Z',
      body: '<!-- agentic:needs-human v1 -->', edited_by: 'dev1', edited_at: '2026-11-29T10:10:00Z' });
    const edited = await run(s);
    assert.equal(edited.report?.steps[0].outcome, 'approve', edited.stderr.slice(-300));
    assert.deepEqual(requestLines(edited.log), requestLines(plain.log), 'the same requests besides the histories');
    const pullReads = edited.log.filter((e) => e.path === '/graphql');
    assert.ok(pullReads.length >= 2, 'the approve path reads the PR again');
    assert.equal(edited.edits.length, 1, 'one history query: the first read of the PR');
    for (const e of edited.edits) assert.equal(e.status, 200);
    assert.deepEqual(edited.edits[0].body.variables.ids?.length, 2, 'the histories of the trusted login\'s two edited comments, in one query');
    // Each later read asks for both histories in its own query, at one point.
    assert.ok(!asksHistories(pullReads[0]));
    for (const e of pullReads.slice(1)) {
      assert.ok(asksHistories(e), 'a re-read asks for the histories beside the PR');
      assert.equal(e.body.variables.ids?.length, 2);
      assert.equal(e.points, 1);
    }
  });

  it('already approved on H: no write, no GET /user, at most 3 requests', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const r = await run(withApproval(fx.snapshot, 7));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.steps[0].outcome, 'approve');
    assert.deepEqual(r.report.writes, []);
    assert.ok(!r.log.some(isWrite), 'no write');
    assert.ok(!requestLines(r.log).includes('GET /user'), 'a run that writes nothing needs no identity check');
    assert.ok(r.log.length <= 3, `at most 3 requests: ${requestLines(r.log).join(', ')}`);
  });

  describe('every dispatch fixture', () => {
    for (const fx of dispatchGates()) {
      const step = fx.expect.steps[0];
      const writes = (fx.expect.writes ?? []).map((w) => w.kind);
      let kind = null;
      if (step.outcome === 'withhold' && writes.length === 0) kind = 'withhold';
      else if (step.outcome === 'approve' && writes.length === 1 && writes[0] === 'approve') kind = 'approve';
      else if (step.outcome === 'approve' && writes.length === 0) kind = 'approved';
      if (!kind) continue;
      it(`${fx.name} (${kind})`, async () => {
        const r = await run(fx.snapshot);
        const lines = requestLines(r.log);
        // Edit histories (A5): only for a fixture with an edited comment of
        // the trusted login, one query at most (the first read of the PR:
        // the later ones ask for them beside the PR).
        if (!editedTrusted(fx.snapshot).length) assert.deepEqual(r.edits, [], 'no history read');
        else assert.ok(r.edits.length <= 1, `${r.edits.length} history reads`);
        const pr = fx.snapshot.pulls.find((p) => p.number === step.pr) ?? fx.snapshot.pulls[0];
        if (kind === 'withhold') {
          // A dispatch withhold that reaches the statuses: GraphQL + statuses;
          // one that stops earlier (closed, fork …) reads less.
          assert.ok(r.log.length <= 2, `at most 2 reads: ${lines.join(', ')}`);
          assert.equal(lines[0], 'POST /graphql');
          if (lines.length === 2) assert.equal(lines[1], statusesOf(pr.head.sha));
        } else if (kind === 'approve') {
          assert.ok(r.log.length <= 6, `at most 6 requests: ${lines.join(', ')}`);
          assert.deepEqual(lines, approvePath(lines, pr.head.sha, pr.number));
        } else {
          assert.ok(!lines.includes('GET /user'), `no identity check without a write: ${lines.join(', ')}`);
          assert.ok(r.log.length <= 3, `at most 3 requests: ${lines.join(', ')}`);
        }
      });
    }
  });
});
