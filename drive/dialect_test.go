package drive

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// qt15 is a QT15 entry in PostGraphile's dialect whose right answer (in
// the benchmark's form) counts n students.
func qt15(t *testing.T, id string, n int) queryfile.Entry {
	t.Helper()
	answer := `{"university":{"graduateStudentConnection":{"aggregate":{"count":` + itoa(n) + `}}}}`
	h, err := verify.Hash([]byte(answer))
	if err != nil {
		t.Fatal(err)
	}
	return queryfile.Entry{ID: id, Label: "QT15", Query: "query QT15 { x }", Variables: json.RawMessage(`{"universityID":"` + id + `"}`),
		Expect: h, Dialect: "postgraphile"}
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// pgAnswer is PostGraphile's answer to QT15 counting n.
func pgAnswer(n int) string {
	return `{"data":{"university":{"graduateStudentConnection":{"count":` + itoa(n) + `}}}}`
}

// TestDialectChecked: an answer in a dialect is mapped to the benchmark's
// form before it is compared; one that does not map is wrong.
func TestDialectChecked(t *testing.T) {
	reqs, err := wire.Requests([]queryfile.Entry{qt15(t, "1", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if reqs[0].Map == nil {
		t.Fatal("no mapping for a dialect entry")
	}
	c := NewChecker(reqs, 0)
	for _, k := range []struct {
		name, body string
		want       measure.Outcome
	}{
		{"right, in the dialect", pgAnswer(3), measure.OK},
		{"wrong count", pgAnswer(4), measure.Wrong},
		{"the benchmark's form: not the dialect's", `{"data":{"university":{"graduateStudentConnection":{"aggregate":{"count":3}}}}}`, measure.Wrong},
		{"another shape", `{"data":{"university":{"x":1}}}`, measure.Wrong},
		{"a null university", `{"data":{"university":null}}`, measure.Wrong},
		{"not JSON", `{"data":{"university":tru}}`, measure.ErrResponse},
	} {
		if got, _ := c.Check(0, 200, []byte(k.body), true); got != k.want {
			t.Errorf("%s: %v, want %v", k.name, got, k.want)
		}
	}
	for _, e := range []queryfile.Entry{{ID: "x", Label: "QT15", Query: "q", Dialect: "hasura"}, {ID: "y", Label: "Mine", Query: "q", Dialect: "postgraphile"}} {
		if _, err := wire.Requests([]queryfile.Entry{e}); err == nil || !strings.Contains(err.Error(), e.ID) {
			t.Errorf("dialect %s, label %s: err = %v, want one naming the entry", e.Dialect, e.Label, err)
		}
	}
}

// TestDialectFailures: a wrong answer in a dialect is shown as the server
// sent it and as mapped, compared with the expected one.
func TestDialectFailures(t *testing.T) {
	e := qt15(t, "1", 3)
	e.Answer = json.RawMessage(`{"university":{"graduateStudentConnection":{"aggregate":{"count":3}}}}`)
	reqs, err := wire.Requests([]queryfile.Entry{e, qt15(t, "2", 5)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := newFailureLog(dir, 0, reqs, nil)
	f.record(0, []byte(`{"university":{"graduateStudentConnection":{"count":4}}}`))
	f.record(1, []byte(`{"university":{"count":4}}`))
	if !strings.Contains(f.first, "data.university.graduateStudentConnection.aggregate.count: expected 3, got 4") {
		t.Errorf("first failure: %q", f.first)
	}
	var got failure
	b, err := os.ReadFile(filepath.Join(dir, "QT15-1.json"))
	if err == nil {
		err = json.Unmarshal(b, &got)
	}
	if err != nil || compact(got.Received) != `{"university":{"graduateStudentConnection":{"count":4}}}` ||
		compact(got.Actual) != `{"university":{"graduateStudentConnection":{"aggregate":{"count":4}}}}` {
		t.Errorf("the failure file: %v %s", err, b)
	}
	b, err = os.ReadFile(filepath.Join(dir, "QT15-2.json"))
	if err != nil || !strings.Contains(string(b), "does not map") {
		t.Errorf("a failure that does not map: %v %s", err, b)
	}
}

// TestDialectRecorded: a golden file recorded from a server of a dialect
// holds the benchmark's answers; an answer that does not map is none.
func TestDialectRecorded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [4096]byte
		n, _ := r.Body.Read(b[:])
		if strings.Contains(string(b[:n]), `"universityID":"9"`) {
			w.Write([]byte(`{"data":{"university":{"count":1}}}`))
			return
		}
		w.Write([]byte(pgAnswer(3)))
	}))
	defer srv.Close()
	rec := Golden{Target: srv.URL, HTTP: wire.Options{Timeout: time.Second}}
	golden, err := rec.Record(context.Background(), []queryfile.Entry{qt15(t, "1", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"university":{"graduateStudentConnection":{"aggregate":{"count":3}}}}`; string(golden[0].Answer) != want || golden[0].Expect != qt15(t, "1", 3).Expect {
		t.Errorf("recorded %s %s, want %s", golden[0].Answer, golden[0].Expect, want)
	}
	_, err = rec.Record(context.Background(), []queryfile.Entry{qt15(t, "9", 3)})
	if err == nil || !strings.Contains(err.Error(), "does not map") {
		t.Errorf("an answer that does not map: err = %v", err)
	}
}

// TestDialectPreflight: a dialect template the server rejects stops the
// load before it starts, with the server's message and the dialect named.
func TestDialectPreflight(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [4096]byte
		n, _ := r.Body.Read(b[:])
		if strings.Contains(string(b[:n]), "__typename") {
			w.Write(okBody)
			return
		}
		w.Write([]byte(`{"errors":[{"message":"Cannot query field \"x\" on type \"Query\"."}]}`))
	}))
	defer srv.Close()
	reqs, err := wire.Requests([]queryfile.Entry{qt15(t, "1", 3)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Preflight(context.Background(), srv.URL, func(r []wire.Request) (wire.Transport, error) {
		return wire.NewHTTP(srv.URL, r, wire.Options{Timeout: time.Second})
	}, reqs)
	if err == nil || !strings.Contains(err.Error(), "dialect postgraphile") || !strings.Contains(err.Error(), `Cannot query field \"x\"`) && !strings.Contains(err.Error(), `Cannot query field "x"`) {
		t.Errorf("err = %v", err)
	}
}
