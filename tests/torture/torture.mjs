#!/usr/bin/env node
// Error-path torture (tests/torture/README.md).
//
// For every fixture (fixtures/[0-9]*.json, with the `args` of its
// .expect.json), learn its GitHub calls from a fault-free traced replay, then
// replay it once for every call N and every fault kind (502, 404, timeout)
// with {"call": N, "status": kind} added to its faults, and check what the
// specification promises about a failed call (BEHAVIOR.md "fail closed",
// §3.2, §5.3, §6, T4; SNAPSHOT.md §3; docs/spec-notes.md N5, N10, N14, N15,
// N17, N19). Nothing here reads the program's own expectations: every rule
// below is derived from the specification.
//
//   node tests/torture/torture.mjs [options] [FIXTURE-PREFIX...]
//     --bin PATH        plain build (default build/agentic-apply)
//     --san PATH        sanitizer build (default build/san/agentic-apply)
//     --kinds LIST      the gate fixtures' fault kinds (default 502,404,timeout)
//     --san-kinds LIST  fault kinds run with the sanitizer build (default 502,404,timeout)
//     --san-share K     also a 1/K share of every other faulted run with the
//                       sanitizer build: the runs whose cell (fixture, call,
//                       kind) hashes to the seed mod K; over K consecutive
//                       seeds every cell is sanitized once
//     --san-seed N      the share's seed (default: TORTURE_SAN_SEED, else the
//                       number of commits up to HEAD, else the day number)
//     --no-san          run everything with the plain build
//     --jobs N          parallel runs (default: number of CPUs)
//     --max-failures N  failures printed in full (default 60)
//     --json FILE       write every failure as JSON to FILE
//     --publish-san-kinds LIST  publish fixtures: kinds run with the sanitizer
//                       build (default 502; the others plain)
//     --no-variants     without the B1-B3 variants of the publish fixtures
//
// The publishing fixtures (fixtures/publish/[0-9]*.json, PUBLISH.md) are in
// the matrix too: a FIXTURE-PREFIX matches the name in either directory, and
// "publish/" selects them all. Their checks are PUBLISH's (checkPublish).
//
// Prints "N passed, N failed" and exits 1 when a run failed.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'fixtures');
const PUBLISH_FIXTURES = path.join(FIXTURES, 'publish');
const KINDS = [502, 404, 'timeout'];
// Publish fixtures: every call fails with 502 and 404 ({"call": N}; a
// "timeout" call fault is the same failure as a 502 to the program, so it is
// not run again); every write call also loses its answer after being applied
// ('lost', PUBLISH §8 mode lost_response) and is refused with 422.
const PUBLISH_KINDS = [502, 404];
const PUBLISH_WRITE_KINDS = ['lost', 422];
const SAN_ENV = {
  ASAN_OPTIONS: 'detect_leaks=1:exitcode=99:abort_on_error=0',
  UBSAN_OPTIONS: 'halt_on_error=1:exitcode=99:print_stacktrace=1',
};

// --- options -------------------------------------------------------------

function parseArgs(argv) {
  const o = {
    bin: path.join(ROOT, 'build/agentic-apply'),
    san: path.join(ROOT, 'build/san/agentic-apply'),
    kinds: KINDS,
    sanKinds: new Set(KINDS.map(String)),
    sanShare: 0,
    sanSeed: null,
    publishSanKinds: new Set(['502']),
    variants: true,
    jobs: Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
    maxFailures: 60,
    json: null,
    only: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--bin') o.bin = path.resolve(argv[++i]);
    else if (a === '--san') o.san = path.resolve(argv[++i]);
    else if (a === '--kinds') o.kinds = argv[++i].split(',').filter(Boolean).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    else if (a === '--san-share') o.sanShare = Math.max(0, Number(argv[++i]));
    else if (a === '--san-seed') o.sanSeed = Number(argv[++i]);
    else if (a === '--san-kinds') o.sanKinds = new Set(argv[++i].split(',').filter(Boolean));
    else if (a === '--publish-san-kinds') o.publishSanKinds = new Set(argv[++i].split(',').filter(Boolean));
    else if (a === '--no-san') { o.sanKinds = new Set(); o.publishSanKinds = new Set(); o.sanShare = 0; }
    else if (a === '--no-variants') o.variants = false;
    else if (a === '--jobs') o.jobs = Math.max(1, Number(argv[++i]));
    else if (a === '--max-failures') o.maxFailures = Number(argv[++i]);
    else if (a === '--json') o.json = path.resolve(argv[++i]);
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.only.push(a);
  }
  for (const k of o.kinds) if (!KINDS.includes(k)) throw new Error(`unknown kind ${k} (${KINDS.join(', ')})`);
  if (o.sanShare && !Number.isInteger(o.sanShare)) throw new Error('--san-share takes a whole number');
  if (o.sanShare && o.sanSeed === null) o.sanSeed = defaultSeed();
  return o;
}

/**
 * The share's seed: TORTURE_SAN_SEED; else the number of commits up to HEAD
 * (consecutive commits take consecutive shares, and the same commit always
 * the same one); else, in a shallow clone or without git, the day number.
 */
function defaultSeed() {
  const env = process.env.TORTURE_SAN_SEED;
  if (env !== undefined && /^\d+$/.test(env)) return { n: Number(env), from: 'TORTURE_SAN_SEED' };
  try {
    const git = (...args) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (git('rev-parse', '--is-shallow-repository') === 'false') {
      return { n: Number(git('rev-list', '--count', 'HEAD')), from: `commit ${git('rev-parse', '--short', 'HEAD')}` };
    }
  } catch { /* no git, or not a checkout */ }
  return { n: Math.floor(Date.now() / 86400000), from: 'the day number' };
}

/** A faulted run's cell, as a number: the same for the same fixture, call and kind. */
function cellHash(name, n, kind) {
  return createHash('sha256').update(`${name}\0${n}\0${kind}`).digest().readUInt32BE(0);
}

// --- running the program -------------------------------------------------

// The runs go through long-lived sh processes, one per job: node's own
// spawn costs ~15 ms of CPU a process (more than the offline build's whole
// replay), sh's fork and exec about one. Each run: the program with its
// environment, stdout and stderr to files, then sh echoes the exit status
// (128 + N: killed by signal N).
const SH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', AGENTIC_STATS: 'trace' };
const SIGNALS = Object.fromEntries(Object.entries(os.constants.signals).map(([k, v]) => [v, k]));
const quote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;
const shells = [];
let outDir = null;
let nextOut = 0;

function startShell() {
  const child = spawn('sh', [], { stdio: ['pipe', 'pipe', 'inherit'], env: SH_ENV, detached: true });
  const sh = { child, buf: '', waiter: null, dead: false };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    sh.buf += d;
    const i = sh.buf.indexOf('\n');
    if (i < 0 || !sh.waiter) return;
    const line = sh.buf.slice(0, i);
    sh.buf = sh.buf.slice(i + 1);
    const w = sh.waiter;
    sh.waiter = null;
    w(line);
  });
  child.on('close', () => { sh.dead = true; if (sh.waiter) { const w = sh.waiter; sh.waiter = null; w(null); } });
  child.stdin.on('error', () => {});
  return sh;
}

function stopShells() {
  for (const sh of shells.splice(0)) if (!sh.dead) sh.child.stdin.end();
}

async function exec(bin, args, env) {
  outDir ??= mkdtempSync(path.join(os.tmpdir(), 'aa-torture-out-'));
  let sh = shells.pop();
  if (!sh || sh.dead) sh = startShell();
  const n = nextOut++;
  const out = path.join(outDir, `${n}.out`);
  const err = path.join(outDir, `${n}.err`);
  const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
  const line = await new Promise((resolve) => {
    const timer = setTimeout(() => { try { process.kill(-sh.child.pid, 'SIGKILL'); } catch { /* gone */ } }, 120000);
    sh.waiter = (l) => { clearTimeout(timer); resolve(l); };
    sh.child.stdin.write(`${vars} ${[bin, ...args].map(quote).join(' ')} </dev/null >${quote(out)} 2>${quote(err)}; echo "$?"\n`);
  });
  const read = (f) => { try { return readFileSync(f, 'utf8'); } catch { return ''; } };
  const res = { code: null, signal: null, stdout: read(out), stderr: read(err) };
  rmSync(out, { force: true });
  rmSync(err, { force: true });
  if (line === null) res.signal = 'SIGKILL'; // the time limit ended the run, and its sh
  else if (Number(line) > 128) res.signal = SIGNALS[Number(line) - 128] ?? `signal ${Number(line) - 128}`;
  else res.code = Number(line);
  if (!sh.dead) shells.push(sh);
  return res;
}

const TRACE = /^call (\d+): (read|write) (\w+) pr=(\d+)(?: sha=([0-9a-f]{40}))?$/;

/** The calls of a traced run: [{n, op, kind, pr, sha}] (index 0 = call 1). */
function parseTrace(stderr) {
  const calls = [];
  for (const line of stderr.split('\n')) {
    const m = TRACE.exec(line);
    if (m) calls.push({ n: Number(m[1]), op: m[2], kind: m[3], pr: Number(m[4]), sha: m[5] ?? null });
  }
  calls.forEach((c, i) => { if (c.n !== i + 1) throw new Error(`trace out of order at call ${c.n}`); });
  return calls;
}

// --- the report (SNAPSHOT.md §3) -----------------------------------------

const SHA = /^[0-9a-f]{40}$/;
const OUTCOMES = { apply: ['applied', 'skipped', 'refused', 'error'], gate: ['approve', 'withhold', 'skipped', 'error'] };
const CONDS = ['clean', 'label_absent', 'threads_answered', 'escalation'];
const SEVERITY = { 0: 0, 1: 1, 3: 2, 2: 3 };

/** Problems with a report's shape, [] when it is a valid report. */
function reportProblems(rep, code) {
  const p = [];
  if (rep === null || typeof rep !== 'object' || Array.isArray(rep)) return ['stdout is not a JSON object'];
  if (rep.report !== 1) p.push('report is not 1');
  if (!Array.isArray(rep.steps)) p.push('steps is not an array');
  if (!Array.isArray(rep.writes)) p.push('writes is not an array');
  if (rep.exit !== code) p.push(`report exit ${rep.exit} ≠ process exit ${code}`);
  if ('dry_run' in rep && typeof rep.dry_run !== 'boolean') p.push('dry_run is not a boolean');
  if ('event' in rep && typeof rep.event !== 'string') p.push('event is not a string');
  if (p.length) return p;
  rep.steps.forEach((s, i) => {
    const at = `steps[${i}]`;
    if (!Number.isSafeInteger(s.pr) || s.pr < 1) p.push(`${at}.pr`);
    if (!(s.step in OUTCOMES)) { p.push(`${at}.step ${s.step}`); return; }
    if (!OUTCOMES[s.step].includes(s.outcome)) p.push(`${at}.outcome ${s.outcome}`);
    if (!(s.head === null || SHA.test(s.head ?? ''))) p.push(`${at}.head ${s.head}`);
    if (!Array.isArray(s.reasons) || !s.reasons.every((r) => typeof r === 'string')) p.push(`${at}.reasons`);
    if (s.step === 'apply' && !(s.clean === null || typeof s.clean === 'boolean')) p.push(`${at}.clean`);
    if (s.step === 'gate') {
      if (!('conditions' in s)) p.push(`${at}.conditions missing`);
      else if (s.conditions !== null) {
        const keys = Object.keys(s.conditions).sort();
        if (keys.join() !== [...CONDS].sort().join() || !CONDS.every((k) => typeof s.conditions[k] === 'boolean')) p.push(`${at}.conditions ${JSON.stringify(s.conditions)}`);
      }
      if (s.outcome === 'approve' && !(s.conditions && CONDS.every((k) => s.conditions[k]))) p.push(`${at}: approve without all four conditions true`);
    }
    if (s.outcome === 'error' && code !== 3 && code !== 2) p.push(`${at}: outcome error but exit ${code}`);
    // A9: a verdict of a round superseded by a newer one of the same head
    // is refused quietly (exit 0); every other refusal is at least exit 1.
    const superseded = s.step === 'apply' && (s.reasons ?? []).some((r) => /^R4: round \d+ was superseded/.test(r));
    if (s.outcome === 'refused' && SEVERITY[code] < 1 && !superseded) p.push(`${at}: outcome refused but exit ${code}`);
  });
  rep.writes.forEach((w, i) => {
    const at = `writes[${i}]`;
    switch (w.kind) {
      case 'create_label': if (typeof w.label !== 'string') p.push(`${at}.label`); break;
      case 'label': if (!Number.isSafeInteger(w.pr) || typeof w.label !== 'string') p.push(`${at}`); break;
      case 'status':
        if (!SHA.test(w.sha ?? '') || !['success', 'failure'].includes(w.state) || typeof w.context !== 'string' ||
            !/^conductor pr=#\d+: clean=(true|false)$/.test(w.description ?? '') || !(w.target_url === null || typeof w.target_url === 'string')) p.push(`${at} ${JSON.stringify(w)}`);
        break;
      case 'approve': if (!Number.isSafeInteger(w.pr) || !SHA.test(w.commit_id ?? '')) p.push(`${at} ${JSON.stringify(w)}`); break;
      case 'dismiss': if (!Number.isSafeInteger(w.pr) || !Number.isSafeInteger(w.review_id)) p.push(`${at} ${JSON.stringify(w)}`); break;
      default: p.push(`${at}.kind ${w.kind}`);
    }
  });
  return p;
}

// --- who made each call (from the fault-free trace) ------------------------

/**
 * Attribute every call of a fault-free trace to what made it:
 *   {who: 'pre'}                       sweep listing/selection, status-event lookup (no step yet)
 *   {who: 'user'}                      GET /user (T4)
 *   {who: 'apply', pr, sub}            sub 'label' (§3.1 reads) or 'check' (R2/R4/§3.3 reads)
 *   {who: 'gate', pr, phase}           phase 'first' | 'again' (§6.1 step 2) | 'after' (step 4)
 * A gate evaluation reads the pull with all its parts: "read pull" then
 * "read labels" of the same PR. A faulted run makes exactly the same calls
 * up to the faulted one, so the attribution of call N holds for it.
 */
function attribute(calls, report) {
  const applyPrs = new Set(report.steps.filter((s) => s.step === 'apply').map((s) => s.pr));
  const gates = new Map(); // pr → {evals, approved}
  return calls.map((c, i) => {
    const next = calls[i + 1];
    if (c.op === 'read' && c.kind === 'pull' && next && next.op === 'read' && next.kind === 'labels' && next.pr === c.pr) {
      const g = gates.get(c.pr) ?? { evals: 0, approved: false };
      g.evals++;
      gates.set(c.pr, g);
    }
    if (c.op === 'read' && c.kind === 'user') return { who: 'user' };
    if (c.op === 'read' && c.kind === 'pulls') return { who: 'pre' };
    const g = gates.get(c.pr);
    if (g) {
      const phase = g.approved ? 'after' : g.evals > 1 ? 'again' : 'first';
      if (c.op === 'write' && c.kind === 'approve') g.approved = true;
      return { who: 'gate', pr: c.pr, phase };
    }
    if (applyPrs.has(c.pr)) return { who: 'apply', pr: c.pr, sub: c.kind === 'labels' || c.kind === 'label' ? 'label' : 'check' };
    return { who: 'pre', pr: c.pr };
  });
}

// --- the state after a run's writes ----------------------------------------

const lower = (s) => (typeof s === 'string' ? s.toLowerCase() : s);

/** Reviews of every pull after the report's writes, as replay applies them; also the id each approve write got. */
function afterWrites(snapshot, writes) {
  const pulls = new Map();
  let max = 0;
  for (const p of snapshot.pulls ?? []) {
    pulls.set(p.number, (p.reviews ?? []).map((r) => ({ ...r })));
    for (const r of p.reviews ?? []) max = Math.max(max, r.id);
  }
  const viewer = snapshot.viewer ?? trusted(snapshot);
  const approveIds = [];
  for (const w of writes) {
    if (w.kind === 'approve') {
      max += 1;
      pulls.get(w.pr)?.push({ id: max, author: viewer, state: 'APPROVED', commit_id: w.commit_id });
      approveIds.push(max);
    } else if (w.kind === 'dismiss') {
      const r = pulls.get(w.pr)?.find((x) => x.id === w.review_id);
      if (r) r.state = 'DISMISSED';
      approveIds.push(null);
    } else approveIds.push(null);
  }
  return { pulls, approveIds };
}

const trusted = (snapshot) => snapshot.config?.trusted_login ?? 'lfx-reviewer';
const trustedApprovals = (snapshot, reviews) => (reviews ?? []).filter((r) => r.state === 'APPROVED' && lower(r.author) === lower(trusted(snapshot)));

/**
 * Which calls the snapshot's own faults fail (SNAPSHOT.md §2: `read`/`write`
 * with optional `pr`, `sha`, `times`; `call`): the first matching fault in
 * list order answers, as replay does.
 */
/* A write fault without an answer: a 5xx or a timeout. */
const noAnswer = (f) => f.status === 'timeout' || (typeof f.status === 'number' && f.status >= 500);

/**
 * The calls the snapshot's own faults fail. With `lost` (a Map), also the
 * write calls whose answer the program never gets (N61), n → 'made' (a
 * lost_response fault: made, then its answer lost) or 'not made' (a 5xx or
 * a timeout): the program reads again right after each of them.
 */
function failedCalls(snapshot, calls, lost = null) {
  const faults = Array.isArray(snapshot.faults) ? snapshot.faults : [];
  const used = faults.map(() => 0);
  const seen = faults.map(() => 0);
  const out = new Set();
  for (const c of calls) {
    for (let i = 0; i < faults.length; i++) {
      const f = faults[i];
      if (f.call !== undefined && f.call !== null && f.read === undefined && f.write === undefined) {
        if (f.call === c.n) {
          out.add(c.n);
          if (lost && c.op === 'write' && noAnswer(f)) lost.set(c.n, 'not made');
          break;
        }
        continue;
      }
      if ((c.op === 'read' ? f.read : f.write) !== c.kind) continue;
      if (f.pr && f.pr !== c.pr) continue;
      if (f.sha && f.sha !== c.sha) continue;
      if (seen[i]++ < (f.skip ?? 0)) continue;
      if (f.times && used[i] >= f.times) continue;
      used[i]++;
      // A write whose answer is lost was made: done, not failed (N61).
      if (f.mode === 'lost_response' && c.op === 'write') lost?.set(c.n, 'made');
      else {
        out.add(c.n);
        // 422 to a label creation ("already exists") is judged by looking too.
        if (lost && c.op === 'write' && (noAnswer(f) || (f.status === 422 && c.kind === 'label'))) lost.set(c.n, 'not made');
      }
      break;
    }
  }
  return out;
}

// --- the checks ------------------------------------------------------------

const WRITE_KINDS = { label: ['label', 'create_label'], status: ['status'], approve: ['approve'], dismiss: ['dismiss'] };
// The read that follows a write whose answer was lost (N61, src/run/writes.c).
const REREAD = { label: 'labels', status: 'statuses', approve: 'reviews', dismiss: 'reviews' };

/**
 * Everything the specification promises for one run. `fault` is null for the
 * fault-free run, else {n, kind, call, owner}. `base` is the fault-free run.
 */
function check(fx, run, fault, base) {
  const problems = [];
  const fail = (m) => problems.push(m);
  if (run.signal) fail(`killed by ${run.signal}`);
  if (run.code === 99) fail('sanitizer report (exit 99)');
  if (![0, 1, 2, 3].includes(run.code)) fail(`exit ${run.code} is not 0/1/2/3`);
  if (/ERROR: (Address|Leak)Sanitizer|runtime error:/.test(run.stderr)) fail('sanitizer output on stderr');
  let rep = null;
  try { rep = JSON.parse(run.stdout); } catch { fail('stdout is not JSON'); }
  if (!rep) return problems;
  const shape = reportProblems(rep, run.code);
  if (shape.length) { shape.forEach(fail); return problems; }
  let calls;
  try { calls = parseTrace(run.stderr); } catch (e) { fail(e.message); return problems; }
  const snapshot = fx.snapshot;
  const dry = rep.dry_run === true;

  // N17: the writes listed are exactly the write calls that succeeded, in
  // order. A write whose answer was lost is read again by the next call
  // (N61): when the injected fault fails that read, the write is not known
  // to have landed, so it is not listed even if it was made.
  const lost = new Map();
  const failed = failedCalls(snapshot, calls, lost);
  if (fault?.kind === 'lost') lost.set(fault.n, 'made');
  // The injected fault takes effect unless the fixture's own faults answer its call first.
  const injected = fault && fault.kind !== 'lost' && !failed.has(fault.n) && !lost.has(fault.n) ? fault.n : null;
  // Is call n the re-read of a write whose answer was lost (call n-1)?
  const isReread = (n) => lost.has(n - 1) && calls[n - 1]?.op === 'read' && calls[n - 1].kind === REREAD[calls[n - 2].kind];
  const rereadOf = injected && isReread(injected) ? injected - 1 : null;
  const unconfirmed = new Set([...lost.keys()].filter((n) => lost.get(n) === 'made' && isReread(n + 1) && (failed.has(n + 1) || injected === n + 1)));
  const okWrites = calls.filter((c) => c.op === 'write' && !failed.has(c.n) && c.n !== injected && !unconfirmed.has(c.n));
  if (!dry) {
    if (okWrites.length !== rep.writes.length) fail(`${rep.writes.length} writes listed, ${okWrites.length} write calls succeeded`);
    else okWrites.forEach((c, i) => {
      const w = rep.writes[i];
      if (!WRITE_KINDS[c.kind]?.includes(w.kind) || (w.pr !== undefined && w.pr !== c.pr && w.kind !== 'create_label')) fail(`write ${i} listed as ${w.kind} pr=${w.pr}, made as ${c.kind} pr=${c.pr}`);
    });
  }

  // The state after the run, and per-gate-step invariants.
  const { pulls, approveIds } = afterWrites(snapshot, dry ? [] : rep.writes);
  const identityFailed = rep.exit === 2;
  const dismissFailed = calls.some((x) => x.op === 'write' && x.kind === 'dismiss' && (failed.has(x.n) || (fault && x.n === fault.n)));
  for (const s of rep.steps.filter((x) => x.step === 'gate')) {
    const left = trustedApprovals(snapshot, pulls.get(s.pr));
    if (s.outcome === 'approve' && !dry && !left.some((r) => r.commit_id === s.head)) fail(`gate #${s.pr}: outcome approve but no trusted approval of ${s.head?.slice(0, 7)} exists after the run`);
    if (s.outcome === 'withhold' && !dry && !identityFailed && !dismissFailed && left.length) fail(`gate #${s.pr}: outcome withhold but trusted approval(s) ${left.map((r) => r.id).join(',')} survive (§6.2)`);
    if (s.outcome !== 'approve' && !dry && !identityFailed && !dismissFailed) {
      rep.writes.forEach((w, i) => {
        if (w.kind !== 'approve' || w.pr !== s.pr) return;
        const id = approveIds[i];
        if (!rep.writes.slice(i + 1).some((d) => d.kind === 'dismiss' && d.review_id === id)) fail(`gate #${s.pr}: outcome ${s.outcome}, but the approval just posted (review ${id}) is not dismissed (§6.1 step 4)`);
      });
    }
  }

  if (!fault) return problems;

  // A call the snapshot's own faults already fail: the injected fault
  // changes nothing, and the run must be the fault-free one.
  const baseLost = new Map();
  if (failedCalls(snapshot, base.calls, baseLost).has(fault.n) || baseLost.has(fault.n)) {
    if (run.stdout !== base.stdout) fail('a call the fixture already fails, failed again, changed the report');
    return problems;
  }

  // Faults never create approvals: every approval of a faulted run is one
  // the fault-free run makes too.
  const baseApprovals = new Set(base.report.writes.filter((w) => w.kind === 'approve').map((w) => `${w.pr}:${w.commit_id}`));
  for (const w of rep.writes.filter((x) => x.kind === 'approve')) if (!baseApprovals.has(`${w.pr}:${w.commit_id}`)) fail(`approval of #${w.pr} at ${w.commit_id.slice(0, 7)} that the fault-free run does not make`);
  for (const s of rep.steps.filter((x) => x.step === 'gate' && x.outcome === 'approve')) {
    const b = base.report.steps.find((x) => x.step === 'gate' && x.pr === s.pr);
    if (!b || b.outcome !== 'approve') fail(`gate #${s.pr} approves; the fault-free run says ${b?.outcome}`);
  }

  // A write made and its answer lost: the re-read shows it, so it is
  // done, listed, and the run is the fault-free one (BEHAVIOR §8, N61).
  if (fault.kind === 'lost') {
    if (unconfirmed.has(fault.n)) {
      if (run.code !== 3 && run.code !== 2) fail(`a ${fault.call.kind} write's answer was lost and the fixture fails its re-read, but exit ${run.code} (N61)`);
    } else if (run.stdout !== base.stdout) fail(`a ${fault.call.kind} write was made and its answer lost, yet the report differs from the fault-free one (the re-read must show it done, N61)`);
    return problems;
  }
  // The read after a lost answer failed: the write counts as failed
  // (not listed, above), and the run exits 3 (or 2).
  if (rereadOf) {
    if (run.code !== 3 && run.code !== 2) fail(`the re-read after a lost ${calls[rereadOf - 1].kind} write failed, but exit ${run.code} (N61)`);
    return problems;
  }

  const c = fault.call;
  const owner = fault.owner;
  const failedAt = fault.n;
  const later = calls.filter((x) => x.n > failedAt);
  const approveAfter = (pr) => later.some((x) => x.op === 'write' && x.kind === 'approve' && x.pr === pr);

  if (c.op === 'write') {
    // A failed write is not listed (checked above) and is never retried blindly.
    const again = later.filter((x) => x.op === 'write' && x.kind === c.kind && x.pr === c.pr && c.kind === 'approve');
    if (again.length) fail('the failed approval was posted again in the same run (§6.1 step 5)');
    if (run.code !== 3 && run.code !== 2) fail(`a failed ${c.kind} write, but exit ${run.code}`);
    return problems;
  }

  // Reads from here on.
  if (c.kind === 'user') {
    if (rep.writes.length) fail(`/user unreadable, yet ${rep.writes.length} write(s) listed (T4)`);
    if (later.some((x) => x.op === 'write')) fail('/user unreadable, yet a write call was made (T4)');
    if (run.code !== 3) fail(`/user unreadable: exit ${run.code}, expected 3 (T4, N19)`);
    const last = rep.steps[rep.steps.length - 1];
    if (!last || last.outcome !== 'error') fail(`/user unreadable: the current step is ${last?.outcome}, expected error (N19)`);
    return problems;
  }
  if (c.kind === 'pulls') {
    if (run.code !== 3) fail(`open-PR listing unreadable: exit ${run.code}, expected 3 (§7, N14)`);
    if (rep.steps.length) fail('open-PR listing unreadable, yet steps were reported (§7, N14)');
    if (rep.writes.length) fail('open-PR listing unreadable, yet something was written');
    return problems;
  }
  const pullNotFound = c.kind === 'pull' && fault.kind === 404;

  if (owner.who === 'pre') {
    // N15: a selection read that fails selects the PR; N14: the lookup of
    // the status event's PR is read again by the gate. Either way the PR
    // gets a gate step that evaluated it (or failed closed).
    if (pullNotFound) return problems;
    const s = rep.steps.find((x) => x.step === 'gate' && x.pr === c.pr);
    // A wrong identity stops the run (T4, N19): PRs after it get no step.
    if (!s) {
      if (!identityFailed) fail(`selection/lookup read of #${c.pr} failed, and #${c.pr} was not gated (N15)`);
    } else if (s.outcome === 'skipped' && s.conditions === null && /no trusted .* status .* no approval/.test(s.reasons.join(' '))) fail(`selection read of #${c.pr} failed, yet the sweep did not select it (N15)`);
    return problems;
  }

  const step = rep.steps.find((x) => x.step === owner.who && x.pr === owner.pr);
  if (owner.who === 'apply') {
    if (!step) { fail(`no apply step for #${owner.pr}`); return problems; }
    if (owner.sub === 'label') {
      // N5: the label is added anyway (the add is attempted; a dry run
      // plans it: listed in the report, never sent, N18).
      const added = dry ? rep.writes.some((w) => w.kind === 'label' && w.pr === owner.pr)
        : later.some((x) => x.op === 'write' && x.kind === 'label' && x.pr === owner.pr);
      if (!identityFailed && !added) fail(`label read of #${owner.pr} failed: the label must be added anyway (N5)`);
      return problems;
    }
    if (pullNotFound) {
      // N10: no such PR; the check step is skipped (N2: a label step that
      // ran before keeps the step applied).
      if (step.outcome !== 'skipped' && step.outcome !== 'applied') fail(`pull 404 in apply: outcome ${step.outcome}, expected skipped (N10)`);
      if (later.some((x) => x.op === 'write' && x.kind === 'status' && x.pr === owner.pr)) fail('pull 404 in apply, yet a status was written');
      return problems;
    }
    // N4: R2 (pull, commits), then R4 (statuses), then the rows (threads):
    // a refusal by R2/R4 needs no thread, so a failed thread read may end
    // in a refusal; any other failed read of the check step is an error.
    const refusedWithoutIt = c.kind === 'threads' && step.outcome === 'refused';
    if (step.outcome !== 'error' && !refusedWithoutIt) fail(`apply read ${c.kind} of #${owner.pr} failed: outcome ${step.outcome}, expected error (§3.2)`);
    if (run.code !== 3 && run.code !== 2 && !refusedWithoutIt) fail(`apply read ${c.kind} failed: exit ${run.code}, expected 3 (§3.2)`);
    // Nothing written by the check step after the failure: the first gate
    // evaluation of the PR starts the gate step.
    const gateStart = later.find((x, i) => x.op === 'read' && x.kind === 'pull' && x.pr === owner.pr && later[i + 1]?.kind === 'labels');
    const inApply = later.filter((x) => !gateStart || x.n < gateStart.n);
    if (inApply.some((x) => x.op === 'write' && x.kind === 'status')) fail(`apply read ${c.kind} failed, yet a status was written (§3.2)`);
    return problems;
  }

  // A gate read.
  if (!step) { fail(`no gate step for #${owner.pr}`); return problems; }
  if (pullNotFound) {
    if (owner.phase === 'first' && step.outcome !== 'skipped') fail(`pull 404: gate outcome ${step.outcome}, expected skipped (N10)`);
    if (approveAfter(owner.pr)) fail('pull 404, yet an approval was posted after it');
    return problems;
  }
  const bstep = base.report.steps.find((x) => x.step === 'gate' && x.pr === owner.pr);
  const skippedAnyway = step.outcome === 'skipped' && bstep?.outcome === 'skipped' && c.kind !== 'pull';
  if (!skippedAnyway) {
    if (step.outcome !== 'error') fail(`gate read ${c.kind} of #${owner.pr} (${owner.phase}) failed: outcome ${step.outcome}, expected error (§5.3, §6.1)`);
    if (run.code !== 3 && run.code !== 2) fail(`gate read ${c.kind} (${owner.phase}) failed: exit ${run.code}, expected 3`);
  }
  if (approveAfter(owner.pr)) fail(`gate read ${c.kind} (${owner.phase}) failed, yet an approval was posted after it`);
  // §5.3 backstop: dismiss whenever the reviews can still be listed.
  // The fixture's own faults may fail the reviews read the backstop needs.
  const reviewReads = calls.filter((x) => x.op === 'read' && x.kind === 'reviews' && x.pr === owner.pr);
  const reviewsFailed = reviewReads.length > 0 && reviewReads.every((x) => failed.has(x.n));
  if (c.kind !== 'reviews' && !reviewsFailed && !identityFailed && !dismissFailed && !skippedAnyway) {
    const left = trustedApprovals(snapshot, pulls.get(owner.pr));
    if (left.length && !dry) fail(`gate read ${c.kind} (${owner.phase}) failed with the reviews readable, yet trusted approval(s) ${left.map((r) => `${r.id}@${r.commit_id.slice(0, 7)}`).join(',')} survive (§5.3 backstop)`);
  }
  return problems;
}

// --- publish fixtures (PUBLISH.md) -------------------------------------------

const TIER_RANK = { PASSED: 4, PASSED_WITH_NOTES: 3, REVIEW_BEFORE_MERGE: 2, BLOCKED: 1, PARTIAL: 0 };
const P_OUTCOMES = {
  plan: ['planned', 'noop', 'error'],
  publish: ['published', 'unchanged', 'noop', 'skipped', 'refused', 'superseded', 'partial', 'error'],
  local: null,
};
// The report's write kinds of each traced publish write call (§9).
const P_WRITE_OF = { comment: ['comment_create', 'comment_update'], comment_delete: ['comment_delete'], status: ['status'], review: ['review'] };
const reviewLogin = (snap) => snap.config?.review_login ?? trusted(snap);
const reviewContext = (snap) => snap.config?.review_context ?? 'pr-review';
const rank = (t) => (t in TIER_RANK ? TIER_RANK[t] : null);
const sha256 = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The tier a pr-review status claims (§5.5): null for pending (no claim). */
function statusTier(st) {
  if (!st || st.state === 'pending') return null;
  return String(st.description ?? '').split(' · ')[0].replace(/ /g, '_');
}

/** A line holding a check or needs-human verdict marker, spelled as BEHAVIOR §2.1 tolerates (PUBLISH B1). */
const VERDICT_MARKER = /<!--\s*agentic:(check|needs-human)\s+v1/i;

/** U1 with B1: the first line is exactly `<!-- pr-review:sticky -->` (trailing ws/CR), and no line anywhere holds a verdict marker. */
function isSticky(body) {
  const text = String(body ?? '');
  return /^<!-- pr-review:sticky -->[ \t\r]*$/.test(text.split('\n')[0]) && !text.split('\n').some((l) => VERDICT_MARKER.test(l));
}

/** A sticky's status= token and the finding ids of its state block (§5.2 block 1, §5.3). */
function stickyFacts(body) {
  const tok = /^<!-- pr-review:status=([A-Za-z_]+) -->[ \t\r]*$/m.exec(body);
  const ids = new Set();
  let inState = false;
  for (const line of body.split('\n')) {
    if (!inState) { inState = line.startsWith('<!-- pr-review:state='); continue; }
    if (line.startsWith('-->')) break;
    const id = line.split(' ')[0];
    if (/^F[1-9][0-9]*$/.test(id)) ids.add(id);
  }
  return { tier: tok ? tok[1] : null, ids };
}

/**
 * What the PR shows after a run (its final snapshot, AGENTIC_REPLAY_STATE):
 * the canonical sticky (newest U1 sticky), the last sticky this run wrote
 * (created or changed), the newest pr-review status (U4) this run wrote on
 * the head, and how many stickies there are.
 */
function claims(snap, state) {
  const pr = snap.command?.pr;
  const login = lower(reviewLogin(snap));
  const p0 = (snap.pulls ?? []).find((x) => x.number === pr);
  const p1 = (state.pulls ?? []).find((x) => x.number === pr);
  const before = new Map((p0?.comments ?? []).map((c) => [c.id, c.body]));
  const stickies = (p1?.comments ?? []).filter((c) => lower(c.author) === login && isSticky(c.body)).sort((a, b) => a.id - b.id);
  const written = stickies.filter((c) => before.get(c.id) !== c.body);
  const head = p1?.head?.sha;
  const old = (snap.statuses ?? {})[head]?.length ?? 0;
  const mine = ((state.statuses ?? {})[head] ?? []).slice(old)
    .filter((x) => x.context === reviewContext(snap) && lower(x.creator) === login);
  const facts = (c) => (c ? { id: c.id, body: c.body, html_url: c.html_url, ...stickyFacts(c.body) } : null);
  return { canonical: facts(stickies.at(-1)), sticky: facts(written.at(-1)), status: mine.at(-1) ?? null, nStickies: stickies.length, comments: p1?.comments ?? [] };
}

/**
 * How every call is answered by the snapshot's faults plus an injected one,
 * as the fake does (first matching fault in list order; `call`; `read`/`write`
 * with `pr`, `sha`, `skip`, `times`, `mode`): Map n → 'fail' | 'notfound' |
 * 'rejected' | 'lost'. A fault's `comment_id` is not in the trace: it is
 * taken to match (the fixtures narrow it to the comment they write).
 */
function answers(snapshot, calls, extra) {
  const faults = [...(Array.isArray(snapshot.faults) ? snapshot.faults : []), ...(extra ? [extra] : [])];
  const seen = faults.map(() => 0);
  const used = faults.map(() => 0);
  const out = new Map();
  for (const c of calls) {
    for (let i = 0; i < faults.length; i++) {
      const f = faults[i];
      if (f.call !== undefined && f.call !== null && f.read === undefined && f.write === undefined) {
        if (f.call === c.n) { out.set(c.n, f.status === 404 && c.kind !== 'user' ? 'notfound' : 'fail'); break; }
        continue;
      }
      if ((c.op === 'read' ? f.read : f.write) !== c.kind) continue;
      if (f.pr && f.pr !== c.pr) continue;
      if (f.sha && f.sha !== c.sha) continue;
      if (seen[i]++ < (f.skip ?? 0)) continue;
      if (f.times && used[i] >= f.times) continue;
      used[i]++;
      if (f.mode === 'lost_response' && c.op === 'write') out.set(c.n, 'lost');
      else if (f.status === 404 && c.kind !== 'user') out.set(c.n, 'notfound');
      else if (f.status === 422 && c.op === 'write') out.set(c.n, 'rejected');
      else out.set(c.n, 'fail');
      break;
    }
  }
  return out;
}

/**
 * N17/N18 for publish: the writes listed are the write calls that took
 * effect, in order. A lost answer that was re-read counts as done (listed,
 * or not when the re-read failed); a DELETE answered 404 is done but is
 * not listed (B6).
 * Returns {problems, listed: Map n → index in writes}.
 */
function publishListing(calls, ans, writes) {
  const problems = [];
  const listed = new Map();
  let k = 0;
  for (const c of calls.filter((x) => x.op === 'write')) {
    const a = ans.get(c.n);
    const w = writes[k];
    const fits = w !== undefined && (P_WRITE_OF[c.kind] ?? []).includes(w.kind) && (w.pr === undefined || w.pr === c.pr);
    if (!a) {
      if (!fits) { problems.push(`write call ${c.n} (${c.kind}) took effect but writes[${k}] is ${w ? w.kind : 'missing'} (N17)`); return { problems, listed }; }
      listed.set(c.n, k++);
    } else if (a === 'lost' && fits) listed.set(c.n, k++);
    // B6: a DELETE answered 404 is done but deleted nothing: never listed
    // (one that is would be left over below).
  }
  if (k !== writes.length) problems.push(`${writes.length - k} listed write(s) after writes[${k - 1}] match no write call that took effect (N17)`);
  return { problems, listed };
}

/**
 * The role of every write call of a fault-free publish run (§7.2): W1 (the
 * first write, a sticky write), W2 (a delete before the review), W3p (the
 * pending status), final (a success/failure status: W6, or W3 without
 * attempts), W4 (the first review: the batch), W4f (a per-finding review),
 * W5 (a sticky write after the review), W5d (its deletes), unwritten (the
 * sticky PATCH after a failed final status).
 */
function publishRoles(calls, ans, listed, writes) {
  const roles = new Map();
  let review = false;
  let first = true;
  let prev = null;
  for (const c of calls.filter((x) => x.op === 'write')) {
    const w = listed.has(c.n) ? writes[listed.get(c.n)] : null;
    let r;
    if (c.kind === 'review') { r = review ? 'W4f' : 'W4'; review = true; }
    else if (c.kind === 'comment') r = first ? 'W1' : prev && prev.role === 'final' && prev.failed ? 'unwritten' : review ? 'W5' : 'comment';
    else if (c.kind === 'comment_delete') r = review ? 'W5d' : 'W2';
    else if (c.kind === 'status') r = w ? (w.state === 'pending' ? 'W3p' : 'final') : 'status';
    else r = c.kind;
    const failed = ['fail', 'notfound', 'rejected'].includes(ans.get(c.n));
    // A failed status of a run with attempts is the final one when the
    // pending one was written before it.
    if (r === 'status' && failed) r = [...roles.values()].includes('W3p') || !review ? 'final' : 'status';
    roles.set(c.n, r);
    prev = { role: r, failed };
    first = false;
  }
  return roles;
}

/** Everything PUBLISH promises for one run of a publish fixture (see README). */
function checkPublish(fx, run, fault, base) {
  const problems = [];
  const fail = (m) => problems.push(m);
  if (run.signal) fail(`killed by ${run.signal}`);
  if (run.code === 99) fail('sanitizer report (exit 99)');
  if (![0, 1, 2, 3].includes(run.code)) fail(`exit ${run.code} is not 0/1/2/3`);
  if (/ERROR: (Address|Leak)Sanitizer|runtime error:/.test(run.stderr)) fail(`sanitizer: ${(/(ERROR: \w+Sanitizer: \S+|runtime error:[^\n]*)/.exec(run.stderr) ?? [''])[0]} at ${(/#\d+ 0x[0-9a-f]+ in \S+ (\S+)/.exec(run.stderr) ?? ['', '?'])[1]}`);
  let rep = null;
  try { rep = JSON.parse(run.stdout); } catch { fail('stdout is not JSON'); }
  if (!rep) return problems;
  if (rep === null || typeof rep !== 'object' || Array.isArray(rep) || rep.report !== 1 || !Array.isArray(rep.steps) || !Array.isArray(rep.writes)) { fail('stdout is not a report'); return problems; }
  if (rep.exit !== run.code) fail(`report exit ${rep.exit} ≠ process exit ${run.code}`);
  let calls;
  try { calls = parseTrace(run.stderr); } catch (e) { fail(e.message); return problems; }
  const snap = fx.snapshot;
  const cmd = snap.command?.name;
  const dry = rep.dry_run === true;
  const head = snap.command?.findings?.head ?? (snap.pulls ?? []).find((x) => x.number === snap.command?.pr)?.head?.sha;

  // The report (§9, §2).
  rep.steps.forEach((st, i) => {
    const at = `steps[${i}]`;
    if (!(st.step in P_OUTCOMES)) { fail(`${at}.step ${st.step}`); return; }
    if (P_OUTCOMES[st.step] && !P_OUTCOMES[st.step].includes(st.outcome)) fail(`${at}.outcome ${st.outcome}`);
    if (st.outcome === 'error' && run.code !== 2 && run.code !== 3) fail(`${at}: outcome error but exit ${run.code} (§2)`);
    if (['refused', 'superseded', 'partial'].includes(st.outcome) && SEVERITY[run.code] < 1) fail(`${at}: outcome ${st.outcome} but exit ${run.code} (§2)`);
    // B4: the outcome agrees with the exit.
    if (st.step === 'publish' && (run.code === 2 || run.code === 3) && st.outcome !== 'error') fail(`${at}: exit ${run.code} but outcome ${st.outcome} (B4: error)`);
    if (st.step === 'publish' && run.code === 1 && !['refused', 'superseded', 'partial'].includes(st.outcome)) fail(`${at}: exit 1 but outcome ${st.outcome} (B4)`);
    if (st.step === 'publish' && run.code === 0 && !['published', 'unchanged', 'noop', 'skipped'].includes(st.outcome)) fail(`${at}: exit 0 but outcome ${st.outcome} (B4)`);
    if (st.status !== undefined && st.status !== null && rank(st.status) === null) fail(`${at}.status ${st.status}`);
  });
  rep.writes.forEach((w, i) => {
    const at = `writes[${i}]`;
    switch (w.kind) {
      case 'comment_create': case 'comment_update':
        // P30: a planned create (dry run) has comment_id null.
        if (!Number.isSafeInteger(w.pr) || !(Number.isSafeInteger(w.comment_id) || (dry && w.kind === 'comment_create' && w.comment_id === null)) || !/^[0-9a-f]{64}$/.test(w.body_sha256 ?? '')) fail(`${at} ${JSON.stringify(w)}`);
        break;
      case 'comment_delete': if (!Number.isSafeInteger(w.pr) || !Number.isSafeInteger(w.comment_id)) fail(`${at} ${JSON.stringify(w)}`); break;
      case 'review': if (!Number.isSafeInteger(w.pr) || w.event !== 'COMMENT' || !Array.isArray(w.findings)) fail(`${at} ${JSON.stringify(w)} (U6: COMMENT reviews only)`); break;
      case 'status': {
        // §5.5: context review_context; success for PASSED / PASSED WITH
        // NOTES, failure for the other tiers; pending = `publishing`.
        const t = statusTier(w);
        if (w.context !== reviewContext(snap)) fail(`${at}: status context ${w.context}`);
        if (w.sha !== head) fail(`${at}: status on ${String(w.sha).slice(0, 7)}, not the head`);
        if (w.state === 'pending') { if (w.description !== 'publishing') fail(`${at}: pending status '${w.description}'`); }
        else if (rank(t) === null) fail(`${at}: status description '${w.description}' names no tier`);
        else if ((w.state === 'success') !== (rank(t) >= TIER_RANK.PASSED_WITH_NOTES) || !['success', 'failure'].includes(w.state)) fail(`${at}: status ${w.state} for ${t} (§5.5)`);
        break;
      }
      default: fail(`${at}.kind ${w.kind}`);
    }
  });
  if (cmd === 'review-local' && calls.length) fail(`review-local made ${calls.length} call(s) (§7.5: no network)`);
  const writeCalls = calls.filter((x) => x.op === 'write');
  if (cmd === 'review-plan' && (writeCalls.length || rep.writes.length)) fail('review-plan wrote (§6)');
  if (!rep.steps.length && run.code === 2 && calls.length) fail(`exit 2 with the stub report after ${calls.length} call(s) (I1: before any read)`);
  if (dry && writeCalls.length) fail(`dry run made ${writeCalls.length} write call(s) (§7.4)`);

  const ans = answers(snap, calls, fault?.inject ?? null);
  // U5/T4: no write before GET /user answered.
  for (const w of writeCalls) {
    if (!calls.some((x) => x.n < w.n && x.op === 'read' && x.kind === 'user' && !ans.has(x.n))) { fail(`write call ${w.n} (${w.kind}) before GET /user succeeded (U5, T4)`); break; }
  }
  if (!dry) publishListing(calls, ans, rep.writes).problems.forEach(fail);

  // Order (§7.2 W6): the final status is written after the last sticky write.
  const lastFinal = rep.writes.findLastIndex((w) => w.kind === 'status' && w.state !== 'pending');
  const lastSticky = rep.writes.findLastIndex((w) => w.kind === 'comment_create' || w.kind === 'comment_update');
  if (!dry && lastFinal >= 0 && lastSticky > lastFinal) fail(`a sticky write (writes[${lastSticky}]) after the final status (writes[${lastFinal}]): the status does not describe the last sticky (§7.2 W6)`);
  // A thread that failed to post (any review call that failed, but the
  // batch's 422 that falls back per finding) forbids a success after it.
  const firstReview = writeCalls.find((x) => x.kind === 'review');
  const threadFailed = writeCalls.find((x) => x.kind === 'review' && ['fail', 'notfound', 'rejected'].includes(ans.get(x.n)) && !(x === firstReview && ans.get(x.n) === 'rejected'));
  if (threadFailed && !dry) {
    const ok = writeCalls.filter((x) => x.kind === 'status' && x.n > threadFailed.n && !ans.has(x.n));
    const { listed } = publishListing(calls, ans, rep.writes);
    for (const x of ok) if (listed.has(x.n) && rep.writes[listed.get(x.n)].state === 'success') fail(`a success status (call ${x.n}) after the review of call ${threadFailed.n} failed (L1007)`);
  }

  // B1, U6: a PATCH or DELETE reaches only a sticky of review_login (as the
  // PR had it before the run) or one the run created; every other comment
  // the PR had is left as it was.
  const pr0 = (snap.pulls ?? []).find((x) => x.number === snap.command?.pr);
  const before = new Map((pr0?.comments ?? []).map((x) => [x.id, x]));
  const created = new Set(rep.writes.filter((w) => w.kind === 'comment_create').map((w) => w.comment_id));
  for (const w of rep.writes) {
    if (w.kind !== 'comment_update' && w.kind !== 'comment_delete') continue;
    const c0 = before.get(w.comment_id);
    if (created.has(w.comment_id) && !c0) continue;
    if (!c0 || lower(c0.author) !== lower(reviewLogin(snap)) || !isSticky(c0.body)) fail(`${w.kind} of comment ${w.comment_id}, which is not a sticky of ${reviewLogin(snap)} (B1, U6)`);
  }
  if (run.state) {
    const after = new Map(((run.state.pulls ?? []).find((x) => x.number === snap.command?.pr)?.comments ?? []).map((x) => [x.id, x]));
    for (const [id, c0] of before) {
      if (lower(c0.author) === lower(reviewLogin(snap)) && isSticky(c0.body)) continue;
      const c1 = after.get(id);
      if (!c1) fail(`comment ${id} (not a sticky of ${reviewLogin(snap)}) was deleted (B1, U6)`);
      else if (c1.body !== c0.body) fail(`comment ${id} (not a sticky of ${reviewLogin(snap)}) was edited (B1, U6)`);
    }
  }

  // The state after the run (AGENTIC_REPLAY_STATE).
  const cl = run.state ? claims(snap, run.state) : null;
  const lostInPlay = [...ans.values()].includes('lost');
  if (cl && !dry) {
    // §9: body_sha256 is the hash of the body written: the last write of a
    // comment that still exists holds that body.
    const lastBody = new Map();
    for (const w of rep.writes) if (w.kind === 'comment_create' || w.kind === 'comment_update') lastBody.set(w.comment_id, w.body_sha256);
    for (const [id, h] of lastBody) {
      const c = cl.comments.find((x) => x.id === id);
      if (c && sha256(c.body) !== h && !lostInPlay) fail(`comment ${id}: body_sha256 ${h.slice(0, 12)}… is not the body it holds after the run (§9)`);
    }
    // §5.5: a status's target_url is the sticky's html_url.
    if (cl.status && !cl.canonical) fail(`the run wrote a pr-review status ('${cl.status.description}'), yet no sticky is left on the PR`);
    else if (cl.status && cl.status.target_url !== cl.canonical.html_url) fail(`the newest pr-review status the run wrote points to ${cl.status.target_url}, the sticky is ${cl.canonical.html_url} (§5.5)`);
    // W6 / W3: the newest status the run wrote is the last sticky's.
    const st = statusTier(cl.status);
    if (st && cl.canonical && st !== cl.canonical.tier && !lostInPlay) fail(`the newest pr-review status the run wrote says ${st}, the sticky ${cl.canonical.tier} (§7.2 W6)`);
  }
  // A B1-B3 variant (what happens to a PR between plan and publish) is held
  // to the findings of the fixture it varies: never a better tier, never a
  // finding id fewer, fault-free or not.
  if (fx.variantOf?.base?.report && cl && !dry) {
    const o = fx.variantOf.base;
    const better = (t) => t && o.tier && rank(t) !== null && rank(t) > rank(o.tier);
    if (cl.sticky && better(cl.sticky.tier)) fail(`variant ${fx.variant}: the last sticky written claims ${cl.sticky.tier}, better than the fixture's ${o.tier} (L1007)`);
    if (better(statusTier(cl.status))) fail(`variant ${fx.variant}: the newest status written claims ${statusTier(cl.status)}, better than the fixture's ${o.tier} (L1007)`);
    if (cl.sticky && o.ids?.size) {
      const lost = [...o.ids].filter((id) => !cl.sticky.ids.has(id));
      if (lost.length) fail(`variant ${fx.variant}: the last sticky written lacks finding(s) ${lost.join(', ')} of the fixture's (L1007, B2)`);
    }
  }
  if (!fault) return problems;

  // A call the snapshot's own faults already answer: nothing changes.
  if (fault.already) {
    if (run.stdout !== base.stdout) fail('a call the fixture already fails, failed again, changed the report');
    return problems;
  }
  const c = fault.call;
  const role = fx.roles.get(c.n) ?? null;
  const kind = fault.kind;
  const later = calls.filter((x) => x.n > c.n);
  const laterWrites = later.filter((x) => x.op === 'write');
  const step = rep.steps.find((x) => x.step === 'publish' || x.step === 'plan');

  // Nothing written when the fault-free run writes nothing (§7.1, §7.3:
  // a failure only ever stops or degrades a publish).
  if (!base.calls.some((x) => x.op === 'write') && writeCalls.length) fail(`${writeCalls.length} write call(s); the fault-free run writes nothing`);

  // L1007: no claim better than the fault-free run's final tier; no finding removed.
  const bt = base.tier;
  const claim = (what, t) => {
    if (t === null || t === undefined) return;
    if (bt === null) { if (what !== 'the report') fail(`${what} claims ${t}; the fault-free run reaches no tier (L1007)`); }
    else if (rank(t) === null) fail(`${what} claims '${t}', no tier`);
    else if (rank(t) > rank(bt)) fail(`${what} claims ${t}, better than the fault-free ${bt} (L1007)`);
  };
  if (cl) {
    if (cl.sticky) {
      claim('the last sticky written', cl.sticky.tier);
      const lost = [...base.ids].filter((id) => !cl.sticky.ids.has(id));
      if (lost.length) fail(`the last sticky written lacks finding(s) ${lost.join(', ')} of the fault-free sticky (L1007)`);
    }
    // Whatever the run wrote, the sticky the PR shows afterwards keeps every finding.
    if ((rep.writes.length || cl.sticky || cl.status) && base.ids.size) {
      const lost = [...base.ids].filter((id) => !cl.canonical?.ids.has(id));
      if (!cl.canonical) fail(`the run wrote, and no sticky is left on the PR: finding(s) ${lost.join(', ')} removed (L1007)`);
      else if (lost.length) fail(`the sticky left on the PR (${cl.canonical.id}) lacks finding(s) ${lost.join(', ')} of the fault-free sticky (L1007)`);
    }
    claim('the newest pr-review status written', statusTier(cl.status));
  } else {
    const st = rep.writes.findLast((w) => w.kind === 'status');
    claim('the newest pr-review status written', statusTier(st));
    if (rep.writes.some((w) => w.kind === 'comment_create' || w.kind === 'comment_update') && step?.findings && base.report.steps[0]?.findings) {
      const ids = new Set(step.findings.map((f) => f.id));
      const lost = base.report.steps[0].findings.map((f) => f.id).filter((id) => !ids.has(id));
      if (lost.length) fail(`a sticky was written, yet the report lacks finding(s) ${lost.join(', ')} of the fault-free run (L1007)`);
    }
  }
  if (!dry && rep.writes.length) claim('the report', step?.status);

  if (kind === 'lost') {
    // §7.2: a lost answer is re-read; its effect shows, so it is done.
    if (run.code !== base.code) fail(`${role} applied but its answer lost: exit ${run.code}, fault-free ${base.code} (§7.2: done when its effect shows)`);
    if (cl && base.claims) {
      if (cl.nStickies !== base.claims.nStickies) fail(`${cl.nStickies} sticky comment(s) after a lost ${role}, ${base.claims.nStickies} without (§7.2)`);
      if (cl.canonical?.tier !== base.claims.canonical?.tier) fail(`sticky ${cl.canonical?.tier} after a lost ${role}, ${base.claims.canonical?.tier} without (§7.2)`);
      if ((cl.status?.description ?? null) !== (base.claims.status?.description ?? null)) fail(`status '${cl.status?.description}' after a lost ${role}, '${base.claims.status?.description}' without (§7.2)`);
    }
    return problems;
  }
  if (kind === 422 && c.kind === 'review' && role === 'W4') {
    // X12: a batch refused with 422 falls back to one review per attempt.
    if (run.code !== base.code) fail(`batch review refused (422): exit ${run.code}, fault-free ${base.code} (§7.2 W4, X12)`);
    if (cl && base.claims && cl.canonical?.tier !== base.claims.canonical?.tier) fail(`batch review refused (422): sticky ${cl.canonical?.tier}, fault-free ${base.claims.canonical?.tier} (X12)`);
    return problems;
  }

  const exit23 = (why) => { if (run.code !== 3 && run.code !== 2) fail(`${why}: exit ${run.code}, expected 3 (§2, §7)`); };
  if (c.op === 'read') {
    // P40: the token's login read with the PR (the viewer) failed, and
    // the identity was read again on its own (GET /user) before any
    // write: that read decides U5, and this one is a read that failed
    // and was made again (the run is the fault-free one's).
    // A run that writes nothing without the fault needs no login at all.
    const userAgain = c.kind === 'user' && calls.some((x) => x.n > c.n && x.op === 'read' && x.kind === 'user' && !ans.has(x.n));
    const userUnneeded = c.kind === 'user' && !base.calls.some((x) => x.op === 'write') && !writeCalls.length;
    if (userAgain || userUnneeded) {
      if (run.code !== base.code) fail(`the login read with the PR failed (${userAgain ? 'and was read again' : 'and no write needed it'}): exit ${run.code}, fault-free ${base.code}`);
      return problems;
    }
    if (c.kind === 'user') {
      // U5: unreadable → 3, nothing written.
      if (laterWrites.length) fail('GET /user failed, yet a write call was made (U5, T4)');
      if (run.code !== 3) fail(`GET /user failed: exit ${run.code}, expected 3 (U5)`);
      if (step && step.outcome !== 'error') fail(`GET /user failed: outcome ${step.outcome}, expected error`);
      return problems;
    }
    if (cmd === 'review-plan') {
      // P37: the PR's commits read with the PR (not compare's own check,
      // which follows a compare call) only spare a compare: unreadable,
      // the compare decides, and the plan is the fault-free one.
      const prev = calls[c.n - 2];
      if (c.kind === 'commits' && !(prev && prev.op === 'read' && prev.kind === 'compare')) {
        const planOf = (r) => JSON.stringify((r?.steps ?? []).map((x) => [x.outcome, x.plan?.mode, x.plan?.next_id, x.plan?.prior_sha_unreachable]));
        if (run.code !== base.code || planOf(rep) !== planOf(base.report)) fail(`the PR's commits unreadable: the plan differs from the fault-free one (P37: the compare decides)`);
        return problems;
      }
      if ((c.kind === 'compare' || c.kind === 'commits') && kind === 404) return problems; // H3: 404 → full
      // P25 (docs/spec-notes.md): the merge base unreadable leaves
      // merge_base and mr_range null, and the plan is still exit 0.
      const mergeBaseLost = (c.kind === 'compare' || c.kind === 'commits') && run.code === 0 && step?.outcome === 'planned' && step.plan?.merge_base === null && step.plan?.mr_range === null;
      if (!mergeBaseLost) exit23(`plan read ${c.kind} failed`);
      if (c.kind === 'review_comments' && step?.outcome === 'planned' && step.plan && step.plan.replies !== null) fail('review comments unreadable, yet replies are not null (H4)');
      return problems;
    }
    const firstPull = calls.find((x) => x.op === 'read' && x.kind === 'pull');
    if (kind === 404 && c.kind === 'pull' && firstPull?.n === c.n) {
      if (run.code !== 2) fail(`pull 404: exit ${run.code}, expected 2 (§7.1 step 2)`);
    } else exit23(`read ${c.kind} failed`);
    const firstWrite = base.calls.find((x) => x.op === 'write');
    if (!firstWrite || c.n < firstWrite.n) {
      // §7.1 step 2 (and G before W1): a failed read before the first write stops the run.
      if (writeCalls.length) fail(`read ${c.kind} failed before the first write, yet ${writeCalls.length} write call(s) were made (§7.1)`);
      if (step && step.outcome !== 'error') fail(`read ${c.kind} failed before any write: outcome ${step.outcome}, expected error`);
    }
    return problems;
  }

  // A write that failed (502, 404, 422).
  if (!(c.kind === 'comment_delete' && kind === 404)) {
    if (kind === 422) { if (![1, 2, 3].includes(run.code)) fail(`${role} refused (422): exit ${run.code}`); }
    else exit23(`${role} failed`);
  }
  const baseLater = base.calls.filter((x) => x.n > c.n && x.op === 'write');
  const baseFinalAfter = baseLater.some((x) => fx.roles.get(x.n) === 'final');
  switch (role) {
    case 'W1':
      if (laterWrites.length) fail(`W1 failed, yet ${laterWrites.length} write call(s) followed (§7.2: stop)`);
      break;
    case 'W2': case 'W3p':
      if (baseFinalAfter && !laterWrites.some((x) => x.kind === 'status')) fail(`${role} failed and the run did not continue to the final status (§7.2: continue)`);
      break;
    case 'W4': case 'W4f':
      if (cl?.sticky && cl.sticky.tier !== 'PARTIAL') fail(`a review failed, yet the last sticky written says ${cl.sticky.tier}, not PARTIAL (§7.2 W4, M7)`);
      if (cl && statusTier(cl.status) && statusTier(cl.status) !== 'PARTIAL') fail(`a review failed, yet the newest status written says ${statusTier(cl.status)} (§7.2 W4, W6)`);
      break;
    case 'W5': {
      // W6 then writes S's PARTIAL status (unless the fixture fails it too).
      const w6 = laterWrites.find((x) => x.kind === 'status');
      if (baseFinalAfter && !w6) fail('W5 failed and no status followed (§7.2 W5: W6 writes S\'s PARTIAL status)');
      else if (w6 && !ans.has(w6.n) && cl && statusTier(cl.status) !== 'PARTIAL') fail(`W5 failed: the newest status written is '${cl.status?.description ?? 'none'}', expected S's PARTIAL (§7.2 W5)`);
      break;
    }
    case 'final':
      if (!laterWrites.some((x) => x.kind === 'comment')) fail('the final status failed and no PATCH of the sticky (PARTIAL with status_unwritten) followed (§7.2)');
      if (cl?.sticky && cl.sticky.tier !== 'PARTIAL') fail(`the final status failed, yet the last sticky written says ${cl.sticky.tier} (§7.2)`);
      break;
    default:
  }
  return problems;
}

// --- main --------------------------------------------------------------------

async function pool(items, jobs, fn) {
  let next = 0;
  let done = 0;
  const started = Date.now();
  const tick = setInterval(() => {
    process.stderr.write(`torture: ${done}/${items.length} runs, ${Math.round((Date.now() - started) / 1000)} s\n`);
  }, 30000);
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
        done++;
      }
    }));
  } finally {
    clearInterval(tick);
  }
}

function loadFixtures(only) {
  const dir = (d, prefix, family) => readdirSync(d)
    .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
    .filter((f) => !only.length || only.some((o) => f.startsWith(o) || (prefix + f).startsWith(o)))
    .sort()
    .map((f) => {
      const file = path.join(d, f);
      const expectFile = file.replace(/\.json$/, '.expect.json');
      const expect = existsSync(expectFile) ? JSON.parse(readFileSync(expectFile, 'utf8')) : {};
      return { name: prefix + f.replace(/\.json$/, ''), family, file, text: readFileSync(file, 'utf8'), snapshot: JSON.parse(readFileSync(file, 'utf8')), args: expect.args ?? [] };
    });
  return [...dir(FIXTURES, '', 'gate'), ...(existsSync(PUBLISH_FIXTURES) ? dir(PUBLISH_FIXTURES, 'publish/', 'publish') : [])];
}

/*
 * What can happen to a PR between review-plan and publish, and the
 * comments the machine account posts beside its sticky (PUBLISH B1-B3):
 * each publishing fixture is run again varied so, its checks the same plus
 * the fixture's own findings as the bound (checkPublish: variantOf).
 *   quote    the conductor's check comment (review_login, newest) quotes a
 *            sticky's markers, the sticky marker as its first line (B1)
 *   yes      the judge's needs-human `yes` (review_login) the same way (B1)
 *   edited   the canonical sticky edited by another login (U2, B2)
 *   deleted  the canonical sticky deleted (B2)
 *   retarget the PR's base branch changed (B3)
 */
const VARIANTS = ['quote', 'yes', 'edited', 'deleted', 'retarget'];

function variantOf(fx, kind) {
  const snap = structuredClone(fx.snapshot);
  const cmd = snap.command;
  if (!cmd || (cmd.name !== 'publish' && cmd.name !== 'review-plan')) return null;
  const pull = (snap.pulls ?? []).find((x) => x.number === cmd.pr);
  if (!pull) return null;
  pull.comments ??= [];
  const login = reviewLogin(snap);
  const stickies = pull.comments.filter((c) => lower(c.author) === lower(login) && isSticky(c.body)).sort((a, b) => a.id - b.id);
  const canonical = stickies.at(-1);
  const nextId = Math.max(0, ...pull.comments.map((c) => c.id)) + 1;
  const at = '2026-11-29T11:30:00Z';
  const head = pull.head?.sha ?? '';
  const quoted = ['<!-- pr-review:sticky -->', `<!-- pr-review:sha=${head} -->`, '<!-- pr-review:status=PASSED -->'];
  switch (kind) {
    case 'quote':
      pull.comments.push({ id: nextId, author: login, created_at: at, updated_at: at, edited_by: null, edited_at: null,
        html_url: `https://github.com/${snap.repository}/pull/${cmd.pr}#issuecomment-${nextId}`,
        body: [...quoted, '### Agentic review check — ✅ clean', '', '> <!-- pr-review:sticky -->', '', '<details>', '',
          '<!-- agentic:check v1 -->', `head: ${head}`, 'round: 1', 'clean: true', 'threads:', '', '</details>'].join('\n') });
      break;
    case 'yes':
      pull.comments.push({ id: nextId, author: login, created_at: at, updated_at: at, edited_by: null, edited_at: null,
        html_url: `https://github.com/${snap.repository}/pull/${cmd.pr}#issuecomment-${nextId}`,
        body: [...quoted, '<!-- agentic:needs-human v1 -->', '<!-- needs-human: yes -->', `<!-- head: ${head} -->`,
          `<!-- base: ${pull.base?.ref ?? 'main'} -->`, '### Needs a human before merge'].join('\n') });
      break;
    case 'edited':
      if (!canonical) return null;
      canonical.edited_by = 'mallory';
      canonical.edited_at = at;
      canonical.edits = [...(canonical.edits ?? []), { editor: 'mallory', edited_at: at }];
      break;
    case 'deleted':
      if (!canonical) return null;
      pull.comments = pull.comments.filter((c) => c !== canonical);
      break;
    case 'retarget':
      pull.base = { ...(pull.base ?? {}), ref: 'release' };
      break;
    default:
      return null;
  }
  return snap;
}

/** A run with its final snapshot (AGENTIC_REPLAY_STATE), null when the build does not print it. */
async function replay(bin, args, env, stateFile) {
  rmSync(stateFile, { force: true });
  const run = await exec(bin, ['replay', '--quiet', ...args], { ...env, AGENTIC_REPLAY_STATE: stateFile });
  run.state = null;
  if (existsSync(stateFile)) {
    try { run.state = JSON.parse(readFileSync(stateFile, 'utf8')); } catch { run.state = null; }
    rmSync(stateFile, { force: true });
  }
  return run;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const sanUsed = o.sanKinds.size > 0 || o.publishSanKinds.size > 0 || o.sanShare > 0;
  const seed = o.sanShare ? (typeof o.sanSeed === 'number' ? { n: o.sanSeed, from: '--san-seed' } : o.sanSeed) : null;
  if (seed) console.log(`torture: sanitizer share 1/${o.sanShare}: the faulted runs whose cell hashes to ${seed.n % o.sanShare} mod ${o.sanShare} (seed ${seed.n}, from ${seed.from}; --san-seed ${seed.n} repeats it)`);
  const inShare = (fx, n, kind) => seed !== null && cellHash(fx.name, n, kind) % o.sanShare === seed.n % o.sanShare;
  for (const b of [o.bin, ...(sanUsed ? [o.san] : [])]) if (!existsSync(b)) throw new Error(`${b} is not built (tests/torture/run.sh builds it)`);
  const started = Date.now();
  const work = mkdtempSync(path.join(os.tmpdir(), 'aa-torture-'));
  const fixtures = loadFixtures(o.only);
  // The B1-B3 variants of the publishing fixtures (after them: a variant is
  // checked against its fixture's fault-free run).
  if (o.variants) {
    for (const fx of fixtures.filter((x) => x.family === 'publish')) {
      for (const kind of VARIANTS) {
        const snap = variantOf(fx, kind);
        if (!snap) continue;
        const file = path.join(work, `variant-${fixtures.length}.json`);
        writeFileSync(file, JSON.stringify(snap));
        fixtures.push({ name: `${fx.name}~${kind}`, family: 'publish', file, text: JSON.stringify(snap), snapshot: snap, args: fx.args, variantOf: fx, variant: kind });
      }
    }
  }
  const failures = [];
  let passed = 0;
  const bySan = { plain: 0, san: 0 };
  const byFamily = { gate: { fixtures: 0, runs: 0 }, publish: { fixtures: 0, runs: 0 } };
  let stateSeen = false;
  const sanKindsOf = (fx) => (fx.family === 'publish' ? (fx.variantOf ? new Set() : o.publishSanKinds) : o.sanKinds);
  try {
    // 1. Fault-free traced replays (the sanitizer build when it is used;
    // the B1-B3 variants on the plain one): the fixtures, then their
    // variants (checked against them).
    const firstPass = async (fx, i) => {
      const san = sanUsed && !fx.variantOf;
      const run = await replay(san ? o.san : o.bin, [...fx.args, fx.file], san ? SAN_ENV : {}, path.join(work, `base-${i}.state.json`));
      byFamily[fx.family].fixtures++;
      let report = null;
      let p;
      try {
        report = JSON.parse(run.stdout);
        fx.calls = parseTrace(run.stderr);
        if (fx.family === 'publish') {
          stateSeen ||= run.state !== null;
          const ans = answers(fx.snapshot, fx.calls, null);
          const { listed } = publishListing(fx.calls, ans, report.writes ?? []);
          fx.answers = ans;
          fx.roles = publishRoles(fx.calls, ans, listed, report.writes ?? []);
          p = checkPublish(fx, run, null, null);
        } else {
          fx.owners = attribute(fx.calls, report);
          p = check(fx, run, null, null);
        }
      } catch (e) {
        report = null;
        p = [`fault-free run unusable: ${e.message}`];
        if (run.code === 99 || /ERROR: (Address|Leak)Sanitizer|runtime error:/.test(run.stderr)) p.push(`sanitizer: ${(/(ERROR: \w+Sanitizer[^\n]*|[^\n]*runtime error:[^\n]*)/.exec(run.stderr) ?? ['exit 99'])[0]} ${(/#\d+ 0x[0-9a-f]+ in (\S+ \S+)/.exec(run.stderr) ?? ['', ''])[1]}`);
      }
      fx.base = { ...run, report, calls: fx.calls };
      if (report && fx.family === 'publish') {
        // What the merged findings justify: the final tier and findings of
        // the run without any fault (the fixture's own faults removed too;
        // a failed write of the fixture makes its run PARTIAL).
        let clean = { ...run, report };
        if (Array.isArray(fx.snapshot.faults) && fx.snapshot.faults.length) {
          const file = path.join(work, `clean-${i}.json`);
          writeFileSync(file, JSON.stringify({ ...fx.snapshot, faults: [] }));
          clean = await replay(o.bin, [...fx.args, file], {}, path.join(work, `clean-${i}.state.json`));
          rmSync(file, { force: true });
          try { clean.report = JSON.parse(clean.stdout); } catch { clean.report = null; }
        }
        const ccl = clean.state ? claims(fx.snapshot, clean.state) : null;
        const cstep = (clean.report?.steps ?? []).find((x) => x.step === 'publish');
        fx.base.claims = run.state ? claims(fx.snapshot, run.state) : null;
        fx.base.tier = ccl && clean.report?.dry_run !== true ? (ccl.canonical?.tier ?? null) : (cstep?.status ?? null);
        fx.base.ids = ccl?.canonical?.ids ?? new Set();
      }
      if (p.length) failures.push({ fixture: fx.name, fault: null, problems: p, stderr: run.stderr.slice(-600) });
      else passed++;
    };
    const originals = fixtures.filter((x) => !x.variantOf);
    await pool(originals, o.jobs, (fx) => firstPass(fx, fixtures.indexOf(fx)));
    await pool(fixtures.filter((x) => x.variantOf), o.jobs, (fx) => firstPass(fx, fixtures.indexOf(fx)));
    // 2. The matrix.
    const jobs = [];
    for (const fx of fixtures) {
      if (!fx.base.report) continue;
      if (fx.family !== 'publish') {
        for (let n = 1; n <= fx.calls.length; n++) for (const kind of o.kinds) jobs.push({ fx, n, kind, inject: { call: n, status: kind } });
        // Every write call also loses its answer after being made (N61):
        // the (skip+1)-th call of its kind and PR that reaches a fault
        // appended after the fixture's own.
        const ownLost = new Map();
        const ownFailed = failedCalls(fx.snapshot, fx.calls, ownLost);
        const own = new Set([...ownFailed, ...ownLost.keys()]);
        for (const c of fx.calls) {
          if (c.op !== 'write' || own.has(c.n)) continue;
          const skip = fx.calls.filter((x) => x.n < c.n && x.op === 'write' && x.kind === c.kind && x.pr === c.pr && !own.has(x.n)).length;
          jobs.push({ fx, n: c.n, kind: 'lost', inject: { write: c.kind, pr: c.pr, skip, times: 1, status: 502, mode: 'lost_response' } });
        }
        continue;
      }
      for (const c of fx.calls) {
        // A variant: every call fails once (502); the write kinds are its
        // fixture's to test.
        for (const kind of fx.variantOf ? [502] : PUBLISH_KINDS) jobs.push({ fx, n: c.n, kind, inject: { call: c.n, status: kind } });
        if (c.op !== 'write' || fx.answers.has(c.n) || fx.variantOf) continue;
        // The n-th call is the (skip+1)-th of its kind that reaches a fault
        // appended after the fixture's own.
        const skip = fx.calls.filter((x) => x.n < c.n && x.op === 'write' && x.kind === c.kind && x.pr === c.pr && !fx.answers.has(x.n)).length;
        for (const kind of PUBLISH_WRITE_KINDS) {
          jobs.push({ fx, n: c.n, kind, inject: kind === 'lost'
            ? { write: c.kind, pr: c.pr, skip, times: 1, status: 502, mode: 'lost_response' }
            : { write: c.kind, pr: c.pr, skip, times: 1, status: kind } });
        }
      }
    }
    await pool(jobs, o.jobs, async (j, i) => {
      const snap = structuredClone(j.fx.snapshot);
      snap.faults = [...(Array.isArray(snap.faults) ? snap.faults : []), j.inject];
      const file = path.join(work, `${i}.json`);
      writeFileSync(file, JSON.stringify(snap));
      const san = sanKindsOf(j.fx).has(String(j.kind)) || inShare(j.fx, j.n, j.kind);
      bySan[san ? 'san' : 'plain']++;
      byFamily[j.fx.family].runs++;
      let run;
      let p;
      const publish = j.fx.family === 'publish';
      const fault = { n: j.n, kind: j.kind, call: j.fx.calls[j.n - 1], owner: j.fx.owners?.[j.n - 1], inject: j.inject };
      if (publish) fault.already = j.fx.answers.has(j.n);
      try {
        run = await replay(san ? o.san : o.bin, [...j.fx.args, file], san ? SAN_ENV : {}, path.join(work, `${i}.state.json`));
        p = publish ? checkPublish(j.fx, run, fault, j.fx.base) : check(j.fx, run, fault, j.fx.base);
      } catch (e) {
        run = run ?? { code: null, stderr: '' };
        p = [`checker crashed: ${e.stack}`];
      } finally {
        rmSync(file, { force: true });
      }
      if (p.length) {
        const what = `${fault.call.op} ${fault.call.kind} pr=${fault.call.pr}`;
        failures.push({ fixture: j.fx.name, fault: { call: j.n, status: j.kind, what, owner: publish ? (j.fx.roles.get(j.n) ?? 'read') : fault.owner }, exit: run.code, problems: p, stderr: run.stderr.split('\n').filter((l) => !TRACE.test(l)).join('\n').slice(-800) });
      } else passed++;
    });
  } finally {
    stopShells();
    rmSync(work, { recursive: true, force: true });
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  failures.sort((a, b) => a.fixture.localeCompare(b.fixture) || (a.fault?.call ?? 0) - (b.fault?.call ?? 0));
  for (const f of failures.slice(0, o.maxFailures)) {
    const where = f.fault ? `call ${f.fault.call} (${f.fault.what}, ${JSON.stringify(f.fault.owner)}) status ${f.fault.status}` : 'fault-free';
    console.log(`FAIL ${f.fixture}: ${where} → exit ${f.exit ?? '?'}`);
    for (const p of f.problems) console.log(`    ${p}`);
  }
  if (failures.length > o.maxFailures) console.log(`… ${failures.length - o.maxFailures} more failures`);
  // One line per distinct problem, with a count: the shape of the failures.
  const kinds = new Map();
  for (const f of failures) for (const p of f.problems) {
    const k = p.replace(/#\d+/g, '#N').replace(/\b[0-9a-f]{7,40}\b/g, 'SHA').replace(/\d+/g, 'N');
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  if (kinds.size) {
    console.log('distinct problems:');
    for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)} × ${k}`);
  }
  if (o.json) writeFileSync(o.json, JSON.stringify(failures, null, 1));
  if (byFamily.publish.fixtures && !stateSeen) console.log('torture: this build does not print the final snapshot (AGENTIC_REPLAY_STATE): the publish sticky checks ran on the report only');
  const nVariants = fixtures.filter((x) => x.variantOf).length;
  console.log(`torture: ${fixtures.length} fixtures (${byFamily.gate.fixtures} gate, ${byFamily.publish.fixtures - nVariants} publish, ${nVariants} B1-B3 variants of them), ${passed + failures.length} runs (${bySan.san} sanitizer, ${bySan.plain} plain, plus ${fixtures.length} fault-free${sanUsed ? ' (the fixtures with the sanitizer build)' : ''}; gate kinds ${o.kinds.join(',')}; publish ${byFamily.publish.runs}) in ${secs} s`);
  console.log(`${passed} passed, ${failures.length} failed`);
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((e) => { console.error(e.stack ?? String(e)); process.exitCode = 2; });
