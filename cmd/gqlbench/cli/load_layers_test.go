package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/nodetest"
	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/measure/profiles"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
)

// canned answers every request as graphqlServer does, through the GraphQL
// servers' own handler.
type canned struct{}

func (canned) Execute(context.Context, *server.Request) *server.Response {
	return &server.Response{Data: json.RawMessage(`{"__typename":"Query"}`)}
}

// TestLoadLayersNone: --layers against a server that sends neither
// Server-Timing nor Apollo tracing says so in one line, and the run file
// says so too.
func TestLoadLayersNone(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 1, "")
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "200ms", "--runs", "1", "--layers", "-o", out)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, layers.NoneLine); n != 1 {
		t.Errorf("the line %q %d times in:\n%s", layers.NoneLine, n, stderr)
	}
	if l := readRun(t, out).Summary.Layers; l == nil || l.Source != "none" || l.Without == 0 {
		t.Errorf("layers %+v", l)
	}
}

// TestLoadLayersAndProfile: against gqlbench's own HTTP handler with
// tracing, --layers reads every measured response's Server-Timing per
// template, the figures adding up, and --profile saves the server's
// profiles beside the run file, where go tool pprof's reader reads them.
func TestLoadLayersAndProfile(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(server.Handler(canned{}, server.HTTPOptions{Trace: true}))
	t.Cleanup(srv.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	prof := httptest.NewServer(mux)
	t.Cleanup(prof.Close)
	q := writeQueries(t, dir, 2, "")
	f, stderr := loadLayers(t, srv.URL, q, filepath.Join(dir, "run.jsonl"), "--duration", "300ms", "--runs", "2", "--profile", prof.URL)
	for _, tm := range f.Summary.Layers.Templates {
		measured := f.Summary.Templates[tm.Template].Count
		if tm.N == 0 || tm.N != measured || tm.Without != 0 || tm.DatabaseN != tm.N || tm.DatabaseNS != 0 {
			t.Errorf("%s: %d with figures (%d without), %d measured: %+v", tm.Template, tm.N, tm.Without, measured, tm)
		}
		if tm.RoundTripNS < tm.TotalNS || tm.ReadNS+tm.ParseNS+tm.ValidateNS+tm.ExecuteNS+tm.DispatchNS+tm.WriteNS > tm.TotalNS+7000*tm.N {
			t.Errorf("%s does not add up: %+v", tm.Template, tm)
		}
	}
	if !strings.Contains(stderr, "layers (server-timing)") {
		t.Errorf("the text summary has no layers:\n%s", stderr)
	}
	p := f.Summary.Profiles
	if p == nil || p.CPU == nil || p.Heap == nil || p.CPU.File != "run.cpu.pprof" || p.Heap.File != "run.heap.pprof" {
		t.Fatalf("profiles %+v", p)
	}
	for _, x := range []string{"run.cpu.pprof", "run.heap.pprof", "run.heap-base.pprof"} {
		if _, err := profiles.ReadFile(filepath.Join(dir, x), "", 5); err != nil {
			t.Error(err)
		}
	}
	// Bad input: no run file to put them beside, an address that serves
	// no profiles.
	if code, _, stderr := run("load", "--target", srv.URL+"/graphql", "--queries", q, "--profile", prof.URL); code != exitcode.Usage || !strings.Contains(stderr, "-o FILE") {
		t.Errorf("--profile without -o: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run("load", "--target", srv.URL+"/graphql", "--queries", q, "--profile", srv.URL, "-o", filepath.Join(dir, "x.jsonl")); code == exitcode.OK || !strings.Contains(stderr, "--profile") {
		t.Errorf("--profile at a server without profiles: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.jsonl")); err == nil {
		t.Error("a run was made without its profiles")
	}
}

// loadLayers runs load --layers against the server at url (queries q, the
// run file out, more flags args) and returns the run file read back and
// the stderr; the split must be read from Server-Timing, for two
// templates.
func loadLayers(t *testing.T, url, q, out string, args ...string) (*runfile.File, string) {
	t.Helper()
	code, _, stderr := run(append([]string{"load", "--target", url + "/graphql", "--queries", q, "--layers", "-o", out}, args...)...)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f := readRun(t, out)
	if l := f.Summary.Layers; l == nil || l.Source != "server-timing" || len(l.Templates) != 2 {
		t.Fatalf("layers %+v", l)
	}
	return f, stderr
}

// TestLoadLayersSampled: a server tracing one request in four at random
// (serve --trace-every): the split is read from those, of both templates
// though they alternate, the others counted without, and the text says of
// how many.
func TestLoadLayersSampled(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(server.Handler(canned{}, server.HTTPOptions{Trace: true, TraceEvery: 4}))
	t.Cleanup(srv.Close)
	q := writeQueries(t, dir, 1, "")
	f, stderr := loadLayers(t, srv.URL, q, filepath.Join(dir, "run.jsonl"), "--duration", "600ms", "--runs", "1", "--clients", "1")
	for _, tm := range f.Summary.Layers.Templates {
		all := tm.N + tm.Without
		// (at least 100 requests of each: none traced, or over half,
		// has a probability below 1e-8)
		if all < 100 || all != f.Summary.Templates[tm.Template].Count || tm.N == 0 || tm.N > all/2 {
			t.Errorf("%s: %d traced, %d without, %d measured", tm.Template, tm.N, tm.Without, f.Summary.Templates[tm.Template].Count)
		}
		if want := fmt.Sprintf("n=%d of %d", tm.N, all); !strings.Contains(stderr, want) {
			t.Errorf("the text summary does not say %q:\n%s", want, stderr)
		}
	}
}

// TestLoadLayersYoga: graphql-yoga with envelop's Apollo tracing plugin,
// a server gqlbench did not write: --layers reads its extensions.tracing,
// per operation, with its slowest fields.
func TestLoadLayersYoga(t *testing.T) {
	nodetest.Ensure(t)
	url := nodetest.StartYoga(t, "--tracing")
	dir := t.TempDir()
	ops := filepath.Join(dir, "shop.graphql")
	os.WriteFile(ops, []byte("query Book($id: ID!) { book(id: $id) { id title author { name books { title } } } }\n"), 0o644)
	var csv strings.Builder
	csv.WriteString("operation,id\n")
	for id := 1; id <= 20; id++ {
		csv.WriteString("Book," + itoa(id) + "\n")
	}
	vars := filepath.Join(dir, "vars.csv")
	os.WriteFile(vars, []byte(csv.String()), 0o644)
	q, golden := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl")
	if code, _, stderr := run("queries", "--ops", ops, "--vars", vars, "-o", q); code != exitcode.OK {
		t.Fatalf("queries: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run("record", "--target", url, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", url, "--queries", golden, "--duration", "300ms", "--runs", "1", "--layers", "-o", out, "--quiet")
	if code != exitcode.OK {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
	f := readRun(t, out)
	l := f.Summary.Layers
	if l == nil || l.Source != "apollo-tracing" || len(l.Templates) != 1 {
		t.Fatalf("layers %+v", l)
	}
	tm := l.Templates[0]
	if tm.Template != "Book" || tm.N == 0 || tm.N != f.Summary.Templates["Book"].Count || tm.Apollo != tm.N || tm.DatabaseN != 0 || tm.RoundTripNS < tm.TotalNS {
		t.Errorf("Book: %+v", tm)
	}
	fields := map[string]bool{}
	for _, x := range tm.Fields {
		fields[x.Field] = x.Count > 0 && x.TotalNS > 0
	}
	if !fields["Query.book"] || !fields["Book.author"] || !fields["Author.books"] {
		t.Errorf("slowest fields %+v", tm.Fields)
	}
	t.Logf("yoga Book: n=%d round trip %.3f ms, server %.3f ms; slowest field %s", tm.N, tm.Mean(tm.RoundTripNS)/1e6, tm.Mean(tm.TotalNS)/1e6, tm.Fields[0].Field)
}

// TestLoadMergeProfiles: load merge merges the shards' server profiles
// beside the merged run file — CPU time and allocations of both added
// up, files go tool pprof reads — warns when the shards profiled one
// server, and refuses to merge them into stdout, where they have nowhere
// to go.
func TestLoadMergeProfiles(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(server.Handler(canned{}, server.HTTPOptions{Trace: true}))
	t.Cleanup(srv.Close)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	prof := httptest.NewServer(mux)
	t.Cleanup(prof.Close)
	q := writeQueries(t, dir, 1, "")
	var shards []string
	var cpu, heap int64
	for _, name := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		out := filepath.Join(dir, name, "run.jsonl")
		code, _, stderr := run("load", "--target", srv.URL+"/graphql", "--queries", q, "--duration", "300ms", "--runs", "1",
			"--layers", "--profile", prof.URL, "-o", out)
		if code != exitcode.OK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		p := readRun(t, out).Summary.Profiles
		if p == nil || p.CPU == nil || p.Heap == nil {
			t.Fatalf("%s: profiles %+v", name, p)
		}
		cpu, heap = cpu+p.CPU.Total, heap+p.Heap.Total
		shards = append(shards, out)
	}
	os.MkdirAll(filepath.Join(dir, "m"), 0o755)
	merged := filepath.Join(dir, "m", "merged.jsonl")
	code, _, stderr := run(append(append([]string{"load", "merge"}, shards...), "-o", merged)...)
	if code != exitcode.OK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "profiled the same server") {
		t.Errorf("no warning that both profiled one server: %s", stderr)
	}
	f := readRun(t, merged)
	p := f.Summary.Profiles
	if p == nil || p.CPU == nil || p.Heap == nil || p.Error != "" {
		t.Fatalf("merged profiles %+v", p)
	}
	if p.CPU.Total != cpu || p.Heap.Total != heap || p.CPU.File != "merged.cpu.pprof" || p.Heap.File != "merged.heap.pprof" {
		t.Errorf("merged cpu %d (%s), heap %d (%s); the shards' sums %d, %d", p.CPU.Total, p.CPU.File, p.Heap.Total, p.Heap.File, cpu, heap)
	}
	for _, x := range []string{"merged.cpu.pprof", "merged.heap.pprof", "merged.heap-base.pprof"} {
		if _, err := profiles.ReadFile(filepath.Join(dir, "m", x), "", 5); err != nil {
			t.Error(err)
		}
	}
	if f.Summary.Layers == nil || f.Summary.Layers.Source != "server-timing" {
		t.Errorf("merged layers %+v", f.Summary.Layers)
	}
	if code, _, stderr := run(append([]string{"load", "merge"}, shards...)...); code != exitcode.Usage || !strings.Contains(stderr, "-o FILE") {
		t.Errorf("merge to stdout: exit %d, %s", code, stderr)
	}
}
