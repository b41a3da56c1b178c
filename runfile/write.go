package runfile

import (
	"bufio"
	"encoding/json"
	"io"
)

// Writer writes a run file, one line at a time, each flushed as soon as it
// is written: whatever happens next, the file is valid up to its last line.
type Writer struct {
	w   io.Writer
	bw  *bufio.Writer
	enc *json.Encoder
	err error
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Writer{w: w, bw: bw, enc: enc}
}

// Write writes one line (a *Header, *Interval, *Step, *Query or *Summary,
// whose Type it sets) and flushes it. Errors are sticky.
func (w *Writer) Write(line any) error {
	if w.err != nil {
		return w.err
	}
	switch v := line.(type) {
	case *Header:
		v.Type = TypeHeader
		if v.Format == "" {
			v.Format = Format
		}
	case *Interval:
		v.Type = TypeInterval
	case *Step:
		v.Type = TypeStep
	case *Query:
		v.Type = TypeQuery
	case *Summary:
		v.Type = TypeSummary
	}
	if w.err = w.enc.Encode(line); w.err != nil {
		return w.err
	}
	w.err = w.bw.Flush()
	return w.err
}

// Err returns the first error met.
func (w *Writer) Err() error { return w.err }

// WriteFile writes the whole of f: its header, intervals, steps, queries
// and summary (when it has one), in that order.
func WriteFile(out io.Writer, f *File) error {
	w := NewWriter(out)
	w.Write(f.Header)
	for _, iv := range f.Intervals {
		w.Write(iv)
	}
	for _, s := range f.Steps {
		w.Write(s)
	}
	for _, q := range f.Queries {
		w.Write(q)
	}
	if f.Summary != nil {
		w.Write(f.Summary)
	}
	return w.Err()
}
