package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// pipeREST is a REST server on in-memory pipes, for tests in a synctest
// bubble: every call takes latency of virtual time, and its arrival is
// recorded.
type pipeREST struct {
	start   time.Time
	latency time.Duration
	answer  map[string]string // path → JSON answer (status 200); others 404

	mu       sync.Mutex
	arrivals map[string][]time.Duration
	bodies   map[string]string
	conns    int
}

func newPipeREST(latency time.Duration, answer map[string]string) *pipeREST {
	return &pipeREST{start: time.Now(), latency: latency, answer: answer, arrivals: map[string][]time.Duration{}, bodies: map[string]string{}}
}

func (s *pipeREST) dial(context.Context) (net.Conn, error) {
	c, srv := net.Pipe()
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
	go s.serve(srv)
	return c, nil
}

func (s *pipeREST) serve(c net.Conn) {
	serveHTTP(c, func(_ int, req *http.Request, body []byte) bool {
		key := req.Method + " " + req.URL.RequestURI()
		s.mu.Lock()
		s.arrivals[key] = append(s.arrivals[key], time.Since(s.start))
		s.bodies[key] = string(body)
		s.mu.Unlock()
		time.Sleep(s.latency)
		status, resp := 200, s.answer[key]
		if _, ok := s.answer[key]; !ok {
			status, resp = 404, `{"error":"not found"}`
		}
		_, err := fmt.Fprintf(c, "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", status, len(resp), resp)
		return err == nil
	})
}

// restTransport returns a REST transport for plans (each with its
// variables) whose connections are pipes to s.
func restTransport(t *testing.T, s *pipeREST, parallel int, plans ...string) (*Plans, []Request) {
	t.Helper()
	var reqs []Request
	for i, p := range plans {
		vars, plan, _ := strings.Cut(p, "|")
		var pl queryfile.Plan
		if err := json.Unmarshal([]byte(plan), &pl); err != nil {
			t.Fatal(err)
		}
		if err := pl.Check(json.RawMessage(vars)); err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, Request{ID: fmt.Sprint("task-", i), Template: "task", Plan: pl, Variables: []byte(vars)})
	}
	r, err := NewREST("http://rest.test:80/api", reqs, Options{Parallel: parallel, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r.h1.DialFunc = s.dial
	return r, reqs
}

// fanOut is a list of three objects, each with two calls that depend on it.
var fanOut = map[string]string{
	"GET /api/list/7":  `[{"id":"1","ref":"a","x":0},{"id":"2","ref":null,"x":0},{"id":"3","ref":"c","x":0}]`,
	"GET /api/item/a":  `{"id":"a","name":"A","extra":1}`,
	"GET /api/item/c":  `{"id":"c","name":"C","extra":1}`,
	"GET /api/other/1": `[{"n":1}]`,
	"GET /api/other/2": `[{"n":2}]`,
	"GET /api/other/3": `[]`,
}

const fanOutPlan = `{"l":"7"}|[{"call":"GET /list/{l}","as":"root.list","keep":["id"],"then":[` +
	`{"call":"GET /item/{.ref}","as":"ref","keep":["name"]},{"call":"GET /other/{.id}","as":"others"}]}]`

// TestRESTPlanOrder: a call that depends on an answer starts when that
// answer is in, the calls that depend on one answer start together (as
// many at a time as the client has connections), a null reference makes
// no call, and the task lasts from the first call's send to the last
// answer. Virtual time: every call takes 10 ms.
func TestRESTPlanOrder(t *testing.T) {
	for _, c := range []struct {
		parallel int
		waves    []time.Duration // when the five dependent calls arrive, sorted
		end      time.Duration
	}{
		{6, []time.Duration{10, 10, 10, 10, 10}, 20}, // all together, after the list
		{2, []time.Duration{10, 10, 20, 20, 30}, 40}, // two at a time
		{1, []time.Duration{10, 20, 30, 40, 50}, 60}, // one after the other
	} {
		synctest.Test(t, func(t *testing.T) {
			s := newPipeREST(10*time.Millisecond, fanOut)
			tr, _ := restTransport(t, s, c.parallel, fanOutPlan)
			conn := tr.NewConn()
			defer conn.Close()
			var res Response
			if err := conn.Do(0, &res); err != nil {
				t.Fatal(err)
			}
			if got := s.arrivals["GET /api/list/7"]; len(got) != 1 || got[0] != 0 {
				t.Errorf("parallel %d: the list arrived at %v", c.parallel, got)
			}
			var deps []time.Duration
			for k, at := range s.arrivals {
				if k != "GET /api/list/7" {
					deps = append(deps, at...)
				}
			}
			slices.Sort(deps)
			want := make([]time.Duration, len(c.waves))
			for i, w := range c.waves {
				want[i] = w * time.Millisecond
			}
			if !slices.Equal(deps, want) {
				t.Errorf("parallel %d: dependent calls arrived at %v, want %v", c.parallel, deps, want)
			}
			if _, made := s.arrivals["GET /api/item/"]; made {
				t.Error("a call was made for a null reference")
			}
			if d := res.End.Sub(res.Start); d != c.end*time.Millisecond || res.Calls != 6 || s.conns > c.parallel {
				t.Errorf("parallel %d: task took %v with %d calls on %d connections, want %v, 6, at most %d", c.parallel, d, res.Calls, s.conns, c.end*time.Millisecond, c.parallel)
			}
			want2 := `{"data":{"root":{"list":[{"id":"1","others":[{"n":1}],"ref":{"name":"A"}},{"id":"2","others":[{"n":2}],"ref":null},{"id":"3","others":[],"ref":{"name":"C"}}]}}}`
			if res.Status != 200 || strings.TrimSpace(string(res.Body)) != want2 {
				t.Errorf("parallel %d: status %d, body %s\nwant %s", c.parallel, res.Status, res.Body, want2)
			}
		})
	}
}

// TestRESTAssembly: references selected as {id}, members kept by path,
// a list appended to a list, a path through a reference, and the bytes of
// every call summed.
func TestRESTAssembly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newPipeREST(time.Millisecond, map[string]string{
			"GET /api/faculty/5":            `{"id":"5","doctoralDegreeFrom":"9","worksFor":"3","telephone":"x"}`,
			"GET /api/universities/9/grads": `[{"id":"12","emailAddress":"a@b","age":20,"advisor":"5"}]`,
			"GET /api/a?limit=2":            `[{"id":"1"},{"id":"2"}]`,
			"GET /api/b?limit=1":            `[{"id":"3"}]`,
			"GET /api/c?limit=1":            `[{"id":"4","x":1}]`,
		})
		tr, _ := restTransport(t, s, 3,
			`{"f":5}|[{"call":"GET /faculty/{f}","as":"faculty","keep":["worksFor.id"],"then":[`+
				`{"call":"GET /universities/{.doctoralDegreeFrom}/grads","as":"doctoralDegreeFrom.students","keep":["id","advisor.id"]}]}]`,
			`{}|[{"call":"GET /a?limit=2","as":"all"},{"call":"GET /b?limit=1","as":"all"}]`,
			`{}|[{"call":"GET /a?limit=2","as":"all","keep":["id"]},{"call":"GET /c?limit=1","as":"all","keep":["id"]}]`)
		conn := tr.NewConn()
		defer conn.Close()
		for i, want := range []string{
			// a call nothing depends on keeps its members in the answer's order
			`{"data":{"faculty":{"doctoralDegreeFrom":{"students":[{"id":"12","advisor":{"id":"5"}}]},"worksFor":{"id":"3"}}}}`,
			`{"data":{"all":[{"id":"1"},{"id":"2"},{"id":"3"}]}}`,
			`{"data":{"all":[{"id":"1"},{"id":"2"},{"id":"4"}]}}`, // projected lists appended too
		} {
			var res Response
			if err := conn.Do(i, &res); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(res.Body)); got != want || res.Calls != 2 || res.SentBytes < 100 || res.RecvBytes < 100 {
				t.Errorf("task %d: %s (%d calls, %d/%d bytes)\nwant %s", i, got, res.Calls, res.SentBytes, res.RecvBytes, want)
			}
			// a chain keeps to the connection it used last; two calls at
			// the same time need a second one
			if want := min(i+1, 2); s.conns != want {
				t.Errorf("after task %d: %d connections, want %d", i, s.conns, want)
			}
		}
	})
}

// TestRESTFailures: a call answered 404 in the middle of a plan, an answer
// without a member the plan needs, and an answer that is not JSON are
// each a clear failure of the task, a body any checker takes for a bad
// response (a JSON object without data) unless the status is wrong: no
// call is started after it, nothing panics.
func TestRESTFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newPipeREST(time.Millisecond, map[string]string{
			"GET /api/a/1":   `{"id":"1","next":"2"}`,
			"GET /api/bad/1": `{"id":"1"}`,
			"GET /api/txt/1": `not json`,
		})
		tr, reqs := restTransport(t, s, 2,
			`{}|[{"call":"GET /a/1","as":"a","then":[{"call":"GET /a/{.next}","as":"n","then":[{"call":"GET /never/{.id}","as":"x"}]}]}]`,
			`{}|[{"call":"GET /bad/1","as":"a","then":[{"call":"GET /a/{.missing}","as":"m"}]}]`,
			`{}|[{"call":"GET /a/1","as":"a","keep":["nope"]}]`,
			`{}|[{"call":"GET /txt/1","as":"t"}]`,
		)
		for i := range reqs {
			reqs[i].Expect, _ = verify.Hash([]byte(`{}`))
		}
		conn := tr.NewConn()
		defer conn.Close()
		for i, c := range []struct {
			status     int
			want, kind string
		}{
			{404, "GET /a/2: HTTP 404, want 200", "http_status"},
			{200, `no member \"missing\"`, "bad_response"},
			{200, `no member \"nope\"`, "bad_response"},
			{200, "not JSON", "bad_response"},
		} {
			var res Response
			if err := conn.Do(i, &res); err != nil {
				t.Fatal(err)
			}
			out := failureKind(res.Status, res.Body)
			if res.Status != c.status || !strings.Contains(string(res.Body), c.want) || out != c.kind {
				t.Errorf("task %d: HTTP %d %s (%s), want %d with %q (%s)", i, res.Status, res.Body, out, c.status, c.want, c.kind)
			}
		}
		if len(s.arrivals["GET /api/never/2"]) > 0 {
			t.Error("a call after the failed one was made")
		}
	})
}

// failureKind is what a checker makes of a failed task's answer: a wrong
// status, or a JSON object with a plan_error and no data.
func failureKind(status int, body []byte) string {
	var m map[string]json.RawMessage
	switch {
	case status != 200:
		return "http_status"
	case json.Unmarshal(body, &m) == nil && m["data"] == nil && m["plan_error"] != nil:
		return "bad_response"
	}
	return "answer"
}
