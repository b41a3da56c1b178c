package null_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server"
	_ "github.com/gqlbench/gqlbench/server/null"
)

const want = `{"data":{"__typename":"Query"}}`

func open(t testing.TB, o server.HTTPOptions) http.Handler {
	v, ok := server.Lookup("null")
	if !ok || v.NeedsDB {
		t.Fatalf("variant null: registered %v, needs a database %v", ok, v.NeedsDB)
	}
	e, err := v.Open(context.Background(), server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return server.Handler(e, o)
}

// TestNullOverHTTP: the null variant through a real HTTP server.
func TestNullOverHTTP(t *testing.T) {
	srv := httptest.NewServer(open(t, server.HTTPOptions{}))
	defer srv.Close()
	q := url.Values{"query": {"{__typename}"}}
	for _, c := range []struct {
		name   string
		method string
		url    string
		body   string
		status int
		want   string // a substring of the body
	}{
		// POST: the canned answer, exactly.
		{"post", "POST", srv.URL + "/graphql", `{"query":"{__typename}"}`, 200, want},
		// GET: the same.
		{"get", "GET", srv.URL + "/graphql?" + q.Encode(), "", 200, want},
		// The HTTP layer still refuses what is not a GraphQL request.
		{"no query", "POST", srv.URL + "/graphql", `{}`, 400, "missing query"},
		// And wrong methods.
		{"delete", "DELETE", srv.URL + "/graphql", "", 405, "DELETE"},
		// Health: always fine, no database.
		{"healthz", "GET", srv.URL + "/healthz", "", 200, "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := http.NewRequest(c.method, c.url, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Errorf("%d %s, want %d and %s", resp.StatusCode, b, c.status, c.want)
			}
			if c.want == want && string(b) != want {
				t.Errorf("body %s, want exactly %s", b, want)
			}
		})
	}
}

// TestNullTrace: null with --trace reports a request that used no database.
func TestNullTrace(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{__typename}"}`))
	r.Header.Set("Content-Type", "application/json")
	open(t, server.HTTPOptions{Trace: true}).ServeHTTP(rec, r)
	var b struct {
		Data       json.RawMessage
		Extensions struct{ Timing map[string]int64 }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	tm := b.Extensions.Timing
	if string(b.Data) != `{"__typename":"Query"}` || tm["sql_statements"] != 0 || tm["database_ns"] != 0 || tm["graphql_ns"] != tm["total_ns"] {
		t.Errorf("traced null response: %s", rec.Body)
	}
}

// BenchmarkNull is the HTTP layer's cost per request, without the network:
// what the null variant adds to a load generator's measurement.
func BenchmarkNull(b *testing.B) {
	h := open(b, server.HTTPOptions{})
	body := `{"query":"query Q($id: ID) { __typename }","variables":{"id":"1"}}`
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, r)
		if rec.Code != 200 || rec.Body.String() != want {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}
