// Package postgraphile is the variant postgraphile: PostGraphile 5, the
// GraphQL server that generates its API from the database's tables, with
// postgraphile-plugin-connection-filter (filters on columns and, with
// connectionFilterRelations, on related rows) and @graphile/pg-aggregates,
// on Node 22. It is LinGBM's Scenario 2 server (§6.4): it serves its own
// schema, not the benchmark's, so it is queried in its dialect (package
// dialect: `gqlbench queries --dialect postgraphile`) and its answers are
// mapped back to the benchmark's before they are checked.
//
// The npm package in npm/ — package.json and package-lock.json, every
// version pinned, and server.mjs, which runs PostGraphile as a library on
// node:http to keep gqlbench's server contract (server.ProcessConfig) — is
// embedded in the binary and installed on first use by peer.Ensure.
package postgraphile

import (
	"context"
	"embed"
	"io"
	"io/fs"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/peer"
)

//go:embed npm/package.json npm/package-lock.json npm/server.mjs
var files embed.FS

// Package is the npm package of the variant.
var Package = peer.Package{Name: "postgraphile", Files: mustSub(files, "npm"), Main: "server.mjs"}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}

func init() {
	server.Register(server.Variant{
		Name:    "postgraphile",
		Summary: "PostGraphile 5.1.5 on Node 22, with connection-filter and pg-aggregates (PostgreSQL; queried in its dialect: queries --dialect postgraphile)",
		NeedsDB: true,
		Order:   100, // after gqlbench's own servers: a server of another stack
		Dialect: "postgraphile",
		Process: process,
	})
}

// process installs the package on first use and returns the command that
// serves c.
func process(ctx context.Context, c server.ProcessConfig) (*server.Program, error) {
	if _, err := peer.Env(c); err != nil { // a wrong database before a long install
		return nil, err
	}
	log := c.Log
	if log == nil {
		log = io.Discard
	}
	in, err := peer.Ensure(ctx, Package, log)
	if err != nil {
		return nil, err
	}
	return in.Program(Package, c)
}
