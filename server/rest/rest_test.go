package rest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/store"
)

// testDB is an sf=1 SQLite dataset, made once per test binary.
var testDB = sync.OnceValues(func() (string, error) {
	dir, err := tempDir()
	if err != nil {
		return "", err
	}
	url := "sqlite:" + filepath.Join(dir, "rest.db")
	_, err = store.Fill(context.Background(), &store.SQLiteTarget{Path: store.SQLitePath(url)}, dataset.Config{Seed: 2, Scale: 1}, store.FillOptions{})
	return url, err
})

// serveWith serves the API over the test database with options o, behind
// server.API as `gqlbench serve rest` serves it.
func serveWith(t *testing.T, o server.HTTPOptions) string {
	t.Helper()
	url, err := testDB()
	if err != nil {
		t.Fatal(err)
	}
	o.Variant = "rest"
	h, err := Open(context.Background(), server.Config{DB: url, Pool: 2}, o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(server.API(h, o))
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv.URL
}

func call(t *testing.T, method, url, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var timingRE = regexp.MustCompile(`^total;dur=[0-9.]+, db;dur=[0-9.]+, db-sum;dur=[0-9.]+, app;dur=[0-9.]+, sql;count=([0-9]+)$`)

// TestOneStatement: with tracing, every GET — a resource, a list with a
// page and embeds, every row, the aggregates — is one SQL statement, and
// so is every write once the sandbox exists (SQLite's create: two, its
// counter of nrs and the insert); without tracing there is no header.
func TestOneStatement(t *testing.T) {
	base := serveWith(t, server.HTTPOptions{Trace: true})
	statements := func(method, path, body string, wantStatus int) string {
		t.Helper()
		resp, b := call(t, method, base+path, body)
		m := timingRE.FindStringSubmatch(resp.Header.Get("Server-Timing"))
		if resp.StatusCode != wantStatus || m == nil {
			t.Fatalf("%s %s: %d %q %.200s", method, path, resp.StatusCode, resp.Header.Get("Server-Timing"), b)
		}
		return m[1]
	}
	for _, p := range []string{
		"/rest/universities/3",
		"/rest/departments/0?embed=head,subOrganizationOf,graduateStudents&fields=id&fields%5Bhead%5D=emailAddress",
		"/rest/departments/0/graduateStudents?limit=5&offset=2&embed=advisor,takeGraduateCourses",
		"/rest/faculty/1/publications?embed=authors",
		"/rest/graduateCourses?limit=3",
		"/rest/universities/0/graduateStudentConnection",
	} {
		if n := statements(http.MethodGet, p, "", 200); n != "1" {
			t.Errorf("GET %s: %s statements", p, n)
		}
	}
	if n := statements(http.MethodGet, "/rest/departments/999", "", 404); n != "1" {
		t.Errorf("a 404: %s statements", n)
	}
	create := `{"title":"t","abstract":"a","mainAuthor":"1000000000000000"}`
	statements(http.MethodPost, "/rest/publications", create, 201) // makes the sandbox
	resp, b := call(t, http.MethodPost, base+"/rest/publications", create)
	if m := timingRE.FindStringSubmatch(resp.Header.Get("Server-Timing")); resp.StatusCode != 201 || m == nil || m[1] != "2" {
		t.Fatalf("create: %d %q %s", resp.StatusCode, resp.Header.Get("Server-Timing"), b)
	}
	loc := resp.Header.Get("Location")
	if n := statements(http.MethodPatch, loc, `{"title":"u"}`, 200); n != "1" {
		t.Errorf("PATCH: %s statements", n)
	}
	if n := statements(http.MethodDelete, loc, "", 204); n != "1" {
		t.Errorf("DELETE: %s statements", n)
	}
	plain := serveWith(t, server.HTTPOptions{})
	if resp, _ := call(t, http.MethodGet, plain+"/rest/universities/3", ""); resp.Header.Get("Server-Timing") != "" {
		t.Error("Server-Timing without --trace")
	}
}

// TestLimits: a response over the limit is a 500 that says so, a request
// past the timeout a 504.
func TestLimits(t *testing.T) {
	small := serveWith(t, server.HTTPOptions{MaxResponseBytes: 300})
	resp, b := call(t, http.MethodGet, small+"/rest/departments/0/graduateStudents", "")
	if resp.StatusCode != 500 || !strings.Contains(b, "response too large") || !strings.Contains(b, "300 bytes") {
		t.Errorf("over the response limit: %d %s", resp.StatusCode, b)
	}
	if resp, _ := call(t, http.MethodGet, small+"/rest/universities/3", ""); resp.StatusCode != 200 {
		t.Errorf("under the limit: %d", resp.StatusCode)
	}
	late := serveWith(t, server.HTTPOptions{Timeout: time.Nanosecond})
	if resp, b := call(t, http.MethodGet, late+"/rest/universities/3", ""); resp.StatusCode != 504 || !strings.Contains(b, "timed out") {
		t.Errorf("past the timeout: %d %s", resp.StatusCode, b)
	}
}

// TestIndexAndHealth: GET /rest/ lists every collection, HEAD answers
// without a body, /healthz names the variant.
func TestIndexAndHealth(t *testing.T) {
	base := serveWith(t, server.HTTPOptions{})
	resp, b := call(t, http.MethodGet, base+"/rest/", "")
	var idx struct {
		Collections []struct {
			Name, URL string
			Lists     []string
			Writable  []string
		}
	}
	if err := json.Unmarshal([]byte(b), &idx); err != nil || resp.StatusCode != 200 || len(idx.Collections) != len(collections) {
		t.Fatalf("index: %d %v %.300s", resp.StatusCode, err, b)
	}
	writable := 0
	for _, c := range idx.Collections {
		if len(c.Writable) > 0 {
			writable++
		}
	}
	if writable != 2 || idx.Collections[0].URL != "/rest/universities/{id}" {
		t.Errorf("index: %+v", idx.Collections[0])
	}
	if resp, b := call(t, http.MethodHead, base+"/rest/universities/3", ""); resp.StatusCode != 200 || b != "" || resp.ContentLength != int64(len(`{"id":"3"}`)) {
		t.Errorf("HEAD: %d %q length %d", resp.StatusCode, b, resp.ContentLength)
	}
	if resp, b := call(t, http.MethodGet, base+"/healthz", ""); resp.StatusCode != 200 || b != "ok" || resp.Header.Get("Gqlbench-Variant") != "rest" {
		t.Errorf("/healthz: %d %q %q", resp.StatusCode, b, resp.Header.Get("Gqlbench-Variant"))
	}
}

func tempDir() (string, error) { return testTempDir, nil }
