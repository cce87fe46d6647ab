// The documents say what action.yml and the release ledger say (issue
// "Truthful outputs and a smooth first hour", items 8-10):
// - README.md and docs/actions.md name exactly the action's inputs and
//   outputs, and every policy key; GitHub App mode is one story: inputs of
//   the action, an addition to the machine account's token;
// - request-cost and start-up figures are written in one place,
//   BENCHMARKS.md (by `make bench`): the other documents cite its figures by
//   name and copy no number;
// - before the first release, the README says what every run then does,
//   and pins no version that has no line in dist/SHA256SUMS.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { actionFiles, load, ROOT } from './lib.mjs';

const read = (rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const action = load('action.yml').data;
const INPUTS = Object.keys(action.inputs).sort();
const OUTPUTS = Object.keys(action.outputs).sort();
const POLICY_KEYS = /policy_keys\[\] = \{([^}]*)\}/.exec(read('src/core/policy.c'))[1].match(/"([a-z0-9_]+)"/g).map((k) => k.slice(1, -1));
const README = read('README.md');
const ACTIONS_MD = read('docs/actions.md');
const EXAMPLES = actionFiles().examples;

/** The text of a markdown section: from its heading to the next heading of its level or above. */
function section(text, heading) {
  const level = /^#+/.exec(heading)[0].length;
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `no section "${heading}"`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The backticked names in the first column of a section's tables. */
function firstColumn(text) {
  const names = [];
  for (const line of text.split('\n')) {
    const m = /^\| ([^|]+) \|/.exec(line);
    if (!m || /^-+$/.test(m[1].trim())) continue;
    for (const n of m[1].matchAll(/`([^`]+)`/g)) names.push(n[1]);
  }
  return names;
}

describe('inputs and outputs: action.yml, README.md and docs/actions.md agree', () => {
  it('docs/actions.md, Configuration, has a row for every input of action.yml, and none else', () => {
    const rows = firstColumn(section(ACTIONS_MD, '## Configuration')).filter((n) => /^[a-z][a-z0-9-]*$/.test(n));
    assert.deepEqual([...new Set(rows)].sort(), INPUTS);
  });

  it('README.md names only inputs action.yml has ("input `x`", "inputs `x`, `y`")', () => {
    const named = [];
    for (const m of README.matchAll(/\binputs? ((?:`[a-z][a-z0-9-]*`(?:,\s*|\s+and\s+|\s+or\s+)?)+)/g)) {
      for (const n of m[1].matchAll(/`([^`]+)`/g)) named.push(n[1]);
    }
    assert.ok(named.includes('app-id'), 'the App mode row names its inputs');
    for (const n of named) assert.ok(INPUTS.includes(n), `README.md names input ${n}, which action.yml lacks`);
  });

  it('README.md lists every input of action.yml (policy keys with hyphens, the others by name)', () => {
    const para = README.split('\n\n').find((p) => p.includes('Inputs are the configuration keys above with hyphens'));
    assert.ok(para, 'the paragraph listing the inputs');
    const listed = new Set([...para.matchAll(/`([a-z][a-z0-9-]*)`/g)].map((m) => m[1]));
    for (const k of POLICY_KEYS) listed.add(k.replace(/_/g, '-'));
    for (const name of INPUTS) assert.ok(listed.has(name), `README.md does not list input ${name}`);
  });

  it('README.md, Configuration, has a row for every policy key', () => {
    const rows = firstColumn(section(README, '## Configuration'));
    for (const k of POLICY_KEYS) assert.ok(rows.includes(k), `no row for ${k}`);
  });

  it('the outputs tables of docs/actions.md and README.md are the outputs of action.yml', () => {
    const docs = firstColumn(section(ACTIONS_MD, '## Outputs'));
    assert.deepEqual([...new Set(docs)].sort(), OUTPUTS);
    // README: `name` or `name` (`program_name`), several per row.
    const readme = firstColumn(section(README, '### Outputs')).filter((n) => !n.includes('_'));
    assert.deepEqual([...new Set(readme)].sort(), OUTPUTS);
  });

  it('the output contract is written the same in action.yml, README.md and docs/actions.md', () => {
    const texts = { 'action.yml': JSON.stringify(action.outputs), 'README.md': section(README, '### Outputs'), 'docs/actions.md': section(ACTIONS_MD, '## Outputs') };
    for (const [rel, t] of Object.entries(texts)) {
      const flat = t.replace(/\s+/g, ' ');
      for (const must of ['would-approve', 'none', 'sweep', 'docs/report.md', 'report.md']) {
        if (must === 'docs/report.md' && rel === 'docs/actions.md') continue;
        assert.ok(flat.includes(must), `${rel}: the outputs do not mention ${must}`);
      }
      assert.match(flat, /only if an approval by the trusted login/, `${rel}: approved is an approval that exists after the run`);
      assert.match(flat, /actually approved/, `${rel}: approved-prs are the approvals this run posted`);
      assert.doesNotMatch(flat, /SNAPSHOT\.md/, `${rel}: the report is specified in docs/report.md`);
    }
  });
});

describe('GitHub App mode is one story', () => {
  const files = ['README.md', 'docs/actions.md', 'action.yml', ...EXAMPLES];

  it('every file that speaks of an installation token names App mode\'s inputs or variables', () => {
    for (const rel of files) {
      const text = read(rel);
      if (!/installation token/i.test(text)) continue;
      assert.match(text, /app-private-key|AGENTIC_APP_PRIVATE_KEY/, `${rel} speaks of installation tokens but not of App mode`);
      assert.doesNotMatch(text.replace(/\s+/g, ' '), /installation token (alone )?does not work/i, `${rel}: App mode works (with the machine account's token)`);
    }
  });

  it('App mode is set through inputs of the action, not env: of the step', () => {
    assert.ok(action.inputs['app-id'] && action.inputs['app-private-key'] && action.inputs['app-installation-id']);
    for (const rel of ['README.md', 'docs/actions.md']) {
      const env = /^\s*env:\n(\s+AGENTIC_APP_[A-Z_]+: .*\n)+/m.exec(read(rel));
      assert.equal(env, null, `${rel} sets App mode through env: instead of the inputs`);
    }
  });
});

describe('figures: BENCHMARKS.md is their one source', () => {
  const bench = read('BENCHMARKS.md');
  // Each figure is a row of the targets table, its key in a cell of its own:
  // | what it measures | `key` | target | measured | … (bench/report.mjs).
  const FIGURES = [...bench.matchAll(/^\|[^\n]*?\| `([a-z][a-z0-9_]+)` \|/gm)].map((m) => m[1]);
  const CITING = ['README.md', 'docs/actions.md', 'action.yml', ...EXAMPLES];
  // A copied figure: "2 requests", "costs 5", "6 per approval", "starts in
  // about 1 ms", "approve path 6". GitHub's rate limits ("5,000 requests per
  // hour") are not ours.
  const COPIES = [
    [/\b\d+(?:\.\d+)?\s+(?:requests?|reads?|queries)\b(?!\s+(?:per|an|a)\s+hour)/i, 'a request count'],
    [/\bcosts?\s+(?:about\s+|~\s*)?(?:\d|half|one|two|three|four|five|six)/i, 'a cost'],
    [/\b\d+(?:\.\d+)?\s+per\s+(?:approval|PR)\b/i, 'a cost per approval or PR'],
    [/\b(?:starts?|start-up|startup)\b[^.\n]{0,40}?\d+(?:\.\d+)?\s*ms\b/i, 'a start-up time'],
    [/\b(?:approve path|gate evaluation)\b\s*(?:costs?\s*)?[:=(]?\s*\d+\b/i, 'a request count of the gate'],
  ];

  it('BENCHMARKS.md has the figures the documents cite', () => {
    for (const f of ['eval_read_requests', 'approve_path_requests', 'cold_start_ms']) assert.ok(FIGURES.includes(f), f);
    assert.match(bench, /Written by `make bench`/);
  });

  for (const rel of CITING) {
    it(`${rel} copies no request-cost or start-up figure`, () => {
      const text = read(rel).replace(/\d{1,3}(?:,\d{3})+/g, 'N');
      for (const [re, what] of COPIES) {
        const m = re.exec(text);
        assert.ok(!m, `${rel}: ${what} "${m?.[0]}" - cite BENCHMARKS.md instead`);
      }
    });
  }

  it('README.md\'s comparison with the reference workflows quotes BENCHMARKS.md exactly', () => {
    // The one table of figures outside BENCHMARKS.md (the README's first
    // screen): each row's numbers are those of a row of BENCHMARKS.md's
    // "Against the reference workflows", in order.
    const ROWS = {
      'requests to approve a PR': 'a gate evaluation that approves',
      'processes started to approve a PR': 'processes started to approve',
      'requests to sweep 50 PRs': 'a sweep of 50 PRs',
    };
    const numbers = (cells) => cells.join(' ').replace(/\(this run\)/g, '').match(/\d+(?:\.\d+)?/g) ?? [];
    const rows = (text) => Object.fromEntries(text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('|--'))
      .map((l) => l.split('|').slice(1, -1).map((c) => c.trim())).map((c) => [c[0], c.slice(1)]));
    const at = README.indexOf('<!-- figures: BENCHMARKS.md');
    assert.ok(at >= 0, 'README.md marks its comparison table');
    const table = rows(README.slice(at, README.indexOf('\n\n', at)));
    const against = rows(section(bench, '## Against the reference workflows'));
    assert.deepEqual(Object.keys(table).filter((k) => k !== ''), Object.keys(ROWS));
    for (const [mine, theirs] of Object.entries(ROWS)) {
      assert.ok(against[theirs], `BENCHMARKS.md has no row "${theirs}"`);
      assert.deepEqual(numbers(table[mine]), numbers(against[theirs]), `README.md "${mine}" vs BENCHMARKS.md "${theirs}"`);
    }
  });

  it('the figures cited by name exist in BENCHMARKS.md; README.md and docs/actions.md cite it', () => {
    for (const rel of CITING) {
      for (const m of read(rel).matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) {
        if (!/_(requests|ms|s|cold|warm|mb|ratio|points_cold)$/.test(m[1]) || /^(approved|would_approve|dry_run|sweep_deadline|clean_context|escalation_context|trusted_login|ai_reviewers|approve_drafts)/.test(m[1])) continue;
        assert.ok(FIGURES.includes(m[1]), `${rel} cites ${m[1]}, which BENCHMARKS.md does not have`);
      }
    }
    for (const [rel, figures] of [['README.md', ['eval_read_requests', 'approve_path_requests', 'cold_start_ms']], ['docs/actions.md', ['approve_path_requests']]]) {
      const text = read(rel);
      assert.match(text, /BENCHMARKS\.md/, rel);
      for (const f of figures) assert.ok(text.includes(`\`${f}\``), `${rel} cites ${f}`);
    }
  });
});

describe('the first release: what the README promises matches dist/SHA256SUMS', () => {
  const version = read('VERSION').trim();
  const released = spawnSync('sh', [path.join(ROOT, 'dist/checksum'), 'expect', version], { encoding: 'utf8' }).status === 0;

  it(`README.md says what every run does while v${version} has ${released ? 'a' : 'no'} ledger line`, () => {
    const flat = README.replace(/\s+/g, ' ');
    if (released) {
      assert.doesNotMatch(flat, /No version of agentic-apply is released yet/, 'v' + version + ' is released: the README must say so');
      return;
    }
    const before = section(README, '### Before the first release').replace(/\s+/g, ' ');
    assert.match(before, /No version of agentic-apply is released yet/);
    assert.match(before, /every job that runs the action builds the program from source/);
    assert.match(before, /dist\/SHA256SUMS has no binary for v/, 'the notice the run shows');
    assert.match(before, /apt-get/);
    assert.match(before, /binary: release/);
  });

  it('no adoption snippet pins a version that has no line in dist/SHA256SUMS', () => {
    for (const rel of ['README.md', 'docs/actions.md']) {
      for (const m of read(rel).matchAll(/uses: [\w.-]+\/agentic-apply@\S+\s+#\s*(v\d+\.\d+\.\d+)\b/g)) {
        const ok = spawnSync('sh', [path.join(ROOT, 'dist/checksum'), 'expect', m[1]], { encoding: 'utf8' }).status === 0;
        assert.ok(ok, `${rel} pins ${m[1]}, which dist/SHA256SUMS does not vouch for: every run would build from source`);
      }
    }
  });
});
