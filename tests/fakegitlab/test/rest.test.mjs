// The REST dialect: authentication, errors, pagination, notes, discussions
// with positions, statuses, merge base, quick actions, faults. Each test
// names the G rule (docs/rules/gitlab.md) whose GitLab fact it checks.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { HEAD, MR, P, REFS, start } from '../kit.mjs';

describe('authentication and identity (G3, G4)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('GET /user answers the viewer with GitLab fields', async () => {
    const r = await t.call('GET', '/api/v4/user');
    assert.equal(r.status, 200);
    assert.equal(r.json.username, 'review-bot');
    for (const k of ['id', 'name', 'state', 'web_url', 'bot', 'is_admin']) assert.ok(k in r.json, k);
  });
  it('no token: 401 with GitLab body', async () => {
    const r = await t.call('GET', '/api/v4/user', { token: null });
    assert.equal(r.status, 401);
    assert.deepEqual(r.json, { message: '401 Unauthorized' });
  });
  it('the log says where the credential came from', async () => {
    await t.call('GET', '/api/v4/user', { token: null, headers: { authorization: 'Bearer abc' } });
    await t.call('GET', '/api/v4/user?private_token=abc', { token: null });
    const log = t.fake.log.slice(-2).map((e) => e.auth);
    assert.deepEqual(log, ['bearer', 'query']);
  });
  it('tokens map to other users', async () => {
    const r = await t.call('GET', '/api/v4/user', { token: 'maint-token' });
    assert.equal(r.json.username, 'maint1');
  });
});

describe('projects, MR and errors (G5)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('project by URL-encoded path and by id', async () => {
    assert.equal((await t.call('GET', P)).json.path_with_namespace, 'platform/backend/svc');
    assert.equal((await t.call('GET', '/api/v4/projects/42')).json.id, 42);
    const r = await t.call('GET', '/api/v4/projects/other%2Fthing');
    assert.equal(r.status, 404);
    assert.deepEqual(r.json, { message: '404 Project Not Found' });
  });
  it('MR with diff_refs and a self-hosted web_url', async () => {
    const r = await t.call('GET', MR);
    assert.equal(r.json.sha, HEAD);
    assert.deepEqual(r.json.diff_refs, REFS);
    assert.equal(r.json.web_url, 'https://gitlab.example.com/platform/backend/svc/-/merge_requests/7');
    assert.equal(r.json.state, 'opened');
    assert.equal((await t.call('GET', `${P}/merge_requests/8`)).status, 404);
  });
  it('an unknown route is GitLab\'s 404 error shape', async () => {
    const r = await t.call('GET', '/api/v4/nothing');
    assert.deepEqual(r.json, { error: '404 Not Found' });
  });
});

describe('pagination (G9)', () => {
  let t;
  before(async () => {
    t = await start((s) => {
      s.merge_requests[0].notes.push(...Array.from({ length: 230 }, (_, i) => ({ id: 1000 + i, author: 'dev1', created_at: '2026-11-30T10:00:00Z', body: `n${i}` })));
      s.pagination = { total_limit: 200 };
      return s;
    });
  });
  after(() => t.stop());
  it('default 20, per_page clamped to 100, x-next-page empty at the end', async () => {
    let r = await t.call('GET', `${MR}/notes`);
    assert.equal(r.json.length, 20);
    assert.equal(r.headers.get('x-per-page'), '20');
    r = await t.call('GET', `${MR}/notes?per_page=500`);
    assert.equal(r.json.length, 100);
    assert.equal(r.headers.get('x-next-page'), '2');
    r = await t.call('GET', `${MR}/notes?per_page=100&page=3`);
    assert.equal(r.json.length, 35); // 5 notes of the snapshot + 230
    assert.equal(r.headers.get('x-next-page'), '');
    assert.equal(r.headers.get('x-page'), '3');
  });
  it('x-total and the last link are omitted above the total limit', async () => {
    const r = await t.call('GET', `${MR}/notes?per_page=100`);
    assert.equal(r.headers.get('x-total'), null);
    assert.equal(r.headers.get('x-total-pages'), null);
    assert.ok(!/rel="last"/.test(r.headers.get('link')));
  });
  it('notes newest first by default; sort and order_by honoured', async () => {
    const desc = (await t.call('GET', `${MR}/notes?per_page=100`)).json.map((n) => n.id);
    assert.ok(desc[0] > desc.at(-1));
    const asc = (await t.call('GET', `${MR}/notes?per_page=3&sort=asc`)).json.map((n) => n.id);
    assert.deepEqual(asc, [501, 502, 503]);
  });
});

describe('notes: POST, PUT, DELETE (G14, G10)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('create 201, update 200 in place, delete 204, then 404', async () => {
    const c = await t.call('POST', `${MR}/notes`, { body: { body: 'hello' } });
    assert.equal(c.status, 201);
    assert.equal(c.json.type, null);
    assert.equal(c.json.author.username, 'review-bot');
    const u = await t.call('PUT', `${MR}/notes/${c.json.id}`, { body: { body: 'hello 2' } });
    assert.equal(u.status, 200);
    assert.equal(u.json.body, 'hello 2');
    assert.equal(u.json.id, c.json.id);
    const d = await t.call('DELETE', `${MR}/notes/${c.json.id}`);
    assert.equal(d.status, 204);
    const g = await t.call('GET', `${MR}/notes/${c.json.id}`);
    assert.equal(g.status, 404);
    assert.deepEqual(g.json, { message: '404 Note Not Found' });
    assert.deepEqual(t.fake.writes.map((w) => w.kind), ['comment_create', 'comment_update', 'comment_delete']);
  });
  it('a maintainer may edit review-bot\'s note; the last editor is recorded; a developer may not', async () => {
    assert.equal((await t.call('PUT', `${MR}/notes/501`, { token: 'dev-token', body: { body: 'x' } })).status, 403);
    const r = await t.call('PUT', `${MR}/notes/501`, { token: 'maint-token', body: { body: 'tampered' } });
    assert.equal(r.status, 200);
    const n = t.fake.state.merge_requests[0].discussions.flatMap((d) => d.notes).find((x) => x.id === 501);
    assert.equal(n.last_edited_by, 'maint1');
    assert.ok(n.last_edited_at);
  });
  it('a PUT of the same body leaves the last editor', async () => {
    await t.call('PUT', `${MR}/notes/501`, { body: { body: 'tampered' } });
    const n = t.fake.state.merge_requests[0].discussions.flatMap((d) => d.notes).find((x) => x.id === 501);
    assert.equal(n.last_edited_by, 'maint1');
  });
  it('an empty body is refused', async () => {
    assert.equal((await t.call('POST', `${MR}/notes`, { body: {} })).status, 400);
  });
});

describe('quick actions (G13)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('a /approve line runs, is cut out and is recorded', async () => {
    const r = await t.call('POST', `${MR}/notes`, { body: { body: 'see\n/approve\nthanks' } });
    assert.equal(r.json.body, 'see\nthanks');
    assert.deepEqual(r.json.commands_changes, { approve: true });
    assert.deepEqual(t.fake.state.merge_requests[0].quick_actions.map((q) => q.command), ['approve']);
  });
  it('inside a ``` block or after a leading space nothing runs', async () => {
    const before = t.fake.state.merge_requests[0].quick_actions.length;
    await t.call('POST', `${MR}/notes`, { body: { body: '```\n/merge\n```' } });
    await t.call('POST', `${MR}/notes`, { body: { body: 'x\n /merge' } });
    assert.equal(t.fake.state.merge_requests[0].quick_actions.length, before);
  });
  it('a note of commands only answers 202 and creates nothing', async () => {
    const r = await t.call('POST', `${MR}/notes`, { body: { body: '/close' } });
    assert.equal(r.status, 202);
  });
});

describe('discussions and positions (G6, G16)', () => {
  let t;
  const pos = (extra) => ({ position_type: 'text', ...REFS, old_path: 'src/auth.c', new_path: 'src/auth.c', ...extra });
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('lists individual notes and threads with positions', async () => {
    const r = await t.call('GET', `${MR}/discussions?per_page=100`);
    const diff = r.json.find((d) => d.notes[0].type === 'DiffNote');
    assert.equal(diff.individual_note, false);
    assert.equal(diff.notes[0].position.new_line, 12);
    assert.equal(diff.notes[1].author.username, 'dev1');
    assert.ok(r.json.some((d) => d.individual_note && d.notes[0].system));
  });
  it('an added line takes new_line alone; a context line needs old_line too', async () => {
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'a', position: pos({ new_line: 12 }) } })).status, 201);
    const ctx = await t.call('POST', `${MR}/discussions`, { body: { body: 'b', position: pos({ new_line: 11 }) } });
    assert.equal(ctx.status, 400);
    assert.match(ctx.json.message, /line_code=>\["can't be blank", "must be a valid line code"\]/);
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'c', position: pos({ new_line: 11, old_line: 11 }) } })).status, 201);
    const added = await t.call('POST', `${MR}/discussions`, { body: { body: 'd', position: pos({ new_line: 12, old_line: 12 }) } });
    assert.equal(added.status, 400);
  });
  it('outside the diff, on a collapsed file, or with stale SHAs: 400', async () => {
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'e', position: pos({ new_line: 99 }) } })).status, 400);
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'f', position: { ...pos({ new_line: 1 }), old_path: 'big.bin', new_path: 'big.bin' } } })).status, 400);
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'g', position: pos({ new_line: 12, head_sha: '6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d' }) } })).status, 400);
  });
  it('a renamed file needs its old_path', async () => {
    const p = { position_type: 'text', ...REFS, new_path: 'src/name.c', new_line: 1 };
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'h', position: { ...p, old_path: 'src/name.c' } } })).status, 400);
    assert.equal((await t.call('POST', `${MR}/discussions`, { body: { body: 'i', position: { ...p, old_path: 'old/name.c' } } })).status, 201);
  });
  it('JSON keys "position[...]" are no position: the note lands un-anchored (L196)', async () => {
    const r = await t.call('POST', `${MR}/discussions`, { body: { body: 'j', 'position[new_line]': 12, 'position[new_path]': 'src/auth.c' } });
    assert.equal(r.status, 201);
    assert.equal(r.json.notes[0].type, 'DiscussionNote');
  });
  it('form fields position[...] are nested like Rack does', async () => {
    const form = { body: 'k', 'position[position_type]': 'text', 'position[base_sha]': REFS.base_sha, 'position[start_sha]': REFS.start_sha,
      'position[head_sha]': REFS.head_sha, 'position[old_path]': 'src/auth.c', 'position[new_path]': 'src/auth.c', 'position[new_line]': '12' };
    const r = await t.call('POST', `${MR}/discussions`, { form });
    assert.equal(r.status, 201);
    assert.equal(r.json.notes[0].type, 'DiffNote');
  });
  it('a reply turns an individual note into a thread', async () => {
    const list = (await t.call('GET', `${MR}/discussions?per_page=100`)).json;
    const d = list.find((x) => x.notes[0].id === 501);
    assert.equal(d.individual_note, true);
    assert.equal((await t.call('POST', `${MR}/discussions/${d.id}/notes`, { token: 'dev-token', body: { body: 'F1: fine' } })).status, 201);
    const again = (await t.call('GET', `${MR}/discussions/${d.id}`)).json;
    assert.equal(again.individual_note, false);
    assert.equal(again.notes[0].type, 'DiscussionNote');
  });
  it('the writes list names the findings of a root', async () => {
    await t.call('POST', `${MR}/discussions`, { body: { body: '<!-- pr-review:finding-root -->\n<!-- pr-review:finding-id=F9 -->\nx', position: pos({ new_line: 13, old_line: 12 }) } });
    const w = t.fake.writes.filter((x) => x.kind === 'discussion').at(-1);
    assert.deepEqual(w.findings, ['F9']);
    assert.equal(w.commit_id, HEAD);
  });
  it('a new discussion\'s id is derived from the IID and its first note id, like a snapshot\'s (S4)', async () => {
    const r = await t.call('POST', `${MR}/discussions`, { body: { body: 'k', position: pos({ new_line: 12 }) } });
    assert.equal(r.status, 201);
    const want = createHash('sha1').update(`discussion:7:${r.json.notes[0].id}`).digest('hex');
    assert.equal(r.json.id, want);
    assert.equal(t.fake.writes.filter((x) => x.kind === 'discussion').at(-1).discussion_id, want);
    const n = await t.call('POST', `${MR}/notes`, { body: { body: 'plain' } });
    const listed = (await t.call('GET', `${MR}/discussions?per_page=100`)).json.find((d) => d.notes[0].id === n.json.id);
    assert.equal(listed.id, createHash('sha1').update(`discussion:7:${n.json.id}`).digest('hex'));
  });
});

describe('statuses (G12, G17)', () => {
  let t;
  const S = `/api/v4/projects/42/statuses/${HEAD}`;
  const L = `${P}/repository/commits/${HEAD}/statuses`;
  before(async () => { t = await start(); });
  after(() => t.stop());
  it('pending then success: one job, transitioned in place', async () => {
    const a = await t.call('POST', S, { body: { state: 'pending', name: 'pr-review', ref: 'feature', description: 'publishing' } });
    assert.equal(a.status, 201);
    assert.equal(a.json.status, 'pending');
    const b = await t.call('POST', S, { body: { state: 'success', name: 'pr-review', ref: 'feature', description: 'PASSED' } });
    assert.equal(b.json.id, a.json.id);
    assert.equal(b.json.status, 'success');
    assert.equal(b.json.author.username, 'review-bot');
  });
  it('pending over pending: GitLab\'s transition error', async () => {
    await t.call('POST', S, { body: { state: 'pending', name: 'pr-review', ref: 'feature' } });
    const r = await t.call('POST', S, { body: { state: 'pending', name: 'pr-review', ref: 'feature' } });
    assert.equal(r.status, 400);
    assert.match(r.json.message, /^Cannot transition status via :enqueue from :pending/);
  });
  it('a finished status is never changed: a new post is a new job', async () => {
    const r = await t.call('POST', S, { body: { state: 'failed', name: 'ci/build', ref: 'feature' } });
    assert.notEqual(r.json.id, 9002);
  });
  it('list: latest per name by default, history with all=true, name filter', async () => {
    const latest = (await t.call('GET', `${L}?name=pr-review`)).json;
    assert.equal(latest.length, 1);
    const all = (await t.call('GET', `${L}?name=pr-review&all=true&per_page=100`)).json;
    assert.ok(all.length >= 3);
    assert.ok(all[0].id > all.at(-1).id);
  });
  it('a target_url over 255 characters is refused; an unknown commit is 404', async () => {
    assert.equal((await t.call('POST', S, { body: { state: 'success', name: 'x', target_url: `https://a/${'b'.repeat(260)}` } })).status, 400);
    const r = await t.call('POST', `/api/v4/projects/42/statuses/${'1'.repeat(40)}`, { body: { state: 'success', name: 'x' } });
    assert.deepEqual(r.json, { message: '404 Commit Not Found' });
  });
  it('there is no DELETE of a status', async () => {
    assert.equal((await t.call('DELETE', `${S}`)).status, 404);
  });
});

describe('merge base (G7)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  const mb = (a, b) => t.call('GET', `${P}/repository/merge_base?refs[]=${a}&refs[]=${b}`);
  it('ahead, behind, unknown', async () => {
    assert.equal((await mb('6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d', HEAD)).json.id, '6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d');
    assert.equal((await mb(HEAD, '6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d')).json.id, '6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d6d');
    const r = await mb('1'.repeat(40), HEAD);
    assert.equal(r.status, 400);
    assert.match(r.json.message, /Could not find ref/);
  });
});

describe('faults (G19, G20, G21)', () => {
  it('a read fault on page 2 only; a 401 on user', async () => {
    const t = await start((s) => { s.faults = [{ read: 'discussions', page: 2, status: 502 }, { read: 'user', status: 401 }]; return s; });
    try {
      assert.equal((await t.call('GET', `${MR}/discussions?per_page=1`)).status, 200);
      const r = await t.call('GET', `${MR}/discussions?per_page=1&page=2`);
      assert.equal(r.status, 502);
      assert.deepEqual((await t.call('GET', '/api/v4/user')).json, { message: '401 Unauthorized' });
    } finally { await t.stop(); }
  });
  it('lost_response applies the write, then answers 502', async () => {
    const t = await start((s) => { s.faults = [{ write: 'note', mode: 'lost_response' }]; return s; });
    try {
      const r = await t.call('POST', `${MR}/notes`, { body: { body: 'lost' } });
      assert.equal(r.status, 502);
      assert.ok(t.fake.state.merge_requests[0].discussions.some((d) => d.notes[0].body === 'lost'));
      assert.equal(t.fake.writes.at(-1).kind, 'comment_create');
    } finally { await t.stop(); }
  });
  it('a plain write fault writes nothing; skip and times count', async () => {
    const t = await start((s) => { s.faults = [{ write: 'discussion', status: 500, skip: 1, times: 1 }]; return s; });
    try {
      const body = { body: 'x' };
      assert.equal((await t.call('POST', `${MR}/discussions`, { body })).status, 201);
      assert.equal((await t.call('POST', `${MR}/discussions`, { body })).status, 500);
      assert.equal((await t.call('POST', `${MR}/discussions`, { body })).status, 201);
      assert.equal(t.fake.writes.length, 2);
    } finally { await t.stop(); }
  });
  it('a 400 discussion fault answers GitLab\'s refused-position message', async () => {
    const t = await start((s) => { s.faults = [{ write: 'discussion', status: 400 }]; return s; });
    try {
      const r = await t.call('POST', `${MR}/discussions`, { body: { body: 'x' } });
      assert.match(r.json.message, /must be a valid line code/);
    } finally { await t.stop(); }
  });
  it('rate_limit: 429 with Retry-After and RateLimit headers', async () => {
    const t = await start((s) => { s.faults = [{ write: 'status', mode: 'rate_limit', retry_after: 7 }]; return s; });
    try {
      const r = await t.call('POST', `/api/v4/projects/42/statuses/${HEAD}`, { body: { state: 'pending', name: 'pr-review' } });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('retry-after'), '7');
      assert.equal(r.headers.get('ratelimit-remaining'), '0');
    } finally { await t.stop(); }
  });
  it('hang holds the request open; comment_id narrows a note fault', async () => {
    const t = await start((s) => { s.faults = [{ write: 'note_delete', comment_id: 501, mode: 'hang' }]; return s; });
    try {
      const ac = new AbortController();
      const p = fetch(`${t.base}${MR}/notes/501`, { method: 'DELETE', headers: { 'private-token': 'x' }, signal: ac.signal }).catch((e) => e.name);
      setTimeout(() => ac.abort(), 200);
      assert.equal(await p, 'AbortError');
      assert.equal((await t.call('DELETE', `${MR}/notes/601`)).status, 204);
    } finally { await t.stop(); }
  });
  it('offhost_link points Link at another origin', async () => {
    const t = await start((s) => { s.faults = [{ read: 'notes', mode: 'offhost_link' }]; return s; });
    try {
      const r = await t.call('GET', `${MR}/notes?per_page=1`);
      assert.match(r.headers.get('link'), /evil\.invalid/);
    } finally { await t.stop(); }
  });
});

describe('mid-run hooks (G18, P64)', () => {
  let t;
  before(async () => { t = await start(); });
  after(() => t.stop());
  const control = async (method, path, body) => {
    const res = await fetch(t.base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  it('after: the answer is the state before, the next request sees the change; once', async () => {
    assert.equal((await control('POST', '/_fake/hooks', [{ when: '^GET /api/v4/projects/[^/]+/merge_requests/7$', ops: [{ op: 'push', sha: '9f'.repeat(20) }] }])).status, 204);
    assert.equal((await t.call('GET', MR)).json.sha, HEAD);
    const moved = (await t.call('GET', MR)).json;
    assert.equal(moved.sha, '9f'.repeat(20));
    assert.equal(moved.diff_refs.head_sha, '9f'.repeat(20));
    assert.deepEqual(t.fake.log.at(-2).hook, [{ op: 'push', sha: '9f'.repeat(20) }]);
    assert.equal(t.fake.log.at(-1).hook, undefined, 'a hook fires once');
  });
  it('before, with skip: another actor\'s note lands before the matched request is answered', async () => {
    const ids = async () => (await t.call('GET', `${MR}/notes?per_page=100`)).json.map((n) => n.id);
    const had = await ids();
    await control('POST', '/_fake/hooks', [{ when: '^GET .*/notes$', at: 'before', skip: 1, ops: [{ op: 'add_note', author: 'review-bot', body: 'x' }] }]);
    assert.deepEqual(await ids(), had, 'skipped once');
    const now = await ids();
    assert.equal(now.length, had.length + 1);
    assert.equal(now[0], Math.max(...now), 'the new note is the newest');
  });
  it('add_note copies the newest body of an author with a first line', async () => {
    await t.call('POST', `${MR}/notes`, { body: { body: '<!-- pr-review:sticky -->\nS 7e' } });
    await control('POST', '/_fake/hooks', [{ when: '^GET /api/v4/user$', ops: [{ op: 'add_note', author: 'review-bot', body_of_newest_by: 'review-bot', first_line: '<!-- pr-review:sticky -->', replace: [['7e', '9f']] }] }]);
    await t.call('GET', '/api/v4/user');
    const newest = (await t.call('GET', `${MR}/notes?per_page=1`)).json[0];
    assert.equal(newest.body, '<!-- pr-review:sticky -->\nS 9f');
    assert.equal(newest.author.username, 'review-bot');
  });
  it('a malformed hook is 400; loading a state clears the hooks', async () => {
    assert.equal((await control('POST', '/_fake/hooks', [{ when: '(' , ops: [] }])).status, 400);
    assert.equal((await control('POST', '/_fake/hooks', [{ when: 'x', ops: [], at: 'during' }])).status, 400);
    await control('POST', '/_fake/hooks', [{ when: 'x', ops: [] }]);
    await control('POST', '/_fake/state', (await control('GET', '/_fake/state')).json);
    assert.deepEqual((await control('GET', '/_fake/hooks')).json, []);
  });
});
