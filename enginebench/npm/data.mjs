// The dataset in memory, as server/inmem holds it in Go: every table by nr
// and an index for every foreign key the schema follows, each list
// ascending by nr. gqlbench writes the rows (enginebench/export.go) as
// arrays, every table ascending by nr; ids are strings (64-bit nrs do not
// fit a JS number).

// cmpNr compares two nrs written in base 10 without sign or leading zeros.
export const cmpNr = (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

// push appends v to the list of key k of index m.
function push(m, k, v) {
  if (k == null) return;
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function byNr(rows) {
  const m = new Map();
  for (const r of rows) m.set(r.id, r);
  return m;
}

// load builds the in-memory dataset from the exported tables.
export function load(t) {
  const d = {};
  d.universities = byNr(t.universities.map(([id]) => ({ id })));
  d.departments = byNr(t.departments.map(([id, univ]) => ({ id, univ })));
  d.groups = byNr(t.groups.map(([id, dept]) => ({ id, dept })));
  const faculty = t.faculty.map(([id, telephone, emailAddress, ug, ms, phd, worksFor, isProf, profType, researchInterest, headOf], i) => ({
    i, id, telephone, emailAddress, ug, ms, phd, worksFor, isProf, headOf,
    typename: isProf ? 'Professor' : 'Lecturer',
    profType: isProf ? profType : null,
    researchInterest: isProf ? researchInterest : null,
  }));
  d.faculty = byNr(faculty);
  const grads = t.grads.map(([id, telephone, emailAddress, age, ug, advisor, memberOf], i) => ({
    i, id, telephone, emailAddress, age, ug, advisor, memberOf, typename: 'GraduateStudent',
  }));
  d.grads = byNr(grads);
  d.allGrads = grads;
  const ugrads = t.ugrads.map(([id, telephone, emailAddress, age, advisor, memberOf]) => ({
    id, telephone, emailAddress, age, advisor, memberOf,
  }));
  d.ugrads = byNr(ugrads);
  const gCourses = t.gCourses.map(([id, teacher]) => ({ id, teacher }));
  d.gCourses = byNr(gCourses);
  const ugCourses = t.ugCourses.map(([id, teacher, ta]) => ({ id, teacher, ta }));
  d.ugCourses = byNr(ugCourses);
  const pubs = t.pubs.map(([id, title, abstract, mainAuthor], i) => ({ i, id, title, abstract, mainAuthor }));
  d.pubs = byNr(pubs);
  d.allPubs = pubs;

  // Indexes: key → rows ascending by nr (the tables come sorted).
  const idx = () => new Map();
  d.deptsOf = idx();
  for (const x of d.departments.values()) push(d.deptsOf, x.univ, x);
  d.groupsOf = idx();
  for (const x of d.groups.values()) push(d.groupsOf, x.dept, x);
  d.facultyOf = idx();
  d.byDegree = { ug: idx(), ms: idx(), phd: idx() };
  d.heads = idx();
  for (const f of faculty) {
    push(d.facultyOf, f.worksFor, f);
    push(d.byDegree.ug, f.ug, f);
    push(d.byDegree.ms, f.ms, f);
    push(d.byDegree.phd, f.phd, f);
    push(d.heads, f.headOf, f);
  }
  d.gradsByUG = idx();
  d.gradsByAdvisor = idx();
  d.gradsOf = idx();
  for (const g of grads) {
    push(d.gradsByUG, g.ug, g);
    push(d.gradsByAdvisor, g.advisor, g);
    push(d.gradsOf, g.memberOf, g);
  }
  d.ugradsByAdvisor = idx();
  d.ugradsOf = idx();
  for (const s of ugrads) {
    push(d.ugradsByAdvisor, s.advisor, s);
    push(d.ugradsOf, s.memberOf, s);
  }
  d.gCoursesBy = idx();
  for (const c of gCourses) push(d.gCoursesBy, c.teacher, c);
  d.ugCoursesBy = idx();
  d.assisted = idx();
  for (const c of ugCourses) {
    push(d.ugCoursesBy, c.teacher, c);
    push(d.assisted, c.ta, c);
  }
  d.pubsBy = idx();
  for (const p of pubs) push(d.pubsBy, p.mainAuthor, p);

  // The many-to-many tables, both ways, each list ascending by nr.
  const link = (pairs, as, bs) => {
    const aToB = idx();
    const bToA = idx();
    const sorted = [...pairs];
    sorted.sort((x, y) => cmpNr(x[1], y[1]) || cmpNr(x[0], y[0]));
    for (const [a, b] of sorted) push(aToB, a, bs.get(b));
    sorted.sort((x, y) => cmpNr(x[0], y[0]) || cmpNr(x[1], y[1]));
    for (const [a, b] of sorted) push(bToA, b, as.get(a));
    return [aToB, bToA];
  };
  [d.coAuthors] = link(t.coAuthors, d.pubs, d.grads);
  [d.gCoursesTakenBy, d.gradsTaking] = link(t.gradTakes, d.grads, d.gCourses);
  [d.ugCoursesTakenBy, d.ugradsTaking] = link(t.ugradTakes, d.ugrads, d.ugCourses);
  return d;
}
