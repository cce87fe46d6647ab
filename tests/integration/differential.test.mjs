// Every fixture through a live `run --json` against fakehub and through
// `replay`: the same stdout byte for byte and the same exit code
// (SNAPSHOT.md §4). Then every fixture again with --dry-run on both sides:
// the dry-run layer over the live port must plan what it plans over a
// snapshot (N18), and a dry run sends no write. Four fakehubs, four
// fixtures at a time. `make check` runs each column over a share of the
// fixtures (LIVE_SHARE, lib/fixtures.mjs), a different one for each column;
// `make check-full` runs both over every fixture.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { allFixtures, shareOf } from './lib/fixtures.mjs';
import { HubPool, isWrite, requestLines } from './lib/fakehub.mjs';
import { differential } from './lib/differential.mjs';

const CONCURRENCY = 4;
// Fixtures with held-open requests (timeouts) first, so their waits overlap the rest.
const slow = (fx) => (JSON.stringify(fx.snapshot.faults ?? []).includes('timeout') ? 1 : 0);
const fixtures = allFixtures().sort((a, b) => slow(b) - slow(a));
const liveSet = shareOf(fixtures, { column: 'differential', offset: 0 });
const drySet = shareOf(fixtures.filter((f) => !f.args.includes('--dry-run')), { column: 'differential --dry-run', offset: 1 });

let pool;
before(async () => { pool = await HubPool.start(CONCURRENCY); });
after(async () => { await pool?.stop(); });

describe('differential: live run against fakehub = replay', { concurrency: CONCURRENCY }, () => {
  for (const fx of liveSet) {
    it(fx.name, async () => {
      await pool.with((hub) => differential(fx, hub));
    });
  }
});

describe('differential --dry-run: live = replay, and no write is sent', { concurrency: CONCURRENCY }, () => {
  for (const fx of drySet) {
    it(fx.name, async () => {
      const dry = { ...fx, args: [...fx.args, '--dry-run'] };
      const { live, log } = await pool.with((hub) => differential(dry, hub));
      // (The report of a usage error, refused before any read, has no fields to carry it.)
      if ('event' in live.report) assert.equal(live.report.dry_run, true);
      assert.deepEqual(requestLines(log.filter(isWrite)), [], 'a dry run writes nothing');
    });
  }
});
