package store

import (
	"strconv"

	"github.com/gqlbench/gqlbench/dataset"
)

// The ntriples format writes the dataset as RDF in LUBM's ontology
// (univ-bench), with LUBM's entity IRIs, so that GraphQL-over-RDF systems and
// RDF stores load the same data as the relational targets. N-Triples has no
// prefixes: every IRI is written in full.
const (
	// UnivBench is the namespace of LUBM's ontology.
	UnivBench = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
	xsdInt    = "^^<http://www.w3.org/2001/XMLSchema#integer>"
)

var rdfType = []byte("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>")

// ubClass is a class of univ-bench that entities are typed with.
type ubClass uint8

const (
	clsUniversity ubClass = iota
	clsDepartment
	clsResearchGroup
	clsFullProfessor
	clsAssociateProfessor
	clsAssistantProfessor
	clsLecturer
	clsFaculty // a faculty nr with an unknown rank digit
	clsUndergraduateStudent
	clsGraduateStudent
	clsStudent // a student nr with an unknown kind digit
	clsCourse  // LUBM's undergraduate course
	clsGraduateCourse
	clsPublication
	numClasses
)

var ubClassNames = [numClasses]string{"University", "Department", "ResearchGroup",
	"FullProfessor", "AssociateProfessor", "AssistantProfessor", "Lecturer", "Faculty",
	"UndergraduateStudent", "GraduateStudent", "Student", "Course", "GraduateCourse", "Publication"}

// ubClassTerms are the classes written as N-Triples terms.
var ubClassTerms = func() (terms [numClasses][]byte) {
	for i, n := range ubClassNames {
		terms[i] = []byte(ub(n))
	}
	return terms
}()

func ub(name string) string { return "<" + UnivBench + name + ">" }

// classOf is the class of the entity numbered nr in table t, decoded from
// the last digit of the nr where the table holds several kinds (DESIGN
// Appendix A: faculty rank, student and course kind).
func classOf(t dataset.TableID, nr int64) ubClass {
	switch t {
	case dataset.University:
		return clsUniversity
	case dataset.Department:
		return clsDepartment
	case dataset.ResearchGroup:
		return clsResearchGroup
	case dataset.Faculty, dataset.Professor, dataset.Lecturer:
		if r := nr % 10; r >= 1 && r <= 4 {
			return clsFullProfessor + ubClass(r-1)
		}
		return clsFaculty
	case dataset.UndergraduateStudent, dataset.GraduateStudent:
		switch nr % 10 {
		case 1:
			return clsUndergraduateStudent
		case 2:
			return clsGraduateStudent
		}
		return clsStudent
	case dataset.UndergraduateCourse, dataset.GraduateCourse:
		if nr%10 == 2 {
			return clsGraduateCourse
		}
		return clsCourse
	case dataset.Publication:
		return clsPublication
	}
	return numClasses
}

// EntityIRI returns the LUBM-style IRI of the entity numbered nr in table t,
// decoding the nr as DESIGN Appendix A encodes it, e.g. faculty 1003021 is
// http://www.Department3.University10.edu/AssistantProfessor2. Professors
// and lecturers are faculty members and share their IRIs. The tables that
// relate entities (coAuthorOfPublication, ...) hold no entities: "".
func EntityIRI(t dataset.TableID, nr int64) string {
	return string(appendEntityIRI(nil, t, nr))
}

// appendEntityIRI appends EntityIRI(t, nr).
func appendEntityIRI(dst []byte, t dataset.TableID, nr int64) []byte {
	switch t {
	case dataset.University:
		dst = append(dst, "http://www.University"...)
		dst = strconv.AppendInt(dst, nr, 10)
		return append(dst, ".edu"...)
	case dataset.Department:
		dst = append(dst, "http://www.Department"...)
		dst = strconv.AppendInt(dst, nr%100, 10)
		dst = append(dst, ".University"...)
		dst = strconv.AppendInt(dst, nr/100, 10)
		return append(dst, ".edu"...)
	case dataset.ResearchGroup:
		return appendMember(dst, nr/100, "ResearchGroup", nr%100)
	case dataset.Faculty, dataset.Professor, dataset.Lecturer,
		dataset.UndergraduateCourse, dataset.GraduateCourse:
		return appendMember(dst, nr/1000, ubClassNames[classOf(t, nr)], nr%1000/10)
	case dataset.UndergraduateStudent, dataset.GraduateStudent:
		return appendMember(dst, nr/10000, ubClassNames[classOf(t, nr)], nr%10000/10)
	case dataset.Publication:
		dst = appendEntityIRI(dst, dataset.Faculty, nr/100)
		dst = append(dst, "/Publication"...)
		return strconv.AppendInt(dst, nr%100, 10)
	}
	return dst
}

// appendMember appends the IRI of member i of a kind in department dept.
func appendMember(dst []byte, dept int64, kind string, i int64) []byte {
	dst = appendEntityIRI(dst, dataset.Department, dept)
	dst = append(dst, '/')
	dst = append(dst, kind...)
	return strconv.AppendInt(dst, i, 10)
}

// ntKind says how a column becomes a triple.
type ntKind uint8

const (
	ntText    ntKind = iota // subject pred "literal"
	ntInt                   // subject pred "n"^^xsd:integer
	ntRef                   // subject pred <entity of ref>
	ntReverse               // <entity of ref> pred subject
)

// ntProp maps one column to triples.
type ntProp struct {
	column string // the column's name
	col    int    // and its index
	pred   []byte
	kind   ntKind
	ref    dataset.TableID
}

// ntTable maps the rows of one table to triples about the entity in column
// subject (an entity of table subjOf); typed tables also state its class.
type ntTable struct {
	subject int
	subjOf  dataset.TableID
	typed   bool
	props   []ntProp
}

// ntTables is the mapping of every table to univ-bench. Every univ-bench
// term used exists in the ontology except ub:abstract, which LUBM's
// publications lack (gqlbench's extension, named in the same namespace);
// ub:title is univ-bench's title of a person, used here for a publication's
// title, and LUBM's generator writes no ub:age though the ontology has it.
// Professors and lecturers are typed through their faculty row (FullProfessor
// ... Lecturer, by the rank digit of the nr); courses are LUBM's Course
// (undergraduate) and GraduateCourse.
var ntTables = func() (m [dataset.NumTables]ntTable) {
	T := func(id dataset.TableID, subject string, subjOf dataset.TableID, typed bool, props ...ntProp) {
		tb := dataset.Tables[id]
		for i := range props {
			props[i].col = ntColumn(tb, props[i].column)
		}
		m[id] = ntTable{subject: ntColumn(tb, subject), subjOf: subjOf, typed: typed, props: props}
	}
	P := func(col string, pred string, kind ntKind, ref dataset.TableID) ntProp {
		return ntProp{column: col, pred: []byte(ub(pred)), kind: kind, ref: ref}
	}
	text := func(col, pred string) ntProp { return P(col, pred, ntText, 0) }
	person := func(more ...ntProp) []ntProp {
		return append([]ntProp{text("name", "name"), text("telephone", "telephone"),
			text("emailAddress", "emailAddress")}, more...)
	}
	U, D, F := dataset.University, dataset.Department, dataset.Faculty
	G, UG := dataset.GraduateStudent, dataset.UndergraduateStudent
	T(U, "nr", U, true, text("name", "name"))
	T(D, "nr", D, true, text("name", "name"), P("subOrganizationOf", "subOrganizationOf", ntRef, U))
	T(dataset.ResearchGroup, "nr", dataset.ResearchGroup, true, P("subOrganizationOf", "subOrganizationOf", ntRef, D))
	T(F, "nr", F, true, person(
		P("undergraduateDegreeFrom", "undergraduateDegreeFrom", ntRef, U),
		P("masterDegreeFrom", "mastersDegreeFrom", ntRef, U),
		P("doctoralDegreeFrom", "doctoralDegreeFrom", ntRef, U),
		P("worksFor", "worksFor", ntRef, D))...)
	T(dataset.Professor, "nr", F, false, text("researchInterest", "researchInterest"), P("headOf", "headOf", ntRef, D))
	T(dataset.Lecturer, "nr", F, false)
	T(G, "nr", G, true, person(P("age", "age", ntInt, 0),
		P("undergraduateDegreeFrom", "undergraduateDegreeFrom", ntRef, U),
		P("advisor", "advisor", ntRef, F), P("memberOf", "memberOf", ntRef, D))...)
	T(UG, "nr", UG, true, person(P("age", "age", ntInt, 0),
		P("advisor", "advisor", ntRef, F), P("memberOf", "memberOf", ntRef, D))...)
	T(dataset.UndergraduateCourse, "nr", dataset.UndergraduateCourse, true, text("name", "name"),
		P("teacher", "teacherOf", ntReverse, F),
		P("teachingAssistant", "teachingAssistantOf", ntReverse, G))
	T(dataset.GraduateCourse, "nr", dataset.GraduateCourse, true, text("name", "name"),
		P("teacher", "teacherOf", ntReverse, F))
	T(dataset.Publication, "nr", dataset.Publication, true, text("name", "name"), text("title", "title"),
		text("abstract", "abstract"), P("mainAuthor", "publicationAuthor", ntRef, F))
	T(dataset.CoAuthorOfPublication, "publicationID", dataset.Publication, false,
		P("graduateStudentID", "publicationAuthor", ntRef, G))
	T(dataset.GraduateStudentTakeCourse, "graduateStudentID", G, false,
		P("graduateCourseID", "takesCourse", ntRef, dataset.GraduateCourse))
	T(dataset.UndergraduateStudentTakeCourse, "undergraduateStudentID", UG, false,
		P("undergraduateCourseID", "takesCourse", ntRef, dataset.UndergraduateCourse))
	return m
}()

func ntColumn(t *dataset.Table, name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	panic("store: table " + t.Name + " has no column " + name)
}

// nTriples is the ntriples codec.
type nTriples struct{}

func newNTriples() *nTriples { return &nTriples{} }

func (*nTriples) comment() string { return "#" }
func (*nTriples) rowBytes() int   { return 600 }

func (*nTriples) begin(dst []byte) []byte {
	return append(dst, "# LUBM's ontology: "+UnivBench+"\n"...)
}

func (*nTriples) commit(dst []byte, m *dataset.Meta) ([]byte, error) { return dst, nil }

func (*nTriples) encode(dst []byte, b *dataset.Batch) []byte {
	var subj, obj []byte
	for i := range b.Tables {
		rows := &b.Tables[i]
		spec := &ntTables[i]
		for r, n := 0, rows.Len(); r < n; r++ {
			row := rows.Row(r)
			nr := row[spec.subject].I
			subj = append(appendEntityIRI(append(subj[:0], '<'), spec.subjOf, nr), '>')
			if spec.typed {
				dst = appendTriple(dst, subj, rdfType, ubClassTerms[classOf(spec.subjOf, nr)])
			}
			for _, p := range spec.props {
				v := row[p.col]
				if v.Null {
					continue
				}
				switch p.kind {
				case ntText:
					obj = appendNTString(obj[:0], v.S)
				case ntInt:
					obj = append(strconv.AppendInt(append(obj[:0], '"'), v.I, 10), '"')
					obj = append(obj, xsdInt...)
				case ntRef, ntReverse:
					obj = append(appendEntityIRI(append(obj[:0], '<'), p.ref, v.I), '>')
				}
				if p.kind == ntReverse {
					dst = appendTriple(dst, obj, p.pred, subj)
				} else {
					dst = appendTriple(dst, subj, p.pred, obj)
				}
			}
		}
	}
	return dst
}

// appendTriple appends one N-Triples line.
func appendTriple(dst, subj, pred, obj []byte) []byte {
	dst = append(dst, subj...)
	dst = append(dst, ' ')
	dst = append(dst, pred...)
	dst = append(dst, ' ')
	dst = append(dst, obj...)
	return append(dst, " .\n"...)
}

// appendNTString appends s as an N-Triples string literal.
func appendNTString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, &ntEscapes)
	return append(dst, '"')
}
