package drive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
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
// and the entries sent), the machine and the histogram configuration.
func NewHeader(cfg Config, info HeaderInfo, q *queryfile.File) *runfile.Header {
	host, _ := os.Hostname()
	c := cfg
	p := runfile.Params{Seed: c.Seed, IntervalNS: int64(c.Interval), TimeoutNS: int64(info.Timeout),
		VerifySample: c.VerifySample, MaxErrorRate: c.MaxErrorRate, Client: info.Client, Records: info.Records,
		Checked: info.Checked, SLO: c.SLO.String(), SampleIntervalNS: int64(c.SampleInterval)}
	var traits *runfile.Traits
	if spec, err := ModeByName(c.Mode); err == nil {
		if c.Settings != nil {
			c.Settings.header(&c, &p)
		}
		t := spec.Traits
		traits = &t
	}
	h := &runfile.Header{
		Traits:    traits,
		Tool:      runfile.Tool{Name: "gqlbench", Version: info.Version, Go: runtime.Version()},
		Generator: fmt.Sprintf("%s/%d", host, os.Getpid()),
		Command:   info.Command,
		Flags:     info.Flags,
		Labels:    info.Labels,
		Target:    info.Target,
		Queries:   QueriesInfo(q),
		Mode:      string(c.Mode),
		Params:    p,
		Machine:   runfile.ThisMachine(),
		Watch:     info.Watch,
		Hist:      runfile.StandardHist,
		Start:     time.Now(),
	}
	c.Shard.header(&c, h)
	return h
}

// QueriesInfo describes a queries file for the header: its path, the
// SHA-256 of its bytes, its labels (templates) in order of first
// appearance, how many of the entries sent carry an expected answer, and
// their dataset.
func QueriesInfo(f *queryfile.File) runfile.Queries {
	sum := sha256.Sum256(f.Data)
	q := runfile.Queries{Path: f.Path, SHA256: hex.EncodeToString(sum[:]), Instances: len(f.Entries), Templates: queryfile.Labels(f.Entries)}
	q.Literal = len(f.Entries) > 0
	for i := range f.Entries { // (not a copy of each: an Entry is some 230 bytes)
		e := &f.Entries[i]
		q.Literal = q.Literal && len(e.Variables) == 0
		if e.Expect != "" {
			q.Expect++
		}
		if e.Dialect != "" && !slices.Contains(q.Dialects, e.Dialect) {
			q.Dialects = append(q.Dialects, e.Dialect)
		}
		if d := e.Dataset; d != nil && q.Dataset == nil {
			q.Dataset = map[string]any{"sf": d.SF, "seed": d.Seed, "version": d.Version}
		}
	}
	return q
}
