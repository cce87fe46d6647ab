// The fake's answers against GitLab's published descriptions: the
// TypeScript types of @gitbeaker/core (a typed GitLab client; its schemas
// are GitLab's REST responses) checked by the TypeScript compiler, and the
// keys of the example responses in GitLab's REST documentation
// (reference/doc-keys.json).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HEAD, MR, P, REFS, start } from '../kit.mjs';

const peers = createRequire(new URL('../../peers/package.json', import.meta.url));
const ts = peers('typescript');
const gitbeaker = new URL('../../peers/node_modules/@gitbeaker/core/dist/index.d.ts', import.meta.url).pathname;
const DOC = JSON.parse(readFileSync(new URL('../reference/doc-keys.json', import.meta.url), 'utf8'));

let t;
const got = {};
before(async () => {
  t = await start();
  got.user = (await t.call('GET', '/api/v4/user')).json;
  got.mr = (await t.call('GET', MR)).json;
  got.notes = (await t.call('GET', `${MR}/notes?per_page=100`)).json;
  got.discussions = (await t.call('GET', `${MR}/discussions?per_page=100`)).json;
  got.created = (await t.call('POST', `${MR}/discussions`, { body: { body: 'r', position: { position_type: 'text', ...REFS, old_path: 'src/auth.c', new_path: 'src/auth.c', new_line: 12 } } })).json;
  got.note = (await t.call('POST', `${MR}/notes`, { body: { body: 'n' } })).json;
  got.diffs = (await t.call('GET', `${MR}/diffs?per_page=100`)).json;
  got.commits = (await t.call('GET', `${MR}/commits?per_page=100`)).json;
  got.status = (await t.call('POST', `/api/v4/projects/42/statuses/${HEAD}`, { body: { state: 'failed', name: 'pr-review', ref: 'feature' } })).json;
  got.statuses = (await t.call('GET', `${P}/repository/commits/${HEAD}/statuses?all=true`)).json;
});
after(() => t.stop());

describe('@gitbeaker/core types (tsc --strict)', () => {
  it('every answer is assignable to its gitbeaker schema', () => {
    const decl = (name, type, value) => `export const ${name}: ${type} = ${JSON.stringify(value, null, 1)};\n`;
    const src = [
      "import type { ExpandedUserSchema, ExpandedMergeRequestSchema, MergeRequestNoteSchema, DiscussionSchema, MergeRequestDiffSchema, CommitStatusSchema, DiffRefsSchema, CommitSchema } from '@gitbeaker/core';\n",
      // gitbeaker types these as strings, but GitLab answers null for a status
      // without them (doc/api/commits.md, the example of "List the statuses of
      // a commit": "description": null, "started_at": null, "finished_at": null):
      // the one place the fake follows GitLab's documentation over gitbeaker.
      "type Nullable<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | null };\n",
      "type Status = Nullable<CommitStatusSchema, 'description' | 'started_at' | 'finished_at' | 'target_url'>;\n",
      // gitbeaker types private_profile as a string; GitLab's user entity
      // exposes it as a boolean (doc/api/users.md: "private_profile": false).
      "type User = Omit<ExpandedUserSchema, 'private_profile'> & { private_profile: boolean | null };\n",
      decl('user', 'User', got.user),
      decl('mr', 'ExpandedMergeRequestSchema', got.mr),
      decl('refs', 'DiffRefsSchema', got.mr.diff_refs),
      decl('notes', 'MergeRequestNoteSchema[]', got.notes),
      decl('note', 'MergeRequestNoteSchema', got.note),
      decl('discussions', 'DiscussionSchema[]', got.discussions),
      decl('created', 'DiscussionSchema', got.created),
      decl('diffs', 'MergeRequestDiffSchema[]', got.diffs),
      decl('commits', 'CommitSchema[]', got.commits),
      decl('status', 'Status', got.status),
      decl('statuses', 'Status[]', got.statuses),
    ].join('');
    const dir = mkdtempSync(path.join(tmpdir(), 'fakegitlab-shapes-'));
    try {
      const file = path.join(dir, 'answers.ts');
      writeFileSync(file, src);
      const program = ts.createProgram([file], {
        noEmit: true, strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Node10, types: [], baseUrl: dir, paths: { '@gitbeaker/core': [gitbeaker] },
      });
      const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file || !d.file);
      const lines = src.split('\n');
      const where = (d) => (d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ${lines[d.file.getLineAndCharacterOfPosition(d.start).line].trim()} — ` : '');
      const text = diags.map((d) => where(d) + ts.flattenDiagnosticMessageText(d.messageText, ' ')).slice(0, 20).join('\n');
      assert.equal(diags.length, 0, text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GitLab documentation example keys', () => {
  const has = (obj, keys, what) => {
    const missing = keys.filter((k) => !(k in obj));
    assert.deepEqual(missing, [], `${what} lacks ${missing.join(', ')}`);
  };
  it('MR notes', () => {
    for (const n of got.notes) {
      has(n, DOC.mr_note, `note ${n.id}`);
      has(n, DOC.note_entity, `note ${n.id}`);
      has(n.author, DOC.author, `note ${n.id} author`);
    }
  });
  it('discussions, thread notes and diff notes', () => {
    for (const d of got.discussions) {
      has(d, DOC.discussion, `discussion ${d.id}`);
      for (const n of d.notes) {
        if (n.type === 'DiffNote') {
          has(n, DOC.diff_note, `diff note ${n.id}`);
          has(n.position, DOC.diff_note_position, `diff note ${n.id} position`);
        } else if (n.type === 'DiscussionNote') has(n, DOC.discussion_note, `thread note ${n.id}`);
      }
    }
    has(got.created.notes[0], DOC.diff_note, 'created diff note');
  });
  it('diff_refs', () => has(got.mr.diff_refs, DOC.diff_refs, 'diff_refs'));
});
