// Package dialect holds the benchmark's templates written in the schemas of
// servers that generate their own GraphQL API from the database — a
// dialect — and maps those servers' answers back to the benchmark's, so
// that the oracle's expected answers apply unchanged (LinGBM's Scenario 2,
// DESIGN Appendix C).
//
// A dialect template is a .graphql file named after the benchmark template
// it rewrites (postgraphile/QT4.graphql). Comment lines before the
// operation describe it; two kinds of them are directives:
//
//	# Map: merge lecturer.facultyByNr
//	# Map: list lecturer.doctoralDegreeFrom.undergraduateDegreeObtainedBystudent
//	# Var: publicationOrder from attrPublicationField title=TITLE_DESC abstract=ABSTRACT_DESC
//
// The Map lines are the template's Mapping, applied in order to the
// answer's data (see the Op constants: list, one, merge, nest, aggregate);
// the template's aliases already give most fields the benchmark's names.
// The Var lines say how an instance's variables are made from the benchmark
// instance's (Template.Variables).
//
// A queries file entry written in a dialect names it ("dialect":
// "postgraphile") and keeps the benchmark template's label and expected
// answer; the load generator maps each answer with Find(dialect,
// label).Mapping before comparing it. The package imports the standard
// library only: the load generator uses it.
package dialect

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed postgraphile/*.graphql
var files embed.FS

// Dialect is a set of templates written in one server's schema.
type Dialect struct {
	Name string // as in queries files and on the command line: "postgraphile"
	// Server names the server and versions the templates are written for.
	Server    string
	Templates []*Template // by the benchmark's template number
}

// Template is one benchmark template written in a dialect.
type Template struct {
	Label       string // the benchmark template's: "QT4"
	Query       string // the operation, comments before it removed
	Description string // the header's comment lines that are not directives
	Mapping     Mapping
	Vars        []Var
	dialect     string
}

// known lists the dialects: a name, its directory of templates, the server.
var known = []struct{ name, server string }{
	{"postgraphile", "PostGraphile 5.1.5 with postgraphile-plugin-connection-filter 4.0.1 (connectionFilterRelations) and @graphile/pg-aggregates 0.2.0-rc.2, PgIndexBehaviorsPlugin disabled"},
}

var registry = sync.OnceValue(func() []*Dialect {
	var out []*Dialect
	for _, k := range known {
		d, err := load(files, k.name, k.server)
		if err != nil {
			panic("dialect: " + err.Error())
		}
		out = append(out, d)
	}
	return out
})

// Names lists the dialects' names, sorted.
func Names() []string {
	var out []string
	for _, d := range registry() {
		out = append(out, d.Name)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the dialect called name.
func Lookup(name string) (*Dialect, error) {
	for _, d := range registry() {
		if d.Name == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown dialect %q: gqlbench knows %s", name, strings.Join(Names(), ", "))
}

// Template returns the dialect's template of the benchmark template label.
func (d *Dialect) Template(label string) (*Template, error) {
	for _, t := range d.Templates {
		if t.Label == label {
			return t, nil
		}
	}
	var have []string
	for _, t := range d.Templates {
		have = append(have, t.Label)
	}
	return nil, fmt.Errorf("dialect %s has no template %q (it has %s)", d.Name, label, strings.Join(have, ", "))
}

// Find returns the template label of the dialect called name.
func Find(name, label string) (*Template, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return d.Template(label)
}

// load reads the templates of a dialect from dir in fsys.
func load(fsys fs.FS, dir, server string) (*Dialect, error) {
	names, err := fs.Glob(fsys, dir+"/*.graphql")
	if err != nil {
		return nil, err
	}
	d := &Dialect{Name: dir, Server: server}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		t, err := Parse(strings.TrimSuffix(path.Base(n), ".graphql"), string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		t.dialect = dir
		d.Templates = append(d.Templates, t)
	}
	if len(d.Templates) == 0 {
		return nil, fmt.Errorf("dialect %s has no templates", dir)
	}
	slices.SortFunc(d.Templates, func(a, b *Template) int { return number(a.Label) - number(b.Label) })
	return d, nil
}

// number is n of "QT<n>", 0 for another label.
func number(label string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(label, "QT"))
	if err != nil || !strings.HasPrefix(label, "QT") {
		return 0
	}
	return n
}

// Parse reads a dialect template: the comment lines of its header (Map and
// Var directives among them), then the GraphQL operation. It checks the
// directives, not the GraphQL: that is for the server the dialect is
// written for.
func Parse(label, text string) (*Template, error) {
	t := &Template{Label: label}
	lines := strings.Split(text, "\n")
	i := 0
	var desc []string
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "#") {
			break
		}
		c := strings.TrimSpace(strings.TrimPrefix(l, "#"))
		var err error
		switch {
		case strings.HasPrefix(c, "Map:"):
			err = t.addRule(strings.TrimSpace(strings.TrimPrefix(c, "Map:")))
		case strings.HasPrefix(c, "Var:"):
			err = t.addVar(strings.TrimSpace(strings.TrimPrefix(c, "Var:")))
		default:
			desc = append(desc, c)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	t.Description = strings.Join(desc, " ")
	t.Query = strings.TrimSpace(strings.Join(lines[i:], "\n"))
	if t.Query == "" {
		return nil, fmt.Errorf("no operation after the header")
	}
	for _, v := range t.Vars {
		if !usesVariable(t.Query, v.Name) {
			return nil, fmt.Errorf("Var %s: the operation has no $%s", v.Name, v.Name)
		}
	}
	return t, nil
}

// addRule parses "OP PATH [NAME]".
func (t *Template) addRule(s string) error {
	f := strings.Fields(s)
	if len(f) < 2 {
		return fmt.Errorf("Map %q: want OP PATH (OP one of list, one, merge, nest, aggregate)", s)
	}
	r := Rule{Op: f[0], Path: strings.Split(f[1], ".")}
	for _, p := range r.Path {
		if p == "" {
			return fmt.Errorf("Map %q: an empty member in the path %q", s, f[1])
		}
	}
	switch {
	case r.Op == OpNest && len(f) == 3:
		r.Name = f[2]
	case r.Op == OpNest:
		return fmt.Errorf("Map %q: want nest PATH NAME", s)
	case r.Op != OpList && r.Op != OpOne && r.Op != OpMerge && r.Op != OpAggregate:
		return fmt.Errorf("Map %q: unknown operation %q (want list, one, merge, nest or aggregate)", s, r.Op)
	case len(f) != 2:
		return fmt.Errorf("Map %q: want %s PATH", s, r.Op)
	}
	t.Mapping.Rules = append(t.Mapping.Rules, r)
	return nil
}

// addVar parses "NAME from FROM [VALUE=DIALECTVALUE ...] [no-backslash]".
func (t *Template) addVar(s string) error {
	f := strings.Fields(s)
	if len(f) < 3 || f[1] != "from" {
		return fmt.Errorf("Var %q: want NAME from BENCHMARKVAR [VALUE=DIALECTVALUE ...] [%s]", s, noBackslash)
	}
	v := Var{Name: strings.TrimPrefix(f[0], "$"), From: strings.TrimPrefix(f[2], "$")}
	for _, opt := range f[3:] {
		if opt == noBackslash {
			v.NoBackslash = true
			continue
		}
		from, to, ok := strings.Cut(opt, "=")
		if !ok || from == "" || to == "" {
			return fmt.Errorf("Var %q: %q is neither VALUE=DIALECTVALUE nor %s", s, opt, noBackslash)
		}
		if v.Values == nil {
			v.Values = map[string]string{}
		}
		v.Values[from] = to
	}
	for _, o := range t.Vars {
		if o.Name == v.Name || o.From == v.From {
			return fmt.Errorf("Var %q: $%s or $%s is already given a Var", s, v.Name, v.From)
		}
	}
	t.Vars = append(t.Vars, v)
	return nil
}

// usesVariable reports whether query mentions $name as a whole name.
func usesVariable(query, name string) bool {
	for rest := query; ; {
		i := strings.Index(rest, "$"+name)
		if i < 0 {
			return false
		}
		rest = rest[i+1+len(name):]
		if rest == "" || !isNameChar(rest[0]) {
			return true
		}
	}
}

func isNameChar(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
