package workload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/internal/outfile"
)

// LinGBM's query generator writes one file per instance, the variables
// written inline as literals in an anonymous query:
// actualQueries/QT<n>/query<i>.graphql (its own tool names the folders
// queryTemplate_<n>; the paper's experiment repository uses QT<n>).

var (
	lingbmDir  = regexp.MustCompile(`^(?:QT|queryTemplate_)([0-9]+)$`)
	lingbmFile = regexp.MustCompile(`^query([0-9]+)\.graphql$`)
	ordinalID  = regexp.MustCompile(`^QT([0-9]+)-([0-9]+)$`)
)

// ExportLinGBM writes instances the way LinGBM's query generator does:
// dir/actualQueries/QT<n>/query<i>.graphql, an anonymous query with the
// variables inline (IDs that are integers as integer literals, enum values
// bare, strings quoted). i is the ordinal in the instance's id when every
// instance of the template has an id "QT<n>-<i>" (as Generate makes them),
// else the instance's position among the template's instances, from 1.
// Files query*.graphql already in those folders are removed first.
func ExportLinGBM(dir string, instances []Instance) error {
	byTemplate := map[int][]Instance{}
	for _, in := range instances {
		if _, err := TemplateByID(in.Template); err != nil {
			return fmt.Errorf("instance %q: %w", in.ID, err)
		}
		byTemplate[in.Template] = append(byTemplate[in.Template], in)
	}
	// Render everything first: a bad instance must not leave the folder half replaced.
	files := map[string]map[string]string{} // folder → file name → text
	for id, list := range byTemplate {
		t, _ := TemplateByID(id)
		folder := filepath.Join(dir, "actualQueries", t.Name)
		files[folder] = map[string]string{}
		numbers := fileNumbers(t, list)
		for i, in := range list {
			vars, err := t.checkVars(in.Variables)
			if err != nil {
				return fmt.Errorf("instance %q: %w", in.ID, err)
			}
			text, err := printInline(t.op, vars)
			if err != nil {
				return fmt.Errorf("instance %q: %w", in.ID, err)
			}
			files[folder][fmt.Sprintf("query%d.graphql", numbers[i])] = text
		}
	}
	for folder, texts := range files {
		if err := clearQueryFiles(folder); err != nil {
			return err
		}
		if err := outfile.Dir(folder); err != nil {
			return err
		}
		for name, text := range texts {
			if err := outfile.WriteFile(filepath.Join(folder, name), 0o644, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
				return err
			}
		}
	}
	return nil
}

// fileNumbers numbers a template's instances for their file names.
func fileNumbers(t *Template, list []Instance) []int {
	out := make([]int, len(list))
	seen := map[int]bool{}
	for i, in := range list {
		m := ordinalID.FindStringSubmatch(in.ID)
		n := 0
		if m != nil && m[1] == strconv.Itoa(t.ID) {
			n, _ = strconv.Atoi(m[2])
		}
		if n <= 0 || seen[n] {
			for i := range out {
				out[i] = i + 1
			}
			return out
		}
		seen[n] = true
		out[i] = n
	}
	return out
}

func clearQueryFiles(folder string) error {
	ents, err := os.ReadDir(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() && lingbmFile.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(folder, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// ImportLinGBM reads a folder of LinGBM query files (dir/actualQueries, or
// dir itself when it has no actualQueries folder), the layout ExportLinGBM
// writes and LinGBM's generator and experiments use: one subfolder per
// template (QT<n> or queryTemplate_<n>), one query<i>.graphql per instance.
// Each file is parsed and validated against the schema, its template is
// identified by its shape (the query with literal values abstracted; argument
// and object-field order does not matter) and its variables are recovered from
// the literals. The instances come sorted by template and file number, with
// ids "QT<n>-<i>" after the file numbers.
func ImportLinGBM(dir string) ([]Instance, error) {
	root := filepath.Join(dir, "actualQueries")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		root = dir
	}
	files, err := queryFiles(root)
	if err != nil {
		return nil, fmt.Errorf("LinGBM query files: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no query files (want QT<n>/query<i>.graphql)", root)
	}
	type numbered struct {
		in Instance
		n  int
	}
	var found []numbered
	seen := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		t, vars, err := identify(string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		if f.template != 0 && f.template != t.ID {
			return nil, fmt.Errorf("%s: the query is an instance of %s, but it is in the folder of QT%d", f.path, t.Name, f.template)
		}
		id := instanceID(t, f.number)
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s: instance %s again (also %s)", f.path, id, prev)
		}
		seen[id] = f.path
		found = append(found, numbered{Instance{ID: id, Template: t.ID, Query: t.Query, Variables: vars}, f.number})
	}
	slices.SortFunc(found, func(a, b numbered) int {
		if a.in.Template != b.in.Template {
			return a.in.Template - b.in.Template
		}
		return a.n - b.n
	})
	out := make([]Instance, len(found))
	for i, f := range found {
		out[i] = f.in
	}
	return out, nil
}

type queryFile struct {
	path     string
	template int // from the folder name, 0 when it names none
	number   int // from query<i>.graphql
}

// queryFiles lists root/<folder>/query<i>.graphql in order of folder and i.
func queryFiles(root string) ([]queryFile, error) {
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []queryFile
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		tmpl := 0
		if m := lingbmDir.FindStringSubmatch(d.Name()); m != nil {
			tmpl, _ = strconv.Atoi(m[1])
		}
		ents, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			return nil, err
		}
		var fs []queryFile
		for _, e := range ents {
			m := lingbmFile.FindStringSubmatch(e.Name())
			if e.IsDir() || m == nil {
				continue
			}
			n, err := strconv.Atoi(m[1])
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("%s: want query<i>.graphql with i ≥ 1", filepath.Join(root, d.Name(), e.Name()))
			}
			fs = append(fs, queryFile{path: filepath.Join(root, d.Name(), e.Name()), template: tmpl, number: n})
		}
		slices.SortFunc(fs, func(a, b queryFile) int { return a.number - b.number })
		out = append(out, fs...)
	}
	return out, nil
}

// identify finds the template whose shape src has and the variable values
// written in its literals.
func identify(src string) (*Template, map[string]any, error) {
	doc, err := parseAndValidate(src)
	if err != nil {
		return nil, nil, err
	}
	if len(doc.Operations) != 1 || len(doc.Fragments) > 0 || doc.Operations[0].Operation != ast.Query {
		return nil, nil, fmt.Errorf("want exactly one query operation and no fragments")
	}
	op := doc.Operations[0]
	if len(op.VariableDefinitions) > 0 {
		return nil, nil, fmt.Errorf("the query declares variables; LinGBM query files write the values inline")
	}
	var best *mismatch
	for _, t := range registry() {
		u := unifier{vars: map[string]any{}, types: map[string]*ast.Type{}}
		for _, vd := range t.op.VariableDefinitions {
			u.types[vd.Variable] = vd.Type
		}
		u.selections(t.op.SelectionSet, op.SelectionSet, "")
		if u.miss == nil {
			vars, err := t.checkVars(u.vars)
			if err != nil {
				return nil, nil, fmt.Errorf("shaped like %s, but %w", t.Name, err)
			}
			return t, vars, nil
		}
		u.miss.template = t
		if best == nil || u.miss.depth > best.depth {
			best = u.miss
		}
	}
	return nil, nil, fmt.Errorf("the query matches none of the %d templates (closest: %s, which differs at %s: %s)",
		NumTemplates, best.template.Name, best.path, best.what)
}

// unifier matches a template's operation against a query with literals,
// binding the template's variables to the literals in their places.
type unifier struct {
	vars  map[string]any
	types map[string]*ast.Type
	miss  *mismatch
}

type mismatch struct {
	template *Template
	path     string
	depth    int
	what     string
}

func (u *unifier) fail(path, format string, a ...any) {
	if u.miss == nil {
		u.miss = &mismatch{path: path, depth: strings.Count(path, ".") + strings.Count(path, "(") + 1, what: fmt.Sprintf(format, a...)}
	}
}

func (u *unifier) selections(tmpl, got ast.SelectionSet, path string) {
	at := path
	if at == "" {
		at = "the top level"
	}
	if len(tmpl) != len(got) {
		u.fail(at, "%d selections where the template has %d", len(got), len(tmpl))
		return
	}
	for i := range tmpl {
		tf, _ := tmpl[i].(*ast.Field)
		gf, ok := got[i].(*ast.Field)
		if !ok || tf == nil {
			u.fail(at, "a fragment where the template selects a field")
			return
		}
		p := join(path, tf.Name)
		if gf.Name != tf.Name || gf.Alias != tf.Alias {
			u.fail(join(path, gf.Alias), "field %q where the template selects %q", gf.Alias, tf.Name)
			return
		}
		if len(gf.Directives) > 0 {
			u.fail(p, "a directive the template does not have")
			return
		}
		u.arguments(tf.Arguments, gf.Arguments, p)
		if u.miss != nil {
			return
		}
		u.selections(tf.SelectionSet, gf.SelectionSet, p)
		if u.miss != nil {
			return
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (u *unifier) arguments(tmpl, got ast.ArgumentList, path string) {
	if len(tmpl) != len(got) {
		u.fail(path, "%d arguments where the template has %d", len(got), len(tmpl))
		return
	}
	for _, ta := range tmpl {
		ga := got.ForName(ta.Name)
		if ga == nil {
			u.fail(path, "argument %s is missing", ta.Name)
			return
		}
		u.value(ta.Value, ga.Value, path+"("+ta.Name+")")
	}
}

func (u *unifier) value(tmpl, got *ast.Value, path string) {
	if u.miss != nil {
		return
	}
	if tmpl.Kind == ast.Variable {
		val, err := literalValue(got, u.types[tmpl.Raw])
		if err != nil {
			u.fail(path, "$%s: %v", tmpl.Raw, err)
			return
		}
		if prev, ok := u.vars[tmpl.Raw]; ok && prev != val {
			u.fail(path, "$%s has two values", tmpl.Raw)
			return
		}
		u.vars[tmpl.Raw] = val
		return
	}
	if tmpl.Kind != got.Kind || tmpl.Raw != got.Raw || len(tmpl.Children) != len(got.Children) {
		u.fail(path, "%s where the template has %s", got.String(), tmpl.String())
		return
	}
	for i, tc := range tmpl.Children {
		gc := got.Children[i]
		if tmpl.Kind == ast.ObjectValue {
			gc = nil
			for _, c := range got.Children {
				if c.Name == tc.Name {
					gc = c
				}
			}
			if gc == nil {
				u.fail(path, "field %s is missing", tc.Name)
				return
			}
		}
		u.value(tc.Value, gc.Value, path+"."+tc.Name)
	}
}

// literalValue converts a literal written for a variable of type t to the
// variable's Go value (as Generate makes them).
func literalValue(v *ast.Value, t *ast.Type) (any, error) {
	if t == nil {
		return nil, fmt.Errorf("no type")
	}
	switch {
	case v.Kind == ast.Variable:
		return nil, fmt.Errorf("a variable where a literal value is expected")
	case v.Kind == ast.NullValue:
		return nil, fmt.Errorf("null")
	case t.NamedType == "ID" && (v.Kind == ast.IntValue || v.Kind == ast.StringValue):
		return v.Raw, nil
	case t.NamedType == "Int" && v.Kind == ast.IntValue:
		n, err := strconv.ParseInt(v.Raw, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s is not a 32-bit Int", v.Raw)
		}
		return int(n), nil
	case t.NamedType == "String" && (v.Kind == ast.StringValue || v.Kind == ast.BlockValue):
		return v.Raw, nil
	case v.Kind == ast.EnumValue && Schema().Types[t.NamedType] != nil && Schema().Types[t.NamedType].Kind == ast.Enum:
		return v.Raw, nil
	}
	return nil, fmt.Errorf("%s is not a %s", v.String(), t)
}
