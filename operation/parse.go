package operation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// Source is one GraphQL document: its name (a file's path, which error
// messages start with) and its text.
type Source struct {
	Name string
	Text string
}

// Operation is one operation of a Set and the fragments it uses.
type Operation struct {
	Name      string        // its name; an anonymous operation's is its file's base name
	Anonymous bool          // written without a name (the only operation of its file)
	Kind      ast.Operation // query or mutation (or subscription, from ParseWithSubscriptions)
	File      string        // the Source it was read from
	Line      int           // where it starts, 1-based
	Column    int
	Unordered bool   // marked "# gqlbench: unordered": its answer's lists are compared as multisets
	Text      string // the operation as written, then each fragment it uses, blank-line separated
	// After, when set, makes the operation a step of a chain: it runs
	// after another operation, with variables taken from that one's
	// answer ("# gqlbench: after OP $var=path"). It has no entries of its
	// own: its chain's first operation's entries carry it.
	After *After

	next []*Operation // the operations that run after it

	def   *ast.OperationDefinition
	frags []*fragment // the fragments it uses, in order of first use
}

// Vars returns the operation's variable definitions.
func (op *Operation) Vars() ast.VariableDefinitionList { return op.def.VariableDefinitions }

// Definition returns the operation's syntax tree. Validate fills in its
// types; do not modify it.
func (op *Operation) Definition() *ast.OperationDefinition { return op.def }

// Required reports whether v must be given a value: it is non-null and has
// no default.
func Required(v *ast.VariableDefinition) bool { return v.Type.NonNull && v.DefaultValue == nil }

// After is a "# gqlbench: after OP $var=path ..." marker: the operation
// runs after OP, each variable named taken from OP's answer.
type After struct {
	Op   string // the operation it runs after
	Take []Take // the variables taken from that operation's answer
	pos  *ast.Position
}

// Take is one variable taken from the answer before: Path is a dotted path
// of member names in its data ("books.pageInfo.endCursor").
type Take struct{ Var, Path string }

// taken returns the path the variable is taken from, if it is.
func (a *After) taken(name string) (string, bool) {
	if a == nil {
		return "", false
	}
	for _, t := range a.Take {
		if t.Var == name {
			return t.Path, true
		}
	}
	return "", false
}

// Root returns the first operation of op's chain (op itself when it runs
// after none).
func (s *Set) Root(op *Operation) *Operation {
	for n := 0; op.After != nil && n <= len(s.Ops); n++ {
		if prev := s.byName[op.After.Op]; prev != nil {
			op = prev
		}
	}
	return op
}

// fragment is a fragment definition and its text as written.
type fragment struct {
	def  *ast.FragmentDefinition
	text string
}

// Set is the operations of one or more documents, in the order they were
// read, with names unique across all of them.
type Set struct {
	Ops    []*Operation
	Schema *ast.Schema // the schema the operations were validated with, or nil
	byName map[string]*Operation
}

// Lookup returns the operation of that name, or nil.
func (s *Set) Lookup(name string) *Operation { return s.byName[name] }

// Names returns the operations' names in order.
func (s *Set) Names() []string {
	names := make([]string, len(s.Ops))
	for i, op := range s.Ops {
		names[i] = op.Name
	}
	return names
}

// maxErrors is how many errors of one kind a function reports at once.
const maxErrors = 20

// ReadPath reads the operations of a .graphql file, or of every .graphql
// and .gql file under a directory (recursively, in lexical order of their
// paths), and parses them with Parse.
func ReadPath(path string) (*Set, error) { return readPath(path, Parse) }

// ReadPathWithSubscriptions is ReadPath parsing with
// ParseWithSubscriptions: for the subscription load.
func ReadPathWithSubscriptions(path string) (*Set, error) {
	return readPath(path, ParseWithSubscriptions)
}

func readPath(path string, parse func(...Source) (*Set, error)) (*Set, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if info.IsDir() {
		files = nil
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ext := filepath.Ext(p); !d.IsDir() && (ext == ".graphql" || ext == ".gql") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no .graphql or .gql files in the directory", path)
		}
	}
	var srcs []Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, Source{Name: f, Text: string(b)})
	}
	return parse(srcs...)
}

// Parse parses the sources and checks, without a schema, what a server
// would refuse in any schema: every variable an operation uses (directly or
// in the fragments it spreads) is defined by it, and every one it defines is
// used; every fragment spread exists and none spreads itself; operation and
// fragment names are unique across all sources; an anonymous operation is
// the only operation of its source (its name is then the source's base name
// without extension). Subscriptions are refused: a queries file is replayed
// as one request per entry. Fragments may be defined in any source. Errors
// name the source, line and column.
func Parse(srcs ...Source) (*Set, error) { return parse(srcs, false) }

// ParseWithSubscriptions is Parse keeping subscription operations (Kind
// ast.Subscription) beside the queries and mutations: the subscription
// load (`load --mode subscribe --ops`) subscribes with them and publishes
// with a mutation. Every other check is Parse's.
func ParseWithSubscriptions(srcs ...Source) (*Set, error) { return parse(srcs, true) }

func parse(srcs []Source, subscriptions bool) (*Set, error) {
	s := &Set{byName: map[string]*Operation{}}
	frags := map[string]*fragment{}
	var errs []error
	for _, src := range srcs {
		ops, fs, err := parseSource(src, subscriptions)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if prev, dup := frags[f.def.Name]; dup {
				errs = append(errs, errorAt(f.def.Position, "fragment %s is defined twice (first at %s)", f.def.Name, where(prev.def.Position)))
				continue
			}
			frags[f.def.Name] = f
		}
		for _, op := range ops {
			if prev, dup := s.byName[op.Name]; dup {
				errs = append(errs, errorAt(op.def.Position, "operation name %s is used twice (first at %s:%d:%d)", op.Name, prev.File, prev.Line, prev.Column))
				continue
			}
			s.byName[op.Name] = op
			s.Ops = append(s.Ops, op)
		}
	}
	if len(errs) == 0 && len(s.Ops) == 0 {
		names := make([]string, len(srcs))
		for i, src := range srcs {
			names[i] = src.Name
		}
		return nil, fmt.Errorf("no operations in %s", strings.Join(names, ", "))
	}
	for _, op := range s.Ops {
		errs = append(errs, op.resolve(frags)...)
	}
	if len(errs) == 0 {
		errs = s.chains()
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return s, nil
}

// parseSource parses one source into its operations and fragments, with
// their texts and unordered markers.
func parseSource(src Source, subscriptions bool) ([]*Operation, []*fragment, error) {
	doc, err := parser.ParseQuery(&ast.Source{Name: src.Name, Input: src.Text})
	if err != nil {
		return nil, nil, err
	}
	toks, comments, err := tokens(src.Name, src.Text)
	if err != nil {
		return nil, nil, err
	}
	runes := []rune(src.Text)
	var fs []*fragment
	for _, d := range doc.Fragments {
		if len(d.VariableDefinition) > 0 {
			return nil, nil, errorAt(d.Position, "fragment %s defines variables, an experimental GraphQL feature gqlbench does not support", d.Name)
		}
		fs = append(fs, &fragment{def: d, text: definitionText(runes, toks, d.Position.Start)})
	}
	markers, err := findMarkers(src.Name, toks, comments)
	if err != nil {
		return nil, nil, err
	}
	var ops []*Operation
	for _, d := range doc.Operations {
		op := &Operation{Name: d.Name, Kind: d.Operation, File: src.Name, Line: d.Position.Line, Column: d.Position.Column,
			Text: definitionText(runes, toks, d.Position.Start), def: d}
		if d.Operation == ast.Subscription && !subscriptions {
			return nil, nil, errorAt(d.Position, "subscription %s: subscriptions are not supported in a queries file (gqlbench load sends one request and reads one answer; `load --mode subscribe --ops FILE` runs subscriptions)", d.Name)
		}
		if d.Name == "" {
			if len(doc.Operations) > 1 {
				return nil, nil, errorAt(d.Position, "an anonymous operation must be the only operation of its file: name it")
			}
			op.Anonymous = true
			op.Name = strings.TrimSuffix(filepath.Base(src.Name), filepath.Ext(src.Name))
		}
		for _, mk := range markers.take(d.Position.Line) {
			switch {
			case mk.unordered:
				op.Unordered = true
			case op.After != nil:
				return nil, nil, errorAt(mk.after.pos, "operation %s has two after markers: a step runs after one operation", op.Name)
			default:
				op.After = mk.after
			}
		}
		ops = append(ops, op)
	}
	if line, text, ok := markers.left(); ok {
		return nil, nil, fmt.Errorf("%s:%d: %q must be directly above an operation (on the line before it, or in the comment lines right before it)", src.Name, line, text)
	}
	return ops, fs, nil
}

// tokens lexes text into its tokens and its comments.
func tokens(name, text string) (toks, comments []lexer.Token, err error) {
	lx := lexer.New(&ast.Source{Name: name, Input: text})
	for {
		t, err := lx.ReadToken()
		if err != nil {
			return nil, nil, err
		}
		switch t.Kind {
		case lexer.EOF:
			return toks, comments, nil
		case lexer.Comment:
			comments = append(comments, t)
		default:
			toks = append(toks, t)
		}
	}
}

// definitionText returns the text of the definition whose first token
// starts at rune offset start: up to the brace that closes its selection
// set, the first closing brace that leaves no bracket of any kind open
// (variable definitions and arguments are inside parentheses).
func definitionText(runes []rune, toks []lexer.Token, start int) string {
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Start >= start })
	depth := 0
	for ; i < len(toks); i++ {
		switch toks[i].Kind {
		case lexer.ParenL, lexer.BracketL, lexer.BraceL:
			depth++
		case lexer.ParenR, lexer.BracketR:
			depth--
		case lexer.BraceR:
			if depth--; depth == 0 {
				return string(runes[start:toks[i].Pos.End])
			}
		}
	}
	return string(runes[start:]) // unreachable for a parsed document
}

// markerRE matches a gqlbench comment: "# gqlbench: WORD ...".
var markerRE = regexp.MustCompile(`^#\s*gqlbench\s*:\s*(.*?)\s*$`)

// markers are a source's "# gqlbench: ..." comments that are alone on
// their line, and the lines that hold a token.
type markers struct {
	at   map[int]*marker // marker lines not yet taken
	code map[int]bool    // lines with a token
	rest map[int]bool    // comment-only lines
}

// marker is one gqlbench comment: "unordered", or an after marker.
type marker struct {
	unordered bool
	after     *After
	text      string
}

// The markers there are, for messages.
const markerList = "# gqlbench: unordered, # gqlbench: after OPERATION $var=path"

func findMarkers(name string, toks, comments []lexer.Token) (*markers, error) {
	m := &markers{at: map[int]*marker{}, code: map[int]bool{}, rest: map[int]bool{}}
	for _, t := range toks {
		m.code[t.Pos.Line] = true
	}
	for _, c := range comments {
		if !m.code[c.Pos.Line] {
			m.rest[c.Pos.Line] = true
		}
		sub := markerRE.FindStringSubmatch(c.Value)
		if sub == nil {
			continue
		}
		mk := &marker{text: c.Value}
		switch word, args, _ := strings.Cut(sub[1], " "); word {
		case "unordered":
			if args != "" {
				return nil, fmt.Errorf("%s:%d:%d: %q: unordered takes nothing after it", name, c.Pos.Line, c.Pos.Column, c.Value)
			}
			mk.unordered = true
		case "after":
			a, err := parseAfter(args)
			if err != nil {
				return nil, fmt.Errorf("%s:%d:%d: %q: %v", name, c.Pos.Line, c.Pos.Column, c.Value, err)
			}
			a.pos = &ast.Position{Line: c.Pos.Line, Column: c.Pos.Column, Src: c.Pos.Src}
			mk.after = a
		default:
			return nil, fmt.Errorf("%s:%d:%d: unknown gqlbench marker %q (the markers there are: %s)", name, c.Pos.Line, c.Pos.Column, sub[1], markerList)
		}
		if m.code[c.Pos.Line] {
			return nil, fmt.Errorf("%s:%d:%d: %q must be on a line of its own, directly above an operation", name, c.Pos.Line, c.Pos.Column, c.Value)
		}
		m.at[c.Pos.Line] = mk
	}
	return m, nil
}

// parseAfter reads an after marker's arguments: "OP $var=path ...", the
// path a dotted path of member names in OP's data ("data." before it is
// allowed).
func parseAfter(args string) (*After, error) {
	fields := strings.Fields(strings.ReplaceAll(args, ",", " "))
	if len(fields) < 2 || !nameRE.MatchString(fields[0]) {
		return nil, fmt.Errorf("want after OPERATION $var=path ... (e.g. after FirstPage $after=books.pageInfo.endCursor)")
	}
	a := &After{Op: fields[0]}
	for _, f := range fields[1:] {
		v, path, ok := strings.Cut(f, "=")
		name, dollar := strings.CutPrefix(v, "$")
		path = strings.TrimPrefix(path, "data.")
		if !ok || !dollar || !nameRE.MatchString(name) {
			return nil, fmt.Errorf("%q: want $var=path, e.g. $after=books.pageInfo.endCursor", f)
		}
		for _, seg := range strings.Split(path, ".") {
			if !nameRE.MatchString(seg) {
				return nil, fmt.Errorf("%q: the path is member names joined by dots, in the answer's data (books.pageInfo.endCursor)", f)
			}
		}
		if _, dup := a.taken(name); dup {
			return nil, fmt.Errorf("$%s is taken twice", name)
		}
		a.Take = append(a.Take, Take{Var: name, Path: path})
	}
	return a, nil
}

// take returns the markers among the comment lines directly above line,
// and removes them.
func (m *markers) take(line int) []*marker {
	var found []*marker
	for l := line - 1; l > 0 && m.rest[l]; l-- {
		if mk := m.at[l]; mk != nil {
			delete(m.at, l)
			found = append(found, mk)
		}
	}
	return found
}

// left returns the first marker no operation took.
func (m *markers) left() (int, string, bool) {
	first := 0
	for l := range m.at {
		if first == 0 || l < first {
			first = l
		}
	}
	if first == 0 {
		return 0, "", false
	}
	return first, m.at[first].text, true
}

// errorAt returns an error that starts with pos as file:line:col.
func errorAt(pos *ast.Position, format string, a ...any) error {
	return fmt.Errorf("%s: %s", where(pos), fmt.Sprintf(format, a...))
}

func where(pos *ast.Position) string {
	if pos == nil {
		return "?"
	}
	name := "?"
	if pos.Src != nil {
		name = pos.Src.Name
	}
	return fmt.Sprintf("%s:%d:%d", name, pos.Line, pos.Column)
}

// joinErrors joins errs, one a line, the first maxErrors of them.
func joinErrors(errs []error) error {
	if len(errs) > maxErrors {
		errs = append(errs[:maxErrors:maxErrors], fmt.Errorf("… and %d more", len(errs)-maxErrors))
	}
	return errors.Join(errs...)
}
