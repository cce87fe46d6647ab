// `agentic-apply record --pr N --out FILE` (SNAPSHOT.md §1): live and
// read-only, it captures a snapshot whose event is workflow_dispatch with
// inputs.pr "N" (`--all`: every open PR, a schedule event). Replaying the
// file must give the decision a live `gate --pr N --json --dry-run` (or
// `sweep`) gives against the same state: same gate outcome, conditions,
// head and (planned) writes; recording writes nothing. Skipped while
// `record --help` does not exit 0 (the command is being written).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite, requestLines } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { exec, liveEnv, parseReport, runReplay, scratch, succeeds } from './lib/run.mjs';

const available = await succeeds(['record', '--help']);
const skip = available ? false : 'agentic-apply record is not implemented yet (record --help exits non-zero)';

// Gate scenarios on PR 7 (dispatch), covering every condition and config.
const GATES = [
  '050-gate-all-hold-approve', '051-gate-clean-fails', '052-gate-label-present', '053-gate-thread-unanswered',
  '054-gate-escalation-judge-running', '055-gate-already-approved-no-write', '056-gate-withhold-dismisses-only-trusted-approvals',
  '057-gate-untrusted-clean-status', '064-esc-malformed-newest', '066-esc-yes-auth-newer-approve', '069-esc-yes-unauthorized-after-authorized',
  '070-esc-no-unlabel-authorized-approve', '071-esc-no-unlabel-unauthorized', '073-esc-none-skip-marker-approve',
  '077-esc-retarget-drops-verdict', '079-esc-retarget-new-verdict-approve', '082-esc-verdict-edited-by-other', '084-esc-verdict-edited-by-trusted',
  '115-skip-draft-withhold', '116-skip-draft-approve-configured', '140-t4-viewer-mismatch-approve', '142-t4-viewer-mismatch-nothing-to-write',
  '143-t4-viewer-other-case', '170-adv-forged-verdicts-and-status', '188-adv-ai-reviewer-lookalike-thread', '112-skip-closed', '114-skip-fork',
];

const decision = (report) => ({
  steps: (report?.steps ?? []).map((s) => ({ pr: s.pr, step: s.step, outcome: s.outcome, head: s.head, conditions: s.conditions ?? null })),
  writes: report?.writes ?? null,
});

describe('record', { skip }, () => {
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

  const env = (snapshot, extra = {}) => liveEnv(snapshot, { api: hub.url }, dir, extra);

  async function record(snapshot, args, name) {
    await hub.load(snapshot);
    const out = path.join(dir, `${name}.snapshot.json`);
    const r = await exec(['record', ...args, '--out', out], { env: env(snapshot) });
    const log = await hub.log();
    return { ...r, out, log, recorded: existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null };
  }

  async function live(snapshot, args) {
    await hub.load(snapshot);
    const r = await exec([...args, '--json', '--dry-run'], { env: env(snapshot) });
    return { ...r, report: parseReport(r.stdout) };
  }

  for (const name of GATES) {
    it(`${name}: record --pr N, replay = live gate --dry-run`, async () => {
      const fx = fixture(name);
      const pr = fx.expect.steps?.find((s) => s.step === 'gate')?.pr ?? 7;
      const rec = await record(fx.snapshot, ['--pr', String(pr)], name);
      assert.equal(rec.code, 0, rec.stderr.slice(-500));
      assert.deepEqual(rec.log.filter(isWrite).map((e) => `${e.method} ${e.path}`), [], 'record writes nothing');
      assert.ok(rec.recorded, 'the snapshot file was written');
      assert.equal(rec.recorded.snapshot, 1);
      assert.equal(rec.recorded.repository, fx.snapshot.repository);
      assert.equal(rec.recorded.event?.name, 'workflow_dispatch');
      assert.equal(rec.recorded.event?.payload?.inputs?.pr, String(pr));
      assert.ok(rec.recorded.pulls.some((p) => p.number === pr), 'the PR is in the snapshot');
      const gate = await live(fx.snapshot, ['gate', '--pr', String(pr)]);
      const replay = await runReplay(rec.out, ['--dry-run']);
      assert.ok(gate.report, gate.stderr.slice(-400));
      assert.ok(replay.report, `replay of the recording failed: ${replay.stderr.slice(-400)}`);
      assert.deepEqual(decision(replay.report), decision(gate.report), 'the recording replays to the live decision');
      assert.equal(replay.code, gate.code);
    });
  }

  it('053: record keeps each thread\'s link; the live reason and the replay name the thread by it', async () => {
    const fx = fixture('053-gate-thread-unanswered');
    const rec = await record(fx.snapshot, ['--pr', '7'], 'links');
    assert.equal(rec.code, 0, rec.stderr.slice(-500));
    const want = fx.snapshot.pulls[0].threads.map((t) => t.url ?? null);
    assert.deepEqual(rec.recorded.pulls[0].threads.map((t) => t.url ?? null), want, 'a link only where GitHub gave one');
    const link = want.find(Boolean);
    const gate = await live(fx.snapshot, ['gate', '--pr', '7']);
    const replay = await runReplay(rec.out, ['--dry-run']);
    for (const r of [gate.report, replay.report]) {
      assert.match(r.steps.find((s) => s.step === 'gate').reasons.join('\n'), new RegExp(`without a reply: ${link.replace(/[.?]/g, '\\$&')}$`, 'm'));
    }
  });

  // PUBLISH §8: a recording holds what publish and review-plan read (the
  // review comments with their roots, the files with their patches, the
  // base's SHA), so the same command replays to the same report.
  for (const name of ['1046-reopen-thread-incremental-new-root', '1082-plan-replies-harvested']) {
    it(`${name}: record --pr 7, the fixture's command replays the recording as the fixture`, async () => {
      const file = path.join(path.dirname(fixture('000').file), 'publish', `${name}.json`);
      const snap = JSON.parse(readFileSync(file, 'utf8'));
      const rec = await record(snap, ['--pr', '7'], name);
      assert.equal(rec.code, 0, rec.stderr.slice(-500));
      assert.deepEqual(rec.log.filter(isWrite).map((e) => `${e.method} ${e.path}`), [], 'record writes nothing');
      const pulled = rec.recorded.pulls.find((p) => p.number === 7);
      const want = snap.pulls.find((p) => p.number === 7);
      const ids = (list) => (list ?? []).map((c) => c.id).sort((x, y) => x - y);
      assert.deepEqual(ids(pulled.review_comments), ids(want.review_comments), 'every review comment recorded');
      assert.deepEqual((pulled.files ?? []).map((f) => [f.filename, f.patch]), (want.files ?? []).map((f) => [f.filename, f.patch ?? null]));
      const replayed = path.join(dir, `${name}.command.json`);
      writeFileSync(replayed, JSON.stringify({ ...rec.recorded, command: snap.command }));
      const [a, b] = await Promise.all([runReplay(replayed), runReplay(file)]);
      assert.ok(a.report, `replay of the recording failed: ${a.stderr.slice(-400)}`);
      assert.deepEqual({ steps: a.report.steps, writes: a.report.writes, exit: a.report.exit },
        { steps: b.report.steps, writes: b.report.writes, exit: b.report.exit });
    });
  }

  it('record --all of a repository: replay = live sweep --dry-run', async () => {
    const fx = fixture('150-sweep-mixed');
    const rec = await record(fx.snapshot, ['--all'], 'all');
    assert.equal(rec.code, 0, rec.stderr.slice(-500));
    assert.deepEqual(rec.log.filter(isWrite).map((e) => `${e.method} ${e.path}`), [], 'record writes nothing');
    assert.equal(rec.recorded?.event?.name, 'schedule');
    const open = fx.snapshot.pulls.filter((p) => (p.state ?? 'open') === 'open').map((p) => p.number).sort((a, b) => a - b);
    assert.deepEqual(rec.recorded.pulls.map((p) => p.number).sort((a, b) => a - b).filter((n) => open.includes(n)), open, 'every open PR recorded');
    const sweep = await live(fx.snapshot, ['sweep']);
    const replay = await runReplay(rec.out, ['--dry-run']);
    assert.deepEqual(decision(replay.report), decision(sweep.report));
  });

  it('a read failing while recording: no snapshot that could approve', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.faults = [{ read: 'statuses', status: 502 }];
    const rec = await record(s, ['--pr', '7'], 'faulted');
    assert.equal(rec.code, 3, `exit ${rec.code}: ${rec.stderr.slice(-400)}`);
    if (rec.recorded) {
      const replay = await runReplay(rec.out, ['--dry-run']);
      assert.ok(!(replay.report?.writes ?? []).some((w) => w.kind === 'approve'), 'a partial recording replays to an approval');
    }
  });

  it('record needs --out and --pr (or --all): usage error, exit 2', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    await hub.load(fx.snapshot);
    for (const args of [['--pr', '7'], ['--out', path.join(dir, 'x.json')]]) {
      const r = await exec(['record', ...args], { env: env(fx.snapshot) });
      assert.equal(r.code, 2, `record ${args.join(' ')}: exit ${r.code}`);
    }
    assert.deepEqual(requestLines((await hub.log()).filter(isWrite)), []);
  });
});
