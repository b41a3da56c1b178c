package queryfile

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// qt1Plan is QT1 as a REST client makes it: the faculty member, then the
// students of the university of their doctorate.
const qt1Plan = `[{"call":"GET /rest/faculty/{facultyID}","as":"faculty","keep":[],"then":[` +
	`{"call":"GET /rest/universities/{.doctoralDegreeFrom}/undergraduateDegreeObtainedBystudent","as":"doctoralDegreeFrom.undergraduateDegreeObtainedBystudent","keep":["id","emailAddress"]}]}]`

// TestPlanRoundTrip: an entry with a plan (and one with a plan only) is
// written as read, an empty keep stays [] and an absent one absent.
func TestPlanRoundTrip(t *testing.T) {
	in := `{"id":"QT1-0001","template":"QT1","query":"query QT1($facultyID: ID!) { faculty(nr: $facultyID) { id } }","variables":{"facultyID":"1"},"expect":"` + hash + `","plan":` + qt1Plan + `}
{"id":"create","template":"create","variables":{"t":"A title"},"plan":[{"call":"POST /rest/publications","body":{"title":"{t}","n":1},"as":"createPublication","keep":["title"],"status":201}]}
`
	entries, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	p := entries[0].Plan
	if len(p) != 1 || p[0].Method != "GET" || p[0].Path != "/rest/faculty/{facultyID}" || p[0].Keep == nil || len(p[0].Keep) != 0 ||
		len(p[0].Then) != 1 || p[0].Then[0].Keep[1] != "emailAddress" || p.Calls() != 2 {
		t.Errorf("plan read as %+v", p)
	}
	if c := entries[1].Plan[0]; c.Status != 201 || string(c.Body) != `{"title":"{t}","n":1}` || entries[1].Query != "" {
		t.Errorf("write call read as %+v", c)
	}
	var b bytes.Buffer
	if err := Write(&b, entries); err != nil {
		t.Fatal(err)
	}
	if b.String() != in {
		t.Errorf("written:\n%s\nwant:\n%s", b.String(), in)
	}
	back, err := Read(&b)
	if err != nil || !reflect.DeepEqual(back, entries) {
		t.Errorf("read back %+v, %v", back, err)
	}
}

// TestPlanRejects: a plan that cannot be carried out as written is refused
// when the file is read, naming the entry, the call and what is wrong.
func TestPlanRejects(t *testing.T) {
	entry := func(vars, plan string) string {
		return `{"id":"a","template":"t","variables":` + vars + `,"plan":` + plan + `}`
	}
	get := func(path string) string { return `[{"call":"GET ` + path + `","as":"x"}]` }
	deep := `{"call":"GET /x","as":"x"}`
	for range MaxPlanDepth {
		deep = `{"call":"GET /x","as":"x","then":[` + deep + `]}`
	}
	for _, c := range []struct{ name, line, want string }{
		{"neither query nor plan", `{"id":"a","template":"t"}`, `missing "query" (or GraphQL "steps", or a REST "plan")`},
		{"empty plan", entry(`{}`, `[]`), "at least one call"},
		{"plan not a list", entry(`{}`, `{"call":"GET /x","as":"x"}`), `"plan"`},
		{"no method", entry(`{}`, `[{"call":"/x","as":"x"}]`), `"METHOD /path"`},
		{"unknown method", entry(`{}`, `[{"call":"FETCH /x","as":"x"}]`), "want GET, POST"},
		{"relative path", entry(`{}`, get("rest/x")), "must start with /"},
		{"missing variable", entry(`{"a":"1"}`, get("/rest/faculty/{facultyID}")), "{facultyID}: the entry has no variable facultyID"},
		{"object variable", entry(`{"f":{"x":1}}`, get("/rest/faculty/{f}")), "an object or a list"},
		{"field in a root call", entry(`{}`, get("/rest/faculty/{.advisor}")), "a root call has no object"},
		{"unclosed brace", entry(`{}`, get("/rest/{x")), "without its }"},
		{"stray brace", entry(`{}`, get("/rest/x}")), "without its {"},
		{"bad placeholder", entry(`{}`, get("/rest/{a b}")), "no spaces"},
		{"bad placeholder name", entry(`{}`, get("/rest/{a-b}")), "want {variable} or {.field}"},
		{"empty as with keep", entry(`{}`, `[{"call":"GET /x","as":"","keep":["a"]}]`), `"as": empty`},
		{"no as with then", entry(`{}`, `[{"call":"GET /x","then":[{"call":"GET /y","as":"y"}]}]`), `only a call without "keep" and "then" may leave it out`},
		{"bad from", entry(`{}`, `[{"call":"GET /x","as":"a","from":"a."}]`), `"from"`},
		{"GraphQL call in a plan", entry(`{}`, `[{"query":"{ a }","as":"a"}]`), `GraphQL calls go in "steps"`},
		{"query and call", entry(`{}`, `[{"call":"GET /x","query":"{ a }","as":"a"}]`), "not both"},
		{"variables on a REST call", entry(`{}`, `[{"call":"POST /x","variables":{},"as":"a"}]`), `give its document as "query", not "call"`},
		{"bad as", entry(`{}`, `[{"call":"GET /x","as":"a..b"}]`), `"as"`},
		{"bad keep", entry(`{}`, `[{"call":"GET /x","as":"a","keep":["a-b"]}]`), `"keep" "a-b"`},
		{"body on GET", entry(`{}`, `[{"call":"GET /x","as":"a","body":{}}]`), "a GET has no body"},
		{"body variable missing", entry(`{}`, `[{"call":"POST /x","as":"a","body":{"t":"{title}"}}]`), "no variable title"},
		{"status", entry(`{}`, `[{"call":"GET /x","as":"a","status":1000}]`), "not an HTTP status"},
		{"unknown member", entry(`{}`, `[{"call":"GET /x","as":"a","than":[]}]`), `unknown field "than"`},
		{"nested error named", entry(`{}`, `[{"call":"GET /x","as":"a","then":[{"call":"GET /y/{z}","as":"b"}]}]`), "plan[0] (GET /x).then[0] (GET /y/{z})"},
		{"too deep", entry(`{}`, "["+deep+"]"), "more than 16 deep"},
		{"too many calls", entry(`{}`, "["+strings.Repeat(`{"call":"GET /x","as":"x"},`, MaxPlanCalls)+`{"call":"GET /x","as":"x"}]`), "more than 256 calls"},
	} {
		_, err := Read(strings.NewReader(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}

// TestSteps: an entry's GraphQL form as several requests, each after the
// answer it needs, read and written as is, and refused where it is not a
// list of GraphQL calls or sits beside a query.
func TestSteps(t *testing.T) {
	in := `{"id":"cycle","template":"crud-cycle","variables":{"input":{"title":"T"}},"steps":[` +
		`{"query":"mutation($input: In!) { createPublication(input: $input) { id title } }","variables":{"input":"{input}"},"from":"createPublication","as":"created","keep":["title"],"then":[` +
		`{"query":"mutation($nr: ID!) { deletePublication(nr: $nr) { id } }","variables":{"nr":"{.id}"}}]}]}
`
	entries, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	s := entries[0].GraphQLPlan
	if len(s) != 1 || s[0].Query == "" || s[0].From != "createPublication" || string(s[0].Body) != `{"input":"{input}"}` ||
		len(s[0].Then) != 1 || s[0].Then[0].As != "" || entries[0].Query != "" || entries[0].Plan != nil {
		t.Errorf("steps read as %+v", entries[0])
	}
	var b bytes.Buffer
	if err := Write(&b, entries); err != nil {
		t.Fatal(err)
	}
	if b.String() != in {
		t.Errorf("written:\n%s\nwant:\n%s", b.String(), in)
	}
	steps := func(vars, steps string) string {
		return `{"id":"a","template":"t","variables":` + vars + `,"steps":` + steps + `}`
	}
	for _, c := range []struct{ name, line, want string }{
		{"REST call in steps", steps(`{}`, `[{"call":"GET /x","as":"x"}]`), `a step is a GraphQL call`},
		{"variables not an object", steps(`{}`, `[{"query":"{ a }","variables":[1],"as":"x"}]`), "must be a JSON object"},
		{"missing variable", steps(`{}`, `[{"query":"{ a }","variables":{"n":"{nr}"},"as":"x"}]`), "no variable nr"},
		{"field in a root step", steps(`{}`, `[{"query":"{ a }","variables":{"n":"{.id}"},"as":"x"}]`), "a root call has no object"},
		{"query and steps", `{"id":"a","template":"t","query":"{ a }","steps":[{"query":"{ a }","as":"x"}]}`, "give one"},
	} {
		_, err := Read(strings.NewReader(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}

// TestPlaceholders: path and body placeholders as the executor fills them.
func TestPlaceholders(t *testing.T) {
	got, err := Placeholders("/rest/{a}/x/{.b_2}?limit={n}")
	if err != nil || !reflect.DeepEqual(got, []string{"a", ".b_2", "n"}) {
		t.Errorf("Placeholders = %v, %v", got, err)
	}
	for s, want := range map[string]string{"{t}": "t", "{.f}": ".f", "x{t}": "", "{}": "", "{t": "", "{a b}": ""} {
		name, ok := BodyPlaceholder(s)
		if ok != (want != "") || name != want && ok {
			t.Errorf("BodyPlaceholder(%q) = %q, %v", s, name, ok)
		}
	}
	var p Plan
	if err := json.Unmarshal([]byte(qt1Plan), &p); err != nil || p.Check(json.RawMessage(`{"facultyID":"7"}`)) != nil {
		t.Errorf("QT1's plan: %v", err)
	}
}
