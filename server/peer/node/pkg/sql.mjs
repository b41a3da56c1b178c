// The SQL of every fetch the benchmark schema needs, shared by the four
// techniques: naive and memo run a Query for one key (single), batch and
// batch-memo for a set of keys in one statement (batch). It is the SQL of
// gqlbench's Go variants (server/sqlsource) statement for statement:
// conditions, ordering and paging happen in PostgreSQL, every ordering ends
// with the row's nr, strings compare by bytes (the text columns are
// COLLATE "C"), and string matching uses no LIKE wildcards.
//
// Rows come back as plain objects whose properties are the GraphQL fields'
// names, so the default resolvers serve the scalar fields. PostgreSQL's
// bigint arrives as a string (node-postgres does not narrow int8 to a JS
// number): ids stay strings, exact at 64 bits; counts and ages are
// converted with Number.

// A row type: its select list (aliased to field names), FROM clause, nr
// column (the last tie-breaker) and a conversion of the fetched object.
const row = (cols, from, nr, conv = (r) => r) => ({ cols: cols.join(', '), from, nr, conv });

const num = (s) => (s == null ? null : Number(s));

const facultyCols = [
  'f.nr AS id', 'f.telephone', 'f.emailAddress AS "emailAddress"',
  'f.undergraduateDegreeFrom AS "ugDegree"', 'f.masterDegreeFrom AS "msDegree"', 'f.doctoralDegreeFrom AS "phdDegree"',
  'f.worksFor AS "worksForNr"', 'p.nr IS NOT NULL AS "isProfessor"', 'p.professorType AS "profType"',
  'p.researchInterest AS "researchInterest"', 'p.headOf AS "headOf"',
];

// kind tags a faculty row with its GraphQL type: a professor row or not.
const kind = (r) => {
  r.typename = r.isProfessor ? 'Professor' : 'Lecturer';
  return r;
};

export const rows = {
  university: row(['u.nr AS id'], 'university u', 'u.nr'),
  department: row(['d.nr AS id', 'd.subOrganizationOf AS "universityNr"'], 'department d', 'd.nr'),
  researchGroup: row(['r.nr AS id', 'r.subOrganizationOf AS "departmentNr"'], 'researchGroup r', 'r.nr'),
  faculty: row(facultyCols, 'faculty f LEFT JOIN professor p ON p.nr = f.nr', 'f.nr', kind),
  professor: row(facultyCols, 'faculty f JOIN professor p ON p.nr = f.nr', 'f.nr', kind),
  graduate: row(['g.nr AS id', 'g.telephone', 'g.emailAddress AS "emailAddress"', 'g.age',
    'g.undergraduateDegreeFrom AS "ugDegree"', 'g.advisor AS "advisorNr"', 'g.memberOf AS "memberOfNr"'],
  'graduateStudent g', 'g.nr', (r) => {
    r.age = num(r.age);
    r.typename = 'GraduateStudent';
    return r;
  }),
  undergraduate: row(['s.nr AS id', 's.telephone', 's.emailAddress AS "emailAddress"', 's.age',
    's.advisor AS "advisorNr"', 's.memberOf AS "memberOfNr"'], 'undergraduateStudent s', 's.nr', (r) => {
    r.age = num(r.age);
    return r;
  }),
  graduateCourse: row(['c.nr AS id', 'c.teacher AS "teacherNr"'], 'graduateCourse c', 'c.nr'),
  undergraduateCourse: row(['c.nr AS id', 'c.teacher AS "teacherNr"', 'c.teachingAssistant AS "assistantNr"'],
    'undergraduateCourse c', 'c.nr'),
  publication: row(['p.nr AS id', 'p.title', 'p.abstract', 'p.mainAuthor AS "mainAuthorNr"'], 'publication p', 'p.nr'),
};

// number replaces the ? placeholders of text by $1, $2, ... (no fragment
// has a ? of its own: every value is a parameter).
function number(text) {
  let i = 0;
  return text.replace(/\?/g, () => '$' + ++i);
}

// page is the LIMIT/OFFSET clause and its parameters.
function page(limit, offset) {
  if (limit != null && offset != null) return [' LIMIT ? OFFSET ?', [limit, offset]];
  if (limit != null) return [' LIMIT ?', [limit]];
  if (offset != null) return [' OFFSET ?', [offset]];
  return ['', []];
}

// keysIn is the condition "expr is one of keys": plain equality for one
// key (it plans better), else = ANY of a bigint array.
function keysIn(expr, keys) {
  return keys.length === 1 ? [expr + ' = ?', keys[0]] : [expr + ' = ANY(?::bigint[])', keys];
}

// Query is a fetch of rows of one type: those whose key expression equals
// a key (none for the root lists), that satisfy the further conditions,
// ordered by order and then nr, paged by limit and offset.
export class Query {
  constructor({ rows: r, join = '', key = '', where = [], args = [], order = '', limit = null, offset = null }) {
    Object.assign(this, { rows: r, join, key, where, args, order, limit, offset });
  }

  from() {
    return this.join ? this.rows.from + ' ' + this.join : this.rows.from;
  }

  orderBy() {
    return this.order ? this.order + ', ' + this.rows.nr : this.rows.nr;
  }

  conditions(first) {
    const c = first ? [first, ...this.where] : this.where;
    return c.length ? ' WHERE ' + c.join(' AND ') : '';
  }

  get paged() {
    return this.limit != null || this.offset != null;
  }

  // single is the statement of the rows of key (all rows when unkeyed).
  single(key) {
    const args = this.key ? [key, ...this.args] : [...this.args];
    const [p, pargs] = page(this.limit, this.offset);
    const text = 'SELECT ' + this.rows.cols + ' FROM ' + this.from() + this.conditions(this.key ? this.key + ' = ?' : '') +
      ' ORDER BY ' + this.orderBy() + p;
    return { text: number(text), values: [...args, ...pargs] };
  }

  // batch is the statement of the rows of every key, each row with its key
  // as k. Paging applies per key: ROW_NUMBER() numbers each key's rows in
  // order and the outer query keeps the page's rows.
  batch(keys) {
    const [cond, arg] = keysIn(this.key, keys);
    const args = [arg, ...this.args];
    const where = this.conditions(cond);
    const sel = 'SELECT ' + this.key + ' AS k, ' + this.rows.cols + ' FROM ' + this.from() + where;
    if (!this.paged) {
      return { text: number(sel + ' ORDER BY ' + this.key + ', ' + this.orderBy()), values: args };
    }
    if (keys.length === 1) { // one key pages with LIMIT/OFFSET, as single does
      const [p, pargs] = page(this.limit, this.offset);
      return { text: number(sel + ' ORDER BY ' + this.orderBy() + p), values: [...args, ...pargs] };
    }
    const offset = this.offset ?? 0;
    let text = 'SELECT * FROM (SELECT ' + this.key + ' AS k, ' + this.rows.cols + ', ROW_NUMBER() OVER (PARTITION BY ' +
      this.key + ' ORDER BY ' + this.orderBy() + ') AS n FROM ' + this.from() + where + ') w WHERE w.n > ?';
    args.push(offset);
    if (this.limit != null) {
      text += ' AND w.n <= ?';
      args.push(offset + this.limit);
    }
    return { text: number(text + ' ORDER BY w.k, w.n'), values: args };
  }
}

const q = (r, key, extra = {}) => new Query({ rows: r, key, ...extra });

// The fetches without parameters besides the key.
export const fetches = {
  universityByNr: q(rows.university, 'u.nr'),
  departmentByNr: q(rows.department, 'd.nr'),
  researchGroupByNr: q(rows.researchGroup, 'r.nr'),
  facultyByNr: q(rows.faculty, 'f.nr'),
  graduateByNr: q(rows.graduate, 'g.nr'),
  headOf: q(rows.professor, 'p.headOf'),
  graduatesAdvisedBy: q(rows.graduate, 'g.advisor'),
  graduatesOfDepartment: q(rows.graduate, 'g.memberOf'),
  graduatesTaking: q(rows.graduate, 't.graduateCourseID', { join: 'JOIN graduateStudentTakeCourse t ON t.graduateStudentID = g.nr' }),
  coAuthors: q(rows.graduate, 'a.publicationID', { join: 'JOIN coAuthorOfPublication a ON a.graduateStudentID = g.nr' }),
  undergraduatesAdvisedBy: q(rows.undergraduate, 's.advisor'),
  undergraduatesOfDepartment: q(rows.undergraduate, 's.memberOf'),
  undergraduatesTaking: q(rows.undergraduate, 't.undergraduateCourseID',
    { join: 'JOIN undergraduateStudentTakeCourse t ON t.undergraduateStudentID = s.nr' }),
  departmentsOf: q(rows.department, 'd.subOrganizationOf'),
  researchGroupsOf: q(rows.researchGroup, 'r.subOrganizationOf'),
  graduateCoursesTaughtBy: q(rows.graduateCourse, 'c.teacher'),
  undergraduateCoursesTaughtBy: q(rows.undergraduateCourse, 'c.teacher'),
  graduateCoursesTakenBy: q(rows.graduateCourse, 't.graduateStudentID', { join: 'JOIN graduateStudentTakeCourse t ON t.graduateCourseID = c.nr' }),
  undergraduateCoursesTakenBy: q(rows.undergraduateCourse, 't.undergraduateStudentID',
    { join: 'JOIN undergraduateStudentTakeCourse t ON t.undergraduateCourseID = c.nr' }),
  coursesAssistedBy: q(rows.undergraduateCourse, 'c.teachingAssistant'),
};

const degreeColumn = { ug: 'f.undergraduateDegreeFrom', ms: 'f.masterDegreeFrom', phd: 'f.doctoralDegreeFrom' };

// facultyByDegree: the faculty whose degree is from the key university,
// only those working for department worksFor unless it is null.
export function facultyByDegree(degree, worksFor) {
  const extra = worksFor == null ? {} : { where: ['f.worksFor = ?'], args: [worksFor] };
  return q(rows.faculty, degreeColumn[degree], extra);
}

// facultyOfDepartment: the key department's faculty of kind any,
// professors or lecturers (a faculty row without a professor row).
export function facultyOfDepartment(k) {
  const where = { any: [], professors: ['p.nr IS NOT NULL'], lecturers: ['p.nr IS NULL'] }[k];
  return q(rows.faculty, 'f.worksFor', { where });
}

// match is the condition "col matches m", case-sensitive and with no
// wildcards: %, _, \ and quotes in the pattern are ordinary characters.
function match(col, { criterion, pattern }) {
  const p = 'CAST(? AS TEXT)';
  switch (criterion) {
    case 'START_WITH':
      return ['substr(' + col + ', 1, length(' + p + ')) = ' + p, [pattern, pattern]];
    case 'END_WITH':
      return ['(length(' + col + ') >= length(' + p + ') AND substr(' + col + ', length(' + col + ') - length(' + p + ') + 1) = ' + p + ')',
        [pattern, pattern, pattern]];
    case 'EQUALS':
      return [col + ' = ' + p, [pattern]];
    default: // CONTAINS
      return ['strpos(' + col + ', ' + p + ') > 0', [pattern]];
  }
}

const ageOp = { MORETHAN: '>', LESSTHAN: '<', EQUALS: '=' };

function gradCondition(c) {
  switch (c.kind) {
    case 'advisor': return ['g.advisor = ?', [c.nr]];
    case 'university': return ['g.undergraduateDegreeFrom = ?', [c.nr]];
    case 'age': return ['g.age ' + ageOp[c.criterion] + ' ?', [c.pattern]];
    default: { // interest
      const [m, args] = match('ap.researchInterest', c);
      return ['EXISTS (SELECT 1 FROM professor ap WHERE ap.nr = g.advisor AND ' + m + ')', args];
    }
  }
}

const gradOrderColumn = {
  id: 'g.nr', telephone: 'g.telephone', emailAddress: 'g.emailAddress', memberOf: 'g.memberOf',
  undergraduateDegreeFrom: 'g.undergraduateDegreeFrom', advisor: 'g.advisor',
};

// graduatesSelected: the graduate students selected by gq (see args.mjs),
// of the key university (by undergraduate degree) when byUGDegree.
export function graduatesSelected(gq, byUGDegree) {
  const where = [];
  const args = [];
  for (const c of gq.where) {
    const [cond, a] = gradCondition(c);
    where.push(cond);
    args.push(...a);
  }
  const order = gq.order.map((f) => gradOrderColumn[f] + ' ASC NULLS FIRST').join(', ');
  return q(rows.graduate, byUGDegree ? 'g.undergraduateDegreeFrom' : '', { where, args, order, limit: gq.limit, offset: gq.offset });
}

const publicationColumn = { title: 'p.title', abstract: 'p.abstract' };

// publicationsBy: the key main author's publications, ordered by o (null:
// by nr alone).
export function publicationsBy(o) {
  if (!o) return q(rows.publication, 'p.mainAuthor');
  const col = publicationColumn[o.field];
  return q(rows.publication, 'p.mainAuthor', { order: o.desc ? col + ' DESC NULLS LAST' : col + ' ASC NULLS FIRST' });
}

// publicationSearch: the publications whose field matches m (unkeyed).
export function publicationSearch(field, m) {
  const [cond, args] = match(publicationColumn[field], m);
  return q(rows.publication, '', { where: [cond], args });
}

// Age aggregates over the graduate students of a university: 0 over none.
// SUM is cast because PostgreSQL sums bigints as numeric.
const agesColumns = 'COUNT(*) AS count, CAST(COALESCE(SUM(g.age), 0) AS BIGINT) AS sum, ' +
  'COALESCE(MIN(g.age), 0) AS min, COALESCE(MAX(g.age), 0) AS max';

export function agesOne(univ) {
  return { text: 'SELECT ' + agesColumns + ' FROM graduateStudent g WHERE g.undergraduateDegreeFrom = $1', values: [univ] };
}

export function agesBatch(keys) {
  const [cond, arg] = keysIn('g.undergraduateDegreeFrom', keys);
  return {
    text: number('SELECT g.undergraduateDegreeFrom AS k, ' + agesColumns + ' FROM graduateStudent g WHERE ' + cond +
      ' GROUP BY g.undergraduateDegreeFrom'),
    values: [arg],
  };
}

// ages converts an aggregate row (absent: no students).
export function ages(r) {
  if (!r) return { count: 0, sum: 0, min: 0, max: 0 };
  return { count: Number(r.count), sum: Number(r.sum), min: Number(r.min), max: Number(r.max) };
}
