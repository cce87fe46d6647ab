// The fake GitLab's state: a GitLab snapshot (docs/snapshot.md, "GitLab
// merge requests"), checked, completed with GitLab's defaults, and mutated
// by writes the way GitLab applies them (docs/rules/gitlab.md).
import { createHash } from 'node:crypto';

const SHA = /^[0-9a-fA-F]{40}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const PROJECT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*){1,20}$/;
const USERNAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
const HOST = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$/;

export const READ_KINDS = ['user', 'merge_request', 'discussions', 'notes', 'editors', 'diffs', 'statuses', 'merge_base'];
export const WRITE_KINDS = ['note', 'note_delete', 'discussion', 'status'];
const MODES = ['status', 'rate_limit', 'truncated', 'invalid_json', 'offhost_link', 'hang', 'lost_response'];
const STATUS_STATES = ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual'];

export class SnapshotError extends Error {}

function fail(where, what) {
  throw new SnapshotError(`${where}: ${what}`);
}

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v, min = 1, max = Number.MAX_SAFE_INTEGER) => Number.isInteger(v) && v >= min && v <= max;

function optStr(o, k, where) {
  if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'string') fail(`${where}.${k}`, 'expected a string or null');
}
function optBool(o, k, where) {
  if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'boolean') fail(`${where}.${k}`, 'expected a boolean or null');
}
function optTime(o, k, where) {
  if (o[k] !== undefined && o[k] !== null && !(typeof o[k] === 'string' && TIME.test(o[k]))) fail(`${where}.${k}`, 'expected an ISO-8601 UTC time ending in Z');
}
function reqTime(o, k, where) {
  if (!(typeof o[k] === 'string' && TIME.test(o[k]))) fail(`${where}.${k}`, 'required: an ISO-8601 UTC time ending in Z');
}
function optUser(o, k, where) {
  if (o[k] !== undefined && o[k] !== null && !(typeof o[k] === 'string' && USERNAME.test(o[k]))) fail(`${where}.${k}`, 'expected a GitLab username or null');
}
function optSha(o, k, where) {
  if (o[k] !== undefined && o[k] !== null && !(typeof o[k] === 'string' && SHA.test(o[k]))) fail(`${where}.${k}`, 'expected a 40-hex SHA or null');
}

/** A stable fake SHA for a name (the target branch's tip when none is given). */
export function fakeSha(name) {
  return createHash('sha1').update(`fakegitlab:${name}`).digest('hex');
}

/** GitLab's discussion id form: 40 hex digits. */
function discussionId(seed) {
  return createHash('sha1').update(`discussion:${seed}`).digest('hex');
}

function checkNote(n, where, inThread) {
  if (!isObj(n)) fail(where, 'expected an object');
  if (!isInt(n.id)) fail(`${where}.id`, 'required: an integer from 1 to 2^53-1');
  if (!('body' in n)) fail(`${where}.body`, 'required (null: empty)');
  optStr(n, 'body', where);
  reqTime(n, 'created_at', where);
  for (const k of ['updated_at', 'last_edited_at']) optTime(n, k, where);
  for (const k of ['author', 'last_edited_by', 'resolved_by']) optUser(n, k, where);
  for (const k of ['system', 'internal', 'resolvable', 'resolved']) optBool(n, k, where);
  optSha(n, 'commit_id', where);
  const types = inThread ? ['DiscussionNote', 'DiffNote', null] : [null];
  if (n.type !== undefined && !types.includes(n.type)) fail(`${where}.type`, `expected one of ${types.map(String).join(', ')}`);
  if (n.position !== undefined && n.position !== null) {
    const p = n.position;
    if (!isObj(p) || typeof p.new_path !== 'string') fail(`${where}.position`, 'expected an object with new_path');
    for (const k of ['base_sha', 'start_sha', 'head_sha']) optSha(p, k, `${where}.position`);
    for (const k of ['old_line', 'new_line']) if (p[k] !== undefined && p[k] !== null && !isInt(p[k])) fail(`${where}.position.${k}`, 'expected a positive integer or null');
  }
}

function checkFault(f, where) {
  if (!isObj(f)) fail(where, 'expected an object');
  const has = (k) => f[k] !== undefined && f[k] !== null;
  if (has('read') && has('write')) fail(where, 'has both read and write');
  if (!has('read') && !has('write')) fail(where, 'needs read or write');
  if (has('read') && !READ_KINDS.includes(f.read)) fail(`${where}.read`, `unknown kind "${f.read}"`);
  if (has('write') && !WRITE_KINDS.includes(f.write)) fail(`${where}.write`, `unknown kind "${f.write}"`);
  if (has('mode') && !MODES.includes(f.mode)) fail(`${where}.mode`, `unknown mode "${f.mode}"`);
  const mode = f.mode ?? 'status';
  if (has('status')) {
    if (!(isInt(f.status, 100, 599) || f.status === 'timeout' || f.status === 'hang')) fail(`${where}.status`, 'expected an HTTP status, "timeout" or "hang"');
  } else if (mode === 'status') fail(`${where}.status`, 'required in mode status');
  for (const k of ['pr', 'page']) if (has(k) && !isInt(f[k], 1, 2 ** 31 - 1)) fail(`${where}.${k}`, 'expected a positive integer');
  for (const k of ['skip', 'times', 'retry_after']) if (has(k) && !isInt(f[k], 0)) fail(`${where}.${k}`, 'expected a non-negative integer');
  if (has('comment_id') && !isInt(f.comment_id)) fail(`${where}.comment_id`, 'expected a positive integer');
  optSha(f, 'sha', where);
}

/** Check a snapshot and return the state the server serves (defaults filled in). */
export function loadState(snap) {
  if (!isObj(snap)) fail('snapshot', 'expected a JSON object');
  if (snap.snapshot !== 1) fail('snapshot', 'expected 1');
  if (snap.platform !== 'gitlab') fail('platform', 'expected "gitlab" (the fake GitLab serves GitLab snapshots only)');
  if (typeof snap.host !== 'string' || !HOST.test(snap.host)) fail('host', 'required: HOST or HOST:PORT in lower case');
  if (typeof snap.repository !== 'string' || !PROJECT.test(snap.repository) || /(\.git|\.atom)(\/|$)/.test(snap.repository)) fail('repository', 'required: a project path GROUP[/SUBGROUP...]/PROJECT');
  if (!Array.isArray(snap.pulls) || snap.pulls.length) fail('pulls', 'required, and empty in a GitLab snapshot');
  if (snap.project_id !== undefined && snap.project_id !== null && !isInt(snap.project_id)) fail('project_id', 'expected a positive integer');
  optUser(snap, 'viewer', 'snapshot');
  const s = structuredClone(snap);
  s.project_id ??= 1;
  s.viewer ??= s.config?.review_login ?? s.config?.trusted_login ?? 'lfx-reviewer';
  s.merge_requests ??= [];
  s.commit_statuses ??= [];
  s.users ??= [];
  s.faults ??= [];
  if (!Array.isArray(s.merge_requests)) fail('merge_requests', 'expected an array');
  if (!Array.isArray(s.commit_statuses)) fail('commit_statuses', 'expected an array');
  if (!Array.isArray(s.faults)) fail('faults', 'expected an array');
  if (s.tokens !== undefined && !isObj(s.tokens)) fail('tokens', 'expected an object of token: username');
  s.faults.forEach((f, i) => checkFault(f, `faults[${i}]`));
  const iids = new Set();
  const noteIds = new Set();
  s.merge_requests.forEach((mr, i) => {
    const w = `merge_requests[${i}]`;
    if (!isObj(mr)) fail(w, 'expected an object');
    if (!isInt(mr.iid, 1, 2 ** 31 - 1)) fail(`${w}.iid`, 'required: a positive integer');
    if (iids.has(mr.iid)) fail(`${w}.iid`, `MR !${mr.iid} is listed twice`);
    iids.add(mr.iid);
    if (!(typeof mr.sha === 'string' && SHA.test(mr.sha))) fail(`${w}.sha`, 'required: a 40-hex SHA');
    if (mr.state !== undefined && mr.state !== null && !['opened', 'closed', 'merged', 'locked'].includes(mr.state)) fail(`${w}.state`, 'expected opened, closed, merged or locked');
    optUser(mr, 'author', w);
    for (const k of ['title', 'description', 'source_branch', 'target_branch', 'web_url']) optStr(mr, k, w);
    for (const k of ['created_at', 'updated_at']) optTime(mr, k, w);
    optBool(mr, 'draft', w);
    if (mr.diff_refs !== undefined && mr.diff_refs !== null) {
      if (!isObj(mr.diff_refs)) fail(`${w}.diff_refs`, 'expected an object or null');
      for (const k of ['base_sha', 'start_sha', 'head_sha']) if (!SHA.test(mr.diff_refs[k] ?? '')) fail(`${w}.diff_refs.${k}`, 'required: a 40-hex SHA');
    }
    for (const k of ['commits', 'notes', 'discussions', 'diffs']) if (mr[k] !== undefined && mr[k] !== null && !Array.isArray(mr[k])) fail(`${w}.${k}`, 'expected an array');
    (mr.commits ?? []).forEach((c, j) => { if (!SHA.test(c)) fail(`${w}.commits[${j}]`, 'expected a 40-hex SHA'); });
    // Defaults (docs/snapshot.md).
    mr.state ??= 'opened';
    mr.draft ??= false;
    mr.source_branch ??= 'feature';
    mr.target_branch ??= 'main';
    mr.source_project_id ??= s.project_id;
    mr.target_project_id ??= s.project_id;
    mr.id ??= 10000 + mr.iid;
    mr.title ??= `Merge request !${mr.iid}`;
    mr.description ??= null;
    mr.author ??= null;
    mr.sha = mr.sha.toLowerCase();
    if (mr.diff_refs === undefined) {
      const base = fakeSha(mr.target_branch);
      mr.diff_refs = { base_sha: base, start_sha: base, head_sha: mr.sha };
    }
    mr.web_url ??= `https://${s.host}/${s.repository}/-/merge_requests/${mr.iid}`;
    mr.commits = (mr.commits && mr.commits.length ? mr.commits : [mr.sha]).map((c) => c.toLowerCase());
    mr.diffs ??= [];
    mr.quick_actions ??= [];
    // Individual notes become discussions of their own; threads keep theirs.
    const threads = [];
    (mr.notes ?? []).forEach((n, j) => {
      checkNote(n, `${w}.notes[${j}]`, false);
      threads.push({ id: n.discussion_id ?? discussionId(`${mr.iid}:${n.id}`), individual_note: true, notes: [{ ...n, type: null }] });
      delete threads.at(-1).notes[0].discussion_id;
    });
    (mr.discussions ?? []).forEach((d, j) => {
      if (!isObj(d) || !Array.isArray(d.notes) || !d.notes.length) fail(`${w}.discussions[${j}].notes`, 'required: at least one note');
      if (d.id !== undefined && !/^[0-9a-f]{40}$/.test(d.id)) fail(`${w}.discussions[${j}].id`, 'expected 40 lower-case hex digits');
      d.notes.forEach((n, k) => checkNote(n, `${w}.discussions[${j}].notes[${k}]`, true));
      threads.push({
        id: d.id ?? discussionId(`${mr.iid}:${d.notes[0].id}`),
        individual_note: d.individual_note ?? false,
        notes: d.notes.map((n) => ({ ...n, type: n.type === undefined ? 'DiscussionNote' : n.type })),
      });
    });
    for (const t of threads) {
      for (const n of t.notes) {
        if (noteIds.has(n.id)) fail(`${w}`, `note ${n.id} is listed twice`);
        noteIds.add(n.id);
        normaliseNote(n, mr);
      }
    }
    mr.discussions = threads;
    delete mr.notes;
  });
  s.commit_statuses.forEach((st, i) => {
    const w = `commit_statuses[${i}]`;
    if (!isObj(st) || !isInt(st.id)) fail(`${w}.id`, 'required: a positive integer');
    if (!SHA.test(st.sha ?? '')) fail(`${w}.sha`, 'required: a 40-hex SHA');
    if (typeof st.name !== 'string' || !st.name) fail(`${w}.name`, 'required: a non-empty string');
    if (!STATUS_STATES.includes(st.status)) fail(`${w}.status`, `expected one of ${STATUS_STATES.join(', ')}`);
    reqTime(st, 'created_at', w);
    st.sha = st.sha.toLowerCase();
    st.project_id ??= s.project_id;
    st.ref ??= refFor(s, st.sha);
    st.description ??= null;
    st.target_url ??= null;
    st.author ??= null;
    st.allow_failure ??= false;
    st.started_at ??= null;
    st.finished_at ??= null;
    st.pipeline_id ??= pipelineId(st.project_id, st.sha, st.ref);
  });
  return s;
}

function normaliseNote(n, mr) {
  n.author ??= null;
  n.body ??= '';
  n.system ??= false;
  n.internal ??= false;
  n.last_edited_at ??= null;
  n.last_edited_by ??= null;
  n.updated_at ??= n.last_edited_at ?? n.created_at;
  if (n.type === 'DiffNote') {
    const p = (n.position ??= { new_path: 'README.md' });
    p.position_type ??= 'text';
    p.base_sha ??= mr.diff_refs?.base_sha ?? null;
    p.start_sha ??= mr.diff_refs?.start_sha ?? null;
    p.head_sha ??= mr.diff_refs?.head_sha ?? mr.sha;
    p.old_path ??= p.new_path;
    p.old_line ??= null;
    p.new_line ??= null;
    p.line_range ??= null;
    n.commit_id ??= p.head_sha;
    n.resolvable ??= true;
  } else {
    n.position = null;
    n.resolvable ??= n.type === 'DiscussionNote';
  }
  n.resolved ??= false;
  n.resolved_by ??= null;
}

/** The branch a status of `sha` is on: the source branch of an MR holding the commit. */
export function refFor(s, sha) {
  for (const mr of s.merge_requests) if (mr.sha === sha || mr.commits.includes(sha)) return mr.source_branch;
  return s.merge_requests[0]?.target_branch ?? 'main';
}

export function pipelineId(projectId, sha, ref) {
  return 100000 + (parseInt(createHash('sha1').update(`${projectId}:${sha}:${ref}`).digest('hex').slice(0, 6), 16) % 800000);
}

/** The state as a snapshot again (GET /_fake/state): notes of individual discussions back in `notes`. */
export function dumpState(s) {
  const out = structuredClone(s);
  for (const mr of out.merge_requests) {
    mr.notes = [];
    mr.discussions = mr.discussions.filter((d) => {
      if (d.individual_note && d.notes.length === 1 && d.notes[0].type === null) {
        mr.notes.push({ ...d.notes[0], discussion_id: d.id });
        return false;
      }
      return true;
    });
  }
  delete out.tokens;
  return out;
}

/** Highest note id of the whole project + 1 (GitLab note ids are global). */
export function nextNoteId(s) {
  let max = 0;
  for (const mr of s.merge_requests) for (const d of mr.discussions) for (const n of d.notes) max = Math.max(max, n.id);
  return max + 1;
}

export function nextStatusId(s) {
  return s.commit_statuses.reduce((m, st) => Math.max(m, st.id), 0) + 1;
}

/**
 * The id of a discussion created by a write: derived from the MR's IID and its
 * first note's id, exactly as the id of a snapshot discussion given without
 * one (docs/snapshot.md, "Notes and discussions"), so that a replay of the same
 * snapshot can name the same id as a live run (fixtures/gitlab S4). Note ids
 * are unique, so the ids of new discussions are too.
 */
export function newDiscussionId(mr, firstNoteId) {
  return discussionId(`${mr.iid}:${firstNoteId}`);
}
