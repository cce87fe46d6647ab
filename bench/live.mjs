// make bench, live part: requests and wall time of one gate evaluation and of
// the approve path, against fakehub with injected latency per request.
//   node bench/live.mjs [--latency-ms N] [--out build/bench.json]
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { repository, kindOf, startFakehub, runProgram, isWrite, writeJson } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const latency = Number(arg('--latency-ms', 100));
const out = arg('--out', 'build/bench.json');
const bin = 'build/agentic-apply';

const repo = repository(10);
const approvable = [...Array(10).keys()].map((i) => i + 1).find((i) => kindOf(i) === 'approvable');
const withheld = [...Array(10).keys()].map((i) => i + 1).find((i) => kindOf(i) === 'unanswered');
const snap = 'build/bench-live.json';
writeFileSync(snap, JSON.stringify(repo));
const hub = await startFakehub(snap, latency);

async function measure(pr) {
  await hub.setState(repo);
  await hub.clearLog();
  const r = runProgram(bin, ['gate', '--pr', String(pr), '--json'], hub);
  const log = await hub.log();
  const report = JSON.parse(r.stdout);
  return {
    outcome: report.steps[0].outcome,
    reads: log.filter((e) => !isWrite(e)).length,
    writes: log.filter(isWrite).length,
    sequence: log.map((e) => `${e.method} ${e.path.replace(/[0-9a-f]{40}/, '<sha>')}`),
    ms: r.ms,
  };
}

const withhold = await measure(withheld); // one evaluation, no writes
const approve = await measure(approvable); // evaluate, identity, re-check, POST, re-check
hub.stop();

console.log(`live gate against fakehub, ${latency} ms per request:`);
console.log(`  one evaluation (withhold): ${withhold.reads} reads, ${withhold.writes} writes, ${withhold.ms.toFixed(0)} ms  [${withhold.sequence.join(', ')}]`);
console.log(`  approve path:              ${approve.reads + approve.writes} requests (${approve.reads} reads, ${approve.writes} writes), ${approve.ms.toFixed(0)} ms`);
console.log(`    ${approve.sequence.join('\n    ')}`);
if (withhold.outcome !== 'withhold' || approve.outcome !== 'approve') {
  console.error(`unexpected outcomes: ${withhold.outcome}, ${approve.outcome}`);
  process.exit(1);
}
const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
writeJson(out, {
  ...prev,
  latency_ms: latency,
  eval_read_requests: withhold.reads,
  eval_wall_ms: Math.round(withhold.ms),
  approve_path_requests: approve.reads + approve.writes,
  approve_path_wall_ms: Math.round(approve.ms),
});
console.log(`  written to ${out}`);
