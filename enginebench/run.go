package enginebench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server/peer"
)

// Engine names an engine and what its phases time.
type Engine struct {
	Name    string
	Summary string
	Phases  []string
	Node    bool // run by the Node side
}

// Engines are every engine, in the order they run.
var Engines = []Engine{
	{"gqlgen", "gqlparser's parser and validator, gqlgen's executor over the in-memory dataset (server/graph + server/inmem); execute: document cached, JSON written",
		[]string{Parse, Validate, Execute}, false},
	{"compiled", "the compiled variant's compile step to SQL (server/compiled), no database: cache miss (parse, validate, compile) and hit",
		[]string{CompileMiss, CompileHit}, false},
	{"graphql-js", "graphql-js parse, validate, execute (+ JSON.stringify) with synchronous resolvers over the same data in Node",
		[]string{Parse, Validate, Execute}, true},
	{"graphql-jit", "graphql-jit: a cache miss (graphql-js parse and validate, then compileQuery) and the compiled query's execute (+ JSON.stringify)",
		[]string{CompileMiss, Execute}, true},
}

// EngineNames are the engines' names.
func EngineNames() []string {
	var out []string
	for _, e := range Engines {
		out = append(out, e.Name)
	}
	return out
}

// Options are a run's.
type Options struct {
	Engines  []string // names (nil: all)
	Shapes   []string // names (nil: all)
	Settings Settings
	Dataset  dataset.Config
	// Fixture, when set, is used instead of generating Dataset (tests).
	Fixture *Fixture
	// Dir is a scratch directory (the SQLite copy, the files Node reads).
	Dir string
	// Log receives progress lines and Node's messages.
	Log io.Writer
	// Header is the header to write, its engines, dataset and settings
	// filled in by Run.
	Header runfile.EngineHeader
}

// Outcome is what a run did.
type Outcome struct {
	Results int      // result lines written
	Wrong   []string // "engine shape phase: why" of every result without samples
	Skipped []string // engines that did not run, with why
}

// Run times the engines on the shapes and emits the header and then one
// result per engine, shape and phase as soon as it is measured (so a run
// cut short keeps what it measured). A Node engine that cannot run (no
// npm to install it with, say) is skipped, with its reason in the header
// and the outcome; a wrong answer becomes that result's Error and is
// counted in Outcome.Wrong.
func Run(ctx context.Context, o Options, emit func(line any) error) (*Outcome, error) {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	engines, err := pick(o.Engines)
	if err != nil {
		return nil, err
	}
	f := o.Fixture
	if f == nil {
		fmt.Fprintf(log, "engine: generating the dataset (sf=%d, seed %d) into memory and the oracle's answers\n", o.Dataset.Scale, o.Dataset.Seed)
		if f, err = NewFixture(ctx, o.Dataset); err != nil {
			return nil, err
		}
	}
	shapes, err := pickShapes(f, o.Shapes)
	if err != nil {
		return nil, err
	}
	h := o.Header
	h.Dataset = runfile.EngineDataset{Seed: f.Config.Seed, Scale: f.Config.Scale}
	h.Samples, h.SampleNS, h.WarmupNS = o.Settings.Samples, o.Settings.Sample.Nanoseconds(), o.Settings.Warmup.Nanoseconds()
	out := &Outcome{}
	versions := nodeVersions()
	var st *Statements
	var install peer.Install
	var nodeErr error // why the Node engines cannot run
	var nodeRun []string
	for _, e := range engines {
		info := runfile.EngineInfo{Name: e.Name, Summary: e.Summary}
		switch {
		case e.Name == "gqlgen":
			info.Version = gqlgenVersion()
		case e.Name == "compiled":
			info.Version = "gqlbench " + h.Tool.Version
			fmt.Fprintln(log, "engine: checking the compiled statements on an SQLite copy of the dataset")
			if st, err = CheckStatements(ctx, f, o.Dir); err != nil {
				return nil, err
			}
		case e.Node:
			info.Version = versions[e.Name] + ", Node " + versions["node"]
			if install.Node == "" && nodeErr == nil {
				install, nodeErr = peer.Ensure(ctx, NodePackage(), log)
			}
			if nodeErr != nil {
				info.Skipped = firstLine(nodeErr.Error())
				out.Skipped = append(out.Skipped, e.Name+": "+info.Skipped)
			} else {
				nodeRun = append(nodeRun, e.Name)
			}
		}
		h.Engines = append(h.Engines, info)
	}
	if err := emit(&h); err != nil {
		return nil, err
	}
	put := func(r *runfile.EngineResult) error {
		out.Results++
		if r.Error != "" {
			out.Wrong = append(out.Wrong, fmt.Sprintf("%s %s %s: %s", r.Engine, r.Shape, r.Phase, r.Error))
		}
		return emit(r)
	}
	for _, e := range engines {
		if e.Node {
			continue
		}
		start := time.Now()
		for _, s := range shapes {
			var ops map[string]Op
			if e.Name == "gqlgen" {
				ops, err = GqlgenOps(f, f.Data, s)
			} else {
				ops, err = CompiledOps(st, s)
			}
			if errors.Is(err, ErrNotApplicable) {
				continue
			}
			for _, phase := range e.Phases {
				r := &runfile.EngineResult{Engine: e.Name, Shape: s.Name, Phase: phase}
				if err != nil {
					r.Error = err.Error()
				} else if r.Samples, err = Measure(ops[phase], o.Settings); err != nil {
					r.Error, err = err.Error(), nil
				} else {
					r.Checked = true
				}
				if err := put(r); err != nil {
					return out, err
				}
				if ctx.Err() != nil {
					return out, ctx.Err()
				}
			}
		}
		fmt.Fprintf(log, "engine: %s: %d shapes in %.1f s\n", e.Name, len(shapes), time.Since(start).Seconds())
	}
	if len(nodeRun) > 0 {
		start := time.Now()
		if err := RunNode(ctx, install, f, shapes, nodeRun, o.Settings, o.Dir, log, put); err != nil {
			return out, err
		}
		fmt.Fprintf(log, "engine: %s: %d shapes in %.1f s\n", strings.Join(nodeRun, ", "), len(shapes), time.Since(start).Seconds())
	}
	return out, nil
}

// pick returns the engines named (all when none), in Engines' order.
func pick(names []string) ([]Engine, error) {
	if len(names) == 0 {
		return Engines, nil
	}
	var out []Engine
	for _, n := range names {
		if !slices.ContainsFunc(Engines, func(e Engine) bool { return e.Name == n }) {
			return nil, fmt.Errorf("unknown engine %q: the engines are %s", n, strings.Join(EngineNames(), ", "))
		}
	}
	for _, e := range Engines {
		if slices.Contains(names, e.Name) {
			out = append(out, e)
		}
	}
	return out, nil
}

// pickShapes returns the shapes named (all when none), in f's order.
func pickShapes(f *Fixture, names []string) ([]Shape, error) {
	if len(names) == 0 {
		return f.Shapes, nil
	}
	var out []Shape
	for _, n := range names {
		if _, ok := f.Shape(n); !ok {
			var all []string
			for _, s := range f.Shapes {
				all = append(all, s.Name)
			}
			return nil, fmt.Errorf("unknown shape %q: the shapes are %s", n, strings.Join(all, ", "))
		}
	}
	for _, s := range f.Shapes {
		if slices.Contains(names, s.Name) {
			out = append(out, s)
		}
	}
	return out, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
