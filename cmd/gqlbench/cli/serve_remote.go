package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/remoteapi"
)

// remoteFlags registers serve's flags of the remote custom fields: the
// GraphQL variants' client side, and remote-api's service side.
func remoteFlags(fs *flag.FlagSet, a *serveArgs) {
	fs.StringVar(&a.remote.URL, "remote-url", "", "the remote service that answers the remote fields (citationCount, ranking, hIndex), e.g. http://127.0.0.1:4100 from `gqlbench serve remote-api`; checked at start")
	fs.StringVar(&a.remote.Mode, "remote-mode", server.RemoteSingle, "how the remote fields are resolved: single (one call per object) or batch (one call per field with every key); compiled always batches")
	fs.StringVar(&a.remoteClient, "remote-client", "shared", "shared: one keep-alive HTTP client for every call; per-call: a new client and connection per call (seed 002's finding)")
	fs.IntVar(&a.remote.Conns, "remote-conns", remoteapi.DefaultConns, "the shared client's connection limit to the remote service")
	fs.DurationVar(&a.remote.Timeout, "remote-timeout", remoteapi.DefaultTimeout, "each remote call's limit; past it its fields are field errors")
	fs.DurationVar(&a.remote.Latency, "latency", 0, "remote-api: each call's answer time, fixed, or the median with --latency-p99")
	fs.DurationVar(&a.remote.LatencyP99, "latency-p99", 0, "remote-api: with --latency, a lognormal answer time with this 99th percentile")
	fs.Float64Var(&a.remote.FailureRate, "failure-rate", 0, "remote-api: the fraction of calls answered 503")
	fs.Uint64Var(&a.remote.LatencySeed, "latency-seed", 1, "remote-api: the seed of the latency and failure draws")
}

// serviceFlags are remote-api's own flags; clientFlags the other variants'.
var (
	serviceFlags = []string{"latency", "latency-p99", "failure-rate", "latency-seed"}
	clientFlags  = []string{"remote-url", "remote-mode", "remote-client", "remote-conns", "remote-timeout"}
)

// checkRemote checks the remote flags' values and that they fit the
// variant.
func (a *serveArgs) checkRemote() error {
	switch a.remoteClient {
	case "shared":
	case "per-call":
		a.remote.PerCall = true
	default:
		return usagef("--remote-client %q: want shared or per-call", a.remoteClient)
	}
	if a.remote.Mode != server.RemoteSingle && a.remote.Mode != server.RemoteBatch {
		return usagef("--remote-mode %q: want single or batch", a.remote.Mode)
	}
	if a.remote.Conns < 1 || a.remote.Timeout <= 0 {
		return usagef("--remote-conns must be at least 1 and --remote-timeout positive")
	}
	if a.remote.URL != "" {
		if _, err := remoteapi.NewClient(a.remote); err != nil {
			return usagef("--remote-url: %v", err)
		}
		if v, ok := server.Lookup(a.variantName); ok && v.Process != nil {
			return usagef("--remote-url is for gqlbench's own variants, not %s", v.Name)
		}
	}
	o := remoteapi.Options{Latency: a.remote.Latency, P99: a.remote.LatencyP99, FailureRate: a.remote.FailureRate}
	if err := o.Check(); err != nil {
		return usagef("--latency, --latency-p99, --failure-rate: %v", err)
	}
	other := serviceFlags
	if a.variantName == "remote-api" {
		other = clientFlags
	}
	for _, name := range other {
		if a.set[name] {
			return usagef("--%s is not for variant %s (remote-api takes --%s; the GraphQL variants --%s)", name, a.variantName,
				serviceFlags[0], clientFlags[0])
		}
	}
	return nil
}

// reachRemote checks, before v starts, that the remote service answers:
// a server whose remote fields would all fail is no server to measure.
// Starting remote-api, it says how the service answers.
func (a *serveArgs) reachRemote(ctx context.Context, env Env, v server.Variant) error {
	if v.Name == "remote-api" {
		lat := a.remote.Latency.String()
		if a.remote.LatencyP99 > a.remote.Latency {
			lat = fmt.Sprintf("lognormal, median %v, p99 %v", a.remote.Latency, a.remote.LatencyP99)
		}
		fmt.Fprintf(env.Stderr, "serve: remote-api: latency %s, failure rate %g, draws seeded %d\n", lat, a.remote.FailureRate, a.remote.LatencySeed)
	}
	if a.remote.URL == "" || !v.GraphQL() {
		return nil
	}
	c, err := remoteapi.NewClient(a.remote)
	if err != nil {
		return usagef("--remote-url: %v", err)
	}
	defer c.Close()
	if err := c.Check(ctx); err != nil {
		return fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	how := fmt.Sprintf("a shared keep-alive client (at most %d connections)", a.remote.Conns)
	if a.remote.PerCall {
		how = "a new client and connection per call"
	}
	fmt.Fprintf(env.Stderr, "serve: remote fields from %s, mode %s, %s, timeout %v\n", c.URL(), a.remote.Mode, how, a.remote.Timeout)
	return nil
}

// remoteConfig is the remote configuration v is opened with: none for a
// GraphQL variant without --remote-url.
func (a *serveArgs) remoteConfig(v server.Variant) server.Remote {
	if v.GraphQL() && a.remote.URL == "" {
		return server.Remote{}
	}
	return a.remote
}
