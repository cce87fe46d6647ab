// docs/conductor.md says exactly what a conductor and an escalation judge
// must post; this checks that every example there does what the page says.
//
//   node tests/docs/conductor.mjs build/agentic-apply    (make test-docs)
//
// - every ```markdown lint-ok block passes `agentic-apply lint` (exit 0),
//   every ```markdown lint-fail block fails it (exit 1);
// - the ```json status blocks (the round stamp, the skip marker) are the
//   statuses the program counts: replayed with the page's comments, the
//   clean check is applied on the stamped round and the gate approves; the
//   blocking check writes failure; the skip marker satisfies escalation
//   (and without it the gate waits); the `yes` verdict adds the label;
// - the `status` line the page shows is what `agentic-apply status` prints.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BIN = path.resolve(process.argv[2] ?? path.join(ROOT, 'build/agentic-apply'));
const PAGE = 'docs/conductor.md';
const text = readFileSync(path.join(ROOT, PAGE), 'utf8');
const tmp = mkdtempSync(path.join(tmpdir(), 'conductor-'));
let pass = 0;
let fail = 0;
const ok = () => { pass++; };
const bad = (msg) => { fail++; console.log(`FAIL conductor: ${msg}`); };

/** The fenced blocks of a markdown text: {info, body, line}. Closing fences
 * follow CommonMark: the same character, at least as long, nothing after. */
function blocks(md) {
  const out = [];
  let open = null;
  md.split('\n').forEach((line, i) => {
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (m) open = { ch: m[1][0], len: m[1].length, info: m[2].trim(), body: [], line: i + 1 };
      return;
    }
    const c = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (c && c[1][0] === open.ch && c[1].length >= open.len) {
      out.push({ info: open.info, body: open.body.join('\n'), line: open.line });
      open = null;
      return;
    }
    open.body.push(line);
  });
  return out;
}

function run(args, input) {
  return spawnSync(BIN, args, { encoding: 'utf8', input, env: { PATH: process.env.PATH } });
}

const all = blocks(text);
const lint = all.filter((b) => /^markdown lint-(ok|fail)\b/.test(b.info));
const named = (kind, name) => {
  const b = all.find((x) => x.info === `${kind} ${name}`);
  if (!b) throw new Error(`${PAGE} has no \`\`\`${kind} ${name} block`);
  return b.body;
};

// --- lint -------------------------------------------------------------------
const want = { ok: 0, fail: 1 };
const counts = { ok: 0, fail: 0 };
for (const b of lint) {
  const kind = /lint-(ok|fail)/.exec(b.info)[1];
  counts[kind]++;
  const file = path.join(tmp, `line${b.line}.md`);
  writeFileSync(file, b.body);
  const r = run(['lint', file]);
  if (r.status === want[kind]) ok();
  else bad(`${PAGE}:${b.line} (${b.info}): lint exits ${r.status}, not ${want[kind]}\n${r.stdout}${r.stderr}`);
}
if (counts.ok >= 4 && counts.fail >= 5) ok();
else bad(`${PAGE} has ${counts.ok} lint-ok and ${counts.fail} lint-fail examples (at least 4 and 5 expected)`);

// --- the statuses, replayed with the comments ----------------------------------
let stamp, skip, clean, blocking, yes, no;
try {
  stamp = JSON.parse(named('json', 'status round-stamp'));
  skip = JSON.parse(named('json', 'status skip-marker'));
  clean = named('markdown', 'lint-ok check-clean');
  blocking = named('markdown', 'lint-ok check-blocking');
  yes = named('markdown', 'lint-ok needs-human-yes');
  no = named('markdown', 'lint-ok needs-human-no');
} catch (e) {
  bad(e.message);
  finish();
}

const HEAD = /^head: ([0-9a-f]{40})$/m.exec(clean)[1];
const ROUND = Number(/^round: (\d+)$/m.exec(clean)[1]);
const PR = Number(/pr=#(\d+):/.exec(stamp.description)[1]);
const TRUSTED = 'lfx-reviewer';
const threadIds = [...clean.matchAll(/^- id: ([^,]+),/gm)].map((m) => m[1]);

function comment(id, body, at) {
  return { id, author: TRUSTED, created_at: at, body, edited_by: null, edited_at: null,
    html_url: `https://github.com/octo/svc/pull/${PR}#issuecomment-${id}` };
}
function status(id, fields, at) {
  return { id, state: fields.state, context: fields.context, description: fields.description,
    creator: TRUSTED, created_at: at, target_url: fields.target_url ?? null };
}
function snapshot({ event, comments = [], statuses = [], labels = [], timeline = [] }) {
  return {
    snapshot: 1, repository: 'octo/svc', viewer: TRUSTED, config: { unlabelers: ['alice'] },
    event,
    pulls: [{
      number: PR, state: 'open', merged: false, draft: false, author: 'dev1',
      head: { sha: HEAD, ref: 'feature', repository: 'octo/svc' }, base: { ref: 'main' },
      labels, commits: ['c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1', HEAD],
      comments, timeline,
      threads: threadIds.map((id) => ({ id, author: 'copilot-pull-request-reviewer', comments: 2, resolved: false })),
      reviews: [],
    }],
    labels: ['needs-human'],
    statuses: { [HEAD]: statuses },
  };
}
function replay(name, snap) {
  const file = path.join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(snap));
  const r = run(['replay', '--quiet', file]);
  try {
    return JSON.parse(r.stdout);
  } catch {
    bad(`${name}: replay printed no report (exit ${r.status}): ${r.stderr}`);
    return null;
  }
}
const commentEvent = (c) => ({ name: 'issue_comment', payload: {
  action: 'created', issue: { number: PR, pull_request: { url: `https://api.github.com/repos/octo/svc/pulls/${PR}` } },
  comment: { id: c.id, user: { login: TRUSTED }, body: c.body, created_at: c.created_at, html_url: c.html_url } } });
const dispatch = { name: 'workflow_dispatch', payload: { inputs: { pr: String(PR) } } };
const step = (rep, kind) => rep?.steps.find((s) => s.step === kind);
function expect(name, cond, what, rep) {
  if (cond) ok();
  else bad(`${name}: ${what}\n${JSON.stringify(rep)}`);
}

const stampStatus = status(ROUND, stamp, '2026-11-29T10:00:00Z');
const noVerdict = comment(501, no, '2026-11-29T10:05:00Z');

// The round as the page describes it: stamp, the judge's `no`, the clean check.
const round = snapshot({ comments: [noVerdict], statuses: [stampStatus], event: dispatch });
{
  const file = path.join(tmp, 'round.json');
  writeFileSync(file, JSON.stringify(round));
  const shown = /^ {4}(head=\S+ stamp=\S+ label=\S+ approved=\S+ verdict=\S+ unanswered=\d+)$/m.exec(text)?.[1];
  const r = run(['status', '--pr', String(PR), '--snapshot', file]);
  expect('status line', shown && r.stdout.trim() === shown, `the page shows "${shown}", status prints "${r.stdout.trim()}"`, r.stderr);
}
{
  const c = comment(502, clean, '2026-11-29T10:20:00Z');
  const rep = replay('check-clean', { ...round, event: commentEvent(c), pulls: [{ ...round.pulls[0], comments: [noVerdict, c] }] });
  const w = rep?.writes.find((x) => x.kind === 'status');
  expect('check-clean', step(rep, 'apply')?.outcome === 'applied' && w?.state === 'success'
    && w?.description === `conductor pr=#${PR}: clean=true` && w?.sha === HEAD,
  'the clean check on the stamped round is applied as a success status on its head', rep);
  expect('check-clean', step(rep, 'gate')?.outcome === 'approve' && rep?.exit === 0,
    'with the `no` verdict, the gate approves', rep);
}
{
  const c = comment(502, blocking, '2026-11-29T10:20:00Z');
  const rep = replay('check-blocking', { ...round, event: commentEvent(c), pulls: [{ ...round.pulls[0], comments: [noVerdict, c] }] });
  const w = rep?.writes.find((x) => x.kind === 'status');
  expect('check-blocking', step(rep, 'apply')?.outcome === 'applied' && w?.state === 'failure'
    && w?.description === `conductor pr=#${PR}: clean=false` && step(rep, 'gate')?.outcome === 'withhold',
  'the blocking check writes failure and the gate withholds', rep);
}
{
  const c = comment(501, yes, '2026-11-29T10:05:00Z');
  const rep = replay('needs-human-yes', snapshot({ comments: [c], statuses: [stampStatus], event: commentEvent(c) }));
  expect('needs-human-yes', rep?.writes.some((x) => x.kind === 'label' && x.label === 'needs-human')
    && step(rep, 'gate')?.outcome === 'withhold', 'the `yes` verdict adds the label and the gate withholds', rep);
}
{
  // The label was set before this round; the judge skipped; the conductor's
  // check came back clean; an allowed person removed the label afterwards.
  const statuses = [stampStatus, status(ROUND + 5, skip, '2026-11-29T10:01:00Z'),
    status(ROUND + 9, { state: 'success', context: stamp.context, description: `conductor pr=#${PR}: clean=true` }, '2026-11-29T10:20:00Z')];
  const timeline = [
    { id: 9001, event: 'labeled', label: 'needs-human', actor: 'lead-anna', created_at: '2026-11-28T09:00:00Z' },
    { id: 9002, event: 'unlabeled', label: 'needs-human', actor: 'alice', created_at: '2026-11-29T11:00:00Z' },
  ];
  const rep = replay('skip-marker', snapshot({ statuses, timeline, event: dispatch }));
  expect('skip-marker', step(rep, 'gate')?.outcome === 'approve' && step(rep, 'gate')?.conditions?.escalation === true,
    'the skip marker and an allowed unlabel after the round started satisfy escalation: approve', rep);
  const without = replay('no-skip-marker', snapshot({ statuses: statuses.filter((s) => s.id !== ROUND + 5), timeline, event: dispatch }));
  expect('skip-marker', step(without, 'gate')?.outcome === 'withhold' && step(without, 'gate')?.conditions?.escalation === false,
    'without the skip marker (and without a verdict) the gate waits for the judge', without);
}

finish();

function finish() {
  rmSync(tmp, { recursive: true, force: true });
  console.log(`conductor: ${pass} passed, ${fail} failed`);
  process.exit(fail === 0 ? 0 : 1);
}
