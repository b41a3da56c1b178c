// Package source is the data access contract of gqlbench's resolver-based
// reference servers (naive, memo, batch, batch-memo, inmem): every fetch the
// benchmark schema needs, as one method each. The GraphQL layer (resolvers)
// is written once against Source; the variants differ only in how they
// implement it — one SQL statement per call (naive), the same with
// per-request memoisation (memo), DataLoader batching (batch, batch-memo),
// or maps in memory (inmem, the oracle).
//
// Semantics every implementation must honour (DESIGN.md Appendix B, and the
// descriptions in workload/schema.graphql):
//   - Every list is ordered ascending by nr unless an order is given; every
//     ordering ends with nr ascending. Strings compare by bytes.
//   - Filters, ordering, limit and offset happen in the data source (SQL),
//     never by fetching everything and filtering in Go — except in inmem,
//     whose data is in Go.
//   - A lookup of an nr that does not exist returns nil and no error.
//   - String matching is case-sensitive and treats %, _ and \ in the pattern
//     as ordinary characters.
//
// The loader never writes NULL into the columns modelled here as plain
// values; the ones that can be NULL are pointers.
package source

import "context"

// University is a row of the university table (the schema exposes only its id).
type University struct {
	Nr int64
}

// Department is a row of the department table.
type Department struct {
	Nr         int64
	University int64 // subOrganizationOf
}

// ResearchGroup is a row of the researchGroup table.
type ResearchGroup struct {
	Nr         int64
	Department int64 // subOrganizationOf
}

// Faculty is a faculty row joined with its professor row, if any: a
// Professor when Professor is true, else a Lecturer.
type Faculty struct {
	Nr                      int64
	Telephone, EmailAddress string
	UGDegree, MSDegree, PhD int64 // university nrs
	WorksFor                int64 // department nr
	Professor               bool
	ProfType, Interest      string // professors only
	HeadOf                  *int64 // professors only; nil unless head of a department
}

// GraduateStudent is a row of the graduateStudent table.
type GraduateStudent struct {
	Nr                      int64
	Telephone, EmailAddress string
	Age                     int64
	UGDegree                int64 // undergraduateDegreeFrom: a university nr
	Advisor                 *int64
	MemberOf                int64 // department nr
}

// UndergraduateStudent is a row of the undergraduateStudent table.
type UndergraduateStudent struct {
	Nr                      int64
	Telephone, EmailAddress string
	Age                     int64
	Advisor                 *int64
	MemberOf                int64
}

// GraduateCourse is a row of the graduateCourse table.
type GraduateCourse struct {
	Nr      int64
	Teacher int64 // faculty nr
}

// UndergraduateCourse is a row of the undergraduateCourse table.
type UndergraduateCourse struct {
	Nr                int64
	Teacher           int64
	TeachingAssistant *int64 // graduate student nr
}

// Publication is a row of the publication table.
type Publication struct {
	Nr              int64
	Title, Abstract string
	MainAuthor      int64 // faculty nr
}

// StringCriterion is how a string is compared with a pattern.
type StringCriterion int

// The string criteria of the schema.
const (
	Contains StringCriterion = iota
	StartsWith
	EndsWith
	Equals
)

// StringMatch is a string condition.
type StringMatch struct {
	Criterion StringCriterion
	Pattern   string
}

// NumberCriterion is how a number is compared with a pattern.
type NumberCriterion int

// The number criteria of the schema (strict comparisons).
const (
	MoreThan NumberCriterion = iota
	LessThan
	NumberEquals
)

// NumberMatch is a number condition.
type NumberMatch struct {
	Criterion NumberCriterion
	Pattern   int64
}

// GradCondKind says which property of a graduate student a GradCond tests.
type GradCondKind int

// The conditions of GraduateStudentWhereInput, flattened.
const (
	AdvisorIs       GradCondKind = iota // the advisor's nr equals Int
	AdvisorInterest                     // the advisor's researchInterest matches String
	UniversityIs                        // undergraduateDegreeFrom equals Int
	AgeMatches                          // age matches Number
)

// GradCond is one atomic condition on a graduate student.
type GradCond struct {
	Kind   GradCondKind
	Int    int64
	String StringMatch
	Number NumberMatch
}

// GradWhere is a conjunction: every condition must hold; empty matches all.
// The GraphQL layer flattens GraduateStudentWhereInput (its AND lists,
// nested at any depth) into it and drops null or absent conditions, so every
// Source sees the same normal form. It is comparable, for use in cache keys
// via Key.
type GradWhere []GradCond

// GradField is a field graduate students can be ordered by (ascending;
// relationship fields order by the related object's nr).
type GradField int

// The GraduateStudentField enum.
const (
	GradByID GradField = iota
	GradByTelephone
	GradByEmailAddress
	GradByMemberOf
	GradByUGDegree
	GradByAdvisor // null advisors first
)

// GradQuery selects graduate students: the ones matching Where, ordered by
// Order then nr, Offset skipped, at most Limit (nil: all) returned.
type GradQuery struct {
	Where         GradWhere
	Order         []GradField
	Limit, Offset *int
}

// PublicationField is a text field of a publication.
type PublicationField int

// The PublicationField enum.
const (
	Title PublicationField = iota
	Abstract
)

// PublicationOrder orders publications by Field (Desc: descending), then by
// nr ascending. A nil *PublicationOrder means by nr alone.
type PublicationOrder struct {
	Field PublicationField
	Desc  bool
}

// Degree says which degree of a faculty member a query follows.
type Degree int

// The three degrees of faculty members.
const (
	Undergraduate Degree = iota
	Master
	Doctoral
)

// FacultyKind restricts a faculty list.
type FacultyKind int

// Faculty kinds.
const (
	AnyFaculty FacultyKind = iota
	ProfessorsOnly
	LecturersOnly
)

// Aggregate is count, sum, min and max of graduate students' ages (all 0
// over no students); the GraphQL layer computes avg = Sum/Count.
type Aggregate struct {
	Count         int64
	Sum, Min, Max int64
}

// Source is everything the resolvers fetch. Methods are safe for concurrent
// use; a Source may be per request (memo, batch) or shared (naive, inmem) —
// see Factory.
type Source interface {
	// Lookups by nr: nil when the nr does not exist.
	University(ctx context.Context, nr int64) (*University, error)
	Department(ctx context.Context, nr int64) (*Department, error)
	ResearchGroup(ctx context.Context, nr int64) (*ResearchGroup, error)
	Faculty(ctx context.Context, nr int64) (*Faculty, error) // a professor or a lecturer
	GraduateStudent(ctx context.Context, nr int64) (*GraduateStudent, error)
	UndergraduateStudent(ctx context.Context, nr int64) (*UndergraduateStudent, error)
	Publication(ctx context.Context, nr int64) (*Publication, error) // written ones too

	// Faculty whose given degree is from university univ, optionally only
	// those working for department worksFor (QT12's filter).
	FacultyByDegree(ctx context.Context, d Degree, univ int64, worksFor *int64) ([]*Faculty, error)
	// Faculty of a department, restricted by kind.
	FacultyOfDepartment(ctx context.Context, dept int64, kind FacultyKind) ([]*Faculty, error)
	// The professor who heads dept, or nil.
	HeadOf(ctx context.Context, dept int64) (*Faculty, error)

	// Graduate students whose undergraduate degree is from univ, selected by q.
	GraduatesByUGDegree(ctx context.Context, univ int64, q GradQuery) ([]*GraduateStudent, error)
	// All graduate students selected by q (the root field graduateStudents).
	Graduates(ctx context.Context, q GradQuery) ([]*GraduateStudent, error)
	// Graduate students advised by professor prof.
	GraduatesAdvisedBy(ctx context.Context, prof int64) ([]*GraduateStudent, error)
	// Graduate students who are members of dept.
	GraduatesOfDepartment(ctx context.Context, dept int64) ([]*GraduateStudent, error)
	// Graduate students taking graduate course course.
	GraduatesTaking(ctx context.Context, course int64) ([]*GraduateStudent, error)
	// Graduate co-authors of publication pub.
	CoAuthors(ctx context.Context, pub int64) ([]*GraduateStudent, error)
	// Age aggregates over the graduate students whose undergraduate degree is from univ.
	GraduateAges(ctx context.Context, univ int64) (Aggregate, error)

	// Undergraduates advised by professor prof.
	UndergraduatesAdvisedBy(ctx context.Context, prof int64) ([]*UndergraduateStudent, error)
	// Undergraduates who are members of dept.
	UndergraduatesOfDepartment(ctx context.Context, dept int64) ([]*UndergraduateStudent, error)
	// Undergraduates taking undergraduate course course.
	UndergraduatesTaking(ctx context.Context, course int64) ([]*UndergraduateStudent, error)

	// Departments of university univ.
	DepartmentsOf(ctx context.Context, univ int64) ([]*Department, error)
	// Research groups of department dept.
	ResearchGroupsOf(ctx context.Context, dept int64) ([]*ResearchGroup, error)

	// Courses taught by faculty member teacher.
	GraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*GraduateCourse, error)
	UndergraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*UndergraduateCourse, error)
	// Courses taken by a student.
	GraduateCoursesTakenBy(ctx context.Context, grad int64) ([]*GraduateCourse, error)
	UndergraduateCoursesTakenBy(ctx context.Context, ug int64) ([]*UndergraduateCourse, error)
	// Undergraduate courses whose teaching assistant is grad.
	CoursesAssistedBy(ctx context.Context, grad int64) ([]*UndergraduateCourse, error)

	// Publications whose main author is author, ordered by o (nil: by nr).
	PublicationsBy(ctx context.Context, author int64, o *PublicationOrder) ([]*Publication, error)
	// Publications whose field matches m, among the generated ones: nr below
	// dataset.Reserved, so that written publications never change a search
	// (the write extension, workload/writes.graphql).
	PublicationSearch(ctx context.Context, field PublicationField, m StringMatch) ([]*Publication, error)
}

// Factory makes the Source a request uses. Per-request state (memo caches,
// DataLoaders) lives in the Source it returns; a stateless variant returns
// one shared Source.
type Factory interface {
	ForRequest(ctx context.Context) Source
}
