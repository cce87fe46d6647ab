// Issue 23 (Deployment II): what the documents, the example headers and the
// program's doctor must keep saying, each check run on the real files and
// on a copy with its fault planted (the workflow rules themselves are in
// deployment.test.mjs, the install step's planted executables in
// install.test.mjs, the new commands of the run step in runstep.test.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { load, ROOT, snippetNamed } from './lib.mjs';

const BIN = process.env.AGENTIC_APPLY_BIN ?? path.join(ROOT, 'build/agentic-apply');
const read = (rel) => readFileSync(path.join(ROOT, rel), 'utf8');
const EXAMPLES = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.yml')).sort().map((f) => `examples/${f}`);

/** A `## Title` section of a markdown text, up to the next `## `. */
function section(text, title) {
  const i = text.indexOf(`\n${title}\n`);
  if (i < 0) return '';
  const rest = text.slice(i + title.length + 2);
  const j = rest.search(/\n## /);
  return j < 0 ? rest : rest.slice(0, j);
}

// --- deliverable 5: the monthly cost at the top of each example and in the README ---

/** The number of "Cost on a private repository: N Actions minutes a month" in the file's opening comment. */
function headerCost(text) {
  const head = text.split('\n').filter((l, i, all) => all.slice(0, i + 1).every((x) => /^#/.test(x))).join(' ').replace(/#\s*/g, ' ');
  const m = /Cost on a private repository: ([0-9,]+) Actions minutes a month/.exec(head.replace(/\s+/g, ' '));
  return m ? Number(m[1].replace(/,/g, '')) : null;
}

/** The README's "What it costs" rows: example → the first number of its row. */
function readmeCosts(readme) {
  const out = {};
  const sec = section(readme, '### What it costs');
  for (const m of sec.matchAll(/^\| `(examples\/[^`]+)` \| ([0-9,]+)/gm)) out[m[1]] = Number(m[2].replace(/,/g, ''));
  return out;
}

function costProblems(files, readme) {
  const out = [];
  const rows = readmeCosts(readme);
  for (const [rel, text] of Object.entries(files)) {
    const c = headerCost(text);
    if (c === null) out.push(`${rel}: no cost line at the top`);
    else if (rows[rel] !== c) out.push(`${rel}: ${c} at the top, ${rows[rel] ?? 'no row'} in the README`);
  }
  return out;
}

describe('deliverable 5: the cost of each example, at its top and in the README', () => {
  const files = Object.fromEntries(EXAMPLES.map((rel) => [rel, read(rel)]));

  it('every example says its monthly cost first, and the README says the same', () => {
    assert.deepEqual(costProblems(files, read('README.md')), []);
  });

  it('the one-job sweep is a quarter of the four-job one (one job instead of four, same schedule)', () => {
    assert.equal(headerCost(files['examples/agentic-sweep-one-job.yml']) * 4, headerCost(files['examples/agentic-sweep.yml']));
    assert.equal(headerCost(files['examples/agentic-sweep.yml']), 4 * 4320);
  });

  it('planted: a header without its cost line, a README row that disagrees', () => {
    const a = { ...files, 'examples/agentic.yml': files['examples/agentic.yml'].replace(/Cost on a private repository/, 'Price') };
    assert.match(costProblems(a, read('README.md')).join('\n'), /agentic\.yml: no cost line/);
    const r = read('README.md').replace('| `examples/agentic-sweep-one-job.yml` | 4,320', '| `examples/agentic-sweep-one-job.yml` | 432');
    assert.match(costProblems(files, r).join('\n'), /one-job\.yml: 4320 at the top, 432 in the README/);
  });
});

// --- the documents ---------------------------------------------------------------------

const ACTIONS = read('docs/actions.md');

/** Item 1 (and the setup's last step): what the documents must say about the conductor's and the judge's token. */
function otherTokensProblems(actions, conductor, security) {
  const out = [];
  if (/stay as they are/i.test(actions) || /stay as they are/i.test(conductor)) out.push('a document says the conductor\'s workflows stay as they are');
  const sec = section(actions, '## The other tokens: conductor and judge');
  if (!/environment secret/.test(sec) || !/default branch only/.test(sec)) out.push('docs/actions.md does not say how the conductor and the judge keep the token');
  const rows = security.split('\n').filter((l) => /^\| \d+ \|/.test(l));
  if (!rows.some((l) => /conductor/.test(l) && /judge/.test(l) && /environment secret/.test(l))) out.push('SECURITY.md has no row for the conductor\'s and the judge\'s token');
  if (!rows.some((l) => /concurrency group|joins? .*group|holds? it/.test(l) && /sweep/.test(l))) out.push('SECURITY.md has no row for held concurrency groups');
  if (!rows.some((l) => /dispatch/.test(l) && /1,?000|thousand/.test(l))) out.push('SECURITY.md has no row for dispatch floods');
  return out;
}

/** Item 4: branch protection on every gated base, not the default branch alone. */
function basesProblems(actions) {
  const sec = section(actions, '## Branch protection');
  const out = [];
  if (!/every gated base/i.test(sec) || !/`bases`/.test(sec)) out.push('Branch protection is not set on every gated base');
  const adopting = section(actions, '## Adopting');
  if (!/every gated base/i.test(adopting)) out.push('Adopting does not protect every gated base');
  return out;
}

/** Items 7 and 8, and the setup that ends with doctor. */
function setupProblems(actions) {
  const out = [];
  const adopting = section(actions, '## Adopting');
  const steps = [...adopting.matchAll(/^(\d+)\. \*\*([^*]+)\*\*/gm)];
  if (!steps.length || !/run doctor/i.test(steps.at(-1)[2])) out.push('the setup does not end with "run doctor"');
  if (!/GitHub-hosted/.test(section(actions, '## Runners')) || !/allow-self-hosted/.test(section(actions, '## Runners'))) out.push('Runners does not require GitHub-hosted runners');
  if (!/No\s+restriction/.test(adopting) || !/doctor/.test(adopting)) out.push('the environment\'s branch rule default is not warned about');
  if (!/nobody can lift a hold/i.test(adopting.replace(/\s+/g, ' '))) out.push('Adopting does not say an empty unlabelers blocks for good');
  if (!section(actions, '## Doctor').includes('cannot tell')) out.push('no Doctor section');
  return out;
}

describe('issue 23: what the documents say', () => {
  const conductor = read('docs/conductor.md');
  const security = read('SECURITY.md');

  it('item 1: the conductor\'s and the judge\'s token, held like the gate\'s; SECURITY.md rows for it, held groups and dispatch floods', () => {
    assert.deepEqual(otherTokensProblems(ACTIONS, conductor, security), []);
    assert.match(otherTokensProblems(ACTIONS.replace(/## The other tokens: conductor and judge[\s\S]*?\n## /, '## '), conductor, security).join('\n'), /does not say how/);
    assert.match(otherTokensProblems(ACTIONS, `${conductor}\nTheir workflows stay as they are.\n`, security).join('\n'), /stay as they are/);
    const noRow = security.split('\n').filter((l) => !(/^\| \d+ \|/.test(l) && /conductor/.test(l) && /judge/.test(l))).join('\n');
    assert.match(otherTokensProblems(ACTIONS, conductor, noRow).join('\n'), /no row for the conductor/);
  });

  it('item 4: branch protection on every gated base', () => {
    assert.deepEqual(basesProblems(ACTIONS), []);
    assert.match(basesProblems(ACTIONS.replace(/every gated base/gi, 'the default branch')).join('\n'), /every gated base/);
  });

  it('items 7, 8 and doctor: GitHub-hosted runners, the environment\'s branch rule, unlabelers, the setup ends with "run doctor"', () => {
    assert.deepEqual(setupProblems(ACTIONS), []);
    assert.match(setupProblems(ACTIONS.replace(/11\. \*\*Run doctor\*\*/, '11. **Done**')).join('\n'), /does not end with "run doctor"/);
    assert.match(setupProblems(ACTIONS.replace(/GitHub-hosted/g, 'any')).join('\n'), /GitHub-hosted/);
    assert.match(setupProblems(ACTIONS.replace(/nobody can lift a hold/gi, 'holds are rare')).join('\n'), /empty unlabelers/);
  });

  it('item 3: the publish example of docs/publish.md is the example file, step for step', () => {
    const doc = load(snippetNamed('docs/publish.md', 'name: pr-review publish')).data;
    const file = load('examples/pr-review-publish.yml').data;
    assert.deepEqual(doc, file);
  });
});

// --- doctor reports what items 4, 7 and 8 leave to the adopter ------------------------------

function doctor(name) {
  const r = spawnSync(BIN, ['doctor', '--json', '--snapshot', path.join(ROOT, 'fixtures/doctor', `${name}.json`)], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  const report = JSON.parse(r.stdout);
  return { code: r.status, verdict: (id, subject) => report.checks.find((c) => c.check === id && (subject === undefined || c.subject === subject))?.verdict };
}

describe('issue 23: doctor catches what the documents leave to the adopter', () => {
  it('a set-up repository: exit 0', () => assert.equal(doctor('01-all-ok').code, 0));
  it('item 8: empty unlabelers is missing, exit 1', () => {
    const d = doctor('09-label-and-unlabelers-missing');
    assert.equal(d.verdict('unlabelers'), 'missing');
    assert.equal(d.code, 1);
  });
  it('item 7: an environment without a branch rule is missing', () => assert.equal(doctor('16-environment-no-branch-rule').verdict('environment'), 'missing'));
  it('item 4: a gated base without stale-approval dismissal is missing, there only', () => {
    const d = doctor('20-bases-pattern');
    assert.equal(d.verdict('dismiss-stale', 'release/2.0'), 'missing');
    assert.equal(d.verdict('dismiss-stale', 'main'), 'ok');
  });
  it('a rule doctor cannot read is cannot_tell, never ok', () => assert.equal(doctor('14-protection-unreadable').verdict('dismiss-stale'), 'cannot_tell'));
});
