// GitHub App authentication: the snapshot's `app` extension, JWT verification
// (RS256 with node:crypto), installation tokens, and which kind of credential
// a request carries. GitHub's rules, as its documentation states them
// ("Generating a JSON Web Token (JWT) for a GitHub App", "Create an
// installation access token for an app"): a JWT is signed RS256, `iss` is the
// App's id or client id, `exp` is no more than 10 minutes into the future; an
// installation token lasts one hour and an expired one answers 401.
import { createPublicKey, randomInt, verify } from 'node:crypto';

import { stableInt } from './util.mjs';

/** Seconds a JWT's `iat` may lie in fakehub's future (clock skew). */
export const JWT_IAT_SKEW_S = 60;
/** GitHub: `exp` "must be no more than 10 minutes into the future". */
export const JWT_MAX_FUTURE_S = 600;
/** GitHub: installation tokens expire one hour after they are created. */
export const DEFAULT_TOKEN_TTL_S = 3600;

export const MSG_JWT_UNDECODABLE = 'A JSON web token could not be decoded';
export const MSG_IAT = "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
export const MSG_EXP_PAST = "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
export const MSG_EXP_FAR = "'Expiration time' claim ('exp') is too far in the future";
export const MSG_BAD_CREDENTIALS = 'Bad credentials';
export const MSG_INTEGRATION = 'Resource not accessible by integration';

/** fakehub's installation tokens: `ghs_` + 36 characters, the first two `fh` (so a stale one is recognised). */
const TOKEN_RE = /^ghs_fh[A-Za-z0-9]{34}$/;
const B64URL = /^[A-Za-z0-9_-]+$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class AppSpecError extends Error {}

function isInt(v) { return Number.isSafeInteger(v); }

/**
 * Checks the snapshot's `app` object; returns the parsed public key.
 * Throws AppSpecError naming the bad field.
 */
export function validateApp(app) {
  const fail = (field, message) => { throw new AppSpecError(`app.${field}: ${message}`); };
  if (app === null || typeof app !== 'object' || Array.isArray(app)) throw new AppSpecError('app: expected an object');
  if (!isInt(app.id) || app.id < 1) fail('id', 'expected a positive integer');
  if (typeof app.slug !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(app.slug)) fail('slug', 'expected an App slug such as "agentic-apply-bot"');
  if (app.name !== undefined && typeof app.name !== 'string') fail('name', 'expected a string');
  if (app.client_id !== undefined && (typeof app.client_id !== 'string' || !app.client_id)) fail('client_id', 'expected a non-empty string');
  if (app.installation_id !== undefined && app.installation_id !== null && !(isInt(app.installation_id) && app.installation_id > 0)) {
    fail('installation_id', 'expected a positive integer, or null (the App is not installed)');
  }
  if (app.token_ttl_s !== undefined && !(isInt(app.token_ttl_s) && app.token_ttl_s > 0)) fail('token_ttl_s', 'expected a positive integer');
  if (app.permissions !== undefined && (app.permissions === null || typeof app.permissions !== 'object' || Array.isArray(app.permissions))) {
    fail('permissions', 'expected an object such as {"statuses": "write"}');
  }
  if (typeof app.public_key !== 'string' || !app.public_key.includes('-----BEGIN')) fail('public_key', 'expected a PEM RSA public key');
  let key;
  try {
    key = createPublicKey(app.public_key);
  } catch (err) {
    fail('public_key', `not a usable PEM key (${err.message})`);
  }
  if (key.asymmetricKeyType !== 'rsa') fail('public_key', `expected an RSA key, got ${key.asymmetricKeyType}`);
  return key;
}

/** The App as fakehub uses it (defaults filled in). */
export function appView(app) {
  return {
    id: app.id,
    slug: app.slug,
    name: app.name ?? app.slug,
    clientId: app.client_id ?? `Iv1.${app.id.toString(16).padStart(16, '0')}`,
    // Absent: installed, with an id derived from the App's.
    installationId: app.installation_id === undefined ? stableInt(`installation:${app.id}`, 1000) : app.installation_id,
    ttlS: app.token_ttl_s ?? DEFAULT_TOKEN_TTL_S,
    permissions: app.permissions ?? {
      metadata: 'read', pull_requests: 'write', issues: 'write', statuses: 'write', contents: 'read',
    },
    botLogin: `${app.slug}[bot]`,
  };
}

// ---- credentials ----------------------------------------------------------------

/**
 * What an Authorization header carries:
 *   { kind: null, error }        no usable credential (the 401 to answer)
 *   { kind: 'jwt', scheme, token }
 *   { kind: 'app', scheme, token }   a token shaped like fakehub's installation tokens
 *   { kind: 'user', scheme, token }  any other non-empty token (a PAT)
 */
export function classifyCredential(header) {
  if (typeof header !== 'string' || !header.trim()) return { kind: null, error: 'Requires authentication' };
  const m = /^(bearer|token)\s+(\S+)/i.exec(header.trim());
  if (!m) return { kind: null, error: MSG_BAD_CREDENTIALS };
  const scheme = m[1].toLowerCase();
  const token = m[2];
  if (looksLikeJwt(token)) return { kind: 'jwt', scheme, token };
  if (TOKEN_RE.test(token)) return { kind: 'app', scheme, token };
  return { kind: 'user', scheme, token };
}

export function looksLikeJwt(token) {
  const parts = token.split('.');
  return parts.length === 3 && B64URL.test(parts[0]) && B64URL.test(parts[1]);
}

function decodeJson(segment) {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The JWT's readable claims for the request log (null when they do not decode). Never the signature. */
export function jwtClaims(token) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const claims = decodeJson(parts[1]);
  if (!claims) return null;
  const pick = (v) => (typeof v === 'number' || typeof v === 'string' ? v : null);
  return { iss: pick(claims.iss), iat: pick(claims.iat), exp: pick(claims.exp) };
}

function issMatches(iss, app) {
  if (typeof iss === 'number') return iss === app.id;
  if (typeof iss === 'string') return iss === String(app.id) || iss === app.clientId;
  return false;
}

/**
 * Verifies a JWT against the App. `nowMs` is fakehub's clock.
 * Returns { ok: true, claims } or { ok: false, message } (GitHub's 401 message).
 */
export function verifyJwt(token, app, publicKey, nowMs) {
  const undecodable = { ok: false, message: MSG_JWT_UNDECODABLE };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return undecodable;
  const header = decodeJson(parts[0]);
  const claims = decodeJson(parts[1]);
  if (!header || !claims) return undecodable;
  if (header.alg !== 'RS256') return undecodable;
  if (header.typ !== undefined && header.typ !== 'JWT') return undecodable;
  // The issuer picks the public key; an unknown one leaves nothing to verify with.
  if (!app || !publicKey || !issMatches(claims.iss, app)) return undecodable;
  let valid = false;
  try {
    valid = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'));
  } catch {
    valid = false;
  }
  if (!valid) return undecodable;
  const now = Math.floor(nowMs / 1000);
  const { iat, exp } = claims;
  if (!isInt(iat) || iat > now + JWT_IAT_SKEW_S) return { ok: false, message: MSG_IAT };
  if (!isInt(exp) || exp <= now) return { ok: false, message: MSG_EXP_PAST };
  if (exp - now > JWT_MAX_FUTURE_S) return { ok: false, message: MSG_EXP_FAR };
  return { ok: true, claims };
}

// ---- installation tokens ---------------------------------------------------------

/** Installation tokens issued by this server (kept across state loads, like the log). */
export class TokenBook {
  constructor() {
    this.tokens = new Map();
    this.count = 0;
  }

  issue({ app, nowMs, permissions, repositorySelection }) {
    let token;
    do {
      token = 'ghs_fh';
      for (let i = 0; i < 34; i += 1) token += BASE62[randomInt(BASE62.length)];
    } while (this.tokens.has(token));
    this.count += 1;
    const record = {
      n: this.count,
      installationId: app.installationId,
      appId: app.id,
      slug: app.slug,
      login: app.botLogin,
      issuedMs: nowMs,
      // Expires at the whole second `expires_at` names (GitHub gives whole seconds).
      expiresMs: Math.floor((nowMs + app.ttlS * 1000) / 1000) * 1000,
      permissions,
      repositorySelection,
      revoked: false,
    };
    this.tokens.set(token, record);
    return { token, record };
  }

  /** { record } for a usable token, or { error } (GitHub answers 401 Bad credentials). */
  check(token, nowMs) {
    const record = this.tokens.get(token);
    if (!record) return { error: 'unknown' };
    if (record.revoked) return { error: 'revoked', record };
    if (nowMs >= record.expiresMs) return { error: 'expired', record };
    return { record };
  }

  revoke(token) {
    const record = this.tokens.get(token);
    if (record) record.revoked = true;
  }
}
