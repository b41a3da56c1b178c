// Every conversion of GraphQL arguments into the forms sql.mjs takes, so
// that all four techniques read the schema's inputs alike (and as
// gqlbench's Go variants do: server/graph/args.go).
import { GraphQLError } from 'graphql';

const int64 = /^-?[0-9]+$/;
const min = -(2n ** 63n);
const max = 2n ** 63n - 1n;

// nr reads an ID argument as an nr, in canonical form (the string
// PostgreSQL prints for a bigint, so it can key a DataLoader): a base-10
// 64-bit integer, else an error.
export function nr(id) {
  const s = String(id);
  if (int64.test(s)) {
    const n = BigInt(s);
    if (n >= min && n <= max) return n.toString();
  }
  throw new GraphQLError(`ID ${JSON.stringify(s)} is not an integer: every id of this schema is an integer nr`);
}

// page checks a limit or offset: null stays null; a negative value is an
// error.
function page(name, v) {
  if (v == null) return null;
  if (v < 0) throw new GraphQLError(`${name} must not be negative, got ${v}`);
  return v;
}

// valid says whether a StringMatching or NumberMatching can hold: one whose
// criterion or pattern is null never matches.
const valid = (m) => m.criterion != null && m.pattern != null;

// gradWhere flattens a GraduateStudentWhereInput into a conjunction: the
// conditions of w itself, then those of its AND elements, nested at any
// depth; null or absent conditions are dropped. ok is false when a
// condition can never hold.
export function gradWhere(w) {
  const where = [];
  let ok = true;
  const walk = (w) => {
    if (w == null) return;
    const a = w.advisor;
    if (a != null) {
      if (a.nr != null) where.push({ kind: 'advisor', nr: nr(a.nr) });
      if (a.researchInterest != null) {
        ok = ok && valid(a.researchInterest);
        where.push({ kind: 'interest', criterion: a.researchInterest.criterion, pattern: a.researchInterest.pattern });
      }
    }
    if (w.university != null && w.university.nr != null) where.push({ kind: 'university', nr: nr(w.university.nr) });
    if (w.age != null) {
      ok = ok && valid(w.age);
      where.push({ kind: 'age', criterion: w.age.criterion, pattern: w.age.pattern });
    }
    for (const and of w.AND ?? []) walk(and);
  };
  walk(w);
  return { where, ok };
}

// gradQuery converts the arguments of a graduate student list into
// {where, order, limit, offset, key} (key: an unambiguous encoding, for
// loader names), or null when where can never hold (an empty list).
export function gradQuery(where, limit, offset, order) {
  const gq = { limit: page('limit', limit), offset: page('offset', offset) };
  const w = gradWhere(where);
  if (!w.ok) return null;
  gq.where = w.where;
  gq.order = (order ?? []).filter((f) => f != null);
  gq.key = JSON.stringify([gq.where, gq.order, gq.limit, gq.offset]);
  return gq;
}

// publicationOrder converts a PublicationSortCriterion: by nr alone (null)
// when it or its field is null; ascending when its direction is null.
export function publicationOrder(o) {
  if (o == null || o.field == null) return null;
  return { field: o.field, desc: o.direction === 'DESC' };
}

// worksFor converts a FacultyWhereInput into the department filter of
// facultyByDegree: null when absent.
export function worksFor(w) {
  if (w == null || w.worksFor == null || w.worksFor.nr == null) return null;
  return nr(w.worksFor.nr);
}

// aggregate converts age aggregates: avg = sum/count, 0 over no students.
export function aggregate(a) {
  return {
    count: a.count,
    age: { sum: a.sum, avg: a.count > 0 ? a.sum / a.count : 0, max: a.max, min: a.min },
  };
}
