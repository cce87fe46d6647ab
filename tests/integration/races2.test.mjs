// Races races.test.mjs does not cover (BEHAVIOR §6.1 steps 1, 2, 4, §6.2):
//
// - two gate runs on one PR whose approval POSTs are in flight together
//   (a barrier in a proxy holds each POST until both arrived): at most one
//   APPROVED review of the trusted login for the head may survive, and none
//   when an input regressed while they were in flight;
// - an input that regresses between the pre-POST re-check and the POST
//   (applied by the proxy just before it forwards the POST), or while the
//   re-check query itself is in flight: the approval must not survive;
// - a gate run that withholds (label added) while another run's approval
//   POST is held: the withholding run finds nothing to dismiss yet, so the
//   approving run's compensating re-check must dismiss its own approval;
// - the compensating re-check itself failing (reviews unreadable, or the
//   pull read answered NOT_FOUND) right after the POST: §6.1 step 4 says
//   the review just posted is dismissed.
//
// Every ordering is forced by holding requests in the proxy, not by timing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { barrier, HostileProxy, isAgent } from './lib/hostile-proxy.mjs';
import { runLive } from './lib/run.mjs';
import { sha } from './lib/scenarios.mjs';

const REPO = 'lf/svc';
const POST_REVIEW = /^POST \/repos\/lf\/svc\/pulls\/7\/reviews$/;

async function api(hub, method, p, body) {
  const res = await fetch(`${hub.url}${p}`, {
    method,
    headers: { authorization: 'Bearer race-test', 'content-type': 'application/json', 'user-agent': 'race-test' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text;
}

async function mutate(hub, fn) {
  const s = await hub.state();
  fn(s);
  await hub.control('POST', 'state', s);
}

const base = () => structuredClone(fixture('050-gate-all-hold-approve').snapshot);
const H = base().pulls[0].head.sha;
const trusted = (r) => r.author?.toLowerCase() === 'lfx-reviewer' && r.state === 'APPROVED';
const approvals = (state, head) => state.pulls.find((p) => p.number === 7).reviews.filter((r) => trusted(r) && (!head || r.commit_id === head));

/** Inputs of the four conditions, each made to fail (BEHAVIOR §5.2), plus a push. */
const REGRESSIONS = [
  { name: 'needs-human label added', apply: (hub) => api(hub, 'POST', `/repos/${REPO}/issues/7/labels`, { labels: ['needs-human'] }) },
  {
    name: 'clean status flipped to failure',
    apply: (hub) => api(hub, 'POST', `/repos/${REPO}/statuses/${H}`, { state: 'failure', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=false' }),
  },
  {
    name: 'a new AI thread without a reply',
    apply: (hub) => mutate(hub, (s) => { s.pulls[0].threads.push({ id: 'PRRT_kwDOLate1', author: 'copilot-pull-request-reviewer', comments: 1, resolved: false }); }),
  },
  {
    name: 'head moved (a push)', moved: true,
    apply: (hub) => mutate(hub, (s) => { const n = sha('race2-push'); s.pulls[0].commits.push(n); s.pulls[0].head.sha = n; }),
  },
];

describe('races II: concurrent approvals and regressions in flight', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  /** A proxy in front of hub with the given hooks, closed after fn. */
  async function through(hooks, fn) {
    const proxy = new HostileProxy(hub.url, hooks);
    await proxy.listen();
    try {
      return await fn(proxy);
    } finally {
      await proxy.close();
    }
  }

  const line = (req, url) => `${req.method} ${url.pathname}`;

  it('two runs approve at once (both POSTs in flight together) → at most one trusted approval of H survives', async () => {
    const s = base();
    await hub.load(s);
    const b = barrier(2);
    await through({ before: async (req, url) => { if (POST_REVIEW.test(line(req, url))) await b.wait(); return null; } }, async (proxy) => {
      const [r1, r2] = await Promise.all([runLive(s, proxy), runLive(s, proxy)]);
      const state = await hub.state();
      const left = approvals(state, H);
      assert.ok(b.met, `both approval POSTs were in flight together (${b.arrived()} arrived)`);
      assert.ok(left.length <= 1, `stacked approvals survive: ${JSON.stringify(left.map((r) => r.id))} (reports: ${JSON.stringify([r1.report?.writes, r2.report?.writes])})`);
      for (const r of [r1, r2]) assert.ok([0, 3].includes(r.code), r.stderr.slice(-300));
    });
  });

  for (const reg of REGRESSIONS) {
    it(`two runs approve at once and ${reg.name} while both POSTs are in flight → no approval survives`, async () => {
      const s = base();
      await hub.load(s);
      const b = barrier(2, 8000, () => reg.apply(hub));
      await through({ before: async (req, url) => { if (POST_REVIEW.test(line(req, url))) await b.wait(); return null; } }, async (proxy) => {
        const rs = await Promise.all([runLive(s, proxy), runLive(s, proxy)]);
        const state = await hub.state();
        assert.ok(b.met, `both approval POSTs were in flight together (${b.arrived()} arrived)`);
        assert.deepEqual(approvals(state), [], `a trusted approval survives: ${JSON.stringify(rs.map((r) => r.report?.writes))}`);
        for (const r of rs) {
          assert.ok(r.report, r.stderr.slice(-300));
          assert.notEqual(r.report.steps[0].outcome, 'approve', r.stderr.slice(-300));
          assert.ok(reg.moved ? [0, 3].includes(r.code) : r.code === 0, `exit ${r.code}: ${r.stderr.slice(-300)}`);
        }
      });
    });

    it(`one run: ${reg.name} after the pre-POST re-check, before the POST → the approval does not survive`, async () => {
      const s = base();
      await hub.load(s);
      let fired = false;
      await through({
        before: async (req, url) => {
          if (POST_REVIEW.test(line(req, url)) && !fired) { fired = true; await reg.apply(hub); }
          return null;
        },
      }, async (proxy) => {
        const r = await runLive(s, proxy);
        const state = await hub.state();
        assert.ok(fired, 'the approval was posted');
        assert.deepEqual(approvals(state), [], `a trusted approval survives: ${JSON.stringify(r.report?.writes)}`);
        assert.notEqual(r.report?.steps[0].outcome, 'approve', r.stderr.slice(-300));
        if (reg.moved) {
          // GitHub refuses an approval of a commit that is not the head: a failed POST (§6.1 step 5).
          assert.ok([0, 3].includes(r.code), r.stderr.slice(-300));
        } else {
          assert.equal(r.code, 0, r.stderr.slice(-300));
          assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve', 'dismiss'], 'the approval just posted is dismissed (§6.1 step 4)');
          assert.equal(r.report.steps[0].outcome, 'withhold');
        }
      });
    });

    it(`one run: ${reg.name} right after the approval landed, before the compensating re-check → the approval is dismissed (§6.1 step 4)`, async () => {
      const s = base();
      await hub.load(s);
      let fired = false;
      await through({
        transform: async (req, url, answer) => {
          if (POST_REVIEW.test(line(req, url)) && answer.status < 300 && !fired) { fired = true; await reg.apply(hub); }
          return null;
        },
      }, async (proxy) => {
        const r = await runLive(s, proxy);
        const state = await hub.state();
        assert.ok(fired, 'the approval landed');
        assert.equal(r.code, 0, r.stderr.slice(-300));
        assert.deepEqual(approvals(state), [], `a trusted approval survives: ${JSON.stringify(r.report?.writes)}`);
        assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve', 'dismiss']);
        assert.equal(r.report.steps[0].outcome, 'withhold');
      });
    });

    it(`one run: ${reg.name} while the pre-POST re-check query is in flight → not posted (§6.1 step 2)`, async () => {
      const s = base();
      if (reg.moved) s.pulls[0].reviews = [{ id: 71, author: 'lfx-reviewer', state: 'APPROVED', commit_id: s.pulls[0].commits[1], submitted_at: '2026-11-29T09:30:00Z' }];
      await hub.load(s);
      let graphql = 0;
      let fired = false;
      await through({
        before: async (req, url) => {
          if (line(req, url) === 'POST /graphql' && ++graphql === 2) { fired = true; await reg.apply(hub); }
          return null;
        },
      }, async (proxy) => {
        const r = await runLive(s, proxy);
        const state = await hub.state();
        assert.ok(fired, 'the re-check query was sent');
        assert.equal(r.code, 0, r.stderr.slice(-300));
        assert.ok(!proxy.seen.some((e) => isAgent(e) && e.method === 'POST' && e.path.endsWith('/reviews')), 'no approval POST');
        assert.deepEqual(approvals(state), [], 'no trusted approval left (older ones dismissed)');
        assert.equal(r.report.steps[0].outcome, 'withhold');
      });
    });
  }

  it('interleaved runs: a labeled-event run withholds while another run\'s approval POST is held → the approval is dismissed by its own compensating re-check', async () => {
    const s = base();
    await hub.load(s);
    let releasePost;
    const postHeld = new Promise((resolve) => { releasePost = resolve; });
    let arrived;
    const postArrived = new Promise((resolve) => { arrived = resolve; });
    await through({
      before: async (req, url) => {
        if (POST_REVIEW.test(line(req, url))) { arrived(); await postHeld; }
        return null;
      },
    }, async (proxy) => {
      const approving = runLive(s, proxy);
      await postArrived;
      await api(hub, 'POST', `/repos/${REPO}/issues/7/labels`, { labels: ['needs-human'] });
      const labeled = { ...s, event: { name: 'pull_request', payload: { action: 'labeled', number: 7, pull_request: { number: 7 }, label: { name: 'needs-human' } } } };
      const w = await runLive(labeled, proxy);
      assert.equal(w.code, 0, w.stderr.slice(-300));
      assert.equal(w.report.steps[0].outcome, 'withhold');
      assert.deepEqual(w.report.writes, [], 'nothing to dismiss yet: the approval has not landed');
      releasePost();
      const a = await approving;
      const state = await hub.state();
      assert.deepEqual(approvals(state), [], `a trusted approval survives: ${JSON.stringify(a.report?.writes)}`);
      assert.deepEqual(a.report.writes.map((x) => x.kind), ['approve', 'dismiss']);
      assert.equal(a.code, 0, a.stderr.slice(-300));
    });
  });

  for (const fault of [
    { name: 'the reviews become unreadable (502)', faults: [{ read: 'reviews', pr: 7, status: 502 }], exit: 3 },
    { name: 'the pull read answers NOT_FOUND', faults: [{ read: 'pull', pr: 7, status: 404 }], exit: null },
  ]) {
    it(`the compensating re-check fails because ${fault.name} right after the POST → the review just posted is dismissed (§6.1 step 4)`, async () => {
      const s = base();
      await hub.load(s);
      let posted = false;
      await through({
        transform: async (req, url) => {
          if (POST_REVIEW.test(line(req, url)) && !posted) { posted = true; await hub.faults(fault.faults); }
          return null;
        },
      }, async (proxy) => {
        const r = await runLive(s, proxy);
        await hub.faults([]);
        const state = await hub.state();
        assert.ok(posted, 'the approval was posted');
        assert.notEqual(r.report?.steps[0].outcome, 'approve', r.stderr.slice(-300));
        if (fault.exit !== null) assert.equal(r.code, fault.exit, r.stderr.slice(-300));
        assert.deepEqual(approvals(state), [], `the approval just posted survives a failed compensating re-check: writes ${JSON.stringify(r.report?.writes)}, outcome ${r.report?.steps[0].outcome}, exit ${r.code}`);
      });
    });
  }
});
