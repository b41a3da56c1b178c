package drive

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/runfile"
)

// Mode is how load is generated: the name of a registered ModeSpec.
type Mode string

// The built-in modes (see the package documentation); each is defined by
// the ModeSpec registered in its own file.
const (
	Closed     Mode = "closed"
	Sequential Mode = "sequential"
	Open       Mode = "open"
	Ramp       Mode = "ramp"
	Capacity   Mode = "capacity"
)

// ModeSpec is everything that makes a load mode, in one place: its name and
// help, the parameters it uses and its settings (their defaults,
// validation, header and flags), how it runs and what its summary
// reports. A new mode is one file that registers its spec and defines its
// settings; the CLI, Run, the header and the summary take it from the
// registry.
type ModeSpec struct {
	Name Mode
	// Help describes the mode for `gqlbench load --help`: its first line
	// says what it does, the rest names its parameters.
	Help string
	// Params are the parameters the mode's settings take, by their flag
	// names ("clients", "rate", ...); setting another mode's parameter is
	// a usage error.
	Params []string
	// Traits are what the mode measures and how (its Order is its place
	// in help and in Modes); the header records them, and merge, the
	// report and the experiments read them, never the mode's name.
	runfile.Traits

	// settings makes the mode's settings from load's flags' values,
	// taking the parameters it uses (Params): its own type, whose methods
	// hold its defaults, checks, header and flags.
	settings func(Params) Settings
	run      func(*engine, context.Context) error // generates the load
	summary  func(*engine, *runfile.Summary)      // the mode's part of the summary, or nil
	// check returns why a completed run failed a check of the mode's own,
	// and whether the mode decides (true: the generic checks are skipped).
	check func(*engine, *runfile.Summary) (why string, decided bool)
	// shards says that a run of the mode can be split exactly over several
	// load generators (Config.Shard: closed by clients, open by sends).
	shards bool
	// partner says that the mode sends every request to a second target
	// too (Job.PairedTarget, Config.Partner), speaking the other API.
	partner bool
	// statusIsAnswer says that an answer with an error status or GraphQL
	// errors counts as an answer for the watchdog (a capacity step refused
	// with 503s fails, and the search goes on at a lower rate).
	statusIsAnswer bool
	// label names a phase in the progress lines, or nil for "run N".
	label func(ph *phase, users int) string
}

var (
	modesMu sync.Mutex
	modes   = map[Mode]*ModeSpec{}
)

// registerMode adds a mode; it panics on a duplicate or incomplete spec.
// Each mode's file calls it from init.
func registerMode(s ModeSpec) {
	modesMu.Lock()
	defer modesMu.Unlock()
	if _, dup := modes[s.Name]; dup || s.Name == "" {
		panic(fmt.Sprintf("drive: mode %q registered twice or without a name", s.Name))
	}
	if s.run == nil || s.settings == nil || s.Help == "" {
		panic(fmt.Sprintf("drive: mode %q needs help, a run and settings", s.Name))
	}
	modes[s.Name] = &s
}

// Modes returns every mode's spec in display order.
func Modes() []*ModeSpec {
	modesMu.Lock()
	defer modesMu.Unlock()
	out := make([]*ModeSpec, 0, len(modes))
	for _, s := range modes {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *ModeSpec) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(string(a.Name), string(b.Name))
	})
	return out
}

// ModeByName returns the spec of mode m, or an error that lists the modes.
func ModeByName(m Mode) (*ModeSpec, error) {
	modesMu.Lock()
	s, ok := modes[m]
	modesMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown mode %q: want %s", m, ModeNames())
	}
	return s, nil
}

// ModeNames lists the modes for messages: "closed, sequential, open, ramp or capacity".
func ModeNames() string {
	var names []string
	for _, s := range Modes() {
		names = append(names, string(s.Name))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Settings returns the mode's settings made from load's flags' values p:
// the parameters the mode uses (Params), at their defaults where zero once
// Config.Defaults has run.
func (s *ModeSpec) Settings(p Params) Settings { return s.settings(p) }

// Uses reports whether the mode uses the parameter of flag name param.
func (s *ModeSpec) Uses(param string) bool { return slices.Contains(s.Params, param) }

// ModesUsing lists the modes that use parameter param, in display order.
func ModesUsing(param string) []Mode {
	var out []Mode
	for _, s := range Modes() {
		if s.Uses(param) {
			out = append(out, s.Name)
		}
	}
	return out
}
