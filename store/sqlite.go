package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/outfile"
)

// SQLiteTarget loads a dataset into a SQLite file: the embedded default. It
// builds the database in a temporary file next to Path, in one transaction
// with journaling off, and renames it over Path on Commit, so Path always
// holds either the previous dataset or the complete new one.
type SQLiteTarget struct {
	Path    string
	Options Options
	// Force replaces a database file that holds tables gqlbench did not create.
	Force bool

	tmp   string
	db    *sql.DB
	tx    *sql.Tx
	stmts [dataset.NumTables]struct{ one, many *sql.Stmt }
	args  []any
	done  bool
}

// rowsPerInsert is how many rows one multi-row INSERT carries: fewer
// statement executions, and within SQLite's limit of 32766 parameters.
const rowsPerInsert = 64

// Begin implements Target.
func (s *SQLiteTarget) Begin(ctx context.Context) error {
	if err := s.Options.Check(dbloc.SQLite); err != nil {
		return err
	}
	if err := s.checkForeign(ctx); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(s.Path), filepath.Base(s.Path)+".loading-*")
	if err != nil {
		return fmt.Errorf("cannot write the SQLite database %s: %w", s.Path, err)
	}
	s.tmp = f.Name()
	f.Chmod(0o644) // CreateTemp makes it private; a database is read by servers of other users
	f.Close()
	s.db, err = sql.Open("sqlite3", "file:"+s.tmp+"?_journal_mode=OFF&_synchronous=OFF&_locking_mode=EXCLUSIVE&cache=private")
	if err != nil {
		return err
	}
	s.db.SetMaxOpenConns(1)
	if _, err := s.db.ExecContext(ctx, "PRAGMA cache_size = -262144"); err != nil { // 256 MiB
		return fmt.Errorf("sqlite %s: %w", s.tmp, err)
	}
	if s.tx, err = s.db.BeginTx(ctx, nil); err != nil {
		return fmt.Errorf("sqlite %s: %w", s.tmp, err)
	}
	for _, q := range DDL(dbloc.SQLite, s.Options).Create {
		if _, err := s.tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: %s: %w", firstWords(q), err)
		}
	}
	for i, t := range dataset.Tables {
		if s.stmts[i].one, err = s.tx.PrepareContext(ctx, insertSQL(t, 1)); err != nil {
			return err
		}
		if s.stmts[i].many, err = s.tx.PrepareContext(ctx, insertSQL(t, rowsPerInsert)); err != nil {
			return err
		}
	}
	return nil
}

// checkForeign refuses to replace a file that is not a gqlbench database.
func (s *SQLiteTarget) checkForeign(ctx context.Context) error {
	// A database is a file of its own: a device or a pipe (sqlite:/dev/null)
	// is refused, never renamed over.
	if err := outfile.CheckFile(s.Path, "an SQLite database"); err != nil {
		return err
	}
	st, err := os.Stat(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write the SQLite database %s: %w", s.Path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("cannot write the SQLite database %s: it is a directory", s.Path)
	}
	if st.Size() == 0 || s.Force {
		return nil
	}
	db, err := sql.Open("sqlite3", "file:"+s.Path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var names []string
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'table'")
	if err != nil {
		return fmt.Errorf("%s exists and is not a SQLite database (%v): choose another path, or pass --force to replace it", s.Path, err)
	}
	defer rows.Close()
	ours := false
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if n == benchdb.MetaTable {
			ours = true
		} else if dataset.TableByName(n) != nil {
			names = append(names, n)
		}
	}
	if len(names) > 0 && !ours {
		return fmt.Errorf("%s already holds tables that gqlbench did not create (%s): choose another path, or pass --force to replace it",
			s.Path, strings.Join(names, ", "))
	}
	return rows.Err()
}

func insertSQL(t *dataset.Table, rows int) string {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = c.Name
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", t.Name, strings.Join(cols, ", "),
		strings.TrimSuffix(strings.Repeat(one+",", rows), ","))
}

// Encode implements Target; SQLite binds values directly, nothing to encode.
func (s *SQLiteTarget) Encode(*dataset.Batch) error { return nil }

// Write implements Target.
func (s *SQLiteTarget) Write(ctx context.Context, b *dataset.Batch) error {
	for i := range b.Tables {
		rows := &b.Tables[i]
		n := rows.Len()
		for r := 0; r < n; {
			k, stmt := rowsPerInsert, s.stmts[i].many
			if n-r < rowsPerInsert {
				k, stmt = 1, s.stmts[i].one
			}
			s.args = s.args[:0]
			for j := r; j < r+k; j++ {
				for c, v := range rows.Row(j) {
					switch {
					case v.Null:
						s.args = append(s.args, nil)
					case rows.Table.Columns[c].Kind == dataset.Int:
						s.args = append(s.args, v.I)
					default:
						s.args = append(s.args, v.S)
					}
				}
			}
			if _, err := stmt.ExecContext(ctx, s.args...); err != nil {
				return fmt.Errorf("sqlite: insert into %s: %w", rows.Table.Name, err)
			}
			r += k
		}
	}
	return nil
}

// Commit implements Target.
func (s *SQLiteTarget) Commit(ctx context.Context, m *dataset.Meta) error {
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	stmts := append(DDL(dbloc.SQLite, s.Options).After, "ANALYZE", MetaDDL(dbloc.SQLite))
	for _, q := range stmts {
		if _, err := s.tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: %s: %w", firstWords(q), err)
		}
	}
	if _, err := s.tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s VALUES (1, 'complete', ?, ?)", benchdb.MetaTable), m.Version, string(js)); err != nil {
		return fmt.Errorf("sqlite: record the dataset: %w", err)
	}
	if err := s.tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	s.tx = nil
	if err := s.db.Close(); err != nil {
		return err
	}
	s.db = nil
	if err := os.Rename(s.tmp, s.Path); err != nil {
		return fmt.Errorf("cannot write the SQLite database %s: %w", s.Path, err)
	}
	for _, suffix := range []string{"-journal", "-wal", "-shm"} { // left by an older database at Path
		os.Remove(s.Path + suffix)
	}
	s.done = true
	return nil
}

// Close implements Target: before Commit it deletes the temporary file.
func (s *SQLiteTarget) Close() error {
	if s.tx != nil {
		s.tx.Rollback()
	}
	if s.db != nil {
		s.db.Close()
	}
	if !s.done && s.tmp != "" {
		os.Remove(s.tmp)
	}
	return nil
}
