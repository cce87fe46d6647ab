// The fake server's state: a snapshot (SNAPSHOT.md §2), read through accessors
// that supply the format's defaults, and written the way GitHub writes.
import { validateFaults, FaultSpecError } from './faults.mjs';
import { AppSpecError, appView, validateApp } from './appauth.mjs';
import { createHash } from 'node:crypto';

import {
  earliestTime, fakeSha, isInt, latestTime, maxOf, nowIso, sameText, stableInt,
} from './util.mjs';

export const DEFAULT_VIEWER = 'lfx-reviewer';
export const DEFAULT_RATE_LIMIT = 5000;
export const DEFAULT_LABEL_COLOR = 'ededed';
/** GitHub lists at most this many commits of a pull request (REST and GraphQL). */
export const PULL_COMMITS_CAP = 250;
/** Statuses per SHA and context. */
export const STATUSES_PER_CONTEXT_CAP = 1000;
const EPOCH = '2020-01-01T00:00:00Z';
const sha256 = (text) => createHash('sha256').update(String(text), 'utf8').digest('hex');
/** GitHub's limit on a comment or review body, in characters (code points). */
export const BODY_MAX_CHARS = 65536;
/** `status` of a pull's file (GitHub's diff-entry). */
export const FILE_STATUSES = Object.freeze(['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']);
/** Where GitHub's html_url of comments and reviews point (PUBLISH.md §8). */
const WEB = 'https://github.com';

/**
 * The hunks of a unified-diff patch (GitHub's `patch` of a file): each
 * {start, lines: [{kind: ' ' | '+' | '-', old, new, position}], text}. `old`
 * / `new` are the line numbers on the LEFT / RIGHT side (null where the
 * line is absent); `position` is GitHub's diff position (lines below the
 * first @@ header, later headers counted).
 */
export function parsePatch(patch) {
  const hunks = [];
  if (typeof patch !== 'string') return hunks;
  let hunk = null;
  let oldNo = 0;
  let newNo = 0;
  let position = 0;
  const rows = patch.split('\n');
  if (rows.length && rows.at(-1) === '') rows.pop();
  for (const row of rows) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(row);
    if (h) {
      if (hunk) position += 1; // a later header is a position of its own
      hunk = { lines: [], header: row, text: [row] };
      hunks.push(hunk);
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      continue;
    }
    if (!hunk) continue;
    hunk.text.push(row);
    position += 1;
    const kind = row[0];
    if (kind === '+') hunk.lines.push({ kind, old: null, new: newNo++, position, index: hunk.text.length - 1 });
    else if (kind === '-') hunk.lines.push({ kind, old: oldNo++, new: null, position, index: hunk.text.length - 1 });
    else if (kind === '\\') continue; // "\ No newline at end of file"
    else hunk.lines.push({ kind: ' ', old: oldNo++, new: newNo++, position, index: hunk.text.length - 1 });
  }
  return hunks;
}

/** The hunk line of `patch` that a comment's (line, side) names, or null. */
export function resolveDiffLine(patch, line, side = 'RIGHT') {
  const hunks = parsePatch(patch);
  for (let h = 0; h < hunks.length; h += 1) {
    for (const l of hunks[h].lines) {
      if ((side === 'LEFT' ? l.old : l.new) === line) return { hunk: h, line: l, text: hunks[h].text };
    }
  }
  return null;
}

/** The hunk line at a diff `position`, or null. */
export function resolveDiffPosition(patch, position) {
  const hunks = parsePatch(patch);
  for (let h = 0; h < hunks.length; h += 1) {
    for (const l of hunks[h].lines) if (l.position === position) return { hunk: h, line: l, text: hunks[h].text };
  }
  return null;
}

/** Number of code points of a string. */
export function codePoints(text) {
  let n = 0;
  // eslint-disable-next-line no-unused-vars
  for (const _ of text) n += 1;
  return n;
}

/** The report's write of a finding-root body: its F-id marker (PUBLISH.md §5.4). */
function findingIdOf(body) {
  const m = /^<!-- pr-review:finding-id=(F\d+) -->[ \t\r]*$/m.exec(String(body ?? ''));
  return m ? m[1] : null;
}

export class SnapshotError extends Error {}

function fail(field, message) {
  throw new SnapshotError(`${field}: ${message}`);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkString(v, field, { nullable = false } = {}) {
  if (v === undefined) return;
  if (v === null && nullable) return;
  if (typeof v !== 'string') fail(field, nullable ? 'expected a string or null' : 'expected a string');
}

function checkTime(v, field, { nullable = true } = {}) {
  checkString(v, field, { nullable });
  if (typeof v === 'string' && Number.isNaN(Date.parse(v))) fail(field, `not an ISO-8601 time: "${v}"`);
}

function checkIdList(list, field, idCheck) {
  if (list === undefined) return;
  if (!Array.isArray(list)) fail(field, 'expected an array');
  list.forEach((item, i) => {
    if (!isObject(item)) fail(`${field}[${i}]`, 'expected an object');
    idCheck(item.id, `${field}[${i}].id`);
  });
}

function intId(v, field) {
  if (!isInt(v) || v < 1) fail(field, 'expected a positive integer');
}

/** Throws SnapshotError naming the first bad field. */
export function validateSnapshot(s) {
  if (!isObject(s)) fail('snapshot', 'expected a JSON object');
  if (s.snapshot !== 1) fail('snapshot', 'expected 1 (the format version)');
  if (typeof s.repository !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(s.repository)) fail('repository', 'expected "owner/name"');
  checkString(s.viewer, 'viewer');
  if (s.config !== undefined && !isObject(s.config)) fail('config', 'expected an object');
  if (s.event !== undefined && !isObject(s.event)) fail('event', 'expected an object');
  if (!Array.isArray(s.pulls)) fail('pulls', 'expected an array');
  const numbers = new Set();
  s.pulls.forEach((p, i) => {
    const at = `pulls[${i}]`;
    if (!isObject(p)) fail(at, 'expected an object');
    if (!isInt(p.number) || p.number < 1) fail(`${at}.number`, 'expected a positive integer');
    if (numbers.has(p.number)) fail(`${at}.number`, `duplicate pull request number ${p.number}`);
    numbers.add(p.number);
    if (p.state !== undefined && p.state !== 'open' && p.state !== 'closed') fail(`${at}.state`, 'expected "open" or "closed"');
    for (const key of ['merged', 'draft']) {
      if (p[key] !== undefined && typeof p[key] !== 'boolean') fail(`${at}.${key}`, 'expected a boolean');
    }
    checkString(p.author, `${at}.author`, { nullable: true });
    if (!isObject(p.head)) fail(`${at}.head`, 'expected an object');
    if (typeof p.head.sha !== 'string' || !p.head.sha) fail(`${at}.head.sha`, 'expected a commit SHA');
    checkString(p.head.ref, `${at}.head.ref`);
    checkString(p.head.repository, `${at}.head.repository`, { nullable: true });
    if (p.head.ref_deleted !== undefined && typeof p.head.ref_deleted !== 'boolean') fail(`${at}.head.ref_deleted`, 'expected a boolean');
    if (p.base !== undefined && !isObject(p.base)) fail(`${at}.base`, 'expected an object');
    checkString(p.base?.ref, `${at}.base.ref`);
    checkString(p.base?.sha, `${at}.base.sha`);
    if (p.labels !== undefined) {
      if (!Array.isArray(p.labels)) fail(`${at}.labels`, 'expected an array of label names');
      p.labels.forEach((l, j) => checkString(l, `${at}.labels[${j}]`));
    }
    if (p.commits !== undefined) {
      if (!Array.isArray(p.commits)) fail(`${at}.commits`, 'expected an array of SHAs');
      p.commits.forEach((c, j) => { if (typeof c !== 'string' || !c) fail(`${at}.commits[${j}]`, 'expected a SHA'); });
    }
    checkIdList(p.comments, `${at}.comments`, intId);
    (p.comments ?? []).forEach((c, j) => {
      checkString(c.author, `${at}.comments[${j}].author`, { nullable: true });
      checkString(c.body, `${at}.comments[${j}].body`);
      checkTime(c.created_at, `${at}.comments[${j}].created_at`);
      checkTime(c.edited_at, `${at}.comments[${j}].edited_at`);
      checkTime(c.updated_at, `${at}.comments[${j}].updated_at`);
      checkString(c.edited_by, `${at}.comments[${j}].edited_by`, { nullable: true });
      if (c.edits !== undefined) {
        if (!Array.isArray(c.edits)) fail(`${at}.comments[${j}].edits`, 'expected an array of edits');
        c.edits.forEach((e, k) => {
          const ef = `${at}.comments[${j}].edits[${k}]`;
          if (!isObject(e)) fail(ef, 'expected an object {editor, edited_at}');
          checkString(e.editor, `${ef}.editor`, { nullable: true });
          checkTime(e.edited_at, `${ef}.edited_at`, { nullable: false });
          if (typeof e.edited_at !== 'string') fail(`${ef}.edited_at`, 'expected a time');
        });
      }
    });
    checkIdList(p.timeline, `${at}.timeline`, intId);
    (p.timeline ?? []).forEach((e, j) => {
      if (typeof e.event !== 'string' || !/^[a-z_]+$/.test(e.event)) fail(`${at}.timeline[${j}].event`, 'expected an event name such as "unlabeled"');
      checkTime(e.created_at, `${at}.timeline[${j}].created_at`);
    });
    checkIdList(p.threads, `${at}.threads`, (v, f) => { if (typeof v !== 'string' || !v) fail(f, 'expected a GraphQL node id (string)'); });
    (p.threads ?? []).forEach((t, j) => {
      if (t.comments !== undefined && !(isInt(t.comments) && t.comments >= 0)) fail(`${at}.threads[${j}].comments`, 'expected a comment count');
    });
    checkIdList(p.reviews, `${at}.reviews`, intId);
    (p.reviews ?? []).forEach((r, j) => {
      checkString(r.state, `${at}.reviews[${j}].state`);
      checkString(r.commit_id, `${at}.reviews[${j}].commit_id`, { nullable: true });
      checkTime(r.submitted_at, `${at}.reviews[${j}].submitted_at`);
      checkString(r.body, `${at}.reviews[${j}].body`, { nullable: true });
    });
    checkIdList(p.review_comments, `${at}.review_comments`, intId);
    (p.review_comments ?? []).forEach((c, j) => {
      const cf = `${at}.review_comments[${j}]`;
      checkString(c.author, `${cf}.author`, { nullable: true });
      checkString(c.body, `${cf}.body`);
      checkString(c.path, `${cf}.path`);
      for (const key of ['line', 'start_line', 'in_reply_to', 'review_id']) {
        if (c[key] !== undefined && c[key] !== null && !(isInt(c[key]) && c[key] >= 1)) fail(`${cf}.${key}`, 'expected a positive integer or null');
      }
      if (c.side !== undefined && c.side !== null && c.side !== 'LEFT' && c.side !== 'RIGHT') fail(`${cf}.side`, 'expected "LEFT" or "RIGHT"');
      checkString(c.commit_id, `${cf}.commit_id`, { nullable: true });
      checkTime(c.created_at, `${cf}.created_at`);
      checkTime(c.updated_at, `${cf}.updated_at`);
      checkString(c.html_url, `${cf}.html_url`, { nullable: true });
    });
    if (p.files !== undefined) {
      if (!Array.isArray(p.files)) fail(`${at}.files`, 'expected an array');
      p.files.forEach((f, j) => {
        const ff = `${at}.files[${j}]`;
        if (!isObject(f)) fail(ff, 'expected an object {filename, status, patch}');
        if (typeof f.filename !== 'string' || !f.filename) fail(`${ff}.filename`, 'expected a file name');
        if (f.status !== undefined && !FILE_STATUSES.includes(f.status)) fail(`${ff}.status`, `expected one of ${FILE_STATUSES.join(', ')}`);
        checkString(f.patch, `${ff}.patch`, { nullable: true });
        checkString(f.previous_filename, `${ff}.previous_filename`);
      });
    }
  });
  if (s.labels !== undefined) {
    if (!Array.isArray(s.labels)) fail('labels', 'expected an array of label names');
    s.labels.forEach((l, i) => {
      if (typeof l !== 'string' && !(isObject(l) && typeof l.name === 'string')) fail(`labels[${i}]`, 'expected a label name');
    });
  }
  if (s.statuses !== undefined) {
    if (!isObject(s.statuses)) fail('statuses', 'expected an object keyed by SHA');
    for (const [sha, list] of Object.entries(s.statuses)) {
      checkIdList(list, `statuses.${sha}`, intId);
      list.forEach((st, j) => {
        checkString(st.state, `statuses.${sha}[${j}].state`);
        checkString(st.context, `statuses.${sha}[${j}].context`);
        checkTime(st.created_at, `statuses.${sha}[${j}].created_at`);
      });
    }
  }
  if (s.rate_limit !== undefined) {
    if (!isObject(s.rate_limit)) fail('rate_limit', 'expected an object');
    for (const k of ['graphql', 'rest']) {
      const v = s.rate_limit[k];
      if (v !== undefined && !(isInt(v) && v >= 0)) fail(`rate_limit.${k}`, 'expected a non-negative integer');
    }
  }
  if (s.app !== undefined) {
    try {
      validateApp(s.app);
    } catch (e) {
      if (e instanceof AppSpecError) throw new SnapshotError(e.message);
      throw e;
    }
  }
  if (s.faults !== undefined) {
    try {
      validateFaults(s.faults);
    } catch (e) {
      if (e instanceof FaultSpecError) throw new SnapshotError(e.message);
      throw e;
    }
  }
}

const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class State {
  constructor(snapshot) {
    validateSnapshot(snapshot);
    this.data = structuredClone(snapshot);
    /** The GitHub App (the `app` extension) and its public key, or null. */
    this.app = snapshot.app === undefined ? null : appView(snapshot.app);
    this.appKey = snapshot.app === undefined ? null : validateApp(snapshot.app);
    /** Colours and descriptions of labels created through the API (not part of the snapshot format). */
    this.labelMeta = new Map();
    /**
     * Every write applied since this state was loaded, in order, in the
     * report's write shapes (SNAPSHOT.md §3, PUBLISH.md §9): `GET
     * /_fakehub/writes`. A write whose answer a `lost_response` fault lost is
     * listed (it was applied); a refused or faulted one is not.
     */
    this.writes = [];
  }

  recordWrite(write) {
    this.writes.push(write);
  }

  toSnapshot() {
    return structuredClone(this.data);
  }

  // ---- repository -------------------------------------------------------

  get fullName() { return this.data.repository; }
  // SNAPSHOT §2: the repository's default branch (BEHAVIOR A13), main unless given.
  get defaultBranch() { return this.data.default_branch ?? 'main'; }
  get owner() { return this.data.repository.split('/')[0]; }
  get name() { return this.data.repository.split('/')[1]; }
  get repoId() { return isInt(this.data.repository_id) ? this.data.repository_id : stableInt(`repo:${this.fullName.toLowerCase()}`, 100000); }
  get viewer() { return this.data.viewer ?? DEFAULT_VIEWER; }
  get faults() { return this.data.faults ?? []; }

  rateLimit(kind) {
    const v = this.data.rate_limit?.[kind];
    return isInt(v) ? v : DEFAULT_RATE_LIMIT;
  }

  isRepo(owner, name) {
    return sameText(owner, this.owner) && sameText(name, this.name);
  }

  // ---- pull requests ----------------------------------------------------

  get pulls() { return this.data.pulls; }

  pull(number) {
    const n = Number(number);
    return this.data.pulls.find((p) => p.number === n) ?? null;
  }

  isOpen(pull) { return (pull.state ?? 'open') === 'open'; }
  headSha(pull) { return pull.head.sha; }
  headRef(pull) { return pull.head.ref ?? `pr-${pull.number}`; }
  baseRef(pull) { return pull.base?.ref ?? 'main'; }
  baseSha(pull) { return pull.base?.sha ?? this.branchRootSha(this.baseRef(pull)); }
  branchRootSha(ref) { return fakeSha(`${this.fullName.toLowerCase()}:branch:${ref}`); }

  headRepository(pull) {
    return Object.hasOwn(pull.head, 'repository') ? pull.head.repository : this.fullName;
  }

  isCrossRepository(pull) {
    const repo = this.headRepository(pull);
    return repo === null || !sameText(repo, this.fullName);
  }

  /** The pull's commits, oldest first, head last (defaults to just the head). */
  commits(pull) {
    return Array.isArray(pull.commits) && pull.commits.length ? pull.commits : [pull.head.sha];
  }

  /** The commits GitHub lists for the pull (capped at 250). */
  listedCommits(pull) {
    return this.commits(pull).slice(0, PULL_COMMITS_CAP);
  }

  comments(pull) { return [...(pull.comments ?? [])].sort(byId); }
  timeline(pull) { return [...(pull.timeline ?? [])].sort(byId); }
  reviews(pull) { return [...(pull.reviews ?? [])].sort(byId); }
  reviewComments(pull) { return [...(pull.review_comments ?? [])].sort(byId); }
  files(pull) { return pull.files ?? []; }

  /**
   * The pull's review threads: the snapshot's `threads`, or, when it has none
   * but has `review_comments`, one thread per root comment (no `in_reply_to`,
   * or a reply to an unknown comment) holding the root and its replies
   * (PUBLISH.md §8: gate threads derive from them). A derived thread's id is
   * `PRRT_` + the root's id, its url the root's html_url.
   */
  threads(pull) {
    if (pull.threads !== undefined || !Array.isArray(pull.review_comments)) return pull.threads ?? [];
    const comments = this.reviewComments(pull);
    const byIdMap = new Map(comments.map((c) => [c.id, c]));
    const rootOf = (c) => {
      const seen = new Set();
      let cur = c;
      while (cur.in_reply_to != null && byIdMap.has(cur.in_reply_to) && !seen.has(cur.id)) {
        seen.add(cur.id);
        cur = byIdMap.get(cur.in_reply_to);
      }
      return cur;
    };
    const threads = new Map();
    for (const c of comments) {
      const root = rootOf(c);
      if (!threads.has(root.id)) threads.set(root.id, { root, comments: [] });
      threads.get(root.id).comments.push(c);
    }
    return [...threads.values()].map(({ root, comments: list }) => ({
      id: `PRRT_${root.id}`,
      author: root.author ?? null,
      comments: list.length,
      comment_authors: list.map((c) => c.author ?? null),
      resolved: false,
      outdated: false,
      path: root.path ?? 'README.md',
      line: root.line ?? null,
      url: root.html_url ?? null,
    }));
  }

  findReviewComment(id) {
    const n = Number(id);
    for (const pull of this.pulls) {
      const comment = (pull.review_comments ?? []).find((c) => c.id === n);
      if (comment) return { pull, comment };
    }
    return null;
  }

  findFile(pull, path) {
    return this.files(pull).find((f) => f.filename === path) ?? null;
  }

  findComment(id) {
    const n = Number(id);
    for (const pull of this.pulls) {
      const comment = (pull.comments ?? []).find((c) => c.id === n);
      if (comment) return { pull, comment };
    }
    return null;
  }

  /**
   * A comment's edit history, oldest first (SNAPSHOT.md `edits`). A comment
   * edited without one (`edited_at`, `edited_by`) has its last edit as its
   * history, as GitHub would show it.
   */
  edits(comment) {
    if (Array.isArray(comment.edits)) return comment.edits;
    // An edit has a time (editedAt is non-null): without one, no history.
    if (comment.edited_at) return [{ editor: comment.edited_by ?? null, edited_at: comment.edited_at }];
    return [];
  }

  /**
   * The last edit of a comment, {editor, edited_at} (either may be null), or
   * null when never edited: `edited_by`/`edited_at` when set, else the last
   * entry of `edits`.
   */
  lastEdit(comment) {
    if (comment.edited_at || comment.edited_by) return { editor: comment.edited_by ?? null, edited_at: comment.edited_at ?? null };
    return Array.isArray(comment.edits) && comment.edits.length ? comment.edits.at(-1) : null;
  }

  findReview(pull, id) {
    const n = Number(id);
    return (pull.reviews ?? []).find((r) => r.id === n) ?? null;
  }

  pullDatabaseId(pull) {
    return isInt(pull.id) ? pull.id : stableInt(`pull:${this.fullName.toLowerCase()}#${pull.number}`, 100000000);
  }

  createdAt(pull) {
    return pull.created_at ?? earliestTime([
      ...(pull.comments ?? []).map((c) => c.created_at),
      ...(pull.timeline ?? []).map((e) => e.created_at),
      ...(pull.reviews ?? []).map((r) => r.submitted_at),
    ], EPOCH);
  }

  updatedAt(pull) {
    return latestTime([
      pull.updated_at,
      this.createdAt(pull),
      ...(pull.comments ?? []).flatMap((c) => [c.created_at, c.edited_at, c.updated_at]),
      ...(pull.review_comments ?? []).map((c) => c.created_at),
      ...(pull.timeline ?? []).map((e) => e.created_at),
      ...(pull.reviews ?? []).map((r) => r.submitted_at),
    ], EPOCH);
  }

  /** Pull requests whose commits (or head) include `sha`. */
  pullsWithCommit(sha) {
    if (typeof sha !== 'string') return [];
    const s = sha.toLowerCase();
    return this.pulls
      .filter((p) => p.head.sha.toLowerCase() === s || this.commits(p).some((c) => c.toLowerCase() === s))
      .map((p) => p.number);
  }

  // ---- labels -----------------------------------------------------------

  /** Whether the snapshot lists the repository's labels (when not, every label exists). */
  get labelsListed() { return Array.isArray(this.data.labels); }

  labelRecord(entry) {
    const name = typeof entry === 'string' ? entry : entry.name;
    const meta = this.labelMeta.get(name.toLowerCase());
    const obj = typeof entry === 'object' ? entry : {};
    return {
      name,
      color: obj.color ?? meta?.color ?? DEFAULT_LABEL_COLOR,
      description: obj.description ?? meta?.description ?? null,
      id: isInt(obj.id) ? obj.id : stableInt(`label:${this.fullName.toLowerCase()}:${name.toLowerCase()}`, 1000000),
      default: obj.default ?? false,
    };
  }

  repoLabels() {
    return (this.data.labels ?? []).map((l) => this.labelRecord(l));
  }

  /** The repository label named `name` (case-insensitive), or null when it does not exist. */
  findRepoLabel(name) {
    if (!this.labelsListed) return this.labelRecord(name);
    const entry = this.data.labels.find((l) => sameText(typeof l === 'string' ? l : l.name, name));
    return entry === undefined ? null : this.labelRecord(entry);
  }

  pullLabels(pull) {
    return (pull.labels ?? []).map((name) => this.findRepoLabel(name) ?? this.labelRecord(name));
  }

  // ---- statuses ---------------------------------------------------------

  /** Statuses of a commit, newest first (id descending). */
  statuses(sha) {
    const map = this.data.statuses ?? {};
    const key = Object.keys(map).find((k) => k.toLowerCase() === String(sha).toLowerCase());
    return key === undefined ? [] : [...map[key]].sort(byId).reverse();
  }

  /** The newest status of each context, as GitHub's combined status and GraphQL `Status.contexts` show them. */
  latestStatusPerContext(sha) {
    const seen = new Map();
    for (const st of this.statuses(sha)) if (!seen.has(st.context)) seen.set(st.context, st);
    return [...seen.values()].sort(byId);
  }

  combinedState(sha) {
    const latest = this.latestStatusPerContext(sha);
    if (latest.some((s) => s.state === 'error' || s.state === 'failure')) return 'failure';
    if (latest.length === 0 || latest.some((s) => s.state === 'pending')) return 'pending';
    return 'success';
  }

  // ---- commits ----------------------------------------------------------

  /** Every commit the snapshot mentions. */
  knownCommits() {
    const set = new Set();
    const add = (s) => { if (typeof s === 'string' && s) set.add(s.toLowerCase()); };
    for (const p of this.pulls) {
      add(p.head.sha);
      add(p.base?.sha);
      this.commits(p).forEach(add);
      (p.reviews ?? []).forEach((r) => add(r.commit_id));
    }
    Object.keys(this.data.statuses ?? {}).forEach(add);
    return set;
  }

  /**
   * A full SHA for `ref`: a known commit (or unique abbreviation of one), a
   * branch name (head ref of a same-repository pull, or a base branch), or null.
   */
  resolveCommit(ref) {
    if (typeof ref !== 'string' || !ref) return null;
    const lower = ref.toLowerCase();
    const known = this.knownCommits();
    if (known.has(lower)) return lower;
    if (/^[0-9a-f]{7,39}$/.test(lower)) {
      const matches = [...known].filter((s) => s.startsWith(lower));
      if (matches.length === 1) return matches[0];
    }
    const headPull = this.pulls.find((p) => !this.isCrossRepository(p) && this.headRef(p) === ref);
    if (headPull) return headPull.head.sha.toLowerCase();
    const basePull = this.pulls.find((p) => this.baseRef(p) === ref);
    if (basePull) return this.baseSha(basePull).toLowerCase();
    if (lower === this.branchRootSha('main')) return lower;
    for (const p of this.pulls) if (this.branchRootSha(this.baseRef(p)) === lower) return lower;
    return null;
  }

  /**
   * The commits leading to `ref`, oldest first, starting with a token for the
   * root of its base branch ("@main"). Model: each pull's `commits` is a linear
   * chain on top of its base branch; a base branch that is the head branch of
   * another same-repository pull continues that pull's chain (stacked pulls).
   * A commit known only from reviews or statuses sits on a root of its own.
   */
  ancestry(ref, seen = new Set()) {
    if (typeof ref !== 'string' || !ref) return null;
    const lower = ref.toLowerCase();
    for (const p of this.pulls) {
      const chain = this.commits(p).map((c) => c.toLowerCase());
      const idx = chain.indexOf(lower);
      if (idx >= 0) return [...this.branchAncestry(this.baseRef(p), seen), ...chain.slice(0, idx + 1)];
    }
    for (const p of this.pulls) {
      if (p.head.sha.toLowerCase() === lower) return [...this.branchAncestry(this.baseRef(p), seen), lower];
    }
    for (const p of this.pulls) {
      if (this.baseRef(p) === ref || this.baseSha(p).toLowerCase() === lower) return this.branchAncestry(this.baseRef(p), seen);
    }
    const headPull = this.pulls.find((p) => !this.isCrossRepository(p) && this.headRef(p) === ref);
    if (headPull) return this.ancestry(headPull.head.sha, seen);
    const full = this.resolveCommit(ref);
    if (full && full !== lower) return this.ancestry(full, seen);
    if (full) return [`@orphan:${full}`, full];
    return null;
  }

  branchAncestry(branch, seen) {
    if (!seen.has(branch)) {
      const parent = this.pulls.find((p) => !this.isCrossRepository(p) && this.headRef(p) === branch && this.baseRef(p) !== branch);
      if (parent) return this.ancestry(parent.head.sha, new Set([...seen, branch]));
    }
    return [`@${branch}`];
  }

  /** The GET /compare answer's numbers, or null when a side is unknown. */
  compare(baseRef, headRef) {
    const base = this.ancestry(baseRef);
    const head = this.ancestry(headRef);
    if (!base || !head) return null;
    let common = 0;
    while (common < base.length && common < head.length && base[common] === head[common]) common += 1;
    const real = (list) => list.filter((x) => !x.startsWith('@'));
    const aheadCommits = real(head.slice(common));
    const behindCommits = real(base.slice(common));
    let status;
    if (common === 0) status = 'diverged';
    else if (aheadCommits.length === 0 && behindCommits.length === 0) status = 'identical';
    else if (behindCommits.length === 0) status = 'ahead';
    else if (aheadCommits.length === 0) status = 'behind';
    else status = 'diverged';
    const tip = (list) => {
      const last = list[list.length - 1];
      return last.startsWith('@') ? this.rootSha(last) : last;
    };
    const mergeBase = common > 0 ? tip(base.slice(0, common)) : null;
    return {
      status,
      ahead_by: aheadCommits.length,
      behind_by: behindCommits.length,
      base_sha: tip(base),
      head_sha: tip(head),
      merge_base_sha: mergeBase,
      commits: aheadCommits,
    };
  }

  rootSha(token) {
    if (token.startsWith('@orphan:')) return fakeSha(token);
    const branch = token.slice(1);
    const pull = this.pulls.find((p) => this.baseRef(p) === branch && p.base?.sha);
    return pull ? pull.base.sha.toLowerCase() : this.branchRootSha(branch);
  }

  /** The parent of a commit in the model (null for the root of a chain). */
  parentOf(sha) {
    const anc = this.ancestry(sha);
    if (!anc || anc.length < 2) return null;
    const parent = anc[anc.length - 2];
    return parent.startsWith('@') ? this.rootSha(parent) : parent;
  }

  // ---- ids --------------------------------------------------------------

  nextStatusId() {
    return maxOf(Object.values(this.data.statuses ?? {}).flatMap((l) => l.map((s) => s.id))) + 1;
  }

  nextReviewId() {
    return maxOf(this.pulls.flatMap((p) => (p.reviews ?? []).map((r) => r.id))) + 1;
  }

  /** Issue comment ids are repository-wide (max over every pull's comments + 1). */
  nextCommentId() {
    return maxOf(this.pulls.flatMap((p) => (p.comments ?? []).map((c) => c.id))) + 1;
  }

  nextReviewCommentId() {
    return maxOf(this.pulls.flatMap((p) => (p.review_comments ?? []).map((c) => c.id))) + 1;
  }

  nextTimelineId() {
    return maxOf(this.pulls.flatMap((p) => (p.timeline ?? []).map((e) => e.id))) + 1;
  }

  // ---- writes (as GitHub applies them) ------------------------------------

  /** Creates a repository label; returns its record. Caller checks it does not exist. */
  createRepoLabel({ name, color, description }) {
    const meta = { color: (color ?? DEFAULT_LABEL_COLOR).toLowerCase(), description: description ?? null };
    this.labelMeta.set(name.toLowerCase(), meta);
    if (this.labelsListed) this.data.labels.push(name);
    return this.labelRecord(name);
  }

  /** Adds labels to a pull (creating missing repository labels); returns the names added. `actor`: who (default the viewer). */
  addLabels(pull, names, actor = this.viewer) {
    const added = [];
    for (const name of names) {
      const record = this.findRepoLabel(name) ?? this.createRepoLabel({ name });
      pull.labels ??= [];
      if (pull.labels.some((l) => sameText(l, record.name))) continue;
      pull.labels.push(record.name);
      added.push(record.name);
      this.recordWrite({ kind: 'label', pr: pull.number, label: record.name });
      this.appendTimeline(pull, { event: 'labeled', label: record.name }, actor);
    }
    return added;
  }

  /**
   * Renames a repository label (GitHub's PATCH /labels/{name}): on every pull
   * and in every labeled/unlabeled event (they point at the label, so they
   * show its new name), without a new timeline event. Returns the record.
   */
  renameRepoLabel(name, { newName, color, description }) {
    const to = newName ?? name;
    const old = this.findRepoLabel(name);
    const meta = this.labelMeta.get(name.toLowerCase()) ?? {};
    const entry = this.labelsListed ? this.data.labels.findIndex((l) => sameText(typeof l === 'string' ? l : l.name, name)) : -1;
    if (entry >= 0) {
      const was = this.data.labels[entry];
      this.data.labels[entry] = typeof was === 'string' ? to : { ...was, name: to };
    }
    this.labelMeta.delete(name.toLowerCase());
    this.labelMeta.set(to.toLowerCase(), {
      color: (color ?? meta.color ?? old?.color ?? DEFAULT_LABEL_COLOR).toLowerCase(),
      description: description === undefined ? (meta.description ?? old?.description ?? null) : description,
    });
    for (const pull of this.pulls) {
      pull.labels = (pull.labels ?? []).map((l) => (sameText(l, name) ? to : l));
      for (const e of pull.timeline ?? []) {
        if ((e.event === 'labeled' || e.event === 'unlabeled') && sameText(e.label, name)) e.label = to;
      }
    }
    return this.labelRecord(to);
  }

  /** Deletes a repository label: gone from every pull, without a timeline event. */
  deleteRepoLabel(name) {
    if (this.labelsListed) this.data.labels = this.data.labels.filter((l) => !sameText(typeof l === 'string' ? l : l.name, name));
    this.labelMeta.delete(name.toLowerCase());
    for (const pull of this.pulls) {
      if (pull.labels) pull.labels = pull.labels.filter((l) => !sameText(l, name));
    }
  }

  /** Removes a label from a pull; false when it was not there. */
  removeLabel(pull, name, actor = this.viewer) {
    const idx = (pull.labels ?? []).findIndex((l) => sameText(l, name));
    if (idx < 0) return false;
    const [removed] = pull.labels.splice(idx, 1);
    this.recordWrite({ kind: 'unlabel', pr: pull.number, label: removed });
    this.appendTimeline(pull, { event: 'unlabeled', label: removed }, actor);
    return true;
  }

  appendTimeline(pull, fields, actor = this.viewer) {
    pull.timeline ??= [];
    const event = { id: this.nextTimelineId(), ...fields, actor, created_at: nowIso() };
    pull.timeline.push(event);
    return event;
  }

  createStatus(sha, { state, context, description, target_url: targetUrl }, actor = this.viewer) {
    this.data.statuses ??= {};
    const key = Object.keys(this.data.statuses).find((k) => k.toLowerCase() === sha.toLowerCase()) ?? sha;
    const status = {
      id: this.nextStatusId(),
      state,
      context,
      description: description ?? null,
      creator: actor,
      created_at: nowIso(),
      target_url: targetUrl ?? null,
    };
    (this.data.statuses[key] ??= []).push(status);
    this.recordWrite({ kind: 'status', sha: key, state, context, description: status.description, target_url: status.target_url });
    return status;
  }

  /**
   * `byApp`: made with an installation token (GitHub does not count such
   * approvals toward required reviews). `comments`: the review's resolved
   * review comments [{path, line, side, start_line, start_side, body}], created
   * in order (ids max + 1); a review with `withUrl` (COMMENT reviews) records
   * its html_url.
   */
  createReview(pull, { state, commitId, body, comments = [], withUrl = false }, actor = this.viewer, byApp = false) {
    pull.reviews ??= [];
    const review = {
      id: this.nextReviewId(),
      author: actor,
      state,
      commit_id: commitId,
      submitted_at: state === 'PENDING' ? null : nowIso(),
      body: body ?? '',
    };
    if (withUrl) review.html_url = `${WEB}/${this.fullName}/pull/${pull.number}#pullrequestreview-${review.id}`;
    if (byApp) review.by_app = true;
    pull.reviews.push(review);
    const created = [];
    for (const c of comments) {
      pull.review_comments ??= [];
      const id = this.nextReviewCommentId();
      const rc = {
        id,
        author: actor,
        body: c.body,
        path: c.path,
        line: c.line,
        start_line: c.start_line ?? null,
        side: c.side ?? 'RIGHT',
        commit_id: commitId,
        in_reply_to: null,
        review_id: review.id,
        created_at: review.submitted_at ?? nowIso(),
        html_url: `${WEB}/${this.fullName}/pull/${pull.number}#discussion_r${id}`,
      };
      if (c.start_line != null) rc.start_side = c.start_side ?? rc.side;
      pull.review_comments.push(rc);
      created.push(rc);
    }
    const event = { APPROVED: 'APPROVE', CHANGES_REQUESTED: 'REQUEST_CHANGES', COMMENTED: 'COMMENT' }[state] ?? 'PENDING';
    if (event === 'APPROVE') this.recordWrite({ kind: 'approve', pr: pull.number, commit_id: commitId });
    else {
      const write = { kind: 'review', pr: pull.number, review_id: review.id, event, commit_id: commitId };
      if (event === 'COMMENT') write.findings = created.map((c) => findingIdOf(c.body)).filter((x) => x !== null);
      this.recordWrite(write);
    }
    return review;
  }

  // ---- issue comments (PUBLISH.md §8) ------------------------------------------

  createComment(pull, body, actor = this.viewer) {
    pull.comments ??= [];
    const id = this.nextCommentId();
    const now = nowIso();
    const comment = {
      id,
      author: actor,
      created_at: now,
      updated_at: now,
      body,
      edited_by: null,
      edited_at: null,
      html_url: `${WEB}/${this.fullName}/pull/${pull.number}#issuecomment-${id}`,
    };
    pull.comments.push(comment);
    this.recordWrite({ kind: 'comment_create', pr: pull.number, comment_id: id, body_sha256: sha256(body) });
    return comment;
  }

  /**
   * Edits a comment as GitHub does: body, `updated_at`, the last edit
   * (`edited_by`, `edited_at`) and the edit history `edits` (the implied one
   * of a comment edited without a history is kept first).
   */
  updateComment(pull, comment, body, actor = this.viewer) {
    const now = nowIso();
    const history = this.edits(comment).map((e) => ({ ...e }));
    history.push({ editor: actor, edited_at: now });
    comment.body = body;
    comment.updated_at = now;
    comment.edited_by = actor;
    comment.edited_at = now;
    comment.edits = history;
    this.recordWrite({ kind: 'comment_update', pr: pull.number, comment_id: comment.id, body_sha256: sha256(body) });
    return comment;
  }

  deleteComment(pull, comment) {
    pull.comments = (pull.comments ?? []).filter((c) => c !== comment);
    this.recordWrite({ kind: 'comment_delete', pr: pull.number, comment_id: comment.id });
  }

  dismissReview(pull, review, message, actor = this.viewer, byApp = false) {
    const previous = review.state;
    review.state = 'DISMISSED';
    if (byApp) review.dismissed_by_app = true;
    this.recordWrite({ kind: 'dismiss', pr: pull.number, review_id: review.id });
    this.appendTimeline(pull, {
      event: 'review_dismissed',
      review_id: review.id,
      previous_state: previous,
      dismissal_message: message,
    }, actor);
    return review;
  }
}
