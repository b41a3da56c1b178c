package operation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// mustParse parses sources given as name, text, name, text, ...
func mustParse(t testing.TB, nameText ...string) *Set {
	t.Helper()
	s, err := Parse(sources(nameText...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sources(nameText ...string) []Source {
	var srcs []Source
	for i := 0; i+1 < len(nameText); i += 2 {
		srcs = append(srcs, Source{Name: nameText[i], Text: nameText[i+1]})
	}
	return srcs
}

// TestParseErrors: every mistake is refused, and the message names the file,
// line and column (or line) where it is.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		srcs []string // name, text, ...
		want string   // in the error
	}{
		{"syntax error", []string{"a.graphql", "query A {\n  user(id: 1) {\n    name\n  \n"}, "a.graphql:5:1: Expected Name, found <EOF>"},
		{"unexpected token", []string{"a.graphql", "query A { a }\nquery B ( { b }"}, "a.graphql:2:11:"},
		{"undefined variable", []string{"a.graphql", "query A {\n  user(id: $id) { name }\n}"}, "a.graphql:2:12: $id is not defined by operation A"},
		{"unused variable", []string{"a.graphql", "query A($id: ID!, $n: Int) {\n  user(id: $id) { name }\n}"}, "a.graphql:1:19: $n is defined by operation A but never used"},
		{"variable defined twice", []string{"a.graphql", "query A($id: ID!, $id: ID) { user(id: $id) { name } }"}, "a.graphql:1:19: $id is defined twice"},
		{"undefined variable in a fragment", []string{"a.graphql", "query A { ...F }\nfragment F on Query {\n  user(id: $id) { name }\n}"},
			"a.graphql:3:12: $id is not defined by operation A (used in fragment F)"},
		{"undefined variable in a nested fragment of another file", []string{
			"a.graphql", "query A($n: Int) { ...F }",
			"f.graphql", "fragment F on Query { list(n: $n) { ...G } }\nfragment G on Item { sub(first: $first) }"},
			"f.graphql:2:33: $first is not defined by operation A (used in fragment G)"},
		{"undefined variable in a directive", []string{"a.graphql", "query A { a @include(if: $on) }"}, "a.graphql:1:26: $on is not defined"},
		{"undefined variable in an object value", []string{"a.graphql", "query A { a(where: {name: {eq: $name}}) }"}, "a.graphql:1:32: $name is not defined"},
		{"unknown fragment", []string{"a.graphql", "query A {\n  ...Missing\n}"}, "a.graphql:2:6: fragment Missing is not defined"},
		{"fragment cycle", []string{"a.graphql", "query A { ...F }\nfragment F on Q { ...G }\nfragment G on Q { ...F }"}, "a.graphql:3:22: fragment F spreads itself"},
		{"fragment defined twice", []string{"a.graphql", "query A { ...F }\nfragment F on Q { a }", "b.graphql", "fragment F on Q { b }"},
			"b.graphql:1:1: fragment F is defined twice (first at a.graphql:2:1)"},
		{"operation name twice across files", []string{"a.graphql", "query A { a }", "b.graphql", "\n\nquery A { b }"},
			"b.graphql:3:1: operation name A is used twice (first at a.graphql:1:1)"},
		{"anonymous among others", []string{"a.graphql", "query A { a }\n{ b }"}, "a.graphql:2:1: an anonymous operation must be the only operation"},
		{"anonymous named like another", []string{"A.graphql", "{ a }", "b.graphql", "query A { b }"}, "operation name A is used twice"},
		{"subscription", []string{"a.graphql", "subscription S { ticks }"}, "subscriptions are not supported"},
		{"fragment variables", []string{"a.graphql", "query A { ...F }\nfragment F($x: Int) on Q { a }"}, "fragment F defines variables"},
		{"no operations", []string{"f.graphql", "fragment F on Q { a }"}, "no operations in f.graphql"},
		{"misspelt marker", []string{"a.graphql", "# gqlbench: unorderd\nquery A { a }"}, `a.graphql:1:1: unknown gqlbench marker "unorderd"`},
		{"marker after code", []string{"a.graphql", "query A { a } # gqlbench: unordered\nquery B { b }"}, "a.graphql:1:15:"},
		{"marker away from an operation", []string{"a.graphql", "# gqlbench: unordered\n\nquery A { a }"}, "a.graphql:1: "},
		{"marker above a fragment", []string{"a.graphql", "query A { ...F }\n# gqlbench: unordered\nfragment F on Q { a }"}, "a.graphql:2: "},
	} {
		_, err := Parse(sources(c.srcs...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestParseTexts: each operation's text is its own source text and exactly
// the fragments it uses, in order of first use, from any file.
func TestParseTexts(t *testing.T) {
	s := mustParse(t,
		"ops.graphql", `# Two operations sharing a fragment.
query Users($first: Int = 10) {
  users(first: $first) { ...UserFields }
}

# gqlbench: unordered
query User($id: ID!) {
  user(id: $id) { ...UserFields friends { ...Friend } }
}
`,
		"fragments.graphql", `fragment UserFields on User { id name }
fragment Unused on User { email }
fragment Friend on User { ...UserFields since }
`,
		"dir/Anon.graphql", "{ version }\n")
	if got := strings.Join(s.Names(), " "); got != "Users User Anon" {
		t.Fatalf("operations %q", got)
	}
	for _, c := range []struct {
		name      string
		text      string
		unordered bool
	}{
		{"Users", "query Users($first: Int = 10) {\n  users(first: $first) { ...UserFields }\n}\n\nfragment UserFields on User { id name }", false},
		{"User", "query User($id: ID!) {\n  user(id: $id) { ...UserFields friends { ...Friend } }\n}\n\nfragment UserFields on User { id name }\n\nfragment Friend on User { ...UserFields since }", true},
		{"Anon", "{ version }", false},
	} {
		op := s.Lookup(c.name)
		if op.Text != c.text || op.Unordered != c.unordered {
			t.Errorf("%s: text\n%s\nunordered %v; want\n%s\nunordered %v", c.name, op.Text, op.Unordered, c.text, c.unordered)
		}
		if _, err := Parse(Source{Name: "again", Text: op.Text}); err != nil {
			t.Errorf("%s: its text alone does not parse: %v", c.name, err)
		}
	}
	if op := s.Lookup("User"); op.File != "ops.graphql" || op.Line != 7 || op.Column != 1 || op.Anonymous {
		t.Errorf("User at %s:%d:%d anonymous %v", op.File, op.Line, op.Column, op.Anonymous)
	}
	if !s.Lookup("Anon").Anonymous {
		t.Error("Anon is not anonymous")
	}
}

// TestUnorderedMarker: the marker counts in the comment lines directly above
// an operation, and only there.
func TestUnorderedMarker(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"line before", "# gqlbench: unordered\nquery A { a }", true},
		{"among comments", "# gqlbench: unordered\n# lists come back in any order\nquery A { a }", true},
		{"spacing", "  #gqlbench:unordered  \nquery A { a }", true},
		{"none", "# lists\nquery A { a }", false},
		{"other text", "# gqlbench is unordered? no\nquery A { a }", false},
	} {
		s, err := Parse(Source{Name: "a.graphql", Text: c.text})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := s.Ops[0].Unordered; got != c.want {
			t.Errorf("%s: unordered %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReadPath: a directory is read recursively in lexical order, .graphql
// and .gql files only; an empty one is an error.
func TestReadPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.graphql", "query B { b }")
	write("a/z.gql", "query Z { z }")
	write("a/y.graphql", "query Y { y }")
	write("notes.txt", "query N { n }")
	s, err := ReadPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Names(), " "); got != "Y Z B" {
		t.Errorf("operations %q, want Y Z B", got)
	}
	if s, err := ReadPath(filepath.Join(dir, "b.graphql")); err != nil || len(s.Ops) != 1 {
		t.Errorf("one file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := ReadPath(empty); err == nil || !strings.Contains(err.Error(), "no .graphql or .gql files") {
		t.Errorf("empty directory: %v", err)
	}
	if _, err := ReadPath(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing path gave no error")
	}
}

// TestParseWithSubscriptions: the subscription load's parse keeps a
// subscription beside its mutation and its fragments, and still makes every
// other check; Parse (a queries file) refuses the same document.
func TestParseWithSubscriptions(t *testing.T) {
	doc := "subscription Added($a: ID) { added(author: $a) { ...P } }\nmutation Add($t: String!) { add(title: $t) { id } }\nfragment P on Pub { id title }"
	s, err := ParseWithSubscriptions(sources("ops.graphql", doc)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Ops) != 2 || s.Ops[0].Kind != ast.Subscription || s.Ops[1].Kind != ast.Mutation {
		t.Fatalf("ops %v", s.Names())
	}
	if !strings.Contains(s.Ops[0].Text, "fragment P on Pub") {
		t.Errorf("the subscription's text lacks its fragment: %q", s.Ops[0].Text)
	}
	if _, err := Parse(sources("ops.graphql", doc)...); err == nil || !strings.Contains(err.Error(), "load --mode subscribe --ops") {
		t.Errorf("Parse: %v, want subscriptions refused with a pointer to the subscription load", err)
	}
	if _, err := ParseWithSubscriptions(sources("ops.graphql", "subscription S { a(x: $x) }")...); err == nil || !strings.Contains(err.Error(), "$x is not defined") {
		t.Errorf("an undefined variable: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.graphql"), []byte(doc), 0o644)
	if s, err := ReadPathWithSubscriptions(dir); err != nil || len(s.Ops) != 2 {
		t.Errorf("ReadPathWithSubscriptions: %v", err)
	}
}
