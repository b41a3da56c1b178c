// gqlbench bench engine's Node side: graphql-js and graphql-jit over the
// benchmark schema (schema.graphql, written in by gqlbench) and the
// in-memory dataset, every phase timed on its own.
//
//   node bench.mjs PLAN.json DATA.json
//
// PLAN.json: {engines: [...], shapes: [{name, query, variables}],
// samples, warmupMs, sampleMs}. DATA.json: the tables (data.mjs). One JSON
// line per engine, shape and phase goes to stdout:
//
//   {"engine","shape","phase","samples":[{"n","ns","bytes"?}],"answer"?}
//
// or {"engine","shape","phase","error"}; a last line {"done":true}.
// "answer" (execute phases) is the JSON text of the data the last
// operation returned; gqlbench checks it against the oracle's answer. Every
// sample's last answer must equal the first one's, and an operation that
// returns errors fails its cell.
//
// "bytes" is what n operations allocated on V8's heap, when Node runs
// with --expose-gc (gqlbench starts it so), for the first samples: their
// n operations run again after the timed samples, each run after a full
// GC, and the bytes are the growth of the heap's used size over the run
// plus what every GC during it freed, as v8.GCProfiler records each GC's
// heap statistics before and after. The timed samples run without the
// GC (see measure). V8 counts no objects: no "allocs".
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';

import { buildSchema, execute, parse, validate } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';

import { load } from './data.mjs';
import { attach } from './resolvers.mjs';

const [planPath, dataPath] = process.argv.slice(2);
if (!planPath || !dataPath) {
  console.error('usage: node bench.mjs PLAN.json DATA.json');
  process.exit(2);
}
const plan = JSON.parse(readFileSync(planPath, 'utf8'));
const schema = buildSchema(readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8'));
attach(schema, load(JSON.parse(readFileSync(dataPath, 'utf8'))));

const now = () => process.hrtime.bigint();

// counting: bytes allocated can be counted (--expose-gc, and a Node with
// v8.GCProfiler).
const counting = typeof globalThis.gc === 'function' && typeof v8.GCProfiler === 'function';
const used = () => v8.getHeapStatistics().used_heap_size;

// freed is what the GCs a profile recorded freed, in bytes.
function freed(profile) {
  let b = 0;
  for (const g of profile.statistics) b += g.beforeGC.heapStatistics.usedHeapSize - g.afterGC.heapStatistics.usedHeapSize;
  return b;
}

// counted is how many runs count the bytes allocated, after the timed
// samples.
const counted = 3;

// measure runs op for warm-up, then plan.samples samples of about
// plan.sampleMs each (at least one operation), and returns the samples
// and op's last result. When counting, the first samples' operation
// counts run again after them, each after a full GC and under a
// GCProfiler, for their bytes: a full GC before a timed sample would slow
// it, since V8 deoptimizes the optimized code that held objects the GC
// freed ("weak objects") and each sample would start by optimizing again.
function measure(op) {
  let last = op();
  let n = 1;
  const warmEnd = now() + BigInt(Math.round(plan.warmupMs * 1e6));
  const t0 = now();
  while (now() < warmEnd) {
    last = op();
    n++;
  }
  const perOp = Number(now() - t0) / n;
  const target = plan.sampleMs * 1e6;
  let iters = Math.max(1, Math.round(target / Math.max(perOp, 1)));
  const samples = [];
  let first;
  // same checks that a run (what) answered as the first sample did.
  const same = (what) => {
    if (typeof last !== 'string') return;
    if (first === undefined) first = last;
    else if (last !== first) throw new Error(`${what} answered differently from the first sample`);
  };
  for (let s = 0; s < plan.samples; s++) {
    const start = now();
    for (let i = 0; i < iters; i++) last = op();
    const ns = Number(now() - start);
    samples.push({ n: iters, ns });
    same(`sample ${s + 1}`);
    iters = Math.max(1, Math.round(target / Math.max(ns / iters, 1)));
  }
  if (counting) {
    // Outside any timed loop: the collection that leaves no earlier
    // garbage for a GC inside the run to free, the profiler's start and
    // the heap's size. Inside, the profiler acts only when a GC runs.
    for (const [k, sample] of samples.slice(0, counted).entries()) {
      globalThis.gc();
      const prof = new v8.GCProfiler();
      prof.start();
      const u0 = used();
      for (let i = 0; i < sample.n; i++) last = op();
      const u1 = used();
      sample.bytes = Math.max(0, Math.round(u1 - u0 + freed(prof.stop())));
      same(`the bytes' run ${k + 1}`);
    }
  }
  return { samples, last };
}

// data is the JSON text of a result's data; errors fail the operation.
function data(r) {
  if (r && typeof r.then === 'function') throw new Error('the execution returned a promise: a resolver is not synchronous');
  if (r.errors && r.errors.length) throw new Error('errors: ' + r.errors.map((e) => e.message).join('; '));
  return JSON.stringify(r.data);
}

// phases returns the timed operations of engine for one shape.
function phases(engine, shape) {
  const doc = parse(shape.query);
  const vars = shape.variables ?? {};
  const defs = doc.definitions.length;
  const parseOp = () => {
    const d = parse(shape.query);
    if (d.definitions.length !== defs) throw new Error('parse: a different document');
    return d;
  };
  const validateOp = () => {
    const errs = validate(schema, doc);
    if (errs.length) throw new Error('validate: ' + errs.map((e) => e.message).join('; '));
    return errs;
  };
  switch (engine) {
    case 'graphql-js':
      return {
        parse: parseOp,
        validate: validateOp,
        execute: () => data(execute({ schema, document: doc, variableValues: vars, contextValue: {} })),
      };
    case 'graphql-jit': {
      // A cache miss of a graphql-jit server: parse, validate, compile
      // (as the compiled variant's compile-miss parses and validates too).
      const compile = () => {
        const d = parseOp();
        const errs = validate(schema, d);
        if (errs.length) throw new Error('validate: ' + errs.map((e) => e.message).join('; '));
        const c = compileQuery(schema, d);
        if (!isCompiledQuery(c)) throw new Error('compile: ' + JSON.stringify(c.errors));
        return c;
      };
      const compiled = compile();
      return {
        'compile-miss': compile,
        execute: () => data(compiled.query(undefined, {}, vars)),
      };
    }
  }
  throw new Error(`unknown engine ${engine}`);
}

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');

for (const engine of plan.engines) {
  for (const shape of plan.shapes) {
    let ops;
    try {
      ops = phases(engine, shape);
    } catch (e) {
      out({ engine, shape: shape.name, phase: 'setup', error: e.message });
      continue;
    }
    for (const [phase, op] of Object.entries(ops)) {
      try {
        const { samples, last } = measure(op);
        const line = { engine, shape: shape.name, phase, samples };
        if (typeof last === 'string') line.answer = last;
        out(line);
      } catch (e) {
        out({ engine, shape: shape.name, phase, error: e.message });
      }
    }
  }
}
out({ done: true });
