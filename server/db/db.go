// Package db opens the benchmark database for the reference servers, over
// database/sql for both dialects (the pgx stdlib driver for PostgreSQL, which
// caches prepared statements per connection; mattn/go-sqlite3 read-only for
// SQLite), and counts every statement into the request's trace.
package db

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver

	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/store"
)

// DB is an open benchmark database.
type DB struct {
	*sql.DB
	Dialect store.Dialect
	URL     string
}

// Open opens the database at url (postgres://... or sqlite:PATH) with at most
// pool connections (0: 10), and checks that it holds a complete gqlbench
// dataset of this generator version.
func Open(ctx context.Context, url string, pool int) (*DB, error) {
	if pool <= 0 {
		pool = 10
	}
	if _, err := store.ReadMeta(ctx, url); err != nil {
		return nil, err
	}
	d := &DB{URL: url}
	var err error
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		d.Dialect = store.Postgres
		d.DB, err = sql.Open("pgx", url)
	case strings.HasPrefix(url, "sqlite:"):
		d.Dialect = store.SQLite
		d.DB, err = sql.Open("sqlite3", "file:"+store.SQLitePath(url)+"?mode=ro&_query_only=1&cache=private")
	default:
		return nil, fmt.Errorf("unsupported database URL: want postgres://... or sqlite:PATH")
	}
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(pool)
	d.SetMaxIdleConns(pool)
	d.SetConnMaxIdleTime(0)
	if err := d.PingContext(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Rebind turns the ? placeholders of q into the dialect's ($1, $2, ... for
// PostgreSQL). Write every statement with ?; none of gqlbench's SQL uses ? as
// an operator.
func (d *DB) Rebind(q string) string {
	if d.Dialect != store.Postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// Select runs query q (with ? placeholders) and calls scan for every row,
// recording the statement and its time, iteration included, in ctx's trace.
func (d *DB) Select(ctx context.Context, q string, args []any, scan func(*sql.Rows) error) error {
	start := time.Now()
	defer func() { trace.Statement(ctx, time.Since(start)) }()
	rows, err := d.QueryContext(ctx, d.Rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
