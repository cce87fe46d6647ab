// The fake GitLab's HTTP side: authentication, routes under /api/v4 and
// /api/graphql, pagination, faults, latency, the request log and the
// control endpoints under /_fake. docs/rules/gitlab.md says which GitLab
// behaviour each part models; README.md lists them.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { runGraphql, selectsNotes } from './graphql.mjs';
import { extract } from './quick.mjs';
import * as shape from './shapes.mjs';
import {
  dumpState, fakeSha, loadState, newDiscussionId, nextNoteId, nextStatusId, pipelineId, refFor, SnapshotError,
} from './state.mjs';

const MAX_PER_PAGE = 100; // GitLab's maximum page size
const DEFAULT_PER_PAGE = 20; // GitLab's default page size
const TOTAL_LIMIT = 10000; // above it GitLab omits x-total and x-total-pages
const MAX_BODY = 8 * 1024 * 1024; // request bodies the fake accepts
const NOTE_LIMIT = 1000000; // GitLab: a note body is limited to 1,000,000 characters
const TARGET_URL_LIMIT = 255; // GitLab: a status target_url is at most 255 characters

const LINE_CODE_400 = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

class HttpError extends Error {
  constructor(status, body, headers = {}) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}
const err = (status, message) => new HttpError(status, { message });

/** Rack's nested parameters: a[b][c]=1 → {a: {b: {c: '1'}}}; a[]=1&a[]=2 → {a: ['1','2']}. */
function rackParams(search) {
  const out = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) continue;
    const path = [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])];
    let cur = out;
    for (let i = 0; i < path.length; i++) {
      const k = path[i];
      const last = i === path.length - 1;
      if (k === '') {
        // a[] appends
        if (!Array.isArray(cur)) break;
        if (last) cur.push(value);
        break;
      }
      if (last) {
        cur[k] = value;
      } else {
        const arr = path[i + 1] === '';
        if (cur[k] === undefined || typeof cur[k] !== 'object') cur[k] = arr ? [] : {};
        cur = cur[k];
      }
    }
  }
  return out;
}

const intParam = (v) => (v === undefined || v === null || v === '' ? NaN : Number(v));

export class FakeGitlab {
  constructor(snapshot, { latencyMs = 0 } = {}) {
    this.state = loadState(snapshot);
    this.latencyMs = latencyMs;
    this.log = [];
    this.writes = [];
    this.faultHits = new Map();
    this.hooks = [];
    this.baseUrl = null;
    this.server = createServer((req, res) => this.handle(req, res));
  }

  listen(port = 0) {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.baseUrl = `http://127.0.0.1:${this.server.address().port}`;
        resolve(this.baseUrl);
      });
    });
  }

  close() {
    this.server.closeAllConnections?.();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  now() {
    return new Date().toISOString();
  }

  // --- requests ---------------------------------------------------------

  async handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    let raw;
    try {
      raw = await readBody(req);
    } catch {
      res.writeHead(413).end();
      return;
    }
    if (url.pathname.startsWith('/_fake/')) {
      this.control(req, res, url, raw);
      return;
    }
    const entry = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: parseLogBody(raw), status: null, auth: null, user: null };
    this.log.push(entry);
    const started = Date.now();
    const send = (status, body, headers = {}) => {
      entry.status = status;
      entry.ms = Date.now() - started;
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const h = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers };
      if (status === 204) delete h['content-type'];
      const go = () => {
        if (entry.mangle === 'truncated') {
          res.writeHead(status, h);
          res.end(text.slice(0, Math.floor(text.length / 2)));
          res.socket?.destroy();
          return;
        }
        if (entry.mangle === 'invalid_json') {
          const bad = '{"message": ';
          res.writeHead(status, { ...h, 'content-length': Buffer.byteLength(bad) }).end(bad);
          return;
        }
        res.writeHead(status, h).end(text);
      };
      if (this.latencyMs) setTimeout(go, this.latencyMs);
      else go();
    };
    try {
      this.fireHooks(entry, 'before');
      const out = this.route(req, url, raw, entry);
      // 'after': the answer is computed, the change lands before it is sent,
      // so the program's next request sees it (a change between two requests).
      this.fireHooks(entry, 'after');
      if (out === 'hang') {
        entry.status = null;
        req.on('close', () => { entry.aborted = true; });
        return;
      }
      send(out.status, out.body, out.headers);
    } catch (e) {
      if (e instanceof HttpError) {
        if (e.status === 'hang') {
          req.on('close', () => { entry.aborted = true; });
          return;
        }
        send(e.status, e.body, e.headers);
      } else {
        send(500, { message: '500 Internal Server Error', fake_error: String(e?.stack ?? e) });
      }
    }
  }

  /**
   * Mid-run hooks (POST /_fake/hooks, P64): a state change made when the
   * program's request `when` ("METHOD /path" regexp) comes for the
   * (skip+1)-th time, before it is handled or once it is answered; each
   * hook fires once. The ops are what another actor does meanwhile.
   */
  fireHooks(entry, at) {
    for (const h of this.hooks) {
      if (h.fired || (h.at ?? 'after') !== at) continue;
      if (!new RegExp(h.when).test(`${entry.method} ${entry.path}`)) continue;
      h.seen = (h.seen ?? 0) + 1;
      if (h.seen <= (h.skip ?? 0)) continue;
      h.fired = true;
      entry.hook = (h.ops ?? []).map((op) => this.applyOp(op));
    }
  }

  /** One hook op: add_note (another run's note, its body given or copied), push (the head moves). */
  applyOp(op) {
    const mr = this.state.merge_requests.find((x) => x.iid === (op.iid ?? this.state.merge_requests[0]?.iid));
    if (!mr) throw new Error(`hook: no MR !${op.iid}`);
    if (op.op === 'add_note') {
      let body = op.body;
      if (body === undefined && op.body_of_newest_by) {
        const mine = this.allNotes(mr).map((x) => x.n).filter((n) => !n.system && n.author?.toLowerCase() === op.body_of_newest_by.toLowerCase()
          && (op.first_line === undefined || n.body.split('\n')[0] === op.first_line));
        body = mine.sort((a, b) => b.id - a.id)[0]?.body;
        if (body === undefined) throw new Error(`hook: no note by ${op.body_of_newest_by}`);
        if (op.replace) for (const [from, to] of op.replace) body = body.split(from).join(to);
      }
      const now = this.now();
      const n = {
        id: nextNoteId(this.state), type: null, author: op.author ?? this.state.viewer, body: body ?? '', system: false, internal: false,
        created_at: now, updated_at: now, last_edited_at: null, last_edited_by: null, position: null,
        resolvable: false, resolved: false, resolved_by: null,
      };
      mr.discussions.push({ id: newDiscussionId(mr, n.id), individual_note: true, notes: [n] });
      return { op: 'add_note', note_id: n.id };
    }
    if (op.op === 'push') {
      const sha = String(op.sha).toLowerCase();
      if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error('hook: push needs a 40-hex sha');
      mr.commits.push(sha);
      mr.sha = sha;
      if (mr.diff_refs) mr.diff_refs = { ...mr.diff_refs, head_sha: sha };
      return { op: 'push', sha };
    }
    throw new Error(`hook: unknown op ${op.op}`);
  }

  /** Who the token is: PRIVATE-TOKEN, Bearer, ?private_token= or JOB-TOKEN. */
  authenticate(req, url, entry) {
    const h = req.headers;
    let token = null;
    if (h['private-token'] !== undefined) {
      entry.auth = 'header';
      token = h['private-token'];
    } else if (/^Bearer /i.test(h.authorization ?? '')) {
      entry.auth = 'bearer';
      token = h.authorization.slice(7);
    } else if (url.searchParams.has('private_token')) {
      entry.auth = 'query';
      token = url.searchParams.get('private_token');
    } else if (h['job-token'] !== undefined) {
      entry.auth = 'job';
      throw err(401, '401 Unauthorized'); // a job token may not write notes or statuses here
    }
    if (!token) throw err(401, '401 Unauthorized');
    const user = this.state.tokens?.[token] ?? this.state.viewer;
    entry.user = user;
    return user;
  }

  route(req, url, raw, entry) {
    const m = req.method;
    const p = url.pathname;
    if (p === '/api/graphql' && m === 'POST') return this.graphql(req, url, raw, entry);
    if (!p.startsWith('/api/v4/')) throw new HttpError(404, { error: '404 Not Found' });
    const user = this.authenticate(req, url, entry);
    const params = { ...rackParams(url.search), ...bodyParams(req, raw) };
    const seg = p.slice('/api/v4/'.length).split('/');
    const ctx = { req, url, params, user, entry };

    if (seg[0] === 'user' && seg.length === 1 && m === 'GET') {
      this.fault(ctx, { read: 'user' });
      return ok(shape.currentUser(this.state, user, this.now()));
    }
    if (seg[0] !== 'projects' || seg.length < 2) throw new HttpError(404, { error: '404 Not Found' });
    const project = this.project(decodeURIComponent(seg[1]));
    const rest = seg.slice(2);
    ctx.projectId = project;
    if (rest.length === 0 && m === 'GET') return ok(shape.project(this.state));

    if (rest[0] === 'merge_requests' && rest.length >= 2) {
      const iid = Number(rest[1]);
      const mr = this.state.merge_requests.find((x) => x.iid === iid && x.target_project_id === project);
      ctx.mr = mr;
      ctx.pr = iid;
      const sub = rest.slice(2);
      if (sub.length === 0 && m === 'GET') {
        this.fault(ctx, { read: 'merge_request' });
        return ok(shape.mergeRequest(this.state, this.needMr(mr)));
      }
      this.needMr(mr);
      if (sub[0] === 'notes') return this.notes(ctx, sub.slice(1), m);
      if (sub[0] === 'discussions') return this.discussions(ctx, sub.slice(1), m);
      if (sub[0] === 'commits' && sub.length === 1 && m === 'GET') {
        // GET …/merge_requests/:iid/commits: the MR's commits, newest first
        // (doc/api/merge_requests.md, "Get single merge request commits").
        const list = [...mr.commits].reverse().map((c) => ({ ...shape.commitBrief(c, '2026-11-29T09:00:00.000+00:00'), web_url: `https://${this.state.host}/${this.state.repository}/-/commit/${c}` }));
        return this.page(ctx, list);
      }
      if ((sub[0] === 'diffs' || sub[0] === 'changes') && sub.length === 1 && m === 'GET') {
        this.fault(ctx, { read: 'diffs' });
        const files = mr.diffs.map(shape.diff);
        if (sub[0] === 'changes') return ok({ ...shape.mergeRequest(this.state, mr), changes: files, overflow: false });
        return this.page(ctx, files);
      }
    }
    if (rest[0] === 'repository' && rest[1] === 'commits' && rest[3] === 'statuses' && rest.length === 4 && m === 'GET') {
      return this.listStatuses(ctx, rest[2].toLowerCase(), project);
    }
    if (rest[0] === 'statuses' && rest.length === 2 && m === 'POST') return this.postStatus(ctx, rest[1].toLowerCase(), project);
    if (rest[0] === 'repository' && rest[1] === 'merge_base' && rest.length === 2 && m === 'GET') return this.mergeBase(ctx);
    throw new HttpError(404, { error: '404 Not Found' });
  }

  project(idOrPath) {
    const s = this.state;
    const known = new Set([s.project_id, ...s.merge_requests.map((x) => x.source_project_id)]);
    if (/^\d+$/.test(idOrPath) && known.has(Number(idOrPath))) return Number(idOrPath);
    if (idOrPath === s.repository) return s.project_id;
    throw err(404, '404 Project Not Found');
  }

  needMr(mr) {
    if (!mr) throw err(404, '404 Not found');
    return mr;
  }

  // --- notes ------------------------------------------------------------

  allNotes(mr) {
    return mr.discussions.flatMap((d) => d.notes.map((n) => ({ n, d })));
  }

  findNote(ctx, id) {
    const hit = this.allNotes(ctx.mr).find((x) => x.n.id === Number(id));
    if (!hit) throw err(404, '404 Note Not Found');
    return hit;
  }

  notes(ctx, sub, m) {
    const { mr } = ctx;
    if (sub.length === 0 && m === 'GET') {
      this.fault(ctx, { read: 'notes' });
      const sort = ctx.params.sort === 'asc' ? 1 : -1;
      const key = ctx.params.order_by === 'updated_at' ? 'updated_at' : 'created_at';
      const list = this.allNotes(mr).map((x) => x.n);
      list.sort((a, b) => sort * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id));
      return this.page(ctx, list.map((n) => shape.note(this.state, mr, n)));
    }
    if (sub.length === 0 && m === 'POST') {
      ctx.write = 'note';
      const body = this.bodyParam(ctx);
      return this.applyWrite(ctx, { write: 'note' }, () => {
        const q = this.quick(ctx, body);
        if (q.onlyCommands) return { status: 202, body: { commands_changes: {}, summary: q.summary } };
        const n = this.newNote(ctx, q.content, null);
        n.commands_changes = q.changes;
        mr.discussions.push({ id: newDiscussionId(mr, n.id), individual_note: true, notes: [n] });
        this.recordWrite({ kind: 'comment_create', pr: mr.iid, comment_id: n.id, body_sha256: sha256(n.body) });
        return { status: 201, body: shape.note(this.state, mr, n) };
      });
    }
    if (sub.length === 1) {
      ctx.commentId = Number(sub[0]);
      if (m === 'GET') {
        this.fault(ctx, { read: 'notes' });
        return ok(shape.note(this.state, mr, this.findNote(ctx, sub[0]).n));
      }
      if (m === 'PUT') return this.updateNote(ctx, sub[0]);
      if (m === 'DELETE') return this.deleteNote(ctx, sub[0]);
    }
    throw new HttpError(404, { error: '404 Not Found' });
  }

  bodyParam(ctx) {
    const b = ctx.params.body;
    if (b === undefined || b === null) throw new HttpError(400, { error: 'body is missing' });
    if (typeof b !== 'string' || b === '') throw new HttpError(400, { error: 'body is empty' });
    if ([...b].length > NOTE_LIMIT) throw err(400, { note: [`is too long (maximum is ${NOTE_LIMIT} characters)`] });
    return b;
  }

  /** Quick actions: run (recorded on the MR), cut from the body (G13). */
  quick(ctx, body) {
    const { content, commands } = extract(body);
    const changes = {};
    for (const c of commands) {
      ctx.mr.quick_actions.push({ author: ctx.user, command: c.command, arg: c.arg, at: this.now() });
      changes[c.command] = c.arg ?? true;
    }
    ctx.entry.quick_actions = commands.map((c) => c.command);
    return { content, changes, onlyCommands: commands.length > 0 && content === '', summary: commands.map((c) => `Ran /${c.command}`) };
  }

  newNote(ctx, body, type) {
    const now = this.now();
    return {
      id: nextNoteId(this.state), type, author: ctx.user, body, system: false, internal: false,
      created_at: now, updated_at: now, last_edited_at: null, last_edited_by: null, position: null,
      resolvable: type !== null, resolved: false, resolved_by: null,
    };
  }

  updateNote(ctx, id) {
    const { mr } = ctx;
    const { n } = this.findNote(ctx, id);
    const body = this.bodyParam(ctx);
    if (n.author?.toLowerCase() !== ctx.user.toLowerCase() && !this.isMaintainer(ctx.user)) throw err(403, '403 Forbidden');
    return this.applyWrite(ctx, { write: 'note' }, () => {
      const q = this.quick(ctx, body);
      const now = this.now();
      if (q.content !== n.body) {
        // Notes::UpdateService: a changed body records its editor.
        n.body = q.content;
        n.last_edited_at = now;
        n.last_edited_by = ctx.user;
      }
      n.updated_at = now;
      n.commands_changes = q.changes;
      this.recordWrite({ kind: 'comment_update', pr: mr.iid, comment_id: n.id, body_sha256: sha256(n.body) });
      return { status: 200, body: shape.note(this.state, mr, n) };
    });
  }

  deleteNote(ctx, id) {
    const { mr } = ctx;
    const { n, d } = this.findNote(ctx, id);
    if (n.author?.toLowerCase() !== ctx.user.toLowerCase() && !this.isMaintainer(ctx.user)) throw err(403, '403 Forbidden');
    return this.applyWrite(ctx, { write: 'note_delete' }, () => {
      d.notes = d.notes.filter((x) => x !== n);
      if (!d.notes.length) mr.discussions = mr.discussions.filter((x) => x !== d);
      this.recordWrite({ kind: 'comment_delete', pr: mr.iid, comment_id: n.id });
      return { status: 204, body: undefined };
    });
  }

  isMaintainer(user) {
    return (this.state.maintainers ?? []).some((u) => u.toLowerCase() === user.toLowerCase());
  }

  // --- discussions ------------------------------------------------------

  discussions(ctx, sub, m) {
    const { mr } = ctx;
    if (sub.length === 0 && m === 'GET') {
      this.fault(ctx, { read: 'discussions' });
      return this.page(ctx, mr.discussions.map((d) => shape.discussion(this.state, mr, d)));
    }
    if (sub.length === 0 && m === 'POST') return this.createDiscussion(ctx);
    const d = mr.discussions.find((x) => x.id === sub[0]);
    if (sub.length === 1 && m === 'GET') {
      this.fault(ctx, { read: 'discussions' });
      if (!d) throw err(404, '404 Discussion Not Found');
      return ok(shape.discussion(this.state, mr, d));
    }
    if (sub.length === 2 && sub[1] === 'notes' && m === 'POST') {
      if (!d) throw err(404, '404 Discussion Not Found');
      const body = this.bodyParam(ctx);
      return this.applyWrite(ctx, { write: 'note' }, () => {
        const q = this.quick(ctx, body);
        if (q.onlyCommands) return { status: 202, body: { commands_changes: {}, summary: q.summary } };
        const first = d.notes[0];
        const type = first.type === 'DiffNote' ? 'DiffNote' : 'DiscussionNote';
        const n = this.newNote(ctx, q.content, type);
        if (type === 'DiffNote') {
          n.position = { ...first.position };
          n.commit_id = first.commit_id;
        }
        if (d.individual_note) {
          // A reply turns an individual note into a thread (GitLab converts it).
          d.individual_note = false;
          first.type = 'DiscussionNote';
          first.resolvable = true;
        }
        n.resolvable = true;
        d.notes.push(n);
        this.recordWrite({ kind: 'reply', pr: mr.iid, discussion_id: d.id, note_id: n.id });
        return { status: 201, body: shape.note(this.state, mr, n) };
      });
    }
    throw new HttpError(404, { error: '404 Not Found' });
  }

  createDiscussion(ctx) {
    const { mr, params } = ctx;
    const body = this.bodyParam(ctx);
    let position = null;
    if (params.position !== undefined) {
      position = params.position;
      if (typeof position !== 'object' || position === null || Array.isArray(position)) throw new HttpError(400, { error: 'position is invalid' });
      for (const k of ['base_sha', 'start_sha', 'head_sha', 'position_type']) {
        if (position[k] === undefined || position[k] === null || position[k] === '') throw new HttpError(400, { error: `position[${k}] is missing` });
      }
      if (!['text', 'image', 'file'].includes(position.position_type)) throw new HttpError(400, { error: 'position[position_type] does not have a valid value' });
    }
    return this.applyWrite(ctx, { write: 'discussion' }, () => {
      let type = 'DiscussionNote';
      let pos = null;
      if (position) {
        pos = this.resolvePosition(mr, position); // throws GitLab's 400
        type = 'DiffNote';
      }
      const q = this.quick(ctx, body);
      if (q.onlyCommands) return { status: 202, body: { commands_changes: {}, summary: q.summary } };
      const n = this.newNote(ctx, q.content, type);
      n.commands_changes = q.changes;
      if (pos) {
        n.position = pos;
        n.commit_id = pos.head_sha;
      }
      const d = { id: newDiscussionId(mr, n.id), individual_note: false, notes: [n] };
      mr.discussions.push(d);
      const findings = [...n.body.matchAll(/^<!-- pr-review:finding-id=(F[0-9]+) -->$/gm)].map((x) => x[1]);
      this.recordWrite({ kind: 'discussion', pr: mr.iid, discussion_id: d.id, note_id: n.id, commit_id: pos?.head_sha ?? null, findings });
      return { status: 201, body: shape.discussion(this.state, mr, d) };
    });
  }

  /**
   * GitLab resolves a text position to one line of the diff between its
   * base and head: the line whose old and new numbers both equal the
   * position's (Gitlab::Diff::File#line_for_position). No such line: the
   * note has no line code and GitLab answers 400.
   */
  resolvePosition(mr, p) {
    const refs = mr.diff_refs;
    const num = (v) => (v === undefined || v === null || v === '' ? null : Number(v));
    const out = {
      base_sha: String(p.base_sha), start_sha: String(p.start_sha), head_sha: String(p.head_sha),
      old_path: p.old_path ?? p.new_path ?? null, new_path: p.new_path ?? p.old_path ?? null,
      position_type: p.position_type, old_line: num(p.old_line), new_line: num(p.new_line), line_range: null,
    };
    if (p.position_type !== 'text') return out;
    const bad = () => { throw err(400, LINE_CODE_400); };
    if (!refs || refs.base_sha !== out.base_sha.toLowerCase() || refs.head_sha !== out.head_sha.toLowerCase() || refs.start_sha !== out.start_sha.toLowerCase()) bad();
    const file = mr.diffs.find((f) => f.new_path === out.new_path && (f.old_path ?? f.new_path) === out.old_path);
    if (!file || !file.diff) bad();
    const line = diffLines(file.diff).find((l) => l.old_line === out.old_line && l.new_line === out.new_line);
    if (!line) bad();
    return out;
  }

  // --- statuses ---------------------------------------------------------

  listStatuses(ctx, sha, project) {
    ctx.sha = sha;
    this.fault(ctx, { read: 'statuses' });
    if (!this.knownCommit(sha)) throw err(404, '404 Commit Not Found');
    const p = ctx.params;
    let list = this.state.commit_statuses.filter((st) => st.sha === sha && st.project_id === project);
    if (p.ref) list = list.filter((st) => st.ref === p.ref);
    if (p.name) list = list.filter((st) => st.name === p.name);
    if (!(p.all === 'true' || p.all === true)) {
      // Without all=true GitLab shows the latest status of each name (and ref).
      const latest = new Map();
      for (const st of list) {
        const key = `${st.name}\u0000${st.ref}`;
        if (!latest.has(key) || latest.get(key).id < st.id) latest.set(key, st);
      }
      list = [...latest.values()];
    }
    const desc = p.sort !== 'asc';
    list.sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
    return this.page(ctx, list.map((st) => shape.status(this.state, st)));
  }

  /** Ci::CreateCommitStatusService: a running or pending job of the same name, ref and user is transitioned. */
  postStatus(ctx, sha, project) {
    ctx.sha = sha;
    const p = ctx.params;
    if (!this.knownCommit(sha)) throw err(404, '404 Commit Not Found');
    if (!p.state) throw new HttpError(400, { error: 'state is missing' });
    if (!['pending', 'running', 'success', 'failed', 'canceled', 'skipped'].includes(p.state)) {
      throw new HttpError(400, { error: 'state does not have a valid value' });
    }
    const name = p.name ?? p.context ?? 'default';
    const ref = p.ref ?? refFor(this.state, sha);
    if (p.target_url !== undefined && p.target_url !== null && String(p.target_url).length > TARGET_URL_LIMIT) {
      throw err(400, { target_url: [`is too long (maximum is ${TARGET_URL_LIMIT} characters)`] });
    }
    return this.applyWrite(ctx, { write: 'status' }, () => {
      const now = this.now();
      let st = this.state.commit_statuses
        .filter((x) => x.sha === sha && x.project_id === project && x.name === name && x.ref === ref
          && ['pending', 'running'].includes(x.status) && (x.author ?? '').toLowerCase() === ctx.user.toLowerCase())
        .sort((a, b) => b.id - a.id)[0];
      const event = { pending: 'enqueue', running: 'run', success: 'succeed', failed: 'drop', canceled: 'cancel', skipped: 'skip' }[p.state];
      if (st && st.status === p.state && (p.state === 'pending' || p.state === 'running')) {
        throw err(400, `Cannot transition status via :${event} from :${st.status} (Reason(s): Status cannot transition via "${event}")`);
      }
      if (!st) {
        st = { id: nextStatusId(this.state), sha, ref, name, status: 'created', description: null, target_url: null, author: ctx.user,
          created_at: now, started_at: null, finished_at: null, allow_failure: false, project_id: project, pipeline_id: pipelineId(project, sha, ref) };
        this.state.commit_statuses.push(st);
      }
      if (p.description !== undefined) st.description = p.description;
      if (p.target_url !== undefined) st.target_url = p.target_url;
      st.status = p.state;
      if (p.state === 'running') st.started_at = now;
      if (['success', 'failed', 'canceled', 'skipped'].includes(p.state)) st.finished_at = now;
      this.recordWrite({ kind: 'status', sha, state: p.state, context: name, description: st.description ?? '', target_url: st.target_url });
      return { status: 201, body: shape.status(this.state, st) };
    });
  }

  knownCommit(sha) {
    const s = this.state;
    return s.merge_requests.some((mr) => mr.sha === sha || mr.commits.includes(sha) || Object.values(mr.diff_refs ?? {}).includes(sha))
      || s.commit_statuses.some((st) => st.sha === sha);
  }

  // --- merge base -------------------------------------------------------

  mergeBase(ctx) {
    this.fault(ctx, { read: 'merge_base' });
    const refs = ctx.params.refs;
    if (!Array.isArray(refs) || refs.length < 2) throw err(400, 'Provide at least 2 refs');
    const [a, b] = refs.map((r) => String(r).toLowerCase());
    for (const r of [a, b]) if (!this.knownCommit(r)) throw err(400, `Could not find ref: ${r}`);
    const base = this.chainBase(a, b);
    if (!base) throw err(404, '404 Merge Base Not Found');
    return ok(shape.commitBrief(base, '2026-11-29T09:00:00.000+00:00'));
  }

  /** The commit model: an MR's commits form a chain on its diff_refs.base_sha. */
  chainBase(a, b) {
    for (const mr of this.state.merge_requests) {
      const chain = [mr.diff_refs?.base_sha ?? fakeSha(mr.target_branch), ...mr.commits];
      const ia = chain.indexOf(a);
      const ib = chain.indexOf(b);
      if (ia >= 0 && ib >= 0) return chain[Math.min(ia, ib)];
      if (ia >= 0 || ib >= 0) return chain[0];
    }
    return null;
  }

  // --- GraphQL ----------------------------------------------------------

  graphql(req, url, raw, entry) {
    const user = this.authenticate(req, url, entry);
    entry.api = 'graphql';
    let q;
    try {
      q = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new HttpError(400, { errors: [{ message: 'Invalid JSON' }] });
    }
    const ctx = { req, url, params: {}, user, entry, api: 'graphql' };
    if (selectsNotes(q.query)) {
      ctx.pr = Number(q.variables?.iid ?? NaN) || undefined;
      this.fault(ctx, { read: 'editors' });
    }
    return ok(runGraphql(this, user, q.query, q.variables ?? {}));
  }

  // --- pagination -------------------------------------------------------

  page(ctx, items) {
    const per = Math.min(MAX_PER_PAGE, Math.max(1, intParam(ctx.params.per_page) || DEFAULT_PER_PAGE));
    const pageNo = Math.max(1, intParam(ctx.params.page) || 1);
    ctx.page = pageNo;
    if (ctx.readKind) {
      const f = this.match(ctx, ctx.readKind);
      if (f) this.fire(ctx, f, null);
    }
    const total = items.length;
    const pages = Math.max(1, Math.ceil(total / per));
    const slice = items.slice((pageNo - 1) * per, pageNo * per);
    const limit = this.state.pagination?.total_limit ?? TOTAL_LIMIT;
    const headers = {
      'x-page': String(pageNo),
      'x-per-page': String(per),
      'x-next-page': pageNo < pages ? String(pageNo + 1) : '',
      'x-prev-page': pageNo > 1 ? String(pageNo - 1) : '',
    };
    const link = (n, rel) => {
      const u = new URL(ctx.url.pathname + ctx.url.search, this.offhost ?? this.baseUrl);
      u.searchParams.set('page', String(n));
      u.searchParams.set('per_page', String(per));
      return `<${u}>; rel="${rel}"`;
    };
    const links = [];
    if (pageNo > 1) links.push(link(pageNo - 1, 'prev'));
    if (pageNo < pages) links.push(link(pageNo + 1, 'next'));
    links.push(link(1, 'first'));
    if (total <= limit) {
      headers['x-total'] = String(total);
      headers['x-total-pages'] = String(pages);
      links.push(link(pages, 'last'));
    }
    headers.link = links.join(', ');
    if (ctx.entry.offhost) {
      headers.link = `<http://evil.invalid:${new URL(this.baseUrl).port}${ctx.url.pathname}?page=${pageNo + 1}>; rel="next"`;
    }
    return { status: 200, body: slice, headers };
  }

  // --- faults -----------------------------------------------------------

  /** The first fault matching this access, counted; null when none fires. */
  match(ctx, kind) {
    for (const [i, f] of this.state.faults.entries()) {
      if (kind.read && f.read !== kind.read) continue;
      if (kind.write && f.write !== kind.write) continue;
      if (f.pr != null && f.pr !== ctx.pr) continue;
      if (f.sha != null && !(ctx.sha && ctx.sha.startsWith(f.sha.toLowerCase()))) continue;
      if (f.comment_id != null && f.comment_id !== ctx.commentId) continue;
      if (f.page != null && f.page !== (ctx.page ?? 1)) continue;
      if (f.api != null && f.api !== (ctx.api ?? 'rest')) continue;
      const hits = (this.faultHits.get(i) ?? 0) + 1;
      this.faultHits.set(i, hits);
      if (hits <= (f.skip ?? 0)) continue;
      if (f.times && hits > (f.skip ?? 0) + f.times) continue;
      return f;
    }
    return null;
  }

  /** Read faults: a list's fire in page(), once the page asked is known. */
  fault(ctx, kind) {
    ctx.readKind = kind;
    if (this.isList(ctx)) return;
    const f = this.match(ctx, kind);
    if (f) this.fire(ctx, f, null);
  }

  isList(ctx) {
    return ctx.api !== 'graphql' && ctx.req.method === 'GET' && /\/(discussions|notes|diffs|statuses)$/.test(ctx.url.pathname);
  }

  /** Run a write unless a fault stops it; lost_response applies it, then fails. */
  applyWrite(ctx, kind, apply) {
    const f = this.match(ctx, kind);
    if (!f) return apply();
    if ((f.mode ?? 'status') === 'lost_response') {
      apply();
      ctx.entry.lost = true;
      this.fire(ctx, { ...f, mode: 'status', status: f.status ?? 502 }, null);
    }
    return this.fire(ctx, f, apply);
  }

  fire(ctx, f, apply) {
    const mode = f.mode ?? 'status';
    ctx.entry.fault = mode;
    if (mode === 'hang' || f.status === 'timeout' || f.status === 'hang') throw new HttpError('hang', null);
    if (mode === 'rate_limit') {
      const after = f.retry_after ?? 1;
      const reset = Math.floor(Date.now() / 1000) + after;
      throw new HttpError(f.status ?? 429, 'Retry later\n', {
        'content-type': 'text/plain', 'retry-after': String(after), 'ratelimit-limit': '600', 'ratelimit-observed': '601',
        'ratelimit-remaining': '0', 'ratelimit-reset': String(reset), 'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
      });
    }
    if (mode === 'truncated' || mode === 'invalid_json' || mode === 'offhost_link') {
      ctx.entry.mangle = mode;
      if (mode === 'offhost_link') ctx.entry.offhost = true;
      return apply ? apply() : undefined;
    }
    throw new HttpError(f.status, errorBody(f.status, ctx));
  }

  recordWrite(w) {
    this.writes.push(w);
  }

  // --- control ----------------------------------------------------------

  control(req, res, url, raw) {
    const json = (status, body) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    };
    const p = url.pathname;
    try {
      if (p === '/_fake/state' && req.method === 'GET') return json(200, dumpState(this.state));
      if (p === '/_fake/state' && req.method === 'POST') {
        this.state = loadState(JSON.parse(raw.toString('utf8')));
        this.faultHits.clear();
        this.hooks = [];
        this.writes = [];
        return json(204);
      }
      if (p === '/_fake/log' && req.method === 'GET') return json(200, this.log);
      if (p === '/_fake/log/clear' && req.method === 'POST') { this.log = []; return json(204); }
      if (p === '/_fake/writes' && req.method === 'GET') return json(200, this.writes);
      if (p === '/_fake/writes/clear' && req.method === 'POST') { this.writes = []; return json(204); }
      if (p === '/_fake/hooks' && req.method === 'GET') return json(200, this.hooks);
      if (p === '/_fake/hooks' && req.method === 'POST') {
        const body = JSON.parse(raw.toString('utf8'));
        const hooks = Array.isArray(body) ? body : body.hooks;
        if (!Array.isArray(hooks)) throw new Error('hooks: expected an array');
        for (const h of hooks) {
          if (typeof h?.when !== 'string' || !Array.isArray(h.ops)) throw new Error('hooks: each needs when (a regexp) and ops');
          new RegExp(h.when); // eslint-disable-line no-new
          if (h.at !== undefined && !['before', 'after'].includes(h.at)) throw new Error('hooks: at is before or after');
        }
        this.hooks = hooks.map((h) => ({ ...h, seen: 0, fired: false }));
        return json(204);
      }
      if (p === '/_fake/faults' && req.method === 'GET') return json(200, this.state.faults);
      if (p === '/_fake/faults' && req.method === 'POST') {
        const body = JSON.parse(raw.toString('utf8'));
        const faults = Array.isArray(body) ? body : body.faults;
        loadState({ ...dumpState(this.state), faults }); // validates
        this.state.faults = faults;
        this.faultHits.clear();
        return json(204);
      }
      return json(404, { error: 'unknown control endpoint' });
    } catch (e) {
      return json(400, { error: e instanceof SnapshotError ? e.message : String(e.message) });
    }
  }
}

function ok(body, headers = {}) {
  return { status: 200, body, headers };
}

function errorBody(status, ctx) {
  if (status === 400 && ctx.entry.path.endsWith('/discussions')) return { message: LINE_CODE_400 };
  const text = {
    400: '400 Bad request', 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not found', 409: '409 Conflict',
    422: '422 Unprocessable Entity', 429: '429 Too Many Requests', 500: '500 Internal Server Error', 502: '502 Bad Gateway',
    503: '503 Service Unavailable', 504: '504 Gateway Timeout',
  }[status] ?? `${status}`;
  return { message: text };
}

/** The lines of a unified diff with their old and new numbers (null on the side they are absent from). */
export function diffLines(diff) {
  const out = [];
  let o = 0;
  let n = 0;
  for (const line of diff.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (h) {
      o = Number(h[1]);
      n = Number(h[2]);
      continue;
    }
    if (line.startsWith('+')) out.push({ kind: '+', old_line: null, new_line: n++ });
    else if (line.startsWith('-')) out.push({ kind: '-', old_line: o++, new_line: null });
    else if (line.startsWith(' ')) out.push({ kind: ' ', old_line: o++, new_line: n++ });
  }
  return out;
}

function sha256(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseLogBody(raw) {
  if (!raw.length) return null;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** JSON bodies keep their keys literally (a "position[new_line]" key is no position); form bodies are Rack-nested. */
function bodyParams(req, raw) {
  if (!raw.length) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    try {
      const v = JSON.parse(raw.toString('utf8'));
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch {
      throw new HttpError(400, { error: 'The provided content-type \'application/json\' did not match the body' });
    }
  }
  if (type === 'application/x-www-form-urlencoded') return rackParams(raw.toString('utf8'));
  return {};
}
