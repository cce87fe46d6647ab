// Event files for the end-to-end runs, built from GitHub's own webhook
// payloads (@octokit/webhooks-examples in tests/peers) and pointed at a PR
// of the scenario; `schedule` has no example there: its payload is written
// here by hand (GitHub sends the cron expression and the workflow file).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { peerDir } from '../../integration/lib/paths.mjs';

const index = JSON.parse(readFileSync(path.join(peerDir('@octokit/webhooks-examples'), 'api.github.com/index.json'), 'utf8'));

/** The examples of one event, optionally of one action. */
export function examples(name, action) {
  const list = index.find((x) => x.name === name)?.examples ?? [];
  return structuredClone(action ? list.filter((x) => x.action === action) : list);
}

function first(name, action) {
  const [ex] = examples(name, action);
  if (!ex) throw new Error(`@octokit/webhooks-examples has no ${name}${action ? `.${action}` : ''}`);
  return ex;
}

/** issue_comment on PR `pr` (the example is on a plain issue: add issue.pull_request). */
export function issueCommentOnPr(action, { repository, pr, comment }) {
  const p = first('issue_comment', action);
  p.issue.number = pr;
  p.issue.pull_request = {
    url: `https://api.github.com/repos/${repository}/pulls/${pr}`,
    html_url: `https://github.com/${repository}/pull/${pr}`,
  };
  Object.assign(p.comment, {
    id: comment.id,
    body: comment.body,
    user: { ...p.comment.user, login: comment.author },
    created_at: comment.created_at,
    html_url: comment.html_url ?? `https://github.com/${repository}/pull/${pr}#issuecomment-${comment.id}`,
  });
  return p;
}

/** issue_comment created on a plain issue, exactly as the example has it. */
export function issueCommentOnIssue() {
  const p = first('issue_comment', 'created');
  delete p.issue.pull_request;
  return p;
}

/** status of `sha` in `context` (the example's other fields kept). */
export function status({ sha, context, state, description, branches }) {
  const p = first('status');
  Object.assign(p, { sha, context, state, description });
  if (p.commit) p.commit.sha = sha;
  if (branches) p.branches = branches;
  return p;
}

/** pull_request(_target) `action` of PR `pr` with the scenario's head. */
export function pullRequest(action, { pr, head, label }) {
  const p = first('pull_request', action);
  p.number = pr;
  p.pull_request.number = pr;
  p.pull_request.head.sha = head.sha;
  p.pull_request.head.ref = head.ref;
  if (label) p.label = { ...(p.label ?? {}), name: label };
  return p;
}

/** workflow_dispatch with input pr (a string, as GitHub sends inputs). */
export function dispatch(pr) {
  const p = first('workflow_dispatch');
  p.inputs = { ...(p.inputs ?? {}), pr: String(pr) };
  return p;
}

/** schedule: hand-written (no example exists). */
export function schedule(cron = '*/10 * * * *') {
  return { schedule: cron, workflow: '.github/workflows/agentic.yml' };
}
