// T4 (BEHAVIOR §1, N19): before the first write of a run the write token's
// identity (GET /user) must be the trusted login. A mismatch writes nothing,
// errors the current step, stops the run, exit 2. A run that writes nothing
// needs no check (no GET /user at all).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite, requestLines } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { runLive } from './lib/run.mjs';

/** The parts of the state a write would change. */
function writable(state) {
  return JSON.stringify({
    labels: state.labels ?? null,
    statuses: state.statuses ?? {},
    pulls: (state.pulls ?? []).map((p) => ({ n: p.number, labels: p.labels ?? [], reviews: p.reviews ?? [], timeline: p.timeline ?? [] })),
  });
}

function as(viewer, name, mutate = (s) => s) {
  const s = structuredClone(fixture(name).snapshot);
  s.viewer = viewer;
  return mutate(s);
}

// Runs that would write; each with a token that is not the trusted login.
const WOULD_WRITE = [
  { name: 'gate that would approve', snapshot: () => as('ci-bot', '050-gate-all-hold-approve') },
  { name: 'apply that would write a status (and the gate after it)', snapshot: () => as('ci-bot', '000-demo'), stopsBeforeGate: true },
  { name: 'apply that would add the needs-human label', snapshot: () => as('ci-bot', '001-label-yes-adds-label'), stopsBeforeGate: true },
  { name: 'apply that would create the repository label', snapshot: () => as('ci-bot', '004-label-create-repo-label'), stopsBeforeGate: true },
  { name: 'gate that would dismiss stale approvals', snapshot: () => as('ci-bot', '056-gate-withhold-dismisses-only-trusted-approvals') },
  { name: 'synchronize that would dismiss the old head\'s approval', snapshot: () => as('ci-bot', '102-ev-pr-synchronize-drops-old-approval') },
  { name: 'schedule sweep that would approve and dismiss', snapshot: () => as('ci-bot', '150-sweep-mixed') },
  { name: 'a bot account named like the trusted login (N20)', snapshot: () => as('lfx-reviewer[bot]', '050-gate-all-hold-approve') },
  { name: 'dry run: the check is still made before the first planned write (N18)', snapshot: () => as('ci-bot', '050-gate-all-hold-approve'), args: ['--dry-run'] },
];

// Runs that write nothing: no identity check, whoever the token is.
const WRITES_NOTHING = [
  { name: 'withhold, nothing to dismiss (label present)', snapshot: () => as('ci-bot', '052-gate-label-present') },
  { name: 'withhold, nothing to dismiss (judge still running)', snapshot: () => as('ci-bot', '054-gate-escalation-judge-running') },
  { name: 'already approved on the head: nothing to post', snapshot: () => as('ci-bot', '055-gate-already-approved-no-write') },
  { name: 'needs-human: no verdict (apply writes nothing) then withhold', snapshot: () => as('ci-bot', '008-label-no-writes-nothing') },
  { name: 'closed PR: skipped', snapshot: () => as('ci-bot', '112-skip-closed') },
  { name: 'event with nothing to do', snapshot: () => as('ci-bot', '111-ev-push-unknown') },
];

describe('identity (T4)', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  async function run(spec) {
    const snapshot = spec.snapshot();
    await hub.load(snapshot);
    const initial = await hub.state();
    const r = await runLive(snapshot, hub, { args: spec.args ?? [] });
    return { ...r, initial, state: await hub.state(), log: await hub.log() };
  }

  for (const spec of WOULD_WRITE) {
    it(`viewer is not the trusted login: ${spec.name} → exit 2, nothing written`, async () => {
      const r = await run(spec);
      const lines = requestLines(r.log);
      assert.equal(r.code, 2, `exit ${r.code}: ${r.stderr.slice(-500)}`);
      assert.equal(r.report?.exit, 2);
      assert.deepEqual(r.report.writes, [], 'no write reported');
      assert.equal(writable(r.state), writable(r.initial), 'fakehub\'s state is unchanged');
      assert.deepEqual(r.log.filter(isWrite).map((e) => `${e.method} ${e.path}`), [], 'no write request sent');
      assert.ok(lines.includes('GET /user'), `the identity was checked: ${lines.join(', ')}`);
      const last = r.report.steps.at(-1);
      assert.equal(last?.outcome, 'error', `the current step errors: ${JSON.stringify(r.report.steps.map((s) => s.outcome))}`);
      assert.equal(r.report.steps.filter((s) => s.outcome === 'error').length, 1, 'the run stops at the first identity failure');
      if (spec.stopsBeforeGate) assert.ok(!r.report.steps.some((s) => s.step === 'gate'), 'the gate after apply is not run (N19)');
      assert.ok(lines.indexOf('GET /user') === lines.lastIndexOf('GET /user'), 'GET /user asked once');
      const after = lines.slice(lines.indexOf('GET /user') + 1);
      assert.deepEqual(after, [], `nothing is requested after the failed check: ${after.join(', ')}`);
    });
  }

  for (const spec of WRITES_NOTHING) {
    it(`viewer is not the trusted login: ${spec.name} → exit 0, no GET /user`, async () => {
      const r = await run(spec);
      assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr.slice(-500)}`);
      assert.deepEqual(r.report.writes, []);
      assert.ok(!requestLines(r.log).includes('GET /user'), `no identity check without a write: ${requestLines(r.log).join(', ')}`);
      assert.equal(writable(r.state), writable(r.initial));
    });
  }

  it('viewer equal to the trusted login in another case: identity holds, approves (N20)', async () => {
    const r = await run({ snapshot: () => as('LFX-Reviewer', '050-gate-all-hold-approve') });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
  });

  it('a configured trusted login is the one checked', async () => {
    const r = await run({ snapshot: () => as('ci-bot', '050-gate-all-hold-approve', (s) => {
      s.config = { ...(s.config ?? {}), trusted_login: 'ci-bot' };
      for (const list of Object.values(s.statuses)) for (const st of list) if (st.creator === 'lfx-reviewer') st.creator = 'ci-bot';
      for (const c of s.pulls[0].comments) if (c.author === 'lfx-reviewer') c.author = 'ci-bot';
      return s;
    }) });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
  });
});
