// What `agentic-apply doctor` reads (docs/actions.md, Doctor): the setup
// endpoints of lib/setup.mjs, each answer checked against GitHub's OpenAPI
// description (@octokit/openapi, with ajv from tests/peers), and what they
// say: the rules of a branch (also of one that does not exist yet), the
// classic protection for an admin only, a file at a ref, a team and a
// membership, an environment and its branch policies, the role, the
// token's headers, and the setup fault kinds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { startServer } from '../testkit.mjs';

const R = '/repos/octo/svc';

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
  repo: ['get', '/repos/{owner}/{repo}'],
  rules: ['get', '/repos/{owner}/{repo}/rules/branches/{branch}'],
  branches: ['get', '/repos/{owner}/{repo}/branches'],
  branch: ['get', '/repos/{owner}/{repo}/branches/{branch}'],
  protection: ['get', '/repos/{owner}/{repo}/branches/{branch}/protection'],
  contents: ['get', '/repos/{owner}/{repo}/contents/{path}'],
  team: ['get', '/orgs/{org}/teams/{team_slug}'],
  membership: ['get', '/orgs/{org}/teams/{team_slug}/memberships/{username}'],
  environment: ['get', '/repos/{owner}/{repo}/environments/{environment_name}'],
  policies: ['get', '/repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies'],
  user: ['get', '/user'],
};
const check = (op, res) => conforms(...OP[op], res);

function setupSnapshot() {
  const s = JSON.parse(readFileSync(new URL('../../../fixtures/doctor/01-all-ok.json', import.meta.url), 'utf8'));
  s.branches = ['main', 'release/1.0'];
  s.permission = 'admin';
  s.protection = {
    main: {
      required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true, require_last_push_approval: true },
      required_status_checks: { strict: true, contexts: ['agentic-review/clean'] },
    },
  };
  s.token = { kind: 'classic', scopes: 'repo, workflow', expires_at: '2027-03-01T00:00:00Z' };
  return s;
}

describe('fakehub: the setup endpoints doctor reads', () => {
  let hub;
  before(async () => { hub = await startServer({ snapshot: setupSnapshot() }); });
  after(async () => { await hub?.stop(); });

  test('the repository carries the role as permissions', async () => {
    const res = await hub.get(R);
    check('repo', res);
    assert.equal(res.body.permissions.admin, true);
    assert.equal(res.body.permissions.push, true);
  });

  test('rules of a branch, also of one that does not exist yet', async () => {
    const res = await hub.get(`${R}/rules/branches/main`);
    check('rules', res);
    assert.deepEqual(res.body.map((r) => r.type), ['pull_request', 'required_status_checks']);
    assert.equal(res.body[0].parameters.dismiss_stale_reviews_on_push, true);
    const none = await hub.get(`${R}/rules/branches/${encodeURIComponent('release/9')}`);
    check('rules', none);
    assert.deepEqual(none.body, []);
  });

  test('branches, one branch, its protection (admin only)', async () => {
    const list = await hub.get(`${R}/branches?per_page=100`);
    check('branches', list);
    assert.deepEqual(list.body.map((b) => [b.name, b.protected]), [['main', true], ['release/1.0', false]]);
    const one = await hub.get(`${R}/branches/${encodeURIComponent('release/1.0')}`);
    check('branch', one);
    assert.equal(one.body.protected, false);
    const p = await hub.get(`${R}/branches/main/protection`);
    check('protection', p);
    assert.equal(p.body.required_pull_request_reviews.dismiss_stale_reviews, true);
    assert.deepEqual(p.body.required_status_checks.contexts, ['agentic-review/clean']);
    const unprotected = await hub.get(`${R}/branches/${encodeURIComponent('release/1.0')}/protection`);
    check('protection', unprotected);
    assert.equal(unprotected.status, 404);
    assert.equal((await hub.get(`${R}/branches/nope`)).status, 404);
  });

  test('a non-admin may not read a protection: 403', async () => {
    const s = setupSnapshot();
    s.permission = 'write';
    await hub.post('/_fakehub/state', s, { token: null });
    const res = await hub.get(`${R}/branches/main/protection`);
    assert.equal(res.status, 403);
    assert.match(res.body.message, /admin rights/);
    await hub.post('/_fakehub/state', setupSnapshot(), { token: null });
  });

  test('a file at a ref, base64 as GitHub sends it; 404 when absent', async () => {
    const res = await hub.get(`${R}/contents/.github/CODEOWNERS?ref=main`);
    check('contents', res);
    assert.equal(Buffer.from(res.body.content, 'base64').toString('utf8'), setupSnapshot().contents['.github/CODEOWNERS']);
    const gone = await hub.get(`${R}/contents/CODEOWNERS?ref=main`);
    check('contents', gone);
    assert.equal(gone.status, 404);
  });

  test('a team and a membership (404: not in it)', async () => {
    const t = await hub.get('/orgs/octo/teams/maintainers');
    check('team', t);
    const m = await hub.get('/orgs/octo/teams/maintainers/memberships/alice');
    check('membership', m);
    assert.equal(m.body.state, 'active');
    const no = await hub.get('/orgs/octo/teams/maintainers/memberships/lfx-reviewer');
    // The description documents this 404 without a body; GitHub sends its usual Not Found.
    assert.equal(no.status, 404);
    assert.equal((await hub.get('/orgs/octo/teams/ghosts')).status, 404);
  });

  test('an environment and its deployment branch policies', async () => {
    const e = await hub.get(`${R}/environments/agentic`);
    check('environment', e);
    assert.deepEqual(e.body.deployment_branch_policy, { protected_branches: false, custom_branch_policies: true });
    const p = await hub.get(`${R}/environments/agentic/deployment-branch-policies?per_page=100`);
    check('policies', p);
    assert.deepEqual(p.body.branch_policies.map((x) => [x.name, x.type]), [['main', 'branch']]);
    assert.equal((await hub.get(`${R}/environments/other`)).status, 404);
  });

  test('GET /user: scopes for a classic token only, the expiry for any', async () => {
    const classic = await hub.get('/user', { token: 'ghp_0000000000000000000000000000000000000' });
    check('user', classic);
    assert.equal(classic.headers.get('x-oauth-scopes'), 'repo, workflow');
    assert.equal(classic.headers.get('github-authentication-token-expiration'), '2027-03-01 00:00:00 UTC');
    const fine = await hub.get('/user', { token: 'github_pat_0000' });
    assert.equal(fine.headers.get('x-oauth-scopes'), null);
  });

  test('the setup fault kinds', async () => {
    await hub.post('/_fakehub/faults', [{ read: 'rules', status: 403 }, { read: 'teams', status: 500 }], { token: null });
    assert.equal((await hub.get(`${R}/rules/branches/main`)).status, 403);
    assert.equal((await hub.get('/orgs/octo/teams/maintainers')).status, 500);
    await hub.post('/_fakehub/faults', [], { token: null });
    assert.equal((await hub.get(`${R}/rules/branches/main`)).status, 200);
  });
});
