package operation

import (
	"fmt"
	"strings"
)

// sdlWriter writes an introspection result's types and directives as SDL.
type sdlWriter struct {
	b   strings.Builder
	err error
}

func (w *sdlWriter) printf(format string, a ...any) { fmt.Fprintf(&w.b, format, a...) }

func (w *sdlWriter) fail(format string, a ...any) {
	if w.err == nil {
		w.err = fmt.Errorf(format, a...)
	}
}

// description writes a description, quoted, on a line of its own.
func (w *sdlWriter) description(d *string, indent string) {
	if d != nil && *d != "" {
		w.printf("%s%s\n", indent, Quote(*d))
	}
}

func (w *sdlWriter) typ(t introType) {
	if t.Name == "" {
		w.fail("a type without a name")
		return
	}
	w.printf("\n")
	w.description(t.Description, "")
	switch t.Kind {
	case "SCALAR":
		w.printf("scalar %s\n", t.Name)
	case "OBJECT", "INTERFACE":
		kw := "type"
		if t.Kind == "INTERFACE" {
			kw = "interface"
		}
		w.printf("%s %s%s {\n", kw, t.Name, w.implements(t.Interfaces))
		for _, f := range t.Fields {
			w.description(f.Description, "  ")
			w.printf("  %s%s: %s%s\n", f.Name, w.args(f.Args), w.ref(f.Type), deprecated(f.IsDeprecated, f.DeprecationReason))
		}
		w.printf("}\n")
	case "UNION":
		var names []string
		for _, p := range t.PossibleTypes {
			names = append(names, w.ref(&p))
		}
		w.printf("union %s = %s\n", t.Name, strings.Join(names, " | "))
	case "ENUM":
		w.printf("enum %s {\n", t.Name)
		for _, e := range t.EnumValues {
			w.description(e.Description, "  ")
			w.printf("  %s%s\n", e.Name, deprecated(e.IsDeprecated, e.DeprecationReason))
		}
		w.printf("}\n")
	case "INPUT_OBJECT":
		w.printf("input %s {\n", t.Name)
		for _, f := range t.InputFields {
			w.description(f.Description, "  ")
			w.printf("  %s\n", w.input(f))
		}
		w.printf("}\n")
	default:
		w.fail("type %s is of the unknown kind %q", t.Name, t.Kind)
	}
}

func (w *sdlWriter) implements(refs []introRef) string {
	if len(refs) == 0 {
		return ""
	}
	names := make([]string, len(refs))
	for i := range refs {
		names[i] = w.ref(&refs[i])
	}
	return " implements " + strings.Join(names, " & ")
}

// args writes an argument list on one line, each argument after its
// description.
func (w *sdlWriter) args(args []introInput) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = w.input(a)
		if a.Description != nil && *a.Description != "" {
			parts[i] = Quote(*a.Description) + " " + parts[i]
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// input writes an input value: name: Type = default. The default is
// GraphQL literal text already.
func (w *sdlWriter) input(in introInput) string {
	s := in.Name + ": " + w.ref(in.Type)
	if in.DefaultValue != nil {
		s += " = " + *in.DefaultValue
	}
	return s
}

// ref writes a type reference: T, [T], T!, nested.
func (w *sdlWriter) ref(r *introRef) string {
	if r == nil {
		w.fail("a type reference is missing")
		return "?"
	}
	switch r.Kind {
	case "NON_NULL":
		if r.OfType == nil || r.OfType.Kind == "NON_NULL" {
			w.fail("a NON_NULL type reference without a nullable type in it")
			return "?"
		}
		return w.ref(r.OfType) + "!"
	case "LIST":
		if r.OfType == nil {
			w.fail("a LIST type reference without its element type (deeper than the introspection query follows?)")
			return "?"
		}
		return "[" + w.ref(r.OfType) + "]"
	}
	if r.Name == nil || *r.Name == "" {
		w.fail("a %s type reference without a name", r.Kind)
		return "?"
	}
	return *r.Name
}

func (w *sdlWriter) directive(d introDirective) {
	w.printf("\n")
	w.description(d.Description, "")
	w.printf("directive @%s%s on %s\n", d.Name, w.args(d.Args), strings.Join(d.Locations, " | "))
}

// deprecated writes a @deprecated directive, or nothing.
func deprecated(is bool, reason *string) string {
	switch {
	case !is:
		return ""
	case reason == nil:
		return " @deprecated"
	}
	return " @deprecated(reason: " + Quote(*reason) + ")"
}
