// What `agentic-apply doctor` reads (docs/actions.md, Doctor): the active
// rules of a branch, the branches and their classic protection, a file at a
// ref (CODEOWNERS), a team and a membership, the token (GET /user's
// X-OAuth-Scopes and expiry headers), an environment and its deployment
// branch policies, the account's role on the repository. Served from the
// snapshot's setup fields (docs/snapshot.md, The repository's setup), read
// the way src/port/world_setup.c reads them offline, so a doctor fixture
// gives the same verdicts replayed and live. Every answer is checked against
// GitHub's OpenAPI description (test/setup.test.mjs).
import { fakeSha, nodeId, stableInt } from './util.mjs';

const CREATED = '2020-01-01T00:00:00Z';

/** The repository role's permissions object (GitHub's `permissions` of a repository). */
export function rolePermissions(role = 'write') {
  const rank = { read: 0, triage: 1, write: 2, maintain: 3, admin: 4 }[role] ?? 2;
  return { admin: rank >= 4, maintain: rank >= 3, push: rank >= 2, triage: rank >= 1, pull: true };
}

/** The snapshot's branches, or the default branch, the pulls' bases and the branches the rules and protections name, sorted. */
export function branchNames(state) {
  const d = state.data;
  const names = new Set();
  if (Array.isArray(d.branches)) {
    d.branches.forEach((b) => names.add(b));
  } else {
    names.add(state.defaultBranch);
    state.pulls.forEach((p) => names.add(state.baseRef(p)));
    Object.keys(d.rules ?? {}).forEach((b) => names.add(b));
    Object.keys(d.protection ?? {}).forEach((b) => names.add(b));
  }
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** GitHub's X-OAuth-Scopes and github-authentication-token-expiration for the request's token. */
export function tokenHeaders(state, token) {
  const headers = {};
  const t = state.data.token ?? {};
  if (/^(ghp_|gho_)/.test(token ?? '')) headers['x-oauth-scopes'] = t.scopes ?? 'repo';
  if (t.expires_at) headers['github-authentication-token-expiration'] = t.expires_at.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
  return headers;
}

function ruleDetailed(state, rule, i) {
  return {
    ...rule,
    ruleset_source_type: 'Repository',
    ruleset_source: state.fullName,
    ruleset_id: stableInt(`ruleset:${state.fullName.toLowerCase()}:${i}`, 10000),
  };
}

function protectionShape(shapes, branch, p) {
  const url = `${shapes.repoApi}/branches/${encodeURIComponent(branch)}/protection`;
  const out = { url, enabled: true };
  if (p.required_pull_request_reviews) {
    const r = p.required_pull_request_reviews;
    out.required_pull_request_reviews = {
      url: `${url}/required_pull_request_reviews`,
      dismiss_stale_reviews: r.dismiss_stale_reviews ?? false,
      require_code_owner_reviews: r.require_code_owner_reviews ?? false,
      required_approving_review_count: r.required_approving_review_count ?? 0,
      require_last_push_approval: r.require_last_push_approval ?? false,
    };
  }
  if (p.required_status_checks) {
    const contexts = p.required_status_checks.contexts ?? [];
    out.required_status_checks = {
      url: `${url}/required_status_checks`,
      strict: p.required_status_checks.strict ?? false,
      contexts,
      checks: contexts.map((context) => ({ context, app_id: null })),
      contexts_url: `${url}/required_status_checks/contexts`,
    };
  }
  return out;
}

function teamShape(shapes, org, slug) {
  const api = `${shapes.base}/orgs/${encodeURIComponent(org)}`;
  const id = stableInt(`team:${org.toLowerCase()}/${slug.toLowerCase()}`, 100000);
  const orgId = stableInt(`org:${org.toLowerCase()}`, 100000);
  return {
    id,
    node_id: nodeId('T', `${org}/${slug}`.toLowerCase()),
    url: `${shapes.base}/organizations/${orgId}/team/${id}`,
    html_url: `${shapes.base}/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(slug)}`,
    name: slug,
    slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'pull',
    members_url: `${shapes.base}/organizations/${orgId}/team/${id}/members{/member}`,
    repositories_url: `${shapes.base}/organizations/${orgId}/team/${id}/repos`,
    parent: null,
    members_count: 0,
    repos_count: 0,
    created_at: CREATED,
    updated_at: CREATED,
    type: 'organization',
    organization: {
      login: org,
      id: orgId,
      node_id: nodeId('O', org.toLowerCase()),
      url: api,
      repos_url: `${api}/repos`,
      events_url: `${api}/events`,
      hooks_url: `${api}/hooks`,
      issues_url: `${api}/issues`,
      members_url: `${api}/members{/member}`,
      public_members_url: `${api}/public_members{/member}`,
      avatar_url: `${shapes.base}/avatars/o/${orgId}?v=4`,
      description: null,
      html_url: `${shapes.base}/${encodeURIComponent(org)}`,
      has_organization_projects: true,
      has_repository_projects: true,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      type: 'Organization',
      created_at: CREATED,
      updated_at: CREATED,
      archived_at: null,
    },
  };
}

function environmentShape(shapes, name, env) {
  const id = stableInt(`env:${shapes.state.fullName.toLowerCase()}:${name}`, 1000000);
  return {
    id,
    node_id: nodeId('EN', `${shapes.state.fullName}:${name}`.toLowerCase()),
    name,
    url: `${shapes.repoApi}/environments/${encodeURIComponent(name)}`,
    html_url: `${shapes.repoHtml}/deployments/activity_log?environments_filter=${encodeURIComponent(name)}`,
    created_at: CREATED,
    updated_at: CREATED,
    protection_rules: [],
    deployment_branch_policy: env.deployment_branch_policy ?? null,
  };
}

function fileShape(shapes, path, text, ref) {
  const content = Buffer.from(text, 'utf8').toString('base64').replace(/(.{60})/g, '$1\n');
  const sha = fakeSha(`blob:${path}:${text}`);
  const url = `${shapes.repoApi}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const html = `${shapes.repoHtml}/blob/${encodeURIComponent(ref)}/${path}`;
  const git = `${shapes.repoApi}/git/blobs/${sha}`;
  return {
    type: 'file',
    encoding: 'base64',
    size: Buffer.byteLength(text, 'utf8'),
    name: path.split('/').pop(),
    path,
    content,
    sha,
    url,
    git_url: git,
    html_url: html,
    download_url: `${shapes.base}/raw/${shapes.state.fullName}/${encodeURIComponent(ref)}/${path}`,
    _links: { self: url, git, html },
  };
}

/**
 * Registers the routes. `h`: rest.mjs's { route, repoRoute, json, notFound,
 * paged }. Faults: `repository`, `branches` (the list, one branch, its
 * protection), `rules`, `contents`, `teams`, `environments` — the read kinds
 * the offline port checks.
 */
export function registerSetup(h) {
  const { route, repoRoute, json, notFound, paged } = h;
  const role = (ctx) => ctx.state.data.permission ?? 'write';

  repoRoute('GET', '/branches', (ctx) => {
    ctx.gate.gate({ read: 'branches' });
    return paged(ctx, branchNames(ctx.state), (name) => ({
      name,
      commit: { sha: ctx.state.branchRootSha(name), url: `${ctx.shapes.repoApi}/commits/${ctx.state.branchRootSha(name)}` },
      protected: Object.hasOwn(ctx.state.data.protection ?? {}, name),
    }));
  });

  repoRoute('GET', '/branches/:branch+/protection', (ctx) => {
    ctx.gate.gate({ read: 'branches' });
    const branch = ctx.params.branch;
    if (!branchNames(ctx.state).includes(branch)) return notFound(ctx);
    if (role(ctx) !== 'admin') return json(403, ctx.shapes.error(403, 'Must have admin rights to Repository.'));
    const p = ctx.state.data.protection?.[branch];
    if (!p) return json(404, ctx.shapes.error(404, 'Branch not protected'));
    return json(200, protectionShape(ctx.shapes, branch, p));
  });

  repoRoute('GET', '/branches/:branch+', (ctx) => {
    ctx.gate.gate({ read: 'branches' });
    const branch = ctx.params.branch;
    if (!branchNames(ctx.state).includes(branch)) return json(404, ctx.shapes.error(404, 'Branch not found'));
    const isProtected = Object.hasOwn(ctx.state.data.protection ?? {}, branch);
    const url = `${ctx.shapes.repoApi}/branches/${encodeURIComponent(branch)}`;
    return json(200, {
      name: branch,
      commit: ctx.shapes.commit(ctx.state.branchRootSha(branch)),
      _links: { html: `${ctx.shapes.repoHtml}/tree/${encodeURIComponent(branch)}`, self: url },
      protected: isProtected,
      protection: { enabled: isProtected, required_status_checks: { enforcement_level: isProtected ? 'non_admins' : 'off', contexts: [], checks: [] } },
      protection_url: `${url}/protection`,
    });
  });

  // GitHub lists the rules that would apply, even for a branch that does not exist yet.
  repoRoute('GET', '/rules/branches/:branch+', (ctx) => {
    ctx.gate.gate({ read: 'rules' });
    const rules = (ctx.state.data.rules ?? {})[ctx.params.branch] ?? [];
    return paged(ctx, rules.map((r, i) => ({ r, i })), ({ r, i }) => ruleDetailed(ctx.state, r, i));
  });

  // The snapshot's files are the same on every ref.
  repoRoute('GET', '/contents/:path+', (ctx) => {
    ctx.gate.gate({ read: 'contents' });
    const text = (ctx.state.data.contents ?? {})[ctx.params.path];
    if (typeof text !== 'string') return notFound(ctx);
    return json(200, fileShape(ctx.shapes, ctx.params.path, text, ctx.query.ref ?? ctx.state.defaultBranch));
  });

  const team = (ctx) => {
    const want = `${ctx.params.org}/${ctx.params.slug}`.toLowerCase();
    const entry = Object.entries(ctx.state.data.teams ?? {}).find(([k]) => k.toLowerCase() === want);
    return entry ? entry[1] : null;
  };

  route('GET', '/orgs/:org/teams/:slug', (ctx) => {
    ctx.gate.gate({ read: 'teams' });
    if (!team(ctx)) return notFound(ctx);
    return json(200, teamShape(ctx.shapes, ctx.params.org, ctx.params.slug));
  });

  route('GET', '/orgs/:org/teams/:slug/memberships/:login', (ctx) => {
    ctx.gate.gate({ read: 'teams' });
    const members = team(ctx);
    if (!members || !members.some((m) => m.toLowerCase() === ctx.params.login.toLowerCase())) return notFound(ctx);
    const t = teamShape(ctx.shapes, ctx.params.org, ctx.params.slug);
    return json(200, { url: `${t.url}/memberships/${encodeURIComponent(ctx.params.login)}`, role: 'member', state: 'active' });
  });

  repoRoute('GET', '/environments/:name', (ctx) => {
    ctx.gate.gate({ read: 'environments' });
    const env = (ctx.state.data.environments ?? {})[ctx.params.name];
    if (!env) return notFound(ctx);
    return json(200, environmentShape(ctx.shapes, ctx.params.name, env));
  });

  repoRoute('GET', '/environments/:name/deployment-branch-policies', (ctx) => {
    ctx.gate.gate({ read: 'environments' });
    const env = (ctx.state.data.environments ?? {})[ctx.params.name];
    if (!env) return notFound(ctx);
    const list = (env.branch_policies ?? []).map((p, i) => ({
      id: stableInt(`policy:${ctx.params.name}:${i}`, 1000000),
      node_id: nodeId('DBP', `${ctx.params.name}:${i}`),
      name: p.name,
      type: p.type ?? 'branch',
    }));
    const { perPage, page } = h.pageParams(ctx.query);
    const res = json(200, { total_count: list.length, branch_policies: list.slice((page - 1) * perPage, page * perPage) });
    res.pagination = { page, lastPage: Math.max(1, Math.ceil(list.length / perPage)), total: list.length };
    return res;
  });
}
