// A programmable HTTP front for fakehub, to play the parts of GitHub that
// fakehub does not: an API under a path prefix (GitHub Enterprise Server's
// /api/v3 and /api/graphql), Link headers in GitHub's /repositories/{id}/
// form, redirects. `intercept(req, url)` may answer a request itself
// ({status, headers, body}) or return null to forward it.
import http from 'node:http';

export class FrontProxy {
  /**
   * @param {string} upstream  fakehub's base URL
   * @param {object} options
   * @param {string} [options.prefix]  REST path prefix the program uses ('/api/v3')
   * @param {string} [options.graphqlPath]  GraphQL path the program uses ('/api/graphql')
   * @param {(link: string, self: FrontProxy) => string} [options.rewriteLink]
   * @param {(req, url: URL, self: FrontProxy) => object|null} [options.intercept]
   * @param {(req, url: URL, status: number) => 'drop'|object|null} [options.afterAnswer]
   *   after upstream answered (a write has landed): 'drop' closes the
   *   connection without an answer, 'hang' never answers, an object
   *   {status, body} replaces the answer
   */
  constructor(upstream, { prefix = '', graphqlPath = '/graphql', rewriteLink = null, intercept = null, afterAnswer = null } = {}) {
    this.afterAnswer = afterAnswer;
    this.upstream = upstream;
    this.prefix = prefix;
    this.graphqlPath = graphqlPath;
    this.rewriteLink = rewriteLink;
    this.intercept = intercept;
    this.seen = [];
  }

  /** Map a URL of the upstream to the proxy's public form. */
  publicUrl(u) {
    return u.split(this.upstream).join(`${this.url}${this.prefix}`);
  }

  async listen() {
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks)));
    });
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}`;
    return this.url;
  }

  handle(req, res, body) {
    const url = new URL(req.url, this.url);
    this.seen.push({ method: req.method, path: url.pathname, query: url.search });
    const own = this.intercept?.(req, url, this);
    if (own) {
      res.writeHead(own.status, { 'content-type': 'application/json', ...(own.headers ?? {}) });
      res.end(own.body ?? '');
      return;
    }
    let upstreamPath;
    if (url.pathname === this.graphqlPath) upstreamPath = '/graphql';
    else if (this.prefix && url.pathname.startsWith(`${this.prefix}/`)) upstreamPath = url.pathname.slice(this.prefix.length);
    else if (!this.prefix) upstreamPath = url.pathname;
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"Not Found (outside the API prefix)"}');
      return;
    }
    const target = new URL(upstreamPath + url.search, this.upstream);
    const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      const headers = { ...answer.headers };
      if (typeof headers.link === 'string') {
        headers.link = this.publicUrl(headers.link);
        if (this.rewriteLink) headers.link = this.rewriteLink(headers.link, this);
      }
      if (typeof headers.location === 'string') headers.location = this.publicUrl(headers.location);
      const out = [];
      answer.on('data', (c) => out.push(c));
      answer.on('end', () => {
        const replace = this.afterAnswer?.(req, url, answer.statusCode);
        if (replace === 'drop') {
          res.socket?.destroy();
          return;
        }
        if (replace === 'hang') return; // never answered (the client times out)
        if (replace) {
          res.writeHead(replace.status, { 'content-type': 'application/json' });
          res.end(replace.body ?? '');
          return;
        }
        const buf = Buffer.concat(out);
        headers['content-length'] = String(buf.length);
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode, headers);
        res.end(buf);
      });
      answer.on('error', () => res.destroy());
    });
    up.on('error', () => res.destroy());
    res.on('close', () => { if (!res.writableEnded) up.destroy(); });
    up.end(body);
  }

  close() {
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }
}
