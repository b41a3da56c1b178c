package operation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

// Applies reports whether a row without an operation fits op: op defines
// variables, every variable the row gives a value is one of op's, and every
// variable op requires (non-null without a default) is given one.
func Applies(op *Operation, row *Row) bool {
	if len(op.def.VariableDefinitions) == 0 {
		return false
	}
	for _, name := range row.Names() {
		if op.def.VariableDefinitions.ForName(name) == nil {
			return false
		}
	}
	for _, v := range op.def.VariableDefinitions {
		if Required(v) && !row.has(v.Variable) {
			return false
		}
	}
	return true
}

func (r *Row) has(name string) bool {
	if _, ok := r.Cells[name]; ok {
		return true
	}
	_, ok := r.Values[name]
	return ok
}

// Bind returns the variables row gives op: CSV cells coerced by the types
// of the variables they are bound to, JSON values checked against them;
// absent variables are left out (the server applies their defaults). With
// schema (nil for none), enums and input objects are checked too, and the
// whole is checked again by gqlparser's validator.VariableValues. Errors
// name the file, row, line, column and type.
func Bind(op *Operation, row *Row, vars *Vars, schema *ast.Schema) (map[string]any, error) {
	out := map[string]any{}
	for _, name := range row.Names() {
		if op.def.VariableDefinitions.ForName(name) == nil {
			return nil, fmt.Errorf("%s, %s: operation %s has no variable $%s (its variables: %s)",
				row.where(vars), column(vars, name), op.Name, name, varList(op))
		}
	}
	for _, v := range op.def.VariableDefinitions {
		if !row.has(v.Variable) {
			if Required(v) {
				return nil, fmt.Errorf("%s, %s: no value, and operation %s requires $%s: %s",
					row.where(vars), column(vars, v.Variable), op.Name, v.Variable, v.Type)
			}
			continue
		}
		var val any
		var err error
		if vars.CSV {
			val, err = coerceCell(row.Cells[v.Variable], v.Type, schema)
		} else {
			val = row.Values[v.Variable]
			err = checkValue(v.Type, val, schema, "")
		}
		if err != nil {
			return nil, fmt.Errorf("%s, %s ($%s: %s of operation %s): %w",
				row.where(vars), column(vars, v.Variable), v.Variable, v.Type, op.Name, err)
		}
		out[v.Variable] = val
	}
	if schema != nil && validated(op) {
		if _, err := validator.VariableValues(schema, op.def, deepCopy(out)); err != nil {
			return nil, fmt.Errorf("%s: operation %s: %w", row.where(vars), op.Name, err)
		}
	}
	return out, nil
}

// validated reports whether op's variables have their schema definitions,
// as validation sets them (validator.VariableValues needs them).
func validated(op *Operation) bool {
	for _, v := range op.def.VariableDefinitions {
		if v.Definition == nil {
			return false
		}
	}
	return true
}

// column names a variable's place in a row: a CSV column or a JSON member.
func column(vars *Vars, name string) string {
	if vars.CSV {
		return "column " + name
	}
	return "member " + name
}

// varList lists op's variable definitions: "$a: Int!, $b: String".
func varList(op *Operation) string {
	var parts []string
	for _, v := range op.def.VariableDefinitions {
		parts = append(parts, "$"+v.Variable+": "+v.Type.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// deepCopy copies a variables map through JSON (validator.VariableValues
// writes into input objects).
func deepCopy(vars map[string]any) map[string]any {
	b, err := marshal(vars)
	if err != nil {
		return vars
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if dec.Decode(&out) != nil {
		return vars
	}
	return out
}

// marshal writes v as compact JSON, object members sorted, without
// escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
