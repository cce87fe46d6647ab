// Real webhook payloads (@octokit/webhooks-examples: full GitHub shapes,
// not the fixtures' minimal ones), pointed at PR 7 of fixture 050, run live
// and through replay: the event is dispatched as SNAPSHOT.md §1 says
// (comment created → apply then gate; other comment actions, status of the
// clean context, pull_request labeled/unlabeled/synchronize/reopened/edited,
// workflow_dispatch → gate; everything else → nothing), the repository is
// the configured one (not the payload's), live = replay.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { differential } from './lib/differential.mjs';
import { fixture } from './lib/fixtures.mjs';
import { peerDir } from './lib/paths.mjs';
import { scratch } from './lib/run.mjs';

const examples = JSON.parse(readFileSync(path.join(peerDir('@octokit/webhooks-examples'), 'api.github.com/index.json'), 'utf8'));
const byName = (n) => examples.find((x) => x.name === n)?.examples ?? [];

const base = fixture('050-gate-all-hold-approve').snapshot;
const H = base.pulls[0].head.sha;
const NO_VERDICT = base.pulls[0].comments.find((c) => c.id === 501).body;

function onPr7(payload) {
  const p = structuredClone(payload);
  if (p.issue) {
    p.issue.number = 7;
    p.issue.pull_request ??= { url: 'https://api.github.com/repos/lf/svc/pulls/7' };
  }
  if (p.pull_request) {
    p.number = 7;
    p.pull_request.number = 7;
  }
  return p;
}

const cases = [];
byName('issue_comment').forEach((ex, i) => {
  if (ex.action === 'created') {
    cases.push({
      name: `issue_comment created example ${i} (a trusted needs-human: no verdict) → apply, then gate`,
      event: 'issue_comment',
      payload: (() => { const p = onPr7(ex); p.comment.user.login = 'lfx-reviewer'; p.comment.body = NO_VERDICT; return p; })(),
      steps: [['apply', 7, 'applied'], ['gate', 7, 'approve']],
    });
    cases.push({ name: `issue_comment created example ${i} on a plain issue → nothing to do`, event: 'issue_comment', payload: ex, steps: [] });
  } else {
    cases.push({ name: `issue_comment ${ex.action} example ${i} → gate only`, event: 'issue_comment', payload: onPr7(ex), steps: [['gate', 7, 'approve']] });
  }
});
const GATED = new Set(['labeled', 'unlabeled', 'synchronize', 'reopened', 'edited']);
byName('pull_request').forEach((ex, i) => {
  cases.push({
    name: `pull_request ${ex.action} example ${i} → ${GATED.has(ex.action) ? 'gate' : 'nothing to do'}`,
    event: 'pull_request',
    payload: onPr7(ex),
    steps: GATED.has(ex.action) ? [['gate', 7, 'approve']] : [],
  });
  if (GATED.has(ex.action)) {
    cases.push({ name: `pull_request_target ${ex.action} example ${i} → gate`, event: 'pull_request_target', payload: onPr7(ex), steps: [['gate', 7, 'approve']] });
  }
});
byName('status').forEach((ex, i) => {
  const clean = { ...structuredClone(ex), sha: H, context: 'agentic-review/clean', state: 'success' };
  cases.push({ name: `status example ${i}, its own context → nothing to do`, event: 'status', payload: ex, steps: [] });
  cases.push({ name: `status example ${i}, clean context, "pr=N:" in the description → gate`, event: 'status', payload: { ...clean, description: 'conductor pr=#7: clean=true' }, steps: [['gate', 7, 'approve']] });
  cases.push({ name: `status example ${i}, clean context, no description → the open PR with that head`, event: 'status', payload: { ...clean, description: null }, steps: [['gate', 7, 'approve']] });
});
byName('workflow_dispatch').forEach((ex, i) => {
  cases.push({ name: `workflow_dispatch example ${i} with inputs.pr "7" → gate`, event: 'workflow_dispatch', payload: { ...structuredClone(ex), inputs: { ...(ex.inputs ?? {}), pr: '7' } }, steps: [['gate', 7, 'approve']] });
  cases.push({ name: `workflow_dispatch example ${i} without inputs.pr → usage error`, event: 'workflow_dispatch', payload: ex, steps: [], exit: 2 });
});

describe('real webhook payloads', () => {
  let hub;
  let work;
  before(async () => {
    hub = await Hub.start();
    work = scratch();
  });
  after(async () => {
    await hub?.stop();
    work?.cleanup();
  });

  it('the examples package has the payloads this test needs', () => {
    for (const n of ['issue_comment', 'pull_request', 'status', 'workflow_dispatch']) assert.ok(byName(n).length > 0, n);
  });

  cases.forEach((c, i) => {
    it(c.name, async () => {
      const snapshot = structuredClone(base);
      snapshot.event = { name: c.event, payload: c.payload };
      const file = path.join(work.dir, `webhook-${i}.json`);
      writeFileSync(file, JSON.stringify(snapshot));
      const { live } = await differential({ name: c.name, file, snapshot, args: [] }, hub);
      assert.equal(live.code, c.exit ?? 0, live.stderr.slice(-400));
      assert.deepEqual(live.report.steps.map((s) => [s.step, s.pr, s.outcome]), c.steps);
    });
  });
});
