package write

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
)

// TestParse: what a create and an update take, and why each bad input is
// refused.
func TestParse(t *testing.T) {
	r := "1000000000000000"
	title := "a title"
	for _, c := range []struct {
		name   string
		e      *Entity
		in     string // a JSON object
		create bool
		want   string // in the error; "" for none
	}{
		{"a create", Publication, `{"title":"t","abstract":"a","mainAuthor":"` + r + `"}`, true, ""},
		{"an id as a number", Publication, `{"title":"t","abstract":"a","mainAuthor":1000000000000001}`, true, ""},
		{"an update of one field", Publication, `{"title":"t"}`, false, ""},
		{"a null advisor", UndergraduateStudent, `{"telephone":"1","emailAddress":"e","age":0,"memberOf":"` + r + `","advisor":null}`, true, ""},
		{"advisor left out", UndergraduateStudent, `{"telephone":"1","emailAddress":"e","age":200,"memberOf":"` + r + `"}`, true, ""},
		{"a missing field", Publication, `{"title":"t","mainAuthor":"` + r + `"}`, true, `missing field "abstract"`},
		{"an unknown field", Publication, `{"title":"t","id":"3","zzz":1}`, false, `unknown field "id", "zzz"`},
		{"nothing to update", Publication, `{}`, false, "nothing to update"},
		{"null where a value is required", Publication, `{"title":null}`, false, "title cannot be null"},
		{"a number for a string", Publication, `{"title":5}`, false, "title must be a string, got the number 5"},
		{"an object for a string", Publication, `{"abstract":{}}`, false, "got an object"},
		{"too long", Publication, `{"title":"` + strings.Repeat("é", 101) + `"}`, false, "101 characters"},
		{"100 characters of 2 bytes", Publication, `{"title":"` + strings.Repeat("é", 100) + `"}`, false, ""},
		{"NUL", Publication, `{"abstract":"a\u0000"}`, false, "NUL"},
		{"a fraction for an Int", UndergraduateStudent, `{"age":20.5}`, false, "age must be an integer from 0 to 200"},
		{"an Int too large", UndergraduateStudent, `{"age":201}`, false, "from 0 to 200"},
		{"a negative Int", UndergraduateStudent, `{"age":-1}`, false, "from 0 to 200"},
		{"a string for an Int", UndergraduateStudent, `{"age":"20"}`, false, "must be an integer"},
		{"a generated reference", Publication, `{"mainAuthor":"1"}`, false, "benchmark's dataset"},
		{"a negative id", Publication, `{"mainAuthor":"-5"}`, false, "must be an id"},
		{"an id with a sign", Publication, `{"mainAuthor":"+5"}`, false, "must be an id"},
		{"an id too large", Publication, `{"mainAuthor":"99999999999999999999"}`, false, "must be an id"},
		{"an id that is SQL", Publication, `{"mainAuthor":"1; DROP TABLE faculty"}`, false, "must be an id"},
		{"a boolean id", UndergraduateStudent, `{"advisor":true}`, false, "must be an id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m map[string]any
			dec := json.NewDecoder(strings.NewReader(c.in))
			dec.UseNumber()
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			in, err := Parse(c.e, m, c.create)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want == "":
				if len(in.sets) != len(m) {
					t.Errorf("%d fields set, %d given", len(in.sets), len(m))
				}
			case err == nil || !strings.Contains(err.Error(), c.want):
				t.Fatalf("error %v, want one saying %q", err, c.want)
			default:
				if we, ok := err.(*Error); !ok || we.Kind != Invalid {
					t.Errorf("error %#v is not an Invalid *Error", err)
				}
			}
		})
	}
	// GraphQL's nullable input values come as pointers.
	in, err := Parse(Publication, map[string]any{"title": &title, "abstract": (*string)(nil)}, false)
	if err == nil || !strings.Contains(err.Error(), "abstract cannot be null") {
		t.Errorf("a nil pointer: %v", err)
	}
	if in, err = Parse(Publication, map[string]any{"title": &title, "mainAuthor": dataset.SandboxLecturer}, false); err != nil {
		t.Fatal(err)
	}
	if v, _ := in.Value("title"); v != title {
		t.Errorf("title %v", v)
	}
	if v, _ := in.Value("mainAuthor"); v != dataset.SandboxLecturer {
		t.Errorf("mainAuthor %v", v)
	}
}
