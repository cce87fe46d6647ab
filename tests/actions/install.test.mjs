// The install step of action.yml: the release binary of the action's own
// version is used only when dist/SHA256SUMS vouches for it and for the
// action's sources; every other case builds from source, and an unverified
// download is deleted without ever being made executable or run.
//
// The action's tree is a copy (VERSION, Makefile, mk/, scripts/static-build,
// src/, dist/); the release is a fake HTTPS server (test CA trusted through
// CURL_CA_BUNDLE); apt-get, dpkg-query and make are shims that log their
// calls, make "builds" a stand-in binary; curl is wrapped to log its argv.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';

import { haveOpenssl, testCerts } from '../integration/lib/tls.mjs';
import { ROOT } from './lib.mjs';
import { runStep, tempDir } from './step.mjs';

const VERSION = readFileSync(path.join(ROOT, 'VERSION'), 'utf8').trim();
const TAG = `v${VERSION}`;
const ASSET = 'agentic-apply-linux-x86_64';
const REPO = 'octo-org/agentic-apply';
const TOKEN = 'ghs_downloadTokenForTheApiOnly0123456789';
const haveCurl = spawnSync('curl', ['--version']).status === 0;
const haveJq = spawnSync('jq', ['--version']).status === 0;

const skip = !haveOpenssl() ? 'openssl is missing' : !haveCurl ? 'curl is missing' : false;

/** A stand-in binary: prints a version line; records that it ran. */
function fakeBinary(label, marker) {
  return `#!/bin/sh\necho "agentic-apply ${VERSION} (${label})"\necho ran >>"${marker}"\n`;
}

describe('action.yml install step', { skip }, () => {
  let tls;
  let server;
  let base;
  let work;
  let routes;
  let requests;

  before(async () => {
    tls = testCerts();
    server = https.createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (req, res) => {
      requests.push({ method: req.method, url: req.url, headers: req.headers });
      const route = routes[req.url];
      if (!route) { res.writeHead(404); res.end('Not Found'); return; }
      route(req, res);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${server.address().port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  let t;
  beforeEach(() => {
    work?.cleanup();
    work = tempDir('aa-install-');
    routes = {};
    requests = [];
    const d = work.dir;
    t = {
      action: path.join(d, 'action'),
      temp: path.join(d, 'runner-temp'),
      shims: path.join(d, 'shims'),
      log: path.join(d, 'calls.log'),
      ran: path.join(d, 'ran.log'),
      output: path.join(d, 'github-output'),
    };
    // The action's tree, as the runner unpacks it.
    for (const rel of ['VERSION', 'Makefile', 'mk', 'action.yml', 'scripts/static-build', 'scripts/static-pins', 'dist', 'src']) {
      cpSync(path.join(ROOT, rel), path.join(t.action, rel), { recursive: true });
    }
    writeFileSync(path.join(t.action, 'dist/SHA256SUMS'), '# ledger\n');
    mkdirSync(t.temp);
    mkdirSync(t.shims);
    const shim = (name, body) => {
      writeFileSync(path.join(t.shims, name), `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>"${t.log}"\n${body}\n`);
      chmodSync(path.join(t.shims, name), 0o755);
    };
    shim('dpkg-query', 'exit 1');
    shim('apt-get', 'exit 0');
    shim('sudo', 'exec "$@"');
    // make -C DIR -jN build/agentic-apply: the stand-in of a source build.
    shim('make', `dir=$2\nmkdir -p "$dir/build"\ncat >"$dir/build/agentic-apply" <<'EOF'\n${fakeBinary('source', t.ran)}EOF\nchmod 755 "$dir/build/agentic-apply"`);
    const curl = execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim();
    shim('curl', `exec "${curl}" "$@"`);
  });
  after(() => work?.cleanup());

  /** A release binary and the ledger line that vouches for it. */
  function release(label = 'release') {
    const file = path.join(work.dir, `${label}.bin`);
    writeFileSync(file, fakeBinary(label, t.ran));
    const line = execFileSync('sh', [path.join(t.action, 'dist/checksum'), 'line', VERSION, file, t.action], { encoding: 'utf8' });
    return { body: readFileSync(file), line };
  }
  const ledger = (line) => appendFileSync(path.join(t.action, 'dist/SHA256SUMS'), line);
  const serve = (p, body, status = 200, headers = {}) => {
    routes[p] = (req, res) => { res.writeHead(status, headers); res.end(body); };
  };
  const publicPath = `/${REPO}/releases/download/${TAG}/${ASSET}`;
  const apiRelease = `/api/v3/repos/${REPO}/releases/tags/${TAG}`;
  const apiAsset = `/api/v3/repos/${REPO}/releases/assets/42`;

  function install(extra = {}) {
    return runStep('install', {
      AA_ACTION_PATH: t.action,
      AA_SERVER_URL: base,
      AA_API_URL: `${base}/api/v3`,
      AA_ACTION_REPOSITORY: REPO,
      AA_ACTION_REF: TAG,
      AA_BINARY: 'auto',
      AA_DOWNLOAD_TOKEN: TOKEN,
      RUNNER_TEMP: t.temp,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      CURL_CA_BUNDLE: tls.ca,
      HOME: work.dir,
      GITHUB_OUTPUT: t.output,
      ...extra,
    }, { pathPrefix: [t.shims] });
  }
  const calls = () => (existsSync(t.log) ? readFileSync(t.log, 'utf8') : '');
  const ran = () => (existsSync(t.ran) ? readFileSync(t.ran, 'utf8').split('\n').filter(Boolean).length : 0);
  const leftovers = () => readdirSync(t.temp, { recursive: true }).filter((f) => String(f).includes('download.'));

  it('no ledger line for the version: builds from source, asks the server nothing', async () => {
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.match(r.outputs.path, /\/src\.[A-Za-z0-9]{6}\/build\/agentic-apply$/, 'a fresh build directory');
    assert.match(r.stdout, new RegExp(`::notice::building agentic-apply ${TAG} from source: dist/SHA256SUMS has no binary for ${TAG} \\(apt-get and make, again in every job that runs this action\\)`));
    assert.deepEqual(requests, []);
    assert.match(calls(), /^apt-get install -y -qq --no-install-recommends gcc make pkg-config libc6-dev libcurl4-openssl-dev libcjson-dev libssl-dev$/m);
    assert.match(calls(), /^make -C \S+\/src\.[A-Za-z0-9]{6} -j\d+ build\/agentic-apply$/m);
    assert.match(r.stdout, /agentic-apply \S+ \(source\)/, 'the version check ran the built binary');
  });

  it('a verified release asset: downloaded without a token, made executable, used', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, rel.body);
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'release');
    const bin = r.outputs.path;
    assert.ok(statSync(bin).mode & 0o100, 'executable');
    assert.deepEqual(readFileSync(bin), rel.body);
    assert.deepEqual(requests.map((q) => q.url), [publicPath]);
    assert.equal(requests[0].headers.authorization, undefined, 'the public download carries no token');
    assert.ok(!/^make /m.test(calls()), 'no source build');
    assert.ok(!calls().includes(TOKEN), 'no token in any argv');
    assert.match(r.stdout, /\(release\)/);
  });

  it('a tampered asset: deleted unrun, warning, source build instead', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, fakeBinary('TAMPERED', t.ran));
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.match(r.stdout, new RegExp(`::warning::the downloaded ${ASSET} of ${TAG} does not match dist/SHA256SUMS; deleted without running it`));
    assert.match(r.stderr, /is not the binary of/);
    assert.deepEqual(leftovers(), []);
    assert.ok(!existsSync(path.join(path.dirname(r.outputs.path), '..', '..', 'agentic-apply')), 'no release binary in place');
    assert.equal(ran(), 1, 'only the source-built binary ran (its --version)');
    assert.match(r.stdout, /\(source\)/);
  });

  it('binary: release and a tampered asset: fails, runs nothing, outputs no path', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, fakeBinary('TAMPERED', t.ran));
    const r = await install({ AA_BINARY: 'release' });
    assert.equal(r.code, 2);
    assert.match(r.stdout, /::error::no verified release binary \(the downloaded binary failed verification\); input binary is release, so nothing runs/);
    assert.equal(r.outputs.path, undefined);
    assert.equal(ran(), 0);
    assert.deepEqual(leftovers(), []);
    assert.ok(!/^make /m.test(calls()));
  });

  it('a missing asset: the REST API with the download token (in a header, never in argv)', { skip: haveJq ? false : 'jq is missing' }, async () => {
    const rel = release();
    ledger(rel.line);
    routes[apiRelease] = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ tag_name: TAG, assets: [{ name: ASSET, url: `${base}${apiAsset}` }, { name: 'SHA256SUMS', url: `${base}/api/v3/x` }] }));
    };
    routes[apiAsset] = (req, res) => {
      if (req.headers.accept !== 'application/octet-stream') { res.writeHead(415); res.end(); return; }
      res.writeHead(200);
      res.end(rel.body);
    };
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'release');
    assert.deepEqual(requests.map((q) => q.url), [publicPath, apiRelease, apiAsset]);
    assert.equal(requests[0].headers.authorization, undefined);
    assert.equal(requests[1].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(requests[2].headers.authorization, `Bearer ${TOKEN}`);
    assert.ok(!calls().includes(TOKEN), 'the token never reached a command line');
    assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN));
  });

  it('an API asset URL off the API origin never gets the token', { skip: haveJq ? false : 'jq is missing' }, async () => {
    const rel = release();
    ledger(rel.line);
    routes[apiRelease] = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ assets: [{ name: ASSET, url: `${base}/elsewhere/assets/42` }] }));
    };
    serve('/elsewhere/assets/42', rel.body);
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.ok(!requests.some((q) => q.url.startsWith('/elsewhere')), 'not even asked');
  });

  it('a redirect to plain HTTP is not followed', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, '', 302, { location: `http://127.0.0.1:${server.address().port}/plain` });
    const r = await install({ AA_DOWNLOAD_TOKEN: '' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.match(r.stderr, /Protocol "http" not supported|protocol.*disabled|not supported/i);
  });

  it("sources that are not the release's: no download, source build", async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, rel.body);
    appendFileSync(path.join(t.action, 'src/cmd/main.c'), '\n/* changed after the release */\n');
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.match(r.stdout, /this tree's sources are not the ones v\S+ binary was built from/);
    assert.deepEqual(requests, []);
  });

  it('an unknown action repository or another architecture: source build, no request', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, rel.body);
    for (const extra of [{ AA_ACTION_REPOSITORY: '' }, { RUNNER_ARCH: 'ARM64' }]) {
      const r = await install(extra);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.outputs.origin, 'source', JSON.stringify(extra));
    }
    assert.deepEqual(requests, []);
  });

  it('binary: source never downloads; a second install in the job reuses the verified binary', async () => {
    const rel = release();
    ledger(rel.line);
    serve(publicPath, rel.body);
    const s = await install({ AA_BINARY: 'source' });
    assert.equal(s.outputs.origin, 'source');
    assert.deepEqual(requests, []);
    const first = await install();
    const second = await install();
    assert.equal(first.outputs.origin, 'release');
    assert.equal(second.outputs.origin, 'release');
    assert.equal(requests.length, 1, 'downloaded once');
  });

  // Issue 23 item 6: the old step ran whatever executable sat at
  // $RUNNER_TEMP/agentic-apply-v<ver>-<digest16>/src/build/agentic-apply.
  it('planted executables on the runner are never run: the old build path, an unverified release path', async () => {
    const digest = execFileSync('sh', [path.join(t.action, 'dist/checksum'), 'source', t.action], { encoding: 'utf8' }).trim();
    const dest = path.join(t.temp, `agentic-apply-${TAG}-${digest.slice(0, 16)}`);
    const planted = path.join(work.dir, 'planted.log');
    const plant = (file) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `#!/bin/sh\necho "agentic-apply ${VERSION} (planted)"\necho planted >>"${planted}"\n`);
      chmodSync(file, 0o755);
    };
    plant(path.join(dest, 'src/build/agentic-apply'));
    plant(path.join(dest, 'agentic-apply'));
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'source');
    assert.ok(!existsSync(planted), 'a planted file ran');
    assert.ok(!r.outputs.path.startsWith(path.join(dest, 'src/')) && r.outputs.path !== path.join(dest, 'agentic-apply'), r.outputs.path);
    // With a ledger line, the file at the release path runs only once it verifies: the planted one is replaced.
    const rel = release();
    ledger(rel.line);
    serve(publicPath, rel.body);
    const v = await install();
    assert.equal(v.outputs.origin, 'release');
    assert.ok(!existsSync(planted), 'a planted file ran');
    assert.deepEqual(readFileSync(v.outputs.path), rel.body);
  });

  const STATIC = path.join(ROOT, 'build/static/agentic-apply');
  it('the real static binary (when built): recorded, downloaded, verified, runs', { skip: existsSync(STATIC) ? false : 'build/static/agentic-apply is not built (make static)' }, async () => {
    const body = readFileSync(STATIC);
    const copy = path.join(work.dir, ASSET);
    writeFileSync(copy, body);
    ledger(execFileSync('sh', [path.join(t.action, 'dist/checksum'), 'line', VERSION, copy, t.action], { encoding: 'utf8' }));
    serve(publicPath, body);
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'release');
    assert.match(r.stdout, new RegExp(`^agentic-apply ${VERSION.replace(/\./g, '\\.')}$`, 'm'));
  });

  const DIST = path.join(ROOT, 'build/dist');
  it("make dist's release files (when built): SHA256SUMS checks the asset, which is recorded, downloaded, verified, runs", { skip: existsSync(path.join(DIST, ASSET)) ? false : 'build/dist is not built (make dist)' }, async () => {
    const body = readFileSync(path.join(DIST, ASSET));
    const sums = readFileSync(path.join(DIST, 'SHA256SUMS'), 'utf8');
    assert.match(sums, new RegExp(`^[0-9a-f]{64}  ${ASSET}\n$`));
    execFileSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: DIST });
    const copy = path.join(work.dir, ASSET);
    writeFileSync(copy, body);
    ledger(execFileSync('sh', [path.join(t.action, 'dist/checksum'), 'line', VERSION, copy, t.action], { encoding: 'utf8' }));
    serve(publicPath, body);
    const r = await install();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.outputs.origin, 'release');
    assert.match(r.stdout, new RegExp(`^agentic-apply ${VERSION.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('bad inputs and platforms fail with an error annotation', async () => {
    const bad = await install({ AA_BINARY: 'latest' });
    assert.equal(bad.code, 2);
    assert.match(bad.stdout, /::error::input binary must be auto, release or source/);
    const mac = await install({ RUNNER_OS: 'macOS' });
    assert.equal(mac.code, 2);
    assert.match(mac.stdout, /::error::agentic-apply runs on Linux runners/);
    assert.deepEqual(requests, []);
  });

  // Issue 23 item 7: the token runs on GitHub-hosted runners only.
  it('a self-hosted runner is refused unless allow-self-hosted vouches it is ephemeral', async () => {
    const s = await install({ RUNNER_ENVIRONMENT: 'self-hosted' });
    assert.equal(s.code, 2);
    assert.match(s.stdout, /::error::this runner is self-hosted: agentic-apply holds the machine account's token and runs on GitHub-hosted runners only/);
    assert.ok(!/^make /m.test(calls()), 'nothing built, nothing run');
    const bad = await install({ RUNNER_ENVIRONMENT: 'self-hosted', AA_ALLOW_SELF_HOSTED: 'yes' });
    assert.match(bad.stdout, /::error::input allow-self-hosted must be true or false/);
    const ok = await install({ RUNNER_ENVIRONMENT: 'self-hosted', AA_ALLOW_SELF_HOSTED: 'true' });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /::notice::running on a self-hosted runner: input allow-self-hosted vouches that it is ephemeral/);
    const hosted = await install({ RUNNER_ENVIRONMENT: 'github-hosted' });
    assert.equal(hosted.code, 0);
  });
});
