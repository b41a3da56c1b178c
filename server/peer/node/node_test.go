package node_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/peer/node"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// TestVariants: each of the four Node variants, installed from the
// embedded package and started as gqlbench serve starts it, returns the
// oracle's answer to every instance of the 16 templates, and answers bad
// requests with errors, not a crash.
func TestVariants(t *testing.T) {
	install(t)
	f := newFixture(t)
	for _, v := range node.Variants {
		t.Run(v.Name, func(t *testing.T) {
			r := start(t, v.Name, f.url)
			testConformance(t, f, r.URL)
			testBadRequests(t, r.URL)
			testHealth(t, r.URL, v.Name)
		})
	}
}

// testConformance: every case gets status 200 and the oracle's answer.
func testConformance(t *testing.T, f *fixture, url string) {
	wrong := 0
	seen := map[int]bool{}
	for _, c := range f.cases {
		seen[c.in.Template] = true
		status, body := query(t, url, c.in.Query, c.in.Variables)
		if err := verify.Check(body, c.hash); status != http.StatusOK || err != nil {
			if wrong++; wrong <= 10 {
				vars, _ := json.Marshal(c.in.Variables)
				t.Errorf("%s %s: status %d, %v: %.300s", c.in.ID, vars, status, err, body)
			}
		}
	}
	if wrong > 10 {
		t.Errorf("… %d wrong answers in all", wrong)
	}
	if len(seen) != len(workload.Templates()) {
		t.Errorf("the cases cover %d templates, want all %d", len(seen), len(workload.Templates()))
	}
	if wrong == 0 {
		t.Logf("%d instances of the 16 templates: all right", len(f.cases))
	}
}

// testBadRequests: requests that cannot run get a GraphQL error saying why,
// with a 4xx status, and bad arguments a field error; the server lives on.
func testBadRequests(t *testing.T, url string) {
	deep := "{ university(nr: 1) {" + strings.Repeat(" departments { subOrganizationOf {", 14) + " id" + strings.Repeat(" } }", 14) + " } }"
	for _, c := range []struct {
		name, body string
		status     int    // 0: any below 500
		want       string // in an error message, lower case
	}{
		{"malformed JSON", `{"query": "{ university(nr: 1) { id } }"`, 400, "json"},
		{"invalid GraphQL", `{"query": "{ university(nr: 1) { id "}`, 400, "syntax"},
		{"unknown field", `{"query": "{ university(nr: 1) { name } }"}`, 400, "name"},
		{"missing variable", `{"query": "query Q($u: ID!) { university(nr: $u) { id } }"}`, 400, "$u"},
		{"too deep", mustJSON(map[string]any{"query": deep}), 400, "deep"},
		{"negative limit", `{"query": "{ graduateStudents(limit: -1) { id } }"}`, 0, "limit must not be negative"},
		{"negative offset", `{"query": "{ university(nr: 1) { undergraduateDegreeObtainedBystudent(offset: -5) { id } } }"}`, 0, "offset must not be negative"},
		{"an id that is no integer", `{"query": "{ university(nr: \"x1\") { id } }"}`, 0, "not an integer"},
	} {
		status, body := post(t, url, c.body)
		var r struct{ Errors []struct{ Message string } }
		json.Unmarshal(body, &r)
		var msgs []string
		for _, e := range r.Errors {
			msgs = append(msgs, e.Message)
		}
		okStatus := status == c.status || (c.status == 0 && status < 500)
		if !okStatus || !strings.Contains(strings.ToLower(strings.Join(msgs, " ")), c.want) {
			t.Errorf("%s: status %d, errors %q; want %d and an error about %q", c.name, status, msgs, c.status, c.want)
		}
	}
}

// testHealth: /healthz answers 200 and names the variant.
func testHealth(t *testing.T, url, variant string) {
	resp, err := http.Get(strings.TrimSuffix(url, "/graphql") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Gqlbench-Variant") != variant {
		t.Errorf("/healthz: status %d, Gqlbench-Variant %q; want 200 and %q", resp.StatusCode, resp.Header.Get("Gqlbench-Variant"), variant)
	}
}

// TestDeath: a server that dies is seen to die — its process is reported
// ended with the signal, not a clean stop — and requests then fail.
func TestDeath(t *testing.T) {
	install(t)
	url, _ := loaded(t)
	r := start(t, "node-batch", url)
	if status, _ := query(t, r.URL, `{ university(nr: 1) { id } }`, nil); status != http.StatusOK {
		t.Fatalf("status %d before the crash", status)
	}
	r.Cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-r.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the killed server is not seen to end")
	}
	if err := r.Stop(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Stop after a crash = %v, want the crash (signal: killed)", err)
	}
	if _, err := http.Post(r.URL, "application/json", strings.NewReader(`{"query":"{ university(nr: 1) { id } }"}`)); err == nil {
		t.Error("a dead server still answers")
	}
}

// TestSQLite: the Node variants run on PostgreSQL only, and say so before
// installing anything.
func TestSQLite(t *testing.T) {
	_, err := node.Program(context.Background(), server.ProcessConfig{Config: server.Config{DB: "sqlite:/tmp/x.db"}, Variant: "node-batch", Addr: "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "PostgreSQL only") {
		t.Errorf("on SQLite: err = %v, want a PostgreSQL-only error", err)
	}
}

// TestSchemaIsWorkloads: the package serves the benchmark schema itself,
// not a copy that could drift.
func TestSchemaIsWorkloads(t *testing.T) {
	p := node.Package()
	b, err := fs.ReadFile(p.Files, node.SchemaFile)
	if err != nil || string(b) != workload.SchemaSource() {
		t.Errorf("the package's %s is not workload's schema (err %v)", node.SchemaFile, err)
	}
	for _, name := range []string{"package.json", "package-lock.json", p.Main} {
		if _, err := fs.ReadFile(p.Files, name); err != nil {
			t.Errorf("the package lacks %s: %v", name, err)
		}
	}
	if _, err := fs.ReadFile(p.Files, "node_modules/.package-lock.json"); err == nil {
		t.Error("the package embeds node_modules")
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
