package rest

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/gqlbench/gqlbench/server/db"
)

// errTooLarge stops a response that passed the size limit.
var errTooLarge = errors.New("rest: response too large")

// cells holds one result row: each column's value, nil for NULL.
type cells struct {
	ints []*int64
	strs []*string
	dest []any
}

func newCells(kinds []kind) *cells {
	c := &cells{ints: make([]*int64, len(kinds)), strs: make([]*string, len(kinds)), dest: make([]any, len(kinds))}
	for i, k := range kinds {
		if k == textKind || k == typenameKind {
			c.dest[i] = &c.strs[i]
		} else {
			c.dest[i] = &c.ints[i]
		}
	}
	return c
}

func (c *cells) scan(r db.Rows) error { return r.Scan(c.dest...) }

// null says whether column i is NULL (a column of -1 is always null).
func (c *cells) null(i int) bool { return i < 0 || (c.ints[i] == nil && c.strs[i] == nil) }

// encoder writes the representation of a plan's rows into buf.
type encoder struct {
	p   *plan
	c   *cells
	buf []byte
	max int64 // the size limit; 0: none
}

// value appends column i, of kind k, as JSON.
func (e *encoder) value(k kind, i int) {
	if e.c.null(i) {
		e.buf = append(e.buf, "null"...)
		return
	}
	switch k {
	case idKind, refKind:
		e.buf = append(e.buf, '"')
		e.buf = strconv.AppendInt(e.buf, *e.c.ints[i], 10)
		e.buf = append(e.buf, '"')
	case intKind:
		e.buf = strconv.AppendInt(e.buf, *e.c.ints[i], 10)
	default:
		e.buf = appendString(e.buf, *e.c.strs[i])
	}
}

// key appends "name": after a comma unless first.
func (e *encoder) key(name string, first bool) {
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.buf = appendString(e.buf, name)
	e.buf = append(e.buf, ':')
}

// object appends the object of fields whose columns are cols, without its
// closing brace; embedded, if not nil, gives for each field the embed (an
// index into the plan's) that replaces it, or -1.
func (e *encoder) object(fields []*field, cols []int, embedded []int) {
	e.buf = append(e.buf, '{')
	for i, f := range fields {
		e.key(f.name, i == 0)
		if embedded != nil && embedded[i] >= 0 {
			k := embedded[i]
			if e.c.null(e.p.refCol[k]) || e.c.null(e.p.embeds[k][0]) {
				e.buf = append(e.buf, "null"...)
			} else {
				e.object(e.p.s.embeds[k].fields, e.p.embeds[k], nil)
				e.buf = append(e.buf, '}')
			}
			continue
		}
		e.value(f.kind, cols[i])
	}
}

// open appends the current row's returned object, left open for a list
// embed's items.
func (e *encoder) open() {
	e.object(e.p.s.fields, e.p.main, e.p.embedOf)
	if e.p.listIdx >= 0 {
		e.key(e.p.s.embeds[e.p.listIdx].name, false)
		e.buf = append(e.buf, '[')
	}
}

// item appends the current row's list embed item, if it has one.
func (e *encoder) item(first bool) bool {
	cols := e.p.embeds[e.p.listIdx]
	if e.c.null(cols[0]) {
		return false
	}
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.object(e.p.s.embeds[e.p.listIdx].fields, cols, nil)
	e.buf = append(e.buf, '}')
	return true
}

// close ends the object open() began.
func (e *encoder) close() {
	if e.p.listIdx >= 0 {
		e.buf = append(e.buf, ']')
	}
	e.buf = append(e.buf, '}')
}

// check stops the encoding once the response passed the limit.
func (e *encoder) check() error {
	if e.max > 0 && int64(len(e.buf)) > e.max {
		return errTooLarge
	}
	return nil
}

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
