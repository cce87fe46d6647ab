// Tokens never appear in output (BEHAVIOR §8) and go only to the API origin.
// A recognisable secret as GITHUB_TOKEN, then as AGENTIC_TOKEN, then as
// AGENTIC_READ_TOKEN, across an approving run, failing runs (a read fault,
// a write fault, an off-host Link) and usage errors: the secret is in
// nothing the program prints or writes (stdout, stderr, the step summary,
// the outputs file), in no path, query or body fakehub received, and it is
// sent as `Authorization: Bearer <secret>` only to fakehub's own host and
// port, on exactly the requests that token is for (reads use the read
// token when one is given; GET /user and writes use the write token).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { exec, liveEnv, parseReport, scratch } from './lib/run.mjs';
import { Trap } from './lib/trap.mjs';

const SECRET = 'ghs_S3cr3tT0kenThatMustNeverLeak_9f8e7d6c5b4a';
const OTHER = 'ghs_OrdinaryWriteToken_0000000000000000000000';

const TOKEN_SETUPS = [
  { name: 'GITHUB_TOKEN', env: { GITHUB_TOKEN: SECRET }, write: SECRET, read: SECRET },
  { name: 'AGENTIC_TOKEN', env: { AGENTIC_TOKEN: SECRET, GITHUB_TOKEN: OTHER }, write: SECRET, read: SECRET },
  { name: 'AGENTIC_READ_TOKEN', env: { GITHUB_TOKEN: OTHER, AGENTIC_READ_TOKEN: SECRET }, write: OTHER, read: SECRET },
];

function faulted(name, faults) {
  const s = structuredClone(fixture(name).snapshot);
  s.faults = faults;
  return s;
}

const RUNS = [
  { name: 'approving run', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, code: 0 },
  { name: 'apply then approve', snapshot: () => fixture('000-demo').snapshot, code: 0 },
  { name: 'withhold with dismissals', snapshot: () => fixture('056-gate-withhold-dismisses-only-trusted-approvals').snapshot, code: 0 },
  { name: 'failing read (statuses 502)', snapshot: () => faulted('050-gate-all-hold-approve', [{ read: 'statuses', status: 502 }]), code: 3 },
  { name: 'failing write (approve 502)', snapshot: () => faulted('050-gate-all-hold-approve', [{ write: 'approve', status: 502 }]), code: 3 },
  { name: 'off-host Link on the statuses', snapshot: () => faulted('050-gate-all-hold-approve', [{ read: 'statuses', mode: 'offhost_link' }]), code: 3 },
  { name: 'off-host Link on GraphQL', snapshot: () => faulted('050-gate-all-hold-approve', [{ read: 'pull', mode: 'offhost_link' }]), code: [0, 3] },
  { name: 'identity mismatch (viewer is not the trusted login)', snapshot: () => fixture('140-t4-viewer-mismatch-approve').snapshot, code: 2 },
  { name: 'usage error: dispatch input not a number', snapshot: () => fixture('109-ev-dispatch-not-number').snapshot, code: 2 },
  { name: 'usage error: unknown option', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, args: ['--bogus'], code: 2 },
  { name: 'usage error: bad configuration', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, env: { AGENTIC_RETRIES: 'many' }, code: 2 },
  { name: 'usage error: GraphQL URL on another origin', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, graphql: 'http://127.0.0.2:9/graphql', code: 2 },
  { name: 'usage error: the token ends in a newline (read from a file)', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, suffix: '\n', code: 2, silent: true },
  { name: 'usage error: the token holds a header line', snapshot: () => fixture('050-gate-all-hold-approve').snapshot, suffix: '\r\nX-Injected: 1', code: 2, silent: true },
];

const isWriteRequest = (e) => (e.method !== 'GET' && e.path !== '/graphql') || e.path === '/user';

describe('secrets', () => {
  let hub;
  let trap;
  before(async () => {
    hub = await Hub.start();
    trap = new Trap();
    await trap.listen();
  });
  after(async () => {
    await hub?.stop();
    await trap?.close();
  });

  async function run(setup, spec, { actions = false } = {}) {
    const snapshot = spec.snapshot();
    await hub.load(snapshot);
    trap.clear();
    const { dir, cleanup } = scratch();
    try {
      const summary = path.join(dir, 'step_summary.md');
      const output = path.join(dir, 'output.txt');
      writeFileSync(summary, '');
      writeFileSync(output, '');
      const env = liveEnv(snapshot, { api: hub.url, graphql: spec.graphql }, dir, {
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        ...trap.env(),
        ...(actions ? { GITHUB_ACTIONS: 'true' } : {}),
        ...(spec.env ?? {}),
      });
      delete env.GITHUB_TOKEN;
      Object.assign(env, setup.env);
      if (spec.suffix) {
        for (const [k, v] of Object.entries(setup.env)) if (v === SECRET) env[k] = SECRET + spec.suffix;
      }
      const r = await exec(['run', '--json', ...(spec.args ?? [])], { env });
      return {
        ...r,
        report: parseReport(r.stdout),
        summary: readFileSync(summary, 'utf8'),
        output: readFileSync(output, 'utf8'),
        log: await hub.log({ headers: true }),
        offHost: [...trap.requests],
      };
    } finally {
      cleanup();
    }
  }

  for (const setup of TOKEN_SETUPS) {
    describe(`secret as ${setup.name}`, () => {
      for (const spec of RUNS) {
        it(spec.name, async () => {
          const r = await run(setup, spec);
          const codes = [spec.code].flat();
          assert.ok(codes.includes(r.code), `exit ${r.code}, expected ${codes.join(' or ')}: ${r.stderr.slice(-500)}`);
          assert.ok(!r.stdout.includes(SECRET), 'secret on stdout');
          assert.ok(!r.stderr.includes(SECRET), 'secret on stderr');
          assert.ok(!r.summary.includes(SECRET), 'secret in the step summary');
          assert.ok(!r.output.includes(SECRET), 'secret in the outputs file');
          for (const e of r.log) {
            assert.ok(!e.path.includes(SECRET), `secret in a path: ${e.method} ${e.path}`);
            assert.ok(!JSON.stringify(e.query).includes(SECRET), `secret in a query string: ${e.method} ${e.path}`);
            assert.ok(!JSON.stringify(e.body ?? '').includes(SECRET), `secret in a request body: ${e.method} ${e.path}`);
            const want = isWriteRequest(e) ? setup.write : setup.read;
            assert.equal(e.headers.authorization, `Bearer ${want}`, `${e.method} ${e.path} carries the ${isWriteRequest(e) ? 'write' : 'read'} token`);
            assert.equal(e.headers.host ?? e.headers[':authority'], new URL(hub.url).host, 'sent to fakehub\'s own host and port');
          }
          assert.deepEqual(r.offHost.map((x) => `${x.method} ${x.url}`), [], 'no request to another host');
          if (spec.silent) assert.deepEqual(r.log.map((e) => `${e.method} ${e.path}`), [], 'a malformed token is never sent');
        });
      }
    });
  }

  // In Actions the program masks its tokens (BEHAVIOR §8): the secret may
  // appear only in a `::add-mask::<secret>` workflow command, and must.
  for (const setup of TOKEN_SETUPS) {
    it(`in GitHub Actions, ${setup.name} is masked with ::add-mask:: and otherwise never printed`, async () => {
      const r = await run(setup, RUNS[0], { actions: true });
      assert.equal(r.code, 0, r.stderr.slice(-500));
      const lines = `${r.stdout}\n${r.stderr}`.split('\n');
      const leaks = lines.filter((l) => l.includes(SECRET) && l.trim() !== `::add-mask::${SECRET}`);
      assert.deepEqual(leaks, [], 'the secret outside an ::add-mask:: command');
      assert.ok(lines.some((l) => l.trim() === `::add-mask::${SECRET}`), 'the token is masked with ::add-mask:: in Actions');
      assert.ok(!r.summary.includes(SECRET) && !r.output.includes(SECRET));
    });
  }
});
