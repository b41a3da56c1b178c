package compiled

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/remoteapi"
	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/server/write"
	"github.com/gqlbench/gqlbench/workload"
)

func init() {
	server.Register(server.Variant{
		Name:    "compiled",
		Summary: "the whole query compiled to one SQL statement that builds the JSON (Hasura/PostGraphile style)",
		NeedsDB: true,
		Order:   50, // after the paper's four: the technique of Hasura and PostGraphile
		Open: func(ctx context.Context, c server.Config) (server.Executor, error) {
			return Open(ctx, c)
		},
	})
}

// cacheSize is how many documents (query text and operation name) the
// statement cache of an Executor holds.
const cacheSize = 1024

// maxTokens bounds the size of a query document, as gqlgen does by default.
const maxTokens = 15000

// Executor is the compiled variant. It is safe for concurrent use.
type Executor struct {
	db       *db.DB
	d        dialect
	schema   *ast.Schema
	maxDepth int
	cache    *cache
	compiles atomic.Int64
	meta     server.Executor // introspection-only operations (introspection.go)
	store    *write.Store    // mutations (mutation.go)
	// remote answers the remote fields (remote.go); nil: remoteErr says why not.
	remote    *remoteapi.Client
	remoteErr error
}

// Open opens the database of c (see db.Open) and returns the executor.
func Open(ctx context.Context, c server.Config) (*Executor, error) {
	d, err := db.Open(ctx, c.DB, c.Pool)
	if err != nil {
		return nil, err
	}
	maxDepth := c.MaxDepth
	if maxDepth <= 0 {
		maxDepth = server.DefaultMaxDepth
	}
	e := &Executor{db: d, d: dialectOf(d.Loc.Kind()), schema: workload.FullSchema(), maxDepth: maxDepth, cache: newCache(cacheSize),
		meta: newMeta(maxDepth), store: write.NewStore(d)}
	e.remote, e.remoteErr = remoteOf(c)
	return e, nil
}

// Compiles is the number of statements compiled so far: a request whose
// document, operation and variable shape were seen before compiles nothing.
func (e *Executor) Compiles() int64 { return e.compiles.Load() }

// Ping checks that the database answers.
func (e *Executor) Ping(ctx context.Context) error { return e.db.Ping(ctx) }

// Close closes the cached statements, the remote service's client and the
// database.
func (e *Executor) Close() error {
	e.cache.clear()
	if e.remote != nil {
		e.remote.Close()
	}
	return e.db.Close()
}

// Execute runs request r as one SQL statement whose single value is the
// response's data. With --trace it records its parse and validation time
// (trace.Phases: the document's, zero for parsing when it was cached, and
// the variables' coercion); the rest, planning included, is execution.
func (e *Executor) Execute(ctx context.Context, r *server.Request) *server.Response {
	start := time.Now()
	ent, parse, errs := e.document(r.Query, r.OperationName)
	validate := time.Since(start) - parse
	if ent != nil {
		switch {
		case introspectionOnly(ent.op):
			return e.meta.Execute(ctx, r)
		case ent.op.Operation == ast.Mutation && r.ReadOnly:
			trace.Phases(ctx, parse, validate)
			return server.MutationOverGet()
		}
	}
	p, args, warnings, vars, coerce, fail := e.plan(ent, errs, r)
	trace.Phases(ctx, parse, validate+coerce)
	if fail != nil {
		return fail
	}
	if p.writes != nil {
		return e.mutate(ctx, p, vars)
	}
	data, err := e.run(ctx, p, args)
	if err != nil {
		resp := &server.Response{Data: json.RawMessage("null"), Errors: gqlerror.List{{Message: dbMessage(ctx, err)}}}
		resp.Status = server.StatusFor(err)
		return resp
	}
	data, remoteErrs := e.resolveRemote(ctx, data)
	return &server.Response{Data: data, Errors: append(warnings, remoteErrs...)}
}

// plan finds or compiles the plan of r, whose document is ent (or errs),
// and computes its arguments, the field errors that do not stop execution,
// the coerced variables and how long coercing them took; a request error
// is returned as the response.
func (e *Executor) plan(ent *entry, errs gqlerror.List, r *server.Request) (*plan, []any, gqlerror.List, map[string]any, time.Duration, *server.Response) {
	if errs != nil {
		return nil, nil, nil, nil, 0, requestError(errs)
	}
	start := time.Now()
	vars, err := validator.VariableValues(e.schema, ent.op, r.Variables)
	coerce := time.Since(start)
	if err != nil {
		return nil, nil, nil, nil, coerce, requestError(asList(err))
	}
	p, err := ent.plan(shape(e.schema, ent.op, vars), func() (*plan, error) {
		e.compiles.Add(1)
		if ent.op.Operation == ast.Mutation {
			return compileMutation(e.d, e.schema, ent.doc, ent.op, vars)
		}
		return compile(e.d, e.schema, ent.doc, ent.op, vars)
	})
	if err != nil {
		return nil, nil, nil, nil, coerce, requestError(asList(err))
	}
	args, warnings, err := p.args(vars)
	if err != nil {
		return nil, nil, nil, nil, coerce, requestError(asList(err))
	}
	return p, args, warnings, vars, coerce, nil
}

// document returns the cache entry of a valid document, parsing and
// validating it the first time, and how long parsing took (0: it was
// cached).
func (e *Executor) document(query, operationName string) (*entry, time.Duration, gqlerror.List) {
	key := cacheKey(query, operationName)
	if ent := e.cache.get(key); ent != nil {
		return ent, 0, nil
	}
	start := time.Now()
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Name: "query", Input: query}, maxTokens)
	parse := time.Since(start)
	if err != nil {
		return nil, parse, asList(err)
	}
	if errs := validator.ValidateWithRules(e.schema, doc, nil); len(errs) > 0 {
		return nil, parse, errs
	}
	op, err := operation(doc, operationName)
	if err != nil {
		return nil, parse, asList(err)
	}
	if d := server.Depth(doc, op); d > e.maxDepth {
		return nil, parse, asList(fmt.Errorf("the query is %d levels deep; the limit is %d", d, e.maxDepth))
	}
	return e.cache.put(&entry{key: key, doc: doc, op: op, plans: map[string]*plan{}}), parse, nil
}

// operation picks the operation to run.
func operation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, error) {
	switch {
	case name != "":
		if op := doc.Operations.ForName(name); op != nil {
			return op, nil
		}
		return nil, fmt.Errorf("unknown operation %q", name)
	case len(doc.Operations) == 1:
		return doc.Operations[0], nil
	case len(doc.Operations) == 0:
		return nil, errors.New("the document has no operation")
	default:
		return nil, errors.New("the document has several operations: operationName is required")
	}
}

// run executes plan p with args and returns the JSON it builds, recording
// the statement in ctx's trace.
func (e *Executor) run(ctx context.Context, p *plan, args []any) (json.RawMessage, error) {
	start := time.Now()
	defer func() { trace.Statement(ctx, time.Since(start)) }()
	stmt, err := p.acquire(ctx, e.db)
	if err != nil {
		return nil, err
	}
	defer p.release()
	var data []byte
	if err := stmt.QueryValue(ctx, &data, args...); err != nil {
		return nil, err
	}
	return data, nil
}

func requestError(errs gqlerror.List) *server.Response {
	return &server.Response{Errors: errs, RequestError: true}
}

// asList is err as a GraphQL error list, keeping a *gqlerror.Error's
// locations and path.
func asList(err error) gqlerror.List {
	var list gqlerror.List
	if errors.As(err, &list) {
		return list
	}
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return gqlerror.List{ge}
	}
	return gqlerror.List{{Message: err.Error()}}
}

// dbMessage is the error message of a failed statement.
func dbMessage(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "the request was cancelled or timed out: " + err.Error()
	}
	return "database: " + err.Error()
}
