// GitLab's REST response objects, built from the state. The fields are
// those of GitLab's API entities and of the example responses in its REST
// documentation (doc/api/users.md, merge_requests.md, notes.md,
// discussions.md, commits.md); test/shapes.test.mjs checks them against
// @gitbeaker/core's types and reference/doc-keys.json.
import { createHash } from 'node:crypto';

function userId(s, username) {
  const known = s.users.find((u) => u.username.toLowerCase() === username.toLowerCase());
  if (known?.id) return known.id;
  return 1000 + (parseInt(createHash('sha1').update(username.toLowerCase()).digest('hex').slice(0, 6), 16) % 900000);
}

/** UserBasic (authors, assignees): id, username, name, state, locked, avatar_url, web_url. */
export function userBasic(s, username) {
  if (!username) return null;
  const known = s.users.find((u) => u.username.toLowerCase() === username.toLowerCase()) ?? {};
  return {
    id: userId(s, username),
    username,
    public_email: null,
    name: known.name ?? username,
    state: known.state ?? 'active',
    locked: false,
    avatar_url: `https://${s.host}/uploads/-/system/user/avatar/${userId(s, username)}/avatar.png`,
    web_url: `https://${s.host}/${username}`,
  };
}

/** GET /user: the current user (UserPublic + the private fields of one's own account). */
export function currentUser(s, username, now) {
  const known = s.users.find((u) => u.username.toLowerCase() === username.toLowerCase()) ?? {};
  const created = '2024-01-15T09:00:00.000Z';
  return {
    ...userBasic(s, username),
    created_at: created,
    bio: '',
    location: '',
    public_email: null,
    skype: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: '',
    organization: '',
    job_title: '',
    pronouns: null,
    bot: known.bot ?? /^(project|group)_\d+_bot_/.test(username),
    work_information: null,
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: null,
    last_sign_in_at: created,
    confirmed_at: created,
    last_activity_on: now.slice(0, 10),
    email: `${username}@${s.host.split(':')[0]}`,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: created,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    commit_email: `${username}@${s.host.split(':')[0]}`,
    is_admin: false,
    note: null,
    private_profile: false,
    namespace_id: userId(s, username) + 1,
    created_by: null,
  };
}

export function project(s) {
  const parts = s.repository.split('/');
  const name = parts.at(-1);
  const ns = parts.slice(0, -1).join('/');
  return {
    id: s.project_id,
    description: null,
    name,
    name_with_namespace: parts.join(' / '),
    path: name,
    path_with_namespace: s.repository,
    created_at: '2024-01-15T09:00:00.000Z',
    default_branch: s.merge_requests[0]?.target_branch ?? 'main',
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${s.host.split(':')[0]}:${s.repository}.git`,
    http_url_to_repo: `https://${s.host}/${s.repository}.git`,
    web_url: `https://${s.host}/${s.repository}`,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: '2026-11-29T10:00:00.000Z',
    namespace: {
      id: 100 + parts.length,
      name: parts.at(-2),
      path: parts.at(-2),
      kind: 'group',
      full_path: ns,
      parent_id: null,
      avatar_url: null,
      web_url: `https://${s.host}/groups/${ns}`,
    },
  };
}

const REF = (mr, s) => ({ short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${s.repository}!${mr.iid}` });

/** GET /projects/:id/merge_requests/:iid (the single-MR entity: MergeRequest + diff_refs and friends). */
export function mergeRequest(s, mr) {
  const notes = mr.discussions.flatMap((d) => d.notes).filter((n) => !n.system);
  const closed = mr.state === 'closed' || mr.state === 'merged';
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.target_project_id,
    title: mr.draft ? `Draft: ${mr.title.replace(/^Draft: /, '')}` : mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at ?? '2026-11-29T09:00:00.000Z',
    updated_at: mr.updated_at ?? '2026-11-29T09:00:00.000Z',
    merged_by: mr.state === 'merged' ? userBasic(s, mr.author ?? s.viewer) : null,
    merge_user: mr.state === 'merged' ? userBasic(s, mr.author ?? s.viewer) : null,
    merged_at: mr.state === 'merged' ? (mr.updated_at ?? '2026-11-29T09:00:00.000Z') : null,
    merge_after: null,
    prepared_at: mr.created_at ?? '2026-11-29T09:00:00.000Z',
    closed_by: mr.state === 'closed' ? userBasic(s, mr.author ?? s.viewer) : null,
    closed_at: mr.state === 'closed' ? (mr.updated_at ?? '2026-11-29T09:00:00.000Z') : null,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: notes.length,
    upvotes: 0,
    downvotes: 0,
    author: userBasic(s, mr.author) ?? userBasic(s, 'ghost'),
    assignees: [],
    assignee: null,
    reviewers: [],
    source_project_id: mr.source_project_id,
    target_project_id: mr.target_project_id,
    labels: [],
    draft: mr.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: mr.draft,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: closed ? 'cannot_be_merged' : 'can_be_merged',
    detailed_merge_status: closed ? 'not_open' : 'mergeable',
    sha: mr.sha,
    merge_commit_sha: null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: false,
    allow_collaboration: false,
    allow_maintainer_to_push: false,
    reference: `!${mr.iid}`,
    references: REF(mr, s),
    web_url: mr.web_url,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: false,
    squash_on_merge: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
    approvals_before_merge: null,
    subscribed: false,
    changes_count: String(mr.diffs.length),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: mr.diff_refs,
    merge_error: null,
    first_contribution: false,
    user: { can_merge: true },
  };
}

/** A note (API::Entities::Note). */
export function note(s, mr, n) {
  const out = {
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: userBasic(s, n.author) ?? userBasic(s, 'ghost'),
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: n.system,
    noteable_id: mr.id,
    noteable_type: 'MergeRequest',
    project_id: mr.target_project_id,
  };
  if (n.type === 'DiffNote') {
    out.commit_id = n.commit_id;
    out.position = { ...n.position };
  }
  out.resolvable = n.resolvable;
  if (n.resolvable) {
    out.resolved = n.resolved;
    out.resolved_by = userBasic(s, n.resolved_by);
    out.resolved_at = null;
  }
  if (n.type === 'DiffNote') out.suggestions = [];
  out.confidential = n.internal;
  out.internal = n.internal;
  out.imported = false;
  out.imported_from = 'none';
  out.noteable_iid = mr.iid;
  out.commands_changes = n.commands_changes ?? {};
  return out;
}

export function discussion(s, mr, d) {
  return { id: d.id, individual_note: d.individual_note, notes: d.notes.map((n) => note(s, mr, n)) };
}

export function diff(f) {
  return {
    diff: f.diff ?? '',
    new_path: f.new_path,
    old_path: f.old_path ?? f.new_path,
    a_mode: f.a_mode ?? (f.new_file ? '0' : '100644'),
    b_mode: f.b_mode ?? (f.deleted_file ? '0' : '100644'),
    new_file: f.new_file ?? false,
    renamed_file: f.renamed_file ?? false,
    deleted_file: f.deleted_file ?? false,
    generated_file: f.generated_file ?? false,
    collapsed: f.collapsed ?? false,
    too_large: f.too_large ?? false,
  };
}

/** A commit status (API::Entities::CommitStatus). */
export function status(s, st) {
  return {
    id: st.id,
    sha: st.sha,
    ref: st.ref,
    status: st.status,
    name: st.name,
    target_url: st.target_url,
    description: st.description,
    created_at: st.created_at,
    started_at: st.started_at,
    finished_at: st.finished_at,
    allow_failure: st.allow_failure,
    coverage: null,
    pipeline_id: st.pipeline_id,
    author: userBasic(s, st.author) ?? userBasic(s, 'ghost'),
  };
}

export function commitBrief(sha, createdAt) {
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    title: `Commit ${sha.slice(0, 8)}`,
    created_at: createdAt,
    parent_ids: [],
    message: `Commit ${sha.slice(0, 8)}`,
    author_name: 'A U Thor',
    author_email: 'author@example.com',
    authored_date: createdAt,
    committer_name: 'A U Thor',
    committer_email: 'author@example.com',
    committed_date: createdAt,
  };
}
