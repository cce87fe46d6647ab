// A hostile front for fakehub (races2.test.mjs, adversarial.test.mjs): every
// request may be held or answered by the test (`before`, async), and every
// upstream answer may be rewritten before the program sees it (`transform`,
// async: the test may change fakehub's state between an answer and the
// program's next request). Link and Location headers are mapped to the
// proxy's own origin, as FrontProxy does, so pagination stays on the API
// origin the program was given.
import http from 'node:http';

export class HostileProxy {
  /**
   * @param {string} upstream  fakehub's base URL
   * @param {object} hooks
   * @param {(req, url: URL, body: Buffer, self) => Promise<object|null>|object|null} [hooks.before]
   *   before forwarding: return {status, headers, body} to answer instead
   * @param {(req, url: URL, answer: {status, headers, body: Buffer}, self) => Promise<object|null>|object|null} [hooks.transform]
   *   after upstream answered: return {status, headers, body} to replace the answer
   */
  constructor(upstream, { before = null, transform = null } = {}) {
    this.upstream = upstream;
    this.before = before;
    this.transform = transform;
    this.seen = [];
  }

  async listen() {
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        this.handle(req, res, Buffer.concat(chunks)).catch((e) => {
          this.error = e;
          res.destroy();
        });
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}`;
    return this.url;
  }

  publicUrl(u) {
    return u.split(this.upstream).join(this.url);
  }

  static send(res, { status = 200, headers = {}, body = '' }) {
    const buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    res.writeHead(status, { 'content-type': 'application/json', ...headers, 'content-length': String(buf.length) });
    res.end(buf);
  }

  /** Forward a request to fakehub; resolves {status, headers, body}. */
  forward(req, url, body) {
    return new Promise((resolve, reject) => {
      const target = new URL(url.pathname + url.search, this.upstream);
      const headers = { ...req.headers, host: target.host };
      delete headers['accept-encoding'];
      const up = http.request(target, { method: req.method, headers }, (answer) => {
        const out = [];
        answer.on('data', (c) => out.push(c));
        answer.on('end', () => {
          const h = { ...answer.headers };
          delete h['transfer-encoding'];
          delete h['content-length'];
          delete h.connection;
          delete h['keep-alive'];
          if (typeof h.link === 'string') h.link = this.publicUrl(h.link);
          if (typeof h.location === 'string') h.location = this.publicUrl(h.location);
          resolve({ status: answer.statusCode, headers: h, body: Buffer.concat(out) });
        });
        answer.on('error', reject);
      });
      up.on('error', reject);
      up.end(body);
    });
  }

  async handle(req, res, body) {
    const url = new URL(req.url, this.url);
    const entry = { method: req.method, path: url.pathname, query: url.search, body: body.toString('utf8'), ua: req.headers['user-agent'] ?? '' };
    this.seen.push(entry);
    const own = await this.before?.(req, url, body, this);
    if (own) return HostileProxy.send(res, own);
    const answer = await this.forward(req, url, body);
    const replaced = await this.transform?.(req, url, answer, this);
    return HostileProxy.send(res, replaced ?? answer);
  }

  close() {
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }
}

/**
 * A barrier: `wait()` resolves once `n` callers wait, or after `ms`. Before
 * releasing them, `onRelease(met)` runs once (met: all n arrived).
 */
export function barrier(n, ms = 8000, onRelease = null) {
  let count = 0;
  let release;
  let done = false;
  const gate = new Promise((resolve) => { release = resolve; });
  const open = async (met) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    b.met = met;
    try { await onRelease?.(met); } finally { release(); }
  };
  const timer = setTimeout(() => { open(false); }, ms);
  const b = {
    met: null,
    arrived: () => count,
    async wait() {
      count++;
      if (count === n) await open(true);
      await gate;
    },
  };
  return b;
}

export const isAgent = (e) => /^agentic-apply\//.test(e.ua ?? '');
