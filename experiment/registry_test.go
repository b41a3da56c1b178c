package experiment

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestRegistry: the experiments are listed by name, and a second one of
// the same name, or one without a name or flags, panics.
func TestRegistry(t *testing.T) {
	var names []string
	for _, e := range List() {
		names = append(names, e.Name)
	}
	if !slices.IsSorted(names) || !slices.Contains(names, "optimizations") || !slices.Contains(names, "pooling") {
		t.Errorf("List: %v; want optimizations and pooling, sorted", names)
	}
	if _, ok := Lookup("quickstart"); ok {
		t.Error("quickstart is registered: it has a command of its own")
	}
	opt, _ := Lookup("optimizations")
	for name, e := range map[string]Experiment{
		"twice":   opt,                              // a duplicate name
		"no name": {Flags: opt.Flags},               // nothing to call it by
		"nil":     {Name: "registry-test-no-flags"}, // nothing to run
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(e)
		}()
	}
}

// setup registers e's flags on a fresh flag set, parses args and runs its
// checks.
func setup(t *testing.T, e Experiment, args ...string) (Runner, error) {
	t.Helper()
	fs := flag.NewFlagSet(e.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	check := e.Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%s %v: %v", e.Name, args, err)
	}
	return check()
}

// TestDefaultsPass: every experiment's defaults pass its checks, and so do
// the settings of its --quick; a wrong value is a UsageError that names
// the flag.
func TestDefaultsPass(t *testing.T) {
	all := append(List(), QuickstartCommand)
	for _, e := range all {
		if run, err := setup(t, e); err != nil || run == nil {
			t.Errorf("%s with its defaults: %v", e.Name, err)
		}
		var quick []string
		for _, q := range e.Quick {
			if q[0] != "db" { // a common flag, not the experiment's
				quick = append(quick, "--"+q[0], q[1])
			}
		}
		if run, err := setup(t, e, quick...); err != nil || run == nil {
			t.Errorf("%s with --quick's settings %v: %v", e.Name, quick, err)
		}
		fs := flag.NewFlagSet(e.Name, flag.ContinueOnError)
		e.Flags(fs)
		if fs.Lookup("templates") == nil {
			continue // an experiment of tasks, not templates
		}
		_, err := setup(t, e, "--templates", "QT99")
		var u *exitcode.UsageError
		if !errors.As(err, &u) || !strings.Contains(u.Error(), "--templates") {
			t.Errorf("%s --templates QT99: %v (%T), want a UsageError naming --templates", e.Name, err, err)
		}
	}
}
