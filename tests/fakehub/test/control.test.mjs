// The /_fakehub control endpoints: state, faults, request log.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { SHA, baseSnapshot, startServer } from '../testkit.mjs';

let hub;
before(async () => { hub = await startServer(); });
after(async () => { await hub.stop(); });

test('GET /_fakehub/state returns the snapshot, in the input format, with writes applied', async () => {
  await hub.setState(baseSnapshot());
  assert.deepEqual(await hub.state(), baseSnapshot());
  await hub.post(`/repos/lf/svc/statuses/${SHA.h7}`, { state: 'pending', context: 'agentic-review/clean', description: 'd' });
  await hub.post('/repos/lf/svc/pulls/7/reviews', { commit_id: SHA.h7, event: 'APPROVE' });
  await hub.put('/repos/lf/svc/pulls/7/reviews/71/dismissals', { message: 'stale', event: 'DISMISS' });
  const state = await hub.state();
  assert.equal(state.snapshot, 1);
  assert.equal(state.statuses[SHA.h7].at(-1).id, 1501);
  assert.equal(state.statuses[SHA.h7].at(-1).creator, 'lfx-reviewer');
  assert.deepEqual(state.pulls[0].reviews.map((r) => [r.id, r.state]), [[72, 'COMMENTED'], [71, 'DISMISSED'], [73, 'APPROVED']]);
  assert.deepEqual(state.event, baseSnapshot().event, 'untouched parts stay as given');
  assert.deepEqual(state.config, baseSnapshot().config);
});

test('POST /_fakehub/state replaces the state; a malformed one is 400 naming the field', async () => {
  const snap = baseSnapshot();
  snap.pulls = snap.pulls.slice(0, 1);
  await hub.setState(snap);
  assert.deepEqual((await hub.get('/repos/lf/svc/pulls?state=all')).body.map((p) => p.number), [7]);
  const bad = await hub.post('/_fakehub/state', { ...baseSnapshot(), repository: 'no-slash' }, { token: null });
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^repository:/);
  const unknown = await hub.post('/_fakehub/state', { ...baseSnapshot(), future_key: { x: 1 } }, { token: null });
  assert.equal(unknown.status, 200, 'unknown keys are ignored (and kept)');
  assert.deepEqual((await hub.state()).future_key, { x: 1 });
});

test('GET /_fakehub/log records every API request; /_fakehub/log/clear empties it', async () => {
  await hub.setState(baseSnapshot());
  const cleared = await hub.clearLog();
  assert.equal(cleared.status, 204);
  await hub.get('/repos/lf/svc/pulls?state=all&per_page=2');
  await hub.gql('query($n: Int!) { repository(owner: "lf", name: "svc") { pullRequest(number: $n) { number } } }', { n: 7 });
  await hub.post('/repos/lf/svc/issues/7/labels', '{oops');
  await hub.get('/user', { token: null });
  await hub.state();
  const log = await hub.log();
  assert.equal(log.length, 4, 'control requests are not logged');
  assert.deepEqual(log[0].query, { state: 'all', per_page: '2' });
  assert.deepEqual(Object.keys(log[0]).sort(), ['actor', 'body', 'method', 'ms', 'path', 'query', 'status']);
  assert.equal(log[0].actor, 'user', 'any token that is not a JWT or an installation token is a user\'s');
  assert.equal(log[3].actor, null, 'no credential, no actor');
  assert.equal(log[0].method, 'GET');
  assert.equal(log[0].path, '/repos/lf/svc/pulls');
  assert.equal(log[0].body, null);
  assert.equal(log[0].status, 200);
  assert.equal(typeof log[0].ms, 'number');
  assert.equal(log[1].path, '/graphql');
  assert.deepEqual(log[1].body.variables, { n: 7 });
  assert.equal(log[2].body, '{oops', 'a body that is not JSON is logged as a string');
  assert.equal(log[2].status, 400);
  assert.equal(log[3].status, 401);
});

test('GET /_fakehub/log?headers=1 adds each request\'s headers (to check where a token went)', async () => {
  await hub.setState(baseSnapshot());
  await hub.clearLog();
  await hub.get('/user');
  const plain = await hub.log();
  assert.deepEqual(Object.keys(plain[0]).sort(), ['actor', 'body', 'method', 'ms', 'path', 'query', 'status'], 'not shown by default');
  const { body: withHeaders } = await hub.get('/_fakehub/log?headers=1', { token: null });
  assert.equal(withHeaders.length, 1);
  assert.match(withHeaders[0].headers.authorization, /^(Bearer|token) \S+/);
  assert.equal(withHeaders[0].path, '/user');
});

test('unknown control endpoints are 404', async () => {
  assert.equal((await hub.get('/_fakehub/nothing', { token: null })).status, 404);
});
