package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/server"
	_ "github.com/gqlbench/gqlbench/server/all" // every variant
)

func init() {
	register("serve", "serve a reference GraphQL server variant over HTTP (naive, batch, compiled, null, ...)", runServe)
}

func runServe(ctx context.Context, env Env, args []string) error {
	a, err := parseServe(env, args)
	if err != nil {
		return err
	}
	v, loc, err := a.variant(env)
	if err != nil {
		return err
	}
	if v.Process != nil {
		switch {
		case a.pprof != "":
			return usagef("--pprof is for gqlbench's own variants (Go), not %s", v.Name)
		case a.traceEvery > 1:
			return usagef("--trace-every is for gqlbench's own variants, not %s", v.Name)
		case a.trace && !v.Traces:
			return usagef("--trace: %s gives no account of its requests' time (gqlbench's own variants and node-* do)", v.Name)
		case a.restControl || a.leakBytes > 0 || a.set["subscription-dedup"]:
			return usagef("--rest-control, --leak-bytes-per-request and --subscription-dedup are for gqlbench's own variants, not %s", v.Name)
		}
		return serveProcess(ctx, env, v, server.ProcessConfig{
			Config:  server.Config{DB: a.db, Pool: a.pool, MaxDepth: a.maxDepth, Timeout: a.timeout},
			Variant: v.Name, Addr: a.addr, Trace: a.trace,
		})
	}
	if a.pprof != "" {
		if err := servePprof(ctx, a.pprof, env.Stderr); err != nil {
			return err
		}
	}
	return a.serve(ctx, env, v, loc)
}

// serveArgs are serve's command line, parsed and checked.
type serveArgs struct {
	variantName     string
	db, from        string // the database, and where it came from (--db or $GQLBENCH_DB)
	addr, pprof     string
	pool, maxDepth  int
	maxExecuting    int
	batchWait       time.Duration
	timeout         time.Duration
	maxResp, maxReq int64
	trace           bool
	traceEvery      int
	// restControl mounts serve rest's API beside the variant's GraphQL
	// endpoint (seed 003's REST control); debugMetrics serves
	// /debug/metrics on a non-loopback address too; leakBytes makes the
	// server leak that much per request (a soak's self-test).
	restControl, debugMetrics bool
	writes                    *server.Writes // --rest-control: REST creates → the variant's subscriptions
	leakBytes                 int
	subDedup                  bool // --subscription-dedup
	loopback                  bool
	remote                    server.Remote // the remote fields (serve_remote.go)
	remoteClient              string
	set                       map[string]bool // the flags given
}

// parseServe parses serve's flags and its one VARIANT, and checks their
// ranges.
func parseServe(env Env, args []string) (*serveArgs, error) {
	var a serveArgs
	fs := newFlags(env, "serve", serveSynopsis())
	remoteFlags(fs, &a) // serve_remote.go
	fs.StringVar(&a.db, "db", "", "database: postgres://USER:PASS@HOST:PORT/DB, a keyword/value DSN or sqlite:PATH (for the variants that need one; default $"+server.DBEnv+", which keeps a password out of the process list)")
	fs.StringVar(&a.addr, "addr", "127.0.0.1:4000", "listen address HOST:PORT; port 0 picks a free one (logged); a non-loopback host exposes the server to the network")
	fs.IntVar(&a.pool, "pool", 10, "maximum database connections")
	fs.DurationVar(&a.batchWait, "batch-wait", 0, "how long a DataLoader collects keys before it fetches (batch, batch-memo; 0: the variant's default)")
	fs.DurationVar(&a.timeout, "timeout", server.DefaultTimeout, "per-request timeout; past it the answer is 504")
	fs.IntVar(&a.maxDepth, "max-depth", server.DefaultMaxDepth, "maximum query depth; deeper queries are refused (400, or 200 with errors for a client that accepts only application/json)")
	fs.Int64Var(&a.maxResp, "max-response-bytes", server.DefaultMaxResponseBytes, "largest response; a larger one is answered with an error (500)")
	fs.IntVar(&a.maxExecuting, "max-executing", 0, "GraphQL operations executed at once; more wait for a slot in arrival order (0: 16 per processor, GOMAXPROCS; -1: no limit). Each executing operation holds its resolvers' goroutines and results until it ends")
	fs.Int64Var(&a.maxReq, "max-request-bytes", server.DefaultMaxRequestBytes, "largest request body; a larger one gets 413")
	fs.StringVar(&a.pprof, "pprof", "", "serve Go's profiles (net/http/pprof: CPU, heap, goroutines) at http://`ADDR`/debug/pprof/, a loopback address apart from the GraphQL one")
	fs.BoolVar(&a.restControl, "rest-control", false, "also serve rest's API under /rest/ in the same process, over the same database (a REST control for experiment overhead; gqlbench's own GraphQL variants)")
	fs.BoolVar(&a.debugMetrics, "debug-metrics", false, "serve the Go runtime's metrics at /debug/metrics on a non-loopback --addr too (on a loopback address they always are)")
	fs.IntVar(&a.leakBytes, "leak-bytes-per-request", 0, "testing only: keep this many bytes per request forever, a leak of known rate for experiment soak's self-test")
	fs.BoolVar(&a.subDedup, "subscription-dedup", true, "execute the subscriptions of one document, operation name and variables once per event and send every subscriber that answer (gqlbench's variants with subscriptions; correct because nothing in their answers depends on who subscribed); false: execute each subscription for itself")
	fs.BoolVar(&a.trace, "trace", false, "add the server's account of each request's time: a Server-Timing header (read, parse, validate, execute, db, write, total) and extensions.timing (total_ns, parse_ns, validate_ns, execute_ns, database_ns: wall time with a statement running, database_sum_ns, graphql_ns, sql_statements); rest: the Server-Timing header; node-*: Apollo tracing (extensions.tracing)")
	fs.IntVar(&a.traceEvery, "trace-every", 1, "with --trace, trace one request in `N` (by order of arrival): the others get no account and cost a counter's increment, for throughput runs whose split is read from a sample (docs/layers.md)")
	flags, pos := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return nil, err
	}
	switch {
	case a.traceEvery < 1:
		return nil, usagef("--trace-every must be at least 1, got %d", a.traceEvery)
	case a.traceEvery > 1 && !a.trace:
		return nil, usagef("--trace-every samples what --trace adds: give --trace too")
	}
	a.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { a.set[f.Name] = true })
	a.from = "--db"
	if a.db == "" && env.Getenv != nil {
		a.db, a.from = env.Getenv(server.DBEnv), "$"+server.DBEnv
	}
	switch {
	case len(pos) == 0:
		return nil, usagef("missing VARIANT: one of %s", variantNames())
	case len(pos) > 1:
		return nil, usagef("unexpected argument %q", strings.Join(pos[1:], " "))
	case a.pool < 1:
		return nil, usagef("--pool must be at least 1, got %d", a.pool)
	case a.timeout <= 0:
		return nil, usagef("--timeout must be positive, got %v", a.timeout)
	case a.maxDepth < 1:
		return nil, usagef("--max-depth must be at least 1, got %d", a.maxDepth)
	case a.maxResp < 1 || a.maxReq < 1:
		return nil, usagef("--max-response-bytes and --max-request-bytes must be positive")
	case a.maxExecuting < -1:
		return nil, usagef("--max-executing must be positive, 0 (the default) or -1 (no limit), got %d", a.maxExecuting)
	case a.leakBytes < 0:
		return nil, usagef("--leak-bytes-per-request must not be negative, got %d", a.leakBytes)
	}
	a.variantName = pos[0]
	if err := a.checkRemote(); err != nil {
		return nil, err
	}
	return &a, nil
}

// variant looks the variant up and checks its database and the listen
// address, warning on stderr of what is ignored or exposed.
func (a *serveArgs) variant(env Env) (server.Variant, dbloc.Location, error) {
	var loc dbloc.Location
	v, ok := server.Lookup(a.variantName)
	if !ok {
		return v, loc, usagef("unknown variant %q: the variants are %s", a.variantName, variantNames())
	}
	if v.NeedsDB && a.db == "" {
		return v, loc, usagef("variant %s needs a database: --db postgres://... or --db sqlite:PATH (see gqlbench gen)", v.Name)
	}
	if v.NeedsDB {
		var err error
		if loc, err = dbloc.Parse(a.db); err != nil {
			return v, loc, usagef("%s: %v", a.from, err)
		}
		if loc.Kind() == dbloc.SQLite { // sqlite:/dev/null is no database, and not to be written beside
			if err := outfile.CheckFile(loc.SQLitePath(), "an SQLite database"); err != nil {
				return v, loc, usagef("%s: %v", a.from, err)
			}
		}
	}
	if !v.NeedsDB && a.db != "" {
		fmt.Fprintf(env.Stderr, "serve: variant %s uses no database; %s ignored\n", v.Name, a.from)
	}
	loop, err := isLoopback(a.addr)
	if err != nil {
		return v, loc, usagef("%v", err)
	}
	if !loop {
		fmt.Fprintf(env.Stderr, "serve: warning: %s is not a loopback address: the server is reachable from the network\n", a.addr)
	}
	a.loopback = loop
	if a.restControl && (!v.GraphQL() || v.Dialect != "") {
		return v, loc, usagef("--rest-control mounts rest beside a GraphQL variant of the benchmark's schema, not %s", v.Name)
	}
	if a.restControl && !v.NeedsDB {
		return v, loc, usagef("--rest-control needs a variant over a database (rest reads the database), not %s", v.Name)
	}
	return v, loc, nil
}

// serve starts one of gqlbench's own variants, v, on loc and serves it
// until ctx ends.
func (a *serveArgs) serve(ctx context.Context, env Env, v server.Variant, loc dbloc.Location) error {
	if err := a.reachRemote(ctx, env, v); err != nil {
		return err
	}
	if a.restControl { // the REST control's creates raise the variant's subscription events
		a.writes = &server.Writes{}
	}
	h, closer, err := server.Start(ctx, v, server.Config{DB: a.db, Pool: a.pool, MaxDepth: a.maxDepth, Timeout: a.timeout, BatchWait: a.batchWait, Remote: a.remoteConfig(v), Writes: a.writes,
		NoSubscriptionDedup: !a.subDedup},
		server.HTTPOptions{
			MaxResponseBytes: a.maxResp,
			Timeout:          a.timeout,
			Trace:            a.trace,
			TraceEvery:       a.traceEvery,
			MaxRequestBytes:  a.maxReq,
			Variant:          v.Name,
			Log:              env.Stderr,
			MaxExecuting:     a.maxExecuting,
		})
	if err != nil {
		return fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	h, closer, err = a.extras(ctx, env, h, closer)
	if err != nil {
		return err
	}
	where := ""
	if v.NeedsDB {
		where = fmt.Sprintf(" on %s, pool %d,", loc, a.pool)
	}
	depth := fmt.Sprintf(" max depth %d,", a.maxDepth)
	switch {
	case !v.GraphQL():
		depth = ""
	case a.maxExecuting < 0:
		depth += " executing: no limit,"
	case v.Name != "null":
		depth += fmt.Sprintf(" executing at most %d at once,", server.HTTPOptions{MaxExecuting: a.maxExecuting}.WithDefaults().MaxExecuting)
	}
	if v.GraphQL() && !a.subDedup {
		depth += " subscriptions executed each for itself (--subscription-dedup=false),"
	}
	fmt.Fprintf(env.Stderr, "serve: %s%s timeout %v,%s max response %d bytes, trace %v\n",
		v.Name, where, a.timeout, depth, a.maxResp, a.trace)
	root := v.Root
	if root == "" {
		root = "/graphql"
	}
	err = server.ServeAt(ctx, a.addr, root, h, env.Stderr)
	if closer != nil {
		if cerr := closer.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", v.Name, cerr)
		}
	}
	return err
}

// extras wraps h, the variant's handler, with what the flags add: rest's
// API under /rest (--rest-control, closed with closer), the runtime's
// metrics at /debug/metrics (loopback or --debug-metrics) and a leak
// (--leak-bytes-per-request).
func (a *serveArgs) extras(ctx context.Context, env Env, h http.Handler, closer io.Closer) (http.Handler, io.Closer, error) {
	if a.restControl {
		rv, _ := server.Lookup("rest")
		rh, rc, err := server.Start(ctx, rv, server.Config{DB: a.db, Pool: a.pool, Timeout: a.timeout, Writes: a.writes},
			server.HTTPOptions{MaxResponseBytes: a.maxResp, Timeout: a.timeout, Trace: a.trace, TraceEvery: a.traceEvery, MaxRequestBytes: a.maxReq, Variant: "rest", Log: env.Stderr})
		if err != nil {
			if closer != nil {
				closer.Close()
			}
			return nil, nil, fmt.Errorf("cannot start the REST control: %w", err)
		}
		h = server.WithRESTControl(h, rh)
		closer = twoClosers{closer, rc}
		fmt.Fprintf(env.Stderr, "serve: REST control (rest's API, pool %d of its own) under %s/ in this process\n", a.pool, server.RESTControlRoot)
	}
	if a.leakBytes > 0 {
		h = server.Leak(h, a.leakBytes)
		fmt.Fprintf(env.Stderr, "serve: warning: leaking %d bytes per request on purpose (--leak-bytes-per-request)\n", a.leakBytes)
	}
	if a.loopback || a.debugMetrics {
		h = server.Metrics(h)
	}
	return h, closer, nil
}

// twoClosers closes each of its non-nil closers, and returns the first error.
type twoClosers []io.Closer

func (cs twoClosers) Close() error {
	var first error
	for _, c := range cs {
		if c == nil {
			continue
		}
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// servePprof serves net/http/pprof's handlers at addr (loopback only) until
// ctx ends.
func servePprof(ctx context.Context, addr string, log io.Writer) error {
	if loop, err := isLoopback(addr); err != nil || !loop {
		return usagef("--pprof %q: want a loopback HOST:PORT, e.g. 127.0.0.1:6060", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	context.AfterFunc(ctx, func() { srv.Close() })
	fmt.Fprintf(log, "serve: profiles at http://%s/debug/pprof/\n", ln.Addr())
	return nil
}

// serveSynopsis is the usage line plus the variants, for --help.
func serveSynopsis() string {
	var b strings.Builder
	b.WriteString("serve VARIANT [--db URL] [--addr 127.0.0.1:4000] [--pool 10] [--timeout 30s] [--trace] [flags]\n\nVariants:\n")
	width := 0
	for _, v := range server.Variants() {
		width = max(width, len(v.Name))
	}
	for _, v := range server.Variants() {
		db := ""
		if v.NeedsDB {
			db = " (needs --db)"
		}
		fmt.Fprintf(&b, "  %-*s %s%s\n", width, v.Name, v.Summary, db)
	}
	b.WriteString("\nGraphQL is served at http://ADDR/graphql (POST or GET), rest's API under http://ADDR/rest/\n(docs/rest.md), remote-api's under http://ADDR/v1/ (docs/remote-fields.md), health at\n/healthz; Ctrl-C shuts down gracefully, letting in-flight requests finish.")
	return b.String()
}

func variantNames() string {
	var names []string
	for _, v := range server.Variants() {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}

// isLoopback says whether a listen address binds the loopback interface
// only, or why it is not an address.
func isLoopback(addr string) (bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--addr %q: want HOST:PORT, e.g. 127.0.0.1:4000", addr)
	}
	if port == "" {
		return false, errors.New("--addr " + addr + ": missing port")
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}
