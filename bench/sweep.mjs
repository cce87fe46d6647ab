// make bench, sweep part: this program's sweep against fakehub with injected
// latency on generated repositories of 50 and 500 open PRs — cold, then
// warm with nothing changed, then warm after 10% of the PRs changed (at
// random over every class of PR, every kind of change: bench/lib.mjs
// touch) — next to the naive reader, in the same run. Adds its figures to
// build/bench.json (bench/report.mjs renders BENCHMARKS.md from it).
//   node bench/sweep.mjs [--bin PATH] [--latency-ms 100] [--sizes 50,500] [--seed 13]
import { readFileSync, writeFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { repository, touch, startFakehub, runProgram, stats, costOf, writeJson, programPath, pinProgram, T } from './lib.mjs';
import { naiveSweep, NAIVE_MODEL } from './naive.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const latency = Number(arg('--latency-ms', 100));
const sizes = arg('--sizes', '50,500').split(',').map(Number);
const seed = Number(arg('--seed', 13));
const naiveConcurrency = Number(arg('--naive-concurrency', 8));
const out = arg('--out', 'build/bench.json');
const work = mkdtempSync(path.join(tmpdir(), 'agentic-bench-'));
const bin = pinProgram(programPath(), work);

async function sweepOnce(hub, state) {
  await hub.clearLog();
  const r = runProgram(bin, ['sweep', '--json', '--quiet', '--state', state], hub, { GITHUB_EVENT_NAME: undefined, GITHUB_EVENT_PATH: undefined });
  const log = await hub.log();
  if (r.code !== 0) throw new Error(`sweep exited ${r.code}: ${r.stderr.slice(-500)}`);
  const report = JSON.parse(r.stdout);
  const c = costOf(log);
  return {
    ms: r.ms,
    requests: c.requests,
    reads: c.reads,
    writes: c.writes,
    rest: c.rest,
    graphql: c.graphql,
    graphqlPoints: c.points,
    approved: report.steps.filter((s) => s.outcome === 'approve').length,
    evaluated: report.steps.length,
    notReached: (report.not_reached ?? []).length,
    stats: stats(r.stderr),
  };
}

const results = {};
for (const n of sizes) {
  const repo = repository(n);
  const file = path.join(work, `repo-${n}.json`);
  writeFileSync(file, JSON.stringify(repo));
  const hub = await startFakehub(file, latency);
  const state = path.join(work, `state-${n}.json`);
  rmSync(state, { force: true });
  const cold = await sweepOnce(hub, state);
  await sweepOnce(hub, state); // settle: our own approvals changed those PRs
  const unchanged = await sweepOnce(hub, state); // nothing changed since
  const touched = touch(await hub.state(), { fraction: 0.1, seed, at: T(90) });
  await hub.setState(touched.snapshot);
  const warm = await sweepOnce(hub, state);
  warm.changes = Object.fromEntries(Object.entries(touched.changes.reduce((m, c) => ({ ...m, [c.kind]: (m[c.kind] ?? 0) + 1 }), {})).sort());
  await hub.setState(repo);
  await hub.clearLog();
  const t0 = process.hrtime.bigint();
  const naive = await naiveSweep(hub.url, 'lf/bench', { concurrency: naiveConcurrency });
  const naiveMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const naiveCost = costOf(await hub.log());
  hub.stop();
  results[n] = { cold, unchanged, warm, naive: { ...naive, points: naiveCost.points, ms: naiveMs } };
  const line = (name, r) => `  ${name}: ${r.requests} requests (${r.reads} reads, ${(r.reads / n).toFixed(2)}/PR; ${r.writes} writes), ${r.graphqlPoints} GraphQL points (${(r.graphqlPoints / n).toFixed(3)}/PR), ${r.rest} REST, ${(r.ms / 1000).toFixed(1)} s, ${r.approved} approve`;
  console.log(`${n} open PRs, ${latency} ms per request:`);
  console.log(`${line('ours cold     ', cold)}, peak RSS ${(cold.stats?.rssKb / 1024).toFixed(1)} MB`);
  console.log(line('ours unchanged', unchanged));
  console.log(`${line('ours warm     ', warm)}; changes ${JSON.stringify(warm.changes)}`);
  console.log(`  naive:          ${naive.requests} requests (${(naive.requests / n).toFixed(2)}/PR), ${naiveCost.points} points, ${(naiveMs / 1000).toFixed(1)} s with ${naiveConcurrency} in flight`);
}

// Cold start: the static binary replaying the demo (median of 21), timed
// by bench/bench_spawn.c (posix_spawn to exit) beside the program; node's
// spawnSync costs 5-10 ms of its own, so it is the fallback only. /bin/true,
// timed the same way, is reported beside (not subtracted).
function coldStart() {
  const candidates = ['build/static/agentic-apply', bin];
  const exe = candidates.find((p) => existsSync(p));
  const timer = path.join(path.dirname(programPath()), 'bench', 'bench_spawn');
  const median = (file, args) => {
    if (existsSync(timer)) {
      const r = spawnSync(timer, ['21', file, ...args], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`bench_spawn ${file} failed: ${r.stderr}`);
      return Number(r.stdout.trim());
    }
    const times = [];
    for (let i = 0; i < 21; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(file, args, { env: {}, encoding: 'utf8' });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
    }
    return times.sort((a, b) => a - b)[10];
  };
  const ms = median(exe, ['replay', '--quiet', 'fixtures/000-demo.json']);
  const spawnMs = existsSync('/bin/true') ? median('/bin/true', []) : null;
  return { exe: exe === bin ? programPath() : exe, ms, spawnMs, timer: existsSync(timer) ? 'bench_spawn' : 'spawnSync', load: loadavg()[0] };
}
const cs = coldStart();
console.log(`cold start (${cs.exe} replay of the demo, median of 21, timed by ${cs.timer}): ${cs.ms.toFixed(2)} ms (/bin/true the same way: ${cs.spawnMs?.toFixed(2)} ms), load average ${cs.load.toFixed(2)}`);

const N = Math.max(...sizes);
const big = results[N];
const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
const figures = {
  ...prev,
  latency_ms: latency,
  [`sweep${N}_wall_s`]: +(big.cold.ms / 1000).toFixed(2),
  [`sweep${N}_reads_per_pr_cold`]: +(big.cold.reads / N).toFixed(3),
  [`sweep${N}_reads_per_pr_warm`]: +(big.warm.reads / N).toFixed(3),
  [`sweep${N}_graphql_points_cold`]: big.cold.graphqlPoints,
  [`sweep${N}_unchanged_requests`]: big.unchanged.requests,
  [`sweep${N}_unchanged_points`]: big.unchanged.graphqlPoints,
  [`sweep${N}_points_per_pr_warm`]: +(big.warm.graphqlPoints / N).toFixed(3),
  naive_ratio: +(big.naive.requests / big.cold.reads).toFixed(2),
  naive_requests: big.naive.requests,
  naive_model: NAIVE_MODEL,
  peak_rss_mb: +(Math.max(...Object.values(results).map((r) => r.cold.stats?.rssKb ?? 0)) / 1024).toFixed(1),
  cold_start_ms: +cs.ms.toFixed(2),
  cold_start_binary: cs.exe,
  cold_start_spawn_ms: cs.spawnMs === null ? null : +cs.spawnMs.toFixed(2), // /bin/true, timed the same way
  cold_start_timer: cs.timer,
  cold_start_load_avg: +cs.load.toFixed(2), // the machine's 1-minute load average then (2 cores, shared)
  sweep_change_seed: seed,
};
for (const n of sizes) {
  figures[`sweep${n}_detail`] = results[n];
}
writeJson(out, figures);
console.log(`written to ${out}`);
rmSync(work, { recursive: true, force: true });
