// `agentic-apply status --pr N` (SNAPSHOT.md §1): one line
//   head=<sha> stamp=<id>/<state>|none label=<true|false> approved=<true|false>
//   verdict=<yes|no|malformed|none> unanswered=<n>
// stamp: newest trusted pr=#N clean-context status on the head; approved: an
// APPROVED review by the trusted login on the head; verdict: the newest
// trusted needs-human verdict for the head; unanswered: threads with fewer
// than 2 comments. `--watch --interval S --count K` polls K times and prints
// only lines that changed. Read-only. Skipped while `status --help` does not
// exit 0 (the command is being written).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { BIN } from './lib/paths.mjs';
import { exec, liveEnv, scratch, succeeds } from './lib/run.mjs';

const available = await succeeds(['status', '--help']);
const skip = available ? false : 'agentic-apply status is not implemented yet (status --help exits non-zero)';

const TRUSTED = 'lfx-reviewer';
const LINE = /^head=([0-9a-f]{40}) stamp=(none|\d+\/(?:pending|success|failure|error)) label=(true|false) approved=(true|false) verdict=(yes|no|malformed|none) unanswered=(\d+)$/;

// An independent reading of §2.1 for the verdict field (the fixtures used
// below keep to plain well-formed or plainly malformed verdicts).
function needsHuman(body) {
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  const m = (re) => lines.map((l) => re.exec(l)).filter(Boolean);
  if (!m(/^[ \t]*<!--[ \t]*agentic:needs-human[ \t]+v1[ \t]*-->[ \t]*$/i).length) return null;
  const values = new Set(m(/^[ \t]*<!--[ \t]*needs-human[ \t]*:[ \t]*(yes|no)[ \t]*-->[ \t]*$/i).map((x) => x[1].toLowerCase()));
  const heads = new Set(m(/^[ \t]*<!--[ \t]*head[ \t]*:[ \t]*(\S*)[ \t]*-->[ \t]*$/i).map((x) => x[1].toLowerCase()));
  const bases = new Set(m(/^[ \t]*<!--[ \t]*base[ \t]*:[ \t]*(.*?)[ \t]*-->[ \t]*$/i).map((x) => x[1]));
  const wellFormed = values.size === 1 && heads.size === 1 && /^[0-9a-f]{40}$/.test([...heads][0]) && bases.size === 1;
  return { heads, value: wellFormed ? [...values][0] : 'malformed' };
}

export function expectedStatus(snapshot, n) {
  const p = snapshot.pulls.find((x) => x.number === n);
  const head = p.head.sha;
  const trusted = (login) => (login ?? '').toLowerCase() === TRUSTED;
  const stamps = (snapshot.statuses?.[head] ?? []).filter((s) => trusted(s.creator) && s.context === 'agentic-review/clean' && (s.description ?? '').includes(`pr=#${n}:`));
  const stamp = stamps.sort((a, b) => b.id - a.id)[0];
  const label = (p.labels ?? []).some((l) => String(l.name ?? l).toLowerCase() === 'needs-human');
  const approved = (p.reviews ?? []).some((r) => trusted(r.author) && r.state === 'APPROVED' && r.commit_id === head);
  const candidates = (p.comments ?? [])
    .filter((c) => trusted(c.author) && (!(c.edited_by || c.edited_at) || trusted(c.edited_by)))
    .map((c) => ({ c, v: needsHuman(c.body) }))
    .filter((x) => x.v && x.v.heads.has(head))
    .sort((a, b) => b.c.id - a.c.id);
  const verdict = candidates.length ? candidates[0].v.value : 'none';
  const unanswered = (p.threads ?? []).filter((t) => t.comments < 2).length;
  return `head=${head} stamp=${stamp ? `${stamp.id}/${stamp.state}` : 'none'} label=${label} approved=${approved} verdict=${verdict} unanswered=${unanswered}`;
}

const CASES = [
  '050-gate-all-hold-approve', '051-gate-clean-fails', '052-gate-label-present', '053-gate-thread-unanswered',
  '054-gate-escalation-judge-running', '055-gate-already-approved-no-write', '056-gate-withhold-dismisses-only-trusted-approvals',
  '057-gate-untrusted-clean-status', '058-gate-clean-newest-by-id', '064-esc-malformed-newest', '065-esc-newer-malformed-hides-older-no',
  '066-esc-yes-auth-newer-approve', '080-esc-verdict-other-head-only', '082-esc-verdict-edited-by-other', '084-esc-verdict-edited-by-trusted',
  '170-adv-forged-verdicts-and-status',
];

describe('status', { skip }, () => {
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

  for (const name of CASES) {
    it(`${name}: one fingerprint line`, async () => {
      const fx = fixture(name);
      await hub.load(fx.snapshot);
      const r = await exec(['status', '--pr', '7'], { env: liveEnv(fx.snapshot, { api: hub.url }, dir) });
      assert.equal(r.code, 0, r.stderr.slice(-400));
      const lines = r.stdout.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, `one line: ${JSON.stringify(r.stdout)}`);
      assert.match(lines[0], LINE);
      assert.equal(lines[0], expectedStatus(fx.snapshot, 7));
      assert.deepEqual((await hub.log()).filter(isWrite), [], 'status writes nothing');
    });
  }

  /** Spawn `status --watch`, call onLine(line, index) for each line; resolve {code, lines}. */
  function watch(snapshot, args, onLine) {
    return new Promise((resolve, reject) => {
      const child = spawn(BIN, ['status', '--pr', '7', '--watch', ...args], {
        env: { PATH: process.env.PATH, ...liveEnv(snapshot, { api: hub.url }, dir) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines = [];
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        onLine?.(line, lines.length - 1);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
      child.on('error', reject);
      child.on('close', (code) => { clearTimeout(timer); resolve({ code, lines, stderr }); });
    });
  }

  it('--watch --interval 1 --count 3: an unchanged PR prints one line', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    await hub.load(fx.snapshot);
    const r = await watch(fx.snapshot, ['--interval', '1', '--count', '3']);
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.lines, [expectedStatus(fx.snapshot, 7)]);
  });

  it('--watch --interval 1 --count 3: a change between polls prints the new line, once', async () => {
    const fx = fixture('050-gate-all-hold-approve');
    await hub.load(fx.snapshot);
    const changed = structuredClone(fx.snapshot);
    changed.pulls[0].labels = ['needs-human'];
    const r = await watch(fx.snapshot, ['--interval', '1', '--count', '3'], (line, i) => {
      if (i === 0) hub.control('POST', 'state', changed);
    });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.deepEqual(r.lines, [expectedStatus(fx.snapshot, 7), expectedStatus(changed, 7)]);
  });
});
