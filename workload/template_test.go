package workload

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// TestTemplatesValidate re-parses every template's query from its text and
// validates it against the schema, independently of the registry's checks.
func TestTemplatesValidate(t *testing.T) {
	ts := Templates()
	if len(ts) != 16 {
		t.Fatalf("%d templates, want 16", len(ts))
	}
	for i, tp := range ts {
		if tp.ID != i+1 || tp.Name != "QT"+strconv.Itoa(i+1) {
			t.Errorf("template %d is %s (ID %d)", i+1, tp.Name, tp.ID)
		}
		doc, err := parser.ParseQuery(&ast.Source{Input: tp.Query})
		if err != nil {
			t.Errorf("%s: %v", tp.Name, err)
			continue
		}
		if errs := validator.ValidateWithRules(Schema(), doc, nil); len(errs) > 0 {
			t.Errorf("%s: %v", tp.Name, errs)
		}
		if strings.Contains(tp.Query, "#") {
			t.Errorf("%s: the query text carries a comment", tp.Name)
		}
		if tp.Description == "" || len(tp.ChokePoints) == 0 {
			t.Errorf("%s: no description or choke points", tp.Name)
		}
	}
}

// TestTemplateVariablesArePlaceholders checks that a template's Vars are
// exactly the variables its query uses, each with a domain of the right type.
func TestTemplateVariablesArePlaceholders(t *testing.T) {
	want := map[string][]string{ // DESIGN Appendix C placeholders
		"QT1": {"facultyID"}, "QT2": {"universityID"}, "QT3": {"researchGroupID"},
		"QT4": {"lecturerID"}, "QT5": {"departmentID"}, "QT6": {"universityID"},
		"QT7": {"universityID", "offset"}, "QT8": {"cnt", "attr1", "attr2"},
		"QT9": {"universityID", "attrPublicationField"}, "QT10": {"keyword"},
		"QT11": {"universityID"}, "QT12": {"universityID", "departmentID"},
		"QT13": {"universityID", "interestWord"}, "QT14": {"universityID", "age", "interestWord"},
		"QT15": {"universityID"}, "QT16": {"universityID"},
	}
	for _, tp := range Templates() {
		used := usedVariables(tp.Query)
		var names []string
		for _, v := range tp.Vars {
			names = append(names, v.Name)
			if v.Domain.Kind == 0 || v.Domain.String() == "invalid domain" {
				t.Errorf("%s $%s has no domain", tp.Name, v.Name)
			}
			if v.Type != v.Domain.graphQLType() {
				t.Errorf("%s $%s: type %s, domain %s", tp.Name, v.Name, v.Type, v.Domain)
			}
		}
		if !slices.Equal(names, want[tp.Name]) {
			t.Errorf("%s variables %v, want %v", tp.Name, names, want[tp.Name])
		}
		slices.Sort(names)
		if !slices.Equal(names, used) {
			t.Errorf("%s declares %v but uses %v", tp.Name, names, used)
		}
	}
}

// TestTemplateDomains pins the domains of DESIGN Appendix C.
func TestTemplateDomains(t *testing.T) {
	for _, c := range []struct {
		tmpl, v, want string
	}{
		{"QT1", "facultyID", "ids facultyID"},
		{"QT2", "universityID", "ids universityID"}, // the 1000-university pool
		{"QT7", "offset", "range 1..50"},
		{"QT8", "cnt", "range 501..1000"}, // the paper's interval (500, 1000]
		{"QT8", "attr1", "enum GraduateStudentField"},
		{"QT8", "attr2", "enum GraduateStudentField, distinct from $attr1"},
		{"QT9", "attrPublicationField", "enum PublicationField"},
		{"QT10", "keyword", "words title"},
		{"QT12", "departmentID", "ids departmentID"},
		{"QT13", "interestWord", "words interest"},
		{"QT14", "age", "range 20..27"},
		{"QT14", "interestWord", "words interest"},
	} {
		tp, err := TemplateByName(c.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		v := tp.Var(c.v)
		if v == nil || v.Domain.String() != c.want {
			t.Errorf("%s $%s: %v, want %s", c.tmpl, c.v, v, c.want)
		}
	}
}

func usedVariables(q string) []string {
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var walkValue func(v *ast.Value)
	walkValue = func(v *ast.Value) {
		if v.Kind == ast.Variable {
			seen[v.Raw] = true
		}
		for _, c := range v.Children {
			walkValue(c.Value)
		}
	}
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, s := range set {
			f := s.(*ast.Field)
			for _, a := range f.Arguments {
				walkValue(a.Value)
			}
			walk(f.SelectionSet)
		}
	}
	walk(doc.Operations[0].SelectionSet)
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func TestTemplateByName(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // 0: an error
	}{
		{"QT5", 5}, {"qt16", 16}, {"7", 7}, // accepted spellings
		{"17", 0}, {"0", 0}, {"QT0", 0}, // out of range
		{"x", 0}, {"", 0}, {"QT", 0}, {"+3", 0}, {"-1", 0}, // not a template
	} {
		tp, err := TemplateByName(c.in)
		switch {
		case c.want == 0 && err == nil:
			t.Errorf("%q: accepted as %s", c.in, tp.Name)
		case c.want != 0 && (err != nil || tp.ID != c.want):
			t.Errorf("%q: %v %v, want QT%d", c.in, tp, err, c.want)
		}
	}
}

// TestParseTemplateRejects feeds the template loader broken files.
func TestParseTemplateRejects(t *testing.T) {
	good := "# Description: d\n# Choke points: 2.1\n# $universityID: ids universityID\n" +
		"query QT2($universityID: ID!) { university(nr: $universityID) { id } }"
	if _, err := parseTemplate(2, good); err != nil {
		t.Fatalf("the good file fails: %v", err)
	}
	for _, c := range []struct {
		name, src string
	}{
		{"no header", "query QT2($universityID: ID!) { university(nr: $universityID) { id } }"},
		{"unknown choke point", strings.Replace(good, "2.1", "9.9", 1)},
		{"unknown header key", strings.Replace(good, "# Description", "# Descr", 1)},
		{"no domain line", strings.Replace(good, "# $universityID: ids universityID\n", "", 1)},
		{"domain for a missing variable", strings.Replace(good, "$universityID: ids", "$other: ids", 1)},
		{"unknown id list", strings.Replace(good, "ids universityID", "ids studentID", 1)},
		{"domain of the wrong type", strings.Replace(good, "ids universityID", "range 1..5", 1)},
		{"nullable variable", strings.Replace(good, "ID!)", "ID)", 1)},
		{"wrong operation name", strings.Replace(good, "query QT2", "query QT3", 1)},
		{"unknown field", strings.Replace(good, "{ id }", "{ nr }", 1)},
		{"syntax error", strings.Replace(good, "{ id }", "{ id ", 1)},
		{"bad range", strings.Replace(strings.Replace(good, "ids universityID", "range 5..1", 1), "ID!", "Int!", 1)},
		{"distinct from nothing", strings.Replace(good, "ids universityID", "enum PublicationField, distinct from $x", 1)},
	} {
		if _, err := parseTemplate(2, c.src); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	// The loader wants exactly the 16 files.
	fsys := fstest.MapFS{"templates/QT1.graphql": {Data: []byte(good)}}
	if _, err := loadTemplates(fsys); err == nil {
		t.Error("loadTemplates accepted a folder with one file")
	}
}
