package workload

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLinGBMRoundTrip(t *testing.T) {
	meta := testMeta(t, 1)
	inst, err := Generate(meta, Options{PerTemplate: 12, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := ExportLinGBM(dir, inst); err != nil {
		t.Fatal(err)
	}
	back, err := ImportLinGBM(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range inst {
		inst[i].Dataset = nil // LinGBM's files do not say which dataset
	}
	if !reflect.DeepEqual(back, inst) {
		t.Errorf("export → import changed the instances (%d → %d)", len(inst), len(back))
		for i := range min(len(inst), len(back)) {
			if !reflect.DeepEqual(inst[i], back[i]) {
				t.Fatalf("first difference:\n%+v\n%+v", inst[i], back[i])
			}
		}
	}
	// A shuffled mix keeps its ids (the file numbers) through the round trip.
	mix, _ := GenerateMix(meta, map[int]int{8: 1, 14: 2}, 5, 3)
	dir2 := t.TempDir()
	if err := ExportLinGBM(dir2, mix); err != nil {
		t.Fatal(err)
	}
	// Exporting again replaces the files rather than adding to them.
	if err := ExportLinGBM(dir2, mix); err != nil {
		t.Fatal(err)
	}
	back, err = ImportLinGBM(filepath.Join(dir2, "actualQueries"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Instance{}
	for _, in := range back {
		byID[in.ID] = in
	}
	for _, in := range mix {
		in.Dataset = nil
		if !reflect.DeepEqual(byID[in.ID], in) {
			t.Errorf("%s came back as %+v", in.ID, byID[in.ID])
		}
	}
	if len(back) != len(mix) {
		t.Errorf("%d instances came back, %d went", len(back), len(mix))
	}
}

// TestExportLinGBMFile pins what a LinGBM query file looks like: anonymous,
// values inline, integer IDs bare, enums bare, strings quoted.
func TestExportLinGBMFile(t *testing.T) {
	in := []Instance{{ID: "QT14-0003", Template: 14, Variables: map[string]any{"universityID": "172", "age": 26, "interestWord": `a"b\c`}}}
	dir := t.TempDir()
	if err := ExportLinGBM(dir, in); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "actualQueries", "QT14", "query3.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  university(nr: 172) {
    undergraduateDegreeObtainedBystudent(where: {AND: {age: {criterion: MORETHAN, pattern: 26}, advisor: {researchInterest: {criterion: CONTAINS, pattern: "a\"b\\c"}}}}) {
      id
      emailAddress
      takeGraduateCourses {
        id
      }
    }
  }
}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	bad := []Instance{{ID: "x", Template: 14, Variables: map[string]any{"universityID": "1"}}}
	if err := ExportLinGBM(dir, bad); err == nil {
		t.Error("exported an instance with missing variables")
	}
	if _, err := os.Stat(filepath.Join(dir, "actualQueries", "QT14", "query3.graphql")); err != nil {
		t.Errorf("a failed export removed the earlier files: %v", err)
	}
}

// TestImportLinGBMOwnFiles reads files in the layout and style of LinGBM's own
// generator: queryTemplate_<n> folders, tabs, fields in another order,
// trailing blank lines, IDs as integers.
func TestImportLinGBMOwnFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"queryTemplate_14/query5.graphql": "{ \n\tuniversity(nr:172) { \n\t\tundergraduateDegreeObtainedBystudent(where: { AND:{age:{pattern:26,criterion: MORETHAN}, advisor:{researchInterest:{criterion:CONTAINS, pattern:\"bravo\"}}}}) { \n\t\t\tid \n\t\t\temailAddress \n\t\t\ttakeGraduateCourses {id} \n\t\t} \n\t} \n}\n\n \n",
		"queryTemplate_10/query2.graphql": "{ \n\tpublicationSearch(field:title, criterion:CONTAINS, pattern:\"reshape\") { \n\t\tid \n\t\ttitle \n\t\tabstract \n\t} \n} \n",
		"QT8/query1.graphql":              "{ graduateStudents (limit:734, order:[emailAddress, advisor]){ id telephone emailAddress } }",
		"QT12/query16.graphql":            "{ \n  university(nr:616) { \n    doctoralDegreeObtainers (where: {worksFor: {nr:4705} } ){ \n      id \n      emailAddress \n      publications {id } \n    } \n  } \n} \n",
		"QT9/query1.graphql":              `{ university(nr: "7") { undergraduateDegreeObtainedBystudent(limit: 50) { advisor { publications(order: {direction: DESC, field: abstract}) { id } } } } }`,
	}
	for name, src := range files {
		p := filepath.Join(dir, "actualQueries", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(src), 0o644)
	}
	got, err := ImportLinGBM(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id   string
		vars map[string]any
	}{
		{"QT8-0001", map[string]any{"cnt": 734, "attr1": "emailAddress", "attr2": "advisor"}},
		{"QT9-0001", map[string]any{"universityID": "7", "attrPublicationField": "abstract"}},
		{"QT10-0002", map[string]any{"keyword": "reshape"}},
		{"QT12-0016", map[string]any{"universityID": "616", "departmentID": "4705"}},
		{"QT14-0005", map[string]any{"universityID": "172", "age": 26, "interestWord": "bravo"}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d instances, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].ID != w.id || !reflect.DeepEqual(got[i].Variables, w.vars) {
			t.Errorf("instance %d: %s %v, want %s %v", i, got[i].ID, got[i].Variables, w.id, w.vars)
		}
		tp, _ := TemplateByID(got[i].Template)
		if got[i].Query != tp.Query {
			t.Errorf("%s: the query is not the template's text", got[i].ID)
		}
	}
}

func TestImportLinGBMRejects(t *testing.T) {
	qt3 := "{ researchGroup(nr: 5) { subOrganizationOf { head { id emailAddress doctoralDegreeFrom { id } } } } }"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // in the error
	}{
		{"no files", map[string]string{"QT1/readme.txt": "x"}, "no query files"},
		{"an extra field", map[string]string{"QT3/query1.graphql": strings.Replace(qt3, "emailAddress", "emailAddress telephone", 1)},
			"QT3/query1.graphql: the query matches none of the 16 templates (closest: QT3"},
		{"another fixed literal", map[string]string{"QT10/query1.graphql": `{ publicationSearch(field: title, criterion: EQUALS, pattern: "x") { id title abstract } }`},
			"closest: QT10"},
		{"in the wrong folder", map[string]string{"QT4/query1.graphql": qt3}, "instance of QT3, but it is in the folder of QT4"},
		{"not GraphQL", map[string]string{"QT3/query1.graphql": "{ researchGroup(nr: 5) {"}, "does not parse"},
		{"not the schema", map[string]string{"QT3/query1.graphql": "{ nothing }"}, "does not validate"},
		{"variables instead of values", map[string]string{"QT3/query1.graphql": "query Q($r: ID!) { researchGroup(nr: $r) { id } }"}, "declares variables"},
		{"a value out of range", map[string]string{"QT7/query1.graphql": "{ university(nr: 1) { undergraduateDegreeObtainedBystudent(limit: 10, offset: 4294967296) { advisor { id } } } }"}, "offset: 4294967296 is not a 32-bit Int"},
		{"the same instance twice", map[string]string{"QT3/query1.graphql": qt3, "queryTemplate_3/query1.graphql": qt3}, "instance QT3-0001 again"},
		{"an alias", map[string]string{"QT3/query1.graphql": strings.Replace(qt3, "head", "h: head", 1)}, "closest: QT3"},
	} {
		dir := t.TempDir()
		for name, src := range c.files {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(src), 0o644)
		}
		_, err := ImportLinGBM(dir)
		if err == nil || !strings.Contains(filepath.ToSlash(err.Error()), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}
