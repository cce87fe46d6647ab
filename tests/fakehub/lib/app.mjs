// The fake GitHub: request handling, authentication, rate limits, faults,
// latency, the request log and the /_fakehub control endpoints; listens for
// HTTP/1.1 and cleartext HTTP/2 (prior knowledge) on one port, or TLS with ALPN.
import http, { STATUS_CODES } from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';

import { State, SnapshotError } from './state.mjs';
import {
  FaultAbort, FaultBook, FaultGate, FaultSpecError, LOST_RESPONSE_STATUS, faultEffect, validateFaults,
} from './faults.mjs';
import { Shapes } from './shapes.mjs';
import { matchRoute } from './rest.mjs';
import { runGraphql } from './graphql.mjs';
import {
  MSG_BAD_CREDENTIALS, MSG_JWT_UNDECODABLE, TokenBook, classifyCredential, jwtClaims, verifyJwt,
} from './appauth.mjs';
import { clock, nowIso, sleep, stableInt } from './util.mjs';

const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const MAX_BODY = 16 * 1024 * 1024;
const OFFHOST = 'evil.invalid';

class RateWindow {
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    this.start = Date.now();
  }

  roll() {
    if (Date.now() >= this.resetEpoch() * 1000) {
      this.used = 0;
      this.start = Date.now();
    }
  }

  resetEpoch() { return Math.floor(this.start / 1000) + 3600; }
  remaining() { this.roll(); return Math.max(0, this.limit - this.used); }
  consume(n = 1) { this.roll(); this.used += n; }
}

function parseBody(buffer) {
  if (!buffer.length) return null;
  const text = buffer.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class FakeHub {
  /**
   * @param {object} options
   * @param {object} options.snapshot  the initial state (SNAPSHOT.md §2)
   * @param {number} [options.latencyMs] delay added to every API response
   * @param {{cert: Buffer|string, key: Buffer|string}} [options.tls] serve HTTPS (ALPN h2 and http/1.1)
   */
  constructor({ snapshot, latencyMs = 0, tls = null }) {
    this.latencyMs = latencyMs;
    this.tls = tls;
    this.log = [];
    this.sockets = new Set();
    this.hanging = new Set();
    this.base = null;
    this.port = null;
    /** Installation tokens issued (kept across state loads, like the log). */
    this.tokens = new TokenBook();
    this.setState(snapshot);
  }

  // ---- state -----------------------------------------------------------------

  setState(snapshot) {
    this.state = new State(snapshot);
    this.faultBook = new FaultBook(this.state.faults);
    this.rateLimits = {
      rest: new RateWindow(this.state.rateLimit('rest')),
      graphql: new RateWindow(this.state.rateLimit('graphql')),
    };
    this.shapes = new Shapes(this.state, this.base);
  }

  setFaults(list) {
    validateFaults(list);
    if (list.length) this.state.data.faults = structuredClone(list);
    else delete this.state.data.faults;
    this.faultBook = new FaultBook(this.state.faults);
  }

  rateLimitResource() {
    const view = (w) => ({ limit: w.limit, used: w.used, remaining: w.remaining(), reset: w.resetEpoch() });
    const core = view(this.rateLimits.rest);
    const idle = (limit) => ({ limit, used: 0, remaining: limit, reset: this.rateLimits.rest.resetEpoch() });
    return {
      resources: {
        core,
        graphql: view(this.rateLimits.graphql),
        search: idle(30),
        code_search: idle(10),
        integration_manifest: idle(5000),
      },
      rate: core,
    };
  }

  // ---- listening -----------------------------------------------------------------

  async listen(port = 0, host = '127.0.0.1') {
    const handler = (req, res) => {
      this.handle(req, res).catch((err) => {
        process.stderr.write(`fakehub: ${req.method} ${req.url}: ${err.stack ?? err}\n`);
        try {
          if (!res.headersSent) this.send(req, res, { status: 500, body: { message: `fakehub internal error: ${err.message}` } });
        } catch {
          res.destroy?.();
        }
      });
    };
    if (this.tls) {
      this.server = http2.createSecureServer({ ...this.tls, allowHTTP1: true }, handler);
      this.server.on('connection', (socket) => this.track(socket));
    } else {
      this.h1 = http.createServer(handler);
      // Idle keep-alive connections outlive the client's (undici, 4 s):
      // with node's default of 5 s, a busy machine lets a test's next
      // control request meet a socket the server is just closing ("fetch
      // failed", undici issue 3141). The client closes first this way.
      this.h1.keepAliveTimeout = 60000;
      this.h2 = http2.createServer({}, handler);
      this.server = net.createServer((socket) => {
        this.track(socket);
        this.sniff(socket);
      });
    }
    await new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = this.server.address().port;
    this.base = `${this.tls ? 'https' : 'http'}://${host}:${this.port}`;
    this.shapes.base = this.base;
    return this.base;
  }

  track(socket) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Routes a cleartext connection to the HTTP/2 server when it opens with the h2 preface. */
  sniff(socket) {
    let seen = Buffer.alloc(0);
    const onData = (chunk) => {
      seen = Buffer.concat([seen, chunk]);
      const n = Math.min(seen.length, H2_PREFACE.length);
      const h2 = seen.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
      if (h2 && seen.length < H2_PREFACE.length) return;
      socket.removeListener('data', onData);
      socket.pause();
      socket.unshift(seen);
      // The HTTP/2 session reads the unshifted preface itself; HTTP/1 needs the stream flowing.
      if (h2) this.h2.emit('connection', socket);
      else {
        this.h1.emit('connection', socket);
        socket.resume();
      }
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  }

  async close() {
    for (const res of this.hanging) res.destroy?.();
    this.hanging.clear();
    await new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  // ---- requests ------------------------------------------------------------------

  async handle(req, res) {
    const started = performance.now();
    const url = new URL(req.url, 'http://fakehub.invalid');
    const raw = await readBody(req);
    const body = parseBody(raw);
    if (url.pathname.startsWith('/_fakehub/') || url.pathname === '/_fakehub') {
      this.send(req, res, this.control(req.method, url.pathname, body, url.searchParams));
      return;
    }
    const entry = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      status: null,
      ms: null,
      actor: null,
    };
    // The request headers, shown only by `GET /_fakehub/log?headers=1` (they
    // hold the token: tests check where it went).
    Object.defineProperty(entry, 'headers', { value: { ...req.headers }, enumerable: false });
    this.log.push(entry);
    const response = this.dispatch(req, url, body, entry);
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    if (response.hang) {
      this.hanging.add(res);
      const forget = () => {
        this.hanging.delete(res);
        entry.aborted = true;
      };
      res.on('close', forget);
      return;
    }
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    entry.status = response.status;
    entry.ms = elapsed();
    res.on('close', () => { entry.ms = elapsed(); });
    this.send(req, res, response, url);
  }

  /** The response for one API request (a descriptor; `send` writes it). */
  dispatch(req, url, body, entry) {
    const isGraphql = url.pathname === '/graphql';
    const resource = isGraphql ? 'graphql' : 'core';
    if (isGraphql) entry.points = 0; // the points charged (runGraphql sets them)
    const unauthorized = (message) => ({ status: 401, body: this.shapes.error(401, message) });
    const cred = classifyCredential(req.headers.authorization);
    if (!cred.kind) {
      return unauthorized(isGraphql && !req.headers.authorization ? 'This endpoint requires you to be authenticated.' : cred.error);
    }
    entry.actor = cred.kind;
    const path = isGraphql ? null : this.canonicalPath(url.pathname);
    const match = isGraphql ? null : matchRoute(req.method, path);
    const routeAuth = match && !match.methodMismatch ? match.auth : null;
    // Who the request acts as: `login` is credited with its writes.
    const auth = { kind: cred.kind, token: cred.token, login: this.state.viewer, record: null };
    if (cred.kind === 'jwt') {
      const claims = jwtClaims(cred.token);
      if (claims) entry.jwt = claims;
      // GitHub: "if you are passing a JWT, you must use Authorization: Bearer".
      if (cred.scheme !== 'bearer') return unauthorized(MSG_BAD_CREDENTIALS);
      if (routeAuth !== 'jwt') return unauthorized(MSG_JWT_UNDECODABLE);
      const verdict = verifyJwt(cred.token, this.state.app, this.state.appKey, clock.now());
      if (!verdict.ok) return unauthorized(verdict.message);
      auth.login = this.state.app.botLogin;
    } else {
      if (routeAuth === 'jwt') return unauthorized(MSG_JWT_UNDECODABLE);
      if (cred.kind === 'app') {
        const now = clock.now();
        const checked = this.tokens.check(cred.token, now);
        if (checked.record) {
          entry.app_token = {
            n: checked.record.n,
            expires_at: nowIso(new Date(checked.record.expiresMs)),
            remaining_s: Math.round((checked.record.expiresMs - now) / 100) / 10,
          };
        }
        if (checked.error) return unauthorized(MSG_BAD_CREDENTIALS);
        auth.login = checked.record.login;
        auth.record = checked.record;
      } else if (routeAuth === 'installation') {
        return { status: 403, body: this.shapes.error(403, 'Resource not accessible by personal access token') };
      }
    }
    try {
      if (isGraphql) {
        if (req.method !== 'POST') return { status: 404, body: this.shapes.error(404, 'Not Found') };
        const out = runGraphql(this, body, auth, entry);
        return { ...out, headers: this.rateHeaders('graphql') };
      }
      const window = this.rateLimits.rest;
      const counted = url.pathname !== '/rate_limit';
      if (counted && window.remaining() <= 0) {
        return {
          status: 403,
          body: this.shapes.error(403, `API rate limit exceeded for user ID ${this.viewerId()}.`),
          headers: this.rateHeaders('core'),
        };
      }
      if (counted) window.consume(1);
      if (!match || match.methodMismatch) {
        return { status: 404, body: this.shapes.error(404, 'Not Found'), headers: this.rateHeaders('core') };
      }
      const gate = new FaultGate(this.faultBook, 'rest');
      const ctx = {
        hub: this, state: this.state, shapes: this.shapes, gate, auth, logEntry: entry,
        params: match.params, query: Object.fromEntries(url.searchParams), body,
      };
      const out = match.handler(ctx);
      // `lost_response`: the request was carried out (a write applied), its answer is lost.
      if (gate.lost) return this.faultResponse(gate.lost, resource);
      return { ...out, headers: { ...this.rateHeaders('core'), ...out.headers }, mangle: gate.mangle };
    } catch (err) {
      if (err instanceof FaultAbort) return this.faultResponse(err.fault, resource);
      throw err;
    }
  }

  /** `/repositories/{id}/…` (the form GitHub's Link headers sometimes use) → `/repos/{owner}/{name}/…`. */
  canonicalPath(path) {
    const m = /^\/repositories\/(\d+)(\/.*)?$/.exec(path);
    if (m && Number(m[1]) === this.state.repoId) return `/repos/${this.state.fullName}${m[2] ?? ''}`;
    return path;
  }

  viewerId() {
    return stableInt(`user:${this.state.viewer.toLowerCase()}`, 1000);
  }

  rateHeaders(resource) {
    const w = resource === 'graphql' ? this.rateLimits.graphql : this.rateLimits.rest;
    return {
      'x-ratelimit-limit': String(w.limit),
      'x-ratelimit-remaining': String(w.remaining()),
      'x-ratelimit-used': String(w.used),
      'x-ratelimit-reset': String(w.resetEpoch()),
      'x-ratelimit-resource': resource,
    };
  }

  faultResponse(fault, resource) {
    const effect = faultEffect(fault);
    const code = Number.isInteger(fault.status) ? fault.status : null;
    switch (effect) {
      case 'hang':
        return { hang: true };
      case 'lost_response':
        if (fault.status === 'timeout' || fault.status === 'hang') return { hang: true };
        return {
          status: code ?? LOST_RESPONSE_STATUS,
          headers: this.rateHeaders(resource),
          body: this.shapes.error(code ?? LOST_RESPONSE_STATUS, STATUS_CODES[code ?? LOST_RESPONSE_STATUS] ?? 'Server Error'),
        };
      case 'secondary_limit':
        return {
          status: code ?? 403,
          headers: { ...this.rateHeaders(resource), 'retry-after': String(fault.retry_after ?? 1) },
          body: this.shapes.error(code ?? 403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'),
        };
      case 'rate_limit': {
        const w = resource === 'graphql' ? this.rateLimits.graphql : this.rateLimits.rest;
        return {
          status: code ?? 403,
          headers: {
            ...this.rateHeaders(resource),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-used': String(w.limit),
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + (fault.retry_after ?? 1)),
          },
          body: this.shapes.error(code ?? 403, `API rate limit exceeded for user ID ${this.viewerId()}.`),
        };
      }
      default:
        return {
          status: code ?? 500,
          headers: this.rateHeaders(resource),
          body: this.shapes.error(code ?? 500, code === 404 ? 'Not Found' : (STATUS_CODES[code] ?? 'Server Error')),
        };
    }
  }

  // ---- control endpoints ------------------------------------------------------------

  control(method, path, body, params = new URLSearchParams()) {
    const bad = (message) => ({ status: 400, body: { message } });
    const route = `${method} ${path.replace(/\/$/, '')}`;
    try {
      switch (route) {
        case 'GET /_fakehub/state':
          return { status: 200, body: this.state.toSnapshot() };
        case 'POST /_fakehub/state':
          this.setState(body);
          return { status: 200, body: this.state.toSnapshot() };
        case 'GET /_fakehub/writes':
          return { status: 200, body: this.state.writes };
        case 'POST /_fakehub/writes/clear':
          this.state.writes = [];
          return { status: 204, body: null };
        case 'GET /_fakehub/faults':
          return { status: 200, body: this.state.faults };
        case 'POST /_fakehub/faults': {
          const list = Array.isArray(body) ? body : body?.faults;
          this.setFaults(list);
          return { status: 200, body: this.state.faults };
        }
        case 'GET /_fakehub/log':
          if (params.get('headers') === '1') return { status: 200, body: this.log.map((e) => ({ ...e, headers: e.headers })) };
          return { status: 200, body: this.log };
        case 'POST /_fakehub/log/clear':
          this.log = [];
          return { status: 204, body: null };
        case 'GET /_fakehub/clock':
          return { status: 200, body: this.clockView() };
        case 'POST /_fakehub/clock': {
          const ok = (v) => typeof v === 'number' && Number.isFinite(v);
          if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('clock: expected {"advance_s": N} or {"offset_s": N}');
          if (body.offset_s !== undefined && body.advance_s !== undefined) return bad('clock: give "advance_s" or "offset_s", not both');
          if (body.offset_s !== undefined) {
            if (!ok(body.offset_s)) return bad('clock.offset_s: expected a number of seconds');
            clock.offsetMs = Math.round(body.offset_s * 1000);
          } else if (body.advance_s !== undefined) {
            if (!ok(body.advance_s)) return bad('clock.advance_s: expected a number of seconds');
            clock.offsetMs += Math.round(body.advance_s * 1000);
          } else {
            return bad('clock: expected {"advance_s": N} or {"offset_s": N}');
          }
          return { status: 200, body: this.clockView() };
        }
        default:
          return { status: 404, body: { message: `no fakehub control endpoint ${route}` } };
      }
    } catch (err) {
      if (err instanceof SnapshotError || err instanceof FaultSpecError) return bad(err.message);
      throw err;
    }
  }

  clockView() {
    return { now: new Date(clock.now()).toISOString(), offset_s: clock.offsetMs / 1000 };
  }

  // ---- writing responses -------------------------------------------------------------

  linkHeader(url, pagination, origin) {
    const { page, lastPage } = pagination;
    const at = (p) => {
      const u = new URL(url.pathname + url.search, origin);
      u.searchParams.set('page', String(p));
      return u.toString();
    };
    const links = [];
    if (page > 1) links.push(`<${at(Math.min(page - 1, lastPage))}>; rel="prev"`);
    if (page < lastPage) links.push(`<${at(page + 1)}>; rel="next"`);
    if (page < lastPage) links.push(`<${at(lastPage)}>; rel="last"`);
    if (page > 1) links.push(`<${at(1)}>; rel="first"`);
    return links.join(', ');
  }

  /** Writes a response descriptor; a client that went away meanwhile is ignored. */
  send(req, res, response, url = null) {
    if (res.destroyed || res.stream?.destroyed || res.writableEnded) return;
    try {
      this.write(res, response, url);
    } catch (err) {
      if (!['ERR_HTTP2_INVALID_STREAM', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'].includes(err.code)) throw err;
    }
  }

  write(res, response, url) {
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': randomUUID(),
      // fakehub's clock (POST /_fakehub/clock), as GitHub's Date header gives its own.
      date: new Date(clock.now()).toUTCString(),
      'x-github-media-type': 'github.v3; format=json',
      ...Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
    const mangle = response.mangle ? faultEffect(response.mangle) : null;
    if (response.pagination && url) {
      const link = this.linkHeader(url, response.pagination, this.base);
      if (link) headers.link = link;
    }
    if (mangle === 'offhost_link' && url) {
      const evil = `http://${OFFHOST}:${this.port}`;
      const page = response.pagination?.page ?? 1;
      headers.link = this.linkHeader(url, { page, lastPage: Math.max(page + 1, response.pagination?.lastPage ?? 0) }, evil);
    }
    if (response.status === 204 || response.body === null || response.body === undefined) {
      delete headers['content-type'];
      res.writeHead(response.status, headers);
      res.end();
      return;
    }
    let payload = Buffer.from(JSON.stringify(response.body));
    if (mangle === 'invalid_json') {
      payload = Buffer.concat([payload.subarray(0, Math.floor(payload.length / 2)), Buffer.from('<fakehub: invalid json>')]);
    }
    headers['content-length'] = String(payload.length);
    res.writeHead(response.status, headers);
    if (mangle === 'truncated') {
      res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => {
        if (res.stream) res.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        else res.socket?.destroy();
      });
      return;
    }
    res.end(payload);
  }
}
