package workload

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes is the longest line ReadJSONL accepts.
const MaxLineBytes = 1 << 20

// jsonInstance is one line of a queries file.
type jsonInstance struct {
	ID        string         `json:"id"`
	Template  string         `json:"template"` // "QT5"
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
	Expect    string         `json:"expect,omitempty"`
	Dataset   *DatasetRef    `json:"dataset,omitempty"`
}

// WriteJSONL writes instances as JSON lines, one object per instance:
// {"id":"QT5-0001","template":"QT5","query":"...","variables":{...}}, plus
// "expect":"<hash>" when the instance has an Expect and
// "dataset":{"sf":..,"seed":..,"version":..} when it knows its dataset. Any tool can replay
// such a file: the query and variables are an ordinary GraphQL request body.
func WriteJSONL(w io.Writer, instances []Instance) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, in := range instances {
		t, err := TemplateByID(in.Template)
		if err != nil {
			return fmt.Errorf("instance %q: %w", in.ID, err)
		}
		vars := in.Variables
		if vars == nil {
			vars = map[string]any{}
		}
		if err := enc.Encode(jsonInstance{ID: in.ID, Template: t.Name, Query: in.Query, Variables: vars, Expect: in.Expect, Dataset: in.Dataset}); err != nil {
			return fmt.Errorf("instance %q: %w", in.ID, err)
		}
	}
	return bw.Flush()
}

// ReadJSONL reads a queries file written by WriteJSONL (or by any tool that
// writes the same objects) and validates every line: it is one JSON object
// with a non-empty, unique "id", a known "template" ("QT1".."QT16"), that
// template's "query" (the same text, or the same operation laid out
// differently), and "variables" that are exactly the template's variables,
// accepted by GraphQL variable coercion against the schema and of the exact
// JSON types (IDs as strings or integers), and an optional "expect": the
// hash of the right answer (64 lowercase hex digits, see Instance.Expect).
// Blank lines are skipped; other fields are ignored. Errors name the line. The values are normalised as
// Generate makes them.
func ReadJSONL(r io.Reader) ([]Instance, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	var out []Instance
	seen := map[string]int{}
	checked := map[[2]string]error{} // (template, query) → checkQuery's verdict
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		in, err := readLine(b, checked)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if prev, dup := seen[in.ID]; dup {
			return nil, fmt.Errorf("line %d: id %q is already used on line %d", line, in.ID, prev)
		}
		seen[in.ID] = line
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes", line+1, MaxLineBytes)
		}
		return nil, err
	}
	return out, nil
}

func readLine(b []byte, checked map[[2]string]error) (Instance, error) {
	var raw struct {
		ID        *string         `json:"id"`
		Template  *string         `json:"template"`
		Query     *string         `json:"query"`
		Variables json.RawMessage `json:"variables"`
		Expect    *string         `json:"expect"`
		Dataset   *DatasetRef     `json:"dataset"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil {
		return Instance{}, fmt.Errorf("not a JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Instance{}, fmt.Errorf("more than one JSON value on the line")
	}
	switch {
	case raw.ID == nil || *raw.ID == "":
		return Instance{}, fmt.Errorf(`missing "id"`)
	case raw.Template == nil:
		return Instance{}, fmt.Errorf(`%q: missing "template"`, *raw.ID)
	case raw.Query == nil:
		return Instance{}, fmt.Errorf(`%q: missing "query"`, *raw.ID)
	}
	t, err := TemplateByID(templateNumber(*raw.Template))
	if err != nil {
		return Instance{}, fmt.Errorf("%q: unknown template %q: want QT1 to QT%d", *raw.ID, *raw.Template, NumTemplates)
	}
	key := [2]string{t.Name, *raw.Query}
	qerr, done := checked[key]
	if !done {
		qerr = t.checkQuery(*raw.Query)
		if len(checked) < 1000 {
			checked[key] = qerr
		}
	}
	if qerr != nil {
		return Instance{}, fmt.Errorf("%q: %w", *raw.ID, qerr)
	}
	vars := map[string]any{}
	if len(raw.Variables) > 0 && string(raw.Variables) != "null" {
		vd := json.NewDecoder(bytes.NewReader(raw.Variables))
		vd.UseNumber()
		if err := vd.Decode(&vars); err != nil {
			return Instance{}, fmt.Errorf(`%q: "variables" must be a JSON object: %w`, *raw.ID, err)
		}
	}
	norm, err := t.checkVars(vars)
	if err != nil {
		return Instance{}, fmt.Errorf("%q: %w", *raw.ID, err)
	}
	in := Instance{ID: *raw.ID, Template: t.ID, Query: *raw.Query, Variables: norm, Dataset: raw.Dataset}
	if raw.Expect != nil {
		if !isHash(*raw.Expect) {
			return Instance{}, fmt.Errorf(`%q: "expect" must be a SHA-256 hash in 64 lowercase hex digits, got %.80q`, *raw.ID, *raw.Expect)
		}
		in.Expect = *raw.Expect
	}
	return in, nil
}

// isHash reports whether s is a hex SHA-256, as verify.Hash writes it.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
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
