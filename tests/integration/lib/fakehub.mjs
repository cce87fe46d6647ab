// Start and drive fakehub (tests/fakehub/server.mjs) from the tests: one
// server process, its state swapped per scenario through /_fakehub/state.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createInterface } from 'node:readline';
import path from 'node:path';

import { FAKEHUB, FIXTURES } from './paths.mjs';

export class Hub {
  constructor(child, url) {
    this.child = child;
    this.url = url;
    this.stderr = '';
    child.stderr.on('data', (d) => { this.stderr += d; });
  }

  /** Start a fakehub on a free loopback port. */
  static async start({ snapshot = path.join(FIXTURES, '000-demo.json'), latencyMs = 0, tls = null } = {}) {
    const args = [FAKEHUB, '--snapshot', snapshot];
    if (latencyMs) args.push('--latency-ms', String(latencyMs));
    if (tls) args.push('--tls-cert', tls.cert, '--tls-key', tls.key);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const url = await new Promise((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      const timer = setTimeout(() => reject(new Error(`fakehub did not start in 30 s: ${err}`)), 30000);
      rl.once('line', (line) => { clearTimeout(timer); rl.close(); resolve(line.trim()); });
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`fakehub exited (${code}): ${err}`)); });
    });
    child.removeAllListeners('exit');
    const hub = new Hub(child, url);
    if (tls?.ca) hub.ca = readFileSync(tls.ca);
    return hub;
  }

  async control(method, what, body) {
    if (this.url.startsWith('https:')) return this.controlTls(method, what, body);
    const res = await fetch(`${this.url}/_fakehub/${what}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`fakehub ${method} /_fakehub/${what}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** The control endpoints over HTTPS (fetch cannot be given a CA; the
   * host name is not checked: some test servers carry a wrong-name certificate). */
  controlTls(method, what, body) {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
      const req = https.request(`${this.url}/_fakehub/${what}`, {
        method, ca: this.ca, checkServerIdentity: () => undefined, headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {},
      }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode >= 400) reject(new Error(`fakehub ${method} /_fakehub/${what}: ${res.statusCode} ${text}`));
          else resolve(text ? JSON.parse(text) : null);
        });
      });
      req.on('error', reject);
      req.end(data);
    });
  }

  /** Replace the state (a snapshot object), clear the log. */
  async load(snapshot) {
    await this.control('POST', 'state', snapshot);
    await this.clearLog();
  }

  state() { return this.control('GET', 'state'); }
  log({ headers = false } = {}) { return this.control('GET', headers ? 'log?headers=1' : 'log'); }
  clearLog() { return this.control('POST', 'log/clear', {}); }
  faults(list) { return this.control('POST', 'faults', list); }

  async stop() {
    if (this.child.exitCode !== null) return;
    const done = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await done;
  }
}

/** A fixed set of hubs handed out one at a time (for concurrent tests). */
export class HubPool {
  constructor(hubs) {
    this.free = [...hubs];
    this.all = [...hubs];
    this.waiting = [];
  }

  static async start(n, options) {
    return new HubPool(await Promise.all(Array.from({ length: n }, () => Hub.start(options))));
  }

  async acquire() {
    if (this.free.length) return this.free.pop();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(hub) {
    const next = this.waiting.shift();
    if (next) next(hub);
    else this.free.push(hub);
  }

  async with(fn) {
    const hub = await this.acquire();
    try {
      return await fn(hub);
    } finally {
      this.release(hub);
    }
  }

  stop() { return Promise.all(this.all.map((h) => h.stop())); }
}

/** Short summary of a log: ["POST /graphql", "GET /repos/…", …]. */
export function requestLines(log) {
  return log.map((e) => `${e.method} ${e.path}`);
}

export const isWrite = (e) => e.method !== 'GET' && e.path !== '/graphql';
