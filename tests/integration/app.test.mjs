// GitHub App mode (AGENTIC_APP_ID + AGENTIC_APP_PRIVATE_KEY[_FILE], optional
// AGENTIC_APP_INSTALLATION_ID) against fakehub's `app` extension, with a
// throwaway RSA key made here. The program mints a JWT, reads GET /app (the
// slug), finds the installation unless given, exchanges it for an
// installation token, and reads everything and writes statuses and labels
// with that token; the machine account's token (AGENTIC_TOKEN) only asks
// GET /user (T4) and approves or dismisses. Proved here:
// - the same report as `replay` (the differential) on apply, gate, label,
//   dismissal and sweep fixtures, and with --dry-run;
// - which credential every request carried (fakehub's log `actor`: "jwt",
//   "app", "user") and who the writes are credited to (statuses and labels
//   to `<slug>[bot]`, approvals never made with the App's token);
// - failures fail closed: a key fakehub refuses, no installation, a failed
//   token exchange → exit 3, nothing written; a missing key → exit 2;
// - T4 still checks the machine account's token (exit 2, nothing written);
// - the installation token is refreshed when under 5 minutes remain;
// - the PEM, the JWTs and every token never appear in anything the program
//   prints or writes, nor in any path, query or body (masked in Actions).
// Skipped while the program does not know App mode (AGENTIC_APP_ID alone
// must exit 2 naming AGENTIC_APP_PRIVATE_KEY).
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub } from './lib/fakehub.mjs';
import { fixture } from './lib/fixtures.mjs';
import { exec, liveEnv, parseReport, runReplay, scratch } from './lib/run.mjs';
import { Trap } from './lib/trap.mjs';

const APP_ID = 4242;
const SLUG = 'agentic-apply-bot';
const BOT = `${SLUG}[bot]`;
const INSTALLATION = 777;
const TRUSTED = 'lfx-reviewer';
const USER_TOKEN = 'ghp_MachineAccountUserToken_App_0000000000001';
/** The refresh margin the program promises: a token with under 5 minutes left is replaced. */
const REFRESH_MARGIN_S = 300;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** PKCS#1 ("BEGIN RSA PRIVATE KEY"), the form GitHub hands out. */
const PEM = privateKey.export({ type: 'pkcs1', format: 'pem' });
const PUBLIC = publicKey.export({ type: 'spki', format: 'pem' });
const WRONG_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' });
/** Lines of the keys' base64 bodies: none may ever be printed. */
const pemLines = (pem) => pem.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'));

// ---- is App mode there? ----------------------------------------------------------------

async function appModeKnown() {
  const { dir, cleanup } = scratch();
  try {
    const env = liveEnv({ repository: 'lf/svc', event: { name: 'schedule', payload: {} } }, { api: 'http://127.0.0.1:9' }, dir, { AGENTIC_APP_ID: String(APP_ID) });
    const r = await exec(['run', '--json'], { env, timeoutMs: 10000 });
    return r.code === 2 && r.stderr.includes('AGENTIC_APP_PRIVATE_KEY');
  } catch {
    return false;
  } finally {
    cleanup();
  }
}
const skip = (await appModeKnown()) ? false
  : 'agentic-apply does not know App mode yet (AGENTIC_APP_ID alone does not exit 2 naming AGENTIC_APP_PRIVATE_KEY)';

// ---- scenarios and runs ----------------------------------------------------------------

/** A snapshot with fakehub's `app` extension (the App installed on the repository). */
function withApp(snapshot, app = {}) {
  const s = structuredClone(snapshot);
  s.app = { id: APP_ID, slug: SLUG, public_key: PUBLIC, installation_id: INSTALLATION, token_ttl_s: 3600, ...app };
  return s;
}

/** The environment of App mode: the machine account's token plus the App's id and key. */
function appEnv(extra = {}) {
  return { AGENTIC_TOKEN: USER_TOKEN, AGENTIC_APP_ID: String(APP_ID), AGENTIC_APP_PRIVATE_KEY: PEM, ...extra };
}

/** The parts of the state a write would change. */
function writable(state) {
  return JSON.stringify({
    labels: state.labels ?? null,
    statuses: state.statuses ?? {},
    pulls: (state.pulls ?? []).map((p) => ({ n: p.number, labels: p.labels ?? [], reviews: p.reviews ?? [], timeline: p.timeline ?? [] })),
  });
}

const APP_ENDPOINT = /^\/app(\/|$)|^\/repos\/[^/]+\/[^/]+\/installation$/;
const isAppEndpoint = (e) => APP_ENDPOINT.test(e.path);
const isReview = (e) => (e.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(e.path)) || (e.method === 'PUT' && /\/reviews\/\d+\/dismissals$/.test(e.path));
const isUser = (e) => e.method === 'GET' && e.path === '/user';
const isStatusOrLabelWrite = (e) => (e.method === 'POST' && /\/statuses\/[0-9a-f]+$/.test(e.path)) || (e.method !== 'GET' && /\/labels(\/|$)/.test(e.path));
const isWriteRequest = (e) => e.method !== 'GET' && e.path !== '/graphql' && !isAppEndpoint(e);
const line = (e) => `${e.method} ${e.path} → ${e.status} (${e.actor})`;

/**
 * One live run in App mode. `env` is added to appEnv() (a value of null
 * removes the variable). Returns the run, its step summary and outputs
 * file, fakehub's log (with headers), the state before and after.
 */
async function runApp(hub, snapshot, { args = [], env = {}, actions = false, trap = null } = {}) {
  await hub.load(snapshot);
  const initial = await hub.state();
  const { dir, cleanup } = scratch();
  try {
    const summary = path.join(dir, 'step_summary.md');
    const output = path.join(dir, 'output.txt');
    writeFileSync(summary, '');
    writeFileSync(output, '');
    const all = liveEnv(snapshot, { api: hub.url }, dir, {
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      ...(trap ? trap.env() : {}),
      ...(actions ? { GITHUB_ACTIONS: 'true' } : {}),
      ...appEnv(),
    });
    delete all.GITHUB_TOKEN;
    for (const [k, v] of Object.entries(env)) {
      if (v === null) delete all[k];
      else all[k] = typeof v === 'function' ? v(dir) : v;
    }
    const r = await exec(['run', '--json', ...args], { env: all, timeoutMs: 120000 });
    return {
      ...r,
      report: parseReport(r.stdout),
      summary: readFileSync(summary, 'utf8'),
      output: readFileSync(output, 'utf8'),
      log: await hub.log({ headers: true }),
      initial,
      state: await hub.state(),
    };
  } finally {
    cleanup();
  }
}

/**
 * Every request carried the credential it is for: the App endpoints the JWT
 * (RS256, iss the App id, at most 10 minutes long), GET /user and
 * approvals/dismissals the machine account's token, everything else (GraphQL,
 * REST reads, status and label writes) an installation token.
 */
function assertCredentials(log, { refusedOk = false } = {}) {
  for (const e of log) {
    const auth = e.headers.authorization ?? '';
    if (isAppEndpoint(e)) {
      assert.equal(e.actor, 'jwt', `${line(e)}: the App's endpoints take its JWT`);
      assert.match(auth, /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/, `${line(e)}: sent as Bearer`);
      assert.ok(e.jwt && String(e.jwt.iss) === String(APP_ID), `${line(e)}: iss is the App id (${JSON.stringify(e.jwt)})`);
      assert.ok(Number.isInteger(e.jwt.iat) && Number.isInteger(e.jwt.exp), `${line(e)}: numeric iat and exp`);
      assert.ok(e.jwt.exp - e.jwt.iat <= 600, `${line(e)}: a JWT lives at most 10 minutes (iat ${e.jwt.iat}, exp ${e.jwt.exp})`);
    } else if (isUser(e) || isReview(e)) {
      assert.equal(e.actor, 'user', `${line(e)}: the machine account's token`);
      assert.equal(auth, `Bearer ${USER_TOKEN}`, `${line(e)}: carries AGENTIC_TOKEN`);
    } else {
      assert.equal(e.actor, 'app', `${line(e)}: reads and status/label writes use the installation token`);
      assert.ok(!auth.includes(USER_TOKEN), `${line(e)}: not the machine account's token`);
    }
    if (!refusedOk) assert.ok(e.status !== 401 && e.status !== 403, `${line(e)}: no credential was refused`);
  }
}

/** Writes in the state since `initial`: new statuses, timeline events and reviews. */
function newWrites(initial, state) {
  const ids = (s) => new Set(Object.values(s.statuses ?? {}).flat().map((x) => x.id));
  const seen = ids(initial);
  const statuses = Object.values(state.statuses ?? {}).flat().filter((x) => !seen.has(x.id));
  const before = new Map((initial.pulls ?? []).map((p) => [p.number, p]));
  const events = [];
  const reviews = [];
  for (const p of state.pulls ?? []) {
    const old = before.get(p.number) ?? {};
    const oldEvents = new Set((old.timeline ?? []).map((x) => x.id));
    const oldReviews = new Map((old.reviews ?? []).map((x) => [x.id, x]));
    events.push(...(p.timeline ?? []).filter((x) => !oldEvents.has(x.id)));
    reviews.push(...(p.reviews ?? []).filter((x) => !oldReviews.has(x.id) || oldReviews.get(x.id).state !== x.state));
  }
  return { statuses, events, reviews };
}

/** Statuses and labels are the App's bot's; approvals and dismissals the trusted login's, never the App's. */
function assertAttribution(r) {
  const w = newWrites(r.initial, r.state);
  for (const st of w.statuses) assert.equal(st.creator, BOT, `status ${st.context} is created by ${BOT}`);
  for (const ev of w.events.filter((x) => x.event === 'labeled' || x.event === 'unlabeled')) assert.equal(ev.actor, BOT, `${ev.event} ${ev.label} by ${BOT}`);
  for (const ev of w.events.filter((x) => x.event === 'review_dismissed')) assert.equal(ev.actor, TRUSTED, 'dismissed by the trusted login');
  for (const rv of w.reviews) {
    assert.ok(!rv.by_app && !rv.dismissed_by_app, `review ${rv.id} was not made or dismissed with the App's token`);
    if (rv.state === 'APPROVED') assert.equal(rv.author, TRUSTED);
  }
  return w;
}

/** Secrets of a run: the key (whole and by line), every JWT and token seen on the wire, the machine account's token. */
function secretsOf(r, pem = PEM) {
  const out = new Set([USER_TOKEN, pem.trim(), ...pemLines(pem)]);
  for (const e of r.log) {
    const m = /^Bearer (\S+)$/.exec(e.headers.authorization ?? '');
    if (!m) continue;
    out.add(m[1]);
    if (e.actor === 'jwt') out.add(m[1].split('.')[2]);
  }
  return [...out].filter((s) => s.length >= 16);
}

function assertNoLeak(r, secrets, { actions = false } = {}) {
  const where = { stdout: r.stdout, stderr: r.stderr, 'step summary': r.summary, 'outputs file': r.output };
  for (const [name, text] of Object.entries(where)) {
    for (const secret of secrets) {
      const lines = text.split('\n').filter((l) => l.includes(secret));
      // In Actions a secret may appear only as the value of an ::add-mask:: command.
      const leaks = actions ? lines.filter((l) => l.trim() !== `::add-mask::${secret}`) : lines;
      assert.deepEqual(leaks.map((l) => l.slice(0, 60)), [], `a secret (${secret.slice(0, 8)}…) in ${name}`);
    }
  }
  for (const e of r.log) {
    const visible = `${e.path} ${JSON.stringify(e.query)} ${JSON.stringify(e.body ?? '')}`;
    for (const secret of secrets) assert.ok(!visible.includes(secret), `a secret in the path, query or body of ${e.method} ${e.path}`);
  }
}

// ---- the tests -------------------------------------------------------------------------

describe('GitHub App mode', { skip }, () => {
  let hub;
  before(async () => { hub = await Hub.start(); });
  after(async () => { await hub?.stop(); });

  describe('configuration', () => {
    it('AGENTIC_APP_ID without a key: exit 2 naming AGENTIC_APP_PRIVATE_KEY, nothing sent', async () => {
      const r = await runApp(hub, withApp(fixture('050-gate-all-hold-approve').snapshot), { env: { AGENTIC_APP_PRIVATE_KEY: null } });
      assert.equal(r.code, 2, r.stderr.slice(-400));
      assert.match(r.stderr, /AGENTIC_APP_PRIVATE_KEY/);
      assert.deepEqual(r.log.map(line), []);
    });

    it('AGENTIC_APP_PRIVATE_KEY_FILE that cannot be read: exit 2, nothing sent', async () => {
      const r = await runApp(hub, withApp(fixture('050-gate-all-hold-approve').snapshot), {
        env: { AGENTIC_APP_PRIVATE_KEY: null, AGENTIC_APP_PRIVATE_KEY_FILE: (dir) => path.join(dir, 'missing.pem') },
      });
      assert.equal(r.code, 2, r.stderr.slice(-400));
      assert.match(r.stderr, /AGENTIC_APP_PRIVATE_KEY_FILE/);
      assert.deepEqual(r.log.map(line), []);
    });

    it('a key that is not an RSA private key in PEM is a configuration error (exit 2, SNAPSHOT §1), nothing sent', async () => {
      const notAKey = `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(64)}\n-----END RSA PRIVATE KEY-----\n`;
      const r = await runApp(hub, withApp(fixture('050-gate-all-hold-approve').snapshot), { env: { AGENTIC_APP_PRIVATE_KEY: notAKey } });
      assert.deepEqual(r.log.map(line), [], 'nothing sent');
      assert.ok(!r.stderr.includes('A'.repeat(64)) && !r.stdout.includes('A'.repeat(64)), 'the key is not quoted');
      assert.equal(r.code, 2, `exit ${r.code}: a malformed key is a configuration error like a missing one: ${r.stderr.slice(-300)}`);
    });
  });

  // Fixtures through App mode; each must report what replay reports.
  const DIFFERENTIAL = [
    { name: '000-demo', why: 'apply (status) then gate (approve)' },
    { name: '050-gate-all-hold-approve', why: 'gate approves' },
    { name: '001-label-yes-adds-label', why: 'apply adds the needs-human label' },
    { name: '004-label-create-repo-label', why: 'apply creates the repository label' },
    { name: '056-gate-withhold-dismisses-only-trusted-approvals', why: 'gate withholds and dismisses' },
    { name: '102-ev-pr-synchronize-drops-old-approval', why: 'synchronize dismisses the old head\'s approval' },
    { name: '150-sweep-mixed', why: 'a schedule sweep approves and dismisses' },
  ];

  describe('the differential: App mode reports what replay reports', () => {
    for (const { name, why } of DIFFERENTIAL) {
      it(`${name} (${why})`, async () => {
        const fx = fixture(name);
        const [r, replay] = await Promise.all([
          runApp(hub, withApp(fx.snapshot), { args: fx.args }),
          runReplay(fx.file, fx.args),
        ]);
        assert.equal(r.signal, null);
        assert.equal(r.stdout, replay.stdout, `live (App mode) and replay differ: ${r.stderr.slice(-600)}`);
        assert.equal(r.code, replay.code);
        assertCredentials(r.log);
        const appCalls = r.log.filter(isAppEndpoint).map((e) => `${e.method} ${e.path}`);
        assert.deepEqual(appCalls.slice(0, 3), ['GET /app', `GET /repos/${fx.snapshot.repository}/installation`, `POST /app/installations/${INSTALLATION}/access_tokens`],
          'JWT → GET /app → the installation → one token');
        assert.equal(appCalls.filter((c) => c === 'GET /app').length, 1, 'the slug is read once');
        const w = assertAttribution(r);
        const reported = r.report.writes.map((x) => x.kind);
        if (reported.includes('status')) assert.ok(w.statuses.length > 0, 'the status write landed');
        if (reported.some((k) => k === 'label' || k === 'create_label')) assert.ok(w.events.some((x) => x.event === 'labeled'));
        const writes = r.log.filter(isWriteRequest);
        assert.ok(writes.every((e) => isReview(e) || isStatusOrLabelWrite(e)), `only status, label and review writes: ${writes.map(line).join(', ')}`);
        if (writes.length) assert.ok(r.log.some((e) => isUser(e) && e.actor === 'user'), 'T4 asked GET /user with the machine account\'s token');
      });
    }

    it('--dry-run in App mode: replay\'s plan, reads with the installation token, no write sent', async () => {
      const fx = fixture('000-demo');
      const args = [...fx.args, '--dry-run'];
      const [r, replay] = await Promise.all([runApp(hub, withApp(fx.snapshot), { args }), runReplay(fx.file, args)]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assert.equal(r.code, replay.code);
      assertCredentials(r.log);
      assert.deepEqual(r.log.filter(isWriteRequest).map(line), []);
      assert.equal(writable(r.state), writable(r.initial));
    });

    it('AGENTIC_APP_INSTALLATION_ID given: no installation lookup, same report', async () => {
      const fx = fixture('000-demo');
      const [r, replay] = await Promise.all([
        runApp(hub, withApp(fx.snapshot), { args: fx.args, env: { AGENTIC_APP_INSTALLATION_ID: String(INSTALLATION) } }),
        runReplay(fx.file, fx.args),
      ]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assertCredentials(r.log);
      assert.ok(!r.log.some((e) => e.path.endsWith('/installation')), 'no GET /repos/{o}/{r}/installation');
      assert.ok(r.log.some((e) => e.path === `/app/installations/${INSTALLATION}/access_tokens`));
    });

    it('the key from AGENTIC_APP_PRIVATE_KEY_FILE works the same', async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const [r, replay] = await Promise.all([
        runApp(hub, withApp(fx.snapshot), {
          args: fx.args,
          env: {
            AGENTIC_APP_PRIVATE_KEY: null,
            AGENTIC_APP_PRIVATE_KEY_FILE: (dir) => { const f = path.join(dir, 'app.pem'); writeFileSync(f, PEM, { mode: 0o600 }); return f; },
          },
        }),
        runReplay(fx.file, fx.args),
      ]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assertCredentials(r.log);
      assertAttribution(r);
    });

    it('a PKCS#8 key ("BEGIN PRIVATE KEY") works too', async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' });
      const r = await runApp(hub, withApp(fx.snapshot), { args: fx.args, env: { AGENTIC_APP_PRIVATE_KEY: pkcs8 } });
      assert.equal(r.code, 0, r.stderr.slice(-400));
      assertCredentials(r.log);
    });

    it('tolerates 30 s of clock skew either way (GitHub: set iat 60 s back; exp at most 10 minutes ahead)', async () => {
      const fx = fixture('050-gate-all-hold-approve');
      for (const offset of [-30, 30]) {
        await hub.control('POST', 'clock', { offset_s: offset });
        try {
          const r = await runApp(hub, withApp(fx.snapshot), { args: fx.args });
          assert.equal(r.code, 0, `fakehub's clock ${offset} s off: ${r.stderr.slice(-400)}`);
          assertCredentials(r.log);
        } finally {
          await hub.control('POST', 'clock', { offset_s: 0 });
        }
      }
    });
  });

  describe('failures fail closed (exit 3, nothing written)', () => {
    const FAILURES = [
      { name: 'a key fakehub does not know: the JWT is refused (401)', env: { AGENTIC_APP_PRIVATE_KEY: WRONG_PEM } },
      { name: 'the App is not installed on the repository (installation lookup 404)', app: { installation_id: null } },
      { name: 'the installation lookup fails (fault: read installation 404)', faults: [{ read: 'installation', status: 404 }] },
      { name: 'GET /app fails (502)', faults: [{ read: 'app', status: 502 }] },
      { name: 'the token exchange fails (500)', faults: [{ write: 'access_token', status: 500 }] },
      { name: 'a wrong AGENTIC_APP_INSTALLATION_ID: the token exchange is 404', env: { AGENTIC_APP_INSTALLATION_ID: String(INSTALLATION + 1) } },
      { name: 'the exchange hangs (timeout)', faults: [{ write: 'access_token', status: 'timeout' }] },
    ];
    for (const spec of FAILURES) {
      for (const name of ['000-demo', '150-sweep-mixed']) {
        it(`${spec.name} — ${name}`, async () => {
          const s = withApp(fixture(name).snapshot, spec.app);
          if (spec.faults) s.faults = spec.faults;
          const r = await runApp(hub, s, { args: fixture(name).args, env: spec.env });
          assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr.slice(-400)}`);
          if (r.report) {
            assert.equal(r.report.exit, 3);
            assert.deepEqual(r.report.writes, []);
          }
          assert.deepEqual(r.log.filter(isWriteRequest).map(line), [], 'no write sent');
          assert.equal(writable(r.state), writable(r.initial), 'fakehub\'s state is unchanged');
          assert.deepEqual(r.log.filter((e) => !isAppEndpoint(e)).map(line), [], 'nothing read or asked without an installation token');
          assertNoLeak(r, secretsOf(r, spec.env?.AGENTIC_APP_PRIVATE_KEY ?? PEM));
        });
      }
    }

    it('installation tokens that live 1 s: refreshed before each use, or the run fails closed', async () => {
      // token_ttl_s 1: every token has under 5 minutes from the start, so the
      // program exchanges one before each use; one that dies in flight (at most
      // a second of life, cut to the whole second) must fail the run closed.
      const fx = fixture('050-gate-all-hold-approve');
      const r = await runApp(hub, withApp(fx.snapshot, { token_ttl_s: 1 }), { args: fx.args });
      const approved = newWrites(r.initial, r.state).reviews.some((x) => x.state === 'APPROVED');
      if (r.code === 0) {
        assert.ok(!r.log.some((e) => e.status === 401 && e.actor === 'app'), 'an approving run used no expired token');
      } else {
        assert.equal(r.code, 3, r.stderr.slice(-400));
        assert.ok(!approved, 'a run that failed approved nothing');
      }
      assertCredentials(r.log, { refusedOk: true });
    });
  });

  describe('trust: the App is this program\'s own for statuses (T3), never for verdicts (T1)', () => {
    const HEAD = '7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e';
    /** 050 with the head's agentic-review statuses created by `creator`. */
    function statusesBy(creator) {
      const s = structuredClone(fixture('050-gate-all-hold-approve').snapshot);
      for (const st of s.statuses[HEAD]) if (st.creator === TRUSTED) st.creator = creator;
      return s;
    }
    const approved = (r) => (r.report?.writes ?? []).some((w) => w.kind === 'approve');

    it('a clean status created by <slug>[bot] counts like the trusted login\'s: the same report as the original fixture', async () => {
      const fx = fixture('050-gate-all-hold-approve');
      const [r, replay] = await Promise.all([runApp(hub, withApp(statusesBy(BOT)), { args: fx.args }), runReplay(fx.file, fx.args)]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assert.ok(approved(r));
      assertCredentials(r.log);
    });

    for (const [creator, why] of [
      ['other-app[bot]', 'another App\'s bot'],
      [SLUG, 'a user account named like the App\'s slug (no [bot])'],
      [`${SLUG.toUpperCase()}-x[bot]`, 'a lookalike bot'],
    ]) {
      it(`a clean status created by ${why} does not count: no approval, as replay`, async () => {
        const s = statusesBy(creator);
        const [r, replay] = await Promise.all([runApp(hub, withApp(s), {}), runReplay(s)]);
        assert.equal(r.code, 0, r.stderr.slice(-400));
        assert.ok(!approved(r), `approved on a status by ${creator}`);
        assert.equal(r.stdout, replay.stdout, 'App mode trusts no one else than replay does');
      });
    }

    it('without App mode, statuses by the App\'s bot do not count', async () => {
      const s = statusesBy(BOT);
      const r = await runApp(hub, withApp(s), { env: { AGENTIC_APP_ID: null, AGENTIC_APP_PRIVATE_KEY: null } });
      assert.equal(r.code, 0, r.stderr.slice(-400));
      assert.ok(!approved(r));
      assert.ok(r.log.every((e) => e.actor === 'user'), 'a plain run sends only the machine account\'s token');
    });

    it('comments by the App\'s bot are never verdicts (T1): the same report as replay, no approval', async () => {
      const s = structuredClone(fixture('050-gate-all-hold-approve').snapshot);
      for (const c of s.pulls[0].comments) if (c.id === 501 || c.id === 502) c.author = BOT;
      const [r, replay] = await Promise.all([runApp(hub, withApp(s), {}), runReplay(s)]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assert.ok(!approved(r), 'the bot\'s comments approved nothing');
    });
  });

  describe('T4 still checks the machine account\'s token', () => {
    const as = (viewer, name) => { const s = withApp(fixture(name).snapshot); s.viewer = viewer; return s; };
    for (const [name, why] of [['000-demo', 'apply would write a status (with the App\'s token)'], ['050-gate-all-hold-approve', 'gate would approve'], ['001-label-yes-adds-label', 'apply would add a label']]) {
      it(`viewer is not the trusted login: ${why} → exit 2, nothing written`, async () => {
        const r = await runApp(hub, as('ci-bot', name), { args: fixture(name).args });
        assert.equal(r.code, 2, `exit ${r.code}: ${r.stderr.slice(-400)}`);
        assert.deepEqual(r.report?.writes, []);
        assert.deepEqual(r.log.filter(isWriteRequest).map(line), [], 'no write sent, not even with the App\'s token');
        assert.equal(writable(r.state), writable(r.initial));
        const users = r.log.filter(isUser);
        assert.equal(users.length, 1, 'GET /user asked once');
        assert.equal(users[0].actor, 'user');
        assert.equal(users[0].headers.authorization, `Bearer ${USER_TOKEN}`, 'the identity checked is the machine account\'s');
        assertCredentials(r.log);
      });
    }

    it('a machine account token that is an installation token (GET /user 403) writes nothing', async () => {
      // AGENTIC_TOKEN set to the App's own installation token: GitHub answers
      // GET /user with 403 "Resource not accessible by integration".
      const fx = fixture('050-gate-all-hold-approve');
      const first = await runApp(hub, withApp(fx.snapshot), { args: [...fx.args, '--dry-run'] });
      const stolen = /^Bearer (\S+)$/.exec(first.log.find((e) => e.actor === 'app').headers.authorization)[1];
      const r = await runApp(hub, withApp(fx.snapshot), { args: fx.args, env: { AGENTIC_TOKEN: stolen } });
      assert.ok([2, 3].includes(r.code), `exit ${r.code}: ${r.stderr.slice(-400)}`);
      assert.deepEqual(r.log.filter(isWriteRequest).map(line), []);
      assert.equal(writable(r.state), writable(r.initial));
    });
  });

  describe('the installation token is refreshed', () => {
    let slow;
    before(async () => { slow = await Hub.start({ latencyMs: 400 }); });
    after(async () => { await slow?.stop(); });

    it('a sweep outliving its token\'s margin: new tokens, none used with under 5 minutes left, same report', async () => {
      // Tokens live 302 s: 2 s after each exchange it has under 5 minutes
      // left, and the sweep (400 ms a request) lasts several seconds.
      const fx = fixture('150-sweep-mixed');
      const [r, replay] = await Promise.all([
        runApp(slow, withApp(fx.snapshot, { token_ttl_s: REFRESH_MARGIN_S + 2 }), { args: fx.args, env: { AGENTIC_HTTP_TIMEOUT: '10' } }),
        runReplay(fx.file, fx.args),
      ]);
      assert.equal(r.stdout, replay.stdout, r.stderr.slice(-400));
      assertCredentials(r.log);
      const issued = r.log.filter((e) => e.issued_token).map((e) => e.issued_token.n);
      assert.ok(issued.length >= 2, `the token was refreshed (${issued.length} issued)`);
      const used = r.log.filter((e) => e.actor === 'app');
      for (const e of used) {
        assert.ok(e.app_token.remaining_s >= REFRESH_MARGIN_S - 2,
          `${line(e)} used token #${e.app_token.n} with ${e.app_token.remaining_s} s left (refresh below ${REFRESH_MARGIN_S} s)`);
      }
      assert.ok(new Set(used.map((e) => e.app_token.n)).size >= 2, 'requests went out with more than one token');
      assert.equal(r.log.filter((e) => e.path === '/app').length, 1, 'a refresh does not re-read the App');
      assert.equal(r.log.filter((e) => e.path.endsWith('/installation')).length, 1, 'nor look the installation up again');
      assertNoLeak(r, secretsOf(r));
    });

    it('a token with an hour left is reused for the whole run', async () => {
      const fx = fixture('150-sweep-mixed');
      const r = await runApp(hub, withApp(fx.snapshot), { args: fx.args });
      assert.equal(r.code, 0, r.stderr.slice(-400));
      assert.equal(r.log.filter((e) => e.issued_token).length, 1, 'one exchange');
    });
  });

  describe('secrets (the PEM, JWTs, installation tokens, the machine account\'s token)', () => {
    let trap;
    before(async () => { trap = new Trap(); await trap.listen(); });
    after(async () => { await trap?.close(); });

    const RUNS = [
      { name: 'approving run', snapshot: () => withApp(fixture('050-gate-all-hold-approve').snapshot), code: 0 },
      { name: 'apply then approve', snapshot: () => withApp(fixture('000-demo').snapshot), code: 0 },
      { name: 'sweep: approve and dismiss', snapshot: () => withApp(fixture('150-sweep-mixed').snapshot), code: 0 },
      { name: 'apply adds a label', snapshot: () => withApp(fixture('001-label-yes-adds-label').snapshot), code: 0 },
      { name: 'failing read (statuses 502)', snapshot: () => ({ ...withApp(fixture('050-gate-all-hold-approve').snapshot), faults: [{ read: 'statuses', status: 502 }] }), code: 3 },
      { name: 'off-host Link on the statuses', snapshot: () => ({ ...withApp(fixture('050-gate-all-hold-approve').snapshot), faults: [{ read: 'statuses', mode: 'offhost_link' }] }), code: 3 },
      { name: 'JWT refused', snapshot: () => withApp(fixture('050-gate-all-hold-approve').snapshot), env: { AGENTIC_APP_PRIVATE_KEY: WRONG_PEM }, pem: WRONG_PEM, code: 3 },
      { name: 'no installation', snapshot: () => withApp(fixture('050-gate-all-hold-approve').snapshot, { installation_id: null }), code: 3 },
      { name: 'identity mismatch', snapshot: () => ({ ...withApp(fixture('050-gate-all-hold-approve').snapshot), viewer: 'ci-bot' }), code: 2 },
    ];

    for (const actions of [false, true]) {
      for (const spec of RUNS) {
        it(`${spec.name}${actions ? ' (in GitHub Actions: only ::add-mask::)' : ''}`, async () => {
          trap.clear();
          const r = await runApp(hub, spec.snapshot(), { env: spec.env, actions, trap });
          assert.equal(r.code, spec.code, `exit ${r.code}: ${r.stderr.slice(-400)}`);
          assertNoLeak(r, secretsOf(r, spec.pem ?? PEM), { actions });
          for (const e of r.log) assert.equal(e.headers.host ?? e.headers[':authority'], new URL(hub.url).host, 'sent only to fakehub');
          assert.deepEqual([...trap.requests].map((x) => `${x.method} ${x.url}`), [], 'no request to another host');
          if (actions) {
            const lines = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trim());
            const tokens = [...new Set(r.log.filter((e) => e.actor === 'app').map((e) => e.headers.authorization.slice('Bearer '.length)))];
            for (const t of tokens) assert.ok(lines.includes(`::add-mask::${t}`), 'every installation token is masked in Actions');
            if (r.log.some((e) => e.actor === 'user')) assert.ok(lines.includes(`::add-mask::${USER_TOKEN}`), 'the machine account\'s token is masked');
          }
        });
      }
    }
  });
});
