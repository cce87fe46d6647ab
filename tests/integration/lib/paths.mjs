// Where things are: the repository root, the program, the fixtures, the
// npm test peers. Everything else in tests/integration/lib builds on these.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN = process.env.AGENTIC_APPLY_BIN ?? path.join(ROOT, 'build/agentic-apply');
export const PRINT_QUERIES = path.join(ROOT, 'build/tests/print_queries');
export const FIXTURES = path.join(ROOT, 'fixtures');
export const FAKEHUB = path.join(ROOT, 'tests/fakehub/server.mjs');
export const PEERS = path.join(ROOT, 'tests/peers');
export const PEER_MODULES = path.join(PEERS, 'node_modules');
export const BUILD = path.join(ROOT, 'build');

/** Directory of an installed peer package (not through its `exports`). */
export function peerDir(name) {
  const dir = path.join(PEER_MODULES, name);
  if (!existsSync(path.join(dir, 'package.json'))) {
    throw new Error(`test peer ${name} is not installed: run tests/integration/run.sh (npm ci in tests/peers)`);
  }
  return dir;
}

/** Why the live suite cannot run, or null. */
export function missingPrerequisite() {
  if (!existsSync(BIN)) return `${BIN} is not built (make)`;
  if (!existsSync(path.join(PEER_MODULES, 'graphql'))) return 'test peers are not installed (npm ci in tests/peers)';
  return null;
}
