// Fail closed (BEHAVIOR: "any read that fails … means do not approve"):
// every read fault kind × every way fakehub can fail a request, injected
// into scenarios that approve when nothing fails. The program must never
// approve (no approve write reported, no new APPROVED review in fakehub's
// state), must exit 3 (or the documented code), and must never send a
// request off the API origin (an off-host Link is refused, not followed:
// a proxy trap catches any request to another host). Transient faults
// (`times: 1`) are retried and the run then approves; a failed approval
// POST is never retried blindly.
import assert from 'node:assert/strict';
import { after, before, describe, it as register } from 'node:test';

import { HubPool, requestLines } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { runLive, runReplay } from './lib/run.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { Trap } from './lib/trap.mjs';

const HUBS = 6;

const GRAPHQL_KINDS = ['pull', 'labels', 'comments', 'timeline', 'threads', 'reviews'];
const KINDS = [...GRAPHQL_KINDS, 'statuses', 'user'];

const MODES = [
  { name: 'status 502', fault: { status: 502 } },
  { name: 'status 500', fault: { status: 500 }, only: '050-gate-all-hold-approve' },
  { name: 'status 404', fault: { status: 404 } },
  // One try per request (AGENTIC_RETRIES=0) to keep held-open requests short;
  // 050 below runs it with a retry too.
  { name: 'timeout', fault: { status: 'timeout' }, env: { AGENTIC_HTTP_TIMEOUT: '1', AGENTIC_RETRIES: '0' } },
  { name: 'timeout, retried', fault: { status: 'timeout' }, env: { AGENTIC_HTTP_TIMEOUT: '1', AGENTIC_RETRIES: '1' }, only: '050-gate-all-hold-approve' },
  { name: 'mode hang', fault: { mode: 'hang' }, env: { AGENTIC_HTTP_TIMEOUT: '1', AGENTIC_RETRIES: '0' }, only: '050-gate-all-hold-approve' },
  { name: 'secondary_limit', fault: { mode: 'secondary_limit', retry_after: 30 }, env: { AGENTIC_MAX_WAIT: '1' } },
  { name: 'rate_limit', fault: { mode: 'rate_limit', retry_after: 30 }, env: { AGENTIC_MAX_WAIT: '1' } },
  { name: 'rate_limit 429', fault: { mode: 'rate_limit', status: 429, retry_after: 30 }, env: { AGENTIC_MAX_WAIT: '1' }, only: '050-gate-all-hold-approve' },
  { name: 'truncated', fault: { mode: 'truncated' } },
  { name: 'invalid_json', fault: { mode: 'invalid_json' } },
  { name: 'offhost_link', fault: { mode: 'offhost_link' } },
];

// Scenarios that approve when nothing fails, and the reads they make.
const APPROVING = [
  { name: '050-gate-all-hold-approve', kinds: KINDS }, // workflow_dispatch → gate → approve
  { name: '009-label-no-then-gate-approves', kinds: KINDS }, // issue_comment (needs-human: no) → gate → approve
  { name: '000-demo', kinds: KINDS }, // issue_comment (check verdict) → status → gate → approve
  { name: '073-esc-none-skip-marker-approve', kinds: KINDS }, // escalation by skip marker + authorized unlabel
];

/**
 * The exit code the specification gives a run with this fault, or a set.
 * - 404 on the pull read means "no such PR" (N10): the gate is skipped, exit 0.
 * - An off-host Link on an answer that is not a paginated REST list (GraphQL,
 *   GET /user) carries a complete answer: refusing it (3) or ignoring the
 *   header (0, the same decision as without the fault) are both fail-safe.
 * - Everything else: the read failed, exit 3 (an unreadable /user: N19).
 */
function expected(kind, mode) {
  if (kind === 'pull' && mode.name === 'status 404') return { codes: [0], skipped: true };
  if (mode.name === 'offhost_link' && kind !== 'statuses') return { codes: [0, 3], complete: true };
  return { codes: [3] };
}

function approvedIds(state) {
  const ids = new Set();
  for (const p of state.pulls ?? []) {
    for (const r of p.reviews ?? []) if (r.state === 'APPROVED') ids.add(`${p.number}/${r.id}`);
  }
  return ids;
}

function statusCount(state) {
  return Object.values(state.statuses ?? {}).reduce((n, list) => n + list.length, 0);
}

function withFaults(snapshot, faults) {
  const s = structuredClone(snapshot);
  s.faults = faults;
  return s;
}

describe('faults', { concurrency: HUBS }, () => {
  // Cases are registered slow-first (held-open requests wait, they do not
  // compute), so the waits overlap the rest.
  const cases = [];
  const it = (name, fn) => cases.push({ name, fn, slow: /timeout|hang/.test(name) });
  let pool;
  const replays = new Map();
  before(async () => {
    pool = await HubPool.start(HUBS);
    // One trap per hub: a hub serves one test at a time, so what its trap
    // catches belongs to that test.
    await Promise.all(pool.all.map(async (hub) => { hub.trap = new Trap(); await hub.trap.listen(); }));
  });
  after(async () => {
    await Promise.all((pool?.all ?? []).map((hub) => hub.trap?.close()));
    await pool?.stop();
  });

  /** Load, run live (with the trap as proxy for any other host), collect. */
  async function attempt(snapshot, { args = [], env = {} } = {}) {
    return pool.with(async (hub) => {
      const initial = snapshot; // the state before the run is the snapshot loaded
      const before = approvedIds(initial);
      await hub.load(snapshot);
      const { trap } = hub;
      const trapBefore = trap.requests.length;
      const r = await runLive(snapshot, hub, { args, env: { ...trap.env(), ...env } });
      const state = await hub.state();
      const log = await hub.log();
      const offHost = trap.requests.slice(trapBefore);
      const fresh = [...approvedIds(state)].filter((id) => !before.has(id));
      const newStatuses = statusCount(state) - statusCount(initial);
      return { ...r, log, state, fresh, offHost, newStatuses };
    });
  }

  async function cleanReplay(fx) {
    if (!replays.has(fx.name)) replays.set(fx.name, runReplay(fx.file, fx.args));
    return replays.get(fx.name);
  }

  function assertNoApproval(r, why) {
    const approves = (r.report?.writes ?? []).filter((w) => w.kind === 'approve');
    assert.deepEqual(approves, [], `${why}: an approval was reported`);
    assert.deepEqual(r.fresh, [], `${why}: a new APPROVED review is in fakehub's state`);
    const posts = r.log.filter((e) => e.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(e.path) && e.status === 200);
    assert.deepEqual(posts.map((e) => e.path), [], `${why}: an approval POST succeeded`);
  }

  for (const sc of APPROVING) {
    for (const kind of sc.kinds) {
      for (const mode of MODES) {
        if (mode.only && mode.only !== sc.name) continue;
        it(`${sc.name}: read ${kind}, ${mode.name} → no approval`, async () => {
          const fx = fixture(sc.name);
          const r = await attempt(withFaults(fx.snapshot, [{ read: kind, ...mode.fault }]), { args: fx.args, env: mode.env });
          const why = `${kind}/${mode.name}`;
          assert.equal(r.signal, null, 'not killed');
          assert.ok(r.report, `a report on stdout: ${r.stdout.slice(0, 200)} ${r.stderr.slice(-400)}`);
          assert.equal(r.report.exit, r.code, 'the report\'s exit is the exit code');
          assert.deepEqual(r.offHost.map((x) => x.url), [], 'no request off the API origin');
          const exp = expected(kind, mode);
          assert.ok(exp.codes.includes(r.code), `${why}: exit ${r.code}, expected ${exp.codes.join(' or ')}\n${r.stderr.slice(-600)}`);
          if (mode.fault.retry_after > 5) assert.ok(r.ms < 10000, `gave up instead of waiting ${mode.fault.retry_after} s (AGENTIC_MAX_WAIT=1): ${r.ms} ms`);
          if (exp.complete && r.code === 0) {
            // The fault only added a header to a complete answer: the
            // decision must be the fault-free one.
            const clean = await cleanReplay(fx);
            assert.equal(r.stdout, clean.stdout, 'a complete answer gives the fault-free report');
            return;
          }
          assertNoApproval(r, why);
          if (exp.skipped) {
            assert.ok(r.report.steps.some((s) => s.step === 'gate' && s.outcome === 'skipped'), 'the gate is skipped (N10)');
          } else {
            assert.ok(r.report.steps.some((s) => s.outcome === 'error'), `a step reports the error: ${JSON.stringify(r.report.steps.map((s) => s.outcome))}`);
          }
        });
      }
    }
  }

  // Apply: when a read that R2, R4 or §3.3 needs fails, nothing is written
  // and the run exits 3 (BEHAVIOR §3.2). 028's verdict names an older commit
  // of the PR (R2 needs the commit list); 000-demo's needs the round stamp
  // (statuses, R4) and the review threads (§3.3).
  const APPLY_READS = [
    { name: '028-check-older-commit-head', kinds: ['commits'] },
    { name: '000-demo', kinds: ['statuses', 'threads'] },
  ];
  for (const sc of APPLY_READS) {
    for (const kind of sc.kinds) {
      for (const mode of MODES) {
        if (mode.only) continue;
        it(`${sc.name}: read ${kind}, ${mode.name} → apply writes no status, exit 3`, async () => {
          const fx = fixture(sc.name);
          const r = await attempt(withFaults(fx.snapshot, [{ read: kind, ...mode.fault }]), { args: fx.args, env: mode.env });
          assert.ok(r.report, r.stderr.slice(-400));
          assert.deepEqual(r.offHost.map((x) => x.url), [], 'no request off the API origin');
          const exp = expected(kind, mode);
          if (exp.complete && r.code === 0) {
            const clean = await cleanReplay(fx);
            assert.equal(r.stdout, clean.stdout, 'a complete answer gives the fault-free report');
            return;
          }
          assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr.slice(-600)}`);
          const apply = r.report.steps.find((x) => x.step === 'apply');
          assert.equal(apply?.outcome, 'error', `the apply step fails: ${JSON.stringify(apply)}`);
          assert.deepEqual(r.report.writes.filter((w) => w.kind === 'status'), [], 'no status reported');
          assert.equal(r.newStatuses, 0, 'no status written to the state');
          assertNoApproval(r, `${kind}/${mode.name}`);
        });
      }
    }
  }

  // A schedule sweep: a failed open-PR listing fails the run (§7); a read
  // failing for the approvable PR 7 leaves PR 7 unapproved.
  for (const mode of MODES.filter((m) => !m.only)) {
    it(`150-sweep-mixed: read pulls, ${mode.name} → exit 3, no step, no write`, async () => {
      const fx = fixture('150-sweep-mixed');
      const r = await attempt(withFaults(fx.snapshot, [{ read: 'pulls', ...mode.fault }]), { args: fx.args, env: mode.env });
      assert.deepEqual(r.offHost.map((x) => x.url), [], 'no request off the API origin');
      if (mode.name === 'offhost_link' && r.code === 0) {
        const clean = await cleanReplay(fx);
        assert.equal(r.stdout, clean.stdout, 'a complete answer gives the fault-free report');
        return;
      }
      assert.equal(r.code, 3, r.stderr.slice(-600));
      assert.equal(r.report?.exit, 3);
      assert.deepEqual(r.report.writes, [], 'nothing written without the PR list');
      assertNoApproval(r, `pulls/${mode.name}`);
    });
    for (const kind of KINDS.filter((k) => k !== 'user')) {
      it(`150-sweep-mixed: read ${kind} of PR 7, ${mode.name} → PR 7 not approved`, async () => {
        const fx = fixture('150-sweep-mixed');
        const r = await attempt(withFaults(fx.snapshot, [{ read: kind, pr: 7, ...mode.fault }]), { args: fx.args, env: mode.env });
        assert.deepEqual(r.offHost.map((x) => x.url), [], 'no request off the API origin');
        assert.ok(r.report, r.stderr.slice(-400));
        const exp = expected(kind, mode);
        if (exp.complete && r.code === 0) {
          const clean = await cleanReplay(fx);
          assert.equal(r.stdout, clean.stdout, 'a complete answer gives the fault-free report');
          return;
        }
        assert.ok(exp.codes.includes(r.code), `exit ${r.code}, expected ${exp.codes.join(' or ')}\n${r.stderr.slice(-600)}`);
        const approves = r.report.writes.filter((w) => w.kind === 'approve' && w.pr === 7);
        assert.deepEqual(approves, [], 'PR 7 approved despite the fault');
        assert.deepEqual(r.fresh.filter((id) => id.startsWith('7/')), [], 'a new approval of PR 7 in the state');
      });
    }
  }

  // A fault on a later page of a long list: a partial list is a failed read
  // (§5.2 "a partial read counts as failed"), never a shorter complete one.
  // An untrusted clean-context status, newer than everything else.
  const forgedOnTop = (snapshot) => {
    const h = snapshot.pulls[0].head.sha;
    snapshot.statuses[h].push({ id: 9999, state: 'success', context: 'agentic-review/clean',
      description: 'conductor pr=#7: clean=true', creator: 'mallory', created_at: '2026-11-29T11:59:00Z', target_url: null });
    return snapshot;
  };
  // Each scenario approves (or, for the sweep, approves PR 2000) unfaulted.
  const PAGED = [
    { scenario: 'comments: 230 before the verdicts', kind: 'comments', pages: [2, 3] },
    { scenario: 'labels: 130 other labels, no needs-human', kind: 'labels', pages: [2] },
    { scenario: 'threads: 250 answered threads', kind: 'threads', pages: [2, 3] },
    { scenario: 'statuses: the clean status behind 250', kind: 'statuses', pages: [2, 3] },
    { scenario: 'reviews: an approval on the head after 150 others', kind: 'reviews', pages: [2], approved: true },
    { scenario: 'sweep: 130 open PRs', kind: 'pulls', pages: [2] },
  ];
  const PAGE_MODES = MODES.filter((m) => ['status 502', 'truncated', 'invalid_json', 'offhost_link', 'secondary_limit'].includes(m.name));
  for (const pg of PAGED) {
    for (const mode of PAGE_MODES) {
      for (const page of pg.pages) {
        it(`${pg.scenario}…: read ${pg.kind} page ${page}, ${mode.name} → no approval, exit 3`, async () => {
          const sc = SCENARIOS.find((x) => x.name.startsWith(pg.scenario));
          // GraphQL's newest status per context decides the clean condition
          // without the REST history when that newest one is trusted; an
          // untrusted clean status on top forces the paged history read.
          const built = pg.kind === 'statuses' ? forgedOnTop(sc.build()) : sc.build();
          const snapshot = withFaults(built, [{ read: pg.kind, page, ...mode.fault }]);
          const r = await attempt(snapshot, { env: mode.env });
          assert.ok(r.report, r.stderr.slice(-400));
          assert.deepEqual(r.offHost.map((x) => x.url), [], 'no request off the API origin');
          const faulted = r.log.some((e) => e.status === null || e.status >= 400) || mode.fault.mode;
          assert.ok(faulted, 'the fault fired');
          if (mode.name === 'offhost_link' && pg.kind !== 'statuses' && r.code === 0) return; // a header on a complete GraphQL answer
          assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr.slice(-600)}`);
          assertNoApproval(r, `${pg.kind} page ${page}/${mode.name}`);
          if (pg.approved) {
            // Already approved on the head: the approval stays, nothing is posted.
            assert.deepEqual(r.report.writes, []);
          }
        });
      }
    }
  }

  // Transient faults: retried, then the run approves.
  const TRANSIENT = [
    ...KINDS.map((kind) => ({ kind, name: 'status 502', fault: { status: 502 } })),
    ...['pull', 'statuses', 'user'].flatMap((kind) => [
      { kind, name: 'status 500', fault: { status: 500 } },
      { kind, name: 'timeout', fault: { status: 'timeout' }, env: { AGENTIC_HTTP_TIMEOUT: '1' } },
      { kind, name: 'truncated', fault: { mode: 'truncated' } },
      { kind, name: 'secondary_limit, Retry-After 1', fault: { mode: 'secondary_limit', retry_after: 1 }, env: { AGENTIC_MAX_WAIT: '5' } },
      { kind, name: 'rate_limit, reset in 1 s', fault: { mode: 'rate_limit', retry_after: 1 }, env: { AGENTIC_MAX_WAIT: '5' } },
    ]),
  ];
  for (const t of TRANSIENT) {
    it(`050-gate-all-hold-approve: read ${t.kind}, ${t.name}, times 1 → retried, approves`, async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const r = await attempt(withFaults(fx.snapshot, [{ read: t.kind, times: 1, ...t.fault }]), { env: t.env });
      assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr.slice(-600)}`);
      if (t.fault.retry_after) assert.ok(r.ms >= 900, `waited for the rate limit before retrying (${r.ms} ms)`);
      assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
      assert.equal(r.fresh.length, 1, 'one new approval in the state');
      const clean = await cleanReplay(fx);
      assert.equal(r.stdout, clean.stdout, 'the same report as without the fault');
    });
  }

  // Exhausted rate limits (fakehub's `rate_limit` state extension): REST
  // answers 403 with x-ratelimit-remaining 0 and a reset an hour away;
  // GraphQL answers 200 with a RATE_LIMITED error. Neither approves.
  for (const [name, limits] of [['REST', { rest: 1 }], ['GraphQL', { graphql: 1 }], ['both', { rest: 0, graphql: 0 }]]) {
    it(`050-gate-all-hold-approve: ${name} rate limit exhausted → no approval, exit 3, no long wait`, async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const s = structuredClone(fx.snapshot);
      s.rate_limit = { rest: 5000, graphql: 5000, ...limits };
      const r = await attempt(s, { env: { AGENTIC_MAX_WAIT: '1' } });
      assert.equal(r.code, 3, r.stderr.slice(-500));
      assertNoApproval(r, `rate limit ${name}`);
      assert.ok(r.ms < 10000, `gave up instead of waiting for the reset (${r.ms} ms)`);
    });
  }

  // Writes: a failed approval leaves no approval and is not retried blindly.
  const WRITE_FAULTS = [
    { name: 'status 502', fault: { status: 502 } },
    { name: 'status 500', fault: { status: 500 } },
    { name: 'status 422', fault: { status: 422 } },
    { name: 'timeout', fault: { status: 'timeout' }, env: { AGENTIC_HTTP_TIMEOUT: '1' } },
    { name: 'secondary_limit, Retry-After 30', fault: { mode: 'secondary_limit', retry_after: 30 }, env: { AGENTIC_MAX_WAIT: '1' } },
  ];
  for (const w of WRITE_FAULTS) {
    it(`050-gate-all-hold-approve: write approve, ${w.name} → exit 3, no approval, one POST`, async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const r = await attempt(withFaults(fx.snapshot, [{ write: 'approve', ...w.fault }]), { env: w.env });
      assert.equal(r.code, 3, r.stderr.slice(-600));
      assert.equal(r.report.exit, 3);
      assert.equal(r.report.steps[0].outcome, 'error');
      assertNoApproval(r, `write approve/${w.name}`);
      const posts = requestLines(r.log).filter((l) => l === 'POST /repos/lf/svc/pulls/7/reviews');
      assert.equal(posts.length, 1, `the approval POST is sent once, never retried blindly: ${requestLines(r.log).join(', ')}`);
    });
  }

  // A write refused by a secondary rate limit was not performed: sending it
  // again after Retry-After is not a blind retry. One approval results.
  it('050-gate-all-hold-approve: write approve, secondary_limit Retry-After 1, times 1 → waits, approves once', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const r = await attempt(withFaults(fx.snapshot, [{ write: 'approve', mode: 'secondary_limit', retry_after: 1, times: 1 }]), { env: { AGENTIC_MAX_WAIT: '5' } });
    assert.equal(r.code, 0, r.stderr.slice(-500));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
    assert.equal(r.fresh.length, 1, 'exactly one approval');
    assert.ok(r.ms >= 900, `waited for Retry-After (${r.ms} ms)`);
  });

  register('the trap sees requests to other hosts (so an empty trap means something)', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const trap = new Trap();
    await trap.listen();
    try {
      const r = await runLive(fx.snapshot, { api: 'https://evil.invalid:9' }, { env: trap.env() });
      assert.equal(r.code, 3);
      assert.ok(trap.requests.length > 0, 'libcurl used the trap as proxy for a non-loopback host');
      // A8: plain http:// to a host that is not loopback is refused before any request.
      trap.clear();
      const clear = await runLive(fx.snapshot, { api: 'http://evil.invalid:9' }, { env: trap.env() });
      assert.equal(clear.code, 2, clear.stderr);
      assert.match(clear.stderr, /plain http:\/\/ is accepted only for a loopback host/);
      assert.deepEqual(trap.requests, [], 'the token never left');
    } finally {
      await trap.close();
    }
  });

  cases.sort((a, b) => Number(b.slow) - Number(a.slow));
  for (const c of cases) register(c.name, c.fn);
});
