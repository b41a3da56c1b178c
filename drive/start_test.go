package drive

import (
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/drive/wire"
)

// TestStartClasses: the requests' expectations and templates are numbered
// as a look-up of each one would number them, whether a request repeats
// the one before's or not.
func TestStartClasses(t *testing.T) {
	h := func(c byte) string { return fmt.Sprintf("%064x", c) }
	var reqs []wire.Request
	for i, s := range []struct {
		tmpl, expect string
		unordered    bool
		answer       string
		mapped       bool
	}{
		{"A", h(1), false, "", false}, {"A", h(1), false, "", false}, {"A", h(1), true, "", false},
		{"B", h(1), true, "", false}, {"B", h(2), false, "", false}, {"A", h(1), false, "", false},
		{"A", h(1), false, `{"a":1}`, false}, {"A", h(1), false, `{"a":1}`, false}, {"A", h(1), false, `{"a":2}`, false},
		{"C", h(1), false, "", true}, {"C", h(1), false, "", true}, {"C", "", false, "", false}, {"A", "", false, "", false},
	} {
		r := wire.Request{ID: fmt.Sprint(i), Template: s.tmpl, Expect: s.expect, Unordered: s.unordered}
		if s.answer != "" {
			r.Answer = []byte(s.answer)
		}
		if s.mapped {
			r.Map = &dialect.Mapping{}
		}
		reqs = append(reqs, r)
	}
	seed := maphash.MakeSeed()
	got := expectations(reqs, seed)
	// each request's class is that of the first request like it, numbered
	// in order of first appearance; a mapped request is its own
	type key struct {
		expect, answer string
		unordered      bool
	}
	first, n := map[key]int32{}, int32(0)
	for i, r := range reqs {
		want := n
		if r.Map == nil {
			k := key{r.Expect, string(r.Answer), r.Unordered}
			if r.Answer == nil {
				k.answer = "<none>"
			}
			if c, ok := first[k]; ok {
				want = c
			} else {
				first[k] = n
				n++
			}
		} else {
			n++
		}
		if got[i] != want {
			t.Errorf("request %d: expectation %d, want %d (all %v)", i, got[i], want, got)
		}
	}
	names, of := templates(reqs)
	if fmt.Sprint(names) != "[A B C]" || fmt.Sprint(of) != "[0 0 0 1 1 0 0 0 0 2 2 2 0]" {
		t.Errorf("templates %v %v", names, of)
	}
}

// TestFirstOfEachLabel: the first request of every label, in order,
// whether a label's requests follow one another or not.
func TestFirstOfEachLabel(t *testing.T) {
	var reqs []wire.Request
	for i, l := range []string{"A", "A", "B", "A", "C", "C", "B"} {
		reqs = append(reqs, wire.Request{ID: fmt.Sprint(i), Template: l})
	}
	var got []string
	for _, r := range firstOfEachLabel(reqs) {
		got = append(got, r.Template+r.ID)
	}
	if fmt.Sprint(got) != "[A0 B2 C4]" {
		t.Errorf("firstOfEachLabel %v", got)
	}
	if schemaHint(reqs) != "is the queries file written for this API?" || schemaHint([]wire.Request{{Template: "QT1"}, {Template: "QT16"}}) != "is it a server of the benchmark schema?" {
		t.Error("schemaHint")
	}
}
