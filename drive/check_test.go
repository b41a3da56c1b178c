package drive

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

func TestScanResponse(t *testing.T) {
	for _, c := range []struct {
		body     string
		data     string // "" for none
		errs, ok bool
	}{
		{`{"data":{"a":1}}`, `{"a":1}`, false, true},                              // plain
		{` { "errors" : [ ] , "data" : [1,"}"] } `, `[1,"}"]`, false, true},       // spaces, empty errors, brace in a string
		{`{"data":null,"errors":[{"message":"x"}]}`, "", true, true},              // errors, no data
		{`{"data":{"a":"\"}"},"extensions":{"t":1}}`, `{"a":"\"}"}`, false, true}, // escaped quote, extensions
		{`{"errors":null,"data":{}}`, `{}`, false, true},                          // null errors
		{`{}`, "", false, true},                                                   // nothing
		{`{"d\u0061ta":{}}`, "", false, false},                                    // escaped key: the slow path decides
		{`{"data":{}}x`, "", false, false},                                        // trailing garbage
		{`[{"data":{}}]`, "", false, false},                                       // not an object
		{`{"data":{"a":1}`, "", false, false},                                     // cut short
		{`{"data":{},"data":{}}`, "", false, false},                               // duplicate: the slow path decides
		{`<html>`, "", false, false},                                              // not JSON
		{`{"data":"x" "errors":1}`, "", false, false},                             // missing comma
	} {
		d, errs, ok := scanResponse([]byte(c.body))
		if ok != c.ok || ok && (string(d) != c.data || errs != c.errs) {
			t.Errorf("%s: data %q errs %v ok %v; want %q %v %v", c.body, d, errs, ok, c.data, c.errs, c.ok)
		}
	}
}

func TestChecker(t *testing.T) {
	data := `{"faculty":{"id":"1","score":1.0}}`
	expect, err := verify.Hash([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []wire.Request{{ID: "a", Expect: expect}, {ID: "b"}}
	c := NewChecker(reqs, 0)
	for _, k := range []struct {
		name     string
		i        int
		status   int
		body     string
		data     bool
		want     measure.Outcome
		verified bool
	}{
		{"right", 0, 200, `{"data":` + data + `}`, true, measure.OK, true},
		{"right again, other extensions (cached)", 0, 200, `{"data":` + data + `,"extensions":{"t":2}}`, true, measure.OK, true},
		{"right, laid out differently", 0, 200, `{"data":{"faculty":{"score":1,"id":"1"}}}`, true, measure.OK, true},
		{"wrong", 0, 200, `{"data":{"faculty":{"id":"2","score":1}}}`, true, measure.Wrong, true},
		{"wrong again (cached)", 0, 200, `{"data":{"faculty":{"id":"2","score":1}}}`, true, measure.Wrong, true},
		{"not sampled", 0, 200, `{"data":{"faculty":null}}`, false, measure.OK, false},
		{"status", 0, 503, `{"data":` + data + `}`, true, measure.ErrStatus, false},
		{"graphql errors", 0, 200, `{"errors":[{"message":"x"}],"data":` + data + `}`, true, measure.ErrGraphQL, false},
		{"no data", 0, 200, `{"extensions":{}}`, true, measure.ErrResponse, false},
		{"not JSON", 0, 200, `<html>`, true, measure.ErrResponse, false},
		{"escaped key (slow path)", 0, 200, `{"d\u0061ta":` + data + `}`, true, measure.OK, true},
		{"no expectation: valid data", 1, 200, `{"data":{"x":[1,2]}}`, true, measure.OK, false},
		{"no expectation: invalid data", 1, 200, `{"data":{"x":tru}}`, true, measure.ErrResponse, false},
	} {
		got, verified := c.Check(k.i, k.status, []byte(k.body), k.data)
		if got != k.want || verified != k.verified {
			t.Errorf("%s: %v verified %v, want %v %v", k.name, got, verified, k.want, k.verified)
		}
	}
	// The verdicts are remembered by the data's bytes: three distinct
	// data values were judged for request 0 (right, right laid out
	// differently, wrong); the cached ones were not judged again.
	if n := c.cache[0].Load().n; n != 3 {
		t.Errorf("request 0 has %d cached verdicts, want 3", n)
	}
	// A cache full of variants still judges every new body.
	for k := range 10 {
		body := `{"data":{"faculty":{"id":"1","score":1.` + strings.Repeat("0", k+2) + `}}}`
		if got, _ := c.Check(0, 200, []byte(body), true); got != measure.OK {
			t.Fatalf("variant %d: %v", k, got)
		}
	}
}

// TestPreflight: before any load, what is wrong with the target is said.
func TestPreflight(t *testing.T) {
	graphql := func(w http.ResponseWriter, r *http.Request) { w.Write(okBody) }
	html := func(w http.ResponseWriter, r *http.Request) { http.Error(w, "<html>not here</html>", 404) }
	otherSchema := func(w http.ResponseWriter, r *http.Request) {
		var b [4096]byte
		n, _ := r.Body.Read(b[:])
		if strings.Contains(string(b[:n]), "__typename") {
			w.Write(okBody)
			return
		}
		w.WriteHeader(400)
		w.Write([]byte(`{"errors":[{"message":"Cannot query field \"faculty\" on type \"Query\"."}]}`))
	}
	closed := httptest.NewServer(http.HandlerFunc(graphql))
	closed.Close()
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		url     string
		want    string
	}{
		{"a GraphQL server", graphql, "", ""},
		{"nothing listening", nil, closed.URL, "cannot reach the target"},
		{"a web page", html, "", "is not a GraphQL endpoint: POST {__typename} got HTTP 404 and not JSON"},
		{"a server of another schema", otherSchema, "", "the server rejects QT1 (QT1-0) before the load"},
	} {
		url := c.url
		if c.handler != nil {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			url = srv.URL
		}
		reqs := requests(2, "QT1")
		for i := range reqs {
			reqs[i].Body = []byte(`{"query":"query QT1 { faculty(nr: \"1\") { id } }"}`)
		}
		_, err := Preflight(context.Background(), url, func(r []wire.Request) (wire.Transport, error) {
			return wire.NewHTTP(url, r, wire.Options{Timeout: time.Second})
		}, reqs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestServerKilledMidRun: a real server, killed while a closed loop runs:
// the run aborts, the file and the records hold every answer received.
func TestServerKilledMidRun(t *testing.T) {
	var served atomic.Int64
	kill := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) == 500 {
			close(kill)
		}
		w.Write(okBody)
	}))
	srv.Start()
	go func() {
		<-kill
		srv.Listener.Close()         // refuse new connections from now on,
		srv.CloseClientConnections() // and drop the open ones
	}()
	defer srv.Close()
	tr, err := wire.NewHTTP(srv.URL, requests(5, "QT1"), wire.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, _ := os.Create(filepath.Join(dir, "run.jsonl"))
	recf, _ := os.Create(filepath.Join(dir, "records.csv"))
	w := runfile.NewWriter(out)
	w.Write(&runfile.Header{Mode: "closed", Hist: runfile.StandardHist})
	sum, err := Run(context.Background(), Config{Mode: Closed, Transport: tr, Requests: requests(5, "QT1"), Settings: ClosedSettings{Clients: 4, Repeat: Repeat{Duration: time.Minute, Runs: 1}}, Interval: 50 * time.Millisecond, AbortAfter: 300 * time.Millisecond,
		Records: measure.NewRecordWriter(recf)}, w)
	out.Close()
	recf.Close()
	var abort *AbortError
	if !errors.As(err, &abort) || sum.Status != "aborted" {
		t.Fatalf("error %v, status %q: want an abort", err, sum.Status)
	}
	f, err := runfile.ReadFile(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	count, ok, _ := total(f)
	if n := served.Load(); ok > n || ok < 496 {
		t.Errorf("%d answers recorded, the server sent %d before it died", ok, n)
	}
	recs, _ := os.ReadFile(filepath.Join(dir, "records.csv"))
	if lines := int64(strings.Count(string(recs), "\n")) - 1; lines != count {
		t.Errorf("%d records, %d requests in the run file", lines, count)
	}
	if f.Summary == nil || f.Summary.Status != "aborted" {
		t.Errorf("the file's summary: %+v", f.Summary)
	}
}

// TestImports keeps the load generator free of server, database, GraphQL
// and dataset code: it must not share a code path with what it measures,
// and it replays any queries file without parsing GraphQL. An allow-list:
// beyond the standard library, only these packages may be linked.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".", "../measure", "../runfile").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/gqlbench/gqlbench/"
	allowed := map[string]bool{
		module + "drive": true, module + "drive/wire": true, module + "measure": true, module + "runfile": true,
		module + "queryfile":                      true, // the queries file's shape, standard library only
		module + "verify":                         true, // canonical JSON and answer hashes
		module + "dialect":                        true, // a dialect's answers mapped to the benchmark's, standard library only
		module + "internal/outfile":               true, // output files that never replace a device, standard library only
		module + "internal/jsonscan":              true, // where a JSON value ends, standard library only
		module + "dbloc":                          true, // the one redaction of URLs and database locations, standard library only
		module + "exitcode":                       true, // the exit classes of errors, standard library only
		module + "measure/layers":                 true, // a server's Server-Timing and Apollo tracing read, standard library only
		"github.com/HdrHistogram/hdrhistogram-go": true,
	}
	deps := strings.Fields(string(out))
	if len(deps) < 4 {
		t.Fatalf("go list found only %v", deps)
	}
	for _, dep := range deps {
		if !allowed[dep] {
			t.Errorf("the load generator depends on %s (not on the allow-list)", dep)
		}
	}
}

// TestCheckAllocatesNothing: a response's check (a verdict already
// cached) and its recording allocate nothing (wire's
// TestHotPathAllocatesNothing: nor does the request on the own client).
func TestCheckAllocatesNothing(t *testing.T) {
	reqs := requests(1, "QT1")
	reqs[0].Expect = "0f54e1a8e1f1ea5b6ac7b0a0e6ab28f1a3cd6d11dce2ae49e4e1d1ea1c1e0f6e"
	checker := NewChecker(reqs, 0)
	coll := measure.NewCollector(measure.Options{Templates: 1, Corrected: true})
	rec := coll.NewRecorder()
	var s measure.Sample
	step := func() {
		s = measure.Sample{Start: time.Millisecond, FirstByte: 2 * time.Millisecond, End: 3 * time.Millisecond}
		s.Outcome, s.Verified = checker.Check(0, 200, okBody, true)
		rec.Record(&s)
	}
	step()
	if s.Outcome != measure.Wrong || !s.Verified {
		t.Fatalf("outcome %v verified %v, want a verified wrong answer", s.Outcome, s.Verified)
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Errorf("a check allocates %v times", n)
	}
}

// TestCheckerSharesVerdicts: requests that expect the same answer (a
// file's entries that differ in their variables only) judge a data value
// once between them — a request that meets data judged for another
// allocates nothing — and a wrong answer is still wrong for each of them,
// reported once for each; a request expecting another answer, or
// written in a dialect, judges the same data for itself.
func TestCheckerSharesVerdicts(t *testing.T) {
	right := `{"__typename":"Query"}`
	expect, err := verify.Hash([]byte(right))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := verify.Hash([]byte(`{"__typename":"Mutation"}`))
	reqs := make([]wire.Request, 100)
	for i := range reqs {
		reqs[i] = wire.Request{ID: "q" + strconv.Itoa(i), Expect: expect}
	}
	reqs[98].Expect = other
	var wrongs []int
	c := NewChecker(reqs, 0)
	c.onWrong = func(i int, _ []byte) { wrongs = append(wrongs, i) }
	body := []byte(`{"data":` + right + `}`)
	if got, verified := c.Check(0, 200, body, true); got != measure.OK || !verified {
		t.Fatalf("request 0: %v %v", got, verified)
	}
	i := 1
	allocs := testing.AllocsPerRun(90, func() {
		if got, _ := c.Check(i, 200, body, true); got != measure.OK {
			t.Fatalf("request %d: %v", i, got)
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("a request whose expectation has judged the data allocates %v times: judged again", allocs)
	}
	if got, _ := c.Check(98, 200, body, true); got != measure.Wrong {
		t.Errorf("request expecting another answer: %v, want wrong", got)
	}
	wrong := []byte(`{"data":{"__typename":"Subscription"}}`)
	for _, i := range []int{2, 3, 3, 2, 4} {
		if got, _ := c.Check(i, 200, wrong, true); got != measure.Wrong {
			t.Errorf("request %d, wrong data: %v", i, got)
		}
	}
	if want := []int{98, 2, 3, 4}; !slices.Equal(wrongs, want) {
		t.Errorf("wrong answers reported for requests %v, want %v", wrongs, want)
	}

	// a dialect's answer is mapped before it is compared: its own verdicts
	m := &dialect.Mapping{}
	d := NewChecker([]wire.Request{{ID: "a", Expect: expect}, {ID: "b", Expect: expect, Map: m}}, 0)
	if d.class[0] == d.class[1] {
		t.Error("a request with a dialect mapping shares the verdicts of one without")
	}
}

// TestCheckKnownDataAsJudgedAfresh: a checker that has judged some data
// (found again by comparing a body's bytes with them, not by scanning and
// hashing) gives every body — the same data followed by anything, other
// data sharing their beginning, broken bodies, random mutations of them —
// the verdict a checker that has judged nothing gives it.
func TestCheckKnownDataAsJudgedAfresh(t *testing.T) {
	right, wrong := `{"__typename":"Query"}`, `[{"__typename":"Mutation"}]`
	expect, err := verify.Hash([]byte(right))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []wire.Request{{ID: "a", Expect: expect}, {ID: "b", Expect: expect}}
	warm := NewChecker(reqs, 0)
	for _, d := range []string{right, wrong} {
		warm.Check(0, 200, []byte(`{"data":`+d+`}`), true)
	}
	bodies := []string{}
	for _, d := range []string{right, wrong} {
		for _, f := range []string{`{"data":%s}`, `{"data":%s,"errors":[{"message":"x"}]}`, `{"data":%s,"errors":[]}`,
			`{"data":%s}x`, `{"data":%s,"data":%[1]s}`, `{"data":null,"data":%s}`, `{"data":%s}}`, `{"data":%s]}`,
			`{"data":%s,"extensions":{"a":"}"}}`, `{"data":%s,}`, `{"data": %s }`, `{"data":%s x}`, `{"data":%s1}`,
			`{"errors":null,"data":%s}`, `{"data":%s`} {
			bodies = append(bodies, fmt.Sprintf(f, d))
		}
	}
	bodies = append(bodies, `{"data":{"__typename":"Query" }}`, `{"data":{"__typename":"Queryx"}}`, `{"data":{"__typename":"Query"}`)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		b := []byte(bodies[rng.IntN(len(bodies))])
		if len(b) == 0 {
			continue
		}
		switch rng.IntN(3) {
		case 0:
			b[rng.IntN(len(b))] = `{}[]",: x1\`[rng.IntN(11)]
		case 1:
			b = b[:rng.IntN(len(b))]
		}
		bodies = append(bodies, string(b))
	}
	for _, body := range bodies {
		for i := range reqs {
			got, gotVerified := warm.Check(i, 200, []byte(body), true)
			want, wantVerified := NewChecker(reqs, 0).Check(i, 200, []byte(body), true)
			if got != want || gotVerified != wantVerified {
				t.Fatalf("request %d, %s: %v verified %v; judged afresh %v %v", i, body, got, gotVerified, want, wantVerified)
			}
		}
	}
}
