// The request budget of BEHAVIOR §8 (one GraphQL query per PR plus, when
// needed, one REST page of statuses), from fakehub's request log: a gate
// evaluation makes at most those two reads — only the GraphQL query when
// its newest status per context already decides the conditions exactly,
// the REST history too when it does not (an untrusted status on top, an
// escalation-context status); the approve path of a dispatch run makes at
// most six requests, in the order below; a run that writes nothing never
// asks GET /user (T4: no write, no check).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite, requestLines } from './lib/fakehub.mjs';
import { allFixtures, fixture } from './lib/fixtures.mjs';
import { runLive } from './lib/run.mjs';

const REPO = 'lf/svc';
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

  async function run(snapshot, args = [], command = undefined) {
    await hub.load(snapshot);
    const r = await runLive(snapshot, hub, { args, command });
    return { ...r, log: await hub.log() };
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
