package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// graphqlServer answers every request as the null server does.
func graphqlServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data":{"__typename":"Query"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/graphql"
}

// writeQueries writes n instances each of QT3 and QT15, with expect when
// given, else with the hash of what graphqlServer answers.
func writeQueries(t *testing.T, dir string, n int, expect string) string {
	if expect == "" {
		expect, _ = verify.Hash([]byte(`{"__typename":"Query"}`))
	}
	var inst []workload.Instance
	for _, id := range []int{3, 15} {
		tm, err := workload.TemplateByID(id)
		if err != nil {
			t.Fatal(err)
		}
		for k := range n {
			inst = append(inst, workload.Instance{ID: tm.Name + "-" + string(rune('a'+k)), Template: id, Query: tm.Query,
				Variables: map[string]any{tm.Vars[0].Name: "1" + strings.Repeat("0", k)}, Expect: expect,
				Dataset: &workload.DatasetRef{SF: 1, Seed: 7, Version: 1}})
		}
	}
	path := filepath.Join(dir, "queries.jsonl")
	var b bytes.Buffer
	if err := workload.WriteJSONL(&b, inst); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readRun(t *testing.T, path string) *runfile.File {
	t.Helper()
	schema.CheckFile(t, path)
	f, err := runfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestLoadClosedEndToEnd(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 3, "")
	out, recs := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "records.csv")
	code, stdout, stderr := run("load", "--target", url, "--queries", q, "--mode", "closed", "--clients", "2",
		"--duration", "300ms", "--runs", "2", "--interval", "100ms", "-o", out, "--records", recs, "--watch-pid", "1",
		"--label", "server=test", "--label", "pool = 4")
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" || !strings.Contains(stderr, "throughput") || !strings.Contains(stderr, "run 1 (warm-up, excluded)") ||
		!strings.Contains(stderr, "verdict: the load generator") {
		t.Errorf("stdout %q; stderr %s", stdout, stderr)
	}
	f := readRun(t, out)
	h := f.Header
	if h.Mode != "closed" || h.Params.Clients != 2 || h.Params.Runs != 2 || h.Queries.Instances != 6 || len(h.Queries.SHA256) != 64 ||
		strings.Join(h.Queries.Templates, ",") != "QT3,QT15" || h.Machine.Cores < 1 || h.Machine.Kernel == "" || h.Flags["clients"] != "2" ||
		h.Command[0] != "gqlbench" || h.Tool.Version != Version || len(h.Watch) != 1 || h.Watch[0].PID != 1 ||
		h.Labels["server"] != "test" || h.Labels["pool"] != "4" || h.Queries.Dataset["sf"] != 1.0 || h.Queries.Dataset["seed"] != 7.0 {
		t.Errorf("header %+v", h)
	}
	// three 100 ms intervals a run, fewer when a loaded machine delays a
	// tick past the next (the late one covers both): each run has some
	runsSeen := map[int]bool{}
	for _, iv := range f.Intervals {
		runsSeen[iv.Run] = true
	}
	if !runsSeen[1] || !runsSeen[2] || f.Summary == nil || f.Summary.Status != "ok" || f.Summary.Throughput.N != 1 {
		t.Fatalf("%d intervals, summary %+v", len(f.Intervals), f.Summary)
	}
	if len(f.Intervals[0].Procs) != 1 || f.Intervals[0].Driver == nil || f.Intervals[0].Driver.RSSBytes == 0 {
		t.Errorf("interval processes %+v, driver %+v", f.Intervals[0].Procs, f.Intervals[0].Driver)
	}
	var count int64
	for _, iv := range f.Intervals {
		for _, tm := range iv.Templates {
			count += tm.Count
		}
	}
	b, _ := os.ReadFile(recs)
	if lines := int64(strings.Count(string(b), "\n")) - 1; lines != count || !strings.HasPrefix(string(b), "client,query_id,qet_ns,error") {
		t.Errorf("%d records for %d requests", lines, count)
	}
	code, stdout, _ = run("load", "show", out)
	if code != exitcode.OK || !strings.Contains(stdout, "closed against "+url) || !strings.Contains(stdout, "QT15") {
		t.Errorf("show: exit %d: %s", code, stdout)
	}
}

// TestLoadModes: every mode runs end to end and writes what it promises.
func TestLoadModes(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 2, "")
	for _, c := range []struct {
		mode  string
		args  []string
		check func(f *runfile.File) bool
		// loaded, when set, accepts instead what a busy machine may make of
		// the run (its exit code and file); the happy path is still checked
		// in full whenever the run exits 0.
		loaded func(code int, f *runfile.File) bool
	}{
		{"sequential", []string{"--passes", "3"}, func(f *runfile.File) bool {
			// 3 measured passes after the default warm-up pass
			return len(f.Queries) == 4 && f.Queries[0].N == 3 && f.Header.Params.WarmupPasses == 1 && len(f.Summary.Runs) == 4 && f.Summary.Runs[0].Warmup
		}, nil},
		{"open", []string{"--rate", "200", "--duration", "500ms", "--arrival", "poisson", "--seed", "3", "--slo", "p99<1s"},
			func(f *runfile.File) bool {
				return f.Summary.Total.Latency != nil && f.Summary.SLOMet != nil && *f.Summary.SLOMet
			}, nil},
		{"ramp", []string{"--ramp-rate", "40", "--max-clients", "5", "--duration", "400ms", "--think", "5ms"},
			func(f *runfile.File) bool { return f.Summary.Ramp != nil && f.Summary.Ramp.MaxUsers == 5 }, nil},
		{"capacity", []string{"--slo", "p99<1s", "--rate", "50", "--duration", "300ms", "--max-steps", "2"},
			func(f *runfile.File) bool { return len(f.Steps) == 2 && f.Summary.Capacity.Rate == 100 }, generatorLimited},
	} {
		out := filepath.Join(dir, c.mode+".jsonl")
		args := append([]string{"load", "--target", url, "--queries", q, "--mode", c.mode, "--interval", "100ms", "-o", out, "--quiet"}, c.args...)
		code, _, stderr := run(args...)
		if code != exitcode.OK && c.loaded != nil && c.loaded(code, readRun(t, out)) {
			t.Logf("%s: the load generator was the limit on this machine: %s", c.mode, stderr)
			continue
		}
		if code != exitcode.OK {
			t.Errorf("%s: exit %d: %s", c.mode, code, stderr)
			continue
		}
		if f := readRun(t, out); f.Summary == nil || !c.check(f) {
			t.Errorf("%s: unexpected file: %+v", c.mode, f.Summary)
		}
	}
}

// generatorLimited says that a capacity search ended with the verdict a
// busy machine gives: the load generator, not the server, could not offer
// a step's rate on time, so no capacity was measured (the check fails,
// and the rate met before is only a lower bound).
func generatorLimited(code int, f *runfile.File) bool {
	if f.Summary == nil || f.Summary.Capacity == nil {
		return false
	}
	c := f.Summary.Capacity
	return code == exitcode.Check && c.Rate == 0 && strings.Contains(c.Invalid, "the load generator, not the server, was the limit") &&
		len(f.Steps) >= 1 && len(f.Steps) == c.Steps
}

func TestLoadMerge(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 2, "")
	var files []string
	for _, name := range []string{"a", "b"} {
		out := filepath.Join(dir, name+".jsonl")
		if code, _, stderr := run("load", "--target", url, "--queries", q, "--mode", "open", "--rate", "100", "--duration", "300ms",
			"--interval", "100ms", "-o", out, "--quiet"); code != exitcode.OK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		files = append(files, out)
	}
	merged := filepath.Join(dir, "all.jsonl")
	if code, _, stderr := run("load", "merge", files[0], files[1], "-o", merged); code != exitcode.OK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	m := readRun(t, merged)
	if m.Summary.Total.Count != 60 || m.Summary.Generators != 2 || m.Header.Params.Rate != 200 || len(m.Header.Sources) != 2 {
		t.Errorf("merged summary %+v, rate %v", m.Summary.Total, m.Header.Params.Rate)
	}
	if code, _, stderr := run("load", "merge", files[0], filepath.Join(dir, "missing.jsonl")); code != exitcode.Failure || !strings.Contains(stderr, "missing.jsonl") {
		t.Errorf("merge of a missing file: exit %d: %s", code, stderr)
	}
}

// TestLoadWrongAnswers: a server that answers wrongly fails the run, with
// the check's exit code, after writing everything.
func TestLoadWrongAnswers(t *testing.T) {
	dir := t.TempDir()
	url := graphqlServer(t)
	q := writeQueries(t, dir, 2, strings.Repeat("ab", 32))
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "200ms", "--runs", "1", "-o", out)
	if code != exitcode.Check || !strings.Contains(stderr, "wrong answers") || !strings.Contains(stderr, "answer differs") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if f := readRun(t, out); f.Summary.Status != "failed" || f.Summary.Total.Wrong != f.Summary.Total.Count {
		t.Errorf("summary %+v", f.Summary)
	}
}

// TestLoadInterrupted: Ctrl-C mid-run exits 1 with the file complete up to then.
func TestLoadInterrupted(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 2, "")
	out := filepath.Join(dir, "run.jsonl")
	// long enough for the check and the first intervals on a busy machine
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var errb bytes.Buffer
	code := Run(ctx, Env{Args: []string{"load", "--target", url, "--queries", q, "--duration", "1m", "--interval", "100ms", "-o", out, "--quiet"},
		Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: func(string) string { return "" }})
	if code != exitcode.Failure || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	f := readRun(t, out)
	// (interrupted in the warm-up run: the totals, of the measured runs,
	// are empty; a loaded machine may delay a tick past the next, the late
	// interval covering both, so at least one)
	if f.Summary == nil || f.Summary.Status != "interrupted" || len(f.Intervals) < 1 || f.Summary.Runs[0].Count == 0 {
		t.Errorf("%d intervals, summary %+v", len(f.Intervals), f.Summary)
	}
}

// TestLoadAnyQuery: load replays any well-formed entry — an operation of
// another schema, labelled as its user likes — and verifies it by its
// expected hash: the right answer passes, a wrong one exits 3.
func TestLoadAnyQuery(t *testing.T) {
	dir := t.TempDir()
	url := graphqlServer(t)
	right, _ := verify.Hash([]byte(`{"__typename":"Query"}`))
	wrong, _ := verify.Hash([]byte(`{"__typename":"Mutation"}`))
	for _, c := range []struct {
		expect string
		code   int
	}{{right, exitcode.OK}, {wrong, exitcode.Check}} {
		q := filepath.Join(dir, "mine.jsonl")
		line := `{"id":"m1","template":"mine","query":"query Mine($u: ID!) { university(nr: $u) { name } }","operationName":"Mine","variables":{"u":"0"},"expect":"` + c.expect + `"}` + "\n"
		os.WriteFile(q, []byte(line), 0o644)
		out := filepath.Join(dir, "run.jsonl")
		code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "100ms", "--runs", "1", "-o", out, "--quiet")
		if code != c.code {
			t.Fatalf("expect %s: exit %d, want %d: %s", c.expect[:8], code, c.code, stderr)
		}
		f := readRun(t, out)
		if tot := f.Summary.Total; tot.Count == 0 || (c.code == exitcode.OK) != (tot.Wrong == 0) || tot.Verified == 0 {
			t.Errorf("expect %s: totals %+v", c.expect[:8], tot)
		}
		if strings.Join(f.Header.Queries.Templates, ",") != "mine" || f.Header.Queries.Expect != 1 {
			t.Errorf("header queries %+v", f.Header.Queries)
		}
	}
}

// TestLoadBadInput: every mistake gets its exit code and a message that
// names it, before any load starts.
func TestLoadBadInput(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 1, "")
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	malformed := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(malformed, []byte("{\"id\":\"x\",\"query\":\"{}\"}\n"), 0o644)
	notJSON := filepath.Join(dir, "notjson.jsonl")
	os.WriteFile(notJSON, []byte("hello\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no target", []string{"--queries", q}, exitcode.Usage, "--target"},
		{"no queries", []string{"--target", url}, exitcode.Usage, "--queries"},
		{"unknown mode", []string{"--target", url, "--queries", q, "--mode", "burst"}, exitcode.Usage, "unknown --mode"},
		{"flag of another mode", []string{"--target", url, "--queries", q, "--rate", "10"}, exitcode.Usage, "--rate does not apply to --mode closed"},
		{"open without rate", []string{"--target", url, "--queries", q, "--mode", "open"}, exitcode.Usage, "--rate"},
		{"capacity without slo", []string{"--target", url, "--queries", q, "--mode", "capacity"}, exitcode.Usage, "--slo"},
		{"bad slo", []string{"--target", url, "--queries", q, "--mode", "open", "--rate", "1", "--slo", "p99>1s"}, exitcode.Usage, "--slo"},
		{"bad sample", []string{"--target", url, "--queries", q, "--verify-sample", "2"}, exitcode.Usage, "--verify-sample"},
		{"unknown client", []string{"--target", url, "--queries", q, "--client", "curl"}, exitcode.Usage, "--client must be gqlbench, gqlbench-goroutines or net/http"},
		{"bad arrival", []string{"--target", url, "--queries", q, "--mode", "open", "--rate", "1", "--arrival", "burst"}, exitcode.Usage, "--arrival"},
		{"ci without runs auto", []string{"--target", url, "--queries", q, "--ci", "5%"}, exitcode.Usage, "--ci applies to --runs auto only"},
		{"max-runs without runs auto", []string{"--target", url, "--queries", q, "--max-runs", "9"}, exitcode.Usage, "--max-runs applies to --runs auto only"},
		{"too few runs auto", []string{"--target", url, "--queries", q, "--runs", "auto", "--max-runs", "3"}, exitcode.Usage, "at least 4 runs"},
		{"ci not a fraction", []string{"--target", url, "--queries", q, "--runs", "auto", "--ci", "5"}, exitcode.Usage, "in (0, 1)"},
		{"runs neither a number nor auto", []string{"--target", url, "--queries", q, "--runs", "many"}, exitcode.Usage, "or auto"},
		{"runs auto in a ramp", []string{"--target", url, "--queries", q, "--mode", "ramp", "--runs", "auto"}, exitcode.Usage, "--runs does not apply to --mode ramp"},
		{"min-on-time beyond all", []string{"--target", url, "--queries", q, "--mode", "open", "--rate", "1", "--min-on-time", "120%"}, exitcode.Usage, "in [0, 1]"},
		{"negative warm-up passes", []string{"--target", url, "--queries", q, "--mode", "sequential", "--warmup-passes", "-1"}, exitcode.Usage, "--warmup-passes"},
		{"warm-up passes in closed mode", []string{"--target", url, "--queries", q, "--warmup-passes", "2"}, exitcode.Usage, "--warmup-passes does not apply"},
		{"bad target", []string{"--target", "ftp://x", "--queries", q}, exitcode.Usage, "want http://"},
		{"bad pid", []string{"--target", url, "--queries", q, "--watch-pid", "x"}, exitcode.Usage, "process id"},
		{"runtime without a pid", []string{"--target", url, "--queries", q, "--watch-runtime", "http://127.0.0.1:1/debug/metrics"}, exitcode.Usage, "give --watch-pid too"},
		{"runtime not a URL", []string{"--target", url, "--queries", q, "--watch-pid", "1", "--watch-runtime", "127.0.0.1:1"}, exitcode.Usage, "want an http:// URL"},
		{"missing queries file", []string{"--target", url, "--queries", filepath.Join(dir, "nope")}, exitcode.Failure, "cannot read the queries file"},
		{"malformed queries file", []string{"--target", url, "--queries", notJSON}, exitcode.Failure, "line 1: not a JSON object"},
		{"entry without a label", []string{"--target", url, "--queries", malformed}, exitcode.Failure, `line 1: "x": missing "template"`},
		{"unreachable target", []string{"--target", down.URL, "--queries", q}, exitcode.Failure, "cannot reach the target"},
		{"not a GraphQL endpoint", []string{"--target", web.URL, "--queries", q}, exitcode.Failure, "is not a GraphQL endpoint"},
		{"watched process gone", []string{"--target", url, "--queries", q, "--watch-pid", "999999999"}, exitcode.Failure, "cannot watch process"},
		{"merge nothing", []string{"merge"}, exitcode.Usage, "name the run files"},
		{"show a queries file", []string{"show", q}, exitcode.Failure, "the first line must be the header"},
	} {
		out := filepath.Join(dir, "run-"+strings.ReplaceAll(c.name, " ", "-")+".jsonl")
		short := []string{"--duration", "100ms"}
		if slices.Contains(c.args, "sequential") { // passes, no duration
			short = nil
		}
		code, _, stderr := run(append(append(append([]string{"load"}, c.args...), "-o", out), short...)...)
		if c.args[0] == "merge" || c.args[0] == "show" {
			code, _, stderr = run(append([]string{"load"}, c.args...)...)
		}
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, stderr, c.code, c.want)
		}
		if c.code != exitcode.OK && c.args[0] != "merge" && c.args[0] != "show" {
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: a run file was written although nothing ran", c.name)
			}
		}
	}
}

// TestLoadModesFromRegistry: the help and the flag checks come from drive's
// mode registry, so a mode registered there needs no edit here: every mode
// is in the help, and each refuses every other mode's parameters.
func TestLoadModesFromRegistry(t *testing.T) {
	_, help, _ := run("load", "--help")
	for _, m := range drive.Modes() {
		first := strings.SplitN(m.Help, "\n", 2)[0]
		if !strings.Contains(help, string(m.Name)) || !strings.Contains(help, first) {
			t.Errorf("the help does not describe mode %s (%q)", m.Name, first)
		}
	}
	dir := t.TempDir()
	q := writeQueries(t, dir, 1, "")
	for _, m := range drive.Modes() {
		for _, other := range drive.Modes() {
			for _, p := range other.Params {
				if m.Uses(p) {
					continue
				}
				val := map[string]string{"think": "1s", "duration": "1s", "late": "1s", "max-lateness": "1s", "arrival": "poisson"}[p]
				if val == "" {
					val = "1"
				}
				code, _, stderr := run("load", "--target", "http://127.0.0.1:1/graphql", "--queries", q, "--mode", string(m.Name), "--"+p, val)
				if code != exitcode.Usage || !strings.Contains(stderr, "--"+p+" does not apply to --mode "+string(m.Name)) {
					t.Errorf("--%s with --mode %s: exit %d, %s", p, m.Name, code, stderr)
				}
			}
		}
	}
}

// TestLoadProfiles: --cpuprofile and --exectrace write the load
// generator's own profile and trace.
func TestLoadProfiles(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 1, "")
	cpu, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "trace.out")
	code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "200ms", "--runs", "1", "--quiet",
		"-o", filepath.Join(dir, "run.jsonl"), "--cpuprofile", cpu, "--exectrace", tr)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{cpu, tr} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if code, _, stderr := run("load", "--target", url, "--queries", q, "--cpuprofile", filepath.Join(dir, "no", "such", "dir")); code != exitcode.Failure || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("an unwritable profile: exit %d, %s", code, stderr)
	}
}

// TestLoadWatchRuntime: --watch-runtime scrapes a server's runtime metrics
// with each sample of the first --watch-pid into the intervals.
func TestLoadWatchRuntime(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 2, "")
	metrics := httptest.NewServer(server.Metrics(http.NotFoundHandler()))
	defer metrics.Close()
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", url, "--queries", q, "--mode", "closed", "--clients", "1", "--duration", "300ms", "--runs", "1",
		"--interval", "100ms", "-o", out, "--watch-pid", strconv.Itoa(os.Getpid()), "--watch-runtime", metrics.URL+server.MetricsPath)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	n := 0
	for _, iv := range readRun(t, out).Intervals {
		if len(iv.Procs) == 1 && iv.Procs[0].Runtime != nil && iv.Procs[0].Runtime.Error == "" && iv.Procs[0].Runtime.HeapLiveBytes > 0 {
			n++
		}
	}
	if n == 0 {
		t.Error("no interval carries the runtime metrics")
	}
}
