// GitHub App authentication: the `app` extension, JWT verification, the
// JWT-only endpoints, installation tokens (issue, expiry, revocation),
// attribution of writes to the App's bot, the request log's `actor`, and
// fakehub's clock.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';

import { SHA, appSnapshot, baseSnapshot, makeJwt, startServer } from '../testkit.mjs';

const R = '/repos/lf/svc';
const APP_ID = 4242;
const SLUG = 'agentic-apply-bot';
const BOT = `${SLUG}[bot]`;
const UNDECODABLE = 'A JSON web token could not be decoded';
const MSG_IAT = "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
const MSG_EXP_PAST = "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
const MSG_EXP_FAR = "'Expiration time' claim ('exp') is too far in the future";

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE = keys.privateKey.export({ type: 'pkcs1', format: 'pem' });
const PUBLIC = keys.publicKey.export({ type: 'spki', format: 'pem' });
const OTHER_PRIVATE = other.privateKey.export({ type: 'pkcs8', format: 'pem' });

const now = () => Math.floor(Date.now() / 1000);
/** A JWT as GitHub's documentation builds it: iat 60 s back, exp 9 minutes ahead. */
const jwt = (claims = {}, options = {}) => makeJwt(options.key ?? PRIVATE, { iat: now() - 60, exp: now() + 540, iss: APP_ID, ...claims }, options);

let hub;
before(async () => { hub = await startServer({ snapshot: appSnapshot(PUBLIC) }); });
after(async () => { await hub.stop(); });
beforeEach(async () => {
  await hub.setState(appSnapshot(PUBLIC));
  await hub.clearLog();
});
afterEach(async () => { await hub.post('/_fakehub/clock', { offset_s: 0 }, { token: null }); });

/** An installation token, freshly exchanged. */
async function installationToken() {
  const r = await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.token;
}

describe('the app snapshot extension', () => {
  test('a malformed app is refused naming the field', async () => {
    const cases = [
      [{ id: 'x' }, /^app\.id:/],
      [{ slug: 'no spaces' }, /^app\.slug:/],
      [{ public_key: 'not a pem' }, /^app\.public_key:/],
      [{ public_key: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n' }, /^app\.public_key:/],
      [{ installation_id: 0 }, /^app\.installation_id:/],
      [{ token_ttl_s: -1 }, /^app\.token_ttl_s:/],
      [{ public_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }) }, /^app\.public_key: expected an RSA key/],
    ];
    for (const [change, pattern] of cases) {
      const snap = appSnapshot(PUBLIC);
      Object.assign(snap.app, change);
      const r = await hub.post('/_fakehub/state', snap, { token: null });
      assert.equal(r.status, 400, JSON.stringify(change));
      assert.match(r.body.message, pattern);
    }
  });

  test('the state shows the app as given', async () => {
    assert.deepEqual((await hub.state()).app, appSnapshot(PUBLIC).app);
  });
});

describe('JWT verification (GET /app)', () => {
  test('a good JWT reads the App: id, slug, name, client_id', async () => {
    const r = await hub.get('/app', { token: jwt() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, APP_ID);
    assert.equal(r.body.slug, SLUG);
    assert.equal(typeof r.body.name, 'string');
    assert.match(r.body.client_id, /^Iv1\./);
    assert.equal(r.body.owner.login, 'lf');
    assert.equal(r.body.installations_count, 1);
    for (const key of ['node_id', 'description', 'external_url', 'html_url', 'created_at', 'updated_at', 'permissions', 'events']) {
      assert.ok(key in r.body, `integration.${key}`);
    }
  });

  test('iss may be the id as a number, as its decimal string, or the client id', async () => {
    const { body } = await hub.get('/app', { token: jwt() });
    for (const iss of [APP_ID, String(APP_ID), body.client_id]) {
      assert.equal((await hub.get('/app', { token: jwt({ iss }) })).status, 200, `iss ${JSON.stringify(iss)}`);
    }
  });

  test('a private key PEM as public_key works too (its public half is used)', async () => {
    const snap = appSnapshot(PUBLIC);
    snap.app.public_key = PRIVATE;
    await hub.setState(snap);
    assert.equal((await hub.get('/app', { token: jwt() })).status, 200);
  });

  test('a signature by another key is 401 with GitHub\'s message and error shape', async () => {
    const r = await hub.get('/app', { token: jwt({}, { key: OTHER_PRIVATE }) });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, UNDECODABLE);
    assert.equal(r.body.status, '401');
    assert.equal(typeof r.body.documentation_url, 'string');
  });

  test('a tampered claim set fails the signature', async () => {
    const good = jwt();
    const [h, , s] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ iat: now() - 60, exp: now() + 300, iss: APP_ID, extra: 1 })).toString('base64url');
    const r = await hub.get('/app', { token: `${h}.${forged}.${s}` });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, UNDECODABLE);
  });

  test('a wrong iss is 401 (no key to verify with)', async () => {
    for (const iss of [4243, '4243', 'Iv1.nope', null, undefined]) {
      const r = await hub.get('/app', { token: jwt({ iss }) });
      assert.equal(r.status, 401, `iss ${JSON.stringify(iss)}`);
      assert.equal(r.body.message, UNDECODABLE);
    }
  });

  test('alg other than RS256, an unsigned token, garbage: 401', async () => {
    const tokens = [
      jwt({}, { header: { alg: 'HS256', typ: 'JWT' } }),
      jwt({}, { header: { alg: 'none', typ: 'JWT' } }).split('.').slice(0, 2).join('.') + '.',
      jwt({}, { header: { alg: 'RS256', typ: 'JWS' } }),
      'e30.e30.e30',
      'bm90IGpzb24.bm90IGpzb24.c2ln',
    ];
    for (const token of tokens) {
      const r = await hub.get('/app', { token });
      assert.equal(r.status, 401, token);
      assert.equal(r.body.message, UNDECODABLE, token);
    }
  });

  test('an expired JWT is 401', async () => {
    for (const exp of [now() - 1, now() - 3600]) {
      const r = await hub.get('/app', { token: jwt({ iat: exp - 300, exp }) });
      assert.equal(r.status, 401);
      assert.equal(r.body.message, MSG_EXP_PAST);
    }
    const r = await hub.get('/app', { token: jwt({ exp: String(now() + 60) }) });
    assert.equal(r.body.message, MSG_EXP_PAST, 'exp must be a number');
  });

  test('exp more than 10 minutes ahead is 401; exactly 10 minutes, and GitHub\'s own example, are accepted', async () => {
    let r = await hub.get('/app', { token: jwt({ iat: now(), exp: now() + 700 }) });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, MSG_EXP_FAR);
    r = await hub.get('/app', { token: jwt({ iat: now() - 600, exp: now() + 605 }) });
    assert.equal(r.body.message, MSG_EXP_FAR);
    assert.equal((await hub.get('/app', { token: jwt({ iat: now(), exp: now() + 599 }) })).status, 200);
    // GitHub's documented Ruby example: iat = now - 60, exp = now + 10 minutes.
    assert.equal((await hub.get('/app', { token: jwt({ iat: now() - 60, exp: now() + 599 }) })).status, 200);
  });

  test('iat up to 60 s in the future is tolerated (clock skew); further, or not an integer, is 401', async () => {
    assert.equal((await hub.get('/app', { token: jwt({ iat: now() + 45, exp: now() + 500 }) })).status, 200);
    for (const iat of [now() + 90, now() + 3600, String(now()), now() - 60.5, undefined]) {
      const r = await hub.get('/app', { token: jwt({ iat, exp: now() + 500 }) });
      assert.equal(r.status, 401, `iat ${JSON.stringify(iat)}`);
      assert.equal(r.body.message, MSG_IAT);
    }
  });

  test('a JWT must be sent as Bearer (the `token` scheme is 401 Bad credentials)', async () => {
    const r = await hub.get('/app', { token: null, headers: { authorization: `token ${jwt()}` } });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, 'Bad credentials');
  });

  test('without an app in the state every JWT is refused', async () => {
    await hub.setState(baseSnapshot());
    const r = await hub.get('/app', { token: jwt() });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, UNDECODABLE);
  });
});

describe('which credential each endpoint takes', () => {
  test('a JWT on a non-App endpoint is 401 and writes nothing', async () => {
    const token = jwt();
    const before = await hub.state();
    const tries = [
      ['GET', '/user'],
      ['GET', `${R}/pulls`],
      ['GET', `${R}/pulls/7/reviews`],
      ['POST', `${R}/statuses/${SHA.h7}`, { state: 'success', context: 'x' }],
      ['POST', `${R}/issues/7/labels`, { labels: ['bug'] }],
      ['POST', `${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE' }],
      ['GET', '/nothing/here'],
    ];
    for (const [method, path, body] of tries) {
      const r = await hub.api(method, path, { token, body });
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.equal(r.body.message, UNDECODABLE);
    }
    const g = await hub.gql('{ viewer { login } }', {}, { token });
    assert.equal(g.status, 401);
    assert.deepEqual(await hub.state(), before);
  });

  test('a user token or an installation token on a JWT-only endpoint is 401', async () => {
    const inst = await installationToken();
    for (const token of ['ghp_userToken', inst]) {
      for (const [method, path] of [['GET', '/app'], ['GET', `${R}/installation`], ['POST', '/app/installations/777/access_tokens'], ['GET', '/app/installations']]) {
        const r = await hub.api(method, path, { token });
        assert.equal(r.status, 401, `${method} ${path} with ${token === inst ? 'an installation token' : 'a user token'}`);
        assert.equal(r.body.message, UNDECODABLE);
      }
    }
  });
});

describe('installations and installation tokens', () => {
  test('GET /repos/{o}/{r}/installation finds the installation; another repository is 404', async () => {
    const r = await hub.get(`${R}/installation`, { token: jwt() });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, 777);
    assert.equal(r.body.app_id, APP_ID);
    assert.equal(r.body.app_slug, SLUG);
    assert.equal(r.body.account.login, 'lf');
    assert.equal(r.body.access_tokens_url, `${hub.base}/app/installations/777/access_tokens`);
    assert.equal((await hub.get('/repos/lf/other/installation', { token: jwt() })).status, 404);
    assert.equal((await hub.get('/app/installations/777', { token: jwt() })).body.id, 777);
    assert.deepEqual((await hub.get('/app/installations', { token: jwt() })).body.map((i) => i.id), [777]);
  });

  test('without installation_id the App is installed under an id of its own', async () => {
    const snap = appSnapshot(PUBLIC);
    delete snap.app.installation_id;
    await hub.setState(snap);
    const r = await hub.get(`${R}/installation`, { token: jwt() });
    assert.equal(r.status, 200);
    assert.ok(Number.isInteger(r.body.id) && r.body.id > 0);
    assert.equal((await hub.post(`/app/installations/${r.body.id}/access_tokens`, undefined, { token: jwt() })).status, 201);
  });

  test('installation_id null: the App is not installed (lookup and exchange are 404)', async () => {
    const snap = appSnapshot(PUBLIC);
    snap.app.installation_id = null;
    await hub.setState(snap);
    assert.equal((await hub.get(`${R}/installation`, { token: jwt() })).status, 404);
    assert.equal((await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() })).status, 404);
    assert.equal((await hub.get('/app', { token: jwt() })).body.installations_count, 0);
  });

  test('POST access_tokens: 201 {token, expires_at one hour ahead, permissions, repository_selection}', async () => {
    const t0 = Date.now();
    const r = await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() });
    assert.equal(r.status, 201);
    assert.match(r.body.token, /^ghs_[A-Za-z0-9]{36}$/);
    const ttl = (Date.parse(r.body.expires_at) - t0) / 1000;
    assert.ok(ttl > 3598 && ttl <= 3600, `expires in ${ttl} s`);
    assert.match(r.body.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(r.body.repository_selection, 'all');
    assert.equal(r.body.permissions.statuses, 'write');
    const again = await hub.post('/app/installations/777/access_tokens', {}, { token: jwt() });
    assert.notEqual(again.body.token, r.body.token, 'tokens are random');
    assert.equal((await hub.post('/app/installations/778/access_tokens', undefined, { token: jwt() })).status, 404, 'another installation');
  });

  test('POST access_tokens narrowed to the repository and to fewer permissions; more is 422', async () => {
    let r = await hub.post('/app/installations/777/access_tokens', { repositories: ['svc'], permissions: { statuses: 'write', metadata: 'read' } }, { token: jwt() });
    assert.equal(r.status, 201);
    assert.equal(r.body.repository_selection, 'selected');
    assert.deepEqual(r.body.repositories.map((x) => x.full_name), ['lf/svc']);
    assert.deepEqual(r.body.permissions, { statuses: 'write', metadata: 'read' });
    r = await hub.post('/app/installations/777/access_tokens', { repositories: ['elsewhere'] }, { token: jwt() });
    assert.equal(r.status, 422);
    r = await hub.post('/app/installations/777/access_tokens', { permissions: { administration: 'write' } }, { token: jwt() });
    assert.equal(r.status, 422);
    r = await hub.post('/app/installations/777/access_tokens', '{oops', { token: jwt() });
    assert.equal(r.status, 400);
  });

  test('an installation token reads REST and GraphQL like any token', async () => {
    const token = await installationToken();
    assert.equal((await hub.get(`${R}/pulls/7`, { token })).status, 200);
    const g = await hub.gql('{ repository(owner: "lf", name: "svc") { pullRequest(number: 7) { number } } }', {}, { token });
    assert.equal(g.body.data.repository.pullRequest.number, 7);
    const alsoTokenScheme = await hub.get(`${R}/pulls/7`, { token: null, headers: { authorization: `token ${token}` } });
    assert.equal(alsoTokenScheme.status, 200);
  });

  test('GET /user with an installation token is 403; the GraphQL viewer is the bot', async () => {
    const token = await installationToken();
    const r = await hub.get('/user', { token });
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'Resource not accessible by integration');
    const g = await hub.gql('{ viewer { login } }', {}, { token });
    assert.equal(g.body.data.viewer.login, BOT);
  });

  test('an expired installation token is 401 Bad credentials (token_ttl_s: 2)', async () => {
    const snap = appSnapshot(PUBLIC);
    snap.app.token_ttl_s = 2;
    await hub.setState(snap);
    const t0 = Date.now();
    const r = await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() });
    const ttl = (Date.parse(r.body.expires_at) - t0) / 1000;
    assert.ok(ttl > 0 && ttl <= 3, `expires in ${ttl} s`);
    assert.equal((await hub.get(`${R}/pulls/7`, { token: r.body.token })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await hub.get(`${R}/pulls/7`, { token: r.body.token });
    assert.equal(late.status, 401);
    assert.equal(late.body.message, 'Bad credentials');
    assert.equal((await hub.gql('{ viewer { login } }', {}, { token: r.body.token })).status, 401);
  });

  test('an unknown installation token is 401; other tokens stay user tokens', async () => {
    const r = await hub.get(`${R}/pulls/7`, { token: `ghs_fh${'A'.repeat(34)}` });
    assert.equal(r.status, 401);
    assert.equal(r.body.message, 'Bad credentials');
    assert.equal((await hub.get('/user', { token: 'ghs_downloadTokenForTheApiOnly0123456789' })).status, 200);
  });

  test('tokens survive a state load (like the log); a revoked token is 401', async () => {
    const token = await installationToken();
    await hub.setState(appSnapshot(PUBLIC));
    assert.equal((await hub.get(`${R}/pulls/7`, { token })).status, 200);
    assert.equal((await hub.api('DELETE', '/installation/token', { token: 'ghp_user' })).status, 403, 'only an installation token revokes itself');
    assert.equal((await hub.api('DELETE', '/installation/token', { token })).status, 204);
    assert.equal((await hub.get(`${R}/pulls/7`, { token })).status, 401);
  });
});

describe('attribution', () => {
  test('statuses and labels written with an installation token are the bot\'s', async () => {
    const token = await installationToken();
    const s = await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'agentic-review/clean', description: 'd' }, { token });
    assert.equal(s.status, 201);
    assert.equal(s.body.creator.login, BOT);
    assert.equal(s.body.creator.type, 'Bot');
    const l = await hub.post(`${R}/issues/7/labels`, { labels: ['bug'] }, { token });
    assert.equal(l.status, 200);
    await hub.api('DELETE', `${R}/issues/7/labels/bug`, { token });
    const state = await hub.state();
    assert.equal(state.statuses[SHA.h7].at(-1).creator, BOT);
    const events = state.pulls[0].timeline.slice(-2);
    assert.deepEqual(events.map((e) => [e.event, e.actor]), [['labeled', BOT], ['unlabeled', BOT]]);
    const g = await hub.gql(`{ repository(owner: "lf", name: "svc") { object(oid: "${SHA.h7}") { ... on Commit { status { context(name: "agentic-review/clean") { creator { login __typename } } } } } } }`, {}, { token });
    assert.deepEqual(g.body.data.repository.object.status.context.creator, { login: SLUG, __typename: 'Bot' }, 'GraphQL names a bot without its [bot] suffix');
  });

  test('the same writes with a user token are the viewer\'s, unmarked', async () => {
    await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'c' });
    await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE' });
    await hub.put(`${R}/pulls/7/reviews/71/dismissals`, { message: 'stale', event: 'DISMISS' });
    const state = await hub.state();
    assert.equal(state.statuses[SHA.h7].at(-1).creator, 'lfx-reviewer');
    const reviews = state.pulls[0].reviews;
    assert.equal(reviews.at(-1).author, 'lfx-reviewer');
    assert.ok(!reviews.some((r) => 'by_app' in r || 'dismissed_by_app' in r));
  });

  test('approvals and dismissals with an installation token are applied, and marked', async () => {
    const token = await installationToken();
    const a = await hub.post(`${R}/pulls/7/reviews`, { commit_id: SHA.h7, event: 'APPROVE' }, { token });
    assert.equal(a.status, 200);
    assert.equal(a.body.user.login, BOT);
    const d = await hub.put(`${R}/pulls/7/reviews/71/dismissals`, { message: 'stale', event: 'DISMISS' }, { token });
    assert.equal(d.status, 200);
    const pull = (await hub.state()).pulls[0];
    const approval = pull.reviews.find((r) => r.id === a.body.id);
    assert.equal(approval.author, BOT);
    assert.equal(approval.by_app, true);
    const dismissed = pull.reviews.find((r) => r.id === 71);
    assert.equal(dismissed.state, 'DISMISSED');
    assert.equal(dismissed.dismissed_by_app, true);
    assert.equal(pull.timeline.at(-1).event, 'review_dismissed');
    assert.equal(pull.timeline.at(-1).actor, BOT);
  });
});

describe('the request log', () => {
  test('actor is jwt, app or user; JWT claims and token numbers are shown, never a secret', async () => {
    const j = jwt();
    const issued = await hub.post('/app/installations/777/access_tokens', undefined, { token: j });
    const token = issued.body.token;
    await hub.get(`${R}/pulls/7`, { token });
    await hub.gql('{ viewer { login } }', {}, { token });
    await hub.get('/user');
    await hub.get('/user', { token: null });
    await hub.get('/app', { token: jwt({}, { key: OTHER_PRIVATE }) });
    const log = await hub.log();
    assert.deepEqual(log.map((e) => e.actor), ['jwt', 'app', 'app', 'user', null, 'jwt']);
    assert.deepEqual(Object.keys(log[0].jwt).sort(), ['exp', 'iat', 'iss']);
    assert.equal(log[0].jwt.iss, APP_ID);
    assert.equal(log[0].issued_token.n, log[1].app_token.n);
    assert.equal(log[0].issued_token.expires_at, issued.body.expires_at);
    assert.ok(log[1].app_token.remaining_s > 3590 && log[1].app_token.remaining_s <= 3600);
    assert.equal(log[5].status, 401);
    const text = JSON.stringify(log);
    assert.ok(!text.includes(token) && !text.includes(j.split('.')[2]), 'no token or signature in the log');
    const withHeaders = (await hub.get('/_fakehub/log?headers=1', { token: null })).body;
    assert.equal(withHeaders[1].headers.authorization, `Bearer ${token}`, 'headers=1 still shows where a token went');
  });
});

describe('faults on the App endpoints', () => {
  test('read app, read installation, write access_token', async () => {
    await hub.setFaults([{ read: 'app', status: 502, times: 1 }, { read: 'installation', status: 404 }, { write: 'access_token', status: 500, times: 1 }]);
    assert.equal((await hub.get('/app', { token: jwt() })).status, 502);
    assert.equal((await hub.get('/app', { token: jwt() })).status, 200);
    assert.equal((await hub.get(`${R}/installation`, { token: jwt() })).status, 404);
    assert.equal((await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() })).status, 500);
    assert.equal((await hub.post('/app/installations/777/access_tokens', undefined, { token: jwt() })).status, 201);
    assert.equal((await hub.post('/_fakehub/faults', [{ read: 'apps', status: 500 }], { token: null })).status, 400);
  });
});

describe('fakehub\'s clock', () => {
  test('GET/POST /_fakehub/clock move the time fakehub checks and reports', async () => {
    let r = await hub.get('/_fakehub/clock', { token: null });
    assert.equal(r.body.offset_s, 0);
    r = await hub.post('/_fakehub/clock', { advance_s: 120 }, { token: null });
    assert.equal(r.body.offset_s, 120);
    r = await hub.post('/_fakehub/clock', { advance_s: 30 }, { token: null });
    assert.equal(r.body.offset_s, 150);
    assert.ok(Math.abs(Date.parse(r.body.now) - (Date.now() + 150000)) < 2000);
    const api = await hub.get(`${R}/pulls/7`);
    assert.ok(Math.abs(Date.parse(api.headers.get('date')) - (Date.now() + 150000)) < 2000, 'the Date header follows the clock');
    assert.equal((await hub.post('/_fakehub/clock', { offset_s: 'x' }, { token: null })).status, 400);
    assert.equal((await hub.post('/_fakehub/clock', {}, { token: null })).status, 400);
    r = await hub.post('/_fakehub/clock', { offset_s: 0 }, { token: null });
    assert.equal(r.body.offset_s, 0);
  });

  test('an installation token expires when the clock passes expires_at', async () => {
    const token = await installationToken();
    await hub.post('/_fakehub/clock', { advance_s: 3598 }, { token: null });
    const ok = await hub.get(`${R}/pulls/7`, { token });
    assert.equal(ok.status, 200);
    assert.ok((await hub.log()).at(-1).app_token.remaining_s <= 2);
    await hub.post('/_fakehub/clock', { advance_s: 3 }, { token: null });
    assert.equal((await hub.get(`${R}/pulls/7`, { token })).status, 401);
  });

  test('JWTs are judged by the clock (client clocks behind or ahead of fakehub\'s)', async () => {
    await hub.post('/_fakehub/clock', { offset_s: 600 }, { token: null });
    const behind = await hub.get('/app', { token: jwt() });
    assert.equal(behind.status, 401, 'a client 10 minutes behind signs a JWT that has already expired');
    assert.equal(behind.body.message, MSG_EXP_PAST);
    await hub.post('/_fakehub/clock', { offset_s: -200 }, { token: null });
    const ahead = await hub.get('/app', { token: jwt() });
    assert.equal(ahead.status, 401, 'a client 200 s ahead: iat lies 140 s in fakehub\'s future');
    assert.equal(ahead.body.message, MSG_IAT);
    await hub.post('/_fakehub/clock', { offset_s: -30 }, { token: null });
    assert.equal((await hub.get('/app', { token: jwt() })).status, 200, 'a client 30 s ahead is within the skew');
  });

  test('writes are stamped with the clock\'s time', async () => {
    await hub.post('/_fakehub/clock', { offset_s: 86400 }, { token: null });
    const s = await hub.post(`${R}/statuses/${SHA.h7}`, { state: 'success', context: 'c' });
    assert.ok(Math.abs(Date.parse(s.body.created_at) - (Date.now() + 86400000)) < 3000);
  });
});
