// A naive reader — NOT the reference pipeline: one REST list per resource per
// PR (the pull, the head's statuses, labels, comments, timeline, reviews)
// and one GraphQL query for the review threads' reply counts, every page
// followed: 7 requests per PR plus the listing, in one process. It only
// reads; what it measures is what reading every gate input costs without
// batching.
//
// The reference bash + gh + jq workflows cost about twice that: measured on
// the same fake GitHub (issue 13), 14.7 requests per swept PR — 8 REST
// requests and 4 GraphQL points per stamped PR on the workflow's
// GITHUB_TOKEN, plus the machine account's (PAT) requests — because every
// swept PR is a workflow run of its own that reads again what the sweep
// already read. Those figures are quoted in BENCHMARKS.md as measured
// facts (REFERENCE below), not modelled here.
export const NAIVE_MODEL = 'one REST read per resource per PR and one GraphQL query for its review threads: 7 requests per PR, plus the listing';

/** The reference workflows' measured costs (issue 13, same fake GitHub, one run). */
export const REFERENCE = Object.freeze({
  gate_approve_requests: 26, // ours: 5
  gate_approve_processes: 83, // bash, gh and jq processes started; ours: 1
  sweep50_requests: 733, // ours: 25
  sweep_requests_per_pr: 14.7, // 8 REST + 4 GraphQL points per stamped PR on GITHUB_TOKEN, + the PAT's
  sweep_rest_per_stamped_pr: 8,
  sweep_points_per_stamped_pr: 4,
  apply_requests: 4,
});

export async function naiveSweep(url, repo, { concurrency = 1 } = {}) {
  let requests = 0;
  const headers = { authorization: 'Bearer naive', accept: 'application/vnd.github+json' };
  async function get(path) {
    let next = url + path;
    const all = [];
    while (next) {
      requests++;
      const r = await fetch(next, { headers });
      const body = await r.json();
      if (Array.isArray(body)) all.push(...body);
      else return body;
      const link = r.headers.get('link') ?? '';
      const m = /<([^>]+)>;\s*rel="next"/.exec(link);
      next = m ? m[1] : null;
    }
    return all;
  }
  async function threads(number) {
    requests++;
    const q = `query{repository(owner:"${repo.split('/')[0]}",name:"${repo.split('/')[1]}"){pullRequest(number:${number}){reviewThreads(first:100){nodes{comments(first:1){totalCount}}}}}}`;
    const r = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: q }) });
    return r.json();
  }
  const pulls = await get(`/repos/${repo}/pulls?state=open&per_page=100`);
  let i = 0;
  async function worker() {
    while (i < pulls.length) {
      const p = pulls[i++];
      const n = p.number;
      const pull = await get(`/repos/${repo}/pulls/${n}`);
      await get(`/repos/${repo}/commits/${pull.head.sha}/statuses?per_page=100`);
      await get(`/repos/${repo}/issues/${n}/labels?per_page=100`);
      await get(`/repos/${repo}/issues/${n}/comments?per_page=100`);
      await get(`/repos/${repo}/issues/${n}/timeline?per_page=100`);
      await get(`/repos/${repo}/pulls/${n}/reviews?per_page=100`);
      await threads(n);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests, prs: pulls.length };
}
