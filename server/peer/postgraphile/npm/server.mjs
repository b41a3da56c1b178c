// gqlbench's PostGraphile 5 server: the library, not its CLI, so that the
// process keeps gqlbench's server contract (server.ProcessConfig in the Go
// code): the configuration comes from GQLBENCH_* environment variables, the
// line "serving on http://HOST:PORT/graphql" is printed once listening,
// GET /healthz answers 200 with the header Gqlbench-Variant (503 while the
// database is unreachable), at most GQLBENCH_POOL database connections are
// used, a request past GQLBENCH_TIMEOUT_MS gets 504, a query deeper than
// GQLBENCH_MAX_DEPTH is refused, and SIGTERM or SIGINT shuts down gracefully.
import { readFileSync } from "node:fs";
import http from "node:http";
import pg from "pg";
import { postgraphile } from "postgraphile";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { makePgService } from "postgraphile/adaptors/pg";
import { GraphQLError, Kind } from "postgraphile/graphql";
import { PostGraphileConnectionFilterPreset } from "postgraphile-plugin-connection-filter";
import { PgAggregatesPreset } from "@graphile/pg-aggregates";

function config(env) {
  const must = (name) => {
    const v = env[name];
    if (!v) {
      throw new Error(`$${name} is not set (gqlbench serve sets it)`);
    }
    return v;
  };
  const int = (name, def) => {
    const v = env[name];
    if (v === undefined || v === "") return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) {
      throw new Error(`$${name}: want a positive integer, got ${JSON.stringify(v)}`);
    }
    return n;
  };
  const addr = must("GQLBENCH_ADDR");
  const m = /^\[?([^\]]*)\]?:(\d+)$/.exec(addr);
  if (!m) {
    throw new Error(`$GQLBENCH_ADDR: want HOST:PORT, got ${JSON.stringify(addr)}`);
  }
  return {
    db: must("GQLBENCH_DB"),
    host: m[1] === "" ? "127.0.0.1" : m[1],
    port: Number(m[2]),
    pool: int("GQLBENCH_POOL", 10),
    variant: env.GQLBENCH_VARIANT || "postgraphile",
    timeoutMs: int("GQLBENCH_TIMEOUT_MS", 30000),
    maxDepth: int("GQLBENCH_MAX_DEPTH", 15),
  };
}

// depthRule refuses operations nested deeper than max, counted as gqlbench's
// Go servers count (server.Depth): a field with a selection set adds a level,
// fragments add none.
function depthRule(max) {
  return (context) => {
    const doc = context.getDocument();
    const fragments = new Map();
    for (const d of doc.definitions) {
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    }
    const depth = (set, visiting) => {
      let d = 0;
      for (const sel of set.selections) {
        let n = 0;
        if (sel.kind === Kind.FIELD) {
          n = sel.selectionSet ? 1 + depth(sel.selectionSet, visiting) : 1;
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          n = depth(sel.selectionSet, visiting);
        } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
          const f = fragments.get(sel.name.value);
          if (!f || visiting.has(f.name.value)) continue;
          visiting.add(f.name.value);
          n = depth(f.selectionSet, visiting);
          visiting.delete(f.name.value);
        }
        d = Math.max(d, n);
      }
      return d;
    };
    return {
      OperationDefinition(op) {
        const d = depth(op.selectionSet, new Set());
        if (d > max) {
          context.reportError(new GraphQLError(`the query is too deep: depth ${d}, at most ${max} allowed`, { nodes: [op] }));
        }
      },
    };
  };
}

// BigIntIntegerLiteralsPlugin lets BigInt (PostgreSQL's bigint: gqlbench's
// keys) take an integer literal as well as a string, as Int does: LinGBM's
// main-PostGraphile templates, written for a schema whose keys were int4
// (Int), put the ids into the query text as integer literals
// (allFaculties(condition: {nr: 3064})), which stock PostGraphile refuses
// with "BigInt can only parse string values (kind='IntValue')". The literal's
// digits are taken as they are, so ids of any size work (publication ids pass
// 2^31 from university 215 on); answers stay strings, and every query stock
// PostGraphile accepts means what it meant.
const BigIntIntegerLiteralsPlugin = {
  name: "GqlbenchBigIntIntegerLiteralsPlugin",
  version: "1.0.0",
  schema: {
    hooks: {
      GraphQLScalarType(spec, build) {
        if (spec.name !== build.inflection.builtin("BigInt")) return spec;
        const parseLiteral = spec.parseLiteral;
        return {
          ...spec,
          parseLiteral: (ast, variables) => (ast.kind === Kind.INT ? ast.value : parseLiteral(ast, variables)),
        };
      },
    },
  },
};

function preset(cfg, pool) {
  const DepthLimitPlugin = {
    name: "GqlbenchDepthLimitPlugin",
    version: "1.0.0",
    grafserv: {
      middleware: {
        setPreset(next, event) {
          event.validationRules = [...event.validationRules, depthRule(cfg.maxDepth)];
          return next();
        },
      },
    },
  };
  return {
    extends: [PostGraphileAmberPreset, PostGraphileConnectionFilterPreset, PgAggregatesPreset],
    plugins: [DepthLimitPlugin, BigIntIntegerLiteralsPlugin],
    // PgIndexBehaviorsPlugin hides the orderings and filters on columns
    // without an index: QT8 orders by telephone and emailaddress, QT9 by
    // title and abstract, QT10 filters on title, QT13 on researchinterest,
    // QT14 on age, none of which gqlbench indexes for any server. Off, the
    // schema has them (as PostGraphile 4 had by default); no plan changes.
    disablePlugins: ["PgIndexBehaviorsPlugin"],
    pgServices: [
      makePgService({
        pool,
        schemas: ["public"],
        pubsub: false,
        // The pool's statement_timeout is the request timeout; introspecting
        // the database at start-up may take longer.
        pgSettingsForIntrospection: { statement_timeout: "0" },
      }),
    ],
    schema: { connectionFilterRelations: true },
    grafserv: { graphqlPath: "/graphql", graphqlOverGET: true, graphiql: false, watch: false, maxRequestLength: 1 << 20 },
    // Grafast starts no step past the timeout; the database cancels a
    // statement past it (statement_timeout); route answers 504 at it.
    grafast: { explain: false, timeouts: { execution: cfg.timeoutMs } },
  };
}

async function main() {
  const cfg = config(process.env);
  const pool = new pg.Pool({
    connectionString: cfg.db,
    max: cfg.pool,
    idleTimeoutMillis: 0, // keep the connections, as gqlbench's Go servers do
    statement_timeout: cfg.timeoutMs, // the database stops a statement past the timeout
  });
  pool.on("error", (e) => console.error(`postgraphile: idle database connection: ${e.message}`));
  const pgl = postgraphile(preset(cfg, pool));
  const serv = pgl.createServ(grafserv);
  await pgl.getSchema(); // introspect now: fail before the ready line, not on the first request
  const handler = serv.createHandler();
  const server = http.createServer((req, res) => route(cfg, pool, handler, req, res));
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(cfg.port, cfg.host, resolve);
  });
  const a = server.address();
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  console.error(
    `postgraphile: PostGraphile ${versionOf("postgraphile")} (connection-filter ${versionOf("postgraphile-plugin-connection-filter")}, ` +
      `pg-aggregates ${versionOf("@graphile/pg-aggregates")}) on Node ${process.version}, pool ${cfg.pool}, timeout ${cfg.timeoutMs} ms, max depth ${cfg.maxDepth}`,
  );
  console.error(`serving on http://${host}:${a.port}/graphql`);
  shutdownOn(server, pgl, pool);
}

// versionOf is the installed version of an npm package, for the log.
function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;
  } catch {
    return "?";
  }
}

// route serves /healthz itself and hands /graphql to grafserv under the
// request timeout.
function route(cfg, pool, handler, req, res) {
  const path = req.url.split("?", 1)[0];
  if (path === "/healthz") {
    return health(cfg, pool, res);
  }
  if (path !== "/graphql") {
    res.writeHead(404, { "content-type": "application/json" });
    return res.end(JSON.stringify({ errors: [{ message: `no such path ${path}: GraphQL is served at /graphql` }] }));
  }
  const timer = setTimeout(() => timedOut(cfg, res), cfg.timeoutMs);
  res.once("close", () => clearTimeout(timer));
  handler(req, res);
}

// timedOut answers 504 unless the answer has begun, and makes what grafserv
// writes later go nowhere (writing after the end would throw).
function timedOut(cfg, res) {
  if (res.headersSent) {
    return;
  }
  res.writeHead(504, { "content-type": "application/json" });
  res.end(JSON.stringify({ errors: [{ message: `request timed out after ${cfg.timeoutMs} ms` }] }));
  res.writeHead = () => res;
  res.flushHeaders = () => {};
  res.write = () => true;
  res.end = () => res;
}

async function health(cfg, pool, res) {
  const headers = { "content-type": "text/plain; charset=utf-8", "gqlbench-variant": cfg.variant };
  try {
    await pool.query("SELECT 1");
    res.writeHead(200, headers);
    res.end("ok\n");
  } catch (e) {
    res.writeHead(503, headers);
    res.end(`database unreachable: ${e.message}\n`);
  }
}

function shutdownOn(server, pgl, pool) {
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`postgraphile: ${signal}: shutting down, letting requests in flight finish`);
    const force = setTimeout(() => {
      console.error("postgraphile: requests still running after 10 s: exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close();
    server.closeIdleConnections();
    await new Promise((resolve) => server.once("close", resolve));
    await pgl.release();
    await pool.end();
    process.exit(0);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((e) => {
  console.error(`postgraphile: ${e.stack || e.message}`);
  process.exit(1);
});
