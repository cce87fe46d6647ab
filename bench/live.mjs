// make bench, live part: requests and wall time of one gate evaluation, of
// the approve path, and of one `apply --comment ID` run on an issue_comment
// event (the demo fixture: the conductor's clean verdict), against fakehub
// with injected latency per request.
//   node bench/live.mjs [--bin PATH] [--latency-ms N] [--out build/bench.json]
import { writeFileSync, readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repository, kindOf, startFakehub, runProgram, isWrite, writeJson, costOf, programPath, pinProgram } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const latency = Number(arg('--latency-ms', 100));
const out = arg('--out', 'build/bench.json');
const work = mkdtempSync(path.join(tmpdir(), 'agentic-bench-live-'));
const bin = pinProgram(programPath(), work);

const repo = repository(10);
const approvable = [...Array(10).keys()].map((i) => i + 1).find((i) => kindOf(i) === 'approvable');
const withheld = [...Array(10).keys()].map((i) => i + 1).find((i) => kindOf(i) === 'unanswered');
const snap = path.join(work, 'bench-live.json');
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

// apply --pr 42 --comment ID on the issue_comment event that carries it (as
// the Action's run step would: the payload holds the comment).
const demo = JSON.parse(readFileSync('fixtures/000-demo.json', 'utf8'));
const eventPath = path.join(work, 'event.json');
writeFileSync(eventPath, JSON.stringify(demo.event.payload));
await hub.setState(demo);
await hub.clearLog();
const pr = demo.event.payload.issue.number;
const commentId = demo.event.payload.comment.id;
const a = runProgram(bin, ['apply', '--pr', String(pr), '--comment', String(commentId), '--json'], hub, {
  GITHUB_REPOSITORY: demo.repository, GITHUB_EVENT_NAME: 'issue_comment', GITHUB_EVENT_PATH: eventPath,
});
const applyLog = await hub.log();
const applyCost = costOf(applyLog);
const applyReport = JSON.parse(a.stdout);
const apply = {
  outcome: applyReport.steps[0]?.outcome, ...applyCost, ms: a.ms,
  sequence: applyLog.map((e) => `${e.method} ${e.path.replace(/[0-9a-f]{40}/, '<sha>')}`),
};
hub.stop();
rmSync(work, { recursive: true, force: true });

console.log(`live gate against fakehub, ${latency} ms per request:`);
console.log(`  one evaluation (withhold): ${withhold.reads} reads, ${withhold.writes} writes, ${withhold.ms.toFixed(0)} ms  [${withhold.sequence.join(', ')}]`);
console.log(`  approve path:              ${approve.reads + approve.writes} requests (${approve.reads} reads, ${approve.writes} writes), ${approve.ms.toFixed(0)} ms`);
console.log(`    ${approve.sequence.join('\n    ')}`);
console.log(`  apply --comment (issue_comment): ${apply.requests} requests (${apply.reads} reads, ${apply.writes} writes, ${apply.points} GraphQL points), ${apply.ms.toFixed(0)} ms`);
console.log(`    ${apply.sequence.join('\n    ')}`);
if (withhold.outcome !== 'withhold' || approve.outcome !== 'approve' || apply.outcome !== 'applied') {
  console.error(`unexpected outcomes: ${withhold.outcome}, ${approve.outcome}, ${apply.outcome}`);
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
  apply_requests: apply.requests,
  apply_detail: { points: apply.points, reads: apply.reads, writes: apply.writes, wall_ms: Math.round(apply.ms), sequence: apply.sequence },
});
console.log(`  written to ${out}`);
