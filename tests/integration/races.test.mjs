// Inputs that change while the program approves (BEHAVIOR §6.1): the
// re-check immediately before the approval POST must see a change made
// after the decision (step 2: do not approve, dismiss, withhold, exit 0),
// and the compensating re-check right after the POST must dismiss the
// approval it just posted when a change slipped in (step 4). fakehub delays
// every answer (--latency-ms) and the test changes the state as soon as the
// request it waits for shows up in fakehub's log, before that request is
// answered, so each race is won deterministically.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { runLive } from './lib/run.mjs';
import { sha } from './lib/scenarios.mjs';

const LATENCY_MS = 200;
const AGENT = /^agentic-apply\//;

async function api(hub, method, p, body) {
  const res = await fetch(`${hub.url}${p}`, {
    method,
    headers: { authorization: 'Bearer race-test', 'content-type': 'application/json', 'user-agent': 'race-test' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

/** Replace the state with fn(current state) (the log is kept). */
async function mutate(hub, fn) {
  const s = await hub.state();
  fn(s);
  await hub.control('POST', 'state', s);
}

const trustedApprovalsOn = (state, pr, head) => state.pulls.find((p) => p.number === pr).reviews
  .filter((r) => r.author === 'lfx-reviewer' && r.state === 'APPROVED' && (!head || r.commit_id === head));

describe('races: inputs change while approving', () => {
  let hub;
  before(async () => { hub = await Hub.start({ latencyMs: LATENCY_MS }); });
  after(async () => { await hub?.stop(); });

  /**
   * Run `snapshot` live; when a request of the program matching `when`
   * ("METHOD /path" regexp) is logged, call `change`. Returns the run, the
   * final state and the program's requests.
   */
  async function race(snapshot, when, change) {
    await hub.load(snapshot);
    const running = runLive(snapshot, hub, { env: { AGENTIC_HTTP_TIMEOUT: '10' } });
    let done = false;
    running.finally(() => { done = true; });
    let fired = false;
    while (!done) {
      const log = await hub.log({ headers: true });
      if (log.some((e) => AGENT.test(e.headers['user-agent'] ?? '') && when.test(`${e.method} ${e.path}`))) {
        await change();
        fired = true;
        break;
      }
      await sleep(5);
    }
    const r = await running;
    assert.ok(fired, `the run never sent ${when}: ${r.stderr.slice(-400)}`);
    const log = (await hub.log({ headers: true })).filter((e) => AGENT.test(e.headers['user-agent'] ?? ''));
    return { ...r, state: await hub.state(), log };
  }

  const base = () => structuredClone(fixture('050-gate-all-hold-approve').snapshot);
  const H = base().pulls[0].head.sha;

  function assertNotApproved(r) {
    assert.deepEqual(r.report.writes.filter((w) => w.kind === 'approve'), [], 'no approval reported');
    assert.ok(!r.log.some((e) => e.method === 'POST' && e.path.endsWith('/reviews')), 'no approval POST');
    assert.deepEqual(trustedApprovalsOn(r.state, 7), [], 'no trusted approval in the state');
  }

  it('step 2: needs-human label added after the decision → not approved, withhold, exit 0', async () => {
    const r = await race(base(), /^GET \/user$/, () => api(hub, 'POST', '/repos/lf/svc/issues/7/labels', { labels: ['needs-human'] }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assertNotApproved(r);
    assert.equal(r.report.steps[0].outcome, 'withhold');
    assert.equal(r.report.steps[0].conditions.label_absent, false, 'the report shows the fresh reads');
  });

  it('step 2: a new round stamp on the head after the decision → not approved', async () => {
    const r = await race(base(), /^GET \/user$/, () => api(hub, 'POST', `/repos/lf/svc/statuses/${H}`, {
      state: 'pending', context: 'agentic-review/clean', description: 'conductor pr=#7: awaiting review round',
    }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assertNotApproved(r);
    assert.equal(r.report.steps[0].conditions.clean, false);
  });

  it('step 2: a needs-human: yes verdict for the head after the decision → not approved', async () => {
    const r = await race(base(), /^GET \/user$/, () => mutate(hub, (s) => {
      s.pulls[0].comments.push({
        id: 999, author: 'lfx-reviewer', created_at: '2026-11-29T10:30:00Z', edited_by: null, edited_at: null,
        body: `<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n<!-- head: ${H} -->\n<!-- base: main -->`,
      });
    }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assertNotApproved(r);
    assert.equal(r.report.steps[0].conditions.escalation, false);
  });

  it('step 2: the head moves after the decision → not approved, older approvals dismissed', async () => {
    const s = base();
    s.pulls[0].reviews = [{ id: 71, author: 'lfx-reviewer', state: 'APPROVED', commit_id: s.pulls[0].commits[1], submitted_at: '2026-11-29T09:30:00Z' }];
    const newHead = sha('pushed-during-the-run');
    const r = await race(s, /^GET \/user$/, () => mutate(hub, (st) => {
      st.pulls[0].commits.push(newHead);
      st.pulls[0].head.sha = newHead;
    }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assertNotApproved(r);
    assert.equal(r.report.steps[0].outcome, 'withhold');
    assert.deepEqual(r.report.writes.map((w) => [w.kind, w.review_id]), [['dismiss', 71]], 'the trusted approval is dismissed');
    assert.equal(r.state.pulls[0].reviews.find((x) => x.id === 71).state, 'DISMISSED');
  });

  it('step 2: an untrusted status after the decision changes nothing (T3) → approved', async () => {
    const r = await race(base(), /^GET \/user$/, () => mutate(hub, (s) => {
      s.statuses[H].push({ id: 5000, state: 'failure', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=false', creator: 'mallory', created_at: '2026-11-29T10:40:00Z', target_url: null });
    }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
    assert.equal(trustedApprovalsOn(r.state, 7, H).length, 1);
  });

  it('step 4: the label lands while the approval is posted → the approval just posted is dismissed', async () => {
    const r = await race(base(), /^POST \/repos\/lf\/svc\/pulls\/7\/reviews$/, () => api(hub, 'POST', '/repos/lf/svc/issues/7/labels', { labels: ['needs-human'] }));
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(trustedApprovalsOn(r.state, 7), [], 'no trusted approval survives');
    const kinds = r.report.writes.map((w) => w.kind);
    assert.deepEqual(kinds, ['approve', 'dismiss'], `approve, then dismiss it: ${JSON.stringify(r.report.writes)}`);
    const posted = r.state.pulls[0].reviews.filter((x) => x.author === 'lfx-reviewer');
    assert.equal(posted.length, 1);
    assert.equal(posted[0].state, 'DISMISSED');
    assert.equal(r.report.writes[1].review_id, posted[0].id, 'the review just posted is the one dismissed');
    assert.equal(r.report.steps[0].outcome, 'withhold');
  });
});
