// Package null is the null reference server: it answers every request with
// the same canned response, without parsing the query or touching a
// database, so that a benchmark of it measures the load generator's own
// ceiling (and the HTTP layer's), not a GraphQL server.
//
// The answer, {"data":{"__typename":"Query"}}, is the right one to the query
// {__typename}, so smoke tests can send that.
package null

import (
	"context"
	"encoding/json"

	"github.com/gqlbench/gqlbench/server"
)

func init() {
	server.Register(server.Variant{
		Name:    "null",
		Summary: "a canned response, no parsing, no database: measures the load generator's ceiling",
		Order:   70, // last: no GraphQL server at all
		Open: func(context.Context, server.Config) (server.Executor, error) {
			return Executor{}, nil
		},
	})
}

// canned is the one response, shared by every request (the HTTP layer never
// modifies a Response), so answering allocates nothing.
var canned = &server.Response{Data: json.RawMessage(`{"__typename":"Query"}`)}

// Executor returns the canned response.
type Executor struct{}

// Execute returns the canned response, whatever r asks.
func (Executor) Execute(context.Context, *server.Request) *server.Response { return canned }

// NonBlocking tells the HTTP layer that Execute never waits, so it needs no
// goroutine and no timer.
func (Executor) NonBlocking() {}
