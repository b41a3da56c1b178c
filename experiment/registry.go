package experiment

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"sync"

	"github.com/gqlbench/gqlbench/exitcode"
)

// Experiment is a study as the command line offers it: `gqlbench
// experiment NAME [flags]`. Each experiment's file registers it from init,
// and the command line is built from the registry by a loop, so a new
// experiment needs no edit anywhere else.
type Experiment struct {
	Name    string // kebab-case, as on the command line
	Summary string // one line for the list of experiments
	// Synopsis is the help of `NAME --help` above the flags: a usage line
	// from the command's name on, a blank line, then what it does.
	Synopsis string
	Dir      string // the default results directory (Common.Dir, --dir)
	DB       string // the default of --db ("": sqlite)
	// Quick is what --quick sets, flag by flag (a flag given on the
	// command line keeps its value): a complete, smaller run that takes a
	// few minutes on a 2-core machine, for newcomers and CI.
	Quick [][2]string
	// Flags registers the experiment's own flags on fs, with their
	// defaults; the caller registers those of Common. Once fs is parsed,
	// the Setup it returns checks them.
	Flags func(fs *flag.FlagSet) Setup
}

// Setup checks an experiment's parsed flags and returns the Runner they
// configure, or an *exitcode.UsageError that says which flag is wrong.
type Setup func() (Runner, error)

// Runner runs a configured experiment with the common settings.
type Runner func(ctx context.Context, c Common) (*Result, error)

// settings are an experiment's settings as its flags fill them (a
// pointer to Generic, Quickstart, ...): they run, with the common settings
// in their embedded Common.
type settings interface {
	Run(ctx context.Context) (*Result, error)
	common() *Common
}

func (c *Common) common() *Common { return c }

// newSetup is the end of every experiment's Flags: once the flags are parsed,
// parse reads what they hold into x, x's check (when it has one) checks
// the settings, and the Runner runs x with the common settings.
func newSetup(x settings, parse func() error) Setup {
	return func() (Runner, error) {
		if err := parse(); err != nil {
			return nil, err
		}
		if c, ok := x.(interface{ check() error }); ok {
			if err := c.check(); err != nil {
				return nil, err
			}
		}
		return func(ctx context.Context, c Common) (*Result, error) {
			*x.common() = c
			return x.Run(ctx)
		}, nil
	}
}

// usagef makes the *exitcode.UsageError of settings that are wrong (a
// flag's value, flags that do not go together): the command line's fault,
// found before anything ran. Its message names the flag.
func usagef(format string, a ...any) error { return exitcode.Usagef(format, a...) }

var (
	mu          sync.Mutex
	experiments = map[string]Experiment{}
)

// Register adds an experiment; it panics on a duplicate or empty name and
// on a missing Flags.
func Register(e Experiment) {
	mu.Lock()
	defer mu.Unlock()
	switch _, dup := experiments[e.Name]; {
	case e.Name == "" || e.Flags == nil:
		panic(fmt.Sprintf("experiment: %q registered without a name or flags", e.Name))
	case dup:
		panic(fmt.Sprintf("experiment: %q registered twice", e.Name))
	}
	experiments[e.Name] = e
}

// List lists the registered experiments sorted by name.
func List() []Experiment {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Experiment, 0, len(experiments))
	for _, e := range experiments {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the experiment called name.
func Lookup(name string) (Experiment, bool) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := experiments[name]
	return e, ok
}
