package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/enginebench"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	register("bench", "micro-benchmarks in-process: bench engine — parse, validate and execute of each GraphQL engine alone, no network, no database (seed 003)", runBench)
}

const benchSynopsis = `bench engine [--quick] [--engines LIST] [--shapes LIST] [-o DIR]

The engine in isolation (seed 003, docs/engine.md): every GraphQL engine timed
phase by phase with no network and no database, over the benchmark schema and
the dataset in memory, every answer checked against the oracle's:

  gqlgen       gqlparser's parse and validate, gqlgen's execute (server/graph over server/inmem)
  compiled     the compiled variant's compile step to SQL: cache miss and hit (server/compiled)
  graphql-js   graphql-js's parse, validate and execute in Node (the same data, synchronous resolvers)
  graphql-jit  graphql-jit's compile and compiled execute in Node

Shapes: one-object, root-fields, variables, fragments, list-10, list-100,
list-1000, introspection, and QT1..QT16 (one instance each). The Node engines
run on Node 22 and pinned npm packages that gqlbench installs into its cache
on first use (npm needed once); without them they are skipped, with a message.

Writes DIR/engine.jsonl (the engine file: docs/runfile.md), DIR/report.html,
report.md and report.json; gqlbench report engine.jsonl renders it again, and
gqlbench report OLD.jsonl NEW.jsonl compares two (benchstat-style, Welch's
t-test over the samples). Pin it to one core for steadier figures:
taskset -c 1 gqlbench bench engine. Exit codes: 0 ok, 1 failure, 2 usage,
3 an engine answered wrongly (the report lists it; it is never timed).`

func runBench(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(env.Stdout, "Usage: gqlbench %s\n", benchSynopsis)
		if len(args) == 0 {
			return usagef("name the benchmark: gqlbench bench engine")
		}
		return flag.ErrHelp
	}
	if args[0] != "engine" {
		return usagef("unknown benchmark %q: the benchmark is engine", args[0])
	}
	return runBenchEngine(ctx, env, args[1:])
}

func runBenchEngine(ctx context.Context, env Env, args []string) error {
	dir, quiet, o, err := parseBenchEngine(env, args)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "gqlbench-engine-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	o.Dir = scratch
	path := filepath.Join(dir, "engine.jsonl")
	fh, err := outfile.Open(path, 0o644)
	if err != nil {
		return err
	}
	defer fh.Close()
	w := runfile.NewWriter(fh)
	out, runErr := enginebench.Run(ctx, o, func(line any) error {
		if r, ok := line.(*runfile.EngineResult); ok && !quiet {
			fmt.Fprintln(o.Log, resultLine(r))
		}
		return w.WriteEngine(line)
	})
	if out == nil { // nothing written: a bad engine or shape name, no dataset
		if strings.Contains(fmt.Sprint(runErr), "unknown ") {
			return usagef("%v", runErr)
		}
		return runErr
	}
	if err := fh.Close(); err != nil {
		return err
	}
	return finishBenchEngine(env, path, dir, o.Header.Start, out, runErr)
}

// parseBenchEngine reads bench engine's flags: the results directory, whether
// to be quiet, and the run's options (all but its scratch directory).
func parseBenchEngine(env Env, args []string) (dir string, quiet bool, o enginebench.Options, err error) {
	fs := newFlags(env, "bench engine", benchSynopsis)
	fs.StringVar(&dir, "o", "gqlbench-engine", "results `DIR`: engine.jsonl, report.html, report.md, report.json")
	quick := fs.Bool("quick", false, "a complete, smaller run: fewer and shorter samples (about a minute)")
	engines := fs.String("engines", strings.Join(enginebench.EngineNames(), ","), "the engines to run, comma-separated")
	shapes := fs.String("shapes", "", "the shapes to run, comma-separated (default: all)")
	samples := fs.Int("samples", 0, "timed samples per engine, shape and phase (default 10, --quick 3)")
	sample := fs.Duration("sample-time", 0, "about how long each sample lasts (default 100ms, --quick 40ms)")
	warmup := fs.Duration("warmup", 0, "untimed operations before the samples (default 100ms, --quick 20ms)")
	sf := fs.Int("sf", 1, "scale factor of the in-memory dataset (the lists need 1 or more)")
	seed := fs.Uint64("seed", 0, "random `SEED` of the dataset")
	fs.BoolVar(&quiet, "quiet", false, "no progress on stderr")
	if err = parse(fs, args); err != nil {
		return
	}
	if fs.NArg() > 0 {
		err = usagef("unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return
	}
	set := enginebench.Full
	if *quick {
		set = enginebench.Quick
	}
	set.Samples = cmp.Or(*samples, set.Samples)
	set.Sample = cmp.Or(*sample, set.Sample)
	set.Warmup = cmp.Or(*warmup, set.Warmup)
	switch {
	case set.Samples < 1 || set.Sample <= 0 || set.Warmup < 0:
		err = usagef("--samples and --sample-time must be positive, --warmup not negative")
	case *sf < 1:
		err = usagef("--sf must be 1 or more: the list-1000 shape needs 1000 graduate students")
	}
	if err != nil {
		return
	}
	if err = outfile.Dir(dir); err != nil {
		err = usagef("-o: %v", err)
		return
	}
	log := env.Stderr
	if quiet {
		log = io.Discard
	}
	flags := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { flags[f.Name] = f.Value.String() })
	o = enginebench.Options{Engines: list(*engines), Shapes: list(*shapes), Settings: set,
		Dataset: dataset.Config{Seed: *seed, Scale: *sf}, Log: log,
		Header: runfile.EngineHeader{Tool: runfile.Tool{Name: "gqlbench", Version: Version, Go: runtime.Version()},
			Command: append([]string{"gqlbench"}, env.Args...), Flags: flags, Machine: runfile.ThisMachine(), Start: time.Now().UTC()}}
	return
}

// finishBenchEngine writes the reports of a finished (or interrupted) run,
// says where they are, and gives the run's exit: its error, or the check's
// when an engine answered wrong.
func finishBenchEngine(env Env, path, dir string, start time.Time, out *enginebench.Outcome, runErr error) error {
	for _, s := range out.Skipped {
		fmt.Fprintf(env.Stderr, "bench engine: skipped %s\n", s)
	}
	if err := engineReports(path, dir); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "engine file: %s (%d results in %s)\nreport: %s (and report.md, report.json)\n", path, out.Results,
		time.Since(start).Round(time.Second), filepath.Join(dir, "report.html"))
	if runErr != nil {
		return runErr
	}
	if len(out.Wrong) > 0 {
		for _, w := range out.Wrong {
			fmt.Fprintf(env.Stderr, "bench engine: WRONG %s\n", w)
		}
		return exitcode.With(exitcode.Check, fmt.Errorf("%d engine results with a wrong answer or an error", len(out.Wrong)))
	}
	return nil
}

// resultLine is a progress line: one engine, shape and phase.
func resultLine(r *runfile.EngineResult) string {
	if r.Error != "" {
		return fmt.Sprintf("  %-11s %-13s %-12s WRONG: %s", r.Engine, r.Shape, r.Phase, firstLineOf(r.Error))
	}
	var n, ns int64
	for _, s := range r.Samples {
		n, ns = n+s.N, ns+s.NS
	}
	return fmt.Sprintf("  %-11s %-13s %-12s %12.0f ns/op", r.Engine, r.Shape, r.Phase, float64(ns)/float64(max(n, 1)))
}

func firstLineOf(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// list splits a comma-separated list; empty gives nil.
func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// engineReports writes report.html, report.md and report.json of the
// engine file at path into dir.
func engineReports(path, dir string) error {
	f, err := runfile.ReadEngineFile(path)
	if err != nil {
		return err
	}
	rep, err := report.BuildEngine([]*runfile.EngineFile{f}, []string{filepath.Base(path)}, "")
	if err != nil {
		return err
	}
	for _, format := range []string{"html", "md", "json"} {
		out := filepath.Join(dir, "report."+format)
		if err := outfile.WriteFile(out, 0o644, func(w io.Writer) error { return rep.Write(w, format) }); err != nil {
			return err
		}
	}
	return nil
}

// errNotEngine is loadEngineFiles' error for a mix of run and engine files.
var errNotEngine = errors.New("engine files (gqlbench bench engine) and run files (gqlbench load) cannot be reported together")

// loadEngineFiles reads engine files; ok is false when none of names is
// one (they are run files).
func loadEngineFiles(names []string) (files []*runfile.EngineFile, ok bool, err error) {
	n := 0
	for _, name := range names {
		if name != stdinArg && runfile.IsEngineFile(name) {
			n++
		}
	}
	if n == 0 {
		return nil, false, nil
	}
	if n != len(names) {
		return nil, true, errNotEngine
	}
	for _, name := range names {
		f, err := runfile.ReadEngineFile(name)
		if err != nil {
			return nil, true, err
		}
		files = append(files, f)
	}
	return files, true, nil
}

// reportEngines is `gqlbench report` on engine files: done is false when
// names are run files.
func reportEngines(env Env, names []string, out, format, title, failIf string, quiet bool) (done bool, err error) {
	files, ok, err := loadEngineFiles(names)
	if !ok {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if failIf != "" {
		return true, usagef("--fail-if applies to run files (gqlbench load), not to engine files")
	}
	rep, err := report.BuildEngine(files, names, title)
	if err != nil {
		return true, err
	}
	if err := writeOut(env, out, func(w io.Writer) error { return rep.Write(w, format) }); err != nil {
		return true, err
	}
	if !quiet {
		rep.Summary(env.Stderr)
		if out != "" {
			fmt.Fprintf(env.Stderr, "report: %s (%s)\n", out, format)
		}
	}
	return true, nil
}
