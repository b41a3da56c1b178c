// The resolvers of the benchmark schema, written once for the four
// techniques: every fetch goes through the request's Source (context.src),
// which decides how it reaches the database (source.mjs). Scalar fields
// use graphql-js's default resolvers: the rows' properties carry the
// fields' names (sql.mjs).
import * as args from './args.mjs';

// professor is f when it is a professor row, else null.
const professor = (f) => (f && f.isProfessor ? f : null);

// advisorOf is the professor with nr advisor, if any.
const advisorOf = (src, advisor) => (advisor == null ? null : src.faculty(advisor).then(professor));

// The fields Professor and Lecturer share (the Faculty interface).
const facultyFields = {
  undergraduateDegreeFrom: (f, _, { src }) => src.university(f.ugDegree),
  masterDegreeFrom: (f, _, { src }) => src.university(f.msDegree),
  doctoralDegreeFrom: (f, _, { src }) => src.university(f.phdDegree),
  worksFor: (f, _, { src }) => src.department(f.worksForNr),
  teacherOfGraduateCourses: (f, _, { src }) => src.graduateCoursesTaughtBy(f.id),
  teacherOfUndergraduateCourses: (f, _, { src }) => src.undergraduateCoursesTaughtBy(f.id),
};

const byType = { __resolveType: (obj) => obj.typename };

export const resolvers = {
  Query: {
    faculty: (_, { nr }, { src }) => src.faculty(args.nr(nr)),
    university: (_, { nr }, { src }) => src.university(args.nr(nr)),
    researchGroup: (_, { nr }, { src }) => src.researchGroup(args.nr(nr)),
    lecturer: (_, { nr }, { src }) => src.faculty(args.nr(nr)).then((f) => (f && !f.isProfessor ? f : null)),
    department: (_, { nr }, { src }) => src.department(args.nr(nr)),
    graduateStudents: (_, { where, limit, order }, { src }) => {
      const gq = args.gradQuery(where, limit, null, order);
      return gq ? src.graduates(gq) : [];
    },
    publicationSearch: (_, { field, criterion, pattern }, { src }) => src.publicationSearch(field, { criterion, pattern }),
  },
  Faculty: byType,
  Author: byType,
  University: {
    undergraduateDegreeObtainedByFaculty: (u, _, { src }) => src.facultyByDegree('ug', u.id, null),
    mastergraduateDegreeObtainers: (u, _, { src }) => src.facultyByDegree('ms', u.id, null),
    doctoralDegreeObtainers: (u, { where }, { src }) => src.facultyByDegree('phd', u.id, args.worksFor(where)),
    undergraduateDegreeObtainedBystudent: (u, { where, limit, offset }, { src }) => {
      const gq = args.gradQuery(where, limit, offset, null);
      return gq ? src.graduatesByUGDegree(u.id, gq) : [];
    },
    departments: (u, _, { src }) => src.departmentsOf(u.id),
    graduateStudentConnection: (u) => ({ universityNr: u.id }),
  },
  CollectionOfEdgesToUgStudents: {
    aggregate: (c, _, { src }) => src.graduateAges(c.universityNr).then(args.aggregate),
  },
  Department: {
    subOrganizationOf: (d, _, { src }) => src.university(d.universityNr),
    head: (d, _, { src }) => src.headOf(d.id).then(professor),
    researchGroups: (d, _, { src }) => src.researchGroupsOf(d.id),
    faculties: (d, _, { src }) => src.facultyOfDepartment(d.id, 'any'),
    professors: (d, _, { src }) => src.facultyOfDepartment(d.id, 'professors'),
    lecturers: (d, _, { src }) => src.facultyOfDepartment(d.id, 'lecturers'),
    graduateStudents: (d, _, { src }) => src.graduatesOfDepartment(d.id),
    undergraduateStudents: (d, _, { src }) => src.undergraduatesOfDepartment(d.id),
  },
  ResearchGroup: {
    subOrganizationOf: (r, _, { src }) => src.department(r.departmentNr),
  },
  Professor: {
    ...facultyFields,
    publications: (f, { order }, { src }) => src.publicationsBy(f.id, args.publicationOrder(order)),
    supervisedUndergraduateStudents: (f, _, { src }) => src.undergraduatesAdvisedBy(f.id),
    supervisedGraduateStudents: (f, _, { src }) => src.graduatesAdvisedBy(f.id),
  },
  Lecturer: {
    ...facultyFields,
    position: () => null,
    publications: (f, _, { src }) => src.publicationsBy(f.id, null),
  },
  Publication: {
    authors: async (p, _, { src }) => {
      const [main, co] = await Promise.all([src.faculty(p.mainAuthorNr), src.coAuthors(p.id)]);
      return main ? [main, ...co] : co;
    },
  },
  GraduateStudent: {
    memberOf: (g, _, { src }) => src.department(g.memberOfNr),
    undergraduateDegreeFrom: (g, _, { src }) => src.university(g.ugDegree),
    advisor: (g, _, { src }) => advisorOf(src, g.advisorNr),
    takeGraduateCourses: (g, _, { src }) => src.graduateCoursesTakenBy(g.id),
    assistCourses: (g, _, { src }) => src.coursesAssistedBy(g.id),
  },
  UndergraduateStudent: {
    memberOf: (s, _, { src }) => src.department(s.memberOfNr),
    advisor: (s, _, { src }) => advisorOf(src, s.advisorNr),
    takeCourses: (s, _, { src }) => src.undergraduateCoursesTakenBy(s.id),
  },
  GraduateCourse: {
    teachedby: (c, _, { src }) => src.faculty(c.teacherNr),
    graduateStudents: (c, _, { src }) => src.graduatesTaking(c.id),
  },
  UndergraduateCourse: {
    teachedby: (c, _, { src }) => src.faculty(c.teacherNr),
    undergraduateStudents: (c, _, { src }) => src.undergraduatesTaking(c.id),
    teachingAssistants: (c, _, { src }) => (c.assistantNr == null ? null : src.graduate(c.assistantNr)),
  },
};
