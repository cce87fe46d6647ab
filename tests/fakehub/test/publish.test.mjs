// What `publish` and `review-plan` need (PUBLISH.md §8): review comments,
// files with patches, compare, issue comment writes with edit histories,
// COMMENT reviews checked against the patches, the new fault kinds, `skip`,
// `comment_id`, `lost_response`, and the writes journal. Every answer of the
// new endpoints is checked against GitHub's OpenAPI description
// (@octokit/openapi, with ajv from tests/peers).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { SHA, baseSnapshot, parseLink, runServer, sha, writeSnapshot } from '../testkit.mjs';
import { startServer } from '../testkit.mjs';

const R = '/repos/lf/svc';
const WEB = 'https://github.com/lf/svc/pull/7';
const BASE_SHA = sha('main-tip');
const ORPHAN = sha('known-only-from-a-status');

// ---- GitHub's OpenAPI description, validated with ajv ----------------------------

const peers = new URL('../../peers/', import.meta.url);
const require = createRequire(new URL('package.json', peers));
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
let ajv;
let openapi;

/**
 * OpenAPI 3.0's `nullable` in JSON Schema terms for ajv: a nullable enum
 * admits null (OpenAPI 3.0.3's reading), a nullable schema without `type`
 * (a bare $ref or allOf) becomes anyOf [it, null].
 */
function nullables(node) {
  if (Array.isArray(node)) return node.map(nullables);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullables(v)]));
  if (out.nullable === true) {
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined) {
      delete out.nullable;
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

function loadOpenapi() {
  if (ajv) return;
  openapi = JSON.parse(readFileSync(new URL('node_modules/@octokit/openapi/generated/api.github.com.json', peers), 'utf8'));
  ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'gh', components: { schemas: nullables(openapi.components.schemas) } });
}

/** The response schema of an operation for a status, with its component refs pointing into 'gh'. */
function responseSchema(method, route, status) {
  let r = openapi.paths[route]?.[method]?.responses?.[String(status)];
  assert.ok(r, `no ${method} ${route} ${status} in the OpenAPI description`);
  if (r.$ref) r = openapi.components.responses[r.$ref.split('/').pop()];
  const schema = r.content?.['application/json']?.schema;
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' ? `gh${v}` : rewrite(v)]));
    }
    return node;
  };
  return schema ? nullables(rewrite(schema)) : null;
}

const validators = new Map();
/** Asserts `res` (a testkit answer) is what the operation documents for its status. */
function conforms(method, route, res) {
  loadOpenapi();
  const key = `${method} ${route} ${res.status}`;
  if (!validators.has(key)) {
    const schema = responseSchema(method, route, res.status);
    validators.set(key, schema ? ajv.compile(schema) : null);
  }
  const validate = validators.get(key);
  if (validate === null) {
    assert.ok(res.body === null || res.body === '', `${key}: no body documented`);
    return;
  }
  assert.ok(validate(res.body), `${key}: ${ajv.errorsText(validate.errors)}`);
}

const OP = {
  listReviewComments: ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/comments'],
  reviewCommentsOfReview: ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments'],
  getReviewComment: ['get', '/repos/{owner}/{repo}/pulls/comments/{comment_id}'],
  files: ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
  listComments: ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  createComment: ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  updateComment: ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  deleteComment: ['delete', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  createReview: ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  compare: ['get', '/repos/{owner}/{repo}/compare/{basehead}'],
  pull: ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
};
const check = (op, res) => conforms(...OP[op], res);

// ---- the scenario ------------------------------------------------------------------

// src/a.c: one hunk; new lines 10..14 (10 context, 11-12 added, 13 context, 14 added); old 10..12 (11 removed).
const PATCH_A = [
  '@@ -10,3 +10,5 @@ int main(void)',
  ' int a;',
  '-int b;',
  '+int b = 0;',
  '+int c = 1;',
  ' int d;',
  '+int e;',
].join('\n');
// src/b.c: two hunks; new lines 1..2 and 40..41.
const PATCH_B = [
  '@@ -1,2 +1,2 @@',
  ' #include <x.h>',
  '+#include <y.h>',
  '@@ -39,2 +40,2 @@ void f(void)',
  ' g();',
  '+h();',
].join('\n');

function publishSnapshot() {
  const s = baseSnapshot();
  const p = s.pulls[0];
  p.base = { ref: 'main', sha: BASE_SHA };
  p.comments.find((c) => c.id === 501).updated_at = '2026-11-29T10:30:00Z';
  p.reviews.find((r) => r.id === 72).body = 'copilot summary';
  p.files = [
    { filename: 'src/a.c', status: 'modified', patch: PATCH_A },
    { filename: 'src/b.c', status: 'modified', patch: PATCH_B },
    { filename: 'logo.png', status: 'added' },
    { filename: 'docs/old.md', status: 'removed', patch: '@@ -1 +0,0 @@\n-gone' },
  ];
  p.review_comments = [
    { id: 9001, author: 'lfx-reviewer', body: '<!-- pr-review:finding-root -->\n<!-- pr-review:finding-id=F1 -->', path: 'src/a.c', line: 11, start_line: null, side: 'RIGHT', commit_id: SHA.h7, in_reply_to: null, review_id: 72, created_at: '2026-11-29T10:04:00Z', html_url: `${WEB}#discussion_r9001` },
    { id: 9003, author: 'dev1', body: 'fixed', path: 'src/a.c', line: 11, start_line: null, side: 'RIGHT', commit_id: SHA.h7, in_reply_to: 9001, review_id: null, created_at: '2026-11-29T10:10:00Z', html_url: `${WEB}#discussion_r9003` },
    { id: 9002, author: 'alice', body: 'multi-line', path: 'src/b.c', line: 41, start_line: 40, side: 'RIGHT', commit_id: SHA.c2, in_reply_to: null, review_id: 71, created_at: '2026-11-29T10:05:00Z', html_url: `${WEB}#discussion_r9002` },
    { id: 9004, author: 'alice', body: 'outdated', path: 'src/gone.c', line: null, start_line: null, side: 'RIGHT', commit_id: SHA.c1, in_reply_to: null, review_id: null, created_at: '2026-11-29T10:06:00Z', html_url: `${WEB}#discussion_r9004` },
  ];
  s.statuses[ORPHAN] = [{ id: 1900, state: 'success', context: 'x', description: null, creator: 'lfx-reviewer', created_at: '2026-11-29T10:00:00Z', target_url: null }];
  return s;
}

const sha256 = (t) => createHash('sha256').update(t, 'utf8').digest('hex');

let hub;
before(async () => { hub = await startServer({ snapshot: publishSnapshot() }); });
after(async () => { await hub.stop(); });
beforeEach(async () => { await hub.setState(publishSnapshot()); });

const writes = async () => (await hub.get('/_fakehub/writes', { token: null })).body;
const pull7 = async () => (await hub.state()).pulls.find((p) => p.number === 7);
const patch = (p, body, o = {}) => hub.api('PATCH', p, { ...o, body });
const del = (p, o = {}) => hub.api('DELETE', p, o);

function reviewBody(comments, extra = {}) {
  return { commit_id: SHA.h7, event: 'COMMENT', body: 'pr-review iteration · x', comments, ...extra };
}

// ---- reads -----------------------------------------------------------------------------

describe('reads', () => {
  test('GET /pulls/{n}/comments: review comments in id order, GitHub\'s shape, replies, multi-line, outdated', async () => {
    const r = await hub.get(`${R}/pulls/7/comments`);
    assert.equal(r.status, 200);
    check('listReviewComments', r);
    assert.deepEqual(r.body.map((c) => c.id), [9001, 9002, 9003, 9004]);
    const [root, multi, reply, outdated] = r.body;
    assert.equal(root.user.login, 'lfx-reviewer');
    assert.equal(root.pull_request_review_id, 72);
    assert.equal(root.html_url, `${WEB}#discussion_r9001`);
    assert.equal(root.line, 11);
    assert.equal(root.side, 'RIGHT');
    assert.equal(root.start_line, null);
    assert.equal(root.position, 3);
    assert.equal(root.diff_hunk, PATCH_A.split('\n').slice(0, 4).join('\n'));
    assert.equal(root.in_reply_to_id, undefined);
    assert.equal(reply.in_reply_to_id, 9001);
    assert.equal(reply.pull_request_review_id, null);
    assert.equal(multi.start_line, 40);
    assert.equal(multi.start_side, 'RIGHT');
    assert.equal(multi.commit_id, SHA.c2);
    assert.equal(outdated.line, undefined, 'an outdated comment has no line');
    assert.equal(outdated.position, undefined);
  });

  test('GET /pulls/{n}/comments paginates with per_page up to 100 and Link headers', async () => {
    const s = publishSnapshot();
    s.pulls[0].review_comments = Array.from({ length: 230 }, (_, i) => ({
      id: 20000 + i, author: 'alice', body: `c${i}`, path: 'src/a.c', line: 12, side: 'RIGHT', commit_id: SHA.h7, created_at: '2026-11-29T10:00:00Z',
    }));
    await hub.setState(s);
    const p1 = await hub.get(`${R}/pulls/7/comments?per_page=500`);
    assert.equal(p1.body.length, 100);
    const links = parseLink(p1.headers.get('link'));
    assert.match(links.next, /page=2/);
    assert.match(links.last, /page=3/);
    const p3 = await hub.get(new URL(links.last).pathname + new URL(links.last).search);
    assert.equal(p3.body.length, 30);
    assert.equal(p3.body.at(-1).id, 20229);
    check('listReviewComments', p3);
    const small = await hub.get(`${R}/pulls/7/comments?per_page=2&page=2`);
    assert.deepEqual(small.body.map((c) => c.id), [20002, 20003]);
    assert.ok(parseLink(small.headers.get('link')).prev);
  });

  test('GET /pulls/{n}/reviews/{id}/comments: that review\'s comments; 404 for a review not of the pull', async () => {
    const r = await hub.get(`${R}/pulls/7/reviews/72/comments`);
    assert.equal(r.status, 200);
    check('reviewCommentsOfReview', r);
    assert.deepEqual(r.body.map((c) => c.id), [9001]);
    const none = await hub.get(`${R}/pulls/7/reviews/999/comments`);
    assert.equal(none.status, 404);
    check('reviewCommentsOfReview', none);
    const one = await hub.get(`${R}/pulls/comments/9002`);
    assert.equal(one.status, 200);
    check('getReviewComment', one);
    assert.equal((await hub.get(`${R}/pulls/comments/1`)).status, 404);
  });

  test('GET /pulls/{n}/files: the patches, counts, pagination', async () => {
    const r = await hub.get(`${R}/pulls/7/files`);
    assert.equal(r.status, 200);
    check('files', r);
    assert.deepEqual(r.body.map((f) => [f.filename, f.status, f.additions, f.deletions, f.changes]), [
      ['src/a.c', 'modified', 3, 1, 4], ['src/b.c', 'modified', 2, 0, 2], ['logo.png', 'added', 0, 0, 0], ['docs/old.md', 'removed', 0, 1, 1],
    ]);
    assert.equal(r.body[0].patch, PATCH_A);
    assert.equal(r.body[2].patch, undefined, 'a binary file has no patch');
    assert.equal(r.body[3].sha, null);
    const p2 = await hub.get(`${R}/pulls/7/files?per_page=3&page=2`);
    assert.deepEqual(p2.body.map((f) => f.filename), ['docs/old.md']);
    assert.ok(parseLink(p2.headers.get('link')).first);
    const pr = await hub.get(`${R}/pulls/7`);
    check('pull', pr);
    assert.equal(pr.body.changed_files, 4);
    assert.equal(pr.body.review_comments, 4);
    assert.equal(pr.body.base.sha, BASE_SHA);
  });

  test('GET /issues/{n}/comments has updated_at (the snapshot\'s, else the last edit, else created_at)', async () => {
    const r = await hub.get(`${R}/issues/7/comments`);
    check('listComments', r);
    const by = Object.fromEntries(r.body.map((c) => [c.id, c.updated_at]));
    assert.equal(by[501], '2026-11-29T10:30:00Z');
    assert.equal(by[502], '2026-11-29T11:00:00Z');
    assert.equal(by[503], '2026-11-29T10:06:00Z');
    const g = await hub.gql('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { comments(first: 100) { nodes { databaseId updatedAt } } } } }');
    const gq = Object.fromEntries(g.body.data.repository.pullRequest.comments.nodes.map((n) => [n.databaseId, n.updatedAt]));
    assert.equal(gq[501], '2026-11-29T10:30:00Z', 'GraphQL serves the same store');
  });

  test('compare: the chain model, merge_base_commit, diverged for a status-only commit, 404 for an unknown one', async () => {
    const cmp = async (b, h) => {
      const r = await hub.get(`${R}/compare/${b}...${h}`);
      if (r.status === 200) check('compare', r);
      return r;
    };
    const base = await cmp(BASE_SHA, SHA.h7);
    assert.deepEqual([base.body.status, base.body.ahead_by, base.body.behind_by, base.body.merge_base_commit.sha], ['ahead', 3, 0, BASE_SHA]);
    const ahead = await cmp(SHA.c1, SHA.h7);
    assert.deepEqual([ahead.body.status, ahead.body.ahead_by, ahead.body.behind_by, ahead.body.merge_base_commit.sha], ['ahead', 2, 0, SHA.c1]);
    const behind = await cmp(SHA.h7, SHA.c2);
    assert.deepEqual([behind.body.status, behind.body.ahead_by, behind.body.behind_by], ['behind', 0, 1]);
    const same = await cmp(SHA.h7, SHA.h7);
    assert.deepEqual([same.body.status, same.body.ahead_by, same.body.behind_by], ['identical', 0, 0]);
    const orphan = await cmp(ORPHAN, SHA.h7);
    assert.equal(orphan.body.status, 'diverged');
    const abbreviated = await cmp(SHA.c1.slice(0, 7), 'feature');
    assert.equal(abbreviated.body.status, 'ahead');
    const unknown = await cmp(sha('never-seen'), SHA.h7);
    assert.equal(unknown.status, 404);
    conforms('get', '/repos/{owner}/{repo}/compare/{basehead}', unknown);
  });

  test('review comments derive the GraphQL review threads when the snapshot has no `threads`', async () => {
    const s = publishSnapshot();
    delete s.pulls[0].threads;
    await hub.setState(s);
    const r = await hub.gql(`{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) {
      reviewThreads(first: 100) { nodes { id isResolved path line comments(first: 10) { totalCount nodes { author { login } url } } } } } } }`);
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    const threads = r.body.data.repository.pullRequest.reviewThreads.nodes;
    assert.deepEqual(threads.map((t) => [t.id, t.comments.totalCount, t.comments.nodes.map((n) => n.author?.login ?? null)]), [
      ['PRRT_9001', 2, ['lfx-reviewer', 'dev1']], ['PRRT_9002', 1, ['alice']], ['PRRT_9004', 1, ['alice']],
    ]);
    assert.equal(threads[0].comments.nodes[0].url, `${WEB}#discussion_r9001`);
    assert.equal(threads[0].path, 'src/a.c');
  });
});

describe('review comments in their GraphQL threads (the pr-review reads)', () => {
  const Q = `{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) {
    reviewThreads(first: 100) { nodes { id diffSide comments(first: 100) { totalCount nodes {
      fullDatabaseId databaseId author { __typename login } body path line startLine commit { oid }
      replyTo { fullDatabaseId } pullRequestReview { fullDatabaseId } createdAt url } } } } } } }`;

  test('each comment whole from its record; the review it names, from reviews or by its id', async () => {
    const s = publishSnapshot();
    delete s.pulls[0].threads;
    await hub.setState(s);
    const r = await hub.gql(Q);
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    const threads = r.body.data.repository.pullRequest.reviewThreads.nodes;
    const [root, reply] = threads[0].comments.nodes;
    assert.deepEqual(root, {
      fullDatabaseId: '9001', databaseId: 9001, author: { __typename: 'User', login: 'lfx-reviewer' },
      body: '<!-- pr-review:finding-root -->\n<!-- pr-review:finding-id=F1 -->', path: 'src/a.c', line: 11, startLine: null,
      commit: { oid: SHA.h7 }, replyTo: null, pullRequestReview: { fullDatabaseId: '72' },
      createdAt: '2026-11-29T10:04:00Z', url: `${WEB}#discussion_r9001`,
    });
    assert.deepEqual([reply.fullDatabaseId, reply.replyTo, reply.pullRequestReview, reply.body], ['9003', { fullDatabaseId: '9001' }, null, 'fixed']);
    const multi = threads[1].comments.nodes[0];
    assert.deepEqual([multi.line, multi.startLine, multi.commit.oid, multi.pullRequestReview], [41, 40, SHA.c2, { fullDatabaseId: '71' }]);
    assert.equal(threads[2].comments.nodes[0].line, null, 'an outdated comment has no line');
    assert.equal(threads[0].diffSide, 'RIGHT');
    // A review no `reviews` entry lists is served by its id.
    const t = publishSnapshot();
    delete t.pulls[0].threads;
    t.pulls[0].review_comments[0].review_id = 4242;
    await hub.setState(t);
    const r2 = await hub.gql(Q);
    assert.deepEqual(r2.body.data.repository.pullRequest.reviewThreads.nodes[0].comments.nodes[0].pullRequestReview, { fullDatabaseId: '4242' });
  });

  test('listed threads come first; review comments add the threads of the roots they do not list', async () => {
    const s = publishSnapshot();
    s.pulls[0].threads = [
      { id: 'PRRT_listed', author: 'copilot-pull-request-reviewer[bot]', comments: 1, resolved: false },
      { id: 'PRRT_9002', author: 'alice', comments: 1, resolved: true },
    ];
    await hub.setState(s);
    const r = await hub.gql(`{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { reviewThreads(first: 100) { nodes { id isResolved } } } } }`);
    assert.deepEqual(r.body.data.repository.pullRequest.reviewThreads.nodes.map((t) => [t.id, t.isResolved]),
      [['PRRT_listed', false], ['PRRT_9002', true], ['PRRT_9001', false], ['PRRT_9004', false]]);
  });

  test('read: review_comments fails a query that reads their text, not one that reads only who and where', async () => {
    const s = publishSnapshot();
    delete s.pulls[0].threads;
    s.faults = [{ read: 'review_comments', pr: 7, status: 502 }];
    await hub.setState(s);
    const failed = await hub.gql(Q);
    assert.equal(failed.status, 502);
    const gate = await hub.gql(`{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) {
      reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount nodes { author { login } url } } } } } } }`);
    assert.equal(gate.status, 200, 'the gate\'s thread read is no review-comments read');
    assert.equal(gate.body.errors, undefined);
  });
});

// ---- issue comment writes -------------------------------------------------------------

describe('issue comment writes', () => {
  test('POST creates a comment: 201, Location, id max + 1 over every comment, github.com html_url', async () => {
    const r = await hub.post(`${R}/issues/7/comments`, { body: 'sticky\n<!-- pr-review:sticky -->' });
    assert.equal(r.status, 201);
    check('createComment', r);
    assert.equal(r.body.id, 3000000002);
    assert.equal(r.body.html_url, `${WEB}#issuecomment-3000000002`);
    assert.equal(r.headers.get('location'), r.body.url);
    assert.equal(r.body.user.login, 'lfx-reviewer');
    const c = (await pull7()).comments.at(-1);
    assert.equal(c.id, 3000000002);
    assert.equal(c.author, 'lfx-reviewer');
    assert.equal(c.updated_at, c.created_at);
    assert.deepEqual([c.edited_by, c.edited_at], [null, null]);
    const list = await hub.get(`${R}/issues/7/comments?per_page=100`);
    assert.equal(list.body.at(-1).id, 3000000002);
    assert.equal((await hub.post(`${R}/issues/99/comments`, { body: 'x' })).status, 404);
  });

  test('PATCH edits: body, updated_at, edited_by = the token\'s login, an entry in `edits`; GraphQL shows the history', async () => {
    await hub.post('/_fakehub/clock', { offset_s: 0 }, { token: null });
    const r = await patch(`${R}/issues/comments/502`, { body: 'new text' });
    assert.equal(r.status, 200);
    check('updateComment', r);
    assert.equal(r.body.body, 'new text');
    const c = (await pull7()).comments.find((x) => x.id === 502);
    assert.equal(c.edited_by, 'lfx-reviewer');
    assert.equal(c.updated_at, c.edited_at);
    assert.equal(r.body.updated_at, c.updated_at);
    // The comment had an implied history (edited by dev1): it is kept first.
    assert.deepEqual(c.edits, [{ editor: 'dev1', edited_at: '2026-11-29T11:00:00Z' }, { editor: 'lfx-reviewer', edited_at: c.edited_at }]);
    await patch(`${R}/issues/comments/501`, { body: 'v2' });
    await patch(`${R}/issues/comments/501`, { body: 'v3' });
    const c501 = (await pull7()).comments.find((x) => x.id === 501);
    assert.equal(c501.edits.length, 2);
    const g = await hub.gql(`{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { comments(first: 100) {
      nodes { databaseId body editor { login } lastEditedAt updatedAt userContentEdits(first: 10) { totalCount nodes { editor { login } } } } } } } }`);
    const node = g.body.data.repository.pullRequest.comments.nodes.find((n) => n.databaseId === 501);
    assert.equal(node.body, 'v3');
    assert.equal(node.editor.login, 'lfx-reviewer');
    assert.equal(node.userContentEdits.totalCount, 2);
    assert.equal(node.updatedAt, c501.updated_at);
    assert.equal((await patch(`${R}/issues/comments/4242`, { body: 'x' })).status, 404);
  });

  test('DELETE: 204, gone from REST and the state; 404 when unknown (or already deleted)', async () => {
    const r = await del(`${R}/issues/comments/501`);
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assert.ok(!(await pull7()).comments.some((c) => c.id === 501));
    assert.equal((await hub.get(`${R}/issues/comments/501`)).status, 404);
    const again = await del(`${R}/issues/comments/501`);
    assert.equal(again.status, 404);
    check('deleteComment', { status: 204, body: null });
  });

  test('bodies: 65,536 code points pass, one more is 422 (GitHub\'s IssueComment error); blank or missing is 422', async () => {
    const max = '😀'.repeat(65536); // 65,536 code points, 131,072 UTF-16 units
    const ok = await hub.post(`${R}/issues/7/comments`, { body: max });
    assert.equal(ok.status, 201);
    const long = await hub.post(`${R}/issues/7/comments`, { body: `${max}x` });
    assert.equal(long.status, 422);
    check('createComment', long);
    assert.equal(long.body.message, 'Validation Failed');
    assert.deepEqual(long.body.errors, [{ resource: 'IssueComment', code: 'unprocessable', field: 'data', message: 'Body is too long (maximum is 65536 characters)' }]);
    const upd = await patch(`${R}/issues/comments/501`, { body: `${max}x` });
    assert.equal(upd.status, 422);
    check('updateComment', upd);
    assert.equal((await hub.post(`${R}/issues/7/comments`, { body: '  ' })).status, 422);
    assert.equal((await hub.post(`${R}/issues/7/comments`, {})).status, 422);
    assert.equal((await hub.post(`${R}/issues/7/comments`, 'not json')).status, 400);
    assert.equal((await pull7()).comments.find((c) => c.id === 501).body, 'verdict', 'a refused edit changes nothing');
  });
});

// ---- reviews ---------------------------------------------------------------------------

describe('COMMENT reviews with comments', () => {
  test('success: review (id max + 1, COMMENTED, html_url) and its comments (ids max + 1 in order, author, commit, review_id)', async () => {
    const comments = [
      { path: 'src/a.c', line: 12, side: 'RIGHT', body: '<!-- pr-review:finding-root -->\n<!-- pr-review:finding-id=F3 -->\nx' },
      { path: 'src/a.c', line: 14, side: 'RIGHT', start_line: 13, start_side: 'RIGHT', body: '<!-- pr-review:finding-id=F4 -->' },
      { path: 'src/b.c', line: 1, body: 'context line, side defaults to RIGHT' },
      { path: 'src/a.c', line: 11, side: 'LEFT', body: 'a removed line' },
    ];
    const r = await hub.post(`${R}/pulls/7/reviews`, reviewBody(comments));
    assert.equal(r.status, 200);
    check('createReview', r);
    assert.equal(r.body.id, 73);
    assert.equal(r.body.state, 'COMMENTED');
    assert.equal(r.body.html_url, `${WEB}#pullrequestreview-73`);
    assert.equal(r.body.commit_id, SHA.h7);
    const p = await pull7();
    const review = p.reviews.find((x) => x.id === 73);
    assert.equal(review.body, 'pr-review iteration · x');
    const created = p.review_comments.filter((c) => c.review_id === 73);
    assert.deepEqual(created.map((c) => [c.id, c.path, c.line, c.start_line, c.side, c.author, c.commit_id, c.in_reply_to]), [
      [9005, 'src/a.c', 12, null, 'RIGHT', 'lfx-reviewer', SHA.h7, null],
      [9006, 'src/a.c', 14, 13, 'RIGHT', 'lfx-reviewer', SHA.h7, null],
      [9007, 'src/b.c', 1, null, 'RIGHT', 'lfx-reviewer', SHA.h7, null],
      [9008, 'src/a.c', 11, null, 'LEFT', 'lfx-reviewer', SHA.h7, null],
    ]);
    assert.equal(created[0].html_url, `${WEB}#discussion_r9005`);
    const listed = await hub.get(`${R}/pulls/7/reviews/73/comments`);
    check('reviewCommentsOfReview', listed);
    assert.deepEqual(listed.body.map((c) => c.html_url), created.map((c) => c.html_url));
    const got = await hub.get(`${R}/pulls/7/reviews/73`);
    assert.equal(got.body.html_url, `${WEB}#pullrequestreview-73`);
    assert.deepEqual((await writes()).at(-1), { kind: 'review', pr: 7, review_id: 73, event: 'COMMENT', commit_id: SHA.h7, findings: ['F3', 'F4'] });
  });

  for (const [name, comment, message] of [
    ['a line outside every hunk', { path: 'src/a.c', line: 30 }, 'Line could not be resolved'],
    ['a removed line on the RIGHT side', { path: 'src/a.c', line: 16, side: 'RIGHT' }, 'Line could not be resolved'],
    ['start_line in another hunk', { path: 'src/b.c', line: 41, start_line: 2 }, 'Line could not be resolved'],
    ['start_line not before line', { path: 'src/a.c', line: 12, start_line: 12 }, 'Line could not be resolved'],
    ['a file of no patch (binary)', { path: 'logo.png', line: 1 }, 'Line could not be resolved'],
    ['a file not in the pull', { path: 'src/zzz.c', line: 1 }, 'Path could not be resolved'],
  ]) {
    test(`422 for ${name}; nothing created`, async () => {
      const before = await pull7();
      const good = { path: 'src/a.c', line: 12, body: 'fine' };
      const r = await hub.post(`${R}/pulls/7/reviews`, reviewBody([good, { body: 'bad', ...comment }]));
      assert.equal(r.status, 422);
      check('createReview', r);
      assert.equal(r.body.message, 'Unprocessable Entity');
      assert.deepEqual(r.body.errors, [message]);
      const afterState = await pull7();
      assert.deepEqual(afterState.reviews, before.reviews);
      assert.deepEqual(afterState.review_comments, before.review_comments);
      assert.deepEqual(await writes(), []);
    });
  }

  test('several bad comments: one error string joined as GitHub joins them', async () => {
    const r = await hub.post(`${R}/pulls/7/reviews`, reviewBody([
      { path: 'src/a.c', line: 99, body: 'a' }, { path: 'nope', line: 1, body: 'b' }, { path: 'src/b.c', line: 50, body: 'c' },
    ]));
    assert.deepEqual(r.body.errors, ['Line could not be resolved, Path could not be resolved, and Line could not be resolved']);
  });

  test('bodies over 65,536 code points (review or comment) are 422; exactly 65,536 passes', async () => {
    const max = '😀'.repeat(65536);
    const long = await hub.post(`${R}/pulls/7/reviews`, reviewBody([], { body: `${max}x` }));
    assert.equal(long.status, 422);
    check('createReview', long);
    assert.deepEqual(long.body.errors, ['Body is too long (maximum is 65536 characters)']);
    const longComment = await hub.post(`${R}/pulls/7/reviews`, reviewBody([{ path: 'src/a.c', line: 12, body: `${max}!` }]));
    assert.equal(longComment.status, 422);
    assert.deepEqual(await writes(), []);
    const ok = await hub.post(`${R}/pulls/7/reviews`, reviewBody([{ path: 'src/a.c', line: 12, body: max }], { body: max }));
    assert.equal(ok.status, 200);
  });

  test('malformed comments are 422 (Invalid request); a COMMENT review needs a body only without comments', async () => {
    for (const bad of [{ path: 'src/a.c', line: 12 }, { line: 12, body: 'x' }, { path: 'src/a.c', line: '12', body: 'x' }, 'x']) {
      const r = await hub.post(`${R}/pulls/7/reviews`, reviewBody([bad]));
      assert.equal(r.status, 422, JSON.stringify(bad));
      check('createReview', r);
    }
    const noBody = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'COMMENT', comments: [{ path: 'src/a.c', line: 12, body: 'x' }] });
    assert.equal(noBody.status, 200);
    const nothing = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'COMMENT' });
    assert.equal(nothing.status, 422);
  });

  test('APPROVE is unchanged: 200 APPROVED, no html_url kept in the state, the `approve` write', async () => {
    const r = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE', body: '' });
    assert.equal(r.status, 200);
    check('createReview', r);
    assert.equal(r.body.state, 'APPROVED');
    const review = (await pull7()).reviews.find((x) => x.id === r.body.id);
    assert.deepEqual(Object.keys(review).sort(), ['author', 'body', 'commit_id', 'id', 'state', 'submitted_at']);
    assert.deepEqual(await writes(), [{ kind: 'approve', pr: 7, commit_id: SHA.h7 }]);
  });
});

// ---- the writes journal ------------------------------------------------------------------

test('GET /_fakehub/writes lists every applied write in the report\'s shapes; a state load empties it', async () => {
  const created = await hub.post(`${R}/issues/7/comments`, { body: 'one' });
  await patch(`${R}/issues/comments/${created.body.id}`, { body: 'two' });
  await del(`${R}/issues/comments/501`);
  await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'pr-review', description: 'PASSED', target_url: created.body.html_url });
  await hub.post(`${R}/issues/7/labels`, { labels: ['bug'] });
  await hub.post(`${R}/pulls/7/reviews`, reviewBody([{ path: 'src/a.c', line: 12, body: 'no marker' }]));
  assert.deepEqual(await writes(), [
    { kind: 'comment_create', pr: 7, comment_id: created.body.id, body_sha256: sha256('one') },
    { kind: 'comment_update', pr: 7, comment_id: created.body.id, body_sha256: sha256('two') },
    { kind: 'comment_delete', pr: 7, comment_id: 501 },
    { kind: 'status', sha: SHA.h7, state: 'success', context: 'pr-review', description: 'PASSED', target_url: created.body.html_url },
    { kind: 'label', pr: 7, label: 'bug' },
    { kind: 'review', pr: 7, review_id: 73, event: 'COMMENT', commit_id: SHA.h7, findings: [] },
  ]);
  await hub.setState(publishSnapshot());
  assert.deepEqual(await writes(), []);
});

// ---- faults ----------------------------------------------------------------------------

describe('faults', () => {
  test('reads: review_comments (list, per review, one), files, compare; `commits` still hits compare', async () => {
    await hub.setFaults([{ read: 'review_comments', pr: 7, status: 502 }, { read: 'files', status: 503 }]);
    assert.equal((await hub.get(`${R}/pulls/7/comments`)).status, 502);
    assert.equal((await hub.get(`${R}/pulls/7/reviews/72/comments`)).status, 502);
    assert.equal((await hub.get(`${R}/pulls/comments/9001`)).status, 502);
    assert.equal((await hub.get(`${R}/pulls/7/files`)).status, 503);
    assert.equal((await hub.get(`${R}/pulls/7/reviews`)).status, 200, 'reviews are another read');
    assert.equal((await hub.get(`${R}/compare/${SHA.c1}...${SHA.h7}`)).status, 200);
    await hub.setFaults([{ read: 'compare', status: 500 }]);
    assert.equal((await hub.get(`${R}/compare/${SHA.c1}...${SHA.h7}`)).status, 500);
    assert.equal((await hub.get(`${R}/pulls/7/commits`)).status, 200, 'compare does not hit the commit list');
    await hub.setFaults([{ read: 'commits', pr: 7, status: 504 }]);
    assert.equal((await hub.get(`${R}/compare/${SHA.c1}...${SHA.h7}`)).status, 504);
    await hub.setFaults([{ read: 'compare', status: 404 }]);
    assert.equal((await hub.get(`${R}/compare/${SHA.c1}...${SHA.h7}`)).status, 404);
  });

  test('writes: `comment` (create and update), `comment_delete`, `review` (COMMENT only); nothing written', async () => {
    await hub.setFaults([{ write: 'comment', status: 500 }, { write: 'comment_delete', status: 502 }, { write: 'review', status: 503 }]);
    assert.equal((await hub.post(`${R}/issues/7/comments`, { body: 'x' })).status, 500);
    assert.equal((await patch(`${R}/issues/comments/501`, { body: 'x' })).status, 500);
    assert.equal((await del(`${R}/issues/comments/501`)).status, 502);
    assert.equal((await hub.post(`${R}/pulls/7/reviews`, reviewBody([]))).status, 503);
    assert.deepEqual(await writes(), []);
    const approve = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE' });
    assert.equal(approve.status, 200, '`review` does not hit approvals');
    await hub.setFaults([{ write: 'approve', status: 500 }]);
    assert.equal((await hub.post(`${R}/pulls/7/reviews`, reviewBody([]))).status, 200, '`approve` does not hit COMMENT reviews');
  });

  test('comment_id narrows a comment fault to that comment (never a create)', async () => {
    await hub.setFaults([{ write: 'comment', comment_id: 502, status: 500 }, { write: 'comment_delete', comment_id: 503, status: 500 }]);
    assert.equal((await patch(`${R}/issues/comments/501`, { body: 'x' })).status, 200);
    assert.equal((await patch(`${R}/issues/comments/502`, { body: 'x' })).status, 500);
    assert.equal((await hub.post(`${R}/issues/7/comments`, { body: 'x' })).status, 201);
    assert.equal((await del(`${R}/issues/comments/501`)).status, 204);
    assert.equal((await del(`${R}/issues/comments/503`)).status, 500);
  });

  test('skip: N lets the first N matches pass; times: N then fires at most N times', async () => {
    await hub.setFaults([{ write: 'comment', skip: 2, times: 2, status: 502 }]);
    const codes = [];
    for (let i = 0; i < 6; i += 1) codes.push((await hub.post(`${R}/issues/7/comments`, { body: `n${i}` })).status);
    assert.deepEqual(codes, [201, 201, 502, 502, 201, 201]);
    await hub.setFaults([{ read: 'files', skip: 1, status: 500 }]);
    const reads = [];
    for (let i = 0; i < 3; i += 1) reads.push((await hub.get(`${R}/pulls/7/files`)).status);
    assert.deepEqual(reads, [200, 500, 500]);
  });

  test('lost_response: the write is applied, then answered 502 (or `status`); with skip and times', async () => {
    await hub.setFaults([{ write: 'comment', mode: 'lost_response' }]);
    const r = await hub.post(`${R}/issues/7/comments`, { body: 'lost' });
    assert.equal(r.status, 502);
    assert.equal(r.body.message, 'Bad Gateway');
    const p = await pull7();
    assert.equal(p.comments.at(-1).body, 'lost', 'the comment exists');
    assert.deepEqual((await writes()).map((w) => w.kind), ['comment_create']);

    await hub.setState(publishSnapshot());
    await hub.setFaults([{ write: 'review', mode: 'lost_response', status: 504, skip: 1, times: 1 }]);
    const codes = [];
    for (let i = 0; i < 3; i += 1) codes.push((await hub.post(`${R}/pulls/7/reviews`, reviewBody([{ path: 'src/a.c', line: 12, body: `r${i}` }]))).status);
    assert.deepEqual(codes, [200, 504, 200]);
    const after = await pull7();
    assert.deepEqual(after.reviews.filter((x) => x.state === 'COMMENTED' && x.author === 'lfx-reviewer').map((x) => x.id), [73, 74, 75]);
    assert.equal(after.review_comments.filter((c) => c.review_id === 74).length, 1, 'the lost review has its comments');

    await hub.setState(publishSnapshot());
    await hub.setFaults([{ write: 'comment_delete', comment_id: 501, mode: 'lost_response', status: 500, times: 1 }]);
    assert.equal((await del(`${R}/issues/comments/501`)).status, 500);
    assert.equal((await del(`${R}/issues/comments/501`)).status, 404, 'it was deleted');

    await hub.setState(publishSnapshot());
    await hub.setFaults([{ write: 'comment', comment_id: 501, mode: 'lost_response' }]);
    assert.equal((await patch(`${R}/issues/comments/501`, { body: 'edited' })).status, 502);
    assert.equal((await pull7()).comments.find((c) => c.id === 501).body, 'edited');
  });

  test('lost_response on a GraphQL read: the request is executed, then answered 502', async () => {
    await hub.setFaults([{ read: 'comments', pr: 7, mode: 'lost_response', api: 'graphql' }]);
    const g = await hub.gql('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { comments(first: 1) { totalCount } } } }');
    assert.equal(g.status, 502);
    assert.equal((await hub.get(`${R}/issues/7/comments`)).status, 200, 'REST is not narrowed in');
  });

  test('lost_response with status "timeout": applied, then held open', async () => {
    await hub.setFaults([{ write: 'comment', mode: 'lost_response', status: 'timeout' }]);
    const ctl = new AbortController();
    const pending = hub.post(`${R}/issues/7/comments`, { body: 'held' }, { signal: ctl.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await pull7()).comments.at(-1).body, 'held');
    ctl.abort();
    assert.ok((await pending) instanceof Error);
  });

  test('the new fault fields are validated', async () => {
    for (const bad of [
      { read: 'review_comment', status: 500 },
      { write: 'comment', comment_id: 'x', status: 500 },
      { write: 'comment', skip: -1, status: 500 },
      { write: 'comment', mode: 'lost' },
    ]) {
      const r = await hub.post('/_fakehub/faults', [bad], { token: null });
      assert.equal(r.status, 400, JSON.stringify(bad));
    }
    assert.equal((await hub.post('/_fakehub/faults', [{ write: 'review', mode: 'lost_response' }], { token: null })).status, 200);
  });
});

test('malformed new snapshot fields are refused naming the field', async () => {
  for (const [mutate, field] of [
    [(p) => { p.review_comments[0].line = 'x'; }, 'pulls[0].review_comments[0].line'],
    [(p) => { p.review_comments[1].side = 'UP'; }, 'pulls[0].review_comments[1].side'],
    [(p) => { p.files[0].status = 'weird'; }, 'pulls[0].files[0].status'],
    [(p) => { p.files[1] = { status: 'added' }; }, 'pulls[0].files[1].filename'],
    [(p) => { p.comments[0].updated_at = 'yesterday'; }, 'pulls[0].comments[0].updated_at'],
  ]) {
    const s = publishSnapshot();
    mutate(s.pulls[0]);
    const r = await hub.post('/_fakehub/state', s, { token: null });
    assert.equal(r.status, 400);
    assert.ok(r.body.message.startsWith(`${field}:`), r.body.message);
  }
  const out = await runServer(['--snapshot', writeSnapshot({ ...publishSnapshot(), pulls: [{ ...publishSnapshot().pulls[0], files: 'x' }] })]);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /pulls\[0\]\.files/);
});
