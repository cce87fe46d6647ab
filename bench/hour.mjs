// make bench, hour part: one simulated hour of a deployment on one token,
// counted from fakehub's request log — REST requests and GraphQL points
// (GitHub's formula) — against GitHub's hourly limits.
//
//   - a repository of 500 open PRs;
//   - an organisation of 5,000 open PRs (50 repositories × 100), swept
//     shard by shard as examples/org-sweep.yml does (one program run and one
//     state file per repository, all on the machine account's token).
//
// The hour: a sweep every 10 minutes (6; the first one cold, the others warm
// with the --state file of the previous one, docs/sweep.md), and between
// sweeps 2% of the open PRs change (at random over every PR, a random kind
// of change: bench/lib.mjs CHANGE_KINDS), each change starting one event run
// of the program (`run` with the event's payload, as the Action would).
//
// Time is simulated, nothing waits: fakehub's state is changed between runs,
// fakehub's clock (POST /_fakehub/clock) is set to the simulated time of
// each run (the times it writes), and since the program has no clock
// override, the state files are aged instead: every evaluated_at moves 600 s
// back after each 10 minutes, so AGENTIC_SWEEP_STATE_TTL (3,600 s) sees the
// age it would. Writes are not paced (AGENTIC_WRITE_INTERVAL_MS=0): that
// changes wall time, not what is counted. No injected latency: the figures
// are counts.
//
//   node bench/hour.mjs [--bin PATH] [--seed 13] [--repo-prs 500] [--org 50x100] [--out build/bench.json]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CHANGE_KINDS, applyChange, costOf, pinProgram, programPath, repository, rng, runProgram, startFakehub, stats, writeJson,
} from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const seed = Number(arg('--seed', 13));
const repoPrs = Number(arg('--repo-prs', 500));
const [orgRepos, orgPrs] = arg('--org', '50x100').split('x').map(Number);
const out = arg('--out', 'build/bench.json');

export const TICKS = 6; // sweeps in the hour
export const TICK_S = 600; // a sweep every 10 minutes
export const CHANGE_RATE = 0.02; // of the open PRs, every 10 minutes
/** GitHub's hourly limits (FACTS.md; REST requests and GraphQL points are separate budgets). */
export const LIMITS = Object.freeze({
  github_token: { rest: 1000, points: 1000, per: 'repository' },
  user_token: { rest: 5000, points: 5000, per: 'account' },
  app_installation_max: { rest: 12500, points: 12500, per: 'installation' },
});

const work = mkdtempSync(path.join(tmpdir(), 'agentic-hour-'));
const bin = pinProgram(programPath(), work);
const iso = (epochS) => new Date(epochS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Moves every evaluated_at of a state file `s` seconds into the past. */
function ageState(file, s) {
  if (!existsSync(file)) return;
  const state = JSON.parse(readFileSync(file, 'utf8'));
  for (const repo of Object.values(state.repositories ?? {})) {
    for (const p of repo.pulls ?? []) {
      if (p.evaluated_at) p.evaluated_at = new Date(Date.parse(p.evaluated_at) - s * 1000).toISOString();
    }
  }
  writeFileSync(file, JSON.stringify(state));
}

const zero = () => ({ runs: 0, requests: 0, rest: 0, graphql: 0, points: 0, writes: 0, exits: {}, by_query: {} });
function add(into, c, code, stderr) {
  into.runs += 1;
  for (const k of ['requests', 'rest', 'graphql', 'points', 'writes']) into[k] += c[k];
  into.exits[code] = (into.exits[code] ?? 0) + 1;
  // The program's own count per kind of GraphQL document (AGENTIC_STATS).
  for (const [kind, q] of Object.entries(stats(stderr)?.byQuery ?? {})) {
    const t = into.by_query[kind] ??= { queries: 0, points: 0 };
    t.queries += q.queries;
    t.points += q.points;
  }
}

/**
 * One simulated hour over `worlds` (each {name, snapshot, stateFile}) on
 * one fakehub; returns the tally.
 */
async function hour(hub, label, worlds, { seed: s }) {
  const rnd = rng(s);
  const start = Math.floor(Date.now() / 1000) - (TICKS + 1) * TICK_S; // simulated times stay in the past
  const tally = {
    repositories: worlds.length,
    open_prs: worlds.reduce((n, w) => n + w.snapshot.pulls.filter((p) => p.state === 'open').length, 0),
    cold_sweep: zero(), warm_sweeps: zero(), events: zero(), events_by_kind: {}, changes: 0,
    per_repository: Object.fromEntries(worlds.map((w) => [w.name, { rest: 0, points: 0 }])),
  };
  const eventFile = path.join(work, 'event.json');

  async function runOn(world, args, env, at) {
    await hub.setState(world.snapshot);
    await hub.clock(at);
    await hub.clearLog();
    const r = runProgram(bin, args, hub, {
      GITHUB_REPOSITORY: world.name, AGENTIC_WRITE_INTERVAL_MS: '0',
      GITHUB_EVENT_NAME: undefined, GITHUB_EVENT_PATH: undefined, ...env,
    });
    const c = costOf(await hub.log());
    world.snapshot = await hub.state(); // its writes, as GitHub keeps them
    const per = tally.per_repository[world.name];
    per.rest += c.rest;
    per.points += c.points;
    return { r, c };
  }

  const t0 = Date.now();
  for (let k = 0; k < TICKS; k++) {
    const sweepAt = start + k * TICK_S;
    for (const w of worlds) {
      const { r, c } = await runOn(w, ['sweep', '--json', '--quiet', '--state', w.stateFile], {}, sweepAt);
      if (r.code !== 0) throw new Error(`${label}: sweep of ${w.name} exited ${r.code}: ${r.stderr.slice(-400)}`);
      add(k === 0 ? tally.cold_sweep : tally.warm_sweeps, c, r.code, r.stderr);
    }
    // The next 10 minutes: 2% of the open PRs change, one event run each.
    const open = worlds.flatMap((w) => w.snapshot.pulls.filter((p) => p.state === 'open').map((p) => [w, p.number]));
    const count = Math.round(open.length * CHANGE_RATE);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(rnd() * (open.length - i));
      [open[i], open[j]] = [open[j], open[i]];
    }
    const changes = open.slice(0, count).map(([w, n]) => ({ w, n, at: sweepAt + 1 + Math.floor(rnd() * (TICK_S - 2)), kind: CHANGE_KINDS[Math.floor(rnd() * CHANGE_KINDS.length)] }))
      .sort((a, b) => a.at - b.at);
    for (const { w, n, at, kind } of changes) {
      const event = applyChange(w.snapshot, n, kind, { rnd, at: iso(at) });
      writeFileSync(eventFile, JSON.stringify(event.payload));
      const { r, c } = await runOn(w, ['run', '--json', '--quiet'], { GITHUB_EVENT_NAME: event.name, GITHUB_EVENT_PATH: eventFile }, at + 1);
      if (r.code === 2 || r.code === null) throw new Error(`${label}: ${event.name} run on ${w.name}#${n} exited ${r.code}: ${r.stderr.slice(-400)}`);
      add(tally.events, c, r.code, r.stderr);
      add(tally.events_by_kind[kind] ??= zero(), c, r.code, r.stderr);
      tally.changes += 1;
    }
    for (const w of worlds) ageState(w.stateFile, TICK_S);
    process.stdout.write(`  ${label}: minute ${(k + 1) * 10} (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  await hub.clock(null);
  const sum = (f) => tally.cold_sweep[f] + tally.warm_sweeps[f] + tally.events[f];
  tally.total = { runs: sum('runs'), requests: sum('requests'), rest: sum('rest'), graphql: sum('graphql'), points: sum('points'), writes: sum('writes') };
  const per = Object.values(tally.per_repository);
  tally.per_repository_max = { rest: Math.max(...per.map((p) => p.rest)), points: Math.max(...per.map((p) => p.points)) };
  if (worlds.length > 5) delete tally.per_repository; // the maximum says it
  return tally;
}

function worldsOf(specs) {
  return specs.map(({ name, n, seed: s }) => ({
    name, snapshot: repository(n, { seed: s, name }), stateFile: path.join(work, `state-${name.replace('/', '_')}.json`),
  }));
}

const first = worldsOf([{ name: 'lf/bench', n: repoPrs, seed: 1 }]);
const bootFile = path.join(work, 'boot.json');
writeFileSync(bootFile, JSON.stringify(first[0].snapshot));
const hub = await startFakehub(bootFile, 0);
const results = {};
try {
  results.repo = await hour(hub, `${repoPrs}-PR repository`, first, { seed });
  const org = worldsOf(Array.from({ length: orgRepos }, (_, i) => ({ name: `lf-org/svc-${String(i + 1).padStart(2, '0')}`, n: orgPrs, seed: 100 + i })));
  results.org = await hour(hub, `${orgRepos * orgPrs}-PR organisation`, org, { seed: seed + 1 });
} finally {
  hub.stop();
  rmSync(work, { recursive: true, force: true });
}

const pct = (x, of) => `${((100 * x) / of).toFixed(1)}%`;
for (const [key, t] of Object.entries(results)) {
  const name = key === 'repo' ? `${t.open_prs}-PR repository` : `${t.open_prs}-PR organisation (${t.repositories} repositories)`;
  console.log(`hour of a ${name}: ${t.total.runs} runs (6 sweeps${t.repositories > 1 ? ' per repository' : ''}, ${t.events.runs} event runs), ${t.total.rest} REST requests, ${t.total.points} GraphQL points (${t.total.graphql} queries)`);
  console.log(`  cold sweep ${t.cold_sweep.rest} REST / ${t.cold_sweep.points} points; 5 warm sweeps ${t.warm_sweeps.rest} / ${t.warm_sweeps.points}; events ${t.events.rest} / ${t.events.points}`);
  for (const part of ['cold_sweep', 'warm_sweeps', 'events']) {
    console.log(`    ${part} by query: ${Object.entries(t[part].by_query).map(([k, q]) => `${k} ${q.queries}/${q.points}`).join(', ')}`);
  }
  console.log(`  against a user token (5,000 each): REST ${pct(t.total.rest, 5000)}, points ${pct(t.total.points, 5000)}; the busiest repository against a GITHUB_TOKEN (1,000 each): REST ${pct(t.per_repository_max.rest, 1000)}, points ${pct(t.per_repository_max.points, 1000)}`);
  for (const [kind, e] of Object.entries(t.events_by_kind)) console.log(`    ${kind}: ${e.runs} runs, ${e.rest} REST, ${e.points} points, exits ${JSON.stringify(e.exits)}; ${Object.entries(e.by_query).map(([k, q]) => `${k} ${q.queries}/${q.points}`).join(', ')}`);
}

const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
writeJson(out, {
  ...prev,
  [`hour_repo${repoPrs}_rest`]: results.repo.total.rest,
  [`hour_repo${repoPrs}_points`]: results.repo.total.points,
  hour_org_rest: results.org.total.rest,
  hour_org_points: results.org.total.points,
  org_hour_points_share: +(results.org.total.points / 5000).toFixed(3),
  hour_detail: { ticks: TICKS, tick_s: TICK_S, change_rate: CHANGE_RATE, seed, limits: LIMITS, ...results },
});
console.log(`written to ${out}`);
