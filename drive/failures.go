package drive

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/drive/wire"
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
	reqs   []wire.Request
	ignore []verify.Path

	mu      sync.Mutex
	per     map[string]int
	first   string
	written int
	err     error // the first error writing a file
}

func newFailureLog(dir string, max int, reqs []wire.Request, ignore []verify.Path) *failureLog {
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
	// Truncated says that Actual (or Expected) is only the beginning of
	// the answer, as text: the whole would make the file too large.
	Truncated   bool `json:"truncated,omitempty"`
	ActualBytes int  `json:"actual_bytes,omitempty"` // the data's size as received, when truncated
}

// The bounds of a failure file: an answer over maxShown bytes is shown
// truncated, as text; field differences are looked for only up to
// maxDiffed bytes (a tree of the answer takes tens of times its size).
const (
	maxShown  = 64 << 10
	maxDiffed = 1 << 20
)

// bigDiff lets one answer over maxShown at a time be compared field by
// field, in the whole process.
var bigDiff = make(chan struct{}, 1)

// clip cuts a difference's text to 4 KiB.
func clip(s string, fl *failure) string {
	if len(s) <= 4<<10 {
		return s
	}
	fl.Truncated = true
	return s[:4<<10] + "…"
}

// shown is how the file shows an answer's bytes: whole when small, else
// its beginning as a JSON string.
func shown(b []byte, fl *failure) json.RawMessage {
	if len(b) <= maxShown {
		return b
	}
	fl.Truncated = true
	s, _ := json.Marshal(string(b[:maxShown]) + "…")
	return s
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
	if len(data) > maxDiffed {
		// Too large to compare field by field, or to show whole.
		fl.ActualBytes = len(data)
		fl.Actual = shown(data, &fl)
		if r.Answer != nil {
			fl.Expected = shown(r.Answer, &fl)
		}
		f.note(r, &fl, fmt.Sprintf("the data (%s) differ from the expected answer; too large to compare field by field", wire.SizeText(int64(len(data)))))
		return
	}
	if len(data) > maxShown { // a tree of it is tens of times its size: one at a time
		bigDiff <- struct{}{}
		defer func() { <-bigDiff }()
	}
	if r.Map != nil {
		fl.Received, _ = verify.Canonical(data)
		m, err := r.Mapped(data)
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
	if len(fl.Actual) > maxShown {
		fl.ActualBytes = len(data)
		fl.Actual = shown(fl.Actual, &fl)
	}
	why := "the data hash to another value than the expected one (the queries file has only the hash: record the answers with gqlbench record, or use --reference, to see the fields)"
	if r.Answer != nil {
		fl.Expected = shown(r.Answer, &fl)
		if d, err := verify.Diff(r.Answer, data, o, 100); err == nil && len(d) > 0 {
			for k := range d { // a difference may be a whole subtree
				d[k].Expected, d[k].Actual = clip(d[k].Expected, &fl), clip(d[k].Actual, &fl)
			}
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
func (f *failureLog) note(r *wire.Request, fl *failure, why string) {
	fl.Note = why
	if r.Answer != nil && fl.Expected == nil {
		fl.Expected = shown(r.Answer, fl)
	}
	f.keep(r, fl, why)
}

// keep makes fl the first failure if there is none yet, and writes its file.
func (f *failureLog) keep(r *wire.Request, fl *failure, why string) {
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
	name := safeName(fileName(fl.Label, fl.ID)) + ".json"
	return outfile.WriteFile(filepath.Join(f.dir, name), 0o644, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// fileName is a failure's file name: its id, after its label unless the id
// starts with it (ids are often "Label-N").
func fileName(label, id string) string {
	if label == "" || id == label || strings.HasPrefix(id, label+"-") {
		return id
	}
	return label + "-" + id
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
