package drive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/workload"
)

// HeaderInfo is what a run file's header says beyond the Config: who ran
// it, with which command, against what.
type HeaderInfo struct {
	Version string            // the tool's version
	Command []string          // the command line
	Flags   map[string]string // every flag's effective value
	Target  string            // the GraphQL endpoint
	Timeout time.Duration     // per request
	Client  string            // gqlbench or net/http
	Records string            // the per-request records file, if any
	Checked bool              // the target was checked before the load
	Labels  map[string]string // free labels (server, sf, pool, workload, ...)
	Watch   []runfile.Watched // the sampled processes
}

// NewHeader makes the run file's header for cfg (after Defaults): the
// driver's parameters, the workload (the queries file's path and bytes,
// and its instances), the machine and the histogram configuration.
func NewHeader(cfg Config, info HeaderInfo, queriesPath string, data []byte, inst []workload.Instance) *runfile.Header {
	host, _ := os.Hostname()
	c := cfg
	p := runfile.Params{Seed: c.Seed, IntervalNS: int64(c.Interval), TimeoutNS: int64(info.Timeout),
		VerifySample: c.VerifySample, MaxErrorRate: c.MaxErrorRate, Client: info.Client, Records: info.Records,
		Checked: info.Checked, SLO: c.SLO.String()}
	arrival := "constant"
	if c.Poisson {
		arrival = "poisson"
	}
	switch c.Mode {
	case Closed:
		p.Clients, p.DurationNS, p.Runs, p.ThinkNS = c.Clients, int64(c.Duration), c.Runs, int64(c.Think)
	case Sequential:
		p.Passes, p.WarmupPasses = c.Passes, c.WarmupPasses
	case Open, Capacity:
		p.Connections, p.DurationNS, p.Rate, p.Arrival = c.Connections, int64(c.Duration), c.Rate, arrival
		p.LateNS, p.MaxLateNS = int64(c.Late), int64(c.MaxLate)
		if c.Mode == Open {
			p.Runs = c.Runs
		} else {
			p.MaxRate, p.Precision = c.MaxRate, c.Precision
		}
	case Ramp:
		p.DurationNS, p.ThinkNS, p.RampRate, p.MaxClients = int64(c.Duration), int64(c.Think), c.RampRate, c.MaxClients
	}
	return &runfile.Header{
		Tool:      runfile.Tool{Name: "gqlbench", Version: info.Version, Go: runtime.Version()},
		Generator: fmt.Sprintf("%s/%d", host, os.Getpid()),
		Command:   info.Command,
		Flags:     info.Flags,
		Labels:    info.Labels,
		Target:    info.Target,
		Queries:   QueriesInfo(queriesPath, data, inst),
		Mode:      string(c.Mode),
		Params:    p,
		Machine:   runfile.ThisMachine(),
		Watch:     info.Watch,
		Hist:      runfile.StandardHist,
		Start:     time.Now(),
	}
}

// QueriesInfo describes a queries file for the header: its path, the
// SHA-256 of its bytes, its templates in order of first appearance, how
// many instances carry an expected answer, and their dataset.
func QueriesInfo(path string, data []byte, inst []workload.Instance) runfile.Queries {
	sum := sha256.Sum256(data)
	q := runfile.Queries{Path: path, SHA256: hex.EncodeToString(sum[:]), Instances: len(inst)}
	seen := map[int]bool{}
	for _, in := range inst {
		if !seen[in.Template] {
			seen[in.Template] = true
			q.Templates = append(q.Templates, "QT"+strconv.Itoa(in.Template))
		}
		if in.Expect != "" {
			q.Expect++
		}
		if d := in.Dataset; d != nil && q.Dataset == nil {
			q.Dataset = map[string]any{"sf": d.SF, "seed": d.Seed, "version": d.Version}
		}
	}
	return q
}
