// `agentic-apply doctor` over the network (docs/actions.md, Doctor): every
// scenario of fixtures/doctor/ run live against fakehub, which serves the
// setup endpoints from the same snapshot, must give the report and the exit
// code that `doctor --snapshot` gives offline (and that tests/fixtures.sh
// checks against the expectation). The token's kind comes from its prefix,
// so each run sends a token of the kind the snapshot's `token.kind` names.
// `make check` runs it (make test-live).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { HubPool } from './lib/fakehub.mjs';
import { FIXTURES } from './lib/paths.mjs';
import { exec, loadFixture, parseReport, runLive } from './lib/run.mjs';

const DIR = path.join(FIXTURES, 'doctor');
const TOKENS = {
  'fine-grained': 'github_pat_11AAAAAAA0doctor0test0token',
  classic: 'ghp_doctortesttoken0000000000000000000000',
  oauth: 'gho_doctortesttoken0000000000000000000000',
  unknown: 'doctor-test-token',
};

/**
 * A report with the transport's words taken out: a check that could not
 * read says why in parentheses, in the port's words ("GET /orgs/…: HTTP
 * 404" live, "team …: HTTP 404" offline); everything else must be equal.
 */
function comparable(report) {
  if (!report) return report;
  return {
    ...report,
    checks: report.checks.map((c) => (c.verdict === 'cannot_tell' && c.detail?.includes(' (')
      ? { ...c, detail: c.detail.slice(0, c.detail.indexOf(' (')) } : c)),
  };
}

const fixtures = readdirSync(DIR)
  .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
  .sort()
  .map((f) => loadFixture(path.join(DIR, f)));

describe('doctor live against fakehub gives the offline report', () => {
  let pool;
  before(async () => { pool = await HubPool.start(2); });
  after(async () => { await pool?.stop(); });

  it('has a scenario for every verdict', () => {
    const seen = new Set(fixtures.flatMap((fx) => (fx.expect.checks ?? []).map((c) => c.verdict)));
    assert.deepEqual([...seen].sort(), ['cannot_tell', 'missing', 'ok', 'skipped']);
  });

  for (const fx of fixtures) {
    it(fx.name, async () => {
      const offline = await exec(['doctor', '--json', '--snapshot', fx.file]);
      const token = TOKENS[fx.snapshot.token?.kind ?? 'fine-grained'];
      assert.ok(token, `no live token for kind ${fx.snapshot.token?.kind}`);
      const r = await pool.with(async (hub) => {
        await hub.load(fx.snapshot);
        return runLive(fx.snapshot, hub, { command: ['doctor', '--json'], env: { GITHUB_TOKEN: token } });
      });
      assert.equal(r.code, offline.code, `exit: live ${r.code}, offline ${offline.code}\n${r.stderr}`);
      assert.deepEqual(comparable(r.report), comparable(parseReport(offline.stdout)), r.stderr);
      assert.equal(r.code, fx.expect.exit);
    });
  }
});
