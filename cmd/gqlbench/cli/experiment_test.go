package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
)

// fakeRan is the common settings the fake experiment last ran with.
var fakeRan experiment.Common

// The fake experiment is registered here alone: that it shows in the help
// and runs through the command line proves that a new experiment needs no
// edit anywhere else.
func init() {
	experiment.Register(experiment.Experiment{
		Name:     "fake",
		Summary:  "a test experiment: prints its flag",
		Synopsis: "experiment fake --its-flag X [flags]\n\nPrints X; --its-flag wrong makes it fail its checks.",
		Dir:      "gqlbench-fake",
		DB:       "postgres",
		Quick:    [][2]string{{"its-flag", "quick"}, {"seed", "3"}},
		Flags:    fakeFlags,
	})
}

func fakeFlags(fs *flag.FlagSet) experiment.Setup {
	its := fs.String("its-flag", "", "what the fake prints")
	return func() (experiment.Runner, error) {
		if *its == "" {
			return nil, exitcode.Usagef("--its-flag must not be empty")
		}
		return func(_ context.Context, c experiment.Common) (*experiment.Result, error) {
			fakeRan = c
			fmt.Fprintf(c.Out, "fake: its-flag %s\n", *its)
			if *its == "wrong" {
				return &experiment.Result{Wrong: 1}, &experiment.CheckError{Failed: []string{"fake"}}
			}
			return &experiment.Result{}, nil
		}, nil
	}
}

// TestExperimentRegistry: the fake experiment, registered in this file
// alone, is listed, has its help and runs, with the common flags and the
// exit codes of every experiment.
func TestExperimentRegistry(t *testing.T) {
	code, stdout, _ := run("experiment", "--help")
	if code != exitcode.OK || !strings.Contains(stdout, "  fake           a test experiment: prints its flag\n") {
		t.Errorf("experiment --help does not list fake: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = run("experiment", "fake", "--help")
	for _, want := range []string{"Usage: gqlbench experiment fake --its-flag X", "Prints X", "-its-flag", `(default "gqlbench-fake")`, "-timeout"} {
		if code != exitcode.OK || !strings.Contains(stdout, want) {
			t.Errorf("experiment fake --help: exit %d, lacks %q:\n%s", code, want, stdout)
		}
	}
	code, stdout, stderr := run("experiment", "fake", "--its-flag", "x", "--seed", "7")
	if code != exitcode.OK || !strings.Contains(stdout, "fake: its-flag x\n") {
		t.Errorf("experiment fake --its-flag x: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if fakeRan.Dir != "gqlbench-fake" || fakeRan.Seed != 7 || fakeRan.DB != "postgres" {
		t.Errorf("the fake ran with dir %q, seed %d, db %q; want its default dir, seed 7, its default postgres", fakeRan.Dir, fakeRan.Seed, fakeRan.DB)
	}
	// --quick sets its flags, but not those given
	code, stdout, _ = run("experiment", "fake", "--quick", "--seed", "9")
	if code != exitcode.OK || !strings.Contains(stdout, "fake: its-flag quick\n") || fakeRan.Seed != 9 {
		t.Errorf("experiment fake --quick --seed 9: exit %d, seed %d\n%s", code, fakeRan.Seed, stdout)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"experiment", "fake"}, exitcode.Usage, "--its-flag must not be empty"},                      // its own check
		{[]string{"experiment", "fake", "--its-flag", "x", "--timeout", "0s"}, exitcode.Usage, "--timeout"},   // the common ones
		{[]string{"experiment", "fake", "--nope"}, exitcode.Usage, "-nope"},                                   // no such flag
		{[]string{"experiment", "fake", "--its-flag", "wrong"}, exitcode.Check, "run(s) failed their checks"}, // a failed check
	} {
		code, _, stderr := run(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestExperimentHelp: every experiment, and the quickstart, has its help,
// with its own flags beside the common ones (a flag of the same name as a
// common one would panic).
func TestExperimentHelp(t *testing.T) {
	cmds := [][]string{{"quickstart", "--help"}}
	for _, e := range experiment.List() {
		cmds = append(cmds, []string{"experiment", e.Name, "--help"})
	}
	if len(cmds) < 4 {
		t.Fatalf("experiments: %v; want optimizations, pooling and fake at least", cmds)
	}
	for _, args := range cmds {
		code, stdout, stderr := run(args...)
		if code != exitcode.OK || !strings.Contains(stdout, "Usage: gqlbench "+strings.Join(args[:len(args)-1], " ")) || !strings.Contains(stdout, "-seed SEED") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
	}
}
