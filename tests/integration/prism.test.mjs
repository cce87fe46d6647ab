// The differential run of every fixture again, with REST going through
// Prism (`prism proxy --errors`) checking each request the program sends
// and each answer fakehub gives against GitHub's OpenAPI description (a
// subset: lib/openapi.mjs). A misspelled body field, a wrong method or
// path, or an answer of the wrong shape fails the fixture; so does any
// violation Prism reports.
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';

import { allFixtures, shareOf } from './lib/fixtures.mjs';
import { differential } from './lib/differential.mjs';
import { OPERATIONS, REVIEW_OPERATIONS, openapiSubset } from './lib/openapi.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { scratch } from './lib/run.mjs';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Prism, PrismStack, prismFindings } from './lib/prism.mjs';
import { Router } from './lib/router.mjs';

const STACKS = 2;
// Operations the program's traffic exercised (method + OpenAPI path).
const exercised = new Set();
// The pr-review operations are exercised (and their coverage checked) by
// publish.test.mjs: these fixtures only run `run`.
const reviewOps = new Set(REVIEW_OPERATIONS.map(([m, r]) => `${m} ${r}`));
const templates = OPERATIONS.filter(([m, r]) => !reviewOps.has(`${m} ${r}`)).map(([method, route]) => ({
  op: `${method.toUpperCase()} ${route}`,
  re: new RegExp(`^${method.toUpperCase()} ${route.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
// PRISM_OPS=FILE: every fixture's operations, as JSON, written at the end
// (what COVER below is chosen from).
const opsOf = {};
function noteOperations(name, rest) {
  for (const r of rest) {
    const t = templates.find((x) => x.re.test(`${r.method} ${r.path}`));
    if (t) {
      exercised.add(t.op);
      (opsOf[name] ??= new Set()).add(t.op);
    }
  }
}
// Generated scenarios that reach what no fixture does: statuses over
// several pages, the compare API of a PR past 250 commits.
const work = scratch();
const generated = SCENARIOS.filter((sc) => /^(statuses|commits):/.test(sc.name)).map((sc, i) => {
  const snapshot = sc.build();
  const file = path.join(work.dir, `prism-scenario-${i}.json`);
  writeFileSync(file, JSON.stringify(snapshot));
  return { name: `generated: ${sc.name}`, file, snapshot, args: [] };
});
// make check (LIVE_SHARE, lib/fixtures.mjs): a share of the fixtures, and
// always COVER, fixtures that exercise every operation of the subset between
// them with the generated scenarios (chosen from a PRISM_OPS dump of a whole
// run), so that the coverage check below holds on every share. Here the
// share takes no faulted fixture beyond it: the differential column runs
// them all, and what Prism adds is the shape of requests and answers.
const COVER = [
  '004-label-create-repo-label',
  '010-label-read-fault-adds-anyway',
];
// The longest fixtures (held-open requests) first, so they overlap the rest.
const fixtures = [...shareOf(allFixtures().sort((a, b) => slow(b) - slow(a)), { column: 'prism', offset: 2, always: COVER, faulted: false }),
  ...generated];
function slow(fx) { return JSON.stringify(fx.snapshot.faults ?? []).includes('timeout') ? 1 : 0; }

class Pool {
  constructor(items) { this.free = items; this.waiting = []; }
  async acquire() { return this.free.pop() ?? new Promise((r) => this.waiting.push(r)); }
  release(x) { const w = this.waiting.shift(); if (w) w(x); else this.free.push(x); }
}

describe('prism: REST requests and answers match GitHub\'s OpenAPI description', { concurrency: STACKS }, () => {
  let stacks = [];
  let pool;
  before(async () => {
    const spec = openapiSubset();
    stacks = await Promise.all(Array.from({ length: STACKS }, () => PrismStack.start(spec)));
    pool = new Pool([...stacks]);
  });
  after(async () => {
    await Promise.all(stacks.map((s) => s.stop()));
    work.cleanup();
    if (process.env.PRISM_OPS) {
      writeFileSync(process.env.PRISM_OPS, JSON.stringify(Object.fromEntries(
        Object.entries(opsOf).map(([name, ops]) => [name, [...ops].sort()])), null, 1));
    }
  });

  for (const fx of fixtures) {
    it(fx.name, async () => {
      const stack = await pool.acquire();
      try {
        stack.clear();
        const { log } = await differential(fx, stack.hub, { urls: stack.urls });
        noteOperations(fx.name, stack.router.rest);
        await sleep(30); // let Prism's log lines for the last request arrive
        const findings = prismFindings(stack);
        assert.deepEqual(findings, [], `Prism reported problems:\n  ${findings.join('\n  ')}`);
        const rest = log.filter((e) => e.path !== '/graphql').length;
        assert.ok(stack.router.rest.length >= rest - countHeld(log),
          `every REST request went through Prism (${stack.router.rest.length} answers, ${rest} requests)`);
      } finally {
        pool.release(stack);
      }
    });
  }
});

function countHeld(log) { return log.filter((e) => e.status === null).length; }

describe('prism: coverage', () => {
  it('the program\'s traffic exercised every operation of the subset', () => {
    assert.deepEqual(templates.map((t) => t.op).filter((op) => !exercised.has(op)), []);
  });
});

// The checker checks: Prism with this subset rejects a misspelled request
// field and an answer of the wrong shape (so a clean run above means
// something).
describe('prism: the subset catches what it should', () => {
  let bogus;
  let prism;
  let router;
  before(async () => {
    // An upstream whose GET /user answer has the wrong shape.
    bogus = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/user' ? { login: 42 } : {}));
    });
    await new Promise((resolve) => bogus.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${bogus.address().port}`;
    prism = await Prism.start(openapiSubset(), upstream);
    router = new Router(upstream, prism.url);
    await router.listen();
  });
  after(async () => {
    await router?.close();
    await prism?.stop();
    await new Promise((resolve) => (bogus ? bogus.close(resolve) : resolve()));
  });

  const call = (method, p, body) => fetch(`${router.url}${p}`, {
    method,
    headers: { authorization: 'Bearer x', 'content-type': 'application/json', accept: 'application/vnd.github+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  it('a misspelled request-body field is a 422 from Prism', async () => {
    const res = await call('POST', `/repos/lf/svc/statuses/${'a'.repeat(40)}`, { state: 'success', contxt: 'agentic-review/clean' });
    assert.equal(res.status, 422);
    assert.match(res.headers.get('content-type'), /problem\+json/);
    assert.match(await res.text(), /contxt/);
    assert.ok(prismFindings({ router, prism }).length > 0);
  });

  it('a dismissal without its required message is a 422 from Prism', async () => {
    const res = await call('PUT', '/repos/lf/svc/pulls/7/reviews/71/dismissals', { event: 'DISMISS' });
    assert.equal(res.status, 422);
  });

  it('an answer of the wrong shape is a 500 from Prism', async () => {
    const res = await call('GET', '/user');
    assert.equal(res.status, 500);
    assert.match(res.headers.get('content-type'), /problem\+json/);
  });
});
