// The naive strategy the reference pipeline used: one REST list per
// resource per PR (and GraphQL for the review threads), every page followed.
// It only reads — what we compare is what reading costs.
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
