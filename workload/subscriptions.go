package workload

import (
	_ "embed"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

//go:embed subscriptions.graphql
var subscriptionsSource string

// SubscriptionsSource returns the subscription extension of the benchmark
// schema (subscriptions.graphql): the events of the writes, served by the
// resolver-based reference servers.
func SubscriptionsSource() string { return subscriptionsSource }

var subscriptionsOnce = sync.OnceValue(func() *ast.Schema {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSource},
		&ast.Source{Name: "writes.graphql", Input: writesSource},
		&ast.Source{Name: "remote.graphql", Input: remoteSource},
		&ast.Source{Name: "subscriptions.graphql", Input: subscriptionsSource})
	if err != nil {
		panic("workload: the embedded schema with its extensions and subscriptions does not load: " + err.Error())
	}
	return s
})

// SchemaWithSubscriptions returns the schema the resolver-based reference
// servers serve: FullSchema extended by SubscriptionsSource, loaded once.
// Do not modify it.
func SchemaWithSubscriptions() *ast.Schema { return subscriptionsOnce() }
