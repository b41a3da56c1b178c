package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/gqlbench/gqlbench/drive"
)

// printLength says, before a load whose runs measure throughput (closed,
// open) starts, how long it will take and how to change that: the defaults
// (closed: 6 runs of 60 s, the first a warm-up) make a one-line command a
// six-minute run, which nobody should learn by waiting.
func printLength(w io.Writer, c drive.Config) {
	c = c.Defaults()
	r, ok := c.Repeats()
	if spec, err := drive.ModeByName(c.Mode); err != nil || !spec.Throughput || !ok {
		return
	}
	if r.CI > 0 {
		fmt.Fprintf(w, "load: runs of %v until the mean throughput is known to within ±%g%% (at most %d runs, %v); --max-runs and --duration change it\n",
			r.Duration, r.CI*100, r.MaxRuns, time.Duration(r.MaxRuns)*r.Duration)
		return
	}
	if r.Runs == 1 {
		fmt.Fprintf(w, "load: 1 run of %v; --runs N and --duration D change it\n", r.Duration)
		return
	}
	fmt.Fprintf(w, "load: %d runs of %v each (the first a warm-up): %v in all; --runs N and --duration D change it\n",
		r.Runs, r.Duration, time.Duration(r.Runs)*r.Duration)
}
