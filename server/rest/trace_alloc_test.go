package rest

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server/trace"
)

// TestServerTimingAllocs: a traced call's Server-Timing header is written
// in its trace's own bytes, without an allocation, in the format the
// tests of the whole API check.
func TestServerTimingAllocs(t *testing.T) {
	tr := &traced{start: trace.Now() - 3*time.Millisecond}
	ctx := trace.WithStats(context.Background(), &tr.stats)
	trace.Statement(ctx, time.Millisecond)
	hdr := http.Header{}
	if n := testing.AllocsPerRun(100, func() { tr.serverTiming(hdr) }); n != 0 {
		t.Errorf("%.0f allocations per header, want 0", n)
	}
	re := regexp.MustCompile(`^total;dur=[0-9]+\.[0-9]{6}, db;dur=1\.000000, db-sum;dur=1\.000000, app;dur=[0-9]+\.[0-9]{6}, sql;count=1$`)
	if st := hdr.Get("Server-Timing"); !re.MatchString(st) {
		t.Errorf("Server-Timing %q", st)
	}
}
