// Helpers for fakehub's own tests (kept outside test/ so node --test does not run it).
import { spawn } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export const SERVER = new URL('./server.mjs', import.meta.url).pathname;
export const TOKEN = 'test-token';

/** A deterministic 40-hex SHA for a tag. */
export const sha = (tag) => createHash('sha1').update(String(tag)).digest('hex');

export const SHA = {
  c1: sha('c1'), c2: sha('c2'), h7: sha('h7'), h8: sha('h8'), h9: sha('h9'), h10: sha('h10'),
  stale: sha('force-pushed-away'),
};

/** The scenario most tests start from (a fresh copy every call). */
export function baseSnapshot() {
  return {
    snapshot: 1,
    repository: 'lf/svc',
    viewer: 'lfx-reviewer',
    config: { unlabelers: ['alice', 'bob'] },
    event: { name: 'issue_comment', payload: {} },
    pulls: [
      {
        number: 7,
        state: 'open', merged: false, draft: false,
        author: 'dev1',
        head: { sha: SHA.h7, ref: 'feature', repository: 'lf/svc' },
        base: { ref: 'main' },
        labels: ['needs-human'],
        commits: [SHA.c1, SHA.c2, SHA.h7],
        comments: [
          { id: 501, author: 'lfx-reviewer', created_at: '2026-11-29T10:05:00Z', body: 'verdict', edited_by: null, edited_at: null },
          { id: 503, author: 'copilot-pull-request-reviewer[bot]', created_at: '2026-11-29T10:06:00Z', body: 'bot says', edited_by: null, edited_at: null },
          { id: 3000000001, author: null, created_at: '2026-11-29T10:07:00Z', body: 'from a deleted account', edited_by: null, edited_at: null },
          { id: 502, author: 'dev1', created_at: '2026-11-29T10:05:30Z', body: 'edited', edited_by: 'dev1', edited_at: '2026-11-29T11:00:00Z' },
        ],
        timeline: [
          { id: 9100, event: 'base_ref_changed', actor: 'dev1', created_at: '2026-11-29T10:01:00Z', previous_ref: 'release', current_ref: 'main' },
          { id: 9001, event: 'unlabeled', label: 'needs-human', actor: 'alice', created_at: '2026-11-29T10:00:00Z' },
          { id: 8999, event: 'labeled', label: 'needs-human', actor: 'lfx-reviewer', created_at: '2026-11-29T09:00:00Z' },
        ],
        threads: [
          { id: 'PRRT_1', author: 'copilot-pull-request-reviewer', comments: 2, resolved: false },
          { id: 'PRRT_2', author: 'alice', comments: 1, resolved: true },
        ],
        reviews: [
          { id: 72, author: 'copilot-pull-request-reviewer[bot]', state: 'COMMENTED', commit_id: SHA.h7, submitted_at: '2026-11-29T10:04:00Z' },
          { id: 71, author: 'lfx-reviewer', state: 'APPROVED', commit_id: SHA.c2, submitted_at: '2026-11-29T10:02:00Z' },
        ],
      },
      {
        number: 8,
        state: 'open', merged: false, draft: true,
        author: 'lfx-reviewer',
        head: { sha: SHA.h8, ref: 'patch-1', repository: 'someone/svc' },
        base: { ref: 'main' },
        labels: [],
        commits: [SHA.h8],
      },
      {
        number: 9,
        state: 'closed', merged: true,
        author: 'dev2',
        head: { sha: SHA.h9, ref: 'old', repository: 'lf/svc' },
        base: { ref: 'main' },
        commits: [SHA.h9],
      },
      {
        number: 10,
        state: 'closed', merged: false,
        author: 'dev2',
        head: { sha: SHA.h10, ref: 'abandoned', repository: 'lf/svc' },
        base: { ref: 'main' },
      },
    ],
    labels: ['needs-human', 'bug'],
    statuses: {
      [SHA.h7]: [
        { id: 1000, state: 'pending', context: 'agentic-review/clean', description: 'conductor pr=#7: awaiting review round', creator: 'lfx-reviewer', created_at: '2026-11-29T10:03:00Z', target_url: null },
        { id: 1002, state: 'success', context: 'ci/build', description: 'built', creator: 'ci-runner[bot]', created_at: '2026-11-29T10:03:30Z', target_url: 'http://127.0.0.1/ci/1' },
        { id: 1001, state: 'failure', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=false', creator: 'mallory', created_at: '2026-11-29T10:03:10Z', target_url: null },
      ],
      [SHA.h8]: [
        { id: 1500, state: 'success', context: 'agentic-review/clean', description: 'conductor pr=#8: clean=true', creator: 'lfx-reviewer', created_at: '2026-11-29T10:03:00Z', target_url: null },
      ],
    },
  };
}

/** A snapshot with long lists: PR 20 has 300 commits, 250 comments; its head has 120 statuses; 45 open pulls. */
export function bigSnapshot() {
  const commits = Array.from({ length: 300 }, (_, i) => sha(`big-${i}`));
  const head = commits[commits.length - 1];
  const pulls = [{
    number: 20,
    state: 'open', author: 'dev1',
    head: { sha: head, ref: 'big', repository: 'lf/svc' },
    base: { ref: 'main' },
    labels: [],
    commits,
    comments: Array.from({ length: 250 }, (_, i) => ({
      id: 10000 + i, author: i % 2 ? 'alice' : 'bob', created_at: '2026-11-29T10:00:00Z', body: `comment ${i}`,
    })),
  }];
  for (let n = 100; n < 145; n += 1) {
    pulls.push({ number: n, state: 'open', author: 'dev2', head: { sha: sha(`pr-${n}`), ref: `b${n}` }, base: { ref: 'main' } });
  }
  return {
    snapshot: 1,
    repository: 'lf/svc',
    event: { name: 'schedule', payload: {} },
    pulls,
    statuses: {
      [head]: Array.from({ length: 120 }, (_, i) => ({
        id: 5000 + i, state: 'success', context: `ctx-${i % 3}`, description: `s${i}`, creator: 'lfx-reviewer', created_at: '2026-11-29T10:00:00Z', target_url: null,
      })),
    },
  };
}

/** baseSnapshot() with the GitHub App extension, trusting `publicKeyPem`. */
export function appSnapshot(publicKeyPem) {
  return {
    ...baseSnapshot(),
    app: { id: 4242, slug: 'agentic-apply-bot', public_key: publicKeyPem, installation_id: 777, token_ttl_s: 3600 },
  };
}

/**
 * A JWT signed RS256 with `privateKeyPem` over `claims` (undefined claims are
 * left out). `options.header` replaces {"alg":"RS256","typ":"JWT"}.
 */
export function makeJwt(privateKeyPem, claims, options = {}) {
  const enc = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
  const header = enc(options.header ?? { alg: 'RS256', typ: 'JWT' });
  const payload = enc(Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), createPrivateKey(privateKeyPem)).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

let tmp;
function tmpFile(name, text) {
  tmp ??= mkdtempSync(path.join(tmpdir(), 'fakehub-test-'));
  const file = path.join(tmp, `${Date.now()}-${Math.random().toString(16).slice(2)}-${name}`);
  writeFileSync(file, text);
  return file;
}

export function writeSnapshot(snapshot) {
  return tmpFile('snapshot.json', JSON.stringify(snapshot));
}

/** Spawns the server; resolves to a handle once it printed its URL. */
export async function startServer({ snapshot = baseSnapshot(), args = [] } = {}) {
  const file = writeSnapshot(snapshot);
  const proc = spawn(process.execPath, [SERVER, '--snapshot', file, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const lines = createInterface({ input: proc.stdout });
  const [first] = await Promise.race([
    once(lines, 'line'),
    once(proc, 'exit').then(([code]) => { throw new Error(`fakehub exited ${code}: ${stderr}`); }),
  ]);
  return new Hub(first.trim(), proc, () => stderr);
}

/** Runs the server expecting it to fail; resolves to { code, stdout, stderr }. */
export async function runServer(argv) {
  const proc = spawn(process.execPath, [SERVER, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => { stdout += d; });
  proc.stderr.on('data', (d) => { stderr += d; });
  const [code] = await once(proc, 'exit');
  return { code, stdout, stderr };
}

export class Hub {
  constructor(base, proc, stderr) {
    this.base = base;
    this.proc = proc;
    this.stderr = stderr;
  }

  /** fetch against the server; returns { status, headers, body (parsed JSON or text), text }. */
  async api(method, urlPath, { body, token = TOKEN, headers = {}, signal } = {}) {
    const h = { ...headers };
    if (token !== null) h.authorization = `Bearer ${token}`;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(this.base + urlPath, {
      method,
      headers: h,
      body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)),
      signal,
    });
    const text = await res.text();
    let parsed = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* keep text */ }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(p, o) { return this.api('GET', p, o); }
  post(p, body, o = {}) { return this.api('POST', p, { ...o, body }); }
  put(p, body, o = {}) { return this.api('PUT', p, { ...o, body }); }

  async gql(query, variables = {}, o = {}) {
    return this.api('POST', '/graphql', { ...o, body: { query, variables } });
  }

  async state() { return (await this.get('/_fakehub/state', { token: null })).body; }
  async log() { return (await this.get('/_fakehub/log', { token: null })).body; }
  async clearLog() { return this.post('/_fakehub/log/clear', undefined, { token: null }); }

  async setState(snapshot) {
    const r = await this.post('/_fakehub/state', snapshot, { token: null });
    if (r.status !== 200) throw new Error(`setState: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  }

  async setFaults(faults) {
    const r = await this.post('/_fakehub/faults', faults, { token: null });
    if (r.status !== 200) throw new Error(`setFaults: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  }

  async stop() {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return this.proc.exitCode;
    this.proc.kill('SIGTERM');
    const [code] = await once(this.proc, 'exit');
    return code;
  }
}

/** Parses a Link header into { rel: url }. */
export function parseLink(header) {
  const out = {};
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (m) out[m[2]] = m[1];
  }
  return out;
}

/** The GraphQL selection of a pull request the program reads in one query. */
export const PR_QUERY = `
query($owner: String!, $name: String!, $n: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $n) {
      id number state merged isDraft isCrossRepository
      author { login __typename }
      headRefOid headRefName headRepository { nameWithOwner } baseRefName updatedAt url
      labels(first: 100) { totalCount nodes { name color } pageInfo { hasNextPage endCursor } }
      comments(first: 100) {
        totalCount
        pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
        edges { cursor node { id databaseId fullDatabaseId author { login __typename } body createdAt lastEditedAt editor { login } url } }
      }
      timelineItems(first: 100, itemTypes: [UNLABELED_EVENT, BASE_REF_CHANGED_EVENT]) {
        totalCount
        nodes {
          __typename
          ... on UnlabeledEvent { id actor { login } createdAt label { name } }
          ... on BaseRefChangedEvent { id databaseId actor { login } createdAt currentRefName previousRefName }
        }
      }
      reviewThreads(first: 100) { totalCount nodes { id isResolved comments(first: 1) { totalCount nodes { author { login } } } } }
      reviews(first: 100) { totalCount nodes { id databaseId fullDatabaseId author { login } state commit { oid } submittedAt } }
      commits(last: 1) { totalCount nodes { commit { oid status { contexts { context state description createdAt creator { login } targetUrl } } } } }
    }
  }
}`;

export const PR_VARS = { owner: 'lf', name: 'svc', n: 7 };
