// A sweep that stops early, live against fakehub: one deadline bounds the
// whole sweep, every repository of `--repos` included (A6), and each PR the
// sweep could not read reports its own failure, not the last one the port
// saw.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { repository, kindOf } from '../../bench/lib.mjs';
import { Hub } from './lib/fakehub.mjs';
import { runLive } from './lib/run.mjs';

const sweep = ['sweep', '--json'];
const isListing = (e) => e.path === '/graphql' && typeof e.body?.query === 'string' && e.body.query.includes('pullRequests(');

describe('sweep --repos: one deadline for the whole sweep (A6)', () => {
  let hub;
  // 800 ms per answer: the first repository's listing ends well before a
  // 2 s sweep_deadline (1.2 s to spare for a loaded machine: with 600 ms
  // and 1 s, a check-full run at load 12 saw the listing itself cut), and
  // its reads (details, then the gate's read-ahead) run past it.
  before(async () => { hub = await Hub.start({ latencyMs: 800 }); });
  after(async () => { await hub?.stop(); });

  it('a repository after the deadline is not listed, and no PR is gated twice', async () => {
    // Only PRs the gate withholds without a write: an approved or
    // approvable one would make the deadline's timing decide whether the
    // run ends at the identity read before a write (T4) instead.
    const repo = repository(20);
    repo.pulls = repo.pulls.filter((p) => !['approved', 'approvable'].includes(kindOf(p.number)));
    repo.config = { sweep_deadline: 2 };
    await hub.load(repo);
    // fakehub serves one repository: naming it twice makes the second
    // sweep one that has PRs to gate if it (wrongly) gets a new deadline.
    const r = await runLive(repo, hub, { command: sweep, args: ['--repos', `${repo.repository},${repo.repository}`] });
    assert.ok(r.report, r.stderr.slice(-400));
    const log = await hub.log();
    assert.equal(log.filter(isListing).length, 1, 'the second repository was listed after the deadline');
    const prs = r.report.steps.map((s) => s.pr);
    assert.equal(new Set(prs).size, prs.length, `a PR gated twice: ${prs}`);
    assert.match(r.stderr, /sweep deadline reached before lf\/bench was listed/);
    assert.ok((r.report.not_reached ?? []).length > 0, 'the first repository was cut by the deadline');
  });
});

describe('sweep: each PR the sweep could not read has its own error', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  it('two selection reads failing differently, then the rate-limit stop: two different errors', async () => {
    // PRs 10 and 20 have no clean status: with fewer than 8 PRs to look
    // at, the selection reads their reviews, which fail (400 and 422). The
    // listing leaves 99 GraphQL points, under the reserve of 100: the
    // sweep stops before any gate, so both get an error step from what
    // their selection read said.
    const repo = repository(20);
    repo.pulls = repo.pulls.filter((p) => [1, 10, 20].includes(p.number));
    assert.deepEqual(repo.pulls.map((p) => kindOf(p.number)), ['approved', 'unstamped', 'unstamped']);
    repo.faults = [{ read: 'reviews', pr: 10, status: 400 }, { read: 'reviews', pr: 20, status: 422 }];
    repo.rate_limit = { graphql: 100, rest: 5000 };
    await hub.load(repo);
    const r = await runLive(repo, hub, { command: sweep });
    assert.ok(r.report, r.stderr.slice(-400));
    assert.equal(r.code, 3, r.stderr.slice(-400));
    assert.match(r.stderr, /rate limit is nearly spent/);
    const reason = (pr) => r.report.steps.find((s) => s.pr === pr)?.reasons.join(' ') ?? '';
    assert.match(reason(10), /HTTP 400/, `PR #10: ${reason(10)}`);
    assert.match(reason(20), /HTTP 422/, `PR #20: ${reason(20)}`);
    assert.match(r.stderr, /PR #10: the sweep could not read it: [^\n]*HTTP 400/);
    assert.match(r.stderr, /PR #20: the sweep could not read it: [^\n]*HTTP 422/);
  });
});
