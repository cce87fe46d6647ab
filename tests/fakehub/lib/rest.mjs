// REST endpoints: GitHub's paths, status codes and shapes over the snapshot state.
import {
  BODY_MAX_CHARS, STATUSES_PER_CONTEXT_CAP, PULL_COMMITS_CAP, codePoints, resolveDiffLine, resolveDiffPosition,
} from './state.mjs';
import { MSG_INTEGRATION } from './appauth.mjs';
import { clock, nowIso, sameText } from './util.mjs';
import { registerSetup, rolePermissions, tokenHeaders } from './setup.mjs';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

// ---- responses ------------------------------------------------------------------

export function json(status, body, headers = {}) {
  return { status, body, headers };
}

function notFound(ctx) {
  return json(404, ctx.shapes.error(404, 'Not Found'));
}

/** 422 with the `validation-error` shape (errors are objects). */
function validationFailed(ctx, errors) {
  return json(422, ctx.shapes.error(422, 'Validation Failed', { errors }));
}

/** 422 with the `validation-error-simple` shape (errors are strings). */
function unprocessable(ctx, ...errors) {
  return json(422, ctx.shapes.error(422, 'Unprocessable Entity', { errors }));
}

/** GitHub's answer to a body that does not match the operation's schema (422, message only). */
function invalidRequest(ctx, detail) {
  return json(422, ctx.shapes.error(422, `Invalid request.\n\n${detail}`));
}

/** Rails' Array#to_sentence, as GitHub joins several errors into one string. */
function toSentence(list) {
  if (list.length <= 1) return list.join('');
  if (list.length === 2) return `${list[0]} and ${list[1]}`;
  return `${list.slice(0, -1).join(', ')}, and ${list.at(-1)}`;
}

const TOO_LONG = `Body is too long (maximum is ${BODY_MAX_CHARS} characters)`;

function badJson(ctx) {
  return json(400, ctx.shapes.error(400, 'Problems parsing JSON'));
}

/** The JSON object body of a write, or a response to return instead. */
function objectBody(ctx) {
  if (ctx.body === null || ctx.body === undefined) return { value: {} };
  if (typeof ctx.body === 'string') return { error: badJson(ctx) };
  if (typeof ctx.body !== 'object' || Array.isArray(ctx.body)) return { error: badJson(ctx) };
  return { value: ctx.body };
}

// ---- pagination -------------------------------------------------------------------

export function pageParams(query) {
  const perRaw = Number.parseInt(query.per_page ?? '', 10);
  const pageRaw = Number.parseInt(query.page ?? '', 10);
  const perPage = Number.isFinite(perRaw) && perRaw >= 1 ? Math.min(perRaw, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  const page = Number.isFinite(pageRaw) && pageRaw >= 1 ? pageRaw : 1;
  return { perPage, page };
}

/** A page of `items` as a response; the responder turns `pagination` into a Link header. */
function paged(ctx, items, shape) {
  const { perPage, page } = pageParams(ctx.query);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const res = json(200, slice.map(shape));
  res.pagination = { page, lastPage, total: items.length };
  return res;
}

// ---- routing -----------------------------------------------------------------------

function compile(pattern) {
  const names = [];
  const source = pattern.split('/').map((seg) => {
    if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const rest = seg.endsWith('+');
    const numeric = seg.endsWith('#');
    names.push(seg.slice(1).replace(/[+#]$/, ''));
    return rest ? '(.+)' : numeric ? '(\\d+)' : '([^/]+)';
  }).join('/');
  return { regex: new RegExp(`^${source}/?$`), names };
}

const ROUTES = [];
/**
 * `options.auth`: who may call the route. Absent: a user token or an
 * installation token (a JWT is refused); 'jwt': only the App's JWT (GitHub's
 * "You must use a JWT to access this endpoint"); 'installation': only an
 * installation token.
 */
function route(method, pattern, handler, options = {}) {
  ROUTES.push({ method, ...compile(pattern), handler, auth: options.auth ?? null });
}

/** Finds the handler for a request: { handler, params, auth } | { methodMismatch } | null. */
export function matchRoute(method, path) {
  let pathMatched = false;
  for (const r of ROUTES) {
    const m = r.regex.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const params = {};
    r.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1]);
      } catch {
        params[name] = m[i + 1];
      }
    });
    return { handler: r.handler, params, auth: r.auth };
  }
  return pathMatched ? { methodMismatch: true } : null;
}

// Every /repos/:owner/:repo route checks the repository first.
function repoRoute(method, pattern, handler, options) {
  route(method, `/repos/:owner/:repo${pattern}`, (ctx) => {
    if (!ctx.state.isRepo(ctx.params.owner, ctx.params.repo)) return notFound(ctx);
    return handler(ctx);
  }, options);
}

/** Who a write is attributed to: the viewer (user token) or the App's bot (installation token). */
function writer(ctx) {
  return { login: ctx.auth.login, byApp: ctx.auth.kind === 'app' };
}

function withPull(handler) {
  return (ctx) => {
    const pull = ctx.state.pull(ctx.params.number);
    if (!pull) return notFound(ctx);
    return handler(ctx, pull);
  };
}

// ---- accounts ----------------------------------------------------------------------

route('GET', '/user', (ctx) => {
  // An installation token has no user behind it.
  if (ctx.auth.kind === 'app') return json(403, ctx.shapes.error(403, MSG_INTEGRATION));
  ctx.gate.gate({ read: 'user' });
  return json(200, ctx.shapes.privateUser(ctx.state.viewer), tokenHeaders(ctx.state, ctx.auth.token));
});

route('GET', '/users/:login', (ctx) => json(200, ctx.shapes.user(ctx.params.login)));

route('GET', '/rate_limit', (ctx) => json(200, ctx.hub.rateLimitResource()));

// ---- repository ----------------------------------------------------------------------

repoRoute('GET', '', (ctx) => {
  ctx.gate.gate({ read: 'repository' });
  // The token's account's role (the snapshot's `permission`, default write).
  return json(200, { ...ctx.shapes.repo(), permissions: rolePermissions(ctx.state.data.permission) });
});

// ---- the repository's setup (doctor) ---------------------------------------------------

registerSetup({ route, repoRoute, json, notFound, paged, pageParams });

// ---- pull requests -------------------------------------------------------------------

repoRoute('GET', '/pulls', (ctx) => {
  const { page } = pageParams(ctx.query);
  ctx.gate.gate({ read: 'pulls', page });
  const s = ctx.state;
  const want = ctx.query.state ?? 'open';
  if (!['open', 'closed', 'all'].includes(want)) {
    return validationFailed(ctx, [{ resource: 'PullRequest', field: 'state', code: 'invalid' }]);
  }
  let pulls = s.pulls.filter((p) => {
    const open = s.isOpen(p) && p.merged !== true;
    return want === 'all' || (want === 'open') === open;
  });
  if (ctx.query.base) pulls = pulls.filter((p) => s.baseRef(p) === ctx.query.base);
  if (ctx.query.head) {
    const [owner, ref] = ctx.query.head.includes(':') ? ctx.query.head.split(/:(.*)/s) : [null, ctx.query.head];
    pulls = pulls.filter((p) => s.headRef(p) === ref
      && (owner === null || sameText((s.headRepository(p) ?? '').split('/')[0], owner)));
  }
  const sort = ctx.query.sort ?? 'created';
  const direction = ctx.query.direction ?? (sort === 'created' ? 'desc' : 'asc');
  const key = sort === 'updated' ? (p) => Date.parse(s.updatedAt(p)) : (p) => p.number;
  pulls = [...pulls].sort((a, b) => key(a) - key(b) || a.number - b.number);
  if (direction === 'desc') pulls.reverse();
  return paged(ctx, pulls, (p) => ctx.shapes.pullSimple(p));
});

repoRoute('GET', '/pulls/:number#', (ctx) => {
  ctx.gate.gate({ read: 'pull', prs: [Number(ctx.params.number)] });
  const pull = ctx.state.pull(ctx.params.number);
  return pull ? json(200, ctx.shapes.pull(pull)) : notFound(ctx);
});

repoRoute('GET', '/issues/:number#', (ctx) => {
  ctx.gate.gate({ read: 'pull', prs: [Number(ctx.params.number)] });
  const pull = ctx.state.pull(ctx.params.number);
  return pull ? json(200, ctx.shapes.issue(pull)) : notFound(ctx);
});

// ---- labels -------------------------------------------------------------------------------

repoRoute('GET', '/labels', (ctx) => {
  ctx.gate.gate({ read: 'labels', prs: [], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.repoLabels(), (l) => ctx.shapes.label(l));
});

repoRoute('GET', '/labels/:name', (ctx) => {
  ctx.gate.gate({ read: 'labels', prs: [] });
  const record = ctx.state.findRepoLabel(ctx.params.name);
  return record ? json(200, ctx.shapes.label(record)) : notFound(ctx);
});

repoRoute('POST', '/labels', (ctx) => {
  ctx.gate.gate({ write: 'label', prs: [] });
  const { value, error } = objectBody(ctx);
  if (error) return error;
  if (typeof value.name !== 'string' || !value.name.trim()) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'missing_field', field: 'name' }]);
  }
  const color = value.color === undefined ? undefined : String(value.color).replace(/^#/, '');
  if (color !== undefined && !/^[0-9a-fA-F]{6}$/.test(color)) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'invalid', field: 'color' }]);
  }
  // Without a label list in the snapshot every label exists, so creation always collides.
  if (ctx.state.findRepoLabel(value.name)) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
  }
  const record = ctx.state.createRepoLabel({ name: value.name, color, description: value.description });
  ctx.state.recordWrite({ kind: 'create_label', label: record.name });
  const body = ctx.shapes.label(record);
  return json(201, body, { location: body.url });
});

// Renaming or deleting a repository label changes or removes it on every pull
// without a timeline event (GitHub's behaviour, FACTS.md).
repoRoute('PATCH', '/labels/:name', (ctx) => {
  ctx.gate.gate({ write: 'label', prs: [] });
  const { value, error } = objectBody(ctx);
  if (error) return error;
  const record = ctx.state.findRepoLabel(ctx.params.name);
  if (!record) return notFound(ctx);
  const newName = value.new_name;
  if (newName !== undefined && (typeof newName !== 'string' || !newName.trim())) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'invalid', field: 'name' }]);
  }
  if (newName !== undefined && !sameText(newName, ctx.params.name) && ctx.state.labelsListed && ctx.state.findRepoLabel(newName)) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'already_exists', field: 'name' }]);
  }
  const color = value.color === undefined ? undefined : String(value.color).replace(/^#/, '');
  if (color !== undefined && !/^[0-9a-fA-F]{6}$/.test(color)) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'invalid', field: 'color' }]);
  }
  const renamed = ctx.state.renameRepoLabel(record.name, { newName, color, description: value.description });
  ctx.state.recordWrite({ kind: 'label_update', label: record.name, new_name: renamed.name });
  return json(200, ctx.shapes.label(renamed));
});

repoRoute('DELETE', '/labels/:name', (ctx) => {
  ctx.gate.gate({ write: 'label', prs: [] });
  const record = ctx.state.findRepoLabel(ctx.params.name);
  if (!record) return notFound(ctx);
  ctx.state.deleteRepoLabel(record.name);
  ctx.state.recordWrite({ kind: 'label_delete', label: record.name });
  return json(204, null);
});

repoRoute('GET', '/issues/:number#/labels', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'labels', prs: [pull.number], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.pullLabels(pull), (l) => ctx.shapes.label(l));
}));

function labelNames(body) {
  const list = Array.isArray(body) ? body : body?.labels;
  if (!Array.isArray(list)) return null;
  const names = [];
  for (const item of list) {
    if (typeof item === 'string') names.push(item);
    else if (item && typeof item === 'object' && typeof item.name === 'string') names.push(item.name);
    else return null;
  }
  return names;
}

repoRoute('POST', '/issues/:number#/labels', (ctx) => {
  const number = Number(ctx.params.number);
  ctx.gate.gate({ write: 'label', prs: [number] });
  const pull = ctx.state.pull(number);
  if (!pull) return notFound(ctx);
  if (typeof ctx.body === 'string') return badJson(ctx);
  const names = labelNames(ctx.body);
  if (names === null || names.length === 0 || names.some((n) => !n.trim())) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'invalid', field: 'labels' }]);
  }
  if (names.some((n) => n.length > 50)) {
    return validationFailed(ctx, [{ resource: 'Label', code: 'custom', field: 'name', message: 'name is too long (maximum is 50 characters)' }]);
  }
  ctx.state.addLabels(pull, names, writer(ctx).login);
  return json(200, ctx.state.pullLabels(pull).map((l) => ctx.shapes.label(l)));
});

repoRoute('DELETE', '/issues/:number#/labels/:name', (ctx) => {
  const number = Number(ctx.params.number);
  ctx.gate.gate({ write: 'label', prs: [number] });
  const pull = ctx.state.pull(number);
  if (!pull) return notFound(ctx);
  if (!ctx.state.removeLabel(pull, ctx.params.name, writer(ctx).login)) return json(404, ctx.shapes.error(404, 'Label does not exist'));
  return json(200, ctx.state.pullLabels(pull).map((l) => ctx.shapes.label(l)));
});

// ---- comments and timeline -------------------------------------------------------------

repoRoute('GET', '/issues/:number#/comments', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'comments', prs: [pull.number], page: pageParams(ctx.query).page });
  let comments = ctx.state.comments(pull);
  if (ctx.query.since) {
    const since = Date.parse(ctx.query.since);
    if (!Number.isNaN(since)) comments = comments.filter((c) => Date.parse(c.updated_at ?? c.edited_at ?? c.created_at ?? 0) >= since);
  }
  return paged(ctx, comments, (c) => ctx.shapes.comment(pull, c));
}));

repoRoute('GET', '/issues/comments/:id#', (ctx) => {
  const found = ctx.state.findComment(ctx.params.id);
  ctx.gate.gate({ read: 'comments', prs: found ? [found.pull.number] : [] });
  return found ? json(200, ctx.shapes.comment(found.pull, found.comment)) : notFound(ctx);
});

/** The body of a comment write, or a response to return instead (GitHub's answers). */
function commentBody(ctx) {
  const { value, error } = objectBody(ctx);
  if (error) return { error };
  if (typeof value.body !== 'string') return { error: invalidRequest(ctx, '"body" wasn\'t supplied.') };
  if (!value.body.trim()) {
    return { error: validationFailed(ctx, [{ resource: 'IssueComment', code: 'unprocessable', field: 'data', message: 'Body cannot be blank' }]) };
  }
  if (codePoints(value.body) > BODY_MAX_CHARS) {
    return { error: validationFailed(ctx, [{ resource: 'IssueComment', code: 'unprocessable', field: 'data', message: TOO_LONG }]) };
  }
  return { value: value.body };
}

repoRoute('POST', '/issues/:number#/comments', (ctx) => {
  const number = Number(ctx.params.number);
  ctx.gate.gate({ write: 'comment', prs: [number] });
  const pull = ctx.state.pull(number);
  if (!pull) return notFound(ctx);
  const { value, error } = commentBody(ctx);
  if (error) return error;
  const comment = ctx.state.createComment(pull, value, writer(ctx).login);
  const body = ctx.shapes.comment(pull, comment);
  return json(201, body, { location: body.url });
});

repoRoute('PATCH', '/issues/comments/:id#', (ctx) => {
  const found = ctx.state.findComment(ctx.params.id);
  ctx.gate.gate({ write: 'comment', prs: found ? [found.pull.number] : [], comment_id: Number(ctx.params.id) });
  if (!found) return notFound(ctx);
  const { value, error } = commentBody(ctx);
  if (error) return error;
  ctx.state.updateComment(found.pull, found.comment, value, writer(ctx).login);
  return json(200, ctx.shapes.comment(found.pull, found.comment));
});

repoRoute('DELETE', '/issues/comments/:id#', (ctx) => {
  const found = ctx.state.findComment(ctx.params.id);
  ctx.gate.gate({ write: 'comment_delete', prs: found ? [found.pull.number] : [], comment_id: Number(ctx.params.id) });
  if (!found) return notFound(ctx);
  ctx.state.deleteComment(found.pull, found.comment);
  return json(204, null);
});

repoRoute('GET', '/issues/:number#/timeline', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'timeline', prs: [pull.number], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.timeline(pull), (e) => ctx.shapes.timelineEvent(pull, e));
}));

// ---- reviews ---------------------------------------------------------------------------------

repoRoute('GET', '/pulls/:number#/reviews', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'reviews', prs: [pull.number], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.reviews(pull), (r) => ctx.shapes.review(pull, r));
}));

repoRoute('GET', '/pulls/:number#/reviews/:id#', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'reviews', prs: [pull.number] });
  const review = ctx.state.findReview(pull, ctx.params.id);
  return review ? json(200, ctx.shapes.review(pull, review)) : notFound(ctx);
}));

repoRoute('GET', '/pulls/:number#/reviews/:id#/comments', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'review_comments', prs: [pull.number], page: pageParams(ctx.query).page });
  const review = ctx.state.findReview(pull, ctx.params.id);
  if (!review) return notFound(ctx);
  const list = ctx.state.reviewComments(pull).filter((c) => c.review_id === review.id);
  return paged(ctx, list, (c) => ctx.shapes.reviewCommentOfReview(pull, c));
}));

repoRoute('GET', '/pulls/:number#/comments', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'review_comments', prs: [pull.number], page: pageParams(ctx.query).page });
  let list = ctx.state.reviewComments(pull);
  if (ctx.query.since) {
    const since = Date.parse(ctx.query.since);
    if (!Number.isNaN(since)) list = list.filter((c) => Date.parse(c.updated_at ?? c.created_at ?? 0) >= since);
  }
  if (ctx.query.direction === 'desc') list.reverse();
  return paged(ctx, list, (c) => ctx.shapes.reviewComment(pull, c));
}));

repoRoute('GET', '/pulls/comments/:id#', (ctx) => {
  const found = ctx.state.findReviewComment(ctx.params.id);
  ctx.gate.gate({ read: 'review_comments', prs: found ? [found.pull.number] : [], comment_id: Number(ctx.params.id) });
  return found ? json(200, ctx.shapes.reviewComment(found.pull, found.comment)) : notFound(ctx);
});

/** GitHub lists at most this many files of a pull request. */
const PULL_FILES_CAP = 3000;

repoRoute('GET', '/pulls/:number#/files', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'files', prs: [pull.number], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.files(pull).slice(0, PULL_FILES_CAP), (f) => ctx.shapes.diffEntry(pull, f));
}));

/**
 * The review comments of a review request, resolved against the pull's files
 * as GitHub resolves them: `{comments}` (with `line`/`side` filled in) or
 * `{error}`. A comment names a file of the pull (else "Path could not be
 * resolved") and a line of its patch on `side` (RIGHT: a context or added
 * line; LEFT: a context or removed line), or a diff `position`; `start_line`
 * (on `start_side`, default `side`) lies in the same hunk, before the line.
 * Any unresolved comment fails the whole review (one 422, nothing created).
 */
function resolveReviewComments(ctx, pull, list) {
  if (list === undefined || list === null) return { comments: [] };
  if (!Array.isArray(list)) return { error: invalidRequest(ctx, 'For \'properties/comments\', it is not an array.') };
  for (const [i, c] of list.entries()) {
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return { error: invalidRequest(ctx, `For 'items', comments[${i}] is not an object.`) };
    for (const key of ['path', 'body']) {
      if (typeof c[key] !== 'string') return { error: invalidRequest(ctx, `No subschema in "anyOf" matched. "${key}" wasn't supplied.`) };
    }
    for (const key of ['line', 'start_line', 'position']) {
      if (c[key] !== undefined && c[key] !== null && !Number.isSafeInteger(c[key])) return { error: invalidRequest(ctx, `For 'properties/${key}', ${JSON.stringify(c[key])} is not an integer.`) };
    }
    for (const key of ['side', 'start_side']) {
      if (c[key] !== undefined && c[key] !== null && c[key] !== 'LEFT' && c[key] !== 'RIGHT') return { error: invalidRequest(ctx, `For 'properties/${key}', ${JSON.stringify(c[key])} is not a valid side.`) };
    }
  }
  if (list.some((c) => codePoints(c.body) > BODY_MAX_CHARS)) return { error: unprocessable(ctx, TOO_LONG) };
  const problems = [];
  const comments = [];
  for (const c of list) {
    const file = ctx.state.findFile(pull, c.path);
    if (!file) {
      problems.push('Path could not be resolved');
      continue;
    }
    let side = c.side ?? 'RIGHT';
    let found = null;
    let line = c.line ?? null;
    if (line !== null) found = resolveDiffLine(file.patch, line, side);
    else if (c.position != null) {
      found = resolveDiffPosition(file.patch, c.position);
      if (found) {
        side = found.line.kind === '-' ? 'LEFT' : 'RIGHT';
        line = side === 'LEFT' ? found.line.old : found.line.new;
      }
    }
    if (!found) {
      problems.push('Line could not be resolved');
      continue;
    }
    let startLine = null;
    let startSide = null;
    if (c.start_line != null) {
      startSide = c.start_side ?? side;
      const start = resolveDiffLine(file.patch, c.start_line, startSide);
      if (!start || start.hunk !== found.hunk || start.line.position >= found.line.position) {
        problems.push('Line could not be resolved');
        continue;
      }
      startLine = c.start_line;
    }
    comments.push({ path: c.path, body: c.body, line, side, start_line: startLine, start_side: startSide });
  }
  if (problems.length) return { error: unprocessable(ctx, toSentence(problems)) };
  return { comments };
}

const REVIEW_EVENTS = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' };

repoRoute('POST', '/pulls/:number#/reviews', (ctx) => {
  const number = Number(ctx.params.number);
  // A COMMENT review is the `review` write (PUBLISH.md §8); every other event is `approve`, as before.
  const asked = ctx.body !== null && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body.event : undefined;
  ctx.gate.gate({ write: asked === 'COMMENT' ? 'review' : 'approve', prs: [number] });
  const pull = ctx.state.pull(number);
  if (!pull) return notFound(ctx);
  const { value, error } = objectBody(ctx);
  if (error) return error;
  const event = value.event;
  if (event !== undefined && !Object.hasOwn(REVIEW_EVENTS, event)) {
    return unprocessable(ctx, `Unexpected event: ${event}`);
  }
  const head = pull.head.sha;
  const commitId = value.commit_id ?? head;
  if (typeof commitId !== 'string' || commitId.toLowerCase() !== head.toLowerCase()) {
    return unprocessable(ctx, `commit_id ${commitId} is not the head of the pull request (${head})`);
  }
  if (event === 'APPROVE' && sameText(pull.author, writer(ctx).login)) {
    return unprocessable(ctx, 'Can not approve your own pull request');
  }
  const hasComments = Array.isArray(value.comments) && value.comments.length > 0;
  if ((event === 'REQUEST_CHANGES' || (event === 'COMMENT' && !hasComments)) && !(typeof value.body === 'string' && value.body.trim())) {
    return unprocessable(ctx, `Review body is required when event is ${event}`);
  }
  if (typeof value.body === 'string' && codePoints(value.body) > BODY_MAX_CHARS) return unprocessable(ctx, TOO_LONG);
  const resolved = resolveReviewComments(ctx, pull, value.comments);
  if (resolved.error) return resolved.error;
  const review = ctx.state.createReview(pull, {
    state: event ? REVIEW_EVENTS[event] : 'PENDING',
    commitId: head,
    body: typeof value.body === 'string' ? value.body : '',
    comments: resolved.comments,
    withUrl: event === 'COMMENT',
  }, writer(ctx).login, writer(ctx).byApp);
  return json(200, ctx.shapes.review(pull, review));
});

repoRoute('PUT', '/pulls/:number#/reviews/:id#/dismissals', (ctx) => {
  const number = Number(ctx.params.number);
  ctx.gate.gate({ write: 'dismiss', prs: [number] });
  const pull = ctx.state.pull(number);
  if (!pull) return notFound(ctx);
  const review = ctx.state.findReview(pull, ctx.params.id);
  if (!review) return notFound(ctx);
  const { value, error } = objectBody(ctx);
  if (error) return error;
  if (typeof value.message !== 'string' || !value.message.trim()) {
    return unprocessable(ctx, 'message is required to dismiss a review');
  }
  if (value.event !== undefined && value.event !== 'DISMISS') {
    return unprocessable(ctx, `Unexpected event: ${value.event}`);
  }
  if (review.state === 'PENDING') return unprocessable(ctx, 'Can not dismiss a pending pull request review');
  if (review.state === 'COMMENTED') return unprocessable(ctx, 'Can not dismiss a commented pull request review');
  if (review.state !== 'DISMISSED') ctx.state.dismissReview(pull, review, value.message, writer(ctx).login, writer(ctx).byApp);
  return json(200, ctx.shapes.review(pull, review));
});

// ---- commits, statuses, compare -------------------------------------------------------------

repoRoute('GET', '/pulls/:number#/commits', withPull((ctx, pull) => {
  ctx.gate.gate({ read: 'commits', prs: [pull.number], page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.commits(pull).slice(0, PULL_COMMITS_CAP), (sha) => ctx.shapes.commit(sha));
}));

function commitRef(ctx) {
  return ctx.state.resolveCommit(ctx.params.ref) ?? ctx.params.ref.toLowerCase();
}

repoRoute('GET', '/commits/:ref+/statuses', (ctx) => {
  const sha = commitRef(ctx);
  ctx.gate.gate({ read: 'statuses', sha, prs: ctx.state.pullsWithCommit(sha), page: pageParams(ctx.query).page });
  return paged(ctx, ctx.state.statuses(sha), (st) => ctx.shapes.status(sha, st));
});

repoRoute('GET', '/commits/:ref+/status', (ctx) => {
  const sha = commitRef(ctx);
  ctx.gate.gate({ read: 'statuses', sha, prs: ctx.state.pullsWithCommit(sha) });
  return json(200, ctx.shapes.combinedStatus(sha));
});

const STATUS_STATES = ['error', 'failure', 'pending', 'success'];

repoRoute('POST', '/statuses/:sha', (ctx) => {
  // The path takes a full SHA of a commit the state knows (not a branch or an abbreviation).
  const given = ctx.params.sha;
  const sha = given.toLowerCase();
  ctx.gate.gate({ write: 'status', sha, prs: ctx.state.pullsWithCommit(sha) });
  const { value, error } = objectBody(ctx);
  if (error) return error;
  if (!/^[0-9a-f]{40}$/.test(sha) || !ctx.state.knownCommits().has(sha)) {
    return json(422, ctx.shapes.error(422, `No commit found for SHA: ${given}`));
  }
  if (!STATUS_STATES.includes(value.state)) {
    return validationFailed(ctx, [{ resource: 'Status', code: 'custom', field: 'state', message: 'state is not included in the list' }]);
  }
  const description = value.description ?? null;
  if (description !== null && typeof description !== 'string') {
    return validationFailed(ctx, [{ resource: 'Status', code: 'invalid', field: 'description' }]);
  }
  if (description !== null && [...description].length > 140) {
    return validationFailed(ctx, [{ resource: 'Status', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' }]);
  }
  const targetUrl = value.target_url ?? null;
  if (targetUrl !== null && typeof targetUrl !== 'string') {
    return validationFailed(ctx, [{ resource: 'Status', code: 'invalid', field: 'target_url' }]);
  }
  const context = value.context ?? 'default';
  if (typeof context !== 'string' || !context) {
    return validationFailed(ctx, [{ resource: 'Status', code: 'invalid', field: 'context' }]);
  }
  if (ctx.state.statuses(sha).filter((s) => s.context === context).length >= STATUSES_PER_CONTEXT_CAP) {
    return validationFailed(ctx, [{ resource: 'Status', code: 'custom', field: 'context', message: 'This SHA and context has reached the maximum number of statuses.' }]);
  }
  const status = ctx.state.createStatus(sha, { state: value.state, context, description, target_url: targetUrl }, writer(ctx).login);
  const body = ctx.shapes.status(sha, status);
  return json(201, body, { location: body.url });
});

repoRoute('GET', '/compare/:basehead+', (ctx) => {
  const idx = ctx.params.basehead.indexOf('...');
  if (idx < 0) return notFound(ctx);
  const base = ctx.params.basehead.slice(0, idx);
  const head = ctx.params.basehead.slice(idx + 3);
  const prs = [...new Set([base, head].flatMap((ref) => {
    const sha = ctx.state.resolveCommit(ref);
    return sha ? ctx.state.pullsWithCommit(sha) : [];
  }))];
  // `read: compare` hits it, and `read: commits` as before.
  ctx.gate.gate({ read: 'compare', prs, page: pageParams(ctx.query).page });
  ctx.gate.gate({ read: 'commits', prs, page: pageParams(ctx.query).page });
  const result = ctx.state.compare(base, head);
  if (!result) return notFound(ctx);
  return json(200, ctx.shapes.comparison(base, head, result));
});

// ---- GitHub App (JWT-only endpoints, installation tokens) ------------------------------

/** The App's installation on this repository, or null (not installed). */
function installationId(ctx) {
  return ctx.state.app?.installationId ?? null;
}

route('GET', '/app', (ctx) => {
  ctx.gate.gate({ read: 'app' });
  return json(200, ctx.shapes.integration(ctx.state.app));
}, { auth: 'jwt' });

route('GET', '/app/installations', (ctx) => {
  ctx.gate.gate({ read: 'app', page: pageParams(ctx.query).page });
  const list = installationId(ctx) === null ? [] : [ctx.state.app];
  return paged(ctx, list, (app) => ctx.shapes.installation(app));
}, { auth: 'jwt' });

route('GET', '/app/installations/:id#', (ctx) => {
  ctx.gate.gate({ read: 'app' });
  if (Number(ctx.params.id) !== installationId(ctx)) return notFound(ctx);
  return json(200, ctx.shapes.installation(ctx.state.app));
}, { auth: 'jwt' });

repoRoute('GET', '/installation', (ctx) => {
  ctx.gate.gate({ read: 'installation' });
  if (installationId(ctx) === null) return notFound(ctx);
  return json(200, ctx.shapes.installation(ctx.state.app));
}, { auth: 'jwt' });

const PERMISSION_LEVELS = { read: 1, write: 2, admin: 3 };

route('POST', '/app/installations/:id#/access_tokens', (ctx) => {
  ctx.gate.gate({ write: 'access_token' });
  const app = ctx.state.app;
  if (Number(ctx.params.id) !== installationId(ctx)) return notFound(ctx);
  const { value, error } = objectBody(ctx);
  if (error) return error;
  let selection = 'all';
  if (value.repositories !== undefined || value.repository_ids !== undefined) {
    const names = value.repositories ?? [];
    const ids = value.repository_ids ?? [];
    const ok = Array.isArray(names) && Array.isArray(ids)
      && names.every((n) => sameText(n, ctx.state.name))
      && ids.every((id) => id === ctx.state.repoId);
    if (!ok) return json(422, ctx.shapes.error(422, 'There is at least one repository that does not exist or is not accessible to the parent installation.'));
    selection = 'selected';
  }
  let permissions = app.permissions;
  if (value.permissions !== undefined) {
    const asked = value.permissions;
    const ok = asked !== null && typeof asked === 'object' && !Array.isArray(asked)
      && Object.entries(asked).every(([k, level]) => PERMISSION_LEVELS[level] !== undefined
        && PERMISSION_LEVELS[app.permissions[k]] >= PERMISSION_LEVELS[level]);
    if (!ok) return json(422, ctx.shapes.error(422, 'The permissions requested are not granted to this installation.'));
    permissions = asked;
  }
  const { token, record } = ctx.hub.tokens.issue({ app, nowMs: clock.now(), permissions, repositorySelection: selection });
  const expiresAt = nowIso(new Date(record.expiresMs));
  ctx.logEntry.issued_token = { n: record.n, expires_at: expiresAt };
  const body = { token, expires_at: expiresAt, permissions, repository_selection: selection };
  if (selection === 'selected') body.repositories = [ctx.shapes.repo()];
  return json(201, body);
}, { auth: 'jwt' });

route('DELETE', '/installation/token', (ctx) => {
  ctx.hub.tokens.revoke(ctx.auth.token);
  return json(204, null);
}, { auth: 'installation' });
