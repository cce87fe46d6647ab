// Loads the npm test peers (graphql-js and GitHub's published GraphQL schema)
// from tests/peers/node_modules, so the fake server has no dependency of its own.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const peersManifest = new URL('../../peers/package.json', import.meta.url);
const require = createRequire(peersManifest);

function missing(name) {
  return new Error(
    `fakehub: cannot load ${name} from tests/peers/node_modules; run "npm ci" in tests/peers first`,
  );
}

let graphqlModule;
try {
  graphqlModule = require('graphql');
} catch {
  throw missing('graphql');
}
export const graphql = graphqlModule;

/** Directory of an installed peer package, found without going through its `exports` map. */
export function peerPackageDir(name) {
  for (const dir of require.resolve.paths(name) ?? []) {
    const candidate = path.join(dir, name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  throw missing(name);
}

let cachedSchema;
/** GitHub's GraphQL schema, built from @octokit/graphql-schema's introspection result. */
export function githubSchema() {
  if (!cachedSchema) {
    const file = path.join(peerPackageDir('@octokit/graphql-schema'), 'schema.json');
    const introspection = JSON.parse(readFileSync(file, 'utf8'));
    cachedSchema = graphql.buildClientSchema(introspection.data ?? introspection);
  }
  return cachedSchema;
}
