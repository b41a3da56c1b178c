package operation

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// Literal returns op's text with vars written in as GraphQL literals: the
// variable definitions are removed and every use of a variable is replaced
// by its value printed as a literal of the variable's type (an enum bare,
// an ID or String quoted, input objects and lists recursively). A variable
// without a value takes its default; one without a default either is left
// out with its argument or object field (an absent argument, as the
// variable form means, not an explicit null), or, in a list, is null.
//
// The text is edited token by token, so everything else stays as written:
// the literal and the variable forms differ only where variables were.
//
// Without a schema, the types of input object fields are unknown, and so is
// whether a named type that is not built in is an enum or a custom scalar:
// a string there is quoted when it cannot be an enum value, and refused
// when it could be one ("give a schema").
func (op *Operation) Literal(vars map[string]any, schema *ast.Schema) (string, error) {
	toks, _, err := tokens(op.File, op.Text)
	if err != nil {
		return "", err
	}
	runes := []rune(op.Text)
	lp := &literalPrinter{schema: schema}
	ed := &editor{}
	i := 0
	if toks[0].Kind == lexer.Name { // query or mutation, not the { of a shorthand query
		i = 1
		if toks[i].Kind == lexer.Name {
			i++
		}
		if toks[i].Kind == lexer.ParenL {
			j := closing(toks, i)
			ed.root = append(ed.root, edit{toks[i-1].Pos.End, toks[j].Pos.End, ""})
			i = j + 1
		}
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		switch t.Kind {
		case lexer.ParenL, lexer.BracketL, lexer.BraceL:
			ed.open(i, t.Kind)
		case lexer.ParenR, lexer.BracketR, lexer.BraceR:
			ed.close(toks, i)
		case lexer.Name:
			if i+1 < len(toks) && toks[i+1].Kind == lexer.Colon && ed.inValue() {
				ed.top().pairs = append(ed.top().pairs, pair{name: i})
			}
		case lexer.Dollar:
			name := toks[i+1]
			def := op.def.VariableDefinitions.ForName(name.Value)
			if def == nil {
				return "", fmt.Errorf("$%s is not defined", name.Value) // Parse refuses this
			}
			text, drop, err := lp.variable(def, vars)
			if err != nil {
				return "", fmt.Errorf("$%s: %w", def.Variable, err)
			}
			pair := i >= 2 && toks[i-1].Kind == lexer.Colon && toks[i-2].Kind == lexer.Name && ed.inValue()
			switch {
			case drop && pair:
				f := ed.top()
				f.pairs[len(f.pairs)-1].dropped = true
			case drop:
				ed.add(edit{t.Pos.Start, name.Pos.End, "null"})
			default:
				ed.add(edit{t.Pos.Start, name.Pos.End, text})
			}
			i++
		}
	}
	out := apply(runes, ed.root)
	if _, err := parser.ParseQuery(&ast.Source{Name: op.File, Input: out}); err != nil {
		return "", fmt.Errorf("the query with literals does not parse (%v):\n%s", err, out)
	}
	return out, nil
}

// closing returns the index of the token that closes the one at i.
func closing(toks []lexer.Token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].Kind {
		case lexer.ParenL, lexer.BracketL, lexer.BraceL:
			depth++
		case lexer.ParenR, lexer.BracketR, lexer.BraceR:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// edit replaces the runes [start, end) by text.
type edit struct {
	start, end int
	text       string
}

// frame is one open bracket: the edits made inside it, and for argument
// lists and object values their name: value pairs, some dropped (an
// argument list left empty is dropped whole: f() is not GraphQL).
type frame struct {
	open  int
	kind  lexer.Type
	value bool   // an argument list, or a list or object inside one
	pairs []pair // its name: value pairs, for an argument list or an object
	edits []edit
}

// pair is a name: value pair: the index of its name token, and whether it
// is dropped (its value a variable without a value or a default).
type pair struct {
	name    int
	dropped bool
}

// editor collects edits per open bracket.
type editor struct {
	stack []*frame
	root  []edit
}

func (e *editor) top() *frame { return e.stack[len(e.stack)-1] }

// inValue reports whether the innermost bracket holds name: value pairs:
// an argument list or an object value.
func (e *editor) inValue() bool {
	if len(e.stack) == 0 {
		return false
	}
	t := e.top()
	return t.value && (t.kind == lexer.ParenL || t.kind == lexer.BraceL)
}

func (e *editor) open(i int, kind lexer.Type) {
	// Every parenthesis after the variable definitions opens arguments; a
	// brace or bracket inside arguments is a value; any other brace opens a
	// selection set.
	value := kind == lexer.ParenL || len(e.stack) > 0 && e.top().value
	e.stack = append(e.stack, &frame{open: i, kind: kind, value: value})
}

func (e *editor) close(toks []lexer.Token, i int) {
	if len(e.stack) == 0 {
		return
	}
	f := e.top()
	e.stack = e.stack[:len(e.stack)-1]
	drops, all := f.drops(toks, i)
	if all && f.kind == lexer.ParenL {
		e.add(edit{toks[f.open].Pos.Start, toks[i].Pos.End, ""})
		return
	}
	for _, ed := range append(f.edits, drops...) {
		e.add(ed)
	}
}

// drops returns the deletions of f's dropped pairs, f being closed by
// toks[closer], and whether every pair is dropped. A run of dropped pairs
// goes with the separator before it, or, at the start, the one after it,
// so that no stray comma is left.
func (f *frame) drops(toks []lexer.Token, closer int) ([]edit, bool) {
	var out []edit
	all := len(f.pairs) > 0
	last := func(k int) int { // the last token of pair k
		if k+1 < len(f.pairs) {
			return f.pairs[k+1].name - 1
		}
		return closer - 1
	}
	for k := 0; k < len(f.pairs); k++ {
		if !f.pairs[k].dropped {
			all = false
			continue
		}
		run := k
		for k+1 < len(f.pairs) && f.pairs[k+1].dropped {
			k++
		}
		switch {
		case run > 0: // after a kept pair: from its end
			out = append(out, edit{toks[last(run-1)].Pos.End, toks[last(k)].Pos.End, ""})
		case k+1 < len(f.pairs): // at the start: up to the next kept pair
			out = append(out, edit{toks[f.pairs[run].name].Pos.Start, toks[f.pairs[k+1].name].Pos.Start, ""})
		default: // all of them
			out = append(out, edit{toks[f.pairs[run].name].Pos.Start, toks[last(k)].Pos.End, ""})
		}
	}
	return out, all
}

func (e *editor) add(ed edit) {
	if len(e.stack) == 0 {
		e.root = append(e.root, ed)
		return
	}
	e.top().edits = append(e.top().edits, ed)
}

// apply makes the edits, which do not overlap.
func apply(runes []rune, edits []edit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.WriteString(string(runes[at:e.start]))
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(string(runes[at:]))
	return b.String()
}

// literalPrinter prints values as GraphQL literals.
type literalPrinter struct {
	schema *ast.Schema
}

// variable returns the literal a use of def stands for, or drop when the
// variable has neither a value nor a default.
func (p *literalPrinter) variable(def *ast.VariableDefinition, vars map[string]any) (text string, drop bool, err error) {
	v, ok := vars[def.Variable]
	switch {
	case ok:
		var b strings.Builder
		err := p.value(&b, def.Type, v, "")
		return b.String(), false, err
	case def.DefaultValue != nil:
		return constant(def.DefaultValue), false, nil
	}
	return "", true, nil
}

// What a literal printer knows of the type of a place.
const (
	unknown = iota // no schema: an enum, an input object or a custom scalar
	builtin        // Int, Float, String, ID, Boolean
	enum
	input  // an input object
	opaque // a custom scalar, or inside one: strings are strings
)

// value writes v as a literal of type typ (nil when unknown).
func (p *literalPrinter) value(b *strings.Builder, typ *ast.Type, v any, path string) error {
	if v == nil {
		b.WriteString("null")
		return nil
	}
	if typ != nil && typ.Elem != nil {
		if list, ok := v.([]any); ok {
			return p.list(b, typ.Elem, list, path, unknown)
		}
		return p.value(b, typ.Elem, v, path) // a single value for a list of one
	}
	kind, def := unknown, (*ast.Definition)(nil)
	if typ != nil {
		kind, def = p.kind(typ.NamedType)
	}
	return p.write(b, kind, def, v, path)
}

// kind says what a named type is.
func (p *literalPrinter) kind(name string) (int, *ast.Definition) {
	switch name {
	case "Int", "Float", "String", "ID", "Boolean":
		return builtin, nil
	}
	def := lookupType(p.schema, name)
	switch {
	case def == nil:
		return unknown, nil
	case def.Kind == ast.Enum:
		return enum, def
	case def.Kind == ast.InputObject:
		return input, def
	}
	return opaque, def
}

// write writes v, of a type of that kind.
func (p *literalPrinter) write(b *strings.Builder, kind int, def *ast.Definition, v any, path string) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		switch {
		case kind == enum:
			if !nameRE.MatchString(v) {
				return fmt.Errorf("%s%q is not a value of the enum %s", at(path), v, def.Name)
			}
			b.WriteString(v)
		case kind == unknown && nameRE.MatchString(v) && v != "true" && v != "false" && v != "null":
			return fmt.Errorf("%s%q could be an enum value or a string, and without a schema gqlbench cannot tell which: give --schema", at(path), v)
		default:
			b.WriteString(Quote(v))
		}
	case json.Number:
		b.WriteString(string(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case []any:
		return p.list(b, nil, v, path, kind)
	case map[string]any:
		return p.object(b, kind, def, v, path)
	default:
		return fmt.Errorf("%scannot write %T as a literal", at(path), v)
	}
	return nil
}

// list writes a list whose elements are of type elem, or, when elem is nil,
// of the kind of the list's place (inside a custom scalar, or unknown).
func (p *literalPrinter) list(b *strings.Builder, elem *ast.Type, list []any, path string, kind int) error {
	b.WriteString("[")
	for i, e := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		var err error
		if elem != nil {
			err = p.value(b, elem, e, fmt.Sprintf("%s[%d]", path, i))
		} else {
			err = p.write(b, kind, nil, e, fmt.Sprintf("%s[%d]", path, i))
		}
		if err != nil {
			return err
		}
	}
	b.WriteString("]")
	return nil
}

// object writes an object: an input object's fields by their types, those
// inside a custom scalar as its content, others as unknown.
func (p *literalPrinter) object(b *strings.Builder, kind int, def *ast.Definition, obj map[string]any, path string) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("{")
	for i, k := range keys {
		if !nameRE.MatchString(k) {
			return fmt.Errorf("%s%q cannot be a field name in a GraphQL literal", at(path), k)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + ": ")
		var err error
		switch {
		case kind == input && def.Fields.ForName(k) != nil:
			err = p.value(b, def.Fields.ForName(k).Type, obj[k], path+"."+k)
		case kind == opaque:
			err = p.write(b, opaque, nil, obj[k], path+"."+k)
		default:
			err = p.write(b, unknown, nil, obj[k], path+"."+k)
		}
		if err != nil {
			return err
		}
	}
	b.WriteString("}")
	return nil
}

// constant prints a constant value of the syntax tree (a default value).
func constant(v *ast.Value) string {
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		return Quote(v.Raw)
	case ast.ListValue:
		parts := make([]string, len(v.Children))
		for i, c := range v.Children {
			parts[i] = constant(c.Value)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ast.ObjectValue:
		parts := make([]string, len(v.Children))
		for i, c := range v.Children {
			parts[i] = c.Name + ": " + constant(c.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.Raw // Int, Float, Boolean, null, an enum value
}
