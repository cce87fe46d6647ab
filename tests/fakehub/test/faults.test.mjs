// Faults: every read and write kind, pr/sha narrowing, 404 on pull, timeouts,
// and the extensions times, page and mode.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';

import { SHA, baseSnapshot, bigSnapshot, parseLink, startServer } from '../testkit.mjs';

let hub;
before(async () => { hub = await startServer(); });
after(async () => { await hub.stop(); });

const R = '/repos/lf/svc';
const withFaults = (faults, snapshot = baseSnapshot()) => hub.setState({ ...snapshot, faults });
const q = (inner) => `{ repository(owner: "lf", name: "svc") { ${inner} } }`;
const pq = (inner, n = 7) => q(`pullRequest(number: ${n}) { number ${inner} }`);

/** For each read kind: REST paths that read it and a GraphQL query selecting it (PR 7). */
const READS = {
  pull: { rest: [`${R}/pulls/7`, `${R}/issues/7`], gql: pq('') },
  pulls: { rest: [`${R}/pulls`], gql: q('pullRequests(first: 10) { totalCount }') },
  labels: { rest: [`${R}/issues/7/labels`], gql: pq('labels(first: 10) { totalCount }') },
  comments: { rest: [`${R}/issues/7/comments`, `${R}/issues/comments/501`], gql: pq('comments(first: 10) { totalCount }') },
  timeline: { rest: [`${R}/issues/7/timeline`], gql: pq('timelineItems(first: 10) { totalCount }') },
  threads: { rest: [], gql: pq('reviewThreads(first: 10) { totalCount }') },
  reviews: { rest: [`${R}/pulls/7/reviews`, `${R}/pulls/7/reviews/71`], gql: pq('reviews(first: 10) { totalCount }') },
  commits: { rest: [`${R}/pulls/7/commits`, `${R}/compare/main...${SHA.h7}`], gql: pq('commits(first: 10) { totalCount }') },
  statuses: {
    rest: [`${R}/commits/${SHA.h7}/statuses`, `${R}/commits/${SHA.h7}/status`],
    gql: pq('commits(last: 1) { nodes { commit { status { state } } } }'),
  },
  user: { rest: ['/user'], gql: '{ viewer { login } }' },
};
const UNRELATED_GQL = q('nameWithOwner');

describe('read faults', () => {
  for (const [read, { rest, gql }] of Object.entries(READS)) {
    test(`read: ${read} fails its REST reads and any GraphQL request selecting it`, async () => {
      await withFaults([{ read, status: 502 }]);
      for (const path of rest) {
        const r = await hub.get(path);
        assert.equal(r.status, 502, path);
        assert.equal(typeof r.body.message, 'string');
      }
      const g = await hub.gql(gql);
      assert.equal(g.status, 502, 'the whole GraphQL response carries the fault');
      assert.equal(g.body.data, undefined);
      const fine = await hub.gql(UNRELATED_GQL);
      assert.equal(fine.status, 200);
      const log = await hub.log();
      assert.equal(log.at(-2).status, 502);
    });
  }

  test('pr narrows a read to that pull', async () => {
    await withFaults([{ read: 'comments', pr: 7, status: 500 }]);
    assert.equal((await hub.get(`${R}/issues/7/comments`)).status, 500);
    assert.equal((await hub.get(`${R}/issues/8/comments`)).status, 200);
    assert.equal((await hub.get(`${R}/issues/comments/501`)).status, 500, 'a comment of PR 7');
    assert.equal((await hub.gql(pq('comments(first: 1) { totalCount }', 8))).status, 200);
    assert.equal((await hub.gql(q('pullRequests(first: 10) { nodes { comments(first: 1) { totalCount } } }'))).status, 500);
    assert.equal((await hub.get(`${R}/pulls`)).status, 200);
  });

  test('sha narrows statuses to that commit', async () => {
    await withFaults([{ read: 'statuses', sha: SHA.h7, status: 503 }]);
    assert.equal((await hub.get(`${R}/commits/${SHA.h7}/statuses`)).status, 503);
    assert.equal((await hub.get(`${R}/commits/${SHA.h8}/statuses`)).status, 200);
    assert.equal((await hub.gql(READS.statuses.gql)).status, 503);
    assert.equal((await hub.gql(pq('commits(last: 1) { nodes { commit { status { state } } } }', 8))).status, 200);
  });

  test('read: labels without pr also fails the repository label lookups; with pr it does not', async () => {
    await withFaults([{ read: 'labels', status: 500 }]);
    assert.equal((await hub.get(`${R}/labels/bug`)).status, 500);
    assert.equal((await hub.get(`${R}/labels`)).status, 500);
    assert.equal((await hub.gql(q('label(name: "bug") { name }'))).status, 500);
    await withFaults([{ read: 'labels', pr: 7, status: 500 }]);
    assert.equal((await hub.get(`${R}/labels/bug`)).status, 200);
    assert.equal((await hub.gql(q('label(name: "bug") { name }'))).status, 200);
    assert.equal((await hub.get(`${R}/issues/7/labels`)).status, 500);
  });

  test('404 on pull: REST 404, GraphQL answers in-band with NOT_FOUND', async () => {
    await withFaults([{ read: 'pull', pr: 7, status: 404 }]);
    const r = await hub.get(`${R}/pulls/7`);
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Not Found');
    const g = await hub.gql(q('nameWithOwner pullRequest(number: 7) { number }'));
    assert.equal(g.status, 200);
    assert.deepEqual(g.body.data, { repository: { nameWithOwner: 'lf/svc', pullRequest: null } });
    assert.equal(g.body.errors[0].type, 'NOT_FOUND');
    assert.equal((await hub.gql(pq('', 8))).body.data.repository.pullRequest.number, 8);
  });

  test('404 on another read fails the whole GraphQL request', async () => {
    await withFaults([{ read: 'reviews', status: 404 }]);
    assert.equal((await hub.get(`${R}/pulls/7/reviews`)).status, 404);
    assert.equal((await hub.gql(READS.reviews.gql)).status, 404);
  });
});

describe('write faults', () => {
  test('write: label fails adding labels and creating labels; nothing is written', async () => {
    await withFaults([{ write: 'label', status: 502 }]);
    assert.equal((await hub.post(`${R}/issues/7/labels`, { labels: ['bug'] })).status, 502);
    assert.equal((await hub.post(`${R}/labels`, { name: 'fresh' })).status, 502);
    assert.equal((await hub.get(`${R}/issues/7/labels`)).status, 200, 'reads are not affected');
    const state = await hub.state();
    assert.deepEqual(state.pulls[0].labels, ['needs-human']);
    assert.deepEqual(state.labels, ['needs-human', 'bug']);
  });

  test('write: label with pr hits that pull\'s label add only', async () => {
    await withFaults([{ write: 'label', pr: 7, status: 500 }]);
    assert.equal((await hub.post(`${R}/issues/7/labels`, { labels: ['bug'] })).status, 500);
    assert.equal((await hub.post(`${R}/issues/8/labels`, { labels: ['bug'] })).status, 200);
    assert.equal((await hub.post(`${R}/labels`, { name: 'fresh' })).status, 201);
  });

  test('write: status (and sha narrowing)', async () => {
    await withFaults([{ write: 'status', sha: SHA.h7, status: 500 }]);
    assert.equal((await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'c' })).status, 500);
    assert.equal((await hub.post(`${R}/statuses/${SHA.h8}`, { state: 'success', context: 'c' })).status, 201);
    assert.equal((await hub.state()).statuses[SHA.h7].length, 3);
  });

  test('write: approve', async () => {
    await withFaults([{ write: 'approve', pr: 7, status: 502 }]);
    assert.equal((await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE' })).status, 502);
    assert.equal((await hub.state()).pulls[0].reviews.length, 2);
  });

  test('write: dismiss', async () => {
    await withFaults([{ write: 'dismiss', status: 500 }]);
    assert.equal((await hub.put(`${R}/pulls/7/reviews/71/dismissals`, { message: 'm', event: 'DISMISS' })).status, 500);
    assert.equal((await hub.state()).pulls[0].reviews.find((r) => r.id === 71).state, 'APPROVED');
  });
});

describe('timeouts', () => {
  for (const fault of [{ read: 'user', status: 'timeout' }, { read: 'user', mode: 'hang' }]) {
    test(`${JSON.stringify(fault)} holds the request open`, async () => {
      await withFaults([fault]);
      await hub.clearLog();
      const started = Date.now();
      await assert.rejects(hub.get('/user', { signal: AbortSignal.timeout(300) }), { name: 'TimeoutError' });
      assert.ok(Date.now() - started >= 290);
      await assert.rejects(hub.gql('{ viewer { login } }', {}, { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
      const log = await hub.log();
      assert.equal(log.length, 2);
      assert.equal(log[0].status, null);
      assert.equal((await hub.get(`${R}/pulls/7`)).status, 200, 'other requests are served meanwhile');
    });
  }
});

describe('extensions', () => {
  test('times: only the first N matching requests fail', async () => {
    await withFaults([{ read: 'pull', pr: 7, status: 502, times: 2 }]);
    const codes = [];
    for (let i = 0; i < 3; i += 1) codes.push((await hub.get(`${R}/pulls/7`)).status);
    assert.deepEqual(codes, [502, 502, 200]);
  });

  test('times counts a GraphQL request once however many fields it hits', async () => {
    await withFaults([{ read: 'comments', status: 500, times: 1 }]);
    const many = q('pullRequests(first: 10) { nodes { comments(first: 1) { totalCount } } }');
    assert.equal((await hub.gql(many)).status, 500);
    assert.equal((await hub.gql(many)).status, 200);
  });

  test('page: only that page of a REST list fails', async () => {
    const big = bigSnapshot();
    const head = big.pulls[0].head.sha;
    await withFaults([{ read: 'statuses', sha: head, page: 2, status: 500 }], big);
    const codes = [];
    for (let p = 1; p <= 3; p += 1) codes.push((await hub.get(`${R}/commits/${head}/statuses?per_page=50&page=${p}`)).status);
    assert.deepEqual(codes, [200, 500, 200]);
  });

  test('page: only that cursor position of a GraphQL connection fails', async () => {
    await withFaults([{ read: 'comments', pr: 20, page: 2, status: 500 }], bigSnapshot());
    const query = 'query($after: String) { repository(owner: "lf", name: "svc") { pullRequest(number: 20) { comments(first: 100, after: $after) { pageInfo { endCursor } } } } }';
    const p1 = await hub.gql(query, { after: null });
    assert.equal(p1.status, 200);
    const cursor = p1.body.data.repository.pullRequest.comments.pageInfo.endCursor;
    assert.equal((await hub.gql(query, { after: cursor })).status, 500);
  });

  test('mode secondary_limit: 403 with Retry-After', async () => {
    await withFaults([{ read: 'pull', mode: 'secondary_limit', retry_after: 7 }]);
    let r = await hub.get(`${R}/pulls/7`);
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('retry-after'), '7');
    assert.match(r.body.message, /secondary rate limit/);
    await withFaults([{ read: 'pull', mode: 'secondary_limit', status: 429 }]);
    r = await hub.gql(pq(''));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '1');
  });

  test('mode rate_limit: x-ratelimit-remaining 0 and a reset time', async () => {
    await withFaults([{ read: 'reviews', mode: 'rate_limit', retry_after: 30 }]);
    let r = await hub.get(`${R}/pulls/7/reviews`);
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    assert.ok(Math.abs(reset - (Date.now() / 1000 + 30)) < 5);
    assert.match(r.body.message, /rate limit exceeded/);
    await withFaults([{ read: 'reviews', mode: 'rate_limit', status: 429 }]);
    r = await hub.gql(READS.reviews.gql);
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('x-ratelimit-resource'), 'graphql');
  });

  test('mode truncated: half a body, then the connection ends', async () => {
    await withFaults([{ read: 'comments', mode: 'truncated' }]);
    const outcome = await new Promise((resolve) => {
      const req = http.get(`${hub.base}${R}/issues/7/comments`, { headers: { authorization: 'Bearer t' } }, (res) => {
        let got = 0;
        res.on('data', (d) => { got += d.length; });
        res.on('error', () => {});
        res.on('close', () => resolve({ status: res.statusCode, declared: Number(res.headers['content-length']), got, complete: res.complete }));
      });
      req.on('error', (err) => resolve({ error: err.code }));
    });
    assert.equal(outcome.status, 200);
    assert.equal(outcome.complete, false);
    assert.ok(outcome.got > 0 && outcome.got < outcome.declared);
    await assert.rejects(async () => (await fetch(`${hub.base}/graphql`, {
      method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify({ query: READS.comments.gql }),
    })).text());
  });

  test('mode invalid_json: a 200 whose body does not parse', async () => {
    await withFaults([{ read: 'pulls', mode: 'invalid_json' }]);
    const r = await hub.get(`${R}/pulls`);
    assert.equal(r.status, 200);
    assert.throws(() => JSON.parse(r.text));
    assert.equal(typeof r.body, 'string');
  });

  test('mode offhost_link: a valid page whose rel=next leaves the host', async () => {
    await withFaults([{ read: 'statuses', mode: 'offhost_link' }]);
    const r = await hub.get(`${R}/commits/${SHA.h7}/statuses?per_page=100`);
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 3);
    const next = new URL(parseLink(r.headers.get('link')).next);
    assert.equal(next.hostname, 'evil.invalid');
    assert.equal(next.port, new URL(hub.base).port);
    assert.equal(next.searchParams.get('page'), '2');
  });

  test('POST /_fakehub/faults replaces the list and re-arms counters', async () => {
    await withFaults([{ read: 'user', status: 500, times: 1 }]);
    assert.equal((await hub.get('/user')).status, 500);
    assert.equal((await hub.get('/user')).status, 200);
    await hub.setFaults([{ read: 'user', status: 500, times: 1 }]);
    assert.equal((await hub.get('/user')).status, 500);
    assert.deepEqual((await hub.get('/_fakehub/faults', { token: null })).body, [{ read: 'user', status: 500, times: 1 }]);
    assert.deepEqual((await hub.state()).faults, [{ read: 'user', status: 500, times: 1 }]);
    await hub.setFaults([]);
    assert.equal((await hub.get('/user')).status, 200);
    const bad = await hub.post('/_fakehub/faults', [{ write: 'nope', status: 500 }], { token: null });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /faults\[0\]\.write/);
  });
});
