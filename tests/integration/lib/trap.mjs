// A trap for requests that must never be made. libcurl honours the
// `http_proxy` environment variable (and `no_proxy`), so a run with
//   http_proxy=<trap URL>  no_proxy=127.0.0.1,localhost
// reaches fakehub on 127.0.0.1 directly, while any request to another host
// (fakehub's off-host Link target `evil.invalid`, say) lands here and is
// recorded with its headers instead of failing unseen in DNS.
import http from 'node:http';

export class Trap {
  constructor() {
    this.requests = [];
    this.url = null;
  }

  async listen() {
    this.server = http.createServer((req, res) => {
      this.requests.push({ method: req.method, url: req.url, headers: { ...req.headers } });
      req.resume();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"trap: this request must never be made"}');
    });
    this.server.on('connect', (req, socket) => {
      this.requests.push({ method: 'CONNECT', url: req.url, headers: { ...req.headers } });
      socket.destroy();
    });
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}`;
    return this.url;
  }

  /** Environment that routes every non-loopback request of libcurl here. */
  env() {
    return { http_proxy: this.url, https_proxy: this.url, no_proxy: '127.0.0.1,localhost' };
  }

  clear() { this.requests = []; }

  close() {
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }
}
