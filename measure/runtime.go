package measure

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// RuntimeSample is one reading of a Go server's runtime metrics, scraped
// from its /debug/metrics (server.Metrics): the runtime's own view of its
// memory and garbage collector, which the process's RSS cannot give. The
// counters (cycles, CPU seconds, bytes allocated) are cumulative since the
// process started; the CPU classes are updated by the runtime at each
// garbage collection, so a difference of two readings covers the GC
// cycles between them (docs/suite.md).
type RuntimeSample struct {
	HeapLiveBytes  int64   `json:"heap_live_bytes"`  // /gc/heap/live:bytes: the heap marked live by the last GC
	HeapInUseBytes int64   `json:"heap_inuse_bytes"` // /memory/classes/heap/objects + unused: in-use heap spans
	HeapObjects    int64   `json:"heap_objects"`     // /gc/heap/objects:objects: live or not yet swept
	HeapGoalBytes  int64   `json:"heap_goal_bytes"`  // /gc/heap/goal:bytes
	MappedBytes    int64   `json:"mapped_bytes"`     // /memory/classes/total:bytes: everything the runtime mapped
	AllocBytes     int64   `json:"alloc_bytes"`      // /gc/heap/allocs:bytes, cumulative
	GCCycles       int64   `json:"gc_cycles"`        // /gc/cycles/total:gc-cycles, cumulative
	GCCPUSeconds   float64 `json:"gc_cpu_s"`         // /cpu/classes/gc/total:cpu-seconds, cumulative
	CPUSeconds     float64 `json:"cpu_s"`            // /cpu/classes/total:cpu-seconds: GOMAXPROCS × wall time, cumulative
	IdleCPUSeconds float64 `json:"idle_cpu_s"`       // /cpu/classes/idle:cpu-seconds, cumulative
	Goroutines     int64   `json:"goroutines"`       // /sched/goroutines:goroutines
	// Error says why this reading failed (the endpoint did not answer);
	// the other fields are then zero.
	Error string `json:"error,omitempty"`
}

// Runtime scrapes a Go server's runtime metrics from URL
// (http://HOST:PORT/debug/metrics).
type Runtime struct {
	URL    string
	client *http.Client
}

// ScrapeTimeout bounds one scrape: the load generator scrapes on its
// sampling tick, which must not wait on a server too busy to answer.
const ScrapeTimeout = 500 * time.Millisecond

// NewRuntime returns a scraper of url.
func NewRuntime(url string) *Runtime {
	return &Runtime{URL: url, client: &http.Client{Timeout: ScrapeTimeout, Transport: &http.Transport{MaxIdleConns: 1, DisableCompression: true}}}
}

// Sample scrapes the metrics now. A failed scrape is a sample with Error
// set, never an error: a run goes on without it.
func (r *Runtime) Sample(ctx context.Context) RuntimeSample {
	s, err := r.scrape(ctx)
	if err != nil {
		return RuntimeSample{Error: err.Error()}
	}
	return s
}

func (r *Runtime) scrape(ctx context.Context) (RuntimeSample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return RuntimeSample{}, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return RuntimeSample{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return RuntimeSample{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return RuntimeSample{}, fmt.Errorf("%s: %s", r.URL, resp.Status)
	}
	return ParseRuntime(body)
}

// ParseRuntime reads a /debug/metrics answer: {"metrics": {runtime/metrics
// name: value}}.
func ParseRuntime(body []byte) (RuntimeSample, error) {
	var doc struct {
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return RuntimeSample{}, fmt.Errorf("not a runtime metrics document: %w", err)
	}
	m := doc.Metrics
	if _, ok := m["/gc/heap/live:bytes"]; !ok {
		return RuntimeSample{}, fmt.Errorf("not a runtime metrics document: no /gc/heap/live:bytes")
	}
	i := func(name string) int64 { return int64(m[name]) }
	return RuntimeSample{
		HeapLiveBytes:  i("/gc/heap/live:bytes"),
		HeapInUseBytes: i("/memory/classes/heap/objects:bytes") + i("/memory/classes/heap/unused:bytes"),
		HeapObjects:    i("/gc/heap/objects:objects"),
		HeapGoalBytes:  i("/gc/heap/goal:bytes"),
		MappedBytes:    i("/memory/classes/total:bytes"),
		AllocBytes:     i("/gc/heap/allocs:bytes"),
		GCCycles:       i("/gc/cycles/total:gc-cycles"),
		GCCPUSeconds:   m["/cpu/classes/gc/total:cpu-seconds"],
		CPUSeconds:     m["/cpu/classes/total:cpu-seconds"],
		IdleCPUSeconds: m["/cpu/classes/idle:cpu-seconds"],
		Goroutines:     i("/sched/goroutines:goroutines"),
	}, nil
}

// GCPercent is the share of the process's CPU (GOMAXPROCS × wall time) the
// garbage collector took between readings a and b, in percent, as Go's
// gctrace counts it; ok is false when no GC cycle ended between them (the
// runtime updates its CPU classes at each cycle) or either failed.
func GCPercent(a, b RuntimeSample) (pct float64, ok bool) {
	if a.Error != "" || b.Error != "" || b.GCCycles <= a.GCCycles || b.CPUSeconds <= a.CPUSeconds {
		return 0, false
	}
	return 100 * (b.GCCPUSeconds - a.GCCPUSeconds) / (b.CPUSeconds - a.CPUSeconds), true
}
