package profiles

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// sink keeps allocations alive enough not to be optimised away.
var sink [][]byte

//go:noinline
func allocateForTheProfile() {
	for range 256 {
		sink = append(sink, make([]byte, 256<<10))
	}
	sink = nil
}

//go:noinline
func spinForTheProfile(stop <-chan struct{}) (n uint64) {
	for {
		select {
		case <-stop:
			return n
		default:
		}
		for i := range 100000 {
			n += uint64(i) * n
		}
	}
}

// TestRecorder: the profiles of this process, served as serve --pprof
// serves them, are saved beside a run file, parse, and name the
// functions that spent the CPU and allocated.
func TestRecorder(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := t.TempDir()
	r := &Recorder{Base: srv.URL, Dir: dir, Name: "run"}
	ctx := context.Background()
	if err := r.Check(ctx); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	r.Start(ctx)
	go func() { defer close(done); spinForTheProfile(stop) }()
	allocateForTheProfile()
	time.Sleep(1500 * time.Millisecond) // two windows
	close(stop)
	<-done
	ps, err := r.Stop(ctx)
	if err != nil || ps.Error != "" {
		t.Fatalf("%v %+v", err, ps)
	}
	for _, p := range []*runfile.Profile{ps.CPU, ps.Heap} {
		if p == nil {
			t.Fatalf("a profile is missing: %+v", ps)
		}
		back, err := ReadFile(filepath.Join(dir, p.File), p.Sample, 5)
		if err != nil || back.Sample != p.Sample {
			t.Errorf("%s: %v %+v", p.File, err, back)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run.heap-base.pprof")); err != nil {
		t.Error(err)
	}
	if ps.CPU.Windows < 1 || ps.CPU.Sample != "cpu" || ps.CPU.Unit != "nanoseconds" || ps.Heap.Sample != "alloc_space" || ps.Heap.Unit != "bytes" {
		t.Errorf("cpu %+v heap %+v", ps.CPU, ps.Heap)
	}
	named := func(fs []runfile.ProfileFunc, fn string) bool {
		return slices.ContainsFunc(fs, func(f runfile.ProfileFunc) bool { return strings.HasSuffix(f.Function, fn) })
	}
	if !named(ps.CPU.Flat, ".spinForTheProfile") || !named(ps.CPU.Cum, ".spinForTheProfile") {
		t.Errorf("the CPU top does not name the spinning function: %+v", ps.CPU.Flat)
	}
	if !named(ps.Heap.Flat, ".allocateForTheProfile") {
		t.Errorf("the heap top does not name the allocating function: %+v", ps.Heap.Flat)
	}
	for _, f := range ps.CPU.Cum {
		if f.Cum < f.Flat || f.CumPct > 100.0001 {
			t.Errorf("cum below flat: %+v", f)
		}
	}
}

// TestRecorderBadEndpoint: an address that serves no profiles is a clear
// error before the run.
func TestRecorderBadEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	for _, base := range []string{srv.URL, "http://127.0.0.1:1"} {
		err := (&Recorder{Base: base}).Check(context.Background())
		if err == nil || !strings.Contains(err.Error(), "--profile") {
			t.Errorf("%s: %v", base, err)
		}
	}
	if p, err := (&Recorder{}).Stop(context.Background()); p != nil || err != nil {
		t.Error("Stop without Start")
	}
}
