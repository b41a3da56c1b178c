package experiment_test

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/gqlbench/gqlbench/cmd/gqlbench/cli"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
)

// asGqlbench makes the test binary act as gqlbench: the experiments start
// their servers from os.Executable, which in a test is this binary.
const asGqlbench = "GQLBENCH_EXPERIMENT_TEST_AS_GQLBENCH"

func TestMain(m *testing.M) {
	if os.Getenv(asGqlbench) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, cli.Env{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	os.Setenv(asGqlbench, "1") // for the servers this process starts
	pgtest.Main(m)
}

// crashAfter is how many requests the test-crash variant answers before
// its process exits.
const crashAfter = 30

// crashMessage is what test-crash writes to its stderr as it exits.
const crashMessage = "test-crash: exiting on purpose"

func init() {
	server.Register(server.Variant{
		Name:    "test-crash",
		Summary: "the inmem oracle, whose process exits after a few hundred requests (experiment tests)",
		NeedsDB: true,
		Open: func(ctx context.Context, c server.Config) (server.Executor, error) {
			e, err := inmem.Open(ctx, c)
			if err != nil {
				return nil, err
			}
			return &crashing{Executor: e}, nil
		},
	})
}

// wrongData is what test-wrong answers to every query.
var wrongData = []byte(`{"wrong":true}`)

func init() {
	server.Register(server.Variant{
		Name:    "test-wrong",
		Summary: "answers every template query with the same wrong data, fast (experiment tests)",
		Open: func(context.Context, server.Config) (server.Executor, error) {
			return wrong{}, nil
		},
	})
}

type wrong struct{}

func (wrong) Execute(_ context.Context, r *server.Request) *server.Response {
	if r.Query == "{__typename}" { // the load generator's first check: a GraphQL server
		return &server.Response{Data: []byte(`{"__typename":"Query"}`)}
	}
	return &server.Response{Data: wrongData}
}

// crashing answers as its Executor does, until its process exits.
type crashing struct {
	server.Executor
	n atomic.Int64
}

func (c *crashing) Execute(ctx context.Context, r *server.Request) *server.Response {
	if c.n.Add(1) > crashAfter {
		fmt.Fprintln(os.Stderr, crashMessage)
		os.Exit(7)
	}
	return c.Executor.Execute(ctx, r)
}
