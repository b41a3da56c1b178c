package operation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/gqlbench/gqlbench/queryfile"
)

// BenchConfig is what gqlbench takes from a hasura/graphql-bench query
// configuration: the endpoint, the headers, and one entry per query.
type BenchConfig struct {
	URL     string
	Headers []Header          // sorted by name
	Entries []queryfile.Entry // one per query, in the file's order
	Notes   []string          // the settings left out, and gqlbench's equivalents
}

// Header is one HTTP request header.
type Header struct{ Name, Value string }

// benchEquivalents says, for each graphql-bench setting gqlbench does not
// take from the file, what gqlbench load does instead.
var benchEquivalents = map[string]string{
	"tools":                  "gqlbench load generates the load itself",
	"execution_strategy":     "the load's --mode: open for REQUESTS_PER_SECOND, closed for MAX_REQUESTS_IN_DURATION, ramp or capacity for MULTI_STAGE",
	"rps":                    "gqlbench load --mode open --rate R",
	"duration":               "gqlbench load --duration D",
	"connections":            "gqlbench load --connections N (--mode open), --clients N (--mode closed)",
	"requests":               "gqlbench load runs for a --duration, not a number of requests",
	"initial_rps":            "gqlbench load --mode ramp or --mode capacity --rate R",
	"stages":                 "gqlbench load --mode ramp or --mode capacity",
	"options":                "no equivalent (a tool's own options)",
	"debug":                  "gqlbench load --records FILE writes every request",
	"extended_hasura_checks": "no equivalent",
}

// ImportGraphQLBench reads a hasura/graphql-bench query configuration
// (YAML: url, headers, queries: [{name, query, variables, ...}]) into
// entries: one per query, labelled and identified by its name (id
// <name>-0001), with its variables as given. Every query is parsed and its
// variables checked as Parse and Bind check a .graphql file's; the names
// must be unique. Other settings are left out with a note each.
func ImportGraphQLBench(data []byte, file string) (*BenchConfig, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var raw struct {
		URL     *string                      `json:"url"`
		Headers map[string]json.RawMessage   `json:"headers"`
		Queries []map[string]json.RawMessage `json:"queries"`
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("%s: not a graphql-bench configuration (a YAML mapping with url, headers, queries)", file)
	}
	if err := json.Unmarshal(js, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a graphql-bench configuration: %v", file, err)
	}
	if raw.URL == nil || *raw.URL == "" {
		return nil, fmt.Errorf("%s: no url (the GraphQL endpoint)", file)
	}
	if len(raw.Queries) == 0 {
		return nil, fmt.Errorf("%s: no queries", file)
	}
	cfg := &BenchConfig{URL: *raw.URL}
	if cfg.Headers, err = benchHeaders(raw.Headers, file); err != nil {
		return nil, err
	}
	ignored := map[string]int{}
	for k := range top {
		if k != "url" && k != "headers" && k != "queries" && k != "constants" { // constants: a home for YAML anchors
			ignored[k]++
		}
	}
	seen := map[string]bool{}
	for i, q := range raw.Queries {
		e, err := benchEntry(q, i, file)
		if err != nil {
			return nil, err
		}
		if seen[e.Label] {
			return nil, fmt.Errorf("%s: queries[%d]: the name %s is used twice", file, i, e.Label)
		}
		seen[e.Label] = true
		cfg.Entries = append(cfg.Entries, e)
		for k := range q {
			if k != "name" && k != "query" && k != "variables" {
				ignored[k]++
			}
		}
	}
	cfg.Notes = benchNotes(ignored)
	return cfg, nil
}

// benchEntry makes the entry of queries[i].
func benchEntry(q map[string]json.RawMessage, i int, file string) (queryfile.Entry, error) {
	var name, query string
	if json.Unmarshal(q["name"], &name) != nil || name == "" {
		return queryfile.Entry{}, fmt.Errorf("%s: queries[%d]: no name", file, i)
	}
	if json.Unmarshal(q["query"], &query) != nil || strings.TrimSpace(query) == "" {
		return queryfile.Entry{}, fmt.Errorf("%s: queries[%d] (%s): no query", file, i, name)
	}
	where := fmt.Sprintf("%s: query %s", file, name)
	set, err := Parse(Source{Name: where, Text: query})
	if err != nil {
		return queryfile.Entry{}, err
	}
	if len(set.Ops) != 1 {
		return queryfile.Entry{}, fmt.Errorf("%s: holds %d operations; graphql-bench sends no operation name, so it must hold one", where, len(set.Ops))
	}
	op := set.Ops[0]
	row := &Row{N: i + 1, Line: 0, Op: op.Name}
	if v := bytes.TrimSpace(q["variables"]); len(v) > 0 && string(v) != "null" {
		values, err := decodeObject(v)
		if err != nil {
			return queryfile.Entry{}, fmt.Errorf("%s: variables: %w", where, err)
		}
		row.Values = values
	}
	vars, err := Bind(op, row, &Vars{File: where}, nil)
	if err != nil {
		return queryfile.Entry{}, err
	}
	e := queryfile.Entry{ID: name + "-0001", Label: name, Query: strings.TrimSpace(query), Unordered: op.Unordered}
	if len(vars) > 0 {
		if e.Variables, err = marshal(vars); err != nil {
			return queryfile.Entry{}, err
		}
	}
	return e, nil
}

// benchHeaders reads the headers mapping: names and scalar values.
func benchHeaders(raw map[string]json.RawMessage, file string) ([]Header, error) {
	var hs []Header
	for name, v := range raw {
		if !headerNameOK(name) {
			return nil, fmt.Errorf("%s: headers: %q is not a header name", file, name)
		}
		var value string
		if err := json.Unmarshal(v, &value); err != nil {
			var scalar any // a number or a boolean, as YAML writes them unquoted
			if json.Unmarshal(v, &scalar) != nil || scalar == nil {
				return nil, fmt.Errorf("%s: headers: the value of %s is not text", file, name)
			}
			switch scalar.(type) {
			case map[string]any, []any:
				return nil, fmt.Errorf("%s: headers: the value of %s is not text", file, name)
			}
			value = strings.TrimSpace(string(v))
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, fmt.Errorf("%s: headers: the value of %s holds a line break", file, name)
		}
		hs = append(hs, Header{Name: name, Value: value})
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	return hs, nil
}

// headerNameOK reports whether name is an HTTP field name (a token).
func headerNameOK(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// benchNotes writes one note per setting left out, sorted.
func benchNotes(ignored map[string]int) []string {
	keys := make([]string, 0, len(ignored))
	for k := range ignored {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var notes []string
	for _, k := range keys {
		eq, ok := benchEquivalents[k]
		if !ok {
			eq = "not a setting gqlbench knows"
		}
		notes = append(notes, fmt.Sprintf("graphql-bench's %s is left out: %s", k, eq))
	}
	return notes
}
