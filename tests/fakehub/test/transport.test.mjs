// Transport: h2c with prior knowledge on the HTTP/1.1 port, TLS with ALPN, latency.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';

import { SHA, baseSnapshot, startServer } from '../testkit.mjs';

/** One HTTP/2 request on a session; resolves to { status, headers, body }. */
function h2request(session, { method = 'GET', path: p, body, token = 't' }) {
  return new Promise((resolve, reject) => {
    const headers = { ':method': method, ':path': p };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const stream = session.request(headers);
    let status;
    let responseHeaders;
    const chunks = [];
    stream.on('response', (h) => { status = h[':status']; responseHeaders = h; });
    stream.on('data', (d) => chunks.push(d));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status, headers: responseHeaders, text, body: text ? JSON.parse(text) : null });
    });
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('h2c (cleartext HTTP/2 with prior knowledge)', () => {
  let hub;
  before(async () => { hub = await startServer(); });
  after(async () => { await hub.stop(); });

  test('REST and GraphQL over HTTP/2 on the same port as HTTP/1.1', async () => {
    const session = http2.connect(hub.base);
    try {
      const [user, pull, gql] = await Promise.all([
        h2request(session, { path: '/user' }),
        h2request(session, { path: '/repos/lf/svc/pulls/7' }),
        h2request(session, { method: 'POST', path: '/graphql', body: { query: '{ viewer { login } }' } }),
      ]);
      assert.equal(user.status, 200);
      assert.equal(user.body.login, 'lfx-reviewer');
      assert.equal(user.headers['x-ratelimit-resource'], 'core');
      assert.equal(pull.body.head.sha, SHA.h7);
      assert.equal(gql.body.data.viewer.login, 'lfx-reviewer');
      const unauth = await h2request(session, { path: '/user', token: null });
      assert.equal(unauth.status, 401);
      const write = await h2request(session, { method: 'POST', path: `/repos/lf/svc/statuses/${SHA.h7}`, body: { state: 'success', context: 'h2' } });
      assert.equal(write.status, 201);
      assert.equal(write.headers.location, `${hub.base}/repos/lf/svc/statuses/${SHA.h7}`);
    } finally {
      session.close();
    }
    assert.equal((await hub.get('/user')).status, 200, 'HTTP/1.1 still served');
  });

  test('a truncated answer resets the HTTP/2 stream', async () => {
    await hub.setState({ ...baseSnapshot(), faults: [{ read: 'user', mode: 'truncated' }] });
    const session = http2.connect(hub.base);
    try {
      await assert.rejects(h2request(session, { path: '/user' }));
    } finally {
      session.destroy();
    }
  });
});

describe('latency', () => {
  let hub;
  before(async () => { hub = await startServer({ args: ['--latency-ms', '300'] }); });
  after(async () => { await hub.stop(); });

  test('--latency-ms delays every response; concurrent requests overlap', async () => {
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 6 }, () => hub.get('/repos/lf/svc/pulls/7')));
    const elapsed = Date.now() - started;
    assert.ok(results.every((r) => r.status === 200));
    assert.ok(elapsed >= 290, `took ${elapsed} ms`);
    assert.ok(elapsed < 1200, `6 requests overlapped (took ${elapsed} ms)`);
    const log = await hub.log();
    assert.ok(log.every((e) => e.ms >= 290), JSON.stringify(log.map((e) => e.ms)));
  });
});

describe('TLS', () => {
  let hub;
  let cert;
  let skip = false;
  before(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fakehub-tls-'));
    const certFile = path.join(dir, 'cert.pem');
    const keyFile = path.join(dir, 'key.pem');
    try {
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1',
      ], { stdio: 'ignore' });
    } catch {
      skip = true;
      return;
    }
    cert = readFileSync(certFile);
    hub = await startServer({ args: ['--tls-cert', certFile, '--tls-key', keyFile] });
  });
  after(async () => { await hub?.stop(); });

  test('https with ALPN h2 and http/1.1', async (t) => {
    if (skip) {
      t.skip('openssl is not available to make a certificate');
      return;
    }
    assert.match(hub.base, /^https:\/\/127\.0\.0\.1:\d+$/);
    const session = http2.connect(hub.base, { ca: cert });
    try {
      const r = await h2request(session, { path: '/user' });
      assert.equal(r.status, 200);
      assert.equal(session.alpnProtocol, 'h2');
      const g = await h2request(session, { method: 'POST', path: '/graphql', body: { query: '{ viewer { login } }' } });
      assert.equal(g.body.data.viewer.login, 'lfx-reviewer');
    } finally {
      session.close();
    }
    const h1 = await new Promise((resolve, reject) => {
      const req = https.get(`${hub.base}/repos/lf/svc/pulls/7`, { ca: cert, headers: { authorization: 'Bearer t' }, ALPNProtocols: ['http/1.1'] }, (res) => {
        const alpn = res.socket.alpnProtocol;
        let text = '';
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode, version: res.httpVersion, body: JSON.parse(text), alpn }));
      });
      req.on('error', reject);
    });
    assert.equal(h1.status, 200);
    assert.equal(h1.version, '1.1');
    assert.equal(h1.alpn, 'http/1.1');
    assert.equal(h1.body.url, `${hub.base}/repos/lf/svc/pulls/7`);
  });
});
