package drive

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// window is a mode defined in this file alone, with its traits and its
// settings: closed-loop clients over a window whose runs measure
// throughput. Its run files merge and the report (HTML, Markdown, JSON)
// shows its throughput from its traits, with no edit anywhere else.
const window Mode = "test-window"

// windowChecks counts the validations of the window mode's parameters.
var windowChecks atomic.Int64

// windowSettings are window's: clients over the runs of a window.
type windowSettings struct {
	Clients int
	Repeat
}

func (s windowSettings) withDefaults() Settings {
	s.Clients = cmp.Or(s.Clients, 1)
	s.Repeat = s.Repeat.withDefaults(1)
	return s
}

func (s windowSettings) validate(*Config) error {
	windowChecks.Add(1)
	if s.Clients < 1 {
		return errors.New("--clients must be at least 1")
	}
	return s.Repeat.validate()
}

func (s windowSettings) header(_ *Config, p *runfile.Params) {
	p.Clients = s.Clients
	s.Repeat.header(p)
}

func (s windowSettings) flags(add func(param, value string)) {
	add("clients", flagInt(s.Clients))
	s.Repeat.flags(add)
}

func init() {
	registerMode(ModeSpec{
		Name:   window,
		Traits: runfile.Traits{Order: 100, Throughput: true, SLOAtEnd: true},
		Help:   "closed-loop clients over a window (a test's mode)\n--clients N, --duration, --runs",
		Params: []string{"clients", "duration", "runs"},
		settings: func(p Params) Settings {
			return windowSettings{Clients: p.Clients, Repeat: Repeat{Duration: p.Duration, Runs: p.Runs}}
		},
		run: func(e *engine, ctx context.Context) error {
			s := e.cfg.Settings.(windowSettings)
			e.users.Store(int64(s.Clients))
			e.connect(s.Clients)
			return e.runs(ctx, s.Repeat, func(ctx context.Context, r int, warmup bool) error {
				ph := &phase{run: r, warmup: warmup, window: s.Duration}
				return e.runPhase(ctx, ph, func(ctx context.Context) { e.clients(ctx, ph, s.Clients) })
			})
		},
	})
}

// TestNewModeMergesAndReports: two series of the test's own mode, each
// run by two load generators, merge per series and render in every report
// format, their throughput compared, because the header carries the mode's
// traits.
func TestNewModeMergesAndReports(t *testing.T) {
	var runs []*report.Run
	synctest.Test(t, func(t *testing.T) {
		for _, srv := range []struct {
			name  string
			delay time.Duration
		}{{"fast", time.Millisecond}, {"slow", 3 * time.Millisecond}} {
			var files []*runfile.File
			for range 2 {
				files = append(files, runWindow(t, srv.name, newFake(srv.delay)))
			}
			m, err := runfile.Merge(files)
			if err != nil {
				t.Fatal(err)
			}
			if m.Header.Traits == nil || !m.Header.ModeTraits().Throughput || len(m.Header.Sources) != 2 {
				t.Fatalf("merged header: traits %+v, sources %v", m.Header.Traits, m.Header.Sources)
			}
			if m.Summary.Throughput.N != 2 || m.Summary.Total.Count != files[0].Summary.Total.Count+files[1].Summary.Total.Count {
				t.Errorf("merged summary: %d measured runs, %d requests", m.Summary.Throughput.N, m.Summary.Total.Count)
			}
			run, err := report.NewRun(srv.name+".jsonl", m)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, run)
		}
	})
	r, err := report.Build(runs, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Throughput) != 4 || len(r.Workloads) != 2 || len(r.Welch) != 1 {
		t.Fatalf("%d throughput rows, %d workloads and %d comparisons, want 4, 2 and 1 (two templates and their mix, two series)",
			len(r.Throughput), len(r.Workloads), len(r.Welch))
	}
	for _, tp := range r.Throughput {
		if tp.Mode != string(window) || tp.Mean <= 0 {
			t.Errorf("throughput row %+v", tp)
		}
	}
	for _, format := range []string{"html", "md", "json"} {
		var b bytes.Buffer
		if err := r.Write(&b, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if !strings.Contains(b.String(), string(window)) || !strings.Contains(b.String(), "slow") {
			t.Errorf("%s: the report does not show the mode's series", format)
		}
		if format == "json" {
			var got struct {
				Throughput []struct{ Mode string } `json:"throughput"`
			}
			if err := json.Unmarshal(b.Bytes(), &got); err != nil || len(got.Throughput) != 4 {
				t.Errorf("json: %v, %d throughput rows", err, len(got.Throughput))
			}
		}
	}
}

// runWindow runs the test's mode against tr, with the header a load
// command writes, and reads its run file back.
func runWindow(t *testing.T, server string, tr wire.Transport) *runfile.File {
	t.Helper()
	cfg := (Config{Mode: window, Transport: tr, Requests: requests(3, "QT1", "QT2"),
		Settings: windowSettings{Clients: 2, Repeat: Repeat{Duration: 300 * time.Millisecond, Runs: 3}}, Interval: 100 * time.Millisecond}).Defaults()
	var out bytes.Buffer
	w := runfile.NewWriter(&out)
	q := &queryfile.File{Path: "q.jsonl"}
	for _, r := range cfg.Requests {
		q.Entries = append(q.Entries, queryfile.Entry{ID: r.ID, Label: r.Template, Query: "{__typename}"})
	}
	if err := w.Write(NewHeader(cfg, HeaderInfo{Labels: map[string]string{"server": server}}, q)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), cfg, w); err != nil {
		t.Fatal(err)
	}
	f, err := runfile.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestModeFlags: a Config's mode parameters as load's flags, the ones not
// set left out: what an experiment records without knowing the mode.
func TestModeFlags(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want map[string]string
	}{
		{Config{Mode: Closed, Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: time.Minute}}}, map[string]string{"mode": "closed", "clients": "2", "duration": "1m0s", "runs": "6"}},
		{Config{Mode: Closed, Settings: ClosedSettings{Repeat: Repeat{CI: 0.05}}, Late: 2 * time.Millisecond},
			map[string]string{"mode": "closed", "clients": "1", "duration": "1m0s", "runs": "auto", "ci": "0.05", "max-runs": "20", "late": "2ms"}},
		{Config{Mode: Sequential, Settings: SequentialSettings{Passes: 3, WarmupPasses: 1}}, map[string]string{"mode": "sequential", "passes": "3", "warmup-passes": "1"}},
		{Config{Mode: Paired, Settings: PairedSettings{ClosedSettings: ClosedSettings{Clients: 4}}}, map[string]string{"mode": "paired", "clients": "4", "duration": "1m0s", "runs": "2", "group": "100"}},
		{Config{Mode: Capacity, Settings: CapacitySettings{Arrivals: Arrivals{Poisson: true}}}, map[string]string{"mode": "capacity", "connections": "64", "duration": "1m0s", "rate": "100",
			"arrival": "poisson", "max-rate": "1e+06", "precision": "0.05", "max-steps": "20"}},
	} {
		spec, err := ModeByName(c.cfg.Mode)
		if err != nil {
			t.Fatal(err)
		}
		got := spec.Flags(c.cfg.Defaults())
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: flags %v, want %v", c.cfg.Mode, got, c.want)
		}
	}
}

// TestBuiltinTraitsAsOfOld: the built-in modes record the traits that
// runfile gives their old files (which recorded none), so a report of old
// and new files together reads them alike.
func TestBuiltinTraitsAsOfOld(t *testing.T) {
	for _, s := range Modes() {
		if s.Name == once || s.Name == window {
			continue
		}
		if old := (&runfile.Header{Mode: string(s.Name)}).ModeTraits(); old != s.Traits {
			t.Errorf("%s records %+v, its old files get %+v", s.Name, s.Traits, old)
		}
		if h := NewHeader((Config{Mode: s.Name}).Defaults(), HeaderInfo{}, &queryfile.File{}); h.Traits == nil || *h.Traits != s.Traits {
			t.Errorf("%s: the header's traits %+v", s.Name, h.Traits)
		}
	}
}

// TestReadyOnce: a Config made Ready has its parameters checked once, not
// again by Run.
func TestReadyOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		windowChecks.Store(0)
		cfg, err := (Config{Mode: window, Transport: newFake(time.Millisecond), Requests: requests(2, "QT1"),
			Settings: windowSettings{Repeat: Repeat{Duration: 100 * time.Millisecond}}, Interval: 100 * time.Millisecond}).Ready()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(t.Context(), cfg, runfile.NewWriter(io.Discard)); err != nil {
			t.Fatal(err)
		}
		if n := windowChecks.Load(); n != 1 {
			t.Errorf("the parameters were checked %d times", n)
		}
		if _, err := (Config{Mode: window, Settings: windowSettings{Clients: -1}}).Ready(); err == nil || !strings.Contains(err.Error(), "--clients") {
			t.Errorf("Ready of bad parameters: %v", err)
		}
	})
}
