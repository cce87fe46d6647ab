// REST endpoints: authentication, shapes, status codes, pagination, writes.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { SHA, baseSnapshot, bigSnapshot, parseLink, startServer } from '../testkit.mjs';

let hub;
before(async () => { hub = await startServer(); });
after(async () => { await hub.stop(); });
beforeEach(async () => { await hub.setState(baseSnapshot()); });

const R = '/repos/lf/svc';

/** Follows rel="next" from `path`, returning every page's items and the Link headers seen. */
async function collect(path) {
  const items = [];
  const links = [];
  let url = path;
  for (let i = 0; url && i < 50; i += 1) {
    const r = await hub.get(url);
    assert.equal(r.status, 200, `GET ${url}`);
    items.push(...r.body);
    const link = parseLink(r.headers.get('link'));
    links.push(link);
    url = link.next ? link.next.slice(hub.base.length) : null;
    if (link.next) assert.ok(link.next.startsWith(`${hub.base}/`), 'Link stays on the base URL');
  }
  return { items, links };
}

describe('authentication', () => {
  test('a missing token is 401', async () => {
    const r = await hub.get('/user', { token: null });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, 'Requires authentication');
    assert.equal((await hub.gql('{ viewer { login } }', {}, { token: null })).status, 401);
  });

  test('an empty or non-token scheme is 401', async () => {
    let r = await hub.get('/user', { token: null, headers: { authorization: 'Bearer ' } });
    assert.equal(r.status, 401);
    r = await hub.get('/user', { token: null, headers: { authorization: 'Basic dXNlcjpwdw==' } });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, 'Bad credentials');
  });

  test('any non-empty Bearer or token credential is accepted', async () => {
    assert.equal((await hub.get('/user', { token: 'anything' })).status, 200);
    const r = await hub.get('/user', { token: null, headers: { authorization: 'token ghp_whatever' } });
    assert.equal(r.status, 200);
  });
});

describe('GET /user and rate limits', () => {
  test('GET /user is the snapshot viewer', async () => {
    const r = await hub.get('/user');
    assert.equal(r.body.login, 'lfx-reviewer');
    assert.equal(r.body.type, 'User');
    assert.equal(typeof r.body.id, 'number');
    const snap = baseSnapshot();
    delete snap.viewer;
    await hub.setState(snap);
    assert.equal((await hub.get('/user')).body.login, 'lfx-reviewer', 'default viewer');
    await hub.setState({ ...baseSnapshot(), viewer: 'someone-else' });
    assert.equal((await hub.get('/user')).body.login, 'someone-else');
    const bot = await hub.get('/users/ci-runner[bot]');
    assert.equal(bot.body.type, 'Bot');
  });

  test('x-ratelimit headers count down; an exhausted limit is 403', async () => {
    await hub.setState({ ...baseSnapshot(), rate_limit: { rest: 2 } });
    const a = await hub.get('/user');
    const b = await hub.get(`${R}/pulls/7`);
    assert.equal(a.headers.get('x-ratelimit-limit'), '2');
    assert.equal(a.headers.get('x-ratelimit-remaining'), '1');
    assert.equal(b.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(b.headers.get('x-ratelimit-used'), '2');
    assert.equal(a.headers.get('x-ratelimit-resource'), 'core');
    assert.ok(Number(a.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
    const c = await hub.get('/user');
    assert.equal(c.status, 403);
    assert.match(c.body.message, /rate limit exceeded/);
    const rl = await hub.get('/rate_limit');
    assert.equal(rl.body.resources.core.remaining, 0);
    assert.equal(rl.body.resources.graphql.limit, 5000);
  });
});

describe('pull requests', () => {
  test('GET /pulls lists open pulls, newest first, with filters', async () => {
    let r = await hub.get(`${R}/pulls`);
    assert.deepEqual(r.body.map((p) => p.number), [8, 7]);
    r = await hub.get(`${R}/pulls?state=all&direction=asc`);
    assert.deepEqual(r.body.map((p) => p.number), [7, 8, 9, 10]);
    r = await hub.get(`${R}/pulls?state=closed`);
    assert.deepEqual(r.body.map((p) => p.number), [10, 9]);
    r = await hub.get(`${R}/pulls?head=lf:feature`);
    assert.deepEqual(r.body.map((p) => p.number), [7]);
    r = await hub.get(`${R}/pulls?base=develop`);
    assert.deepEqual(r.body, []);
    assert.equal((await hub.get(`${R}/pulls?state=bogus`)).status, 422);
  });

  test('GET /pulls paginates with Link headers over several pages', async () => {
    await hub.setState(bigSnapshot());
    const first = await hub.get(`${R}/pulls?per_page=20`);
    const link = parseLink(first.headers.get('link'));
    assert.equal(new URL(link.next).searchParams.get('page'), '2');
    assert.equal(new URL(link.last).searchParams.get('page'), '3');
    assert.equal(new URL(link.next).searchParams.get('per_page'), '20');
    assert.equal(link.prev, undefined);
    const { items, links } = await collect(`${R}/pulls?per_page=20`);
    assert.equal(items.length, 46);
    assert.equal(new Set(items.map((p) => p.number)).size, 46);
    assert.deepEqual(Object.keys(links[1]).sort(), ['first', 'last', 'next', 'prev']);
    assert.deepEqual(Object.keys(links[2]).sort(), ['first', 'prev']);
    const beyond = await hub.get(`${R}/pulls?per_page=20&page=9`);
    assert.deepEqual(beyond.body, []);
    const capped = await hub.get(`${R}/pulls?per_page=1000`);
    assert.equal(capped.body.length, 46);
    const dflt = await hub.get(`${R}/pulls`);
    assert.equal(dflt.body.length, 30);
  });

  test('GET /pulls/{n} has GitHub\'s shape', async () => {
    let r = await hub.get(`${R}/pulls/7`);
    assert.equal(r.status, 200);
    const p = r.body;
    assert.equal(p.number, 7);
    assert.equal(p.state, 'open');
    assert.equal(p.merged, false);
    assert.equal(p.draft, false);
    assert.equal(p.user.login, 'dev1');
    assert.equal(p.head.sha, SHA.h7);
    assert.equal(p.head.ref, 'feature');
    assert.equal(p.head.repo.full_name, 'lf/svc');
    assert.equal(p.base.ref, 'main');
    assert.equal(p.base.repo.full_name, 'lf/svc');
    assert.deepEqual(p.labels.map((l) => l.name), ['needs-human']);
    assert.equal(p.commits, 3);
    assert.equal(p.comments, 4);
    assert.ok(p.url.startsWith(hub.base));
    r = await hub.get(`${R}/pulls/9`);
    assert.equal(r.body.state, 'closed');
    assert.equal(r.body.merged, true);
    assert.ok(r.body.merged_at);
    r = await hub.get(`${R}/pulls/8`);
    assert.equal(r.body.draft, true);
    assert.equal(r.body.head.repo.full_name, 'someone/svc');
    assert.equal(r.body.head.repo.fork, true);
  });

  test('unknown pulls, repositories and routes are 404', async () => {
    const r = await hub.get(`${R}/pulls/99`);
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Not Found');
    assert.equal((await hub.get('/repos/lf/other/pulls/7')).status, 404);
    assert.equal((await hub.get(`${R}/nothing-here`)).status, 404);
    assert.equal((await hub.api('DELETE', '/user')).status, 404);
  });

  test('GET /issues/{n} of a pull carries pull_request', async () => {
    const r = await hub.get(`${R}/issues/7`);
    assert.equal(r.status, 200);
    assert.ok(r.body.pull_request.url.endsWith('/pulls/7'));
  });

  test('/repositories/{id}/… paths reach the same repository', async () => {
    const repo = await hub.get(R);
    assert.equal(repo.body.full_name, 'lf/svc');
    const r = await hub.get(`/repositories/${repo.body.id}/pulls/7`);
    assert.equal(r.status, 200);
    assert.equal(r.body.number, 7);
  });
});

describe('labels', () => {
  test('GET /labels/{name}: 200 (case-insensitive) or 404', async () => {
    let r = await hub.get(`${R}/labels/bug`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['color', 'default', 'description', 'id', 'name', 'node_id', 'url']);
    r = await hub.get(`${R}/labels/BUG`);
    assert.equal(r.body.name, 'bug');
    r = await hub.get(`${R}/labels/needs%20review`);
    assert.equal(r.status, 404);
    r = await hub.get(`${R}/labels`);
    assert.deepEqual(r.body.map((l) => l.name), ['needs-human', 'bug']);
  });

  test('without a label list every label exists', async () => {
    const snap = baseSnapshot();
    delete snap.labels;
    await hub.setState(snap);
    assert.equal((await hub.get(`${R}/labels/anything`)).status, 200);
    const r = await hub.post(`${R}/labels`, { name: 'anything' });
    assert.equal(r.status, 422);
    assert.equal((await hub.state()).labels, undefined);
  });

  test('POST /labels: 201 with Location, then 422 already_exists', async () => {
    let r = await hub.post(`${R}/labels`, { name: 'needs-review', color: 'ff0000', description: 'x' });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${hub.base}${R}/labels/needs-review`);
    assert.equal(r.body.color, 'ff0000');
    assert.equal((await hub.get(`${R}/labels/needs-review`)).body.color, 'ff0000');
    assert.ok((await hub.state()).labels.includes('needs-review'));
    r = await hub.post(`${R}/labels`, { name: 'Needs-Review' });
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'Validation Failed');
    assert.deepEqual(r.body.errors[0], { resource: 'Label', code: 'already_exists', field: 'name' });
    r = await hub.post(`${R}/labels`, { color: 'ff0000' });
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].code, 'missing_field');
    r = await hub.post(`${R}/labels`, { name: 'x', color: 'red' });
    assert.equal(r.status, 422);
    r = await hub.post(`${R}/labels`, '{not json');
    assert.equal(r.status, 400);
  });

  test('POST /issues/{n}/labels adds labels, creating missing repository labels', async () => {
    let r = await hub.post(`${R}/issues/7/labels`, { labels: ['bug', 'fresh', 'NEEDS-HUMAN'] });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.map((l) => l.name), ['needs-human', 'bug', 'fresh']);
    const state = await hub.state();
    assert.deepEqual(state.pulls[0].labels, ['needs-human', 'bug', 'fresh']);
    assert.ok(state.labels.includes('fresh'));
    const labeled = state.pulls[0].timeline.filter((e) => e.event === 'labeled' && e.actor === 'lfx-reviewer' && e.id > 9100);
    assert.deepEqual(labeled.map((e) => e.label), ['bug', 'fresh']);
    r = await hub.post(`${R}/issues/8/labels`, ['bug']);
    assert.equal(r.status, 200, 'a bare array is accepted too');
    assert.equal((await hub.get(`${R}/issues/8/labels`)).body[0].name, 'bug');
    assert.equal((await hub.post(`${R}/issues/99/labels`, { labels: ['bug'] })).status, 404);
    assert.equal((await hub.post(`${R}/issues/7/labels`, { labels: [] })).status, 422);
    assert.equal((await hub.post(`${R}/issues/7/labels`, 'nope')).status, 400);
  });

  test('DELETE /issues/{n}/labels/{name}', async () => {
    let r = await hub.api('DELETE', `${R}/issues/7/labels/needs-human`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, []);
    r = await hub.api('DELETE', `${R}/issues/7/labels/needs-human`);
    assert.equal(r.status, 404);
    const state = await hub.state();
    assert.equal(state.pulls[0].timeline.at(-1).event, 'unlabeled');
  });
});

describe('comments, timeline, reviews, commits', () => {
  test('GET /issues/{n}/comments: id order, bots with [bot], deleted accounts as ghost', async () => {
    const r = await hub.get(`${R}/issues/7/comments`);
    assert.deepEqual(r.body.map((c) => c.id), [501, 502, 503, 3000000001]);
    const bot = r.body.find((c) => c.id === 503);
    assert.equal(bot.user.login, 'copilot-pull-request-reviewer[bot]');
    assert.equal(bot.user.type, 'Bot');
    assert.equal(r.body.find((c) => c.id === 3000000001).user.login, 'ghost');
    const edited = r.body.find((c) => c.id === 502);
    assert.equal(edited.updated_at, '2026-11-29T11:00:00Z');
    assert.equal(edited.html_url, `${hub.base}/lf/svc/pull/7#issuecomment-502`);
    const since = await hub.get(`${R}/issues/7/comments?since=2026-11-29T10:06:00Z`);
    assert.deepEqual(since.body.map((c) => c.id), [502, 503, 3000000001]);
    const paged = await collect(`${R}/issues/7/comments?per_page=3`);
    assert.equal(paged.items.length, 4);
    assert.equal(paged.links.length, 2);
  });

  test('GET /issues/comments/{id}', async () => {
    const r = await hub.get(`${R}/issues/comments/503`);
    assert.equal(r.status, 200);
    assert.equal(r.body.body, 'bot says');
    assert.ok(r.body.issue_url.endsWith('/issues/7'));
    assert.equal((await hub.get(`${R}/issues/comments/999`)).status, 404);
  });

  test('GET /issues/{n}/timeline: events in id order', async () => {
    const r = await hub.get(`${R}/issues/7/timeline`);
    assert.deepEqual(r.body.map((e) => e.id), [8999, 9001, 9100]);
    const unlabeled = r.body[1];
    assert.equal(unlabeled.event, 'unlabeled');
    assert.equal(unlabeled.actor.login, 'alice');
    assert.equal(unlabeled.label.name, 'needs-human');
    assert.equal(r.body[2].event, 'base_ref_changed');
  });

  test('GET /pulls/{n}/reviews and /reviews/{id}', async () => {
    const r = await hub.get(`${R}/pulls/7/reviews`);
    assert.deepEqual(r.body.map((x) => [x.id, x.state, x.user.login, x.user.type]), [
      [71, 'APPROVED', 'lfx-reviewer', 'User'],
      [72, 'COMMENTED', 'copilot-pull-request-reviewer[bot]', 'Bot'],
    ]);
    assert.equal(r.body[0].commit_id, SHA.c2);
    assert.equal((await hub.get(`${R}/pulls/7/reviews/72`)).body.state, 'COMMENTED');
    assert.equal((await hub.get(`${R}/pulls/7/reviews/5`)).status, 404);
  });

  test('GET /pulls/{n}/commits stops at 250, paginated, with parents', async () => {
    const big = bigSnapshot();
    await hub.setState(big);
    const { items, links } = await collect(`${R}/pulls/20/commits?per_page=100`);
    assert.equal(items.length, 250);
    assert.equal(links.length, 3);
    assert.deepEqual(items.map((c) => c.sha), big.pulls[0].commits.slice(0, 250));
    assert.equal(items[1].parents[0].sha, items[0].sha);
    assert.equal((await hub.get(`${R}/pulls/20`)).body.commits, 300);
  });
});

describe('approvals and dismissals', () => {
  test('POST /pulls/{n}/reviews APPROVE answers 200 and becomes a review', async () => {
    const r = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, body: '', event: 'APPROVE' });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, 73);
    assert.equal(r.body.state, 'APPROVED');
    assert.equal(r.body.user.login, 'lfx-reviewer');
    assert.equal(r.body.commit_id, SHA.h7);
    const review = (await hub.state()).pulls[0].reviews.find((x) => x.id === 73);
    assert.equal(review.author, 'lfx-reviewer');
    assert.equal(review.state, 'APPROVED');
    assert.equal(review.commit_id, SHA.h7);
    assert.match(review.submitted_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('POST /pulls/{n}/reviews refuses a commit that is not the head, and the author\'s own pull', async () => {
    let r = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.c2, event: 'APPROVE' });
    assert.equal(r.status, 422);
    assert.ok(Array.isArray(r.body.errors));
    r = await hub.post(`${R}/pulls/8/reviews`, { commit_id: SHA.h8, event: 'APPROVE' });
    assert.equal(r.status, 422);
    assert.match(r.body.errors[0], /own pull request/);
    assert.equal((await hub.post(`${R}/pulls/99/reviews`, { event: 'APPROVE' })).status, 404);
    assert.equal((await hub.post(`${R}/pulls/7/reviews`, { event: 'SHIP_IT' })).status, 422);
    assert.equal((await hub.state()).pulls[0].reviews.length, 2, 'nothing written');
  });

  test('PUT /pulls/{n}/reviews/{id}/dismissals', async () => {
    let r = await hub.put(`${R}/pulls/7/reviews/71/dismissals`, { message: 'head moved', event: 'DISMISS' });
    assert.equal(r.status, 200);
    assert.equal(r.body.state, 'DISMISSED');
    const state = await hub.state();
    assert.equal(state.pulls[0].reviews.find((x) => x.id === 71).state, 'DISMISSED');
    const ev = state.pulls[0].timeline.at(-1);
    assert.equal(ev.event, 'review_dismissed');
    assert.equal(ev.review_id, 71);
    r = await hub.put(`${R}/pulls/7/reviews/71/dismissals`, { event: 'DISMISS' });
    assert.equal(r.status, 422, 'message is required');
    r = await hub.put(`${R}/pulls/7/reviews/999/dismissals`, { message: 'x', event: 'DISMISS' });
    assert.equal(r.status, 404);
    r = await hub.put(`${R}/pulls/8/reviews/71/dismissals`, { message: 'x', event: 'DISMISS' });
    assert.equal(r.status, 404, 'a review of another pull');
    r = await hub.put(`${R}/pulls/7/reviews/72/dismissals`, { message: 'x', event: 'DISMISS' });
    assert.equal(r.status, 422, 'a commented review cannot be dismissed');
  });
});

describe('statuses', () => {
  test('GET /commits/{sha}/statuses: newest first with creators', async () => {
    const r = await hub.get(`${R}/commits/${SHA.h7}/statuses`);
    assert.deepEqual(r.body.map((s) => s.id), [1002, 1001, 1000]);
    assert.equal(r.body[0].creator.login, 'ci-runner[bot]');
    assert.equal(r.body[0].creator.type, 'Bot');
    assert.equal(r.body[1].creator.login, 'mallory');
    assert.equal(r.body[2].description, 'conductor pr=#7: awaiting review round');
    assert.equal(r.body[2].target_url, null);
    assert.deepEqual((await hub.get(`${R}/commits/feature/statuses`)).body.map((s) => s.id), [1002, 1001, 1000]);
    assert.deepEqual((await hub.get(`${R}/commits/${SHA.c1}/statuses`)).body, []);
  });

  test('statuses paginate with Link rel=next and rel=last', async () => {
    const big = bigSnapshot();
    await hub.setState(big);
    const head = big.pulls[0].head.sha;
    const first = await hub.get(`${R}/commits/${head}/statuses?per_page=50`);
    const link = parseLink(first.headers.get('link'));
    assert.equal(new URL(link.last).searchParams.get('page'), '3');
    const { items } = await collect(`${R}/commits/${head}/statuses?per_page=50`);
    assert.equal(items.length, 120);
    const ids = items.map((s) => s.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
  });

  test('GET /commits/{sha}/status combines the newest status per context', async () => {
    const r = await hub.get(`${R}/commits/${SHA.h7}/status`);
    assert.equal(r.body.state, 'failure');
    assert.equal(r.body.total_count, 2);
  });

  test('POST /statuses/{sha}: 201, Location, next id, viewer as creator', async () => {
    const r = await hub.post(`${R}/statuses/${SHA.h7}`, {
      state: 'success', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=true', target_url: 'http://127.0.0.1/run/1',
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('location'), `${hub.base}${R}/statuses/${SHA.h7}`);
    assert.equal(r.body.id, 1501, 'max status id in the whole state + 1');
    assert.equal(r.body.creator.login, 'lfx-reviewer');
    assert.ok(Math.abs(Date.parse(r.body.created_at) - Date.now()) < 5000);
    const list = await hub.get(`${R}/commits/${SHA.h7}/statuses`);
    assert.equal(list.body[0].id, 1501);
    const state = await hub.state();
    assert.deepEqual(state.statuses[SHA.h7].at(-1), {
      id: 1501, state: 'success', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=true',
      creator: 'lfx-reviewer', created_at: r.body.created_at, target_url: 'http://127.0.0.1/run/1',
    });
    const fresh = await hub.post(`${R}/statuses/${SHA.c1}`, { state: 'pending', context: 'x' });
    assert.equal(fresh.status, 201);
    assert.ok((await hub.state()).statuses[SHA.c1]);
  });

  test('POST /statuses/{sha} validation: 140 characters, state, unknown commit', async () => {
    let r = await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'c', description: 'x'.repeat(140) });
    assert.equal(r.status, 201);
    r = await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'c', description: 'x'.repeat(141) });
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].field, 'description');
    r = await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'great', context: 'c' });
    assert.equal(r.status, 422);
    r = await hub.post(`${R}/statuses/${'0'.repeat(40)}`, { state: 'success', context: 'c' });
    assert.equal(r.status, 422);
    assert.match(r.body.message, /No commit found/);
    assert.equal((await hub.post(`${R}/statuses/feature`, { state: 'success', context: 'c' })).status, 422, 'a branch name is not a SHA');
    assert.equal((await hub.post(`${R}/statuses/${SHA.h7.slice(0, 12)}`, { state: 'success', context: 'c' })).status, 422);
    assert.equal((await hub.post(`${R}/statuses/${SHA.h7.toUpperCase()}`, { state: 'success', context: 'c' })).status, 201);
  });
});

describe('compare', () => {
  const cmp = async (basehead) => {
    const r = await hub.get(`${R}/compare/${basehead}`);
    return r.status === 200 ? [r.body.status, r.body.ahead_by, r.body.behind_by] : r.status;
  };

  test('base branch against a pull\'s commits and commits against each other', async () => {
    assert.deepEqual(await cmp(`main...${SHA.h7}`), ['ahead', 3, 0]);
    assert.deepEqual(await cmp(`${SHA.h7}...main`), ['behind', 0, 3]);
    assert.deepEqual(await cmp(`${SHA.c1}...${SHA.h7}`), ['ahead', 2, 0]);
    assert.deepEqual(await cmp(`${SHA.h7}...${SHA.c2}`), ['behind', 0, 1]);
    assert.deepEqual(await cmp(`${SHA.h7}...${SHA.h7}`), ['identical', 0, 0]);
    assert.deepEqual(await cmp(`${SHA.h9}...${SHA.h7}`), ['diverged', 3, 1]);
    assert.deepEqual(await cmp(`main...feature`), ['ahead', 3, 0]);
    assert.deepEqual(await cmp(`${SHA.h7.slice(0, 7)}...${SHA.c1.slice(0, 10)}`), ['behind', 0, 2]);
    assert.equal(await cmp(`main...${'0'.repeat(40)}`), 404);
    assert.equal(await cmp('main..feature'), 404);
  });

  test('the comparison lists the commits ahead', async () => {
    const r = await hub.get(`${R}/compare/main...${SHA.h7}`);
    assert.deepEqual(r.body.commits.map((c) => c.sha), [SHA.c1, SHA.c2, SHA.h7]);
    assert.equal(r.body.total_commits, 3);
  });
});
