// make bench, sweep part: this program's sweep against fakehub with injected
// latency, cold and warm, on generated repositories of 50 and 500 open PRs,
// next to the naive strategy, in the same run. Writes build/bench.json and
// BENCHMARKS.md.
//   node bench/sweep.mjs [--latency-ms 100] [--sizes 50,500]
import { readFileSync, writeFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { repository, touch, startFakehub, runProgram, stats, isWrite, writeJson } from './lib.mjs';
import { naiveSweep } from './naive.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const latency = Number(arg('--latency-ms', 100));
const sizes = arg('--sizes', '50,500').split(',').map(Number);
const naiveConcurrency = Number(arg('--naive-concurrency', 8));
const bin = 'build/agentic-apply';
const work = mkdtempSync(path.join(tmpdir(), 'agentic-bench-'));

async function points(hub) {
  const r = await fetch(`${hub.url}/rate_limit`, { headers: { authorization: 'Bearer bench', connection: 'close' } });
  const j = await r.json();
  return { graphql: j.resources.graphql.used, core: j.resources.core.used };
}

async function sweepOnce(hub, state) {
  await hub.clearLog();
  const before = await points(hub);
  const r = runProgram(bin, ['sweep', '--json', '--quiet', '--state', state], hub);
  const after = await points(hub);
  const log = await hub.log();
  if (r.code !== 0) throw new Error(`sweep exited ${r.code}: ${r.stderr.slice(-500)}`);
  const report = JSON.parse(r.stdout);
  return {
    ms: r.ms,
    reads: log.filter((e) => !isWrite(e)).length,
    writes: log.filter(isWrite).length,
    graphqlPoints: after.graphql - before.graphql,
    restPoints: after.core - before.core,
    approved: report.steps.filter((s) => s.outcome === 'approve').length,
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
  const current = await hub.state();
  await hub.setState(touch(current, 10)); // 10% of the PRs changed
  const warm = await sweepOnce(hub, state);
  await hub.setState(repo);
  await hub.clearLog();
  const t0 = process.hrtime.bigint();
  const naive = await naiveSweep(hub.url, 'lf/bench', { concurrency: naiveConcurrency });
  const naiveMs = Number(process.hrtime.bigint() - t0) / 1e6;
  hub.stop();
  results[n] = { cold, warm, naive: { ...naive, ms: naiveMs } };
  console.log(`${n} open PRs, ${latency} ms per request:`);
  console.log(`  ours cold: ${cold.reads} reads (${(cold.reads / n).toFixed(2)}/PR), ${cold.writes} writes, ${cold.graphqlPoints} GraphQL points, ${cold.restPoints} REST, ${(cold.ms / 1000).toFixed(1)} s, ${cold.approved} approve, peak RSS ${(cold.stats?.rssKb / 1024).toFixed(1)} MB`);
  console.log(`  ours warm: ${warm.reads} reads (${(warm.reads / n).toFixed(2)}/PR), ${warm.writes} writes, ${(warm.ms / 1000).toFixed(1)} s`);
  console.log(`  naive:     ${naive.requests} reads (${(naive.requests / n).toFixed(2)}/PR), ${(naiveMs / 1000).toFixed(1)} s with ${naiveConcurrency} in flight`);
}

// Cold start: the static binary replaying the demo (median of 21).
function coldStart() {
  const candidates = ['build/static/agentic-apply', bin];
  const exe = candidates.find((p) => existsSync(p));
  const times = [];
  for (let i = 0; i < 21; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(exe, ['replay', '--quiet', 'fixtures/000-demo.json'], { env: {}, encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) throw new Error(`replay failed: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return { exe, ms: times[10] };
}
const cs = coldStart();
console.log(`cold start (${cs.exe} replay of the demo, median of 21): ${cs.ms.toFixed(2)} ms`);

const big = results[Math.max(...sizes)];
const out = 'build/bench.json';
const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
const N = Math.max(...sizes);
const figures = {
  ...prev,
  latency_ms: latency,
  [`sweep${N}_wall_s`]: +(big.cold.ms / 1000).toFixed(2),
  [`sweep${N}_reads_per_pr_cold`]: +(big.cold.reads / N).toFixed(3),
  [`sweep${N}_reads_per_pr_warm`]: +(big.warm.reads / N).toFixed(3),
  [`sweep${N}_graphql_points_cold`]: big.cold.graphqlPoints,
  naive_ratio: +(big.naive.requests / big.cold.reads).toFixed(2),
  naive_requests: big.naive.requests,
  peak_rss_mb: +(Math.max(...Object.values(results).map((r) => r.cold.stats?.rssKb ?? 0)) / 1024).toFixed(1),
  cold_start_ms: +cs.ms.toFixed(2),
  cold_start_binary: cs.exe,
};
for (const n of sizes) {
  figures[`sweep${n}_detail`] = results[n];
}
writeJson(out, figures);
console.log(`written to ${out}`);

// BENCHMARKS.md: the table of this run.
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const row = (name, target, value, ok) => `| ${name} | ${target} | ${value} | ${ok ? 'met' : 'NOT met'} |`;
const md = [
  '# Benchmarks',
  '',
  'Measured by `make bench` (bench/live.mjs, bench/sweep.mjs) against fakehub on',
  `loopback with ${latency} ms injected per request; every figure comes from one run.`,
  'These are benchmarks, not tests: the machine is shared and noisy.',
  '',
  `Machine: ${cpus().length} × ${cpu}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| figure | target | measured | |',
  '|---|---|---|---|',
  row('eval_read_requests (one gate evaluation)', '≤ 2', figures.eval_read_requests, figures.eval_read_requests <= 2),
  row('approve_path_requests', '≤ 6', figures.approve_path_requests, figures.approve_path_requests <= 6),
  row(`sweep${N}_wall_s (cold)`, '≤ 60', figures[`sweep${N}_wall_s`], figures[`sweep${N}_wall_s`] <= 60),
  row(`sweep${N}_reads_per_pr_cold`, '≤ 1.2', figures[`sweep${N}_reads_per_pr_cold`], figures[`sweep${N}_reads_per_pr_cold`] <= 1.2),
  row(`sweep${N}_reads_per_pr_warm (10% changed)`, '≤ 0.2', figures[`sweep${N}_reads_per_pr_warm`], figures[`sweep${N}_reads_per_pr_warm`] <= 0.2),
  row('naive_ratio (naive reads ÷ ours, cold)', '≥ 5', figures.naive_ratio, figures.naive_ratio >= 5),
  row('peak_rss_mb', '≤ 32', figures.peak_rss_mb, figures.peak_rss_mb <= 32),
  row(`cold_start_ms (${path.basename(path.dirname(cs.exe))} binary, replay of the demo)`, '≤ 10', figures.cold_start_ms, figures.cold_start_ms <= 10),
  '',
  '| repository | strategy | reads | reads/PR | writes | GraphQL points | wall |',
  '|---|---|---|---|---|---|---|',
  ...sizes.flatMap((n) => {
    const r = results[n];
    return [
      `| ${n} PRs | ours, cold | ${r.cold.reads} | ${(r.cold.reads / n).toFixed(2)} | ${r.cold.writes} | ${r.cold.graphqlPoints} | ${(r.cold.ms / 1000).toFixed(1)} s |`,
      `| ${n} PRs | ours, warm (10% changed) | ${r.warm.reads} | ${(r.warm.reads / n).toFixed(2)} | ${r.warm.writes} | ${r.warm.graphqlPoints} | ${(r.warm.ms / 1000).toFixed(1)} s |`,
      `| ${n} PRs | naive (REST per resource per PR, ${naiveConcurrency} in flight) | ${r.naive.requests} | ${(r.naive.requests / n).toFixed(2)} | — | — | ${(r.naive.ms / 1000).toFixed(1)} s |`,
    ];
  }),
  '',
  'The repositories are generated (bench/lib.mjs): 10% of PRs outside the',
  'review flow, 30% already approved on their head (re-checked, nothing',
  'posted), 2% newly approvable (approved, writes 1 s apart), the rest',
  'withheld. "Warm" is the next sweep after 10% of the PRs received a comment,',
  'with the change-detection state of the previous sweep (`--state`).',
  'GraphQL points follow GitHub\'s cost formula (fakehub computes it): a',
  'GITHUB_TOKEN has 1,000 an hour per repository, a PAT 5,000; most of a',
  'cold sweep\'s points pay for the review threads\' reply counts (a point',
  'per evaluated PR), which a warm sweep does not read again.',
  '',
].join('\n');
writeFileSync('BENCHMARKS.md', md);
rmSync(work, { recursive: true, force: true });
