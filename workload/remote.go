package workload

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/gqlbench/gqlbench/queryfile"
)

//go:embed remote/*.graphql
var remoteFiles embed.FS

// RemoteTemplate is a query of the remote-fields workload (seed 002): a
// list of $n objects whose selection asks remote fields (remote.graphql),
// so that $n sets the fan-out, the remote keys per request. These templates
// are a group apart from LinGBM's 16: they are not in Templates, and the
// experiments of the paper never send them.
type RemoteTemplate struct {
	Name        string   // "RF1", ...
	Query       string   // one operation named Name with one variable, $n: Int!
	Description string   // what it asks
	Fields      []string // the remote fields it asks, e.g. "University.ranking"
}

var remoteRegistry = sync.OnceValue(func() []*RemoteTemplate {
	ts, err := loadRemoteTemplates(remoteFiles)
	if err != nil {
		panic("workload: " + err.Error())
	}
	return ts
})

// RemoteTemplates returns the remote-field templates sorted by name. Do not
// modify them.
func RemoteTemplates() []*RemoteTemplate { return slices.Clone(remoteRegistry()) }

// RemoteTemplateByName returns the remote-field template named name ("RF1"
// or "rf1").
func RemoteTemplateByName(name string) (*RemoteTemplate, error) {
	var names []string
	for _, t := range remoteRegistry() {
		if strings.EqualFold(t.Name, strings.TrimSpace(name)) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("unknown remote-field template %q: the templates are %s", name, strings.Join(names, ", "))
}

// Entry is the instance of t with fan-out n, as a queries-file entry
// labelled with t's name, without its expected answer.
func (t *RemoteTemplate) Entry(n int) queryfile.Entry {
	vars, _ := json.Marshal(map[string]any{"n": n})
	return queryfile.Entry{ID: t.Name + "-n" + strconv.Itoa(n), Label: t.Name, Query: t.Query, Variables: vars}
}

// loadRemoteTemplates parses and checks every remote/RF<n>.graphql file.
func loadRemoteTemplates(fsys fs.FS) ([]*RemoteTemplate, error) {
	ents, err := fs.ReadDir(fsys, "remote")
	if err != nil {
		return nil, err
	}
	var out []*RemoteTemplate
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".graphql")
		src, err := fs.ReadFile(fsys, "remote/"+e.Name())
		if err != nil {
			return nil, err
		}
		t, err := parseRemoteTemplate(name, string(src))
		if err != nil {
			return nil, fmt.Errorf("remote/%s: %w", e.Name(), err)
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *RemoteTemplate) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// parseRemoteTemplate reads a header of "# Description:" (continued on the
// following comment lines) and "# Remote fields:" lines, then the query,
// which must validate against FullSchema, be one query named name with the
// one variable $n: Int!, and ask exactly the remote fields named.
func parseRemoteTemplate(name, src string) (*RemoteTemplate, error) {
	t := &RemoteTemplate{Name: name}
	lines := strings.Split(src, "\n")
	i, key := 0, ""
	for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
		line := strings.TrimSpace(strings.TrimPrefix(lines[i], "#"))
		k, v, ok := strings.Cut(line, ":")
		switch {
		case ok && k == "Description":
			key, t.Description = k, strings.TrimSpace(v)
		case ok && k == "Remote fields":
			key = k
			for _, f := range strings.Split(v, ",") {
				t.Fields = append(t.Fields, strings.TrimSpace(f))
			}
		case key == "Description" && line != "":
			t.Description += " " + line
		default:
			return nil, fmt.Errorf("header line %d: want `# Description:` or `# Remote fields:`, got %q", i+1, lines[i])
		}
	}
	t.Query = strings.TrimSpace(strings.Join(lines[i:], "\n"))
	if t.Description == "" || len(t.Fields) == 0 {
		return nil, fmt.Errorf("the header needs a Description and Remote fields")
	}
	doc, err := parser.ParseQuery(&ast.Source{Name: name, Input: t.Query})
	if err != nil {
		return nil, err
	}
	if errs := validator.ValidateWithRules(FullSchema(), doc, nil); len(errs) > 0 {
		return nil, fmt.Errorf("does not validate against the schema: %w", errs)
	}
	if len(doc.Operations) != 1 || doc.Operations[0].Name != name || doc.Operations[0].Operation != ast.Query {
		return nil, fmt.Errorf("want exactly one query operation named %s", name)
	}
	op := doc.Operations[0]
	if len(op.VariableDefinitions) != 1 || op.VariableDefinitions[0].Variable != "n" || op.VariableDefinitions[0].Type.String() != "Int!" {
		return nil, fmt.Errorf("want exactly one variable, $n: Int!, the fan-out")
	}
	asked := map[string]bool{}
	remoteFieldsOf(op.SelectionSet, asked)
	var got []string
	for f := range asked {
		got = append(got, f)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(t.Fields))
	if !slices.Equal(got, want) {
		return nil, fmt.Errorf("asks the remote fields %v, its header says %v", got, want)
	}
	return t, nil
}

// remoteFieldsOf adds the remote fields (those of remote.graphql) that set
// selects to asked, as Type.field with Faculty for Professor and Lecturer.
func remoteFieldsOf(set ast.SelectionSet, asked map[string]bool) {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if owner, ok := RemoteFields[s.Name]; ok && s.ObjectDefinition != nil && slices.Contains(remoteOwners(owner), s.ObjectDefinition.Name) {
				asked[owner+"."+s.Name] = true
			}
			remoteFieldsOf(s.SelectionSet, asked)
		case *ast.InlineFragment:
			remoteFieldsOf(s.SelectionSet, asked)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				remoteFieldsOf(s.Definition.SelectionSet, asked)
			}
		}
	}
}

// RemoteFields maps the name of each remote field to the type that
// declares it: Faculty's hIndex is Professor's and Lecturer's too.
var RemoteFields = map[string]string{
	"citationCount": "Publication",
	"ranking":       "University",
	"hIndex":        "Faculty",
}

func remoteOwners(owner string) []string {
	if owner == "Faculty" {
		return []string{"Faculty", "Professor", "Lecturer"}
	}
	return []string{owner}
}
