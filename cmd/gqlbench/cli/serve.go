package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/server"
	_ "github.com/gqlbench/gqlbench/server/all" // every variant
)

func init() {
	register("serve", "serve a reference GraphQL server variant over HTTP (naive, batch, compiled, null, ...)", runServe)
}

func runServe(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "serve", serveSynopsis())
	db := fs.String("db", "", "database: postgres://USER:PASS@HOST:PORT/DB, a keyword/value DSN or sqlite:PATH (for the variants that need one; default $"+server.DBEnv+", which keeps a password out of the process list)")
	addr := fs.String("addr", "127.0.0.1:4000", "listen address HOST:PORT; port 0 picks a free one (logged); a non-loopback host exposes the server to the network")
	pool := fs.Int("pool", 10, "maximum database connections")
	batchWait := fs.Duration("batch-wait", 0, "how long a DataLoader collects keys before it fetches (batch, batch-memo; 0: the variant's default)")
	timeout := fs.Duration("timeout", server.DefaultTimeout, "per-request timeout; past it the answer is 504")
	maxDepth := fs.Int("max-depth", server.DefaultMaxDepth, "maximum query depth; deeper queries are refused (400, or 200 with errors for a client that accepts only application/json)")
	maxResp := fs.Int64("max-response-bytes", server.DefaultMaxResponseBytes, "largest response; a larger one is answered with an error (500)")
	maxReq := fs.Int64("max-request-bytes", server.DefaultMaxRequestBytes, "largest request body; a larger one gets 413")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof: CPU, heap, goroutines) at http://`ADDR`/debug/pprof/, a loopback address apart from the GraphQL one")
	traceOn := fs.Bool("trace", false, "add extensions.timing to every response: total_ns, database_ns (wall time with a statement running), database_sum_ns, graphql_ns, sql_statements (rest: a Server-Timing header with the same)")
	flags, pos := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	from := "--db"
	if *db == "" && env.Getenv != nil {
		*db, from = env.Getenv(server.DBEnv), "$"+server.DBEnv
	}
	switch {
	case len(pos) == 0:
		return usagef("missing VARIANT: one of %s", variantNames())
	case len(pos) > 1:
		return usagef("unexpected argument %q", strings.Join(pos[1:], " "))
	case *pool < 1:
		return usagef("--pool must be at least 1, got %d", *pool)
	case *timeout <= 0:
		return usagef("--timeout must be positive, got %v", *timeout)
	case *maxDepth < 1:
		return usagef("--max-depth must be at least 1, got %d", *maxDepth)
	case *maxResp < 1 || *maxReq < 1:
		return usagef("--max-response-bytes and --max-request-bytes must be positive")
	}
	v, ok := server.Lookup(pos[0])
	if !ok {
		return usagef("unknown variant %q: the variants are %s", pos[0], variantNames())
	}
	if v.NeedsDB && *db == "" {
		return usagef("variant %s needs a database: --db postgres://... or --db sqlite:PATH (see gqlbench gen)", v.Name)
	}
	var loc dbloc.Location
	if v.NeedsDB {
		var err error
		if loc, err = dbloc.Parse(*db); err != nil {
			return usagef("%s: %v", from, err)
		}
		if loc.Kind() == dbloc.SQLite { // sqlite:/dev/null is no database, and not to be written beside
			if err := outfile.CheckFile(loc.SQLitePath(), "an SQLite database"); err != nil {
				return usagef("%s: %v", from, err)
			}
		}
	}
	if !v.NeedsDB && *db != "" {
		fmt.Fprintf(env.Stderr, "serve: variant %s uses no database; %s ignored\n", v.Name, from)
	}
	loop, err := isLoopback(*addr)
	if err != nil {
		return usagef("%v", err)
	}
	if !loop {
		fmt.Fprintf(env.Stderr, "serve: warning: %s is not a loopback address: the server is reachable from the network\n", *addr)
	}

	if v.Process != nil {
		if *pprofAddr != "" || *traceOn {
			return usagef("--pprof and --trace are for gqlbench's own variants, not %s", v.Name)
		}
		return serveProcess(ctx, env, v, server.ProcessConfig{
			Config:  server.Config{DB: *db, Pool: *pool, MaxDepth: *maxDepth, Timeout: *timeout},
			Variant: v.Name, Addr: *addr,
		})
	}
	if *pprofAddr != "" {
		if err := servePprof(ctx, *pprofAddr, env.Stderr); err != nil {
			return err
		}
	}
	h, closer, err := server.Start(ctx, v, server.Config{DB: *db, Pool: *pool, MaxDepth: *maxDepth, Timeout: *timeout, BatchWait: *batchWait},
		server.HTTPOptions{
			MaxResponseBytes: *maxResp,
			Timeout:          *timeout,
			Trace:            *traceOn,
			MaxRequestBytes:  *maxReq,
			Variant:          v.Name,
			Log:              env.Stderr,
		})
	if err != nil {
		return fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	where := ""
	if v.NeedsDB {
		where = fmt.Sprintf(" on %s, pool %d,", loc, *pool)
	}
	depth := fmt.Sprintf(" max depth %d,", *maxDepth)
	if !v.GraphQL() {
		depth = ""
	}
	fmt.Fprintf(env.Stderr, "serve: %s%s timeout %v,%s max response %d bytes, trace %v\n",
		v.Name, where, *timeout, depth, *maxResp, *traceOn)
	root := v.Root
	if root == "" {
		root = "/graphql"
	}
	err = server.ServeAt(ctx, *addr, root, h, env.Stderr)
	if closer != nil {
		if cerr := closer.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", v.Name, cerr)
		}
	}
	return err
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
	b.WriteString("\nGraphQL is served at http://ADDR/graphql (POST or GET), rest's API under http://ADDR/rest/\n(docs/rest.md), health at /healthz; Ctrl-C shuts down gracefully, letting in-flight\nrequests finish.")
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
