package all_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/internal/pglocal"
	"github.com/gqlbench/gqlbench/verify"
)

// TestDatabaseDown: while the database is down, every variant that reads
// it answers 503 with an error (and its /healthz says 503); once the
// database is back, it answers right again, without a restart.
func TestDatabaseDown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "pg")
	cluster, err := pglocal.Start(ctx, pglocal.Options{Dir: dir})
	if err != nil {
		t.Fatalf("starting a PostgreSQL of this test's own: %v", err)
	}
	t.Cleanup(func() { cluster.Destroy(context.Background()) })
	url, err := cluster.CreateDatabase(ctx, "gqlbench")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := loadDB(ctx, url, testDataset)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{meta: meta}
	if f.oracle, err = openReference(ctx, serverConfig(url)); err != nil {
		t.Fatal(err)
	}
	query := `query Q($u: ID!) { university(nr: $u) { graduateStudentConnection { aggregate { count age { avg max min } } } } }`
	vars := map[string]any{"u": fmt.Sprint(meta.IDs["universityID"][1])}
	want, _ := f.expect(t, query, vars)

	variants := dbVariants(false, false)
	clients := map[string]client{}
	for _, v := range variants {
		clients[v.Name] = serve(t, v.Name, open(t, v, url))
	}
	rc := serveREST(t, url)
	restPath := fmt.Sprintf("/rest/universities/%s/graduateStudentConnection", vars["u"])
	check := func(phase string, wantStatus int) {
		checkRESTDown(t, rc, restPath, phase, wantStatus)
		for name, c := range clients {
			status, body := c.query(query, vars)
			if wantStatus == http.StatusOK {
				if err := verify.Check(body, want); status != http.StatusOK || err != nil {
					t.Errorf("%s, %s: status %d, %v: %.300s", phase, name, status, err, body)
				}
				continue
			}
			if errs := errorsOf(t, body); status != wantStatus || len(errs) == 0 {
				t.Errorf("%s, %s: status %d, errors %q; want %d and an error", phase, name, status, errs, wantStatus)
			}
			if hs := health(t, c); hs != wantStatus {
				t.Errorf("%s, %s: /healthz %d, want %d", phase, name, hs, wantStatus)
			}
		}
	}
	check("database up", http.StatusOK)
	if err := cluster.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	check("database down", http.StatusServiceUnavailable)
	if _, err := pglocal.Start(ctx, pglocal.Options{Dir: dir, Port: cluster.Port}); err != nil {
		t.Fatalf("restarting the database: %v", err)
	}
	// The first request after the restart may still meet a connection the
	// database closed; within a few seconds every variant must answer right.
	deadline := time.Now().Add(5 * time.Second)
	for name, c := range clients {
		for attempt := 1; ; attempt++ {
			status, body := c.query(query, vars)
			if status == http.StatusOK && verify.Check(body, want) == nil {
				if attempt > 1 {
					t.Logf("%s answered right at attempt %d after the restart", name, attempt)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%s has not recovered 5 s after the database came back: status %d: %.300s", name, status, body)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for status := 0; status != http.StatusOK && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		status, _, _ = rc.do(http.MethodGet, restPath, "")
	}
	check("database back", http.StatusOK)
	t.Logf("variants checked: %v and rest", names(variants))
}

// checkRESTDown: the REST API answers a read and a write with wantStatus
// (503: a problem document), and its /healthz with the read's status.
func checkRESTDown(t *testing.T, rc restClient, path, phase string, wantStatus int) {
	t.Helper()
	status, _, body := rc.do(http.MethodGet, path, "")
	if status != wantStatus || (wantStatus != http.StatusOK && !strings.Contains(string(body), "unreachable")) {
		t.Errorf("%s, rest: GET %s: %d %.300s, want %d", phase, path, status, body, wantStatus)
	}
	if hs, _, _ := rc.do(http.MethodGet, "/healthz", ""); hs != wantStatus {
		t.Errorf("%s, rest: /healthz %d, want %d", phase, hs, wantStatus)
	}
	if wantStatus == http.StatusOK {
		return
	}
	body2 := fmt.Sprintf(`{"title":"t","abstract":"a","mainAuthor":%q}`, r)
	if status, _, body := rc.do(http.MethodPost, "/rest/publications", body2); status != wantStatus {
		t.Errorf("%s, rest: POST: %d %.300s, want %d", phase, status, body, wantStatus)
	}
}

// health returns the status of c's /healthz.
func health(t *testing.T, c client) int {
	resp, err := http.Get(strings.TrimSuffix(c.url, "/graphql") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
