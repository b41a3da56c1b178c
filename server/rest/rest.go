// Package rest is the variant `rest`: a REST API over the benchmark
// database, the counterpart of the GraphQL servers in the REST-vs-GraphQL
// studies (seeds 001 and 004), over the same database layer (server/db:
// pgx's pool or SQLite, each statement counted) and with the same limits.
//
// Resources follow the schema's types (workload/schema.graphql): JSON
// field names as in the schema, ids as strings, lists in the schema's
// order. A resource is every scalar field and each to-one relation as the
// related id; each list field is a URL of its own:
//
//	GET    /rest/                                 the index: collections, fields, lists
//	GET    /rest/{collection}/{id}                a resource
//	GET    /rest/{collection}/{id}/{list}         a list field, ?limit=&offset=
//	GET    /rest/{collection}                     every row, ?limit=&offset=
//	GET    /rest/universities/{id}/graduateStudentConnection
//	POST   /rest/publications, /rest/undergraduateStudents
//	PATCH  /rest/publications/{id}, /rest/undergraduateStudents/{id}
//	DELETE /rest/publications/{id}, /rest/undergraduateStudents/{id}
//
// Every GET takes ?fields=a,b (sparse fieldsets; id always) and
// ?embed=name (one level: a to-one field's object in place of its id, or
// one list field added), with fields[name]=… for an embed's fields. Every
// GET is one SQL statement, embeds included (query.go shows its form);
// writes are one transaction of one statement (package write). Errors are
// RFC 9457 problem documents: 400 bad parameters or body, 403 a write to a
// row of the generated dataset, 404 no such resource or path, 405 a method
// the path does not take (with Allow), 413 a body over the limit, 415 a
// body that is not JSON, 500 a response over the limit, 503 the database
// unreachable, 504 past the timeout. docs/rest.md documents the API.
package rest

import (
	"context"
	"net/http"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/db"
)

func init() {
	server.Register(server.Variant{
		Name:    "rest",
		Summary: "a REST API over the same database: resources, lists, sparse fields, embedding, writes (not GraphQL)",
		NeedsDB: true,
		Order:   80, // after the GraphQL servers, null included: the REST-vs-GraphQL counterpart
		Root:    "/rest",
		OpenAPI: func(ctx context.Context, c server.Config, o server.HTTPOptions) (http.Handler, error) {
			return Open(ctx, c, o)
		},
	})
}

// Open opens the database of c and returns the API's handler with o's
// limits; its Close closes the database.
func Open(ctx context.Context, c server.Config, o server.HTTPOptions) (*Handler, error) {
	d, err := db.Open(ctx, c.DB, c.Pool)
	if err != nil {
		return nil, err
	}
	h := New(d, o)
	h.writes = c.Writes
	return h, nil
}
