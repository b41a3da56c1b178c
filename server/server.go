// Package server is what every gqlbench reference server shares: the
// GraphQL-over-HTTP layer, request limits, the timing breakdown, and the
// registry of variants (naive, memo, batch, batch-memo, compiled, inmem,
// null, rest). A GraphQL variant is an Executor, which Handler serves; a
// variant with an API of its own (rest) is an http.Handler, which API wraps
// with the shared /healthz; `gqlbench serve VARIANT` serves either (Start).
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Request is one GraphQL request, as POSTed in JSON or given in a GET query string.
type Request struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName,omitempty"`
	Variables     map[string]any `json:"variables,omitempty"`
	// ReadOnly marks a request that came by GET: an executor must not run
	// a mutation for it, and answers MutationOverGet instead.
	ReadOnly bool `json:"-"`
}

// Response is what an Executor returns. Data is raw JSON so an executor that
// gets its answer as JSON (compiled builds it in the database) does not
// decode and encode it again.
type Response struct {
	Data       json.RawMessage `json:"data,omitempty"`
	Errors     gqlerror.List   `json:"errors,omitempty"`
	Extensions map[string]any  `json:"extensions,omitempty"`
	// RequestError marks a request that could not be executed at all
	// (syntax, validation, variable coercion, limits): Data is absent and
	// the HTTP status is 400 under application/graphql-response+json, 200
	// under application/json, as the GraphQL-over-HTTP spec says (Handler).
	RequestError bool `json:"-"`
	// Status overrides the HTTP status when not 0, e.g. 503 when the
	// database is unreachable (see StatusFor).
	Status int `json:"-"`
}

// Executor runs GraphQL requests over the benchmark schema. It must be safe
// for concurrent use. Execute must honour ctx (the request timeout) and
// Config.MaxDepth.
type Executor interface {
	Execute(ctx context.Context, r *Request) *Response
}

// Config is what a variant is opened with.
type Config struct {
	DB       string        // database location (dbloc.Parse): postgres://..., a keyword/value DSN or sqlite:PATH
	Pool     int           // maximum database connections (the paper's §6.3 varies it); 0: 10
	MaxDepth int           // maximum query depth; 0: 15
	Timeout  time.Duration // per-request timeout; the HTTP layer enforces it through ctx
	// BatchWait is how long a DataLoader collects keys before it fetches
	// (batching variants only); 0: the variant's default.
	BatchWait time.Duration
	// Remote is how the remote custom fields are answered (remote.go).
	Remote Remote
	// Writes, when not nil, relays the creates of the process's other API
	// (serve --rest-control's REST handlers publish there, the GraphQL
	// variant's subscriptions listen).
	Writes *Writes
	// NoSubscriptionDedup makes a variant with subscriptions execute each
	// subscription's selection for itself, rather than once per event for
	// all the subscriptions of the same document, operation and variables
	// (serve --subscription-dedup=false).
	NoSubscriptionDedup bool
}

// Variant is a reference server.
type Variant struct {
	Name    string // kebab-case, as on the command line
	Summary string // one line for `gqlbench serve --help`
	// NeedsDB says whether Open needs Config.DB.
	NeedsDB bool
	// Order places the variant in the lists made for people to read, such
	// as quickstart's default --variants: lowest first, ties by name. The
	// reference servers count up from the simplest technique to the most
	// elaborate, in steps of 10 to leave room; every one has an Order (a
	// test in server/all checks). A variant without one (0: the tests'
	// own) is left out of those lists (see Ordered).
	Order int
	// Open starts a GraphQL variant; the returned Executor may implement
	// io.Closer.
	Open func(ctx context.Context, c Config) (Executor, error)
	// OpenAPI, set instead of Open, starts a variant that serves an HTTP API
	// of its own rather than GraphQL (rest). Its handler serves every path
	// but /healthz (see API), honouring o's limits (request and response
	// size, timeout) and o.Trace in its own way; it may implement Pinger
	// and io.Closer. Such a variant takes no GraphQL requests: the
	// registry-wide GraphQL tests and the template experiments pass it by.
	OpenAPI func(ctx context.Context, c Config, o HTTPOptions) (http.Handler, error)
	// Root is the path under which the variant serves its API, logged by
	// Serve: "/graphql" when empty.
	Root string
	// Dialect, when not "", is the schema the variant serves instead of the
	// benchmark's: a dialect of package dialect, whose queries `gqlbench
	// queries --dialect` writes. The experiments that send the benchmark's
	// own queries leave such a variant out.
	Dialect string
	// Process, when not nil, makes the variant a server of another stack
	// (PostGraphile, the Node servers): `gqlbench serve` gets its Program
	// and replaces itself with it, so the process that is watched, pinned
	// and signalled is the server itself. Open is then not used. The
	// program keeps the contract of the Go variants (see ProcessConfig).
	Process func(ctx context.Context, c ProcessConfig) (*Program, error)
	// Traces says that a Process variant gives an account of each
	// request's time when asked (ProcessConfig.Trace, serve --trace); the
	// Go variants always can.
	Traces bool
}

// ProcessConfig is what a Process variant is started with. Its program
// must listen on Addr (loopback unless asked otherwise), log the line
// "serving on http://HOST:PORT/graphql" with the actual address once it
// listens, answer GET /healthz with 200 and the header Gqlbench-Variant set
// to Variant (503 while its database is unreachable), serve GraphQL at
// /graphql, use at most Pool database connections, and shut down gracefully
// on SIGTERM or SIGINT.
type ProcessConfig struct {
	Config
	Variant string
	Addr    string // HOST:PORT; port 0 picks a free one
	Log     io.Writer
	// Trace asks the program for its own account of each request's time
	// (serve --trace; only for a variant that Traces): the Node servers add
	// Apollo tracing (GQLBENCH_TRACE=1).
	Trace bool
}

// Program is a command to run: Path and its arguments (without argv[0]), in
// Dir, with Env added to the environment of gqlbench.
type Program struct {
	Path string
	Args []string
	Dir  string
	Env  []string
}

// GraphQL says whether v is a GraphQL server (Open, or a Process of
// another stack), not an API of its own.
func (v Variant) GraphQL() bool { return v.Open != nil || v.Process != nil }

var (
	mu       sync.Mutex
	variants = map[string]Variant{}
)

// Register adds a variant; it panics on a duplicate name. Variant packages
// call it from init, and server/all imports them all.
func Register(v Variant) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := variants[v.Name]; dup {
		panic(fmt.Sprintf("server: variant %q registered twice", v.Name))
	}
	variants[v.Name] = v
}

// Variants lists the registered variants sorted by name.
func Variants() []Variant {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Variant, 0, len(variants))
	for _, v := range variants {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Ordered lists the registered variants that have an Order, by Order and
// then name: the order in which people read them.
func Ordered() []Variant {
	var out []Variant
	for _, v := range Variants() {
		if v.Order > 0 {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// Lookup returns the variant called name.
func Lookup(name string) (Variant, bool) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := variants[name]
	return v, ok
}

// DBEnv names the environment variable that gives `gqlbench serve` its
// database when --db does not. A process's command line is readable by every
// user of the machine, its environment only by its owner: the experiments
// hand the URL, which may hold a password, to the servers they start here.
const DBEnv = "GQLBENCH_DB"
