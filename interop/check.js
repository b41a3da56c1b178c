// gqlbench's answer check, as `gqlbench load` makes it (package verify):
// status 200, no GraphQL "errors", and the hex SHA-256 of the canonical JSON
// of "data" equal to the entry's expected hash. Canonical JSON: no
// whitespace; object members sorted by key (as UTF-8 bytes); numbers rounded
// to 6 decimal places from their decimal text, half away from zero, written
// without exponent, trailing zeros or a point when integral; strings with
// only ", \ and control characters escaped. Unordered entries sort every
// list by its elements' canonical text first. Numbers are never read as
// floats: the parser below keeps their text.
function gqlbParse(s) {
  let i = 0;
  const fail = () => { throw new Error('not one valid JSON value'); };
  const ws = () => { while (i < s.length) { const c = s.charCodeAt(i); if (c === 32 || c === 9 || c === 10 || c === 13) i++; else break; } };
  const hex4 = (p) => { if (p + 4 > s.length || !/^[0-9a-fA-F]{4}$/.test(s.substr(p, 4))) return -1; return parseInt(s.substr(p, 4), 16); };
  const str = () => {
    i++;
    let out = '';
    for (;;) {
      if (i >= s.length) fail();
      const c = s.charCodeAt(i);
      if (c === 34) { i++; return out; }
      if (c < 32) fail();
      if (c !== 92) {
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) { out += s[i] + s[i + 1]; i += 2; continue; }
        }
        out += (c >= 0xd800 && c <= 0xdfff) ? '\ufffd' : s[i];
        i++;
        continue;
      }
      if (i + 1 >= s.length) fail();
      const e = s[i + 1];
      i += 2;
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const r = hex4(i);
          if (r < 0) fail();
          i += 4;
          if (r >= 0xd800 && r <= 0xdfff) {
            if (r <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u') {
              const r2 = hex4(i + 2);
              if (r2 >= 0xdc00 && r2 <= 0xdfff) { out += String.fromCharCode(r, r2); i += 6; break; }
            }
            out += '\ufffd';
            break;
          }
          out += String.fromCharCode(r);
          break;
        }
        default: fail();
      }
    }
  };
  let depth = 0;
  const value = () => {
    if (i >= s.length) fail();
    const c = s[i];
    if (c === '{' || c === '[') {
      if (++depth > 10000) fail();
      i++; ws();
      const close = c === '{' ? '}' : ']';
      const items = [];
      if (s[i] === close) { i++; depth--; return c === '{' ? { o: items } : items; }
      for (;;) {
        if (c === '{') {
          if (s[i] !== '"') fail();
          const k = str(); ws();
          if (s[i] !== ':') fail();
          i++; ws();
          items.push([k, value()]);
        } else {
          items.push(value());
        }
        ws();
        if (s[i] === ',') { i++; ws(); continue; }
        if (s[i] !== close) fail();
        i++; depth--;
        return c === '{' ? { o: items } : items;
      }
    }
    if (c === '"') return str();
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(s.substr(i, 4096));
    if (m && m[0] !== '' && m[0] !== '-') {
      if (m[0].length === 4096) fail();
      i += m[0].length;
      return { n: m[0] };
    }
    for (const [lit, v] of [['true', true], ['false', false], ['null', null]]) {
      if (s.substr(i, lit.length) === lit) { i += lit.length; return v; }
    }
    fail();
  };
  ws();
  const v = value();
  ws();
  if (i !== s.length) fail();
  return v;
}

// gqlbCmp compares two strings by code point (the order of their UTF-8 bytes).
function gqlbCmp(a, b) {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    let x = a.charCodeAt(k), y = b.charCodeAt(k);
    if (x === y) continue;
    if (x >= 0xd800 && x <= 0xdfff) x += 0x2000; else if (x >= 0xe000) x -= 0x800;
    if (y >= 0xd800 && y <= 0xdfff) y += 0x2000; else if (y >= 0xe000) y -= 0x800;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function gqlbNumber(lit) {
  if (/^-?(0|[1-9][0-9]*)$/.test(lit)) return lit === '-0' ? '0' : lit;
  const neg = lit[0] === '-';
  let body = neg ? lit.slice(1) : lit;
  let expText = null;
  const e = body.search(/[eE]/);
  if (e >= 0) { expText = body.slice(e + 1); body = body.slice(0, e); }
  const dot = body.indexOf('.');
  const intPart = dot >= 0 ? body.slice(0, dot) : body;
  const frac = dot >= 0 ? body.slice(dot + 1) : '';
  const digits = (intPart + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  let exp = 0;
  if (expText !== null) {
    const mag = expText.replace(/^[+-]/, '').replace(/^0+/, '');
    if (mag.length > 16 || Number(mag) >= 1e15) {
      if (expText[0] === '-') return '0';
      throw new Error('number too large');
    }
    exp = expText[0] === '-' ? -Number(mag) : Number(mag);
  }
  const shift = exp - frac.length + 6;
  let n;
  if (shift >= 0) {
    if (digits.length + shift > 1000) throw new Error('number too large');
    n = digits + '0'.repeat(shift);
  } else {
    if (-shift > digits.length) return '0';
    const keep = digits.length + shift;
    const d = ('0' + digits.slice(0, keep)).split('');
    if (digits[keep] >= '5') {
      for (let k = d.length - 1; k >= 0; k--) {
        if (d[k] < '9') { d[k] = String.fromCharCode(d[k].charCodeAt(0) + 1); break; }
        d[k] = '0';
      }
    }
    n = d.join('');
  }
  let t = n.replace(/^0+/, '');
  if (t === '') return '0';
  if (t.length <= 6) t = '0'.repeat(7 - t.length) + t;
  let whole = t.slice(0, t.length - 6);
  const fraction = t.slice(t.length - 6).replace(/0+$/, '');
  if (fraction !== '') whole += '.' + fraction;
  return neg ? '-' + whole : whole;
}

function gqlbString(s) {
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c < 32) out += '\\u00' + (c < 16 ? '0' : '') + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdbff && k + 1 < s.length && s.charCodeAt(k + 1) >= 0xdc00 && s.charCodeAt(k + 1) <= 0xdfff) { out += s[k] + s[k + 1]; k++; }
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += s[k];
  }
  return out + '"';
}

// gqlbCanonical writes the parsed value v canonically; unordered sorts lists.
function gqlbCanonical(v, unordered) {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return gqlbString(v);
  if (Array.isArray(v)) {
    const parts = v.map((x) => gqlbCanonical(x, unordered));
    if (unordered) {
      const idx = parts.map((p, k) => k);
      idx.sort((a, b) => gqlbCmp(parts[a], parts[b]) || a - b);
      return '[' + idx.map((k) => parts[k]).join(',') + ']';
    }
    return '[' + parts.join(',') + ']';
  }
  if (v.n !== undefined) return gqlbNumber(v.n);
  const members = v.o.slice().sort((a, b) => gqlbCmp(a[0], b[0]));
  for (let k = 1; k < members.length; k++) {
    if (members[k - 1][0] === members[k][0]) throw new Error('key ' + JSON.stringify(members[k][0]) + ' occurs twice in an object');
  }
  return '{' + members.map((m) => gqlbString(m[0]) + ':' + gqlbCanonical(m[1], unordered)).join(',') + '}';
}

// gqlbDrop removes the member at path p (member names) from the parsed
// value v, through every list on the way (gqlbench load --ignore-path).
function gqlbDrop(v, p) {
  if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) v[k] = gqlbDrop(v[k], p);
    return v;
  }
  if (v !== null && typeof v === 'object' && v.o !== undefined) {
    for (let k = 0; k < v.o.length; k++) {
      if (v.o[k][0] !== p[0]) continue;
      if (p.length === 1) { v.o.splice(k, 1); return v; }
      v.o[k][1] = gqlbDrop(v.o[k][1], p.slice(1));
      break;
    }
  }
  return v;
}

// gqlbCheck returns '' for a right answer, else why not, starting with the
// kind of failure gqlbench counts: "http_status", "bad_response",
// "graphql_errors" or "wrong answer". sha256hex hashes a string's UTF-8;
// ignore lists the paths left out of the answer (arrays of member names).
function gqlbCheck(status, body, expect, unordered, sha256hex, ignore) {
  if (status !== 200) return 'http_status: HTTP ' + status;
  let top;
  try { top = gqlbParse(body); } catch (e) { return 'bad_response: ' + e.message; }
  if (top === null || typeof top !== 'object' || top.o === undefined) return 'bad_response: not a JSON object';
  let data, hasData = false;
  for (const [k, v] of top.o) {
    if (k === 'errors' && v !== null) {
      if (!Array.isArray(v)) return 'bad_response: "errors" is not a list';
      if (v.length > 0) {
        const first = v[0] && v[0].o ? v[0].o.find((m) => m[0] === 'message') : undefined;
        return 'graphql_errors: ' + v.length + ', the first: ' + (first && typeof first[1] === 'string' ? first[1] : '').slice(0, 200);
      }
    }
    if (k === 'data') { data = v; hasData = true; }
  }
  if (!hasData) return 'bad_response: no "data"';
  if (!expect) return '';
  let got;
  try {
    for (const p of ignore || []) data = gqlbDrop(data, p);
    got = sha256hex(gqlbCanonical(data, unordered));
  } catch (e) { return 'bad_response: ' + e.message; }
  if (got !== expect) return 'wrong answer: data hashes to ' + got.slice(0, 12) + '…, want ' + expect.slice(0, 12) + '…';
  return '';
}
