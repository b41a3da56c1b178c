package report

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/gqlbench/gqlbench/runfile"
)

// ProfileTop is one profile of a run (load --profile): its top
// functions, flat and cumulative, as go tool pprof's top and top -cum.
type ProfileTop struct {
	Key
	Kind    string                `json:"kind"` // cpu, heap
	File    string                `json:"file"` // beside the run file
	Sample  string                `json:"sample"`
	Unit    string                `json:"unit"`
	Total   int64                 `json:"total"`
	Seconds float64               `json:"seconds"`
	Flat    []runfile.ProfileFunc `json:"top_flat"`
	Cum     []runfile.ProfileFunc `json:"top_cum"`
}

// profileRows collects the runs' profiles, in run order.
func (r *Report) profileRows() {
	for _, run := range r.runs {
		fs := run.File.Summary
		if fs == nil || fs.Profiles == nil {
			continue
		}
		for _, p := range []struct {
			kind string
			p    *runfile.Profile
		}{{"cpu", fs.Profiles.CPU}, {"heap", fs.Profiles.Heap}} {
			if p.p == nil {
				continue
			}
			r.Profiles = append(r.Profiles, ProfileTop{Key: run.key, Kind: p.kind, File: filepath.Join(filepath.Dir(run.Path), p.p.File),
				Sample: p.p.Sample, Unit: p.p.Unit, Total: p.p.Total, Seconds: p.p.Seconds, Flat: p.p.Flat, Cum: p.p.Cum})
		}
	}
}

// profilesSection shows each profile's top functions, by own value and
// by cumulative value.
func (r *Report) profilesSection() section {
	s := section{ID: "profiles", Title: "Profiles: where the server's CPU and allocations went"}
	if len(r.Profiles) == 0 {
		return s
	}
	s.Paras = append(s.Paras, "The server's CPU profile and the bytes it allocated (the heap's alloc_space between a snapshot at the start and at the end), over the measured runs, from its --pprof endpoint (load --profile). Flat: the function's own; cum: with what it called. The raw profiles lie beside the run files: go tool pprof FILE (the heap with -base NAME.heap-base.pprof).")
	head, cells := r.keyCols(true)
	for _, p := range r.Profiles {
		what := fmt.Sprintf("%s (%s, %s in all over %.1f s)", p.Kind, p.Sample, amount(p.Total, p.Unit), p.Seconds)
		for _, by := range []struct {
			name string
			fs   []runfile.ProfileFunc
		}{{"flat", p.Flat}, {"cum", p.Cum}} {
			t := table{Title: fmt.Sprintf("%s %s: top by %s", p.Series, what, by.name), Long: true, Note: p.File,
				Head: append(head, "function", "flat", "flat %", "cum", "cum %")}
			for _, f := range by.fs {
				t.add(false, append(cells(p.Key), f.Function, amount(f.Flat, p.Unit), f1(f.FlatPct), amount(f.Cum, p.Unit), f1(f.CumPct))...)
			}
			s.Tables = append(s.Tables, t)
		}
	}
	return s
}

// amount formats a profile's value: nanoseconds as ms, bytes as MiB.
func amount(v int64, unit string) string {
	switch unit {
	case "nanoseconds":
		return strconv.FormatFloat(float64(v)/1e6, 'f', 1, 64) + " ms"
	case "bytes":
		return strconv.FormatFloat(float64(v)/(1<<20), 'f', 2, 64) + " MiB"
	}
	return strconv.FormatInt(v, 10) + " " + unit
}
