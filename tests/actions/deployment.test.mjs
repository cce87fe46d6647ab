// Deployment rules (issue "Secure deployment"): the workflows, the cache and
// the release must not hand out the machine account's token. Every file is
// parsed (YAML), and `if:` and concurrency groups are evaluated for real
// events (expr.mjs), never grepped. Each rule is a function that lists the
// violations of one parsed file; it must find none in the repository's
// files and must find the fault planted in a copy of them. The scripts the
// rules depend on (the sweep state check, the release's branch and tag
// checks) are run, against real data and against forgeries.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ExprError, interpolate, runs } from './expr.mjs';
import { actionFiles, load, ROOT, snippetNamed, steps } from './lib.mjs';
import { tempDir } from './step.mjs';

const files = actionFiles();
// The workflows written in the documents (FILE.md:LINE) are held to the same rules (issue 23).
const WORKFLOWS = [...files.workflows, ...files.examples, ...files.snippets];
const BIN = process.env.AGENTIC_APPLY_BIN ?? path.join(ROOT, 'build/agentic-apply');
const OURS = /(^|\/)agentic-apply@/;
const clone = (x) => JSON.parse(JSON.stringify(x));

// --- reading a parsed workflow ------------------------------------------

function triggers(data) {
  const on = data.on;
  if (typeof on === 'string') return { [on]: null };
  if (Array.isArray(on)) return Object.fromEntries(on.map((e) => [e, null]));
  return on ?? {};
}

/** Every string in a value, however deep. */
function strings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
  return out;
}

/** The secrets a job names (secrets.X, secrets['X']), GITHUB_TOKEN aside. */
function secretNames(job) {
  const names = new Set();
  for (const s of strings(job)) {
    for (const m of s.matchAll(/\bsecrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([^']*)'\s*\])/g)) {
      const n = (m[1] ?? m[2]).toUpperCase();
      if (n !== 'GITHUB_TOKEN') names.add(n);
    }
  }
  if (job.secrets === 'inherit') names.add('(inherit)');
  return names;
}

const runsOurAction = (job) => (job.steps ?? []).some((s) => OURS.test(s.uses ?? ''));
const writes = (job) => Object.values(job.permissions ?? {}).includes('write') || job.permissions === 'write-all';

/** A job that holds a credential worth stealing. */
function holdsSecret(job) {
  return secretNames(job).size > 0 || Boolean(job.environment) || writes(job) || runsOurAction(job);
}

/** The steps of a job that restore or save a cache. */
function cacheSteps(job) {
  return (job.steps ?? []).filter((s) => /^actions\/cache(\/|@)/.test(s.uses ?? '')
    || (/\/setup-/.test(s.uses ?? '') && (s.with?.cache || s.with?.['cache-dependency-path'])));
}

const jobsOf = (data) => Object.entries(data.jobs ?? {});

// --- the rules ----------------------------------------------------------

/** Finding 2: no job that holds a secret restores or saves a cache. */
function cacheNextToSecret(data) {
  return jobsOf(data).filter(([, job]) => holdsSecret(job) && cacheSteps(job).length)
    .map(([name]) => `job ${name} holds a secret and uses actions/cache`);
}

/** Finding 1: the machine token only in jobs that name an environment. */
function tokenWithoutEnvironment(data) {
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if ((secretNames(job).size || runsOurAction(job)) && !job.environment && !job.uses) {
      out.push(`job ${name} uses a secret or the agentic-apply action without environment:`);
    }
    // A called workflow reads the token from its own job's environment; a
    // secret passed by the caller is a repository or organisation secret.
    if (job.uses && job.secrets !== undefined) out.push(`job ${name} passes secrets to ${job.uses}`);
  }
  return out;
}

/**
 * Finding 2: a job that holds a secret takes artifacts only by id, from a
 * job that restored no cache (an artifact name can be taken by any job of
 * the run, including one a poisoned cache took over).
 */
function artifactsIntoSecretJob(data) {
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if (!holdsSecret(job)) continue;
    for (const s of job.steps ?? []) {
      if (!/^actions\/download-artifact@/.test(s.uses ?? '')) continue;
      // Another run's artifact: only the run that triggered this workflow_run,
      // which workflowRunUnchecked() proves is the default branch's agent file.
      if (s.with?.['run-id'] !== undefined) {
        if (!('workflow_run' in triggers(data)) || !/^\$\{\{\s*github\.event\.workflow_run\.id\s*\}\}$/.test(String(s.with['run-id']))) {
          out.push(`job ${name} downloads an artifact of another run than the one that triggered it`);
        }
        continue;
      }
      const ids = String(s.with?.['artifact-ids'] ?? '');
      const m = /^\$\{\{\s*needs\.([A-Za-z0-9_-]+)\.outputs\.[A-Za-z0-9_-]+\s*\}\}$/.exec(ids);
      if (!m) {
        out.push(`job ${name} downloads an artifact by name or pattern`);
        continue;
      }
      const from = data.jobs[m[1]];
      if (!from) out.push(`job ${name} downloads from unknown job ${m[1]}`);
      else if (cacheSteps(from).length) out.push(`job ${name} downloads an artifact of job ${m[1]}, which uses a cache`);
      if (s.with?.name || s.with?.pattern) out.push(`job ${name} downloads by name as well as by id`);
    }
  }
  return out;
}

// Event payloads (the parts the workflows read) and a context for them.
const SHA = 'a'.repeat(40);
function ctx(event_name, event = {}, { inputs = {}, vars = {} } = {}) {
  return {
    github: { event_name, event, workflow: 'agentic', repository: 'octo/repo', run_id: 4242, run_attempt: 1, job: 'x' },
    inputs,
    vars,
    env: {},
    needs: {},
    strategy: { 'job-index': 0 },
    matrix: {},
    runner: { temp: '/tmp/runner' },
  };
}
const statusEvent = (sender, context = 'agentic-review/clean') => ({ context, sender: { login: sender }, sha: SHA, state: 'success' });

/** Does this job run for that event? An expression error fails the job: no. */
function jobRuns(job, c) {
  try {
    return runs(job.if, c);
  } catch (e) {
    if (e instanceof ExprError) return false;
    throw e;
  }
}

function group(job, c) {
  const g = job.concurrency?.group ?? job.concurrency;
  if (g === undefined) return undefined;
  try {
    return interpolate(g, c);
  } catch (e) {
    if (e instanceof ExprError) return null;
    throw e;
  }
}

/** Finding 4: a status event starts no job unless a trusted login posted it. */
function statusWithoutSenderFilter(data) {
  if (!('status' in triggers(data))) return [];
  const out = [];
  for (const vars of [{}, { AGENTIC_CLEAN_CONTEXT: 'ci/verdict' }]) {
    for (const context of ['agentic-review/clean', 'ci/verdict']) {
      for (const sender of ['mallory', 'lfx-reviewer[bot]', 'github-actions[bot]', '']) {
        for (const [name, job] of jobsOf(data)) {
          if (jobRuns(job, ctx('status', statusEvent(sender, context), { vars }))) {
            out.push(`job ${name} runs on a ${context} status posted by '${sender}'`);
          }
        }
      }
    }
  }
  return [...new Set(out)];
}

const HOSTILE_PR = ['7-comment-123', '"7-comment-123"', '7 ', ' 7', '07', '1e1', '7.0', '[7]', '{"pr":7}', 'null', '', '0', '-7'];

/** Finding 4: the dispatch input pr enters no concurrency group unchecked. */
function dispatchInputUnchecked(data) {
  const on = triggers(data);
  if (!on.workflow_dispatch?.inputs?.pr) return [];
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    for (const pr of HOSTILE_PR) {
      const c = ctx('workflow_dispatch', { inputs: { pr } }, { inputs: { pr } });
      const g = group(job, c);
      if (jobRuns(job, c)) out.push(`job ${name} runs on dispatch input pr='${pr}'`);
      if (g && /-pr-[^-]*-comment-|-pr-.*[^0-9]$/.test(g)) out.push(`job ${name}: dispatch input pr='${pr}' gives group ${g}`);
    }
  }
  return out;
}

/** The workflows a v* tag push runs. */
const isRelease = (data) => Boolean(triggers(data).push?.tags);

/** Every job a job needs, transitively. */
function needsOf(data, name, seen = new Set()) {
  const n = data.jobs[name]?.needs;
  for (const d of n === undefined ? [] : [].concat(n)) {
    if (!seen.has(d)) {
      seen.add(d);
      needsOf(data, d, seen);
    }
  }
  return seen;
}

const ON_MAIN = /git merge-base --is-ancestor "\$commit" "refs\/remotes\/origin\/\$DEFAULT_BRANCH"/;

/** Finding 5: publishing needs the default-branch check and an environment. */
function releaseUnguarded(data) {
  if (!isRelease(data)) return [];
  const out = [];
  const guardJobs = jobsOf(data).filter(([, job]) => {
    const st = job.steps ?? [];
    const i = st.findIndex((s) => ON_MAIN.test(s.run ?? ''));
    const checkout = st.find((s) => /^actions\/checkout@/.test(s.uses ?? ''));
    const upload = st.findIndex((s) => /^actions\/upload-artifact@/.test(s.uses ?? ''));
    return i >= 0 && checkout?.with?.['fetch-depth'] === 0 && (upload < 0 || i < upload);
  }).map(([name]) => name);
  for (const [name, job] of jobsOf(data)) {
    const scripts = (job.steps ?? []).map((s) => s.run ?? '').join('\n');
    const publishes = writes(job) || /\bgh\s+release\b|\bgh\s+api\b[^\n]*releases/.test(scripts)
      || (job.steps ?? []).some((s) => /attest/.test(s.uses ?? ''));
    if (/--clobber|\bgh\s+release\s+(upload|edit|delete)\b/.test(scripts)) out.push(`job ${name} can replace a published release`);
    if (!publishes) continue;
    const env = typeof job.environment === 'object' ? job.environment?.name : job.environment;
    if (!env) out.push(`job ${name} publishes without an environment`);
    if (!guardJobs.some((g) => needsOf(data, name).has(g))) out.push(`job ${name} publishes without needing the default-branch check`);
    if (!/compare\/\$DEFAULT_BRANCH\.\.\.\$COMMIT/.test(scripts) || !/commits\/\$TAG/.test(scripts)) {
      out.push(`job ${name} does not check the tag and the branch again before publishing`);
    }
  }
  if (!guardJobs.length) out.push('no job checks that the tag is on the default branch (with the whole history checked out)');
  return out;
}

const IMAGE = /^debian:12@sha256:[0-9a-f]{64}$/;
const image = (job) => (typeof job.container === 'object' ? job.container?.image : job.container);

/** Finding 6: the release and the ledger line are built without a cache, in one pinned image. */
function buildFromCache(data) {
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    const scripts = (job.steps ?? []).map((s) => s.run ?? '').join('\n');
    const builds = isRelease(data) || /dist\/checksum line|\bmake dist\b/.test(scripts);
    if (builds && cacheSteps(job).length) out.push(`job ${name} builds the released binary or its ledger line from a cache`);
    for (const s of cacheSteps(job)) {
      if (/build\/static/.test(strings(s.with).join(' '))) out.push(`job ${name} caches build/static`);
    }
    if (job.container !== undefined && !IMAGE.test(image(job) ?? '')) out.push(`job ${name}: container ${image(job)} is not debian:12 pinned by digest`);
  }
  return out;
}


// --- issue 23 (Deployment II) ------------------------------------------

/** The steps of a job that run agentic-apply's action, with their command. */
const ourSteps = (job) => (job.steps ?? []).filter((st) => OURS.test(st.uses ?? ''))
  .map((st) => ({ step: st, command: st.with?.command ?? 'run' }));

const RUN_EVENTS = [
  { conclusion: 'success', event: 'pull_request_target', path: '.github/workflows/pr-review.yml', ok: true },
  { conclusion: 'failure', event: 'pull_request_target', path: '.github/workflows/pr-review.yml' },
  { conclusion: 'cancelled', event: 'pull_request_target', path: '.github/workflows/pr-review.yml' },
  { conclusion: 'success', event: 'pull_request', path: '.github/workflows/pr-review.yml' },
  { conclusion: 'success', event: 'push', path: '.github/workflows/pr-review.yml' },
  { conclusion: 'success', event: 'pull_request_target', path: '.github/workflows/evil.yml' },
  { conclusion: 'success', event: 'pull_request', path: '.github/workflows/pr-review-copy.yml' },
];

/**
 * Item 3: a workflow_run workflow whose job holds a secret runs only for a
 * successful pull_request_target run of the agent's own file, downloads only
 * that run's artifact with a pinned action, and asks the GITHUB_TOKEN for
 * nothing but actions: read.
 */
function workflowRunUnchecked(data) {
  if (!('workflow_run' in triggers(data))) return [];
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if (!holdsSecret(job)) continue;
    for (const e of RUN_EVENTS) {
      const ran = jobRuns(job, ctx('workflow_run', { action: 'completed', workflow_run: { id: 99, name: 'pr-review', ...e } }));
      if (ran && !e.ok) out.push(`job ${name} runs for a ${e.conclusion} ${e.event} run of ${e.path}`);
      if (!ran && e.ok) out.push(`job ${name} never runs for the agent's own successful run`);
    }
    const downloads = (job.steps ?? []).filter((st) => /download-artifact/.test(st.uses ?? ''));
    for (const st of downloads) {
      if (!/^actions\/download-artifact@[0-9a-f]{40}$/.test(st.uses)) out.push(`job ${name}: ${st.uses} is not pinned by a commit`);
      if (!/^\$\{\{\s*github\.event\.workflow_run\.id\s*\}\}$/.test(String(st.with?.['run-id'] ?? ''))) out.push(`job ${name} downloads without run-id of the triggering run`);
    }
    const perms = job.permissions ?? data.permissions;
    const extra = Object.entries(perms ?? {}).filter(([k, v]) => !(k === 'actions' && v === 'read'));
    if (perms === undefined || typeof perms !== 'object' || extra.length) out.push(`job ${name} asks the GITHUB_TOKEN for more than actions: read`);
    if (downloads.length && perms?.actions !== 'read') out.push(`job ${name} downloads another run's artifact without actions: read`);
  }
  return out;
}

/** Item 2: no sweep waits in a concurrency group (any branch workflow can hold a group by its name). */
function sweepInAGroup(data) {
  const out = [];
  if (data.concurrency && jobsOf(data).some(([, job]) => ourSteps(job).some((x) => x.command === 'sweep'))) out.push('the workflow running a sweep has a concurrency group');
  for (const [name, job] of jobsOf(data)) {
    if (ourSteps(job).some((x) => x.command === 'sweep') && job.concurrency !== undefined) out.push(`job ${name} sweeps in a concurrency group`);
  }
  return out;
}

/** Item 5: however many dispatches a writer starts, they share one group. */
function dispatchFlood(data) {
  if (!('workflow_dispatch' in triggers(data))) return [];
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if (!holdsSecret(job) || job.uses) continue;
    const groups = new Set();
    for (let pr = 1; pr <= 1000; pr += 1) {
      const c = ctx('workflow_dispatch', { inputs: { pr: String(pr) } }, { inputs: { pr: String(pr) } });
      if (jobRuns(job, c)) groups.add(group(job, c) ?? `(no group ${pr})`);
    }
    if (groups.size > 1) out.push(`job ${name}: 1,000 dispatches run in ${groups.size} groups`);
  }
  return out;
}

/** Item 7: every job that holds a secret runs on a GitHub-hosted runner. */
const HOSTED = /^(ubuntu|windows|macos)-[0-9a-z.-]+$/;
function selfHosted(data) {
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if (!holdsSecret(job) || job.uses) continue;
    const labels = [].concat(job['runs-on'] ?? []);
    if (labels.length !== 1 || !HOSTED.test(String(labels[0]))) out.push(`job ${name} holding a secret runs on ${JSON.stringify(job['runs-on'])}`);
  }
  return out;
}

/** Items 4 and 8: every run of the action that gates gets the gated bases and the unlabelers from the variables. */
function gatingInputs(data) {
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    for (const { step, command } of ourSteps(job)) {
      if (!['run', 'sweep', 'gate', 'doctor'].includes(command)) continue;
      if (step.with?.bases !== '${{ vars.AGENTIC_BASES }}') out.push(`job ${name} (${command}) does not pass bases: \${{ vars.AGENTIC_BASES }}`);
      if (step.with?.unlabelers !== '${{ vars.AGENTIC_UNLABELERS }}') out.push(`job ${name} (${command}) does not pass unlabelers: \${{ vars.AGENTIC_UNLABELERS }}`);
    }
  }
  return out;
}

/** Item 1: whatever holds the machine account's token (the conductor, the judge too) runs only from the default branch. */
const BRANCH_EVENTS = ['push', 'pull_request', 'pull_request_review', 'pull_request_review_comment', 'check_run', 'check_suite', 'workflow_call'];
function tokenOnBranchEvents(data) {
  const on = Object.keys(triggers(data));
  const out = [];
  for (const [name, job] of jobsOf(data)) {
    if (!secretNames(job).has('AGENTIC_TOKEN') && !runsOurAction(job)) continue;
    // A called workflow runs in its caller's context: the caller's events count.
    const bad = on.filter((e) => BRANCH_EVENTS.includes(e) && e !== 'workflow_call');
    if (bad.length) out.push(`job ${name} holds the machine token on ${bad.join(', ')} (a branch's copy of the file runs)`);
  }
  return out;
}

const RULES = {
  'a job holding a secret uses no cache (finding 2)': cacheNextToSecret,
  'a job using the machine token names an environment (finding 1)': tokenWithoutEnvironment,
  'a job holding a secret takes artifacts by id from a job without a cache (finding 2)': artifactsIntoSecretJob,
  'a status-triggered job runs only for statuses of the trusted login (finding 4)': statusWithoutSenderFilter,
  'the dispatch input pr enters no concurrency group unchecked (finding 4)': dispatchInputUnchecked,
  'the release publishes only from the default branch, through an environment (finding 5)': releaseUnguarded,
  'the release and the ledger line come from no cache, in a pinned image (finding 6)': buildFromCache,
  'the machine token (the conductor\'s and the judge\'s too) only on default-branch events (issue 23 item 1)': tokenOnBranchEvents,
  'no sweep waits in a concurrency group a branch workflow could hold (issue 23 item 2)': sweepInAGroup,
  'a workflow_run publish runs only for the agent\'s own successful run, reads only its artifact (issue 23 item 3)': workflowRunUnchecked,
  'every gating run gets the bases and the unlabelers (issue 23 items 4 and 8)': gatingInputs,
  '1,000 dispatches share one group (issue 23 item 5)': dispatchFlood,
  'jobs holding a secret run on GitHub-hosted runners (issue 23 item 7)': selfHosted,
};

describe('deployment rules hold in every workflow and example', () => {
  for (const [title, rule] of Object.entries(RULES)) {
    describe(title, () => {
      for (const rel of WORKFLOWS) {
        it(rel, () => assert.deepEqual(rule(load(rel).data), []));
      }
    });
  }
});

// --- each rule catches its fault, planted in a copy ---------------------

const agentic = () => clone(load('examples/agentic.yml').data);
const sweep = () => clone(load('examples/agentic-sweep.yml').data);
const release = () => clone(load('.github/workflows/release.yml').data);
const ci = () => clone(load('.github/workflows/ci.yml').data);
const CACHE_RESTORE = { uses: 'actions/cache/restore@5a3ec84eff668545956fd18022155c47e93e2684', with: { path: 'x', key: 'k' } };

describe('the deployment rules catch planted faults', () => {
  it('a cache restore in the job with the token (the old example)', () => {
    const d = agentic();
    d.jobs.agentic.steps.unshift(CACHE_RESTORE);
    assert.match(cacheNextToSecret(d).join('\n'), /job agentic holds a secret/);
    const s = sweep();
    s.jobs.sweep.steps.unshift({ uses: 'actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020', with: { cache: 'npm' } });
    assert.match(cacheNextToSecret(s).join('\n'), /job sweep holds a secret/);
    const r = release();
    r.jobs.publish.steps.unshift(CACHE_RESTORE);
    assert.match(cacheNextToSecret(r).join('\n'), /job publish/);
  });

  it('the token without an environment, or passed to a called workflow', () => {
    const d = agentic();
    delete d.jobs.agentic.environment;
    assert.match(tokenWithoutEnvironment(d).join('\n'), /job agentic uses a secret/);
    const s = sweep();
    delete s.jobs.sweep.environment;
    assert.match(tokenWithoutEnvironment(s).join('\n'), /job sweep/);
    const c = agentic();
    c.jobs.sweep.secrets = 'inherit';
    assert.match(tokenWithoutEnvironment(c).join('\n'), /passes secrets/);
    const o = clone(load('examples/org-sweep.yml').data);
    o.jobs.sweep.secrets = { AGENTIC_TOKEN: '${{ secrets.AGENTIC_ORG_TOKEN }}' };
    assert.match(tokenWithoutEnvironment(o).join('\n'), /passes secrets/);
  });

  it('the state handed to the token job by name, or from the job that restored the cache', () => {
    const s = sweep();
    const dl = s.jobs.sweep.steps.find((x) => /download-artifact/.test(x.uses));
    delete dl.with['artifact-ids'];
    dl.with.name = 'agentic-sweep-x-checked';
    assert.match(artifactsIntoSecretJob(s).join('\n'), /by name/);
    const t = sweep();
    t.jobs.sweep.steps.find((x) => /download-artifact/.test(x.uses)).with['artifact-ids'] = '${{ needs.restore.outputs.artifact-id }}';
    assert.match(artifactsIntoSecretJob(t).join('\n'), /job restore, which uses a cache/);
  });

  it('the status filter by context only (the old example)', () => {
    const d = agentic();
    d.jobs.agentic.if = d.jobs.agentic.if.replace(/\(github\.event\.context == [\s\S]*?\)\)\)\) &&/, "github.event.context == (vars.AGENTIC_CLEAN_CONTEXT || 'agentic-review/clean')) &&");
    assert.notEqual(d.jobs.agentic.if, agentic().jobs.agentic.if, 'the planted fault applies');
    assert.match(statusWithoutSenderFilter(d).join('\n'), /job agentic runs on a agentic-review\/clean status posted by 'mallory'/);
    const e = agentic();
    delete e.jobs.sweep.if;
    assert.match(statusWithoutSenderFilter(e).join('\n'), /job sweep runs/);
  });

  it('the dispatch input in the group unchecked, a group per dispatch (the old example)', () => {
    const d = agentic();
    d.jobs.agentic.concurrency.group = d.jobs.agentic.concurrency.group
      .replace("(github.event_name == 'workflow_dispatch' && 'dispatch')", "(github.event_name == 'workflow_dispatch' && format('pr-{0}', inputs.pr))");
    assert.notEqual(d.jobs.agentic.concurrency.group, agentic().jobs.agentic.concurrency.group, 'the planted fault applies');
    assert.match(dispatchFlood(d).join('\n'), /1,000 dispatches run in 1000 groups/);
    d.jobs.agentic.if = d.jobs.agentic.if.replace(/ &&\s*\(github\.event_name != 'workflow_dispatch' \|\|[\s\S]*$/, '');
    assert.match(dispatchInputUnchecked(d).join('\n'), /pr='7-comment-123' gives group agentic-pr-7-comment-123/);
    assert.match(dispatchInputUnchecked(d).join('\n'), /runs on dispatch input pr='7-comment-123'/);
    // A dispatchable job without any group: every dispatch runs at once.
    const g = clone(load('examples/agentic-doctor.yml').data);
    delete g.jobs.doctor.concurrency;
    assert.match(dispatchFlood(g).join('\n'), /job doctor: 1,000 dispatches/);
  });

  // --- issue 23: each rule on a copy with its fault planted ---------------

  it('item 1: the machine token in a workflow a branch push or a pull_request runs (the conductor skeleton)', () => {
    const c = clone(load(snippetNamed('docs/conductor.md', 'name: conductor')).data);
    assert.deepEqual(tokenOnBranchEvents(c), []);
    c.on = { push: { branches: ['**'] } };
    assert.match(tokenOnBranchEvents(c).join('\n'), /job round holds the machine token on push/);
    const e = clone(load(snippetNamed('docs/conductor.md', 'name: conductor')).data);
    delete e.jobs.round.environment;
    assert.match(tokenWithoutEnvironment(e).join('\n'), /job round uses a secret/);
  });

  it('item 2: a sweep in a concurrency group', () => {
    const s = clone(load('examples/agentic-sweep-one-job.yml').data);
    assert.deepEqual(sweepInAGroup(s), []);
    s.jobs.sweep.concurrency = { group: 'agentic-sweep-${{ github.repository }}', 'cancel-in-progress': false };
    assert.match(sweepInAGroup(s).join('\n'), /job sweep sweeps in a concurrency group/);
    const w = sweep();
    w.concurrency = { group: 'x' };
    assert.match(sweepInAGroup(w).join('\n'), /has a concurrency group/);
  });

  for (const rel of ['examples/pr-review-publish.yml', snippetNamed('docs/publish.md', 'name: pr-review publish')]) {
    it(`item 3: ${rel} without each of its checks (the old docs/publish.md example)`, () => {
      const base = () => clone(load(rel).data);
      assert.deepEqual(workflowRunUnchecked(base()), []);
      for (const [what, re] of [
        [/github\.event\.workflow_run\.path == '[^']*'/, /runs for a success pull_request_target run of \.github\/workflows\/evil\.yml/],
        [/github\.event\.workflow_run\.event == '[^']*'/, /runs for a success pull_request run/],
        [/github\.event\.workflow_run\.conclusion == '[^']*'/, /runs for a failure/],
      ]) {
        const d = base();
        d.jobs.publish.if = d.jobs.publish.if.replace(what, 'true');
        assert.notEqual(d.jobs.publish.if, base().jobs.publish.if, 'the planted fault applies');
        assert.match(workflowRunUnchecked(d).join('\n'), re);
      }
      const u = base();
      const dl = u.jobs.publish.steps.find((x) => /download-artifact/.test(x.uses));
      dl.uses = 'actions/download-artifact@v4';
      delete dl.with['run-id'];
      assert.match(workflowRunUnchecked(u).join('\n'), /not pinned by a commit/);
      assert.match(workflowRunUnchecked(u).join('\n'), /without run-id/);
      const w = base();
      w.jobs.publish.permissions = { actions: 'read', 'pull-requests': 'write', statuses: 'write' };
      assert.match(workflowRunUnchecked(w).join('\n'), /more than actions: read/);
      const n = base();
      n.jobs.publish.permissions = {};
      assert.match(workflowRunUnchecked(n).join('\n'), /without actions: read/);
      const x = base();
      delete x.jobs.publish.environment;
      assert.match(tokenWithoutEnvironment(x).join('\n'), /job publish uses a secret/);
      const o = base();
      o.jobs.publish.steps.find((st) => /download-artifact/.test(st.uses)).with['run-id'] = '${{ inputs.run }}';
      assert.match(artifactsIntoSecretJob(o).join('\n'), /another run than the one that triggered it/);
    });
  }

  it('items 4 and 8: a gating run without the bases or the unlabelers', () => {
    for (const [rel, job] of [['examples/agentic.yml', 'agentic'], ['examples/agentic-sweep-one-job.yml', 'sweep'], ['examples/agentic-doctor.yml', 'doctor']]) {
      const d = clone(load(rel).data);
      assert.deepEqual(gatingInputs(d), [], rel);
      const st = d.jobs[job].steps.find((x) => OURS.test(x.uses ?? ''));
      delete st.with.bases;
      assert.match(gatingInputs(d).join('\n'), /does not pass bases/, rel);
      delete st.with.unlabelers;
      assert.match(gatingInputs(d).join('\n'), /does not pass unlabelers/, rel);
    }
  });

  it('item 7: a job holding a secret on a self-hosted runner', () => {
    for (const runsOn of [['self-hosted', 'linux'], 'self-hosted', 'my-runner', ['ubuntu-latest', 'gpu']]) {
      const d = agentic();
      d.jobs.agentic['runs-on'] = runsOn;
      assert.match(selfHosted(d).join('\n'), /job agentic holding a secret runs on/, JSON.stringify(runsOn));
    }
  });

  it('a release published without an environment, without the branch check, or over an existing one', () => {
    const a = release();
    delete a.jobs.publish.environment;
    assert.match(releaseUnguarded(a).join('\n'), /publishes without an environment/);
    const b = release();
    b.jobs.build.steps = b.jobs.build.steps.filter((s) => s.id !== 'on-main');
    assert.match(releaseUnguarded(b).join('\n'), /no job checks that the tag is on the default branch/);
    const c = release();
    c.jobs.build.steps.find((s) => /^actions\/checkout@/.test(s.uses ?? '')).with['fetch-depth'] = 1;
    assert.match(releaseUnguarded(c).join('\n'), /no job checks/);
    const d = release();
    delete d.jobs.publish.needs;
    assert.match(releaseUnguarded(d).join('\n'), /without needing the default-branch check/);
    const e = release();
    e.jobs.publish.steps.at(-1).run += '\ngh release upload "$TAG" x --clobber\n';
    assert.match(releaseUnguarded(e).join('\n'), /can replace a published release/);
    const f = release();
    f.jobs.build.permissions = { contents: 'write' };
    assert.match(releaseUnguarded(f).join('\n'), /job build publishes without an environment/);
  });

  it('a release or ledger build from a cache, or an image by tag', () => {
    const r = release();
    r.jobs.build.steps.splice(3, 0, CACHE_RESTORE);
    assert.match(buildFromCache(r).join('\n'), /job build builds the released binary/);
    const c = ci();
    c.jobs.static.steps.splice(2, 0, { ...CACHE_RESTORE, with: { path: 'build/static/deps', key: 'static-deps' } });
    assert.match(buildFromCache(c).join('\n'), /job static builds the released binary or its ledger line from a cache/);
    assert.match(buildFromCache(c).join('\n'), /caches build\/static/);
    const t = ci();
    t.jobs.check.container = 'debian:12';
    assert.match(buildFromCache(t).join('\n'), /container debian:12 is not/);
  });
});

// --- the examples: what runs for which event -----------------------------

describe('examples/agentic.yml: which job runs, in which group', () => {
  const d = load('examples/agentic.yml').data;
  const job = d.jobs.agentic;
  const comment = (action, login = 'lfx-reviewer') => ({ action, issue: { number: 7, pull_request: {} }, comment: { id: 99, user: { login } }, sender: { login: 'dev' } });
  const prt = (action) => ({ action, pull_request: { number: 7, head: { repo: { full_name: 'octo/repo' } } }, sender: { login: 'dev' } });

  it('a status of the clean context runs the job only when the trusted login (or the App bot) posted it', () => {
    assert.equal(jobRuns(job, ctx('status', statusEvent('lfx-reviewer'))), true);
    assert.equal(jobRuns(job, ctx('status', statusEvent('LFX-Reviewer'))), true, 'logins compare without case');
    assert.equal(jobRuns(job, ctx('status', statusEvent('mallory'))), false);
    assert.equal(jobRuns(job, ctx('status', statusEvent('lfx-reviewer', 'ci/other'))), false);
    const vars = { AGENTIC_TRUSTED_LOGIN: 'our-bot', AGENTIC_APP_BOT: 'agentic-app[bot]' };
    assert.equal(jobRuns(job, ctx('status', statusEvent('our-bot'), { vars })), true);
    assert.equal(jobRuns(job, ctx('status', statusEvent('agentic-app[bot]'), { vars })), true);
    assert.equal(jobRuns(job, ctx('status', statusEvent('lfx-reviewer'), { vars })), false);
    assert.equal(jobRuns(job, ctx('status', statusEvent('agentic-app[bot]'))), false, 'no App bot unless the variable names it');
  });

  it('comments, pull_request_target and a numeric dispatch run the job; the schedule runs the sweep', () => {
    assert.equal(jobRuns(job, ctx('issue_comment', comment('created'))), true);
    assert.equal(jobRuns(job, ctx('issue_comment', comment('created', 'mallory'))), false);
    assert.equal(jobRuns(job, ctx('pull_request_target', prt('synchronize'))), true);
    assert.equal(jobRuns(job, ctx('workflow_dispatch', { inputs: { pr: '12' } }, { inputs: { pr: '12' } })), true);
    assert.equal(jobRuns(job, ctx('schedule', { schedule: '*/10 * * * *' })), false);
    assert.equal(jobRuns(d.jobs.sweep, ctx('schedule', { schedule: '*/10 * * * *' })), true);
    for (const e of ['issue_comment', 'status', 'pull_request_target', 'workflow_dispatch']) {
      assert.equal(jobRuns(d.jobs.sweep, ctx(e, {}, { inputs: { pr: '1' } })), false, e);
    }
  });

  it('the groups: one per created comment, one per PR, one per SHA, one for every dispatch', () => {
    assert.equal(group(job, ctx('issue_comment', comment('created'))), 'agentic-pr-7-comment-99');
    assert.equal(group(job, ctx('issue_comment', comment('edited'))), 'agentic-pr-7');
    assert.equal(group(job, ctx('pull_request_target', prt('labeled'))), 'agentic-pr-7');
    assert.equal(group(job, ctx('status', statusEvent('lfx-reviewer'))), `agentic-sha-${SHA}`);
    // Issue 23 item 5: whatever the input, one group: never a verdict's or a PR's.
    for (const pr of ['7', '1000', '"7-comment-99"', '7-comment-99']) {
      assert.equal(group(job, ctx('workflow_dispatch', { inputs: { pr } }, { inputs: { pr } })), 'agentic-dispatch', pr);
    }
  });

  it('the sweep is the called workflow, with no secret passed', () => {
    assert.equal(d.jobs.sweep.uses, './.github/workflows/agentic-sweep.yml');
    assert.equal(d.jobs.sweep.secrets, undefined);
    const org = load('examples/org-sweep.yml').data.jobs.sweep;
    assert.equal(org.uses, './.github/workflows/agentic-sweep.yml');
    assert.equal(org.secrets, undefined);
    assert.equal(org.with.repository, '${{ matrix.repository }}');
    assert.match(org.with.shard, /strategy\.job-index/);
  });
});

describe('examples/agentic-sweep.yml: the state crosses four jobs, the token is in one', () => {
  const d = load('examples/agentic-sweep.yml').data;

  it('restore (cache, no secret) → check (no cache, no secret) → sweep (environment, token) → save (cache, no secret)', () => {
    assert.deepEqual(Object.keys(d.jobs), ['restore', 'check', 'sweep', 'save']);
    assert.ok(cacheSteps(d.jobs.restore).length === 1 && !holdsSecret(d.jobs.restore));
    assert.ok(cacheSteps(d.jobs.check).length === 0 && !holdsSecret(d.jobs.check));
    assert.ok(cacheSteps(d.jobs.sweep).length === 0 && d.jobs.sweep.environment === 'agentic');
    // The machine account's token, and the App's key in GitHub App mode.
    assert.deepEqual([...secretNames(d.jobs.sweep)], ['AGENTIC_TOKEN', 'AGENTIC_APP_PRIVATE_KEY']);
    assert.ok(cacheSteps(d.jobs.save).length === 1 && !holdsSecret(d.jobs.save));
    assert.equal(d.jobs.check.needs, 'restore');
    assert.equal(d.jobs.sweep.needs, 'check');
    assert.equal(d.jobs.save.needs, 'sweep');
    // The sweep runs (from an empty state) even when the restore or the check failed.
    for (const j of ['check', 'sweep']) assert.equal(runs(d.jobs[j].if, { $status: 'failure', needs: {} }), true, j);
  });

  it('the job with the token runs no script: only pinned actions', () => {
    for (const s of d.jobs.sweep.steps) assert.ok(s.uses && !s.run, JSON.stringify(s));
  });

  it('the cache key and prefix end in the repository and a /, so no repository reads another one\'s state', () => {
    const restore = cacheSteps(d.jobs.restore)[0].with;
    const c = ctx('schedule');
    c.inputs = { repository: 'octo/svc', shard: 'sweep' };
    assert.equal(interpolate(restore['restore-keys'], c), 'agentic-sweep/octo/svc/');
    assert.equal(interpolate(restore.key, c), 'agentic-sweep/octo/svc/4242-1');
    assert.equal(interpolate(cacheSteps(d.jobs.save)[0].with.key, c), interpolate(restore.key, c));
    c.inputs.repository = '';
    assert.equal(interpolate(restore['restore-keys'], c), 'agentic-sweep/octo/repo/');
  });
});

// --- the sweep state check, run --------------------------------------------

function checkScript() {
  const { data } = load('examples/agentic-sweep.yml');
  const found = steps(data).filter((s) => s.step.name === 'Check the sweep state');
  assert.equal(found.length, 1);
  assert.equal(found[0].step.shell, 'node {0}');
  return found[0].step.run;
}

describe('the sweep state check (examples/agentic-sweep.yml, job check)', () => {
  const script = checkScript();
  const EMPTY = { agentic_sweep_state: 1, repositories: {} };
  const entry = (over = {}) => ({ number: 7, digest: 'd'.repeat(64), outcome: 'approve', evaluated_at: '2026-11-29T10:40:00Z', ...over });
  const state = (pulls = [entry()], extra = {}) => ({ agentic_sweep_state: 1, repositories: { 'octo/svc': { policy: 'a'.repeat(64), pulls }, ...extra } });

  /** Run the check on TEXT (or no file when null): {status, out, stdout}. */
  function runCheck(text, work) {
    const dir = path.join(work.dir, `c${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const file = path.join(dir, 'check.js');
    writeFileSync(file, script);
    const input = path.join(dir, 'in.json');
    if (text !== null) writeFileSync(input, typeof text === 'string' ? text : JSON.stringify(text));
    const output = path.join(dir, 'out', 'state.json');
    const r = spawnSync(process.execPath, [file], { env: { PATH: process.env.PATH, STATE_IN: input, STATE_OUT: output }, encoding: 'utf8' });
    let out = null;
    try {
      out = readFileSync(output, 'utf8');
    } catch {
      // no output
    }
    return { status: r.status, stdout: r.stdout + r.stderr, text: out, out: out && JSON.parse(out), input, output, dir };
  }

  it('passes on the state the program writes, unchanged, and the program reads the copy', (t) => {
    if (spawnSync(BIN, ['--version']).status !== 0) return t.skip(`${BIN} is not built`);
    const work = tempDir('aa-state-');
    try {
      const first = path.join(work.dir, 'first.json');
      const fixture = path.join(ROOT, 'fixtures/150-sweep-mixed.json');
      spawnSync(BIN, ['sweep', '--snapshot', fixture, '--state', first, '--json'], { encoding: 'utf8' });
      const written = JSON.parse(readFileSync(first, 'utf8'));
      assert.ok(Object.values(written.repositories)[0].pulls.length > 0, 'the program wrote a state');
      const r = runCheck(readFileSync(first, 'utf8'), work);
      assert.equal(r.status, 0, r.stdout);
      assert.deepEqual(r.out, written);
      assert.match(r.stdout, /sweep state checked: 1 repositories, \d+ PRs/);
      assert.doesNotMatch(r.stdout, /::warning::/);
      const again = spawnSync(BIN, ['sweep', '--snapshot', fixture, '--state', r.output, '--json'], { encoding: 'utf8' });
      assert.match(again.stdout, /unchanged since the last sweep/, 'the checked copy drives change detection');
    } finally {
      work.cleanup();
    }
  });

  it('no restored file: an empty state and a notice', () => {
    const work = tempDir('aa-state-');
    try {
      const r = runCheck(null, work);
      assert.equal(r.status, 0, r.stdout);
      assert.deepEqual(r.out, EMPTY);
      assert.match(r.stdout, /^::notice::no sweep state was restored/m);
    } finally {
      work.cleanup();
    }
  });

  it('a forged or broken state is replaced by an empty one, with a warning that quotes nothing of it', () => {
    const future = new Date(Date.now() + 3600e3).toISOString();
    const forged = {
      'an evaluated_at in the future (the PR would never expire)': state([entry({ evaluated_at: future })]),
      'an evaluated_at far in the future': state([entry(), entry({ number: 8, evaluated_at: '2999-01-01T00:00:00Z' })]),
      'an evaluated_at with an offset': state([entry({ evaluated_at: '2026-11-29T10:40:00+00:00' })]),
      'an evaluated_at that is no date': state([entry({ evaluated_at: '2026-13-45T10:40:00Z' })]),
      'a time before 1970': state([entry({ evaluated_at: '1969-12-31T23:59:59Z' })]),
      'another version': { ...state(), agentic_sweep_state: 2 },
      'an extra top-level key': { ...state(), note: 'x' },
      'an extra entry key': state([{ ...entry(), approved: true }]),
      'a missing entry key': state([{ number: 7, digest: 'd'.repeat(64), outcome: 'approve' }]),
      'a short digest': state([entry({ digest: 'abc' })]),
      'an upper-case digest': state([entry({ digest: 'D'.repeat(64) })]),
      'an unknown outcome': state([entry({ outcome: 'approved' })]),
      'PR 0': state([entry({ number: 0 })]),
      'a fractional PR number': state([entry({ number: 7.5 })]),
      'a PR number as a string': state([entry({ number: '7' })]),
      'a PR beyond 32 bits': state([entry({ number: 2 ** 31 })]),
      'a PR twice': state([entry(), entry({ outcome: 'withhold' })]),
      'a repository twice (case)': state([entry()], { 'OCTO/SVC': { policy: '', pulls: [] } }),
      'a repository that is not OWNER/NAME': { agentic_sweep_state: 1, repositories: { '::add-mask::x%0A': { policy: '', pulls: [] } } },
      'pulls not a list': { agentic_sweep_state: 1, repositories: { 'octo/svc': { policy: '', pulls: {} } } },
      'a bad policy digest': { agentic_sweep_state: 1, repositories: { 'octo/svc': { policy: 'x', pulls: [] } } },
      'a list at the top': [state()],
      'not JSON': '{"agentic_sweep_state": 1, ',
      'JSON with a NUL': '\u0000',
    };
    const work = tempDir('aa-state-');
    try {
      for (const [what, doc] of Object.entries(forged)) {
        const r = runCheck(doc, work);
        assert.equal(r.status, 0, `${what}: ${r.stdout}`);
        assert.deepEqual(r.out, EMPTY, what);
        assert.match(r.stdout, /^::warning::the restored sweep state is not used: [^\n]*; this sweep reads every PR/m, what);
        assert.doesNotMatch(r.stdout, /add-mask|%0A|2999|octo/i, `${what}: the message quotes the file`);
      }
    } finally {
      work.cleanup();
    }
  });

  it('an oversized file is refused before it is read', () => {
    const work = tempDir('aa-state-');
    try {
      const r0 = runCheck('{}', work);
      truncateSync(r0.input, 32 * 1024 * 1024 + 1);
      const file = path.join(r0.dir, 'check.js');
      const r = spawnSync(process.execPath, [file], { env: { PATH: process.env.PATH, STATE_IN: r0.input, STATE_OUT: r0.output }, encoding: 'utf8' });
      assert.equal(r.status, 0);
      assert.deepEqual(JSON.parse(readFileSync(r0.output, 'utf8')), EMPTY);
      assert.match(r.stdout, /it has 33554433 bytes, more than 33554432/);
    } finally {
      work.cleanup();
    }
  });

  it('passes on a re-written copy: a duplicate key the program would read first never reaches it', () => {
    const work = tempDir('aa-state-');
    try {
      // JSON.parse keeps the last of two keys, cJSON the first: the copy has only what was checked.
      const text = `{"agentic_sweep_state": 1, "repositories": {"octo/svc": {"policy": "", "pulls": [
        {"number": 7, "digest": "${'d'.repeat(64)}", "outcome": "approve", "evaluated_at": "2999-01-01T00:00:00Z", "evaluated_at": "2026-11-29T10:40:00Z"}]}}}`;
      const r = runCheck(text, work);
      assert.equal(r.status, 0, r.stdout);
      assert.doesNotMatch(r.text, /2999/);
      assert.equal(r.out.repositories['octo/svc'].pulls[0].evaluated_at, '2026-11-29T10:40:00Z');
      assert.doesNotMatch(r.text, /[^\x20-\x7e\n]/, 'the copy is plain ASCII');
    } finally {
      work.cleanup();
    }
  });
});

// --- the release's checks, run ---------------------------------------------

function bash(script, { env, cwd }) {
  return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { env, cwd, encoding: 'utf8' });
}

describe('release.yml: the tag must name a commit of the default branch (job build, step on-main)', () => {
  const step = load('.github/workflows/release.yml').data.jobs.build.steps.find((s) => s.id === 'on-main');
  const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_CONFIG_NOSYSTEM: '1' };

  it('passes for a tag on main, fails for a tag off it, a moved checkout or no default branch', () => {
    const work = tempDir('aa-release-');
    try {
      const origin = path.join(work.dir, 'origin');
      const home = path.join(work.dir, 'home');
      mkdirSync(origin);
      mkdirSync(home);
      const env0 = { ...process.env, ...GIT_ENV, HOME: home };
      const g = (cwd, ...a) => execFileSync('git', a, { cwd, env: env0, encoding: 'utf8' }).trim();
      g(origin, 'init', '-q', '-b', 'main');
      g(origin, 'commit', '-q', '--allow-empty', '-m', 'A');
      g(origin, 'commit', '-q', '--allow-empty', '-m', 'B');
      const onMain = g(origin, 'rev-parse', 'HEAD');
      g(origin, 'tag', '-a', 'v1.0.0', '-m', 'v1.0.0');
      g(origin, 'checkout', '-q', '-b', 'attacker');
      g(origin, 'commit', '-q', '--allow-empty', '-m', 'C');
      const offMain = g(origin, 'rev-parse', 'HEAD');
      g(origin, 'tag', 'v6.6.6');
      g(origin, 'checkout', '-q', 'main');
      const work2 = path.join(work.dir, 'work');
      g(work.dir, 'clone', '-q', origin, work2);
      const out = path.join(work.dir, 'output');
      const run = (tag, checkout, branch = 'main') => {
        g(work2, 'checkout', '-q', '--detach', checkout);
        writeFileSync(out, '');
        return bash(step.run, { cwd: work2, env: { ...env0, TAG: tag, DEFAULT_BRANCH: branch, GITHUB_OUTPUT: out } });
      };
      let r = run('v1.0.0', 'v1.0.0');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(readFileSync(out, 'utf8'), `commit=${onMain}\n`);
      r = run('v6.6.6', 'v6.6.6');
      assert.notEqual(r.status, 0);
      assert.match(r.stdout, new RegExp(`::error::tag v6.6.6 names commit ${offMain}, which is not on the default branch main`));
      assert.equal(readFileSync(out, 'utf8'), '');
      r = run('v1.0.0', offMain);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout, /is not the commit of tag v1\.0\.0/);
      r = run('v1.0.0', 'v1.0.0', '');
      assert.notEqual(r.status, 0);
      r = run('v9.9.9', 'v1.0.0');
      assert.notEqual(r.status, 0);
      assert.match(r.stdout, /no tag v9\.9\.9/);
    } finally {
      work.cleanup();
    }
  });
});

describe('release.yml: the files, the tag and the branch are checked again before publishing (job publish)', () => {
  const { data } = load('.github/workflows/release.yml');
  const step = data.jobs.publish.steps.find((s) => /checked again/.test(s.name ?? ''));
  const COMMIT = 'c'.repeat(40);

  it('passes only when the tag still names the built commit, on the default branch, with no release yet', () => {
    const work = tempDir('aa-publish-');
    try {
      const bin = path.join(work.dir, 'bin');
      mkdirSync(bin);
      mkdirSync(path.join(work.dir, 'out'));
      writeFileSync(path.join(work.dir, 'out/agentic-apply-linux-x86_64'), 'binary\n');
      execFileSync('sh', ['-c', 'cd out && sha256sum agentic-apply-linux-x86_64 >SHA256SUMS'], { cwd: work.dir });
      const sha = execFileSync('sh', ['-c', 'sha256sum out/agentic-apply-linux-x86_64 | cut -c1-64'], { cwd: work.dir, encoding: 'utf8' }).trim();
      // gh: answers from the environment, logs its arguments.
      writeFileSync(path.join(bin, 'gh'), `#!/bin/sh
echo "gh $*" >>"$GH_LOG"
case "$*" in
"api repos/octo/agentic-apply/commits/v1.0.0 --jq .sha") echo "$FAKE_TAG_COMMIT" ;;
"api repos/octo/agentic-apply/compare/main...${COMMIT} --jq .status") echo "$FAKE_COMPARE" ;;
"release view v1.0.0 --repo octo/agentic-apply") exit "$FAKE_RELEASE_MISSING" ;;
*) echo "unexpected gh $*" >&2; exit 9 ;;
esac
`);
      chmodSync(path.join(bin, 'gh'), 0o755);
      const base = {
        PATH: `${bin}:${process.env.PATH}`, GH_LOG: path.join(work.dir, 'gh.log'), GH_TOKEN: 'x',
        GITHUB_REPOSITORY: 'octo/agentic-apply', TAG: 'v1.0.0', COMMIT, SHA256: sha, DEFAULT_BRANCH: 'main',
        FAKE_TAG_COMMIT: COMMIT, FAKE_COMPARE: 'behind', FAKE_RELEASE_MISSING: '1',
      };
      const run = (over) => bash(step.run, { cwd: work.dir, env: { ...base, ...over } });
      for (const ok of [{}, { FAKE_COMPARE: 'identical' }]) {
        const r = run(ok);
        assert.equal(r.status, 0, `${JSON.stringify(ok)}: ${r.stdout}${r.stderr}`);
      }
      const refused = {
        'the tag moved': [{ FAKE_TAG_COMMIT: 'd'.repeat(40) }, /tag v1\.0\.0 now names d+, not the built commit/],
        'the commit is off the default branch': [{ FAKE_COMPARE: 'diverged' }, /not on the default branch main \(compare: diverged\)/],
        'the commit is ahead of the default branch': [{ FAKE_COMPARE: 'ahead' }, /not on the default branch/],
        'a release exists': [{ FAKE_RELEASE_MISSING: '0' }, /a release v1\.0\.0 exists already/],
        'another binary': [{ SHA256: 'e'.repeat(64) }, /not the one the build job checked/],
        'no commit from the build': [{ COMMIT: '' }, /the build job named no commit/],
        'no default branch': [{ DEFAULT_BRANCH: '' }, /the default branch is unknown/],
      };
      for (const [what, [over, message]] of Object.entries(refused)) {
        const r = run(over);
        assert.notEqual(r.status, 0, what);
        assert.match(r.stdout, message, what);
        assert.match(r.stdout, /nothing is published/, what);
      }
    } finally {
      work.cleanup();
    }
  });

  it('attests the provenance of the binary after the checks and before publishing', () => {
    const st = data.jobs.publish.steps;
    const check = st.indexOf(step);
    const attest = st.findIndex((s) => /^actions\/attest-build-provenance@/.test(s.uses ?? ''));
    const publish = st.findIndex((s) => /gh release create/.test(s.run ?? ''));
    assert.ok(check >= 0 && check < attest && attest < publish, `${check} ${attest} ${publish}`);
    assert.equal(st[attest].with['subject-path'], 'out/agentic-apply-linux-x86_64');
    assert.deepEqual(data.jobs.publish.permissions, { contents: 'write', 'id-token': 'write', attestations: 'write' });
    assert.equal(data.jobs.publish.environment, 'release');
    assert.deepEqual(triggers(data).push, { tags: ['v*'] });
  });
});

describe('the image of CI and the release is one, pinned by digest', () => {
  it('every container of ci.yml and release.yml is the same debian:12@sha256', () => {
    const images = new Set();
    for (const rel of ['.github/workflows/ci.yml', '.github/workflows/release.yml']) {
      for (const [, job] of jobsOf(load(rel).data)) if (job.container !== undefined) images.add(image(job));
    }
    assert.equal(images.size, 1, [...images].join(', '));
    assert.match([...images][0], IMAGE);
  });
});
