package enginebench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"github.com/gqlbench/gqlbench/server/source"
)

// tiny are settings that time every operation a few times: the tests check
// what is measured and that it is checked, never how fast.
var tiny = Settings{Samples: 2, Sample: time.Millisecond, Warmup: time.Millisecond}

// fixture is the sf=1 fixture, made once for the package's tests (a test
// that tampers with it makes its own).
var fixture = sync.OnceValues(func() (*Fixture, error) {
	return NewFixture(context.Background(), dataset.Config{Scale: 1})
})

func testFixture(t *testing.T) *Fixture {
	t.Helper()
	f, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// run runs o and returns the header and the results.
func run(t *testing.T, o Options) (*runfile.EngineHeader, []*runfile.EngineResult, *Outcome) {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	var h *runfile.EngineHeader
	var rs []*runfile.EngineResult
	out, err := Run(context.Background(), o, func(line any) error {
		switch v := line.(type) {
		case *runfile.EngineHeader:
			h = v
		case *runfile.EngineResult:
			rs = append(rs, v)
		default:
			t.Fatalf("emitted %T", line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h, rs, out
}

// TestEveryShape: every engine has checked samples for every shape and
// phase (the compiled engine for every shape but introspection alone),
// none wrong, with allocation counts for the Go engines.
func TestEveryShape(t *testing.T) {
	f := testFixture(t)
	peertest.Install(t, NodePackage())
	var log strings.Builder
	h, rs, out := run(t, Options{Fixture: f, Settings: tiny, Log: &log})
	if len(out.Wrong) > 0 || len(out.Skipped) > 0 {
		t.Fatalf("wrong: %v\nskipped: %v\n%s", out.Wrong, out.Skipped, log.String())
	}
	if len(h.Engines) != len(Engines) {
		t.Errorf("header engines %+v", h.Engines)
	}
	got := map[string]*runfile.EngineResult{}
	for _, r := range rs {
		got[r.Engine+" "+r.Shape+" "+r.Phase] = r
	}
	want := 0
	for _, e := range Engines {
		for _, s := range f.Shapes {
			if e.Name == "compiled" && s.Name == "introspection" {
				continue
			}
			for _, p := range e.Phases {
				want++
				k := e.Name + " " + s.Name + " " + p
				r := got[k]
				switch {
				case r == nil:
					t.Errorf("%s: no result", k)
				case !r.Checked || r.Error != "" || len(r.Samples) != tiny.Samples:
					t.Errorf("%s: %+v", k, r)
				case !e.Node && (r.Samples[0].Bytes == nil || r.Samples[0].Allocs == nil || *r.Samples[0].Allocs == 0):
					t.Errorf("%s: no allocation counts: %+v", k, r.Samples[0])
				case e.Node && (r.Samples[0].Bytes == nil || *r.Samples[0].Bytes == 0 || r.Samples[0].Allocs != nil):
					t.Errorf("%s: want the bytes allocated and no object count: %+v", k, r.Samples[0])
				}
			}
		}
	}
	if len(rs) != want {
		t.Errorf("%d results, want %d", len(rs), want)
	}
	// The Node engines' bytes grow with the answer: executing a list of
	// 1000 elements allocates more than ten times a list of 10.
	for _, e := range NodeEngines {
		small, large := got[e+" list-10 execute"], got[e+" list-1000 execute"]
		if small == nil || large == nil || len(small.Samples) == 0 || len(large.Samples) == 0 {
			continue // reported above
		}
		b10, ok10 := small.Samples[0].BytesPerOp()
		b1000, ok1000 := large.Samples[0].BytesPerOp()
		if !ok10 || !ok1000 || b1000 < 10*b10 {
			t.Errorf("%s: execute list-10 %.0f B/op, list-1000 %.0f B/op", e, b10, b1000)
		}
	}
	for _, name := range []string{"one-object", "root-fields", "variables", "fragments", "list-10", "list-100", "list-1000", "introspection", "QT1", "QT16"} {
		if _, ok := f.Shape(name); !ok {
			t.Errorf("no shape %s", name)
		}
	}
	if n := len(f.Shapes); n != 8+16 {
		t.Errorf("%d shapes, want 24", n)
	}
}

// TestWrongAnswerCaught: with the oracle's answer to one shape tampered
// with, every engine's execute of that shape fails and is not timed, and
// the others are unaffected.
func TestWrongAnswerCaught(t *testing.T) {
	good := testFixture(t)
	f := *good
	f.oracle = map[string]Answer{}
	for k, v := range good.oracle {
		f.oracle[k] = v
	}
	raw := strings.Replace(string(good.oracle["list-10"].Raw), `"age":`, `"age":1`, 1)
	if err := f.SetOracle("list-10", json.RawMessage(raw)); err != nil {
		t.Fatal(err)
	}
	peertest.Install(t, NodePackage())
	_, rs, out := run(t, Options{Fixture: &f, Settings: tiny, Shapes: []string{"one-object", "list-10"}})
	wrong := map[string]bool{}
	for _, r := range rs {
		if r.Error != "" {
			wrong[r.Engine+" "+r.Shape+" "+r.Phase] = true
			if len(r.Samples) > 0 || r.Checked {
				t.Errorf("a wrong answer timed: %+v", r)
			}
		}
	}
	for _, k := range []string{"gqlgen list-10 execute", "graphql-js list-10 execute", "graphql-jit list-10 execute",
		"compiled list-10 compile-miss", "compiled list-10 compile-hit"} {
		if !wrong[k] {
			t.Errorf("%s: the wrong answer was not caught", k)
		}
	}
	if len(wrong) != 5 || len(out.Wrong) != 5 {
		t.Errorf("wrong: %v / %v", wrong, out.Wrong)
	}
}

// broken is the in-memory data with one wrong value: a graduate student's
// age is one more than it is.
type broken struct{ source.Source }

func (b broken) ForRequest(context.Context) source.Source { return b }

func (b broken) Graduates(ctx context.Context, q source.GradQuery) ([]*source.GraduateStudent, error) {
	gs, err := b.Source.Graduates(ctx, q)
	if len(gs) > 0 {
		g := *gs[0]
		g.Age++
		gs[0] = &g
	}
	return gs, err
}

// TestBrokenResolver: gqlgen over data that answers one value wrongly
// fails its execute operation; parse and validate do not depend on data.
func TestBrokenResolver(t *testing.T) {
	f := testFixture(t)
	s, _ := f.Shape("list-100")
	ops, err := GqlgenOps(f, broken{f.Data}, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := ops[Execute](); err == nil || !strings.Contains(err.Error(), "wrong answer") {
		t.Errorf("execute over broken data: %v", err)
	}
	if _, err := Measure(ops[Execute], tiny); err == nil {
		t.Error("Measure timed a wrong answer")
	}
	for _, p := range []string{Parse, Validate} {
		if err := ops[p](); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	good, _ := GqlgenOps(f, f.Data, s)
	if err := good[Execute](); err != nil {
		t.Errorf("execute over the data: %v", err)
	}
}

// TestUnknownNames: an unknown engine or shape is an error naming the
// known ones.
func TestUnknownNames(t *testing.T) {
	f := testFixture(t)
	for _, o := range []Options{{Engines: []string{"graphql-go"}}, {Shapes: []string{"QT17"}}} {
		o.Fixture = f
		_, err := Run(context.Background(), o, func(any) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "are") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestNodeUnavailable: without an install and without npm to make one,
// the Node engines are skipped with a one-line reason in the header and
// the outcome, and the Go engines still run.
func TestNodeUnavailable(t *testing.T) {
	f := testFixture(t)
	t.Setenv("GQLBENCH_CACHE", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	h, rs, out := run(t, Options{Fixture: f, Settings: tiny, Engines: []string{"graphql-jit", "gqlgen"}, Shapes: []string{"one-object"}})
	if len(out.Skipped) != 1 || !strings.Contains(out.Skipped[0], "npm") || strings.Contains(out.Skipped[0], "\n") {
		t.Errorf("skipped: %q", out.Skipped)
	}
	if len(h.Engines) != 2 || h.Engines[0].Name != "gqlgen" || h.Engines[1].Skipped == "" {
		t.Errorf("header engines: %+v", h.Engines)
	}
	if len(rs) != 3 {
		t.Errorf("%d results, want gqlgen's 3", len(rs))
	}
	for _, r := range rs {
		if r.Engine != "gqlgen" || !r.Checked {
			t.Errorf("%+v", r)
		}
	}
}

// TestInterrupted: a run cancelled mid-way stops at the next result and
// keeps every result emitted so far.
func TestInterrupted(t *testing.T) {
	f := testFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n int
	out, err := Run(ctx, Options{Fixture: f, Settings: tiny, Engines: []string{"gqlgen"}, Dir: t.TempDir()}, func(line any) error {
		if _, ok := line.(*runfile.EngineResult); ok {
			if n++; n == 2 {
				cancel()
			}
		}
		return nil
	})
	if err == nil || ctx.Err() == nil || out == nil || out.Results != 2 || n != 2 {
		t.Errorf("err %v, outcome %+v, %d emitted", err, out, n)
	}
}

// TestServedSDL: the schema the Node engines load has the types, fields
// and arguments of the one gqlgen's executor serves, in the same order.
func TestServedSDL(t *testing.T) {
	node, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: ServedSDL()})
	if err != nil {
		t.Fatal(err)
	}
	served := gqlgenSchema()
	describe := func(s *ast.Schema) map[string]string {
		out := map[string]string{}
		for name, def := range s.Types {
			if def.BuiltIn {
				continue
			}
			var b strings.Builder
			for _, f := range def.Fields {
				b.WriteString(f.Name + "(")
				for _, a := range f.Arguments {
					b.WriteString(a.Name + ":" + a.Type.String() + " ")
				}
				b.WriteString("):" + fmt.Sprint(f.Type) + " ")
			}
			out[name] = b.String()
		}
		return out
	}
	want, got := describe(served), describe(node)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("type %s: Node's schema has\n%s\nthe served one\n%s", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d types, the served schema %d", len(got), len(want))
	}
}
