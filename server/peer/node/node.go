// Package node registers the variants node-naive, node-memo, node-batch and
// node-batch-memo: the LinGBM paper's own stack (§6.2) — Node.js, Apollo
// Server, DataLoader, node-postgres — over the benchmark schema, one
// technique per variant, mirroring the paper's four test servers and
// gqlbench's Go variants naive, memo, batch and batch-memo statement for
// statement.
//
// The servers are a small npm package that ships inside the binary (pkg/:
// package.json, the committed package-lock.json with every version pinned,
// Node 22 included, and the .mjs sources) plus the benchmark schema, taken
// from package workload when the binary is built so that there is one
// source of truth. peer.Ensure installs it into gqlbench's cache on first
// use; `gqlbench serve node-batch --db postgres://...` then runs it in
// place of gqlbench. PostgreSQL only.
package node

import (
	"context"
	"embed"
	"io"
	"sync"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/peer"
	"github.com/gqlbench/gqlbench/workload"
)

//go:embed pkg/package.json pkg/package-lock.json pkg/*.mjs
var sources embed.FS

// SchemaFile is where the package finds the benchmark schema.
const SchemaFile = "schema.graphql"

// Package returns the npm package of the Node variants: the embedded
// sources and the benchmark schema (workload.SchemaSource) as SchemaFile.
var Package = sync.OnceValue(func() peer.Package {
	files, err := peer.Embedded(sources, "pkg", map[string][]byte{SchemaFile: []byte(workload.SchemaSource())})
	if err != nil {
		panic("node: reading the embedded package: " + err.Error())
	}
	return peer.Package{Name: "node", Files: files, Main: "main.mjs"}
})

// Variants are the variants this package registers, by technique, in the
// paper's order.
var Variants = []struct{ Name, Summary string }{
	{"node-naive", "Node.js + Apollo Server, resolvers only: every object or list fetch is its own SQL statement (LinGBM §6.2's naive server)"},
	{"node-memo", "node-naive + per-request memoisation of identical SQL statements (LinGBM §6.2's caching server)"},
	{"node-batch", "Node.js + Apollo Server + DataLoader batching, cache off: one statement per batch of keys (LinGBM §6.2's batching server)"},
	{"node-batch-memo", "node-batch with DataLoader's per-request cache on (LinGBM §6.2's batching and caching server)"},
}

func init() {
	for i, v := range Variants {
		server.Register(server.Variant{
			Name:    v.Name,
			Summary: v.Summary,
			NeedsDB: true,
			// After gqlbench's own variants (10–70) and the other stacks'
			// generic servers.
			Order:   110 + 10*i,
			Process: Program,
			Traces:  true, // Apollo tracing (pkg/tracing.mjs)
		})
	}
}

// Program installs the package if needed (progress to c.Log) and returns the
// command that serves variant c.Variant with configuration c.
func Program(ctx context.Context, c server.ProcessConfig) (*server.Program, error) {
	if _, err := peer.Env(c); err != nil { // PostgreSQL only: say so before installing anything
		return nil, err
	}
	log := c.Log
	if log == nil {
		log = io.Discard
	}
	p := Package()
	in, err := peer.Ensure(ctx, p, log)
	if err != nil {
		return nil, err
	}
	return in.Program(p, c)
}
