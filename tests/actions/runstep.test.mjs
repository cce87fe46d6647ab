// The run step of action.yml with the real program against fakehub: every
// input reaches the program (INPUT_<KEY> in the step's env, as action.yml
// maps them), the tokens go where they belong, outputs and the JSON report
// come back, every output the program writes is an output of the action,
// bad inputs stop before anything runs; GitHub App mode through the
// action's inputs, as the examples pass them (fakehub's `app` extension,
// a throwaway RSA key made here).
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from '../integration/lib/fakehub.mjs';
import { fixture } from '../integration/lib/fixtures.mjs';
import { BIN, missingPrerequisite } from '../integration/lib/paths.mjs';
import { FAST } from '../integration/lib/run.mjs';
import { interpolate } from './expr.mjs';
import { actionStep, load, ROOT, steps } from './lib.mjs';
import { runStep, tempDir } from './step.mjs';

const WRITE = 'ghp_machineAccountWriteToken000000000001';
const READ = 'ghp_machineAccountReadToken0000000000002';

// GitHub App mode: fakehub's App, and its key.
const APP_ID = 4242;
const SLUG = 'agentic-apply-bot';
const BOT = `${SLUG}[bot]`;
const INSTALLATION = 777;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs1', format: 'pem' });
const PUBLIC = publicKey.export({ type: 'spki', format: 'pem' });
const PEM_LINES = PEM.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'));
const withApp = (s) => ({ ...s, app: { id: APP_ID, slug: SLUG, public_key: PUBLIC, installation_id: INSTALLATION, token_ttl_s: 3600 } });
const APP_ENDPOINT = /^\/app(\/|$)|^\/repos\/[^/]+\/[^/]+\/installation$/;
const isReview = (e) => (e.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(e.path)) || (e.method === 'PUT' && /\/dismissals$/.test(e.path));
const bearer = (e) => e.headers.authorization?.replace(/^(Bearer|token) /, '');

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
    return {
      ...r,
      summary: readFileSync(summary, 'utf8'),
      report: report ? JSON.parse(report) : null,
      log: await hub.log({ headers: true }),
      state: await hub.state(),
    };
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

  it('every output the program writes is an output of the action, under the same meaning', async () => {
    const { data } = load('action.yml');
    const exposed = Object.fromEntries(Object.entries(data.outputs)
      .map(([name, o]) => [/^\$\{\{ steps\.run\.outputs\.([\w-]+) \}\}$/.exec(o.value)?.[1], name]).filter(([k]) => k));
    for (const inputs of [{}, { 'dry-run': 'true' }]) {
      const r = await step(snap('014-check-clean-true-success'), { inputs });
      assert.equal(r.code, 0, r.stderr.slice(-600));
      const written = Object.keys(r.outputs);
      for (const k of ['decision', 'pr', 'head', 'approved', 'approved_prs', 'would_approve_prs', 'dry_run', 'exit-code', 'report']) {
        assert.ok(written.includes(k), `the run step writes ${k}`);
      }
      for (const k of written) assert.ok(exposed[k], `output ${k} of the run step is not an output of action.yml`);
    }
    assert.equal(exposed.would_approve_prs, 'would-approve-prs');
    assert.equal(exposed.dry_run, 'dry-run');
    assert.equal(exposed.approved_prs, 'approved-prs');
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

  describe('GitHub App mode (inputs app-id, app-private-key, app-installation-id)', () => {
    /** Every request carried the credential it is for (tests/integration/app.test.mjs has the rest). */
    function assertAppCredentials(log) {
      assert.ok(log.length > 0);
      for (const e of log) {
        const what = `${e.method} ${e.path} (${e.actor})`;
        if (APP_ENDPOINT.test(e.path)) assert.equal(e.actor, 'jwt', `${what}: the App's JWT`);
        else if (e.path === '/user' || isReview(e)) {
          assert.equal(e.actor, 'user', `${what}: the machine account's token`);
          assert.equal(bearer(e), WRITE, `${what}: input token`);
        } else assert.equal(e.actor, 'app', `${what}: the installation token`);
      }
    }
    function assertNoKey(r) {
      for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr], ['outputs', r.outputText], ['summary', r.summary]]) {
        for (const l of PEM_LINES) assert.ok(!text.includes(l), `a line of the private key in ${where}`);
      }
    }

    it('apply and approve: reads, the status with the installation token (by the App\'s bot); GET /user and the approval with input token', async () => {
      const s = withApp(snap('014-check-clean-true-success'));
      const H = s.pulls[0].head.sha;
      const r = await step(s, { inputs: { 'app-id': String(APP_ID), 'app-private-key': PEM } });
      assert.equal(r.code, 0, r.stderr.slice(-600));
      assert.equal(r.outputs.decision, 'approve');
      assert.equal(r.outputs.approved, 'true');
      assert.deepEqual(r.log.filter((e) => APP_ENDPOINT.test(e.path)).map((e) => `${e.method} ${e.path}`),
        ['GET /app', 'GET /repos/lf/svc/installation', `POST /app/installations/${INSTALLATION}/access_tokens`]);
      assertAppCredentials(r.log);
      assert.equal(r.state.statuses[H].at(-1).creator, BOT, 'the clean status is the App\'s');
      const approvals = r.state.pulls[0].reviews.filter((x) => x.state === 'APPROVED');
      assert.deepEqual(approvals.map((x) => [x.author, Boolean(x.by_app)]), [['lfx-reviewer', false]], 'the approval is the machine account\'s');
      assertNoKey(r);
    });

    it('app-installation-id: that installation, no lookup', async () => {
      const r = await step(withApp(snap('050-gate-all-hold-approve')), {
        inputs: { 'app-id': String(APP_ID), 'app-private-key': PEM, 'app-installation-id': String(INSTALLATION) },
      });
      assert.equal(r.code, 0, r.stderr.slice(-600));
      assert.equal(r.outputs.decision, 'approve');
      assert.ok(!r.log.some((e) => e.path.endsWith('/installation')), 'no installation lookup');
      assertAppCredentials(r.log);
    });

    it('app-id without app-private-key: exit 2 naming the key, nothing sent', async () => {
      const r = await step(withApp(snap('050-gate-all-hold-approve')), { inputs: { 'app-id': String(APP_ID) } });
      assert.equal(r.code, 2, r.stderr.slice(-600));
      assert.match(r.stderr, /APP_PRIVATE_KEY/);
      assert.deepEqual(r.log, []);
    });

    it('an installation token as input token writes nothing (GET /user is not the trusted login)', async () => {
      const s = withApp(snap('050-gate-all-hold-approve'));
      const first = await step(s, { inputs: { 'app-id': String(APP_ID), 'app-private-key': PEM, 'dry-run': 'true' } });
      const installationToken = bearer(first.log.find((e) => e.actor === 'app'));
      const r = await step(s, { inputs: { token: installationToken } });
      assert.notEqual(r.code, 0, 'the run fails');
      assert.ok([2, 3].includes(r.code), `exit ${r.code}`);
      assert.deepEqual(r.log.filter(isWrite).map((e) => `${e.method} ${e.path}`), []);
      assert.equal(r.outputs.approved, 'false');
    });

    // The examples pass App mode from a variable and an environment secret:
    // unset, the same workflow runs without an App.
    for (const [file, fixtureName, inputsOf] of [
      ['examples/agentic.yml', '014-check-clean-true-success', () => ({})],
      ['examples/agentic-sweep.yml', '050-gate-all-hold-approve', () => ({ repository: '' })],
    ]) {
      it(`as ${file} passes them: App mode when the variable and the secret are set, none when not`, async () => {
        const ours = steps(load(file).data).filter((x) => /\/agentic-apply@/.test(x.step.uses ?? ''));
        assert.equal(ours.length, 1);
        const withs = ours[0].step.with;
        assert.equal(withs['app-id'], '${{ vars.AGENTIC_APP_ID }}', 'app-id from a variable');
        assert.equal(withs['app-private-key'], '${{ secrets.AGENTIC_APP_PRIVATE_KEY }}', 'the key from an (environment) secret');
        const inputsFor = (vars, secrets) => {
          const c = { vars, secrets, inputs: inputsOf(), runner: { temp: work.dir }, github: { repository: 'lf/svc' } };
          return Object.fromEntries(Object.entries(withs).map(([k, v]) => [k, interpolate(String(v), c)]));
        };
        const s = withApp(snap(fixtureName));
        const on = await step(s, { inputs: inputsFor({ AGENTIC_APP_ID: String(APP_ID) }, { AGENTIC_TOKEN: WRITE, AGENTIC_APP_PRIVATE_KEY: PEM }) });
        assert.equal(on.code, 0, on.stderr.slice(-600));
        assert.ok(on.outputs.approved_prs.split(',').includes('7'), `approved PR 7: ${JSON.stringify(on.outputs)}`);
        assertAppCredentials(on.log);
        assertNoKey(on);
        const off = await step(s, { inputs: inputsFor({}, { AGENTIC_TOKEN: WRITE }) });
        assert.equal(off.code, 0, off.stderr.slice(-600));
        assert.ok(off.log.every((e) => e.actor === 'user' && bearer(e) === WRITE), 'no App: every request with input token');
      });
    }
  });

  for (const [name, inputs, message] of [
    ['unknown command', { command: 'approve' }, /::error::input command must be run, sweep, gate, publish, review-plan or doctor/],
    ['gate without pr', { command: 'gate' }, /::error::command gate needs input pr \(or pr-file\), a PR number/],
    ['gate with a pr that is not a number', { command: 'gate', pr: '7\n::set-output name=approved::true' }, /::error::command gate needs input pr/],
    ['pr with command run', { pr: '7' }, /::error::input pr is for command gate publish review-plan only/],
    ['publish without findings', { command: 'publish', pr: '7' }, /::error::command publish needs input findings/],
    ['findings with command gate', { command: 'gate', pr: '7', findings: '/dev/null' }, /::error::input findings is for command publish only/],
    ['pr and pr-file both', { command: 'gate', pr: '7', 'pr-file': '/dev/null' }, /::error::give input pr or pr-file, not both/],
    ['environment with command run', { environment: 'prod' }, /::error::input environment is for command doctor only/],
    ['dry-run with doctor', { command: 'doctor', 'dry-run': 'true' }, /::error::command doctor writes nothing/],
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

  // Issue 23 deliverable 2: the action runs every command a workflow needs.
  const doctorSnap = (name) => {
    const s = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/doctor', `${name}.json`), 'utf8'));
    s.repository = 'lf/svc';
    return s;
  };
  const HOSTED = { RUNNER_ENVIRONMENT: 'github-hosted' };

  it('command doctor: everything in place is exit 0, the JSON result is the report output', async () => {
    const r = await step(doctorSnap('01-all-ok'), { inputs: { command: 'doctor', token: 'github_pat_11doctor', unlabelers: 'alice' }, jobEnv: HOSTED });
    assert.equal(r.code, 0, r.stderr.slice(-800));
    assert.equal(r.outputs['exit-code'], '0');
    assert.equal(r.report.exit, 0);
    assert.ok(r.report.checks.some((c) => c.check === 'runner' && c.verdict === 'ok'), 'a GitHub-hosted runner');
    assert.deepEqual(r.log.filter(isWrite), [], 'doctor writes nothing');
    assert.match(r.summary, /doctor/i);
  });

  it('command doctor: a missing rule fails the step (exit 1), a self-hosted runner is missing', async () => {
    const r = await step(doctorSnap('02-no-rules'), {
      inputs: { command: 'doctor', token: 'github_pat_11doctor', unlabelers: 'alice', 'allow-self-hosted': 'true' },
      jobEnv: { RUNNER_ENVIRONMENT: 'self-hosted' },
    });
    assert.equal(r.code, 1, r.stderr.slice(-800));
    const verdict = (id) => r.report.checks.find((c) => c.check === id)?.verdict;
    assert.equal(verdict('dismiss-stale'), 'missing');
    assert.equal(verdict('runner'), 'missing');
  });

  it('command publish with pr-file and findings (the publish example), and review-plan', async () => {
    const fx = { snapshot: JSON.parse(readFileSync(path.join(ROOT, 'fixtures/publish/1000-first-publish-creates-sticky-review-status.json'), 'utf8')) };
    const findings = path.join(work.dir, 'findings.json');
    const prFile = path.join(work.dir, 'pr');
    writeFileSync(findings, JSON.stringify(fx.snapshot.command.findings));
    writeFileSync(prFile, `${fx.snapshot.command.pr}\n`);
    const s = structuredClone(fx.snapshot);
    s.event = { name: 'workflow_run', payload: {} };
    const plan = await step(s, { inputs: { command: 'review-plan', 'pr-file': prFile } });
    assert.equal(plan.code, 0, plan.stderr.slice(-800));
    assert.ok(plan.outputs.plan && existsSync(plan.outputs.plan), 'output plan is a file');
    assert.match(plan.outputs.mode, /^(noop|full|incremental)$/);
    const r = await step(s, { inputs: { command: 'publish', 'pr-file': prFile, findings } });
    assert.equal(r.code, 0, r.stderr.slice(-800));
    assert.deepEqual(r.report.steps.map((x) => [x.step, x.outcome]), [['publish', 'published']]);
    assert.ok(r.log.some((e) => e.method === 'POST' && /\/statuses\//.test(e.path)), 'the pr-review status was written');
  });
});
