// docs/schemas/: every fixture snapshot must match snapshot.schema.json and
// the report of every fixture (`agentic-apply replay F`, with the `args` of
// its .expect.json) must match report.schema.json. The fixtures
// (fixtures/*.json, fixtures/publish/*.json, fixtures/demo/*.json) are listed
// when the test runs, so a new one is covered without editing this file.
//
// The schema and the program's loader must agree on what a snapshot is: a
// fixture the schema refuses must be one written to be malformed (its
// expectation is the usage-error report), and a fixture the schema accepts
// must not be refused by replay as malformed (except for rules no JSON
// Schema can state, such as a PR listed twice).
//
// Every fixture is also replayed with --dry-run (planned writes, "dry_run":
// true) and that report checked too.
//
// Environment: AGENTIC_APPLY_BIN (default build/agentic-apply),
// SCHEMA_FIXTURES_DIR (default fixtures/; for trying the test on a copy).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const peers = createRequire(path.join(ROOT, 'tests/peers/package.json'));
const Ajv2020 = peers('ajv/dist/2020').default;
const addFormats = peers('ajv-formats').default;

const FIXTURES = path.resolve(ROOT, process.env.SCHEMA_FIXTURES_DIR || 'fixtures');
const BIN_SRC = path.resolve(ROOT, process.env.AGENTIC_APPLY_BIN || 'build/agentic-apply');

// Run a private copy: a concurrent rebuild of build/ must not fail a replay.
const work = mkdtempSync(path.join(tmpdir(), 'agentic-schemas-'));
const BIN = path.join(work, 'agentic-apply');
copyFileSync(BIN_SRC, BIN);
chmodSync(BIN, 0o755);
after(() => rmSync(work, { recursive: true, force: true }));

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
const validateSnapshot = ajv.compile(readJson(path.join(ROOT, 'docs/schemas/snapshot.schema.json')));
const validateReport = ajv.compile(readJson(path.join(ROOT, 'docs/schemas/report.schema.json')));

function explain(validate) {
  return (validate.errors || [])
    .slice(0, 8)
    .map((e) => `  ${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`)
    .join('\n');
}

function assertValid(validate, value, what) {
  if (!validate(value)) assert.fail(`${what} does not match the schema:\n${explain(validate)}`);
}

function assertInvalid(validate, value, what) {
  assert.equal(validate(value), false, `${what} should not match the schema`);
}

const USAGE_REPORT = { report: 1, steps: [], writes: [], exit: 2 };
const isUsageReport = (r) => !('event' in r) && r.exit === 2 && r.steps.length === 0;

// Loader rules a JSON Schema cannot state (matched on replay's stderr).
// A command's findings (PUBLISH §3) are publish's own input, checked by
// the program (I1-I7, docs/publish.md), not by the snapshot schema: a
// well-formed snapshot may carry malformed findings (fixtures/publish
// 1088-), refused with `agentic-apply: findings: <pointer>: <reason>`.
// B7: which repository a command.pr string names (and whether it is GitLab's)
// is the command's to judge, like the findings' own rules.
const BEYOND_SCHEMA = [/listed twice/, /more than \d+ entries/, /larger than \d+ bytes/, /: findings: /, /command\.pr: /];

/** Is the fixture's expectation the usage-error report of a malformed snapshot? */
function expectsUsageReport(file) {
  let expect;
  try {
    expect = readJson(file.replace(/\.json$/, '.expect.json'));
  } catch (e) {
    if (e.code === 'ENOENT') return false;
    throw e;
  }
  return expect.exit === 2 && Array.isArray(expect.steps) && expect.steps.length === 0 &&
    Array.isArray(expect.writes) && expect.writes.length === 0;
}

// fixtures/*.json, the pr-review publishing fixtures (fixtures/publish/,
// whose snapshots carry a `command`: PUBLISH §8) and `make demo`'s
// snapshots (fixtures/demo/), by their path under FIXTURES.
const FIXTURE_DIRS = ['.', 'publish', 'demo'];
const fixtures = FIXTURE_DIRS.flatMap((dir) => {
  const full = path.join(FIXTURES, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expect.json'))
    .sort()
    .map((f) => path.join(dir, f));
});

describe('schemas', () => {
  it('there are fixtures to check', () => {
    assert.ok(fixtures.length > 0, `no fixtures in ${FIXTURES}`);
    if (!process.env.SCHEMA_FIXTURES_DIR) {
      for (const dir of ['publish', 'demo']) {
        assert.ok(fixtures.some((f) => f.startsWith(dir + path.sep)), `no fixtures in ${path.join(FIXTURES, dir)}`);
      }
    }
  });

  it('the usage-error report matches the report schema', () => {
    assertValid(validateReport, USAGE_REPORT, 'the usage-error report');
  });

  // Negative controls: the schemas are not vacuous.
  const demo = readJson(path.join(ROOT, 'fixtures/000-demo.json'));
  const demoReport = JSON.parse(
    spawnSync(BIN, ['replay', '--quiet', path.join(ROOT, 'fixtures/000-demo.json')], { encoding: 'utf8' }).stdout,
  );
  const edited = (value, edit) => {
    const copy = structuredClone(value);
    edit(copy);
    return copy;
  };

  it('the report schema forbids unknown keys and wrong shapes', () => {
    assertValid(validateReport, demoReport, 'the demo report');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.extra = 1; }), 'an unknown top-level key');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.steps[0].extra = 1; }), 'an unknown step key');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.steps[0].outcome = 'approved'; }), 'an unknown outcome');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.steps[0].head = 'abc'; }), 'a short head');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.exit = 4; }), 'exit 4');
    assertInvalid(validateReport, edited(demoReport, (r) => { delete r.dry_run; }), 'a report without dry_run');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.writes.push({ kind: 'merge', pr: 7 }); }), 'an unknown write kind');
    assertInvalid(validateReport, edited(demoReport, (r) => { r.writes.push({ kind: 'dismiss', pr: 7 }); }), 'a dismiss without review_id');
    assertInvalid(validateReport, { ...USAGE_REPORT, exit: 0 }, 'a bare report that is not exit 2');
  });

  it('the snapshot schema requires the contract and checks its types', () => {
    assertValid(validateSnapshot, demo, 'the demo snapshot');
    assertValid(validateSnapshot, edited(demo, (s) => { s.future_key = { any: 'thing' }; }), 'an unknown top-level key');
    for (const key of ['snapshot', 'repository', 'event', 'pulls']) {
      assertInvalid(validateSnapshot, edited(demo, (s) => { delete s[key]; }), `a snapshot without ${key}`);
    }
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.pulls[0].head.sha = s.pulls[0].head.sha.slice(1); }), 'a 39-hex head');
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.pulls[0].comments[0].created_at = '2026-11-29T10:05:00+00:00'; }), 'a time without Z');
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.faults = [{ read: 'everything', status: 502 }]; }), 'an unknown fault kind');
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.faults = [{ read: 'pull', write: 'label', status: 502 }]; }), 'a fault with read and write');
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.repository = 'lf/..'; }), 'a repository part ".."');
  });
});

// The pr-review commands (PUBLISH §8-§9): make demo's publish snapshot, and
// the same PR under review-plan and review-local.
describe('schemas of the pr-review commands', () => {
  const file = path.join(ROOT, 'fixtures/demo/publish.json');
  const snapshot = readJson(file);
  const run = (snap, extra = []) => {
    const tmp = path.join(work, `cmd-${snap.command.name}-${extra.length}.json`);
    writeFileSync(tmp, JSON.stringify(snap));
    const r = spawnSync(BIN, ['replay', '--quiet', ...extra, tmp], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(r.stdout);
  };
  const edited = (value, edit) => {
    const copy = structuredClone(value);
    edit(copy);
    return copy;
  };
  const published = run(snapshot);
  const planned = run(edited(snapshot, (s) => { s.command = { name: 'review-plan', pr: 7, mode: 'auto' }; }));
  const local = run(edited(snapshot, (s) => { s.command = { name: 'review-local', findings: s.command.findings }; }));
  const dry = run(snapshot, ['--dry-run']);

  it('the reports of publish, review-plan and review-local match', () => {
    assert.equal(published.steps[0].step, 'publish');
    assert.equal(planned.steps[0].step, 'plan');
    assert.equal(local.steps[0].step, 'local');
    for (const [what, r] of [['publish', published], ['review-plan', planned], ['review-local', local], ['publish --dry-run', dry]]) {
      assertValid(validateReport, r, `the report of ${what}`);
    }
    assert.ok(dry.steps[0].payloads, 'a dry run has payloads');
  });

  it('the report schema forbids what publish never writes', () => {
    const s0 = (r) => r.steps[0];
    const write = (r, kind) => r.writes.find((w) => w.kind === kind);
    assertInvalid(validateReport, edited(published, (r) => { s0(r).findings[0].thread = 'lost'; }), 'an unknown thread state');
    assertInvalid(validateReport, edited(published, (r) => { s0(r).findings[0].id = 'X1'; }), 'a finding id not F<n>');
    assertInvalid(validateReport, edited(published, (r) => { s0(r).outcome = 'planned'; }), 'a publish outcome of review-plan');
    assertInvalid(validateReport, edited(published, (r) => { delete s0(r).findings; }), 'a status without findings');
    assertInvalid(validateReport, edited(published, (r) => { s0(r).sticky.action = 'delete'; }), 'an unknown sticky action');
    assertInvalid(validateReport, edited(published, (r) => { delete write(r, 'comment_create').body_sha256; }), 'a comment write without body_sha256');
    assertInvalid(validateReport, edited(published, (r) => { write(r, 'comment_update').comment_id = null; }), 'a written comment without id');
    assertInvalid(validateReport, edited(published, (r) => { write(r, 'review').event = 'APPROVE'; }), 'a review that is not COMMENT');
    assertInvalid(validateReport, edited(published, (r) => { write(r, 'review').findings = []; }), 'a review of no finding');
    assertInvalid(validateReport, edited(published, (r) => { write(r, 'status').state = 'success'; }), 'a success status "publishing"');
    assertInvalid(validateReport, edited(published, (r) => { write(r, 'status').description = 'LGTM'; }), 'a status of no tier');
    assertInvalid(validateReport, edited(published, (r) => { r.writes.push({ kind: 'comment_delete', pr: 7 }); }), 'a delete without comment_id');
    assertInvalid(validateReport, edited(dry, (r) => { s0(r).payloads.review = { event: 'APPROVE' }; }), 'a planned review that is not COMMENT');
    assertInvalid(validateReport, edited(planned, (r) => { s0(r).plan.extra = 1; }), 'an unknown plan key');
    assertInvalid(validateReport, edited(planned, (r) => { delete s0(r).plan; }), 'a planned step without its plan');
    assertInvalid(validateReport, edited(planned, (r) => { s0(r).plan.mode = 'auto'; }), 'a plan mode that is not decided');
    assertInvalid(validateReport, edited(local, (r) => { s0(r).pr = 7; }), 'a local step on a PR');
    assertInvalid(validateReport, edited(local, (r) => { s0(r).local.findings[0].reported_by = ['sdet']; }), 'a local finding beyond L309');
  });

  it('the snapshot schema checks the command', () => {
    assertValid(validateSnapshot, snapshot, 'the demo publish snapshot');
    assertValid(validateSnapshot, edited(snapshot, (s) => { delete s.event; }), 'a command without event');
    assertValid(validateSnapshot, edited(snapshot, (s) => { s.faults = [{ write: 'comment', comment_id: 452, mode: 'lost_response', skip: 1, times: 1, status: 502 }]; }), 'a lost comment write');
    assertValid(validateSnapshot, edited(snapshot, (s) => { s.faults = [{ read: 'compare', status: 404 }]; }), 'a compare fault');
    assertValid(validateSnapshot, edited(snapshot, (s) => { s.faults = [{ write: 'review', mode: 'lost_response' }]; }), 'a lost write without status (502, §8)');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.faults = [{ write: 'review' }]; }), 'a failing write without status');
    assertValid(validateSnapshot, edited(snapshot, (s) => { s.command.pr = 'lf/svc#7'; }), 'command.pr as OWNER/REPO#N (B7)');
    assertValid(validateSnapshot, edited(snapshot, (s) => { s.command.pr = 'https://github.com/lf/svc/pull/7'; }), 'command.pr as a URL (B7)');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.command.pr = ''; }), 'an empty command.pr');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.command.name = 'merge'; }), 'an unknown command');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { delete s.command.findings; }), 'publish without findings');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.command = { name: 'review-plan' }; }), 'review-plan without pr');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.command = { name: 'review-plan', pr: 7, mode: 'noop' }; }), 'review-plan --mode noop');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.pulls[0].review_comments[0].created_at = 'yesterday'; }), 'a review comment without a time');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { delete s.pulls[0].files[0].filename; }), 'a file without filename');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.config = { inline_cap: 1001 }; }), 'inline_cap over 1000');
    assertInvalid(validateSnapshot, edited(snapshot, (s) => { s.faults = [{ write: 'comment', mode: 'vanish', status: 502 }]; }), 'an unknown fault mode');
  });
});

// The GitLab form (docs/rules/gitlab.md G22, G23; fixtures/gitlab S1-S3):
// allowed only with "platform": "gitlab", so a GitHub report or snapshot
// is checked exactly as before.
describe('the GitLab form of the schemas', () => {
  const H = '7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e';
  const disc = { kind: 'discussion', pr: 7, discussion_id: '12a44c85a55209c9fb7b7d91dff8ce8f0e54cf9f', note_id: 453, commit_id: H, findings: ['F1'] };
  const status = { kind: 'status', sha: H, state: 'failed', context: 'pr-review', description: 'PARTIAL · P1×1', target_url: null };
  const gitlab = {
    report: 1, platform: 'gitlab', event: null, dry_run: false,
    steps: [{ pr: 7, step: 'publish', outcome: 'error', head: H, reasons: ['the final status was not written'] }],
    writes: [disc, status], exit: 3,
  };
  const edited = (value, edit) => {
    const copy = structuredClone(value);
    edit(copy);
    return copy;
  };
  const github = JSON.parse(spawnSync(BIN, ['replay', '--quiet', path.join(ROOT, 'fixtures/demo/publish.json')], { encoding: 'utf8' }).stdout);
  const ghStatus = (r) => r.writes.find((w) => w.kind === 'status' && w.description !== 'publishing');

  it('a GitLab report: platform, discussion writes, state failed, a status without target_url', () => {
    assertValid(validateReport, gitlab, 'a GitLab report');
    assertValid(validateReport, edited(gitlab, (r) => { r.dry_run = true; r.writes[0].discussion_id = null; r.writes[0].note_id = null; }), 'a dry run\'s planned discussion');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.writes[1].state = 'failure'; }), 'GitHub\'s failure on GitLab');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.writes[0].discussion_id = null; }), 'a written discussion without its id');
    assertInvalid(validateReport, edited(gitlab, (r) => { delete r.writes[0].discussion_id; }), 'a discussion write without discussion_id');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.writes[0].findings = ['F1', 'F2']; }), 'a discussion of two findings');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.writes.push({ kind: 'review', pr: 7, review_id: 1, event: 'COMMENT', commit_id: H, findings: ['F1'] }); }), 'a GitHub review on GitLab');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.writes.push({ kind: 'approve', pr: 7, commit_id: H }); }), 'an approval on GitLab');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.steps[0].step = 'gate'; }), 'a gate step on GitLab');
    assertInvalid(validateReport, edited(gitlab, (r) => { r.platform = 'github'; }), 'platform github (absent on GitHub)');
    assertInvalid(validateReport, { ...USAGE_REPORT, platform: 'gitlab' }, 'a usage-error report with platform');
  });

  it('a GitHub report takes none of it', () => {
    assertValid(validateReport, github, 'the demo publish report');
    assert.ok(!('platform' in github), 'a GitHub report has no platform');
    assertInvalid(validateReport, edited(github, (r) => { r.writes.push(disc); }), 'a discussion write on GitHub');
    assertInvalid(validateReport, edited(github, (r) => { ghStatus(r).state = 'failed'; }), 'state failed on GitHub');
    assertInvalid(validateReport, edited(github, (r) => { ghStatus(r).target_url = null; }), 'a pr-review status without target_url on GitHub');
  });

  it('a GitLab snapshot: review_login may hold a dot; no host, API URL or token in config', () => {
    const snap = readJson(path.join(ROOT, 'fixtures/gitlab/2000-url-form-first-publish.json'));
    const demo = readJson(path.join(ROOT, 'fixtures/000-demo.json'));
    assertValid(validateSnapshot, snap, 'a GitLab fixture');
    assertValid(validateSnapshot, edited(snap, (s) => { s.config = { review_login: 'review.bot' }; }), 'a GitLab review_login with a dot');
    assertInvalid(validateSnapshot, edited(demo, (s) => { s.config = { review_login: 'review.bot' }; }), 'a GitHub review_login with a dot');
    for (const key of ['gitlab_token', 'gitlab_host', 'gitlab_api_url']) {
      assertInvalid(validateSnapshot, edited(snap, (s) => { s.config = { ...(s.config ?? {}), [key]: 'gitlab.example.com' }; }), `config.${key} in a snapshot`);
    }
  });
});

describe('fixture snapshots match docs/schemas/snapshot.schema.json', () => {
  for (const name of fixtures) {
    it(name, (t) => {
      const file = path.join(FIXTURES, name);
      if (gone(t, file)) return;
      const snapshot = readJson(file);
      if (validateSnapshot(snapshot)) {
        // The schema accepts it: the program must not refuse it as
        // malformed, unless for a rule no JSON Schema can state.
        const { json, stderr } = replay(file);
        if (isUsageReport(json) && !BEYOND_SCHEMA.some((re) => re.test(stderr))) {
          assert.fail(`${name}: replay refuses this snapshot as malformed but the schema accepts it; ` +
            `make docs/schemas/snapshot.schema.json (and docs/snapshot.md) say why:\n  ${stderr.trim().split('\n')[0]}`);
        }
        return;
      }
      // The schema refuses it: only a fixture written to be malformed may
      // (its expectation is the usage-error report).
      if (!expectsUsageReport(file)) {
        assert.fail(`${name} does not match the schema:\n${explain(validateSnapshot)}`);
      }
    });
  }
});

describe('fixture reports match docs/schemas/report.schema.json', () => {
  for (const name of fixtures) {
    it(name, (t) => {
      const file = path.join(FIXTURES, name);
      if (gone(t, file)) return;
      const { json, status, args } = replay(file);
      assertValid(validateReport, json, `the report of ${name}${args.length ? ' ' + args.join(' ') : ''}`);
      assert.equal(status, json.exit, `${name}: the process exit code is not the report's "exit"`);
    });
  }
});

// The same under --dry-run (planned writes, "dry_run": true), for the
// fixtures whose own args do not already ask for it.
describe('fixture reports under --dry-run match docs/schemas/report.schema.json', () => {
  for (const name of fixtures) {
    it(name, (t) => {
      const file = path.join(FIXTURES, name);
      if (gone(t, file)) return;
      if (replay(file).args.includes('--dry-run')) {
        t.skip('its expectation already runs --dry-run');
        return;
      }
      const { json, status } = replay(file, ['--dry-run']);
      assertValid(validateReport, json, `the report of ${name} --dry-run`);
      assert.equal(status, json.exit, `${name} --dry-run: the process exit code is not the report's "exit"`);
      if (!isUsageReport(json)) assert.equal(json.dry_run, true, `${name} --dry-run: "dry_run" is not true`);
    });
  }
});

/** A fixture deleted since the listing (a generator rewriting fixtures/) is skipped. */
function gone(t, file) {
  if (existsSync(file)) return false;
  t.skip('removed while the test ran');
  return true;
}

const replays = new Map();

/** Replay a fixture once (with its expectation's args, then `extra`) and cache the result. */
function replay(file, extra = []) {
  const key = [file, ...extra].join('\0');
  if (replays.has(key)) return replays.get(key);
  const expect = file.replace(/\.json$/, '.expect.json');
  let args = [];
  try {
    args = readJson(expect).args || [];
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  const run = spawnSync(BIN, ['replay', '--quiet', ...args, ...extra, file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  assert.equal(run.error, undefined, `replay ${file}: ${run.error}`);
  let json;
  try {
    json = JSON.parse(run.stdout);
  } catch (e) {
    assert.fail(`replay ${path.basename(file)}: stdout is not JSON (${e.message}); stderr: ${run.stderr.slice(0, 400)}`);
  }
  const result = { json, status: run.status, args, stderr: run.stderr };
  replays.set(key, result);
  return result;
}

// fixtures/doctor/: `doctor --snapshot FILE --json` scenarios. Their
// snapshots use the doctor's extension fields (docs/snapshot.md, "The
// repository's setup") and must match the snapshot schema like any other;
// what doctor prints must match docs/schemas/doctor.schema.json, its counts
// must count its checks, and it exits 0 only when nothing is missing or
// cannot be told (docs/actions.md, Doctor).
const validateDoctor = ajv.compile(readJson(path.join(ROOT, 'docs/schemas/doctor.schema.json')));
const DOCTOR_DIR = path.join(FIXTURES, 'doctor');
const doctorFixtures = existsSync(DOCTOR_DIR)
  ? readdirSync(DOCTOR_DIR).filter((f) => f.endsWith('.json') && !f.endsWith('.expect.json')).sort()
  : [];

describe('fixtures/doctor match the snapshot schema and docs/schemas/doctor.schema.json', () => {
  it('there are doctor fixtures to check', () => {
    assert.ok(doctorFixtures.length > 0, `no fixtures in ${DOCTOR_DIR}`);
  });
  for (const name of doctorFixtures) {
    it(name, (t) => {
      const file = path.join(DOCTOR_DIR, name);
      if (gone(t, file)) return;
      assertValid(validateSnapshot, readJson(file), `doctor/${name}`);
      const expect = readJson(file.replace(/\.json$/, '.expect.json'));
      const run = spawnSync(BIN, ['doctor', '--quiet', '--json', ...(expect.args || []), '--snapshot', file], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.error, undefined, `doctor ${name}: ${run.error}`);
      const out = JSON.parse(run.stdout);
      assertValid(validateDoctor, out, `the doctor result of ${name}`);
      assert.equal(run.status, out.exit, `${name}: the process exit code is not the result's "exit"`);
      for (const v of ['ok', 'missing', 'cannot_tell', 'skipped']) {
        assert.equal(out.counts[v], out.checks.filter((c) => c.verdict === v).length, `${name}: counts.${v}`);
      }
      const failing = out.counts.missing + out.counts.cannot_tell;
      assert.equal(out.exit, failing ? 1 : 0, `${name}: exit ${out.exit} with ${failing} missing or cannot_tell`);
    });
  }
});
