// The differential check shared by differential.test.mjs and prism.test.mjs:
// a fixture through a live `run --json` against a fake GitHub, and through
// `replay`: identical stdout, identical exit code.
import assert from 'node:assert/strict';

import { runLive, runReplay } from './run.mjs';

function brief(report, key) {
  return JSON.stringify(report?.[key] ?? null);
}

/** What differs between two runs, for the failure message. */
export function explainDiff(live, replay) {
  const lines = [];
  if (live.code !== replay.code) lines.push(`exit: live ${live.code}, replay ${replay.code}`);
  if (live.report && replay.report) {
    for (const key of ['event', 'dry_run', 'steps', 'writes', 'not_reached', 'exit']) {
      const a = brief(live.report, key);
      const b = brief(replay.report, key);
      if (a !== b) lines.push(`${key}:\n    live   ${a.slice(0, 1200)}\n    replay ${b.slice(0, 1200)}`);
    }
  } else {
    lines.push(`live stdout: ${live.stdout.slice(0, 400)}`, `replay stdout: ${replay.stdout.slice(0, 400)}`);
  }
  const notes = live.stderr.split('\n').filter((l) => /error|warning/i.test(l)).slice(0, 8);
  if (notes.length) lines.push(`live stderr:\n    ${notes.join('\n    ')}`);
  return lines.join('\n  ');
}

/**
 * Load the fixture into `hub`, run it live through `urls` (default: the hub
 * itself) and replay it; assert identical stdout and exit code. Returns
 * both results and the hub's request log.
 */
export async function differential(fx, hub, { urls = { api: hub.url }, env = {} } = {}) {
  try {
    await hub.load(fx.snapshot);
  } catch (err) {
    // A snapshot fakehub cannot hold (a repository that is no OWNER/NAME,
    // A8) is one the program must refuse before any request: compare the
    // refusals (the live run never reaches the hub's old state).
    if (!/\/_fakehub\/state: 400/.test(err.message) || fx.expect.exit !== 2) throw err;
    await hub.clearLog();
  }
  const [live, replay] = await Promise.all([
    runLive(fx.snapshot, urls, { args: fx.args, env }),
    runReplay(fx.file, fx.args),
  ]);
  const log = await hub.log();
  assert.ok(replay.report, `replay printed no report: ${replay.stderr.slice(0, 400)}`);
  assert.ok(live.signal === null, `live run killed by ${live.signal}`);
  if (live.stdout !== replay.stdout || live.code !== replay.code) {
    assert.fail(`${fx.name}: live run and replay differ\n  ${explainDiff(live, replay)}`);
  }
  assert.equal(live.code, live.report?.exit, 'exit code is the report\'s exit');
  return { live, replay, log };
}
