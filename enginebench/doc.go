// Package enginebench is the engine in isolation (seed 003, issue 24 item
// 4): GraphQL engines timed phase by phase — parse, validate, execute —
// with no network and no database, over the benchmark schema and the
// dataset held in memory (server/inmem), every answer checked against the
// oracle's.
//
// The engines:
//
//	gqlgen       gqlparser's parser and validator and gqlgen's executor over
//	             the in-memory data: the GraphQL layer of the resolver-based
//	             variants (server/graph) with data access that costs next to
//	             nothing; execute is a request whose document is cached
//	             (variables coerced, fields resolved, JSON written)
//	compiled     the compiled variant's compile step (server/compiled): a
//	             cache miss (parse, validate, compile to SQL) and a cache hit;
//	             its SQL runs on no database while timed, and is checked
//	             against the statement that answered right on SQLite
//	graphql-js   graphql-js's parse, validate and execute (+ JSON.stringify),
//	             synchronous resolvers over the same data in Node
//	graphql-jit  graphql-jit's compile (a miss) and its compiled execute
//
// The shapes are seed 003's (one object, several root fields, variables,
// fragments, lists of 10, 100 and 1000 elements, introspection) and one
// instance of each of the 16 LinGBM templates. Run times a list of them
// and writes an engine file (runfile.EngineHeader, runfile.EngineResult);
// the Go benchmarks in server/graph and server/compiled run the same
// operations under `go test -bench`.
//
// It imports the servers it measures and the loader (for the SQLite copy
// the compiled statements are checked on); nothing imports it but the
// command line and those benchmarks. It must not import drive, report or
// experiment.
package enginebench
