package workload

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestJSONLRoundTrip(t *testing.T) {
	inst, err := Generate(testMeta(t, 1), Options{PerTemplate: 25, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	b := jsonl(t, inst)
	back, err := ReadJSONL(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, inst) {
		t.Error("ReadJSONL(WriteJSONL(x)) != x")
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	if !strings.HasPrefix(first, `{"id":"QT1-0001","template":"QT1","query":"query QT1(`) {
		t.Errorf("first line %s", first)
	}
}

const qt5 = `"query QT5($departmentID: ID!) {\n  department(nr: $departmentID) {\n    id\n    subOrganizationOf {\n      id\n      undergraduateDegreeObtainedBystudent {\n        id\n        emailAddress\n        memberOf {\n          id\n          subOrganizationOf {\n            id\n            undergraduateDegreeObtainedBystudent {\n              id\n              emailAddress\n              memberOf {\n                id\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}"`

// qt8 is QT8's query laid out differently, with its arguments swapped.
const qt8 = `"query QT8($cnt: Int!, $attr1: GraduateStudentField!, $attr2: GraduateStudentField!) { graduateStudents(order: [$attr1, $attr2], limit: $cnt) { id telephone emailAddress } }"`

// TestJSONLExpect: the oracle's answer hash is written when known, omitted
// when not, and read back.
func TestJSONLExpect(t *testing.T) {
	inst, err := Generate(testMeta(t, 1), Options{PerTemplate: 2, Templates: []int{3, 15}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("0123456789abcdef", 4)
	inst[0].Expect = hash
	b := jsonl(t, inst)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.Contains(lines[0], `,"expect":"`+hash+`"`) || strings.Contains(lines[1], "expect") {
		t.Errorf("expect written wrongly:\n%s", b)
	}
	if !strings.HasSuffix(lines[1], `,"dataset":{"sf":1,"seed":0,"version":1}}`) {
		t.Errorf("the dataset is not on every line:\n%s", b)
	}
	back, err := ReadJSONL(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, inst) {
		t.Errorf("round trip with expect: %+v, want %+v", back, inst)
	}
}

func TestReadJSONLAccepts(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       map[string]any
	}{
		{"ID as a string", `{"id":"a","template":"QT5","query":` + qt5 + `,"variables":{"departmentID":"12"}}`,
			map[string]any{"departmentID": "12"}},
		{"ID as an integer", `{"id":"a","template":"QT5","query":` + qt5 + `,"variables":{"departmentID":12}}`,
			map[string]any{"departmentID": "12"}},
		{"other layout, other argument order, extra field", `{"id":"a","template":"QT8","query":` + qt8 +
			`,"variables":{"cnt":600,"attr1":"id","attr2":"advisor"},"note":"x"}`,
			map[string]any{"cnt": 600, "attr1": "id", "attr2": "advisor"}},
	} {
		got, err := ReadJSONL(strings.NewReader("\n" + c.line + "\n\n"))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0].Variables, c.want) {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}

func TestReadJSONLRejects(t *testing.T) {
	good := `{"id":"a","template":"QT5","query":` + qt5 + `,"variables":{"departmentID":"12"}}`
	for _, c := range []struct {
		name, input, want string // want: in the error
	}{
		{"not JSON", "{", "line 1"},
		{"two values", good + " {}", "more than one"},
		{"missing id", strings.Replace(good, `"id":"a",`, "", 1), `missing "id"`},
		{"empty id", strings.Replace(good, `"id":"a"`, `"id":""`, 1), `missing "id"`},
		{"missing template", strings.Replace(good, `"template":"QT5",`, "", 1), `missing "template"`},
		{"unknown template", strings.Replace(good, `"QT5"`, `"QT17"`, 1), `unknown template "QT17"`},
		{"template as a number", strings.Replace(good, `"QT5"`, `5`, 1), "not a JSON object"},
		{"missing query", `{"id":"a","template":"QT5","variables":{}}`, `missing "query"`},
		{"another template's query", strings.Replace(good, `"QT5"`, `"QT3"`, 1), "not template QT3's query"},
		{"query with a syntax error", strings.Replace(good, `department(nr`, `department(nr:`, 1), "does not parse"},
		{"query with an unknown field", strings.Replace(good, `emailAddress`, `email`, 1), "does not validate"},
		{"query with another selection", strings.Replace(good, `emailAddress\n              memberOf`, `telephone\n              memberOf`, 1), "not template QT5's"},
		{"missing variable", strings.Replace(good, `"departmentID":"12"`, ``, 1), "departmentID"},
		{"null variables", strings.Replace(good, `{"departmentID":"12"}`, `null`, 1), "departmentID"},
		{"unknown variable", strings.Replace(good, `"departmentID":"12"`, `"departmentID":"12","x":1`, 1), "no variable $x"},
		{"null ID", strings.Replace(good, `"12"`, `null`, 1), "departmentID"},
		{"ID as a float", strings.Replace(good, `"12"`, `1.5`, 1), "departmentID"},
		{"ID as a bool", strings.Replace(good, `"12"`, `true`, 1), "departmentID"},
		{"variables not an object", strings.Replace(good, `{"departmentID":"12"}`, `[1]`, 1), "must be a JSON object"},
		{"duplicate id", good + "\n" + good, "line 2: id \"a\" is already used on line 1"},
		{"error on a later line", good + "\n\n{", "line 3"},
		{"too long", `{"id":"` + strings.Repeat("x", MaxLineBytes) + `"}`, "longer than"},
		{"expect not a hash", strings.Replace(good, `"id":"a",`, `"id":"a","expect":"abc",`, 1), `"expect" must be`},
		{"expect in upper case", strings.Replace(good, `"id":"a",`, `"id":"a","expect":"`+strings.Repeat("A", 64)+`",`, 1), `"expect" must be`},
		{"expect not a string", strings.Replace(good, `"id":"a",`, `"id":"a","expect":1,`, 1), "not a JSON object"},
	} {
		_, err := ReadJSONL(strings.NewReader(c.input))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	q8 := func(vars string) string {
		return `{"id":"b","template":"QT8","query":` + qt8 + `,"variables":` + vars + `}`
	}
	for _, c := range []struct {
		name, vars string
	}{
		{"enum in the wrong case", `{"cnt":600,"attr1":"ID","attr2":"advisor"}`},
		{"enum not a value", `{"cnt":600,"attr1":"name","attr2":"advisor"}`},
		{"Int as a string", `{"cnt":"600","attr1":"id","attr2":"advisor"}`},
		{"Int as a float", `{"cnt":600.5,"attr1":"id","attr2":"advisor"}`},
		{"Int beyond 32 bits", `{"cnt":4294967296,"attr1":"id","attr2":"advisor"}`},
	} {
		if _, err := ReadJSONL(strings.NewReader(q8(c.vars))); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	q10 := `{"id":"c","template":"QT10","query":"query QT10($keyword: String!) { publicationSearch(field: title, criterion: CONTAINS, pattern: $keyword) { id title abstract } }","variables":{"keyword":5}}`
	if _, err := ReadJSONL(strings.NewReader(q10)); err == nil {
		t.Error("a number was accepted for a String")
	}
}

// FuzzReadJSONL feeds ReadJSONL arbitrary input: it must not panic, and what
// it accepts must survive WriteJSONL and ReadJSONL unchanged.
func FuzzReadJSONL(f *testing.F) {
	f.Add(`{"id":"a","template":"QT5","query":` + qt5 + `,"variables":{"departmentID":"12"}}`)
	f.Add(`{"id":"a","template":"QT5","query":` + qt5 + `,"variables":{"departmentID":"12"},"expect":"` + strings.Repeat("0a", 32) + `"}`)
	f.Add(`{"id":"b","template":"QT8","query":` + qt8 + `,"variables":{"cnt":600,"attr1":"id","attr2":"advisor"}}`)
	f.Add(`{"id":"c","template":"QT10","query":"query QT10($keyword: String!) { publicationSearch(field: title, criterion: CONTAINS, pattern: $keyword) { id title abstract } }","variables":{"keyword":"ab\"c"}}`)
	f.Add(`{"id":"d","template":"QT14","query":"{ __typename }","variables":{}}`)
	f.Add(`{"id":"e","template":"QT1","query":"query QT1($facultyID: ID!) { faculty(nr: $facultyID) { ...F } } fragment F on Faculty { id }","variables":{"facultyID":1}}`)
	f.Add("{}\n[]\nnull")
	f.Add("")
	f.Fuzz(func(t *testing.T, input string) {
		inst, err := ReadJSONL(strings.NewReader(input))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteJSONL(&b, inst); err != nil {
			t.Fatalf("accepted instances do not write: %v", err)
		}
		back, err := ReadJSONL(&b)
		if err != nil {
			t.Fatalf("written instances do not read back: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(back, inst) && !(len(back) == 0 && len(inst) == 0) {
			t.Fatalf("round trip changed the instances:\n%+v\n%+v", inst, back)
		}
	})
}
