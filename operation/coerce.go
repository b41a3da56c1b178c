package operation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// The coercion of CSV cells, by the type of the variable bound to them:
//
//	the text null           JSON null (an error for a non-null type)
//	Int                     a 32-bit integer: 42, -7
//	Float                   a finite number: 2.5, 1e-3, 4
//	Boolean                 true or false
//	ID, String              the text as it is
//	an enum                 the text as it is (with a schema: one of the enum's values)
//	an input object         JSON text of an object: {"first": 10}
//	a list type ([T])       JSON text, checked element by element: [1, 2];
//	                        any other text is a single value, coerced as a
//	                        T, and stands for a list of one: 5 is [5],
//	                        classic is ["classic"]
//	any other named type    JSON when the text is a JSON object or array, else the
//	                        text (without a schema: enum, input object or custom
//	                        scalar cannot be told apart; with one: a custom scalar)
//
// An empty cell is an absent variable: its default applies, or, when it is
// required, the row is refused.

// coerceCell turns a CSV cell into the value of a variable of type typ.
func coerceCell(cell string, typ *ast.Type, schema *ast.Schema) (any, error) {
	if cell == "null" {
		if typ.NonNull {
			return nil, fmt.Errorf("null for the non-null type %s", typ)
		}
		return nil, nil
	}
	if typ.Elem != nil {
		if !strings.HasPrefix(strings.TrimSpace(cell), "[") {
			// a single value stands for a list of one: coerced as an
			// element, sent as the list of it
			v, err := coerceCell(cell, typ.Elem, schema)
			if err != nil {
				return nil, fmt.Errorf("%w (a single value for the list type %s, a list of one; a list is JSON text, e.g. [1, 2])", err, typ)
			}
			return []any{v}, nil
		}
		v, err := decodeJSON(cell)
		if err != nil {
			return nil, fmt.Errorf("%q is not a JSON list, as a value of the list type %s that starts with [ must be (e.g. [1, 2]; a single value, without [, stands for a list of one)", clip(cell), typ)
		}
		return v, checkValue(typ, v, schema, "")
	}
	text := strings.TrimSpace(cell)
	switch typ.NamedType {
	case "Int":
		n, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not an Int (a 32-bit integer)", clip(cell))
		}
		return n, nil
	case "Float":
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%q is not a Float (a finite number)", clip(cell))
		}
		return f, nil
	case "Boolean":
		switch text {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a Boolean (true or false)", clip(cell))
	case "ID", "String":
		return cell, nil
	}
	if def := lookupType(schema, typ.NamedType); def != nil {
		switch def.Kind {
		case ast.Enum:
			return cell, checkValue(typ, cell, schema, "")
		case ast.InputObject:
			v, err := decodeJSON(cell)
			if err != nil {
				return nil, fmt.Errorf("%q is not JSON, as a value of the input object %s must be (e.g. {\"field\": 1})", clip(cell), typ.NamedType)
			}
			return v, checkValue(typ, v, schema, "")
		}
	}
	if t := strings.TrimSpace(cell); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if v, err := decodeJSON(t); err == nil {
			return v, nil
		}
	}
	return cell, nil
}

// checkValue checks a JSON value (decoded with json.Number, or coerced from
// a cell) against typ the way a server's input coercion would: Int
// integral and 32-bit, Float a number, String a string, ID a string or an
// integer, Boolean a boolean; a single value stands for a list of one. With
// a schema, enums must be one of their values and input objects have only
// their fields and all required ones; without, any non-null value passes
// for a type that is not built in. path names the place in messages.
func checkValue(typ *ast.Type, v any, schema *ast.Schema, path string) error {
	if v == nil {
		if typ.NonNull {
			return fmt.Errorf("%snull for the non-null type %s", at(path), typ)
		}
		return nil
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return checkValue(typ.Elem, v, schema, path)
		}
		for i, e := range list {
			if err := checkValue(typ.Elem, e, schema, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	name := typ.NamedType
	bad := func(want string) error { return fmt.Errorf("%s%s is not %s", at(path), describe(v), want) }
	switch name {
	case "Int":
		if !integer(v, 32) {
			return bad("an Int (a 32-bit integer)")
		}
		return nil
	case "Float":
		if _, ok := number(v); !ok {
			return bad("a Float")
		}
		return nil
	case "String":
		if _, ok := v.(string); !ok {
			return bad("a String")
		}
		return nil
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return bad("a Boolean")
		}
		return nil
	case "ID":
		if _, ok := v.(string); ok {
			return nil
		}
		if n, ok := v.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") || integer(v, 64) {
			return nil // an integer of any size: an ID is opaque
		}
		return bad("an ID (a string or an integer)")
	}
	def := lookupType(schema, name)
	if def == nil {
		return nil // not built in, and no schema to say more
	}
	switch def.Kind {
	case ast.Enum:
		s, ok := v.(string)
		if !ok || def.EnumValues.ForName(s) == nil {
			return bad(fmt.Sprintf("a value of the enum %s (%s)", name, enumValues(def)))
		}
	case ast.InputObject:
		return checkObject(def, v, schema, path)
	case ast.Scalar:
		// a custom scalar: the server's to judge
	default:
		return fmt.Errorf("%s%s is not an input type", at(path), name)
	}
	return nil
}

// checkObject checks v as a value of the input object def.
func checkObject(def *ast.Definition, v any, schema *ast.Schema, path string) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s%s is not an input object %s", at(path), describe(v), def.Name)
	}
	for k := range obj {
		if def.Fields.ForName(k) == nil {
			return fmt.Errorf("%s%s has no field %q", at(path), def.Name, k)
		}
	}
	for _, f := range def.Fields {
		val, ok := obj[f.Name]
		if !ok {
			if f.Type.NonNull && f.DefaultValue == nil {
				return fmt.Errorf("%sthe required field %s of %s is missing", at(path), f.Name, def.Name)
			}
			continue
		}
		if err := checkValue(f.Type, val, schema, path+"."+f.Name); err != nil {
			return err
		}
	}
	return nil
}

// lookupType returns the schema's definition of name, or nil without a
// schema.
func lookupType(schema *ast.Schema, name string) *ast.Definition {
	if schema == nil {
		return nil
	}
	return schema.Types[name]
}

// number returns a JSON number's value.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// integer reports whether v is an integer of that many bits: a JSON number
// written as one (not 1.0 or 1e2, as gqlparser's variable coercion has it),
// or an integral int64 or float64.
func integer(v any, bits int) bool {
	switch n := v.(type) {
	case json.Number:
		_, err := strconv.ParseInt(string(n), 10, bits)
		return err == nil
	case int64:
		return bits == 64 || n >= math.MinInt32 && n <= math.MaxInt32
	case uint64:
		return bits == 64 && n <= math.MaxInt64 || n <= math.MaxInt32
	case float64:
		lim := math.Pow(2, float64(bits-1))
		return n == math.Trunc(n) && n >= -lim && n < lim
	}
	return false
}

// decodeJSON decodes exactly one JSON value with json.Number numbers.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func enumValues(def *ast.Definition) string {
	var names []string
	for _, e := range def.EnumValues {
		names = append(names, e.Name)
	}
	if len(names) > 8 {
		names = append(names[:8], "…")
	}
	return strings.Join(names, ", ")
}

// describe writes v short, as JSON.
func describe(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return clip(strings.TrimSpace(b.String()))
}

func at(path string) string {
	if path == "" {
		return ""
	}
	return strings.TrimPrefix(path, ".") + ": "
}
