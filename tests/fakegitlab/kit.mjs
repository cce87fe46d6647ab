// Helpers of the fake GitLab's tests: start a server in-process on a
// snapshot, call it, read its log. Outside test/ so the runner does not
// take it for a test file.
import { readFileSync } from 'node:fs';
import { FakeGitlab } from './lib/app.mjs';

export const SNAPSHOT = JSON.parse(readFileSync(new URL('./test/mr.json', import.meta.url), 'utf8'));
export const P = '/api/v4/projects/platform%2Fbackend%2Fsvc';
export const MR = `${P}/merge_requests/7`;
export const HEAD = '7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e';
export const REFS = { base_sha: 'babababababababababababababababababababa', start_sha: 'bcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbc', head_sha: HEAD };

export async function start(patch = (s) => s) {
  const fake = new FakeGitlab(patch(structuredClone(SNAPSHOT)));
  const base = await fake.listen(0);
  const call = async (method, path, { body, token = 'tok', headers = {}, form } = {}) => {
    const h = { ...headers };
    if (token !== null) h['private-token'] = token;
    let payload;
    if (form !== undefined) {
      h['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      h['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(base + path, { method, headers: h, body: payload });
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = text; }
    return { status: res.status, headers: res.headers, json, text };
  };
  return { fake, base, call, stop: () => fake.close() };
}
