package verify

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit, which Canonical has always
// applied (through json.Valid): 10000 nested lists or objects are one
// value, 10001 are an error.
const maxDepth = 10000

// AppendCanonical appends the canonical form of the JSON value data (see
// Canonical) to dst. It reads the bytes once, without building a tree:
// what it holds beyond its output is the keys of the objects being read
// and, to sort an object's members, a copy of the largest object's.
func AppendCanonical(dst, data []byte) ([]byte, error) {
	return AppendCanonicalWithin(dst, data, -1)
}

// ErrLonger is AppendCanonicalWithin's error for a canonical form longer
// than its limit.
var ErrLonger = errors.New("verify: the canonical form is longer than the limit")

// AppendCanonicalWithin is AppendCanonical, but stops with ErrLonger as
// soon as the canonical form is known to be longer than limit bytes (< 0:
// no limit): an answer compared with a known one of that length differs
// from it, and need not be read to its end. (A value that is also invalid
// further on is ErrLonger too.)
func AppendCanonicalWithin(dst, data []byte, limit int) ([]byte, error) {
	c := canon{in: data, out: dst, limit: -1}
	if limit >= 0 {
		c.limit = len(dst) + limit
	}
	c.skipWS()
	if err := c.value(); err != nil {
		return dst, err
	}
	if c.skipWS(); c.i != len(c.in) {
		return dst, errNotOne
	}
	return c.out, nil
}

var (
	errNotOne   = errors.New("verify: not one valid JSON value")
	errTooLarge = errors.New("verify: value over 2 GiB")
)

// canon is one canonicalisation in progress.
type canon struct {
	in    []byte
	i     int
	out   []byte
	depth int
	keys  []byte // the decoded keys of the objects being read
	stack []span // their members
	tmp   []byte // where an object's members are sorted
	limit int    // the longest out may be, < 0: any
}

// span is one member of an object being read: its decoded key is
// keys[ks:ke], its canonical text ("key":value) out[os:oe].
type span struct{ ks, ke, os, oe int32 }

func (c *canon) skipWS() {
	for c.i < len(c.in) {
		switch c.in[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *canon) value() error {
	if err := c.value1(); err != nil {
		return err
	}
	if c.limit >= 0 && len(c.out) > c.limit {
		return ErrLonger
	}
	return nil
}

func (c *canon) value1() error {
	if c.i >= len(c.in) {
		return errNotOne
	}
	switch ch := c.in[c.i]; {
	case ch == '{':
		return c.object()
	case ch == '[':
		return c.list()
	case ch == '"':
		return c.str(false)
	case ch == '-' || '0' <= ch && ch <= '9':
		return c.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if string(c.in[c.i:min(len(c.in), c.i+len(lit))]) == lit {
			c.out = append(c.out, lit...)
			c.i += len(lit)
			return nil
		}
	}
	return errNotOne
}

func (c *canon) enter() error {
	if c.depth++; c.depth > maxDepth {
		return errNotOne
	}
	c.i++
	c.skipWS()
	return nil
}

func (c *canon) list() error {
	if err := c.enter(); err != nil {
		return err
	}
	c.out = append(c.out, '[')
	if c.i < len(c.in) && c.in[c.i] == ']' {
		c.i++
		c.depth--
		c.out = append(c.out, ']')
		return nil
	}
	for {
		if err := c.value(); err != nil {
			return err
		}
		c.skipWS()
		if c.i >= len(c.in) {
			return errNotOne
		}
		switch c.in[c.i] {
		case ',':
			c.out = append(c.out, ',')
			c.i++
			c.skipWS()
		case ']':
			c.i++
			c.depth--
			c.out = append(c.out, ']')
			return nil
		default:
			return errNotOne
		}
	}
}

// object writes an object's members as they come, then sorts them in
// place when they did not come sorted.
func (c *canon) object() error {
	if err := c.enter(); err != nil {
		return err
	}
	c.out = append(c.out, '{')
	start, keys0, mems0 := len(c.out), len(c.keys), len(c.stack)
	if c.i < len(c.in) && c.in[c.i] == '}' {
		c.i++
		c.depth--
		c.out = append(c.out, '}')
		return nil
	}
	sorted := true
	for {
		if c.i >= len(c.in) || c.in[c.i] != '"' {
			return errNotOne
		}
		if len(c.out) > math.MaxInt32-1 || len(c.keys) > math.MaxInt32-1 {
			return errTooLarge
		}
		m := span{os: int32(len(c.out)), ks: int32(len(c.keys))}
		if err := c.str(true); err != nil {
			return err
		}
		m.ke = int32(len(c.keys))
		c.skipWS()
		if c.i >= len(c.in) || c.in[c.i] != ':' {
			return errNotOne
		}
		c.i++
		c.skipWS()
		c.out = append(c.out, ':')
		if err := c.value(); err != nil {
			return err
		}
		if len(c.out) > math.MaxInt32 {
			return errTooLarge
		}
		m.oe = int32(len(c.out))
		ms := c.stack
		if n := len(ms); n > mems0 && bytes.Compare(c.keys[ms[n-1].ks:ms[n-1].ke], c.keys[m.ks:m.ke]) >= 0 {
			sorted = false
		}
		if len(c.stack) == cap(c.stack) { // doubling: append's slower growth costs more in all
			c.stack = append(make([]span, 0, 2*cap(c.stack)+16), c.stack...)
		}
		c.stack = append(c.stack, m)
		c.skipWS()
		if c.i >= len(c.in) {
			return errNotOne
		}
		if c.in[c.i] == ',' {
			c.out = append(c.out, ',')
			c.i++
			c.skipWS()
			continue
		}
		if c.in[c.i] != '}' {
			return errNotOne
		}
		c.i++
		break
	}
	c.depth--
	ms := c.stack[mems0:]
	if !sorted {
		key := func(m span) []byte { return c.keys[m.ks:m.ke] }
		slices.SortFunc(ms, func(a, b span) int { return bytes.Compare(key(a), key(b)) })
		for j := 1; j < len(ms); j++ {
			if bytes.Equal(key(ms[j-1]), key(ms[j])) {
				return fmt.Errorf("verify: key %q occurs twice in an object", key(ms[j]))
			}
		}
		if n := len(c.out) - start; cap(c.tmp) < n {
			c.tmp = make([]byte, 0, n)
		}
		c.tmp = c.tmp[:0]
		for j, m := range ms {
			if j > 0 {
				c.tmp = append(c.tmp, ',')
			}
			c.tmp = append(c.tmp, c.out[m.os:m.oe]...)
		}
		copy(c.out[start:], c.tmp)
	}
	c.out = append(c.out, '}')
	c.keys, c.stack = c.keys[:keys0], c.stack[:mems0]
	return nil
}

// number writes a number, rounded (canonicalNumber); a plain integer as
// it is.
func (c *canon) number() error {
	s := c.i
	if c.in[c.i] == '-' {
		c.i++
	}
	digits := func() int {
		n := 0
		for c.i < len(c.in) && '0' <= c.in[c.i] && c.in[c.i] <= '9' {
			c.i++
			n++
		}
		return n
	}
	if c.i < len(c.in) && c.in[c.i] == '0' {
		c.i++
	} else if digits() == 0 {
		return errNotOne
	}
	plain, dot := true, -1
	if c.i < len(c.in) && c.in[c.i] == '.' {
		dot = c.i
		c.i++
		if digits() == 0 {
			return errNotOne
		}
		plain = false
	}
	if c.i < len(c.in) && (c.in[c.i] == 'e' || c.in[c.i] == 'E') {
		c.i++
		if c.i < len(c.in) && (c.in[c.i] == '+' || c.in[c.i] == '-') {
			c.i++
		}
		if digits() == 0 {
			return errNotOne
		}
		plain = false
	}
	lit := c.in[s:c.i]
	if plain && string(lit) != "-0" {
		c.out = append(c.out, lit...)
		return nil
	}
	if e := c.i; dot > 0 && e-dot-1 <= Decimals && c.in[e-1] >= '0' && c.in[e-1] <= '9' && !bytes.ContainsAny(lit, "eE") {
		// I.F with at most Decimals places: exact already; the
		// fraction's trailing zeros go, and the sign of a zero.
		for e > dot+1 && c.in[e-1] == '0' {
			e--
		}
		whole, frac := c.in[s:dot], c.in[dot+1:e]
		if len(frac) == 0 && (string(whole) == "0" || string(whole) == "-0") {
			c.out = append(c.out, '0')
			return nil
		}
		c.out = append(c.out, whole...)
		if len(frac) > 0 {
			c.out = append(append(c.out, '.'), frac...)
		}
		return nil
	}
	n, err := canonicalNumber(string(lit))
	if err != nil {
		return err
	}
	c.out = append(c.out, n...)
	return nil
}

// str decodes a string as encoding/json does (invalid UTF-8 and lone
// surrogates become U+FFFD) and writes it as writeString does; a key's
// decoded bytes go to c.keys too.
func (c *canon) str(key bool) error {
	const hex = "0123456789abcdef"
	c.i++ // '"'
	c.out = append(c.out, '"')
	for {
		if c.i >= len(c.in) {
			return errNotOne
		}
		ch := c.in[c.i]
		var r rune
		switch {
		case ch == '"':
			c.i++
			c.out = append(c.out, '"')
			return nil
		case ch < ' ':
			return errNotOne
		case ch == '\\':
			var err error
			if r, err = c.escape(); err != nil {
				return err
			}
		case ch < utf8.RuneSelf:
			r = rune(ch)
			c.i++
		default:
			var size int
			r, size = utf8.DecodeRune(c.in[c.i:])
			c.i += size
		}
		if key {
			if cap(c.keys)-len(c.keys) < utf8.UTFMax {
				c.keys = append(make([]byte, 0, 2*cap(c.keys)+64), c.keys...)
			}
			c.keys = utf8.AppendRune(c.keys, r)
		}
		switch {
		case r == '"' || r == '\\':
			c.out = append(c.out, '\\', byte(r))
		case r == '\b':
			c.out = append(c.out, `\b`...)
		case r == '\f':
			c.out = append(c.out, `\f`...)
		case r == '\n':
			c.out = append(c.out, `\n`...)
		case r == '\r':
			c.out = append(c.out, `\r`...)
		case r == '\t':
			c.out = append(c.out, `\t`...)
		case r < 0x20:
			c.out = append(c.out, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			c.out = utf8.AppendRune(c.out, r)
		}
	}
}

// escape decodes the escape at c.i.
func (c *canon) escape() (rune, error) {
	if c.i+1 >= len(c.in) {
		return 0, errNotOne
	}
	e := c.in[c.i+1]
	c.i += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r := c.hex4(c.i)
		if r < 0 {
			return 0, errNotOne
		}
		c.i += 4
		if utf16.IsSurrogate(r) {
			// A pair is one rune; anything else leaves the next escape
			// to be read on its own.
			if c.i+1 < len(c.in) && c.in[c.i] == '\\' && c.in[c.i+1] == 'u' {
				if r2 := c.hex4(c.i + 2); r2 >= 0 {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						c.i += 6
						return d, nil
					}
				}
			}
			return utf8.RuneError, nil
		}
		return r, nil
	}
	return 0, errNotOne
}

// hex4 reads 4 hex digits at p, -1 if there are none.
func (c *canon) hex4(p int) rune {
	if p+4 > len(c.in) {
		return -1
	}
	var r rune
	for _, ch := range c.in[p : p+4] {
		switch {
		case '0' <= ch && ch <= '9':
			ch -= '0'
		case 'a' <= ch && ch <= 'f':
			ch = ch - 'a' + 10
		case 'A' <= ch && ch <= 'F':
			ch = ch - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(ch)
	}
	return r
}
