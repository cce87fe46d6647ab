// Generated scenarios beyond the fixtures: lists long enough that every
// read has to paginate (GraphQL connections past 100 items, REST statuses
// past one page, a PR past GitHub's 250-commit list, more than 100 open
// PRs). Each is built from a fixture and says what the run must decide, so
// a live run is checked against replay AND against the intended outcome.
import { createHash } from 'node:crypto';

import { fixture } from './fixtures.mjs';

export const sha = (tag) => createHash('sha1').update(String(tag)).digest('hex');

const at = (minute) => new Date(Date.UTC(2026, 10, 29, 12, 0, 0) + minute * 60000).toISOString().replace('.000Z', 'Z');

function base() {
  return structuredClone(fixture('050-gate-all-hold-approve').snapshot);
}

function filler(n, from = 20000) {
  return Array.from({ length: n }, (_, i) => ({
    id: from + i, author: i % 3 ? 'dev1' : 'copilot-pull-request-reviewer[bot]', created_at: at(i % 50),
    body: `filler comment ${i}: <!-- head: ${sha(i)} --> not a verdict`, edited_by: null, edited_at: null,
  }));
}

function yesVerdict(id, head, minute) {
  return {
    id, author: 'lfx-reviewer', created_at: at(minute), edited_by: null, edited_at: null,
    body: `<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n<!-- head: ${head} -->\n<!-- base: main -->\nA human must look.`,
  };
}

export const SCENARIOS = [
  {
    name: 'comments: 230 before the verdicts are read to the end → approve',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.comments = [...filler(230, 100), ...p.comments.map((c) => ({ ...c, id: c.id + 10000 }))];
      return s;
    },
    outcome: 'approve',
  },
  {
    name: 'comments: a newer yes verdict on page 3 → withhold',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.comments = [...p.comments, ...filler(230), yesVerdict(30000, p.head.sha, 100)];
      return s;
    },
    outcome: 'withhold', condition: ['escalation', false],
  },
  {
    name: 'labels: needs-human is the 131st label → withhold',
    build() {
      const s = base();
      const names = Array.from({ length: 130 }, (_, i) => `area/${String(i).padStart(3, '0')}`);
      s.labels = [...s.labels, ...names];
      s.pulls[0].labels = [...names, 'needs-human'];
      return s;
    },
    outcome: 'withhold', condition: ['label_absent', false],
  },
  {
    name: 'labels: 130 other labels, no needs-human → approve',
    build() {
      const s = base();
      const names = Array.from({ length: 130 }, (_, i) => `area/${String(i).padStart(3, '0')}`);
      s.labels = [...s.labels, ...names];
      s.pulls[0].labels = names;
      return s;
    },
    outcome: 'approve',
  },
  {
    name: 'threads: the one unanswered thread is the 151st → withhold',
    build() {
      const s = base();
      const p = s.pulls[0];
      const more = Array.from({ length: 150 }, (_, i) => ({ id: `PRRT_gen${i}`, author: 'copilot-pull-request-reviewer', comments: 2 + (i % 3), resolved: i % 2 === 0 }));
      p.threads = [...p.threads, ...more, { id: 'PRRT_last', author: 'alice', comments: 1, resolved: false }];
      return s;
    },
    outcome: 'withhold', condition: ['threads_answered', false],
  },
  {
    name: 'threads: 250 answered threads → approve',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.threads = [...p.threads, ...Array.from({ length: 250 }, (_, i) => ({ id: `PRRT_gen${i}`, author: 'copilot', comments: 2, resolved: false }))];
      return s;
    },
    outcome: 'approve',
  },
  {
    name: 'reviews: a stale trusted approval after 120 other reviews is dismissed',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.labels = ['needs-human'];
      p.reviews = [
        ...Array.from({ length: 120 }, (_, i) => ({ id: 5000 + i, author: 'copilot-pull-request-reviewer[bot]', state: 'COMMENTED', commit_id: p.head.sha, submitted_at: at(i % 60) })),
        { id: 6000, author: 'alice', state: 'APPROVED', commit_id: p.commits[1], submitted_at: at(61) },
        { id: 6001, author: 'lfx-reviewer', state: 'APPROVED', commit_id: p.commits[1], submitted_at: at(62) },
      ];
      return s;
    },
    outcome: 'withhold', writes: [{ kind: 'dismiss', pr: 7, review_id: 6001 }],
  },
  {
    name: 'reviews: an approval on the head after 150 others → already approved, nothing posted',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.reviews = [
        ...Array.from({ length: 150 }, (_, i) => ({ id: 5000 + i, author: 'dev2', state: 'COMMENTED', commit_id: p.head.sha, submitted_at: at(i % 60) })),
        { id: 7001, author: 'lfx-reviewer', state: 'APPROVED', commit_id: p.head.sha, submitted_at: at(70) },
      ];
      return s;
    },
    outcome: 'approve', writes: [],
  },
  {
    name: 'timeline: an unauthorized unlabel after 150 events → withhold',
    build() {
      const s = base();
      const p = s.pulls[0];
      s.config = { unlabelers: ['alice'] };
      p.timeline = [
        ...Array.from({ length: 150 }, (_, i) => ({ id: 9000 + i, event: i % 2 ? 'unlabeled' : 'labeled', label: 'bug', actor: 'dev1', created_at: at(i % 30) })),
        { id: 9500, event: 'unlabeled', label: 'needs-human', actor: 'alice', created_at: at(40) },
        { id: 9501, event: 'unlabeled', label: 'needs-human', actor: 'mallory', created_at: at(41) },
      ];
      return s;
    },
    outcome: 'withhold', condition: ['escalation', false],
  },
  {
    name: 'timeline: a retarget after 150 events drops the verdict → withhold',
    build() {
      const s = base();
      const p = s.pulls[0];
      p.timeline = [
        ...Array.from({ length: 150 }, (_, i) => ({ id: 9000 + i, event: 'labeled', label: 'bug', actor: 'dev1', created_at: at(i % 30) })),
        { id: 9600, event: 'base_ref_changed', actor: 'dev1', created_at: '2026-11-29T10:30:00Z', previous_ref: 'release', current_ref: 'main' },
      ];
      return s;
    },
    outcome: 'withhold', condition: ['escalation', false],
  },
  {
    name: 'statuses: the clean status behind 250 newer statuses of other contexts → approve',
    build() {
      const s = base();
      const h = s.pulls[0].head.sha;
      s.statuses[h] = [
        ...s.statuses[h],
        ...Array.from({ length: 250 }, (_, i) => ({ id: 2000 + i, state: 'success', context: `ci/job-${i}`, description: 'ok', creator: 'github-actions[bot]', created_at: at(i % 60), target_url: null })),
      ];
      return s;
    },
    outcome: 'approve', condition: ['clean', true],
  },
  {
    name: 'statuses: a newer trusted failure behind 150 statuses of other contexts → withhold',
    build() {
      const s = base();
      const h = s.pulls[0].head.sha;
      s.statuses[h] = [
        ...s.statuses[h],
        { id: 1500, state: 'failure', context: 'agentic-review/clean', description: 'conductor pr=#7: clean=false', creator: 'lfx-reviewer', created_at: '2026-11-29T10:40:00Z', target_url: null },
        ...Array.from({ length: 150 }, (_, i) => ({ id: 2000 + i, state: 'success', context: `ci/job-${i}`, description: 'ok', creator: 'github-actions[bot]', created_at: at(i % 60), target_url: null })),
      ];
      return s;
    },
    outcome: 'withhold', condition: ['clean', false],
  },
  {
    name: 'commits: a verdict on the 6th of 300 commits is applied (R2 within the 250-commit list)',
    build() {
      const s = structuredClone(fixture('028-check-older-commit-head').snapshot);
      const p = s.pulls[0];
      const commits = Array.from({ length: 300 }, (_, i) => sha(`long-${i}`));
      const old = commits[5];
      commits[299] = p.head.sha;
      p.commits = commits;
      s.statuses = { [old]: s.statuses['0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d'], [p.head.sha]: s.statuses[p.head.sha] };
      const ev = s.event.payload.comment;
      ev.body = ev.body.replace('0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d', old);
      const c = p.comments.find((x) => x.id === ev.id);
      if (c) c.body = ev.body;
      return s;
    },
    apply: 'applied', writes: [{ kind: 'status', state: 'success' }],
  },
  {
    name: 'commits: a verdict on the 271st of 300 commits is applied (R2 past the 250-commit list: compare)',
    build() {
      const s = structuredClone(fixture('028-check-older-commit-head').snapshot);
      const p = s.pulls[0];
      const commits = Array.from({ length: 300 }, (_, i) => sha(`long-${i}`));
      const old = commits[270];
      commits[299] = p.head.sha;
      p.commits = commits;
      s.statuses = { [old]: s.statuses['0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d'], [p.head.sha]: s.statuses[p.head.sha] };
      const ev = s.event.payload.comment;
      ev.body = ev.body.replace('0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d', old);
      const c = p.comments.find((x) => x.id === ev.id);
      if (c) c.body = ev.body;
      return s;
    },
    apply: 'applied', writes: [{ kind: 'status', state: 'success' }], uses: 'compare',
  },
  {
    name: 'commits: a verdict on a commit outside a 300-commit PR is refused (R2)',
    build() {
      const s = structuredClone(fixture('028-check-older-commit-head').snapshot);
      const p = s.pulls[0];
      const commits = Array.from({ length: 300 }, (_, i) => sha(`long-${i}`));
      commits[299] = p.head.sha;
      p.commits = commits;
      const stranger = sha('not-in-the-pr');
      s.statuses = { [stranger]: s.statuses['0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d'], [p.head.sha]: s.statuses[p.head.sha] };
      const ev = s.event.payload.comment;
      ev.body = ev.body.replace('0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d', stranger);
      const c = p.comments.find((x) => x.id === ev.id);
      if (c) c.body = ev.body;
      return s;
    },
    apply: 'refused', writes: [], exit: 1, uses: 'compare',
  },
  {
    name: 'sweep: 130 open PRs, the approvable one last',
    build() {
      const s = base();
      const p7 = s.pulls[0];
      s.event = { name: 'schedule', payload: {} };
      const others = Array.from({ length: 129 }, (_, i) => ({
        number: 1000 + i, state: 'open', merged: false, draft: false, author: 'dev2',
        head: { sha: sha(`pr-${i}`), ref: `topic-${i}`, repository: s.repository }, base: { ref: 'main' },
        labels: [], commits: [sha(`pr-${i}`)], comments: [], timeline: [], threads: [], reviews: [],
      }));
      p7.number = 2000;
      for (const c of p7.comments) c.body = c.body.replaceAll('pr=#7:', 'pr=#2000:');
      for (const list of Object.values(s.statuses)) for (const st of list) st.description = st.description.replace('pr=#7:', 'pr=#2000:');
      s.pulls = [...others, p7];
      return s;
    },
    steps: 130, writes: [{ kind: 'approve', pr: 2000 }],
  },
];
