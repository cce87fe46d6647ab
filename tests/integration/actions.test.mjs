// GitHub Actions output of a live run (BEHAVIOR §9): the step summary
// ($GITHUB_STEP_SUMMARY) has the table of the four conditions with ✅/❌ and
// what was written; $GITHUB_OUTPUT has decision, pr, head and approved.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { runLive, runReplay, scratch } from './lib/run.mjs';

/** name=value lines and name<<DELIM … DELIM blocks of a $GITHUB_OUTPUT file. */
export function parseOutputs(text) {
  const out = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const body = [];
      for (i += 1; i < lines.length && lines[i] !== delim; i += 1) body.push(lines[i]);
      out[name] = body.join('\n');
      continue;
    }
    const eq = lines[i].indexOf('=');
    if (eq > 0) out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1);
  }
  return out;
}

describe('GitHub Actions step summary and outputs', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  async function run(name, mutate = (s) => s) {
    const snapshot = mutate(structuredClone(fixture(name).snapshot));
    await hub.load(snapshot);
    const { dir, cleanup } = scratch();
    try {
      const summary = path.join(dir, 'summary.md');
      const output = path.join(dir, 'output.txt');
      writeFileSync(summary, '# earlier step\n');
      writeFileSync(output, 'earlier=1\n');
      const r = await runLive(snapshot, hub, { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output } });
      return { ...r, summary: readFileSync(summary, 'utf8'), outputs: parseOutputs(readFileSync(output, 'utf8')), head: snapshot.pulls[0].head.sha };
    } finally {
      cleanup();
    }
  }

  it('an approving gate: summary table all ✅, outputs decision=approve approved=true', async () => {
    const r = await run('050-gate-all-hold-approve');
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.ok(r.summary.startsWith('# earlier step\n'), 'the summary file is appended to, not replaced');
    assert.match(r.summary, /PR #7/);
    assert.ok((r.summary.match(/✅/g) ?? []).length >= 4, 'four ✅ conditions');
    assert.ok(!r.summary.includes('❌'));
    assert.match(r.summary, /\|/, 'a markdown table');
    assert.match(r.summary, /approv/i, 'says what was written');
    assert.equal(r.outputs.earlier, '1', 'the outputs file is appended to');
    assert.equal(r.outputs.decision, 'approve');
    assert.equal(r.outputs.pr, '7');
    assert.equal(r.outputs.head, r.head);
    assert.equal(r.outputs.approved, 'true');
  });

  it('a withholding gate: a ❌ with its reason, approved=false', async () => {
    const r = await run('050-gate-all-hold-approve', (s) => { s.pulls[0].labels = ['needs-human']; return s; });
    assert.equal(r.code, 0, r.stderr.slice(-400));
    assert.ok((r.summary.match(/❌/g) ?? []).length >= 1, 'a ❌ condition');
    assert.match(r.summary, /needs-human/);
    assert.equal(r.outputs.decision, 'withhold');
    assert.equal(r.outputs.pr, '7');
    assert.equal(r.outputs.head, r.head);
    assert.equal(r.outputs.approved, 'false');
  });

  it('a failed read: decision error, approved=false', async () => {
    const r = await run('050-gate-all-hold-approve', (s) => { s.faults = [{ read: 'statuses', status: 502 }]; return s; });
    assert.equal(r.code, 3);
    assert.equal(r.outputs.decision, 'error');
    assert.equal(r.outputs.approved, 'false');
  });
});

// §9: untrusted text is escaped so it can never form a workflow command.
// The runner reads commands from stdout and stderr line by line, and a lone
// CR ends a line too. Text others control (a verdict's base line, a forged
// status, a thread of a human, a row id) carries `::error::INJECTED…` after
// a CR or LF; no output line may begin with it.
describe('untrusted text never forms a workflow command', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  const INJECT = '::error::INJECTED';
  const cases = [
    {
      name: 'a verdict bound to a base with a CR in its name',
      build(s) {
        const c = s.pulls[0].comments.find((x) => x.id === 501);
        c.body = c.body.replace('<!-- base: main -->', `<!-- base: main\r${INJECT}-base -->`);
      },
    },
    {
      name: 'forged statuses with line breaks in description and context',
      build(s) {
        const h = s.pulls[0].head.sha;
        s.statuses[h].push(
          { id: 3001, state: 'failure', context: 'agentic-review/clean', description: `conductor pr=#7: clean=false\n${INJECT}-desc\r${INJECT}-desc2`, creator: 'mallory', created_at: '2026-11-29T10:50:00Z', target_url: `https://evil.example/\n${INJECT}-url` },
          { id: 3002, state: 'success', context: `agentic-review/escalation\n${INJECT}-ctx`, description: `skipped pr=#7: needs-human label set\n${INJECT}-skip`, creator: 'lfx-reviewer', created_at: '2026-11-29T10:51:00Z', target_url: null },
        );
      },
    },
    {
      name: 'a check verdict with hostile row ids and reasons (apply)',
      build(s) {
        const body = [
          '<!-- agentic:check v1 -->',
          `head: ${s.pulls[0].head.sha}`,
          'round: 1001',
          'clean: true',
          'threads:',
          `- id: ${INJECT}-row, status: fixed, severity: high, reason: fine\r${INJECT}-reason`,
          `- id: PRRT_x\r${INJECT}-cr, status: fixed, severity: high, reason: ok`,
          `- id: bad row\r${INJECT}-invalid`,
        ].join('\n');
        s.event = { name: 'issue_comment', payload: { action: 'created', issue: { number: 7, pull_request: { url: 'https://api.github.com/repos/lf/svc/pulls/7' } }, comment: { id: 777, user: { login: 'lfx-reviewer' }, body, created_at: '2026-11-29T10:55:00Z', html_url: 'https://github.com/lf/svc/pull/7#issuecomment-777' } } };
        s.pulls[0].comments.push({ id: 777, author: 'lfx-reviewer', created_at: '2026-11-29T10:55:00Z', body, edited_by: null, edited_at: null });
      },
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const snapshot = structuredClone(fixture('050-gate-all-hold-approve').snapshot);
      c.build(snapshot);
      await hub.load(snapshot);
      const { dir, cleanup } = scratch();
      try {
        const output = path.join(dir, 'output.txt');
        writeFileSync(output, '');
        const r = await runLive(snapshot, hub, { env: { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: path.join(dir, 's.md') } });
        assert.ok(r.report, r.stderr.slice(-400));
        const lines = `${r.stdout}\n${r.stderr}`.split(/\r\n|\r|\n/);
        const injected = lines.filter((l) => l.trimStart().startsWith(INJECT));
        assert.deepEqual(injected, [], 'an output line begins with an injected workflow command');
        const outLines = readFileSync(output, 'utf8').split(/\r\n|\r|\n/).filter(Boolean);
        assert.ok(outLines.every((l) => /^[a-z_]+=/.test(l) && !l.includes('INJECTED')), `GITHUB_OUTPUT holds only the program's outputs: ${JSON.stringify(outLines)}`);
        const replay = await runReplay(snapshot);
        assert.equal(r.stdout, replay.stdout, 'live = replay');
      } finally {
        cleanup();
      }
    });
  }
});
