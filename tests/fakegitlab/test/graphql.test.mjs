// The editors' query of G11 (docs/rules/gitlab.md), and the schema subset
// against the fields of GitLab's Note type (app/graphql/types/notes/
// base_note_interface.rb and note_type.rb in the gitlabhq repository:
// id NoteID!, body String!, author, createdAt Time!, updatedAt Time!,
// lastEditedAt Time, lastEditedBy, system Boolean!, internal Boolean, url String).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { schema } from '../lib/graphql.mjs';
import { MR, start } from '../kit.mjs';

const QUERY = `query($path: ID!, $iid: String!, $after: String) {
  project(fullPath: $path) { mergeRequest(iid: $iid) {
    notes(first: 100, after: $after) { nodes { id lastEditedAt lastEditedBy { username } } pageInfo { hasNextPage endCursor } } } } }`;

describe('GraphQL editors (G10, G11)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  const q = (variables, token = 'tok') => t.call('POST', '/api/graphql', { token, body: { query: QUERY, variables } });
  it('the Note fields are GitLab\'s', () => {
    const f = schema.getType('Note').getFields();
    const want = { id: 'NoteID!', body: 'String!', createdAt: 'Time!', updatedAt: 'Time!', lastEditedAt: 'Time', system: 'Boolean!', internal: 'Boolean', url: 'String' };
    for (const [k, type] of Object.entries(want)) assert.equal(String(f[k].type), type, k);
    assert.equal(String(f.lastEditedBy.type), 'UserCore');
  });
  it('a maintainer\'s edit shows as the last editor; global ids name the note class', async () => {
    await t.call('PUT', `${MR}/notes/501`, { token: 'maint-token', body: { body: 'tampered' } });
    const r = await q({ path: 'platform/backend/svc', iid: '7' });
    const nodes = r.json.data.project.mergeRequest.notes.nodes;
    const n501 = nodes.find((n) => n.id === 'gid://gitlab/Note/501');
    assert.equal(n501.lastEditedBy.username, 'maint1');
    assert.ok(nodes.some((n) => n.id === 'gid://gitlab/DiffNote/601'));
    assert.equal(nodes.find((n) => n.id === 'gid://gitlab/Note/503').lastEditedAt, null);
  });
  it('an unknown project is null; a bad query is an error; no token is 401', async () => {
    assert.equal((await q({ path: 'a/b', iid: '7' })).json.data.project, null);
    const bad = await t.call('POST', '/api/graphql', { body: { query: '{ nope }' } });
    assert.ok(bad.json.errors.length);
    assert.equal((await q({ path: 'a/b', iid: '7' }, null)).status, 401);
  });
  it('a read: editors fault fails the query', async () => {
    await t.call('POST', '/_fake/faults', { body: [{ read: 'editors', status: 502 }] });
    assert.equal((await q({ path: 'platform/backend/svc', iid: '7' })).status, 502);
  });
});
