package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/verify"
)

// client posts GraphQL requests to a served variant.
type client struct {
	t   *testing.T
	url string
}

// serve serves e over HTTP for the rest of t.
func serve(t *testing.T, name string, e server.Executor) client {
	srv := httptest.NewServer(server.Handler(e, server.HTTPOptions{Variant: name}))
	t.Cleanup(srv.Close)
	return client{t, srv.URL + "/graphql"}
}

// post sends body and returns the status and the response body.
func (c client) post(body string) (int, []byte) {
	c.t.Helper()
	return c.postAccept(body, "")
}

// postAccept sends body with the Accept header accept (none if "").
func (c client) postAccept(body, accept string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
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
	return resp.StatusCode, b
}

// query sends query with vars as a client would (JSON numbers for Ints).
func (c client) query(query string, vars map[string]any) (int, []byte) {
	c.t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		c.t.Fatal(err)
	}
	return c.post(string(b))
}

// errorsOf returns the messages of a response's errors, failing t if the
// body is not a GraphQL response.
func errorsOf(t *testing.T, body []byte) []string {
	t.Helper()
	var r struct {
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("not a GraphQL response: %v: %.300s", err, body)
	}
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Message)
	}
	return out
}

// expect returns the hash of the oracle's answer to query, failing t if the
// oracle reports errors (the test itself would be wrong).
func (f *fixture) expect(t *testing.T, query string, vars map[string]any) (string, []byte) {
	t.Helper()
	r := f.oracle.Execute(context.Background(), request(query, vars))
	if len(r.Errors) > 0 {
		t.Fatalf("the oracle fails on %s %v: %v", query, vars, r.Errors)
	}
	h, err := verify.Hash(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	return h, r.Data
}

// deepQuery is a valid query 30 levels deep.
func deepQuery() string {
	var b strings.Builder
	b.WriteString("{ university(nr: 1) {")
	for i := 0; i < 14; i++ {
		b.WriteString(" departments { subOrganizationOf {")
	}
	b.WriteString(" id")
	b.WriteString(strings.Repeat(" } }", 14))
	b.WriteString(" } }")
	return b.String()
}

// testBadInput: every database-backed variant, over HTTP, answers malformed
// and hostile requests with a clear error or with the right answer.
func testBadInput(t *testing.T, f *fixture) {
	for _, d := range f.dbs {
		for _, v := range dbVariants(true, false) {
			t.Run(d.name+"/"+v.Name, func(t *testing.T) {
				c := serve(t, v.Name, open(t, v, d.url))
				if d.name == "sqlite" { // request handling does not depend on the database
					testRequestErrors(t, c)
				}
				testTemplatesOverHTTP(t, f, c)
				testHugeLimit(t, f, c)
				testPatterns(t, f, c)
			})
		}
	}
}

// testRequestErrors: requests that cannot be executed get a GraphQL error
// that says why, no data, and the status of the GraphQL-over-HTTP spec: 400
// for a malformed request; for a well-formed one whose document cannot run,
// 400 under application/graphql-response+json, 200 under application/json.
func testRequestErrors(t *testing.T, c client) {
	qt15 := `query Q($u: ID!) { university(nr: $u) { graduateStudentConnection { aggregate { count } } } }`
	for _, bad := range []struct {
		name, body string
		want       string // in an error message, lower case
		malformed  bool   // not a GraphQL-over-HTTP request at all
	}{
		{"malformed JSON", `{"query": "{ university(nr: 1) { id } }"`, "malformed", true},
		{"a JSON array", `[{"query": "{ university(nr: 1) { id } }"}]`, "batched", true},
		{"invalid GraphQL", `{"query": "{ university(nr: 1) { id "}`, "", false},
		{"unknown field", `{"query": "{ university(nr: 1) { name } }"}`, "name", false},
		{"unknown argument", `{"query": "{ university(id: 1) { id } }"}`, "id", false},
		{"wrong variable type", mustJSON(map[string]any{"query": qt15, "variables": map[string]any{"u": map[string]any{"x": 1}}}), "u", false},
		{"Int variable as a string", mustJSON(map[string]any{"query": `query Q($o: Int!) { university(nr: 1) { undergraduateDegreeObtainedBystudent(offset: $o) { id } } }`,
			"variables": map[string]any{"o": "ten"}}), "o", false},
		{"missing variable", mustJSON(map[string]any{"query": qt15}), "u", false},
		{"too deep", mustJSON(map[string]any{"query": deepQuery()}), "deep", false},
	} {
		for _, accept := range []string{"application/graphql-response+json", "application/json", ""} {
			want := http.StatusBadRequest
			if !bad.malformed && !strings.Contains(accept, "graphql-response") {
				want = http.StatusOK
			}
			status, body := c.postAccept(bad.body, accept)
			errs := errorsOf(t, body)
			if status != want || len(errs) == 0 || !strings.Contains(strings.ToLower(strings.Join(errs, " ")), strings.ToLower(bad.want)) {
				t.Errorf("%s (Accept %q): status %d, errors %q; want %d and an error about %q", bad.name, accept, status, errs, want, bad.want)
			}
			if bytes.Contains(body, []byte(`"data":`)) {
				t.Errorf("%s (Accept %q): a request error came with data: %.200s", bad.name, accept, body)
			}
		}
	}
	// A negative limit or offset is an error, never a silent answer.
	for _, q := range []string{
		`{ graduateStudents(limit: -1) { id } }`,
		`{ university(nr: 1) { undergraduateDegreeObtainedBystudent(offset: -5) { id } } }`,
	} {
		status, body := c.query(q, nil)
		if errs := errorsOf(t, body); len(errs) == 0 || status >= 500 {
			t.Errorf("%s: status %d, %.300s; want an error", q, status, body)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// testTemplatesOverHTTP: one instance of every template through the HTTP
// layer gets the oracle's answer, so that decoding a real request body
// (Ints as JSON numbers) is covered too.
func testTemplatesOverHTTP(t *testing.T, f *fixture, c client) {
	seen := map[int]bool{}
	for _, oc := range f.cases {
		if seen[oc.in.Template] {
			continue
		}
		seen[oc.in.Template] = true
		status, body := c.query(oc.in.Query, oc.in.Variables)
		if err := verify.Check(body, oc.hash); status != http.StatusOK || err != nil {
			t.Errorf("%s %v over HTTP: status %d, %v: %.300s", oc.in.ID, oc.in.Variables, status, err, body)
		}
	}
}

// testHugeLimit: a limit far beyond the data returns all of it.
func testHugeLimit(t *testing.T, f *fixture, c client) {
	q := `{ graduateStudents(limit: 2000000000) { id } }`
	want, data := f.expect(t, q, nil)
	if n := bytes.Count(data, []byte(`"id"`)); int64(n) != f.meta.Rows["graduateStudent"] {
		t.Fatalf("the oracle returns %d of %d graduate students", n, f.meta.Rows["graduateStudent"])
	}
	status, body := c.query(q, nil)
	if err := verify.Check(body, want); status != http.StatusOK || err != nil {
		t.Errorf("limit 2000000000: status %d, %v: %.300s", status, err, body)
	}
}

// testPatterns: quotes, backslashes and LIKE wildcards in search patterns
// are ordinary characters — no SQL injection, no wildcard matches — on both
// searches that take a pattern.
func testPatterns(t *testing.T, f *fixture, c client) {
	word, title := f.titleSample(t)
	interest := f.meta.Words.Interest[0]
	patterns := []string{
		`x' OR '1'='1`, `' OR 1=1 --`, `'`, `''`, `"`, `%`, `_`, `\`, `\%`, `%'--`, `a%`, `_a`, `%a%`, ``,
		word, word + `%`, `%` + word, word + `\`, title, title[:len(title)/2], title[len(title)/2:],
		interest, interest + `_`, `_` + interest[1:],
	}
	search := `query S($c: StringCriterion!, $p: String!) { publicationSearch(field: title, criterion: $c, pattern: $p) { id } }`
	advised := `query A($c: StringCriterion!, $p: String!) {
		graduateStudents(where: {advisor: {researchInterest: {criterion: $c, pattern: $p}}}) { id } }`
	wrong, matched := 0, 0
	for _, q := range []string{search, advised} {
		for _, crit := range []string{"CONTAINS", "START_WITH", "END_WITH", "EQUALS"} {
			for _, p := range patterns {
				vars := map[string]any{"c": crit, "p": p}
				want, data := f.expect(t, q, vars)
				if bytes.Contains(data, []byte(`"id"`)) {
					matched++
				}
				status, body := c.query(q, vars)
				if err := verify.Check(body, want); status != http.StatusOK || err != nil {
					if wrong++; wrong <= 10 {
						t.Errorf("%s %q (%s): status %d, %v: %.200s", crit, p, strings.Fields(q)[1], status, err, body)
					}
				}
			}
		}
	}
	if wrong > 10 {
		t.Errorf("… %d wrong answers in all", wrong)
	}
	// The patterns made of real words and titles match something, so the
	// right answers are not all empty.
	if matched < 10 {
		t.Errorf("only %d patterns match anything", matched)
	}
}

// titleSample returns a title word and a whole title that contains it, for
// patterns that match something.
func (f *fixture) titleSample(t *testing.T) (word, title string) {
	t.Helper()
	word = f.meta.Words.Title[len(f.meta.Words.Title)/2]
	_, data := f.expect(t, `query S($p: String!) { publicationSearch(field: title, criterion: CONTAINS, pattern: $p) { title } }`,
		map[string]any{"p": word})
	var r struct{ PublicationSearch []struct{ Title string } }
	if err := json.Unmarshal(data, &r); err != nil || len(r.PublicationSearch) == 0 {
		t.Fatalf("no title contains %q: %v", word, err)
	}
	return word, r.PublicationSearch[0].Title
}
