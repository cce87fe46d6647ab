// The transport under the live port (BEHAVIOR §8, src/github/http.c): cleartext
// HTTP/2 with prior knowledge, HTTPS with the CA from SSL_CERT_FILE or
// SSL_CERT_DIR (and no connection at all to a server it cannot verify),
// GitHub Enterprise Server's /api/v3 + /api/graphql layout with the GraphQL
// URL derived, Link headers in GitHub's /repositories/{id}/ form, and
// redirects (followed for reads on the API origin only; never for writes).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite, requestLines } from './lib/fakehub.mjs';
import { differential } from './lib/differential.mjs';
import { fixture } from './lib/fixtures.mjs';
import { FrontProxy } from './lib/proxy.mjs';
import { runLive, scratch } from './lib/run.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { haveOpenssl, testCerts } from './lib/tls.mjs';
import { Trap } from './lib/trap.mjs';

const SOME = ['000-demo', '050-gate-all-hold-approve', '056-gate-withhold-dismisses-only-trusted-approvals', '120-fault-read-pull-502',
  '123-fault-read-threads-apply', '127-fault-read-statuses-gate-backstop', '130-fault-write-status', '131-fault-write-approve', '150-sweep-mixed'];

const isH2 = (e) => typeof e.headers?.[':method'] === 'string';

let work;
before(() => { work = scratch(); });
after(() => work?.cleanup());

/**
 * An untrusted clean-context status newer than everything: GraphQL's newest
 * status per context then cannot decide the clean condition, so the run
 * must read the paged REST history (what these tests exercise).
 */
function forgedOnTop(snapshot) {
  const h = snapshot.pulls[0].head.sha;
  snapshot.statuses[h].push({ id: 9999, state: 'success', context: 'agentic-review/clean',
    description: 'conductor pr=#7: clean=true', creator: 'mallory', created_at: '2026-11-29T11:59:00Z', target_url: null });
  return snapshot;
}

/** Fixture 050 with a forged clean status on top (the REST history is read). */
function restRead050() {
  const fx = fixture('050-gate-all-hold-approve');
  const snapshot = forgedOnTop(structuredClone(fx.snapshot));
  const file = path.join(work.dir, `050-forged-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(snapshot));
  return { ...fx, snapshot, file };
}

/** A generated scenario as a fixture-like object (with a file for replay). */
function scenarioFixture(match, mutate = (s) => s) {
  const sc = SCENARIOS.find((x) => x.name.startsWith(match));
  const built = match.startsWith('statuses:') ? forgedOnTop(sc.build()) : sc.build();
  const snapshot = mutate(built);
  const file = path.join(work.dir, `${sc.name.replace(/\W+/g, '-').slice(0, 60)}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(snapshot));
  return { name: sc.name, file, snapshot, args: [] };
}

// libcurl before 8.0 breaks a reused h2c connection ("Error in the HTTP2
// framing layer", curl/curl#10634), so there the program refuses the option
// as a usage error before any request; from 8.0 on it must work.
async function h2cSupported(hub) {
  const fx = fixture('050-gate-all-hold-approve');
  await hub.load(fx.snapshot);
  await hub.clearLog();
  const r = await runLive(fx.snapshot, hub, { env: { AGENTIC_HTTP2_PRIOR_KNOWLEDGE: 'true' } });
  if (r.code === 2 && /needs libcurl 8\.0 or newer/.test(r.stderr)) {
    assert.deepEqual(await hub.log(), [], 'refused before any request');
    return false;
  }
  return true;
}

describe('HTTP/2 with prior knowledge (AGENTIC_HTTP2_PRIOR_KNOWLEDGE)', () => {
  let hub;
  let supported;
  before(async () => { hub = await Hub.start(); supported = await h2cSupported(hub); });
  after(async () => { await hub?.stop(); });
  it('is refused as a usage error on libcurl < 8.0, with nothing sent', () => {
    // h2cSupported() asserted the refusal; nothing more to check here.
    assert.ok(typeof supported === 'boolean');
  });
  for (const name of ['000-demo', '050-gate-all-hold-approve', '150-sweep-mixed']) {
    it(`${name}: live over h2c = replay`, async (t) => {
      if (!supported) return t.skip('libcurl < 8.0 refuses h2c');
      await differential(fixture(name), hub, { env: { AGENTIC_HTTP2_PRIOR_KNOWLEDGE: 'true' } });
      const log = await hub.log({ headers: true });
      assert.ok(log.length > 0 && log.every(isH2), 'every request went over HTTP/2');
    });
  }
  it('truncated answers over HTTP/2 (stream reset) are retried: transient → approves', async (t) => {
    if (!supported) return t.skip('libcurl < 8.0 refuses h2c');
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.faults = [{ read: 'pull', mode: 'truncated', times: 1 }, { read: 'statuses', mode: 'truncated', times: 1 }];
    await hub.load(s);
    const r = await runLive(s, hub, { env: { AGENTIC_HTTP2_PRIOR_KNOWLEDGE: 'true' } });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
  });
  it('truncated answers over HTTP/2, every time → no approval, exit 3', async (t) => {
    if (!supported) return t.skip('libcurl < 8.0 refuses h2c');
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.faults = [{ read: 'statuses', mode: 'truncated' }];
    await hub.load(s);
    const r = await runLive(s, hub, { env: { AGENTIC_HTTP2_PRIOR_KNOWLEDGE: 'true' } });
    assert.equal(r.code, 3, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes, []);
  });
});

describe('HTTPS', { skip: haveOpenssl() ? false : 'openssl is not installed' }, () => {
  let certs;
  let hub;
  let wrongName;
  before(async () => {
    certs = testCerts();
    [hub, wrongName] = await Promise.all([
      Hub.start({ tls: { cert: certs.cert, key: certs.key, ca: certs.ca } }),
      Hub.start({ tls: { cert: certs.wrongNameCert, key: certs.wrongNameKey, ca: certs.ca } }),
    ]);
  });
  after(async () => { await Promise.all([hub?.stop(), wrongName?.stop()]); });

  it('serves https', () => assert.match(hub.url, /^https:\/\/127\.0\.0\.1:\d+$/));

  for (const name of ['000-demo', '050-gate-all-hold-approve', '131-fault-write-approve', '150-sweep-mixed']) {
    it(`${name}: SSL_CERT_FILE = the test CA → live = replay (HTTP/2 by ALPN)`, async () => {
      await differential(fixture(name), hub, { env: { SSL_CERT_FILE: certs.ca } });
      const log = await hub.log({ headers: true });
      assert.ok(log.every(isH2), 'HTTP/2 negotiated over TLS');
    });
  }

  it('a stream reset mid-answer (truncated, HTTP/2 over TLS) is retried: transient → approves', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.faults = [{ read: 'pull', mode: 'truncated', times: 1 }, { read: 'statuses', mode: 'truncated', times: 1 }];
    await hub.load(s);
    const r = await runLive(s, hub, { env: { SSL_CERT_FILE: certs.ca } });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes.map((w) => w.kind), ['approve']);
  });

  it('a stream reset mid-answer every time (HTTP/2 over TLS) → no approval, exit 3', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const s = structuredClone(fx.snapshot);
    s.faults = [{ read: 'threads', mode: 'truncated' }];
    await hub.load(s);
    const r = await runLive(s, hub, { env: { SSL_CERT_FILE: certs.ca } });
    assert.equal(r.code, 3, r.stderr.slice(-400));
    assert.deepEqual(r.report.writes, []);
  });

  it('SSL_CERT_DIR = a hashed directory holding the test CA → live = replay', async () => {
    await differential(fixture('050-gate-all-hold-approve'), hub, { env: { SSL_CERT_DIR: certs.caDir } });
  });

  const refused = [
    { name: 'a certificate from another CA (SSL_CERT_FILE)', env: () => ({ SSL_CERT_FILE: certs.otherCa }), target: () => hub },
    { name: 'a certificate no system CA signed (default store)', env: () => ({}), target: () => hub },
    { name: 'a certificate for another host name', env: () => ({ SSL_CERT_FILE: certs.ca }), target: () => wrongName },
  ];
  for (const t of refused) {
    it(`${t.name}: no request is sent, exit 3`, async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const target = t.target();
      await target.load(fx.snapshot);
      const r = await runLive(fx.snapshot, target, { env: t.env() });
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.deepEqual(r.report?.writes, []);
      assert.deepEqual(await target.log(), [], 'nothing reached the server (verification failed in the handshake)');
    });
  }
});

describe('GitHub Enterprise Server layout (/api/v3, /api/graphql derived)', () => {
  let hub;
  let front;
  before(async () => {
    hub = await Hub.start();
    front = new FrontProxy(hub.url, { prefix: '/api/v3', graphqlPath: '/api/graphql' });
    await front.listen();
  });
  after(async () => { await front?.close(); await hub?.stop(); });

  const ghes = () => ({ urls: { api: `${front.url}/api/v3` }, env: { GITHUB_GRAPHQL_URL: '' } });

  for (const name of ['000-demo', '050-gate-all-hold-approve', '150-sweep-mixed']) {
    it(`${name}: GITHUB_API_URL=…/api/v3 without GITHUB_GRAPHQL_URL → live = replay`, async () => {
      front.seen = [];
      await differential(fixture(name), hub, ghes());
      assert.ok(front.seen.some((e) => e.path === '/api/graphql'), 'GraphQL went to /api/graphql');
      assert.ok(front.seen.every((e) => e.path === '/api/graphql' || e.path.startsWith('/api/v3/')), `all under the API: ${front.seen.map((e) => e.path).join(', ')}`);
    });
  }

  it('statuses paginated under /api/v3 (Link next kept under the prefix) → live = replay', async () => {
    front.seen = [];
    const fx = scenarioFixture('statuses: the clean status behind 250');
    const { live } = await differential(fx, hub, ghes());
    assert.equal(live.report.steps[0].outcome, 'approve');
    assert.ok(front.seen.filter((e) => e.path.endsWith('/statuses')).length >= 3, 'three pages of statuses');
  });
});

describe('Link and redirects', () => {
  const REPO_ID = 4242;
  let hub;
  let trap;
  before(async () => {
    hub = await Hub.start();
    trap = new Trap();
    await trap.listen();
  });
  after(async () => { await hub?.stop(); await trap?.close(); });

  async function through(options, fx, env = {}) {
    const front = new FrontProxy(hub.url, options);
    await front.listen();
    try {
      trap.clear();
      return { front, ...(await differential(fx, hub, { urls: { api: front.url }, env: { ...trap.env(), ...env } })) };
    } finally {
      await front.close();
    }
  }

  const withRepoId = (s) => ({ ...s, repository_id: REPO_ID });

  it('Link next in the /repositories/{id}/ form on the API origin is followed → live = replay', async () => {
    const fx = scenarioFixture('statuses: the clean status behind 250', withRepoId);
    const { front, live } = await through({
      rewriteLink: (link) => link.replaceAll(`/repos/${fx.snapshot.repository}/`, `/repositories/${REPO_ID}/`),
    }, fx);
    assert.equal(live.report.steps[0].outcome, 'approve');
    assert.ok(front.seen.some((e) => e.path.startsWith(`/repositories/${REPO_ID}/`)), 'the /repositories/{id}/ page was read');
    assert.deepEqual(trap.requests, []);
  });

  it('a same-origin 301 on a read (renamed repository) is followed → live = replay', async () => {
    const fx = restRead050();
    const s = withRepoId(fx.snapshot);
    const file = path.join(work.dir, 'renamed.json');
    writeFileSync(file, JSON.stringify(s));
    const { front } = await through({
      intercept: (req, url, self) => (req.method === 'GET' && url.pathname.startsWith('/repos/lf/svc/commits/')
        ? { status: 301, headers: { location: `${self.url}${url.pathname.replace('/repos/lf/svc/', `/repositories/${REPO_ID}/`)}${url.search}` }, body: '{"message":"Moved Permanently"}' }
        : null),
    }, { ...fx, snapshot: s, file });
    assert.ok(front.seen.some((e) => e.path.startsWith(`/repositories/${REPO_ID}/commits/`)), 'the redirect was followed on the origin');
  });

  it('a redirect of a read to another origin is not followed: exit 3, no approval, nothing sent there', async () => {
    const fx = restRead050();
    const front = new FrontProxy(hub.url, {
      intercept: (req, url) => (req.method === 'GET' && url.pathname.endsWith('/statuses')
        ? { status: 307, headers: { location: `http://evil.invalid:9${url.pathname}${url.search}` }, body: '' } : null),
    });
    await front.listen();
    try {
      trap.clear();
      await hub.load(fx.snapshot);
      const r = await runLive(fx.snapshot, { api: front.url }, { env: trap.env() });
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.deepEqual(r.report.writes, []);
      assert.deepEqual(trap.requests.map((x) => x.url), [], 'no request to the other origin');
    } finally {
      await front.close();
    }
  });

  for (const [name, make] of [
    ['userinfo that hides another host (http://127.0.0.1:PORT@evil.invalid:9/…)', (u, self) => u.replace(self.url, `${self.url}@evil.invalid:9`)],
    ['the same host and port over another scheme (https)', (u, self) => u.replace(self.url, self.url.replace('http:', 'https:'))],
    ['a scheme-relative URL (//evil.invalid:9/…)', (u, self) => u.replace(self.url, '//evil.invalid:9')],
  ]) {
    it(`Link next with ${name} is not followed: exit 3, no approval`, async () => {
      const fx = scenarioFixture('statuses: the clean status behind 250');
      const front = new FrontProxy(hub.url, { rewriteLink: (link, self) => link.replace(/<([^>]*)>; rel="next"/, (m, u) => `<${make(u, self)}>; rel="next"`) });
      await front.listen();
      try {
        trap.clear();
        await hub.load(fx.snapshot);
        const r = await runLive(fx.snapshot, { api: front.url }, { env: trap.env() });
        assert.equal(r.code, 3, r.stderr.slice(-400));
        assert.deepEqual(r.report.writes, []);
        assert.deepEqual(trap.requests.map((x) => x.url), [], 'nothing sent to another host');
        assert.equal(front.seen.filter((e) => e.path.endsWith('/statuses')).length, 1, 'only the first page was read');
      } finally {
        await front.close();
      }
    });
  }

  it('a redirect loop on a read is cut short: exit 3, no approval', async () => {
    const fx = restRead050();
    const front = new FrontProxy(hub.url, {
      intercept: (req, url, self) => (url.pathname.endsWith('/statuses')
        ? { status: 302, headers: { location: `${self.url}${url.pathname}${url.search}` }, body: '' } : null),
    });
    await front.listen();
    try {
      await hub.load(fx.snapshot);
      const r = await runLive(fx.snapshot, { api: front.url });
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.deepEqual(r.report.writes, []);
      assert.ok(front.seen.filter((e) => e.path.endsWith('/statuses')).length <= 10, 'a bounded number of redirects');
    } finally {
      await front.close();
    }
  });

  it('an answer larger than the response ceiling (48 MiB) fails the read: exit 3, no approval', async () => {
    const fx = restRead050();
    const big = `[${'{"id":1},'.repeat(5_600_000)}{"id":2}]`; // ~50 MB of JSON
    const front = new FrontProxy(hub.url, {
      intercept: (req, url) => (url.pathname.endsWith('/statuses') ? { status: 200, body: big } : null),
    });
    await front.listen();
    try {
      await hub.load(fx.snapshot);
      const r = await runLive(fx.snapshot, { api: front.url });
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.deepEqual(r.report.writes, []);
    } finally {
      await front.close();
    }
  });

  it('a redirect of the approval POST is not followed (a write is never re-sent blindly): exit 3, no approval', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    const front = new FrontProxy(hub.url, {
      intercept: (req, url, self) => (req.method === 'POST' && url.pathname.endsWith('/reviews')
        ? { status: 307, headers: { location: `${self.url}${url.pathname}` }, body: '' } : null),
    });
    await front.listen();
    try {
      await hub.load(fx.snapshot);
      const r = await runLive(fx.snapshot, { api: front.url });
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.deepEqual(r.report.writes, []);
      assert.equal(front.seen.filter((e) => e.method === 'POST' && e.path.endsWith('/reviews')).length, 1, 'the POST was sent once');
      assert.deepEqual(requestLines((await hub.log()).filter(isWrite)), [], 'no write reached fakehub');
      const state = await hub.state();
      assert.ok(!state.pulls[0].reviews?.some((x) => x.state === 'APPROVED'));
    } finally {
      await front.close();
    }
  });
});
