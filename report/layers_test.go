package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/runfile"
)

// withSummary writes testdata/batch-qt3.jsonl with its summary's layers
// and profiles set, and reads it as a run.
func withSummary(t *testing.T, lay *layers.Report, prof *runfile.Profiles) []*Run {
	t.Helper()
	b, err := os.ReadFile("testdata/batch-qt3.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := lines[len(lines)-1]
	var extra []string
	for k, v := range map[string]any{"layers": lay, "profiles": prof} {
		if v == nil || (k == "layers" && lay == nil) || (k == "profiles" && prof == nil) {
			continue
		}
		j, _ := json.Marshal(v)
		extra = append(extra, `"`+k+`":`+string(j))
	}
	if !strings.HasPrefix(last, `{"type":"summary"`) {
		t.Fatalf("the last line is not the summary: %.80s", last)
	}
	lines[len(lines)-1] = strings.TrimSuffix(last, "}") + "," + strings.Join(extra, ",") + "}"
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestLayersAndProfiles: a run's layers reach the report's table, its
// stacked bars, the CSV and the JSON, as seed 002's split; its profiles'
// tops their tables; a run whose server emitted neither gets one line.
func TestLayersAndProfiles(t *testing.T) {
	acc := layers.NewAcc([]string{"QT3"}, 0)
	st := []byte("read;dur=0.010, parse;dur=0.020, validate;dur=0.030, execute;dur=0.900, db;dur=0.600, dispatch;dur=0.020, write;dur=0.020, total;dur=1.000, sql;count=2")
	for range 4 {
		acc.Add(0, 1500000, st, nil)
	}
	prof := &runfile.Profiles{CPU: &runfile.Profile{File: "run.cpu.pprof", Sample: "cpu", Unit: "nanoseconds", Total: 2e9, Seconds: 2,
		Flat: []runfile.ProfileFunc{{Function: "main.resolve", Flat: 1e9, FlatPct: 50, Cum: 15e8, CumPct: 75}},
		Cum:  []runfile.ProfileFunc{{Function: "net/http.(*conn).serve", Flat: 0, Cum: 2e9, CumPct: 100}}}}
	r, err := Build(withSummary(t, acc.Report(), prof), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Layers) != 1 {
		t.Fatalf("layers %+v", r.Layers)
	}
	l := r.Layers[0]
	if l.Template != "QT3" || l.N != 4 || l.RoundTripMS != 1.5 || l.TotalMS != 1 || *l.DatabaseMS != 0.6 || l.GraphQLMS != 0.4 ||
		l.GraphQLPct != 40 || l.OverheadMS != 0.5 || l.Statements != 2 || *l.CoveredPct != 100 {
		t.Errorf("layer %+v", l)
	}
	if len(r.Profiles) != 1 || r.Profiles[0].Kind != "cpu" || r.Profiles[0].Flat[0].Function != "main.resolve" {
		t.Errorf("profiles %+v", r.Profiles)
	}
	var md, html, csv bytes.Buffer
	for f, w := range map[string]*bytes.Buffer{"md": &md, "html": &html, "csv": &csv} {
		if err := r.Write(w, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"Where a request's time went, per template", "| 1.500 | 1.000 | 0.600 | 0.400 | 40.0 % | 0.500 |", "top by flat", "main.resolve", "1000.0 ms"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report lacks %q", want)
		}
	}
	if !strings.Contains(html.String(), `id="layers-split`) || !strings.Contains(html.String(), "serialisation") {
		t.Error("the HTML report has no stacked bars of the layers")
	}
	rows := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if !strings.HasSuffix(rows[0], ",layers_overhead_ms") || !strings.HasSuffix(rows[1], ",server-timing,1.5,1,0.6,0.4,40,0.5") {
		t.Errorf("CSV:\n%s", csv.String())
	}
	if strings.Contains(md.String(), "remote calls/req") {
		t.Error("a remote column without remote calls")
	}
	// Remote custom fields: their calls get columns of their own.
	rem := layers.NewAcc([]string{"QT3"}, 0)
	rem.Add(0, 6e6, []byte("execute;dur=5.000, db;dur=1.000, remote;dur=4.000, remote-calls;count=2, total;dur=5.000"), nil)
	r, err = Build(withSummary(t, rem.Report(), nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	md.Reset()
	r.Write(&md, "md")
	if len(r.Layers) != 1 || r.Layers[0].RemoteCalls != 2 || r.Layers[0].RemoteMS != 4 || r.Layers[0].GraphQLMS != 4 ||
		!strings.Contains(md.String(), "| 2.0 | 4.000 |") {
		t.Errorf("remote: %+v", r.Layers)
	}
	// A server that emitted neither: one line, no table.
	none := layers.NewAcc([]string{"QT3"}, 0)
	none.Add(0, 1, nil, []byte(`{"data":{}}`))
	r, err = Build(withSummary(t, none.Report(), nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	md.Reset()
	r.Write(&md, "md")
	if len(r.Layers) != 0 || len(r.NoLayers) != 1 || strings.Count(md.String(), layers.NoneLine) != 1 {
		t.Errorf("no layers: %+v %v", r.Layers, r.NoLayers)
	}
}
