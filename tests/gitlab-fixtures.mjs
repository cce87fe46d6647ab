#!/usr/bin/env node
// fixtures/gitlab/ (issue 26 phase 2): what can be checked before the C port
// runs them. For every pair NNNN-name.json / NNNN-name.expect.json:
//
//  (a) the snapshot matches docs/schemas/snapshot.schema.json and is a GitLab
//      one with a command; the expectation, completed into a report
//      (fixtures/gitlab/README.md, "How the checker reads an expectation"),
//      matches docs/schemas/report.schema.json (its GitLab form, G22:
//      platform, the discussion write, state failed, payloads.review of
//      discussion bodies); every pinned body_sha256 is the SHA-256 of its
//      fixtures/gitlab/bodies/ file;
//  (b) the fake GitLab loads the snapshot (node tests/fakegitlab/server.mjs
//      --snapshot F --port 0 prints its URL; it exits 2 on a malformed one)
//      and serves it back (GET /_fake/state names the command's MR);
//  (c) the folder is exactly what fixtures/tools/f_gitlab.py writes (a hand
//      edit would be lost on the next generation; skipped without python3
//      or when GITLAB_FIXTURES_DIR points elsewhere).
//
// Prints one line per failure and `gitlab fixtures: N passed, N failed`.
// Environment: GITLAB_FIXTURES_DIR (default fixtures/gitlab).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.resolve(ROOT, process.env.GITLAB_FIXTURES_DIR || 'fixtures/gitlab');
const peers = createRequire(path.join(ROOT, 'tests/peers/package.json'));
const Ajv2020 = peers('ajv/dist/2020').default;
const addFormats = peers('ajv-formats').default;

const readJson = (f) => JSON.parse(readFileSync(f, 'utf8'));

// --- an expectation read as a report ---------------------------------------------------
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function merge(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObj(v) && isObj(out[k]) ? merge(out[k], v) : v;
  return out;
}

const PLAN_DEFAULTS = (st) => ({
  plan: 1, pr: st.pr, head: st.head ?? '0'.repeat(40), base: { ref: 'main', sha: null }, merge_base: null,
  author: null, mode: 'full', mode_reason: 'filled by the checker', last_sha: null, prior_sha_unreachable: null,
  prior_fix_range: null, mr_range: null, iteration: 1, next_id: 1, sticky: null, duplicates: [],
  foreign_stickies: [], prior_findings: [], prior_checked_clean: [], replies: [],
});

function completeStep(step) {
  let st = { ...step };
  const contains = st.contains;
  delete st.contains;
  delete st.reasons_min;
  delete st.reasons_contain;
  if (contains !== undefined) st = merge(st, contains);
  st.reasons ??= [];
  if (st.step === 'publish') {
    if ('mode' in st || 'sticky' in st || 'deleted' in st) {
      st.sticky ??= null;
      st.deleted ??= [];
    }
    if ('status' in st || 'findings' in st || 'payloads' in st) {
      st.findings ??= [];
      st.merged ??= [];
      st.carried ??= [];
      st.findings = st.findings.map((f) => ({ why: null, url: null, ...f }));
    }
    if (st.payloads) {
      st.payloads = {
        sticky: '', status: { state: 'success', target_url: '', description: '', context: 'pr-review' }, review: [], ...st.payloads,
      };
      if (Array.isArray(st.payloads.review)) st.payloads.review = st.payloads.review.map((r) => ({ body: '', ...r }));
    }
  } else if (st.step === 'plan' && ['planned', 'noop'].includes(st.outcome)) {
    st.plan = merge(PLAN_DEFAULTS(st), st.plan ?? {});
  }
  return st;
}

const EXPECT_KEYS = new Set(['comment', 'platform', 'event', 'dry_run', 'steps', 'writes', 'exit', 'not_reached',
  'args', 'stderr_contains', 'stderr_lacks']);

function toReport(exp) {
  const stub = exp.exit === 2 && Array.isArray(exp.steps) && exp.steps.length === 0
    && Array.isArray(exp.writes) && exp.writes.length === 0 && !('dry_run' in exp);
  const r = { report: 1 };
  if ('platform' in exp) r.platform = exp.platform;
  if (!stub) {
    r.event = exp.event ?? null;
    r.dry_run = exp.dry_run ?? false;
  }
  r.steps = (exp.steps ?? []).map(completeStep);
  r.writes = exp.writes ?? [];
  r.exit = exp.exit;
  return r;
}

// --- (b) the fake GitLab loads it ----------------------------------------------------------
function loadInFake(file, iid) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'tests/fakegitlab/server.mjs'), '--snapshot', file, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    const finish = (problem) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(problem);
    };
    const timer = setTimeout(() => finish('the fake did not print its URL within 20 s'), 20000);
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => finish(`the fake exited ${code}: ${err.trim()}`));
    child.stdout.on('data', async (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0 || done) return;
      const base = out.slice(0, nl).trim();
      try {
        const res = await fetch(`${base}/_fake/state`);
        if (res.status !== 200) return finish(`GET /_fake/state answered ${res.status}`);
        const state = await res.json();
        if (!(state.merge_requests ?? []).some((mr) => mr.iid === iid)) return finish(`the fake's state has no MR !${iid}`);
        finish(null);
      } catch (e) {
        finish(`GET /_fake/state failed: ${e.message}`);
      }
    });
  });
}

// The command's IID (what the G1 forms name; a refused form has none: use the first MR).
function commandIid(snap) {
  const pr = snap.command?.pr;
  if (Number.isInteger(pr)) return pr;
  const m = /(?:!|\/-\/merge_requests\/)([1-9][0-9]{0,8})(?:[/?#]|$)/.exec(String(pr ?? ''));
  return m ? Number(m[1]) : snap.merge_requests?.[0]?.iid;
}

async function main() {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  const validateSnapshot = ajv.compile(readJson(path.join(ROOT, 'docs/schemas/snapshot.schema.json')));
  const validateReport = ajv.compile(readJson(path.join(ROOT, 'docs/schemas/report.schema.json')));
  const explain = (v) => (v.errors || []).slice(0, 6)
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`).join('; ');

  if (!existsSync(DIR)) {
    console.log(`gitlab fixtures: no folder ${DIR}`);
    process.exit(1);
  }
  const files = readdirSync(DIR).filter((f) => /^[0-9]{4}-.*\.json$/.test(f) && !f.endsWith('.expect.json')).sort();
  let pass = 0;
  let fail = 0;
  const nums = new Set();
  const queue = [];
  for (const f of files) {
    const problems = [];
    const file = path.join(DIR, f);
    const expFile = file.replace(/\.json$/, '.expect.json');
    let snap;
    let exp;
    try {
      snap = readJson(file);
      exp = readJson(expFile);
    } catch (e) {
      problems.push(e.message);
    }
    if (nums.has(f.slice(0, 4))) problems.push('number used twice');
    nums.add(f.slice(0, 4));
    if (snap && exp) {
      if (!validateSnapshot(snap)) problems.push(`snapshot: ${explain(validateSnapshot)}`);
      if (snap.platform !== 'gitlab') problems.push('snapshot: platform is not gitlab');
      if (!snap.command) problems.push('snapshot: no command');
      for (const k of Object.keys(exp)) if (!EXPECT_KEYS.has(k)) problems.push(`expect: unknown key ${k}`);
      if (typeof exp.comment !== 'string' || !exp.comment) problems.push('expect: no comment');
      const report = toReport(exp);
      if (!validateReport(report)) {
        // Name the step's own errors rather than oneOf's tour of every step kind.
        const own = [];
        for (const [i, st] of report.steps.entries()) {
          const v = ajv.getSchema(`urn:agentic-apply:schema:report:1#/$defs/${st.step}Step`);
          if (v && !v(st)) own.push(`/steps/${i}: ${explain(v)}`);
        }
        problems.push(`expect as a report: ${own.length ? own.join('; ') : explain(validateReport)}`);
      }
      let k = 0;
      for (const w of exp.writes ?? []) {
        if (!('body_sha256' in w)) continue;
        k += 1;
        const body = path.join(DIR, 'bodies', `${f.replace(/\.json$/, '')}.w${k}.md`);
        if (!existsSync(body)) {
          problems.push(`no body file ${path.basename(body)}`);
        } else if (createHash('sha256').update(readFileSync(body)).digest('hex') !== w.body_sha256) {
          problems.push(`${path.basename(body)} does not hash to write ${k}'s body_sha256`);
        }
      }
    }
    queue.push({ f, file, problems, iid: snap ? commandIid(snap) : undefined });
  }
  // (c) generated, not hand-edited.
  if (!process.env.GITLAB_FIXTURES_DIR) {
    const out = mkdtempSync(path.join(tmpdir(), 'gitlab-fixtures-'));
    const gen = spawnSync('python3', [path.join(ROOT, 'fixtures/tools/f_gitlab.py')],
      { env: { ...process.env, FIXTURES_OUT: out }, encoding: 'utf8' });
    if (gen.error) {
      console.log('note: python3 not found, the generation check is skipped');
    } else if (gen.status !== 0) {
      queue.push({ f: 'f_gitlab.py', file: path.join(ROOT, 'fixtures/tools/f_gitlab.py'), problems: [`the generator failed: ${gen.stderr.trim()}`], iid: null });
    } else {
      const same = (rel) => {
        const a = path.join(DIR, rel);
        const b = path.join(out, 'gitlab', rel);
        return existsSync(a) && existsSync(b) && readFileSync(a).equals(readFileSync(b));
      };
      for (const q of queue) {
        const base = q.f.replace(/\.json$/, '');
        const rels = [q.f, `${base}.expect.json`,
          ...readdirSync(path.join(out, 'gitlab', 'bodies')).filter((b) => b.startsWith(base + '.')).map((b) => `bodies/${b}`)];
        for (const rel of rels) if (!same(rel)) q.problems.push(`${rel} differs from what fixtures/tools/f_gitlab.py writes`);
      }
      const extra = ['README.md'].filter((rel) => !same(rel));
      const written = new Set(readdirSync(path.join(out, 'gitlab')).filter((f) => f.endsWith('.json')));
      for (const f of readdirSync(DIR).filter((f) => f.endsWith('.json'))) if (!written.has(f)) extra.push(`${f} (not written by the generator)`);
      if (extra.length) queue.push({ f: 'README.md', file: path.join(DIR, 'README.md'), problems: extra.map((e) => `${e} differs from what fixtures/tools/f_gitlab.py writes`), iid: null });
    }
    rmSync(out, { recursive: true, force: true });
  }
  // (b), four fakes at a time.
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < queue.length) {
      const q = queue[next++];
      if (q.iid === null) continue;                 // (c)'s own entries
      if (q.iid === undefined && !q.problems.length) q.problems.push('no MR to look for');
      if (q.problems.length && q.iid === undefined) continue;
      const p = await loadInFake(q.file, q.iid);
      if (p) q.problems.push(`fakegitlab: ${p}`);
    }
  }));
  for (const q of queue) {
    if (q.problems.length) {
      fail += 1;
      console.log(`FAIL ${path.relative(ROOT, q.file)}: ${q.problems.join(' | ')}`);
    } else {
      pass += 1;
    }
  }
  if (files.length === 0) fail += 1;
  console.log(`gitlab fixtures: ${pass} passed, ${fail} failed`);
  process.exit(fail ? 1 : 0);
}

main();
