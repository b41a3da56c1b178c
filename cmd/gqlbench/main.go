// Command gqlbench is the benchmark and testbed for GraphQL servers: it
// generates the LinGBM dataset, instantiates its query templates, serves
// reference servers, drives load and reports. Run `gqlbench help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/gqlbench/gqlbench/cmd/gqlbench/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first signal cancels ctx and the command winds down (a server
		// finishes its requests, a load run writes its last interval); from
		// then on the default behaviour is back, so a second Ctrl-C kills.
		<-ctx.Done()
		stop()
	}()
	code := cli.Run(ctx, cli.Env{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
