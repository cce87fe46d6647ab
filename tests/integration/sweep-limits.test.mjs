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
  // 250 ms per answer: the first repository's listing and reads use up a
  // 1 s sweep_deadline.
  before(async () => { hub = await Hub.start({ latencyMs: 250 }); });
  after(async () => { await hub?.stop(); });

  it('a repository after the deadline is not listed, and no PR is gated twice', async () => {
    const repo = repository(20);
    repo.config = { sweep_deadline: 1 };
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
