package workload

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/operation"
)

// printer writes an operation in the templates' style: two-space indentation,
// one selection per line.
type printer struct {
	b strings.Builder
	// vars, when non-nil, replaces every variable by its value as a literal
	// (types gives the variables' types).
	vars  map[string]any
	types map[string]*ast.Type
	// sorted orders arguments and input-object fields by name: the canonical
	// form, in which two operations that mean the same print the same.
	sorted bool
	err    error
}

// printCanonical prints op with its name and variable definitions, arguments
// and object fields sorted: equal strings mean equal operations.
func printCanonical(op *ast.OperationDefinition) string {
	p := &printer{sorted: true}
	p.b.WriteString(string(op.Operation) + " " + op.Name)
	if len(op.VariableDefinitions) > 0 {
		p.b.WriteString("(")
		for i, vd := range op.VariableDefinitions {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString("$" + vd.Variable + ": " + vd.Type.String())
			if vd.DefaultValue != nil {
				p.b.WriteString(" = ")
				p.value(vd.DefaultValue)
			}
			p.directives(vd.Directives)
		}
		p.b.WriteString(")")
	}
	p.directives(op.Directives)
	p.b.WriteString(" ")
	p.selections(op.SelectionSet, 0)
	return p.b.String()
}

// printInline prints op as an anonymous query with vars written inline as
// literals, the way LinGBM's query files look.
func printInline(op *ast.OperationDefinition, vars map[string]any) (string, error) {
	p := &printer{vars: vars, types: map[string]*ast.Type{}}
	for _, vd := range op.VariableDefinitions {
		p.types[vd.Variable] = vd.Type
	}
	p.selections(op.SelectionSet, 0)
	p.b.WriteString("\n")
	return p.b.String(), p.err
}

func (p *printer) selections(set ast.SelectionSet, depth int) {
	p.b.WriteString("{\n")
	for _, s := range set {
		p.b.WriteString(strings.Repeat("  ", depth+1))
		switch s := s.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				p.b.WriteString(s.Alias + ": ")
			}
			p.b.WriteString(s.Name)
			p.arguments(s.Arguments)
			p.directives(s.Directives)
			if len(s.SelectionSet) > 0 {
				p.b.WriteString(" ")
				p.selections(s.SelectionSet, depth+1)
			}
		case *ast.FragmentSpread:
			p.b.WriteString("..." + s.Name)
			p.directives(s.Directives)
		case *ast.InlineFragment:
			p.b.WriteString("...")
			if s.TypeCondition != "" {
				p.b.WriteString(" on " + s.TypeCondition)
			}
			p.directives(s.Directives)
			p.b.WriteString(" ")
			p.selections(s.SelectionSet, depth+1)
		}
		p.b.WriteString("\n")
	}
	p.b.WriteString(strings.Repeat("  ", depth) + "}")
}

func (p *printer) arguments(args ast.ArgumentList) {
	if len(args) == 0 {
		return
	}
	list := slices.Clone(args)
	if p.sorted {
		slices.SortStableFunc(list, func(a, b *ast.Argument) int { return strings.Compare(a.Name, b.Name) })
	}
	p.b.WriteString("(")
	for i, a := range list {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.b.WriteString(a.Name + ": ")
		p.value(a.Value)
	}
	p.b.WriteString(")")
}

func (p *printer) directives(ds ast.DirectiveList) {
	for _, d := range ds {
		p.b.WriteString(" @" + d.Name)
		p.arguments(d.Arguments)
	}
}

func (p *printer) value(v *ast.Value) {
	switch v.Kind {
	case ast.Variable:
		if p.vars == nil {
			p.b.WriteString("$" + v.Raw)
			return
		}
		val, ok := p.vars[v.Raw]
		if !ok {
			p.fail(fmt.Errorf("no value for $%s", v.Raw))
			return
		}
		s, err := literal(val, p.types[v.Raw])
		p.fail(err)
		p.b.WriteString(s)
	case ast.StringValue, ast.BlockValue:
		p.b.WriteString(operation.Quote(v.Raw))
	case ast.ListValue:
		p.b.WriteString("[")
		for i, c := range v.Children {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.value(c.Value)
		}
		p.b.WriteString("]")
	case ast.ObjectValue:
		fields := slices.Clone(v.Children)
		if p.sorted {
			slices.SortStableFunc(fields, func(a, b *ast.ChildValue) int { return strings.Compare(a.Name, b.Name) })
		}
		p.b.WriteString("{")
		for i, c := range fields {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(c.Name + ": ")
			p.value(c.Value)
		}
		p.b.WriteString("}")
	default: // Int, Float, Boolean, Null, Enum: the raw token
		p.b.WriteString(v.Raw)
	}
}

func (p *printer) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

var (
	intLiteral  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	nameLiteral = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)
)

// literal writes a variable's value as a GraphQL literal of type t. An ID
// that is an integer is written as an integer, as LinGBM's query files do.
func literal(v any, t *ast.Type) (string, error) {
	if t == nil {
		return "", fmt.Errorf("a value without a type")
	}
	if v == nil {
		return "null", nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return literal(v, t.Elem) // input coercion: a single value for a list
		}
		parts := make([]string, len(list))
		for i, e := range list {
			s, err := literal(e, t.Elem)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	def := Schema().Types[t.NamedType]
	switch {
	case t.NamedType == "ID":
		switch x := v.(type) {
		case string:
			if intLiteral.MatchString(x) {
				return x, nil
			}
			return operation.Quote(x), nil
		case int:
			return strconv.Itoa(x), nil
		}
	case t.NamedType == "Int":
		if x, ok := v.(int); ok {
			return strconv.Itoa(x), nil
		}
	case t.NamedType == "String":
		if x, ok := v.(string); ok {
			return operation.Quote(x), nil
		}
	case def != nil && def.Kind == ast.Enum:
		if x, ok := v.(string); ok && nameLiteral.MatchString(x) {
			return x, nil
		}
	}
	return "", fmt.Errorf("cannot write %v (%T) as a %s literal", v, v, t)
}
