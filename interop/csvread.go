package interop

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// table reads a CSV file with a header line, row by row, naming the
// line of every error. A row cut short — what a tool killed mid-write
// leaves last — is an error unless partial is set: then it ends the
// table, and Truncated says so.
type table struct {
	name      string
	r         *csv.Reader
	cols      map[string]int
	header    []string
	partial   bool
	Truncated string // the row left out, when partial
}

func newTable(name string, r io.Reader, sep rune, partial bool) (*table, error) {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s is empty: no header line", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s, line 1: %w", name, err)
	}
	t := &table{name: name, r: cr, cols: map[string]int{}, header: head, partial: partial}
	for i, c := range head {
		c = strings.TrimPrefix(c, "\ufeff")
		if _, dup := t.cols[c]; dup {
			return nil, fmt.Errorf("%s, line 1: the column %q occurs twice", name, c)
		}
		t.cols[c] = i
	}
	return t, nil
}

// require fails unless the header has every column named.
func (t *table) require(cols ...string) error {
	var missing []string
	for _, c := range cols {
		if _, ok := t.cols[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: no column %s in its header line (%s)", t.name, strings.Join(missing, ", "), strings.Join(t.header, ","))
	}
	return nil
}

// next returns the next row as a column getter, or io.EOF.
func (t *table) next() (func(col string) string, int, error) {
	rec, err := t.r.Read()
	line, _ := t.r.FieldPos(0)
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	var pe *csv.ParseError
	cut := err != nil && errors.As(err, &pe) && (pe.Err == csv.ErrQuote || pe.Err == csv.ErrBareQuote)
	if err == nil && len(rec) != len(t.header) {
		cut = true
	}
	if cut {
		// A cut row is the last one; anything after it is not a cut.
		if _, err2 := t.r.Read(); err2 == io.EOF || pe != nil {
			if t.partial {
				t.Truncated = fmt.Sprintf("line %d", line)
				return nil, 0, io.EOF
			}
			return nil, 0, fmt.Errorf("%s, line %d: the row is cut short (%d of %d fields): the file is truncated (the tool stopped mid-write?); --partial imports the rows before it", t.name, line, len(rec), len(t.header))
		}
		return nil, 0, fmt.Errorf("%s, line %d: %d fields, the header has %d", t.name, line, len(rec), len(t.header))
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", t.name, err)
	}
	return func(col string) string {
		i, ok := t.cols[col]
		if !ok {
			return ""
		}
		return rec[i]
	}, line, nil
}
