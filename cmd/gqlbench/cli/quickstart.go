package cli

import (
	"context"

	"github.com/gqlbench/gqlbench/experiment"
)

// The quickstart is an experiment with a command of its own; its flags and
// checks are experiment.QuickstartCommand's.
func init() {
	q := experiment.QuickstartCommand
	register(q.Name, q.Summary, func(ctx context.Context, env Env, args []string) error {
		return runStudy(ctx, env, q.Name, q, args)
	})
}
