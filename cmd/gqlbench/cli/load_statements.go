package cli

import (
	"context"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/measure/pgstat"
	"github.com/gqlbench/gqlbench/server"
)

// statementCounter opens the counter of --db-statements, or returns nil
// without the flag. A wrong location is a usage error; a database without
// pg_stat_statements an error that says how to load it.
func (f *loadFlags) statementCounter(ctx context.Context, env Env) (*pgstat.Counter, error) {
	db, from := f.dbStatements, "--db-statements"
	if db == "" {
		return nil, nil
	}
	if db == "env" {
		if env.Getenv != nil {
			db = env.Getenv(server.DBEnv)
		}
		from = "--db-statements env: $" + server.DBEnv
		if db == "" {
			return nil, usagef("%s is not set", from)
		}
	}
	loc, err := dbloc.Parse(db)
	if err != nil {
		return nil, usagef("%s: %v", from, err)
	}
	if loc.Kind() != dbloc.Postgres {
		return nil, usagef("%s: statements are counted in PostgreSQL only, not %s", from, loc.Kind())
	}
	return pgstat.Open(ctx, loc)
}
