package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
)

// TestPrintLength: a closed or open load says, before it starts, how long
// it takes with the settings in force, defaults included (closed: 6 runs
// of 60 s).
func TestPrintLength(t *testing.T) {
	for _, c := range []struct {
		cfg  drive.Config
		want string
	}{
		{drive.Config{Mode: drive.Closed}, "load: 6 runs of 1m0s each (the first a warm-up): 6m0s in all; --runs N and --duration D change it\n"},
		{drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Repeat: drive.Repeat{Duration: 20 * time.Second, Runs: 3}}}, "load: 3 runs of 20s each (the first a warm-up): 1m0s in all;"},
		{drive.Config{Mode: drive.Open, Settings: drive.OpenSettings{Arrivals: drive.Arrivals{Rate: 100}}}, "load: 1 run of 1m0s; --runs N"},
		{drive.Config{Mode: drive.Closed, Settings: drive.ClosedSettings{Repeat: drive.Repeat{CI: 0.05}}}, "until the mean throughput is known to within ±5% (at most 20 runs, 20m0s)"},
		{drive.Config{Mode: drive.Capacity}, ""},
	} {
		var b strings.Builder
		printLength(&b, c.cfg)
		if got := b.String(); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.cfg.Mode, got, c.want)
		}
	}
}
