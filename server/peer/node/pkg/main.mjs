// gqlbench's Node.js reference servers: the LinGBM paper's stack (Apollo
// Server, DataLoader, node-postgres) over the benchmark schema, one
// technique per variant (source.mjs). gqlbench starts it (`gqlbench serve
// node-batch`) with its configuration in the environment:
//
//   GQLBENCH_VARIANT     node-naive, node-memo, node-batch or node-batch-memo
//   GQLBENCH_DB          postgres:// URL of the benchmark database
//   GQLBENCH_ADDR        HOST:PORT to listen on (port 0: any free one)
//   GQLBENCH_POOL        maximum database connections (default 10)
//   GQLBENCH_TIMEOUT_MS  per-request timeout (default 30000)
//   GQLBENCH_MAX_DEPTH   maximum query depth (default 15)
//   GQLBENCH_TRACE       1: Apollo tracing in every answer (tracing.mjs)
//
// Once it listens it prints "serving on http://HOST:PORT/graphql"; SIGTERM
// or SIGINT stops it gracefully (in-flight requests finish).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { ApolloServer } from '@apollo/server';
import pg from 'pg';

import { maxDepth } from './depth.mjs';
import { handler } from './http.mjs';
import { resolvers } from './resolvers.mjs';
import { techniques } from './source.mjs';
import { apolloTracing } from './tracing.mjs';

function fail(msg) {
  console.error(`gqlbench ${process.env.GQLBENCH_VARIANT ?? 'node'}: ${msg}`);
  process.exit(1);
}

function intEnv(name, def) {
  const v = process.env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) fail(`${name}=${v} is not a whole number`);
  return n;
}

// listenAddr splits HOST:PORT (the host may be a bracketed IPv6 address).
function listenAddr(addr) {
  const i = addr.lastIndexOf(':');
  if (i < 0) fail(`GQLBENCH_ADDR=${addr} is not HOST:PORT`);
  const host = addr.slice(0, i).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return { host, port: Number(addr.slice(i + 1)) };
}

const config = {
  variant: process.env.GQLBENCH_VARIANT ?? '',
  db: process.env.GQLBENCH_DB ?? '',
  addr: listenAddr(process.env.GQLBENCH_ADDR || '127.0.0.1:4000'),
  pool: intEnv('GQLBENCH_POOL', 10) || 10,
  timeoutMs: intEnv('GQLBENCH_TIMEOUT_MS', 30000),
  maxDepth: intEnv('GQLBENCH_MAX_DEPTH', 15) || 15,
  trace: process.env.GQLBENCH_TRACE === '1',
};

const technique = techniques[config.variant];
if (!technique) fail(`GQLBENCH_VARIANT=${config.variant} is none of ${Object.keys(techniques).join(', ')}`);
if (!config.db.startsWith('postgres://') && !config.db.startsWith('postgresql://')) {
  fail('GQLBENCH_DB must be a postgres:// URL (these servers run on PostgreSQL only)');
}

const pool = new pg.Pool({
  connectionString: config.db,
  max: config.pool,
  // A request past its timeout has had its answer (504); its statements
  // must not go on using the database.
  statement_timeout: config.timeoutMs || undefined,
  application_name: 'gqlbench ' + config.variant,
});
pool.on('error', (e) => console.error(`gqlbench ${config.variant}: idle database connection: ${e.message}`));

// The dataset must be there: a server on an empty database would answer
// every query with nulls.
try {
  await pool.query('SELECT 1 FROM graduateStudent LIMIT 1');
} catch (e) {
  fail(`cannot query the benchmark database: ${e.message} (load it with gqlbench gen --db ...)`);
}

const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');
const apollo = new ApolloServer({
  typeDefs,
  resolvers,
  validationRules: [maxDepth(config.maxDepth)],
  introspection: true, // as gqlbench's Go servers: clients may read the schema
  // GET works without a preflight header, as on the Go servers; the data is
  // read-only and the server listens on loopback.
  csrfPrevention: false,
  includeStacktraceInErrorResponses: false,
  stopOnTerminationSignals: false, // stop() below shuts down in order: HTTP, Apollo, the pool
  plugins: config.trace ? [apolloTracing()] : [],
});
await apollo.start();

const health = () => pool.query('SELECT 1');
const context = async () => ({ src: technique(pool) });
const server = createServer(handler({ apollo, context, health, variant: config.variant, timeoutMs: config.timeoutMs }));
server.keepAliveTimeout = 5 * 60 * 1000; // between a driver's runs
server.on('error', (e) => fail(`cannot listen on ${config.addr.host}:${config.addr.port}: ${e.message}`));
server.listen(config.addr.port, config.addr.host, () => {
  const a = server.address();
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  console.error(`gqlbench ${config.variant}: Apollo Server, pool ${config.pool}, timeout ${config.timeoutMs} ms, max depth ${config.maxDepth}${config.trace ? ', Apollo tracing' : ''}`);
  console.log(`serving on http://${host}:${a.port}/graphql`);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.error(`gqlbench ${config.variant}: ${signal}: finishing in-flight requests`);
  server.close();
  server.closeIdleConnections();
  const grace = setTimeout(() => process.exit(0), config.timeoutMs + 15000);
  grace.unref();
  await new Promise((resolve) => server.on('close', resolve));
  await apollo.stop();
  await pool.end();
  process.exit(0);
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
