package runfile

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// engineSchemaPath is the engine file's JSON Schema, relative to this
// package, and engineSchemaID its $id.
const (
	engineSchemaPath = "schema/gqlbench-engine-1.schema.json"
	engineSchemaID   = "https://github.com/gqlbench/gqlbench/runfile/schema/gqlbench-engine-1.schema.json"
)

var engineKinds = []struct {
	name string
	v    any
}{{TypeEngineHeader, EngineHeader{}}, {TypeEngine, EngineResult{}}}

func engineSchema() ([]byte, error) {
	return schemaFor(engineKinds, engineSchemaID, "One line of a gqlbench engine file ("+EngineFormat+")",
		"An engine file (gqlbench bench engine) is JSON lines, one object a line, its kind named by \"type\": an engine-header first, then one engine line per engine, shape and phase. docs/runfile.md documents every field. Fields not listed are allowed: a newer gqlbench's optional fields, which readers ignore. Generated from package runfile's line types (go test ./runfile -run TestEngineSchemaFresh -update).")
}

// TestEngineSchemaFresh: the checked-in JSON Schema of engine files is the
// one the line types make; -update rewrites it. docs/runfile.md names each
// of its fields.
func TestEngineSchemaFresh(t *testing.T) {
	want, err := engineSchema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(engineSchemaPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(engineSchemaPath)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the line types make (go test ./runfile -run TestEngineSchemaFresh -update rewrites it)", engineSchemaPath)
	}
	doc, err := os.ReadFile("../docs/runfile.md")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(want, &s); err != nil {
		t.Fatal(err)
	}
	for _, def := range []string{"EngineHeader", "EngineResult", "EngineSample", "EngineInfo", "EngineDataset"} {
		for name := range s.Defs[def].Properties {
			if !bytes.Contains(doc, []byte("`"+name+"`")) {
				t.Errorf("docs/runfile.md does not name %s's field `%s`", def, name)
			}
		}
	}
}

func engineFile(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	n, a := int64(4096), int64(12)
	lines := []any{
		&EngineHeader{Tool: Tool{Name: "gqlbench", Version: "x", Go: "go1"}, Command: []string{"gqlbench", "bench", "engine"},
			Flags: map[string]string{"quick": "true"}, Machine: ThisMachine(), Dataset: EngineDataset{Scale: 1},
			Engines: []EngineInfo{{Name: "gqlgen", Summary: "s"}, {Name: "graphql-js", Summary: "s", Skipped: "no npm"}},
			Samples: 2, SampleNS: 1e6, WarmupNS: 1e6, Start: time.Unix(0, 0).UTC()},
		&EngineResult{Engine: "gqlgen", Shape: "one-object", Phase: "parse", Checked: true,
			Samples: []EngineSample{{N: 10, NS: 20000, Bytes: &n, Allocs: &a}, {N: 12, NS: 24000, Bytes: &n, Allocs: &a}}},
		&EngineResult{Engine: "gqlgen", Shape: "QT1", Phase: "execute", Error: "wrong answer"},
	}
	for _, l := range lines {
		if err := w.WriteEngine(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteEngine(&Header{}); err == nil {
		t.Error("WriteEngine wrote a run file's header")
	}
	return b.Bytes()
}

// TestEngineFile: an engine file reads back as written (ns/op and the
// rest derived from the samples); a line cut short at the end is dropped;
// run files' readers refuse it and it refuses a run file's lines and a
// newer version, each saying so.
func TestEngineFile(t *testing.T) {
	raw := engineFile(t)
	f, err := ReadEngine(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Format != EngineFormat || len(f.Results) != 2 || f.Header.Engines[1].Skipped != "no npm" {
		t.Fatalf("%+v", f)
	}
	s := f.Results[0].Samples[1]
	if s.NsPerOp() != 2000 || s.OpsPerSec() != 500000 {
		t.Errorf("ns/op %v, ops/s %v", s.NsPerOp(), s.OpsPerSec())
	}
	if b, ok := s.BytesPerOp(); !ok || b != 4096.0/12 {
		t.Errorf("B/op %v %v", b, ok)
	}
	if _, ok := f.Results[1].Samples, f.Results[1].Error != ""; !ok {
		t.Error("the wrong result lost its error")
	}
	cut := raw[:len(raw)-20]
	if g, err := ReadEngine(bytes.NewReader(cut)); err != nil || len(g.Results) != 1 {
		t.Errorf("cut short: %v, %+v", err, g)
	}
	if _, err := Read(bytes.NewReader(raw)); err == nil || !strings.Contains(err.Error(), "engine-header") {
		t.Errorf("run file reader on an engine file: %v", err)
	}
	newer := bytes.Replace(raw, []byte(EngineFormat), []byte("gqlbench-engine/2"), 1)
	if _, err := ReadEngine(bytes.NewReader(newer)); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("a newer format: %v", err)
	}
	run := []byte(`{"type":"header","format":"gqlbench-run/1"}` + "\n")
	if _, err := ReadEngine(bytes.NewReader(run)); err == nil || !strings.Contains(err.Error(), "run file") {
		t.Errorf("a run file: %v", err)
	}
	bad := bytes.Replace(raw, []byte(`"n":10,`), []byte(`"n":0,`), 1)
	if _, err := ReadEngine(bytes.NewReader(bad)); err == nil {
		t.Error("a sample of 0 operations was accepted")
	}
}
