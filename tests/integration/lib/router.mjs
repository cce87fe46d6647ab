// A tiny HTTP router in front of Prism: the program refuses a GraphQL URL on
// another origin than its API URL (the token goes to both), so both point at
// this router. POST /graphql goes straight to fakehub (Prism has no GraphQL);
// everything else goes through Prism (`prism proxy --errors`), which checks
// the request and fakehub's answer against GitHub's OpenAPI description.
// Link and Location headers naming the upstream are rewritten to the
// router's origin, as a single GitHub origin would give them.
import http from 'node:http';

function forward(req, res, body, target, rewrite) {
  const url = new URL(req.url, target);
  const headers = { ...req.headers, host: url.host };
  const up = http.request(url, { method: req.method, headers }, (answer) => {
    const out = { ...answer.headers };
    for (const name of ['link', 'location']) {
      if (typeof out[name] === 'string') out[name] = rewrite(out[name]);
    }
    const chunks = [];
    answer.on('data', (c) => chunks.push(c));
    answer.on('end', () => {
      const buf = Buffer.concat(chunks);
      out['content-length'] = String(buf.length);
      delete out['transfer-encoding'];
      res.writeHead(answer.statusCode, out);
      res.end(buf);
      rewrite.record?.({ method: req.method, path: url.pathname, status: answer.statusCode, headers: answer.headers, body: buf.toString('utf8') });
    });
    answer.on('error', () => res.destroy());
  });
  up.on('error', () => res.destroy());
  res.on('close', () => { if (!res.writableEnded) up.destroy(); });
  up.end(body);
}

export class Router {
  /**
   * @param {string} hubUrl    fakehub's base URL (GraphQL)
   * @param {string} restUrl   Prism's base URL (REST)
   */
  constructor(hubUrl, restUrl) {
    this.hubUrl = hubUrl;
    this.restUrl = restUrl;
    this.url = null;
    this.rest = []; // every REST answer that came back through Prism
  }

  async listen() {
    const rewrite = (value) => value.split(this.hubUrl).join(this.url).split(this.restUrl).join(this.url);
    rewrite.record = (entry) => this.rest.push(entry);
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const graphql = new URL(req.url, 'http://x').pathname === '/graphql';
        forward(req, res, body, graphql ? this.hubUrl : this.restUrl, graphql ? (v) => rewrite(v) : rewrite);
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}`;
    return this.url;
  }

  clear() { this.rest = []; }

  close() {
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }
}
