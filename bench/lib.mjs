// Shared pieces of the live benchmarks: generated repositories, a fakehub
// process, and running the program against it.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const hex = (n, seed) => {
  let s = '';
  let x = (seed * 2654435761 + n * 40503) >>> 0;
  while (s.length < 40) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += (x >>> 8).toString(16).padStart(6, '0');
  }
  return s.slice(0, 40);
};

/** A UTC time `min` minutes after the generated history's start, GitHub's format. */
export const T = (min, base = Date.UTC(2026, 10, 29, 9, 0, 0)) => new Date(base + min * 60000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A seeded generator of floats in [0, 1) (mulberry32): reproducible runs. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What PR i is in a generated repository — a steady state, as after earlier
 * sweeps: 10% not in the review flow, 30% already approved on their head,
 * 2% newly approvable (the sweep posts those approvals), the rest withheld
 * (an unanswered thread, or the needs-human label on every 4th).
 */
export function kindOf(i) {
  if (i % 10 === 0) return 'unstamped';
  if (i % 10 <= 3) return 'approved';
  if (i % 50 === 4) return 'approvable';
  return i % 4 === 0 ? 'labeled' : 'unanswered';
}

/** A repository of `n` open PRs (kinds by kindOf), named `name`. */
export function repository(n, { seed = 1, name = 'lf/bench' } = {}) {
  const pulls = [];
  const statuses = {};
  let sid = 1000;
  for (let i = 1; i <= n; i++) {
    const kind = kindOf(i);
    const head = hex(i, seed);
    pulls.push({
      number: i, state: 'open', merged: false, draft: false, author: 'dev1',
      head: { sha: head, ref: `feature-${i}`, repository: name },
      base: { ref: 'main' },
      updated_at: T(60),
      labels: kind === 'labeled' ? ['needs-human'] : [], commits: [head],
      comments: [{
        id: 500000 + i, author: 'lfx-reviewer', created_at: T(10),
        body: `<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n<!-- head: ${head} -->\n<!-- base: main -->\n### No human sign-off required\n\nRoutine change.`,
        edited_by: null, edited_at: null, html_url: `https://github.com/${name}/pull/${i}#issuecomment-${500000 + i}`,
      }],
      timeline: [],
      threads: [
        { id: `PRRT_${i}_a`, author: 'copilot-pull-request-reviewer', comments: 2, resolved: true },
        { id: `PRRT_${i}_b`, author: 'copilot-pull-request-reviewer', comments: kind === 'unanswered' ? 1 : 3, resolved: false },
      ],
      reviews: kind === 'approved'
        ? [{ id: 700000 + i, author: 'lfx-reviewer', state: 'APPROVED', commit_id: head, submitted_at: T(30) }]
        : [],
    });
    if (kind !== 'unstamped') {
      statuses[head] = [
        { id: ++sid, state: 'pending', context: 'agentic-review/clean', description: `conductor pr=#${i}: awaiting review round`, creator: 'lfx-reviewer', created_at: T(5), target_url: null },
        { id: ++sid, state: 'success', context: 'agentic-review/clean', description: `conductor pr=#${i}: clean=true`, creator: 'lfx-reviewer', created_at: T(20), target_url: `https://github.com/${name}/pull/${i}#issuecomment-${600000 + i}` },
      ];
    }
  }
  return { snapshot: 1, repository: name, viewer: 'lfx-reviewer', event: { name: 'schedule', payload: {} }, pulls, statuses };
}

/**
 * The kinds of change activity brings to a PR, each with the event GitHub
 * delivers for it to the workflow of examples/agentic.yml:
 *
 * | kind | what changes | event |
 * |---|---|---|
 * | comment | half the time the conductor's check verdict for the head's newest round (when it has one), else a person's comment | issue_comment created |
 * | comment_edit | a person edits their comment, or (none) the conductor edits its needs-human verdict | issue_comment edited |
 * | review | a person's COMMENTED review on the head | none subscribed: workflow_dispatch stands in |
 * | thread_reply | one more comment on a review thread (updated_at moves) | none subscribed: workflow_dispatch stands in |
 * | label | `needs-human` (3 in 10, when absent) or another label added by a person | pull_request_target labeled |
 * | push | a new head commit | pull_request_target synchronize |
 * | status | a CI status, or the conductor's round stamp (pending), on the head | status |
 *
 * Every change "starts one event run" (the budget of issue 13): where the
 * example workflow subscribes to no event (review, thread reply) or its
 * `if:` would drop the event (a person's comment, a CI status), the run
 * is counted anyway — an upper bound of the event traffic.
 */
export const CHANGE_KINDS = ['comment', 'comment_edit', 'review', 'thread_reply', 'label', 'push', 'status'];

const TRUSTED = 'lfx-reviewer';
const CLEAN = 'agentic-review/clean';

/** The largest ids in a snapshot, to hand out new ones. */
function idBook(s) {
  const max = { comment: 900000, review: 900000, status: 900000, timeline: 900000 };
  for (const p of s.pulls) {
    for (const c of p.comments ?? []) max.comment = Math.max(max.comment, c.id);
    for (const r of p.reviews ?? []) max.review = Math.max(max.review, r.id);
    for (const e of p.timeline ?? []) max.timeline = Math.max(max.timeline, e.id);
  }
  for (const list of Object.values(s.statuses ?? {})) for (const st of list) max.status = Math.max(max.status, st.id);
  return { next: (k) => ++max[k] };
}

const randomSha = (rnd) => Array.from({ length: 5 }, () => Math.floor(rnd() * 2 ** 32).toString(16).padStart(8, '0')).join('');

/** The newest trusted round stamp of PR p on its head, or null. */
function newestRound(s, p) {
  const mine = (s.statuses?.[p.head.sha] ?? []).filter((st) => st.creator === TRUSTED && st.context === CLEAN
    && st.state === 'pending' && st.description.includes(`pr=#${p.number}:`));
  return mine.length ? mine.reduce((a, b) => (a.id > b.id ? a : b)) : null;
}

/**
 * Applies one change of `kind` to PR `number` of snapshot `s` (in place, at
 * time `at`, random choices from `rnd`); returns the event it starts
 * ({name, payload}).
 */
export function applyChange(s, number, kind, { rnd = rng(1), at = T(90) } = {}) {
  s.statuses ??= {};
  const p = s.pulls.find((x) => x.number === number);
  if (!p) throw new Error(`no PR #${number} in ${s.repository}`);
  return change(s, p, kind, rnd, idBook(s), at);
}

function change(s, p, kind, rnd, ids, at) {
  const n = p.number;
  const repo = s.repository;
  const issue = { number: n, pull_request: { url: `https://api.github.com/repos/${repo}/pulls/${n}` } };
  const pullPayload = () => ({ number: n, pull_request: { number: n, head: { sha: p.head.sha, ref: p.head.ref, repo: { full_name: repo } }, base: { ref: p.base.ref } }, repository: { full_name: repo } });
  const dispatch = { name: 'workflow_dispatch', payload: { inputs: { pr: String(n) }, ref: 'refs/heads/main' } };
  const person = rnd() < 0.5 ? 'dev1' : 'dev2';
  p.updated_at = at;
  switch (kind) {
    case 'comment': {
      const round = newestRound(s, p);
      const id = ids.next('comment');
      const html = `https://github.com/${repo}/pull/${n}#issuecomment-${id}`;
      let c;
      if (round && rnd() < 0.5) {
        const clean = (s.statuses[p.head.sha] ?? []).filter((st) => st.creator === TRUSTED && st.context === CLEAN && st.description.includes(`pr=#${n}:`))
          .reduce((a, b) => (a && a.id > b.id ? a : b), null)?.state === 'success' || rnd() < 0.5;
        c = { id, author: TRUSTED, created_at: at, edited_by: null, edited_at: null, html_url: html,
          body: `### Agentic review check\n\n<details>\n<summary>Machine ledger (conductor state)</summary>\n\n<!-- agentic:check v1 -->\nhead: ${p.head.sha}\nround: ${round.id}\nclean: ${clean}\nthreads:\n\n</details>` };
      } else {
        c = { id, author: person, created_at: at, edited_by: null, edited_at: null, html_url: html, body: 'A question about this change.' };
      }
      p.comments.push(c);
      return { name: 'issue_comment', payload: { action: 'created', issue, comment: { id, user: { login: c.author }, body: c.body, created_at: at, html_url: html }, repository: { full_name: repo } } };
    }
    case 'comment_edit': {
      const theirs = p.comments.filter((c) => c.author !== TRUSTED);
      const c = theirs.length ? theirs[theirs.length - 1] : p.comments[0];
      c.edited_by = c.author;
      c.edited_at = at;
      c.edits = [...(c.edits ?? []), { editor: c.author, edited_at: at }];
      return { name: 'issue_comment', payload: { action: 'edited', issue, comment: { id: c.id, user: { login: c.author }, body: c.body, created_at: c.created_at, html_url: c.html_url }, changes: { body: { from: c.body } }, repository: { full_name: repo } } };
    }
    case 'review':
      p.reviews.push({ id: ids.next('review'), author: person, state: 'COMMENTED', commit_id: p.head.sha, submitted_at: at, body: 'One remark.' });
      return dispatch;
    case 'thread_reply': {
      const t = p.threads[Math.floor(rnd() * p.threads.length)];
      t.comments += 1;
      return dispatch;
    }
    case 'label': {
      const has = (l) => p.labels.some((x) => x.toLowerCase() === l);
      const label = !has('needs-human') && rnd() < 0.3 ? 'needs-human' : ['enhancement', 'bug', 'dependencies'].find((l) => !has(l)) ?? 'enhancement';
      if (!has(label)) p.labels.push(label);
      p.timeline.push({ id: ids.next('timeline'), event: 'labeled', label, actor: person, created_at: at });
      return { name: 'pull_request_target', payload: { action: 'labeled', label: { name: label }, ...pullPayload() } };
    }
    case 'push': {
      const sha = randomSha(rnd);
      p.commits.push(sha);
      p.head.sha = sha;
      return { name: 'pull_request_target', payload: { action: 'synchronize', before: p.commits[p.commits.length - 2], after: sha, ...pullPayload() } };
    }
    case 'status': {
      const st = rnd() < 0.5
        ? { id: ids.next('status'), state: 'success', context: 'ci/build', description: 'Build and unit tests passed', creator: 'github-actions[bot]', created_at: at, target_url: null }
        : { id: ids.next('status'), state: 'pending', context: CLEAN, description: `conductor pr=#${n}: awaiting review round`, creator: TRUSTED, created_at: at, target_url: null };
      (s.statuses[p.head.sha] ??= []).push(st);
      return { name: 'status', payload: { id: st.id, sha: p.head.sha, state: st.state, context: st.context, description: st.description, target_url: null, sender: { login: st.creator }, repository: { full_name: repo } } };
    }
    default:
      throw new Error(`unknown change kind ${kind}`);
  }
}

/**
 * Activity on a copy of `snapshot`: `count` PRs (or `fraction` of them)
 * drawn at random over every PR — whatever its class — each receiving one
 * change of a random kind (CHANGE_KINDS, or `kinds`), at time `at`.
 * Seeded: the same seed gives the same changes. Returns { snapshot,
 * changes: [{ pr, kind, event: {name, payload} }] }.
 */
export function touch(snapshot, { fraction = 0.1, count, seed = 1, at = T(90), kinds = CHANGE_KINDS, rnd = rng(seed) } = {}) {
  const s = structuredClone(snapshot);
  s.statuses ??= {};
  const open = s.pulls.filter((p) => p.state === 'open');
  const k = Math.min(open.length, count ?? Math.round(open.length * fraction));
  for (let i = 0; i < k; i++) { // partial Fisher-Yates: k distinct PRs
    const j = i + Math.floor(rnd() * (open.length - i));
    [open[i], open[j]] = [open[j], open[i]];
  }
  const ids = idBook(s);
  const changes = open.slice(0, k).sort((a, b) => a.number - b.number).map((p) => {
    const kind = kinds[Math.floor(rnd() * kinds.length)];
    return { pr: p.number, kind, event: change(s, p, kind, rnd, ids, at) };
  });
  return { snapshot: s, changes };
}

export async function startFakehub(snapshotPath, latencyMs = 0) {
  const args = ['tests/fakehub/server.mjs', '--snapshot', snapshotPath];
  if (latencyMs) args.push('--latency-ms', String(latencyMs));
  const child = spawn('node', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    rl.once('line', resolve);
    child.once('exit', (c) => reject(new Error(`fakehub exited ${c}`)));
  });
  const call = async (method, path, body) => {
    // connection: close — the program runs synchronously for seconds, long
    // enough for the server to drop an idle kept-alive socket under us.
    const r = await fetch(url + path, { method, body: body && JSON.stringify(body), headers: { 'content-type': 'application/json', connection: 'close' } });
    const text = await r.text();
    return text ? JSON.parse(text) : null;
  };
  return {
    url,
    log: () => call('GET', '/_fakehub/log'),
    clearLog: () => call('POST', '/_fakehub/log/clear', {}),
    setState: (s) => call('POST', '/_fakehub/state', s),
    state: () => call('GET', '/_fakehub/state'),
    // fakehub's clock (the times it writes): `at` epoch seconds, or null for real time
    clock: (at) => call('POST', '/_fakehub/clock', { offset_s: at === null ? 0 : Math.round(at - Date.now() / 1000) }),
    stop: () => child.kill('SIGTERM'),
  };
}

/** Peak RSS, request counts and GraphQL points from AGENTIC_STATS=1's line on stderr. */
export function stats(stderr) {
  const m = /stats: requests=(\d+) reads=(\d+) writes=(\d+) retries=(\d+) graphql_points=(\d+) bytes_in=(\d+) peak_rss_kb=(\d+)/.exec(stderr);
  if (!m) return null;
  const [requests, reads, writes, retries, points, bytesIn, rssKb] = m.slice(1).map(Number);
  // graphql_by_query=kind:queries:points,… ("-": none): the program's own count per kind of document.
  const byQuery = {};
  const q = /graphql_by_query=(\S+)/.exec(stderr);
  for (const item of q && q[1] !== '-' ? q[1].split(',') : []) {
    const [kind, queries, pts] = item.split(':');
    byQuery[kind] = { queries: Number(queries), points: Number(pts) };
  }
  return { requests, reads, writes, retries, points, bytesIn, rssKb, byQuery };
}

export function runProgram(bin, args, hub, extraEnv = {}) {
  const env = {
    ...process.env, GITHUB_API_URL: hub.url, GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
    GITHUB_REPOSITORY: 'lf/bench', GITHUB_TOKEN: 'bench-token', AGENTIC_STATS: '1', ...extraEnv,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms };
}

export const isWrite = (e) => e.method !== 'GET' && !(e.method === 'POST' && e.path === '/graphql');
export const isGraphql = (e) => e.path === '/graphql';

/**
 * What a slice of fakehub's log cost against GitHub's limits: REST requests
 * (the `core` resource: every REST call, reads and writes) and GraphQL
 * requests and points (fakehub's `points`, GitHub's formula).
 */
export function costOf(log) {
  const gql = log.filter(isGraphql);
  return {
    requests: log.length,
    reads: log.filter((e) => !isWrite(e)).length,
    writes: log.filter(isWrite).length,
    rest: log.length - gql.length,
    graphql: gql.length,
    points: gql.reduce((sum, e) => sum + (e.points ?? 0), 0),
  };
}

/** The program under test: --bin PATH, else $AGENTIC_BIN, else build/agentic-apply. */
export function programPath(argv = process.argv) {
  const i = argv.indexOf('--bin');
  return i > 0 ? argv[i + 1] : (process.env.AGENTIC_BIN || 'build/agentic-apply');
}

/** A copy of the program that a rebuild during the run cannot swap (other engineers rebuild). */
export function pinProgram(bin, dir) {
  const copy = path.join(dir, 'agentic-apply');
  copyFileSync(bin, copy);
  chmodSync(copy, 0o755);
  return copy;
}

export function writeJson(path, obj) {
  writeFileSync(path, JSON.stringify(obj, null, 2) + '\n');
}
