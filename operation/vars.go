package operation

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gqlbench/gqlbench/queryfile"
)

// OpColumn is the column of a CSV variables file (or the member of a JSON
// lines one) that names the operation a row is for. It is never a
// variable.
const OpColumn = "operation"

// Vars is a variables file read whole: rows of values for operations'
// variables.
type Vars struct {
	File    string   // where it was read, for messages
	CSV     bool     // a CSV file (cells are text, coerced by the variables' types), else JSON lines
	Columns []string // CSV: the header's variable columns, in order, without OpColumn
	Rows    []Row
}

// Row is one row of a variables file.
type Row struct {
	N      int               // 1 for the first row (after a CSV header), 2 for the next, ...
	Line   int               // the line it starts on
	Op     string            // the operation it is for (OpColumn), "" when any that it fits
	Cells  map[string]string // CSV: the row's non-empty cells, by column
	Values map[string]any    // JSON lines: the members but OpColumn, decoded with json.Number
}

// Names returns the variables the row gives a value (null included),
// sorted.
func (r *Row) Names() []string {
	var names []string
	for n := range r.Cells {
		names = append(names, n)
	}
	for n := range r.Values {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// where names the row in messages: "vars.csv: row 3 (line 4)".
func (r *Row) where(v *Vars) string {
	if r.Line == 0 {
		return v.File
	}
	return fmt.Sprintf("%s: row %d (line %d)", v.File, r.N, r.Line)
}

// nameRE matches a GraphQL name.
var nameRE = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)

// ReadVarsFile reads a variables file: CSV when its name ends in .csv, JSON
// lines when in .jsonl or .ndjson.
func ReadVarsFile(path string) (*Vars, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return ReadCSV(f, path)
	case ".jsonl", ".ndjson":
		return ReadJSONL(f, path)
	}
	return nil, fmt.Errorf("%s: a variables file is CSV (.csv) or JSON lines (.jsonl, .ndjson)", path)
}

// ReadCSV reads CSV variables: a header of variable names (and optionally
// OpColumn), then one row of values each line. Every row has as many cells
// as the header. An empty cell is an absent variable; the others are kept
// as text, to be coerced by the type of the variable they are bound to.
func ReadCSV(r io.Reader, file string) (*Vars, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty: want a header of variable names", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\uFEFF") // a byte order mark, as spreadsheets write
	}
	v := &Vars{File: file, CSV: true}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		switch {
		case seen[h]:
			return nil, fmt.Errorf("%s: header: column %q appears twice", file, h)
		case h != OpColumn && !nameRE.MatchString(h):
			return nil, fmt.Errorf("%s: header: column %d is %q, not a variable name (letters, digits and _, without $)", file, i+1, h)
		}
		seen[h] = true
		if h != OpColumn {
			v.Columns = append(v.Columns, h)
		}
	}
	for n := 1; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", file, n, err)
		}
		line, _ := cr.FieldPos(0)
		row := Row{N: n, Line: line, Cells: map[string]string{}}
		for i, cell := range rec {
			if !utf8.ValidString(cell) {
				return nil, fmt.Errorf("%s: column %q: not UTF-8 text", row.where(v), header[i])
			}
			switch {
			case header[i] == OpColumn:
				row.Op = strings.TrimSpace(cell)
			case cell != "":
				row.Cells[header[i]] = cell
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}

// ReadJSONL reads JSON lines variables: one JSON object of variable values
// a line, with an optional string member OpColumn. Blank lines are skipped.
func ReadJSONL(r io.Reader, file string) (*Vars, error) {
	v := &Vars{File: file}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), queryfile.MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		row := Row{N: len(v.Rows) + 1, Line: line}
		values, err := decodeObject(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", row.where(v), err)
		}
		if op, ok := values[OpColumn]; ok {
			s, isString := op.(string)
			if !isString {
				return nil, fmt.Errorf("%s: %q must be an operation's name, a string", row.where(v), OpColumn)
			}
			row.Op = s
			delete(values, OpColumn)
		}
		for name := range values {
			if !nameRE.MatchString(name) {
				return nil, fmt.Errorf("%s: %q is not a variable name (letters, digits and _, without $)", row.where(v), name)
			}
		}
		row.Values = values
		v.Rows = append(v.Rows, row)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: line %d: longer than %d bytes", file, line+1, queryfile.MaxLineBytes)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return v, nil
}

// decodeObject decodes exactly one JSON object, numbers as json.Number.
func decodeObject(b []byte) (map[string]any, error) {
	var values map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&values); err != nil || values == nil {
		return nil, fmt.Errorf("not a JSON object of variable values: %.60s", b)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value on the line")
	}
	return values, nil
}
