package all_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server"
)

// badCall is a REST request that must be refused.
type badCall struct {
	method, path, ctype, body string
	status                    int
	want                      string // in the problem's detail
}

// badREST are malformed, mistyped and hostile requests, each with the
// status and the words of its error.
func badREST(generatedPub string) []badCall {
	pub := func(body string) badCall {
		return badCall{http.MethodPost, "/rest/publications", "application/json", body, 400, ""}
	}
	with := func(c badCall, want string) badCall { c.want = want; return c }
	valid := fmt.Sprintf(`"abstract":"a","mainAuthor":%q`, r)
	return []badCall{
		with(pub(`{"title": `), "malformed"),
		with(pub(`[1, 2]`), "JSON object"),
		with(pub(``), "JSON object"),
		with(pub(`{"title":"t",`+valid+`} {}`), "after the object"),
		with(pub(`{"title":5,`+valid+`}`), "title must be a string"),
		with(pub(`{"title":null,`+valid+`}`), "title cannot be null"),
		with(pub(`{"title":"t","abstract":"a","mainAuthor":true}`), "mainAuthor must be an id"),
		with(pub(`{"title":"t","abstract":"a","mainAuthor":"-1"}`), "mainAuthor must be an id"),
		with(pub(`{"title":"t","abstract":"a","mainAuthor":"1 OR 1=1"}`), "mainAuthor must be an id"),
		with(pub(`{"title":"t","abstract":"a","mainAuthor":"1"}`), "benchmark's dataset"),
		with(pub(`{"title":"t","abstract":"a","mainAuthor":"1000000000000099"}`), "does not exist"),
		with(pub(`{"title":"t",`+valid+`,"nr":"5"}`), `unknown field "nr"`),
		with(pub(`{"title":"t","title":"u",`+valid+`}`), "twice"),
		with(pub(`{`+valid+`}`), `missing field "title"`),
		with(pub(`{"title":"`+strings.Repeat("x", 101)+`",`+valid+`}`), "101 characters"),
		with(pub(`{"title":"a\u0000b",`+valid+`}`), "NUL"),
		{http.MethodPost, "/rest/undergraduateStudents", "application/json", fmt.Sprintf(`{"telephone":"1","emailAddress":"e","age":1.5,"memberOf":%q}`, r), 400, "age must be an integer"},
		{http.MethodPost, "/rest/undergraduateStudents", "application/json", fmt.Sprintf(`{"telephone":"1","emailAddress":"e","age":99999999999999999999,"memberOf":%q}`, r), 400, "age must be an integer"},
		{http.MethodPost, "/rest/undergraduateStudents", "application/json", fmt.Sprintf(`{"telephone":"1","emailAddress":"e","age":-1,"memberOf":%q}`, r), 400, "age must be an integer"},
		{http.MethodPost, "/rest/undergraduateStudents", "application/json", `{"telephone":"1","emailAddress":"e","age":20,"memberOf":"0"}`, 400, "benchmark's dataset"},
		{http.MethodPost, "/rest/publications", "text/plain", `{"title":"t",` + valid + `}`, 415, "Content-Type"},
		{http.MethodPost, "/rest/publications", "application/json", `{"title":"` + strings.Repeat("x", 2<<20) + `"}`, 413, "too large"},
		{http.MethodPost, "/rest/publications?fields=id", "application/json", `{"title":"t",` + valid + `}`, 400, "no parameters"},
		{http.MethodPatch, "/rest/publications/" + generatedPub, "application/json", `{"title":"t"}`, 403, "read-only"},
		{http.MethodPatch, "/rest/publications/1000000000999999", "application/json", `{"title":"t"}`, 404, "no Publication"},
		{http.MethodPatch, "/rest/publications/1000000000999999", "application/json", `{}`, 400, "nothing to update"},
		{http.MethodDelete, "/rest/publications/" + generatedPub, "", "", 403, "read-only"},
		{http.MethodDelete, "/rest/publications/-1", "", "", 400, "not an id"},
		{http.MethodPut, "/rest/publications/1", "application/json", `{}`, 405, "PUT"},
		{http.MethodPost, "/rest/universities", "application/json", `{}`, 405, "POST"},
		{http.MethodDelete, "/rest/departments/0", "", "", 405, "DELETE"},
		{http.MethodPost, "/rest/publications/1/authors", "application/json", `{}`, 405, "POST"},
	}
}

// badGETs are GETs with bad ids, paths and parameters.
var badGETs = []struct {
	path   string
	status int
	want   string
}{
	{"/rest/universities/-1", 400, "not an id"},
	{"/rest/universities/abc", 400, "not an id"},
	{"/rest/universities/1%27%20OR%20%271%27=%271", 400, "not an id"},
	{"/rest/universities/99999999999999999999", 400, "too large"},
	{"/rest/universities/", 400, "not an id"},
	{"/rest/departments/0/graduateStudents?limit=99999999999999999999", 400, "too large"},
	{"/rest/departments/0/graduateStudents?limit=-1", 400, "non-negative"},
	{"/rest/departments/0/graduateStudents?offset=abc", 400, "non-negative"},
	{"/rest/departments/0/graduateStudents?limit=1&limit=2", 400, "given 2 times"},
	{"/rest/departments/0?limit=1", 400, "lists only"},
	{"/rest/departments/0?sort=id", 400, "unknown parameter"},
	{"/rest/departments/0?fields=nope", 400, "unknown field"},
	{"/rest/departments/0?fields=", 400, "empty"},
	{"/rest/departments/0?fields=id,id", 400, "twice"},
	{"/rest/departments/0?fields=graduateStudents", 400, "is a list"},
	{"/rest/departments/0?embed=nope", 400, "unknown relation"},
	{"/rest/departments/0?embed=head.worksFor", 400, "one level"},
	{"/rest/departments/0?embed=graduateStudents,professors", 400, "at most one list"},
	{"/rest/departments/0?fields%5Bhead%5D=id", 400, "names no embed"},
	{"/rest/departments/0?embed=head&fields%5Bhead%5D=nope", 400, "unknown field"},
	{"/rest/departments/0?%zz", 400, "malformed"},
	{"/rest/nope/1", 404, "no collection"},
	{"/rest/departments/0/nope", 404, "no list"},
	{"/rest/departments/0/graduateStudents/1", 404, "no such path"},
	{"/graphql", 404, "/rest/"},
	{"/rest/universities/1/graduateStudentConnection?fields=count", 400, "no parameters"},
}

// testWriteBadInput: bad requests to REST and bad mutations to GraphQL get
// a clear 4xx (or a GraphQL error), and nothing is written; injection-
// shaped strings are data, stored and read back as sent.
func testWriteBadInput(t *testing.T, f *fixture, url string, rc restClient, db *sql.DB) {
	before := rowsWritten(t, db)
	generated := fmt.Sprint(f.meta.IDs["facultyID"][0]*100 + 1) // a generated publication's nr
	if status, _, _ := rc.do(http.MethodGet, "/rest/publications/"+generated, ""); status != http.StatusOK {
		t.Fatalf("publication %s is not there", generated)
	}
	for _, c := range badREST(generated) {
		status, hdr, body := rc.doType(c.method, c.path, c.ctype, c.body)
		var p struct {
			Status int
			Detail string
		}
		json.Unmarshal(body, &p)
		if status != c.status || p.Status != status || !strings.Contains(p.Detail, c.want) ||
			hdr.Get("Content-Type") != "application/problem+json; charset=utf-8" || (status == 405 && hdr.Get("Allow") == "") {
			t.Errorf("%s %s %.80s: %d %s %.300s, want %d saying %q", c.method, c.path, c.body, status, hdr.Get("Content-Type"), body, c.status, c.want)
		}
	}
	for _, c := range badGETs {
		if status, _, body := rc.do(http.MethodGet, c.path, ""); status != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d %.300s, want %d saying %q", c.path, status, body, c.status, c.want)
		}
	}
	testGraphQLBadWrites(t, url, generated)
	if got := rowsWritten(t, db); got != before {
		t.Fatalf("bad input wrote rows: %d written, %d before", got, before)
	}
	for _, s := range []string{`'); DROP TABLE publication; --`, `%_\ "quoted" ' ; -- /* */`, "ünï©ødé \t\n"} {
		body, _ := json.Marshal(map[string]any{"title": s, "abstract": s, "mainAuthor": r})
		status, _, b := rc.do(http.MethodPost, "/rest/publications", string(body))
		var got obj
		json.Unmarshal(b, &got)
		if status != http.StatusCreated || got["title"] != s {
			t.Fatalf("POST %q: %d %s", s, status, b)
		}
		id := got["id"].(string)
		rc.same("/rest/publications/"+id, rc.get("/rest/publications/"+id), obj{"id": id, "title": s, "abstract": s})
		rc.do(http.MethodDelete, "/rest/publications/"+id, "")
	}
	if got := rowsWritten(t, db); got != before {
		t.Errorf("%d written rows, %d before", got, before)
	}
}

// doType is do with a Content-Type of one's own ("" for none).
func (c restClient) doType(method, path, ctype, body string) (int, http.Header, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// testGraphQLBadWrites: bad mutations to batch and compiled are refused
// with the reason: request errors for what the schema rules out, field
// errors (200, the field null) for what package write refuses.
func testGraphQLBadWrites(t *testing.T, url, generatedPub string) {
	for _, name := range []string{"batch", "compiled"} {
		v, _ := server.Lookup(name)
		gc := serve(t, name, open(t, v, url))
		for _, c := range []struct {
			query string
			field bool   // a field error, not a request error
			want  string // in the error message
		}{
			{`mutation { createPublication(input: {title: "t", abstract: "a", mainAuthor: "1"}) { id } }`, true, "benchmark's dataset"},
			{`mutation { createPublication(input: {title: "t", abstract: "a", mainAuthor: "1000000000000099"}) { id } }`, true, "does not exist"},
			{`mutation { createPublication(input: {title: "` + strings.Repeat("x", 101) + `", abstract: "a", mainAuthor: "` + r + `"}) { id } }`, true, "101 characters"},
			{`mutation { createUndergraduateStudent(input: {telephone: "1", emailAddress: "e", age: 900, memberOf: "` + r + `"}) { id } }`, true, "from 0 to 200"},
			{`mutation { updatePublication(nr: "` + generatedPub + `", input: {title: "t"}) { id } }`, true, "read-only"},
			{`mutation { updatePublication(nr: "1000000000999999", input: {title: null}) { id } }`, true, "cannot be null"},
			{`mutation { updatePublication(nr: "1000000000999999", input: {}) { id } }`, true, "nothing to update"},
			{`mutation { createPublication(input: {title: 5, abstract: "a", mainAuthor: "1"}) { id } }`, false, "String"},
			{`mutation { createPublication(input: {title: "t", abstract: "a", mainAuthor: "1", nr: "3"}) { id } }`, false, "nr"},
			{`mutation { createPublication(input: {title: "t"}) { id } }`, false, "abstract"},
		} {
			g := gc.ask(c.query, nil)
			msg := ""
			for _, e := range g.Errors {
				msg += e.Message
			}
			isField := len(g.Data) > 0
			if len(g.Errors) == 0 || isField != c.field || !strings.Contains(msg, c.want) {
				t.Errorf("%s: %.100s: data %v, errors %q; want a field error %v saying %q", name, c.query, g.Data, msg, c.field, c.want)
			}
		}
	}
}
