// Package profiles records a Go server's CPU and heap profiles from its
// net/http/pprof endpoint (gqlbench serve --pprof) over the measured part
// of a load run (load --profile), saves them raw for go tool pprof, and
// reads their top functions, flat and cumulative, for the run file and
// the report, as seed 002 read Dgraph's; Merge merges the profiles of
// the run files load merge joins.
//
// A CPU profile is taken in consecutive windows of whole seconds (the
// endpoint's unit) from the first measured run to the end of the last,
// merged into one; the heap's allocations are the difference between a
// snapshot at each end. Parsing the profiles (gzipped protocol buffers)
// is github.com/google/pprof/profile's job, the reader go tool pprof
// itself uses: a library made for it rather than a reader of our own.
//
// It imports the run file's types and nothing else of gqlbench.
package profiles

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/gqlbench/gqlbench/runfile"
)

// Defaults of a Recorder.
const (
	DefaultWindow = time.Second
	DefaultTop    = 15
)

// Recorder fetches a server's profiles. Start it when the measured runs
// begin and Stop it when they end; it is used once.
type Recorder struct {
	// Base is the endpoint: http://HOST:PORT, the address of serve
	// --pprof (a path /debug/pprof/ is added when absent).
	Base string
	// Dir and Name place the files: Dir/Name.cpu.pprof,
	// Dir/Name.heap.pprof (the heap at the end) and
	// Dir/Name.heap-base.pprof (at the start: go tool pprof -base).
	Dir, Name string
	Window    time.Duration // a CPU window, whole seconds (default 1 s)
	Top       int           // functions per top (default 15)
	Client    *http.Client  // default: one with timeouts

	mu      sync.Mutex
	stop    chan struct{}
	done    chan struct{}
	cpus    []*profile.Profile
	cpuErr  error
	heap0   []byte
	heapErr error
	start   time.Time
}

func (r *Recorder) url(kind string) string {
	base := strings.TrimSuffix(r.Base, "/")
	if !strings.HasSuffix(base, "/debug/pprof") {
		base += "/debug/pprof"
	}
	return base + "/" + kind
}

func (r *Recorder) client() *http.Client {
	if r.Client != nil {
		return r.Client
	}
	return &http.Client{Timeout: r.window() + 30*time.Second}
}

func (r *Recorder) window() time.Duration {
	if r.Window < time.Second {
		return DefaultWindow
	}
	return r.Window.Truncate(time.Second)
}

// Check makes sure the endpoint serves profiles: a clear error before a
// run rather than none after it.
func (r *Recorder) Check(ctx context.Context) error {
	b, err := r.get(ctx, "heap")
	if err != nil {
		return err
	}
	if _, err := profile.ParseData(b); err != nil {
		return fmt.Errorf("--profile %s: the heap profile does not parse: %v (is it a Go server's --pprof address?)", r.Base, err)
	}
	return nil
}

// get fetches one profile.
func (r *Recorder) get(ctx context.Context, kind string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url(kind), nil)
	if err != nil {
		return nil, fmt.Errorf("--profile %q: %v", r.Base, err)
	}
	resp, err := r.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("--profile: cannot fetch %s: %v (start the server with --pprof ADDR and give that address)", r.url(kind), err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 512<<20))
	if err != nil {
		return nil, fmt.Errorf("--profile: reading %s: %v", r.url(kind), err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("--profile: %s answered %s: %.200s", r.url(kind), resp.Status, bytes.TrimSpace(b))
	}
	return b, nil
}

// Start takes the heap's first snapshot and starts the CPU windows.
func (r *Recorder) Start(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop != nil {
		return
	}
	r.start = time.Now()
	r.heap0, r.heapErr = r.get(ctx, "heap")
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	go r.loop(ctx)
}

// loop takes CPU windows until Stop.
func (r *Recorder) loop(ctx context.Context) {
	defer close(r.done)
	q := fmt.Sprintf("profile?seconds=%d", int(r.window()/time.Second))
	for {
		b, err := r.get(ctx, q)
		if err == nil {
			var p *profile.Profile
			if p, err = profile.ParseData(b); err == nil {
				r.cpus = append(r.cpus, p)
			}
		}
		if err != nil {
			r.cpuErr = err
			return
		}
		select {
		case <-r.stop:
			return
		case <-ctx.Done():
			return
		default:
		}
	}
}

// Stop ends the CPU windows (waiting for the one under way), takes the
// heap's second snapshot, writes the files and reads their tops. Without
// Start it returns nil.
func (r *Recorder) Stop(ctx context.Context) (*runfile.Profiles, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop == nil {
		return nil, nil
	}
	close(r.stop)
	<-r.done
	elapsed := time.Since(r.start)
	out := &runfile.Profiles{}
	var errs []string
	if r.cpuErr != nil {
		errs = append(errs, "cpu: "+r.cpuErr.Error())
	}
	if len(r.cpus) > 0 {
		p, err := r.saveCPU()
		if err != nil {
			errs = append(errs, "cpu: "+err.Error())
		}
		out.CPU = p
	}
	heap1, err := r.get(ctx, "heap")
	switch {
	case r.heapErr != nil:
		errs = append(errs, "heap: "+r.heapErr.Error())
	case err != nil:
		errs = append(errs, "heap: "+err.Error())
	default:
		p, err := r.saveHeap(r.heap0, heap1, elapsed)
		if err != nil {
			errs = append(errs, "heap: "+err.Error())
		}
		out.Heap = p
	}
	out.Error = strings.Join(errs, "; ")
	if out.CPU == nil && out.Heap == nil {
		return out, errors.New(out.Error)
	}
	return out, nil
}

// saveCPU merges the windows, writes them and reads the top of CPU time.
func (r *Recorder) saveCPU() (*runfile.Profile, error) {
	p, err := profile.Merge(r.cpus)
	if err != nil {
		return nil, err
	}
	name := r.Name + ".cpu.pprof"
	if err := writeProfile(filepath.Join(r.Dir, name), p); err != nil {
		return nil, err
	}
	top, err := Top(p, "cpu", r.top())
	if err != nil {
		return nil, err
	}
	top.File, top.Windows = name, len(r.cpus)
	top.Seconds = float64(len(r.cpus)) * r.window().Seconds()
	return top, nil
}

// saveHeap writes both snapshots and reads the top of the bytes
// allocated between them.
func (r *Recorder) saveHeap(b0, b1 []byte, elapsed time.Duration) (*runfile.Profile, error) {
	p0, err := profile.ParseData(b0)
	if err != nil {
		return nil, err
	}
	p1, err := profile.ParseData(b1)
	if err != nil {
		return nil, err
	}
	name := r.Name + ".heap.pprof"
	if err := os.WriteFile(filepath.Join(r.Dir, name), b1, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(r.Dir, r.Name+".heap-base.pprof"), b0, 0o644); err != nil {
		return nil, err
	}
	p0.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{p1, p0})
	if err != nil {
		return nil, err
	}
	top, err := Top(d, "alloc_space", r.top())
	if err != nil {
		return nil, err
	}
	top.File, top.Seconds = name, elapsed.Seconds()
	return top, nil
}

func (r *Recorder) top() int {
	if r.Top <= 0 {
		return DefaultTop
	}
	return r.Top
}

func writeProfile(path string, p *profile.Profile) error {
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ReadFile reads the top n functions of the profile at path by sample
// (cpu, alloc_space, inuse_space; "" for the profile's default).
func ReadFile(path, sample string, n int) (*runfile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t, err := Top(p, sample, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t.File = filepath.Base(path)
	return t, nil
}

// Top is the top n functions of p by the sample type named (its
// default, the last, when ""), by flat value and by cumulative value, as
// go tool pprof's top and top -cum: a sample's value is flat for the
// function of its innermost frame (inlined calls included) and
// cumulative, once, for every function on its stack.
func Top(p *profile.Profile, sample string, n int) (*runfile.Profile, error) {
	idx := len(p.SampleType) - 1
	if sample != "" {
		idx = slices.IndexFunc(p.SampleType, func(t *profile.ValueType) bool { return t.Type == sample })
		if idx < 0 {
			return nil, fmt.Errorf("the profile has no sample type %q", sample)
		}
	}
	if idx < 0 {
		return nil, errors.New("the profile has no sample types")
	}
	st := p.SampleType[idx]
	out := &runfile.Profile{Sample: st.Type, Unit: st.Unit}
	flat, cum := map[string]int64{}, map[string]int64{}
	seen := map[string]bool{}
	for _, s := range p.Sample {
		v := s.Value[idx]
		if v == 0 {
			continue
		}
		out.Total += v
		out.Samples++
		clear(seen)
		for i, loc := range s.Location {
			for j, line := range loc.Line {
				name := "?"
				if line.Function != nil {
					name = line.Function.Name
				}
				if i == 0 && j == 0 {
					flat[name] += v
				}
				if !seen[name] {
					seen[name] = true
					cum[name] += v
				}
			}
		}
	}
	out.Function = len(cum)
	pct := func(v int64) float64 {
		if out.Total == 0 {
			return 0
		}
		return 100 * float64(v) / float64(out.Total)
	}
	list := func(by map[string]int64) []runfile.ProfileFunc {
		names := make([]string, 0, len(by))
		for k := range by {
			names = append(names, k)
		}
		slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(by[b], by[a]), strings.Compare(a, b)) })
		names = names[:min(n, len(names))]
		fs := make([]runfile.ProfileFunc, len(names))
		for i, k := range names {
			fs[i] = runfile.ProfileFunc{Function: k, Flat: flat[k], FlatPct: pct(flat[k]), Cum: cum[k], CumPct: pct(cum[k])}
		}
		return fs
	}
	out.Flat, out.Cum = list(flat), list(cum)
	return out, nil
}
