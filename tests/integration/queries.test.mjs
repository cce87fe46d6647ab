// Every GraphQL document the live port can send (build/tests/print_queries)
// parses, validates against GitHub's published schema, and follows GitHub's
// pagination rule (connections need first or last in 1..100). And every
// document the program actually sends in live runs is one of them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { PRINT_QUERIES } from './lib/paths.mjs';
import { runLive } from './lib/run.mjs';
import { githubSchema, graphql, paginationProblems } from './lib/schema.mjs';

const documents = JSON.parse(execFileSync(PRINT_QUERIES, { encoding: 'utf8', maxBuffer: 64 << 20 }));

// Variables the program sends with them (page queries: a cursor string).
const VARIABLES = {
  owner: 'lf', name: 'svc', number: 7, after: 'Y3Vyc29yOjEwMA==', label: 'needs-human',
  ids: ['IC_kwDOA1', 'IC_kwDOA2'], id: 'IC_kwDOA1', // edit histories (A5)
};

describe('queries: every document of the live port', () => {
  it('print_queries lists documents', () => {
    assert.ok(Array.isArray(documents) && documents.length > 0);
    for (const d of documents) {
      assert.equal(typeof d.name, 'string');
      assert.equal(typeof d.query, 'string');
    }
    assert.equal(new Set(documents.map((d) => d.name)).size, documents.length, 'names are unique');
  });

  it('parses, validates against GitHub\'s schema and paginates within 1..100', () => {
    const schema = githubSchema();
    const failures = [];
    for (const d of documents) {
      let doc;
      try {
        doc = graphql.parse(d.query);
      } catch (err) {
        failures.push(`${d.name}: does not parse: ${err.message}`);
        continue;
      }
      const errors = graphql.validate(schema, doc);
      for (const e of errors) failures.push(`${d.name}: ${e.message}`);
      if (errors.length) continue;
      // Variables the document declares must be coercible from what the program sends.
      const op = doc.definitions.find((x) => x.kind === graphql.Kind.OPERATION_DEFINITION);
      const vars = Object.fromEntries((op.variableDefinitions ?? [])
        .map((v) => v.variable.name.value)
        .filter((n) => Object.hasOwn(VARIABLES, n))
        .map((n) => [n, VARIABLES[n]]));
      const coerced = graphql.getVariableValues(schema, op.variableDefinitions ?? [], vars);
      for (const e of coerced.errors ?? []) failures.push(`${d.name}: variables: ${e.message}`);
      for (const p of paginationProblems(doc, coerced.coerced ?? vars)) failures.push(`${d.name}: ${p}`);
      if (op.operation !== 'query') failures.push(`${d.name}: a ${op.operation}, not a query (writes are REST)`);
    }
    assert.deepEqual(failures, []);
  });

  it('the pagination check itself rejects what GitHub rejects', () => {
    const bad = [
      'query{repository(owner:"a",name:"b"){pullRequests{totalCount}}}',
      'query{repository(owner:"a",name:"b"){pullRequests(first:101){totalCount}}}',
      'query{repository(owner:"a",name:"b"){pullRequests(last:0){totalCount}}}',
      'query($n:Int){repository(owner:"a",name:"b"){pullRequests(first:$n){totalCount}}}',
      'query{repository(owner:"a",name:"b"){pullRequest(number:1){comments(first:5){nodes{reactions{totalCount}}}}}}',
    ];
    for (const q of bad) assert.notDeepEqual(paginationProblems(graphql.parse(q)), [], q);
    assert.deepEqual(paginationProblems(graphql.parse('query($n:Int=100){repository(owner:"a",name:"b"){pullRequests(first:$n){totalCount}}}')), []);
    assert.deepEqual(paginationProblems(graphql.parse('query($n:Int){repository(owner:"a",name:"b"){pullRequests(first:$n){totalCount}}}'), { n: 5 }), []);
  });
});

describe('queries: what live runs send is what print_queries lists', () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  // A sweep's read-ahead documents alias one block per PR (p0:pullRequest(
  // number:7){…} p1:…): compare them by their first block, number elided.
  // Each PR asks for as many review threads as it has: that number too.
  const canonical = (q) => {
    const m = /^(.*?)p0:pullRequest\(number:\d+\)(\{.*?\}) (?:p\d+:pullRequest.*)?\}\}$/s.exec(q);
    return m ? `${m[1]}p0:pullRequest(number:N)${m[2].replace(/reviewThreads\(first:\d+/, 'reviewThreads(first:T')} }}` : q;
  };
  const known = new Set(documents.map((d) => canonical(d.query)));
  const scenarios = [
    '000-demo', // apply then gate
    '050-gate-all-hold-approve', // approve path
    '150-sweep-mixed', // schedule sweep
    '004-label-create-repo-label', // label lookup
    '094-ev-status-sha-single-open-pr', // open pulls
    '123-fault-read-threads-apply', // per-part re-reads after a failure
  ];
  for (const name of scenarios) {
    it(name, async () => {
      const fx = fixture(name);
      await hub.load(fx.snapshot);
      await runLive(fx.snapshot, hub, { args: fx.args });
      const sent = (await hub.log()).filter((e) => e.path === '/graphql');
      assert.ok(sent.length > 0, 'the run sent GraphQL');
      for (const e of sent) {
        assert.ok(known.has(canonical(e.body?.query)), `not listed by print_queries: ${String(e.body?.query).slice(0, 300)}`);
        const problems = paginationProblems(graphql.parse(e.body.query), e.body.variables ?? {});
        assert.deepEqual(problems, []);
        if (!fx.snapshot.faults) assert.equal(e.status, 200);
      }
    });
  }
});
