// Writes whose answer is lost (BEHAVIOR §8: "never retry a write blindly —
// re-read to see whether it landed"). A front proxy forwards the write to
// fakehub, where it lands, then drops the connection or answers 502. The
// program must send the write once, never stack a second one, and report
// what is true: a write it reports is in fakehub's state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Hub, requestLines } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { FrontProxy } from './lib/proxy.mjs';
import { runLive } from './lib/run.mjs';

const CASES = [
  { write: 'approve', fixture: '050-gate-all-hold-approve', match: /^POST \/repos\/lf\/svc\/pulls\/7\/reviews$/ },
  { write: 'status', fixture: '000-demo', match: /^POST \/repos\/lf\/member-service\/statuses\/[0-9a-f]{40}$/ },
  { write: 'label', fixture: '001-label-yes-adds-label', match: /^POST \/repos\/lf\/svc\/issues\/7\/labels$/ },
  { write: 'create_label', fixture: '004-label-create-repo-label', match: /^POST \/repos\/lf\/svc\/labels$/ },
  { write: 'dismiss', fixture: '056-gate-withhold-dismisses-only-trusted-approvals', match: /^PUT \/repos\/lf\/svc\/pulls\/7\/reviews\/\d+\/dismissals$/ },
];

const LOSSES = [
  { name: 'connection dropped', answer: () => 'drop' },
  { name: 'answered 502', answer: () => ({ status: 502, body: '{"message":"Bad Gateway"}' }) },
  { name: 'never answered (timeout)', answer: () => 'hang', env: { AGENTIC_HTTP_TIMEOUT: '1' } },
];

function trustedApprovals(state) {
  return state.pulls.flatMap((p) => (p.reviews ?? []).filter((r) => r.state === 'APPROVED' && r.author === 'lfx-reviewer').map((r) => `${p.number}/${r.commit_id}`));
}
const statusCount = (state) => Object.values(state.statuses ?? {}).reduce((n, l) => n + l.length, 0);

describe('writes whose answer is lost', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  for (const c of CASES) {
    for (const loss of LOSSES) {
      it(`${c.write} (${c.fixture}), ${loss.name}: sent once, nothing stacked, the report tells the truth`, async () => {
        const fx = fixture(c.fixture);
        let lost = 0;
        const front = new FrontProxy(hub.url, {
          afterAnswer: (req, url, status) => {
            if (lost === 0 && status < 300 && c.match.test(`${req.method} ${url.pathname}`)) {
              lost += 1;
              return loss.answer();
            }
            return null;
          },
        });
        await front.listen();
        try {
          await hub.load(fx.snapshot);
          const r = await runLive(fx.snapshot, { api: front.url }, { args: fx.args, env: loss.env ?? {} });
          assert.equal(lost, 1, `the ${c.write} was sent: ${requestLines(await hub.log()).join(', ')}`);
          assert.ok(r.report, r.stderr.slice(-400));
          assert.ok([0, 3].includes(r.code), `exit ${r.code}`);
          const state = await hub.state();
          const log = await hub.log();
          const sent = log.filter((e) => c.match.test(`${e.method} ${e.path}`));
          const reported = r.report.writes.filter((w) => w.kind === c.write);
          if (c.write === 'approve') {
            const approvals = trustedApprovals(state);
            assert.ok(approvals.length <= 1, `no stacked approvals: ${approvals}`);
            assert.equal(reported.length, approvals.length, 'an approval is reported exactly when it exists');
            if (r.code === 0) assert.equal(r.report.steps[0].outcome, 'approve');
          }
          if (c.write === 'status') {
            assert.equal(statusCount(state) - statusCount(fx.snapshot), 1, 'exactly one status landed');
            assert.equal(reported.length, 1, 'the status that landed is reported (it was verified by a re-read)');
          }
          if (c.write === 'label') {
            assert.ok(state.pulls[0].labels.map((l) => String(l).toLowerCase()).includes('needs-human'));
            assert.equal(reported.length, 1, 'the label that landed is reported');
          }
          if (c.write === 'create_label') {
            assert.ok((state.labels ?? []).some((l) => String(l.name ?? l).toLowerCase() === 'needs-human'));
          }
          if (c.write === 'dismiss') {
            const expected = fx.expect.writes.filter((w) => w.kind === 'dismiss').map((w) => w.review_id);
            for (const id of expected) {
              assert.equal(state.pulls[0].reviews.find((x) => x.id === id).state, 'DISMISSED', `review ${id} dismissed`);
              assert.equal(log.filter((e) => e.path.endsWith(`/reviews/${id}/dismissals`)).length, 1, `review ${id}: one dismissal sent`);
            }
          }
          if (c.write !== 'dismiss') assert.equal(sent.length, 1, `the write is sent once, never blindly again: ${requestLines(log).join(', ')}`);
        } finally {
          await front.close();
        }
      });
    }
  }
});
