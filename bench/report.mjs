// make bench, last part: renders BENCHMARKS.md from build/bench.json (the
// figures of one run of bench/live.mjs, bench/sweep.mjs, bench/publish.mjs
// and bench/hour.mjs).
// The committed BENCHMARKS.md is this script's output.
//   node bench/report.mjs [--in build/bench.json] [--out BENCHMARKS.md]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { REFERENCE } from './naive.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const f = JSON.parse(readFileSync(arg('--in', 'build/bench.json'), 'utf8'));
const outFile = arg('--out', 'BENCHMARKS.md');

/**
 * The table before issue 13 (BENCHMARKS.md of commit 0dfddd2), the "unchanged
 * or better" baseline. Its warm sweep changed only already-approved PRs by a
 * comment (bench/lib.mjs touch, since replaced), so that row is not the same
 * experiment as today's.
 */
const BEFORE = {
  eval_read_requests: 1, approve_path_requests: 5, sweep500_wall_s: 22.59, sweep500_reads_per_pr_cold: 0.456,
  sweep500_reads_per_pr_warm: 0.134, naive_ratio: 15.37, peak_rss_mb: 11.6, cold_start_ms: 2.67,
};

const num = (x) => (typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: 3 }) : String(x ?? '—'));
const pct = (x, of) => `${((100 * x) / of).toFixed(1)}%`;
const s1 = (ms) => `${(ms / 1000).toFixed(1)} s`;

const rows = [
  // [key, label, target text, test, reference (measured fact, issue 13)]
  ['eval_read_requests', 'one gate evaluation (withhold), requests', '≤ 2', (v) => v <= 2],
  ['approve_path_requests', 'approve path of one gate, requests', '≤ 6', (v) => v <= 6, `${REFERENCE.gate_approve_requests}`],
  ['apply_requests', '`apply --comment ID` on an issue_comment event, requests', `≤ ${REFERENCE.apply_requests}`, (v) => v <= REFERENCE.apply_requests, `${REFERENCE.apply_requests}`],
  ['sweep500_wall_s', 'sweep of 500 PRs, cold, wall s', '≤ 60', (v) => v <= 60],
  ['sweep500_reads_per_pr_cold', 'sweep of 500 PRs, cold, reads per PR', '≤ 1.2', (v) => v <= 1.2, `${REFERENCE.sweep_requests_per_pr} requests`],
  ['sweep500_reads_per_pr_warm', 'sweep of 500 PRs, warm, 10% changed, reads per PR', '≤ 0.2', (v) => v <= 0.2],
  ['sweep500_unchanged_requests', 'sweep of 500 PRs, warm, unchanged, requests', '≤ 10', (v) => v <= 10],
  ['sweep500_unchanged_points', 'sweep of 500 PRs, warm, unchanged, GraphQL points', '≤ 20', (v) => v <= 20],
  ['sweep500_points_per_pr_warm', 'sweep of 500 PRs, warm, 10% changed, GraphQL points per PR', '≤ 0.2', (v) => v <= 0.2],
  ['org_hour_points_share', 'hour of a 5,000-PR organisation, GraphQL points ÷ a user token\'s 5,000', '≤ 0.6', (v) => v <= 0.6],
  ['naive_ratio', 'naive reader\'s requests ÷ ours, 500 PRs cold', '≥ 5', (v) => v >= 5],
  ['peak_rss_mb', 'peak RSS, MB', '≤ 32', (v) => v <= 32],
  ['cold_start_ms', `cold start, ms (${f.cold_start_binary ?? 'binary'}, replay of the demo, median of 21)`, '≤ 10', (v) => v <= 10],
];
const lower = new Set(['naive_ratio']); // higher is better
const vsBefore = (key, v) => {
  if (!(key in BEFORE) || typeof v !== 'number') return '';
  const b = BEFORE[key];
  const better = lower.has(key) ? v >= b : v <= b;
  return `${num(b)}${better ? '' : ' (was better)'}`;
};

const d = (n) => f[`sweep${n}_detail`];
const sizes = Object.keys(f).map((k) => /^sweep(\d+)_detail$/.exec(k)?.[1]).filter(Boolean).map(Number).sort((a, b) => a - b);
const sweepRows = sizes.flatMap((n) => {
  const r = d(n);
  const ours = (label, x) => `| ${n} PRs | ${label} | ${x.requests} | ${(x.reads / n).toFixed(3)} | ${x.writes} | ${x.rest} | ${x.graphql} | ${x.graphqlPoints} | ${(x.graphqlPoints / n).toFixed(3)} | ${s1(x.ms)} |`;
  return [
    ours('ours, cold', r.cold),
    ours('ours, warm, unchanged', r.unchanged),
    ours('ours, warm, 10% changed', r.warm),
    `| ${n} PRs | naive reader (8 in flight) | ${r.naive.requests} | ${(r.naive.requests / n).toFixed(3)} | — | ${r.naive.requests - r.naive.prs} | ${r.naive.prs} | ${r.naive.points} | ${(r.naive.points / n).toFixed(3)} | ${s1(r.naive.ms)} |`,
  ];
});
const warmChanges = d(500)?.warm?.changes ?? d(sizes[sizes.length - 1])?.warm?.changes ?? {};

const h = f.hour_detail;
const hourRow = (name, t) => {
  const perRepoLimit = `${pct(t.per_repository_max.rest, 1000)} REST, ${pct(t.per_repository_max.points, 1000)} points${t.repositories > 1 ? ' (busiest repository)' : ''}`;
  return `| ${name} | ${t.total.runs} (${t.cold_sweep.runs + t.warm_sweeps.runs} sweeps, ${t.events.runs} events) | ${num(t.total.rest)} | ${num(t.total.points)} | ${perRepoLimit} | ${pct(t.total.rest, 5000)} REST, ${pct(t.total.points, 5000)} points | ${pct(t.total.rest, 12500)} REST, ${pct(t.total.points, 12500)} points |`;
};
const partRows = (name, t) => [
  ['cold sweep', t.cold_sweep], ['5 warm sweeps', t.warm_sweeps], ['event runs', t.events],
].map(([part, x]) => `| ${name} | ${part} | ${x.runs} | ${num(x.rest)} | ${x.graphql} | ${num(x.points)} | ${x.writes} |`);
// The program's own count per kind of GraphQL document (AGENTIC_STATS graphql_by_query).
const QUERY_WHAT = {
  probe: 'the listing (change probe)', details: 'approvals and thread counts of the PRs to look at', ahead: 'read-ahead batches',
  pull: 'one PR\'s parts, read on its own (an event run, a re-check around a write, a PR not read ahead)', page: 'further pages', edits: 'edit histories (A5)',
  open_pulls: 'the plain listing', label: 'label lookups', base: 'base lookups (over 250 commits)',
};
const queryRows = (t) => [['cold sweep', t.cold_sweep], ['5 warm sweeps', t.warm_sweeps], ['event runs', t.events]].flatMap(([part, x]) => {
  const rows = Object.entries(x.by_query ?? {}).sort((a, b) => b[1].points - a[1].points);
  const sum = rows.reduce((n, [, q]) => n + q.points, 0);
  return [
    ...rows.map(([kind, q]) => `| ${part} | \`${kind}\`: ${QUERY_WHAT[kind] ?? kind} | ${num(q.queries)} | ${num(q.points)} |`),
    `| ${part} | all (fakehub's count: ${num(x.points)}) | ${num(rows.reduce((n, [, q]) => n + q.queries, 0))} | ${num(sum)} |`,
  ];
});
const kindRows = (t) => Object.entries(t.events_by_kind).sort().map(([kind, e]) => `| ${kind} | ${e.runs} | ${(e.rest / e.runs).toFixed(2)} | ${(e.points / e.runs).toFixed(2)} | ${(e.writes / e.runs).toFixed(2)} |`);

// Publish (bench/publish.mjs): ours beside the seed's gh sequence.
const pub = f.publish_detail;
const ms = (x) => `${num(x)} ms`;
const gets = (seq) => seq.filter((e) => e.startsWith('GET ')).length;
const pubRow = (label, key, x) => `| ${label} | \`${key}\` | ${x.requests} | ${x.rest - x.writes} + ${x.graphql} (${x.points} points) | ${x.writes} | ${ms(x.ms)} |`;
const publishRows = pub ? [
  pubRow('first iteration, this program', 'publish_first_requests', pub.first),
  `| first iteration, the seed | \`seed_publish_requests\` | ${pub.seed.first} | ${gets(pub.seed.first_sequence)} page of comments | ${pub.seed.first - gets(pub.seed.first_sequence)} | ${ms(pub.seed.first_ms)} (${pub.seed.first_processes} gh starts) |`,
  pubRow('review-plan of the next head, this program', 'review_plan_requests', pub.plan_next),
  pubRow('incremental, P1 fixed, this program', 'publish_incremental_requests', pub.incremental),
  `| incremental, P1 fixed, the seed | \`seed_publish_incremental_requests\` | ${pub.seed.incremental} | ${gets(pub.seed.incremental_sequence)} page of comments | ${pub.seed.incremental - gets(pub.seed.incremental_sequence)} | ${ms(pub.seed.incremental_ms)} |`,
  pubRow('unchanged re-run, this program', 'publish_unchanged_requests', pub.unchanged),
  `| unchanged re-run, the seed | \`seed_publish_unchanged_requests\` | ${pub.seed.unchanged_discovery} (publish skipped) | its sticky discovery (L230) decides the noop: ${pub.seed.unchanged_discovery} page of comments | 0 | ${ms(pub.seed.unchanged_ms)} |`,
  `| first iteration, wall time, this program | \`publish_first_ms\` | ${pub.first.requests}, 2 of them beside the request before (P67) | | ${pub.first.writes}, serial, the default spacing (a publish's first 8 writes unpaced) | ${ms(f.publish_first_ms)}${pub.wall_pairs ? ` (median of ${pub.wall_pairs})` : ''} |`,
  `| first iteration, wall time, the seed | \`seed_publish_ms\` | ${pub.seed.first} | | ${pub.seed.first - gets(pub.seed.first_sequence)}, one gh process each | ${ms(f.seed_publish_ms)}${pub.wall_pairs ? ` (median of ${pub.wall_pairs})` : ''} |`,
] : [];
const seqList = (x) => x.sequence.map((e) => `\`${e.replace(/\/repos\/[^/\s]+\/[^/\s]+/, '')}\``).join(', ');
const threadsOf = (x, kind) => x.threads.filter((t) => t.endsWith(`:${kind}`)).map((t) => t.split(':')[0]);

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const ref = REFERENCE;
const cold500 = d(500)?.cold;
const md = [
  '# Benchmarks',
  '',
  'Written by `make bench` (scripts/bench): bench/live.mjs, bench/sweep.mjs,',
  'bench/publish.mjs and bench/hour.mjs run the program against fakehub',
  '(tests/fakehub, GitHub\'s GraphQL schema; GraphQL points by GitHub\'s',
  'published formula), put their figures in build/bench.json, and',
  'bench/report.mjs renders this file from it. Every figure comes from one',
  `run; live, sweep and publish parts with ${f.latency_ms} ms`,
  'injected per request, the hour part without (it counts). These are',
  'benchmarks, not tests: the machine is shared and noisy.',
  '',
  `Machine: ${cpus().length} × ${cpu}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}${f.cold_start_load_avg !== undefined ? `; 1-minute load average ${f.cold_start_load_avg} when the cold start was measured (wall times and the cold start suffer from it)` : ''}.${f.cold_start_spawn_ms != null ? ` The cold start is timed ${f.cold_start_timer === 'bench_spawn' ? 'by bench/bench_spawn.c, from posix_spawn to exit' : 'around node\'s spawnSync, which costs milliseconds of its own'}; /bin/true (dynamically linked) took ${f.cold_start_spawn_ms} ms timed the same way.` : ''}`,
  '',
  '## Targets',
  '',
  '"Before" is the table before issue 13 (commit 0dfddd2); its warm sweep',
  'changed only already-approved PRs, so the warm rows are not the same',
  'experiment.',
  '',
  '| figure | key | target | measured | | before |',
  '|---|---|---|---|---|---|',
  ...rows.map(([key, label, target, ok]) => {
    const v = f[key];
    const met = typeof v === 'number' ? (ok(v) ? 'met' : '**NOT met**') : 'not measured';
    return `| ${label} | \`${key}\` | ${target} | ${num(v)} | ${met} | ${vsBefore(key, v)} |`;
  }),
  '',
  '## Against the reference workflows',
  '',
  'The reference pipeline (bash + gh + jq workflows) was measured side by',
  'side with this program on the same fake GitHub, with the same latency,',
  'in one run (issue 13); its figures below are those measurements, quoted,',
  'not re-run by `make bench`.',
  '',
  '| | reference (measured) | this program |',
  '|---|---|---|',
  `| a gate evaluation that approves | ${ref.gate_approve_requests} requests | ${num(f.approve_path_requests)} requests (this run) |`,
  `| processes started to approve | ${ref.gate_approve_processes} (bash, gh and jq) | 1 |`,
  `| a sweep of 50 PRs | ${ref.sweep50_requests} requests | ${d(50) ? `${d(50).cold.requests} requests cold, ${d(50).unchanged.requests} warm and unchanged (this run)` : '—'} |`,
  `| a sweep, per swept PR | ${ref.sweep_requests_per_pr} requests: ${ref.sweep_rest_per_stamped_pr} REST + ${ref.sweep_points_per_stamped_pr} GraphQL points per stamped PR on the GITHUB_TOKEN, plus the machine account's token's | ${cold500 ? `${(cold500.requests / 500).toFixed(2)} requests, ${(cold500.rest / 500).toFixed(3)} REST + ${(cold500.graphqlPoints / 500).toFixed(2)} GraphQL points per PR, cold at 500 PRs (this run)` : '—'} |`,
  `| apply of a verdict comment | ${ref.apply_requests} requests | ${num(f.apply_requests)} requests (this run) |`,
  '',
  'The reference runs one workflow per swept PR, which reads again what the',
  'sweep read: at a sweep every 10 minutes its 8 REST requests per stamped PR',
  'spend a GITHUB_TOKEN\'s 1,000 an hour at about 20 stamped PRs. bench/naive.mjs',
  `models a naive reader, not the reference (${f.naive_model ?? 'one REST read per resource per PR'}):`,
  `about half the reference's cost, so \`naive_ratio\` (${num(f.naive_ratio)}) understates the lead —`,
  cold500 ? `against the reference's 14.7 requests per PR, the cold sweep of 500 PRs makes ${((ref.sweep_requests_per_pr * 500) / cold500.requests).toFixed(1)}× fewer requests, and ${((ref.sweep_requests_per_pr * 500) / (cold500.rest + cold500.graphqlPoints)).toFixed(1)}× fewer counting REST requests plus GraphQL points.` : '',
  '',
  '## Sweeps',
  '',
  '| repository | strategy | requests | reads/PR | writes | REST | GraphQL queries | GraphQL points | points/PR | wall |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...sweepRows,
  '',
  'The repositories are generated (bench/lib.mjs): 10% of PRs outside the',
  'review flow, 30% already approved on their head (re-checked, nothing',
  'posted), 2% newly approvable (approved), the rest withheld (an unanswered',
  'thread, or the needs-human label). "Unchanged" is the sweep after the one',
  'that settled the cold sweep\'s own approvals, with nothing changed; "10%',
  'changed" is the next sweep after 10% of the PRs, drawn at random over',
  `every class (seed ${f.sweep_change_seed}), each received one change of a random kind:`,
  `${Object.entries(warmChanges).map(([k, v]) => `${k} ${v}`).join(', ')} — the previous sweep's`,
  'change-detection state (`--state`) in hand. The naive reader re-reads the',
  'original repository.',
  '',
  '## Publish',
  '',
  pub ? `\`publish\` of one review (PUBLISH.md §7.2, §7.3; bench/publish.mjs), ${pub.latency_ms} ms injected per request, beside the seed's gh sequence (bench/seed_publish.mjs: its publish steps 1–7 replayed with fetch, one request per \`gh api\` call, the comment listing as \`gh api --paginate\` sends it: \`per_page=100\`, then rel="next"; each call pays a gh process start, ${pub.seed.gh_start_ms} ms here, ${pub.seed.gh_start_source}). The PR has ${pub.issue_comments} issue comments (${pub.issue_comments_after} with the sticky: one page for gh and for this program, which reads up to 100 per GraphQL request), ${pub.files} files with patches, and findings ${pub.findings.join(', ')} anchored in the diff: the first iteration posts ${threadsOf(pub.first, 'posted').join(', ')} inline (one review) and keeps ${threadsOf(pub.first, 'sticky-only').join(', ')} in the sticky only. Then one commit more, \`review-plan\` for it (incremental), the P1 fixed (\`likely_fixed\`, verified), the others unchanged (their threads exist, nothing posts inline), then the same input again. Counted from fakehub's log; GraphQL points by GitHub's formula.` : '(not measured)',
  '',
  '| publish | key | requests | reads: REST + GraphQL | writes | wall |',
  '|---|---|---|---|---|---|',
  ...publishRows,
  '',
  ...(pub ? [
    `This program's first iteration: ${seqList(pub.first)}; the files' GET and the first GraphQL read go out together, and so do W3's pending status and the GraphQL read after it (P67: a read rides with the request before it; the writes stay serial and paced). Its first read is`,
    'the files (anchors are checked before posting, where the seed would lose',
    'the whole batched review to one 422); then one GraphQL query holds what',
    'the seed never reads: the comments with their edit histories (a sticky',
    'someone else edited is not trusted), the review threads (existing roots,',
    'so a rerun posts nothing twice), the head\'s statuses and the token\'s',
    'login; being the last read before the first write, it is also the re-read',
    'of the head (G). Before the review one read re-checks the head and',
    're-lists the threads; before the reconciling PATCH one read re-reads the',
    'comments and links the posted threads. It writes a pending status where',
    'the seed writes the predicted tier first (X8).',
    `\`review-plan\` of the next head: ${seqList(pub.plan_next)} (the merge base from compare; the last reviewed commit is one of the PR's commits, so no second compare).`,
    `Incremental: ${seqList(pub.incremental)}; unchanged: ${seqList(pub.unchanged)} (no write).`,
    '',
    'The seed\'s figures assume `--paginate` on its sticky lookup; as written',
    `(L1033, no \`--paginate\`) it reads page 1 only: ${pub.seed.literal_first} and ${pub.seed.literal_incremental} requests, and the`,
    `sticky (comment ${pub.issue_comments_after} of ${pub.issue_comments_after}) is not found on the second iteration, which`,
    `posts another (${pub.seed.literal_stickies} stickies on the PR). Its wall time counts the`,
    'requests and one gh start per call, not the jq processes of steps 3 and 5.',
    '',
    ...(pub.wall_pairs ? [
      `Wall times are medians of ${pub.wall_pairs} first publishes of each, in pairs`,
      'whose order alternates, each on a fresh copy of the PR on a warm fakehub',
      `(this program ${pub.first_ms_each.join(', ')} ms; the seed ${pub.seed_first_ms_each.join(', ')} ms; ratio ${(f.publish_first_ms / f.seed_publish_ms).toFixed(2)}).`,
      `The cold first run above (${ms(pub.first_cold_ms)}) met a fakehub whose GraphQL code node had`,
      'not yet compiled, which only this program\'s queries pay. Measured the same',
      'way on 2026-12-03 before P67 (all 9 requests serial): 992 ms against the',
      'seed\'s 851 (1.17).',
      '',
    ] : []),
  ] : []),
  '## One hour on one token',
  '',
  h ? `A sweep every 10 minutes (${h.ticks} in the hour, the first cold, the others warm with the state of the previous one) and, between sweeps, ${(h.change_rate * 100).toFixed(0)}% of the open PRs changing, each change starting one event run (\`run\` with the event's payload). The organisation is swept shard by shard like examples/org-sweep.yml: one run and one state file per repository, every run on the machine account's token. Counted from fakehub's request log: REST requests (reads and writes) and GraphQL points.` : '(not measured)',
  '',
  '| deployment | runs | REST requests | GraphQL points | share of a GITHUB_TOKEN (1,000 + 1,000 per repository) | share of a user token (5,000 + 5,000) | share of an App installation (12,500 + 12,500 at most) |',
  '|---|---|---|---|---|---|---|',
  ...(h ? [hourRow(`${h.repo.open_prs}-PR repository`, h.repo), hourRow(`${num(h.org.open_prs)}-PR organisation (${h.org.repositories} × ${h.org.open_prs / h.org.repositories})`, h.org)] : []),
  '',
  '| deployment | part | runs | REST requests | GraphQL queries | GraphQL points | writes |',
  '|---|---|---|---|---|---|---|',
  ...(h ? [...partRows(`${h.repo.open_prs}-PR repository`, h.repo), ...partRows(`${num(h.org.open_prs)}-PR organisation`, h.org)] : []),
  '',
  'GraphQL points of the organisation\'s hour per kind of document, as the program counts them (`AGENTIC_STATS=1`, `graphql_by_query`):',
  '',
  '| part | document | queries | points |',
  '|---|---|---|---|',
  ...(h ? queryRows(h.org) : []),
  '',
  'Event runs of the organisation\'s hour, per kind of change (averages per run):',
  '',
  '| change | runs | REST requests | GraphQL points | writes |',
  '|---|---|---|---|---|',
  ...(h ? kindRows(h.org) : []),
  '',
  'Each change starts one run with the event GitHub sends for it: a comment',
  '(half of them the conductor\'s check verdict for the head\'s round, which',
  'runs apply, then the gate) and a comment edit `issue_comment`, a label',
  'and a push `pull_request_target`, a status `status`. examples/agentic.yml',
  'subscribes to nothing for a review or a thread reply and its `if:` drops',
  'a person\'s comment or a CI status; those runs are counted anyway',
  '(`workflow_dispatch` of the PR stands in for the first two), so the event',
  'figures are an upper bound. Time is simulated: fakehub\'s state changes',
  'between runs, fakehub\'s clock is set to each run\'s time, and the sweep',
  'state files are aged 600 s per 10 minutes (the program has no clock',
  'override), so `AGENTIC_SWEEP_STATE_TTL` (3,600 s) sees the ages it would;',
  'within the hour no entry reaches it. Writes are not paced in the hour',
  '(`AGENTIC_WRITE_INTERVAL_MS=0`): that changes wall time, not the counts.',
  'The hour\'s totals are counted, not enforced: fakehub gives every run a',
  'fresh limit, so a deployment over its budget shows here as a share above',
  '100% where on GitHub the sweeps would stop at their reserve (docs/sweep.md)',
  'and leave PRs not reached.',
  '',
].filter((line) => line !== null).join('\n');
writeFileSync(outFile, md);
console.log(`written to ${outFile}`);
