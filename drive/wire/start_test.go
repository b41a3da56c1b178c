package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gqlbench/gqlbench/queryfile"
)

// startFile writes n entries as bench/tools.sh writes them (one query, a
// row each, the answer's hash) and reads them back.
func startFile(b *testing.B, n int) string {
	var s strings.Builder
	for i := range n {
		fmt.Fprintf(&s, `{"id":"q%d","template":"Q","query":"query Q($row: Int) { __typename }","variables":{"row":%d},"expect":"0384bd78b8b987171b0ce4f29e771044c363c0642df468aefe682a0cfe47c652"}`+"\n", i+1, i+1)
	}
	path := filepath.Join(b.TempDir(), "q.jsonl")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkStart is the load generator's start for a queries file of
// 10,000 entries: reading it, making its requests, their wire bytes.
func BenchmarkStart(b *testing.B) {
	path := startFile(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		f, err := queryfile.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		makeWires(b, f.Entries)
	}
}

// makeWires makes the requests of entries and their wire bytes.
func makeWires(b *testing.B, entries []queryfile.Entry) {
	reqs, err := Requests(entries)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := NewHTTP("http://127.0.0.1:4795/graphql", reqs, Options{}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRequests makes the requests and their wire bytes of 10,000
// entries read already.
func BenchmarkRequests(b *testing.B) {
	f, err := queryfile.ReadFile(startFile(b, 10000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		makeWires(b, f.Entries)
	}
}

// TestPostWires: the default form's wire bytes (postWires: one head, two
// passes) are those of the general one (formWires) for bodies of every
// length around the Content-Length's digit boundaries, empty ones, and
// mutations, each its own, sized exactly.
func TestPostWires(t *testing.T) {
	var reqs []Request
	for _, n := range []int{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 10000} {
		body := []byte(strings.Repeat("x", n))
		reqs = append(reqs, Request{ID: fmt.Sprint(n), Query: "{a}", Body: body}, Request{ID: fmt.Sprint(n, "m"), Query: "mutation { m }", Mutation: true, Body: body})
	}
	reqs = append(reqs, Request{ID: "nil", Query: "{a}"})
	h, err := NewHTTP("http://127.0.0.1:1/graphql?x=1", reqs, Options{UserAgent: "ua", Header: []string{"X-A: 1", "X-B: 2"}})
	if err != nil {
		t.Fatal(err)
	}
	post := h.postWires(reqs, "ua")
	each, err := h.formWires(reqs, "ua", false)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := range reqs {
		if !bytes.Equal(post[i].b, each[i].b) || post[i].split != each[i].split {
			t.Errorf("request %s: %q at %d, want %q at %d", reqs[i].ID, post[i].b, post[i].split, each[i].b, each[i].split)
		}
		if !bytes.Equal(h.wires[i].b, post[i].b) {
			t.Errorf("request %s: NewHTTP's wire is not postWires'", reqs[i].ID)
		}
		if cap(post[i].b) != len(post[i].b) {
			t.Errorf("request %s: appending to it would write into the next", reqs[i].ID)
		}
		total += len(post[i].b)
	}
	if last := post[len(post)-1].b; &unsafe.Slice(&post[0].b[0], total)[total-len(last)] != &last[0] {
		t.Error("the requests are not one array end to end")
	}
	// the array is sized exactly: 1,000 requests take their bytes, their
	// wireBytes and a little more, not some bytes more each
	many := make([]Request, 1000)
	size := 0
	for i := range many {
		many[i] = Request{ID: fmt.Sprint(i), Query: "{a}", Body: []byte(fmt.Sprintf(`{"query":"{a}","variables":{"row":%d}}`, i))}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h, err = NewHTTP("http://127.0.0.1:1/graphql", many, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	for i := range many {
		size += len(h.wires[i].b)
	}
	if got, want := after.TotalAlloc-before.TotalAlloc, uint64(size)+uint64(len(many))*uint64(unsafe.Sizeof(wireBytes{}))+16<<10; got > want {
		t.Errorf("the wire bytes of %d requests (%d bytes) took %d bytes, want at most %d", len(many), size, got, want)
	}
}

// TestRequestsFromEntries: each request carries its entry's fields, and
// its kind (mutation or not) is its own entry's though the entries before
// share its query text or its operation name.
func TestRequestsFromEntries(t *testing.T) {
	doc := "query A { a } mutation B { b }"
	var entries []queryfile.Entry
	for i, op := range []string{"A", "A", "B", "B", "A", "", "B"} {
		q := doc
		if op == "" {
			q = "mutation { m }"
		}
		entries = append(entries, queryfile.Entry{ID: fmt.Sprint(i), Label: "L" + op, Query: q, OperationName: op,
			Variables: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)), Expect: strings.Repeat("ab", 32), Unordered: i%2 == 0, Answer: json.RawMessage(`{"a":1}`)})
	}
	entries = append(entries, queryfile.Entry{ID: "steps", Label: "S", GraphQLPlan: queryfile.Plan{{Query: "mutation { m }"}}},
		queryfile.Entry{ID: "after", Label: "A", Query: doc, OperationName: "A"})
	reqs, err := Requests(entries)
	if err != nil {
		t.Fatal(err)
	}
	for i := range entries {
		e, r := &entries[i], &reqs[i]
		body, err := e.Body()
		if err != nil {
			t.Fatal(err)
		}
		want := Request{ID: e.ID, Template: e.Label, Body: body, Expect: e.Expect, Answer: e.Answer, Unordered: e.Unordered,
			Query: e.Query, OperationName: e.OperationName, Variables: e.Variables, Plan: e.Plan, GraphQLPlan: e.GraphQLPlan, Mutation: e.Mutation()}
		if !reflect.DeepEqual(*r, want) {
			t.Errorf("entry %s:\n%+v\nwant\n%+v", e.ID, *r, want)
		}
	}
	// the first entry of an unknown dialect is named, unless an entry's
	// body is wrong, which is named first wherever it is
	bad := append(entries[:2:2], queryfile.Entry{ID: "d1", Label: "L", Query: "{a}", Dialect: "nosuch"},
		queryfile.Entry{ID: "d2", Label: "L", Query: "{a}", Dialect: "nosuch"})
	if _, err := Requests(bad); err == nil || !strings.Contains(err.Error(), `"d1"`) {
		t.Errorf("an unknown dialect: %v", err)
	}
	bad = append(bad, queryfile.Entry{ID: "v", Label: "L", Query: "{a}", Variables: json.RawMessage(`{"a":`)})
	if _, err := Requests(bad); err == nil || !strings.Contains(err.Error(), `"v"`) {
		t.Errorf("invalid variables after an unknown dialect: %v", err)
	}
}
