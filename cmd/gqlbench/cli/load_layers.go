package cli

import (
	"context"
	"flag"
	"path/filepath"
	"strings"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure/profiles"
)

// registerLayers registers --layers and --profile.
func (f *loadFlags) registerLayers(fs *flag.FlagSet) {
	fs.BoolVar(&f.layers, "layers", false, "read where the server says each measured request's time went — a Server-Timing header (gqlbench servers with serve --trace) or Apollo tracing (extensions.tracing) — and report it per template beside the round trip: database, GraphQL layer, network+HTTP+serialisation (docs/layers.md)")
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
