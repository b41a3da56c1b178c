package drive

import (
	"bytes"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// TestClientsAddNoHistograms: a run's recording state does not grow with
// its clients. Two closed runs over the same eight templates and latencies,
// every client sending every template, one with at least one client per
// shard and one with a hundred times as many, take the same memory for
// their counters and histograms (three intervals: every buffer has been
// some shard's).
func TestClientsAddNoHistograms(t *testing.T) {
	few := max(runtime.GOMAXPROCS(0), 9) // more clients than requests: each sends all eight
	recording := func(clients int) int64 {
		var n int64
		synctest.Test(t, func(t *testing.T) {
			srv := newFake(10 * time.Millisecond)
			cfg := Config{Mode: Closed, Transport: srv, Settings: ClosedSettings{Clients: clients, Repeat: Repeat{Duration: 3 * time.Second, Runs: 1}}, Requests: requests(1, "QT1", "QT2", "QT3", "QT4", "QT5", "QT6", "QT7", "QT8")}.Defaults()
			var out bytes.Buffer
			e := newEngine(cfg, runfile.NewWriter(&out))
			e.start = time.Now()
			err := e.spec.run(e, t.Context())
			e.closeAll()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := e.sum.Summary().Total.Count, int64(clients*300); got != want {
				t.Fatalf("%d clients: %d requests, want %d", clients, got, want)
			}
			n = e.coll.Bytes()
		})
		return n
	}
	if a, b := recording(few), recording(100*few); a == 0 || b != a {
		t.Errorf("%d clients record into %d bytes, %d clients into %d: want the same", few, a, 100*few, b)
	}
}
