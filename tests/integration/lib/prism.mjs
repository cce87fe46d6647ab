// Prism (`prism proxy --errors`, pinned 5.14.x in tests/peers) in front of a
// fakehub, behind a Router: program → router → (/graphql → fakehub;
// REST → prism → fakehub). Prism checks each REST request and each answer
// against the OpenAPI subset (lib/openapi.mjs): with --errors an invalid
// request becomes 422 and an invalid answer 500, both
// application/problem+json; lesser findings come back in `sl-violations`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { Hub } from './fakehub.mjs';
import { openapiSubset } from './openapi.mjs';
import { peerDir } from './paths.mjs';
import { Router } from './router.mjs';

export const PRISM_VERSION = /^5\.14\./;

export function prismEntry() {
  const dir = peerDir('@stoplight/prism-cli');
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (!PRISM_VERSION.test(pkg.version)) throw new Error(`@stoplight/prism-cli ${pkg.version} installed; 5.14.x is pinned (5.16 needs Node 24)`);
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prism;
  return path.join(dir, bin);
}

async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const STRIP = /\x1b\[[0-9;]*m/g;

export class Prism {
  constructor(child, url) {
    this.child = child;
    this.url = url;
    this.findings = []; // output lines that report a violation or an error
  }

  static async start(spec, upstream) {
    const entry = prismEntry();
    for (let attempt = 0; ; attempt += 1) {
      const port = await freePort();
      const child = spawn(process.execPath, [entry, 'proxy', spec, upstream, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      const prism = new Prism(child, `http://127.0.0.1:${port}`);
      try {
        await prism.ready();
        return prism;
      } catch (err) {
        child.kill('SIGKILL');
        if (attempt >= 2) throw err;
      }
    }
  }

  ready() {
    return new Promise((resolve, reject) => {
      let early = '';
      let listening = false;
      // ~3 s on an idle machine; make check runs two suites at once, and a
      // busy machine has been seen to need more than a minute.
      const timer = setTimeout(() => reject(new Error(`prism did not start in 180 s:\n${early}`)), 180000);
      const onLine = (raw) => {
        const line = raw.replace(STRIP, '');
        if (!listening) early += `${line}\n`;
        if (/violation|✖|\berror\b|fatal/i.test(line)) this.findings.push(line);
        if (!listening && /Prism is listening on/.test(line)) {
          listening = true;
          clearTimeout(timer);
          resolve();
        }
      };
      createInterface({ input: this.child.stdout }).on('line', onLine);
      createInterface({ input: this.child.stderr }).on('line', onLine);
      this.child.once('exit', (code) => {
        if (!listening) {
          clearTimeout(timer);
          reject(new Error(`prism exited (${code}) before listening:\n${early}`));
        }
      });
    });
  }

  clear() { this.findings = []; }

  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const done = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await done;
    clearTimeout(timer);
  }
}

/** fakehub + prism + router, as one unit a test borrows. */
export class PrismStack {
  static async start(spec = openapiSubset()) {
    const stack = new PrismStack();
    stack.hub = await Hub.start();
    try {
      stack.prism = await Prism.start(spec, stack.hub.url);
      stack.router = new Router(stack.hub.url, stack.prism.url);
      await stack.router.listen();
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  get urls() { return { api: this.router.url, graphql: `${this.router.url}/graphql` }; }

  clear() {
    this.prism.clear();
    this.router.clear();
  }

  async stop() {
    await this.router?.close();
    await this.prism?.stop();
    await this.hub?.stop();
  }
}

function parseViolations(header) {
  if (!header) return [];
  try {
    const v = JSON.parse(header);
    return Array.isArray(v) ? v : [v];
  } catch {
    return [{ severity: 'Error', message: `unparsable sl-violations: ${header}` }];
  }
}

/**
 * What Prism objected to in one run: every REST answer it turned into a
 * problem (422 invalid request, 500 invalid answer), every violation it
 * attached, and every output line reporting one. A warning that an error
 * status is not documented for the operation is expected when fakehub
 * injects a fault (5xx, 404 …) and is not a finding.
 */
export function prismFindings(stack) {
  const found = [];
  for (const r of stack.router.rest) {
    const type = String(r.headers['content-type'] ?? '');
    if (type.includes('application/problem+json')) {
      found.push(`${r.method} ${r.path}: Prism answered ${r.status}: ${r.body.slice(0, 600)}`);
      continue;
    }
    for (const v of parseViolations(r.headers['sl-violations'])) {
      const undocumentedError = r.status >= 400 && /Unable to match the returned status code/.test(v.message ?? '');
      if (!undocumentedError) found.push(`${r.method} ${r.path} (${r.status}): ${v.severity}: ${JSON.stringify(v.location ?? [])} ${v.message}`);
    }
  }
  for (const line of stack.prism.findings) {
    if (/Unable to match the returned status code/.test(line)) continue; // judged above, per answer
    found.push(`prism: ${line.trim()}`);
  }
  return found;
}
