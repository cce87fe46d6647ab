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
//     --san-kinds LIST  fault kinds run with the sanitizer build (default 502,404,timeout)
//     --no-san          run everything with the plain build
//     --jobs N          parallel runs (default: number of CPUs)
//     --max-failures N  failures printed in full (default 60)
//     --json FILE       write every failure as JSON to FILE
//
// Prints "N passed, N failed" and exits 1 when a run failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'fixtures');
const KINDS = [502, 404, 'timeout'];
const SAN_ENV = {
  ASAN_OPTIONS: 'detect_leaks=1:exitcode=99:abort_on_error=0',
  UBSAN_OPTIONS: 'halt_on_error=1:exitcode=99:print_stacktrace=1',
};

// --- options -------------------------------------------------------------

function parseArgs(argv) {
  const o = {
    bin: path.join(ROOT, 'build/agentic-apply'),
    san: path.join(ROOT, 'build/san/agentic-apply'),
    sanKinds: new Set(KINDS.map(String)),
    jobs: Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
    maxFailures: 60,
    json: null,
    only: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--bin') o.bin = path.resolve(argv[++i]);
    else if (a === '--san') o.san = path.resolve(argv[++i]);
    else if (a === '--san-kinds') o.sanKinds = new Set(argv[++i].split(',').filter(Boolean));
    else if (a === '--no-san') o.sanKinds = new Set();
    else if (a === '--jobs') o.jobs = Math.max(1, Number(argv[++i]));
    else if (a === '--max-failures') o.maxFailures = Number(argv[++i]);
    else if (a === '--json') o.json = path.resolve(argv[++i]);
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.only.push(a);
  }
  return o;
}

// --- running the program -------------------------------------------------

function exec(bin, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', AGENTIC_STATS: 'trace', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
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
function failedCalls(snapshot, calls) {
  const faults = Array.isArray(snapshot.faults) ? snapshot.faults : [];
  const used = faults.map(() => 0);
  const out = new Set();
  for (const c of calls) {
    for (let i = 0; i < faults.length; i++) {
      const f = faults[i];
      if (f.call !== undefined && f.call !== null && f.read === undefined && f.write === undefined) {
        if (f.call === c.n) { out.add(c.n); break; }
        continue;
      }
      if ((c.op === 'read' ? f.read : f.write) !== c.kind) continue;
      if (f.pr && f.pr !== c.pr) continue;
      if (f.sha && f.sha !== c.sha) continue;
      if (f.times && used[i] >= f.times) continue;
      used[i]++;
      out.add(c.n);
      break;
    }
  }
  return out;
}

// --- the checks ------------------------------------------------------------

const WRITE_KINDS = { label: ['label', 'create_label'], status: ['status'], approve: ['approve'], dismiss: ['dismiss'] };

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

  // N17: the writes listed are exactly the write calls that succeeded, in order.
  const failed = failedCalls(snapshot, calls);
  const okWrites = calls.filter((c) => c.op === 'write' && !failed.has(c.n) && !(fault && c.n === fault.n));
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
  if (failedCalls(snapshot, base.calls).has(fault.n)) {
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
  return readdirSync(FIXTURES)
    .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
    .filter((f) => !only.length || only.some((o) => f.startsWith(o)))
    .sort()
    .map((f) => {
      const file = path.join(FIXTURES, f);
      const expectFile = file.replace(/\.json$/, '.expect.json');
      const expect = existsSync(expectFile) ? JSON.parse(readFileSync(expectFile, 'utf8')) : {};
      return { name: f.replace(/\.json$/, ''), file, text: readFileSync(file, 'utf8'), snapshot: JSON.parse(readFileSync(file, 'utf8')), args: expect.args ?? [] };
    });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  for (const b of [o.bin, ...(o.sanKinds.size ? [o.san] : [])]) if (!existsSync(b)) throw new Error(`${b} is not built (tests/torture/run.sh builds it)`);
  const started = Date.now();
  const work = mkdtempSync(path.join(os.tmpdir(), 'aa-torture-'));
  const fixtures = loadFixtures(o.only);
  const failures = [];
  let passed = 0;
  const bySan = { plain: 0, san: 0 };
  try {
    // 1. Fault-free traced replays (sanitizer build when any kind uses it).
    const baseBin = o.sanKinds.size ? o.san : o.bin;
    await pool(fixtures, o.jobs, async (fx) => {
      const run = await exec(baseBin, ['replay', '--quiet', ...fx.args, fx.file], o.sanKinds.size ? SAN_ENV : {});
      let report = null;
      let p;
      try {
        report = JSON.parse(run.stdout);
        fx.calls = parseTrace(run.stderr);
        fx.owners = attribute(fx.calls, report);
        p = check(fx, run, null, null);
      } catch (e) {
        report = null;
        p = [`fault-free run unusable: ${e.message}`];
      }
      fx.base = { ...run, report, calls: fx.calls };
      if (p.length) failures.push({ fixture: fx.name, fault: null, problems: p, stderr: run.stderr.slice(-600) });
      else passed++;
    });
    // 2. The matrix.
    const jobs = [];
    for (const fx of fixtures) {
      if (!fx.base.report) continue;
      for (let n = 1; n <= fx.calls.length; n++) for (const kind of KINDS) jobs.push({ fx, n, kind });
    }
    await pool(jobs, o.jobs, async (j, i) => {
      const snap = structuredClone(j.fx.snapshot);
      snap.faults = [...(Array.isArray(snap.faults) ? snap.faults : []), { call: j.n, status: j.kind }];
      const file = path.join(work, `${i}.json`);
      writeFileSync(file, JSON.stringify(snap));
      const san = o.sanKinds.has(String(j.kind));
      bySan[san ? 'san' : 'plain']++;
      let run;
      let p;
      const fault = { n: j.n, kind: j.kind, call: j.fx.calls[j.n - 1], owner: j.fx.owners[j.n - 1] };
      try {
        run = await exec(san ? o.san : o.bin, ['replay', '--quiet', ...j.fx.args, file], san ? SAN_ENV : {});
        p = check(j.fx, run, fault, j.fx.base);
      } catch (e) {
        run = run ?? { code: null, stderr: '' };
        p = [`checker crashed: ${e.stack}`];
      } finally {
        rmSync(file, { force: true });
      }
      if (p.length) {
        failures.push({ fixture: j.fx.name, fault: { call: j.n, status: j.kind, what: `${fault.call.op} ${fault.call.kind} pr=${fault.call.pr}`, owner: fault.owner }, exit: run.code, problems: p, stderr: run.stderr.split('\n').filter((l) => !TRACE.test(l)).join('\n').slice(-800) });
      } else passed++;
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
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
  console.log(`torture: ${fixtures.length} fixtures, ${passed + failures.length} runs (${bySan.san} sanitizer, ${bySan.plain} plain, plus ${fixtures.length} fault-free) in ${secs} s`);
  console.log(`${passed} passed, ${failures.length} failed`);
  process.exitCode = failures.length ? 1 : 0;
}

main().catch((e) => { console.error(e.stack ?? String(e)); process.exitCode = 2; });
