package drive

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/verify"
)

// DefaultMaxFailures is how many wrong answers of each label are shown.
const DefaultMaxFailures = 10

// failureLog keeps the first wrong answers of each label: the first one's
// differing path for the summary, and — when it has a directory — a file
// per wrong answer with the request, the expected and the actual answer
// and their field-level differences. It runs off the hot path: the Checker
// calls it only for data it has not judged before.
type failureLog struct {
	dir    string // "" keeps only the first
	max    int    // per label
	reqs   []Request
	ignore []verify.Path

	mu      sync.Mutex
	per     map[string]int
	first   string
	written int
	err     error // the first error writing a file
}

func newFailureLog(dir string, max int, reqs []Request, ignore []verify.Path) *failureLog {
	if max <= 0 {
		max = DefaultMaxFailures
	}
	return &failureLog{dir: dir, max: max, reqs: reqs, ignore: ignore, per: map[string]int{}}
}

// failure is one file of the failures directory.
type failure struct {
	ID           string          `json:"id"`
	Label        string          `json:"label"`
	Request      json.RawMessage `json:"request"`
	ExpectedHash string          `json:"expected_hash"`
	Expected     json.RawMessage `json:"expected,omitempty"` // when the right answer is known, not only its hash
	Actual       json.RawMessage `json:"actual"`
	// Received is the answer as the server sent it, when it was mapped from
	// a dialect's form to the benchmark's (Actual) before the comparison.
	Received    json.RawMessage     `json:"received,omitempty"`
	Differences []verify.Difference `json:"differences,omitempty"`
	Note        string              `json:"note,omitempty"`
}

// record notes a wrong answer, data, to request i.
func (f *failureLog) record(i int, data []byte) {
	r := &f.reqs[i]
	f.mu.Lock()
	n := f.per[r.Template]
	if n >= f.max {
		f.mu.Unlock()
		return
	}
	f.per[r.Template] = n + 1
	f.mu.Unlock()

	o := verify.Options{Unordered: r.Unordered, Ignore: f.ignore}
	fl := failure{ID: r.ID, Label: r.Template, Request: json.RawMessage(r.Body), ExpectedHash: r.Expect}
	if r.Map != nil {
		fl.Received, _ = verify.Canonical(data)
		m, err := r.mapped(data)
		if err != nil {
			fl.Actual = fl.Received
			f.note(r, &fl, err.Error())
			return
		}
		data = m
	}
	if c, err := verify.Canonical(data); err == nil {
		fl.Actual = c
	} else {
		fl.Actual, _ = json.Marshal(string(data))
	}
	why := "the data hash to another value than the expected one (the queries file has only the hash: record the answers with gqlbench record, or use --reference, to see the fields)"
	if r.Answer != nil {
		fl.Expected = r.Answer
		if d, err := verify.Diff(r.Answer, data, o, 100); err == nil && len(d) > 0 {
			fl.Differences = d
			why = describe(d[0])
		}
	} else {
		fl.Note = why
		why = "differs from the expected answer (only its hash is known)"
	}
	f.keep(r, &fl, why)
}

// note keeps a wrong answer that could not be compared at all, with why.
func (f *failureLog) note(r *Request, fl *failure, why string) {
	fl.Note = why
	if r.Answer != nil {
		fl.Expected = r.Answer
	}
	f.keep(r, fl, why)
}

// keep makes fl the first failure if there is none yet, and writes its file.
func (f *failureLog) keep(r *Request, fl *failure, why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first == "" {
		f.first = r.ID + " " + why
	}
	if f.dir != "" && f.err == nil {
		f.err = f.write(fl)
	}
}

// describe says where and how an answer differs.
func describe(d verify.Difference) string {
	switch {
	case d.Expected == "":
		return fmt.Sprintf("%s: not expected, got %.80s", d.Path, d.Actual)
	case d.Actual == "":
		return fmt.Sprintf("%s: expected %.80s, missing", d.Path, d.Expected)
	}
	return fmt.Sprintf("%s: expected %.80s, got %.80s", d.Path, d.Expected, d.Actual)
}

// write writes one failure's file (under f.mu).
func (f *failureLog) write(fl *failure) error {
	if err := outfile.Dir(f.dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(fl, "", "  ")
	if err != nil {
		return err
	}
	f.written++
	name := fmt.Sprintf("%s-%s.json", safeName(fl.Label), safeName(fl.ID))
	return outfile.WriteFile(filepath.Join(f.dir, name), 0o644, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// safeName keeps letters, digits, '.', '_' and '-' of s.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// result returns the first wrong answer's description and the directory
// when anything was written there.
func (f *failureLog) result() (first, dir string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.written > 0 {
		dir = f.dir
	}
	return f.first, dir, f.err
}
