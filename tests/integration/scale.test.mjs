// Pagination, live: generated scenarios whose lists span several pages
// (lib/scenarios.mjs). Each runs live against fakehub and through replay:
// the same stdout and exit code, and the outcome the scenario was built
// for (so replay and the live port cannot agree on a wrong answer).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, HubPool, requestLines } from './lib/fakehub.mjs';
import { differential } from './lib/differential.mjs';
import { runLive, scratch } from './lib/run.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';

const HUBS = 3;

function subset(actual, want) {
  for (const [k, v] of Object.entries(want)) assert.deepEqual(actual?.[k], v, `${k} of ${JSON.stringify(actual)}`);
}

describe('scale: paginated reads, live = replay = intended', { concurrency: HUBS }, () => {
  let pool;
  let dir;
  let cleanup;
  before(async () => {
    pool = await HubPool.start(HUBS);
    ({ dir, cleanup } = scratch());
  });
  after(async () => {
    await pool?.stop();
    cleanup?.();
  });

  SCENARIOS.forEach((sc, i) => {
    it(sc.name, async () => {
      const snapshot = sc.build();
      const file = path.join(dir, `scenario-${i}.json`);
      writeFileSync(file, JSON.stringify(snapshot));
      const fx = { name: sc.name, file, snapshot, args: [] };
      const { live, log } = await pool.with((hub) => differential(fx, hub));
      const report = live.report;
      const gate = report.steps.find((s) => s.step === 'gate');
      if (sc.outcome) assert.equal(gate?.outcome, sc.outcome, `gate outcome: ${JSON.stringify(gate)}`);
      if (sc.condition) assert.equal(gate.conditions[sc.condition[0]], sc.condition[1], `${sc.condition[0]}: ${JSON.stringify(gate)}`);
      if (sc.apply) assert.equal(report.steps.find((s) => s.step === 'apply')?.outcome, sc.apply, JSON.stringify(report.steps));
      if (sc.steps) assert.equal(report.steps.length, sc.steps);
      if (sc.writes) {
        assert.equal(report.writes.length, sc.writes.length, `writes: ${JSON.stringify(report.writes)}`);
        sc.writes.forEach((w, k) => subset(report.writes[k], w));
      }
      assert.equal(report.exit, sc.exit ?? 0, `exit ${report.exit}: ${live.stderr.slice(-400)}`);
      if (sc.uses) assert.ok(log.some((e) => e.path.includes(`/${sc.uses}/`)), `uses the ${sc.uses} API: ${requestLines(log).join(', ')}`);
      assert.ok(log.every((e) => e.status !== null && e.status < 400), `no failed request: ${requestLines(log.filter((e) => !(e.status < 400))).join(', ')}`);
    });
  });
});

// §7: a sweep has a deadline and reports the PRs it did not reach (N15:
// extension field `not_reached`). With fakehub answering slowly and a one-
// second deadline, the sweep stops early: every open PR is either a step or
// not reached (never both, ascending), nothing is written for the PRs not
// reached, and the run ends close to the deadline.
describe('scale: sweep deadline', () => {
  let hub;
  // The sweep reads ahead in batches, so 20 ms per answer no longer makes
  // it miss a 1 s deadline: 250 ms does.
  before(async () => { hub = await Hub.start({ latencyMs: 250 }); });
  after(async () => { await hub?.stop(); });

  // The deadline bounds the whole sweep, its listing included (A6): the
  // listing (3 pages, ~1 s here, more on a loaded machine) fits in 6 s;
  // the 130 PRs, each needing its REST status history, do not.
  it('130 open PRs, sweep_deadline 6 s, 250 ms per answer → stops, lists the rest', async () => {
    const snapshot = SCENARIOS.find((x) => x.name.startsWith('sweep:')).build();
    snapshot.config = { ...(snapshot.config ?? {}), sweep_deadline: 6 };
    // Every PR in the review flow (a trusted clean status on its head), so
    // each one needs reading, its status history too (an escalation-context
    // status): the deadline must fall in the middle.
    let id = 50000;
    for (const p of snapshot.pulls) {
      snapshot.statuses[p.head.sha] = [...(snapshot.statuses[p.head.sha] ?? []), {
        id: ++id, state: 'failure', context: 'agentic-review/clean', description: `conductor pr=#${p.number}: clean=false`,
        creator: 'lfx-reviewer', created_at: '2026-11-29T09:30:00Z', target_url: null,
      }, {
        id: ++id, state: 'success', context: 'agentic-review/escalation', description: `judged pr=#${p.number}: routine`,
        creator: 'lfx-reviewer', created_at: '2026-11-29T09:31:00Z', target_url: null,
      }];
    }
    await hub.load(snapshot);
    const r = await runLive(snapshot, hub);
    assert.ok(r.report, r.stderr.slice(-400));
    assert.ok(r.ms < 10000, `the sweep ended near its deadline (${r.ms} ms)`);
    // A PR whose read the deadline cut is an error step (exit 3), never an approval.
    for (const s of r.report.steps.filter((x) => x.outcome === 'error')) {
      assert.match(r.stderr, new RegExp(`PR #${s.pr}: .*deadline`), `PR #${s.pr} failed for another reason`);
    }
    assert.equal(r.code, r.report.steps.some((x) => x.outcome === 'error') ? 3 : 0, r.stderr.slice(-400));
    const open = snapshot.pulls.map((p) => p.number).sort((a, b) => a - b);
    const stepped = r.report.steps.map((s) => s.pr);
    const missed = r.report.not_reached ?? [];
    assert.ok(missed.length > 0, 'some PRs were not reached');
    assert.deepEqual([...stepped, ...missed], open, 'steps then not_reached cover every open PR once, ascending');
    assert.deepEqual(r.report.writes.filter((w) => missed.includes(w.pr)), [], 'nothing written for PRs not reached');
  });
});
