package experiment

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/workload"
)

// writeQueries writes inst as a queries file Dir/queries/name.jsonl.
func (s *session) writeQueries(name string, inst []workload.Instance) (*queryfile.File, error) {
	entries, err := workload.Entries(inst)
	if err != nil {
		return nil, err
	}
	return s.writeEntries(name, entries)
}

// writeEntries writes entries as a queries file Dir/queries/name.jsonl and
// returns it as a run reads it: its path, its bytes and its entries.
func (s *session) writeEntries(name string, entries []queryfile.Entry) (*queryfile.File, error) {
	var b bytes.Buffer
	if err := queryfile.Write(&b, entries); err != nil {
		return nil, err
	}
	path := filepath.Join(s.Dir, "queries", name+".jsonl")
	if err := writeBytes(path, b.Bytes()); err != nil {
		return nil, fmt.Errorf("cannot write the queries: %w", err)
	}
	return &queryfile.File{Path: path, Data: b.Bytes(), Entries: entries}, nil
}

// templateEntries returns the entries of f that are instances of template
// id (their label is the template's name).
func templateEntries(f *queryfile.File, id int) []queryfile.Entry {
	var out []queryfile.Entry
	name := templateName(id)
	for _, e := range f.Entries {
		if e.Label == name {
			out = append(out, e)
		}
	}
	return out
}
