package node_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/verify"
)

// TestTracing: node-batch with --trace answers with Apollo tracing, and
// the layers read from it add up: per template, the server's total is
// within the round trip, parsing and validation within the total, and
// the resolvers name the schema's fields; the answers stay right.
// Without --trace there is none.
func TestTracing(t *testing.T) {
	install(t)
	f := newFixture(t)
	r := start(t, "node-batch", f.url, true)
	names := []string{}
	idx := map[int]int{}
	for _, c := range f.cases {
		if _, ok := idx[c.in.Template]; !ok {
			idx[c.in.Template] = len(names)
			names = append(names, fmt.Sprintf("QT%d", c.in.Template))
		}
	}
	acc := layers.NewAcc(names, 0)
	for _, c := range f.cases {
		begin := time.Now()
		status, body := query(t, r.URL, c.in.Query, c.in.Variables)
		rt := time.Since(begin)
		if err := verify.Check(body, c.hash); status != 200 || err != nil {
			t.Fatalf("%s: %d %v", c.in.ID, status, err)
		}
		tr, ok := layers.ParseApolloTracing(body)
		if !ok || tr.Version != 1 || tr.Parsing == nil || tr.Validation == nil || len(tr.Execution.Resolvers) == 0 {
			t.Fatalf("%s: no Apollo tracing: %.300s", c.in.ID, body)
		}
		s := tr.Split()
		if s.Parse+s.Validate > s.Total || s.Total > rt {
			t.Errorf("%s: parse %v + validate %v, total %v, round trip %v", c.in.ID, s.Parse, s.Validate, s.Total, rt)
		}
		if src := acc.Add(idx[c.in.Template], rt, nil, body); src != layers.ApolloTracing {
			t.Fatalf("%s: read %v", c.in.ID, src)
		}
	}
	rep := acc.Report()
	if rep.Source != "apollo-tracing" || len(rep.Templates) != len(names) {
		t.Fatalf("report %+v", rep)
	}
	for _, tm := range rep.Templates {
		if tm.N == 0 || tm.TotalNS > tm.RoundTripNS || tm.DatabaseN != 0 || len(tm.Fields) == 0 {
			t.Errorf("%s: %+v", tm.Template, tm)
		}
		t.Logf("%s: n=%d round trip %.3f ms, server %.3f ms, slowest field %s (%d calls, %.3f ms)", tm.Template, tm.N,
			tm.Mean(tm.RoundTripNS)/1e6, tm.Mean(tm.TotalNS)/1e6, tm.Fields[0].Field, tm.Fields[0].Count, float64(tm.Fields[0].TotalNS)/1e6)
	}
	plain := start(t, "node-batch", f.url)
	if _, body := query(t, plain.URL, f.cases[0].in.Query, f.cases[0].in.Variables); strings.Contains(string(body), `"tracing"`) {
		t.Errorf("tracing without --trace: %.200s", body)
	}
}
