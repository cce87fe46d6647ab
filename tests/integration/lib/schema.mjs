// GitHub's GraphQL schema (@octokit/graphql-schema's schema.json, an
// introspection result; the package's `exports` hide the file) and
// GitHub's own pagination rule, checked independently of fakehub.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PEERS, peerDir } from './paths.mjs';

const require = createRequire(path.join(PEERS, 'package.json'));
export const graphql = require('graphql');

let schema;
export function githubSchema() {
  if (!schema) {
    const introspection = JSON.parse(readFileSync(path.join(peerDir('@octokit/graphql-schema'), 'schema.json'), 'utf8'));
    schema = graphql.buildClientSchema(introspection.data ?? introspection);
  }
  return schema;
}

/** The value of an argument node, variables resolved (their default when no value is given). */
function argValue(node, variables, defaults) {
  if (node.kind === graphql.Kind.VARIABLE) {
    const name = node.name.value;
    if (Object.hasOwn(variables, name)) return variables[name];
    if (defaults.has(name)) return defaults.get(name);
    return undefined;
  }
  return graphql.valueFromASTUntyped(node, variables);
}

/**
 * GitHub's rule: every connection field (a field whose type is a
 * `…Connection`) needs `first` or `last`, an integer from 1 to 100.
 * Returns a list of problems (empty when the document complies).
 */
export function paginationProblems(document, variables = {}) {
  const { TypeInfo, visit, visitWithTypeInfo, getNamedType, Kind } = graphql;
  const typeInfo = new TypeInfo(githubSchema());
  const problems = [];
  const defaults = new Map();
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of def.variableDefinitions ?? []) {
      if (v.defaultValue) defaults.set(v.variable.name.value, graphql.valueFromASTUntyped(v.defaultValue));
    }
  }
  visit(document, visitWithTypeInfo(typeInfo, {
    Field(node) {
      const def = typeInfo.getFieldDef();
      if (!def) return;
      const named = getNamedType(def.type);
      if (!named || !named.name.endsWith('Connection')) return;
      const where = `${typeInfo.getParentType()?.name}.${node.name.value}`;
      const bounds = ['first', 'last'].map((name) => {
        const arg = node.arguments?.find((a) => a.name.value === name);
        return arg ? { name, value: argValue(arg.value, variables, defaults) } : null;
      }).filter(Boolean);
      const given = bounds.filter((b) => b.value !== null && b.value !== undefined);
      if (!given.length) {
        problems.push(`${where}: a connection needs first or last`);
        return;
      }
      for (const b of given) {
        if (!Number.isInteger(b.value) || b.value < 1 || b.value > 100) {
          problems.push(`${where}: ${b.name} must be from 1 to 100, is ${JSON.stringify(b.value)}`);
        }
      }
    },
  }));
  return problems;
}
