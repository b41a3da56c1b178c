package remoteapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/server"
)

func init() {
	server.Register(server.Variant{
		Name:    "remote-api",
		Summary: "not GraphQL: the remote HTTP service behind the remote custom fields (seed 002), with latency and failures",
		NeedsDB: true, // for the seed of its metadata only
		Order:   90,   // after rest: no server under test, the service some of them call
		Root:    "/v1",
		OpenAPI: Open,
	})
}

// Open reads the seed stored with the dataset at c.DB and returns the
// service configured by c.Remote (latency, failure rate, draw seed).
func Open(ctx context.Context, c server.Config, _ server.HTTPOptions) (http.Handler, error) {
	if c.DB == "" {
		return nil, errors.New("remote-api needs --db URL: its answers derive from the seed of the dataset stored there")
	}
	meta, err := benchdb.ReadMeta(ctx, c.DB)
	if err != nil {
		return nil, err
	}
	s, err := New(Options{Seed: meta.Seed, Latency: c.Remote.Latency, P99: c.Remote.LatencyP99,
		FailureRate: c.Remote.FailureRate, DrawSeed: c.Remote.LatencySeed})
	if err != nil {
		return nil, fmt.Errorf("remote-api: %w", err)
	}
	return s, nil
}
