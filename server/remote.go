package server

import "time"

// Remote configures the remote custom fields (seed 002's @custom fields:
// Publication.citationCount, University.ranking, Faculty.hIndex), which a
// server answers by calling another HTTP service, `gqlbench serve
// remote-api` (package server/remoteapi). The GraphQL variants read the
// client side (URL to Timeout); remote-api reads the service side (Latency
// to FailureRate).
type Remote struct {
	// URL is the remote service's base, e.g. http://127.0.0.1:4100; "":
	// none, and the remote fields answer a field error that says so.
	URL string
	// Mode is RemoteSingle (one call per object, as Dgraph's SINGLE) or
	// RemoteBatch (one call per field with every key, as Dgraph's BATCH);
	// "": RemoteSingle.
	Mode string
	// PerCall makes a new HTTP client, and so a new connection, for every
	// call, as Dgraph did when seed 002 profiled it; false: one shared
	// keep-alive client with at most Conns connections.
	PerCall bool
	// Conns bounds the shared client's connections to the service; 0: 64.
	Conns int
	// Timeout bounds each call; past it the fields it answers are field
	// errors. 0: 10s.
	Timeout time.Duration

	// Latency is the service's answer time per call: fixed, or the median
	// of a lognormal distribution when LatencyP99 is larger.
	Latency    time.Duration
	LatencyP99 time.Duration
	// FailureRate is the fraction of calls the service answers 503.
	FailureRate float64
	// LatencySeed seeds the service's latency and failure draws.
	LatencySeed uint64
}

// The resolution modes of remote fields.
const (
	RemoteSingle = "single"
	RemoteBatch  = "batch"
)
