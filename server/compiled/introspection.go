package compiled

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/graph"
	"github.com/gqlbench/gqlbench/server/source"
)

// Introspection has no SQL behind it: an operation that asks only for the
// schema (__schema, __type, __typename at the root) is answered by gqlgen's
// executor over the same schema, as Hasura and PostGraphile answer it beside
// their SQL compilers, so GraphQL tools can inspect the compiled variant too.
// An operation that mixes the two is a request error (errIntrospection).

// newMeta returns the executor of introspection-only operations.
func newMeta(maxDepth int) server.Executor {
	return graph.NewExecutor(noData{}, server.Config{MaxDepth: maxDepth})
}

// noData is the Source of the introspection executor: the operations it
// runs read no data, so none of its methods is ever called (the nil
// embedded interface would panic, which gqlgen reports as a field error).
type noData struct{ source.Source }

func (noData) ForRequest(ctx context.Context) source.Source { return noData{} }

// introspectionOnly reports whether every root field of op (through its
// fragments) is __schema, __type or __typename, and at least one of the
// first two.
func introspectionOnly(op *ast.OperationDefinition) bool {
	meta, data := false, false
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, s := range set {
			switch s := s.(type) {
			case *ast.Field:
				switch s.Name {
				case "__schema", "__type":
					meta = true
				case "__typename":
				default:
					data = true
				}
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				if s.Definition != nil {
					walk(s.Definition.SelectionSet)
				}
			}
		}
	}
	walk(op.SelectionSet)
	return meta && !data
}
