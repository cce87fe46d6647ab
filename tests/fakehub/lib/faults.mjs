// Fault injection: the snapshot's `faults` list (SNAPSHOT.md §2) and fakehub's
// extensions (`status: "hang"`, `times`, `skip`, `page`, `mode`, `retry_after`,
// `api`, `comment_id`).
//
// An *access* describes one read or write a request performs:
//   { read: 'comments', prs: [7], sha: null, page: 1 }
//   { write: 'status', prs: [7], sha: '<40 hex>' }
//   { write: 'comment', prs: [7], comment_id: 501 }
// `prs` lists the pull requests the access concerns (empty for repository-level
// reads such as the label lookup or the pull list). A fault with `pr` only hits
// accesses whose `prs` contain it; a fault with `sha` only hits accesses on that
// commit's statuses.

export const READS = Object.freeze([
  'pull', 'pulls', 'labels', 'comments', 'timeline', 'threads', 'reviews', 'commits', 'statuses', 'user',
  'app', 'installation', 'review_comments', 'files', 'compare',
  // doctor (docs/snapshot.md, The repository's setup)
  'repository', 'branches', 'rules', 'contents', 'teams', 'environments',
]);
export const WRITES = Object.freeze([
  'label', 'status', 'approve', 'dismiss', 'access_token', 'comment', 'comment_delete', 'review',
]);
export const MODES = Object.freeze([
  'status', 'secondary_limit', 'rate_limit', 'truncated', 'invalid_json', 'offhost_link', 'hang', 'lost_response',
]);
/** The status a `lost_response` fault answers when it gives none. */
export const LOST_RESPONSE_STATUS = 502;
/** Which API a fault may be narrowed to (`api`; absent: both). */
export const APIS = Object.freeze(['rest', 'graphql']);
/** `status` values that are not HTTP codes: the request is held open, never answered. */
const HOLDING = new Set(['timeout', 'hang']);

/** Modes that still compute the real answer and then damage it on the way out. */
const MANGLING = new Set(['truncated', 'invalid_json', 'offhost_link']);

export class FaultSpecError extends Error {}

export function validateFaults(list, where = 'faults') {
  if (!Array.isArray(list)) throw new FaultSpecError(`${where}: expected an array`);
  list.forEach((f, i) => {
    const at = `${where}[${i}]`;
    if (f === null || typeof f !== 'object' || Array.isArray(f)) throw new FaultSpecError(`${at}: expected an object`);
    const hasRead = f.read !== undefined;
    const hasWrite = f.write !== undefined;
    if (hasRead === hasWrite) throw new FaultSpecError(`${at}: needs exactly one of "read" or "write"`);
    if (hasRead && !READS.includes(f.read)) throw new FaultSpecError(`${at}.read: unknown read "${f.read}" (one of ${READS.join(', ')})`);
    if (hasWrite && !WRITES.includes(f.write)) throw new FaultSpecError(`${at}.write: unknown write "${f.write}" (one of ${WRITES.join(', ')})`);
    if (f.pr !== undefined && f.pr !== null && !(Number.isSafeInteger(f.pr) && f.pr > 0)) throw new FaultSpecError(`${at}.pr: expected a positive integer`);
    if (f.sha !== undefined && f.sha !== null && typeof f.sha !== 'string') throw new FaultSpecError(`${at}.sha: expected a string`);
    if (f.mode !== undefined && !MODES.includes(f.mode)) throw new FaultSpecError(`${at}.mode: unknown mode "${f.mode}" (one of ${MODES.join(', ')})`);
    if (f.comment_id !== undefined && f.comment_id !== null && !(Number.isSafeInteger(f.comment_id) && f.comment_id > 0)) throw new FaultSpecError(`${at}.comment_id: expected a positive integer`);
    const mode = f.mode ?? 'status';
    if (f.status !== undefined) {
      const ok = HOLDING.has(f.status) || (Number.isSafeInteger(f.status) && f.status >= 100 && f.status <= 599);
      if (!ok) throw new FaultSpecError(`${at}.status: expected an HTTP status code, "timeout" or "hang"`);
    } else if (mode === 'status') {
      throw new FaultSpecError(`${at}.status: required (an HTTP status code, "timeout" or "hang")`);
    }
    if (f.api !== undefined && !APIS.includes(f.api)) throw new FaultSpecError(`${at}.api: expected "rest" or "graphql"`);
    if (f.times !== undefined && !(Number.isSafeInteger(f.times) && f.times >= 0)) throw new FaultSpecError(`${at}.times: expected a non-negative integer`);
    if (f.skip !== undefined && !(Number.isSafeInteger(f.skip) && f.skip >= 0)) throw new FaultSpecError(`${at}.skip: expected a non-negative integer`);
    if (f.page !== undefined && !(Number.isSafeInteger(f.page) && f.page >= 1)) throw new FaultSpecError(`${at}.page: expected a positive integer`);
    if (f.retry_after !== undefined && !(Number.isSafeInteger(f.retry_after) && f.retry_after >= 0)) throw new FaultSpecError(`${at}.retry_after: expected a non-negative integer`);
  });
}

/** What a fault does to the request it hits. */
export function faultEffect(fault) {
  if (fault.mode && fault.mode !== 'status') return fault.mode;
  return HOLDING.has(fault.status) ? 'hang' : 'status';
}

export function isMangling(fault) {
  return MANGLING.has(faultEffect(fault));
}

/** A 404 on the `pull` read: "no such pull request", which GraphQL answers in-band. */
export function isPullNotFound(fault) {
  return fault.read === 'pull' && faultEffect(fault) === 'status' && fault.status === 404;
}

function shaMatches(faultSha, sha) {
  if (typeof sha !== 'string' || !sha) return false;
  const a = faultSha.toLowerCase();
  const b = sha.toLowerCase();
  return a === b || (a.length >= 7 && b.startsWith(a)) || (b.length >= 7 && a.startsWith(b));
}

export function faultMatches(fault, access) {
  if (access.read !== undefined ? fault.read !== access.read : fault.write !== access.write) return false;
  if (fault.pr != null && !(access.prs ?? []).includes(fault.pr)) return false;
  if (fault.sha != null && !shaMatches(fault.sha, access.sha)) return false;
  if (fault.comment_id != null && access.comment_id !== fault.comment_id) return false;
  if (fault.page != null && (access.page ?? 1) !== fault.page) return false;
  if (fault.api != null && access.api !== fault.api) return false;
  return true;
}

/**
 * The faults list with how often each fault has matched (for `skip`) and
 * fired (for `times`). A fault with `skip: N` lets its first N matching
 * requests pass (they count toward nothing else); then it fires, at most
 * `times` times when given.
 */
export class FaultBook {
  constructor(list = []) {
    this.list = list;
    this.fired = list.map(() => 0);
    this.skipped = list.map(() => 0);
  }

  /** Whether fault `i` would let its next match pass (skip left) or is spent (times). */
  dormant(i) {
    const fault = this.list[i];
    if (fault.skip != null && this.skipped[i] < fault.skip) return true;
    return fault.times != null && this.fired[i] >= fault.times;
  }

  /** The first armed fault matching `access`, without counting it. */
  peek(access) {
    for (let i = 0; i < this.list.length; i += 1) {
      const fault = this.list[i];
      if (!faultMatches(fault, access)) continue;
      if (this.dormant(i)) continue;
      return fault;
    }
    return null;
  }

  /**
   * The first armed fault matching `access`, counted, or null.
   * `decided` (a Map index → 'fire' | 'pass') makes a fault count once per
   * HTTP request however many fields of that request it hits.
   */
  take(access, decided) {
    for (let i = 0; i < this.list.length; i += 1) {
      const fault = this.list[i];
      if (!faultMatches(fault, access)) continue;
      const before = decided.get(i);
      if (before === 'fire') return fault;
      if (before === 'pass') continue;
      if (fault.skip != null && this.skipped[i] < fault.skip) {
        this.skipped[i] += 1;
        decided.set(i, 'pass');
        continue;
      }
      if (fault.times != null && this.fired[i] >= fault.times) {
        decided.set(i, 'pass');
        continue;
      }
      this.fired[i] += 1;
      decided.set(i, 'fire');
      return fault;
    }
    return null;
  }
}

/** Thrown by a handler or resolver when a failing fault hits; carries the fault. */
export class FaultAbort extends Error {
  constructor(fault) {
    super(`fakehub fault: ${JSON.stringify(fault)}`);
    this.fault = fault;
  }
}

/**
 * Per-request fault gate. `gate(access)` returns normally when no fault hits
 * (or a mangling fault hits: it is remembered in `mangle`; or a
 * `lost_response` fault: remembered in `lost`, the request is carried out and
 * its answer replaced afterwards), throws FaultAbort for a failing fault
 * (remembered in `abort`).
 */
export class FaultGate {
  /** `api`: 'rest' or 'graphql', the API of the request (for faults with `api`). */
  constructor(book, api = null) {
    this.book = book;
    this.api = api;
    this.decided = new Map();
    this.abort = null;
    this.mangle = null;
    this.lost = null;
  }

  check(access) {
    return this.book.take({ ...access, api: this.api }, this.decided);
  }

  peek(access) {
    return this.book.peek({ ...access, api: this.api });
  }

  gate(access) {
    const fault = this.check(access);
    if (!fault) return;
    if (isMangling(fault)) {
      this.mangle ??= fault;
      return;
    }
    if (faultEffect(fault) === 'lost_response') {
      this.lost ??= fault;
      return;
    }
    this.abort ??= fault;
    throw new FaultAbort(fault);
  }
}
