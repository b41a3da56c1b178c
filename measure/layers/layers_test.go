package layers

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseServerTiming(t *testing.T) {
	for _, c := range []struct {
		name, v string
		ok      bool
		want    Split
	}{
		{"gqlbench GraphQL server (serve --trace)",
			"read;dur=0.012, parse;dur=0.045, validate;dur=0.030, execute;dur=1.250, db;dur=0.900, db-sum;dur=0.950, sql;count=3, dispatch;dur=0.008, write;dur=0.020, total;dur=1.400",
			true, Split{Source: ServerTiming, Total: 1400 * time.Microsecond, Read: 12 * time.Microsecond, Parse: 45 * time.Microsecond,
				Validate: 30 * time.Microsecond, Execute: 1250 * time.Microsecond, DB: 900 * time.Microsecond, Write: 20 * time.Microsecond,
				DBSum: 950 * time.Microsecond, Dispatch: 8 * time.Microsecond, Statements: 3,
				Has: HasTotal | HasRead | HasParse | HasValidate | HasExecute | HasDB | HasDBSum | HasDispatch | HasWrite | HasStatements}},
		{"serve batch --trace, as sent",
			"read;dur=0.237, parse;dur=0.022, validate;dur=0.096, execute;dur=0.796, db;dur=0.568, db-sum;dur=0.568, sql;count=2, dispatch;dur=0.036, write;dur=0.004, total;dur=1.190",
			true, Split{Source: ServerTiming, Total: 1190 * time.Microsecond, Read: 237 * time.Microsecond, Parse: 22 * time.Microsecond,
				Validate: 96 * time.Microsecond, Execute: 796 * time.Microsecond, DB: 568 * time.Microsecond, Write: 4 * time.Microsecond,
				DBSum: 568 * time.Microsecond, Dispatch: 36 * time.Microsecond, Statements: 2,
				Has: HasTotal | HasRead | HasParse | HasValidate | HasExecute | HasDB | HasDBSum | HasDispatch | HasWrite | HasStatements}},
		{"gqlbench REST server",
			"total;dur=0.734112, db;dur=0.512000, db-sum;dur=0.512000, app;dur=0.222112, sql;count=1",
			true, Split{Source: ServerTiming, Total: 734112, DB: 512 * time.Microsecond, DBSum: 512 * time.Microsecond, Statements: 1, Has: HasTotal | HasDB | HasDBSum | HasStatements}},
		{"W3C example, no total: the phases added up",
			`miss, db;dur=53, app;dur=47.2, cache;desc="Cache Read";dur=23.2, execute;desc="a, b";dur=10`,
			true, Split{Source: ServerTiming, Total: 10 * time.Millisecond, Execute: 10 * time.Millisecond, DB: 53 * time.Millisecond, Has: HasTotal | HasExecute | HasDB}},
		{"case and spaces", "Total ; dur = 2 ,PARSE;dur=1", true,
			Split{Source: ServerTiming, Total: 2 * time.Millisecond, Parse: time.Millisecond, Has: HasTotal | HasParse}},
		{"a REST task's three calls, joined: each metric added up",
			"total;dur=1.000, db;dur=0.500, db-sum;dur=0.500, app;dur=0.500, sql;count=1, total;dur=2.000, db;dur=1.250, db-sum;dur=1.500, app;dur=0.750, sql;count=2, total;dur=0.500, db;dur=0.250, db-sum;dur=0.250, app;dur=0.250, sql;count=1",
			true, Split{Source: ServerTiming, Total: 3500 * time.Microsecond, DB: 2 * time.Millisecond, DBSum: 2250 * time.Microsecond, Statements: 4, Has: HasTotal | HasDB | HasDBSum | HasStatements}},
		{"repeats without a total: the phases added up, then their total",
			"parse;dur=1, execute;dur=2, remote;dur=1, remote-calls;count=2, parse;dur=1, execute;dur=3, remote;dur=2, remote-calls;count=3",
			true, Split{Source: ServerTiming, Total: 7 * time.Millisecond, Parse: 2 * time.Millisecond, Execute: 5 * time.Millisecond,
				Remote: 3 * time.Millisecond, RemoteCalls: 5, Has: HasTotal | HasParse | HasExecute | HasRemote}},
		{"nothing known", "cdn-cache;desc=HIT, edge;dur=3", false, Split{}},
		{"empty", "", false, Split{}},
		{"garbage", `;;,,"=;dur=x`, false, Split{}},
	} {
		got, ok := ParseServerTiming([]byte(c.v))
		if ok != c.ok || got != c.want {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestParseApolloTracing(t *testing.T) {
	body, err := os.ReadFile("testdata/apollo-spec.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := ParseApolloTracing(body)
	if !ok || tr.Version != 1 || tr.Duration != 2694443 || len(tr.Execution.Resolvers) != 5 {
		t.Fatalf("%+v %v", tr, ok)
	}
	s := tr.Split()
	if s.Total != 2694443 || s.Parse != 351736 || s.Validate != 670107 || s.Execute != 2694443-351736-670107 || s.Has&HasDB != 0 {
		t.Errorf("split %+v", s)
	}
	// A field named extensions inside data, and a string "extensions",
	// do not fool it; a body without tracing has none.
	tricky := `{"data":{"extensions":{"x":1},"s":"\"extensions\": no"},"extensions":{"tracing":{"version":1,"duration":5}}}`
	if tr, ok := ParseApolloTracing([]byte(tricky)); !ok || tr.Duration != 5 {
		t.Errorf("tricky: %+v %v", tr, ok)
	}
	for _, b := range []string{`{"data":{"extensions":{"tracing":"no"}}}`, `{"data":{"a":1}}`, `not json "extensions":`, ``} {
		if _, ok := ParseApolloTracing([]byte(b)); ok {
			t.Errorf("%s: found tracing", b)
		}
	}
}

func TestAcc(t *testing.T) {
	body, _ := os.ReadFile("testdata/apollo-spec.json")
	a := NewAcc([]string{"QT1", "QT2", "QT3"}, 2)
	st := []byte("parse;dur=0.100, validate;dur=0.100, execute;dur=0.700, db;dur=0.500, total;dur=1.000")
	for i := range 3 {
		if src := a.Add(0, 2*time.Millisecond+time.Duration(i), st, []byte(`{"data":{}}`)); src != ServerTiming {
			t.Fatalf("source %v", src)
		}
	}
	b := NewAcc([]string{"QT1", "QT2", "QT3"}, 2)
	b.Add(1, 4*time.Millisecond, nil, body)
	b.Add(1, 4*time.Millisecond, nil, body)
	b.Add(1, 4*time.Millisecond, nil, []byte(`{"data":{}}`))
	a.Merge(b)
	r := a.Report()
	if r.Source != "server-timing+apollo-tracing" || len(r.Templates) != 2 || r.Without != 1 {
		t.Fatalf("report %+v", r)
	}
	q1, q2 := r.Templates[0], r.Templates[1]
	if q1.N != 3 || q1.TotalNS != 3e6 || q1.DatabaseN != 3 || q1.DatabaseNS != 15e5 || len(q1.Requests) != 2 || q1.RoundTripNS != 6e6+3 {
		t.Errorf("QT1 %+v", q1)
	}
	if db, ok := q1.Database(); !ok || db != 5e5 || q1.GraphQL() != 5e5 || q1.Overhead() != 1e6+1 {
		t.Errorf("QT1 means: db %v graphql %v overhead %v", db, q1.GraphQL(), q1.Overhead())
	}
	if q2.N != 2 || q2.Without != 1 || q2.Apollo != 2 || q2.DatabaseN != 0 || q2.Requests[0].DatabaseNS != -1 ||
		len(q2.WithoutRoundTrips) != 1 || q2.WithoutRoundTrips[0] != 4e6 || len(q1.WithoutRoundTrips) != 0 {
		t.Errorf("QT2 %+v", q2)
	}
	if len(q2.Fields) != 4 || q2.Fields[0].Field != "Droid.friends" || q2.Fields[0].Count != 2 || q2.Fields[0].TotalNS != 2*582170 ||
		q2.Fields[1].Field != "Query.hero" || q2.Fields[2].Field != "Human.name" || q2.Fields[2].Count != 4 || q2.Fields[2].MaxNS != 63611 ||
		q2.Fields[2].Path != "hero.friends[].name" {
		t.Errorf("fields %+v", q2.Fields)
	}
	// The report is the run file's: it encodes and decodes unchanged.
	j, _ := json.Marshal(r)
	var back Report
	if err := json.Unmarshal(j, &back); err != nil || !strings.Contains(string(j), `"slowest_fields"`) || back.Templates[1].Fields[0] != q2.Fields[0] {
		t.Errorf("%v %s", err, j)
	}
	if none := NewAcc([]string{"x"}, 0); none.Add(0, 1, nil, []byte(`{"data":1}`)) != None || none.Report().Source != "none" {
		t.Error("a response without figures")
	}
}

// TestParseYoga: what graphql-yoga with envelop's useApolloTracing sent
// (internal/nodetest's yoga.mjs --tracing): no parsing or validation
// phase, resolvers with list indexes in their paths.
func TestParseYoga(t *testing.T) {
	body, err := os.ReadFile("testdata/yoga-tracing.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := ParseApolloTracing(body)
	if !ok || tr.Version != 1 || tr.Duration <= 0 || tr.Parsing != nil || len(tr.Execution.Resolvers) != 7 {
		t.Fatalf("%+v %v", tr, ok)
	}
	s := tr.Split()
	if s.Total != time.Duration(tr.Duration) || s.Execute != s.Total || s.Has&(HasParse|HasDB) != 0 {
		t.Errorf("split %+v", s)
	}
	a := NewAcc([]string{"books"}, 0)
	a.Add(0, s.Total+time.Millisecond, nil, body)
	f := a.Report().Templates[0].Fields
	if len(f) != 4 || f[0].Field != "Query.books" && f[0].Count != 1 || !strings.HasPrefix(f[len(f)-1].Path, "books[]") {
		t.Errorf("fields %+v", f)
	}
}

// TestMerge: two load generators' reports add up per template; the
// slowest fields merge by field.
func TestMerge(t *testing.T) {
	body, _ := os.ReadFile("testdata/apollo-spec.json")
	a, b := NewAcc([]string{"A", "B"}, 0), NewAcc([]string{"A", "B"}, 0)
	a.Add(0, 3*time.Millisecond, []byte("total;dur=2, db;dur=1"), nil)
	b.Add(0, 5*time.Millisecond, []byte("total;dur=4, db;dur=1"), nil)
	b.Add(1, 4*time.Millisecond, nil, body)
	a.Add(1, 4*time.Millisecond, nil, body)
	a.Add(1, 6*time.Millisecond, nil, []byte(`{"data":{}}`))
	b.Add(1, 7*time.Millisecond, nil, []byte(`{"data":{}}`))
	m := Merge(nil, a.Report(), b.Report())
	if m.Source != "server-timing+apollo-tracing" || len(m.Templates) != 2 {
		t.Fatalf("%+v", m)
	}
	x, y := m.Templates[0], m.Templates[1]
	if x.N != 2 || x.TotalNS != 6e6 || x.DatabaseN != 2 || x.RoundTripNS != 8e6 || len(x.Requests) != 2 {
		t.Errorf("A %+v", x)
	}
	if y.N != 2 || y.Without != 2 || len(y.WithoutRoundTrips) != 2 || y.WithoutRoundTrips[0] != 6e6 || y.WithoutRoundTrips[1] != 7e6 ||
		y.Fields[0].Field != "Droid.friends" || y.Fields[0].Count != 2 || y.Fields[0].TotalNS != 2*582170 {
		t.Errorf("B %+v", y)
	}
	if Merge(nil, nil) != nil {
		t.Error("nothing to merge")
	}
}
