// Command gqlbench is the benchmark and testbed for GraphQL servers: it
// generates the LinGBM dataset, instantiates its query templates, serves
// reference servers, drives load and reports. Run `gqlbench help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/gqlbench/gqlbench/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, cli.Env{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
