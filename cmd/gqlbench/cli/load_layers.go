package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure/profiles"
	"github.com/gqlbench/gqlbench/runfile"
)

// registerLayers registers --layers and --profile.
func (f *loadFlags) registerLayers(fs *flag.FlagSet) {
	fs.BoolVar(&f.layers, "layers", false, "read where the server says each measured request's time went — a Server-Timing header (gqlbench servers with serve --trace) or Apollo tracing (extensions.tracing) — and report it per template beside the round trip: database, GraphQL layer, network+HTTP+serialisation; a REST task's calls added up (docs/layers.md)")
	fs.StringVar(&f.serverProfile, "profile", "", "fetch the server's CPU and heap profiles over the measured runs from its pprof endpoint at `URL` (serve --pprof ADDR: http://ADDR), save them beside the run file (-o) for go tool pprof, and report their top functions")
}

// setLayers sets the job's --layers and --profile; the profile endpoint
// is checked now, before any load.
func (f *loadFlags) setLayers(ctx context.Context, job *drive.Job) error {
	job.Config.Layers = f.layers
	if f.serverProfile == "" {
		return nil
	}
	if f.out == "" || outfile.IsStdout(f.out) {
		return usagef("--profile saves the profiles beside the run file: give it with -o FILE")
	}
	base := filepath.Base(f.out)
	rec := &profiles.Recorder{Base: f.serverProfile, Dir: filepath.Dir(f.out), Name: strings.TrimSuffix(base, filepath.Ext(base))}
	if err := rec.Check(ctx); err != nil {
		return err
	}
	job.Config.Profiler = rec
	return nil
}

// mergeProfiles merges the server profiles of the run files merged (load
// --profile in each) into files beside the merged run file out, and puts
// their tops in m's summary. Files without profiles leave nothing to do;
// with some, the merged profiles need a file to sit beside.
func mergeProfiles(env Env, paths []string, in []*runfile.File, out string, m *runfile.File) error {
	shards := make([]profiles.Shard, len(in))
	seen := map[string]int{}
	has := false
	for i, f := range in {
		if f.Summary == nil || f.Summary.Profiles == nil {
			continue
		}
		has = true
		shards[i] = profiles.Shard{Dir: filepath.Dir(paths[i]), Profiles: f.Summary.Profiles}
		if ep := f.Header.Flags["profile"]; ep != "" {
			if j, ok := seen[ep]; ok {
				fmt.Fprintf(env.Stderr, "load merge: %s and %s profiled the same server (%s) at once: its allocations count once per file in the merged heap profile\n", paths[j], paths[i], ep)
			} else {
				seen[ep] = i
			}
		}
	}
	if !has || m.Summary == nil {
		return nil
	}
	if out == "" || outfile.IsStdout(out) {
		return usagef("the run files carry server profiles (load --profile): give -o FILE, beside which the merged profiles are saved")
	}
	base := filepath.Base(out)
	p, err := profiles.Merge(shards, filepath.Dir(out), strings.TrimSuffix(base, filepath.Ext(base)), 0)
	if p != nil && p.Error != "" {
		fmt.Fprintf(env.Stderr, "load merge: profiles: %s\n", p.Error)
	}
	if err != nil && (p == nil || p.CPU == nil && p.Heap == nil) {
		return fmt.Errorf("load merge: %w", err)
	}
	m.Summary.Profiles = p
	return nil
}
