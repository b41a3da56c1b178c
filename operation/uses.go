package operation

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// use is one place a variable is used.
type use struct {
	name string
	pos  *ast.Position
	in   string // the fragment it is used in, "" for the operation itself
}

// resolver walks an operation and the fragments it spreads.
type resolver struct {
	frags  map[string]*fragment
	active map[string]bool // fragments being walked: spreading one again is a cycle
	seen   map[string]bool // fragments walked
	used   []*fragment     // in order of first use
	uses   []use
	errs   []error
}

// resolve finds the fragments op uses, checks its variables' definitions
// against their uses and sets op.Text to the operation followed by its
// fragments.
func (op *Operation) resolve(frags map[string]*fragment) []error {
	r := &resolver{frags: frags, active: map[string]bool{}, seen: map[string]bool{}}
	r.directives(op.def.Directives, "")
	r.selections(op.def.SelectionSet, "")
	defined := map[string]*ast.VariableDefinition{}
	for _, v := range op.def.VariableDefinitions {
		if _, dup := defined[v.Variable]; dup {
			r.errs = append(r.errs, errorAt(v.Position, "$%s is defined twice by operation %s", v.Variable, op.Name))
		}
		defined[v.Variable] = v
	}
	used := map[string]bool{}
	for _, u := range r.uses {
		used[u.name] = true
		if defined[u.name] == nil {
			in := ""
			if u.in != "" {
				in = " (used in fragment " + u.in + ")"
			}
			r.errs = append(r.errs, errorAt(u.pos, "$%s is not defined by operation %s%s", u.name, op.Name, in))
		}
	}
	for _, v := range op.def.VariableDefinitions {
		if !used[v.Variable] {
			r.errs = append(r.errs, errorAt(v.Position, "$%s is defined by operation %s but never used", v.Variable, op.Name))
		}
	}
	op.frags = r.used
	var b strings.Builder
	b.WriteString(op.Text)
	for _, f := range r.used {
		b.WriteString("\n\n")
		b.WriteString(f.text)
	}
	op.Text = b.String()
	return r.errs
}

func (r *resolver) selections(set ast.SelectionSet, in string) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			r.arguments(s.Arguments, in)
			r.directives(s.Directives, in)
			r.selections(s.SelectionSet, in)
		case *ast.InlineFragment:
			r.directives(s.Directives, in)
			r.selections(s.SelectionSet, in)
		case *ast.FragmentSpread:
			r.directives(s.Directives, in)
			r.spread(s)
		}
	}
}

func (r *resolver) spread(s *ast.FragmentSpread) {
	f := r.frags[s.Name]
	switch {
	case f == nil:
		r.errs = append(r.errs, errorAt(s.Position, "fragment %s is not defined", s.Name))
		return
	case r.active[s.Name]:
		r.errs = append(r.errs, errorAt(s.Position, "fragment %s spreads itself", s.Name))
		return
	case r.seen[s.Name]:
		return
	}
	r.seen[s.Name] = true
	r.used = append(r.used, f)
	r.active[s.Name] = true
	r.directives(f.def.Directives, s.Name)
	r.selections(f.def.SelectionSet, s.Name)
	delete(r.active, s.Name)
}

func (r *resolver) directives(ds ast.DirectiveList, in string) {
	for _, d := range ds {
		r.arguments(d.Arguments, in)
	}
}

func (r *resolver) arguments(args ast.ArgumentList, in string) {
	for _, a := range args {
		r.value(a.Value, in)
	}
}

func (r *resolver) value(v *ast.Value, in string) {
	if v == nil {
		return
	}
	if v.Kind == ast.Variable {
		r.uses = append(r.uses, use{name: v.Raw, pos: v.Position, in: in})
		return
	}
	for _, c := range v.Children {
		r.value(c.Value, in)
	}
}
