// The fixture list (fixtures/[0-9]*.json, not the .expect.json files).
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { FIXTURES } from './paths.mjs';
import { loadFixture } from './run.mjs';

export function fixtureFiles() {
  return readdirSync(FIXTURES)
    .filter((f) => /^[0-9].*\.json$/.test(f) && !f.endsWith('.expect.json'))
    .sort()
    .map((f) => path.join(FIXTURES, f));
}

export function allFixtures() {
  return fixtureFiles().map(loadFixture);
}

export function fixture(name) {
  const file = fixtureFiles().find((f) => path.basename(f).startsWith(name));
  if (!file) throw new Error(`no fixture ${name}`);
  return loadFixture(file);
}
