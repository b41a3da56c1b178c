package workload

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestSchemaNames pins the names of DESIGN Appendix B, odd spellings included:
// servers and LinGBM's own queries depend on them.
func TestSchemaNames(t *testing.T) {
	s := Schema()
	for _, c := range []struct {
		typ, field, want string // want: the field's type
	}{
		{"Query", "faculty", "Faculty"},
		{"Query", "graduateStudents", "[GraduateStudent]"},
		{"Query", "publicationSearch", "[Publication]"},
		{"University", "undergraduateDegreeObtainedBystudent", "[GraduateStudent]"}, // lower-case "by"
		{"University", "mastergraduateDegreeObtainers", "[Faculty]"},
		{"University", "graduateStudentConnection", "CollectionOfEdgesToUgStudents"},
		{"Faculty", "undergraduateDegreeFrom", "University"},
		{"Professor", "publications", "[Publication]"},
		{"Professor", "profType", "String"},
		{"Lecturer", "position", "String"},
		{"ResearchGroup", "subOrganizationOf", "Department"},
		{"GraduateCourse", "teachedby", "Faculty"},
		{"UndergraduateCourse", "teachingAssistants", "GraduateStudent"}, // plural name, single student
		{"Publication", "authors", "[Author]"},
		{"AggregateUgStudents", "count", "Int!"},
		{"AgeAggregationOfUgStudents", "avg", "Float!"},
		{"GraduateStudentWhereInput", "AND", "[GraduateStudentWhereInput!]"},
		{"ProfessorWhereInput", "researchInterest", "StringMatching"},
	} {
		def := s.Types[c.typ]
		if def == nil {
			t.Errorf("no type %s", c.typ)
			continue
		}
		f := def.Fields.ForName(c.field)
		if f == nil {
			t.Errorf("%s has no field %s", c.typ, c.field)
			continue
		}
		if f.Type.String() != c.want {
			t.Errorf("%s.%s: %s, want %s", c.typ, c.field, f.Type, c.want)
		}
	}
	enums := map[string]string{
		"NumberCriterion":      "MORETHAN LESSTHAN EQUALS",
		"StringCriterion":      "CONTAINS START_WITH END_WITH EQUALS",
		"PublicationField":     "title abstract",
		"SortDirection":        "ASC DESC",
		"GraduateStudentField": "id telephone emailAddress memberOf undergraduateDegreeFrom advisor",
	}
	for name, want := range enums {
		var got []string
		for _, v := range s.Types[name].EnumValues {
			got = append(got, v.Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("enum %s: %v, want %s", name, got, want)
		}
	}
	if s.Types["Faculty"].Kind != ast.Interface || s.Types["Author"].Kind != ast.Interface {
		t.Error("Faculty and Author must be interfaces")
	}
	if got := s.GetPossibleTypes(s.Types["Author"]); len(got) != 3 {
		t.Errorf("Author has %d implementations, want Professor, Lecturer, GraduateStudent", len(got))
	}
}

// TestSchemaDocumentsSemantics checks that the rules every server must follow
// are written in the schema itself.
func TestSchemaDocumentsSemantics(t *testing.T) {
	src := SchemaSource()
	for _, want := range []string{
		"ascending by the `id`", "final tie-breaker", "after filtering and ordering",
		"serialises as a JSON\n  string", `COLLATE "C"`, "case-sensitive", "null sorts before",
		"Over no students every value is 0", "coerced to a one-element list", "returns null",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the schema does not say %q", want)
		}
	}
}

// TestSchemaWithWrites: the write extension loads over the benchmark
// schema, adds the mutations and the lookups, and leaves every type and
// field of the benchmark schema as it is.
func TestSchemaWithWrites(t *testing.T) {
	base, full := Schema(), SchemaWithWrites()
	if base.Mutation != nil {
		t.Error("the benchmark schema has a mutation type")
	}
	if full.Mutation == nil || len(full.Mutation.Fields) != 6 {
		t.Fatalf("the extended schema's mutation type: %v", full.Mutation)
	}
	for _, f := range []string{"publication", "undergraduateStudent"} {
		if full.Query.Fields.ForName(f) == nil || base.Query.Fields.ForName(f) != nil {
			t.Errorf("Query.%s: in the extension only", f)
		}
	}
	for name, def := range base.Types {
		ext := full.Types[name]
		if ext == nil {
			t.Errorf("type %s is missing from the extended schema", name)
			continue
		}
		for _, f := range def.Fields {
			g := ext.Fields.ForName(f.Name)
			if g == nil || g.Type.String() != f.Type.String() || len(g.Arguments) != len(f.Arguments) {
				t.Errorf("%s.%s differs in the extended schema", name, f.Name)
			}
		}
		if name != "Query" && len(ext.Fields) != len(def.Fields) {
			t.Errorf("%s has %d fields in the extended schema, %d in the benchmark's", name, len(ext.Fields), len(def.Fields))
		}
	}
}

// TestSchemaWithSubscriptions: the subscription extension loads over the
// schema with its writes and adds the Subscription root.
func TestSchemaWithSubscriptions(t *testing.T) {
	s := SchemaWithSubscriptions()
	if s.Subscription == nil || s.Subscription.Fields.ForName("publicationAdded") == nil || s.Subscription.Fields.ForName("undergraduateStudentAdded") == nil {
		t.Fatal("no Subscription root with publicationAdded and undergraduateStudentAdded")
	}
	if SchemaWithWrites().Subscription != nil {
		t.Error("the write extension alone has a Subscription root")
	}
}
