package compiled

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// An argument value, resolved at compile time into its structure: which
// input fields are given, how long lists are, which values are null. Its
// leaves (scalars and enums) stay references — to a literal of the document
// or to a place inside a variable — and become SQL parameters, so that one
// compiled statement serves every request whose variables have the same
// structure (see shape).
type val struct {
	null bool
	leaf *leaf           // a scalar or enum value
	list []*val          // a list (a single value where a list is declared is coerced to one)
	obj  map[string]*val // an input object's given fields
}

// leaf is a scalar value: a literal, or the value at path inside variable name.
type leaf struct {
	lit  *ast.Value
	name string
	path []any // string: an input object field; int: a list index
}

var nullVal = &val{null: true}

// isNull says whether v is null or absent.
func (v *val) isNull() bool { return v == nil || v.null }

// field is the input field name of object v, or nil.
func (v *val) field(name string) *val {
	if v.isNull() || v.obj == nil {
		return nil
	}
	return v.obj[name]
}

// resolve resolves the argument value v of input type t, with vars the
// request's coerced variables.
func (c *compiler) resolve(v *ast.Value, t *ast.Type) *val {
	switch {
	case v == nil || v.Kind == ast.NullValue:
		return nullVal
	case v.Kind == ast.Variable:
		return c.fromVar(v.Raw, nil, c.vars[v.Raw], t)
	case t.Elem != nil && v.Kind == ast.ListValue:
		out := &val{list: []*val{}}
		for _, ch := range v.Children {
			out.list = append(out.list, c.resolve(ch.Value, t.Elem))
		}
		return out
	case t.Elem != nil: // input coercion: one value where a list is declared
		return &val{list: []*val{c.resolve(v, t.Elem)}}
	case v.Kind == ast.ObjectValue:
		def := c.schema.Types[t.NamedType]
		out := &val{obj: map[string]*val{}}
		for _, ch := range v.Children {
			if f := def.Fields.ForName(ch.Name); f != nil {
				out.obj[ch.Name] = c.resolve(ch.Value, f.Type)
			}
		}
		return out
	default:
		return &val{leaf: &leaf{lit: v}}
	}
}

// fromVar resolves x, found at path inside variable name, as a value of type t.
func (c *compiler) fromVar(name string, path []any, x any, t *ast.Type) *val {
	if isNil(x) {
		return nullVal
	}
	at := func(step any) []any { return append(append([]any(nil), path...), step) }
	if t.Elem != nil {
		out := &val{list: []*val{}}
		if rv := reflect.ValueOf(x); rv.Kind() == reflect.Slice {
			for i := 0; i < rv.Len(); i++ {
				out.list = append(out.list, c.fromVar(name, at(i), rv.Index(i).Interface(), t.Elem))
			}
		} else { // index 0 of a non-list is the value itself (see lookup)
			out.list = append(out.list, c.fromVar(name, at(0), x, t.Elem))
		}
		return out
	}
	if def := c.schema.Types[t.NamedType]; def.Kind == ast.InputObject {
		out := &val{obj: map[string]*val{}}
		for _, f := range def.Fields {
			if fx, ok := mapField(x, f.Name); ok {
				out.obj[f.Name] = c.fromVar(name, at(f.Name), fx, f.Type)
			}
		}
		return out
	}
	return &val{leaf: &leaf{name: name, path: path}}
}

// shape is the structure of a request's variables that the compiled SQL
// depends on: null-ness, list lengths, the input fields given, the values
// of Boolean variables (@skip and @include) and those of enum variables.
// Requests with the same document, operation and shape share one compiled
// statement. An enum's value is part of the shape because it changes what
// the SQL says, not which value it compares with: an ordering field, a
// sort direction, a matching criterion. Written into the SQL text, it lets
// the database plan each case on its own (an index for an ordering, an
// index for a pattern), as PostGraphile plans its orderBy values; written
// as a CASE over every value, one cached plan had to serve them all and
// could use no index (a sort of every row where an index scan reads a
// page). Enums are finite, so the plans per document stay bounded.
func shape(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) string {
	var b strings.Builder
	var walk func(x any, t *ast.Type)
	walk = func(x any, t *ast.Type) {
		switch {
		case isNil(x):
			b.WriteByte('n')
		case t.Elem != nil:
			b.WriteByte('[')
			if rv := reflect.ValueOf(x); rv.Kind() == reflect.Slice {
				for i := 0; i < rv.Len(); i++ {
					walk(rv.Index(i).Interface(), t.Elem)
					b.WriteByte(',')
				}
			} else {
				walk(x, t.Elem)
				b.WriteByte(',')
			}
			b.WriteByte(']')
		case t.NamedType == "Boolean":
			fmt.Fprint(&b, x == true)
		case schema.Types[t.NamedType] != nil && schema.Types[t.NamedType].Kind == ast.Enum:
			if name, err := convert(x, convEnum, schema.Types[t.NamedType], ""); err == nil {
				b.WriteString(name.(string))
			} else {
				b.WriteByte('?') // coercion let it through; compiling reports it
			}
		case schema.Types[t.NamedType] != nil && schema.Types[t.NamedType].Kind == ast.InputObject:
			b.WriteByte('{')
			for _, f := range schema.Types[t.NamedType].Fields {
				if fx, ok := mapField(x, f.Name); ok && !isNil(fx) {
					b.WriteString(f.Name + ":")
					walk(fx, f.Type)
					b.WriteByte(',')
				}
			}
			b.WriteByte('}')
		default:
			b.WriteByte('v')
		}
	}
	for _, d := range op.VariableDefinitions {
		b.WriteString(d.Variable + "=")
		walk(vars[d.Variable], d.Type)
		b.WriteByte(';')
	}
	return b.String()
}

// lookup follows path inside x. Index 0 of a value that is not a list is
// the value itself: input coercion makes a one-element list of it.
func lookup(x any, path []any) any {
	for _, step := range path {
		if isNil(x) {
			return nil
		}
		switch s := step.(type) {
		case string:
			x, _ = mapField(x, s)
		case int:
			rv := reflect.ValueOf(x)
			switch {
			case rv.Kind() == reflect.Slice && s < rv.Len():
				x = rv.Index(s).Interface()
			case rv.Kind() == reflect.Slice:
				return nil
			case s != 0:
				return nil
			}
		}
	}
	return x
}

// mapField is field name of the input object x (a map with string keys).
func mapField(x any, name string) (any, bool) {
	if m, ok := x.(map[string]any); ok {
		v, ok := m[name]
		return v, ok
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	v := rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key()))
	if !v.IsValid() {
		return nil, false
	}
	return v.Interface(), true
}

func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch rv := reflect.ValueOf(x); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// conv is how a leaf becomes an SQL parameter value.
type conv int

const (
	convID     conv = iota // an ID: the int64 nr, or NULL (matches nothing) when it is not one
	convInt                // an Int (32-bit, as GraphQL defines it)
	convCount              // a non-negative Int: a limit or an offset
	convString             // a String
	convEnum               // an enum value, by its canonical name
	// A String as a LIKE pattern that matches it as a substring, a prefix,
	// a suffix: its %, _ and \ escaped (PostgreSQL's default escape).
	convLikeContains
	convLikePrefix
	convLikeSuffix
)

// likeEscaper escapes LIKE's wildcards and its escape character.
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)

// convert turns x, a literal's or a variable's value, into a parameter
// value as k says; enum is the enum type for convEnum. what names the
// argument in errors.
func convert(x any, k conv, enum *ast.Definition, what string) (any, error) {
	switch k {
	case convID:
		if nr := toID(x); nr != nil {
			return nr, nil
		}
		return nil, &fieldError{fmt.Sprintf("%s: ID %s is not an integer: every id of this schema is an integer nr", what, describe(x))}
	case convInt, convCount:
		n, ok := toInt(x)
		if !ok {
			return nil, fmt.Errorf("%s: Int cannot represent %v", what, x)
		}
		if k == convCount && n < 0 {
			return nil, fmt.Errorf("%s must not be negative, got %d", what, n)
		}
		return n, nil
	case convString, convLikeContains, convLikePrefix, convLikeSuffix:
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("%s: String cannot represent %v", what, x)
		}
		switch k {
		case convLikeContains:
			return "%" + likeEscaper.Replace(s) + "%", nil
		case convLikePrefix:
			return likeEscaper.Replace(s) + "%", nil
		case convLikeSuffix:
			return "%" + likeEscaper.Replace(s), nil
		}
		return s, nil
	default:
		if s, ok := x.(string); ok {
			for _, ev := range enum.EnumValues {
				if strings.EqualFold(ev.Name, s) { // as gqlparser's variable coercion accepts them
					return ev.Name, nil
				}
			}
		}
		return nil, fmt.Errorf("%s: %v is not a valid %s", what, x, enum.Name)
	}
}

// fieldError is an argument value that does not stop the request: the
// request runs, and the error goes with its data.
type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }

// describe is x for an error message: strings quoted.
func describe(x any) string {
	if s, ok := x.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(x)
}

// toID is the nr an ID stands for, or nil when it is not a 64-bit integer
// (no row has such an nr).
func toID(x any) any {
	switch v := x.(type) {
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return n
		}
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return int64(v)
		}
	default:
		if rv := reflect.ValueOf(x); rv.CanInt() {
			return rv.Int()
		}
	}
	return nil
}

// toInt is x as a GraphQL Int (a 32-bit signed integer). gqlparser's
// variable coercion lets integral floats and numeric strings through.
func toInt(x any) (int64, bool) {
	var n int64
	switch v := x.(type) {
	case int64:
		n = v
	case int:
		n = int64(v)
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32+1 {
			return 0, false
		}
		n = int64(v)
	case json.Number:
		i, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, false
		}
		n = i
	case string:
		i, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		n = i
	default:
		rv := reflect.ValueOf(x)
		if !rv.CanInt() {
			return 0, false
		}
		n = rv.Int()
	}
	return n, n >= math.MinInt32 && n <= math.MaxInt32
}
