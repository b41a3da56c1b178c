package compiled

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/server"
)

// TestEveryField selects every field of every object and interface type of
// the schema (the mutations aside), each in its own query, on both
// databases: no errors, one statement, the same answer, and the field
// present in it.
func TestEveryField(t *testing.T) {
	bs := backends(t)
	var dept, prof, lect, group, pub, ugrad int64
	db := bs[1].plain
	db.QueryRow(`SELECT min(nr) FROM department`).Scan(&dept)
	db.QueryRow(`SELECT min(nr) FROM publication`).Scan(&pub)
	db.QueryRow(`SELECT min(nr) FROM undergraduateStudent`).Scan(&ugrad)
	db.QueryRow(`SELECT nr FROM professor WHERE headOf = ?`, dept).Scan(&prof)
	db.QueryRow(`SELECT min(nr) FROM lecturer`).Scan(&lect)
	db.QueryRow(`SELECT min(nr) FROM researchGroup`).Scan(&group)
	// How to reach an object of each type: a query with %s where the
	// selection goes.
	paths := map[string]string{
		"Query":                         "{ %s }",
		"University":                    `{ university(nr: "0") { %s } }`,
		"Department":                    fmt.Sprintf(`{ department(nr: "%d") { %%s } }`, dept),
		"ResearchGroup":                 fmt.Sprintf(`{ researchGroup(nr: "%d") { %%s } }`, group),
		"Faculty":                       fmt.Sprintf(`{ faculty(nr: "%d") { %%s } }`, prof),
		"Professor":                     fmt.Sprintf(`{ department(nr: "%d") { head { %%s } } }`, dept),
		"Lecturer":                      fmt.Sprintf(`{ lecturer(nr: "%d") { %%s } }`, lect),
		"Author":                        fmt.Sprintf(`{ faculty(nr: "%d") { publications { authors { %%s } } } }`, prof),
		"Publication":                   fmt.Sprintf(`{ faculty(nr: "%d") { publications { %%s } } }`, prof),
		"GraduateStudent":               fmt.Sprintf(`{ department(nr: "%d") { graduateStudents { %%s } } }`, dept),
		"UndergraduateStudent":          fmt.Sprintf(`{ department(nr: "%d") { undergraduateStudents { %%s } } }`, dept),
		"GraduateCourse":                fmt.Sprintf(`{ faculty(nr: "%d") { teacherOfGraduateCourses { %%s } } }`, prof),
		"UndergraduateCourse":           fmt.Sprintf(`{ faculty(nr: "%d") { teacherOfUndergraduateCourses { %%s } } }`, prof),
		"CollectionOfEdgesToUgStudents": `{ university(nr: "0") { graduateStudentConnection { %s } } }`,
		"AggregateUgStudents":           `{ university(nr: "0") { graduateStudentConnection { aggregate { %s } } } }`,
		"AgeAggregationOfUgStudents":    `{ university(nr: "0") { graduateStudentConnection { aggregate { age { %s } } } } }`,
	}
	// The root fields' required arguments.
	rootArgs := map[string]string{
		"faculty": fmt.Sprintf(`(nr: "%d")`, prof), "university": `(nr: "0")`, "researchGroup": fmt.Sprintf(`(nr: "%d")`, group),
		"lecturer": fmt.Sprintf(`(nr: "%d")`, lect), "department": fmt.Sprintf(`(nr: "%d")`, dept),
		"graduateStudents": `(limit: 20)`, "publicationSearch": `(field: abstract, criterion: START_WITH, pattern: "a")`,
		"publication": fmt.Sprintf(`(nr: "%d")`, pub), "undergraduateStudent": fmt.Sprintf(`(nr: "%d")`, ugrad),
	}
	schema := bs[0].exec.schema
	covered := 0
	for _, def := range schema.Types {
		if def.BuiltIn || (def.Kind != ast.Object && def.Kind != ast.Interface) || def.Name == "Mutation" { // writes: mutation_test.go
			continue
		}
		path, ok := paths[def.Name]
		if !ok {
			t.Errorf("no path reaches type %s", def.Name)
			continue
		}
		for _, f := range append(def.Fields, &ast.FieldDefinition{Name: "__typename", Type: ast.NamedType("String", nil)}) {
			if strings.HasPrefix(f.Name, "__") && f.Name != "__typename" {
				continue
			}
			sel := f.Name
			if def.Name == "Query" {
				sel += rootArgs[f.Name]
			}
			if ft := schema.Types[f.Type.Name()]; ft.Kind == ast.Object || ft.Kind == ast.Interface {
				sel += " { __typename }"
			}
			q := fmt.Sprintf(path, sel)
			var answers []string
			for _, b := range bs {
				res := b.run(t, q, "")
				if res.RequestError || len(res.Errors) > 0 || res.statements != 1 {
					t.Fatalf("%s: %s: errors %v, %d statements", b.name, q, res.Errors, res.statements)
				}
				answers = append(answers, canon(t, res.Data))
			}
			if answers[0] != answers[1] {
				t.Errorf("%s.%s: PostgreSQL and SQLite differ:\n%.400s\n%.400s", def.Name, f.Name, answers[0], answers[1])
			}
			if !strings.Contains(answers[0], `"`+f.Name+`":`) {
				t.Errorf("%s.%s: not in the answer %.300s", def.Name, f.Name, answers[0])
			}
			covered++
		}
	}
	if covered < 100 {
		t.Errorf("only %d fields covered", covered)
	}
}

// nestedFaculty is a query that asks type-specific fields of faculty
// members at k nested levels.
func nestedFaculty(nr int64, k int) string {
	q := "id"
	for i := 0; i < k; i++ {
		q = `__typename id ... on Professor { profType } ... on Lecturer { position } teacherOfGraduateCourses { id teachedby { ` + q + ` } }`
	}
	return fmt.Sprintf(`{ faculty(nr: "%d") { %s } }`, nr, q)
}

// TestNestedInterfaces: faculty selections that differ between Professor
// and Lecturer, nested, give the same answers on both databases, and the
// SQL grows linearly with the nesting, not twice per level.
func TestNestedInterfaces(t *testing.T) {
	bs := backends(t)
	var prof, lect int64
	bs[1].plain.QueryRow(`SELECT min(nr) FROM professor`).Scan(&prof)
	bs[1].plain.QueryRow(`SELECT min(nr) FROM lecturer`).Scan(&lect)
	for _, nr := range []int64{prof, lect} {
		q := nestedFaculty(nr, 3)
		a, b := bs[0].data(t, q, ""), bs[1].data(t, q, "")
		if a != b {
			t.Errorf("PostgreSQL and SQLite differ:\n%s\n%s", a, b)
		}
		typ := map[int64]string{prof: `"Professor"`, lect: `"Lecturer"`}[nr]
		if !strings.HasPrefix(a, `{"faculty":{"__typename":`+typ) || strings.Count(a, `"teachedby":{"__typename":`+typ) < 3 {
			t.Errorf("faculty %d: %.300s", nr, a)
		}
	}
	size := func(k int) int {
		r := &server.Request{Query: nestedFaculty(prof, k)}
		ent, _, errs := bs[1].exec.document(r.Query, "")
		p, _, _, _, _, fail := bs[1].exec.plan(ent, errs, r)
		if fail != nil {
			t.Fatal(fail.Errors)
		}
		return len(p.sql)
	}
	one, six := size(1), size(6)
	if six > 8*one {
		t.Errorf("the SQL of 6 nested levels is %d bytes, of 1 level %d: not linear", six, one)
	}
}
