package compiled

import (
	"errors"
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// The compile step alone, for `gqlbench bench engine` and this package's
// benchmarks (the engine in isolation, seed 003): what a request costs the
// compiled variant before its statement reaches the database — on a cache
// miss, parsing, validation and compiling; on a hit, the cache lookup,
// variable coercion, the variable shape and the parameter values.

// ErrNoStatement is Compile's error for an operation that compiles to no
// SQL: introspection alone, which gqlgen's executor answers (introspection.go).
var ErrNoStatement = errors.New("compiled: an introspection-only operation has no SQL statement (gqlgen's executor answers it)")

// Statement is a request's compiled statement: its SQL and parameter values.
type Statement struct {
	SQL  string
	Args []any
}

// Compiler is the compile step of an Executor without a database, in the
// SQL of one kind of database. It is not safe for concurrent use.
type Compiler struct{ e *Executor }

// NewCompiler returns the compile step for databases of kind (SQLite's
// SQL or PostgreSQL's).
func NewCompiler(kind dbloc.Kind) *Compiler {
	return &Compiler{e: &Executor{d: dialectOf(kind), schema: workload.SchemaWithWrites(), maxDepth: server.DefaultMaxDepth,
		cache: newCache(cacheSize)}}
}

// Compile returns the statement of r. With miss, the statement cache is
// emptied first, so the document is parsed, validated and compiled anew
// (what the first request of a document costs); without, a document seen
// before is a cache hit.
func (c *Compiler) Compile(r *server.Request, miss bool) (Statement, error) {
	if miss {
		c.e.cache = newCache(cacheSize)
	}
	return c.e.Statement(r)
}

// Compiles is the number of statements compiled so far.
func (c *Compiler) Compiles() int64 { return c.e.Compiles() }

// Statement returns the statement e runs for r, compiling it if its cache
// has none, without running it.
func (e *Executor) Statement(r *server.Request) (Statement, error) {
	ent, _, errs := e.document(r.Query, r.OperationName)
	if ent != nil && introspectionOnly(ent.op) {
		return Statement{}, ErrNoStatement
	}
	p, args, _, _, _, fail := e.plan(ent, errs, r)
	if fail != nil {
		var msgs []string
		for _, err := range fail.Errors {
			msgs = append(msgs, err.Message)
		}
		return Statement{}, errors.New("compiled: " + strings.Join(msgs, "; "))
	}
	return Statement{SQL: p.sql, Args: args}, nil
}
