// Shared pieces of the live benchmarks: generated repositories, a fakehub
// process, and running the program against it.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';

const hex = (n, seed) => {
  let s = '';
  let x = (seed * 2654435761 + n * 40503) >>> 0;
  while (s.length < 40) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += (x >>> 8).toString(16).padStart(6, '0');
  }
  return s.slice(0, 40);
};

const T = (min) => new Date(Date.UTC(2026, 10, 29, 9, 0, 0) + min * 60000).toISOString().replace('.000Z', 'Z');

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

/** A repository of `n` open PRs (kinds by kindOf). */
export function repository(n, { seed = 1 } = {}) {
  const pulls = [];
  const statuses = {};
  let sid = 1000;
  for (let i = 1; i <= n; i++) {
    const kind = kindOf(i);
    const head = hex(i, seed);
    pulls.push({
      number: i, state: 'open', merged: false, draft: false, author: 'dev1',
      head: { sha: head, ref: `feature-${i}`, repository: 'lf/bench' },
      base: { ref: 'main' },
      updated_at: T(60),
      labels: kind === 'labeled' ? ['needs-human'] : [], commits: [head],
      comments: [{
        id: 500000 + i, author: 'lfx-reviewer', created_at: T(10),
        body: `<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n<!-- head: ${head} -->\n<!-- base: main -->\n### No human sign-off required\n\nRoutine change.`,
        edited_by: null, edited_at: null, html_url: `https://github.com/lf/bench/pull/${i}#issuecomment-${500000 + i}`,
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
        { id: ++sid, state: 'success', context: 'agentic-review/clean', description: `conductor pr=#${i}: clean=true`, creator: 'lfx-reviewer', created_at: T(20), target_url: `https://github.com/lf/bench/pull/${i}#issuecomment-${600000 + i}` },
      ];
    }
  }
  return { snapshot: 1, repository: 'lf/bench', viewer: 'lfx-reviewer', event: { name: 'schedule', payload: {} }, pulls, statuses };
}

/** Change every k-th PR the way activity does: a new comment, a later update. */
export function touch(snapshot, every) {
  const s = structuredClone(snapshot);
  s.pulls.forEach((p, idx) => {
    if (idx % every !== 0) return;
    p.comments.push({ id: 800000 + p.number, author: 'dev1', created_at: T(90), body: 'A question.', edited_by: null, edited_at: null });
    p.updated_at = T(90);
  });
  return s;
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
    stop: () => child.kill('SIGTERM'),
  };
}

/** Peak RSS and request counts from AGENTIC_STATS=1's line on stderr. */
export function stats(stderr) {
  const m = /stats: requests=(\d+) reads=(\d+) writes=(\d+) retries=(\d+) bytes_in=(\d+) peak_rss_kb=(\d+)/.exec(stderr);
  if (!m) return null;
  const [requests, reads, writes, retries, bytesIn, rssKb] = m.slice(1).map(Number);
  return { requests, reads, writes, retries, bytesIn, rssKb };
}

export function runProgram(bin, args, hub, extraEnv = {}) {
  const env = {
    ...process.env, GITHUB_API_URL: hub.url, GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
    GITHUB_REPOSITORY: 'lf/bench', GITHUB_TOKEN: 'bench-token', AGENTIC_STATS: '1', ...extraEnv,
  };
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms };
}

export const isWrite = (e) => e.method !== 'GET' && !(e.method === 'POST' && e.path === '/graphql');

export function writeJson(path, obj) {
  writeFileSync(path, JSON.stringify(obj, null, 2) + '\n');
}
