// GraphQL over HTTP with node:http and Apollo Server's integration API
// (executeHTTPGraphQLRequest), so that /healthz sits beside /graphql with
// no web framework in between:
//
//   /graphql (and /)  POST application/json, or GET ?query=&variables=
//   /healthz          200 "ok" with the header Gqlbench-Variant, 503 when
//                     PostgreSQL does not answer
//
// Errors are GraphQL responses {"errors": [...]}: 400 for a malformed
// body, 413 past maxRequestBytes, 404 for another path, 504 past the
// request timeout (Apollo decides the rest: 400 for a document that cannot
// run, 200 with errors for field errors).
import { HeaderMap } from '@apollo/server';

const maxRequestBytes = 1 << 20;

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(body);
}

const errorBody = (message) => JSON.stringify({ errors: [{ message }] });

// readBody reads the request body, at most maxRequestBytes of it (null past).
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let n = 0;
    req.on('data', (c) => {
      n += c.length;
      if (n > maxRequestBytes) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// handler returns the request listener: apollo is a started ApolloServer,
// context makes a request's context, health resolves when the database
// answers, timeoutMs bounds a request (0: none).
export function handler({ apollo, context, health, variant, timeoutMs }) {
  return async (req, res) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    try {
      if (path === '/healthz') return await healthz(res, health, variant);
      if (path !== '/graphql' && path !== '/') return send(res, 404, errorBody(`no such path ${path}: GraphQL is at /graphql`));
      await graphql(req, res, { apollo, context, search: q < 0 ? '' : req.url.slice(q + 1), timeoutMs });
    } catch (e) {
      if (!res.headersSent) send(res, 500, errorBody(String(e?.message ?? e)));
      else res.destroy();
    }
  };
}

async function healthz(res, health, variant) {
  try {
    await health();
    res.writeHead(200, { 'content-type': 'text/plain', 'gqlbench-variant': variant });
    res.end('ok\n');
  } catch (e) {
    res.writeHead(503, { 'content-type': 'text/plain', 'gqlbench-variant': variant });
    res.end(`database unreachable: ${e.message}\n`);
  }
}

async function graphql(req, res, { apollo, context, search, timeoutMs }) {
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(req.headers)) {
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  let body;
  if (req.method === 'POST') {
    const text = await readBody(req);
    if (text === null) return send(res, 413, errorBody(`the request body is over ${maxRequestBytes} bytes`));
    if ((headers.get('content-type') ?? '').startsWith('application/json')) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        return send(res, 400, errorBody(`malformed JSON body: ${e.message}`));
      }
    } else {
      body = text;
    }
  }
  const run = apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: req.method, headers, search, body }, context });
  const r = timeoutMs > 0 ? await withTimeout(run, timeoutMs) : await run;
  if (r === null) return send(res, 504, errorBody(`the request took longer than the timeout of ${timeoutMs} ms`));
  const out = {};
  for (const [k, v] of r.headers) out[k] = v;
  res.writeHead(r.status ?? 200, out);
  if (r.body.kind === 'complete') {
    res.end(r.body.string);
    return;
  }
  for await (const chunk of r.body.asyncIterator) res.write(chunk);
  res.end();
}

// withTimeout resolves to p's value, or to null after ms.
function withTimeout(p, ms) {
  let t;
  const timer = new Promise((resolve) => {
    t = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([p, timer]).finally(() => clearTimeout(t));
}
