//go:build linux

package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkTrace is what --trace adds to a request in the handler: the
// trace's context, the phases, the statements recorded, extensions.timing
// and the Server-Timing header (bench/layers-cost.sh measures the same on
// whole servers). The executor answers at once after recording three
// statements, as a batching server's request does.
func BenchmarkTrace(b *testing.B) {
	exec := tracedFake()
	body := `{"query":"query Q($u: ID!) { university(nr: $u) { id undergraduateDegreeObtainedBystudent { id } } }","variables":{"u":"1"}}`
	for _, traced := range []bool{false, true} {
		name := "off"
		if traced {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			h := Handler(exec, HTTPOptions{Trace: traced})
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				clear(w.h)
				h.ServeHTTP(w, r)
			}
			// The process's CPU time per request: on a machine shared
			// with other work, wall time per request says more about the
			// neighbours.
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
