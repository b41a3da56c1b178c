package server

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// DefaultMaxDepth is the query depth limit when Config.MaxDepth is 0. The
// deepest template (QT5) has depth 8.
const DefaultMaxDepth = 15

// Depth is the depth of operation op: the longest chain of nested selection
// sets, fragments expanded (a fragment spread adds no level of its own). A
// fragment that spreads itself, directly or not, counts as infinitely deep;
// validation rejects such documents anyway.
func Depth(doc *ast.QueryDocument, op *ast.OperationDefinition) int {
	var depth func(set ast.SelectionSet, visiting map[string]bool) int
	depth = func(set ast.SelectionSet, visiting map[string]bool) int {
		d := 0
		for _, sel := range set {
			var n int
			switch s := sel.(type) {
			case *ast.Field:
				if len(s.SelectionSet) > 0 {
					n = 1 + depth(s.SelectionSet, visiting)
				} else {
					n = 1
				}
			case *ast.InlineFragment:
				n = depth(s.SelectionSet, visiting)
			case *ast.FragmentSpread:
				if visiting[s.Name] {
					return 1 << 30
				}
				f := doc.Fragments.ForName(s.Name)
				if f == nil {
					continue
				}
				visiting[s.Name] = true
				n = depth(f.SelectionSet, visiting)
				delete(visiting, s.Name)
			}
			d = max(d, n)
		}
		return d
	}
	return depth(op.SelectionSet, map[string]bool{})
}
