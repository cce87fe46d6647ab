// Run one step of action.yml the way the runner runs `shell: bash`
// (bash --noprofile --norc -eo pipefail FILE), with exactly the given
// environment plus PATH, and read back what it wrote to $GITHUB_OUTPUT.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { actionStep } from './lib.mjs';

/** name=value lines and name<<DELIM … DELIM blocks of a $GITHUB_OUTPUT file. */
export function parseOutputs(text) {
  const out = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const body = [];
      for (i += 1; i < lines.length && lines[i] !== heredoc[2]; i += 1) body.push(lines[i]);
      out[heredoc[1]] = body.join('\n');
      continue;
    }
    const eq = lines[i].indexOf('=');
    if (eq > 0) out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1);
  }
  return out;
}

export function tempDir(prefix = 'aa-act-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Run step `id` of action.yml. `env` is the step's environment (the
 * runner's variables and the step's env: block, already evaluated).
 * Resolves {code, stdout, stderr, outputs, outputText}.
 */
export function runStep(id, env, { timeoutMs = 120000, pathPrefix = [] } = {}) {
  const { run } = actionStep(id);
  const work = tempDir('aa-step-');
  const script = path.join(work.dir, 'step.sh');
  const output = env.GITHUB_OUTPUT ?? path.join(work.dir, 'output');
  writeFileSync(script, run);
  writeFileSync(output, '', { flag: 'a' });
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      env: {
        PATH: [...pathPrefix, process.env.PATH ?? '/usr/bin:/bin'].join(':'),
        LC_ALL: 'C.UTF-8',
        GITHUB_OUTPUT: output,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); work.cleanup(); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      const outputText = readFileSync(output, 'utf8');
      work.cleanup();
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        outputText,
        outputs: parseOutputs(outputText),
      });
    });
  });
}
