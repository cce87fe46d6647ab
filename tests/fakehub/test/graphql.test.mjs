// GraphQL: validation against GitHub's schema, GitHub's pagination rule, every resolver.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { PR_QUERY, PR_VARS, SHA, baseSnapshot, bigSnapshot, startServer } from '../testkit.mjs';

let hub;
before(async () => { hub = await startServer(); });
after(async () => { await hub.stop(); });
beforeEach(async () => { await hub.setState(baseSnapshot()); });

async function data(query, variables) {
  const r = await hub.gql(query, variables);
  assert.equal(r.status, 200);
  assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
  return r.body.data;
}

async function pr(n = 7) {
  return (await data(PR_QUERY, { ...PR_VARS, n })).repository.pullRequest;
}

describe('validation', () => {
  test('a field the schema does not have is an error, answered with HTTP 200 and no data', async () => {
    const r = await hub.gql('{ viewer { login nosuchfield } }');
    assert.equal(r.status, 200);
    assert.equal(r.body.data, undefined);
    assert.match(r.body.errors[0].message, /nosuchfield/);
    assert.ok(r.body.errors[0].locations[0].line >= 1);
  });

  test('connections need first or last in 1..100', async () => {
    let r = await hub.gql('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { labels { totalCount } } } }');
    assert.equal(r.status, 200);
    assert.equal(r.body.data, undefined);
    assert.equal(r.body.errors[0].type, 'MISSING_PAGINATION_BOUNDARIES');
    assert.equal(r.body.errors[0].message, 'You must provide a `first` or `last` value to properly paginate the `labels` connection.');
    assert.deepEqual(r.body.errors[0].path, ['query', 'repository', 'pullRequest', 'labels']);
    r = await hub.gql('{ repository(owner: "lf", name: "svc") { labels(first: 101) { totalCount } } }');
    assert.equal(r.body.errors[0].type, 'EXCESSIVE_PAGINATION');
    assert.match(r.body.errors[0].message, /Requesting 101 records on the `labels` connection exceeds the `first` limit of 100 records/);
    r = await hub.gql('query($n: Int) { repository(owner: "lf", name: "svc") { labels(last: $n) { totalCount } } }', { n: 0 });
    assert.equal(r.body.errors.length, 1);
    r = await hub.gql('fragment F on PullRequest { comments { totalCount } } { repository(owner: "lf", name: "svc") { pullRequest(number: 7) { ...F } } }');
    assert.equal(r.body.errors[0].type, 'MISSING_PAGINATION_BOUNDARIES', 'inside fragments too');
    r = await hub.gql('query($n: Int) { repository(owner: "lf", name: "svc") { labels(last: $n) { totalCount } } }', { n: 100 });
    assert.equal(r.body.errors, undefined);
  });

  test('syntax errors, variable errors, missing query, bad JSON', async () => {
    let r = await hub.gql('{ viewer { login }');
    assert.equal(r.status, 200);
    assert.ok(r.body.errors[0].message.length > 0);
    r = await hub.gql('query($n: Int!) { repository(owner: "lf", name: "svc") { pullRequest(number: $n) { number } } }', { n: 'seven' });
    assert.equal(r.status, 200);
    assert.equal(r.body.data, undefined);
    r = await hub.post('/graphql', { variables: {} });
    assert.equal(r.status, 200);
    assert.match(r.body.errors[0].message, /query attribute must be specified/);
    r = await hub.post('/graphql', '{not json');
    assert.equal(r.status, 400);
    r = await hub.gql('query A { viewer { login } } query B { viewer { login } }');
    assert.equal(r.body.errors.length, 1);
  });

  test('fields fakehub does not model are reported, not silently null', async () => {
    const r = await hub.gql('{ viewer { login company } }');
    assert.equal(r.status, 200);
    assert.equal(r.body.errors[0].type, 'FAKEHUB_NOT_IMPLEMENTED');
    assert.equal(r.body.data.viewer.login, 'lfx-reviewer');
  });
});

describe('viewer and rateLimit', () => {
  test('viewer { login }', async () => {
    assert.equal((await data('{ viewer { login } }')).viewer.login, 'lfx-reviewer');
  });

  test('rateLimit counts down from the limit; exhausted → RATE_LIMITED', async () => {
    await hub.setState({ ...baseSnapshot(), rate_limit: { graphql: 3 } });
    const q = '{ rateLimit { cost limit remaining used resetAt nodeCount } repository(owner: "lf", name: "svc") { labels(first: 10) { totalCount } } }';
    const a = (await data(q)).rateLimit;
    const b = await hub.gql(q);
    assert.equal(a.cost, 1);
    assert.equal(a.limit, 3);
    assert.equal(a.remaining, 2);
    assert.equal(a.used, 1);
    assert.equal(a.nodeCount, 10);
    assert.ok(Date.parse(a.resetAt) > Date.now());
    assert.equal(b.body.data.rateLimit.remaining, 1);
    assert.equal(b.headers.get('x-ratelimit-resource'), 'graphql');
    assert.equal(b.headers.get('x-ratelimit-remaining'), '1');
    await hub.gql(q);
    const c = await hub.gql(q);
    assert.equal(c.body.errors[0].type, 'RATE_LIMITED');
  });
});

describe('pull request', () => {
  test('scalar fields', async () => {
    const p = await pr();
    assert.match(p.id, /^PR_/);
    assert.equal((await pr()).id, p.id, 'stable ids');
    assert.equal(p.number, 7);
    assert.equal(p.state, 'OPEN');
    assert.equal(p.merged, false);
    assert.equal(p.isDraft, false);
    assert.equal(p.isCrossRepository, false);
    assert.deepEqual(p.author, { login: 'dev1', __typename: 'User' });
    assert.equal(p.headRefOid, SHA.h7);
    assert.equal(p.headRefName, 'feature');
    assert.deepEqual(p.headRepository, { nameWithOwner: 'lf/svc' });
    assert.equal(p.baseRefName, 'main');
    assert.equal(p.updatedAt, '2026-11-29T11:00:00Z');
    assert.equal(p.url, `${hub.base}/lf/svc/pull/7`);
  });

  test('states of other pulls: draft fork, merged, closed', async () => {
    const p8 = await pr(8);
    assert.equal(p8.isDraft, true);
    assert.equal(p8.isCrossRepository, true);
    assert.equal(p8.headRepository.nameWithOwner, 'someone/svc');
    const p9 = await pr(9);
    assert.equal(p9.state, 'MERGED');
    assert.equal(p9.merged, true);
    assert.equal((await pr(10)).state, 'CLOSED');
    assert.equal(p9.commits.nodes[0].commit.status, null, 'no statuses → null');
  });

  test('an unknown pull is null with a NOT_FOUND error, like GitHub', async () => {
    const r = await hub.gql(PR_QUERY, { ...PR_VARS, n: 99 });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { repository: { pullRequest: null } });
    assert.equal(r.body.errors[0].type, 'NOT_FOUND');
    assert.deepEqual(r.body.errors[0].path, ['repository', 'pullRequest']);
    assert.equal(r.body.errors[0].message, 'Could not resolve to a PullRequest with the number of 99.');
    const other = await hub.gql('{ repository(owner: "lf", name: "nope") { id } }');
    assert.equal(other.body.data.repository, null);
    assert.equal(other.body.errors[0].type, 'NOT_FOUND');
  });

  test('labels', async () => {
    const p = await pr();
    assert.equal(p.labels.totalCount, 1);
    assert.deepEqual(p.labels.nodes, [{ name: 'needs-human', color: 'ededed' }]);
  });

  test('comments: order, ids, bots without [bot], deleted authors, edits', async () => {
    const { comments } = await pr();
    assert.equal(comments.totalCount, 4);
    const nodes = comments.edges.map((e) => e.node);
    assert.deepEqual(nodes.map((c) => c.fullDatabaseId), ['501', '502', '503', '3000000001']);
    assert.deepEqual(nodes.map((c) => c.databaseId), [501, 502, 503, null], 'databaseId is Int: null beyond 2^31-1');
    assert.deepEqual(nodes[2].author, { login: 'copilot-pull-request-reviewer', __typename: 'Bot' });
    assert.equal(nodes[3].author, null);
    assert.equal(nodes[1].editor.login, 'dev1');
    assert.equal(nodes[1].lastEditedAt, '2026-11-29T11:00:00Z');
    assert.equal(nodes[0].editor, null);
    assert.equal(nodes[0].lastEditedAt, null);
    assert.equal(nodes[0].body, 'verdict');
    assert.equal(nodes[0].createdAt, '2026-11-29T10:05:00Z');
    assert.match(nodes[0].id, /^IC_/);
    assert.equal(nodes[0].url, `${hub.base}/lf/svc/pull/7#issuecomment-501`);
    assert.deepEqual(comments.pageInfo, {
      hasNextPage: false, hasPreviousPage: false, startCursor: comments.edges[0].cursor, endCursor: comments.edges[3].cursor,
    });
  });

  test('timelineItems filtered by itemTypes, in id order', async () => {
    const { timelineItems } = await pr();
    assert.equal(timelineItems.totalCount, 2);
    const [unlabeled, changed] = timelineItems.nodes;
    assert.equal(unlabeled.__typename, 'UnlabeledEvent');
    assert.equal(unlabeled.actor.login, 'alice');
    assert.equal(unlabeled.label.name, 'needs-human');
    assert.equal(unlabeled.createdAt, '2026-11-29T10:00:00Z');
    assert.equal(typeof unlabeled.id, 'string');
    assert.equal(changed.__typename, 'BaseRefChangedEvent');
    assert.equal(changed.databaseId, 9100);
    assert.equal(changed.previousRefName, 'release');
    assert.equal(changed.currentRefName, 'main');
    const all = await data('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { timelineItems(first: 10) { nodes { __typename } } } } }');
    assert.deepEqual(all.repository.pullRequest.timelineItems.nodes.map((n) => n.__typename), ['LabeledEvent', 'UnlabeledEvent', 'BaseRefChangedEvent']);
  });

  test('reviewThreads', async () => {
    const { reviewThreads } = await pr();
    assert.deepEqual(reviewThreads.nodes, [
      { id: 'PRRT_1', isResolved: false, comments: { totalCount: 2, nodes: [{ author: { login: 'copilot-pull-request-reviewer' } }] } },
      { id: 'PRRT_2', isResolved: true, comments: { totalCount: 1, nodes: [{ author: { login: 'alice' } }] } },
    ]);
  });

  test('reviews, with filters', async () => {
    const { reviews } = await pr();
    assert.deepEqual(reviews.nodes.map((r) => [r.databaseId, r.fullDatabaseId, r.author.login, r.state, r.commit.oid]), [
      [71, '71', 'lfx-reviewer', 'APPROVED', SHA.c2],
      [72, '72', 'copilot-pull-request-reviewer', 'COMMENTED', SHA.h7],
    ]);
    assert.equal(reviews.nodes[0].submittedAt, '2026-11-29T10:02:00Z');
    const q = 'query($s: [PullRequestReviewState!], $a: String) { repository(owner: "lf", name: "svc") { pullRequest(number: 7) { reviews(first: 10, states: $s, author: $a) { nodes { databaseId } } } } }';
    assert.deepEqual((await data(q, { s: ['APPROVED'] })).repository.pullRequest.reviews.nodes, [{ databaseId: 71 }]);
    assert.deepEqual((await data(q, { a: 'copilot-pull-request-reviewer' })).repository.pullRequest.reviews.nodes, [{ databaseId: 72 }]);
  });

  test('commits(last: 1) with the head\'s newest status per context', async () => {
    const { commits } = await pr();
    assert.equal(commits.totalCount, 3);
    const [{ commit }] = commits.nodes;
    assert.equal(commit.oid, SHA.h7);
    assert.deepEqual(commit.status.contexts, [
      { context: 'agentic-review/clean', state: 'FAILURE', description: 'conductor pr=#7: clean=false', createdAt: '2026-11-29T10:03:10Z', creator: { login: 'mallory' }, targetUrl: null },
      { context: 'ci/build', state: 'SUCCESS', description: 'built', createdAt: '2026-11-29T10:03:30Z', creator: { login: 'ci-runner' }, targetUrl: 'http://127.0.0.1/ci/1' },
    ]);
  });
});

describe('headRef', () => {
  const Q = `query($n: Int!) { repository(owner: "lf", name: "svc") { pullRequest(number: $n) { headRefOid headRefName
    headRef { name prefix target { __typename oid ... on Commit { status { contexts { context state } } } } }
    commits(last: 1) { nodes { commit { oid status { contexts { context state } } } } } } } }`;

  test('the head branch points at the head: the same statuses as commits(last: 1)', async () => {
    const p = (await data(Q, { n: 7 })).repository.pullRequest;
    assert.equal(p.headRef.name, p.headRefName);
    assert.equal(p.headRef.prefix, 'refs/heads/');
    assert.equal(p.headRef.target.__typename, 'Commit');
    assert.equal(p.headRef.target.oid, p.headRefOid);
    assert.deepEqual(p.headRef.target.status, p.commits.nodes[0].commit.status);
  });

  test('a deleted head branch (head.ref_deleted) is null, as on GitHub', async () => {
    const s = baseSnapshot();
    s.pulls.find((x) => x.number === 7).head.ref_deleted = true;
    await hub.setState(s);
    assert.equal((await data(Q, { n: 7 })).repository.pullRequest.headRef, null);
  });
});

describe('repository', () => {
  test('pullRequests(states, orderBy) and cursor pagination', async () => {
    const q = `query($after: String, $states: [PullRequestState!], $order: IssueOrder) {
      repository(owner: "lf", name: "svc") { pullRequests(first: 20, after: $after, states: $states, orderBy: $order) {
        totalCount nodes { number } pageInfo { hasNextPage endCursor } } } }`;
    let r = (await data(q, { states: ['OPEN'] })).repository.pullRequests;
    assert.deepEqual(r.nodes.map((n) => n.number), [7, 8]);
    r = (await data(q, { states: ['MERGED', 'CLOSED'], order: { field: 'CREATED_AT', direction: 'DESC' } })).repository.pullRequests;
    assert.deepEqual(r.nodes.map((n) => n.number), [10, 9]);
    await hub.setState(bigSnapshot());
    const seen = [];
    let after = null;
    for (let i = 0; i < 5; i += 1) {
      r = (await data(q, { states: ['OPEN'], after })).repository.pullRequests;
      seen.push(...r.nodes.map((n) => n.number));
      if (!r.pageInfo.hasNextPage) break;
      after = r.pageInfo.endCursor;
    }
    assert.equal(seen.length, 46);
    assert.equal(r.totalCount, 46);
  });

  test('label(name) and labels', async () => {
    const d = await data('{ repository(owner: "lf", name: "svc") { a: label(name: "BUG") { name color } b: label(name: "nope") { name } labels(first: 10) { totalCount nodes { name } } } }');
    assert.deepEqual(d.repository.a, { name: 'bug', color: 'ededed' });
    assert.equal(d.repository.b, null);
    assert.deepEqual(d.repository.labels.nodes.map((l) => l.name), ['needs-human', 'bug']);
  });

  test('object(oid) on Commit with status contexts', async () => {
    const q = 'query($oid: GitObjectID) { repository(owner: "lf", name: "svc") { object(oid: $oid) { __typename ... on Commit { oid status { state contexts { context state } } } } } }';
    const d = await data(q, { oid: SHA.h8 });
    assert.deepEqual(d.repository.object, {
      __typename: 'Commit', oid: SHA.h8, status: { state: 'SUCCESS', contexts: [{ context: 'agentic-review/clean', state: 'SUCCESS' }] },
    });
    assert.equal((await data(q, { oid: '0'.repeat(40) })).repository.object, null);
  });
});

describe('long lists', () => {
  beforeEach(async () => { await hub.setState(bigSnapshot()); });

  test('comments page forward with after and backward with last/before', async () => {
    const q = `query($after: String, $before: String, $first: Int, $last: Int) { repository(owner: "lf", name: "svc") { pullRequest(number: 20) {
      comments(first: $first, last: $last, after: $after, before: $before) { totalCount nodes { databaseId } pageInfo { hasNextPage hasPreviousPage endCursor startCursor } } } } }`;
    const ids = [];
    let after = null;
    let page;
    for (let i = 0; i < 5; i += 1) {
      page = (await data(q, { first: 100, after })).repository.pullRequest.comments;
      ids.push(...page.nodes.map((n) => n.databaseId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    assert.equal(ids.length, 250);
    assert.equal(new Set(ids).size, 250);
    assert.equal(page.pageInfo.hasPreviousPage, true);
    const back = (await data(q, { last: 10, before: page.pageInfo.startCursor })).repository.pullRequest.comments;
    assert.deepEqual(back.nodes.map((n) => n.databaseId), ids.slice(190, 200));
    const bad = await hub.gql(q, { first: 10, after: 'not-a-cursor' });
    assert.equal(bad.body.errors[0].type, 'INVALID_CURSOR_ARGUMENTS');
  });

  test('commits: GitHub lists at most 250, so last: 1 is the 250th', async () => {
    const big = bigSnapshot();
    const d = await data('{ repository(owner: "lf", name: "svc") { pullRequest(number: 20) { headRefOid commits(last: 1) { totalCount nodes { commit { oid } } } } } }');
    const p = d.repository.pullRequest;
    assert.equal(p.commits.totalCount, 300);
    assert.equal(p.commits.nodes[0].commit.oid, big.pulls[0].commits[249]);
    assert.equal(p.headRefOid, big.pulls[0].commits[299]);
  });
});

describe('writes are visible', () => {
  test('a REST status, approval and label show up in GraphQL', async () => {
    await hub.post(`/repos/lf/svc/statuses/${SHA.h7}`, { state: 'success', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=true' });
    await hub.post('/repos/lf/svc/pulls/7/reviews', { commit_id: SHA.h7, event: 'APPROVE', body: '' });
    await hub.post('/repos/lf/svc/issues/7/labels', { labels: ['bug'] });
    const p = await pr();
    const clean = p.commits.nodes[0].commit.status.contexts.find((c) => c.context === 'agentic-review/clean');
    assert.equal(clean.state, 'SUCCESS');
    assert.equal(clean.creator.login, 'lfx-reviewer');
    const approval = p.reviews.nodes.at(-1);
    assert.equal(approval.state, 'APPROVED');
    assert.equal(approval.commit.oid, SHA.h7);
    assert.equal(approval.databaseId, 73);
    assert.deepEqual(p.labels.nodes.map((l) => l.name), ['needs-human', 'bug']);
  });

  test('mutations are not modelled', async () => {
    const r = await hub.gql('mutation { addLabelsToLabelable(input: { labelableId: "x", labelIds: ["y"] }) { clientMutationId } }');
    assert.equal(r.body.errors[0].type, 'FAKEHUB_NOT_IMPLEMENTED');
  });
});
