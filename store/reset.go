package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// ResetWrites removes from the database at dbURL every row the servers'
// write APIs made: the rows whose nr, or any id they refer to, is in the
// reserved range (dataset.Reserved), the sandbox included, children before
// parents, in one transaction. What is left is the generated dataset, row
// for row. It returns the number of rows removed per table (tables with
// none left out). The counters of written nrs stay, so nrs are not reused.
func ResetWrites(ctx context.Context, dbURL string) (map[string]int64, error) {
	if _, err := benchdb.ReadMeta(ctx, dbURL); err != nil {
		return nil, err
	}
	loc, err := dbloc.Parse(dbURL)
	if err != nil {
		return nil, err
	}
	stmts := resetStatements()
	removed := map[string]int64{}
	record := func(i int, n int64) {
		if n > 0 {
			removed[dataset.Tables[len(dataset.Tables)-1-i].Name] = n
		}
	}
	if loc.Kind() == dbloc.Postgres {
		conn, err := benchdb.ConnectPostgres(ctx, loc.ConnString())
		if err != nil {
			return nil, err
		}
		defer conn.Close(context.Background())
		tx, err := conn.Begin(ctx)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		for i, q := range stmts {
			tag, err := tx.Exec(ctx, q)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", firstWords(q), err)
			}
			record(i, tag.RowsAffected())
		}
		return removed, tx.Commit(ctx)
	}
	path := loc.SQLitePath()
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=rw&_txlock=immediate&_busy_timeout=30000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	defer tx.Rollback()
	for i, q := range stmts {
		res, err := tx.ExecContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", firstWords(q), err)
		}
		n, _ := res.RowsAffected()
		record(i, n)
	}
	return removed, tx.Commit()
}

// resetStatements deletes the rows of every table, last table first, whose
// key or reference columns hold a reserved id.
func resetStatements() []string {
	var out []string
	for i := len(dataset.Tables) - 1; i >= 0; i-- {
		t := dataset.Tables[i]
		cols := append([]string(nil), t.Key...)
		for _, r := range t.Refs {
			if !contains(cols, r.Column) {
				cols = append(cols, r.Column)
			}
		}
		conds := make([]string, len(cols))
		for j, c := range cols {
			conds[j] = fmt.Sprintf("%s >= %d", c, dataset.Reserved)
		}
		out = append(out, "DELETE FROM "+t.Name+" WHERE "+strings.Join(conds, " OR "))
	}
	return out
}
