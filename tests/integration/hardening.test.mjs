// The hardening issue on the live path: A5 (T2 over a comment's whole edit
// history, read with GraphQL userContentEdits, every page; an unreadable
// history fails closed; record writes it).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { differential } from './lib/differential.mjs';
import { exec, liveEnv, runLive, scratch } from './lib/run.mjs';

const isEditHistory = (e) => e.path === '/graphql' && /userContentEdits/.test(e.body?.query ?? '');
const at = (i) => new Date(Date.UTC(2026, 10, 29, 9, 30, 0) + i * 1000).toISOString().replace('.000Z', 'Z');

/** 050 (approves) with the needs-human verdict's history set to `edits`. */
function withHistory(edits, name) {
  const fx = structuredClone(fixture('050-gate-all-hold-approve'));
  const verdict = fx.snapshot.pulls[0].comments.find((c) => c.id === 401);
  verdict.edits = edits;
  verdict.edited_by = edits.at(-1).editor;
  verdict.edited_at = edits.at(-1).edited_at;
  fx.name = name;
  return fx;
}

/** A fixture object whose snapshot lives in a file (differential replays a file). */
function onDisk(fx, dir) {
  const file = path.join(dir, `${fx.name}.json`);
  writeFileSync(file, JSON.stringify(fx.snapshot));
  return { ...fx, file };
}

describe('A5: edit histories on the live path', () => {
  let hub;
  let dir;
  let cleanup;
  before(async () => {
    hub = await Hub.start();
    ({ dir, cleanup } = scratch());
  });
  after(async () => {
    await hub?.stop();
    cleanup?.();
  });

  it('an edit history trusted throughout keeps the verdict (live = replay)', async () => {
    const fx = withHistory([0, 1, 2].map((i) => ({ editor: 'lfx-reviewer', edited_at: at(i) })), 'a5-trusted-history');
    const { live, log } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'approve', live.stderr.slice(-400));
    assert.equal(log.filter(isEditHistory).length, 3, 'one history read per read of the PR (decide, re-check, after the POST)');
  });

  it('an untrusted editor on page 2 of a long history disqualifies the verdict (live = replay)', async () => {
    const edits = Array.from({ length: 150 }, (_, i) => ({ editor: i === 20 ? 'mallory' : 'lfx-reviewer', edited_at: at(i) }));
    const fx = withHistory(edits, 'a5-untrusted-edit-on-page-2');
    const { live, log } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
    assert.deepEqual(live.report.writes, []);
    const reads = log.filter(isEditHistory);
    assert.equal(reads.length, 2, 'the first page with the comment, then one more page');
    assert.match(reads[1].body.query, /after:\$after/);
  });

  it('a Bot editor spelled like the trusted login is another account (GraphQL drops "[bot]")', async () => {
    const fx = withHistory([{ editor: 'lfx-reviewer[bot]', edited_at: at(0) }, { editor: 'lfx-reviewer', edited_at: at(1) }], 'a5-bot-editor');
    const { live } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
  });

  it('a deleted editor (null) is not the trusted login', async () => {
    const fx = withHistory([{ editor: null, edited_at: at(0) }, { editor: 'lfx-reviewer', edited_at: at(1) }], 'a5-deleted-editor');
    const { live } = await differential(onDisk(fx, dir), hub);
    assert.equal(live.report.steps[0].outcome, 'withhold');
  });

  for (const [label, fault] of [
    ['a 502 on page 2 of the history', { read: 'comments', pr: 7, page: 2, status: 502 }],
    ['an invalid answer on page 2 of the history', { read: 'comments', pr: 7, page: 2, mode: 'invalid_json' }],
  ]) {
    it(`${label}: the comments part failed, nothing approved, exit 3`, async () => {
      const fx = withHistory(Array.from({ length: 150 }, (_, i) => ({ editor: 'lfx-reviewer', edited_at: at(i) })), 'a5-unreadable');
      const s = { ...fx.snapshot, faults: [fault] };
      await hub.load(s);
      const r = await runLive(s, hub);
      assert.equal(r.code, 3, r.stderr.slice(-400));
      assert.equal(r.report.steps[0].outcome, 'error');
      assert.ok(!(await hub.log()).some((e) => isWrite(e) && /reviews$/.test(e.path) && e.method === 'POST'), 'no approval');
      assert.match(r.stderr, /edit history/);
    });
  }

  it('record writes the history, oldest first; replaying the recording decides the same', async () => {
    const edits = [
      { editor: 'lfx-reviewer', edited_at: at(0) },
      { editor: 'mallory', edited_at: at(1) },
      { editor: 'lfx-reviewer', edited_at: at(2) },
    ];
    const fx = withHistory(edits, 'a5-record');
    await hub.load(fx.snapshot);
    const out = path.join(dir, 'recorded.json');
    const r = await exec(['record', '--pr', '7', '--out', out], { env: liveEnv(fx.snapshot, { api: hub.url }, dir) });
    assert.equal(r.code, 0, r.stderr);
    const recorded = JSON.parse(readFileSync(out, 'utf8'));
    const c = recorded.pulls[0].comments.find((x) => x.id === 401);
    assert.deepEqual(c.edits, edits);
    const replay = await exec(['replay', out]);
    assert.equal(JSON.parse(replay.stdout).steps[0].outcome, 'withhold');
  });
});
