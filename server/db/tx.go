package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gqlbench/gqlbench/server/trace"
)

// Tx is a write transaction (DB.Write). Its statements are recorded in the
// request's trace like the reads are.
type Tx struct {
	pg  pgx.Tx  // PostgreSQL
	sql *sql.Tx // SQLite
	d   *DB
}

// Select runs query q (with ? placeholders) in the transaction and calls
// scan for every row.
func (t *Tx) Select(ctx context.Context, q string, args []any, scan func(Rows) error) error {
	start := time.Now()
	defer func() { trace.Statement(ctx, time.Since(start)) }()
	if t.pg != nil {
		rows, err := t.pg.Query(ctx, t.d.Rebind(q), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return each(rows, scan)
	}
	rows, err := t.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return each(rows, scan)
}

// Exec runs statement q (with ? placeholders) in the transaction and
// returns the number of rows it changed.
func (t *Tx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	start := time.Now()
	defer func() { trace.Statement(ctx, time.Since(start)) }()
	if t.pg != nil {
		tag, err := t.pg.Exec(ctx, t.d.Rebind(q), args...)
		return tag.RowsAffected(), err
	}
	res, err := t.sql.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Write runs fn in a transaction and commits it if fn returns nil, else
// rolls it back. PostgreSQL runs it at READ COMMITTED on a connection of
// the pool. SQLite, opened read-only for the reads, gets a second handle
// for writes on the first one: one connection, so the process's writers
// queue in Go, with BEGIN IMMEDIATE, so a transaction holds the database's
// write lock from its start (no deadlock between two writers that both
// read first), and a busy timeout, so it waits for another process's
// writer or for readers to finish instead of failing at once.
func (d *DB) Write(ctx context.Context, fn func(*Tx) error) error {
	if d.pool != nil {
		tx, err := d.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) // a no-op after Commit
		if err := fn(&Tx{pg: tx, d: d}); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}
	w, err := d.writer()
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(&Tx{sql: tx, d: d}); err != nil {
		return err
	}
	return tx.Commit()
}

// writer is the SQLite handle for writes, opened on first use.
func (d *DB) writer() (*sql.DB, error) {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if d.wsql != nil {
		return d.wsql, nil
	}
	w, err := sql.Open("sqlite3", "file:"+d.Loc.SQLitePath()+"?mode=rw&_txlock=immediate&_busy_timeout=30000&_foreign_keys=1&cache=private")
	if err != nil {
		return nil, fmt.Errorf("cannot open %s for writing: %w", d.Loc, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	d.wsql = w
	return w, nil
}
