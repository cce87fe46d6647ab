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
 * A repository of `n` open PRs in the review flow. Kind by index: most are
 * approvable (clean, answered, `no` verdict); every 4th withholds (an
 * unanswered thread); every 10th has no stamp (not in the flow).
 */
export function repository(n, { seed = 1 } = {}) {
  const pulls = [];
  const statuses = {};
  let sid = 1000;
  for (let i = 1; i <= n; i++) {
    const head = hex(i, seed);
    const stamped = i % 10 !== 0;
    const answered = i % 4 !== 0;
    pulls.push({
      number: i, state: 'open', merged: false, draft: false, author: 'dev1',
      head: { sha: head, ref: `feature-${i}`, repository: 'lf/bench' },
      base: { ref: 'main' },
      updated_at: T(60),
      labels: [], commits: [head],
      comments: [{
        id: 500000 + i, author: 'lfx-reviewer', created_at: T(10),
        body: `<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n<!-- head: ${head} -->\n<!-- base: main -->\n### No human sign-off required\n\nRoutine change.`,
        edited_by: null, edited_at: null, html_url: `https://github.com/lf/bench/pull/${i}#issuecomment-${500000 + i}`,
      }],
      timeline: [],
      threads: [
        { id: `PRRT_${i}_a`, author: 'copilot-pull-request-reviewer', comments: 2, resolved: true },
        { id: `PRRT_${i}_b`, author: 'copilot-pull-request-reviewer', comments: answered ? 3 : 1, resolved: false },
      ],
      reviews: [],
    });
    if (stamped) {
      statuses[head] = [
        { id: ++sid, state: 'pending', context: 'agentic-review/clean', description: `conductor pr=#${i}: awaiting review round`, creator: 'lfx-reviewer', created_at: T(5), target_url: null },
        { id: ++sid, state: 'success', context: 'agentic-review/clean', description: `conductor pr=#${i}: clean=true`, creator: 'lfx-reviewer', created_at: T(20), target_url: null },
      ];
    }
  }
  return { snapshot: 1, repository: 'lf/bench', viewer: 'lfx-reviewer', event: { name: 'schedule', payload: {} }, pulls, statuses };
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
    const r = await fetch(url + path, { method, body: body && JSON.stringify(body), headers: { 'content-type': 'application/json' } });
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

export function runProgram(bin, args, hub, extraEnv = {}) {
  const env = {
    ...process.env, GITHUB_API_URL: hub.url, GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
    GITHUB_REPOSITORY: 'lf/bench', GITHUB_TOKEN: 'bench-token', ...extraEnv,
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
