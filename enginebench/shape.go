package enginebench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// Shape is one document with its variables: a kind of query seed 003
// benchmarks, or an instance of a LinGBM template.
type Shape struct {
	Name  string // one-object, root-fields, ..., QT1..QT16
	Group string // "seed 003" or "LinGBM"
	About string // what it exercises
	Query string
	// Variables are the operation's variables as JSON (nil: none).
	Variables json.RawMessage
}

// Request is the shape as a server receives it: the variables decoded
// from JSON with numbers as json.Number, as the HTTP layer decodes them.
func (s Shape) Request() (*server.Request, error) {
	r := &server.Request{Query: s.Query}
	if len(s.Variables) > 0 {
		dec := json.NewDecoder(bytes.NewReader(s.Variables))
		dec.UseNumber()
		if err := dec.Decode(&r.Variables); err != nil {
			return nil, fmt.Errorf("shape %s: variables: %w", s.Name, err)
		}
	}
	return r, nil
}

// The seed 003 groups.
const (
	GroupSeed003 = "seed 003"
	GroupLinGBM  = "LinGBM"
)

// ListSizes are the lengths of the list shapes (list-10, list-100, list-1000).
var ListSizes = []int{10, 100, 1000}

// Shapes returns every shape over the dataset meta describes: seed 003's,
// then one instance of each LinGBM template (drawn with seed 1).
func Shapes(meta *dataset.Meta) ([]Shape, error) {
	first := func(kind string) (string, error) {
		ids := meta.IDs[kind]
		if len(ids) == 0 {
			return "", fmt.Errorf("the dataset has no %s", kind)
		}
		return strconv.FormatInt(ids[len(ids)/2], 10), nil
	}
	var id = map[string]string{}
	for _, k := range []string{"facultyID", "professorID", "lecturerID", "universityID", "departmentID", "researchGroupID"} {
		v, err := first(k)
		if err != nil {
			return nil, err
		}
		id[k] = v
	}
	if n := meta.Rows["graduateStudent"]; n < int64(ListSizes[len(ListSizes)-1]) {
		return nil, fmt.Errorf("the dataset has %d graduate students, fewer than the longest list (%d): use sf=1 or more", n, ListSizes[len(ListSizes)-1])
	}
	fill := func(s string) string {
		for k, v := range id {
			s = strings.ReplaceAll(s, "$"+k, strconv.Quote(v))
		}
		return s
	}
	out := []Shape{
		{Name: "one-object", Group: GroupSeed003, About: "a single object by id, three scalar fields",
			Query: fill(`{ faculty(nr: $professorID) { id telephone emailAddress } }`)},
		{Name: "root-fields", Group: GroupSeed003, About: "five root fields (seed 003's multi-controller query)",
			Query: fill(`{ university(nr: $universityID) { id } department(nr: $departmentID) { id } ` +
				`researchGroup(nr: $researchGroupID) { id } faculty(nr: $professorID) { id emailAddress } lecturer(nr: $lecturerID) { id telephone } }`)},
		{Name: "variables", Group: GroupSeed003, About: "one-object with its id and a directive's condition as variables",
			Query:     `query Faculty($nr: ID!, $withPhone: Boolean!) { faculty(nr: $nr) { id telephone @include(if: $withPhone) emailAddress } }`,
			Variables: json.RawMessage(fmt.Sprintf(`{"nr":%q,"withPhone":true}`, id["professorID"]))},
		{Name: "fragments", Group: GroupSeed003, About: "a named fragment on an interface and inline fragments on its types",
			Query: fill(`query Fragments { faculty(nr: $professorID) { ...Person ... on Professor { researchInterest profType } ... on Lecturer { position } } ` +
				`lecturer(nr: $lecturerID) { ...Person } } ` +
				`fragment Person on Faculty { id emailAddress worksFor { id } doctoralDegreeFrom { id } }`)},
	}
	for _, n := range ListSizes {
		out = append(out, Shape{Name: fmt.Sprintf("list-%d", n), Group: GroupSeed003,
			About: fmt.Sprintf("a list of %d objects, each with nested objects and a nested list", n),
			Query: fmt.Sprintf(`{ graduateStudents(limit: %d) { id emailAddress age advisor { id } memberOf { id subOrganizationOf { id } } takeGraduateCourses { id } } }`, n)})
	}
	out = append(out, Shape{Name: "introspection", Group: GroupSeed003, About: "__schema and __type of four types, their fields, arguments and types",
		Query: introspection})
	lingbm, err := templateShapes(meta)
	return append(out, lingbm...), err
}

// templateShapes is one instance of each LinGBM template.
func templateShapes(meta *dataset.Meta) ([]Shape, error) {
	inst, err := workload.Generate(meta, workload.Options{PerTemplate: 1, Seed: 1})
	if err != nil {
		return nil, err
	}
	var out []Shape
	for _, in := range inst {
		vars, err := json.Marshal(in.Variables)
		if err != nil {
			return nil, err
		}
		about := ""
		if t, err := workload.TemplateByID(in.Template); err == nil {
			about = "choke points " + strings.Join(t.ChokePoints, ", ")
		}
		out = append(out, Shape{Name: fmt.Sprintf("QT%d", in.Template), Group: GroupLinGBM, About: about, Query: in.Query, Variables: vars})
	}
	return out, nil
}

// introspection asks what every engine answers alike (the order of
// __schema's types and directives differs between engines; a type's
// fields, arguments and interfaces are in the schema's order in all).
const introspection = `query Introspection {
  __schema { queryType { name } }
  professor: __type(name: "Professor") { ...Type }
  graduateStudent: __type(name: "GraduateStudent") { ...Type }
  university: __type(name: "University") { ...Type }
  where: __type(name: "GraduateStudentWhereInput") { name kind inputFields { name type { ...Ref } } }
}
fragment Type on __Type {
  name kind description
  interfaces { name }
  fields { name description isDeprecated args { name type { ...Ref } } type { ...Ref } }
}
fragment Ref on __Type { name kind ofType { name kind ofType { name kind } } }`
