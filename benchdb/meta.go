package benchdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver OpenSQLite opens

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// MetaTable records the dataset's metadata and whether its load completed.
// A load writes status 'loading' before it touches the data tables and
// 'complete' (with the metadata) as its very last step, so a database whose
// load died half-way never looks complete.
const MetaTable = "gqlbench_meta"

// ErrIncomplete says that a database holds a dataset whose load has not
// completed (it is running, or it died half-way).
var ErrIncomplete = errors.New("the dataset in this database is incomplete (its load is running or failed): run `gqlbench gen` again")

// ReadMeta returns the metadata stored with the dataset in the database at
// dbURL (a location dbloc.Parse reads: sqlite:PATH, a postgres:// URL or a
// keyword/value DSN), refusing incomplete loads and datasets of another
// generator version.
func ReadMeta(ctx context.Context, dbURL string) (*dataset.Meta, error) {
	loc, err := dbloc.Parse(dbURL)
	if err != nil {
		return nil, err
	}
	var status, js string
	var version int
	q := fmt.Sprintf("SELECT status, version, COALESCE(meta, '') FROM %s WHERE id = 1", MetaTable)
	switch loc.Kind() {
	case dbloc.Postgres:
		conn, err := ConnectPostgres(ctx, loc.ConnString())
		if err != nil {
			return nil, err
		}
		defer conn.Close(context.Background())
		if err := conn.QueryRow(ctx, q).Scan(&status, &version, &js); err != nil {
			if errors.Is(err, pgx.ErrNoRows) || strings.Contains(err.Error(), "42P01") {
				return nil, fmt.Errorf("no gqlbench dataset in %s: run `gqlbench gen --db URL` first", loc)
			}
			return nil, err
		}
	case dbloc.SQLite:
		path := loc.SQLitePath()
		db, err := OpenSQLite(path)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		if err := db.QueryRowContext(ctx, q).Scan(&status, &version, &js); err != nil {
			return nil, fmt.Errorf("no gqlbench dataset in %s (%v): run `gqlbench gen --db sqlite:%s` first", path, err, path)
		}
	}
	if status != "complete" {
		return nil, ErrIncomplete
	}
	return dataset.ReadMeta(strings.NewReader(js))
}

// OpenSQLite opens an existing SQLite database read-only; a missing file is
// an error (SQLite would silently create an empty one).
func OpenSQLite(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot open the SQLite database %s: %w", path, err)
	}
	return db, nil
}
