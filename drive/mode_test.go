package drive

import (
	"context"
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
// registration — nothing else in the package names it.
const once Mode = "test-once"

func init() {
	registerMode(ModeSpec{
		Name: once, Traits: runfile.Traits{Order: 99},
		Help:   "every request once (a test's mode)\nover --clients connections",
		Params: []string{"clients"},
		defaults: func(c *Config) {
			if c.Clients == 0 {
				c.Clients = 2
			}
		},
		validate: func(c *Config) error {
			if c.Clients > 8 {
				return fmt.Errorf("at most 8 clients, got %d", c.Clients)
			}
			return nil
		},
		run: func(e *engine, ctx context.Context) error {
			e.connect(e.cfg.Clients)
			ph := &phase{run: 1}
			return e.runPhase(ctx, ph, func(ctx context.Context) {
				for i := range e.cfg.Requests {
					w, err := e.worker(i % e.cfg.Clients)
					if err != nil {
						return
					}
					w.send(ctx, ph, i, -1, false, -1)
				}
			})
		},
		header: func(c *Config, p *runfile.Params) { p.Clients = c.Clients },
		label:  func(*phase, int) string { return "the pass" },
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
	if c.Clients != 2 || c.Runs != 1 {
		t.Errorf("defaults: clients %d runs %d, want 2 and 1", c.Clients, c.Runs)
	}
	c.Clients = 9
	if err := c.ValidateParams(); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("the mode's validation was not applied: %v", err)
	}
	if (Config{Mode: Closed}).Defaults().Runs != 6 || (Config{Mode: Capacity}).Defaults().Rate != 100 {
		t.Error("the built-in modes' own defaults were not applied")
	}
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(time.Millisecond)
		r := runLoad(t, t.Context(), Config{Mode: once, Transport: srv, Requests: requests(5, "QT1", "QT2"), Clients: 3})
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
		h := NewHeader((Config{Mode: once, Clients: 3}).Defaults(), HeaderInfo{}, &queryfile.File{})
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
