package graph

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/server/trace"
)

// Executor runs GraphQL requests with gqlgen's executor (not its HTTP
// handler) over the Source a factory makes for each request. It implements
// server.Executor, server.Pinger and io.Closer (the latter two through the
// factory, when it has them).
type Executor struct {
	exec     *executor.Executor
	factory  source.Factory
	maxDepth int
	remote   remoteConfig // the remote fields (remote.go)
	feeds    *feeds       // the events of this server's writes
	streams  *streams     // its subscription transports
}

var (
	_ server.Executor = (*Executor)(nil)
	_ server.Pinger   = (*Executor)(nil)
	_ io.Closer       = (*Executor)(nil)
	_ server.Streamer = (*Executor)(nil)
)

// NewExecutor returns the executor of the benchmark schema over the
// Sources of f, honouring c.MaxDepth (0: server.DefaultMaxDepth).
func NewExecutor(f source.Factory, c server.Config) server.Executor {
	x := executor.New(NewExecutableSchema(Config{Resolvers: &Resolver{}}))
	x.SetQueryCache(newDocCache(docCacheSize))
	x.SetErrorPresenter(presentError)
	maxDepth := c.MaxDepth
	if maxDepth <= 0 {
		maxDepth = server.DefaultMaxDepth
	}
	rc := newRemote(f, c)
	if rc.batch {
		x.Use(remoteBatcher{})
	}
	e := &Executor{exec: x, factory: f, maxDepth: maxDepth, remote: rc, feeds: newFeeds()}
	e.streams = newStreams(e, !c.NoSubscriptionDedup)
	c.Writes.Listen(e.feeds.created) // the REST control's creates, beside --rest-control
	return e
}

// ServeStream serves a subscription request (server.IsStream): the events
// of the writes that this executor runs (subscription.go).
func (e *Executor) ServeStream(w http.ResponseWriter, r *http.Request) {
	e.streams.serve(w, r, e.feeds)
}

// Execute parses, validates and runs r, recording the time of parsing and
// validation (gqlgen's own operation stats; validation includes coercing
// the variables) in ctx's trace. Parse, validation and variable
// errors and a query deeper than the limit are request errors (no data);
// resolver errors are field errors beside the data, and one that comes from
// the database sets the response's HTTP status (server.StatusFor).
func (e *Executor) Execute(ctx context.Context, r *server.Request) *server.Response {
	ctx = graphql.StartOperationTrace(ctx)
	op, errs := e.exec.CreateOperationContext(ctx, &graphql.RawParams{
		Query:         r.Query,
		OperationName: r.OperationName,
		Variables:     jsonNumbers(r.Variables),
	})
	if op != nil {
		trace.Phases(ctx, op.Stats.Parsing.End.Sub(op.Stats.Parsing.Start),
			op.Stats.Validation.End.Sub(op.Stats.Validation.Start))
	}
	if errs != nil {
		return &server.Response{Errors: errs, RequestError: true}
	}
	if d := server.Depth(op.Doc, op.Operation); d > e.maxDepth {
		return &server.Response{RequestError: true,
			Errors: gqlerror.List{gqlerror.Errorf("the query is %d levels deep, more than the limit of %d", d, e.maxDepth)}}
	}
	op.DisableIntrospection = false

	if op.Operation != nil && op.Operation.Operation == ast.Mutation {
		if r.ReadOnly {
			return server.MutationOverGet()
		}
		if w, ok := e.factory.(Writer); ok {
			ctx = context.WithValue(ctx, writerKey{}, w.Store())
		}
		ctx = context.WithValue(ctx, feedsKey{}, e.feeds)
	}
	ctx = withSource(ctx, e.factory.ForRequest(ctx))
	ctx = withRemote(ctx, e.remote)
	f := &failure{}
	ctx = context.WithValue(ctx, failureKey{}, f)
	handle, ctx := e.exec.DispatchOperation(ctx, op)
	resp := handle(ctx)
	if resp == nil { // the context ended before the response was made
		err := context.Cause(ctx)
		if err == nil {
			err = errors.New("the request ended before its response was made")
		}
		return &server.Response{Errors: gqlerror.List{gqlerror.Wrap(err)}, Status: server.StatusFor(err)}
	}
	out := &server.Response{Data: resp.Data, Errors: resp.Errors}
	if len(resp.Data) == 0 && len(resp.Errors) > 0 { // the operation did not start (e.g. a mutation)
		out.RequestError = true
	}
	if err := f.get(); err != nil {
		out.Status = server.StatusFor(err)
	}
	return out
}

// jsonNumbers returns vars with every float64 (a number decoded by
// encoding/json without UseNumber) replaced by the json.Number of its
// text, which gqlparser and gqlgen coerce to Int, Float or ID as declared;
// vars itself when it holds none.
func jsonNumbers(vars map[string]any) map[string]any {
	var conv func(v any) (any, bool)
	conv = func(v any) (any, bool) {
		switch v := v.(type) {
		case float64:
			return json.Number(strconv.FormatFloat(v, 'f', -1, 64)), true
		case map[string]any:
			var out map[string]any
			for k, x := range v {
				if y, changed := conv(x); changed {
					if out == nil {
						out = maps.Clone(v)
					}
					out[k] = y
				}
			}
			return out, out != nil
		case []any:
			var out []any
			for i, x := range v {
				if y, changed := conv(x); changed {
					if out == nil {
						out = slices.Clone(v)
					}
					out[i] = y
				}
			}
			return out, out != nil
		}
		return v, false
	}
	if out, changed := conv(vars); changed {
		return out.(map[string]any)
	}
	return vars
}

// Ping pings the factory's database, if it has one.
func (e *Executor) Ping(ctx context.Context) error {
	if p, ok := e.factory.(server.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// Close closes the remote service's client and the factory, if it can be
// closed.
func (e *Executor) Close() error {
	if e.remote.close != nil {
		e.remote.close()
	}
	if c, ok := e.factory.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// failure keeps the first error of a request that is not the client's
// fault (not an argError): a database error, a panic.
type failure struct {
	mu  sync.Mutex
	err error
}

type failureKey struct{}

func (f *failure) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

func (f *failure) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// presentError is gqlgen's default presentation, recording failures.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	var ae *argError
	var re *remoteError // partial data: the server did its part
	if !errors.As(err, &ae) && !errors.As(err, &re) {
		if f, ok := ctx.Value(failureKey{}).(*failure); ok {
			f.set(err)
		}
	}
	return graphql.DefaultErrorPresenter(ctx, err)
}

// docCacheSize bounds the parsed and validated documents kept: benchmark
// workloads send a few query texts with changing variables.
const docCacheSize = 1000

// docCache is gqlgen's query cache: documents by query text, forgotten all
// at once when full (no LRU bookkeeping on the hot path).
type docCache struct {
	mu   sync.RWMutex
	max  int
	docs map[string]*ast.QueryDocument
}

var _ graphql.Cache[*ast.QueryDocument] = (*docCache)(nil)

func newDocCache(max int) *docCache {
	return &docCache{max: max, docs: make(map[string]*ast.QueryDocument)}
}

func (c *docCache) Get(_ context.Context, key string) (*ast.QueryDocument, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.docs[key]
	return d, ok
}

func (c *docCache) Add(_ context.Context, key string, d *ast.QueryDocument) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.docs) >= c.max {
		clear(c.docs)
	}
	c.docs[key] = d
}
