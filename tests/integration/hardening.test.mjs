// The hardening issue on the live path: A5 (T2 over a comment's whole edit
// history, read with GraphQL userContentEdits, every page; an unreadable
// history fails closed; record writes it) and A6 (every run has a
// deadline: a hung read ends the run with exit 3 long before the
// per-request timeout; a sweep whose selection reads hang reports error
// steps; a hung bundle does not cost its parts the full retry budget).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { differential } from './lib/differential.mjs';
import { exec, liveEnv, runLive, scratch } from './lib/run.mjs';

const isEditHistory = (e) => e.path === '/graphql' && /userContentEdits/.test(e.body?.query ?? '');
const at = (i) => new Date(Date.UTC(2026, 10, 29, 9, 30, 0) + i * 1000).toISOString().replace('.000Z', 'Z');

/** 050 (approves) with the needs-human verdict's history set to `edits`. */
function withHistory(edits, name) {
  const fx = structuredClone(fixture('050-gate-all-hold-approve'));
  const verdict = fx.snapshot.pulls[0].comments.find((c) => c.id === 401);
  verdict.edits = edits;
  verdict.edited_by = edits.at(-1).editor;
  verdict.edited_at = edits.at(-1).edited_at;
  fx.name = name;
  return fx;
}

/** A fixture object whose snapshot lives in a file (differential replays a file). */
function onDisk(fx, dir) {
  const file = path.join(dir, `${fx.name}.json`);
  writeFileSync(file, JSON.stringify(fx.snapshot));
  return { ...fx, file };
}

describe('A5: edit histories on the live path', () => {
  let hub;
  let dir;
  let cleanup;
  before(async () => {
    hub = await Hub.start();
    ({ dir, cleanup } = scratch());
  });
  after(async () => {
    await hub?.stop();
    cleanup?.();
  });

  it('an edit history trusted throughout keeps the verdict (live = replay)', async () => {
    const fx = withHistory([0, 1, 2].map((i) => ({ editor: 'lfx-reviewer', edited_at: at(i) })), 'a5-trusted-history');
    const { live, log } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'approve', live.stderr.slice(-400));
    assert.equal(log.filter(isEditHistory).length, 3, 'one history read per read of the PR (decide, re-check, after the POST)');
  });

  it('an untrusted editor on page 2 of a long history disqualifies the verdict (live = replay)', async () => {
    const edits = Array.from({ length: 150 }, (_, i) => ({ editor: i === 20 ? 'mallory' : 'lfx-reviewer', edited_at: at(i) }));
    const fx = withHistory(edits, 'a5-untrusted-edit-on-page-2');
    const { live, log } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
    assert.deepEqual(live.report.writes, []);
    const reads = log.filter(isEditHistory);
    assert.equal(reads.length, 2, 'the first page with the comment, then one more page');
    assert.match(reads[1].body.query, /after:\$after/);
  });

  it('a Bot editor spelled like the trusted login is another account (GraphQL drops "[bot]")', async () => {
    const fx = withHistory([{ editor: 'lfx-reviewer[bot]', edited_at: at(0) }, { editor: 'lfx-reviewer', edited_at: at(1) }], 'a5-bot-editor');
    const { live } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
  });

  it('a deleted editor (null) is not the trusted login', async () => {
    const fx = withHistory([{ editor: null, edited_at: at(0) }, { editor: 'lfx-reviewer', edited_at: at(1) }], 'a5-deleted-editor');
    const { live } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
  });

  for (const [label, fault] of [
    ['a 502 on page 2 of the history', { read: 'comments', pr: 7, page: 2, status: 502 }],
    ['an invalid answer on page 2 of the history', { read: 'comments', pr: 7, page: 2, mode: 'invalid_json' }],
  ]) {
    it(`${label}: the comments part failed, nothing approved, exit 3`, async () => {
      const fx = withHistory(Array.from({ length: 150 }, (_, i) => ({ editor: 'lfx-reviewer', edited_at: at(i) })), 'a5-unreadable');
      const s = { ...fx.snapshot, faults: [fault] };
      await hub.load(s);
      const r = await runLive(s, hub);
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.equal(r.report.steps[0].outcome, 'error');
      assert.ok(!(await hub.log()).some((e) => isWrite(e) && /reviews$/.test(e.path) && e.method === 'POST'), 'no approval');
      assert.match(r.stderr, /edit history/);
    });
  }

  it('record writes the history, oldest first; replaying the recording decides the same', async () => {
    const edits = [
      { editor: 'lfx-reviewer', edited_at: at(0) },
      { editor: 'mallory', edited_at: at(1) },
      { editor: 'lfx-reviewer', edited_at: at(2) },
    ];
    const fx = withHistory(edits, 'a5-record');
    await hub.load(fx.snapshot);
    const out = path.join(dir, 'recorded.json');
    const r = await exec(['record', '--pr', '7', '--out', out], { env: liveEnv(fx.snapshot, { api: hub.url }, dir) });
    assert.equal(r.code, 0, r.stderr);
    const recorded = JSON.parse(readFileSync(out, 'utf8'));
    const c = recorded.pulls[0].comments.find((x) => x.id === 401);
    assert.deepEqual(c.edits, edits);
    const replay = await exec(['replay', out]);
    assert.equal(JSON.parse(replay.stdout).steps[0].outcome, 'withhold');
  });
});

/** The program's own defaults for the transport (not the suite's FAST ones). */
const SLOW = { AGENTIC_HTTP_TIMEOUT: '30', AGENTIC_RETRIES: '3', AGENTIC_RETRY_BASE_MS: '1000' };
const approvals = (log) => log.filter((e) => e.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(e.path));

describe('A6: the run\'s deadline', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  // One hung read of each kind the gate makes, with the per-request
  // timeout at its default (30 s) and config deadline 5 s.
  for (const [label, fault] of [
    ['the pull bundle (threads)', { read: 'threads', status: 'hang' }],
    ['the REST status history', { read: 'statuses', api: 'rest', status: 'hang' }],
    ['every GraphQL read', { read: 'pull', api: 'graphql', status: 'hang' }],
    ['an edit history', { read: 'comments', pr: 7, page: 2, status: 'hang' }],
  ]) {
    it(`a hung read (${label}) with deadline 5: exit 3, nothing approved, well under the 30 s timeout`, async () => {
      const fx = label === 'an edit history'
        ? withHistory(Array.from({ length: 150 }, (_, i) => ({ editor: 'lfx-reviewer', edited_at: at(i) })), 'a6-history')
        : structuredClone(fixture('050-gate-all-hold-approve'));
      const s = { ...fx.snapshot, faults: [fault] };
      if (label === 'the REST status history') {
        // An untrusted clean status on top: GraphQL's newest-per-context cannot decide, REST must.
        s.statuses['7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e'].push({ id: 1003, state: 'success', context: 'agentic-review/clean',
          description: 'conductor pr=#7: clean=true', creator: 'mallory', created_at: '2026-11-29T10:30:00Z', target_url: null });
      }
      await hub.load(s);
      const r = await runLive(s, hub, { env: { ...SLOW, AGENTIC_DEADLINE: '5' }, timeoutMs: 60000 });
      const log = await hub.log();
      assert.equal(r.signal, null);
      assert.equal(r.code, 3, r.stderr.slice(-600));
      assert.ok(r.ms < 15000, `took ${r.ms} ms`);
      assert.ok(r.ms >= 4000, `took ${r.ms} ms: the hang was not waited for until the deadline`);
      assert.equal(r.report.steps.at(-1).outcome, 'error');
      assert.deepEqual(approvals(log), []);
      assert.deepEqual(r.report.writes.filter((w) => w.kind === 'approve'), []);
      assert.match(r.stderr, /deadline/);
      // Nothing is sent after the deadline: every request started within it.
      assert.ok(log.filter((e) => e.status === null).length >= 1, 'the hang was reached');
    });
  }

  it('the deadline comes from the environment as config key deadline; a sweep has its own', async () => {
    const fx = structuredClone(fixture('050-gate-all-hold-approve'));
    const s = { ...fx.snapshot, config: { ...(fx.snapshot.config ?? {}), deadline: 4 }, faults: [{ read: 'threads', status: 'hang' }] };
    await hub.load(s);
    const r = await runLive(s, hub, { env: SLOW });
    assert.equal(r.code, 3, r.stderr.slice(-400));
    assert.ok(r.ms < 12000 && r.ms >= 3000, `took ${r.ms} ms`);
  });

  it('a hung bundle costs each part the per-request timeout once, not the retry budget', async () => {
    const fx = structuredClone(fixture('050-gate-all-hold-approve'));
    const s = { ...fx.snapshot, faults: [{ read: 'threads', status: 'hang' }] };
    await hub.load(s);
    // Per-request timeout 2 s, 3 retries, no deadline to speak of.
    const r = await runLive(s, hub, { env: { AGENTIC_HTTP_TIMEOUT: '2', AGENTIC_RETRIES: '3', AGENTIC_RETRY_BASE_MS: '5', AGENTIC_DEADLINE: '600' } });
    assert.equal(r.code, 3, r.stderr.slice(-400));
    const held = (await hub.log()).filter((e) => e.status === null);
    const alone = held.filter((e) => !/labels\(first/.test(e.body?.query ?? ''));
    // The bundle: sent 1 + 3 times; the threads part alone: once.
    assert.equal(held.length - alone.length, 4, 'the bundle gets its retries');
    assert.equal(alone.length, 1, `the threads part alone hung ${alone.length} times`);
    assert.ok(r.ms < 4 * 2000 + 2 * 2000 + 3000, `took ${r.ms} ms`);
  });
});

/** Three open PRs whose selection needs the REST status history. */
function sweepScenario() {
  const base = structuredClone(fixture('050-gate-all-hold-approve').snapshot);
  const pr7 = base.pulls[0];
  const heads = { 7: pr7.head.sha, 8: '8e'.repeat(20), 9: '9e'.repeat(20) };
  base.event = { name: 'schedule', payload: {} };
  base.pulls = [7, 8, 9].map((n) => {
    const p = structuredClone(pr7);
    p.number = n;
    p.head = { ...p.head, sha: heads[n], ref: `feature-${n}` };
    p.commits = [heads[n]];
    p.reviews = (p.reviews ?? []).map((r) => ({ ...r, commit_id: heads[n] }));
    return p;
  });
  const own = base.statuses[pr7.head.sha];
  base.statuses = {};
  let id = 5000;
  for (const n of [7, 8, 9]) {
    base.statuses[heads[n]] = [
      ...own.map((st) => ({ ...st, id: (id += 1), description: st.description.replace('pr=#7:', `pr=#${n}:`) })),
      // A forged clean status on top: the listing cannot select, REST must.
      { id: (id += 1), state: 'success', context: 'agentic-review/clean', description: `conductor pr=#${n}: clean=true`,
        creator: 'mallory', created_at: '2026-11-29T10:30:00Z', target_url: null },
    ];
  }
  return base;
}

describe('A6: a sweep whose selection reads hang', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  it('reports error steps (or PRs not reached), exit 3, nothing approved, within the sweep deadline', async (t) => {
    const s = { ...sweepScenario(), faults: [{ read: 'statuses', api: 'rest', status: 'hang' }] };
    await hub.load(s);
    const r = await runLive(s, hub, { command: ['sweep', '--json'], env: { ...SLOW, AGENTIC_SWEEP_DEADLINE: '5' }, timeoutMs: 60000 });
    const log = await hub.log();
    assert.equal(r.signal, null);
    assert.ok(r.ms < 15000, `took ${r.ms} ms`);
    assert.equal(r.code, 3, r.stderr.slice(-600));
    assert.deepEqual(approvals(log), []);
    const steps = r.report.steps;
    const notReached = r.report.not_reached ?? [];
    t.diagnostic(`${r.ms} ms; steps ${JSON.stringify(steps.map((x) => [x.pr, x.outcome]))}; not reached ${JSON.stringify(notReached)}`);
    for (const n of [7, 8, 9]) {
      const step = steps.find((x) => x.pr === n);
      assert.ok((step && step.outcome === 'error') || notReached.includes(n),
        `PR #${n}: ${step ? `step ${step.outcome}` : 'no step'}${notReached.includes(n) ? ', not reached' : ''}`);
      assert.ok(!step || step.outcome !== 'skipped', `PR #${n} is never a silent skip`);
    }
    assert.ok(steps.some((x) => x.outcome === 'error'), `a PR whose selection reads failed gets an error step: ${JSON.stringify(steps.map((x) => [x.pr, x.outcome]))} not reached ${JSON.stringify(notReached)}`);
  });
});

describe('A6: status --watch', () => {
  let hub;
  let dir;
  let cleanup;
  before(async () => {
    hub = await Hub.start();
    ({ dir, cleanup } = scratch());
  });
  after(async () => {
    await hub?.stop();
    cleanup?.();
  });

  it('the deadline bounds each poll, not the watch: polls past the first deadline still read', async () => {
    const fx = structuredClone(fixture('050-gate-all-hold-approve'));
    await hub.load(fx.snapshot);
    const r = await exec(['status', '--pr', '7', '--watch', '--interval', '1', '--count', '4'],
      { env: liveEnv(fx.snapshot, { api: hub.url }, dir, { AGENTIC_DEADLINE: '1' }) });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.ms >= 3000, `four polls a second apart (${r.ms} ms)`);
    const reads = (await hub.log()).filter((e) => e.path === '/graphql');
    assert.ok(reads.length >= 4, `every poll read GitHub (${reads.length} queries)`);
    assert.doesNotMatch(r.stderr, /deadline|poll-error/);
  });
});

// Issue 24: a misspelled repository is a usage error (exit 2) that says so,
// never "a GitHub call failed" (exit 3, which a retry would not fix).
describe('a repository that does not exist is a usage error', () => {
  let hub;
  before(async () => {
    hub = await Hub.start();
  });
  after(async () => {
    await hub?.stop();
  });

  for (const command of [['gate', '--pr', '7', '--json'], ['sweep', '--json'], ['run', '--json'], ['review-plan', '--pr', '7'], ['status', '--pr', '7'], ['record', '--pr', '7', '--out', '/dev/null']]) {
    it(`${command[0]} on lf/nope: exit 2, named, nothing written`, async () => {
      const fx = structuredClone(fixture('050-gate-all-hold-approve'));
      await hub.load(fx.snapshot);
      const r = await runLive(fx.snapshot, hub, { command, env: { GITHUB_REPOSITORY: 'lf/nope' } });
      assert.equal(r.code, 2, r.stderr.slice(-600));
      assert.match(r.stderr, /does not exist, or the token cannot see it/);
      assert.ok(!(await hub.log()).some(isWrite), 'nothing written');
    });
  }
});
