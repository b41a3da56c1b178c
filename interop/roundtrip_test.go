package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
	"github.com/gqlbench/gqlbench/verify"
)

// The round trip of every export: write the tool's test from a queries
// file, run it in the real tool against a server that answers some labels
// right (in a non-canonical text: members out of order, 2.50, escapes,
// shuffled unordered lists) and some wrong (altered data, GraphQL errors,
// HTTP 500), import the tool's results, and require every request of each
// label to be counted as it must: the checks catch every wrong answer and
// pass every right one, and the run file adds up to what the tool counted.

const token = "Bearer s3cret-token-for-the-test"

var update = flag.Bool("update", false, "keep the tools' results as testdata/ fixtures (the import tests read them)")

// keep copies a tool's results file into testdata when -update is given.
func keep(t *testing.T, src, name string) {
	if !*update {
		return
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixture is a label's right answer's data, what the server sends, and
// the outcome the check must give.
type fixture struct {
	label, data, sent string
	status            int
	unordered         bool
	noExpect          bool
	outcome           string
}

var fixtures = []fixture{
	{label: "Right", data: `{"a":1,"b":"é","seenAt":"t0"}`, sent: `{"data":{"b":"\u00e9","seenAt":"t1","a":1.0}}`, outcome: OK},
	{label: "Tricky", data: `{"xs":[1,2,[3,4]],"f":2.5,"s":"😀\n"}`, sent: `{"data":{"s":"\ud83d\ude00\n","f":2.50,"xs":[[4,3],1,2]},"errors":[]}`, unordered: true, outcome: OK},
	{label: "Altered", data: `{"a":1,"b":"é"}`, sent: `{"data":{"a":1,"b":"e"}}`, outcome: Wrong},
	{label: "Erring", data: `{"a":1}`, sent: `{"errors":[{"message":"boom, said the server"}],"data":null}`, outcome: "graphql_errors"},
	{label: "Broken", data: `{"a":1}`, sent: `{"data":{"a":1}}`, status: 500, outcome: "http_status"},
	{label: "Unchecked", data: `{"z":1}`, sent: `{"data":{"z":2}}`, noExpect: true, outcome: OK},
}

// entries returns the fixtures' queries file entries.
func entries(t *testing.T) []queryfile.Entry {
	var out []queryfile.Entry
	for i, f := range fixtures {
		e := queryfile.Entry{ID: fmt.Sprintf("%s-%04d", f.label, i+1), Label: f.label,
			Query:     "query " + f.label + "($id: ID!) {\n  item(id: $id) { a b }\n}",
			Variables: json.RawMessage(fmt.Sprintf(`{"id":%q}`, f.label)), Unordered: f.unordered}
		if !f.noExpect {
			h, err := verify.HashWith([]byte(f.data), verify.Options{Unordered: f.unordered})
			if err != nil {
				t.Fatal(err)
			}
			e.Expect, e.Answer = h, json.RawMessage(f.data)
		}
		out = append(out, e)
	}
	return out
}

// server answers each label as its fixture says, and refuses a request
// without the secret Authorization header or the literal X-Tenant one.
func server(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != token || r.Header.Get("X-Tenant") != "t1" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var req struct {
			Query     string            `json:"query"`
			Variables map[string]string `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Query == "" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		for _, f := range fixtures {
			if f.label == req.Variables["id"] {
				w.Header().Set("Content-Type", "application/json")
				if f.status != 0 {
					w.WriteHeader(f.status)
				}
				io.WriteString(w, f.sent)
				return
			}
		}
		http.Error(w, "unknown id", http.StatusNotFound)
	}))
	t.Cleanup(s.Close)
	return s
}

// workload exports the fixtures: Authorization from the environment,
// X-Tenant written in.
func workload(t *testing.T, target string, shape Shape) *Workload {
	// seenAt changes by nature: left out of every answer, as load's --ignore-path does.
	ignore := []verify.Path{{"seenAt"}}
	if _, _, err := NewWorkload([]queryfile.Entry{{ID: "x", Label: "X", Query: "{x}", Expect: strings.Repeat("0", 64)}}, ignore); err == nil {
		t.Error("paths to ignore with only a hash must be an error")
	}
	items, rep, err := NewWorkload(entries(t), ignore)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchecked != 1 || len(rep.Warnings()) != 1 || !strings.Contains(rep.Warnings()[0], "will not be checked") {
		t.Fatalf("the entry without an expected answer must be warned about: %+v", rep.Warnings())
	}
	hs := []Header{{Name: "Authorization", Env: "GQLBENCH_TEST_TOKEN"}, {Name: "X-Tenant", Value: "t1"}}
	if err := CheckHeaders(hs, nil); err != nil {
		t.Fatal(err)
	}
	return &Workload{Items: items, Shape: shape, Target: target, Headers: hs, Source: "fixtures.jsonl", Ignore: ignore}
}

// writeExport writes the files of an export into dir and checks that no
// secret went into them.
func writeExport(t *testing.T, dir, name string, files []File) string {
	for _, f := range files {
		p := filepath.Join(dir, name)
		if f.Name != "" {
			p = filepath.Join(dir, f.Name)
		}
		if bytes.Contains(f.Data, []byte("s3cret")) {
			t.Fatalf("%s holds the secret header's value", p)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, name)
}

// toolCmd is a tool's command with the secret in its environment, ended
// when the test's time is up.
func toolCmd(t *testing.T, dir string, timeout time.Duration, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GQLBENCH_TEST_TOKEN="+token)
	return cmd
}

// checkRun imports samples and requires every label's requests to have its
// fixture's outcome, the counts to add up, and the run file to be valid and
// to read back with the same summary. perLabel, when positive, is each
// label's exact count.
func checkRun(t *testing.T, tool string, samples []Sample, perLabel int64) *runfile.File {
	t.Helper()
	f, err := RunFile(Source{Tool: tool, File: "results", Target: "http://127.0.0.1/graphql"}, samples)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := runfile.WriteFile(&b, f); err != nil {
		t.Fatal(err)
	}
	schema.Check(t, b.Bytes())
	back, err := runfile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := runfile.Summarize(back)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header.Imported == nil || back.Header.Imported.Tool != tool || back.Header.Tool.Name != tool {
		t.Errorf("the header does not say the run was imported from %s: %+v", tool, back.Header.Imported)
	}
	var want runfile.TemplateSummary
	for _, fx := range fixtures {
		ts := sum.Templates[fx.label]
		if ts == nil || ts.Count == 0 {
			t.Errorf("%s: no request of %s", tool, fx.label)
			continue
		}
		if perLabel > 0 && ts.Count != perLabel {
			t.Errorf("%s: %s: %d requests, want %d", tool, fx.label, ts.Count, perLabel)
		}
		got := OK
		switch {
		case ts.Wrong == ts.Count:
			got = Wrong
		case ts.Errors == ts.Count && len(ts.ErrorKinds) == 1:
			for k := range ts.ErrorKinds {
				got = k
			}
		case ts.OK != ts.Count:
			got = fmt.Sprintf("mixed (%d right, %d wrong, errors %v)", ts.OK, ts.Wrong, ts.ErrorKinds)
		}
		if got != fx.outcome {
			t.Errorf("%s: %s: every request must be %s, got %s", tool, fx.label, fx.outcome, got)
		}
		if ts.QET.N != ts.Count {
			t.Errorf("%s: %s: %d latencies in the histograms for %d requests", tool, fx.label, ts.QET.N, ts.Count)
		}
		want.Count += ts.Count
		want.OK += ts.OK
		want.Wrong += ts.Wrong
		want.Errors += ts.Errors
	}
	if sum.Total.Count != want.Count || sum.Total.OK != want.OK || sum.Total.Wrong != want.Wrong || sum.Total.Errors != want.Errors {
		t.Errorf("%s: the total %+v is not the templates' sum %+v", tool, sum.Total, want)
	}
	if sum.Total.Count != f.Summary.Total.Count || sum.Total.Wrong != f.Summary.Total.Wrong {
		t.Errorf("%s: the summary read back differs from the one written", tool)
	}
	if f.Summary.Status != "failed" || !strings.Contains(f.Summary.Reason, "wrong answers") {
		t.Errorf("%s: a run with wrong answers must have failed: %s %s", tool, f.Summary.Status, f.Summary.Reason)
	}
	return back
}

func TestK6RoundTrip(t *testing.T) {
	t.Parallel() // the tools start slowly: their tests overlap
	k6 := k6Bin(t)
	srv := server(t)
	dir := t.TempDir()
	files, err := K6(workload(t, "http://127.0.0.1:1/graphql", Shape{Users: 2, Duration: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	script := writeExport(t, dir, "script.js", files)
	// --vus and --iterations on k6's command line replace the script's
	// scenario: 2 users make 24 iterations, each entry's 4 times.
	cmd := toolCmd(t, dir, 5*time.Minute, k6, "run", "-q", "--address", "", "--vus", "2", "--iterations", "24",
		"-e", "TARGET="+srv.URL+"/graphql", "--out", "csv=results.csv", script)
	cmd.Env = append(cmd.Env, "K6_CSV_TIME_FORMAT=unix_micro")
	out, err := cmd.CombinedOutput()
	// k6 exits 0 here: the check failing is no threshold.
	if err != nil {
		t.Fatalf("k6: %v\n%s", err, out)
	}
	rf, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	keep(t, filepath.Join(dir, "results.csv"), "k6-results.csv")
	samples, err := ReadK6CSV("results.csv", rf, false)
	if err != nil {
		t.Fatal(err)
	}
	run := checkRun(t, "k6", samples, 4)
	// k6's own count of failed checks is the run's wrong answers and errors.
	data, _ := os.ReadFile(filepath.Join(dir, "results.csv"))
	failed := strings.Count(string(data), "\nchecks,") - strings.Count(string(data), ",1.000000,answer is right")
	if s := run.Summary; int64(failed) != s.Total.Wrong+s.Total.Errors {
		t.Errorf("k6 failed %d checks, the run file counts %d wrong and %d errors", failed, s.Total.Wrong, s.Total.Errors)
	}
	if run.Summary.Total.QRT.N == 0 {
		t.Error("no time to the first byte imported")
	}
}

func TestJMeterRoundTrip(t *testing.T) {
	t.Parallel() // the tools start slowly: their tests overlap
	home := jmeterHome(t)
	srv := server(t)
	dir := t.TempDir()
	files, err := JMeter(workload(t, "http://127.0.0.1:1/graphql", Shape{Users: 2, Duration: 600 * time.Second, Think: time.Millisecond}), "plan.jmx")
	if err != nil {
		t.Fatal(err)
	}
	plan := writeExport(t, dir, "plan.jmx", files)
	// 2 users of 12 iterations each read the 6 instances in turn, 4 times.
	cmd := toolCmd(t, dir, 8*time.Minute, "java", "-jar", filepath.Join(home, "bin", "ApacheJMeter.jar"), "-n", "-t", plan,
		"-l", "results.jtl", "-j", "jmeter.log", "-Jtarget="+srv.URL+"/graphql", "-Jloops=12", "-Jusers=2")
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "jmeter.log"))
		t.Fatalf("jmeter: %v\n%s\n%s", err, out, log)
	}
	rf, err := os.Open(filepath.Join(dir, "results.jtl"))
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	keep(t, filepath.Join(dir, "results.jtl"), "jmeter-results.jtl")
	samples, target, err := ReadJTL("results.jtl", rf, false)
	if err != nil {
		t.Fatal(err)
	}
	if target != srv.URL+"/graphql" {
		t.Errorf("the JTL's URL is %q", target)
	}
	run := checkRun(t, "jmeter", samples, 4)
	if run.Summary.Total.QRT.N == 0 {
		t.Error("no time to the first byte (JMeter's Latency) imported")
	}
}

// TestLocustDistributedRoundTrip runs alone, before the other tools' tests:
// a Locust master declares a worker missing after 3 s without a heartbeat,
// which a worker starved of CPU can miss.
func TestLocustDistributedRoundTrip(t *testing.T) {
	locust := locustBin(t)
	srv := server(t)
	files, err := Locust(workload(t, "http://127.0.0.1:1/graphql", Shape{Users: 4, RampUp: time.Second, Duration: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	for try := 1; ; try++ {
		dir := t.TempDir()
		lf := writeExport(t, dir, "locustfile.py", files)
		out := runLocust(t, locust, dir, lf, srv.URL)
		starved := strings.Contains(string(out), "failed to send heartbeat") || !bytes.Contains(readFile(t, filepath.Join(dir, "samples.csv")), []byte("\n1"))
		if starved && try < 3 {
			t.Logf("try %d: a worker missed its heartbeats or made no request (a starved machine); again", try)
			continue
		}
		checkLocust(t, dir, out)
		return
	}
}

func readFile(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runLocust runs the locustfile with a master and two workers.
func runLocust(t *testing.T, locust, dir, lf, url string) []byte {
	port := freePort(t)
	var workers []*exec.Cmd
	for i := range 2 {
		w := toolCmd(t, dir, 4*time.Minute, locust, "-f", lf, "--worker", "--master-host", "127.0.0.1", "--master-port", port)
		w.Stdout, w.Stderr = logFile(t, dir, fmt.Sprintf("worker%d.log", i)), logFile(t, dir, fmt.Sprintf("worker%d.log", i))
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		workers = append(workers, w)
	}
	master := toolCmd(t, dir, 4*time.Minute, locust, "-f", lf, "--headless", "--master", "--master-bind-host", "127.0.0.1",
		"--master-bind-port", port, "--expect-workers", "2", "--host", url+"/graphql", "--csv", "lc",
		"--gqlbench-samples", "samples.csv", "--exit-code-on-error", "0")
	out, err := master.CombinedOutput()
	for _, w := range workers {
		w.Wait()
	}
	if err != nil {
		t.Fatalf("locust master: %v\n%s", err, out)
	}
	for i := range 2 {
		w, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("worker%d.log", i)))
		out = append(append(out, fmt.Sprintf("\n-- worker %d:\n", i)...), w...)
	}
	return out
}

// checkLocust imports the samples of a run and checks them against Locust's
// own statistics and the fixtures.
func checkLocust(t *testing.T, dir string, out []byte) {
	sf, err := os.Open(filepath.Join(dir, "samples.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	keep(t, filepath.Join(dir, "samples.csv"), "locust-samples.csv")
	keep(t, filepath.Join(dir, "lc_stats.csv"), "locust_stats.csv")
	samples, err := ReadLocust("samples.csv", sf, false)
	if err != nil {
		t.Fatalf("%v\nthe master said:\n%s", err, out)
	}
	stats, err := os.Open(filepath.Join(dir, "lc_stats.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer stats.Close()
	// Both workers' samples reached the master: they add up to Locust's own counts.
	if err := CheckLocustStats("lc_stats.csv", stats, samples); err != nil {
		t.Fatal(err)
	}
	if len(samples) == 0 {
		t.Fatalf("no samples; Locust said:\n%s", out)
	}
	checkRun(t, "locust", samples, 0)
}

func logFile(t *testing.T, dir, name string) *os.File {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func freePort(t *testing.T) string {
	l := httptest.NewUnstartedServer(nil).Listener
	defer l.Close()
	_, port, _ := strings.Cut(l.Addr().String(), ":")
	return port
}
