package drive_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
	"github.com/gqlbench/gqlbench/verify"
)

// restAPI is a tiny REST API: a department with three students, each with
// an advisor. It counts the calls by protocol and the connections made.
type restAPI struct {
	h2, h1 atomic.Int64
	conns  atomic.Int64
}

func (a *restAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 2 {
		a.h2.Add(1)
	} else {
		a.h1.Add(1)
	}
	body, ok := map[string]string{
		"/rest/departments/3/graduateStudents": `[{"id":"12","advisor":"5","age":20},{"id":"22","advisor":"6","age":21},{"id":"32","advisor":null,"age":22}]`,
		"/rest/professors/5":                   `{"id":"5","emailAddress":"p5@x","telephone":"1"}`,
		"/rest/professors/6":                   `{"id":"6","emailAddress":"p6@x","telephone":"2"}`,
	}[r.URL.Path]
	w.Header().Set("Content-Type", "application/json")
	if !ok || r.Method != "GET" {
		w.WriteHeader(404)
		io.WriteString(w, `{"error":"no such resource"}`)
		return
	}
	io.WriteString(w, body)
}

// serveREST starts a on a loopback port, HTTP/1.1 and h2c.
func serveREST(t *testing.T, a *restAPI) string {
	t.Helper()
	return serveH2C(t, a, func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			a.conns.Add(1)
		}
	})
}

// serveH2C starts h on a loopback port speaking HTTP/1.1 and h2c (HTTP/2
// with prior knowledge), state (if not nil) told of its connections, and
// returns its URL.
func serveH2C(t *testing.T, h http.Handler, state func(net.Conn, http.ConnState)) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	srv.Config.Protocols = &p
	srv.Config.ConnState = state
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// studentsTask is the students with their advisors' e-mail: 1 + 2 calls.
func studentsTask(t *testing.T, id, path string) queryfile.Entry {
	t.Helper()
	plan := `[{"call":"GET ` + path + `","as":"department.graduateStudents","keep":["id","age"],"then":[` +
		`{"call":"GET /rest/professors/{.advisor}","as":"advisor","keep":["emailAddress"]}]}]`
	var p queryfile.Plan
	if err := json.Unmarshal([]byte(plan), &p); err != nil {
		t.Fatal(err)
	}
	want, _ := verify.Hash([]byte(`{"department":{"graduateStudents":[{"id":"12","age":20,"advisor":{"emailAddress":"p5@x"}},` +
		`{"id":"22","age":21,"advisor":{"emailAddress":"p6@x"}},{"id":"32","age":22,"advisor":null}]}}`))
	return queryfile.Entry{ID: id, Label: "students", Plan: p, Expect: want}
}

func runREST(t *testing.T, target string, http2 bool, clients int, entries ...queryfile.Entry) (*runfile.Summary, *runfile.File, error) {
	t.Helper()
	return runAPI(t, drive.APIREST, target, http2, clients, entries...)
}

// runAPI runs entries against target, an api target, closed loop for
// 200ms, the pre-load check first.
func runAPI(t *testing.T, api, target string, http2 bool, clients int, entries ...queryfile.Entry) (*runfile.Summary, *runfile.File, error) {
	t.Helper()
	var out bytes.Buffer
	job := drive.Job{
		Config:  drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Clients: clients, Repeat: drive.Repeat{Duration: 200 * time.Millisecond, Runs: 1}}},
		Target:  target,
		API:     api,
		HTTP:    wire.Options{Timeout: 10 * time.Second, HTTP2: http2},
		Queries: &queryfile.File{Path: "tasks.jsonl", Entries: entries},
		Check:   true,
		Out:     func() (io.Writer, error) { return &out, nil },
	}
	sum, err := job.Run(context.Background())
	if sum == nil {
		return nil, nil, err
	}
	schema.Check(t, out.Bytes())
	f, rerr := runfile.Read(&out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return sum, f, err
}

// TestRESTJob: a REST target driven like a GraphQL one, every assembled
// answer verified against the expected hash, three calls per task
// recorded, and over HTTP/2 (h2c) every call multiplexed on one
// connection per client.
func TestRESTJob(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		a := &restAPI{}
		url := serveREST(t, a)
		sum, f, err := runREST(t, url, h2, 2, studentsTask(t, "s1", "/rest/departments/3/graduateStudents"))
		if err != nil {
			t.Fatalf("http2 %v: %v", h2, err)
		}
		tot := sum.Total
		if tot.Count == 0 || tot.Wrong != 0 || tot.Errors != 0 || tot.Verified != tot.Count || tot.Calls != 3*tot.Count {
			t.Errorf("http2 %v: %d tasks, %d verified, %d wrong, %d errors, %d calls", h2, tot.Count, tot.Verified, tot.Wrong, tot.Errors, tot.Calls)
		}
		if p := f.Header.Params; p.API != "rest" || p.HTTP2 != h2 || (h2 && p.Parallel != wire.DefaultParallelHTTP2 || !h2 && p.Parallel != wire.DefaultParallel) {
			t.Errorf("http2 %v: header params %+v", h2, p)
		}
		switch {
		case h2 && (a.h1.Load() != 0 || a.conns.Load() != 3): // the preflight's and one per client
			t.Errorf("h2c: %d HTTP/1 calls, %d connections; want 0 and 3", a.h1.Load(), a.conns.Load())
		case !h2 && a.h2.Load() != 0:
			t.Errorf("HTTP/1.1: %d HTTP/2 calls", a.h2.Load())
		}
	}
}

// TestRESTJobFailures: a plan whose call the server answers 404 is refused
// before the load with the call named, and during the load (no check)
// counted as an HTTP status error, not a crash; an entry without the form
// the target needs is a usage error.
func TestRESTJobFailures(t *testing.T) {
	url := serveREST(t, &restAPI{})
	bad := studentsTask(t, "bad", "/rest/departments/4/graduateStudents")
	_, _, err := runREST(t, url, false, 1, bad)
	if err == nil || !strings.Contains(err.Error(), "GET /rest/departments/4/graduateStudents: HTTP 404, want 200") {
		t.Errorf("preflight: %v", err)
	}
	var out bytes.Buffer
	job := drive.Job{Config: drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Repeat: drive.Repeat{Duration: 100 * time.Millisecond, Runs: 1}}}, Target: url, API: drive.APIREST,
		Queries: &queryfile.File{Entries: []queryfile.Entry{bad}}, Out: func() (io.Writer, error) { return &out, nil }}
	sum, err := job.Run(context.Background())
	var check *drive.CheckError
	if !errors.As(err, &check) || sum.Total.ErrorKinds["http_status"] != sum.Total.Count || sum.Total.Count == 0 {
		t.Errorf("load: %v, %+v", err, sum.Total)
	}
	job.API = drive.APIGraphQL
	_, err = job.Run(context.Background())
	var usage *exitcode.UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "bad has no GraphQL query") {
		t.Errorf("a plan sent to a GraphQL target: %v", err)
	}
}

// TestRESTTaskGoroutines: a task of many calls holds as many goroutines as
// its client makes calls at a time (--parallel), not one per call: 1,000
// clients of a 201-call task once held 200,000 goroutine stacks (1.4 GB).
func TestRESTTaskGoroutines(t *testing.T) {
	const n = 120
	var peak atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/rest/list", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":"%d"}`, i)
		}
		b.WriteString("]")
		io.WriteString(w, b.String())
	})
	mux.HandleFunc("/rest/item/{id}", func(w http.ResponseWriter, r *http.Request) {
		if g := int64(runtime.NumGoroutine()); g > peak.Load() {
			peak.Store(g)
		}
		time.Sleep(200 * time.Microsecond)
		fmt.Fprintf(w, `{"id":%q,"x":1}`, r.PathValue("id"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var plan queryfile.Plan
	if err := json.Unmarshal([]byte(`[{"call":"GET /rest/list","as":"items","keep":[],"then":[{"call":"GET /rest/item/{.id}","as":"item","keep":["x"]}]}]`), &plan); err != nil {
		t.Fatal(err)
	}
	items := make([]string, n)
	for i := range items {
		items[i] = `{"item":{"x":1}}`
	}
	want, _ := verify.Hash([]byte(`{"items":[` + strings.Join(items, ",") + `]}`))
	base := runtime.NumGoroutine()
	var out bytes.Buffer
	job := drive.Job{Config: drive.Config{Mode: drive.Sequential, Settings: drive.SequentialSettings{Passes: 3}}, Target: srv.URL, API: drive.APIREST,
		HTTP:    wire.Options{Timeout: 10 * time.Second, Parallel: 2},
		Queries: &queryfile.File{Entries: []queryfile.Entry{{ID: "many", Label: "many", Plan: plan, Expect: want}}},
		Out:     func() (io.Writer, error) { return &out, nil }}
	sum, err := job.Run(context.Background())
	if err != nil || sum.Total.Verified != sum.Total.Count || sum.Total.Calls != int64(n+1)*sum.Total.Count {
		t.Fatalf("%v; %+v", err, sum)
	}
	// the server's goroutines for two connections, the run's own, two calls'
	if extra := int(peak.Load()) - base; extra > 30 {
		t.Errorf("%d goroutines more than before the run while a task of %d calls ran 2 at a time", extra, n+1)
	}
}
