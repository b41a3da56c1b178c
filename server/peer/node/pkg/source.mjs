// The data sources of the four techniques (LinGBM §2.2.1, §2.2.2). The
// resolvers (resolvers.mjs) call a Source's methods; a Source turns each
// call into a fetch — a Query and a key (sql.mjs) — and the technique
// decides how a fetch reaches PostgreSQL:
//
//   naive       every fetch is its own statement (graphql-js resolves a
//               list's elements concurrently, so they run side by side on
//               the pool)
//   memo        naive, plus a per-request memo: an identical statement
//               (same text, same parameters) runs once per request
//   batch       a DataLoader per fetch and parameter set, cache off: the
//               keys the resolvers ask for in one tick of the event loop
//               become one statement (= ANY($1)), duplicates included
//   batch-memo  the same DataLoaders with their per-request cache on
//
// A new Source is made for every GraphQL request (Apollo's context), so
// memo and DataLoader caches never outlive a request.
import DataLoader from 'dataloader';

import * as sql from './sql.mjs';

// Source is what the resolvers fetch, for one request. list and one are
// the technique's: they fetch a Query's rows for a key (null for the root
// lists); name + param identify the fetch for the batching techniques.
class Source {
  university(nr) { return this.one('university', '', sql.fetches.universityByNr, nr); }
  department(nr) { return this.one('department', '', sql.fetches.departmentByNr, nr); }
  researchGroup(nr) { return this.one('researchGroup', '', sql.fetches.researchGroupByNr, nr); }
  faculty(nr) { return this.one('faculty', '', sql.fetches.facultyByNr, nr); }
  graduate(nr) { return this.one('graduate', '', sql.fetches.graduateByNr, nr); }
  headOf(dept) { return this.one('headOf', '', sql.fetches.headOf, dept); }

  facultyByDegree(degree, univ, worksFor) {
    return this.list('facultyByDegree', degree + ':' + (worksFor ?? ''), () => sql.facultyByDegree(degree, worksFor), univ);
  }

  facultyOfDepartment(dept, kind) {
    return this.list('facultyOfDepartment', kind, () => sql.facultyOfDepartment(kind), dept);
  }

  graduatesByUGDegree(univ, gq) {
    return this.list('graduatesByUGDegree', gq.key, () => sql.graduatesSelected(gq, true), univ);
  }

  graduates(gq) { return this.list('graduates', gq.key, () => sql.graduatesSelected(gq, false), null); }
  graduatesAdvisedBy(prof) { return this.list('graduatesAdvisedBy', '', sql.fetches.graduatesAdvisedBy, prof); }
  graduatesOfDepartment(dept) { return this.list('graduatesOfDepartment', '', sql.fetches.graduatesOfDepartment, dept); }
  graduatesTaking(course) { return this.list('graduatesTaking', '', sql.fetches.graduatesTaking, course); }
  coAuthors(pub) { return this.list('coAuthors', '', sql.fetches.coAuthors, pub); }
  undergraduatesAdvisedBy(prof) { return this.list('undergraduatesAdvisedBy', '', sql.fetches.undergraduatesAdvisedBy, prof); }
  undergraduatesOfDepartment(dept) { return this.list('undergraduatesOfDepartment', '', sql.fetches.undergraduatesOfDepartment, dept); }
  undergraduatesTaking(course) { return this.list('undergraduatesTaking', '', sql.fetches.undergraduatesTaking, course); }
  departmentsOf(univ) { return this.list('departmentsOf', '', sql.fetches.departmentsOf, univ); }
  researchGroupsOf(dept) { return this.list('researchGroupsOf', '', sql.fetches.researchGroupsOf, dept); }
  graduateCoursesTaughtBy(f) { return this.list('graduateCoursesTaughtBy', '', sql.fetches.graduateCoursesTaughtBy, f); }
  undergraduateCoursesTaughtBy(f) { return this.list('undergraduateCoursesTaughtBy', '', sql.fetches.undergraduateCoursesTaughtBy, f); }
  graduateCoursesTakenBy(g) { return this.list('graduateCoursesTakenBy', '', sql.fetches.graduateCoursesTakenBy, g); }
  undergraduateCoursesTakenBy(s) { return this.list('undergraduateCoursesTakenBy', '', sql.fetches.undergraduateCoursesTakenBy, s); }
  coursesAssistedBy(g) { return this.list('coursesAssistedBy', '', sql.fetches.coursesAssistedBy, g); }

  publicationsBy(author, o) {
    return this.list('publicationsBy', o ? o.field + ':' + o.desc : '', () => sql.publicationsBy(o), author);
  }

  publicationSearch(field, m) {
    return this.list('publicationSearch', field + ':' + m.criterion + ':' + m.pattern, () => sql.publicationSearch(field, m), null);
  }
}

// select runs statement st on pool and returns its rows, each converted by
// conv.
async function select(pool, st, conv) {
  const r = await pool.query(st);
  return r.rows.map(conv);
}

// query returns the Query of a fetch: q itself, or what the function q makes.
const query = (q) => (typeof q === 'function' ? q() : q);

// Statements is the Source of naive and memo: one statement per fetch.
class Statements extends Source {
  constructor(pool, memo) {
    super();
    this.pool = pool;
    this.memo = memo ? new Map() : null;
  }

  // run runs a statement, its rows converted by conv, through the memo if
  // there is one: the key is the text and the parameters; concurrent
  // identical requests share the promise of the first.
  run(st, conv) {
    if (!this.memo) return select(this.pool, st, conv);
    const k = st.text + '\0' + JSON.stringify(st.values);
    let p = this.memo.get(k);
    if (!p) {
      p = select(this.pool, st, conv);
      this.memo.set(k, p);
    }
    return p;
  }

  list(name, param, q, key) {
    const qq = query(q);
    return this.run(qq.single(key), qq.rows.conv);
  }

  async one(name, param, q, key) {
    const l = await this.list(name, param, q, key);
    return l.length ? l[0] : null;
  }

  async graduateAges(univ) {
    const rs = await this.run(sql.agesOne(univ), (r) => r);
    return sql.ages(rs[0]);
  }
}

// Batched is the Source of batch and batch-memo: a DataLoader per fetch and
// parameter set, made on first use (a request uses few of them).
class Batched extends Source {
  constructor(pool, cache) {
    super();
    this.pool = pool;
    this.cache = cache;
    this.loaders = new Map();
  }

  loader(name, make) {
    let l = this.loaders.get(name);
    if (!l) {
      l = new DataLoader(make(), { cache: this.cache });
      this.loaders.set(name, l);
    }
    return l;
  }

  // rows fetches the rows of every key of keys in one statement, per key.
  async rows(qq, keys) {
    const rs = await select(this.pool, qq.batch([...new Set(keys)]), qq.rows.conv);
    const byKey = new Map();
    for (const r of rs) {
      const l = byKey.get(r.k);
      if (l) l.push(r);
      else byKey.set(r.k, [r]);
    }
    return byKey;
  }

  // lists is the batch function of a loader of lists of qq. An unkeyed
  // fetch (a root list) runs once for the batch.
  lists(qq) {
    if (!qq.key) {
      return async (keys) => {
        const rs = await select(this.pool, qq.single(null), qq.rows.conv);
        return keys.map(() => rs);
      };
    }
    return async (keys) => {
      const byKey = await this.rows(qq, keys);
      return keys.map((k) => byKey.get(k) ?? []);
    };
  }

  list(name, param, q, key) {
    return this.loader(name + '\0' + param, () => this.lists(query(q))).load(key ?? '');
  }

  one(name, param, q, key) {
    const l = this.loader(name, () => {
      const qq = query(q);
      return async (keys) => {
        const byKey = await this.rows(qq, keys);
        return keys.map((k) => byKey.get(k)?.[0] ?? null);
      };
    });
    return l.load(key);
  }

  graduateAges(univ) {
    const l = this.loader('graduateAges', () => async (keys) => {
      const r = await this.pool.query(sql.agesBatch([...new Set(keys)]));
      const byKey = new Map(r.rows.map((x) => [x.k, x]));
      return keys.map((k) => sql.ages(byKey.get(k)));
    });
    return l.load(univ);
  }
}

// techniques maps a variant to the Source it makes for each request.
export const techniques = {
  'node-naive': (pool) => new Statements(pool, false),
  'node-memo': (pool) => new Statements(pool, true),
  'node-batch': (pool) => new Batched(pool, false),
  'node-batch-memo': (pool) => new Batched(pool, true),
};
