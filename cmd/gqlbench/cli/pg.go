package cli

import (
	"context"
	"fmt"

	"github.com/gqlbench/gqlbench/internal/pglocal"
)

func init() {
	register("pg", "run a local throwaway PostgreSQL: pg start|stop|url|status|createdb NAME|destroy", runPg)
}

func runPg(ctx context.Context, env Env, args []string) error {
	synopsis := "pg start|stop|url|status|createdb NAME|destroy [--dir DIR] [--port N]"
	if len(args) == 0 {
		return usagef("missing subcommand: %s", synopsis)
	}
	sub, rest := args[0], args[1:]
	fs := newFlags(env, "pg "+sub, synopsis)
	dir := fs.String("dir", "", "state directory (default $GQLBENCH_PG_DIR or the user cache dir)")
	port := fs.Int("port", 0, "TCP port on 127.0.0.1 (default: a free one)")
	var name string
	if sub == "createdb" {
		if len(rest) == 0 || rest[0] == "" || rest[0][0] == '-' {
			return usagef("pg createdb needs a database name")
		}
		name, rest = rest[0], rest[1:]
	}
	if err := parse(fs, rest); err != nil {
		return err
	}
	switch sub {
	case "start":
		c, err := pglocal.Start(ctx, pglocal.Options{Dir: *dir, Port: *port, Log: env.Stderr})
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, c.URL(""))
	case "url", "status", "stop", "destroy", "createdb":
		c, err := pglocal.Open(*dir)
		if err != nil {
			return err
		}
		switch sub {
		case "url":
			fmt.Fprintln(env.Stdout, c.URL(""))
		case "status":
			state := "stopped"
			if c.Running() {
				state = "running"
			}
			fmt.Fprintf(env.Stdout, "%s port=%d data=%s\n", state, c.Port, c.DataDir)
		case "stop":
			return c.Stop(ctx)
		case "destroy":
			return c.Destroy(ctx)
		case "createdb":
			u, err := c.CreateDatabase(ctx, name)
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, u)
		}
	default:
		return usagef("unknown subcommand %q: %s", sub, synopsis)
	}
	return nil
}
