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
	r := &runner{o: o, log: o.Log, out: &Outcome{}}
	if r.log == nil {
		r.log = io.Discard
	}
	engines, err := pick(o.Engines)
	if err != nil {
		return nil, err
	}
	if r.f = o.Fixture; r.f == nil {
		fmt.Fprintf(r.log, "engine: generating the dataset (sf=%d, seed %d) into memory and the oracle's answers\n", o.Dataset.Scale, o.Dataset.Seed)
		if r.f, err = NewFixture(ctx, o.Dataset); err != nil {
			return nil, err
		}
	}
	shapes, err := pickShapes(r.f, o.Shapes)
	if err != nil {
		return nil, err
	}
	h, err := r.header(ctx, engines)
	if err != nil {
		return nil, err
	}
	if err := emit(h); err != nil {
		return nil, err
	}
	r.emit = emit
	for _, e := range engines {
		if !e.Node {
			if err := r.runGo(ctx, e, shapes); err != nil {
				return r.out, err
			}
		}
	}
	if len(r.nodeRun) > 0 {
		start := time.Now()
		if err := RunNode(ctx, r.install, r.f, shapes, r.nodeRun, o.Settings, o.Dir, r.log, r.put); err != nil {
			return r.out, err
		}
		fmt.Fprintf(r.log, "engine: %s: %d shapes in %.1f s\n", strings.Join(r.nodeRun, ", "), len(shapes), time.Since(start).Seconds())
	}
	return r.out, nil
}

// runner is one Run's state: the fixture, the compiled statements checked,
// the Node install and the engines it can run, the outcome so far.
type runner struct {
	o       Options
	log     io.Writer
	f       *Fixture
	st      *Statements
	install peer.Install
	nodeRun []string // the Node engines that can run
	out     *Outcome
	emit    func(line any) error
}

// header describes the run and each engine, checking on the way what an
// engine needs: the compiled statements on SQLite, Node for the Node
// engines (an engine that cannot run is recorded as skipped, with why).
func (r *runner) header(ctx context.Context, engines []Engine) (*runfile.EngineHeader, error) {
	h := r.o.Header
	h.Dataset = runfile.EngineDataset{Seed: r.f.Config.Seed, Scale: r.f.Config.Scale}
	h.Samples, h.SampleNS, h.WarmupNS = r.o.Settings.Samples, r.o.Settings.Sample.Nanoseconds(), r.o.Settings.Warmup.Nanoseconds()
	versions := nodeVersions()
	var nodeErr error // why the Node engines cannot run
	var err error
	for _, e := range engines {
		info := runfile.EngineInfo{Name: e.Name, Summary: e.Summary}
		switch {
		case e.Name == "gqlgen":
			info.Version = gqlgenVersion()
		case e.Name == "compiled":
			info.Version = "gqlbench " + h.Tool.Version
			fmt.Fprintln(r.log, "engine: checking the compiled statements on an SQLite copy of the dataset")
			if r.st, err = CheckStatements(ctx, r.f, r.o.Dir); err != nil {
				return nil, err
			}
		case e.Node:
			info.Version = versions[e.Name] + ", Node " + versions["node"]
			if r.install.Node == "" && nodeErr == nil {
				r.install, nodeErr = peer.Ensure(ctx, NodePackage(), r.log)
			}
			if nodeErr != nil {
				info.Skipped = firstLine(nodeErr.Error())
				r.out.Skipped = append(r.out.Skipped, e.Name+": "+info.Skipped)
			} else {
				r.nodeRun = append(r.nodeRun, e.Name)
			}
		}
		h.Engines = append(h.Engines, info)
	}
	return &h, nil
}

// put emits a result, noting a wrong one.
func (r *runner) put(res *runfile.EngineResult) error {
	r.out.Results++
	if res.Error != "" {
		r.out.Wrong = append(r.out.Wrong, fmt.Sprintf("%s %s %s: %s", res.Engine, res.Shape, res.Phase, res.Error))
	}
	return r.emit(res)
}

// runGo measures a Go engine (gqlgen, compiled) on every shape, phase by
// phase; a shape the engine has no operation for is left out.
func (r *runner) runGo(ctx context.Context, e Engine, shapes []Shape) error {
	start := time.Now()
	for _, s := range shapes {
		var ops map[string]Op
		var err error
		if e.Name == "gqlgen" {
			ops, err = GqlgenOps(r.f, r.f.Data, s)
		} else {
			ops, err = CompiledOps(r.st, s)
		}
		if errors.Is(err, ErrNotApplicable) {
			continue
		}
		for _, phase := range e.Phases {
			res := &runfile.EngineResult{Engine: e.Name, Shape: s.Name, Phase: phase}
			if err != nil {
				res.Error = err.Error()
			} else if samples, merr := Measure(ops[phase], r.o.Settings); merr != nil {
				res.Error = merr.Error()
			} else {
				res.Samples, res.Checked = samples, true
			}
			if err := r.put(res); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	fmt.Fprintf(r.log, "engine: %s: %d shapes in %.1f s\n", e.Name, len(shapes), time.Since(start).Seconds())
	return nil
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
