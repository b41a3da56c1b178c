package workload

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// NumTemplates is the number of LinGBM query templates.
const NumTemplates = 16

//go:embed templates/*.graphql
var templateFiles embed.FS

// Template is one of LinGBM's query templates. Its Query never changes: an
// instance only gives values to its GraphQL variables.
type Template struct {
	ID          int      // 1..16
	Name        string   // "QT1" ... "QT16"
	Query       string   // the GraphQL document: one operation named Name
	ChokePoints []string // LinGBM's Table 2 numbering, e.g. "2.1"
	Description string   // what the template stresses
	Vars        []Var    // the operation's variables, in declaration order

	op        *ast.OperationDefinition // parsed and validated against Schema
	canonical string                   // the operation printed canonically (see printCanonical)
}

// Var is a variable of a template and the values instances draw it from.
type Var struct {
	Name   string // without the "$"
	Type   string // as declared, e.g. "ID!"
	Domain Domain
}

// ChokePointNames are LinGBM's choke points (paper Section 3.3, Table 2).
// CP 4.2 has no template: the data has no dates.
var ChokePointNames = map[string]string{
	"1.1": "multi-attribute retrieval",
	"2.1": "traversal of 1:N relationship types",
	"2.2": "efficient traversal of 1:1 (N:1) relationship types",
	"2.3": "relationship traversal with retrieval of intermediate object data",
	"2.4": "traversal of relationships that form cycles",
	"2.5": "acyclic relationship traversal that visits data objects repeatedly",
	"3.1": "paging without offset",
	"3.2": "paging with offset",
	"3.3": "ordering",
	"4.1": "string matching",
	"4.2": "date matching",
	"4.3": "subquery-based filtering",
	"4.4": "subquery-based search",
	"4.5": "multiple filter conditions",
	"5.1": "calculation-based aggregation",
	"5.2": "counting",
}

var registry = sync.OnceValue(func() []*Template {
	ts, err := loadTemplates(templateFiles)
	if err != nil {
		panic("workload: " + err.Error())
	}
	return ts
})

// Templates returns the 16 templates sorted by ID. Do not modify them.
func Templates() []*Template { return slices.Clone(registry()) }

// TemplateByID returns template QT<id>.
func TemplateByID(id int) (*Template, error) {
	ts := registry()
	if id < 1 || id > len(ts) {
		return nil, fmt.Errorf("unknown template %d: the templates are QT1 to QT%d", id, len(ts))
	}
	return ts[id-1], nil
}

// TemplateByName returns the template named s: "QT5", "qt5" or "5".
func TemplateByName(s string) (*Template, error) {
	n := strings.TrimSpace(s)
	if len(n) > 2 && strings.EqualFold(n[:2], "QT") {
		n = n[2:]
	}
	id, err := strconv.Atoi(n)
	if err != nil || strings.HasPrefix(n, "+") || strings.HasPrefix(n, "-") {
		return nil, fmt.Errorf("unknown template %q: want QT1 to QT%d (or 1 to %d)", s, NumTemplates, NumTemplates)
	}
	return TemplateByID(id)
}

// loadTemplates parses and checks every templates/QT<n>.graphql file.
func loadTemplates(fsys fs.FS) ([]*Template, error) {
	ts := make([]*Template, NumTemplates)
	for id := 1; id <= NumTemplates; id++ {
		name := fmt.Sprintf("QT%d", id)
		src, err := fs.ReadFile(fsys, "templates/"+name+".graphql")
		if err != nil {
			return nil, err
		}
		t, err := parseTemplate(id, string(src))
		if err != nil {
			return nil, fmt.Errorf("templates/%s.graphql: %w", name, err)
		}
		ts[id-1] = t
	}
	if ents, err := fs.ReadDir(fsys, "templates"); err != nil || len(ents) != NumTemplates {
		return nil, fmt.Errorf("templates/ holds %d files, want exactly QT1..QT%d.graphql", len(ents), NumTemplates)
	}
	return ts, nil
}

// parseTemplate reads a template file: a header of "# Key: value" comment lines
// (Description, which may continue on following comment lines; Choke points;
// one "$var: domain" line per variable), then the query itself.
func parseTemplate(id int, src string) (*Template, error) {
	t := &Template{ID: id, Name: fmt.Sprintf("QT%d", id)}
	domains := map[string]string{}
	var order []string
	lines := strings.Split(src, "\n")
	i, key := 0, ""
	for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
		line := strings.TrimSpace(strings.TrimPrefix(lines[i], "#"))
		k, v, ok := strings.Cut(line, ":")
		switch {
		case ok && k == "Description":
			key, t.Description = k, strings.TrimSpace(v)
		case ok && k == "Choke points":
			key = k
			for _, cp := range strings.Split(v, ",") {
				cp = strings.TrimSpace(cp)
				if ChokePointNames[cp] == "" {
					return nil, fmt.Errorf("unknown choke point %q", cp)
				}
				t.ChokePoints = append(t.ChokePoints, cp)
			}
		case ok && strings.HasPrefix(k, "$"):
			key = k
			if _, dup := domains[k[1:]]; dup {
				return nil, fmt.Errorf("two domains for %s", k)
			}
			domains[k[1:]] = strings.TrimSpace(v)
			order = append(order, k[1:])
		case key == "Description" && line != "":
			t.Description += " " + line
		default:
			return nil, fmt.Errorf("header line %d: want `# Description:`, `# Choke points:` or `# $var: domain`, got %q", i+1, lines[i])
		}
	}
	t.Query = strings.TrimSpace(strings.Join(lines[i:], "\n"))
	if t.Description == "" || len(t.ChokePoints) == 0 {
		return nil, fmt.Errorf("the header needs a Description and Choke points")
	}
	doc, err := parser.ParseQuery(&ast.Source{Name: t.Name, Input: t.Query})
	if err != nil {
		return nil, err
	}
	if errs := validator.ValidateWithRules(Schema(), doc, nil); len(errs) > 0 {
		return nil, fmt.Errorf("does not validate against the schema: %w", errs)
	}
	if len(doc.Operations) != 1 || len(doc.Fragments) > 0 || doc.Operations[0].Name != t.Name ||
		doc.Operations[0].Operation != ast.Query {
		return nil, fmt.Errorf("want exactly one query operation named %s and no fragments", t.Name)
	}
	t.op = doc.Operations[0]
	if len(t.op.VariableDefinitions) != len(order) {
		return nil, fmt.Errorf("%d variables but %d domain lines", len(t.op.VariableDefinitions), len(order))
	}
	for _, vd := range t.op.VariableDefinitions {
		spec, ok := domains[vd.Variable]
		if !ok {
			return nil, fmt.Errorf("variable $%s has no domain line", vd.Variable)
		}
		d, err := parseDomain(spec, t.Vars)
		if err != nil {
			return nil, fmt.Errorf("$%s: %w", vd.Variable, err)
		}
		if want := d.graphQLType(); vd.Type.String() != want || vd.DefaultValue != nil {
			return nil, fmt.Errorf("$%s is declared %s; its domain %q needs %s without a default", vd.Variable, vd.Type, spec, want)
		}
		t.Vars = append(t.Vars, Var{Name: vd.Variable, Type: vd.Type.String(), Domain: d})
	}
	t.canonical = printCanonical(t.op)
	return t, nil
}

// Var returns the variable named name, or nil.
func (t *Template) Var(name string) *Var {
	for i := range t.Vars {
		if t.Vars[i].Name == name {
			return &t.Vars[i]
		}
	}
	return nil
}

// VarNames returns the names of t's variables with their "$", for messages.
func (t *Template) VarNames() string {
	var b strings.Builder
	for i, v := range t.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$" + v.Name)
	}
	return b.String()
}

// ParseTemplateList parses a comma-separated list of templates ("1,5,9" or
// "QT1,QT5"): their IDs in the order given, nil for an empty list; a
// template named twice is an error.
func ParseTemplateList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ids []int
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		t, err := TemplateByName(part)
		if err != nil {
			return nil, err
		}
		if seen[t.ID] {
			return nil, fmt.Errorf("%s appears twice", t.Name)
		}
		seen[t.ID] = true
		ids = append(ids, t.ID)
	}
	return ids, nil
}
