// GraphQL points by GitHub's published formula ("Rate limits and query
// limits for the GraphQL API": add up the requests needed to fulfil each
// connection, a nested connection once per parent node; divide by 100,
// round; at least 1), answered in `rateLimit { cost }`, charged to the
// graphql rate limit and recorded per request in the log (`points`).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { graphql as G } from '../lib/peers.mjs';
import { queryCost, schema } from '../lib/graphql.mjs';
import { PR_QUERY, PR_VARS, baseSnapshot, startServer } from '../testkit.mjs';

/** { cost, requests, nodeCount } of a query, without a server. */
function cost(query, variables = {}) {
  const document = G.parse(query);
  assert.deepEqual(G.validate(schema, document), []);
  return queryCost(document, G.getOperationAST(document), variables);
}

const REPO = 'repository(owner: "lf", name: "svc")';

describe('the formula (queryCost)', () => {
  test('GitHub\'s own worked example: 1 + 100 + 100 × 50 = 5,101 requests → 51 points', () => {
    const c = cost(`query { viewer { login repositories(first: 100) { edges { node { id
      issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } } } } }`);
    assert.equal(c.requests, 5101);
    assert.equal(c.cost, 51);
  });

  test('GitHub\'s node-limit examples: 550 and 22,060 nodes', () => {
    assert.equal(cost(`query { viewer { repositories(first: 50) { edges { repository: node { name
      issues(first: 10) { totalCount edges { node { title bodyHTML } } } } } } } }`).nodeCount, 550);
    assert.equal(cost(`query { viewer { repositories(first: 50) { edges { repository: node { name
      pullRequests(first: 20) { edges { pullRequest: node { title comments(first: 10) { edges { comment: node { bodyHTML } } } } } }
      issues(first: 20) { totalCount edges { issue: node { title bodyHTML comments(first: 10) { edges { comment: node { bodyHTML } } } } } } } } }
      followers(first: 10) { edges { follower: node { login } } } } }`).nodeCount, 22060);
  });

  test('a single connection: 1 request → the minimum, 1 point', () => {
    const c = cost(`{ ${REPO} { pullRequests(first: 100, states: OPEN) { nodes { number headRefOid } } } }`);
    assert.deepEqual([c.requests, c.cost], [1, 1]);
  });

  test('no connection at all still costs 1 point', () => {
    const c = cost('{ viewer { login } }');
    assert.deepEqual([c.requests, c.cost], [0, 1]);
  });

  test('nested connections multiply by the parent\'s limit', () => {
    // 1 (pullRequests) + 50 × 3 (labels, comments, reviewThreads) + 50 × 100 (each thread's comments)
    const c = cost(`{ ${REPO} { pullRequests(first: 50) { nodes { number
      labels(first: 10) { nodes { name } }
      comments(last: 100) { nodes { id } }
      reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount } } } } } } }`);
    assert.equal(c.requests, 1 + 150 + 5000);
    assert.equal(c.cost, 52);
    assert.equal(c.nodeCount, 50 + 50 * 10 + 50 * 100 + 50 * 100 + 50 * 100 * 1);
  });

  test('rounding to the nearest whole point', () => {
    // 1 + n (one connection per PR): 149 → 1, 151 → 2, 250 → 3 (2.5 rounds up)
    const q = (n, extra = '') => `{ ${REPO} { pullRequests(first: ${n}) { nodes { labels(first: 5) { totalCount } ${extra} } } } }`;
    assert.equal(cost(q(100, 'reviews(first: 5) { totalCount }')).requests, 201);
    assert.equal(cost(q(100, 'reviews(first: 5) { totalCount }')).cost, 2);
    assert.equal(cost(q(74, 'reviews(first: 5) { totalCount }')).requests, 149);
    assert.equal(cost(q(74, 'reviews(first: 5) { totalCount }')).cost, 1);
    assert.equal(cost(q(75, 'reviews(first: 5) { totalCount }')).cost, 2, '151 requests');
  });

  test('batched aliases: each alias is a request of its own for every connection below it', () => {
    const one = (n) => `p${n}: pullRequest(number: ${n}) { comments(first: 100) { nodes { id } }
      reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount } } } }`;
    const single = cost(`{ ${REPO} { ${one(1)} } }`);
    assert.equal(single.requests, 102);
    assert.equal(single.cost, 1);
    const ten = cost(`{ ${REPO} { ${[...Array(10).keys()].map((i) => one(i + 1)).join(' ')} } }`);
    assert.equal(ten.requests, 1020);
    assert.equal(ten.cost, 10);
    const aliasedRepos = cost(`{ a: ${REPO} { ${one(1)} } b: repository(owner: "lf", name: "other") { ${one(1)} } }`);
    assert.equal(aliasedRepos.requests, 204);
  });

  test('the same field selected twice (same response key) is fetched once', () => {
    const c = cost(`{ ${REPO} { pullRequests(first: 10) { nodes { labels(first: 5) { nodes { name } } } }
      pullRequests(first: 10) { nodes { labels(first: 5) { totalCount } } } } }`);
    assert.equal(c.requests, 11);
  });

  test('a named fragment counts where it is spread, as often as it is spread', () => {
    const frag = 'fragment T on PullRequest { reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount } } } }';
    const nested = cost(`${frag} { ${REPO} { pullRequests(first: 50) { nodes { ...T } } } }`);
    assert.equal(nested.requests, 1 + 50 + 5000, 'inside a connection of 50: multiplied by 50');
    const twice = cost(`${frag} { ${REPO} { a: pullRequest(number: 1) { ...T } b: pullRequest(number: 2) { ...T } } }`);
    assert.equal(twice.requests, 2 * 101);
  });

  test('inline fragments on a union: their connections count', () => {
    const c = cost(`{ ${REPO} { pullRequest(number: 7) { timelineItems(first: 100, itemTypes: [UNLABELED_EVENT]) {
      nodes { ... on UnlabeledEvent { label { name } } ... on ReviewDismissedEvent { review { comments(first: 10) { totalCount } } } } } } } }`);
    assert.equal(c.requests, 1 + 100);
  });

  test('plain lists add nothing: Commit.status.contexts', () => {
    const c = cost(`{ ${REPO} { pullRequest(number: 7) { commits(last: 1) { nodes { commit { status { contexts { context state creator { login } } } } } } } } }`);
    assert.equal(c.requests, 1);
    assert.equal(c.cost, 1);
  });

  test('the head\'s statuses through headRef.target cost nothing (no connection); a page of 100 PRs with one nested list is 101 requests, 1 point', () => {
    const c = cost(`{ ${REPO} { pullRequests(first: 100, states: OPEN) { nodes { number updatedAt
      comments(last: 100) { totalCount nodes { fullDatabaseId lastEditedAt } }
      headRef { target { ... on Commit { oid status { contexts { context state } } } } } } } } }`);
    assert.deepEqual([c.requests, c.cost], [101, 1]);
  });

  test('a read-ahead document: six lists a PR and one per thread asked for; 149 requests are 1 point', () => {
    const one = (n, t) => `p${n}: pullRequest(number: ${n}) { labels(first: 100) { nodes { name } } comments(first: 100) { nodes { id } }
      timelineItems(first: 100) { nodes { __typename } } reviewThreads(first: ${t}) { nodes { comments(first: 1) { totalCount } } }
      reviews(first: 100) { nodes { state } } commits(last: 1) { nodes { commit { oid } } } }`;
    const eighteen = cost(`{ ${REPO} { ${[...Array(18).keys()].map((i) => one(i + 1, 2)).join(' ')} } }`);
    assert.deepEqual([eighteen.requests, eighteen.cost], [144, 1]);
    const seven = cost(`{ ${REPO} { ${[...Array(7).keys()].map((i) => one(i + 1, 14)).join(' ')} } }`);
    assert.deepEqual([seven.requests, seven.cost], [140, 1]);
  });

  test('nodes(ids:) multiplies what it selects by its number of ids', () => {
    const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { userContentEdits(first: 100) { nodes { editedAt } } } } }';
    assert.equal(cost(q, { ids: ['a', 'b', 'c'] }).requests, 3);
    assert.equal(cost(q, { ids: Array.from({ length: 100 }, (_, i) => `c${i}`) }).requests, 100);
  });

  test('@skip(if: true) and @include(if: false) drop their selection', () => {
    const q = `query($s: Boolean!) { ${REPO} { pullRequests(first: 50) @skip(if: $s) { nodes { labels(first: 5) { totalCount } } }
      issues(first: 1) @include(if: false) { totalCount } } }`;
    assert.equal(cost(q, { s: true }).requests, 0);
    assert.equal(cost(q, { s: false }).requests, 51);
  });

  test('the program\'s one-PR query (all the gate\'s parts) is 106 requests: 1 point', () => {
    const c = cost(PR_QUERY, PR_VARS);
    assert.equal(c.requests, 106);
    assert.equal(c.cost, 1);
  });
});

describe('served: rateLimit, the rate limit and the log', () => {
  let hub;
  before(async () => { hub = await startServer(); });
  after(async () => { await hub.stop(); });
  beforeEach(async () => { await hub.setState(baseSnapshot()); await hub.clearLog(); });

  const rl = 'rateLimit { cost used remaining limit nodeCount }';

  test('rateLimit { cost } answers the formula; used grows by it; the log records it as points', async () => {
    const queries = [
      [`{ ${rl} ${REPO} { pullRequests(first: 100) { nodes { number } } } }`, 1],
      [`{ ${rl} ${REPO} { pullRequests(first: 100) { nodes { comments(first: 100) { totalCount } reviews(first: 100) { totalCount } } } } }`, 2],
      [`{ ${rl} ${REPO} { pullRequests(first: 50) { nodes { reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount } } } } } } }`, 51],
      [`{ ${rl} ${REPO} { ${[7, 8, 9, 10].map((n) => `p${n}: pullRequest(number: ${n}) { reviewThreads(first: 100) { nodes { comments(first: 100) { totalCount } } } }`).join(' ')} } }`, Math.round(4 * 101 / 100)],
    ];
    let used = 0;
    for (const [q, points] of queries) {
      const r = await hub.gql(q);
      assert.equal(r.status, 200);
      const rate = r.body.data.rateLimit;
      used += points;
      assert.equal(rate.cost, points, q);
      assert.equal(rate.used, used);
      assert.equal(r.headers.get('x-ratelimit-used'), String(used));
    }
    const log = await hub.log();
    assert.deepEqual(log.map((e) => e.points), queries.map(([, p]) => p));
  });

  test('REST requests carry no points; refused GraphQL requests are logged with 0', async () => {
    await hub.get('/repos/lf/svc/pulls');
    await hub.gql(`{ ${REPO} { pullRequests { totalCount } } }`); // no first/last: refused
    await hub.gql('{ viewer { nosuchfield } }');
    await hub.gql(PR_QUERY, PR_VARS);
    const log = await hub.log();
    assert.equal(log[0].points, undefined);
    assert.deepEqual(log.slice(1).map((e) => e.points), [0, 0, 1]);
  });

  test('a query over the remaining points is refused (RATE_LIMITED) and charged nothing', async () => {
    await hub.setState({ ...baseSnapshot(), rate_limit: { graphql: 10 } });
    const big = `{ ${REPO} { pullRequests(first: 50) { nodes { reviewThreads(first: 100) { nodes { comments(first: 1) { totalCount } } } } } } }`;
    const r = await hub.gql(big);
    assert.equal(r.body.errors[0].type, 'RATE_LIMITED');
    const small = await hub.gql(`{ ${rl} }`);
    assert.equal(small.body.data.rateLimit.used, 1);
    const log = await hub.log();
    assert.deepEqual(log.map((e) => e.points), [0, 1]);
  });
});
