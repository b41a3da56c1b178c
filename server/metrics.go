package server

import (
	"encoding/json"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// MetricsPath is where a Go server of gqlbench's serves its runtime's own
// metrics (Metrics).
const MetricsPath = "/debug/metrics"

// RuntimeMetricNames are the runtime/metrics samples /debug/metrics
// serves, by their runtime names: what a health suite reads of a Go
// server's memory and garbage collector (docs/suite.md).
var RuntimeMetricNames = []string{
	"/gc/heap/live:bytes",                // heap live after the last GC: the leak verdict's series
	"/gc/heap/objects:objects",           // objects in the heap, live or not yet swept
	"/gc/heap/allocs:bytes",              // cumulative bytes allocated
	"/gc/heap/goal:bytes",                // the heap size the next GC aims at
	"/gc/cycles/total:gc-cycles",         // cumulative GC cycles
	"/memory/classes/heap/objects:bytes", // heap in use: objects ...
	"/memory/classes/heap/unused:bytes",  // ... and the free space in in-use spans
	"/memory/classes/total:bytes",        // every byte the runtime has mapped
	"/cpu/classes/gc/total:cpu-seconds",  // the GC's CPU time (estimate)
	"/cpu/classes/total:cpu-seconds",     // every CPU second available to the process, the base of the GC's share
	"/cpu/classes/idle:cpu-seconds",      // available but unused: used = total − idle
	"/sched/goroutines:goroutines",
}

// RuntimeSnapshot is what /debug/metrics answers: the process, the time
// of the reading and each of RuntimeMetricNames with its value (a number:
// uint64 or float64 as the runtime keeps it).
type RuntimeSnapshot struct {
	PID     int                `json:"pid"`
	Go      string             `json:"go"`
	TimeNS  int64              `json:"time_ns"`           // Unix time of the reading
	UptimeS float64            `json:"uptime_s"`          // since the process started serving metrics
	Metrics map[string]float64 `json:"metrics"`           // runtime/metrics name → value
	Missing []string           `json:"missing,omitempty"` // names this Go runtime does not have
}

var (
	metricsStart = time.Now()
	metricsMu    sync.Mutex // metrics.Read's samples are reused between calls
	metricsBuf   []metrics.Sample
)

// ReadRuntime reads RuntimeMetricNames from this process's runtime.
func ReadRuntime() RuntimeSnapshot {
	metricsMu.Lock()
	defer metricsMu.Unlock()
	if metricsBuf == nil {
		metricsBuf = make([]metrics.Sample, len(RuntimeMetricNames))
		for i, n := range RuntimeMetricNames {
			metricsBuf[i].Name = n
		}
	}
	metrics.Read(metricsBuf)
	s := RuntimeSnapshot{PID: os.Getpid(), Go: runtime.Version(), TimeNS: time.Now().UnixNano(),
		UptimeS: time.Since(metricsStart).Seconds(), Metrics: make(map[string]float64, len(metricsBuf))}
	for _, m := range metricsBuf {
		switch m.Value.Kind() {
		case metrics.KindUint64:
			s.Metrics[m.Name] = float64(m.Value.Uint64())
		case metrics.KindFloat64:
			s.Metrics[m.Name] = m.Value.Float64()
		default:
			s.Missing = append(s.Missing, m.Name)
		}
	}
	return s
}

// Metrics serves ReadRuntime as JSON at MetricsPath (GET only) and hands
// every other path to next. With ?gc=1 it collects garbage first
// (runtime.GC), so the live heap is what is live now: a soak's reading
// before and after its load, never during it. The runtime's figures say nothing of the
// data, but they do tell a stranger how busy and how big the server is:
// `gqlbench serve` mounts it on a loopback address only, unless asked
// (--debug-metrics).
func Metrics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != MetricsPath {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: GET "+MetricsPath, http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Query().Get("gc") == "1" { // a settled reading: what is live now, not at the last cycle
			runtime.GC()
		}
		b, err := json.Marshal(ReadRuntime())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(append(b, '\n'))
	})
}
