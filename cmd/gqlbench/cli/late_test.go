package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestLoadLateCalibrated: an open-loop run without --late measures the
// machine's timer jitter first, says so, and records the threshold it
// chose with the jitter; a given --late is used as it is.
func TestLoadLateCalibrated(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 2, "")
	for _, c := range []struct {
		name string
		args []string
		auto bool
	}{
		{"calibrated", nil, true},
		{"given", []string{"--late", "7ms"}, false},
	} {
		out := filepath.Join(dir, c.name+".jsonl")
		args := append([]string{"load", "--target", url, "--queries", q, "--mode", "open", "--rate", "100", "--duration", "300ms",
			"--interval", "100ms", "-o", out}, c.args...)
		code, _, stderr := run(args...)
		if code != exitcode.OK {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		p := readRun(t, out).Header.Params
		said := strings.Contains(stderr, "load: late threshold ")
		if c.auto && (!p.LateAuto || p.JitterP99NS <= 0 || p.LateNS < int64(time.Millisecond) || !said) {
			t.Errorf("%s: late %v, auto %v, jitter %v; said %v", c.name, time.Duration(p.LateNS), p.LateAuto, time.Duration(p.JitterP99NS), said)
		}
		if !c.auto && (p.LateAuto || p.JitterP99NS != 0 || p.LateNS != int64(7*time.Millisecond) || said) {
			t.Errorf("%s: late %v, auto %v, jitter %v; said %v", c.name, time.Duration(p.LateNS), p.LateAuto, time.Duration(p.JitterP99NS), said)
		}
	}
}
