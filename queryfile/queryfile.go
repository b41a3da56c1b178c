// Package queryfile reads and writes queries files: the JSON lines a load
// generator replays. A queries file is a format of its own, not the template
// registry: an entry is one request — a GraphQL operation and its variables,
// in whatever schema or dialect the target speaks — with an id, a label that
// results are grouped by, and optionally the hash of the right answer, so
// any server's queries (the benchmark's 16 templates, a PostGraphile
// rewrite, a user's own operations) are replayed and verified the same way.
//
// One line is one JSON object:
//
//		{"id":"QT5-0001","template":"QT5","query":"query QT5($departmentID: ID!) {…}",
//		 "variables":{"departmentID":"12"},"expect":"<64 hex digits>",
//		 "dataset":{"sf":1,"seed":0,"version":1}}
//
//	  - id: non-empty, unique within the file.
//	  - template: the label results are grouped by (QT1..QT16 for the
//	    benchmark's templates, an operation's name for a user's own).
//	  - query: the GraphQL document sent as is; operationName picks one of
//	    several operations in it.
//	  - variables: a JSON object (or null, or absent: none).
//	  - expect: the hash of the right answer's data (verify.Hash: hex
//	    SHA-256 of its canonical JSON); absent when unknown.
//	  - dialect: the schema the query is written in; absent for the
//	    benchmark schema (LinGBM's Scenario 1).
//	  - dataset: the dataset the expected answers are right for.
//	  - plan: the same task as a REST client makes it (Plan): the calls,
//	    in order of dependence, and how their answers assemble into the
//	    GraphQL form's data, so that one expect hash checks both. An entry
//	    with a plan may leave out "query": it is a REST task only.
//	  - steps: the GraphQL form as several requests, in place of "query",
//	    for a task one request cannot do (a write whose id, chosen by the
//	    server, the next write needs): a Plan whose calls are GraphQL calls.
//
// Other fields are ignored, so other tools may add their own. The package
// checks the shape of every line, not the GraphQL inside it: that is for
// the packages that know a schema (workload) and for the server itself.
// It imports the standard library only, so the load generator can read
// queries files without linking a GraphQL parser.
package queryfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// MaxLineBytes is the longest line Read accepts.
const MaxLineBytes = 1 << 20

// Entry is one request of a queries file.
type Entry struct {
	ID            string          // unique within a file
	Label         string          // what results are grouped by: "QT5", an operation's name
	Query         string          // the GraphQL document
	OperationName string          // the operation to run when Query holds several; "" when one
	Variables     json.RawMessage // a compact, non-empty JSON object, or nil for none
	Expect        string          // the answer's hash (64 lowercase hex digits), "" when unknown
	Dialect       string          // the schema Query is written in; "" for the benchmark schema
	Dataset       *DatasetRef     // the dataset Expect is right for, or nil
	Unordered     bool            // the answer's lists are compared as multisets
	Answer        json.RawMessage // the right answer's data, canonical JSON, or nil
	Plan          Plan            // the task as REST calls, or nil; Query may then be ""
	GraphQLPlan   Plan            // the task as several GraphQL calls (a write whose id the next needs), or nil; not with Query
	Line          int             // the line it was read from (1-based), 0 when not read
}

// DatasetRef names a generated dataset: its scale factor, seed and
// generator version.
type DatasetRef struct {
	SF      int    `json:"sf"`
	Seed    uint64 `json:"seed"`
	Version int    `json:"version"`
}

// line is an entry as written.
type line struct {
	ID            string          `json:"id"`
	Label         string          `json:"template"`
	Query         string          `json:"query,omitempty"`
	OperationName string          `json:"operationName,omitempty"`
	Variables     json.RawMessage `json:"variables"`
	Expect        string          `json:"expect,omitempty"`
	Dialect       string          `json:"dialect,omitempty"`
	Dataset       *DatasetRef     `json:"dataset,omitempty"`
	Unordered     bool            `json:"unordered,omitempty"`
	Answer        json.RawMessage `json:"answer,omitempty"`
	Plan          Plan            `json:"plan,omitempty"`
	GraphQLPlan   Plan            `json:"steps,omitempty"`
}

// Write writes entries as JSON lines, in the field order of the package
// documentation; an entry without variables is written with "variables":{}
// so that every line is an ordinary GraphQL request body.
func Write(w io.Writer, entries []Entry) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		vars := e.Variables
		if len(vars) == 0 || string(vars) == "null" {
			vars = json.RawMessage("{}")
		}
		l := line{ID: e.ID, Label: e.Label, Query: e.Query, OperationName: e.OperationName, Variables: vars,
			Expect: e.Expect, Dialect: e.Dialect, Dataset: e.Dataset, Unordered: e.Unordered, Answer: e.Answer, Plan: e.Plan, GraphQLPlan: e.GraphQLPlan}
		if err := enc.Encode(l); err != nil {
			return fmt.Errorf("entry %q: %w", e.ID, err)
		}
	}
	return bw.Flush()
}

// Read reads a queries file and checks every line's shape: one JSON object
// with a non-empty, unique "id", a non-empty "template", a non-empty
// "query" or a "plan" (or both), "variables" that are a JSON object (or
// null or absent), an optional "expect" hash, and a plan that passes
// Plan.Check with the entry's variables. Blank lines are skipped. Errors name the line.
func Read(r io.Reader) ([]Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	var rd reader
	for sc.Scan() {
		if err := rd.line(sc.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes", rd.n+1, MaxLineBytes)
		}
		return nil, err
	}
	return rd.out, nil
}

// readData is Read of a file's bytes, read whole: the lines split in
// place, the entries counted first (the load generator's start).
func readData(data []byte) ([]Entry, error) {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	// the entries' strings and values are data's bytes: the file is read
	// whole and kept (File.Data), never changed
	rd := reader{out: make([]Entry, 0, lines), seen: newIDSet(lines), alias: true}
	for len(data) > 0 {
		b := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			b, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(b) >= MaxLineBytes { // as bufio.Scanner's limit in Read
			return nil, fmt.Errorf("line %d: longer than %d bytes", rd.n+1, MaxLineBytes)
		}
		if err := rd.line(b); err != nil {
			return nil, err
		}
	}
	return rd.out, nil
}

// reader is Read's state: the entries so far, the line number, the ids
// seen.
type reader struct {
	out  []Entry
	n    int
	seen idSet
	raw  rawLine // the line being read (one for all: it escapes to the heap; fastLine reuses the line before's strings)
	strs map[string]string
	// alias: the lines are a file's bytes read whole, which never change:
	// the entries' strings and raw values may be those bytes (fastLine)
	alias bool
}

// line reads the next line (a blank one is skipped).
func (rd *reader) line(b []byte) error {
	rd.n++
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if rd.strs == nil {
		rd.strs = map[string]string{}
	}
	// read in place: an Entry is some 230 bytes, not copied again
	n := len(rd.out)
	rd.out = append(rd.out, Entry{})
	e := &rd.out[n]
	if err := readLine(b, &rd.raw, rd.strs, rd.alias, e); err != nil {
		rd.out = rd.out[:n]
		return fmt.Errorf("line %d: %w", rd.n, err)
	}
	if prev, dup := rd.seen.add(rd.out, n); dup {
		rd.out = rd.out[:n]
		return fmt.Errorf("line %d: id %q is already used on line %d", rd.n, e.ID, rd.out[prev].Line)
	}
	e.Line = rd.n
	return nil
}

// rawLine is a line as read, before its shape is checked. A member that
// is absent, null or "" reads the same, except "expect": absent or null
// is no hash, "" a hash that is refused.
type rawLine struct {
	ID            string          `json:"id"`
	Label         string          `json:"template"`
	Query         string          `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Expect        *string         `json:"expect"`
	Dialect       string          `json:"dialect"`
	Dataset       *DatasetRef     `json:"dataset"`
	Unordered     bool            `json:"unordered"`
	Answer        json.RawMessage `json:"answer"`
	Plan          json.RawMessage `json:"plan"`
	Steps         json.RawMessage `json:"steps"`
	expect        string          // what Expect points to, read by fastLine
}

// readLine reads one non-blank line into e (a zero Entry) and checks its
// shape (see Read); strs, if not nil, shares the strings repeated from
// line to line.
func readLine(b []byte, raw *rawLine, strs map[string]string, alias bool, e *Entry) error {
	if !fastLine(b, raw, strs, alias) {
		*raw = rawLine{}
		if err := json.Unmarshal(b, raw); err != nil {
			return lineError(b)
		}
	}
	switch {
	case raw.ID == "":
		return fmt.Errorf(`missing "id"`)
	case raw.Label == "":
		return fmt.Errorf(`%q: missing "template" (the label results are grouped by, e.g. QT5 or an operation's name)`, raw.ID)
	case raw.Query == "" && len(raw.Plan) == 0 && len(raw.Steps) == 0:
		return fmt.Errorf(`%q: missing "query" (or GraphQL "steps", or a REST "plan")`, raw.ID)
	}
	e.ID, e.Label, e.Dataset, e.Query, e.OperationName = raw.ID, raw.Label, raw.Dataset, raw.Query, raw.OperationName
	e.Dialect, e.Unordered = raw.Dialect, raw.Unordered
	if err := e.readBody(raw); err != nil {
		return fmt.Errorf("%q: %w", e.ID, err)
	}
	if e.Query == "" && e.Plan == nil && e.GraphQLPlan == nil {
		return fmt.Errorf(`%q: missing "query" (or GraphQL "steps", or a REST "plan")`, raw.ID)
	}
	if raw.Expect != nil {
		if !IsHash(*raw.Expect) {
			return fmt.Errorf(`%q: "expect" must be a SHA-256 hash in 64 lowercase hex digits, got %.80q`, raw.ID, *raw.Expect)
		}
		e.Expect = *raw.Expect
	}
	return nil
}

// lineError says why a line json.Unmarshal refused is no entry: not a
// JSON object (as encoding/json's decoder explains), or more than one
// JSON value. Only bad lines come here: a good one is read in one pass.
func lineError(b []byte) error {
	var raw rawLine
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("more than one JSON value on the line")
	}
	return fmt.Errorf("not a JSON object")
}

// readBody reads raw's answer, variables, plan and steps into e, each
// checked: the plan and the steps against the variables.
func (e *Entry) readBody(raw *rawLine) error {
	if a := bytes.TrimSpace(raw.Answer); len(a) > 0 && string(a) != "null" {
		var b bytes.Buffer
		if err := json.Compact(&b, a); err != nil {
			return fmt.Errorf(`"answer": %w`, err)
		}
		e.Answer = b.Bytes()
	}
	vars, err := object(raw.Variables)
	if err != nil {
		return fmt.Errorf(`"variables" must be a JSON object: %w`, err)
	}
	e.Variables = vars
	if p := bytes.TrimSpace(raw.Plan); len(p) > 0 && string(p) != "null" {
		var plan Plan // (not e's field: e would escape, and every line cost an allocation)
		if err := json.Unmarshal(p, &plan); err != nil {
			return fmt.Errorf(`"plan": %w`, err)
		}
		e.Plan = plan
		if err := e.Plan.Check(vars); err != nil {
			return fmt.Errorf(`"plan": %w`, err)
		}
	}
	if p := bytes.TrimSpace(raw.Steps); len(p) > 0 && string(p) != "null" {
		if e.Query != "" {
			return fmt.Errorf(`"query" and "steps" are two GraphQL forms of the task: give one`)
		}
		var plan Plan
		if err := json.Unmarshal(p, &plan); err != nil {
			return fmt.Errorf(`"steps": %w`, err)
		}
		e.GraphQLPlan = plan
		if err := e.GraphQLPlan.CheckGraphQL(vars); err != nil {
			return fmt.Errorf(`"steps": %w`, err)
		}
	}
	return nil
}

// object returns raw compacted when it is a JSON object with members, nil
// when it is empty, null or absent: no variables.
func object(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("got %.40s", raw)
	}
	if !hasSpace(raw) { // compact already (a whole line's value: valid JSON)
		if len(raw) == 2 {
			return nil, nil
		}
		return raw, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	if b.Len() == 2 { // {}
		return nil, nil
	}
	return b.Bytes(), nil
}

// hasSpace says whether b holds JSON white space (bytes.IndexAny, without
// making its set of bytes each time).
func hasSpace(b []byte) bool {
	for _, c := range b {
		if c <= ' ' && (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			return true
		}
	}
	return false
}

// IsHash reports whether s is a hex SHA-256 as verify.Hash writes it: 64
// lowercase hex digits.
func IsHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i += 8 { // eight digits at a time
		if !lowerHex8(binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))) {
			return false
		}
	}
	return true
}

// lowerHex8 says whether each of the eight bytes of x is a lowercase hex
// digit: ASCII, and in '0'..'9' or 'a'..'f'. A byte b < 0x80 plus 0x80-c
// carries into its top bit exactly when b >= c, and into no other byte.
func lowerHex8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if x&highs != 0 {
		return false
	}
	ge := func(c uint64) uint64 { return x + (0x80-c)*ones }
	digit := ge('0') &^ ge('9'+1)
	letter := ge('a') &^ ge('f'+1)
	return (digit|letter)&highs == highs
}

// Body returns the entry as a GraphQL-over-HTTP POST body:
// {"query":…,"operationName":…,"variables":{…}}, operationName only when set
// and variables {} when there are none — as encoding/json writes it.
func (e *Entry) Body() ([]byte, error) {
	vars := e.Variables
	if len(vars) == 0 {
		vars = json.RawMessage("{}")
	}
	return json.Marshal(struct {
		Query         string          `json:"query"`
		OperationName string          `json:"operationName,omitempty"`
		Variables     json.RawMessage `json:"variables"`
	}{e.Query, e.OperationName, vars})
}

// Bodies returns every entry's Body, byte for byte, made at the cost of
// a copy: each distinct query text and operation name is encoded once (a
// file's entries share a few queries and differ in their variables), and
// the bodies share one array, sized in a first pass and filled in a
// second.
func Bodies(entries []Entry) ([][]byte, error) {
	out := make([][]byte, len(entries))
	if err := EachBody(entries, func(i int, b []byte) { out[i] = b }); err != nil {
		return nil, err
	}
	return out, nil
}

// EachBody is Bodies giving each entry's body to f, with its index, in
// order, for a caller that keeps them in a structure of its own. f is
// called only once every entry's body is known to be right: when one is
// not (an error), never.
func EachBody(entries []Entry, f func(i int, body []byte)) error {
	var queries, ops strEncoder
	// the variables encoding/json would write otherwise than as they are
	// (rare: not compact, or with characters it escapes), by entry
	var redone map[int][]byte
	size := 0
	for i := range entries {
		e := &entries[i]
		q, err := queries.encode(e.Query)
		if err != nil {
			return fmt.Errorf("entry %q: %w", e.ID, err)
		}
		size += len(`{"query":,"variables":}`) + len(q)
		if e.OperationName != "" {
			op, err := ops.encode(e.OperationName)
			if err != nil {
				return fmt.Errorf("entry %q: %w", e.ID, err)
			}
			size += len(`,"operationName":`) + len(op)
		}
		vars, err := bodyVariables(e.Variables)
		if err != nil {
			return fmt.Errorf("entry %q: %w", e.ID, err)
		}
		if len(vars) > 0 && len(e.Variables) > 0 && &vars[0] != &e.Variables[0] {
			if redone == nil {
				redone = map[int][]byte{}
			}
			redone[i] = vars
		}
		size += len(vars)
	}
	all := make([]byte, 0, size)
	for i := range entries {
		e := &entries[i]
		from := len(all)
		q, _ := queries.encode(e.Query) // (encoded in the first pass)
		all = append(append(all, `{"query":`...), q...)
		if e.OperationName != "" {
			op, _ := ops.encode(e.OperationName)
			all = append(append(all, `,"operationName":`...), op...)
		}
		vars, ok := redone[i]
		switch {
		case ok:
		case len(e.Variables) == 0:
			vars = []byte("{}")
		default:
			vars = e.Variables
		}
		all = append(append(append(all, `,"variables":`...), vars...), '}')
		f(i, all[from:len(all):len(all)])
	}
	return nil
}

// strEncoder encodes strings as encoding/json does, each distinct one
// once: the last one's encoding is at hand without a look-up (a file's
// entries mostly repeat the query of the one before).
type strEncoder struct {
	last    string
	lastEnc []byte
	enc     map[string][]byte
}

func (c *strEncoder) encode(s string) ([]byte, error) {
	if c.lastEnc != nil && s == c.last {
		return c.lastEnc, nil
	}
	b, ok := c.enc[s]
	if !ok {
		var err error
		if b, err = json.Marshal(s); err != nil {
			return nil, err
		}
		if c.enc == nil {
			c.enc = map[string][]byte{}
		}
		c.enc[s] = b
	}
	c.last, c.lastEnc = s, b
	return b, nil
}

// bodyVariables is a body's variables as encoding/json writes a
// json.RawMessage: {} for none, and compact (as they are read) with <, >,
// & and U+2028/U+2029 escaped — vars itself when that is what it is.
func bodyVariables(vars json.RawMessage) ([]byte, error) {
	if len(vars) == 0 {
		return []byte("{}"), nil
	}
	if plainJSON(vars) { // one pass, for the plain variables of generated files
		return vars, nil
	}
	if bytes.ContainsAny(vars, "<>&\u2028\u2029") || bytes.IndexAny(vars, " \t\r\n") >= 0 || !json.Valid(vars) {
		return json.Marshal(vars)
	}
	return vars, nil
}

// Labels returns the entries' distinct labels in order of first appearance.
func Labels(entries []Entry) []string {
	var out []string
	seen := map[string]bool{}
	for i := range entries {
		l := entries[i].Label
		if i > 0 && l == entries[i-1].Label { // the entry before's: no look-up
			continue
		}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// File is a queries file read whole: where it came from, its bytes (whose
// hash a run file records) and its entries.
type File struct {
	Path    string
	Data    []byte
	Entries []Entry
}

// ReadFile reads and checks the queries file at path ("-" is not special:
// the caller opens standard input and calls Read).
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the queries file: %w", err)
	}
	entries, err := readData(data)
	if err != nil {
		return nil, fmt.Errorf("queries file %s: %w", path, err)
	}
	return &File{Path: path, Data: data, Entries: entries}, nil
}
