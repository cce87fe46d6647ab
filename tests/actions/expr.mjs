// GitHub Actions expressions, evaluated the way the runner does, for the
// deployment rules (deployment.test.mjs): what a job's `if:` and its
// concurrency group come to for a given event. The language as GitHub
// documents it: literals (null, booleans, numbers, 'strings' with '' as the
// quote), property access (a.b, a['b'], case-insensitive), ! < <= > >= == !=
// && || and parentheses, and the functions contains, startsWith, endsWith,
// format, join, toJSON, fromJSON, hashFiles and the status functions.
// Loose equality converts to numbers across types; strings compare without
// case; && and || return an operand. Errors (an unknown function, invalid
// JSON in fromJSON, a bad format string) throw ExprError, as the runner
// fails the job.

export class ExprError extends Error {}

const PUNCT = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', ','];

function tokenize(src) {
  const out = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExprError(`unterminated string in ${src}`);
        if (src[i] === "'") {
          if (src[i + 1] === "'") { s += "'"; i += 2; continue; }
          i++;
          break;
        }
        s += src[i++];
      }
      out.push({ t: 'str', v: s });
      continue;
    }
    const num = /^(-?0x[0-9a-fA-F]+|-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)/.exec(src.slice(i));
    if (num && (c !== '-' || !out.length || ['op'].includes(out[out.length - 1].t))) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    const p = PUNCT.find((x) => src.startsWith(x, i));
    if (!p) throw new ExprError(`unexpected '${c}' in ${src}`);
    out.push({ t: 'op', v: p });
    i += p.length;
  }
  return out;
}

function parse(src) {
  const tk = tokenize(src);
  let k = 0;
  const peek = (v) => tk[k] && tk[k].t === 'op' && tk[k].v === v;
  const expect = (v) => {
    if (!peek(v)) throw new ExprError(`expected '${v}' in ${src}`);
    k++;
  };
  const binary = (next, ops) => () => {
    let left = next();
    while (tk[k] && tk[k].t === 'op' && ops.includes(tk[k].v)) {
      const op = tk[k++].v;
      left = { op, left, right: next() };
    }
    return left;
  };
  const primary = () => {
    const t = tk[k++];
    if (!t) throw new ExprError(`unexpected end of ${src}`);
    if (t.t === 'str' || t.t === 'num') return { lit: t.v };
    if (t.t === 'op' && t.v === '(') {
      const e = or();
      expect(')');
      return e;
    }
    if (t.t === 'id') {
      const low = t.v.toLowerCase();
      if (low === 'true' || low === 'false') return { lit: low === 'true' };
      if (low === 'null') return { lit: null };
      if (peek('(')) {
        k++;
        const args = [];
        if (!peek(')')) {
          args.push(or());
          while (peek(',')) { k++; args.push(or()); }
        }
        expect(')');
        return { call: low, args };
      }
      return { ctx: t.v };
    }
    throw new ExprError(`unexpected '${t.v}' in ${src}`);
  };
  const postfix = () => {
    let e = primary();
    for (;;) {
      if (peek('.')) {
        k++;
        const t = tk[k++];
        if (!t || t.t !== 'id') throw new ExprError(`expected a property name in ${src}`);
        e = { of: e, key: { lit: t.v } };
      } else if (peek('[')) {
        k++;
        const key = or();
        expect(']');
        e = { of: e, key };
      } else return e;
    }
  };
  const unary = () => {
    if (peek('!')) { k++; return { not: unary() }; }
    return postfix();
  };
  const cmp = binary(unary, ['<', '<=', '>', '>=']);
  const eq = binary(cmp, ['==', '!=']);
  const and = binary(eq, ['&&']);
  const or = binary(and, ['||']);
  const e = or();
  if (k !== tk.length) throw new ExprError(`trailing '${tk[k].v}' in ${src}`);
  return e;
}

const isObj = (v) => v !== null && typeof v === 'object';

export function truthy(v) {
  return !(v === null || v === undefined || v === false || v === 0 || v === '' || Number.isNaN(v));
}

function toNumber(v) {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v.trim());
  return NaN;
}

export function toStr(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v);
  if (typeof v === 'string') return v;
  return Array.isArray(v) ? 'Array' : 'Object';
}

function looseEq(a, b) {
  a ??= null;
  b ??= null;
  const kind = (v) => (v === null ? 'null' : isObj(v) ? 'object' : typeof v);
  const ta = kind(a);
  const tb = kind(b);
  if (ta === tb) {
    if (ta === 'string') return a.toLowerCase() === b.toLowerCase();
    return a === b;
  }
  if (ta === 'object' || tb === 'object') return false;
  const x = toNumber(a);
  const y = toNumber(b);
  return !Number.isNaN(x) && x === y;
}

function compare(op, a, b) {
  let x;
  let y;
  if (typeof a === 'string' && typeof b === 'string') {
    x = a.toLowerCase();
    y = b.toLowerCase();
  } else {
    x = toNumber(a);
    y = toNumber(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
  }
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function member(obj, key) {
  if (Array.isArray(obj)) {
    const i = toNumber(key);
    return Number.isInteger(i) && i >= 0 && i < obj.length ? obj[i] : null;
  }
  if (!isObj(obj)) return null;
  const want = toStr(key).toLowerCase();
  const k = Object.keys(obj).find((x) => x.toLowerCase() === want);
  return k === undefined ? null : obj[k];
}

function format(fmt, args) {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c === '{' && fmt[i + 1] === '{') { out += '{'; i++; continue; }
    if (c === '}' && fmt[i + 1] === '}') { out += '}'; i++; continue; }
    if (c === '{') {
      const m = /^\{(\d+)\}/.exec(fmt.slice(i));
      if (!m || Number(m[1]) >= args.length) throw new ExprError(`format: bad placeholder in '${fmt}'`);
      out += toStr(args[Number(m[1])]);
      i += m[0].length - 1;
      continue;
    }
    if (c === '}') throw new ExprError(`format: unmatched } in '${fmt}'`);
    out += c;
  }
  return out;
}

const FUNCTIONS = {
  contains: (s, x) => (Array.isArray(s) ? s.some((e) => looseEq(e, x)) : toStr(s).toLowerCase().includes(toStr(x).toLowerCase())),
  startswith: (s, x) => toStr(s).toLowerCase().startsWith(toStr(x).toLowerCase()),
  endswith: (s, x) => toStr(s).toLowerCase().endsWith(toStr(x).toLowerCase()),
  format: (f, ...a) => format(toStr(f), a),
  join: (a, sep = ',') => (Array.isArray(a) ? a.map(toStr).join(toStr(sep)) : toStr(a)),
  tojson: (v) => JSON.stringify(v ?? null, null, 2),
  fromjson: (s) => {
    try {
      return JSON.parse(toStr(s));
    } catch {
      throw new ExprError(`fromJSON: not JSON: ${toStr(s)}`);
    }
  },
  hashfiles: () => '0'.repeat(64),
};

function ev(n, ctx) {
  if ('lit' in n) return n.lit;
  if ('ctx' in n) return member(ctx, n.ctx);
  if ('of' in n) return member(ev(n.of, ctx), ev(n.key, ctx));
  if ('not' in n) return !truthy(ev(n.not, ctx));
  if ('call' in n) {
    const status = ctx.$status ?? 'success';
    if (n.call === 'always') return true;
    if (n.call === 'success') return status === 'success';
    if (n.call === 'failure') return status === 'failure';
    if (n.call === 'cancelled') return status === 'cancelled';
    const f = FUNCTIONS[n.call];
    if (!f) throw new ExprError(`unknown function ${n.call}`);
    return f(...n.args.map((a) => ev(a, ctx)));
  }
  if (n.op === '&&') {
    const l = ev(n.left, ctx);
    return truthy(l) ? ev(n.right, ctx) : l;
  }
  if (n.op === '||') {
    const l = ev(n.left, ctx);
    return truthy(l) ? l : ev(n.right, ctx);
  }
  const l = ev(n.left, ctx);
  const r = ev(n.right, ctx);
  if (n.op === '==') return looseEq(l, r);
  if (n.op === '!=') return !looseEq(l, r);
  return compare(n.op, l, r);
}

/** The value of one expression (without `${{ }}`) in a context. */
export function evaluate(src, ctx) {
  return ev(parse(src), ctx);
}

/** A string with `${{ }}` parts, as the runner interpolates it. */
export function interpolate(text, ctx) {
  return String(text).replace(/\$\{\{([\s\S]*?)\}\}/g, (_, e) => toStr(evaluate(e, ctx)));
}

/**
 * Whether a job (or step) with this `if:` runs: absent = success(); the
 * value may or may not be wrapped in `${{ }}`; a job-level `if:` without a
 * status function runs only after its needs succeeded, as on GitHub.
 */
export function runs(cond, ctx) {
  if (cond === undefined || cond === null) return (ctx.$status ?? 'success') === 'success';
  if (typeof cond === 'boolean') return cond;
  let src = String(cond).trim();
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(src);
  if (whole && !whole[1].includes('}}')) src = whole[1];
  const statusFn = /\b(always|success|failure|cancelled)\s*\(/i.test(src);
  const v = truthy(evaluate(src, ctx));
  return statusFn ? v : v && (ctx.$status ?? 'success') === 'success';
}
