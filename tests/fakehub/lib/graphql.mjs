// GraphQL endpoint: GitHub's published schema, validated like GitHub (plus its
// pagination rule), executed by resolvers over the snapshot state.
import { graphql as G, githubSchema } from './peers.mjs';
import { FaultAbort, FaultGate, isPullNotFound } from './faults.mjs';
import { PULL_COMMITS_CAP } from './state.mjs';
import { graphqlLogin, isBotLogin, isInt, nodeId, sameText, stableInt } from './util.mjs';
import { eventPrefix } from './shapes.mjs';

const {
  GraphQLError, TypeInfo, execute, getArgumentValues, getNamedType, getOperationAST,
  getVariableValues, parse, validate, visit, visitWithTypeInfo, Kind,
} = G;

const MAX_PAGE = 100;
const INT_MAX = 2 ** 31 - 1;

export const schema = githubSchema();

// ---- errors ---------------------------------------------------------------

function typedError(type, message, extra = {}) {
  return new GraphQLError(message, { ...extra, extensions: { type } });
}

function notFound(message) {
  return typedError('NOT_FOUND', message);
}

function notImplemented(typeName, fieldName) {
  return typedError('FAKEHUB_NOT_IMPLEMENTED', `fakehub does not implement ${typeName}.${fieldName}`);
}

/** An error as GitHub serialises it: type, path, locations, message. */
export function formatError(error) {
  const out = {};
  const type = error.extensions?.type;
  if (type) out.type = type;
  if (error.path) out.path = error.path;
  if (error.locations) out.locations = error.locations;
  out.message = error.message;
  const { type: _t, ...rest } = error.extensions ?? {};
  if (Object.keys(rest).length) out.extensions = rest;
  return out;
}

// ---- GitHub's pagination rule and query cost -------------------------------

function isConnectionField(def) {
  const named = getNamedType(def.type);
  return named.name.endsWith('Connection') && def.args.some((a) => a.name === 'first') && def.args.some((a) => a.name === 'last');
}

/**
 * Every connection needs `first` or `last` in 1..100. Returns
 * { errors, nodeCount, cost, requests } (cost: queryCost below).
 */
export function checkPagination(document, operation, variables) {
  const errors = [];
  const typeInfo = new TypeInfo(schema);
  const path = [];
  const visitor = visitWithTypeInfo(typeInfo, {
    Field: {
      enter(node) {
        path.push(node.alias?.value ?? node.name.value);
        const def = typeInfo.getFieldDef();
        if (!def || !isConnectionField(def)) return;
        let args;
        try {
          args = getArgumentValues(def, node, variables);
        } catch (e) {
          errors.push(new GraphQLError(e.message, { nodes: node }));
          return;
        }
        const name = node.name.value;
        let given = false;
        for (const arg of ['first', 'last']) {
          const v = args[arg];
          if (v === undefined || v === null) continue;
          if (v > MAX_PAGE) {
            errors.push(Object.assign(typedError('EXCESSIVE_PAGINATION',
              `Requesting ${v} records on the \`${name}\` connection exceeds the \`${arg}\` limit of ${MAX_PAGE} records.`,
              { nodes: node }), { fakePath: [...path] }));
          } else if (v < 1) {
            errors.push(Object.assign(typedError('INVALID_PAGINATION',
              `\`${arg}\` on the \`${name}\` connection must be between 1 and ${MAX_PAGE}, got ${v}.`,
              { nodes: node }), { fakePath: [...path] }));
          }
          given = true;
        }
        if (!given) {
          errors.push(Object.assign(typedError('MISSING_PAGINATION_BOUNDARIES',
            `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
            { nodes: node }), { fakePath: [...path] }));
        }
      },
      leave() {
        path.pop();
      },
    },
  });
  const opName = operation.operation;
  for (const def of document.definitions) {
    if (def !== operation && def.kind !== Kind.FRAGMENT_DEFINITION) continue;
    path.length = 0;
    path.push(def === operation ? opName : `fragment ${def.name.value}`);
    visit(def, visitor);
  }
  if (errors.length) return { errors, nodeCount: 0, cost: 0, requests: 0 };
  return { errors, ...queryCost(document, operation, variables) };
}

/**
 * GitHub's published point formula ("Rate limits and query limits for the
 * GraphQL API", calculating a query's point value): add up the requests
 * needed to fulfil each unique connection of the call, assuming every
 * connection returns its `first`/`last` limit — a connection nested in
 * another needs one request per parent node (the product of the limits
 * above it) — then divide by 100 and round to the nearest whole number; a
 * call costs at least 1 point. Plain lists (`Commit.status.contexts`) and
 * scalar fields add nothing.
 *
 * Walked over the operation as GraphQL executes it: a named fragment counts
 * where (and as many times as) it is spread, fields of one selection set
 * with the same response key merge into one (GraphQL's field merging: the
 * same connection selected twice is fetched once), each alias is a field of
 * its own (batched `a: pullRequest(…) b: pullRequest(…)` cost one request
 * per alias for each connection below), `@skip(if: true)` and
 * `@include(if: false)` drop a selection. Fakehub's own reading, where the
 * published text is silent: `Query.nodes(ids:)` multiplies what it selects
 * by its number of ids (a list of known length, like a connection's limit).
 * Returns { cost, requests, nodeCount } (nodeCount: GitHub's node limit
 * count, the sum over connections of the products of limits).
 */
export function queryCost(document, operation, variables = {}) {
  const fragments = new Map();
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  let requests = 0;
  let nodeCount = 0;
  const included = (node) => {
    for (const d of node.directives ?? []) {
      const name = d.name.value;
      if (name !== 'skip' && name !== 'include') continue;
      const arg = d.arguments.find((a) => a.name.value === 'if');
      if (!arg) continue;
      const v = arg.value.kind === Kind.VARIABLE ? variables[arg.value.name.value] : arg.value.value;
      if (name === 'skip' && v === true) return false;
      if (name === 'include' && v === false) return false;
    }
    return true;
  };
  // The fields of a selection set by response key, fragments flattened.
  const collect = (selectionSet, type, into, seen) => {
    for (const sel of selectionSet.selections) {
      if (!included(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const def = typeof type?.getFields === 'function' ? type.getFields()[sel.name.value] : undefined;
        let entry = into.get(key);
        if (!entry) into.set(key, entry = { node: sel, def, parts: [] });
        if (!entry.def && def) entry.def = def;
        if (sel.selectionSet) entry.parts.push(sel.selectionSet);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        collect(sel.selectionSet, t, into, seen);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag)) continue;
        seen.add(frag);
        collect(frag.selectionSet, schema.getType(frag.typeCondition.name.value), into, seen);
        seen.delete(frag);
      }
    }
  };
  const walk = (selectionSets, type, multiplier) => {
    const fields = new Map();
    for (const set of selectionSets) collect(set, type, fields, new Set());
    for (const { node, def, parts } of fields.values()) {
      if (!def || !parts.length) continue;
      let inner = multiplier;
      if (isConnectionField(def)) {
        let args = {};
        try {
          args = getArgumentValues(def, node, variables);
        } catch {
          // reported by the pagination rule
        }
        const limit = Math.min(MAX_PAGE, Math.max(args.first ?? 0, args.last ?? 0)) || MAX_PAGE;
        requests += multiplier;
        nodeCount += multiplier * limit;
        inner = multiplier * limit;
      } else if (def.args.some((a) => a.name === 'ids')) {
        try {
          const ids = getArgumentValues(def, node, variables).ids;
          if (Array.isArray(ids)) inner = multiplier * Math.max(1, ids.length);
        } catch {
          // a variable error is reported elsewhere
        }
      }
      walk(parts, getNamedType(def.type), inner);
    }
  };
  const root = operation.operation === 'mutation' ? schema.getMutationType()
    : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  walk([operation.selectionSet], root, 1);
  return { cost: Math.max(1, Math.round(requests / 100)), requests, nodeCount };
}

// ---- connections ------------------------------------------------------------

function encodeCursor(index) {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

function decodeCursor(cursor, argName) {
  const text = Buffer.from(String(cursor), 'base64').toString('utf8');
  const m = /^cursor:v2:(\d+)$/.exec(text);
  if (!m) throw typedError('INVALID_CURSOR_ARGUMENTS', `\`${cursor}\` does not appear to be a valid cursor (${argName}).`);
  return Number(m[1]);
}

/**
 * A Relay connection over `items` (already filtered and ordered). `page` is the
 * 1-based page position of the slice (for `page` faults).
 */
function connection(items, args, extra = {}) {
  let start = 0;
  let end = items.length;
  if (args.after != null) start = Math.max(start, decodeCursor(args.after, 'after') + 1);
  if (args.before != null) end = Math.min(end, decodeCursor(args.before, 'before'));
  if (end < start) end = start;
  const windowSize = end - start;
  if (args.skip != null && args.skip > 0) start = Math.min(end, start + args.skip);
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  const edges = items.slice(start, end).map((node, k) => ({ cursor: encodeCursor(start + k), node }));
  const size = args.first ?? args.last ?? MAX_PAGE;
  return {
    totalCount: items.length,
    filteredCount: windowSize,
    pageCount: edges.length,
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges.length ? edges[0].cursor : null,
      endCursor: edges.length ? edges[edges.length - 1].cursor : null,
    },
    page: Math.floor(start / Math.max(1, size)) + 1,
    ...extra,
  };
}

function compareKeys(x, y) {
  for (let i = 0; i < x.length; i += 1) {
    if (x[i] < y[i]) return -1;
    if (x[i] > y[i]) return 1;
  }
  return 0;
}

/**
 * `items` sorted by `orderBy` ({ field, direction }) with key functions
 * returning arrays; a field without a key keeps the stored (creation) order.
 */
function ordered(items, orderBy, keys) {
  if (!orderBy) return items;
  const key = keys[orderBy.field] ?? (() => []);
  const sorted = items
    .map((item, index) => ({ item, k: [...key(item), index] }))
    .sort((a, b) => compareKeys(a.k, b.k))
    .map((x) => x.item);
  return orderBy.direction === 'DESC' ? sorted.reverse() : sorted;
}

// ---- models -------------------------------------------------------------------

const timelineUnion = new Set(schema.getType('PullRequestTimelineItems').getTypes().map((t) => t.name));

function pascal(snake) {
  return snake.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** snapshot event name → GraphQL type name (null when GitHub's union has no such type). */
export function timelineTypeName(event) {
  const name = `${pascal(event)}Event`;
  return timelineUnion.has(name) ? name : null;
}

/** GraphQL type name → PullRequestTimelineItemsItemType value. */
function itemTypeOf(typeName) {
  return typeName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

const M = {
  actor(login) {
    if (login === null || login === undefined) return null;
    return { __typename: isBotLogin(login) ? 'Bot' : 'User', raw: login, login: graphqlLogin(login) };
  },
  repository(fullName) {
    return fullName === null ? null : { __typename: 'Repository', fullName };
  },
  pull(pull) { return { __typename: 'PullRequest', pull }; },
  label(record) { return { __typename: 'Label', record }; },
  comment(pull, c) { return { __typename: 'IssueComment', pull, c }; },
  edit(pull, c, e, index) { return { __typename: 'UserContentEdit', pull, c, e, index }; },
  review(pull, r) { return { __typename: 'PullRequestReview', pull, r }; },
  thread(pull, t) { return { __typename: 'PullRequestReviewThread', pull, t }; },
  threadComment(pull, t, index) { return { __typename: 'PullRequestReviewComment', pull, t, index }; },
  event(pull, e) {
    const typeName = timelineTypeName(e.event);
    return typeName ? { __typename: typeName, pull, e, timeline: true } : null;
  },
  commit(sha) { return { __typename: 'Commit', sha: sha.toLowerCase() }; },
  ref(pull) { return { __typename: 'Ref', pull }; },
  pullCommit(pull, sha) { return { __typename: 'PullRequestCommit', pull, sha: sha.toLowerCase() }; },
  status(sha) { return { __typename: 'Status', sha }; },
  statusContext(sha, st) { return { __typename: 'StatusContext', sha, st }; },
};

function intOrNull(v) {
  return isInt(v) && v >= -INT_MAX - 1 && v <= INT_MAX ? v : null;
}

function bigIntString(v) {
  return isInt(v) ? String(v) : null;
}

// ---- resolvers ----------------------------------------------------------------

const actorFields = {
  login: (a) => a.login,
  id: (a) => nodeId(a.__typename === 'Bot' ? 'BOT' : 'U', a.raw.toLowerCase()),
  databaseId: (a) => stableInt(`user:${a.raw.toLowerCase()}`, 1000),
  url: (a, _, ctx) => (a.__typename === 'Bot' ? `${ctx.base}/apps/${a.login}` : `${ctx.base}/${a.login}`),
  resourcePath: (a) => (a.__typename === 'Bot' ? `/apps/${a.login}` : `/${a.login}`),
  avatarUrl: (a, _, ctx) => `${ctx.base}/avatars/u/${stableInt(`user:${a.raw.toLowerCase()}`, 1000)}?v=4`,
  name: () => null,
  email: () => '',
};

const statusState = (s) => String(s ?? 'pending').toUpperCase();

function pullGate(ctx, pull, read, page) {
  ctx.gate.gate({ read, prs: [pull.number], page });
}

function commitStatus(ctx, sha) {
  ctx.gate.gate({ read: 'statuses', sha, prs: ctx.state.pullsWithCommit(sha) });
  return ctx.state.statuses(sha).length ? M.status(sha) : null;
}

// A `pull` fault hits the pull's own fields (PULL_CORE_FIELDS below), so a
// query that selects only, say, the reviews of a pull still succeeds: the
// same granularity as the REST endpoints and as replay's per-part reads.
// Only a 404 ("no such pull") fails the pullRequest lookup itself.
function repositoryPull(ctx, number) {
  const fault = ctx.gate.peek({ read: 'pull', prs: [number] });
  if (fault && isPullNotFound(fault)) {
    ctx.gate.check({ read: 'pull', prs: [number] });
    throw notFound(`Could not resolve to a PullRequest with the number of ${number}.`);
  }
  const pull = ctx.state.pull(number);
  if (!pull) throw notFound(`Could not resolve to a PullRequest with the number of ${number}.`);
  return M.pull(pull);
}

/** The object behind a node id fakehub hands out (issue comments only), or null. */
function resolveNode(ctx, id) {
  const m = /^IC_([A-Za-z0-9_-]+)$/.exec(String(id));
  if (!m) return null;
  const key = Buffer.from(m[1], 'base64url').toString('utf8');
  if (!/^\d+$/.test(key)) return null;
  const found = ctx.state.findComment(key);
  if (!found) return null;
  // Reaching a comment by its id is a read of the pull's comments (as REST's
  // GET /issues/comments/{id} is).
  pullGate(ctx, found.pull, 'comments');
  return M.comment(found.pull, found.comment);
}

function nodeNotFound(id) {
  return notFound(`Could not resolve to a node with the global id of '${id}'`);
}

function isThisRepo(ctx, repo) {
  return repo && sameText(repo.fullName, ctx.state.fullName);
}

const RESOLVERS = {
  Query: {
    viewer: (_, __, ctx) => {
      ctx.gate.gate({ read: 'user' });
      // With an installation token the viewer is the App's bot, login with its [bot] suffix.
      if (ctx.auth?.kind === 'app') return { __typename: 'User', raw: ctx.login, login: ctx.login };
      return { ...M.actor(ctx.state.viewer), __typename: 'User' };
    },
    rateLimit: (_, __, ctx) => ({ __typename: 'RateLimit', ...ctx.rate }),
    node: (_, { id }, ctx) => {
      const node = resolveNode(ctx, id);
      if (!node) throw nodeNotFound(id);
      return node;
    },
    // GitHub answers each id in order; an unknown one is null with an error.
    nodes: (_, { ids }, ctx) => {
      if (ids.length > MAX_PAGE) throw typedError('EXCESSIVE_PAGINATION', `You may not ask for more than ${MAX_PAGE} node ids at once.`);
      return ids.map((id) => resolveNode(ctx, id) ?? nodeNotFound(id));
    },
    repository: (_, { owner, name }, ctx) => {
      if (!ctx.state.isRepo(owner, name)) throw notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
      return M.repository(ctx.state.fullName);
    },
  },

  Repository: {
    id: (r) => nodeId('R', r.fullName.toLowerCase()),
    databaseId: (r, _, ctx) => (isThisRepo(ctx, r) ? ctx.state.repoId : stableInt(`repo:${r.fullName.toLowerCase()}`, 100000)),
    name: (r) => r.fullName.split('/')[1],
    nameWithOwner: (r) => r.fullName,
    owner: (r) => ({ ...M.actor(r.fullName.split('/')[0]), __typename: 'User' }),
    url: (r, _, ctx) => `${ctx.base}/${r.fullName}`,
    resourcePath: (r) => `/${r.fullName}`,
    isFork: (r, _, ctx) => !isThisRepo(ctx, r),
    isPrivate: () => false,
    // A Ref that is the default branch: { defaultName }; a head ref: { pull }.
    defaultBranchRef: (r, _, ctx) => (isThisRepo(ctx, r) ? { defaultName: ctx.state.defaultBranch } : null),
    pullRequest: (r, { number }, ctx) => repositoryPull(ctx, number),
    issueOrPullRequest: (r, { number }, ctx) => repositoryPull(ctx, number),
    pullRequests: (r, args, ctx) => {
      const s = ctx.state;
      let pulls = [...s.pulls].sort((a, b) => a.number - b.number);
      const stateOf = (p) => (p.merged ? 'MERGED' : s.isOpen(p) ? 'OPEN' : 'CLOSED');
      if (args.states?.length) pulls = pulls.filter((p) => args.states.includes(stateOf(p)));
      if (args.labels?.length) pulls = pulls.filter((p) => (p.labels ?? []).some((l) => args.labels.some((w) => sameText(w, l))));
      if (args.headRefName != null) pulls = pulls.filter((p) => s.headRef(p) === args.headRefName);
      if (args.baseRefName != null) pulls = pulls.filter((p) => s.baseRef(p) === args.baseRefName);
      pulls = ordered(pulls, args.orderBy, {
        CREATED_AT: (p) => [Date.parse(s.createdAt(p)), p.number],
        UPDATED_AT: (p) => [Date.parse(s.updatedAt(p)), p.number],
        COMMENTS: (p) => [(p.comments ?? []).length, p.number],
      });
      // Pulls reached through the listing are the `pulls` read, not `pull`.
      const conn = connection(pulls.map((p) => ({ ...M.pull(p), listed: true })), args);
      ctx.gate.gate({ read: 'pulls', page: conn.page });
      return conn;
    },
    label: (r, { name }, ctx) => {
      ctx.gate.gate({ read: 'labels', prs: [] });
      const record = ctx.state.findRepoLabel(name);
      return record ? M.label(record) : null;
    },
    labels: (r, args, ctx) => {
      let labels = ctx.state.repoLabels();
      if (args.query) labels = labels.filter((l) => l.name.toLowerCase().includes(args.query.toLowerCase()));
      labels = ordered(labels, args.orderBy, { NAME: (l) => [l.name.toLowerCase()] });
      const conn = connection(labels.map(M.label), args);
      ctx.gate.gate({ read: 'labels', prs: [], page: conn.page });
      return conn;
    },
    object: (r, { oid, expression }, ctx) => {
      const sha = ctx.state.resolveCommit(oid ?? expression);
      return sha ? M.commit(sha) : null;
    },
  },

  PullRequest: {
    id: (p, _, ctx) => nodeId('PR', `${ctx.state.fullName.toLowerCase()}#${p.pull.number}`),
    databaseId: (p, _, ctx) => intOrNull(ctx.state.pullDatabaseId(p.pull)),
    fullDatabaseId: (p, _, ctx) => bigIntString(ctx.state.pullDatabaseId(p.pull)),
    number: (p) => p.pull.number,
    title: (p) => p.pull.title ?? `Pull request #${p.pull.number}`,
    body: (p) => p.pull.body ?? '',
    state: (p, _, ctx) => (p.pull.merged ? 'MERGED' : ctx.state.isOpen(p.pull) ? 'OPEN' : 'CLOSED'),
    closed: (p, _, ctx) => p.pull.merged === true || !ctx.state.isOpen(p.pull),
    merged: (p) => p.pull.merged === true,
    mergedAt: (p, _, ctx) => (p.pull.merged ? (p.pull.merged_at ?? ctx.state.updatedAt(p.pull)) : null),
    closedAt: (p, _, ctx) => (p.pull.merged || !ctx.state.isOpen(p.pull) ? (p.pull.closed_at ?? ctx.state.updatedAt(p.pull)) : null),
    isDraft: (p) => p.pull.draft === true,
    isCrossRepository: (p, _, ctx) => ctx.state.isCrossRepository(p.pull),
    locked: () => false,
    author: (p) => M.actor(p.pull.author),
    headRefOid: (p) => p.pull.head.sha,
    headRefName: (p, _, ctx) => ctx.state.headRef(p.pull),
    // The head branch, pointing at the head (GitHub: null once the branch is deleted).
    headRef: (p) => (p.pull.head.ref_deleted ? null : M.ref(p.pull)),
    headRepository: (p, _, ctx) => M.repository(ctx.state.headRepository(p.pull)),
    baseRefName: (p, _, ctx) => ctx.state.baseRef(p.pull),
    baseRefOid: (p, _, ctx) => ctx.state.baseSha(p.pull),
    baseRepository: (p, _, ctx) => M.repository(ctx.state.fullName),
    repository: (p, _, ctx) => M.repository(ctx.state.fullName),
    createdAt: (p, _, ctx) => ctx.state.createdAt(p.pull),
    updatedAt: (p, _, ctx) => ctx.state.updatedAt(p.pull),
    url: (p, _, ctx) => `${ctx.base}/${ctx.state.fullName}/pull/${p.pull.number}`,
    permalink: (p, _, ctx) => `${ctx.base}/${ctx.state.fullName}/pull/${p.pull.number}`,
    resourcePath: (p, _, ctx) => `/${ctx.state.fullName}/pull/${p.pull.number}`,
    labels: (p, args, ctx) => {
      const labels = ordered(ctx.state.pullLabels(p.pull), args.orderBy, { NAME: (l) => [l.name.toLowerCase()] });
      const conn = connection(labels.map(M.label), args);
      pullGate(ctx, p.pull, 'labels', conn.page);
      return conn;
    },
    comments: (p, args, ctx) => {
      const comments = ordered(ctx.state.comments(p.pull), args.orderBy, {
        UPDATED_AT: (c) => [Date.parse(c.edited_at ?? c.created_at ?? 0), c.id],
      });
      const conn = connection(comments.map((c) => M.comment(p.pull, c)), args);
      pullGate(ctx, p.pull, 'comments', conn.page);
      return conn;
    },
    timelineItems: (p, args, ctx) => {
      let items = ctx.state.timeline(p.pull).map((e) => M.event(p.pull, e)).filter(Boolean);
      if (args.itemTypes?.length) items = items.filter((m) => args.itemTypes.includes(itemTypeOf(m.__typename)));
      if (args.since) items = items.filter((m) => Date.parse(m.e.created_at ?? 0) >= Date.parse(args.since));
      const conn = connection(items, args, { updatedAt: ctx.state.updatedAt(p.pull) });
      pullGate(ctx, p.pull, 'timeline', conn.page);
      return conn;
    },
    reviewThreads: (p, args, ctx) => {
      const conn = connection(ctx.state.threads(p.pull).map((t) => M.thread(p.pull, t)), args);
      pullGate(ctx, p.pull, 'threads', conn.page);
      return conn;
    },
    reviews: (p, args, ctx) => {
      let reviews = ctx.state.reviews(p.pull);
      if (args.states?.length) reviews = reviews.filter((r) => args.states.includes(r.state));
      if (args.author != null) reviews = reviews.filter((r) => sameText(r.author, args.author) || sameText(graphqlLogin(r.author), args.author));
      const conn = connection(reviews.map((r) => M.review(p.pull, r)), args);
      pullGate(ctx, p.pull, 'reviews', conn.page);
      return conn;
    },
    commits: (p, args, ctx) => {
      const all = ctx.state.commits(p.pull);
      const listed = all.slice(0, PULL_COMMITS_CAP).map((sha) => M.pullCommit(p.pull, sha));
      const conn = connection(listed, args, { totalCount: all.length });
      pullGate(ctx, p.pull, 'commits', conn.page);
      return conn;
    },
  },

  PullRequestCommit: {
    id: (c, _, ctx) => nodeId('PURC', `${ctx.state.fullName.toLowerCase()}#${c.pull.number}:${c.sha}`),
    commit: (c) => M.commit(c.sha),
    pullRequest: (c) => M.pull(c.pull),
    url: (c, _, ctx) => `${ctx.base}/${ctx.state.fullName}/pull/${c.pull.number}/commits/${c.sha}`,
    resourcePath: (c, _, ctx) => `/${ctx.state.fullName}/pull/${c.pull.number}/commits/${c.sha}`,
  },

  Ref: {
    id: (r, _, ctx) => (r.defaultName ? nodeId('REF', `${ctx.state.fullName}:${r.defaultName}`)
      : nodeId('REF', `${ctx.state.headRepository(r.pull)}:${ctx.state.headRef(r.pull)}`)),
    name: (r, _, ctx) => r.defaultName ?? ctx.state.headRef(r.pull),
    prefix: () => 'refs/heads/',
    target: (r, _, ctx) => (r.defaultName ? M.commit(ctx.state.branchRootSha(r.defaultName)) : M.commit(r.pull.head.sha)),
    repository: (r, _, ctx) => M.repository(r.defaultName ? ctx.state.fullName : ctx.state.headRepository(r.pull)),
  },

  Commit: {
    id: (c) => nodeId('C', c.sha),
    oid: (c) => c.sha,
    abbreviatedOid: (c) => c.sha.slice(0, 7),
    message: (c) => `commit ${c.sha.slice(0, 7)}`,
    messageHeadline: (c) => `commit ${c.sha.slice(0, 7)}`,
    url: (c, _, ctx) => `${ctx.base}/${ctx.state.fullName}/commit/${c.sha}`,
    commitUrl: (c, _, ctx) => `${ctx.base}/${ctx.state.fullName}/commit/${c.sha}`,
    resourcePath: (c, _, ctx) => `/${ctx.state.fullName}/commit/${c.sha}`,
    repository: (c, _, ctx) => M.repository(ctx.state.fullName),
    status: (c, _, ctx) => commitStatus(ctx, c.sha),
  },

  Status: {
    id: (s) => nodeId('SR', s.sha),
    state: (s, _, ctx) => statusState(ctx.state.combinedState(s.sha)),
    commit: (s) => M.commit(s.sha),
    contexts: (s, _, ctx) => ctx.state.latestStatusPerContext(s.sha).map((st) => M.statusContext(s.sha, st)),
    context: (s, { name }, ctx) => {
      const st = ctx.state.latestStatusPerContext(s.sha).find((x) => x.context === name);
      return st ? M.statusContext(s.sha, st) : null;
    },
  },

  StatusContext: {
    id: (c) => nodeId('SC', c.st.id),
    context: (c) => c.st.context ?? 'default',
    state: (c) => statusState(c.st.state),
    description: (c) => c.st.description ?? null,
    createdAt: (c) => c.st.created_at ?? '2020-01-01T00:00:00Z',
    creator: (c) => M.actor(c.st.creator ?? null),
    targetUrl: (c) => c.st.target_url ?? null,
    commit: (c) => M.commit(c.sha),
    avatarUrl: () => null,
    isRequired: () => false,
  },

  Label: {
    id: (l, _, ctx) => nodeId('LA', `${ctx.state.fullName.toLowerCase()}:${l.record.name.toLowerCase()}`),
    name: (l) => l.record.name,
    color: (l) => l.record.color,
    description: (l) => l.record.description,
    isDefault: (l) => l.record.default === true,
    url: (l, _, ctx) => `${ctx.base}/${ctx.state.fullName}/labels/${encodeURIComponent(l.record.name)}`,
    resourcePath: (l, _, ctx) => `/${ctx.state.fullName}/labels/${encodeURIComponent(l.record.name)}`,
  },

  IssueComment: {
    id: (m) => nodeId('IC', m.c.id),
    databaseId: (m) => intOrNull(m.c.id),
    fullDatabaseId: (m) => bigIntString(m.c.id),
    author: (m) => M.actor(m.c.author),
    // The last edit: `edited_by`/`edited_at`, or else the last of `edits`
    // (a comment with a history has been edited, as GitHub shows it).
    editor: (m, _, ctx) => M.actor(ctx.state.lastEdit(m.c)?.editor ?? null),
    body: (m) => m.c.body ?? '',
    createdAt: (m, _, ctx) => m.c.created_at ?? ctx.state.createdAt(m.pull),
    updatedAt: (m, _, ctx) => m.c.updated_at ?? ctx.state.lastEdit(m.c)?.edited_at ?? m.c.created_at ?? ctx.state.createdAt(m.pull),
    lastEditedAt: (m, _, ctx) => ctx.state.lastEdit(m.c)?.edited_at ?? null,
    includesCreatedEdit: (m, _, ctx) => ctx.state.lastEdit(m.c) !== null,
    isMinimized: () => false,
    url: (m, _, ctx) => m.c.html_url ?? `${ctx.base}/${ctx.state.fullName}/pull/${m.pull.number}#issuecomment-${m.c.id}`,
    viewerDidAuthor: (m, _, ctx) => sameText(m.c.author, ctx.login),
    // The whole edit history (SNAPSHOT.md `edits`, oldest first there),
    // served newest first; reading it is a read of the pull's comments.
    userContentEdits: (m, args, ctx) => {
      const edits = ctx.state.edits(m.c).map((e, i) => M.edit(m.pull, m.c, e, i)).reverse();
      const conn = connection(edits, args);
      pullGate(ctx, m.pull, 'comments', conn.page);
      return conn;
    },
    authorAssociation: () => 'NONE',
    pullRequest: (m) => M.pull(m.pull),
  },

  UserContentEdit: {
    id: (m) => nodeId('UCE', `${m.c.id}:${m.index}`),
    editedAt: (m) => m.e.edited_at,
    createdAt: (m) => m.e.edited_at,
    updatedAt: (m) => m.e.edited_at,
    editor: (m) => M.actor(m.e.editor ?? null),
    deletedAt: () => null,
    deletedBy: () => null,
    diff: () => null,
  },

  PullRequestReview: {
    id: (m) => nodeId('PRR', m.r.id),
    databaseId: (m) => intOrNull(m.r.id),
    fullDatabaseId: (m) => bigIntString(m.r.id),
    author: (m) => M.actor(m.r.author),
    state: (m) => m.r.state ?? 'COMMENTED',
    body: (m) => m.r.body ?? '',
    commit: (m) => (m.r.commit_id ? M.commit(m.r.commit_id) : null),
    submittedAt: (m) => m.r.submitted_at ?? null,
    createdAt: (m, _, ctx) => m.r.submitted_at ?? ctx.state.createdAt(m.pull),
    updatedAt: (m, _, ctx) => m.r.submitted_at ?? ctx.state.createdAt(m.pull),
    url: (m, _, ctx) => `${ctx.base}/${ctx.state.fullName}/pull/${m.pull.number}#pullrequestreview-${m.r.id}`,
    pullRequest: (m) => M.pull(m.pull),
    authorAssociation: () => 'MEMBER',
  },

  PullRequestReviewThread: {
    id: (m) => m.t.id,
    isResolved: (m) => m.t.resolved === true,
    isOutdated: (m) => m.t.outdated === true,
    isCollapsed: (m) => m.t.resolved === true,
    path: (m) => m.t.path ?? 'README.md',
    line: (m) => m.t.line ?? null,
    pullRequest: (m) => M.pull(m.pull),
    comments: (m, args) => {
      const count = m.t.comments ?? 1;
      const items = Array.from({ length: count }, (_, i) => M.threadComment(m.pull, m.t, i));
      return connection(items, args);
    },
  },

  PullRequestReviewComment: {
    id: (m) => nodeId('PRRC', `${m.t.id}:${m.index}`),
    // The snapshot records a thread's first author and its comment count; later
    // authors come from the optional extension `comment_authors` (else unknown: null).
    author: (m) => M.actor(m.index === 0 ? m.t.author ?? null : m.t.comment_authors?.[m.index] ?? null),
    body: () => '',
    createdAt: (m, _, ctx) => ctx.state.createdAt(m.pull),
    // The snapshot's optional `url` is the first comment's link. Without one
    // the fake serves the thread's node id, which is no link: the program
    // then names the thread by its id, exactly as a replay of the snapshot.
    url: (m) => (m.index === 0 ? m.t.url ?? m.t.id : `${m.t.url ?? m.t.id}/${m.index}`),
    pullRequest: (m) => M.pull(m.pull),
  },

  RateLimit: {},
  User: actorFields,
  Bot: actorFields,
};

const PULL_CORE_FIELDS = [
  'number', 'title', 'body', 'state', 'closed', 'merged', 'mergedAt', 'closedAt', 'isDraft',
  'isCrossRepository', 'author', 'headRefOid', 'headRefName', 'headRepository', 'baseRefName',
  'baseRefOid', 'createdAt', 'updatedAt',
];
for (const name of PULL_CORE_FIELDS) {
  const resolve = RESOLVERS.PullRequest[name];
  RESOLVERS.PullRequest[name] = (p, args, ctx, info) => {
    if (!p.listed) pullGate(ctx, p.pull, 'pull');
    return resolve(p, args, ctx, info);
  };
}

/** Fields every timeline event type shares; plus the ones of the types we model. */
const EVENT_FIELDS = {
  id: (m) => nodeId(eventPrefix(m.e.event), m.e.id),
  databaseId: (m) => intOrNull(m.e.id),
  actor: (m) => M.actor(m.e.actor ?? null),
  createdAt: (m, _, ctx) => m.e.created_at ?? ctx.state.createdAt(m.pull),
  pullRequest: (m) => M.pull(m.pull),
  labelable: (m) => M.pull(m.pull),
  label: (m, _, ctx) => M.label(ctx.state.findRepoLabel(m.e.label ?? '') ?? ctx.state.labelRecord(m.e.label ?? '')),
  currentRefName: (m, _, ctx) => m.e.current_ref ?? m.e.to ?? ctx.state.baseRef(m.pull),
  previousRefName: (m) => m.e.previous_ref ?? m.e.from ?? '',
  dismissalMessage: (m) => m.e.dismissal_message ?? null,
  previousReviewState: (m) => m.e.previous_state ?? 'APPROVED',
  review: (m) => {
    const r = (m.pull.reviews ?? []).find((x) => x.id === m.e.review_id);
    return r ? M.review(m.pull, r) : null;
  },
};

function fieldResolver(source, args, ctx, info) {
  const typeName = info.parentType.name;
  const own = RESOLVERS[typeName]?.[info.fieldName];
  if (own) return own(source, args, ctx, info);
  if (source?.timeline && EVENT_FIELDS[info.fieldName] && info.parentType.getFields()[info.fieldName]) {
    return EVENT_FIELDS[info.fieldName](source, args, ctx, info);
  }
  if (source !== null && typeof source === 'object' && Object.hasOwn(source, info.fieldName)) return source[info.fieldName];
  throw notImplemented(typeName, info.fieldName);
}

function typeResolver(value) {
  return value?.__typename;
}

// ---- the endpoint -------------------------------------------------------------

/**
 * Runs one GraphQL request. Returns { status, body, resource: 'graphql', mangle }
 * or throws FaultAbort when a failing fault hit a resource the query selects.
 * `hub` supplies state, base URL, the fault book and the rate-limit counters;
 * `entry` (the request log's entry) gets the points charged.
 */
export function runGraphql(hub, requestBody, auth = null, entry = null) {
  // The log entry's `points`: what the request was charged (0 when refused
  // before execution: malformed, invalid, over the pagination rule, rate
  // limited).
  if (entry) entry.points = 0;
  const ok = (body) => ({ status: 200, body });
  const errorsOnly = (errors) => ok({ errors: errors.map((e) => (e instanceof GraphQLError ? formatError(e) : e)) });
  if (requestBody === null || typeof requestBody !== 'object' || Array.isArray(requestBody)) {
    return { status: 400, body: hub.shapes.error(400, 'Problems parsing JSON') };
  }
  const { query, variables, operationName } = requestBody;
  if (typeof query !== 'string' || !query.trim()) {
    return errorsOnly([{ message: 'A query attribute must be specified and must be a string.' }]);
  }
  let document;
  try {
    document = parse(query);
  } catch (e) {
    return errorsOnly([e]);
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length) return errorsOnly(validationErrors);
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    return errorsOnly([{ message: operationName ? `No operation named "${operationName}"` : 'An operation name is required' }]);
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return errorsOnly(coerced.errors);
  const pagination = checkPagination(document, operation, coerced.coerced);
  if (pagination.errors.length) {
    return errorsOnly(pagination.errors.map((e) => ({ ...formatError(e), ...(e.fakePath ? { path: e.fakePath } : {}) })));
  }

  const rate = hub.rateLimits.graphql;
  if (rate.remaining() < pagination.cost) {
    return {
      status: 200,
      body: { errors: [{ type: 'RATE_LIMITED', message: `API rate limit exceeded for user ID ${stableInt(`user:${hub.state.viewer.toLowerCase()}`, 1000)}.` }] },
    };
  }
  rate.consume(pagination.cost);
  if (entry) entry.points = pagination.cost;

  const gate = new FaultGate(hub.faultBook, 'graphql');
  const ctx = {
    state: hub.state,
    base: hub.base,
    auth,
    login: auth?.login ?? hub.state.viewer,
    gate,
    rate: {
      cost: pagination.cost,
      limit: rate.limit,
      remaining: rate.remaining(),
      used: rate.used,
      resetAt: new Date(rate.resetEpoch() * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      nodeCount: pagination.nodeCount,
    },
  };
  const result = execute({
    schema,
    document,
    operationName: operationName ?? undefined,
    variableValues: coerced.coerced,
    rootValue: {},
    contextValue: ctx,
    fieldResolver,
    typeResolver,
  });
  if (gate.abort) throw new FaultAbort(gate.abort);
  if (gate.lost) throw new FaultAbort(gate.lost);
  const body = {};
  if (result.data !== undefined) body.data = result.data;
  if (result.errors?.length) body.errors = result.errors.map(formatError);
  return { status: 200, body, mangle: gate.mangle };
}
