package server

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

func TestDepth(t *testing.T) {
	for _, c := range []struct {
		name  string
		query string
		want  int
	}{
		{"one field", `{ a }`, 1},
		{"nested", `{ a { b { c } } d }`, 3},
		{"inline fragment adds no level", `{ a { ... on T { b { c } } } }`, 3},
		{"fragment spread expands", `{ a { ...F } } fragment F on T { b { c } }`, 3},
		{"self-spreading fragment is infinitely deep", `{ a { ...F } } fragment F on T { b { ...F } }`, 1 << 30},
	} {
		doc, err := parser.ParseQuery(&ast.Source{Input: c.query})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := Depth(doc, doc.Operations[0]); got != c.want && !(c.want == 1<<30 && got >= 1<<30) {
			t.Errorf("%s: depth %d, want %d", c.name, got, c.want)
		}
	}
}
