// Small helpers shared by the fake server's modules.
import { createHash } from 'node:crypto';

/**
 * fakehub's clock: the real time moved by `offsetMs` (POST /_fakehub/clock).
 * One per process; it drives JWT and installation-token checks and the times
 * written into the state.
 */
export const clock = {
  offsetMs: 0,
  now() { return Date.now() + this.offsetMs; },
};

/** Current time as GitHub writes it: ISO-8601 UTC, whole seconds, with a Z. */
export function nowIso(date = new Date(clock.now())) {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stable positive 31-bit integer derived from a string (FNV-1a). */
export function stableInt(text, floor = 1000) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(String(text), 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return floor + (h % (0x7fffffff - floor));
}

/** A stable fake 40-hex SHA for things the snapshot does not model (branch tips). */
export function fakeSha(text) {
  return createHash('sha1').update(String(text)).digest('hex');
}

/** Opaque, stable GraphQL node id: a type prefix and the base64url of a key. */
export function nodeId(prefix, key) {
  return `${prefix}_${Buffer.from(String(key), 'utf8').toString('base64url')}`;
}

export const BOT_SUFFIX = '[bot]';

export function isBotLogin(login) {
  return typeof login === 'string' && login.toLowerCase().endsWith(BOT_SUFFIX);
}

/** A bot's login as GraphQL spells it (without the [bot] suffix). */
export function graphqlLogin(login) {
  return isBotLogin(login) ? login.slice(0, -BOT_SUFFIX.length) : login;
}

export function sameText(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

export function isInt(value) {
  return Number.isSafeInteger(value);
}

/** Maximum of the values (ignoring non-numbers), or `fallback` when there is none. */
export function maxOf(values, fallback = 0) {
  let best = null;
  for (const v of values) if (typeof v === 'number' && (best === null || v > best)) best = v;
  return best === null ? fallback : best;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Latest of several ISO timestamps (strings compare lexically when normalised to Z). */
export function latestTime(times, fallback) {
  let best = null;
  for (const t of times) {
    if (typeof t !== 'string') continue;
    const ms = Date.parse(t);
    if (Number.isNaN(ms)) continue;
    if (best === null || ms > best.ms) best = { ms, t };
  }
  return best ? best.t : fallback;
}

export function earliestTime(times, fallback) {
  let best = null;
  for (const t of times) {
    if (typeof t !== 'string') continue;
    const ms = Date.parse(t);
    if (Number.isNaN(ms)) continue;
    if (best === null || ms < best.ms) best = { ms, t };
  }
  return best ? best.t : fallback;
}
