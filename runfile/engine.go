package runfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// The engine file is the run file's sibling for `gqlbench bench engine`
// (the engine in isolation: parse, validate and execute timed apart, no
// network, no database). It is JSON lines too, a format of its own, so that
// readers of run files are not affected (Read refuses its lines, naming
// them):
//
//	{"type":"engine-header",...}  what ran, where, with what (first line)
//	{"type":"engine",...}         one engine, shape and phase: its samples
//
// docs/runfile.md documents both; runfile/schema/gqlbench-engine-1.schema.json
// is their JSON Schema.

// EngineVersion is the engine file's version; EngineFormat names it.
const EngineVersion = 1

// EngineFormat is the engine header's "format".
const EngineFormat = engineFormatPrefix + "1"

const engineFormatPrefix = "gqlbench-engine/"

// Line types of an engine file.
const (
	TypeEngineHeader = "engine-header"
	TypeEngine       = "engine"
)

// EngineHeader is the first line of an engine file.
type EngineHeader struct {
	Type    string            `json:"type"`   // "engine-header"
	Format  string            `json:"format"` // EngineFormat
	Tool    Tool              `json:"tool"`
	Command []string          `json:"command"` // the full command line
	Flags   map[string]string `json:"flags"`   // every flag's effective value
	Machine Machine           `json:"machine"`
	// Dataset is the in-memory dataset the documents run over.
	Dataset EngineDataset `json:"dataset"`
	// Engines are the engines asked for, in order, with the ones that did
	// not run and why.
	Engines []EngineInfo `json:"engines"`
	// Samples is the samples per engine, shape and phase; SampleNS about
	// how long each lasts; WarmupNS the untimed warm-up before them.
	Samples  int       `json:"samples"`
	SampleNS int64     `json:"sample_ns"`
	WarmupNS int64     `json:"warmup_ns"`
	Start    time.Time `json:"start"`
}

// EngineDataset names a generated dataset.
type EngineDataset struct {
	Seed  uint64 `json:"seed"`
	Scale int    `json:"scale"`
}

// EngineInfo is one engine of an engine file.
type EngineInfo struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`           // what it is and what its phases time
	Version string `json:"version,omitempty"` // the library's version
	Skipped string `json:"skipped,omitempty"` // why it did not run, when it did not
}

// EngineResult is one engine's samples of one phase of one shape.
type EngineResult struct {
	Type   string `json:"type"`   // "engine"
	Engine string `json:"engine"` // gqlgen, compiled, graphql-js, graphql-jit
	Shape  string `json:"shape"`  // one-object, list-100, QT5, ...
	Phase  string `json:"phase"`  // parse, validate, execute, compile-miss, compile-hit
	// Samples are the timed samples, each of N operations in a row.
	Samples []EngineSample `json:"samples,omitempty"`
	// Checked says that every answer was checked against the oracle's (or,
	// for parse and validate, the document and its validity).
	Checked bool `json:"checked"`
	// Error, when set, is why the phase has no samples: a wrong answer, an
	// engine error. A wrong answer is never timed.
	Error string `json:"error,omitempty"`
}

// EngineSample is N operations timed in a row.
type EngineSample struct {
	N  int64 `json:"n"`  // operations
	NS int64 `json:"ns"` // their wall time, nanoseconds
	// Bytes and Allocs are the heap bytes and objects the N operations
	// allocated (Go engines; absent where the runtime does not count them).
	Bytes  *int64 `json:"bytes,omitempty"`
	Allocs *int64 `json:"allocs,omitempty"`
}

// NsPerOp is the sample's mean time per operation.
func (s EngineSample) NsPerOp() float64 { return float64(s.NS) / float64(max(s.N, 1)) }

// OpsPerSec is the sample's throughput.
func (s EngineSample) OpsPerSec() float64 { return 1e9 * float64(s.N) / float64(max(s.NS, 1)) }

// BytesPerOp is the heap bytes per operation; ok is false when not counted.
func (s EngineSample) BytesPerOp() (float64, bool) {
	if s.Bytes == nil {
		return 0, false
	}
	return float64(*s.Bytes) / float64(max(s.N, 1)), true
}

// AllocsPerOp is the heap objects per operation; ok is false when not counted.
func (s EngineSample) AllocsPerOp() (float64, bool) {
	if s.Allocs == nil {
		return 0, false
	}
	return float64(*s.Allocs) / float64(max(s.N, 1)), true
}

// EngineFile is an engine file read into memory.
type EngineFile struct {
	Header  *EngineHeader
	Results []*EngineResult
}

// IsEngineFile reports whether the file at path starts with an engine
// header (so that `gqlbench report` knows which reader to use).
func IsEngineFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadBytes('\n')
	var h struct {
		Type string `json:"type"`
	}
	return decodeLine(bytes.TrimSpace(line), &h) == nil && h.Type == TypeEngineHeader
}

// ReadEngine reads an engine file: an engine header first, then engine
// lines. A last line cut short is dropped; anything else malformed is an
// error that names the line.
func ReadEngine(r io.Reader) (*EngineFile, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	f := &EngineFile{}
	for n := 1; ; n++ {
		line, complete, err := readLine(br)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if line == nil {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := f.add(line); err != nil {
			if !complete && isSyntax(err) {
				break
			}
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	if f.Header == nil {
		return nil, fmt.Errorf("not an engine file: no %s line", TypeEngineHeader)
	}
	return f, nil
}

func (f *EngineFile) add(line []byte) error {
	var t struct {
		Type string `json:"type"`
	}
	if err := decodeLine(line, &t); err != nil {
		return err
	}
	switch t.Type {
	case TypeEngineHeader:
		if f.Header != nil {
			return fmt.Errorf("a second %s", TypeEngineHeader)
		}
		h := &EngineHeader{}
		if err := decodeLine(line, h); err != nil {
			return err
		}
		if err := checkEngineFormat(h.Format); err != nil {
			return err
		}
		f.Header = h
	case TypeEngine:
		if f.Header == nil {
			return fmt.Errorf("an %s line before the %s", TypeEngine, TypeEngineHeader)
		}
		r := &EngineResult{}
		if err := decodeLine(line, r); err != nil {
			return err
		}
		for _, s := range r.Samples {
			if s.N < 1 || s.NS < 0 {
				return fmt.Errorf("%s %s %s: a sample of %d operations in %d ns", r.Engine, r.Shape, r.Phase, s.N, s.NS)
			}
		}
		f.Results = append(f.Results, r)
	case TypeHeader, TypeInterval, TypeStep, TypeQuery, TypeSummary:
		return fmt.Errorf("a run file's %q line: this is read as an engine file (gqlbench bench engine's results)", t.Type)
	default:
		return fmt.Errorf("unknown line type %q", t.Type)
	}
	return nil
}

func checkEngineFormat(format string) error {
	v, ok := strings.CutPrefix(format, engineFormatPrefix)
	n, err := strconv.Atoi(v)
	switch {
	case !ok || err != nil || n < 1:
		return fmt.Errorf("format %q is not a gqlbench engine file", format)
	case n > EngineVersion:
		return fmt.Errorf("written by a newer gqlbench: %s; this build reads %s", format, EngineFormat)
	}
	return nil
}

// ReadEngineFile reads the engine file at path.
func ReadEngineFile(path string) (*EngineFile, error) { return readPath(path, ReadEngine) }

// WriteEngine writes one line of an engine file (a *EngineHeader or an
// *EngineResult, whose Type it sets) and flushes it.
func (w *Writer) WriteEngine(line any) error {
	switch v := line.(type) {
	case *EngineHeader:
		v.Type = TypeEngineHeader
		if v.Format == "" {
			v.Format = EngineFormat
		}
	case *EngineResult:
		v.Type = TypeEngine
	default:
		return fmt.Errorf("runfile: %T is not a line of an engine file", line)
	}
	return w.Write(line)
}
