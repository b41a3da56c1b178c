package write

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gqlbench/gqlbench/dataset"
)

// Input is a validated create or update of an entity: the fields to set,
// in the entity's order.
type Input struct {
	e    *Entity
	sets []set
}

type set struct {
	f *Field
	v any // string, int64, or nil (NULL)
}

// Value returns the value Input sets field name to (a string, an int64 or
// nil) and whether it sets it.
func (in *Input) Value(name string) (any, bool) {
	for _, s := range in.sets {
		if s.f.Name == name {
			return s.v, true
		}
	}
	return nil, false
}

// Parse validates the fields of a create (every field that may not be null
// is required) or an update (at least one field; an absent one keeps its
// value) of e, as decoded from JSON (numbers as json.Number or float64) or
// as a GraphQL input object. Errors are *Error of kind Invalid, naming the
// field: an unknown field, a wrong type, null where a value is required, a
// string too long or holding NUL, an integer out of range, a reference to a
// row outside the sandbox.
func Parse(e *Entity, in map[string]any, create bool) (*Input, error) {
	var unknown []string
	for k := range in {
		if e.Field(k) == nil {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, invalid("unknown field %s: the fields of %s are %s", strings.Join(unknown, ", "), e.article(), e.fieldNames())
	}
	out := &Input{e: e}
	for i := range e.Fields {
		f := &e.Fields[i]
		x, ok := in[f.Name]
		switch {
		case !ok && create && !f.Null:
			return nil, invalid("missing field %q: creating %s needs %s", f.Name, e.article(), required(e))
		case !ok:
			continue
		}
		v, err := f.value(x)
		if err != nil {
			return nil, err
		}
		out.sets = append(out.sets, set{f, v})
	}
	if len(out.sets) == 0 && !create {
		return nil, invalid("nothing to update: give at least one of %s", e.fieldNames())
	}
	return out, nil
}

// required lists the fields a create must give.
func required(e *Entity) string {
	var names []string
	for _, f := range e.Fields {
		if !f.Null {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ")
}

// value checks x, a value given for f, and returns it as stored. A pointer
// (gqlgen hands a nullable input field's value as one) stands for its
// target, nil for null.
func (f *Field) value(x any) (any, error) {
	if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer {
		x = nil
		if !rv.IsNil() {
			x = rv.Elem().Interface()
		}
	}
	if x == nil {
		if f.Null {
			return nil, nil
		}
		return nil, invalid("%s cannot be null", f.Name)
	}
	switch f.Kind {
	case Text:
		s, ok := x.(string)
		switch {
		case !ok:
			return nil, invalid("%s must be a string, got %s", f.Name, describe(x))
		case strings.IndexByte(s, 0) >= 0:
			return nil, invalid("%s must not contain the NUL character", f.Name)
		case !utf8.ValidString(s):
			return nil, invalid("%s must be valid UTF-8", f.Name)
		case int64(utf8.RuneCountInString(s)) > f.Max:
			return nil, invalid("%s is %d characters long, more than the %d the column holds", f.Name, utf8.RuneCountInString(s), f.Max)
		}
		return s, nil
	case Int:
		n, ok := integer(x, false)
		if !ok || n < 0 || n > f.Max {
			return nil, invalid("%s must be an integer from 0 to %d, got %s", f.Name, f.Max, describe(x))
		}
		return n, nil
	}
	n, ok := integer(x, true)
	switch {
	case !ok || n < 0:
		return nil, invalid("%s must be an id (a non-negative integer, as a string or a number), got %s", f.Name, describe(x))
	case !dataset.IsReserved(n):
		return nil, invalid("%s %d is a row of the benchmark's dataset, which writes may not refer to (so that the read queries keep their answers): use %s",
			f.Name, n, sandboxRows(f.Ref))
	}
	return n, nil
}

// integer reads an integer from a JSON number (json.Number or float64), a
// Go integer, or, if fromString, a string of decimal digits.
func integer(x any, fromString bool) (int64, bool) {
	switch v := x.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		return n, err == nil
	case float64:
		if v != math.Trunc(v) || math.Abs(v) >= 1<<53 {
			return 0, false
		}
		return int64(v), true
	case int:
		return int64(v), true
	case int64:
		return v, true
	case string:
		if !fromString || v == "" || strings.TrimLeft(v, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// describe names a JSON value for an error message.
func describe(x any) string {
	switch v := x.(type) {
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return "the string " + strconv.Quote(v)
	case json.Number:
		return "the number " + string(v)
	case float64, int, int64:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%T", x)
}
