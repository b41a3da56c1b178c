// Package db opens the benchmark database for the reference servers and
// counts every statement into the request's trace. PostgreSQL goes through
// pgx's own interface and pool (pgxpool), which caches each connection's
// prepared statements and scans straight into the row structs; SQLite
// through database/sql with mattn/go-sqlite3, read-only, with the driver's
// cache of prepared statements on each connection too (preparing was half
// of SQLite's time for a one-row statement: 70–96 µs of server CPU per
// REST request before, 52 µs after). database/sql over
// pgx's stdlib driver, which the servers used first, converted every column
// to a driver.Value and back and took a lock per row: 17 % of a batched
// 107-row statement's time in the server's loop, and garbage for every row.
package db

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server/trace"
)

// DB is an open benchmark database.
type DB struct {
	Loc dbloc.Location // where it is, and its kind (Loc.Kind()); prints without the password

	pool *pgxpool.Pool // PostgreSQL
	sql  *sql.DB       // SQLite, read-only

	wmu  sync.Mutex
	wsql *sql.DB // SQLite, for writes: opened by the first Write
}

// Rows is the current row of a statement's result.
type Rows interface {
	Scan(dest ...any) error
}

// Open opens the database at url (a location dbloc.Parse reads: sqlite:PATH,
// a postgres:// URL or a keyword/value DSN) with at most pool connections
// (0: 10), and checks that it holds a complete gqlbench dataset of this
// generator version.
func Open(ctx context.Context, url string, pool int) (*DB, error) {
	loc, err := dbloc.Parse(url)
	if err != nil {
		return nil, err
	}
	if pool <= 0 {
		pool = 10
	}
	if _, err := benchdb.ReadMeta(ctx, url); err != nil {
		return nil, err
	}
	d := &DB{Loc: loc}
	switch loc.Kind() {
	case dbloc.Postgres:
		cfg, err := poolConfig(loc, pool)
		if err != nil {
			return nil, err
		}
		if d.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
			return nil, err
		}
	case dbloc.SQLite:
		db, err := sql.Open("sqlite3", "file:"+loc.SQLitePath()+"?mode=ro&_query_only=1&cache=private&_stmt_cache_size=128")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(pool)
		db.SetMaxIdleConns(pool)
		db.SetConnMaxIdleTime(0)
		d.sql = db
	}
	if err := d.Ping(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// poolConfig is the configuration of a PostgreSQL pool of at most pool
// connections. Connections live as long as the server: pgxpool's defaults
// close a connection idle for 30 min and any after an hour, and a new one
// pays a backend's start and its statement cache again in the middle of a
// measured run. (A lifetime of 0 is none; an idle time of 0 would close
// every idle connection at each health check.)
func poolConfig(loc dbloc.Location, pool int) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(loc.ConnString())
	if err != nil { // pgx's message quotes the location, redacted by pgx; Scrub makes sure
		return nil, errors.New(loc.Scrub(err.Error()))
	}
	cfg.MaxConns = int32(min(pool, 1<<30))
	cfg.MaxConnIdleTime = math.MaxInt64
	cfg.MaxConnLifetime = 0
	return cfg, nil
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	if d.pool != nil {
		return d.pool.Ping(ctx)
	}
	return d.sql.PingContext(ctx)
}

// Close closes the database.
func (d *DB) Close() error {
	if d.pool != nil {
		d.pool.Close()
		return nil
	}
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if d.wsql != nil {
		d.wsql.Close()
	}
	return d.sql.Close()
}

// Rebind turns the ? placeholders of q into the dialect's ($1, $2, ... for
// PostgreSQL). Write every statement with ?; none of gqlbench's SQL uses ? as
// an operator.
func (d *DB) Rebind(q string) string {
	if d.Loc.Kind() != dbloc.Postgres || !strings.Contains(q, "?") {
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
func (d *DB) Select(ctx context.Context, q string, args []any, scan func(Rows) error) error {
	start := time.Now()
	defer func() { trace.Statement(ctx, time.Since(start)) }()
	if d.pool != nil {
		rows, err := d.pool.Query(ctx, d.Rebind(q), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return each(rows, scan)
	}
	rows, err := d.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return each(rows, scan)
}

// cursor is a result being read: pgx.Rows and *sql.Rows alike.
type cursor interface {
	Rows
	Next() bool
	Err() error
}

// each calls scan for every row of rows.
func each(rows cursor, scan func(Rows) error) error {
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Stmt is a statement prepared for repeated use: by SQLite once, by
// PostgreSQL on each pooled connection the first time it runs there (pgx's
// statement cache).
type Stmt struct {
	d   *DB
	sql string
	st  *sql.Stmt // SQLite
}

// Prepare prepares q (with ? placeholders).
func (d *DB) Prepare(ctx context.Context, q string) (*Stmt, error) {
	s := &Stmt{d: d, sql: d.Rebind(q)}
	if d.sql != nil {
		st, err := d.sql.PrepareContext(ctx, q)
		if err != nil {
			return nil, err
		}
		s.st = st
	}
	return s, nil
}

// QueryValue runs the statement, which returns one row of one column, and
// scans that value into dest. A statement that returns no row is an error.
func (s *Stmt) QueryValue(ctx context.Context, dest any, args ...any) error {
	if s.st != nil {
		return s.st.QueryRowContext(ctx, args...).Scan(dest)
	}
	err := s.d.pool.QueryRow(ctx, s.sql, args...).Scan(dest)
	if errors.Is(err, pgx.ErrNoRows) {
		return sql.ErrNoRows
	}
	return err
}

// Close releases the statement.
func (s *Stmt) Close() error {
	if s.st != nil {
		return s.st.Close()
	}
	return nil
}
