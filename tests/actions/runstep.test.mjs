// The run step of action.yml with the real program against fakehub: every
// input reaches the program (INPUT_<KEY> in the step's env, as action.yml
// maps them), the tokens go where they belong, outputs and the JSON report
// come back, bad inputs stop before anything runs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from '../integration/lib/fakehub.mjs';
import { fixture } from '../integration/lib/fixtures.mjs';
import { BIN, missingPrerequisite } from '../integration/lib/paths.mjs';
import { FAST } from '../integration/lib/run.mjs';
import { actionStep, load } from './lib.mjs';
import { runStep, tempDir } from './step.mjs';

const WRITE = 'ghp_machineAccountWriteToken000000000001';
const READ = 'ghp_machineAccountReadToken0000000000002';

describe('action.yml run step', { skip: missingPrerequisite() ?? false }, () => {
  let hub;
  let work;
  before(async () => { hub = await Hub.start(); work = tempDir('aa-runstep-'); });
  after(async () => { await hub?.stop(); work?.cleanup(); });

  /**
   * The step as the runner would run it: the action's inputs (defaults of
   * action.yml, then `inputs`), the step's env block evaluated, the runner's
   * own variables, and `jobEnv` (a job-level env: of the workflow).
   */
  async function step(snapshot, { inputs = {}, jobEnv = {} } = {}) {
    await hub.load(snapshot);
    const { data: action } = load('action.yml');
    const values = {};
    for (const [k, spec] of Object.entries(action.inputs)) values[k] = String(spec.default ?? '');
    Object.assign(values, { token: WRITE }, inputs);
    const env = {};
    for (const [k, v] of Object.entries(actionStep('run').env)) {
      env[k] = String(v).replace(/\$\{\{ inputs\.([\w-]+) \}\}/g, (_, name) => values[name] ?? '')
        .replace('${{ steps.install.outputs.path }}', BIN);
    }
    const n = Math.random().toString(36).slice(2);
    const eventPath = path.join(work.dir, `event-${n}.json`);
    const summary = path.join(work.dir, `summary-${n}.md`);
    const output = path.join(work.dir, `output-${n}.txt`);
    writeFileSync(eventPath, JSON.stringify(snapshot.event.payload));
    writeFileSync(summary, '');
    const r = await runStep('run', {
      ...FAST,
      ...jobEnv,
      GITHUB_ACTIONS: 'true',
      GITHUB_API_URL: hub.url,
      GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
      GITHUB_REPOSITORY: 'lf/svc', // the workflow's repository (every fixture's)
      GITHUB_EVENT_NAME: snapshot.event.name,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: work.dir,
      ...env,
    });
    const report = r.outputs.report && existsSync(r.outputs.report) ? readFileSync(r.outputs.report, 'utf8') : null;
    return { ...r, summary: readFileSync(summary, 'utf8'), report: report ? JSON.parse(report) : null, log: await hub.log({ headers: true }) };
  }

  const snap = (name, mutate = (s) => s) => mutate(structuredClone(fixture(name).snapshot));

  it('command run on a verdict comment: apply then gate, outputs, report, summary', async () => {
    const r = await step(snap('014-check-clean-true-success'));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.equal(r.outputs['exit-code'], '0');
    assert.equal(r.outputs.decision, 'approve');
    assert.equal(r.outputs.pr, '7');
    assert.equal(r.outputs.approved, 'true');
    assert.equal(r.outputs.approved_prs, '7');
    assert.deepEqual(r.report.steps.map((s) => [s.step, s.outcome]), [['apply', 'applied'], ['gate', 'approve']]);
    assert.match(r.summary, /### \[PR #7\]\([^)]*\): approved/);
    assert.match(r.stderr, new RegExp(`^::add-mask::${WRITE}$`, 'm'), 'the token is masked');
  });

  it('the write token from input token; reads with input read-token', async () => {
    const r = await step(snap('014-check-clean-true-success'), { inputs: { 'read-token': READ } });
    assert.equal(r.code, 0, r.stderr.slice(-600));
    const auth = (e) => e.headers.authorization?.replace(/^(Bearer|token) /, '');
    const writes = r.log.filter(isWrite);
    assert.ok(writes.length >= 2);
    for (const e of writes) assert.equal(auth(e), WRITE, `${e.method} ${e.path}`);
    for (const e of r.log.filter((x) => !isWrite(x) && x.path !== '/user')) assert.equal(auth(e), READ, `${e.method} ${e.path}`);
    assert.match(r.stderr, new RegExp(`^::add-mask::${READ}$`, 'm'));
  });

  it('dry-run: true writes nothing and reports the planned writes', async () => {
    const r = await step(snap('014-check-clean-true-success'), { inputs: { 'dry-run': 'true' } });
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual(r.log.filter(isWrite), []);
    assert.equal(r.report.dry_run, true);
    assert.match(r.summary, /\*\*Planned writes\*\* \(dry run: nothing was written\):/);
    // A7: a dry run never claims an approval.
    assert.equal(r.outputs.approved, 'false');
    assert.equal(r.outputs.approved_prs, '');
    assert.equal(r.outputs.would_approve_prs, '7');
    assert.equal(r.outputs.decision, 'would-approve');
    assert.equal(r.outputs.dry_run, 'true');
    assert.doesNotMatch(r.summary, /^- approved PR/m);
  });

  it('label input: the configured label is the one that blocks', async () => {
    const s = snap('050-gate-all-hold-approve', (x) => { x.pulls[0].labels = ['needs-human']; return x; });
    const blocked = await step(s);
    assert.equal(blocked.outputs.decision, 'withhold');
    const other = await step(s, { inputs: { label: 'human-sign-off' } });
    assert.equal(other.outputs.decision, 'approve', other.stderr.slice(-600));
  });

  it('an empty input leaves a job-level AGENTIC_<KEY> in force; a set input must agree with it', async () => {
    const s = snap('050-gate-all-hold-approve', (x) => { x.pulls[0].labels = ['needs-human']; return x; });
    const job = await step(s, { jobEnv: { AGENTIC_LABEL: 'human-sign-off' } });
    assert.equal(job.outputs.decision, 'approve', job.stderr.slice(-600));
    const same = await step(s, { inputs: { label: 'human-sign-off' }, jobEnv: { AGENTIC_LABEL: 'human-sign-off' } });
    assert.equal(same.outputs.decision, 'approve', same.stderr.slice(-600));
    // Neither wins silently (an earlier step's GITHUB_ENV line could set
    // AGENTIC_LABEL): a usage error naming both, before any request.
    const both = await step(s, { inputs: { label: 'needs-human' }, jobEnv: { AGENTIC_LABEL: 'human-sign-off' } });
    assert.equal(both.code, 2, both.stderr.slice(-600));
    assert.equal(both.outputs['exit-code'], '2');
    assert.match(both.stderr, /INPUT_LABEL and AGENTIC_LABEL are both set and disagree/);
    assert.deepEqual(both.log, []);
  });

  it('trusted-login input: another machine account trusts none of these verdicts', async () => {
    const r = await step(snap('014-check-clean-true-success'), { inputs: { 'trusted-login': 'other-bot' } });
    assert.equal(r.report.steps[0].outcome, 'skipped');
    assert.equal(r.outputs.approved, 'false');
    assert.deepEqual(r.log.filter(isWrite), []);
  });

  it('approve-drafts input', async () => {
    const s = snap('050-gate-all-hold-approve', (x) => { x.pulls[0].draft = true; return x; });
    assert.equal((await step(s)).outputs.decision, 'withhold');
    assert.equal((await step(s, { inputs: { 'approve-drafts': 'true' } })).outputs.decision, 'approve');
  });

  it('command gate with pr; command sweep; repository input', async () => {
    const s = snap('050-gate-all-hold-approve', (x) => { x.event = { name: 'push', payload: {} }; return x; });
    const gate = await step(s, { inputs: { command: 'gate', pr: '7' } });
    assert.equal(gate.code, 0, gate.stderr.slice(-600));
    assert.equal(gate.outputs.decision, 'approve');
    const sweep = await step(s, { inputs: { command: 'sweep' } });
    assert.equal(sweep.code, 0, sweep.stderr.slice(-600));
    assert.equal(sweep.outputs.decision, 'sweep');
    assert.equal(sweep.outputs.approved_prs, '7');
    const moved = structuredClone(s);
    moved.repository = 'lf/other';
    moved.pulls[0].head.repository = 'lf/other';
    // GITHUB_REPOSITORY stays lf/svc (the workflow's repository); the input wins.
    const other = await step(moved, { inputs: { command: 'gate', pr: '7', repository: 'lf/other' } });
    assert.equal(other.outputs.decision, 'approve', 'the repository input is the one acted on');
    assert.ok(other.log.some((e) => e.path.startsWith('/repos/lf/other/')));
  });

  it('exit codes pass through: an API failure fails the step with exit-code 3', async () => {
    const r = await step(snap('050-gate-all-hold-approve', (x) => { x.faults = [{ read: 'statuses', status: 502 }]; return x; }));
    assert.equal(r.code, 3);
    assert.equal(r.outputs['exit-code'], '3');
    assert.equal(r.outputs.decision, 'error');
  });

  for (const [name, inputs, message] of [
    ['unknown command', { command: 'approve' }, /::error::input command must be run, sweep or gate/],
    ['gate without pr', { command: 'gate' }, /::error::command gate needs input pr, a PR number/],
    ['gate with a pr that is not a number', { command: 'gate', pr: '7\n::set-output name=approved::true' }, /::error::command gate needs input pr/],
    ['pr with command run', { pr: '7' }, /::error::input pr is for command gate only/],
    ['dry-run neither true nor false', { 'dry-run': 'yes' }, /::error::input dry-run must be true or false/],
    ['repository not OWNER/NAME', { repository: 'lf/svc --dry-run' }, /::error::input repository must be OWNER\/NAME/],
  ]) {
    it(`bad input (${name}): exit 2 before the program runs`, async () => {
      const r = await step(snap('050-gate-all-hold-approve'), { inputs });
      assert.equal(r.code, 2);
      assert.match(r.stdout, message);
      assert.deepEqual(r.log, [], 'nothing reached GitHub');
      assert.ok(!('approved' in r.outputs));
    });
  }
});
