package interop

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// Workload is what an export runs: the requests, in the queries file's
// order (each virtual user takes the next one, as gqlbench load's clients
// cycle through the file), how the load is shaped, where it goes and with
// which headers.
type Workload struct {
	Items   []Item
	Shape   Shape
	Target  string   // the GraphQL endpoint's URL when none is given at run time
	Headers []Header // sent with every request
	Source  string   // the queries file's path, for the exported file's comment
	// Ignore are the member paths left out of every answer (gqlbench load
	// --ignore-path); the items' hashes are of their answers without them.
	Ignore []verify.Path
}

// Item is one request: its label (the template results are grouped by),
// its GraphQL-over-HTTP POST body, and the answer check.
type Item struct {
	ID        string
	Label     string
	Body      string // {"query":…,"operationName":…,"variables":{…}}
	Expect    string // the hash of the right answer's data; "" checks status and errors only
	Unordered bool   // lists are compared as multisets
}

// Shape is the load's shape: a closed loop of Users (added over RampUp,
// each thinking up to Think between an answer and its next request) for
// Duration, or, when Rate is set, an arrival rate of Rate requests per
// second for Duration with at most Users requests in flight.
type Shape struct {
	Users    int
	RampUp   time.Duration
	Duration time.Duration
	Think    time.Duration
	Rate     float64
}

// Open reports whether the shape is an arrival rate.
func (s Shape) Open() bool { return s.Rate > 0 }

// Check validates the shape.
func (s Shape) Check() error {
	switch {
	case s.Users < 1:
		return errors.New("users must be at least 1")
	case s.Duration < time.Second:
		return errors.New("the duration must be at least 1s")
	case s.RampUp < 0 || s.Think < 0 || s.Rate < 0:
		return errors.New("ramp-up, think time and rate must not be negative")
	case s.Open() && s.Think > 0:
		return errors.New("an arrival rate has no think time: requests start on schedule")
	}
	return nil
}

// Header is a request header: a literal Value, or Env, the environment
// variable the tool reads its value from when it runs (a secret).
type Header struct {
	Name  string
	Value string
	Env   string
}

var (
	headerName = regexp.MustCompile(`^[!#$%&'*+.^_|~0-9A-Za-z-]+$`)
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// SecretHeaders are the headers whose values are never written into an
// exported file: they must come from the environment.
var SecretHeaders = []string{"authorization", "proxy-authorization", "cookie"}

// CheckHeaders validates the headers: names, environment variable names,
// and no literal value for a secret header (secret names the user's own
// secret headers beside SecretHeaders).
func CheckHeaders(hs []Header, secret []string) error {
	for _, h := range hs {
		if !headerName.MatchString(h.Name) {
			return fmt.Errorf("header name %q is not a valid HTTP header name", h.Name)
		}
		if h.Env != "" {
			if !envName.MatchString(h.Env) {
				return fmt.Errorf("header %s: %q is not an environment variable name", h.Name, h.Env)
			}
			continue
		}
		for _, s := range append(append([]string{}, SecretHeaders...), secret...) {
			if strings.EqualFold(strings.TrimSpace(s), h.Name) {
				return fmt.Errorf("header %s is secret: an exported file would hold its value; give it as --header-env %s=VAR, and set VAR where the tool runs", h.Name, h.Name)
			}
		}
		if strings.ContainsAny(h.Value, "\r\n") {
			return fmt.Errorf("header %s: the value holds a line break", h.Name)
		}
		if strings.Contains(h.Value, "{{") {
			return fmt.Errorf("header %s: {{uuid}} and {{seq}} are gqlbench load's; an exported file sends the value as is", h.Name)
		}
	}
	return nil
}

// Report says what NewWorkload left out and what it could not promise.
type Report struct {
	Skipped   []string // why entries were left out, one line per kind
	Unchecked int      // entries without an expected answer: their data are not checked
}

// Warnings returns the report as lines for people.
func (r Report) Warnings() []string {
	out := append([]string(nil), r.Skipped...)
	if r.Unchecked > 0 {
		out = append(out, fmt.Sprintf("%d entries carry no expected answer (no \"expect\" or \"answer\"): their answers will not be checked, only their status and the absence of GraphQL errors (record them first: gqlbench record)", r.Unchecked))
	}
	return out
}

// NewWorkload makes the items of a queries file's entries. An entry with
// a recorded answer gets the hash of that answer without the ignored
// paths; with paths to ignore, an entry with only a hash is an error.
// Entries that one GraphQL request cannot carry (a REST plan, GraphQL
// steps that chain writes) are left out and reported; none left is an
// error.
func NewWorkload(entries []queryfile.Entry, ignore []verify.Path) ([]Item, Report, error) {
	var items []Item
	var rep Report
	var rest, steps, dialect []string
	for i := range entries {
		e := &entries[i]
		switch {
		case e.Query == "" && e.GraphQLPlan != nil:
			steps = append(steps, e.ID)
			continue
		case e.Query == "":
			rest = append(rest, e.ID)
			continue
		case e.Dialect != "" && (e.Expect != "" || len(e.Answer) > 0):
			dialect = append(dialect, e.ID)
			continue
		}
		body, err := e.Body()
		if err != nil {
			return nil, rep, fmt.Errorf("entry %q: %w", e.ID, err)
		}
		it := Item{ID: e.ID, Label: e.Label, Body: string(body), Expect: e.Expect, Unordered: e.Unordered}
		if len(ignore) > 0 && len(e.Answer) == 0 && e.Expect != "" {
			return nil, rep, fmt.Errorf("--ignore-path needs the right answers, not only their hashes: %s has none (record them with gqlbench record)", e.ID)
		}
		if len(e.Answer) > 0 && (it.Expect == "" || len(ignore) > 0) {
			if it.Expect, err = verify.HashWith(e.Answer, verify.Options{Unordered: e.Unordered, Ignore: ignore}); err != nil {
				return nil, rep, fmt.Errorf("entry %q: its answer: %w", e.ID, err)
			}
		}
		if it.Expect == "" {
			rep.Unchecked++
		}
		items = append(items, it)
	}
	if len(rest) > 0 {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("%d REST-only entries left out (%s): the exports send GraphQL requests", len(rest), firstIDs(rest)))
	}
	if len(steps) > 0 {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("%d entries of several chained GraphQL requests (\"steps\") left out (%s): each exported request stands alone", len(steps), firstIDs(steps)))
	}
	if len(dialect) > 0 {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("%d entries in another schema's dialect left out (%s): gqlbench load maps their answers to the benchmark's form before the check, which an exported check does not (docs/dialects.md)", len(dialect), firstIDs(dialect)))
	}
	if len(items) == 0 {
		return nil, rep, errors.New("no entry of the queries file is one GraphQL request an export can check: nothing to export")
	}
	return items, rep, nil
}

func firstIDs(ids []string) string {
	if len(ids) > 3 {
		return strings.Join(ids[:3], ", ") + ", …"
	}
	return strings.Join(ids, ", ")
}

// Labels returns the items' distinct labels in order of first appearance.
func Labels(items []Item) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		if !seen[it.Label] {
			seen[it.Label] = true
			out = append(out, it.Label)
		}
	}
	return out
}

// File is one file an export writes: its name relative to the main
// file's directory ("" for the main file itself) and its bytes.
type File struct {
	Name string
	Data []byte
}

// jsonString is s as a JSON string literal (also a JavaScript one).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// ignoreJSON writes the ignored paths as a JSON list of lists of member
// names (a JavaScript, Python and, with single quotes, Groovy literal).
func ignoreJSON(paths []verify.Path) string {
	out := make([][]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, []string(p))
	}
	b, _ := json.Marshal(out)
	return string(b)
}
