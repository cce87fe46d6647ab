#!/usr/bin/env node
// fakehub — the project's fake GitHub server (SNAPSHOT.md §4).
//
//   node tests/fakehub/server.mjs --snapshot SNAPSHOT.json [--port 0] [--latency-ms N]
//                                 [--tls-cert FILE --tls-key FILE]
//
// Prints its base URL as the first line of stdout once it listens (127.0.0.1
// only); stops on SIGTERM or SIGINT. See tests/fakehub/README.md.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node tests/fakehub/server.mjs --snapshot SNAPSHOT.json [--port 0] [--latency-ms N] [--tls-cert FILE --tls-key FILE]';

function die(message, code = 2) {
  process.stderr.write(`fakehub: ${message}\n`);
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
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (err) {
  die(`${err.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.snapshot) die(`--snapshot is required\n${USAGE}`);
if (Boolean(args['tls-cert']) !== Boolean(args['tls-key'])) die('--tls-cert and --tls-key go together');

const port = nonNegativeInt(args.port, '--port');
if (port > 65535) die('--port must be at most 65535');
const latencyMs = nonNegativeInt(args['latency-ms'], '--latency-ms');

let snapshot;
try {
  snapshot = JSON.parse(readFileSync(args.snapshot, 'utf8'));
} catch (err) {
  die(`cannot read snapshot ${args.snapshot}: ${err.message}`);
}

let tls = null;
if (args['tls-cert']) {
  try {
    tls = { cert: readFileSync(args['tls-cert']), key: readFileSync(args['tls-key']) };
  } catch (err) {
    die(`cannot read TLS files: ${err.message}`);
  }
}

const { SnapshotError, validateSnapshot } = await import('./lib/state.mjs');
try {
  validateSnapshot(snapshot);
} catch (err) {
  if (err instanceof SnapshotError) die(`bad snapshot ${args.snapshot}: ${err.message}`);
  throw err;
}

// Loaded after the checks: building GitHub's schema takes a moment.
const { FakeHub } = await import('./lib/app.mjs');
const hub = new FakeHub({ snapshot, latencyMs, tls });

let base;
try {
  base = await hub.listen(port);
} catch (err) {
  die(`cannot listen on 127.0.0.1:${port}: ${err.message}`, 1);
}
process.stdout.write(`${base}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await hub.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
