// make bench, GitLab publish part (issue 26): requests and wall time of a
// first `publish` on a GitLab merge request, against the fake GitLab
// (tests/fakegitlab) with injected latency per request, beside the seed's
// glab sequence on the same MR (user probe, MR, notes pages, POST of the
// sticky, the pending status, one discussion POST per inline finding, the
// PUT of the reconciled sticky, the final status), which pays a process
// start per glab call (glab is rarely installed: gh's start, or FACTS.md's,
// stands in for it, named in the output).
//   node bench/publish_gitlab.mjs [--bin PATH] [--latency-ms N] [--out build/bench.json]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { T, writeJson, programPath, pinProgram } from './lib.mjs';
import { ghStartMs } from './seed_publish.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const latency = Number(arg('--latency-ms', 100));
const out = arg('--out', 'build/bench.json');
const work = mkdtempSync(path.join(tmpdir(), 'agentic-bench-gitlab-'));
const bin = pinProgram(programPath(), work);

const HOST = 'gitlab.example.com';
const REPO = 'platform/backend/svc';
const IID = 7;
const NOTES = 60;
const H1 = '7e'.repeat(20);
const DIFF = `@@ -10,4 +10,6 @@\n func Get(id string) *Session {\n+\tmu.Lock()\n+\tsess := cache.Get(id)\n-\treturn cache.Get(id)\n+\treturn sess\n }\n`;
const HANDLER = `@@ -0,0 +1,30 @@\n${Array.from({ length: 30 }, (_, i) => `+line ${i + 1} of the handler`).join('\n')}\n`;

const finding = (n, p, slug, file, line, extra = {}) => ({
  id: `F${n}`, p_code: p, severity_emoji: { P1: '⚠️', P2: '💡', P3: '🔧' }[p], slug, category: `[E${n} ${slug}]`,
  file, line_start: line, line_end: line, confidence: 'high', blast: 'Local', justification: 'Reachable',
  failure_mode: `the ${slug} path returns a stale session`, mitigation: 're-read it under the lock',
  evidence: `+\tsess := cache.Get(id) // ${slug}`, details: null, disposition: 'open', author_reply: null,
  accepted_exception: null, severity_adjustment: null, ...extra,
});
const FINDINGS = [
  finding(1, 'P1', 'session-race', 'src/auth/session.go', 12),
  finding(2, 'P2', 'lock-order', 'src/auth/session.go', 11),
  finding(3, 'P2', 'handler-leak', 'src/api/handler.go', 5),
  finding(4, 'P3', 'naming-drift', 'src/api/handler.go', 20, { confidence: 'medium' }),
];
const INPUT = {
  mode: 'full', base: 'main', head: H1, last_sha: null,
  subagents_dispatched: ['security-reviewer', 'staff-engineer'], subagent_failures: [],
  shape_narrative: 'one cluster', findings: FINDINGS, spec_gaps: [], prior_verifications: [], checked_and_clean: [],
};

function snapshot() {
  const people = ['dev1', 'dev2', 'ci-bot', 'maint1'];
  return {
    snapshot: 1, platform: 'gitlab', host: HOST, repository: REPO, project_id: 42, viewer: 'lfx-reviewer',
    config: { review_login: 'lfx-reviewer' }, pulls: [],
    merge_requests: [{
      iid: IID, state: 'opened', author: 'dev1', source_branch: 'feature', target_branch: 'main', sha: H1,
      diff_refs: { base_sha: 'ba'.repeat(20), start_sha: 'ba'.repeat(20), head_sha: H1 },
      commits: ['c1'.repeat(20), H1],
      notes: Array.from({ length: NOTES }, (_, i) => ({
        id: 1001 + i, author: people[i % people.length], created_at: T(i), body: `Note ${i + 1} on the session cache.`,
      })),
      diffs: [{ old_path: 'src/auth/session.go', new_path: 'src/auth/session.go', diff: DIFF },
        { old_path: 'src/api/handler.go', new_path: 'src/api/handler.go', new_file: true, diff: HANDLER }],
    }],
    commit_statuses: [{ id: 995, sha: H1, ref: 'feature', name: 'build', status: 'success', author: 'ci-bot', created_at: T(61) }],
  };
}

async function startFake(file) {
  const child = spawn('node', ['tests/fakegitlab/server.mjs', '--snapshot', file, '--latency-ms', String(latency)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve(l.trim().replace(/\/$/, '')));
    child.once('exit', () => reject(new Error('the fake GitLab did not start')));
  });
  const ctl = async (method, p, body) => {
    const r = await fetch(url + p, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return text ? JSON.parse(text) : null;
  };
  return { url, ctl, stop: () => child.kill() };
}

/** The seed's glab block as HTTP requests (one glab process each). */
async function seedGlab(url, startMs) {
  const H = { 'private-token': 'seed', 'content-type': 'application/json', connection: 'close' };
  const api = `${url}/api/v4`;
  const p = `/projects/${encodeURIComponent(REPO)}`;
  const sequence = [];
  let processes = 0;
  const call = async (method, pth, body) => {
    processes++;
    await new Promise((r) => setTimeout(r, startMs));
    sequence.push(`${method} ${pth.replace(/[0-9a-f]{40}/, '<sha>')}`);
    const r = await fetch(api + pth, { method, headers: H, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (!r.ok) throw new Error(`seed: ${method} ${pth}: ${r.status} ${text.slice(0, 200)}`);
    return { json: text ? JSON.parse(text) : null, next: r.headers.get('x-next-page') ?? '' };
  };
  const t0 = process.hrtime.bigint();
  await call('GET', '/user');
  const mr = (await call('GET', `${p}/merge_requests/${IID}`)).json;
  for (let page = 1; page;) {
    const r = await call('GET', `${p}/merge_requests/${IID}/notes?per_page=100&page=${page}`);
    page = r.next ? Number(r.next) : 0;
  }
  const note = (await call('POST', `${p}/merge_requests/${IID}/notes`, { body: '<!-- pr-review:sticky -->\nsummary' })).json;
  await call('POST', `/projects/42/statuses/${H1}`, { state: 'pending', name: 'pr-review', ref: 'feature', description: 'publishing' });
  for (const f of FINDINGS.filter((x) => x.p_code !== 'P3')) {
    await call('POST', `${p}/merge_requests/${IID}/discussions`, {
      body: `${f.id} ${f.failure_mode}`,
      position: { position_type: 'text', ...mr.diff_refs, old_path: f.file, new_path: f.file, new_line: f.line_end },
    }).catch(() => null); // the seed omits old_line on context lines: GitLab refuses those
  }
  await call('PUT', `${p}/merge_requests/${IID}/notes/${note.id}`, { body: '<!-- pr-review:sticky -->\nsummary, reconciled' });
  await call('POST', `/projects/42/statuses/${H1}`, { state: 'failed', name: 'pr-review', ref: 'feature', description: 'REVIEW BEFORE MERGE' });
  return { requests: sequence.length, processes, ms: Number(process.hrtime.bigint() - t0) / 1e6, sequence };
}

let failed = false;
const snapFile = path.join(work, 'mr.json');
writeFileSync(snapFile, JSON.stringify(snapshot()));
const fake = await startFake(snapFile);
try {
  const findings = path.join(work, 'findings.json');
  writeFileSync(findings, JSON.stringify(INPUT));
  await fake.ctl('POST', '/_fake/log/clear');
  const env = {
    PATH: process.env.PATH, AGENTIC_GITLAB_HOST: HOST, AGENTIC_GITLAB_API_URL: `${fake.url}/api/v4`,
    GITLAB_TOKEN: 'bench-token', AGENTIC_REVIEW_LOGIN: 'lfx-reviewer',
  };
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, ['publish', '--json', '--pr', `${REPO}!${IID}`, '--findings', findings], { env, encoding: 'utf8' });
  const ms = Math.round(Number(process.hrtime.bigint() - t0) / 1e6);
  const log = await fake.ctl('GET', '/_fake/log');
  const rep = JSON.parse(r.stdout || '{}');
  const first = {
    requests: log.length, writes: log.filter((e) => e.method !== 'GET' && !e.path.endsWith('/graphql')).length,
    ms, outcome: rep.steps?.[0]?.outcome, exit: r.status,
    sequence: log.map((e) => `${e.method} ${e.path.replace('/api/v4', '').replace(/[0-9a-f]{40}/, '<sha>')}`),
  };
  await fake.ctl('POST', '/_fake/state', snapshot());
  await fake.ctl('POST', '/_fake/log/clear');
  const start = ghStartMs();
  const seed = await seedGlab(fake.url, start.ms);
  console.log(`publish on GitLab against the fake, ${latency} ms per request; MR of ${NOTES} notes, 2 files; findings P1, P2, P2, P3:`);
  console.log(`  first        ${first.requests} requests (${first.writes} writes), ${first.ms} ms, ${first.outcome}, exit ${first.exit}`);
  console.log(`    ${first.sequence.join('\n    ')}`);
  console.log(`  seed (glab): ${seed.requests} requests, ${Math.round(seed.ms)} ms with ${seed.processes} process starts of ${start.ms} ms (${start.source}, standing in for glab)`);
  console.log(`    ${seed.sequence.join('\n    ')}`);
  if (first.outcome !== 'published' || first.exit !== 0) {
    console.error(`unexpected: ${first.outcome} exit ${first.exit}\n${r.stderr.slice(0, 1500)}`);
    failed = true;
  }
  if (failed) process.exitCode = 1;
  else {
    const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
    writeJson(out, {
      ...prev,
      gitlab_publish_first_requests: first.requests,
      gitlab_publish_first_ms: first.ms,
      gitlab_seed_publish_requests: seed.requests,
      gitlab_seed_publish_ms: Math.round(seed.ms),
      gitlab_publish_detail: { latency_ms: latency, notes: NOTES, first, seed: { ...seed, ms: Math.round(seed.ms), start_ms: start.ms, start_source: start.source } },
    });
    console.log(`  written to ${out}`);
  }
} finally {
  fake.stop();
  rmSync(work, { recursive: true, force: true });
}
