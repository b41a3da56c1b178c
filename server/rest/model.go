package rest

import (
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/server/write"
)

// kind is how a field's value is read and written.
type kind int

const (
	idKind       kind = iota // the row's nr, a JSON string
	refKind                  // a to-one relation: the related row's nr as a JSON string, or null
	textKind                 // a string or null
	intKind                  // a number or null
	typenameKind             // the GraphQL type of a row of an interface type (Faculty, Author)
	nullKind                 // always null: no data behind it (Lecturer.position); no column
)

// field is a field of a resource's representation. Its SQL expression is
// written over the row's alias @ (see sqlFor).
type field struct {
	name   string
	kind   kind
	expr   string
	target *collection // refKind: the collection of the related row (for ?embed=)
}

// relation is a list field of the schema: the rows of target whose key
// (SQL over the target's alias @) is the parent's nr, or, through a link
// table via, the rows of target whose nr is via's column to in the via rows
// whose column from is the parent's nr.
type relation struct {
	name     string
	target   *collection
	key      string
	via      string // a link table (many-to-many), or ""
	from, to string // via's columns: the parent's nr, the target's nr
}

// collection is a kind of resource: /rest/NAME/{nr}. Its rows are those of
// table (SQL over the alias @: a table or a derived table) that meet where
// (over @ alone, so that it can be a join's condition), with the columns
// that joins add (LEFT JOINs that never drop a row), ordered by order.
// Every GET joins tables one after the other, never in parenthesised
// joins, which SQLite would build in full before joining them.
type collection struct {
	name      string // the URL segment: graduateStudents
	typ       string // the GraphQL type: GraduateStudent (or the interface: Faculty)
	table     string
	joins     string   // "" for none
	where     string   // "" for none
	order     []string // ORDER BY terms; nil: the nr
	fields    []*field // in the schema's order; id first
	relations []*relation
	write     *write.Entity // POST, PATCH and DELETE; nil: read-only
	virtual   bool          // reached only as a relation (authors): no /rest/NAME
}

// from is the collection's table with its joins, under alias a.
func (c *collection) from(a string) string {
	if c.joins == "" {
		return sub(c.table, a)
	}
	return sub(c.table+" "+c.joins, a)
}

func (c *collection) field(name string) *field {
	for _, f := range c.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

func (c *collection) relation(name string) *relation {
	for _, r := range c.relations {
		if r.name == name {
			return r
		}
	}
	return nil
}

// orderBy is the collection's ORDER BY terms.
func (c *collection) orderBy() []string {
	if c.order == nil {
		return []string{"@.nr"}
	}
	return c.order
}

// fieldNames is "id, telephone, ...".
func (c *collection) fieldNames() string {
	names := make([]string, len(c.fields))
	for i, f := range c.fields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// relationNames is "graduateStudents, ..." or "none".
func (c *collection) relationNames() string {
	if len(c.relations) == 0 {
		return "none"
	}
	names := make([]string, len(c.relations))
	for i, r := range c.relations {
		names[i] = r.name
	}
	return strings.Join(names, ", ")
}

// Field constructors: a column of the row, or a reference by a column.
func id() *field                      { return &field{name: "id", kind: idKind, expr: "@.nr"} }
func text(name string) *field         { return &field{name: name, kind: textKind, expr: "@." + name} }
func column(name, expr string) *field { return &field{name: name, kind: textKind, expr: expr} }
func integer(name string) *field      { return &field{name: name, kind: intKind, expr: "@." + name} }
func ref(name, expr string, target *collection) *field {
	return &field{name: name, kind: refKind, expr: expr, target: target}
}

// The collections: the schema's types over LinGBM's tables, as the
// reference servers map them (DESIGN.md Appendix B). A faculty row is a
// Professor when a professor row has its nr, else a Lecturer.
var (
	universities          = &collection{name: "universities", typ: "University", table: "university @"}
	departments           = &collection{name: "departments", typ: "Department", table: "department @"}
	researchGroups        = &collection{name: "researchGroups", typ: "ResearchGroup", table: "researchGroup @"}
	faculty               = &collection{name: "faculty", typ: "Faculty", table: "faculty @", joins: professorRow}
	professors            = &collection{name: "professors", typ: "Professor", table: "faculty @", joins: professorRow, where: "EXISTS " + professorOf}
	lecturers             = &collection{name: "lecturers", typ: "Lecturer", table: "faculty @", joins: professorRow, where: "NOT EXISTS " + professorOf}
	graduateStudents      = &collection{name: "graduateStudents", typ: "GraduateStudent", table: "graduateStudent @"}
	undergraduateStudents = &collection{name: "undergraduateStudents", typ: "UndergraduateStudent", table: "undergraduateStudent @", write: write.UndergraduateStudent}
	publications          = &collection{name: "publications", typ: "Publication", table: "publication @", write: write.Publication}
	graduateCourses       = &collection{name: "graduateCourses", typ: "GraduateCourse", table: "graduateCourse @"}
	undergraduateCourses  = &collection{name: "undergraduateCourses", typ: "UndergraduateCourse", table: "undergraduateCourse @"}

	// authors are a publication's authors (interface Author): its main
	// author, then its graduate co-authors by nr; keyed by the publication.
	// Embedded, they are joined otherwise (authorsEmbed).
	authors = &collection{name: "authors", typ: "Author", virtual: true, order: []string{"@.ord", "@.nr"},
		table: "(SELECT ab.nr AS pub, 0 AS ord, af.nr AS nr, CASE WHEN ap.nr IS NULL THEN 'Lecturer' ELSE 'Professor' END AS typename, " +
			"af.telephone AS telephone, af.emailAddress AS emailAddress " +
			"FROM publication ab JOIN faculty af ON af.nr = ab.mainAuthor LEFT JOIN professor ap ON ap.nr = af.nr " +
			"UNION ALL SELECT aa.publicationID, 1, ag.nr, 'GraduateStudent', ag.telephone, ag.emailAddress " +
			"FROM coAuthorOfPublication aa JOIN graduateStudent ag ON ag.nr = aa.graduateStudentID) @"}
)

// authorsEmbed is how ?embed=authors joins, under the alias @, the authors
// of the publication whose nr is %[1]s: a row for the main author (k = 0)
// and one for each graduate co-author (k = 1). (Joined as the authors
// collection's union, SQLite would build the union of every publication's
// authors for each request.)
var authorsEmbed = struct {
	joins string
	order []string
	exprs map[string]string
}{
	joins: " LEFT JOIN (SELECT 0 AS k UNION ALL SELECT 1 AS k) @k ON 1 = 1" +
		" LEFT JOIN publication @b ON @k.k = 0 AND @b.nr = %[1]s" +
		" LEFT JOIN faculty @f ON @f.nr = @b.mainAuthor LEFT JOIN professor @p ON @p.nr = @f.nr" +
		" LEFT JOIN coAuthorOfPublication @a ON @k.k = 1 AND @a.publicationID = %[1]s" +
		" LEFT JOIN graduateStudent @g ON @g.nr = @a.graduateStudentID",
	order: []string{"@k.k", "COALESCE(@f.nr, @g.nr)"},
	exprs: map[string]string{
		"id":           "COALESCE(@f.nr, @g.nr)",
		"__typename":   "CASE WHEN @f.nr IS NOT NULL THEN (CASE WHEN @p.nr IS NULL THEN 'Lecturer' ELSE 'Professor' END) WHEN @g.nr IS NOT NULL THEN 'GraduateStudent' END",
		"telephone":    "COALESCE(@f.telephone, @g.telephone)",
		"emailAddress": "COALESCE(@f.emailAddress, @g.emailAddress)",
	},
}

// collections lists the collections in the order of the URL list in docs/rest.md.
var collections = []*collection{universities, departments, researchGroups, faculty, professors, lecturers,
	graduateStudents, undergraduateStudents, publications, graduateCourses, undergraduateCourses}

// byName finds a collection by its URL segment.
var byName = map[string]*collection{}

// typename is the __typename of a faculty row; professorRow joins the
// professor row it depends on, professorOf says that there is one.
const (
	typename     = "CASE WHEN @p.nr IS NULL THEN 'Lecturer' ELSE 'Professor' END"
	professorRow = "LEFT JOIN professor @p ON @p.nr = @.nr"
	professorOf  = "(SELECT 1 FROM professor @q WHERE @q.nr = @.nr)"
)

func init() {
	universities.relations = []*relation{
		{name: "undergraduateDegreeObtainedByFaculty", target: faculty, key: "@.undergraduateDegreeFrom"},
		{name: "mastergraduateDegreeObtainers", target: faculty, key: "@.masterDegreeFrom"},
		{name: "doctoralDegreeObtainers", target: faculty, key: "@.doctoralDegreeFrom"},
		{name: "undergraduateDegreeObtainedBystudent", target: graduateStudents, key: "@.undergraduateDegreeFrom"},
		{name: "departments", target: departments, key: "@.subOrganizationOf"},
	}
	universities.fields = []*field{id()}

	departments.fields = []*field{id(), ref("subOrganizationOf", "@.subOrganizationOf", universities),
		ref("head", "(SELECT MIN(@h.nr) FROM professor @h WHERE @h.headOf = @.nr)", professors)}
	departments.relations = []*relation{
		{name: "researchGroups", target: researchGroups, key: "@.subOrganizationOf"},
		{name: "faculties", target: faculty, key: "@.worksFor"},
		{name: "professors", target: professors, key: "@.worksFor"},
		{name: "lecturers", target: lecturers, key: "@.worksFor"},
		{name: "graduateStudents", target: graduateStudents, key: "@.memberOf"},
		{name: "undergraduateStudents", target: undergraduateStudents, key: "@.memberOf"},
	}

	researchGroups.fields = []*field{id(), ref("subOrganizationOf", "@.subOrganizationOf", departments)}

	degrees := func() []*field {
		return []*field{ref("undergraduateDegreeFrom", "@.undergraduateDegreeFrom", universities),
			ref("masterDegreeFrom", "@.masterDegreeFrom", universities),
			ref("doctoralDegreeFrom", "@.doctoralDegreeFrom", universities),
			ref("worksFor", "@.worksFor", departments)}
	}
	teaching := func() []*relation {
		return []*relation{
			{name: "teacherOfGraduateCourses", target: graduateCourses, key: "@.teacher"},
			{name: "teacherOfUndergraduateCourses", target: undergraduateCourses, key: "@.teacher"},
			{name: "publications", target: publications, key: "@.mainAuthor"},
		}
	}
	faculty.fields = append([]*field{id(), {name: "__typename", kind: typenameKind, expr: typename}, text("telephone"), text("emailAddress")}, degrees()...)
	faculty.relations = teaching()
	professors.fields = append([]*field{id(), text("telephone"), text("emailAddress"),
		column("researchInterest", "@p.researchInterest"), column("profType", "@p.professorType")}, degrees()...)
	professors.relations = append(teaching(),
		&relation{name: "supervisedUndergraduateStudents", target: undergraduateStudents, key: "@.advisor"},
		&relation{name: "supervisedGraduateStudents", target: graduateStudents, key: "@.advisor"})
	lecturers.fields = append([]*field{id(), text("telephone"), text("emailAddress"), {name: "position", kind: nullKind}}, degrees()...)
	lecturers.relations = teaching()

	graduateStudents.fields = []*field{id(), text("telephone"), text("emailAddress"), integer("age"),
		ref("memberOf", "@.memberOf", departments), ref("undergraduateDegreeFrom", "@.undergraduateDegreeFrom", universities),
		ref("advisor", "@.advisor", professors)}
	graduateStudents.relations = []*relation{
		{name: "takeGraduateCourses", target: graduateCourses, via: "graduateStudentTakeCourse", from: "graduateStudentID", to: "graduateCourseID"},
		{name: "assistCourses", target: undergraduateCourses, key: "@.teachingAssistant"},
	}

	undergraduateStudents.fields = []*field{id(), text("telephone"), text("emailAddress"), integer("age"),
		ref("memberOf", "@.memberOf", departments), ref("advisor", "@.advisor", professors)}
	undergraduateStudents.relations = []*relation{
		{name: "takeCourses", target: undergraduateCourses, via: "undergraduateStudentTakeCourse", from: "undergraduateStudentID", to: "undergraduateCourseID"},
	}

	publications.fields = []*field{id(), text("title"), text("abstract")}
	publications.relations = []*relation{{name: "authors", target: authors, key: "@.pub"}}

	authors.fields = []*field{id(), {name: "__typename", kind: typenameKind, expr: "@.typename"}, text("telephone"), text("emailAddress")}

	graduateCourses.fields = []*field{id(), ref("teachedby", "@.teacher", faculty)}
	graduateCourses.relations = []*relation{
		{name: "graduateStudents", target: graduateStudents, via: "graduateStudentTakeCourse", from: "graduateCourseID", to: "graduateStudentID"},
	}

	undergraduateCourses.fields = []*field{id(), ref("teachedby", "@.teacher", faculty),
		ref("teachingAssistants", "@.teachingAssistant", graduateStudents)}
	undergraduateCourses.relations = []*relation{
		{name: "undergraduateStudents", target: undergraduateStudents, via: "undergraduateStudentTakeCourse", from: "undergraduateCourseID", to: "undergraduateStudentID"},
	}

	for _, c := range collections {
		byName[c.name] = c
		checkWritable(c)
	}
}

// checkWritable makes sure that a writable collection's representation is
// made of the row's nr and the entity's fields, which a write returns.
func checkWritable(c *collection) {
	if c.write == nil {
		return
	}
	for _, f := range c.fields[1:] {
		if c.write.Field(f.name) == nil {
			panic(fmt.Sprintf("rest: field %s of writable %s is not written", f.name, c.name))
		}
	}
}
