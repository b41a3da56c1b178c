package enginebench

import (
	"runtime"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// Op is one timed operation. It checks its own output and returns an
// error when it is wrong, so a broken engine never looks fast.
type Op func() error

// Settings say how long each engine, shape and phase is timed.
type Settings struct {
	Samples int           // timed samples (≥ 2 for a comparison with variance)
	Sample  time.Duration // about how long each sample lasts (at least one operation)
	Warmup  time.Duration // untimed operations first (at least one)
}

// Quick is `--quick`'s settings: a complete run of every engine and shape
// in well under three minutes on a 2-core machine.
var Quick = Settings{Samples: 3, Sample: 40 * time.Millisecond, Warmup: 20 * time.Millisecond}

// Full is the default settings.
var Full = Settings{Samples: 10, Sample: 100 * time.Millisecond, Warmup: 100 * time.Millisecond}

// Measure warms op up, then times s.Samples samples of it, each of as many
// operations in a row as fill about s.Sample, with the heap bytes and
// objects they allocate (runtime.MemStats, read between samples). The
// first wrong output ends it with that error.
func Measure(op Op, s Settings) ([]runfile.EngineSample, error) {
	start := time.Now()
	n := 0
	for n == 0 || time.Since(start) < s.Warmup {
		if err := op(); err != nil {
			return nil, err
		}
		n++
	}
	perOp := time.Since(start) / time.Duration(n)
	iters := iterations(s.Sample, perOp)
	runtime.GC()
	out := make([]runfile.EngineSample, 0, s.Samples)
	var m0, m1 runtime.MemStats
	for range s.Samples {
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		for range iters {
			if err := op(); err != nil {
				return nil, err
			}
		}
		el := time.Since(t0)
		runtime.ReadMemStats(&m1)
		bytes, allocs := int64(m1.TotalAlloc-m0.TotalAlloc), int64(m1.Mallocs-m0.Mallocs)
		out = append(out, runfile.EngineSample{N: iters, NS: el.Nanoseconds(), Bytes: &bytes, Allocs: &allocs})
		iters = iterations(s.Sample, el/time.Duration(iters))
	}
	return out, nil
}

// iterations is how many operations of perOp fill target (at least one).
func iterations(target, perOp time.Duration) int64 {
	return max(1, int64(target/max(perOp, 1)))
}
