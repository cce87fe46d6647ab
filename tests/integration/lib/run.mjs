// Run build/agentic-apply: live against a fake GitHub, or `replay` offline.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BIN } from './paths.mjs';

/** Options that keep failures fast (SNAPSHOT.md §4 runs). */
export const FAST = Object.freeze({
  AGENTIC_RETRY_BASE_MS: '5',
  AGENTIC_HTTP_TIMEOUT: '2',
  AGENTIC_RETRIES: '1',
  AGENTIC_WRITE_INTERVAL_MS: '0', // writes are paced 1 s apart by default
});

/** AGENTIC_<KEY> variables for a snapshot's `config`. */
export function configEnv(config = {}) {
  const env = {};
  for (const [key, value] of Object.entries(config)) {
    let v = value;
    if (Array.isArray(v)) v = v.join(',');
    else if (typeof v === 'boolean') v = v ? 'true' : 'false';
    env[`AGENTIC_${key.toUpperCase()}`] = String(v);
  }
  return env;
}

/** A scratch directory, removed by the returned function. */
export function scratch(prefix = 'aa-it-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawn the program. Resolves {code, signal, stdout, stderr, ms}. The
 * environment is exactly `env` plus PATH (nothing of the caller's
 * GITHUB_* or AGENTIC_* leaks in).
 */
export function exec(args, { env = {}, timeoutMs = 60000, bin = BIN } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(bin, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code, signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
      });
    });
  });
}

export function parseReport(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return null;
  }
}

/**
 * The environment of a live run against `urls` ({api, graphql}) for a
 * snapshot: repository, event name and payload file, token, config.
 */
export function liveEnv(snapshot, urls, dir, extra = {}) {
  const eventPath = path.join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(snapshot.event?.payload ?? {}));
  return {
    GITHUB_API_URL: urls.api,
    GITHUB_GRAPHQL_URL: urls.graphql ?? `${urls.api}/graphql`,
    GITHUB_REPOSITORY: snapshot.repository,
    GITHUB_EVENT_NAME: snapshot.event?.name ?? '',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_TOKEN: 'integration-test-token',
    ...configEnv(snapshot.config),
    ...FAST,
    ...extra,
  };
}

/**
 * A live run: `agentic-apply <command…> <args…>` (default `run --json`)
 * with the snapshot's event and config. `urls` is {api, graphql} or a Hub.
 * Returns exec()'s result plus `report` (parsed stdout or null).
 */
export async function runLive(snapshot, urls, { command = ['run', '--json'], args = [], env = {}, timeoutMs } = {}) {
  const where = urls.url ? { api: urls.url } : urls;
  const { dir, cleanup } = scratch();
  try {
    const r = await exec([...command, ...args], { env: liveEnv(snapshot, where, dir, env), timeoutMs });
    return { ...r, report: parseReport(r.stdout) };
  } finally {
    cleanup();
  }
}

/** `agentic-apply replay [args] FILE` (FILE: a path, or a snapshot object written to a temp file). */
export async function runReplay(file, args = [], { env = {} } = {}) {
  let cleanup = () => {};
  let where = file;
  if (typeof file !== 'string') {
    const s = scratch();
    cleanup = s.cleanup;
    where = path.join(s.dir, 'snapshot.json');
    writeFileSync(where, JSON.stringify(file));
  }
  try {
    const r = await exec(['replay', ...args, where], { env });
    return { ...r, report: parseReport(r.stdout) };
  } finally {
    cleanup();
  }
}

/** Fixtures: every fixtures/[0-9]*.json with its expectation. */
export function loadFixture(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const expectFile = file.replace(/\.json$/, '.expect.json');
  const expect = existsSync(expectFile) ? JSON.parse(readFileSync(expectFile, 'utf8')) : {};
  return { file, name: path.basename(file, '.json'), snapshot, expect, args: expect.args ?? [] };
}

/** Run tasks with at most `limit` at once; results in input order. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Does `bin <args>` exit 0? (feature probes: `record --help`). */
export async function succeeds(args) {
  try {
    const r = await exec(args, { timeoutMs: 10000 });
    return r.code === 0;
  } catch {
    return false;
  }
}
