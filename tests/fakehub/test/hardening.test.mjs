// The hardening issue's models: comment edit histories (userContentEdits,
// node/nodes by id), repository label rename and delete (no timeline event),
// hanging faults (status "hang", per kind) and faults narrowed to one API.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { SHA, baseSnapshot, startServer } from '../testkit.mjs';

let hub;
before(async () => { hub = await startServer(); });
after(async () => { await hub.stop(); });

const R = '/repos/lf/svc';
const EDIT = 'editedAt editor { __typename login }';
const HISTORY = `userContentEdits(first: $first, after: $after) { totalCount nodes { ${EDIT} } pageInfo { hasNextPage endCursor } }`;

/** The base scenario with an edit history of `n` edits on comment 501. */
function withEdits(n, editor = (i) => (i % 2 ? 'mallory' : 'lfx-reviewer')) {
  const s = baseSnapshot();
  const c = s.pulls[0].comments.find((x) => x.id === 501);
  c.edits = Array.from({ length: n }, (_, i) => ({
    editor: editor(i),
    edited_at: new Date(Date.UTC(2026, 10, 29, 11, 0, i)).toISOString().replace('.000Z', 'Z'),
  }));
  c.edited_by = c.edits.at(-1)?.editor ?? null;
  c.edited_at = c.edits.at(-1)?.edited_at ?? null;
  return s;
}

async function data(query, variables) {
  const r = await hub.gql(query, variables);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
  return r.body.data;
}

/** The node id fakehub gives comment `id` (read from the comments connection). */
async function commentNodeId(id) {
  const d = await data('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { comments(first: 100) { nodes { id fullDatabaseId } } } } }');
  return d.repository.pullRequest.comments.nodes.find((n) => n.fullDatabaseId === String(id)).id;
}

describe('edit histories', () => {
  beforeEach(async () => { await hub.setState(baseSnapshot()); });

  test('a snapshot comment\'s edits are its userContentEdits, newest first, with Bot editors typed', async () => {
    const s = withEdits(3, (i) => ['lfx-reviewer', 'mallory[bot]', null][i]);
    await hub.setState(s);
    const d = await data(`query($first: Int, $after: String) { repository(owner: "lf", name: "svc") { pullRequest(number: 7) {
      comments(first: 100) { nodes { fullDatabaseId lastEditedAt editor { login } ${HISTORY} } } } } }`, { first: 100 });
    const c = d.repository.pullRequest.comments.nodes.find((n) => n.fullDatabaseId === '501');
    assert.equal(c.userContentEdits.totalCount, 3);
    assert.deepEqual(c.userContentEdits.nodes, [
      { editedAt: '2026-11-29T11:00:02Z', editor: null },
      { editedAt: '2026-11-29T11:00:01Z', editor: { __typename: 'Bot', login: 'mallory' } },
      { editedAt: '2026-11-29T11:00:00Z', editor: { __typename: 'User', login: 'lfx-reviewer' } },
    ]);
    assert.equal(c.lastEditedAt, '2026-11-29T11:00:02Z');
  });

  test('a comment edited without an `edits` list has its last edit as its history; an unedited one none', async () => {
    const d = await data(`query($first: Int, $after: String) { repository(owner: "lf", name: "svc") { pullRequest(number: 7) {
      comments(first: 100) { nodes { fullDatabaseId ${HISTORY} } } } } }`, { first: 10 });
    const byId = Object.fromEntries(d.repository.pullRequest.comments.nodes.map((n) => [n.fullDatabaseId, n.userContentEdits]));
    assert.deepEqual(byId['502'].nodes, [{ editedAt: '2026-11-29T11:00:00Z', editor: { __typename: 'User', login: 'dev1' } }]);
    assert.deepEqual(byId['501'].nodes, []);
    assert.equal(byId['501'].pageInfo.hasNextPage, false);
  });

  test('node(id) and nodes(ids) reach a comment; histories paginate with first/after <= 100', async () => {
    await hub.setState(withEdits(230));
    const id = await commentNodeId(501);
    const seen = [];
    let after = null;
    for (let page = 0; page < 5; page += 1) {
      const d = await data(`query($id: ID!, $first: Int, $after: String) { node(id: $id) { __typename ... on IssueComment { ${HISTORY} } } }`,
        { id, first: 100, after });
      assert.equal(d.node.__typename, 'IssueComment');
      seen.push(...d.node.userContentEdits.nodes);
      if (!d.node.userContentEdits.pageInfo.hasNextPage) break;
      after = d.node.userContentEdits.pageInfo.endCursor;
    }
    assert.equal(seen.length, 230);
    assert.equal(seen[0].editedAt, '2026-11-29T11:03:49Z', 'newest first');
    assert.equal(new Set(seen.map((e) => e.editedAt)).size, 230, 'no edit twice across pages');
    const many = await data(`query($ids: [ID!]!, $first: Int, $after: String) { nodes(ids: $ids) { ... on IssueComment { fullDatabaseId ${HISTORY} } } }`,
      { ids: [id, await commentNodeId(502)], first: 1 });
    assert.deepEqual(many.nodes.map((n) => n.fullDatabaseId), ['501', '502']);
    assert.equal(many.nodes[0].userContentEdits.pageInfo.hasNextPage, true);
    const big = await hub.gql(`query($first: Int, $after: String) { nodes(ids: ["${id}"]) { ... on IssueComment { ${HISTORY} } } }`, { first: 101 });
    assert.equal(big.body.errors[0].type, 'EXCESSIVE_PAGINATION');
  });

  test('an unknown node id is null with a NOT_FOUND error', async () => {
    const r = await hub.gql('{ node(id: "IC_OTk5OTk") { id } }');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.node, null);
    assert.equal(r.body.errors[0].type, 'NOT_FOUND');
    const n = await hub.gql('{ nodes(ids: ["IC_OTk5OTk", "nonsense"]) { id } }');
    assert.deepEqual(n.body.data.nodes, [null, null]);
    assert.equal(n.body.errors.length, 2);
  });

  test('reading a history is a comments read: a comments fault fails it, pr and page narrow it', async () => {
    await hub.setState(withEdits(150));
    const id = await commentNodeId(501);
    const q = `query($id: ID!, $first: Int, $after: String) { node(id: $id) { ... on IssueComment { ${HISTORY} } } }`;
    await hub.setFaults([{ read: 'comments', pr: 8, status: 502 }]);
    assert.equal((await hub.gql(q, { id, first: 100 })).status, 200);
    await hub.setFaults([{ read: 'comments', pr: 7, page: 2, status: 502 }]);
    const first = await hub.gql(q, { id, first: 100 });
    assert.equal(first.status, 200);
    const second = await hub.gql(q, { id, first: 100, after: first.body.data.node.userContentEdits.pageInfo.endCursor });
    assert.equal(second.status, 502, 'page 2 of the history fails');
    await hub.setFaults([{ read: 'comments', pr: 7, status: 503 }]);
    assert.equal((await hub.gql(q, { id, first: 100 })).status, 503);
  });

  test('edits are validated and kept in the state', async () => {
    const s = withEdits(2);
    await hub.setState(s);
    const state = await hub.state();
    assert.deepEqual(state.pulls[0].comments.find((c) => c.id === 501).edits, s.pulls[0].comments[0].edits);
    const bad = baseSnapshot();
    bad.pulls[0].comments[0].edits = [{ editor: 'x', edited_at: 'yesterday' }];
    const r = await hub.post('/_fakehub/state', bad, { token: null });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /pulls\[0\]\.comments\[0\]\.edits\[0\]\.edited_at/);
    bad.pulls[0].comments[0].edits = {};
    assert.match((await hub.post('/_fakehub/state', bad, { token: null })).body.message, /comments\[0\]\.edits: expected an array/);
  });
});

describe('repository label rename and delete', () => {
  beforeEach(async () => {
    const s = baseSnapshot();
    s.labels = ['needs-human', 'bug'];
    s.pulls[1].labels = ['Needs-Human'];
    await hub.setState(s);
  });

  test('PATCH renames the label on every pull and in its events, with no new timeline event', async () => {
    const before = await hub.state();
    const r = await hub.api('PATCH', `${R}/labels/needs-human`, { body: { new_name: 'hold', color: 'ff0000' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.name, 'hold');
    assert.equal(r.body.color, 'ff0000');
    const after = await hub.state();
    assert.deepEqual(after.labels, ['hold', 'bug']);
    assert.deepEqual(after.pulls[0].labels, ['hold']);
    assert.deepEqual(after.pulls[1].labels, ['hold']);
    assert.equal(after.pulls[0].timeline.length, before.pulls[0].timeline.length, 'no timeline event');
    assert.equal(after.pulls[0].timeline.find((e) => e.id === 9001).label, 'hold', 'events show the label\'s new name');
    assert.equal((await hub.get(`${R}/labels/needs-human`)).status, 404);
    assert.equal((await hub.get(`${R}/labels/hold`)).status, 200);
    const g = await data('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { labels(first: 10) { nodes { name } } } } }');
    assert.deepEqual(g.repository.pullRequest.labels.nodes, [{ name: 'hold' }]);
  });

  test('DELETE removes the label from the repository and every pull, with no timeline event', async () => {
    const before = await hub.state();
    const r = await hub.api('DELETE', `${R}/labels/NEEDS-HUMAN`);
    assert.equal(r.status, 204);
    const after = await hub.state();
    assert.deepEqual(after.labels, ['bug']);
    assert.deepEqual(after.pulls[0].labels, []);
    assert.deepEqual(after.pulls[1].labels, []);
    assert.deepEqual(after.pulls[0].timeline, before.pulls[0].timeline);
    assert.equal((await hub.get(`${R}/issues/7/labels`)).body.length, 0);
  });

  test('errors: unknown label 404, rename onto an existing label 422, a label write fault fails both', async () => {
    assert.equal((await hub.api('PATCH', `${R}/labels/nope`, { body: { new_name: 'x' } })).status, 404);
    assert.equal((await hub.api('DELETE', `${R}/labels/nope`)).status, 404);
    const clash = await hub.api('PATCH', `${R}/labels/needs-human`, { body: { new_name: 'Bug' } });
    assert.equal(clash.status, 422);
    assert.equal(clash.body.errors[0].code, 'already_exists');
    await hub.setFaults([{ write: 'label', status: 500 }]);
    assert.equal((await hub.api('PATCH', `${R}/labels/needs-human`, { body: { new_name: 'x' } })).status, 500);
    assert.equal((await hub.api('DELETE', `${R}/labels/needs-human`)).status, 500);
    assert.deepEqual((await hub.state()).pulls[0].labels, ['needs-human'], 'a faulted write writes nothing');
    await hub.setFaults([{ write: 'label', pr: 7, status: 500 }]);
    assert.equal((await hub.api('DELETE', `${R}/labels/needs-human`)).status, 204, 'a fault with pr never hits a repository-level write');
  });
});

describe('hangs', () => {
  /** Send a request and report whether it was answered within `ms`. */
  async function answeredWithin(method, path, body, ms) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), ms);
    try {
      const r = await hub.api(method, path, { body, signal: ctl.signal });
      return r.status;
    } catch (e) {
      if (e.name === 'AbortError') return null;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  test('status "hang" holds a read open, per kind: other reads answer', async () => {
    await hub.setState({ ...baseSnapshot(), faults: [{ read: 'statuses', status: 'hang' }] });
    assert.equal(await answeredWithin('GET', `${R}/commits/${SHA.h7}/statuses`, undefined, 400), null);
    assert.equal(await answeredWithin('GET', `${R}/pulls/7/reviews`, undefined, 2000), 200);
    const log = await hub.log();
    const held = log.find((e) => e.path.endsWith('/statuses'));
    assert.equal(held.status, null, 'logged without a status');
  });

  test('status "hang" on a write: accepted, never answered, nothing written', async () => {
    await hub.setState({ ...baseSnapshot(), faults: [{ write: 'approve', pr: 7, status: 'hang' }] });
    const body = { event: 'APPROVE', commit_id: SHA.h7, body: 'ok' };
    assert.equal(await answeredWithin('POST', `${R}/pulls/7/reviews`, body, 400), null);
    assert.equal((await hub.state()).pulls[0].reviews.length, 2, 'no review was added');
  });

  test('"hang" and "timeout" are both accepted; anything else is refused naming the field', async () => {
    await hub.setFaults([{ read: 'pull', status: 'timeout' }, { read: 'labels', status: 'hang' }]);
    const r = await hub.post('/_fakehub/faults', [{ read: 'pull', status: 'stall' }], { token: null });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /faults\[0\]\.status/);
  });
});

describe('api: a fault narrowed to REST or GraphQL', () => {
  const statusesGql = '{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { commits(last: 1) { nodes { commit { status { state } } } } } } }';

  test('api: "rest" fails the REST read only; api: "graphql" the GraphQL read only', async () => {
    await hub.setState({ ...baseSnapshot(), faults: [{ read: 'statuses', api: 'rest', status: 502 }] });
    assert.equal((await hub.get(`${R}/commits/${SHA.h7}/statuses`)).status, 502);
    assert.equal((await hub.gql(statusesGql)).status, 200);
    await hub.setFaults([{ read: 'statuses', api: 'graphql', status: 502 }]);
    assert.equal((await hub.get(`${R}/commits/${SHA.h7}/statuses`)).status, 200);
    assert.equal((await hub.gql(statusesGql)).status, 502);
  });

  test('api must be rest or graphql', async () => {
    const r = await hub.post('/_fakehub/faults', [{ read: 'statuses', api: 'soap', status: 502 }], { token: null });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /faults\[0\]\.api/);
  });
});
