package runfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxLineBytes is the longest line Read accepts.
const MaxLineBytes = 64 << 20

// MaxTemplates is the most distinct template names a run file may use:
// summarizing costs a few hundred KiB of histogram per template, so a
// hostile file must not name millions (LinGBM has 16).
const MaxTemplates = 64

// File is a run file read into memory.
type File struct {
	Header    *Header
	Intervals []*Interval
	Steps     []*Step
	Queries   []*Query
	Summary   *Summary // nil when the file was cut short before it
	// Truncated reports a last line cut short (the writer was killed
	// mid-line); the lines before it are intact.
	Truncated bool

	templates map[string]bool
}

// Read reads and checks a run file: a header line first (of this Format and
// gqlbench's histogram configuration), then intervals, steps, queries and at
// most one summary, last. Every histogram is checked, and kept encoded
// (DecodeHist decodes one). A last line without
// its newline that does not parse is taken as cut short (File.Truncated);
// anything else malformed is an error that names the line.
func Read(r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	f := &File{}
	for n := 1; ; n++ {
		line, complete, err := readLine(br)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if line == nil {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if !complete {
				break
			}
			continue
		}
		if err := f.add(line); err != nil {
			if !complete && f.Header != nil && isSyntax(err) {
				f.Truncated = true
				break
			}
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !complete {
			break
		}
	}
	if f.Header == nil {
		return nil, errors.New("not a gqlbench run file: no header line")
	}
	return f, nil
}

// readLine returns the next line without its newline, whether it had one,
// and nil at the end of the input.
func readLine(br *bufio.Reader) (line []byte, complete bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			return nil, false, fmt.Errorf("longer than %d bytes", MaxLineBytes)
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(buf) == 0 {
				return nil, false, nil
			}
			return buf, false, nil
		default:
			return nil, false, err
		}
	}
}

type syntaxError struct{ error }

func isSyntax(err error) bool { return errors.As(err, new(syntaxError)) }

func (f *File) add(line []byte) error {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return syntaxError{fmt.Errorf("not a JSON object: %w", err)}
	}
	if f.Header == nil && probe.Type != TypeHeader {
		return fmt.Errorf("the first line must be the header, not %q", probe.Type)
	}
	if f.Summary != nil {
		return fmt.Errorf("a %q line after the summary", probe.Type)
	}
	switch probe.Type {
	case TypeHeader:
		if f.Header != nil {
			return errors.New("a second header")
		}
		var h Header
		if err := decodeLine(line, &h); err != nil {
			return err
		}
		if err := checkFormat(h.Format); err != nil {
			return err
		}
		if h.Hist != StandardHist {
			return fmt.Errorf("histogram configuration %+v: gqlbench records %+v", h.Hist, StandardHist)
		}
		f.Header = &h
	case TypeInterval:
		var iv Interval
		if err := decodeLine(line, &iv); err != nil {
			return err
		}
		if err := iv.decode(); err != nil {
			return err
		}
		if f.templates == nil {
			f.templates = map[string]bool{}
		}
		for name := range iv.Templates {
			f.templates[name] = true
		}
		if len(f.templates) > MaxTemplates {
			return fmt.Errorf("more than %d distinct templates", MaxTemplates)
		}
		f.Intervals = append(f.Intervals, &iv)
	case TypeStep:
		var s Step
		if err := decodeLine(line, &s); err != nil {
			return err
		}
		f.Steps = append(f.Steps, &s)
	case TypeQuery:
		var q Query
		if err := decodeLine(line, &q); err != nil {
			return err
		}
		f.Queries = append(f.Queries, &q)
	case TypeSummary:
		var s Summary
		if err := decodeLine(line, &s); err != nil {
			return err
		}
		f.Summary = &s
	default:
		return fmt.Errorf("unknown line type %q", probe.Type)
	}
	return nil
}

// checkFormat accepts the header's format when this build reads it: any
// gqlbench-run/N with N ≤ Version (see the package doc for the rule).
func checkFormat(format string) error {
	v, ok := strings.CutPrefix(format, formatPrefix)
	if !ok {
		return fmt.Errorf("format %q is not a gqlbench run file", format)
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 1:
		return fmt.Errorf("format %q is not a gqlbench run file (a version is a whole number)", format)
	case n > Version:
		return fmt.Errorf("written by a newer gqlbench: %s; this build reads %s", format, Format)
	}
	return nil
}

// decodeLine decodes one JSON object into v. Fields v does not know are
// ignored: a newer gqlbench's optional fields (see the package doc).
func decodeLine(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
			return syntaxError{err}
		}
		return err
	}
	if dec.More() {
		return syntaxError{errors.New("more than one JSON value on the line")}
	}
	return nil
}

// decode checks an interval and its histograms (without keeping them
// decoded: a long run has hundreds of thousands of them).
func (iv *Interval) decode() error {
	if iv.Run < 1 || iv.Index < 0 || iv.Step < 0 {
		return fmt.Errorf("interval: run %d, step %d, index %d out of range", iv.Run, iv.Step, iv.Index)
	}
	if iv.EndNS < iv.StartNS {
		return fmt.Errorf("interval %d of run %d ends before it starts", iv.Index, iv.Run)
	}
	for name, t := range iv.Templates {
		if t == nil {
			return fmt.Errorf("interval %d of run %d: template %q is null", iv.Index, iv.Run, name)
		}
		for kind, h := range map[string]string{"qet": t.QET, "qrt": t.QRT, "latency": t.Latency} {
			if err := ValidateHist(h); err != nil {
				return fmt.Errorf("template %q: %s %w", name, kind, err)
			}
		}
		if t.Count < 0 || t.OK < 0 || t.Errors < 0 || t.Wrong < 0 || t.Overrun < 0 || t.OverrunOK < 0 || t.Dropped < 0 {
			return fmt.Errorf("template %q: negative counts", name)
		}
	}
	return nil
}

// ReadFile reads the run file at path.
func ReadFile(path string) (*File, error) { return readPath(path, Read) }

// readPath opens path and reads it with read; its errors name the path.
func readPath[F any](path string, read func(io.Reader) (F, error)) (F, error) {
	fh, err := os.Open(path)
	if err != nil {
		var zero F
		return zero, err
	}
	defer fh.Close()
	f, err := read(fh)
	if err != nil {
		var zero F
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
