// The seed's publish steps (seeds/002, "Publishing" → "Commands" → GitHub
// (gh), L1033–L1075) as the skill runs them, one `gh api` call = one
// request, replayed with node fetch against fakehub (no gh, no jq: the
// requests are the same, the processes are not). What it counts is the
// seed's requests per publish; bench/publish.mjs runs it beside ours on
// the same PR.
//
// As gh sends them:
// - Step 1 lists the issue comments with `gh api --paginate`, which asks
//   for `per_page=100` by itself (FACTS.md, 2026-12-02; gh 2.23) and then
//   follows the Link header's rel="next": a 61-comment PR is one page. The
//   seed's text has no `--paginate` (L1033): as written it reads page 1 at
//   GitHub's default of 30 and misses a sticky past the first 30 comments
//   (it then POSTs a second sticky every iteration). `paginate: false`
//   measures that literal variant.
// - Step 5 sends `comments` as a JSON array (what the seed means; `gh api
//   -F comments=@file` would send the file's text as a string) and is
//   skipped when no finding is emitted inline this iteration (L1058).
// - Step 6 (reconcile) and step 7 (status) run on every publish
//   ("mandatory, never skipped", L991). No duplicate stickies, so no DELETE.
// - The noop case (sticky sha = HEAD) is decided before publishing, by the
//   sticky discovery listing of L230 (the same paginated listing): the
//   publish steps are skipped. `discover()` counts that listing.
// - Each `gh api` call is a process: its start-up is added to the wall
//   time (`ghStartMs()`: the median of five `gh --version` runs when gh is
//   installed, else FACTS.md's 33 ms). The jq processes of steps 3 and 5
//   are not counted: the seed's wall time is a lower bound.

import { spawnSync } from 'node:child_process';

/** FACTS.md: gh starts in ~33 ms (measured beside the reference workflows). */
const GH_START_FACT_MS = 33;

/** The start-up of one gh process here: { ms, source }. */
export function ghStartMs() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('gh', ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    if (r.error || r.status !== 0) return { ms: GH_START_FACT_MS, source: 'FACTS.md (gh not installed)' };
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const version = spawnSync('gh', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim();
  return { ms: Math.round(times[2]), source: `measured: median of five \`gh --version\` (${version})` };
}

const HEADERS = { authorization: 'Bearer seed', accept: 'application/vnd.github+json', 'content-type': 'application/json', connection: 'close' };

/** A client that counts requests and keeps their sequence. */
function client(url) {
  const sequence = [];
  async function call(method, path, body) {
    sequence.push(`${method} ${path.replace(url, '').replace(/[0-9a-f]{40}/, '<sha>')}`);
    const r = await fetch(path.startsWith('http') ? path : url + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    const json = text ? JSON.parse(text) : null;
    if (!r.ok) throw new Error(`seed: ${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
    return { json, link: r.headers.get('link') ?? '' };
  }
  /** `gh api [--paginate] PATH`: every page, concatenated; --paginate
   * asks for per_page=100 (gh adds it when the path has none). */
  async function list(path, paginate) {
    const all = [];
    let next = paginate && !/[?&]per_page=/.test(path) ? `${path}${path.includes('?') ? '&' : '?'}per_page=100` : path;
    while (next) {
      const { json, link } = await call('GET', next);
      all.push(...json);
      const m = paginate ? /<([^>]+)>;\s*rel="next"/.exec(link) : null;
      next = m ? m[1].replace(url, '') : null;
    }
    return all;
  }
  return { call, list, sequence };
}

const STICKY = '<!-- pr-review:sticky -->';

/** The sticky discovery of L230 (mode detection): the listing, and the sticky's sha. */
export async function discover(url, { repo, pr, paginate = true, startMs = 0 }) {
  const c = client(url);
  const t0 = process.hrtime.bigint();
  const comments = await c.list(`/repos/${repo}/issues/${pr}/comments`, paginate);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 + startMs;
  const sticky = comments.find((x) => x.body.includes(STICKY)) ?? null;
  const sha = sticky ? /<!-- pr-review:sha=([0-9a-f]{40}) -->/.exec(sticky.body)?.[1] ?? null : null;
  return { requests: c.sequence.length, sequence: c.sequence, sticky: sticky?.id ?? null, sha, ms };
}

/**
 * The seed's publish, steps 1–7: `sticky` and `reconciled` are the two
 * sticky bodies, `inline` the review's comments ([{path, line, side,
 * body}]), `status` {state, description}. Returns the requests it sent.
 */
export async function seedPublish(url, { repo, pr, head, sticky, reconciled, inline, status, paginate = true, startMs = 0 }) {
  const c = client(url);
  const t0 = process.hrtime.bigint();
  // 1. find the sticky id (may be empty)
  const comments = await c.list(`/repos/${repo}/issues/${pr}/comments`, paginate);
  let id = comments.find((x) => x.body.includes(STICKY))?.id ?? null;
  // 3. create when none exists, else PATCH in place
  const made = id === null
    ? await c.call('POST', `/repos/${repo}/issues/${pr}/comments`, { body: sticky })
    : await c.call('PATCH', `/repos/${repo}/issues/comments/${id}`, { body: sticky });
  id = made.json.id;
  const url_ = made.json.html_url;
  // 4. the commit status
  const st = { state: status.state, context: 'pr-review', target_url: url_, description: status.description };
  await c.call('POST', `/repos/${repo}/statuses/${head}`, st);
  // 5. inline: one batched review, skipped when none this iteration
  if (inline.length) {
    await c.call('POST', `/repos/${repo}/pulls/${pr}/reviews`, {
      event: 'COMMENT', body: `pr-review iteration · ${status.description} · ${url_}`, comments: inline,
    });
  }
  // 6. reconcile: PATCH the sticky again
  await c.call('PATCH', `/repos/${repo}/issues/comments/${id}`, { body: reconciled });
  // 7. the status again, from the reconciled sticky
  await c.call('POST', `/repos/${repo}/statuses/${head}`, st);
  // One gh process per `gh api` call (the --paginate listing is one).
  const calls = 5 + (inline.length ? 1 : 0);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 + calls * startMs;
  return { requests: c.sequence.length, sequence: c.sequence, ms, sticky: id, processes: calls };
}

/** A sticky body with the seed's markers (L1024–L1027); its text does not change the counts. */
export function seedSticky(head, token, rows) {
  return [STICKY, '<!-- pr-review:version=2 -->', `<!-- pr-review:sha=${head} -->`, `<!-- pr-review:status=${token} -->`, '',
    '## pr-review', '', ...rows.map((r) => `- ${r}`), ''].join('\n');
}
