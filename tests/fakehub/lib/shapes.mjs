// REST response objects in GitHub's shapes (the schemas of GitHub's published
// OpenAPI description). Every URL points at the fake server's own base URL.
import { fakeSha, isBotLogin, graphqlLogin, nodeId, stableInt } from './util.mjs';
import { parsePatch, resolveDiffLine } from './state.mjs';

/** Lines added and removed by a patch. */
function diffCounts(patch) {
  let additions = 0;
  let deletions = 0;
  for (const h of parsePatch(patch)) {
    for (const l of h.lines) {
      if (l.kind === '+') additions += 1;
      else if (l.kind === '-') deletions += 1;
    }
  }
  return { additions, deletions };
}

/** GitHub shows a deleted account as this user in REST answers. */
const GHOST = 'ghost';

export class Shapes {
  constructor(state, base) {
    this.state = state;
    this.base = base; // e.g. http://127.0.0.1:PORT
  }

  get repoApi() { return `${this.base}/repos/${this.state.fullName}`; }
  get repoHtml() { return `${this.base}/${this.state.fullName}`; }

  docs() { return `${this.base}/docs/rest`; }

  // ---- accounts -----------------------------------------------------------

  user(login) {
    const name = login ?? GHOST;
    const bot = isBotLogin(name);
    const id = name === GHOST ? 10137 : stableInt(`user:${name.toLowerCase()}`, 1000);
    const api = `${this.base}/users/${encodeURIComponent(name)}`;
    return {
      login: name,
      id,
      node_id: bot ? nodeId('BOT', name.toLowerCase()) : nodeId('U', name.toLowerCase()),
      avatar_url: `${this.base}/avatars/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: bot ? `${this.base}/apps/${encodeURIComponent(graphqlLogin(name))}` : `${this.base}/${encodeURIComponent(name)}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: bot ? 'Bot' : 'User',
      user_view_type: 'public',
      site_admin: false,
    };
  }

  /** GET /user (the token's own account). */
  privateUser(login) {
    const created = '2020-01-01T00:00:00Z';
    return {
      ...this.user(login),
      name: null, company: null, blog: '', location: null, email: null, hireable: null, bio: null,
      twitter_username: null, notification_email: null,
      public_repos: 0, public_gists: 0, followers: 0, following: 0,
      created_at: created, updated_at: created,
      private_gists: 0, total_private_repos: 0, owned_private_repos: 0, disk_usage: 0, collaborators: 0,
      two_factor_authentication: true,
    };
  }

  // ---- GitHub App ---------------------------------------------------------------

  /** GET /app (the `integration` schema). */
  integration(app) {
    const created = '2020-01-01T00:00:00Z';
    return {
      id: app.id,
      slug: app.slug,
      node_id: nodeId('A', app.id),
      client_id: app.clientId,
      owner: this.user(this.state.owner),
      name: app.name,
      description: '',
      external_url: `${this.base}/apps/${encodeURIComponent(app.slug)}`,
      html_url: `${this.base}/apps/${encodeURIComponent(app.slug)}`,
      created_at: created,
      updated_at: created,
      permissions: app.permissions,
      events: [],
      installations_count: app.installationId === null ? 0 : 1,
    };
  }

  /** GET /repos/{o}/{r}/installation, GET /app/installations/{id} (the `installation` schema). */
  installation(app) {
    const created = '2020-01-01T00:00:00Z';
    const account = this.user(this.state.owner);
    return {
      id: app.installationId,
      account,
      repository_selection: 'all',
      access_tokens_url: `${this.base}/app/installations/${app.installationId}/access_tokens`,
      repositories_url: `${this.base}/installation/repositories`,
      html_url: `${this.base}/settings/installations/${app.installationId}`,
      app_id: app.id,
      client_id: app.clientId,
      app_slug: app.slug,
      target_id: account.id,
      target_type: account.type,
      permissions: app.permissions,
      events: [],
      created_at: created,
      updated_at: created,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }

  // ---- repository -----------------------------------------------------------

  repo(fullName = this.state.fullName) {
    if (fullName === null) return null;
    const [owner, name] = fullName.split('/');
    const api = `${this.base}/repos/${fullName}`;
    const id = fullName.toLowerCase() === this.state.fullName.toLowerCase()
      ? this.state.repoId : stableInt(`repo:${fullName.toLowerCase()}`, 100000);
    const urls = {};
    for (const [key, tail] of Object.entries({
      archive_url: '/{archive_format}{/ref}', assignees_url: '/assignees{/user}', blobs_url: '/git/blobs{/sha}',
      branches_url: '/branches{/branch}', collaborators_url: '/collaborators{/collaborator}',
      comments_url: '/comments{/number}', commits_url: '/commits{/sha}', compare_url: '/compare/{base}...{head}',
      contents_url: '/contents/{+path}', contributors_url: '/contributors', deployments_url: '/deployments',
      downloads_url: '/downloads', events_url: '/events', forks_url: '/forks', git_commits_url: '/git/commits{/sha}',
      git_refs_url: '/git/refs{/sha}', git_tags_url: '/git/tags{/sha}', hooks_url: '/hooks',
      issue_comment_url: '/issues/comments{/number}', issue_events_url: '/issues/events{/number}',
      issues_url: '/issues{/number}', keys_url: '/keys{/key_id}', labels_url: '/labels{/name}',
      languages_url: '/languages', merges_url: '/merges', milestones_url: '/milestones{/number}',
      notifications_url: '/notifications{?since,all,participating}', pulls_url: '/pulls{/number}',
      releases_url: '/releases{/id}', stargazers_url: '/stargazers', statuses_url: '/statuses/{sha}',
      subscribers_url: '/subscribers', subscription_url: '/subscription', tags_url: '/tags',
      teams_url: '/teams', trees_url: '/git/trees{/sha}',
    })) urls[key] = api + tail;
    return {
      id,
      node_id: nodeId('R', fullName.toLowerCase()),
      name,
      full_name: fullName,
      private: false,
      owner: this.user(owner),
      html_url: `${this.base}/${fullName}`,
      description: null,
      fork: fullName.toLowerCase() !== this.state.fullName.toLowerCase(),
      url: api,
      ...urls,
      clone_url: `${this.base}/${fullName}.git`,
      git_url: `git://${new URL(this.base).host}/${fullName}.git`,
      ssh_url: `git@${new URL(this.base).hostname}:${fullName}.git`,
      svn_url: `${this.base}/${fullName}`,
      mirror_url: null,
      homepage: null,
      language: null,
      size: 0,
      forks: 0,
      forks_count: 0,
      stargazers_count: 0,
      watchers: 0,
      watchers_count: 0,
      open_issues: this.state.pulls.filter((p) => this.state.isOpen(p) && !p.merged).length,
      open_issues_count: this.state.pulls.filter((p) => this.state.isOpen(p) && !p.merged).length,
      network_count: 0,
      subscribers_count: 0,
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: false,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: 'public',
      license: null,
      topics: [],
      pushed_at: '2020-01-01T00:00:00Z',
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
      default_branch: this.state.defaultBranch,
    };
  }

  // ---- labels -----------------------------------------------------------------

  label(record) {
    return {
      id: record.id,
      node_id: nodeId('LA', `${this.state.fullName.toLowerCase()}:${record.name.toLowerCase()}`),
      url: `${this.repoApi}/labels/${encodeURIComponent(record.name)}`,
      name: record.name,
      color: record.color,
      default: record.default,
      description: record.description,
    };
  }

  // ---- pull requests and issues ---------------------------------------------

  pullUrls(pull) {
    const n = pull.number;
    const api = `${this.repoApi}/pulls/${n}`;
    return {
      url: api,
      html_url: `${this.repoHtml}/pull/${n}`,
      diff_url: `${this.repoHtml}/pull/${n}.diff`,
      patch_url: `${this.repoHtml}/pull/${n}.patch`,
      issue_url: `${this.repoApi}/issues/${n}`,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: `${this.repoApi}/pulls/comments{/number}`,
      comments_url: `${this.repoApi}/issues/${n}/comments`,
      statuses_url: `${this.repoApi}/statuses/${pull.head.sha}`,
    };
  }

  pullCore(pull) {
    const s = this.state;
    const urls = this.pullUrls(pull);
    const closed = !s.isOpen(pull) || pull.merged === true;
    const updated = s.updatedAt(pull);
    const headRepo = s.headRepository(pull);
    const headOwner = headRepo ? headRepo.split('/')[0] : null;
    return {
      url: urls.url,
      id: s.pullDatabaseId(pull),
      node_id: nodeId('PR', `${s.fullName.toLowerCase()}#${pull.number}`),
      html_url: urls.html_url,
      diff_url: urls.diff_url,
      patch_url: urls.patch_url,
      issue_url: urls.issue_url,
      number: pull.number,
      state: closed ? 'closed' : 'open',
      locked: false,
      title: pull.title ?? `Pull request #${pull.number}`,
      user: this.user(pull.author),
      body: pull.body ?? null,
      labels: s.pullLabels(pull).map((l) => this.label(l)),
      milestone: null,
      active_lock_reason: null,
      created_at: s.createdAt(pull),
      updated_at: updated,
      closed_at: closed ? (pull.closed_at ?? updated) : null,
      merged_at: pull.merged ? (pull.merged_at ?? updated) : null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      draft: pull.draft === true,
      commits_url: urls.commits_url,
      review_comments_url: urls.review_comments_url,
      review_comment_url: urls.review_comment_url,
      comments_url: urls.comments_url,
      statuses_url: urls.statuses_url,
      head: {
        label: `${headOwner ?? 'unknown'}:${s.headRef(pull)}`,
        ref: s.headRef(pull),
        sha: pull.head.sha,
        user: headOwner ? this.user(headOwner) : null,
        repo: this.repo(headRepo),
      },
      base: {
        label: `${s.owner}:${s.baseRef(pull)}`,
        ref: s.baseRef(pull),
        sha: s.baseSha(pull),
        user: this.user(s.owner),
        repo: this.repo(),
      },
      _links: {
        self: { href: urls.url },
        html: { href: urls.html_url },
        issue: { href: urls.issue_url },
        comments: { href: urls.comments_url },
        review_comments: { href: urls.review_comments_url },
        review_comment: { href: urls.review_comment_url },
        commits: { href: urls.commits_url },
        statuses: { href: urls.statuses_url },
      },
      author_association: 'CONTRIBUTOR',
      auto_merge: null,
    };
  }

  /** An item of GET /pulls. */
  pullSimple(pull) {
    const core = this.pullCore(pull);
    // GitHub's published schema (pull-request-simple) types these label descriptions as non-null strings.
    core.labels = core.labels.map((l) => ({ ...l, description: l.description ?? '' }));
    return core;
  }

  /** GET /pulls/{n}. */
  pull(pull) {
    const s = this.state;
    return {
      ...this.pullCore(pull),
      merged: pull.merged === true,
      mergeable: null,
      rebaseable: null,
      mergeable_state: 'unknown',
      merged_by: null,
      comments: (pull.comments ?? []).length,
      review_comments: Array.isArray(pull.review_comments) ? pull.review_comments.length : s.threads(pull).reduce((n, t) => n + (t.comments ?? 1), 0),
      maintainer_can_modify: false,
      commits: s.commits(pull).length,
      additions: s.files(pull).reduce((n, f) => n + diffCounts(f.patch).additions, 0),
      deletions: s.files(pull).reduce((n, f) => n + diffCounts(f.patch).deletions, 0),
      changed_files: s.files(pull).length,
    };
  }

  /** GET /issues/{n} for a pull request. */
  issue(pull) {
    const core = this.pullCore(pull);
    return {
      url: core.issue_url,
      repository_url: this.repoApi,
      labels_url: `${core.issue_url}/labels{/name}`,
      comments_url: core.comments_url,
      events_url: `${core.issue_url}/events`,
      html_url: core.html_url,
      id: core.id,
      node_id: core.node_id,
      number: core.number,
      title: core.title,
      user: core.user,
      labels: core.labels,
      state: core.state,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: (pull.comments ?? []).length,
      created_at: core.created_at,
      updated_at: core.updated_at,
      closed_at: core.closed_at,
      author_association: core.author_association,
      active_lock_reason: null,
      draft: core.draft,
      pull_request: {
        url: core.url,
        html_url: core.html_url,
        diff_url: core.diff_url,
        patch_url: core.patch_url,
        merged_at: core.merged_at,
      },
      body: core.body,
      state_reason: null,
    };
  }

  // ---- comments, timeline, reviews ------------------------------------------

  commentHtmlUrl(pull, comment) {
    return comment.html_url ?? `${this.repoHtml}/pull/${pull.number}#issuecomment-${comment.id}`;
  }

  comment(pull, comment) {
    return {
      url: `${this.repoApi}/issues/comments/${comment.id}`,
      html_url: this.commentHtmlUrl(pull, comment),
      issue_url: `${this.repoApi}/issues/${pull.number}`,
      id: comment.id,
      node_id: nodeId('IC', comment.id),
      user: this.user(comment.author),
      created_at: comment.created_at ?? this.state.createdAt(pull),
      updated_at: comment.updated_at ?? comment.edited_at ?? comment.created_at ?? this.state.createdAt(pull),
      author_association: 'NONE',
      body: comment.body ?? '',
      reactions: {
        url: `${this.repoApi}/issues/comments/${comment.id}/reactions`,
        total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0,
      },
      performed_via_github_app: null,
    };
  }

  timelineEvent(pull, event) {
    const out = {
      id: event.id,
      node_id: nodeId(eventPrefix(event.event), event.id),
      url: `${this.repoApi}/issues/events/${event.id}`,
      actor: this.user(event.actor ?? null),
      event: event.event,
      commit_id: event.commit_id ?? null,
      commit_url: event.commit_id ? `${this.repoApi}/commits/${event.commit_id}` : null,
      created_at: event.created_at ?? this.state.createdAt(pull),
      performed_via_github_app: null,
    };
    if (event.event === 'labeled' || event.event === 'unlabeled') {
      const record = this.state.findRepoLabel(event.label ?? '') ?? this.state.labelRecord(event.label ?? '');
      out.label = { name: event.label ?? '', color: record.color };
    }
    if (event.event === 'review_dismissed') {
      out.dismissed_review = {
        state: (event.previous_state ?? 'approved').toLowerCase(),
        review_id: event.review_id ?? null,
        dismissal_message: event.dismissal_message ?? null,
        dismissal_commit_id: event.dismissal_commit_id ?? null,
      };
    }
    return out;
  }

  review(pull, review) {
    const pullUrl = `${this.repoApi}/pulls/${pull.number}`;
    const html = review.html_url ?? `${this.repoHtml}/pull/${pull.number}#pullrequestreview-${review.id}`;
    const out = {
      id: review.id,
      node_id: nodeId('PRR', review.id),
      user: this.user(review.author),
      body: review.body ?? '',
      state: review.state ?? 'COMMENTED',
      html_url: html,
      pull_request_url: pullUrl,
      author_association: 'MEMBER',
      _links: { html: { href: html }, pull_request: { href: pullUrl } },
      commit_id: review.commit_id ?? null,
    };
    if (review.submitted_at) out.submitted_at = review.submitted_at;
    return out;
  }

  // ---- review comments and files (PUBLISH.md §8) -----------------------------

  /** The diff hunk GitHub shows with a review comment: its hunk up to the commented line. */
  diffHunk(pull, rc) {
    const file = this.state.findFile(pull, rc.path);
    const found = file ? resolveDiffLine(file.patch, rc.line, rc.side ?? 'RIGHT') : null;
    if (!found) return file?.patch ? file.patch.split('\n')[0] : `@@ -1 +1 @@`;
    return found.text.slice(0, found.line.index + 1).join('\n');
  }

  /** GET /pulls/{n}/comments, GET /pulls/comments/{id} (`pull-request-review-comment`). */
  reviewComment(pull, rc) {
    const api = `${this.repoApi}/pulls/comments/${rc.id}`;
    const html = rc.html_url ?? `${this.repoHtml}/pull/${pull.number}#discussion_r${rc.id}`;
    const pullUrl = `${this.repoApi}/pulls/${pull.number}`;
    const file = this.state.findFile(pull, rc.path);
    const found = file && rc.line != null ? resolveDiffLine(file.patch, rc.line, rc.side ?? 'RIGHT') : null;
    const created = rc.created_at ?? this.state.createdAt(pull);
    const out = {
      url: api,
      pull_request_review_id: rc.review_id ?? null,
      id: rc.id,
      node_id: nodeId('PRRC', rc.id),
      diff_hunk: this.diffHunk(pull, rc),
      path: rc.path ?? '',
      commit_id: rc.commit_id ?? pull.head.sha,
      original_commit_id: rc.commit_id ?? pull.head.sha,
      user: this.user(rc.author ?? null),
      body: rc.body ?? '',
      created_at: created,
      updated_at: rc.updated_at ?? created,
      html_url: html,
      pull_request_url: pullUrl,
      author_association: 'MEMBER',
      _links: { self: { href: api }, html: { href: html }, pull_request: { href: pullUrl } },
      start_line: rc.start_line ?? null,
      original_start_line: rc.start_line ?? null,
      start_side: rc.start_line != null ? (rc.start_side ?? rc.side ?? 'RIGHT') : null,
      side: rc.side ?? 'RIGHT',
      subject_type: 'line',
      reactions: {
        url: `${api}/reactions`,
        total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0,
      },
    };
    // GitHub omits what an outdated comment no longer has (the schema types them non-null).
    if (found) {
      out.position = found.line.position;
      out.original_position = found.line.position;
    }
    if (rc.line != null) {
      out.line = rc.line;
      out.original_line = rc.line;
    }
    if (rc.in_reply_to != null) out.in_reply_to_id = rc.in_reply_to;
    return out;
  }

  /** GET /pulls/{n}/reviews/{id}/comments (`review-comment`: position required, nullable). */
  reviewCommentOfReview(pull, rc) {
    const out = this.reviewComment(pull, rc);
    out.position ??= null;
    out.original_position ??= out.position ?? 1;
    return out;
  }

  /** GET /pulls/{n}/files (`diff-entry`). */
  diffEntry(pull, file) {
    const { additions, deletions } = diffCounts(file.patch);
    const blob = fakeSha(`${this.state.fullName.toLowerCase()}:blob:${pull.head.sha}:${file.filename}`);
    const path = file.filename.split('/').map(encodeURIComponent).join('/');
    const out = {
      sha: file.status === 'removed' ? null : blob,
      filename: file.filename,
      status: file.status ?? 'modified',
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: `${this.repoHtml}/blob/${pull.head.sha}/${path}`,
      raw_url: `${this.repoHtml}/raw/${pull.head.sha}/${path}`,
      contents_url: `${this.repoApi}/contents/${path}?ref=${pull.head.sha}`,
    };
    if (typeof file.patch === 'string') out.patch = file.patch;
    if (typeof file.previous_filename === 'string') out.previous_filename = file.previous_filename;
    return out;
  }

  // ---- commits and statuses -----------------------------------------------

  commit(sha) {
    const parent = this.state.parentOf(sha);
    const signature = { name: 'fakehub', email: 'fakehub@example.invalid', date: '2020-01-01T00:00:00Z' };
    return {
      sha,
      node_id: nodeId('C', sha),
      commit: {
        author: signature,
        committer: signature,
        message: `commit ${sha.slice(0, 7)}`,
        tree: { sha: sha.split('').reverse().join(''), url: `${this.repoApi}/git/trees/${sha.split('').reverse().join('')}` },
        url: `${this.repoApi}/git/commits/${sha}`,
        comment_count: 0,
        verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
      },
      url: `${this.repoApi}/commits/${sha}`,
      html_url: `${this.repoHtml}/commit/${sha}`,
      comments_url: `${this.repoApi}/commits/${sha}/comments`,
      author: null,
      committer: null,
      parents: parent ? [{ sha: parent, url: `${this.repoApi}/commits/${parent}`, html_url: `${this.repoHtml}/commit/${parent}` }] : [],
    };
  }

  status(sha, status) {
    const creator = this.user(status.creator ?? null);
    return {
      url: `${this.repoApi}/statuses/${sha}`,
      avatar_url: creator.avatar_url,
      id: status.id,
      node_id: nodeId('SC', status.id),
      state: status.state,
      description: status.description ?? null,
      target_url: status.target_url ?? null,
      context: status.context ?? 'default',
      created_at: status.created_at ?? '2020-01-01T00:00:00Z',
      updated_at: status.updated_at ?? status.created_at ?? '2020-01-01T00:00:00Z',
      creator,
    };
  }

  combinedStatus(sha) {
    const latest = this.state.latestStatusPerContext(sha);
    return {
      state: this.state.combinedState(sha),
      statuses: latest.map((s) => this.status(sha, s)),
      sha,
      total_count: latest.length,
      repository: this.repo(),
      commit_url: `${this.repoApi}/commits/${sha}`,
      url: `${this.repoApi}/commits/${sha}/status`,
    };
  }

  comparison(base, head, result) {
    const basehead = `${base}...${head}`;
    return {
      url: `${this.repoApi}/compare/${basehead}`,
      html_url: `${this.repoHtml}/compare/${basehead}`,
      permalink_url: `${this.repoHtml}/compare/${this.state.owner}:${result.base_sha}...${this.state.owner}:${result.head_sha}`,
      diff_url: `${this.repoHtml}/compare/${basehead}.diff`,
      patch_url: `${this.repoHtml}/compare/${basehead}.patch`,
      base_commit: this.commit(result.base_sha),
      merge_base_commit: this.commit(result.merge_base_sha ?? result.base_sha),
      status: result.status,
      ahead_by: result.ahead_by,
      behind_by: result.behind_by,
      total_commits: result.ahead_by,
      commits: result.commits.slice(0, 250).map((sha) => this.commit(sha)),
      files: [],
    };
  }

  // ---- errors ---------------------------------------------------------------

  error(status, message, extra = {}) {
    return { message, documentation_url: this.docs(), status: String(status), ...extra };
  }
}

const EVENT_PREFIXES = {
  labeled: 'LE', unlabeled: 'UNLE', base_ref_changed: 'BRCE', review_dismissed: 'RDE',
  head_ref_force_pushed: 'HRFPE', closed: 'CE', reopened: 'REE', merged: 'ME',
};

export function eventPrefix(event) {
  return EVENT_PREFIXES[event] ?? 'E';
}
