package compiled

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// errIntrospection answers __schema and __type beside data fields: they have
// no SQL behind them, and an operation of them alone goes to gqlgen's
// executor instead (introspection.go).
var errIntrospection = errors.New("the compiled variant answers introspection (__schema, __type) in an operation of its own, not mixed with data fields")

// field is the SQL value of field group g of an object of type typ at row
// r: the mapping of the schema onto the tables (DESIGN.md Appendix B).
func (c *compiler) field(typ string, r row, g *group) string {
	switch g.name() {
	case "__typename": // (pairs answers it without calling field)
		return quote(typ)
	case "__schema", "__type":
		c.fail(errIntrospection)
		return "NULL"
	}
	if sql, ok := c.remoteField(r, g); ok { // remote.go
		return sql
	}
	if _, ok := tables[typ]; ok { // the scalar fields that are columns of the same name
		switch name := g.name(); name {
		case "id":
			return c.d.text(r.col("nr"))
		case "telephone", "emailAddress", "age", "title", "abstract":
			return r.col(name)
		}
	}
	switch typ {
	case "Query":
		return c.rootField(g)
	case "University":
		return c.universityField(r, g)
	case "Department":
		return c.departmentField(r, g)
	case "ResearchGroup": // subOrganizationOf
		return c.ref("Department", r, "subOrganizationOf", g.set())
	case "Professor", "Lecturer":
		return c.facultyField(r, g)
	case "Publication": // authors
		return c.authors(r, g.set())
	case "GraduateStudent", "UndergraduateStudent":
		return c.studentField(r, g)
	case "GraduateCourse", "UndergraduateCourse":
		return c.courseField(r, g)
	case "CollectionOfEdgesToUgStudents", "AggregateUgStudents", "AgeAggregationOfUgStudents":
		return c.aggregateField(r, g)
	}
	c.fail(fmt.Errorf("field %s.%s is not supported", typ, g.name()))
	return "NULL"
}

// ref is the object of type typ whose nr is column fk of row parent, or
// NULL: a scalar subquery, except in PostgreSQL where the object holds a
// list.
//
// Such an object depends on fk alone, and a list of rows that lead to few
// distinct objects built it again for every row (QT5: ~25 students, whose
// departments belong to a handful of universities, each university with
// its list of students). There it is a lateral join of parent's query,
// which PostgreSQL memoizes by its key (Memoize, PostgreSQL 14+) where it
// runs a scalar subquery once per row; OFFSET 0 keeps the subquery whole,
// so that it is never joined to every row of typ's table instead. An object
// that holds a list only through objects of its own (QT5's department,
// whose university holds the list) is a left join of parent's query
// instead, so that the lateral joins below it join parent's query too and
// are memoized across parent's rows, not within one row.
func (c *compiler) ref(typ string, parent row, fk string, set ast.SelectionSet) string {
	t := c.newRow(typ)
	where := []string{t.col("nr") + " = " + parent.col(fk)}
	if !c.d.pg || parent.a == "" {
		return c.one(t, where, false, set)
	}
	obj, join := c.value(t, set)
	below := c.lateral(t)
	switch {
	case strings.Contains(obj, "json_agg("): // holds a list
		x := c.alias("x")
		q := "SELECT " + obj + " AS j FROM " + t.from(join) + below + whereClause(append(t.base(), where...))
		c.laterals[parent.a] = append(c.laterals[parent.a], "LEFT JOIN LATERAL ("+q+" OFFSET 0) "+x+" ON true")
		return x + ".j"
	case below != "" && len(t.base()) == 0: // holds a list through its objects
		from := t.from(join)
		if strings.Contains(from, " JOIN ") { // a professor: faculty joined to professor
			from = "(" + from + ")"
		}
		c.laterals[parent.a] = append(c.laterals[parent.a], "LEFT JOIN "+from+" ON "+where[0])
		c.laterals[parent.a] = append(c.laterals[parent.a], c.laterals[t.a]...)
		return "CASE WHEN " + t.col("nr") + " IS NOT NULL THEN " + obj + " END"
	}
	return "(SELECT " + obj + " FROM " + t.from(join) + below + whereClause(append(t.base(), where...)) + ")"
}

// lateral is the joins that objects of row r added to r's query (see
// ref), with a leading space, or "".
func (c *compiler) lateral(r row) string {
	if len(c.laterals[r.a]) == 0 {
		return ""
	}
	return " " + strings.Join(c.laterals[r.a], " ")
}

// children is the list of rows of type typ whose column fk is parent's nr.
func (c *compiler) children(typ, fk string, parent row, set ast.SelectionSet) string {
	t := c.newRow(typ)
	return c.many(list{r: t, where: []string{t.col(fk) + " = " + parent.col("nr")}}, set)
}

// joined is the list of rows of type typ linked to parent through join
// table via, whose column from holds parent's nr and column to the row's.
func (c *compiler) joined(typ, via, from, to string, parent row, set ast.SelectionSet) string {
	v := c.alias("t")
	t := c.newRow(typ)
	return c.many(list{r: t, via: via + " " + v, on: t.col("nr") + " = " + v + "." + to,
		where: []string{v + "." + from + " = " + parent.col("nr")}}, set)
}

func (c *compiler) rootField(g *group) string {
	lookup := func(typ string) string {
		t := c.newRow(typ)
		return c.one(t, []string{t.col("nr") + " = " + c.id(c.arg(g, "nr"), "nr")}, false, g.set())
	}
	switch g.name() {
	case "faculty":
		return lookup("Faculty")
	case "university":
		return lookup("University")
	case "researchGroup":
		return lookup("ResearchGroup")
	case "lecturer":
		return lookup("Lecturer")
	case "department":
		return lookup("Department")
	case "publication":
		return lookup("Publication")
	case "undergraduateStudent":
		return lookup("UndergraduateStudent")
	case "graduateStudents":
		t := c.newRow("GraduateStudent")
		keys, split := c.gradOrder(t, c.arg(g, "order"))
		return c.many(list{r: t, where: c.gradWhere(t, c.arg(g, "where"), false), keys: keys, split: split,
			limit: c.count(c.arg(g, "limit"), "limit")}, g.set())
	case "publicationSearch":
		t := c.newRow("Publication")
		return c.many(list{r: t, where: []string{c.search(t, g)}}, g.set())
	}
	c.fail(fmt.Errorf("field Query.%s is not supported", g.name()))
	return "NULL"
}

func (c *compiler) universityField(r row, g *group) string {
	switch g.name() {
	case "undergraduateDegreeObtainedByFaculty":
		return c.children("Faculty", "undergraduateDegreeFrom", r, g.set())
	case "mastergraduateDegreeObtainers":
		return c.children("Faculty", "masterDegreeFrom", r, g.set())
	case "doctoralDegreeObtainers":
		t := c.newRow("Faculty")
		where := []string{t.col("doctoralDegreeFrom") + " = " + r.col("nr")}
		if dept := c.arg(g, "where").field("worksFor").field("nr"); !dept.isNull() {
			where = append(where, t.col("worksFor")+" = "+c.id(dept, "where.worksFor.nr"))
		}
		return c.many(list{r: t, where: where}, g.set())
	case "undergraduateDegreeObtainedBystudent":
		t := c.newRow("GraduateStudent")
		where := append([]string{t.col("undergraduateDegreeFrom") + " = " + r.col("nr")}, c.gradWhere(t, c.arg(g, "where"), true)...)
		return c.many(list{r: t, where: where,
			limit: c.count(c.arg(g, "limit"), "limit"), offset: c.count(c.arg(g, "offset"), "offset")}, g.set())
	case "departments":
		return c.children("Department", "subOrganizationOf", r, g.set())
	default: // graduateStudentConnection
		return c.connection(r, g.set())
	}
}

func (c *compiler) departmentField(r row, g *group) string {
	switch g.name() {
	case "subOrganizationOf":
		return c.ref("University", r, "subOrganizationOf", g.set())
	case "head":
		t := c.newRow("Professor")
		return c.one(t, []string{t.p + ".headOf = " + r.col("nr")}, true, g.set())
	case "researchGroups":
		return c.children("ResearchGroup", "subOrganizationOf", r, g.set())
	case "faculties":
		return c.children("Faculty", "worksFor", r, g.set())
	case "professors":
		return c.children("Professor", "worksFor", r, g.set())
	case "lecturers":
		return c.children("Lecturer", "worksFor", r, g.set())
	case "graduateStudents":
		return c.children("GraduateStudent", "memberOf", r, g.set())
	default: // undergraduateStudents
		return c.children("UndergraduateStudent", "memberOf", r, g.set())
	}
}

// facultyField serves Professor and Lecturer; r is a Faculty, Professor or
// Lecturer row (the professor-only fields are asked only of professors).
func (c *compiler) facultyField(r row, g *group) string {
	switch g.name() {
	case "researchInterest":
		return r.p + ".researchInterest"
	case "profType":
		return r.p + ".professorType"
	case "position":
		return "CAST(NULL AS text)"
	case "undergraduateDegreeFrom", "masterDegreeFrom", "doctoralDegreeFrom":
		return c.ref("University", r, g.name(), g.set())
	case "worksFor":
		return c.ref("Department", r, "worksFor", g.set())
	case "teacherOfGraduateCourses":
		return c.children("GraduateCourse", "teacher", r, g.set())
	case "teacherOfUndergraduateCourses":
		return c.children("UndergraduateCourse", "teacher", r, g.set())
	case "publications":
		t := c.newRow("Publication")
		return c.many(list{r: t, where: []string{t.col("mainAuthor") + " = " + r.col("nr")},
			keys: c.publicationOrder(t, c.arg(g, "order"))}, g.set())
	case "supervisedUndergraduateStudents":
		return c.children("UndergraduateStudent", "advisor", r, g.set())
	default: // supervisedGraduateStudents
		return c.children("GraduateStudent", "advisor", r, g.set())
	}
}

func (c *compiler) studentField(r row, g *group) string {
	switch g.name() {
	case "memberOf":
		return c.ref("Department", r, "memberOf", g.set())
	case "undergraduateDegreeFrom":
		return c.ref("University", r, "undergraduateDegreeFrom", g.set())
	case "advisor":
		return c.ref("Professor", r, "advisor", g.set())
	case "takeGraduateCourses":
		return c.joined("GraduateCourse", "graduateStudentTakeCourse", "graduateStudentID", "graduateCourseID", r, g.set())
	case "takeCourses":
		return c.joined("UndergraduateCourse", "undergraduateStudentTakeCourse", "undergraduateStudentID", "undergraduateCourseID", r, g.set())
	default: // assistCourses
		return c.children("UndergraduateCourse", "teachingAssistant", r, g.set())
	}
}

func (c *compiler) courseField(r row, g *group) string {
	switch g.name() {
	case "teachedby":
		return c.ref("Faculty", r, "teacher", g.set())
	case "graduateStudents":
		return c.joined("GraduateStudent", "graduateStudentTakeCourse", "graduateCourseID", "graduateStudentID", r, g.set())
	case "undergraduateStudents":
		return c.joined("UndergraduateStudent", "undergraduateStudentTakeCourse", "undergraduateCourseID", "undergraduateStudentID", r, g.set())
	default: // teachingAssistants
		return c.ref("GraduateStudent", r, "teachingAssistant", g.set())
	}
}
