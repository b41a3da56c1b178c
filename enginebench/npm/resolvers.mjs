// The resolvers of the benchmark schema over the in-memory dataset
// (data.mjs), synchronous, with the semantics of gqlbench's Go layer
// (server/graph over server/inmem): lists ascending by nr unless ordered,
// every ordering ending with nr, strings by code units (the data is ASCII,
// so by bytes), filters, then ordering, then offset and limit. Scalar
// fields use the default resolvers: the rows' properties carry their names.
import { GraphQLError } from 'graphql';

import { cmpNr } from './data.mjs';

const int64 = /^-?[0-9]+$/;

// nr reads an ID argument: a base-10 integer in canonical form, else an
// error.
function nr(id) {
  const s = String(id);
  if (int64.test(s)) return BigInt(s).toString();
  throw new GraphQLError(`ID ${JSON.stringify(s)} is not an integer: every id of this schema is an integer nr`);
}

function page(name, v) {
  if (v == null) return null;
  if (v < 0) throw new GraphQLError(`${name} must not be negative, got ${v}`);
  return v;
}

const valid = (m) => m.criterion != null && m.pattern != null;

// gradWhere flattens a GraduateStudentWhereInput into a list of
// conditions; ok is false when one can never hold.
function gradWhere(w) {
  const where = [];
  let ok = true;
  const walk = (w) => {
    if (w == null) return;
    const a = w.advisor;
    if (a != null) {
      if (a.nr != null) where.push({ kind: 'advisor', nr: nr(a.nr) });
      if (a.researchInterest != null) {
        ok = ok && valid(a.researchInterest);
        where.push({ kind: 'interest', m: a.researchInterest });
      }
    }
    if (w.university != null && w.university.nr != null) where.push({ kind: 'university', nr: nr(w.university.nr) });
    if (w.age != null) {
      ok = ok && valid(w.age);
      where.push({ kind: 'age', m: w.age });
    }
    for (const and of w.AND ?? []) walk(and);
  };
  walk(w);
  return { where, ok };
}

// matches compares s with a StringMatching: no wildcards, case-sensitive.
function matches(s, m) {
  switch (m.criterion) {
    case 'CONTAINS': return s.includes(m.pattern);
    case 'START_WITH': return s.startsWith(m.pattern);
    case 'END_WITH': return s.endsWith(m.pattern);
    case 'EQUALS': return s === m.pattern;
  }
  return false;
}

const cmpStr = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// gradOrder compares two graduate students by one ordering field.
const gradOrder = {
  id: (a, b) => a.i - b.i,
  telephone: (a, b) => cmpStr(a.telephone, b.telephone),
  emailAddress: (a, b) => cmpStr(a.emailAddress, b.emailAddress),
  memberOf: (a, b) => cmpNr(a.memberOf, b.memberOf),
  undergraduateDegreeFrom: (a, b) => cmpNr(a.ug, b.ug),
  advisor: (a, b) => {
    if (a.advisor == null || b.advisor == null) return (a.advisor == null ? 0 : 1) - (b.advisor == null ? 0 : 1);
    return cmpNr(a.advisor, b.advisor);
  },
};

export function resolvers(d) {
  const professor = (f) => (f && f.isProf ? f : null);
  const advisorOf = (nr) => (nr == null ? null : professor(d.faculty.get(nr)));
  const list = (m, k) => m.get(k) ?? [];

  const gradHolds = (g, c) => {
    switch (c.kind) {
      case 'advisor': return g.advisor != null && g.advisor === c.nr;
      case 'interest': {
        const a = g.advisor == null ? null : d.faculty.get(g.advisor);
        return a != null && a.isProf && matches(a.researchInterest, c.m);
      }
      case 'university': return g.ug === c.nr;
      default: // age
        switch (c.m.criterion) {
          case 'MORETHAN': return g.age > c.m.pattern;
          case 'LESSTHAN': return g.age < c.m.pattern;
          default: return g.age === c.m.pattern;
        }
    }
  };

  // selectGrads applies the arguments of a graduate student list to
  // candidates ascending by nr: filter, order, offset, limit.
  const selectGrads = (candidates, where, limit, offset, order) => {
    limit = page('limit', limit);
    offset = page('offset', offset);
    const w = gradWhere(where);
    if (!w.ok) return [];
    let out = w.where.length ? candidates.filter((g) => w.where.every((c) => gradHolds(g, c))) : [...candidates];
    const fields = (order ?? []).filter((f) => f != null);
    if (fields.length) {
      out.sort((a, b) => {
        for (const f of fields) {
          const c = gradOrder[f](a, b);
          if (c !== 0) return c;
        }
        return a.i - b.i;
      });
    }
    if (offset != null) out = out.slice(offset);
    if (limit != null) out = out.slice(0, limit);
    return out;
  };

  const publicationsBy = (f, o) => {
    const l = list(d.pubsBy, f.id);
    if (o == null || o.field == null) return l;
    const desc = o.direction === 'DESC';
    return [...l].sort((a, b) => {
      const c = cmpStr(a[o.field], b[o.field]);
      return (desc ? -c : c) || a.i - b.i;
    });
  };

  const aggregate = (univ) => {
    const gs = list(d.gradsByUG, univ);
    let sum = 0;
    let min = 0;
    let max = 0;
    gs.forEach((g, i) => {
      if (i === 0) min = max = g.age;
      sum += g.age;
      min = Math.min(min, g.age);
      max = Math.max(max, g.age);
    });
    return { count: gs.length, age: { sum, avg: gs.length ? sum / gs.length : 0, max, min } };
  };

  const faculty = {
    undergraduateDegreeFrom: (f) => d.universities.get(f.ug) ?? null,
    masterDegreeFrom: (f) => d.universities.get(f.ms) ?? null,
    doctoralDegreeFrom: (f) => d.universities.get(f.phd) ?? null,
    worksFor: (f) => d.departments.get(f.worksFor) ?? null,
    teacherOfGraduateCourses: (f) => list(d.gCoursesBy, f.id),
    teacherOfUndergraduateCourses: (f) => list(d.ugCoursesBy, f.id),
  };

  return {
    Query: {
      faculty: (_, a) => d.faculty.get(nr(a.nr)) ?? null,
      university: (_, a) => d.universities.get(nr(a.nr)) ?? null,
      researchGroup: (_, a) => d.groups.get(nr(a.nr)) ?? null,
      lecturer: (_, a) => {
        const f = d.faculty.get(nr(a.nr));
        return f && !f.isProf ? f : null;
      },
      department: (_, a) => d.departments.get(nr(a.nr)) ?? null,
      graduateStudents: (_, a) => selectGrads(d.allGrads, a.where, a.limit, null, a.order),
      publicationSearch: (_, a) => d.allPubs.filter((p) => matches(p[a.field], a)),
    },
    University: {
      undergraduateDegreeObtainedByFaculty: (u) => list(d.byDegree.ug, u.id),
      mastergraduateDegreeObtainers: (u) => list(d.byDegree.ms, u.id),
      doctoralDegreeObtainers: (u, a) => {
        const l = list(d.byDegree.phd, u.id);
        const w = a.where?.worksFor?.nr;
        if (w == null) return l;
        const dept = nr(w);
        return l.filter((f) => f.worksFor === dept);
      },
      undergraduateDegreeObtainedBystudent: (u, a) => selectGrads(list(d.gradsByUG, u.id), a.where, a.limit, a.offset, null),
      departments: (u) => list(d.deptsOf, u.id),
      graduateStudentConnection: (u) => ({ univ: u.id }),
    },
    CollectionOfEdgesToUgStudents: {
      aggregate: (c) => aggregate(c.univ),
    },
    Department: {
      subOrganizationOf: (x) => d.universities.get(x.univ) ?? null,
      head: (x) => professor(d.heads.get(x.id)?.[0] ?? null),
      researchGroups: (x) => list(d.groupsOf, x.id),
      faculties: (x) => list(d.facultyOf, x.id),
      professors: (x) => list(d.facultyOf, x.id).filter((f) => f.isProf),
      lecturers: (x) => list(d.facultyOf, x.id).filter((f) => !f.isProf),
      graduateStudents: (x) => list(d.gradsOf, x.id),
      undergraduateStudents: (x) => list(d.ugradsOf, x.id),
    },
    ResearchGroup: {
      subOrganizationOf: (r) => d.departments.get(r.dept) ?? null,
    },
    Professor: {
      ...faculty,
      publications: (f, a) => publicationsBy(f, a.order),
      supervisedUndergraduateStudents: (f) => list(d.ugradsByAdvisor, f.id),
      supervisedGraduateStudents: (f) => list(d.gradsByAdvisor, f.id),
    },
    Lecturer: {
      ...faculty,
      position: () => null,
      publications: (f) => publicationsBy(f, null),
    },
    Publication: {
      authors: (p) => {
        const main = d.faculty.get(p.mainAuthor);
        const co = list(d.coAuthors, p.id);
        return main ? [main, ...co] : co;
      },
    },
    GraduateStudent: {
      memberOf: (g) => d.departments.get(g.memberOf) ?? null,
      undergraduateDegreeFrom: (g) => d.universities.get(g.ug) ?? null,
      advisor: (g) => advisorOf(g.advisor),
      takeGraduateCourses: (g) => list(d.gCoursesTakenBy, g.id),
      assistCourses: (g) => list(d.assisted, g.id),
    },
    UndergraduateStudent: {
      memberOf: (s) => d.departments.get(s.memberOf) ?? null,
      advisor: (s) => advisorOf(s.advisor),
      takeCourses: (s) => list(d.ugCoursesTakenBy, s.id),
    },
    GraduateCourse: {
      teachedby: (c) => d.faculty.get(c.teacher) ?? null,
      graduateStudents: (c) => list(d.gradsTaking, c.id),
    },
    UndergraduateCourse: {
      teachedby: (c) => d.faculty.get(c.teacher) ?? null,
      undergraduateStudents: (c) => list(d.ugradsTaking, c.id),
      teachingAssistants: (c) => (c.ta == null ? null : d.grads.get(c.ta) ?? null),
    },
  };
}

// attach sets the resolvers of d on schema's fields (graphql-js's and
// graphql-jit's executors read field.resolve) and resolves the interfaces'
// types by the rows' typename.
export function attach(schema, d) {
  const rs = resolvers(d);
  for (const [typeName, fields] of Object.entries(rs)) {
    const type = schema.getType(typeName);
    if (!type) throw new Error(`the schema has no type ${typeName}`);
    const defs = type.getFields();
    for (const [name, resolve] of Object.entries(fields)) {
      if (!defs[name]) throw new Error(`the schema has no field ${typeName}.${name}`);
      defs[name].resolve = resolve;
    }
  }
  for (const name of ['Faculty', 'Author']) schema.getType(name).resolveType = (o) => o.typename;
}
