package compiled

import (
	"errors"
	"fmt"

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
		return c.ref("Department", r.col("subOrganizationOf"), g.set())
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

// ref is the object of type typ whose nr is the SQL expression nr, or NULL.
func (c *compiler) ref(typ, nr string, set ast.SelectionSet) string {
	t := c.newRow(typ)
	return c.one(t, []string{t.col("nr") + " = " + nr}, false, set)
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
		return c.many(list{r: t, where: c.gradWhere(t, c.arg(g, "where")), keys: keys, split: split,
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
		where := append([]string{t.col("undergraduateDegreeFrom") + " = " + r.col("nr")}, c.gradWhere(t, c.arg(g, "where"))...)
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
		return c.ref("University", r.col("subOrganizationOf"), g.set())
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
		return c.ref("University", r.col(g.name()), g.set())
	case "worksFor":
		return c.ref("Department", r.col("worksFor"), g.set())
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
		return c.ref("Department", r.col("memberOf"), g.set())
	case "undergraduateDegreeFrom":
		return c.ref("University", r.col("undergraduateDegreeFrom"), g.set())
	case "advisor":
		return c.ref("Professor", r.col("advisor"), g.set())
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
		return c.ref("Faculty", r.col("teacher"), g.set())
	case "graduateStudents":
		return c.joined("GraduateStudent", "graduateStudentTakeCourse", "graduateCourseID", "graduateStudentID", r, g.set())
	case "undergraduateStudents":
		return c.joined("UndergraduateStudent", "undergraduateStudentTakeCourse", "undergraduateCourseID", "undergraduateStudentID", r, g.set())
	default: // teachingAssistants
		return c.ref("GraduateStudent", r.col("teachingAssistant"), g.set())
	}
}
