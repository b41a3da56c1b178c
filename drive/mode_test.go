package drive

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// once is a mode defined in this file alone: every request once, in order,
// on Clients connections taking turns. It proves that a mode is one
// registration, its settings a type of its own — nothing else in the
// package names it.
const once Mode = "test-once"

// onceSettings are once's: the connections taking turns.
type onceSettings struct{ Clients int }

func (s onceSettings) withDefaults() Settings {
	if s.Clients == 0 {
		s.Clients = 2
	}
	return s
}

func (s onceSettings) validate(*Config) error {
	switch {
	case s.Clients < 1:
		return errors.New("--clients must be at least 1")
	case s.Clients > 8:
		return fmt.Errorf("at most 8 clients, got %d", s.Clients)
	}
	return nil
}

func (s onceSettings) header(_ *Config, p *runfile.Params) { p.Clients = s.Clients }
func (s onceSettings) flags(add func(param, value string)) { add("clients", flagInt(s.Clients)) }

func init() {
	registerMode(ModeSpec{
		Name: once, Traits: runfile.Traits{Order: 99},
		Help:     "every request once (a test's mode)\nover --clients connections",
		Params:   []string{"clients"},
		settings: func(p Params) Settings { return onceSettings{Clients: p.Clients} },
		run: func(e *engine, ctx context.Context) error {
			n := e.cfg.Settings.(onceSettings).Clients
			e.connect(n)
			ph := &phase{run: 1}
			return e.runPhase(ctx, ph, func(ctx context.Context) {
				for i := range e.cfg.Requests {
					w, err := e.worker(i % n)
					if err != nil {
						return
					}
					w.send(ctx, ph, i, -1, false, -1)
				}
			})
		},
		label: func(*phase, int) string { return "the pass" },
	})
}

// TestModeRegistry: a registered mode is found by name, listed in order,
// has its defaults and validation applied, runs through Run, and its
// parameters are known to belong to it alone.
func TestModeRegistry(t *testing.T) {
	var names []Mode
	for _, s := range Modes() {
		names = append(names, s.Name)
	}
	if want := []Mode{Closed, Sequential, Open, Ramp, Capacity, Paired, once, window}; !slices.Equal(names, want) {
		t.Fatalf("Modes() = %v, want %v", names, want)
	}
	if !strings.HasSuffix(ModeNames(), "capacity, paired, test-once or test-window") {
		t.Errorf("ModeNames() = %q", ModeNames())
	}
	if _, err := ModeByName("nope"); err == nil || !strings.Contains(err.Error(), "closed, sequential") {
		t.Errorf("unknown mode: %v", err)
	}
	if got := ModesUsing("clients"); !slices.Equal(got, []Mode{Closed, Paired, once, window}) {
		t.Errorf("ModesUsing(clients) = %v", got)
	}
	if got := ModesUsing("rate"); !slices.Equal(got, []Mode{Open, Capacity}) {
		t.Errorf("ModesUsing(rate) = %v", got)
	}
	c := (Config{Mode: once}).Defaults()
	if s, ok := c.Settings.(onceSettings); !ok || s.Clients != 2 {
		t.Errorf("defaults: settings %#v, want the mode's with 2 clients", c.Settings)
	}
	c.Settings = onceSettings{Clients: 9}
	if err := c.ValidateParams(); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("the mode's validation was not applied: %v", err)
	}
	if (Config{Mode: Closed}).Defaults().Settings.(ClosedSettings).Runs != 6 || (Config{Mode: Capacity}).Defaults().Settings.(CapacitySettings).Rate != 100 {
		t.Error("the built-in modes' own defaults were not applied")
	}
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(time.Millisecond)
		r := runLoad(t, t.Context(), Config{Mode: once, Transport: srv, Requests: requests(5, "QT1", "QT2"), Settings: onceSettings{Clients: 3}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(srv.sends) != 10 || r.sum.Total.Count != 10 {
			t.Errorf("%d sends, %d counted, want every request once", len(srv.sends), r.sum.Total.Count)
		}
		for k, s := range srv.sends {
			if s.i != k {
				t.Fatalf("send %d was request %d", k, s.i)
			}
		}
		for _, iv := range r.file.Intervals {
			if iv.CollectedLateNS != 0 {
				t.Errorf("interval %d collected %v late on a tick kept exactly", iv.Index, time.Duration(iv.CollectedLateNS))
			}
		}
		h := NewHeader((Config{Mode: once, Settings: onceSettings{Clients: 3}}).Defaults(), HeaderInfo{}, &queryfile.File{})
		if h.Mode != string(once) || h.Params.Clients != 3 {
			t.Errorf("header mode %q clients %d", h.Mode, h.Params.Clients)
		}
	})
}

// TestModeSpecsComplete: every built-in mode says what it does, uses only
// parameters the CLI knows, and fills the header.
func TestModeSpecsComplete(t *testing.T) {
	known := map[string]bool{"clients": true, "connections": true, "duration": true, "runs": true, "think": true,
		"passes": true, "warmup-passes": true, "rate": true, "arrival": true, "ramp-rate": true, "max-clients": true,
		"max-rate": true, "precision": true, "max-steps": true, "late": true, "max-lateness": true,
		"ci": true, "max-runs": true, "min-on-time": true, "paired-target": true, "group": true}
	for _, s := range Modes() {
		if s.Name == once || s.Name == window {
			continue
		}
		if s.Help == "" || len(s.Params) == 0 {
			t.Errorf("%s: no help or no parameters", s.Name)
		}
		for _, p := range s.Params {
			if !known[p] {
				t.Errorf("%s uses parameter %q, which the load command has no flag for", s.Name, p)
			}
		}
	}
}
