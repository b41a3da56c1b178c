// Package schema holds the run file's JSON Schema,
// gqlbench-run-1.schema.json (made from package runfile's line types: go
// test ./runfile -run TestSchemaFresh -update; docs/runfile.md documents
// it), and validates run files against it, for tests: every run file a
// test writes can be checked with Check or CheckFile.
//
// Only tests import this package: it brings a JSON Schema library
// (santhosh-tekuri/jsonschema) that the gqlbench binary must not carry.
// It imports nothing of gqlbench's.
package schema

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON is the schema of one line of a run file (draft 2020-12).
//
//go:embed gqlbench-run-1.schema.json
var JSON []byte

// ID is the schema's $id.
const ID = "https://github.com/gqlbench/gqlbench/runfile/schema/gqlbench-run-1.schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(ID, JSON) })

// EngineJSON is the schema of one line of an engine file (gqlbench bench
// engine's results), EngineID its $id.
//
//go:embed gqlbench-engine-1.schema.json
var EngineJSON []byte

// EngineID is the engine file schema's $id.
const EngineID = "https://github.com/gqlbench/gqlbench/runfile/schema/gqlbench-engine-1.schema.json"

var compiledEngine = sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(EngineID, EngineJSON) })

func compile(id string, schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()  // "start", "end": RFC 3339 date-times
	c.AssertContent() // the histograms: base64
	if err := c.AddResource(id, doc); err != nil {
		return nil, err
	}
	return c.Compile(id)
}

// CheckEngineFile fails the test unless the engine file at path matches
// its schema, line by line.
func CheckEngineFile(tb testing.TB, path string) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	sch, err := compiledEngine()
	if err != nil {
		tb.Fatalf("the engine file's schema: %v", err)
	}
	if err := validateWith(sch, bytes.NewReader(data)); err != nil {
		tb.Errorf("%s does not match runfile/schema/gqlbench-engine-1.schema.json: %v", path, err)
	}
}

// Validate checks every line of the run file r against the schema (blank
// lines skipped, as runfile.Read does); the error names the first line
// that fails and why.
func Validate(r io.Reader) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("the run file's schema: %w", err)
	}
	return validateWith(sch, r)
}

// validateWith checks every line of r against sch.
func validateWith(sch *jsonschema.Schema, r io.Reader) error {
	br := bufio.NewReader(r)
	lines := 0
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			inst, jerr := jsonschema.UnmarshalJSON(bytes.NewReader(line))
			if jerr != nil {
				return fmt.Errorf("line %d: %w", n, jerr)
			}
			if verr := sch.Validate(inst); verr != nil {
				return fmt.Errorf("line %d: %w", n, verr)
			}
			lines++
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	if lines == 0 {
		return errors.New("no lines")
	}
	return nil
}

// Check fails the test unless data, a whole run file, is valid.
func Check(tb testing.TB, data []byte) {
	tb.Helper()
	if err := Validate(bytes.NewReader(data)); err != nil {
		tb.Errorf("the run file does not match %s: %v", "runfile/schema/gqlbench-run-1.schema.json", err)
	}
}

// CheckFile fails the test unless the run file at path is valid.
func CheckFile(tb testing.TB, path string) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := Validate(bytes.NewReader(data)); err != nil {
		tb.Errorf("%s does not match runfile/schema/gqlbench-run-1.schema.json: %v", path, err)
	}
}
