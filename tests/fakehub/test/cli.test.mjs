// Command line: startup line, argument and snapshot errors, SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';

import { baseSnapshot, runServer, startServer, writeSnapshot } from '../testkit.mjs';

test('prints exactly its base URL on 127.0.0.1 as the first stdout line, then stops on SIGTERM', async () => {
  const hub = await startServer();
  assert.match(hub.base, /^http:\/\/127\.0\.0\.1:\d+$/);
  const r = await hub.get('/user');
  assert.equal(r.status, 200);
  let rest = '';
  hub.proc.stdout.on('data', (d) => { rest += d; });
  assert.equal(await hub.stop(), 0);
  assert.equal(rest, '', 'nothing else on stdout');
});

test('SIGTERM stops the server even with a request held open by a timeout fault', async () => {
  const snapshot = { ...baseSnapshot(), faults: [{ read: 'user', status: 'timeout' }] };
  const hub = await startServer({ snapshot });
  const pending = new Promise((resolve) => {
    const req = http.get(`${hub.base}/user`, { headers: { authorization: 'Bearer t' } });
    req.on('error', (err) => resolve(err.code));
    req.on('response', () => resolve('answered'));
  });
  await new Promise((r) => setTimeout(r, 100));
  const exit = once(hub.proc, 'exit');
  hub.proc.kill('SIGTERM');
  const [code] = await exit;
  assert.equal(code, 0);
  assert.equal(await pending, 'ECONNRESET');
});

test('--port binds the given port', async () => {
  const probe = http.createServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  const hub = await startServer({ args: ['--port', String(port)] });
  try {
    assert.equal(hub.base, `http://127.0.0.1:${port}`);
  } finally {
    await hub.stop();
  }
});

test('usage errors exit 2 with a message on stderr', async () => {
  let r = await runServer([]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--snapshot is required/);
  assert.equal(r.stdout, '');

  r = await runServer(['--snapshot', '/nonexistent/snapshot.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot read snapshot/);

  r = await runServer(['--snapshot', writeSnapshot(baseSnapshot()), '--latency-ms', 'soon']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--latency-ms/);

  r = await runServer(['--snapshot', writeSnapshot(baseSnapshot()), '--bogus']);
  assert.equal(r.code, 2);

  r = await runServer(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /usage:/);
});

test('a malformed snapshot is refused naming the bad field', async () => {
  const bad = baseSnapshot();
  bad.pulls[0].head.sha = 42;
  let r = await runServer(['--snapshot', writeSnapshot(bad)]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /pulls\[0\]\.head\.sha/);

  r = await runServer(['--snapshot', writeSnapshot({ snapshot: 1, repository: 'lf/svc', event: {} })]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /pulls/);

  r = await runServer(['--snapshot', writeSnapshot({ ...baseSnapshot(), faults: [{ read: 'bogus', status: 500 }] })]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /faults\[0\]\.read/);
});
