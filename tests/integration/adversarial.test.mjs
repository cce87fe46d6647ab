// Hostile and huge API answers (BEHAVIOR "fail closed", §8; SNAPSHOT §4),
// and workflow-command injection through untrusted text (BEHAVIOR §9).
//
// A HostileProxy sits between the program and fakehub and answers, or
// rewrites, what GitHub would never send: JSON nested 100,000 deep, 40 MB
// answers, a page that never ends (same-origin Link next / hasNextPage
// forever), null where an object is expected, numbers as strings, a status
// id beyond 2^53, duplicate JSON keys, a GraphQL answer with both data and
// errors. None of them may lead to an approval, and an answer the program
// cannot trust must fail the read: exit 3.
//
// The second part replays every adversarial fixture (fixtures/2NN-*) with
// GITHUB_ACTIONS=true, a step summary and an output file, and scans every
// output for a line that starts a workflow command the program did not
// mean to write.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { allFixtures, fixture } from './lib/fixtures.mjs';
import { HostileProxy, isAgent } from './lib/hostile-proxy.mjs';
import { exec, parseReport, runLive, scratch } from './lib/run.mjs';

const REPO = 'lf/svc';
const base = () => structuredClone(fixture('050-gate-all-hold-approve').snapshot);
const H = base().pulls[0].head.sha;
const STATUSES = `/repos/${REPO}/commits/${H}/statuses`;

/** 050 with an untrusted newer clean status: the gate must read the REST history. */
function restScenario() {
  const s = base();
  s.statuses[H].push({ id: 1003, state: 'failure', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=false', creator: 'mallory', created_at: '2026-11-29T10:30:00Z', target_url: null });
  return s;
}

const trustedApprovals = (state) => state.pulls.find((p) => p.number === 7).reviews
  .filter((r) => r.author?.toLowerCase() === 'lfx-reviewer' && r.state === 'APPROVED');

const isGraphql = (req, url) => req.method === 'POST' && url.pathname === '/graphql';
const gqlQuery = (body) => { try { return JSON.parse(body.toString('utf8')).query ?? ''; } catch { return ''; } };
const isPage = (body) => /\$after:String!/.test(gqlQuery(body));

/** Rewrite the JSON text of an answer with fn(object) (returns an object or a string). */
function rewriteJson(answer, fn) {
  const out = fn(JSON.parse(answer.body.toString('utf8')));
  return { status: answer.status, headers: answer.headers, body: typeof out === 'string' ? out : JSON.stringify(out) };
}

describe('hostile and huge API answers → never an approval, exit 3', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  /**
   * Run `snapshot` through a proxy with `hooks`; return the run, the final
   * state and what the proxy saw from the program.
   */
  async function hostile(snapshot, hooks, env = {}) {
    await hub.load(snapshot);
    const proxy = new HostileProxy(hub.url, hooks);
    await proxy.listen();
    try {
      const r = await runLive(snapshot, proxy, { env, timeoutMs: 120000 });
      return { ...r, state: await hub.state(), seen: proxy.seen.filter(isAgent) };
    } finally {
      await proxy.close();
    }
  }

  function assertFailedClosed(r, { code = 3 } = {}) {
    const why = `exit ${r.code}, report ${JSON.stringify(r.report?.steps?.map((s) => s.outcome))}: ${r.stderr.slice(-500)}`;
    assert.ok(!r.seen.some((e) => e.method === 'POST' && e.path.endsWith('/reviews')), `an approval was posted: ${why}`);
    assert.deepEqual(trustedApprovals(r.state), [], `a trusted approval exists: ${why}`);
    assert.ok(r.report, `stdout is a report: ${why}`);
    assert.equal(r.report.exit, r.code, why);
    assert.ok(!r.report.steps.some((s) => s.outcome === 'approve'), why);
    if (code !== null) assert.equal(r.code, code, why);
  }

  it('control: the scenarios approve through the proxy when nothing is hostile', async () => {
    for (const s of [base(), restScenario()]) {
      const r = await hostile(s, {});
      assert.equal(r.code, 0, r.stderr.slice(-400));
      assert.equal(r.report.steps[0].outcome, 'approve');
      assert.equal(trustedApprovals(r.state).length, 1);
    }
    const r = await hostile(restScenario(), {});
    assert.ok(r.seen.some((e) => e.path === STATUSES), 'the REST scenario reads the status history');
  });

  // --- depth -----------------------------------------------------------------

  it('GraphQL answer nested 100,000 deep', async () => {
    const deep = `{"data":{"repository":${'['.repeat(100000)}${']'.repeat(100000)}}}`;
    // Every GraphQL answer: a failed bundle is read again part by part.
    const r = await hostile(base(), { before: (req, url) => (isGraphql(req, url) ? { body: deep } : null) });
    assertFailedClosed(r);
  });

  it('REST status history nested 100,000 deep', async () => {
    const deep = `[${'{"a":['.repeat(50000)}${']}'.repeat(50000)}]`;
    const r = await hostile(restScenario(), { before: (req, url) => (url.pathname === STATUSES ? { body: deep } : null) });
    assertFailedClosed(r);
  });

  // --- size --------------------------------------------------------------------

  it('a 40 MB GraphQL answer that is not JSON', async () => {
    const junk = Buffer.alloc(40 * 1024 * 1024, 'x');
    const r = await hostile(base(), { before: (req, url) => (isGraphql(req, url) ? { body: junk } : null) }, { AGENTIC_HTTP_TIMEOUT: '60' });
    assertFailedClosed(r);
  });

  it('a 40 MB GraphQL answer whose needs-human label comes after 400,000 others: read to the end, never approved', async () => {
    const s = base();
    s.pulls[0].labels = ['needs-human'];
    const filler = Array.from({ length: 400000 }, (_, i) => `{"name":"area/${String(i).padStart(7, '0')}-${'p'.repeat(70)}"}`).join(',');
    const r = await hostile(s, {
      transform: (req, url, answer) => (isGraphql(req, url) ? rewriteJson(answer, (j) => {
        const pr = j.data?.repository?.pullRequest;
        if (!pr?.labels) return j;
        const nodes = JSON.stringify(pr.labels.nodes);
        pr.labels.nodes = '@@NODES@@';
        return JSON.stringify(j).replace('"@@NODES@@"', `[${filler},${nodes.slice(1, -1)}]`);
      }) : null),
    }, { AGENTIC_HTTP_TIMEOUT: '60' });
    assert.ok(r.stdout.length, r.stderr.slice(-300));
    // Either the label is seen (withhold, exit 0) or the answer is refused (exit 3): never an approval.
    assertFailedClosed(r, { code: null });
    if (r.code === 0) assert.equal(r.report.steps[0].conditions.label_absent, false, 'the label at the end of the answer was seen');
  });

  it('a 40 MB status history (200,000 forged statuses before the trusted failure): never approved', async () => {
    const s = restScenario();
    s.statuses[H] = s.statuses[H].map((x) => (x.id === 1002 ? { ...x, state: 'failure', description: 'conductor pr=#7: clean=false' } : x));
    const forged = Array.from({ length: 200000 }, (_, i) => `{"id":${900000000 - i},"state":"success","context":"agentic-review/clean","description":"conductor pr=#7: clean=true","creator":{"login":"mallory","type":"User"},"created_at":"2026-11-29T10:40:00Z","target_url":null,"url":"x","avatar_url":null,"node_id":"SC_${'q'.repeat(60)}"}`).join(',');
    let served = false;
    const r = await hostile(s, {
      transform: (req, url, answer) => {
        if (url.pathname !== STATUSES || served) return null;
        served = true;
        const real = answer.body.toString('utf8').trim();
        return { status: 200, headers: answer.headers, body: `[${forged},${real.slice(1)}` };
      },
    }, { AGENTIC_HTTP_TIMEOUT: '60' });
    assert.ok(served, 'the history was read');
    assertFailedClosed(r, { code: null });
  });

  // --- endless pagination ---------------------------------------------------

  it('REST status history whose Link next never ends (same origin): stops at the page ceiling, exit 3', async () => {
    let pages = 0;
    const r = await hostile(restScenario(), {
      before: (req, url, body, self) => {
        if (url.pathname !== STATUSES) return null;
        pages++;
        const page = Number(url.searchParams.get('page') ?? '1');
        const items = Array.from({ length: 100 }, (_, i) => ({
          id: 800000000 - page * 100 - i, state: 'success', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=true',
          creator: { login: 'mallory', type: 'User' }, created_at: '2026-11-29T10:40:00Z', target_url: null,
        }));
        return { body: JSON.stringify(items), headers: { link: `<${self.url}${STATUSES}?per_page=100&page=${page + 1}>; rel="next"` } };
      },
    });
    assertFailedClosed(r);
    assert.ok(pages >= 2 && pages <= 205, `a bounded number of pages was read (${pages})`);
  });

  it('GraphQL connection whose hasNextPage never ends: stops at the page ceiling, exit 3', async () => {
    let pageQueries = 0;
    const cursor = Buffer.from('cursor:100').toString('base64');
    const r = await hostile(base(), {
      before: (req, url, body) => {
        if (!isGraphql(req, url) || !isPage(body)) return null;
        pageQueries++;
        return { body: { data: { repository: { pullRequest: { labels: { nodes: [{ name: `area/${pageQueries}` }], pageInfo: { hasNextPage: true, endCursor: cursor } } } } } } };
      },
      transform: (req, url, answer) => (isGraphql(req, url) ? rewriteJson(answer, (j) => {
        const l = j.data?.repository?.pullRequest?.labels;
        if (l) l.pageInfo = { hasNextPage: true, endCursor: cursor };
        return j;
      }) : null),
    });
    assertFailedClosed(r);
    assert.ok(pageQueries >= 2 && pageQueries <= 205, `a bounded number of pages was read (${pageQueries})`);
  });

  // --- shapes ------------------------------------------------------------------

  const gqlCases = [
    ['labels: null (an object is expected)', (j) => { j.data.repository.pullRequest.labels = null; return j; }],
    ['pullRequest: null without any error', (j) => { j.data.repository.pullRequest = null; return j; }],
    ['repository: null without any error', (j) => { j.data.repository = null; return j; }],
    ['a review node that is null', (j) => { j.data.repository.pullRequest.reviews.nodes.push(null); return j; }],
    ['number as a string ("7")', (j) => { j.data.repository.pullRequest.number = '7'; return j; }],
    ['a thread totalCount as a string ("2")', (j) => { for (const t of j.data.repository.pullRequest.reviewThreads.nodes) t.comments.totalCount = String(t.comments.totalCount); return j; }],
    ['isDraft as a string ("false")', (j) => { j.data.repository.pullRequest.isDraft = 'false'; return j; }],
    ['data and errors together (an internal error)', (j) => { j.errors = [{ type: 'INTERNAL', message: 'Something went wrong while executing your query.' }]; return j; }],
    ['data and a NOT_FOUND error on a nested field (not the pull request)', (j) => {
      j.errors = [{ type: 'NOT_FOUND', path: ['repository', 'pullRequest', 'comments', 'nodes', 0, 'author'], message: 'Could not resolve to a User.' }];
      return j;
    }],
  ];
  for (const [name, fn] of gqlCases) {
    it(`GraphQL: ${name}`, async () => {
      const r = await hostile(base(), { transform: (req, url, answer) => (isGraphql(req, url) ? rewriteJson(answer, (j) => (j.data?.repository?.pullRequest ? fn(j) : j)) : null) });
      assertFailedClosed(r);
    });
  }

  const restCases = [
    ['a status that is null', (a) => [null, ...a]],
    ['a status id as a string', (a) => a.map((x) => ({ ...x, id: String(x.id) }))],
    ['a status creator that is a string', (a) => a.map((x) => ({ ...x, creator: x.creator?.login ?? null }))],
    ['an object instead of the array', (a) => ({ statuses: a })],
  ];
  for (const [name, fn] of restCases) {
    it(`REST statuses: ${name}`, async () => {
      const r = await hostile(restScenario(), { transform: (req, url, answer) => (url.pathname === STATUSES ? rewriteJson(answer, fn) : null) });
      assertFailedClosed(r);
    });
  }

  it('GET /user answers null', async () => {
    const r = await hostile(base(), { before: (req, url) => (url.pathname === '/user' ? { body: 'null' } : null) });
    assertFailedClosed(r);
  });

  // --- numbers beyond 2^53 --------------------------------------------------

  it('status ids beyond 2^53: the newer trusted failure (2^53+1) must not lose to an older success (2^53)', async () => {
    // By §4 the newest status is the highest id: 9007199254740993 (failure)
    // is newer than 9007199254740992 (success). A double cannot tell them
    // apart; such ids must fail the read rather than decide anything.
    const r = await hostile(restScenario(), {
      transform: (req, url, answer) => {
        if (url.pathname !== STATUSES) return null;
        const a = JSON.parse(answer.body.toString('utf8'));
        const keep = a.filter((x) => x.id !== 1002 && x.id !== 1003).map((x) => JSON.stringify(x));
        const mk = (id, state) => `{"id":${id},"state":"${state}","context":"agentic-review/clean","description":"conductor pr=#7: clean=${state === 'success'}","creator":{"login":"lfx-reviewer","type":"User"},"created_at":"2026-11-29T10:20:05Z","target_url":null}`;
        return { status: 200, headers: answer.headers, body: `[${[mk('9007199254740992', 'success'), mk('9007199254740993', 'failure'), ...keep].join(',')}]` };
      },
    });
    assertFailedClosed(r);
  });

  // --- duplicate keys ---------------------------------------------------------

  it('GraphQL: duplicate "labels" keys (an empty list first, the needs-human label last)', async () => {
    const s = base();
    s.pulls[0].labels = ['needs-human'];
    const r = await hostile(s, {
      transform: (req, url, answer) => (isGraphql(req, url) ? rewriteJson(answer, (j) => {
        const pr = j.data?.repository?.pullRequest;
        if (!pr?.labels) return j;
        const text = JSON.stringify(j);
        return text.replace('"labels":{', '"labels":{"nodes":[],"pageInfo":{"hasNextPage":false,"endCursor":null}},"labels":{');
      }) : null),
    });
    assertFailedClosed(r);
  });

  it('REST statuses: duplicate "creator" keys on the clean status (trusted first, mallory last)', async () => {
    const s = restScenario();
    // The only clean success is mallory's; the trusted failure makes H not clean.
    s.statuses[H] = s.statuses[H].filter((x) => x.id !== 1003).map((x) => (x.id === 1002 ? { ...x, creator: 'mallory' } : x));
    s.statuses[H].push({ id: 1003, state: 'failure', context: 'ci/other', description: 'x', creator: 'mallory', created_at: '2026-11-29T10:30:00Z', target_url: null });
    const r = await hostile(s, {
      transform: (req, url, answer) => (url.pathname === STATUSES ? rewriteJson(answer, (a) => JSON.stringify(a)
        .replace(/"creator":\{"login":"mallory"/g, '"creator":{"login":"lfx-reviewer","type":"User"},"creator":{"login":"mallory"')) : null),
    });
    assertFailedClosed(r);
  });
});

// --- workflow-command injection -------------------------------------------------

const PROGRAM_ANNOTATION = /^::(error|warning|notice)::/;
const INJECTED = /^\s*::(set-output|add-mask|stop-commands|save-state|set-env|add-path|debug|group|endgroup|echo)\b|^\s*::(error|warning|notice)[^:]*::\s*INJECTED|INJECTED-(login|body)$/;

/**
 * Lines of `text` that start a workflow command the program did not write:
 * any line starting with "::" other than the program's own annotations
 * (::error:: / ::warning:: / ::notice:: whose text is not an injected
 * payload) and its masking of the test token.
 */
function injectedLines(text) {
  return text.split(/\r\n|\r|\n/).filter((l) => {
    const t = l.trimStart();
    if (!t.startsWith('::')) return false;
    if (t === '::add-mask::integration-test-token') return false;
    return !(PROGRAM_ANNOTATION.test(t) && !INJECTED.test(t));
  });
}

describe('untrusted text never forms a workflow command (adversarial fixtures)', () => {
  const fixtures = allFixtures().filter((fx) => /^(2\d\d|3[0-6]\d)-/.test(fx.name));

  it('there are adversarial fixtures to scan', () => assert.ok(fixtures.length >= 30, `${fixtures.length}`));

  for (const fx of fixtures) {
    it(`${fx.name}: replay with GITHUB_ACTIONS=true writes no foreign workflow command`, async () => {
      const { dir, cleanup } = scratch('aa-adv-');
      try {
        const summary = path.join(dir, 'summary.md');
        const output = path.join(dir, 'output.txt');
        writeFileSync(summary, '');
        writeFileSync(output, '');
        const r = await exec(['replay', ...fx.args, fx.file], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output } });
        const report = parseReport(r.stdout);
        assert.ok(report, r.stderr.slice(-300));
        // 200-239 are attacks; f_adv3's 240-299 also hold boundary cases
        // that approve by design (their expect files say which).
        if (/^2[0-3]\d-/.test(fx.name))
          assert.ok(!report.steps.some((s) => s.outcome === 'approve'), 'no adversarial fixture approves');
        // f_adv4's 300-369: only a pair whose comment starts "Boundary case"
        // may approve; every other one is an attack that must fail closed.
        if (/^3[0-6]\d-/.test(fx.name) && !/^Boundary case/.test(fx.expect.comment ?? ''))
          assert.ok(!report.steps.some((s) => s.outcome === 'approve'), 'an adversarial IV attack approves');
        const bad = [
          ...injectedLines(r.stdout).map((l) => `stdout: ${l}`),
          ...injectedLines(r.stderr).map((l) => `stderr: ${l}`),
          ...injectedLines(readFileSync(summary, 'utf8')).map((l) => `summary: ${l}`),
        ];
        assert.deepEqual(bad, [], 'a line starts a workflow command the program did not write');
        const outLines = readFileSync(output, 'utf8').split(/\r\n|\r|\n/).filter(Boolean);
        assert.ok(outLines.every((l) => /^[a-z_-]+=/.test(l) || /^[a-z_-]+<<ghadelimiter_/.test(l) || /^ghadelimiter_/.test(l)), `GITHUB_OUTPUT holds only the program's outputs: ${JSON.stringify(outLines)}`);
        assert.ok(!outLines.some((l) => /INJECTED|set-output/.test(l)), `GITHUB_OUTPUT carries injected text: ${JSON.stringify(outLines)}`);
      } finally {
        cleanup();
      }
    });
  }

  describe('live', () => {
    let hub;
    before(async () => { hub = await Hub.start(); });
    after(async () => { await hub?.stop(); });
    for (const name of ['234-adv2-workflow-command-injection-text', '235-adv2-workflow-command-injection-event-name']) {
      it(`${name}: a live run under Actions writes no foreign workflow command`, async () => {
        const fx = fixture(name);
        await hub.load(fx.snapshot);
        const { dir, cleanup } = scratch('aa-adv-');
        try {
          const summary = path.join(dir, 'summary.md');
          writeFileSync(summary, '');
          const r = await runLive(fx.snapshot, hub, { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
          assert.ok(r.report, r.stderr.slice(-300));
          const bad = [...injectedLines(r.stdout), ...injectedLines(r.stderr), ...injectedLines(readFileSync(summary, 'utf8'))];
          assert.deepEqual(bad, [], 'a line starts a workflow command the program did not write');
        } finally {
          cleanup();
        }
      });
    }
  });
});
