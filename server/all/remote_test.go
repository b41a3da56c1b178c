package all_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/remoteapi"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// remoteCase is an instance of a remote-field template with the oracle's
// answer and the objects it has per remote field.
type remoteCase struct {
	name    string
	req     *server.Request
	hash    string
	objects map[string]int // remote field name → objects that have it in the answer
}

// remoteCases are the remote-field templates at a few fan-outs, answered
// by the oracle (which computes the remote values itself).
func remoteCases(t *testing.T, f *fixture) []remoteCase {
	t.Helper()
	var out []remoteCase
	for _, tp := range workload.RemoteTemplates() {
		for _, n := range []int{1, 7, 40} {
			req := request(tp.Query, map[string]any{"n": n})
			r := f.oracle.Execute(context.Background(), req)
			if len(r.Errors) > 0 {
				t.Fatalf("the oracle on %s n=%d: %v", tp.Name, n, r.Errors)
			}
			c := remoteCase{name: fmt.Sprintf("%s-n%d", tp.Name, n), req: req, objects: map[string]int{}}
			c.hash, _ = verify.Hash(r.Data)
			var data any
			json.Unmarshal(r.Data, &data)
			countRemote(data, c.objects)
			if len(c.objects) != len(tp.Fields) {
				t.Fatalf("the oracle's answer to %s has the remote fields %v, want %v: %.300s", c.name, c.objects, tp.Fields, r.Data)
			}
			out = append(out, c)
		}
	}
	return out
}

// countRemote counts, per remote field, the objects of v that have it
// with a value.
func countRemote(v any, n map[string]int) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, ok := workload.RemoteFields[k]; ok && x != nil {
				n[k]++
			}
			countRemote(x, n)
		}
	case []any:
		for _, x := range v {
			countRemote(x, n)
		}
	}
}

// remoteService starts the remote service over the test dataset's seed.
func remoteService(t *testing.T, f *fixture) (*remoteapi.Service, string) {
	t.Helper()
	s, err := remoteapi.New(remoteapi.Options{Seed: f.meta.Seed})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(server.API(s, server.HTTPOptions{Variant: "remote-api"}))
	t.Cleanup(ts.Close)
	return s, ts.URL
}

// openRemote opens variant v on url with the remote fields answered by the
// service at remote in mode.
func openRemote(t *testing.T, v server.Variant, url string, r server.Remote) server.Executor {
	t.Helper()
	c := serverConfig(url)
	c.Remote = r
	e, err := v.Open(context.Background(), c)
	if err != nil {
		t.Fatalf("opening %s: %v", v.Name, err)
	}
	t.Cleanup(func() { closeExecutor(e) })
	return e
}

// testRemote: every variant answers the remote fields as the oracle does,
// in SINGLE and BATCH; SINGLE makes one call per object and BATCH one call
// per remote field (compiled: one per field, whatever the mode), counted
// by the service; a failing, slow or garbled service gives field errors on
// those fields alone.
func testRemote(t *testing.T, f *fixture) {
	cases := remoteCases(t, f)
	svc, url := remoteService(t, f)
	ctx := context.Background()
	for _, d := range f.dbs {
		for _, v := range dbVariants(false, false) {
			for _, mode := range []string{server.RemoteSingle, server.RemoteBatch} {
				t.Run(d.name+"/"+v.Name+"/"+mode, func(t *testing.T) {
					e := openRemote(t, v, d.url, server.Remote{URL: url, Mode: mode})
					for _, c := range cases {
						before := svc.Stats()
						r := e.Execute(ctx, c.req)
						calls := svc.Stats().Sub(before)
						if len(r.Errors) > 0 || r.Status > 200 {
							t.Fatalf("%s: status %d, errors %v", c.name, r.Status, r.Errors)
						}
						if h, _ := verify.Hash(r.Data); h != c.hash {
							t.Fatalf("%s: not the oracle's answer: %.300s", c.name, r.Data)
						}
						checkCalls(t, c, v.Name, mode, calls)
					}
				})
			}
		}
	}
	t.Run("failing-service", func(t *testing.T) { testRemoteFailing(t, f, cases) })
	t.Run("slow-service", func(t *testing.T) { testRemoteSlow(t, f, cases) })
	t.Run("malformed-answers", func(t *testing.T) { testRemoteMalformed(t, f, cases) })
}

// checkCalls checks the calls one request made.
func checkCalls(t *testing.T, c remoteCase, variant, mode string, calls remoteapi.Stats) {
	t.Helper()
	batch := mode == server.RemoteBatch || variant == "compiled"
	for field, objects := range c.objects {
		got := calls.Fields[field]
		switch {
		case batch && (got.Single != 0 || got.Batch != 1):
			t.Errorf("%s %s: %s made %d single and %d batch calls, want 1 batch call", c.name, mode, field, got.Single, got.Batch)
		case !batch && (got.Single != int64(objects) || got.Batch != 0):
			t.Errorf("%s %s: %s made %d single and %d batch calls for %d objects, want one single call per object", c.name, mode, field, got.Single, got.Batch, objects)
		}
	}
	if n := calls.Calls(); batch && n != int64(len(c.objects)) {
		t.Errorf("%s %s: %d calls for %d remote fields", c.name, mode, n, len(c.objects))
	}
}

// remoteErrorsOnly checks that r is a partial answer: data, and errors
// only on remote fields, each naming its field and with a path that ends
// at it, the message containing want.
func remoteErrorsOnly(t *testing.T, what string, r *server.Response, want string) {
	t.Helper()
	if r.Status > 200 || len(r.Data) == 0 || string(r.Data) == "null" {
		t.Fatalf("%s: status %d, data %.200s: want partial data with HTTP 200", what, r.Status, r.Data)
	}
	if len(r.Errors) == 0 {
		t.Fatalf("%s: no errors", what)
	}
	for _, e := range r.Errors {
		last := ""
		if len(e.Path) > 0 {
			last = fmt.Sprint(e.Path[len(e.Path)-1])
		}
		if _, ok := workload.RemoteFields[last]; !ok || !strings.Contains(e.Message, "."+last+":") || !strings.Contains(e.Message, want) {
			t.Errorf("%s: error %q at path %v: want one on a remote field, naming it, saying %q", what, e.Message, e.Path, want)
		}
	}
	if !strings.Contains(string(r.Data), `"graduateStudents":[{"id"`) {
		t.Errorf("%s: the data around the remote fields is lost: %.200s", what, r.Data)
	}
}

// testRemoteFailing: the service fails in the middle of a run: the
// requests still end, with field errors on the remote fields alone.
func testRemoteFailing(t *testing.T, f *fixture, cases []remoteCase) {
	svc, url := remoteService(t, f)
	c := cases[len(cases)-1] // RF3, the most objects
	for _, v := range dbVariants(false, false) {
		for _, mode := range []string{server.RemoteSingle, server.RemoteBatch} {
			svc.SetFailureRate(0)
			e := openRemote(t, v, f.dbs[0].url, server.Remote{URL: url, Mode: mode})
			if r := e.Execute(context.Background(), c.req); len(r.Errors) > 0 {
				t.Fatalf("%s %s before the failure: %v", v.Name, mode, r.Errors)
			}
			svc.SetFailureRate(1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			r := e.Execute(ctx, c.req)
			cancel()
			remoteErrorsOnly(t, v.Name+" "+mode, r, "503")
		}
	}
}

// testRemoteSlow: a service slower than the client's timeout gives field
// errors that say so, and the request ends.
func testRemoteSlow(t *testing.T, f *fixture, cases []remoteCase) {
	s, err := remoteapi.New(remoteapi.Options{Seed: f.meta.Seed, Latency: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, v := range dbVariants(false, false) {
		for _, mode := range []string{server.RemoteSingle, server.RemoteBatch} {
			e := openRemote(t, v, f.dbs[0].url, server.Remote{URL: ts.URL, Mode: mode, Timeout: 100 * time.Millisecond})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			r := e.Execute(ctx, cases[0].req)
			cancel()
			remoteErrorsOnly(t, v.Name+" "+mode, r, "did not answer within")
		}
	}
}

// testRemoteMalformed: a service whose answers are not its protocol's
// gives field errors that name the field.
func testRemoteMalformed(t *testing.T, f *fixture, cases []remoteCase) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"values": "not a list", "id": 5}`))
	}))
	defer ts.Close()
	for _, v := range dbVariants(false, false) {
		for _, mode := range []string{server.RemoteSingle, server.RemoteBatch} {
			e := openRemote(t, v, f.dbs[0].url, server.Remote{URL: ts.URL, Mode: mode})
			r := e.Execute(context.Background(), cases[1].req)
			remoteErrorsOnly(t, v.Name+" "+mode, r, "malformed answer")
		}
	}
}
