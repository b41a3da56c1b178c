package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gqlbench/gqlbench/server"
)

// serveProcess serves a variant of another stack (server.Variant.Process):
// it gets the variant's program — installing it on first use — and becomes
// that program (replaceProcess), so the server keeps gqlbench's PID, CPU
// pinning and signals, and an experiment watches the server itself.
func serveProcess(ctx context.Context, env Env, v server.Variant, c server.ProcessConfig) error {
	c.Log = env.Stderr
	prog, err := v.Process(ctx, c)
	if err != nil {
		return fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	fmt.Fprintf(env.Stderr, "serve: %s: %s %v in %s, pool %d, timeout %v, max depth %d\n",
		v.Name, filepath.Base(prog.Path), prog.Args, prog.Dir, c.Pool, c.Timeout, c.MaxDepth)
	return replaceProcess(prog)
}

// replaceProcess runs prog in place of this process (see exec_*.go); a test
// may replace it.
var replaceProcess = execProgram
