// An OpenAPI subset of GitHub's REST description (@octokit/openapi's
// generated/api.github.com.json, read as a file: requiring the package
// would load ~400 MB) holding only the operations agentic-apply calls,
// their referenced components, and `additionalProperties: false` on every
// request-body object so a misspelled field fails validation. Cached under
// build/integration/ keyed by the package version.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

import { BUILD, peerDir } from './paths.mjs';

/**
 * The REST operations only publish and review-plan use (PUBLISH.md §10):
 * the sticky (its node id for its edit history, A5), the threads, the
 * diff. Issue comments are listed over GraphQL, never REST.
 * tests/integration/publish.test.mjs exercises them through Prism.
 */
export const REVIEW_OPERATIONS = Object.freeze([
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['get', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['delete', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/comments'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
]);

/** The REST operations the program uses (BEHAVIOR §8; FACTS.md). */
export const OPERATIONS = Object.freeze([
  ['get', '/user'],
  ['get', '/repos/{owner}/{repo}/commits/{ref}/statuses'],
  ['post', '/repos/{owner}/{repo}/statuses/{sha}'],
  ['post', '/repos/{owner}/{repo}/labels'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['put', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals'],
  ['get', '/repos/{owner}/{repo}/compare/{basehead}'],
  ...REVIEW_OPERATIONS,
]);

// Bump when the transformation below changes (it is part of the cache key).
const GENERATOR = 1;

function collectRefs(node, out) {
  if (Array.isArray(node)) {
    for (const x of node) collectRefs(x, out);
  } else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') out.add(node.$ref);
    for (const v of Object.values(node)) collectRefs(v, out);
  }
}

function resolvePointer(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  const parts = ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = doc;
  for (const p of parts) {
    node = node?.[p];
    if (node === undefined) throw new Error(`dangling $ref ${ref}`);
  }
  return { parts, node };
}

function setPointer(doc, parts, value) {
  let node = doc;
  for (const p of parts.slice(0, -1)) node = node[p] ??= {};
  node[parts.at(-1)] = value;
}

/** additionalProperties: false on every object schema (inline, or the components it refers to). */
function closeObjects(schema, doc, seen = new Set()) {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const s of schema) closeObjects(s, doc, seen);
    return;
  }
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    seen.add(schema.$ref);
    closeObjects(resolvePointer(doc, schema.$ref).node, doc, seen);
    return;
  }
  if (schema.allOf) throw new Error('allOf in a request body: additionalProperties:false would reject every member');
  const isObject = schema.type === 'object' || (schema.properties && !schema.type);
  if (isObject && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  for (const key of ['properties', 'patternProperties']) {
    if (schema[key]) for (const s of Object.values(schema[key])) closeObjects(s, doc, seen);
  }
  for (const key of ['items', 'not', 'additionalProperties']) {
    if (schema[key] && typeof schema[key] === 'object') closeObjects(schema[key], doc, seen);
  }
  for (const key of ['oneOf', 'anyOf']) if (schema[key]) closeObjects(schema[key], doc, seen);
}

export function buildSubset(full) {
  const out = {
    openapi: full.openapi,
    info: { ...full.info, title: `${full.info?.title ?? 'GitHub'} (agentic-apply subset)` },
    servers: full.servers,
    paths: {},
    components: {},
  };
  for (const [method, route] of OPERATIONS) {
    const item = full.paths?.[route];
    const op = item?.[method];
    if (!op) throw new Error(`@octokit/openapi has no ${method.toUpperCase()} ${route}`);
    out.paths[route] ??= {};
    if (item.parameters) out.paths[route].parameters = structuredClone(item.parameters);
    out.paths[route][method] = structuredClone(op);
  }
  // Components, transitively.
  const done = new Set();
  let todo = new Set();
  collectRefs(out.paths, todo);
  while (todo.size) {
    const next = new Set();
    for (const ref of todo) {
      if (done.has(ref)) continue;
      done.add(ref);
      const { parts, node } = resolvePointer(full, ref);
      const copy = structuredClone(node);
      setPointer(out, parts, copy);
      collectRefs(copy, next);
    }
    todo = next;
  }
  // Request bodies: close every object so an unknown (misspelled) field fails.
  for (const item of Object.values(out.paths)) {
    for (const op of Object.values(item)) {
      const content = op?.requestBody?.content;
      if (!content) continue;
      for (const media of Object.values(content)) closeObjects(media.schema, out);
    }
  }
  return out;
}

/** Path of the subset for the installed @octokit/openapi, built when missing. */
export function openapiSubset() {
  const dir = peerDir('@octokit/openapi');
  const version = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const key = createHash('sha256').update(JSON.stringify([GENERATOR, OPERATIONS])).digest('hex').slice(0, 10);
  const cacheDir = path.join(BUILD, 'integration');
  const file = path.join(cacheDir, `openapi-subset-${version}-${key}.json`);
  if (existsSync(file)) return file;
  const full = JSON.parse(readFileSync(path.join(dir, 'generated/api.github.com.json'), 'utf8'));
  const subset = buildSubset(full);
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(subset, null, 1));
  renameSync(tmp, file);
  return file;
}
