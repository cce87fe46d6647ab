// The seed's publish steps (seeds/002, "Publishing" → "Commands" → GitHub
// (gh), L1033–L1075) as the skill runs them, one `gh api` call = one
// request, replayed with node fetch against fakehub (no gh, no jq: the
// requests are the same, the processes are not). What it counts is the
// seed's requests per publish; bench/publish.mjs runs it beside ours on
// the same PR.
//
// Assumptions (stated, not measured):
// - Step 1 lists the issue comments with `gh api --paginate` and gh's
//   default page size (GitHub's per_page=30), following the Link header's
//   rel="next" as gh does. The seed's text has no `--paginate` (L1033): as
//   written it reads page 1 only and misses a sticky past the first 30
//   comments (it then POSTs a second sticky every iteration). `paginate:
//   false` measures that literal variant.
// - Step 5 sends `comments` as a JSON array (what the seed means; `gh api
//   -F comments=@file` would send the file's text as a string) and is
//   skipped when no finding is emitted inline this iteration (L1058).
// - Step 6 (reconcile) and step 7 (status) run on every publish
//   ("mandatory, never skipped", L991). No duplicate stickies, so no DELETE.
// - The noop case (sticky sha = HEAD) is decided before publishing, by the
//   sticky discovery listing of L230 (the same paginated listing): the
//   publish steps are skipped. `discover()` counts that listing.
// - gh's own requests (none for `gh api` with a token in GH_TOKEN) and
//   process start-up are not counted: the wall time is a lower bound.

const HEADERS = { authorization: 'Bearer seed', accept: 'application/vnd.github+json', 'content-type': 'application/json', connection: 'close' };

/** A client that counts requests and keeps their sequence. */
function client(url) {
  const sequence = [];
  async function call(method, path, body) {
    sequence.push(`${method} ${path.replace(/[0-9a-f]{40}/, '<sha>')}`);
    const r = await fetch(path.startsWith('http') ? path : url + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    const json = text ? JSON.parse(text) : null;
    if (!r.ok) throw new Error(`seed: ${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
    return { json, link: r.headers.get('link') ?? '' };
  }
  /** `gh api [--paginate] PATH`: every page, concatenated. */
  async function list(path, paginate) {
    const all = [];
    let next = path;
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
export async function discover(url, { repo, pr, paginate = true }) {
  const c = client(url);
  const comments = await c.list(`/repos/${repo}/issues/${pr}/comments`, paginate);
  const sticky = comments.find((x) => x.body.includes(STICKY)) ?? null;
  const sha = sticky ? /<!-- pr-review:sha=([0-9a-f]{40}) -->/.exec(sticky.body)?.[1] ?? null : null;
  return { requests: c.sequence.length, sequence: c.sequence, sticky: sticky?.id ?? null, sha };
}

/**
 * The seed's publish, steps 1–7: `sticky` and `reconciled` are the two
 * sticky bodies, `inline` the review's comments ([{path, line, side,
 * body}]), `status` {state, description}. Returns the requests it sent.
 */
export async function seedPublish(url, { repo, pr, head, sticky, reconciled, inline, status, paginate = true }) {
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
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { requests: c.sequence.length, sequence: c.sequence, ms, sticky: id };
}

/** A sticky body with the seed's markers (L1024–L1027); its text does not change the counts. */
export function seedSticky(head, token, rows) {
  return [STICKY, '<!-- pr-review:version=2 -->', `<!-- pr-review:sha=${head} -->`, `<!-- pr-review:status=${token} -->`, '',
    '## pr-review', '', ...rows.map((r) => `- ${r}`), ''].join('\n');
}
