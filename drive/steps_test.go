package drive_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

// stepsAPI is a tiny GraphQL API of publications, enough for a CRUD cycle:
// the operation is told by the document's first word after "mutation" or
// "query", the id chosen by the server. It counts the rows left.
type stepsAPI struct {
	mu    sync.Mutex
	next  int
	rows  map[string]string // id → title
	calls int
	h2    int // calls over HTTP/2
}

func (a *stepsAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if r.Method != "POST" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, "bad request", 400)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	if r.ProtoMajor == 2 {
		a.h2++
	}
	w.Header().Set("Content-Type", "application/json")
	nr, _ := req.Variables["nr"].(string)
	switch {
	case strings.Contains(req.Query, "createPublication"):
		a.next++
		id := fmt.Sprint(1000 + a.next)
		title := req.Variables["input"].(map[string]any)["title"].(string)
		a.rows[id] = title
		fmt.Fprintf(w, `{"data":{"createPublication":{"id":%q,"title":%q}}}`, id, title)
	case strings.Contains(req.Query, "deletePublication"):
		if _, ok := a.rows[nr]; !ok {
			fmt.Fprintf(w, `{"errors":[{"message":"no publication %s"}],"data":{"deletePublication":null}}`, nr)
			return
		}
		delete(a.rows, nr)
		fmt.Fprintf(w, `{"data":{"deletePublication":{"id":%q}}}`, nr)
	case strings.Contains(req.Query, "publication("):
		fmt.Fprintf(w, `{"data":{"publication":{"id":%q,"title":%q}}}`, nr, a.rows[nr])
	case strings.Contains(req.Query, "__typename"):
		fmt.Fprint(w, `{"data":{"__typename":"Query"}}`)
	case strings.Contains(req.Query, "prof"):
		fmt.Fprint(w, `{"data":{"prof":{"id":"5"}}}`)
	case strings.Contains(req.Query, "hello"):
		fmt.Fprint(w, `{"data":{"hello":"world"}}`)
	default:
		http.Error(w, "unknown operation", 400)
	}
}

// cycleEntry is a create, a read of what was created, a delete: three
// GraphQL requests in a row, the id of the first in the next two.
func cycleEntry(t *testing.T, id, deleteVar string) queryfile.Entry {
	t.Helper()
	steps := `[{"query":"mutation C($input: In!) { createPublication(input: $input) { id title } }","variables":{"input":"{input}"},` +
		`"from":"createPublication","as":"created","keep":["title"],"then":[` +
		`{"query":"query R($nr: ID!) { publication(nr: $nr) { id title } }","variables":{"nr":"{.id}"},"from":"publication","as":"read","keep":["title"],"then":[` +
		`{"query":"mutation D($nr: ID!) { deletePublication(nr: $nr) { id } }","variables":{"nr":"` + deleteVar + `"}}]}]}]`
	var s queryfile.Plan
	if err := json.Unmarshal([]byte(steps), &s); err != nil {
		t.Fatal(err)
	}
	vars := json.RawMessage(`{"input":{"title":"T"},"gone":"9"}`)
	if err := s.CheckGraphQL(vars); err != nil {
		t.Fatal(err)
	}
	want, _ := verify.Hash([]byte(`{"created":{"title":"T","read":{"title":"T"}}}`))
	return queryfile.Entry{ID: id, Label: "cycle", GraphQLPlan: s, Variables: vars, Expect: want}
}

// TestGraphQLHTTP2: with HTTP2 a GraphQL target is sent every request over
// HTTP/2 (h2c), answers verified, and HTTP/2 recorded in the header.
func TestGraphQLHTTP2(t *testing.T) {
	a := &stepsAPI{rows: map[string]string{}}
	url := serveH2C(t, a, nil)
	hello, _ := verify.Hash([]byte(`{"hello":"world"}`))
	sum, f, err := runAPI(t, drive.APIGraphQL, url+"/graphql", true, 2, queryfile.Entry{ID: "h", Label: "hello", Query: "{ hello }", Expect: hello})
	if err != nil {
		t.Fatal(err)
	}
	if tot := sum.Total; tot.Count == 0 || tot.Verified != tot.Count || tot.Errors+tot.Wrong != 0 || !f.Header.Params.HTTP2 {
		t.Errorf("%+v, http2 in the header %v", tot, f.Header.Params.HTTP2)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.h2 != a.calls || a.calls == 0 {
		t.Errorf("%d of %d calls over HTTP/2", a.h2, a.calls)
	}
}

// TestStepsJob: a task of several GraphQL requests is carried out in order,
// each with the id the one before chose, its assembled answer verified,
// three calls counted per task, every created row deleted again; a request
// of one query in the same file is sent as one call; a step answered with
// errors makes the task a GraphQL error, checked before the load.
func TestStepsJob(t *testing.T) {
	a := &stepsAPI{rows: map[string]string{}}
	url := serveH2C(t, a, nil)
	hello, _ := verify.Hash([]byte(`{"hello":"world"}`))
	one := queryfile.Entry{ID: "h", Label: "hello", Query: "{ hello }", Expect: hello}
	for _, h2 := range []bool{false, true} {
		sum, _, err := runAPI(t, drive.APIGraphQL, url+"/graphql", h2, 2, cycleEntry(t, "c1", "{.id}"), one)
		if err != nil {
			t.Fatal(err)
		}
		c, h := sum.Templates["cycle"], sum.Templates["hello"]
		if c == nil || h == nil || c.Count == 0 || c.Wrong+c.Errors+h.Wrong+h.Errors != 0 || c.Verified != c.Count || c.Calls != 3*c.Count || h.Verified != h.Count {
			t.Errorf("http2 %v: cycle %+v, hello %+v", h2, c, h)
		}
		a.mu.Lock()
		if h2 && a.h2 != a.calls || !h2 && a.h2 != 0 {
			t.Errorf("http2 %v: %d of %d calls over HTTP/2", h2, a.h2, a.calls)
		}
		a.calls, a.h2 = 0, 0
		a.mu.Unlock()
	}
	a.mu.Lock()
	left := len(a.rows)
	a.mu.Unlock()
	if left != 0 {
		t.Errorf("%d rows left: every created row is deleted in its task", left)
	}
	_, _, err := runAPI(t, drive.APIGraphQL, url+"/graphql", false, 1, cycleEntry(t, "c2", "{gone}"))
	if err == nil || !strings.Contains(err.Error(), "no publication 9") {
		t.Errorf("a step answered with errors: %v", err)
	}
}

// profEntry is a task both a stepsAPI (its query) and a restAPI (its
// plan) answer: one professor's id.
func profEntry(t *testing.T) queryfile.Entry {
	t.Helper()
	want, _ := verify.Hash([]byte(`{"prof":{"id":"5"}}`))
	var plan queryfile.Plan
	if err := json.Unmarshal([]byte(`[{"call":"GET /rest/professors/5","as":"prof","keep":["id"]}]`), &plan); err != nil {
		t.Fatal(err)
	}
	return queryfile.Entry{ID: "p", Label: "prof", Query: "{ prof { id } }", Plan: plan, Expect: want}
}

// TestPairedHTTP2Sides: in paired mode HTTP/2 goes to both APIs, or with
// HTTP2Only to the one named (seed 001's REST over HTTP/2), the header
// saying which; a side no target speaks is a usage error.
func TestPairedHTTP2Sides(t *testing.T) {
	entry := profEntry(t)
	for _, only := range []string{"", drive.APIREST, drive.APIGraphQL, "soap"} {
		g := &stepsAPI{rows: map[string]string{}}
		gurl := serveH2C(t, g, nil)
		r := &restAPI{}
		var out bytes.Buffer
		job := drive.Job{Config: drive.Config{Mode: drive.Paired, Settings: drive.PairedSettings{ClosedSettings: drive.ClosedSettings{Clients: 1, Repeat: drive.Repeat{Duration: 100 * time.Millisecond, Runs: 1}}}},
			Target: gurl + "/graphql", PairedTarget: serveREST(t, r), HTTP: wire.Options{HTTP2: true}, HTTP2Only: only,
			Queries: &queryfile.File{Entries: []queryfile.Entry{entry}}, Out: func() (io.Writer, error) { return &out, nil }}
		sum, err := job.Run(context.Background())
		if only == "soap" {
			var usage *exitcode.UsageError
			if !errors.As(err, &usage) {
				t.Errorf("HTTP/2 for soap: %v", err)
			}
			continue
		}
		if err != nil || sum.Total.Wrong+sum.Total.Errors != 0 || sum.Total.Count == 0 {
			t.Fatalf("only %q: %v, %+v", only, err, sum)
		}
		g.mu.Lock()
		gh2 := g.h2 > 0 && g.h2 == g.calls
		g.mu.Unlock()
		rh2 := r.h2.Load() > 0 && r.h1.Load() == 0
		f, _ := runfile.Read(&out)
		if gh2 != (only != drive.APIREST) || rh2 != (only != drive.APIGraphQL) || f == nil || f.Header.Params.HTTP2API != only {
			t.Errorf("only %q: GraphQL over HTTP/2 %v, REST %v, header %+v", only, gh2, rh2, f)
		}
	}
}
