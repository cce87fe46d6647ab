// The fixture list (fixtures/[0-9]*.json, not the .expect.json files).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { FIXTURES, ROOT } from './paths.mjs';
import { loadFixture } from './run.mjs';

export function fixtureFiles() {
  return readdirSync(FIXTURES)
    .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
    .sort()
    .map((f) => path.join(FIXTURES, f));
}

export function allFixtures() {
  return fixtureFiles().map(loadFixture);
}

export function fixture(name) {
  const file = fixtureFiles().find((f) => path.basename(f).startsWith(name));
  if (!file) throw new Error(`no fixture ${name}`);
  return loadFixture(file);
}

// --- the share make check runs (LIVE_SHARE) ----------------------------------
//
// `make check` runs the per-fixture columns (differential, --dry-run,
// Prism) over a share of the fixtures; `make check-full` (LIVE_SHARE unset
// or 1) over all of them. The share: every fixture with a fault (a live
// failure is where the live port and replay part most), and the fixtures
// whose name hashes to the seed mod LIVE_SHARE. The seed is LIVE_SEED, else
// the number of commits up to HEAD (consecutive commits take consecutive
// shares: LIVE_SHARE commits in a row run every fixture), else, in a
// shallow clone or without git, the day number. Each column adds its own
// offset to the seed, so one run's columns take different shares.

/** { k, n, from }: the share's size and seed; k = 1 means every fixture. */
export function liveShare() {
  const k = Number(process.env.LIVE_SHARE ?? 1);
  if (!Number.isInteger(k) || k < 1) throw new Error(`LIVE_SHARE=${process.env.LIVE_SHARE}: a whole number ≥ 1`);
  if (k === 1) return { k, n: 0, from: 'every fixture' };
  const env = process.env.LIVE_SEED;
  if (env !== undefined && /^\d+$/.test(env)) return { k, n: Number(env), from: 'LIVE_SEED' };
  try {
    const git = (...args) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (git('rev-parse', '--is-shallow-repository') === 'false') {
      return { k, n: Number(git('rev-list', '--count', 'HEAD')), from: `commit ${git('rev-parse', '--short', 'HEAD')}` };
    }
  } catch { /* no git, or not a checkout */ }
  return { k, n: Math.floor(Date.now() / 86400000), from: 'the day number' };
}

function nameHash(name) {
  return createHash('sha256').update(name).digest().readUInt32BE(0);
}

/**
 * The fixtures a column runs: all of them (LIVE_SHARE unset or 1), else the
 * faulted ones (unless `faulted` is false), the ones `always` names, and
 * the column's share. `offset`
 * sets the column apart (0, 1, 2…); the line the column prints says which
 * share it ran (LIVE_SEED=N repeats it).
 */
export function shareOf(fixtures, { column, offset = 0, always = [], faulted = true } = {}) {
  const s = liveShare();
  if (s.k === 1) return fixtures;
  const pinned = new Set(always);
  const slot = (s.n + offset) % s.k;
  const kept = fixtures.filter((fx) => (faulted && (fx.snapshot?.faults?.length ?? 0) > 0) || pinned.has(fx.name)
    || nameHash(fx.name) % s.k === slot);
  const also = [faulted && 'the faulted ones', pinned.size && `${pinned.size} pinned`].filter(Boolean).join(', ');
  console.log(`${column}: ${kept.length} of ${fixtures.length} fixtures (LIVE_SHARE=${s.k}: ${also ? `${also} and ` : ''}the names hashing to ${slot} mod ${s.k}; seed ${s.n} from ${s.from}, LIVE_SEED=${s.n} repeats it; make check-full runs all)`);
  return kept;
}
