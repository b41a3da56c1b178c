package postgraphile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/verify"
)

// TestPostGraphile runs PostGraphile 5 over the sf=1 dataset and checks it
// against the oracle in its dialect: every instance answered, mapped to the
// benchmark's form and equal to the oracle's answer; a load verifies every
// answer; the process keeps gqlbench's server contract; a template it
// rejects stops a load before it starts; a crash mid-run aborts the run.
func TestPostGraphile(t *testing.T) {
	f := newFixture(t)
	r := f.start(t, server.ProcessConfig{Config: server.Config{Pool: 4}})
	t.Run("conformance", func(t *testing.T) { testConformance(t, f, r.URL) })
	t.Run("load", func(t *testing.T) { testLoad(t, f, r.URL) })
	t.Run("contract", func(t *testing.T) { testContract(t, r.URL) })
	t.Run("rejected-template", func(t *testing.T) { testRejected(t, f, r.URL) })
	t.Run("crash", func(t *testing.T) { testCrash(t, f) })
}

// testConformance: each instance's answer, mapped, hashes to the oracle's.
func testConformance(t *testing.T, f *fixture, url string) {
	rec := drive.Golden{Target: url, HTTP: wire.Options{Timeout: 30 * time.Second}}
	got, err := rec.Record(context.Background(), f.entries)
	if err != nil {
		t.Fatal(err)
	}
	oracle := inmem.NewExecutor(f.data, server.Config{})
	labels := map[string]int{}
	for i, e := range got {
		labels[e.Label]++
		if e.Expect == f.entries[i].Expect {
			continue
		}
		want := oracle.Execute(context.Background(), request(t, f.bench[i]))
		diff, _ := verify.Diff(want.Data, e.Answer, verify.Options{}, 3)
		t.Errorf("%s %s: the answer differs from the oracle's: %+v", e.ID, e.Variables, diff)
	}
	if len(labels) != 16 {
		t.Errorf("instances of %d templates checked, want 16: %v", len(labels), labels)
	}
	t.Logf("%d instances of %d templates, every answer the oracle's", len(got), len(labels))
}

// request is the request of a benchmark-schema entry, its variables
// decoded as a server decodes them: the oracle's question.
func request(t *testing.T, e queryfile.Entry) *server.Request {
	t.Helper()
	r := &server.Request{Query: e.Query}
	if len(e.Variables) > 0 {
		dec := json.NewDecoder(bytes.NewReader(e.Variables))
		dec.UseNumber()
		if err := dec.Decode(&r.Variables); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// testLoad: a load in the dialect, as gqlbench load runs it, finds every
// answer right.
func testLoad(t *testing.T, f *fixture, url string) {
	sum, _, err := runJob(t, f.entries, url, drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	tot := sum.Total
	if tot.Count != int64(len(f.entries)) || tot.Wrong != 0 || tot.Errors != 0 || tot.Verified != tot.Count {
		t.Errorf("%d requests, %d wrong, %d errors, %d verified; want %d right", tot.Count, tot.Wrong, tot.Errors, tot.Verified, len(f.entries))
	}
}

// runJob runs a verified load of entries against url, preflight included.
func runJob(t *testing.T, entries []queryfile.Entry, url string, c drive.Config) (*runfile.Summary, string, error) {
	t.Helper()
	c.Interval, c.AbortAfter = 200*time.Millisecond, time.Second
	var out strings.Builder
	j := drive.Job{Config: c, Target: url, Queries: &queryfile.File{Path: "pg.jsonl", Entries: entries}, Check: true,
		HTTP: wire.Options{Timeout: 10 * time.Second},
		Out:  func() (io.Writer, error) { return &out, nil }}
	sum, err := j.Run(context.Background())
	return sum, out.String(), err
}

// testContract: /healthz answers 200 with the variant's name, a path other
// than /graphql is 404, a query deeper than the limit is refused.
func testContract(t *testing.T, url string) {
	base := strings.TrimSuffix(url, "/graphql")
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Gqlbench-Variant") != "postgraphile" {
		t.Errorf("/healthz: %d, Gqlbench-Variant %q", resp.StatusCode, resp.Header.Get("Gqlbench-Variant"))
	}
	if resp, err := http.Get(base + "/nothing"); err != nil || resp.StatusCode != 404 {
		t.Errorf("/nothing: %v %v", resp, err)
	}
	// 1 + 5·3 levels of selection sets and a leaf: depth 17, valid but for its depth
	cycle := " universityBySuborganizationof { departmentsBySuborganizationof { nodes {"
	deep := `{ departmentByNr(nr: "1") {` + strings.Repeat(cycle, 5) + " nr" + strings.Repeat(" } } }", 5) + " } }"
	body, _ := json.Marshal(map[string]string{"query": deep})
	resp, err = http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Errors []struct{ Message string } }
	json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if len(r.Errors) != 1 || r.Errors[0].Message != "the query is too deep: depth 17, at most 15 allowed" {
		t.Errorf("a query 17 deep: %d %+v", resp.StatusCode, r.Errors)
	}
}

// testRejected: a dialect template PostGraphile rejects fails the load's
// preflight with PostGraphile's own message.
func testRejected(t *testing.T, f *fixture, url string) {
	bad := f.entries[0]
	bad.Query = strings.Replace(bad.Query, "emailAddress: emailaddress", "emailAddress: email", 1)
	_, out, err := runJob(t, []queryfile.Entry{bad}, url, drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 1}})
	if err == nil || !strings.Contains(err.Error(), `Cannot query field`) || !strings.Contains(err.Error(), `email`) ||
		!strings.Contains(err.Error(), "dialect postgraphile") {
		t.Errorf("err = %v, want PostGraphile's complaint about the field email", err)
	}
	if out != "" {
		t.Errorf("a run file was written: %s", out)
	}
}

// testCrash: PostGraphile killed while a closed loop runs: the run aborts,
// as with any server that dies, keeping what it measured.
func testCrash(t *testing.T, f *fixture) {
	r := f.start(t, server.ProcessConfig{Config: server.Config{Pool: 2}})
	var out strings.Builder
	j := drive.Job{Config: drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Clients: 2, Repeat: drive.Repeat{Duration: time.Minute}}, Interval: 100 * time.Millisecond, AbortAfter: time.Second},
		Target: r.URL, Queries: &queryfile.File{Path: "pg.jsonl", Entries: f.entries}, Check: true,
		HTTP: wire.Options{Timeout: 5 * time.Second},
		Out: func() (io.Writer, error) {
			time.AfterFunc(300*time.Millisecond, func() { r.Cmd.Process.Kill() }) // once the load has begun
			return &out, nil
		}}
	sum, err := j.Run(context.Background())
	var abort *drive.AbortError
	if !errors.As(err, &abort) || sum == nil || sum.Status != "aborted" {
		t.Fatalf("err = %v, summary %+v: want an aborted run", err, sum)
	}
	if !strings.Contains(out.String(), `"type":"summary"`) {
		t.Errorf("the run file has no summary:\n%.500s", out.String())
	}
	<-r.Done()
}
