package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gqlbench/gqlbench/queryfile"
)

// MaxLineBytes is the longest line ReadJSONL accepts.
const MaxLineBytes = queryfile.MaxLineBytes

// Entries returns the instances as queries-file entries, labelled with
// their templates' names ("QT5").
func Entries(instances []Instance) ([]queryfile.Entry, error) {
	out := make([]queryfile.Entry, len(instances))
	for i, in := range instances {
		t, err := TemplateByID(in.Template)
		if err != nil {
			return nil, fmt.Errorf("instance %q: %w", in.ID, err)
		}
		vars := in.Variables
		if vars == nil {
			vars = map[string]any{}
		}
		b, err := json.Marshal(vars)
		if err != nil {
			return nil, fmt.Errorf("instance %q: %w", in.ID, err)
		}
		out[i] = queryfile.Entry{ID: in.ID, Label: t.Name, Query: in.Query, Variables: b, Expect: in.Expect, Dataset: in.Dataset}
	}
	return out, nil
}

// WriteJSONL writes instances as a queries file (package queryfile), one
// object per instance:
// {"id":"QT5-0001","template":"QT5","query":"...","variables":{...}}, plus
// "expect":"<hash>" when the instance has an Expect and
// "dataset":{"sf":..,"seed":..,"version":..} when it knows its dataset. Any tool can replay
// such a file: the query and variables are an ordinary GraphQL request body.
func WriteJSONL(w io.Writer, instances []Instance) error {
	entries, err := Entries(instances)
	if err != nil {
		return err
	}
	return queryfile.Write(w, entries)
}

// ReadJSONL reads a queries file of the benchmark's templates and validates
// every line beyond the file's shape (queryfile.Read): a known "template"
// ("QT1".."QT16"), that template's "query" (the same text, or the same
// operation laid out differently), and "variables" that are exactly the
// template's variables, accepted by GraphQL variable coercion against the
// schema and of the exact JSON types (IDs as strings or integers). Errors
// name the line. The values are normalised as Generate makes them.
func ReadJSONL(r io.Reader) ([]Instance, error) {
	entries, err := queryfile.Read(r)
	if err != nil {
		return nil, err
	}
	return FromEntries(entries)
}

// FromEntries turns queries-file entries into instances of the benchmark's
// templates, checking each as ReadJSONL does; an entry of another dialect,
// label or query is an error that names its line.
func FromEntries(entries []queryfile.Entry) ([]Instance, error) {
	out := make([]Instance, 0, len(entries))
	checked := map[[2]string]error{} // (template, query) → checkQuery's verdict
	for _, e := range entries {
		in, err := fromEntry(e, checked)
		if err != nil {
			if e.Line > 0 {
				return nil, fmt.Errorf("line %d: %w", e.Line, err)
			}
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

func fromEntry(e queryfile.Entry, checked map[[2]string]error) (Instance, error) {
	if e.Dialect != "" {
		return Instance{}, fmt.Errorf("%q: written in dialect %q, not the benchmark schema", e.ID, e.Dialect)
	}
	t, err := TemplateByID(templateNumber(e.Label))
	if err != nil {
		return Instance{}, fmt.Errorf("%q: unknown template %q: want QT1 to QT%d", e.ID, e.Label, NumTemplates)
	}
	key := [2]string{t.Name, e.Query}
	qerr, done := checked[key]
	if !done {
		qerr = t.checkQuery(e.Query)
		if len(checked) < 1000 {
			checked[key] = qerr
		}
	}
	if qerr != nil {
		return Instance{}, fmt.Errorf("%q: %w", e.ID, qerr)
	}
	vars := map[string]any{}
	if len(e.Variables) > 0 {
		vd := json.NewDecoder(bytes.NewReader(e.Variables))
		vd.UseNumber()
		if err := vd.Decode(&vars); err != nil {
			return Instance{}, fmt.Errorf(`%q: "variables" must be a JSON object: %w`, e.ID, err)
		}
	}
	norm, err := t.checkVars(vars)
	if err != nil {
		return Instance{}, fmt.Errorf("%q: %w", e.ID, err)
	}
	return Instance{ID: e.ID, Template: t.ID, Query: e.Query, Variables: norm, Expect: e.Expect, Dataset: e.Dataset}, nil
}

// templateNumber returns n for exactly "QT<n>" (as WriteJSONL writes it), else 0.
func templateNumber(s string) int {
	if len(s) < 3 || s[:2] != "QT" || s[2] == '0' {
		return 0
	}
	n := 0
	for _, c := range s[2:] {
		if c < '0' || c > '9' || n > NumTemplates {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}
