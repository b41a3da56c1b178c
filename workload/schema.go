package workload

import (
	_ "embed"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

//go:embed schema.graphql
var schemaSource string

var schemaOnce = sync.OnceValue(func() *ast.Schema {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSource, BuiltIn: false})
	if err != nil {
		panic("workload: the embedded schema does not load: " + err.Error())
	}
	return s
})

// SchemaSource returns the benchmark GraphQL schema (DESIGN Appendix B) as SDL,
// with the ordering rule and answer semantics in its descriptions.
func SchemaSource() string { return schemaSource }

// Schema returns the parsed benchmark schema, loaded once. Do not modify it.
func Schema() *ast.Schema { return schemaOnce() }
