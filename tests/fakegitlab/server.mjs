#!/usr/bin/env node
// fakegitlab — the project's fake GitLab server (docs/rules/gitlab.md).
//
//   node tests/fakegitlab/server.mjs --snapshot SNAPSHOT.json [--port 0] [--latency-ms N]
//
// Prints its base URL as the first line of stdout once it listens (127.0.0.1
// only); stops on SIGTERM or SIGINT. See tests/fakegitlab/README.md.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FakeGitlab } from './lib/app.mjs';
import { SnapshotError } from './lib/state.mjs';

const USAGE = 'usage: node tests/fakegitlab/server.mjs --snapshot SNAPSHOT.json [--port 0] [--latency-ms N]';

function die(message, code = 2) {
  process.stderr.write(`fakegitlab: ${message}\n`);
  process.exit(code);
}

function nonNegativeInt(text, flag) {
  if (!/^\d+$/.test(text ?? '')) die(`${flag} expects a non-negative integer, got "${text}"\n${USAGE}`);
  return Number(text);
}

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      snapshot: { type: 'string' },
      port: { type: 'string', default: '0' },
      'latency-ms': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (e) {
  die(`${e.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.snapshot) die(`--snapshot is required\n${USAGE}`);
const port = nonNegativeInt(args.port, '--port');
if (port > 65535) die('--port must be at most 65535');
const latencyMs = nonNegativeInt(args['latency-ms'], '--latency-ms');

let snapshot;
try {
  snapshot = JSON.parse(readFileSync(args.snapshot, 'utf8'));
} catch (e) {
  die(`cannot read snapshot ${args.snapshot}: ${e.message}`);
}

let fake;
try {
  fake = new FakeGitlab(snapshot, { latencyMs });
} catch (e) {
  if (e instanceof SnapshotError) die(`malformed snapshot: ${e.message}`);
  throw e;
}
const url = await fake.listen(port).catch((e) => die(`cannot listen: ${e.message}`, 1));
process.stdout.write(`${url}\n`);
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => fake.close().then(() => process.exit(0)));
}
