// pr-review over the network (PUBLISH.md §10): every publish and
// review-plan fixture of fixtures/publish/ run live against fakehub and
// through `replay` — the same stdout (the report: steps, plan, writes),
// the same exit code, and the writes fakehub applied are the writes the
// report claims (kind, ids, body_sha256: so the final comments and
// statuses are replay's). Dry runs send no write. Then §7.3: a second
// publish of the same input writes nothing; and the request counts of a
// first, an incremental and an unchanged publish (for BENCHMARKS).
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, HubPool, isWrite, requestLines } from './lib/fakehub.mjs';
import { FIXTURES } from './lib/paths.mjs';
import { explainDiff } from './lib/differential.mjs';
import { REVIEW_OPERATIONS, openapiSubset } from './lib/openapi.mjs';
import { PrismStack, prismFindings } from './lib/prism.mjs';
import { loadFixture, runLive, runReplay, scratch } from './lib/run.mjs';
import { haveOpenssl, testCerts } from './lib/tls.mjs';

const CONCURRENCY = 3;
const DIR = path.join(FIXTURES, 'publish');

// Fixtures the live path cannot express, with the reason.
const SKIP = new Map([
  // B7: in replay the snapshot fixes the repository; live, --pr names the
  // repository it acts on (P32), so "another repository" has no live form.
  ['1142-b7-command-pr-other-repo-exit-2', 'live, --pr OWNER/NAME#N names the repository the run acts on'],
  ['1167-b7-command-pr-other-repository-exit-2', 'live, --pr OWNER/NAME#N names the repository the run acts on'],
]);

// Fixtures Prism cannot route: an OpenAPI path parameter holds no "/",
// while GitHub's compare takes a branch name with one as it stands
// (`compare/release/1.2+lts...SHA`); fakehub serves it in the live column.
const PRISM_SKIP = new Set(['1130-b3-plan-encoded-base-incremental',
  '1210-b3-plan-percent-encoded-slash-full', '1215-b3-plan-non-ascii-base-round-trip-incremental',
  '1217-b3-plan-percent-base-round-trip-incremental']);

function publishFixtures() {
  return readdirSync(DIR)
    .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
    .sort()
    .map((f) => loadFixture(path.join(DIR, f)))
    .filter((fx) => ['publish', 'review-plan'].includes(fx.snapshot.command?.name));
}

/** The command line of a snapshot's `command` (PUBLISH §2, §8). */
function commandLine(cmd, dir) {
  if (cmd.name === 'review-plan') {
    return ['review-plan', '--pr', String(cmd.pr), '--json', ...(cmd.mode ? ['--mode', cmd.mode] : [])];
  }
  const file = path.join(dir, 'findings.json');
  // A string is the raw file text (§7.6: malformed findings).
  writeFileSync(file, typeof cmd.findings === 'string' ? cmd.findings : JSON.stringify(cmd.findings));
  return ['publish', '--pr', String(cmd.pr), '--findings', file, '--json', ...(cmd.dry_run ? ['--dry-run'] : [])];
}

/** A report write as fakehub lists it (§9 shapes: the fields both carry). */
function writeKey(w) {
  const keep = ['kind', 'pr', 'comment_id', 'body_sha256', 'review_id', 'event', 'commit_id', 'findings',
    'sha', 'state', 'context', 'description', 'target_url'];
  return JSON.stringify(Object.fromEntries(keep.filter((k) => w[k] !== undefined).map((k) => [k, w[k]])));
}

/** Run `snapshot`'s command live against `hub` (loaded first), through
 * `urls` (default: the hub itself). */
async function live(hub, snapshot, { load = true, urls = hub } = {}) {
  if (load) await hub.load(snapshot);
  await hub.control('POST', 'writes/clear', {});
  await hub.clearLog();
  const { dir, cleanup } = scratch('aa-pub-');
  try {
    const r = await runLive(snapshot, urls, { command: commandLine(snapshot.command, dir) });
    const writes = await hub.control('GET', 'writes');
    const log = await hub.log();
    return { ...r, writes, log };
  } finally {
    cleanup();
  }
}

const fixtures = publishFixtures();
const slow = (fx) => (JSON.stringify(fx.snapshot.faults ?? []).includes('timeout') ? 1 : 0);
fixtures.sort((a, b) => slow(b) - slow(a));

let pool;
before(async () => { pool = await HubPool.start(CONCURRENCY); });
after(async () => { await pool?.stop(); });

describe('publish, review-plan: live against fakehub = replay', { concurrency: CONCURRENCY }, () => {
  it('finds the fixtures', () => assert.ok(fixtures.length >= 90, `${fixtures.length} fixtures`));
  for (const fx of fixtures) {
    const skip = SKIP.get(fx.name) ?? false;
    it(fx.name, { skip }, async () => {
      const [l, replay] = await Promise.all([
        pool.with((hub) => live(hub, fx.snapshot)),
        runReplay(fx.file),
      ]);
      assert.ok(replay.report, `replay printed no report: ${replay.stderr.slice(0, 400)}`);
      assert.equal(l.signal, null, `live run killed by ${l.signal}`);
      if (l.stdout !== replay.stdout || l.code !== replay.code) {
        assert.fail(`${fx.name}: live and replay differ\n  ${explainDiff(l, replay)}`);
      }
      // A DELETE answered 404 by a fault is done (W2) but changed nothing.
      const gone404 = new Set((fx.snapshot.faults ?? [])
        .filter((f) => f.write === 'comment_delete' && f.status === 404 && f.comment_id)
        .map((f) => f.comment_id));
      const applied = l.writes.map(writeKey);
      const claimed = (l.report?.writes ?? [])
        .filter((w) => !w.planned && !(w.kind === 'comment_delete' && gone404.has(w.comment_id)))
        .map(writeKey);
      if (fx.snapshot.command.dry_run) {
        assert.deepEqual(applied, [], 'a dry run writes nothing');
      } else {
        assert.deepEqual(applied, claimed, 'fakehub applied exactly the writes the report claims');
      }
    });
  }
});

/** The first no-fault publish fixture whose first run writes. */
function base(name) {
  const fx = fixtures.find((f) => f.name.startsWith(name));
  assert.ok(fx, `fixture ${name}`);
  return structuredClone(fx.snapshot);
}

function counts(r) {
  const graphql = r.log.filter((e) => e.path === '/graphql').length;
  const writes = r.log.filter(isWrite).length;
  return { requests: r.log.length, graphql, rest_reads: r.log.length - graphql - writes, writes };
}

describe('publish: idempotence and request counts', () => {
  it('a re-run of the same publish writes nothing (§7.3)', async () => {
    await pool.with(async (hub) => {
      const s = base('1000-');
      const first = await live(hub, s);
      assert.equal(first.code, first.report.exit, first.stderr);
      assert.ok(first.writes.length > 0, 'the first publish writes');
      const again = await live(hub, s, { load: false });
      assert.deepEqual(requestLines(again.log.filter(isWrite)), [], 'the re-run writes nothing');
      assert.deepEqual(again.writes, []);
      assert.equal(again.report.steps[0].outcome, 'unchanged');
      assert.equal(again.code, 0);
    });
  });

  it('request counts: first publish, incremental, unchanged re-run', async () => {
    await pool.with(async (hub) => {
      const s = base('1000-');
      const first = await live(hub, s);
      assert.equal(first.code, 0, first.stderr);
      // An incremental iteration on a new head: one more commit, the
      // findings of the first with a new finding on the new head.
      const state = await hub.state();
      const pull = state.pulls.find((p) => p.number === s.command.pr);
      const last = pull.head.sha;
      const next = 'ab'.repeat(20);
      pull.commits = [...(pull.commits ?? [last]).filter((c) => c !== last), last, next];
      pull.head = { ...pull.head, sha: next };
      const inc = structuredClone(s);
      Object.assign(inc, state, { command: inc.command, faults: [] });
      inc.command.findings = { ...s.command.findings, mode: 'incremental', head: next, last_sha: last };
      await hub.load(inc);
      const second = await live(hub, inc, { load: false });
      assert.ok([0, 1].includes(second.code), `${second.stderr}\n${second.stdout.slice(0, 800)}`);
      const third = await live(hub, inc, { load: false });
      assert.equal(third.code, second.code, third.stderr);
      assert.equal(third.writes.length, 0, 'the unchanged re-run writes nothing');
      const table = { first: counts(first), incremental: counts(second), unchanged: counts(third) };
      console.log(`publish request counts (fixture 1000): ${JSON.stringify(table)}`);
      for (const [k, v] of Object.entries(table)) assert.ok(v.requests > 0, k);
    });
  });
});

/** Fixture 1008 with review_login another login than the trusted one. */
function otherReviewLogin(edits) {
  const s = base('1008-');
  const who = (x) => (x === 'lfx-reviewer' ? 'pr-bot' : x);
  s.viewer = 'pr-bot';
  s.config = { ...(s.config ?? {}), review_login: 'pr-bot' };
  for (const c of s.pulls[0].comments) {
    c.author = who(c.author);
    c.edited_by = who(c.edited_by);
    c.edits = edits && c.edits ? edits : c.edits?.map((e) => ({ ...e, editor: who(e.editor) }));
  }
  return s;
}

describe('publish: U2 reads the whole edit history of review_login\'s sticky', () => {
  for (const [name, edits, action] of [
    ['edited by another login, then by review_login: untrusted, replaced', null, 'create'],
    ['edited by review_login only: trusted, patched', [{ editor: 'pr-bot', edited_at: '2026-11-29T10:59:00Z' }], 'update'],
  ]) {
    it(name, async () => {
      const s = otherReviewLogin(edits);
      const [l, replay] = await Promise.all([pool.with((hub) => live(hub, s)), runReplay(s)]);
      assert.ok(replay.report, replay.stderr);
      if (l.stdout !== replay.stdout || l.code !== replay.code) {
        assert.fail(`live and replay differ\n  ${explainDiff(l, replay)}`);
      }
      assert.equal(l.report.steps[0].sticky.action, action);
      // The history came in the pr-review read itself: no node id (REST)
      // and no history query of its own.
      assert.ok(!l.log.some((e) => e.method === 'GET' && /\/issues\/comments\/452$/.test(e.path)), 'no node id read');
      assert.ok(l.log.some((e) => e.path === '/graphql' && /userContentEdits/.test(JSON.stringify(e.body)) && /reviewThreads/.test(JSON.stringify(e.body))), 'history in the one read');
      assert.ok(!l.log.some((e) => e.path === '/graphql' && /IC_/.test(JSON.stringify(e.body))), 'no history read apart');
    });
  }
});

// The publish fixtures again with REST through Prism: every request the
// program sends and every answer fakehub gives for the pr-review
// operations match GitHub's OpenAPI description (lib/openapi.mjs).
const templates = [...REVIEW_OPERATIONS,
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['get', '/repos/{owner}/{repo}/compare/{basehead}'],
].map(([method, route]) => ({
  op: `${method.toUpperCase()} ${route}`,
  re: new RegExp(`^${method.toUpperCase()} ${route.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const exercised = new Set();

describe('publish through Prism: requests and answers match GitHub\'s OpenAPI description', { concurrency: 2 }, () => {
  let stacks = [];
  const free = [];
  before(async () => {
    const spec = openapiSubset();
    stacks = await Promise.all([0, 1].map(() => PrismStack.start(spec)));
    free.push(...stacks);
  });
  after(async () => { await Promise.all(stacks.map((st) => st.stop())); });

  const cases = [
    ...fixtures.filter((fx) => !fx.snapshot.command.dry_run && !SKIP.has(fx.name) && !PRISM_SKIP.has(fx.name)).map((fx) => [fx.name, () => fx.snapshot]),
    ['review_login edited sticky', () => otherReviewLogin(null)],
    // The one GraphQL read failing (its statuses): the parts are read
    // apart, REST's review comments and the sticky's node id included.
    ['review_login edited sticky, the parts apart', () => ({
      ...otherReviewLogin(null), faults: [{ read: 'statuses', api: 'graphql', status: 502 }],
    })],
  ];
  for (const [name, snapshot] of cases) {
    it(name, async () => {
      while (!free.length) await new Promise((r) => setTimeout(r, 20));
      const stack = free.pop();
      try {
        stack.clear();
        await live(stack.hub, snapshot(), { urls: stack.urls });
        for (const r of stack.router.rest) {
          const t = templates.find((x) => x.re.test(`${r.method} ${r.path.split('?')[0]}`));
          if (t) exercised.add(t.op);
        }
        await new Promise((r) => setTimeout(r, 30)); // Prism's last log lines
        const findings = prismFindings(stack);
        assert.deepEqual(findings, [], `Prism reported problems:\n  ${findings.join('\n  ')}`);
      } finally {
        free.push(stack);
      }
    });
  }
});

describe('publish through Prism: coverage', () => {
  it('exercised every pr-review operation', () => {
    assert.deepEqual(templates.map((t) => t.op).filter((op) => !exercised.has(op)), []);
  });
});

// P67: a read that rides with the request before it (the PR read beside
// the files' first page, W4's G beside W3's pending status) over HTTPS
// with HTTP/2 negotiated, as GitHub serves it: live = replay, the writes
// fakehub applied are the report's, every request went over HTTP/2. With
// a failed read (the comments: the bundle read fails and is read in parts;
// the files), and W3's pending status failing under the read beside it.
describe('publish over HTTPS (HTTP/2 by ALPN): reads beside requests (P67)',
  { skip: haveOpenssl() ? false : 'openssl is not installed' }, () => {
    let hub;
    let certs;
    before(async () => {
      certs = testCerts();
      hub = await Hub.start({ tls: { cert: certs.cert, key: certs.key, ca: certs.ca } });
    });
    after(async () => { await hub?.stop(); });
    for (const name of ['1000-first-publish-creates-sticky-review-status', '1040-read-comments-fails-exit-3',
      '1043-read-files-fails-exit-3', '1051-w3-pending-fails-continue']) {
      it(name, async () => {
        const fx = fixtures.find((f) => f.name === name);
        assert.ok(fx, `no fixture ${name}`);
        await hub.load(fx.snapshot);
        await hub.control('POST', 'writes/clear', {});
        await hub.clearLog();
        const { dir, cleanup } = scratch('aa-pub-');
        try {
          const [l, replay] = await Promise.all([
            runLive(fx.snapshot, hub, { command: commandLine(fx.snapshot.command, dir), env: { SSL_CERT_FILE: certs.ca } }),
            runReplay(fx.file),
          ]);
          if (l.stdout !== replay.stdout || l.code !== replay.code) {
            assert.fail(`${name}: live over HTTPS and replay differ\n  ${explainDiff(l, replay)}`);
          }
          const applied = (await hub.control('GET', 'writes')).map(writeKey);
          assert.deepEqual(applied, (l.report?.writes ?? []).filter((w) => !w.planned).map(writeKey));
          const log = await hub.log({ headers: true });
          assert.ok(log.length > 0 && log.every((e) => typeof e.headers?.[':method'] === 'string'), 'HTTP/2 over TLS');
        } finally {
          cleanup();
        }
      });
    }
  });
