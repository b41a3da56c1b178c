// Package pgstat counts the SQL statements a PostgreSQL database executes,
// from the pg_stat_statements module: how many statements a GraphQL
// request costs, for servers that do not say so themselves (PostGraphile,
// the Node servers) as much as for gqlbench's own.
//
// It counts the top-level statements clients send to one database (the
// module's default tracking), transaction control (BEGIN, COMMIT, ROLLBACK,
// SAVEPOINT, RELEASE, END) left out: a statement is work the database does
// for the answer. Its own reads are left out too.
package pgstat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Counter reads the statement count of one database; it implements
// drive.Counter. It holds one connection; safe for concurrent use.
type Counter struct {
	mu   sync.Mutex
	loc  dbloc.Location
	conn *pgx.Conn // nil after a read was cut off: the next one reconnects
}

// countSQL sums the calls of the current database's statements, without
// transaction control and without this package's own query (which names
// the view).
const countSQL = `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query !~* '^\s*(begin|commit|rollback|start\s+transaction|savepoint|release|end)\M'
  AND query NOT LIKE '%pg_stat_statements%'`

// Open connects to the database at loc and makes sure the module is there:
// it creates the extension when the server has the module loaded and it
// is not created yet. Without the module the error says how to load it.
func Open(ctx context.Context, loc dbloc.Location) (*Counter, error) {
	if loc.Kind() != dbloc.Postgres {
		return nil, fmt.Errorf("counting statements needs PostgreSQL (pg_stat_statements), not %s", loc.Kind())
	}
	conn, err := pgx.Connect(ctx, loc.ConnString())
	if err != nil {
		return nil, fmt.Errorf("counting statements: %s", loc.Scrub(err.Error()))
	}
	c := &Counter{loc: loc, conn: conn}
	if _, err := c.Count(ctx); err == nil {
		return c, nil
	}
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("counting statements needs the extension pg_stat_statements in the database, and creating it failed: %w", err)
	}
	if _, err := c.Count(ctx); err != nil {
		conn.Close(ctx)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && strings.Contains(pe.Message, "shared_preload_libraries") {
			return nil, errors.New("counting statements needs pg_stat_statements loaded by the server: " +
				"shared_preload_libraries = 'pg_stat_statements' in postgresql.conf, then a restart " +
				"(the local PostgreSQL of gqlbench pg loads it)")
		}
		return nil, fmt.Errorf("counting statements: %w", err)
	}
	return c, nil
}

// Count is the number of statements counted so far.
func (c *Counter) Count(ctx context.Context) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil || c.conn.IsClosed() { // a cancelled read closes the connection
		conn, err := pgx.Connect(ctx, c.loc.ConnString())
		if err != nil {
			return 0, errors.New(c.loc.Scrub(err.Error()))
		}
		c.conn = conn
	}
	var n int64
	err := c.conn.QueryRow(ctx, countSQL).Scan(&n)
	return n, err
}

// execSQL is countSQL's calls with the statements' execution time added
// up (total_exec_time, ms; planning is apart, and off by default).
const execSQL = `SELECT coalesce(sum(calls), 0)::bigint, coalesce(sum(total_exec_time), 0)::float8 FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query !~* '^\s*(begin|commit|rollback|start\s+transaction|savepoint|release|end)\M'
  AND query NOT LIKE '%pg_stat_statements%'`

// Exec is the number of statements counted so far and the time the
// database spent executing them, as pg_stat_statements sums it
// (total_exec_time: from the executor's start to its end, in the server;
// neither the network nor the client's driver).
func (c *Counter) Exec(ctx context.Context) (calls int64, exec time.Duration, err error) {
	if _, err := c.Count(ctx); err != nil { // reconnects when needed
		return 0, 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var ms float64
	err = c.conn.QueryRow(ctx, execSQL).Scan(&calls, &ms)
	return calls, time.Duration(ms * 1e6), err
}

// Close closes the connection.
func (c *Counter) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	return c.conn.Close(context.Background())
}
