package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// engineFile is a synthetic engine file: one engine, two shapes, the
// samples' ns/op given.
func engineFile(nsPerOp map[string][]float64) *runfile.EngineFile {
	f := &runfile.EngineFile{Header: &runfile.EngineHeader{Format: runfile.EngineFormat, Tool: runfile.Tool{Name: "gqlbench", Go: "go1"},
		Machine: runfile.Machine{CPU: "cpu", Cores: 2}, Dataset: runfile.EngineDataset{Scale: 1},
		Engines: []runfile.EngineInfo{{Name: "gqlgen", Summary: "s"}}, Samples: 5, Start: time.Unix(0, 0)}}
	for _, shape := range []string{"one-object", "list-100"} {
		r := &runfile.EngineResult{Engine: "gqlgen", Shape: shape, Phase: "execute", Checked: true}
		for _, ns := range nsPerOp[shape] {
			b, a := int64(1000*ns), int64(100)
			r.Samples = append(r.Samples, runfile.EngineSample{N: 1000, NS: int64(1000 * ns), Bytes: &b, Allocs: &a})
		}
		f.Results = append(f.Results, r)
	}
	return f
}

// TestEngineCompare: a file compared with itself shows no significant
// difference; one whose list-100 is twice as slow, with the samples'
// spread unchanged, shows that one and only that one.
func TestEngineCompare(t *testing.T) {
	base := map[string][]float64{"one-object": {100, 102, 98, 101, 99}, "list-100": {5000, 5100, 4900, 5050, 4950}}
	slow := map[string][]float64{"one-object": {101, 99, 100, 102, 98}, "list-100": {10000, 10100, 9900, 10050, 9950}}
	same, err := BuildEngine([]*runfile.EngineFile{engineFile(base), engineFile(base)}, []string{"a", "b"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Deltas) != 2 || len(same.Significant()) != 0 {
		t.Errorf("identical files: %+v", same.Deltas)
	}
	diff, err := BuildEngine([]*runfile.EngineFile{engineFile(base), engineFile(slow)}, []string{"old", "new"}, "")
	if err != nil {
		t.Fatal(err)
	}
	sig := diff.Significant()
	if len(sig) != 1 || sig[0].Shape != "list-100" || sig[0].Change < 0.9 || sig[0].Change > 1.1 {
		t.Errorf("significant: %+v", sig)
	}
	for _, format := range Formats {
		var b bytes.Buffer
		if err := diff.Write(&b, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if format != "csv" && !strings.Contains(b.String(), "list-100") {
			t.Errorf("%s: no list-100", format)
		}
	}
	var md bytes.Buffer
	diff.Write(&md, "md")
	if !strings.Contains(md.String(), "+100.0 %") || !strings.Contains(md.String(), "| ~ |") {
		t.Errorf("the comparison table shows neither the change nor ~:\n%s", md.String())
	}
	var html bytes.Buffer
	diff.Write(&html, "html")
	if n := strings.Count(html.String(), "<svg"); n < 2 {
		t.Errorf("%d charts in the HTML", n)
	}
}

// TestEngineWrong: a result without samples is listed as wrong, in an
// alert and in the tables, never with a time.
func TestEngineWrong(t *testing.T) {
	f := engineFile(map[string][]float64{"one-object": {100, 101}})
	f.Results[1].Error = "shape list-100: wrong answer"
	r, err := BuildEngine([]*runfile.EngineFile{f}, []string{"e.jsonl"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Wrong(); len(w) != 1 || w[0].Shape != "list-100" {
		t.Fatalf("wrong: %+v", w)
	}
	var md bytes.Buffer
	r.Write(&md, "md")
	if !strings.Contains(md.String(), "wrong: shape list-100: wrong answer") {
		t.Errorf("the wrong result is not shown:\n%s", md.String())
	}
}

// TestMannWhitney: known values — separated samples of five give the
// smallest U and p ≈ 0.012 (normal approximation with continuity); equal
// samples give p = 1; too few values give p = 1.
func TestMannWhitney(t *testing.T) {
	u, p := MannWhitney([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10})
	if u != 0 || p < 0.01 || p > 0.015 {
		t.Errorf("separated: U %v, p %v", u, p)
	}
	if _, p := MannWhitney([]float64{1, 1, 1}, []float64{1, 1, 1}); p != 1 {
		t.Errorf("equal: p %v", p)
	}
	if _, p := MannWhitney([]float64{1}, []float64{2, 3}); p != 1 {
		t.Errorf("one value: p %v", p)
	}
	if _, p := MannWhitney([]float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}); p < 0.5 {
		t.Errorf("interleaved: p %v", p)
	}
}
