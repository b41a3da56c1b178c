package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A REST call's answer is decoded straight into the part of it the task
// uses — what the call keeps, and the members the calls that depend on it
// read — by a scanner that validates the whole answer as JSON but builds
// values only for that part: what is not used is skipped, and a kept value
// that is used whole (a string, a number, an embedded object kept entire)
// stays the answer's own bytes (json.RawMessage), never decoded and
// encoded again. A 44 KB answer of 100 objects, every member kept, cost
// about 1.9 ms decoded into maps, projected and encoded by encoding/json.

// shape is what is built of a value: nil, the value's bytes whole; else, of
// an object a map with the members listed (each as its shape says) and,
// with rest, every other member whole; of a list each element with the same
// shape; of anything else its bytes.
type shape struct {
	rest    bool
	members map[string]*member
}

// member is one member of a shape: its name (the map key the decoder
// reuses) and its own shape.
type member struct {
	name string
	sub  *shape
}

// shapeOf is the shape that keep keeps (nil: everything, whole).
func shapeOf(keep keepTree) *shape {
	if keep == nil {
		return nil
	}
	s := &shape{members: make(map[string]*member, len(keep))}
	for name, sub := range keep {
		s.members[name] = &member{name: name, sub: shapeOf(sub)}
	}
	return s
}

// need adds path to s: the value there is needed whole. A path through a
// member needed whole already needs nothing more; a member needed whole
// with a part needed deeper becomes an object of all its members whole.
func (s *shape) need(path []string) {
	m, ok := s.members[path[0]]
	if !ok {
		if s.members == nil {
			s.members = map[string]*member{}
		}
		m = &member{name: path[0]}
		s.members[path[0]] = m
		if len(path) > 1 {
			m.sub = &shape{}
		}
	} else if m.sub == nil {
		if len(path) == 1 {
			return
		}
		m.sub = &shape{rest: true}
	}
	if len(path) > 1 {
		m.sub.need(path[1:])
	}
}

// decodeShape returns the value of the JSON document b built as s says;
// the raw values it holds are slices of b. Anything but one valid JSON
// value with surrounding whitespace is an error.
func decodeShape(b []byte, s *shape) (any, error) {
	d := shapeDecoder{b: b}
	v, err := d.value(s)
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.i != len(d.b) {
		return nil, d.fail("data after the value")
	}
	return v, nil
}

type shapeDecoder struct {
	b []byte
	i int
}

var errEnd = errors.New("unexpected end of JSON input")

func (d *shapeDecoder) fail(what string) error {
	if d.i >= len(d.b) {
		return errEnd
	}
	return errors.New("invalid JSON at offset " + strconv.Itoa(d.i) + ": " + what)
}

func (d *shapeDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value builds the next value as s says.
func (d *shapeDecoder) value(s *shape) (any, error) {
	d.ws()
	if d.i >= len(d.b) {
		return nil, errEnd
	}
	switch c := d.b[d.i]; {
	case c == 'n':
		return nil, d.literal("null")
	case s != nil && c == '{':
		return d.object(s)
	case s != nil && c == '[':
		return d.list(s)
	}
	start := d.i
	if err := d.skip(0); err != nil {
		return nil, err
	}
	return json.RawMessage(d.b[start:d.i]), nil
}

func (d *shapeDecoder) object(s *shape) (any, error) {
	d.i++ // {
	out := make(map[string]any, len(s.members))
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return out, nil
	}
	for {
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, d.fail("want a member name")
		}
		ks := d.i
		escaped, err := d.str()
		if err != nil {
			return nil, err
		}
		key := d.b[ks+1 : d.i-1]
		var name string
		if escaped {
			if err := json.Unmarshal(d.b[ks:d.i], &name); err != nil {
				return nil, d.fail("bad member name")
			}
			key = []byte(name)
		}
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, d.fail("want ':'")
		}
		d.i++
		if m, ok := s.members[string(key)]; ok {
			v, err := d.value(m.sub)
			if err != nil {
				return nil, err
			}
			out[m.name] = v
		} else if s.rest {
			if name == "" {
				name = string(key)
			}
			v, err := d.value(nil)
			if err != nil {
				return nil, err
			}
			out[name] = v
		} else {
			d.ws()
			if err := d.skip(0); err != nil {
				return nil, err
			}
		}
		if done, err := d.next('}'); err != nil {
			return nil, err
		} else if done {
			return out, nil
		}
	}
}

func (d *shapeDecoder) list(s *shape) (any, error) {
	d.i++ // [
	out := []any{}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return out, nil
	}
	for {
		v, err := d.value(s)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if done, err := d.next(']'); err != nil {
			return nil, err
		} else if done {
			return out, nil
		}
	}
}

// next reads what follows an element of an object or list: a comma (more
// to come) or close (done).
func (d *shapeDecoder) next(close byte) (done bool, err error) {
	d.ws()
	if d.i >= len(d.b) {
		return false, errEnd
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		return false, nil
	case close:
		d.i++
		return true, nil
	}
	return false, d.fail("want ',' or '" + string(close) + "'")
}

// maxNesting bounds the depth of a skipped value, as encoding/json's.
const maxNesting = 10000

// skip validates the value at d.i and moves past it.
func (d *shapeDecoder) skip(depth int) error {
	if d.i >= len(d.b) {
		return errEnd
	}
	switch c := d.b[d.i]; {
	case c == '"':
		_, err := d.str()
		return err
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '{' || c == '[':
		if depth >= maxNesting {
			return d.fail("nested too deep")
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == closing {
			d.i++
			return nil
		}
		for {
			d.ws()
			if closing == '}' {
				if d.i >= len(d.b) || d.b[d.i] != '"' {
					return d.fail("want a member name")
				}
				if _, err := d.str(); err != nil {
					return err
				}
				d.ws()
				if d.i >= len(d.b) || d.b[d.i] != ':' {
					return d.fail("want ':'")
				}
				d.i++
				d.ws()
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.ws()
			if d.i >= len(d.b) {
				return errEnd
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case closing:
				d.i++
				return nil
			default:
				return d.fail("want ',' or the end of the structure")
			}
		}
	}
	return d.fail("not a JSON value")
}

// str moves past the string at d.i, validating its escapes and that it
// holds no control character; it says whether it has escapes.
func (d *shapeDecoder) str() (escaped bool, err error) {
	d.i++ // "
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return escaped, nil
		case c < 0x20:
			return false, d.fail("control character in a string")
		case c == '\\':
			escaped = true
			if d.i+1 >= len(d.b) {
				return false, errEnd
			}
			switch d.b[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i += 2
			case 'u':
				if d.i+6 > len(d.b) {
					return false, errEnd
				}
				for _, h := range d.b[d.i+2 : d.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false, d.fail("bad \\u escape")
					}
				}
				d.i += 6
			default:
				return false, d.fail("bad escape")
			}
		default:
			d.i++
		}
	}
	return false, errEnd
}

// number moves past the number at d.i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *shapeDecoder) number() error {
	if d.b[d.i] == '-' {
		d.i++
	}
	digits := func() int {
		n := 0
		for d.i < len(d.b) && '0' <= d.b[d.i] && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(d.b) && d.b[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return d.fail("bad number")
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return d.fail("bad number")
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return d.fail("bad number")
		}
	}
	return nil
}

func (d *shapeDecoder) literal(lit string) error {
	if len(d.b)-d.i < len(lit) || string(d.b[d.i:d.i+len(lit)]) != lit {
		return d.fail("bad literal")
	}
	d.i += len(lit)
	return nil
}

// rawScalar returns a raw value's Go value when it is a string, number,
// boolean or null (ok false for an object or a list, or bad JSON).
func rawScalar(r json.RawMessage) (v any, ok bool) {
	if len(r) == 0 {
		return nil, false
	}
	switch c := r[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(r, &s) != nil {
			return nil, false
		}
		return s, true
	case c == '-' || '0' <= c && c <= '9':
		return json.Number(r), true
	case c == 't' || c == 'f':
		return c == 't', true
	case c == 'n':
		return nil, true
	}
	return nil, false
}

// appendJSON appends v as JSON: objects with their members sorted by name
// (the same answer is the same bytes), raw values as they are.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case json.RawMessage:
		return append(b, x...), nil
	case projected:
		return append(b, x...), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, x[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case string:
		return appendString(b, x), nil
	case json.Number:
		return append(b, x...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	}
	m, err := json.Marshal(v)
	return append(b, m...), err
}

// appendString appends s as a JSON string: ", \ and control characters
// escaped, invalid UTF-8 as U+FFFD (as encoding/json writes it, without
// its HTML escapes).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// projected is the answer of a call that nothing depends on, projected to
// what it keeps as it was scanned (keepInto): the projection's JSON, its
// members in the answer's order.
type projected []byte

// MarshalJSON writes it as it is.
func (p projected) MarshalJSON() ([]byte, error) { return p, nil }

// keepAnswer scans the answer b and returns what keep keeps of it, written
// as JSON: project's result without decoding what it does not keep, and
// without decoding what it keeps either.
func keepAnswer(b []byte, keep keepTree) (projected, error) {
	d := shapeDecoder{b: b}
	out, err := d.keepInto(make([]byte, 0, len(b)+16), keep)
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.i != len(d.b) {
		return nil, syntaxError{d.fail("data after the value")}
	}
	return out, nil
}

// syntaxError is a scan's failure: the answer is not JSON (where a
// projection's failure is an answer without what the plan keeps).
type syntaxError struct{ error }

func (e syntaxError) Unwrap() error { return e.error }

// keepInto appends what keep (not nil) keeps of the next value: of an
// object its kept members in their order (a missing one is an error), of a
// list each element's, of a string or number selected as {id} the object
// {"id": it}, null as null.
func (d *shapeDecoder) keepInto(out []byte, keep keepTree) ([]byte, error) {
	d.ws()
	if d.i >= len(d.b) {
		return out, syntaxError{errEnd}
	}
	switch c := d.b[d.i]; {
	case c == 'n':
		if err := d.literal("null"); err != nil {
			return out, syntaxError{err}
		}
		return append(out, "null"...), nil
	case c == '[':
		d.i++
		out = append(out, '[')
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return append(out, ']'), nil
		}
		for first := true; ; first = false {
			if !first {
				out = append(out, ',')
			}
			var err error
			if out, err = d.keepInto(out, keep); err != nil {
				return out, err
			}
			d.ws()
			if d.i >= len(d.b) {
				return out, syntaxError{errEnd}
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case ']':
				d.i++
				return append(out, ']'), nil
			default:
				return out, syntaxError{d.fail("want ',' or ']'")}
			}
		}
	case c == '{':
		return d.keepObject(out, keep)
	case c == '"' || c == '-' || '0' <= c && c <= '9':
		start := d.i
		if err := d.skip(0); err != nil {
			return out, syntaxError{err}
		}
		if _, id := keep["id"]; id && len(keep) == 1 {
			out = append(out, `{"id":`...)
			out = append(out, d.b[start:d.i]...)
			return append(out, '}'), nil
		}
		v, _ := rawScalar(json.RawMessage(d.b[start:d.i]))
		return out, fmt.Errorf("cannot select %s of a %T", strings.Join(slices.Sorted(mapKeys(keep)), ","), v)
	}
	start := d.i
	if err := d.skip(0); err != nil {
		return out, syntaxError{err}
	}
	v, _ := rawScalar(json.RawMessage(d.b[start:d.i]))
	return out, fmt.Errorf("cannot select %s of a %T", strings.Join(slices.Sorted(mapKeys(keep)), ","), v)
}

// keepObject appends the kept members of the object at d.i.
func (d *shapeDecoder) keepObject(out []byte, keep keepTree) ([]byte, error) {
	d.i++ // {
	out = append(out, '{')
	found := 0
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return out, d.missing(keep, nil)
	}
	var seenBuf [16][]byte
	seen := seenBuf[:0] // the kept members found
	for {
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return out, syntaxError{d.fail("want a member name")}
		}
		ks := d.i
		escaped, err := d.str()
		if err != nil {
			return out, syntaxError{err}
		}
		key := d.b[ks+1 : d.i-1]
		if escaped {
			var name string
			if err := json.Unmarshal(d.b[ks:d.i], &name); err != nil {
				return out, syntaxError{d.fail("bad member name")}
			}
			key = []byte(name)
		}
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return out, syntaxError{d.fail("want ':'")}
		}
		d.i++
		d.ws()
		if sub, ok := keep[string(key)]; ok {
			for _, k := range seen {
				if string(k) == string(key) {
					return out, fmt.Errorf("member %q twice in the answer", key)
				}
			}
			seen = append(seen, key)
			if found > 0 {
				out = append(out, ',')
			}
			found++
			out = append(out, d.b[ks:d.i]...) // "name": as written, whitespace and all
			if sub == nil {
				start := d.i
				if err := d.skip(0); err != nil {
					return out, syntaxError{err}
				}
				out = append(out, d.b[start:d.i]...)
			} else if out, err = d.keepInto(out, sub); err != nil {
				var se syntaxError
				if errors.As(err, &se) {
					return out, err
				}
				return out, fmt.Errorf("%s.%w", key, err)
			}
		} else if err := d.skip(0); err != nil {
			return out, syntaxError{err}
		}
		d.ws()
		if d.i >= len(d.b) {
			return out, syntaxError{errEnd}
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return append(out, '}'), d.missing(keep, seen)
		default:
			return out, syntaxError{d.fail("want ',' or '}'")}
		}
	}
}

// missing is the error of an object without a member keep keeps (the
// first by name, as project names it), nil when it has all.
func (d *shapeDecoder) missing(keep keepTree, seen [][]byte) error {
	if len(seen) == len(keep) {
		return nil
	}
	for _, name := range slices.Sorted(mapKeys(keep)) {
		if !slices.ContainsFunc(seen, func(k []byte) bool { return string(k) == name }) {
			return fmt.Errorf("no member %q in the answer", name)
		}
	}
	return nil
}
