package workload

import (
	_ "embed"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

//go:embed schema.graphql
var schemaSource string

//go:embed writes.graphql
var writesSource string

//go:embed remote.graphql
var remoteSource string

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

var writesOnce = sync.OnceValue(func() *ast.Schema {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSource}, &ast.Source{Name: "writes.graphql", Input: writesSource})
	if err != nil {
		panic("workload: the embedded schema with its write extension does not load: " + err.Error())
	}
	return s
})

// WritesSource returns the write extension of the benchmark schema
// (writes.graphql): the mutations, their inputs, and the lookups of
// publications and undergraduate students, which read what they write.
func WritesSource() string { return writesSource }

// SchemaWithWrites returns the schema the reference servers serve: the
// benchmark schema extended by WritesSource, loaded once. Do not modify it.
func SchemaWithWrites() *ast.Schema { return writesOnce() }

var fullOnce = sync.OnceValue(func() *ast.Schema {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSource},
		&ast.Source{Name: "writes.graphql", Input: writesSource}, &ast.Source{Name: "remote.graphql", Input: remoteSource})
	if err != nil {
		panic("workload: the embedded schema with its extensions does not load: " + err.Error())
	}
	return s
})

// RemoteSource returns the remote extension of the benchmark schema
// (remote.graphql): the fields a server answers by calling the remote
// service (seed 002's @custom fields).
func RemoteSource() string { return remoteSource }

// FullSchema returns the schema the reference servers serve: the benchmark
// schema extended by WritesSource and RemoteSource, loaded once. Do not
// modify it.
func FullSchema() *ast.Schema { return fullOnce() }
