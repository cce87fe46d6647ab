// Sweep at scale, live against fakehub: change detection across sweeps
// (--state), read-ahead in batches, write pacing, and what a poisoned
// state file can and cannot do.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { repository, kindOf } from '../../bench/lib.mjs';
import { Hub, isWrite } from './lib/fakehub.mjs';
import { runLive, scratch } from './lib/run.mjs';

const N = 30;
const sweep = ['sweep', '--json'];

describe('sweep: change detection and batching', () => {
  let hub;
  let work;
  before(async () => { hub = await Hub.start(); work = scratch(); });
  after(async () => { await hub?.stop(); work?.cleanup(); });

  async function run(snapshot, statePath, env = {}) {
    await hub.clearLog();
    const r = await runLive(snapshot, hub, { command: sweep, args: ['--state', statePath], env });
    assert.equal(r.code, 0, r.stderr.slice(-500));
    const log = await hub.log();
    return { ...r, log, reads: log.filter((e) => !isWrite(e)), writes: log.filter(isWrite) };
  }

  it('cold: reads in batches (far fewer requests than PRs), approves the approvable', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'cold.json');
    const r = await run(repo, state);
    const approvable = repo.pulls.filter((p) => kindOf(p.number) === 'approvable').map((p) => p.number);
    assert.deepEqual(r.report.writes.filter((w) => w.kind === 'approve').map((w) => w.pr), approvable);
    assert.ok(r.reads.length < N, `${r.reads.length} reads for ${N} PRs`);
    assert.ok(r.report.steps.length === N, 'one step per open PR');
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    assert.equal(saved.agentic_sweep_state, 1);
    assert.equal(saved.repositories['lf/bench'].pulls.length, N);
  });

  it('warm: nothing changed → only the listing is read, nothing written', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'warm.json');
    await run(repo, state); // cold (approves)
    await run(repo, state); // our approvals changed those PRs: read once more
    const r = await run(repo, state);
    assert.deepEqual(r.writes, []);
    assert.deepEqual(r.reads.map((e) => e.path), ['/graphql'], 'one listing query');
    assert.ok(r.report.steps.every((s) => s.outcome === 'skipped' && /unchanged since the last sweep/.test(s.reasons[0])));
  });

  it('a changed PR is evaluated again, the others are not', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'changed.json');
    await run(repo, state);
    await run(repo, state);
    const now = await hub.state();
    const p = now.pulls.find((x) => x.number === 5);
    p.threads.find((t) => t.comments < 2).comments = 2; // the thread is answered
    p.updated_at = '2026-11-29T11:00:00Z';
    await hub.load(now);
    const r = await run(now, state);
    const evaluated = r.report.steps.filter((s) => !/unchanged since/.test(s.reasons[0] ?? '')).map((s) => s.pr);
    assert.deepEqual(evaluated, [5]);
    assert.equal(r.report.steps.find((s) => s.pr === 5).conditions.threads_answered, true);
  });

  // Every kind of change a gate reads is noticed by the next sweep (issue 13;
  // docs/sweep.md, "What a warm sweep notices"). Each mutation is what
  // GitHub records, and nothing more: no updated_at is set by hand here.
  const AT = '2026-11-29T11:00:00Z';
  const KINDS = {
    comment: (s, p) => p.comments.push({ id: 990001, author: 'dev1', created_at: AT, body: 'A question.' }),
    // Nothing records a deletion's time: only the comments' ids say it.
    'comment deleted': (s, p) => { p.comments.pop(); },
    'comment edited by someone else': (s, p) => {
      const c = p.comments.find((x) => x.author === 'lfx-reviewer') ?? p.comments[p.comments.length - 1];
      Object.assign(c, { edited_by: 'mallory', edited_at: AT, edits: [{ editor: 'mallory', edited_at: AT }] });
    },
    review: (s, p) => p.reviews.push({ id: 990002, author: 'dev1', state: 'COMMENTED', commit_id: p.head.sha, submitted_at: AT }),
    // GitHub records a reply to a review thread as a review (COMMENTED).
    'thread reply': (s, p) => {
      p.threads[0].comments += 1;
      p.reviews.push({ id: 990003, author: 'dev2', state: 'COMMENTED', commit_id: p.head.sha, submitted_at: AT });
    },
    'label added': (s, p) => {
      p.labels.push('needs-human');
      p.timeline.push({ id: 990004, event: 'labeled', label: 'needs-human', actor: 'dev1', created_at: AT });
    },
    'label removed': (s, p) => {
      p.labels = [];
      p.timeline.push({ id: 990007, event: 'unlabeled', label: 'needs-human', actor: 'dev1', created_at: AT });
    },
    // The labels end as they were: only the timeline (and so the PR's
    // updatedAt) says anything happened.
    'label removed and put back': (s, p) => {
      p.timeline.push({ id: 990008, event: 'unlabeled', label: 'enhancement', actor: 'dev1', created_at: AT },
        { id: 990009, event: 'labeled', label: 'enhancement', actor: 'dev1', created_at: '2026-11-29T11:00:05Z' });
    },
    push: (s, p) => { p.head.sha = 'f'.repeat(40); p.commits.push(p.head.sha); },
    retarget: (s, p) => {
      p.base.ref = 'release';
      p.timeline.push({ id: 990005, event: 'base_ref_changed', actor: 'dev1', created_at: AT });
    },
    'status on the head': (s, p) => (s.statuses[p.head.sha] ??= []).push({ id: 990006, state: 'success',
      context: 'ci/build', description: 'Build passed', creator: 'github-actions[bot]', created_at: AT, target_url: null }),
    'draft again': (s, p) => { p.draft = true; },
  };
  for (const [kind, mutate] of Object.entries(KINDS)) {
    it(`a warm sweep notices: ${kind}`, async () => {
      const repo = repository(N);
      await hub.load(repo);
      const state = path.join(work.dir, `kind-${kind.replace(/\W+/g, '-')}.json`);
      await run(repo, state);
      await run(repo, state);
      const now = await hub.state();
      const p = now.pulls.find((x) => x.number === 7);
      p.timeline ??= [];
      mutate(now, p);
      await hub.load(now);
      const r = await run(now, state);
      const evaluated = r.report.steps.filter((s) => !/unchanged since/.test(s.reasons[0] ?? '')).map((s) => s.pr);
      assert.deepEqual(evaluated, [7], `only PR 7 is read again (${kind})`);
    });
  }

  // The listing sees the head's statuses through the head branch: without
  // one (deleted), a status could change unseen, so such a PR has no digest.
  it('a PR whose head branch is gone is read again every sweep; the others are not', async () => {
    const repo = repository(N);
    repo.pulls.find((p) => p.number === 7).head.ref_deleted = true;
    await hub.load(repo);
    const state = path.join(work.dir, 'ref-deleted.json');
    await run(repo, state);
    await run(await hub.state(), state);
    const r = await run(await hub.state(), state);
    const evaluated = r.report.steps.filter((s) => !/unchanged since/.test(s.reasons[0] ?? '')).map((s) => s.pr);
    assert.deepEqual(evaluated, [7]);
    const saved = JSON.parse(readFileSync(state, 'utf8')).repositories['lf/bench'].pulls;
    assert.equal(saved.find((p) => p.number === 7).digest, '');
  });

  // What the reads cost, by GitHub's formula (fakehub computes it): the
  // listing a point per 100 PRs, the details a point per 70, every
  // read-ahead document packed to one point.
  it('GraphQL points: the listing and the details cost 1 point, every read-ahead document 1 point', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const r = await run(repo, path.join(work.dir, 'points.json'));
    const gql = r.log.filter((e) => e.path === '/graphql');
    const probe = gql.filter((e) => /pullRequests\(states:\[OPEN\]/.test(e.body.query));
    const details = gql.filter((e) => /reviewThreads\(first:1\)\{totalCount\}/.test(e.body.query));
    const ahead = gql.filter((e) => /p0:pullRequest\(number:\d+\)\{number state/.test(e.body.query));
    assert.deepEqual(probe.map((e) => e.points), [1]);
    assert.deepEqual(details.map((e) => e.points), [1]);
    assert.ok(ahead.length >= 2, `${ahead.length} read-ahead documents`);
    assert.ok(ahead.every((e) => e.points === 1), `read-ahead points: ${ahead.map((e) => e.points)}`);
    // PRs of two threads each: 18 fit a document (8 requests each).
    const first = ahead[0].body.query.match(/p\d+:pullRequest/g).length;
    assert.equal(first, 18);
    assert.match(ahead[0].body.query, /reviewThreads\(first:2[,)]/);
  });

  it('AGENTIC_SWEEP_STATE_TTL=0: every entry has expired, every PR is evaluated', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'ttl.json');
    await run(repo, state);
    await run(repo, state);
    const r = await run(repo, state, { AGENTIC_SWEEP_STATE_TTL: '0' });
    assert.ok(!r.report.steps.some((s) => /unchanged since/.test(s.reasons[0] ?? '')));
  });

  it('another policy: the recorded outcomes do not hold, every PR is evaluated', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'policy.json');
    await run(repo, state);
    await run(repo, state);
    const r = await run(repo, state, { AGENTIC_UNLABELERS: 'alice' });
    assert.ok(!r.report.steps.some((s) => /unchanged since/.test(s.reasons[0] ?? '')));
  });

  it('a poisoned state file cannot make a sweep approve: at worst it skips', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const state = path.join(work.dir, 'poison.json');
    await run(repo, state);
    // Claim every PR was approved with its current digest.
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    for (const e of saved.repositories['lf/bench'].pulls) e.outcome = 'approve';
    writeFileSync(state, JSON.stringify(saved));
    const r = await run(repo, state);
    assert.ok(!r.report.writes.some((w) => w.kind === 'approve'), 'no approval from a state file');
    const after = await hub.state();
    const withheld = after.pulls.filter((p) => ['unanswered', 'labeled'].includes(kindOf(p.number)));
    assert.ok(withheld.every((p) => !p.reviews.some((rv) => rv.state === 'APPROVED')));
  });

  it('writes are paced (AGENTIC_WRITE_INTERVAL_MS, default 1 s)', async () => {
    const repo = repository(N);
    await hub.load(repo);
    const r = await run(repo, path.join(work.dir, 'pace.json'), { AGENTIC_WRITE_INTERVAL_MS: '300' });
    const times = r.writes.map((e) => Date.parse(e.at ?? 0)).filter(Boolean);
    if (times.length >= 2) {
      for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= 250, `writes ${times[i] - times[i - 1]} ms apart`);
    } else {
      assert.ok(r.writes.length < 2 || r.ms >= 300 * (r.writes.length - 1), `took ${r.ms} ms for ${r.writes.length} writes`);
    }
  });
});

describe('sweep: rate-limit reserve', () => {
  let hub;
  let work;
  before(async () => { hub = await Hub.start(); work = scratch(); });
  after(async () => { await hub?.stop(); work?.cleanup(); });

  it('stops before GitHub\'s GraphQL limit is spent, lists the PRs not reached, writes nothing for them', async () => {
    const repo = repository(N);
    repo.rate_limit = { graphql: 103, rest: 5000 };
    await hub.load(repo);
    const r = await runLive(repo, hub, { command: sweep, args: ['--state', path.join(work.dir, 'rate.json')] });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    const missed = r.report.not_reached ?? [];
    assert.ok(missed.length > 0, 'some PRs were not reached');
    assert.match(r.stderr, /rate limit is nearly spent/);
    assert.deepEqual(r.report.writes.filter((w) => missed.includes(w.pr)), []);
    const used = (await (await fetch(`${hub.url}/rate_limit`, { headers: { authorization: 'Bearer x' } })).json()).resources.graphql.used;
    assert.ok(used <= 103, `used ${used} of 103 points`);
  });
});
