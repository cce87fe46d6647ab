// End to end, as the action runs it: `agentic-apply run` on an event file
// built from GitHub's webhook examples, against fakehub, with
// GITHUB_ACTIONS=true and $GITHUB_OUTPUT / $GITHUB_STEP_SUMMARY in temp
// files. Asserted: the outputs, the step summary (the ✅/❌ table, the
// writes, the verdict links) and the writes as fakehub applied them; and
// that text others control (comment bodies, branch names, logins, inputs)
// can never forge a workflow command, an output or a summary line.
//
// tests/integration/webhooks.test.mjs already proves the dispatch of every
// example (live = replay); actions.test.mjs the outputs of one gate and CR
// injection through a verdict's base line, statuses and row ids. This file
// covers the rest: outputs + summary + fakehub state per event kind, the
// sweep, and LF, `%0A`, `::set-output`, `::add-mask::` through the vectors
// not covered there.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { Hub, isWrite } from '../../integration/lib/fakehub.mjs';
import { fixture } from '../../integration/lib/fixtures.mjs';
import { missingPrerequisite } from '../../integration/lib/paths.mjs';
import { configEnv, exec, FAST, parseReport, scratch } from '../../integration/lib/run.mjs';
import { parseOutputs } from '../step.mjs';
import * as ev from './events.mjs';

const TOKEN = 'ghp_e2eMachineAccountToken0000000000000001';
const REPO = 'lf/svc';
const base = () => structuredClone(fixture('050-gate-all-hold-approve').snapshot);
const H = base().pulls[0].head.sha;
const H7 = H.slice(0, 7);
const CHECK = fixture('014-check-clean-true-success').snapshot.event.payload.comment;

/** A trusted approval of the current head (for the dismissal cases). */
function approved(s, id = 71) {
  s.pulls[0].reviews.push({ id, author: 'lfx-reviewer', state: 'APPROVED', commit_id: s.pulls[0].head.sha, submitted_at: '2026-11-29T10:30:00Z' });
  return s;
}

/** The rows of the conditions table of PR `pr` in a summary: {title: [mark, reason]}. */
function table(summary, pr) {
  const sections = summary.split(/^### /m).filter((x) => new RegExp(`^\\[PR #${pr}\\]\\([^)]*\\): (?!verdict|comment)`).test(x));
  const rows = {};
  for (const line of (sections.at(-1) ?? '').split('\n')) {
    const m = /^\| ([^|]+) \| (✅|❌) \| (.*) \|$/.exec(line);
    if (m) rows[m[1]] = [m[2], m[3]];
  }
  return rows;
}
const TITLES = ['clean status', 'needs-human label absent', 'every thread answered', 'human sign-off not needed, or given'];
const PR7 = '\\[PR #7\\]\\(https://github\\.com/lf/svc/pull/7\\)';

describe('end to end: webhook events → run → outputs, summary, writes', { skip: missingPrerequisite() ?? false }, () => {
  let hub;
  let work;
  before(async () => { hub = await Hub.start(); work = scratch('aa-e2e-'); });
  after(async () => { await hub?.stop(); work?.cleanup(); });

  let n = 0;
  async function run(state, name, payload, { env = {} } = {}) {
    await hub.load({ ...state, event: { name, payload } });
    n += 1;
    const f = (x) => path.join(work.dir, `${n}-${x}`);
    writeFileSync(f('event.json'), JSON.stringify(payload));
    writeFileSync(f('summary.md'), '');
    writeFileSync(f('output'), '');
    const r = await exec(['run', '--json'], {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_API_URL: hub.url,
        GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
        GITHUB_REPOSITORY: REPO,
        GITHUB_EVENT_NAME: name,
        GITHUB_EVENT_PATH: f('event.json'),
        GITHUB_OUTPUT: f('output'),
        GITHUB_STEP_SUMMARY: f('summary.md'),
        AGENTIC_TOKEN: TOKEN,
        ...configEnv(state.config),
        ...FAST,
        ...env,
      },
    });
    const outputText = readFileSync(f('output'), 'utf8');
    return {
      ...r,
      report: parseReport(r.stdout),
      summary: readFileSync(f('summary.md'), 'utf8'),
      outputText,
      outputs: parseOutputs(outputText),
      state: await hub.state(),
      writes: (await hub.log()).filter(isWrite),
    };
  }

  const reviewsOf = (r) => r.state.pulls[0].reviews;

  it('issue_comment created on a PR (a check verdict): apply, then approve', async () => {
    const s = structuredClone(fixture('014-check-clean-true-success').snapshot);
    const payload = ev.issueCommentOnPr('created', { repository: REPO, pr: 7, comment: { ...CHECK, author: CHECK.user.login } });
    const r = await run(s, 'issue_comment', payload);
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual(r.outputs, { decision: 'approve', pr: '7', head: H, approved_prs: '7', would_approve_prs: '', approved: 'true', dry_run: 'false' });
    assert.match(r.summary, /^## agentic-apply \(issue_comment\)$/m);
    assert.match(r.summary, new RegExp(`^### ${PR7}: verdict applied \\(comment 502\\)$`, 'm'));
    assert.match(r.summary, new RegExp(`^### ${PR7}: approved \\(head \\[${H7}\\]\\(https://github\\.com/lf/svc/commit/${H}\\)\\)$`, 'm'));
    const t = table(r.summary, 7);
    assert.deepEqual(Object.keys(t), TITLES);
    assert.ok(Object.values(t).every(([mark]) => mark === '✅'), JSON.stringify(t));
    assert.match(r.summary, /\[needs-human verdict\]\(https:\/\/github\.com\/lf\/svc\/pull\/7#issuecomment-501\)/);
    assert.match(r.summary, new RegExp(`^- set agentic-review/clean to success on ${H7}: conductor pr=#7: clean=true$`, 'm'));
    assert.match(r.summary, new RegExp(`^- approved PR #7 at ${H7}$`, 'm'));
    assert.match(r.summary, /^Exit code 0: ran to completion\.$/m);
    // fakehub: the status, by the machine account, linked to the verdict; the approval.
    const st = r.state.statuses[H].at(-1);
    assert.deepEqual([st.state, st.context, st.description, st.creator, st.target_url],
      ['success', 'agentic-review/clean', 'conductor pr=#7: clean=true', 'lfx-reviewer', payload.comment.html_url]);
    const [review] = reviewsOf(r).filter((x) => x.state === 'APPROVED');
    assert.deepEqual([review.author, review.commit_id], ['lfx-reviewer', H]);
    assert.deepEqual(r.writes.map((w) => w.method + ' ' + w.path), [`POST /repos/lf/svc/statuses/${H}`, 'POST /repos/lf/svc/pulls/7/reviews']);
  });

  it('the summary links the check verdict (the clean status target_url) on a live run', async () => {
    const r = await run(base(), 'workflow_dispatch', ev.dispatch(7));
    assert.match(r.summary, /\[check verdict\]\(https:\/\/github\.com\/lf\/svc\/pull\/7#issuecomment-502\)/);
  });

  it('issue_comment created on a plain issue: nothing to do, nothing read or written', async () => {
    const r = await run(base(), 'issue_comment', ev.issueCommentOnIssue());
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.equal(r.outputs.decision, 'none');
    assert.equal(r.outputs.approved, 'false');
    assert.match(r.summary, /^Nothing to do\.$/m);
    assert.match(r.summary, /^\*\*Writes:\*\* none$/m);
    assert.deepEqual(r.writes, []);
  });

  it('issue_comment edited (a verdict edited by someone else): withhold, dismiss the approval', async () => {
    const s = approved(base());
    Object.assign(s.pulls[0].comments.find((c) => c.id === 501), { edited_by: 'mallory', edited_at: '2026-11-29T10:40:00Z' });
    const [edited] = ev.examples('issue_comment', 'edited');
    edited.issue.number = 7;
    edited.issue.pull_request = { url: 'https://api.github.com/repos/lf/svc/pulls/7' };
    const r = await run(s, 'issue_comment', edited);
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual([r.outputs.decision, r.outputs.approved], ['withhold', 'false']);
    assert.equal(table(r.summary, 7)['human sign-off not needed, or given'][0], '❌');
    assert.match(r.summary, /^- dismissed review 71 on PR #7$/m);
    assert.equal(reviewsOf(r).find((x) => x.id === 71).state, 'DISMISSED');
  });

  it('status of the clean context: gate approves; the outputs name the PR from pr=#N:', async () => {
    const r = await run(base(), 'status', ev.status({ sha: H, context: 'agentic-review/clean', state: 'success', description: 'conductor pr=#7: clean=true' }));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual([r.outputs.decision, r.outputs.pr, r.outputs.head, r.outputs.approved], ['approve', '7', H, 'true']);
    assert.match(r.summary, /^## agentic-apply \(status\)$/m);
    assert.equal(reviewsOf(r).filter((x) => x.state === 'APPROVED' && x.commit_id === H).length, 1);
  });

  it('status of another context (the example as is): nothing to do', async () => {
    const [payload] = ev.examples('status');
    const r = await run(base(), 'status', payload);
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.equal(r.outputs.decision, 'none');
    assert.deepEqual(r.writes, []);
  });

  it('pull_request labeled needs-human: withhold with the reason, dismiss the approval', async () => {
    const s = approved(base());
    s.pulls[0].labels = ['needs-human'];
    const r = await run(s, 'pull_request', ev.pullRequest('labeled', { pr: 7, head: s.pulls[0].head, label: 'needs-human' }));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual([r.outputs.decision, r.outputs.approved], ['withhold', 'false']);
    assert.deepEqual(table(r.summary, 7)['needs-human label absent'], ['❌', 'the needs-human label is set']);
    assert.match(r.summary, /^- dismissed review 71 on PR #7$/m);
    assert.equal(reviewsOf(r).find((x) => x.id === 71).state, 'DISMISSED');
  });

  it('pull_request_target unlabeled by someone not allowed: withhold, the actor named', async () => {
    const s = approved(base());
    s.pulls[0].timeline.push({ id: 9001, event: 'unlabeled', label: 'needs-human', actor: 'mallory', created_at: '2026-11-29T10:35:00Z' });
    const r = await run(s, 'pull_request_target', ev.pullRequest('unlabeled', { pr: 7, head: s.pulls[0].head, label: 'needs-human' }));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.equal(r.outputs.decision, 'withhold');
    const [mark, reason] = table(r.summary, 7)['human sign-off not needed, or given'];
    assert.equal(mark, '❌');
    assert.match(reason, /mallory/);
    assert.equal(reviewsOf(r).find((x) => x.id === 71).state, 'DISMISSED');
  });

  it('pull_request synchronize to a new head: the old head approval is dismissed at once', async () => {
    const s = structuredClone(fixture('102-ev-pr-synchronize').snapshot);
    const r = await run(s, 'pull_request', ev.pullRequest('synchronize', { pr: 7, head: s.pulls[0].head }));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual([r.outputs.decision, r.outputs.head, r.outputs.approved], ['withhold', s.pulls[0].head.sha, 'false']);
    assert.deepEqual(table(r.summary, 7)['clean status'][0], '❌');
    const dismissed = r.state.pulls[0].reviews.filter((x) => x.state === 'DISMISSED');
    assert.ok(dismissed.length >= 1);
    for (const d of dismissed) assert.match(r.summary, new RegExp(`^- dismissed review ${d.id} on PR #7$`, 'm'));
  });

  it('workflow_dispatch with inputs.pr: gate approves', async () => {
    const r = await run(base(), 'workflow_dispatch', ev.dispatch(7));
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual(r.outputs, { decision: 'approve', pr: '7', head: H, approved_prs: '7', would_approve_prs: '', approved: 'true', dry_run: 'false' });
    assert.match(r.summary, /^## agentic-apply \(workflow_dispatch\)$/m);
  });

  it('schedule (hand-written payload): one sweep, a section per PR, approved_prs', async () => {
    const s = structuredClone(fixture('150-sweep-mixed').snapshot);
    const r = await run(s, 'schedule', ev.schedule());
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.deepEqual(r.outputs, { decision: 'sweep', pr: '', head: '', approved_prs: '7', would_approve_prs: '', approved: 'true', dry_run: 'false' });
    assert.match(r.summary, /^## agentic-apply \(schedule\)$/m);
    // A sweep leads with counts and keeps one line per PR collapsed.
    const words = { approve: 'approved', withhold: 'not approved', skipped: 'skipped', error: 'not approved: a GitHub call failed' };
    const lines = [...r.summary.matchAll(/^- \[#(\d+)\]\([^)]*\): ([a-z :A-Z]+?)(?: — .*)?$/gm)].map((m) => [Number(m[1]), m[2]]);
    assert.deepEqual(lines, r.report.steps.map((x) => [x.pr, words[x.outcome]]));
    assert.ok(lines.length >= 3);
    assert.match(r.summary, new RegExp(`^\\*\\*${r.report.steps.length} PRs:\\*\\* 1 approved`, 'm'));
    assert.match(r.summary, /^<details><summary>Every PR<\/summary>$/m);
    for (const w of r.report.writes) {
      if (w.kind === 'approve') assert.match(r.summary, new RegExp(`^- approved PR #${w.pr} at ${w.commit_id.slice(0, 7)}$`, 'm'));
      if (w.kind === 'dismiss') assert.match(r.summary, new RegExp(`^- dismissed review ${w.review_id} on PR #${w.pr}$`, 'm'));
    }
    assert.equal(r.writes.length, r.report.writes.length, 'every reported write reached GitHub');
  });
});

// Untrusted text with every trick: a new line, a lone CR, a URL-encoded
// line break, workflow commands that would set an output or mask text.
const MARK = 'MARK';
const HOSTILE = `${MARK}\n::set-output name=approved::true\r::add-mask::Exit code%0A::error::forged%0D::set-output name=decision::approve`;
const COMMANDS = /^::[a-z-]+(\s[^:]*)?::/;

describe('untrusted text never forges a command, an output or a summary line', { skip: missingPrerequisite() ?? false }, () => {
  let hub;
  let work;
  before(async () => { hub = await Hub.start(); work = scratch('aa-e2e-inj-'); });
  after(async () => { await hub?.stop(); work?.cleanup(); });

  const vectors = [
    {
      name: 'a comment login (the event payload author)',
      echoed: true,
      build(s) {
        return ['issue_comment', ev.issueCommentOnPr('created', { repository: REPO, pr: 7, comment: { ...CHECK, author: `lfx-reviewer${HOSTILE}` } })];
      },
    },
    {
      name: 'a comment body (a trusted verdict with hostile rows and head)',
      build(s) {
        const body = CHECK.body
          .replace('reason: Nil check', `reason: ${HOSTILE} Nil check`)
          .replace('- id: PRRT_kwDOAbc2,', `- id: PRRT_${HOSTILE},`)
          .replace(/^head: .*$/m, `head: ${H}\n${HOSTILE}`);
        s.pulls[0].comments.find((c) => c.id === 502).body = body;
        return ['issue_comment', ev.issueCommentOnPr('created', { repository: REPO, pr: 7, comment: { ...CHECK, body, author: 'lfx-reviewer' } })];
      },
    },
    {
      name: 'a needs-human verdict whose head line is hostile',
      build(s) {
        const c = s.pulls[0].comments.find((x) => x.id === 501);
        c.body = c.body.replace(/<!-- head: [0-9a-f]+ -->/, `<!-- head: ${HOSTILE} -->`);
        return ['issue_comment', ev.issueCommentOnPr('created', { repository: REPO, pr: 7, comment: { ...c, author: 'lfx-reviewer' } })];
      },
    },
    {
      name: 'a base branch name',
      echoed: true,
      build(s) {
        s.pulls[0].base.ref = `main${HOSTILE}`;
        return ['workflow_dispatch', ev.dispatch(7)];
      },
    },
    {
      name: 'a head branch name (in the pull_request payload and the state)',
      build(s) {
        s.pulls[0].head.ref = `feature${HOSTILE}`;
        return ['pull_request_target', ev.pullRequest('synchronize', { pr: 7, head: s.pulls[0].head })];
      },
    },
    {
      name: 'status branch names and description',
      build(s) {
        return ['status', ev.status({ sha: H, context: 'agentic-review/clean', state: 'success', description: `conductor pr=#7: clean=true${HOSTILE}`, branches: [{ name: `b${HOSTILE}`, commit: { sha: H }, protected: false }] })];
      },
    },
    {
      name: 'the login that removed the label',
      echoed: true,
      build(s) {
        s.pulls[0].timeline.push({ id: 9001, event: 'unlabeled', label: 'needs-human', actor: `mallory${HOSTILE}`, created_at: '2026-11-29T10:35:00Z' });
        return ['pull_request', ev.pullRequest('unlabeled', { pr: 7, head: s.pulls[0].head, label: 'needs-human' })];
      },
    },
    {
      name: 'a thread author and an approval author',
      build(s) {
        s.pulls[0].threads.push({ id: 'PRRT_hostile', author: `human${HOSTILE}`, comments: 1, resolved: false });
        s.pulls[0].reviews.push({ id: 81, author: `someone${HOSTILE}`, state: 'APPROVED', commit_id: H, submitted_at: '2026-11-29T10:31:00Z' });
        return ['workflow_dispatch', ev.dispatch(7)];
      },
    },
    {
      name: 'the dispatch input pr',
      echoed: true,
      exit: 2,
      build() {
        return ['workflow_dispatch', ev.dispatch(`7${HOSTILE}`)];
      },
    },
  ];

  let n = 0;
  for (const v of vectors) {
    it(v.name, async () => {
      const s = base();
      const [name, payload] = v.build(s);
      await hub.load({ ...s, event: { name, payload } });
      n += 1;
      const f = (x) => path.join(work.dir, `${n}-${x}`);
      writeFileSync(f('event.json'), JSON.stringify(payload));
      writeFileSync(f('summary.md'), '# before\n');
      writeFileSync(f('output'), 'before=1\n');
      const r = await exec(['run', '--json'], {
        env: {
          GITHUB_ACTIONS: 'true',
          GITHUB_API_URL: hub.url,
          GITHUB_GRAPHQL_URL: `${hub.url}/graphql`,
          GITHUB_REPOSITORY: REPO,
          GITHUB_EVENT_NAME: name,
          GITHUB_EVENT_PATH: f('event.json'),
          GITHUB_OUTPUT: f('output'),
          GITHUB_STEP_SUMMARY: f('summary.md'),
          AGENTIC_TOKEN: TOKEN,
          ...FAST,
        },
      });
      assert.equal(r.code, v.exit ?? r.code, r.stderr.slice(-600));
      assert.ok([0, 1, 2, 3].includes(r.code), `exit ${r.code}`);
      const summary = readFileSync(f('summary.md'), 'utf8');
      const output = readFileSync(f('output'), 'utf8');
      const lines = (text) => text.split(/\r\n|\r|\n/).map((l) => l.trimStart());

      // 1. Workflow commands: only the program's own, untrusted text escaped.
      for (const l of [...lines(r.stdout), ...lines(r.stderr)]) {
        if (!l.startsWith('::')) continue;
        const m = /^::(error|warning|notice|add-mask)::(.*)$/.exec(l);
        assert.ok(m, `a forged workflow command: ${JSON.stringify(l)}`);
        if (m[1] === 'add-mask') assert.equal(m[2], TOKEN, `a forged mask: ${JSON.stringify(l)}`);
        else assert.ok(!/%(?!25)/.test(m[2]), `an unescaped %-sequence in an annotation: ${JSON.stringify(l)}`);
      }
      // 2. Outputs: the program's seven names, one line each, nothing forged.
      const outLines = output.split('\n').filter(Boolean);
      assert.equal(outLines.shift(), 'before=1', 'appended, not replaced');
      for (const l of outLines) assert.match(l, /^(decision|pr|head|approved|approved_prs|would_approve_prs|dry_run)=[a-z0-9,-]*$/, `GITHUB_OUTPUT: ${JSON.stringify(l)}`);
      assert.ok(!output.includes('<<'), 'no heredoc');
      // 3. The summary: no line starts with the untrusted text or a command.
      assert.ok(summary.startsWith('# before\n'));
      for (const l of lines(summary)) {
        assert.ok(!COMMANDS.test(l), `summary line: ${JSON.stringify(l)}`);
        assert.ok(!l.startsWith('::') && !l.startsWith(MARK), `summary line: ${JSON.stringify(l)}`);
      }
      // 4. The outputs are the report's decision, whatever the text said.
      const report = parseReport(r.stdout);
      const gates = (report?.steps ?? []).filter((x) => x.step === 'gate');
      const approvedNow = gates.length > 0 && gates.at(-1).outcome === 'approve';
      if (outLines.length) assert.ok(outLines.includes(`approved=${approvedNow}`), `approved is the decision: ${outLines}`);
      const writes = (await hub.log()).filter(isWrite);
      assert.equal(writes.some((w) => w.path.endsWith('/reviews') && w.body?.event === 'APPROVE'), approvedNow && !(s.pulls[0].reviews ?? []).some((x) => x.author === 'lfx-reviewer' && x.state === 'APPROVED'));
      // 5. Where the program shows the text, it shows it (escaped): the
      // vector reached the output, so the checks above were exercised.
      if (v.echoed) assert.ok(`${r.stderr}${summary}`.includes(MARK), 'the untrusted text is not shown at all');
    });
  }
});
