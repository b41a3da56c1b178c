package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/store"
)

// dbUnderTest is one of the two databases a dataset loads into.
type dbUnderTest struct {
	name   string
	url    func(t *testing.T) string // a fresh, empty database
	open   func(t *testing.T, url string) *sql.DB
	target func(url string, force bool) store.Target
}

var databases = []dbUnderTest{
	{
		name: "postgres",
		url:  func(t *testing.T) string { return pgtest.URL(t) },
		open: func(t *testing.T, url string) *sql.DB {
			db, err := sql.Open("pgx", url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		target: func(url string, force bool) store.Target { return &store.PostgresTarget{URL: url, Force: force} },
	},
	{
		name: "sqlite",
		url:  func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "gqlbench.db") },
		open: func(t *testing.T, url string) *sql.DB {
			db, err := benchdb.OpenSQLite(store.SQLitePath(url))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		target: func(url string, force bool) store.Target {
			return &store.SQLiteTarget{Path: store.SQLitePath(url), Force: force}
		},
	},
}

func load(t *testing.T, d dbUnderTest, url string, c dataset.Config) *dataset.Meta {
	t.Helper()
	m, err := store.Fill(context.Background(), d.target(url, false), c, store.FillOptions{})
	if err != nil {
		t.Fatalf("load %s: %v", d.name, err)
	}
	return m
}

func wantFingerprint(t *testing.T, d dbUnderTest, url string, c dataset.Config) {
	t.Helper()
	got, err := store.FingerprintDB(context.Background(), d.open(t, url))
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.GeneratorFingerprint(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("%s holds other rows than the generator made:\ndatabase:\n%sgenerator:\n%s", d.name, got.String(), want.String())
	}
}

// TestLoadGivesTheGeneratorsRows: every row, nothing else, in both databases;
// a second load replaces the first (idempotent), metadata reads back.
func TestLoadGivesTheGeneratorsRows(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			url := d.url(t)
			first := dataset.Config{Seed: 5, Scale: 2}
			m := load(t, d, url, first)
			wantFingerprint(t, d, url, first)
			back, err := benchdb.ReadMeta(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			if back.Seed != 5 || back.Scale != 2 || back.TotalRows() != m.TotalRows() || len(back.IDs["facultyID"]) != int(m.Rows["faculty"]) {
				t.Errorf("metadata read back: seed %d scale %d rows %d", back.Seed, back.Scale, back.TotalRows())
			}
			again := dataset.Config{Seed: 6, Scale: 1}
			load(t, d, url, again)
			wantFingerprint(t, d, url, again)
			load(t, d, url, again)
			wantFingerprint(t, d, url, again)
		})
	}
}

// TestReferentialIntegrity checks every foreign key of Appendix A with SQL
// in both databases, and that the indexes exist.
func TestReferentialIntegrity(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			url := d.url(t)
			load(t, d, url, dataset.Config{Seed: 9, Scale: 2})
			db := d.open(t, url)
			checked := 0
			for _, tb := range dataset.Tables {
				for _, r := range tb.Refs {
					var dangling, total int
					q := fmt.Sprintf(`SELECT count(*) FROM %s x WHERE x.%s IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %s y WHERE y.%s = x.%s)`,
						tb.Name, r.Column, r.RefTable, r.RefColumn, r.Column)
					if err := db.QueryRow(q).Scan(&dangling); err != nil {
						t.Fatal(err)
					}
					db.QueryRow(fmt.Sprintf("SELECT count(%s) FROM %s", r.Column, tb.Name)).Scan(&total)
					if dangling != 0 || total == 0 {
						t.Errorf("%s.%s → %s: %d of %d references dangle", tb.Name, r.Column, r.RefTable, dangling, total)
					}
					checked++
				}
			}
			if checked != 24 {
				t.Errorf("checked %d foreign keys, Appendix A has 24", checked)
			}
			var indexes int
			q := map[string]string{
				"postgres": "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%\\_idx'",
				"sqlite":   "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE '%_idx'",
			}[d.name]
			if err := db.QueryRow(q).Scan(&indexes); err != nil {
				t.Fatal(err)
			}
			if want := len(store.DDL(dbloc.Postgres, store.Options{NoForeignKeys: true}).After) - dataset.NumTables; indexes != want {
				t.Errorf("%d foreign-key indexes, want %d", indexes, want)
			}
			// Each indexes its column and then the table's key: a parent's
			// rows in key order, the order of every list of the schema.
			cols := map[string]string{
				"postgres": `SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
					JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
					WHERE c.relname = $1 ORDER BY array_position(i.indkey::int2[], a.attnum)`,
				"sqlite": "SELECT name FROM pragma_index_info(?) ORDER BY seqno",
			}[d.name]
			for _, tb := range dataset.Tables {
				for _, r := range tb.Refs {
					if r.Column == tb.Key[0] {
						continue
					}
					want := []string{strings.ToLower(r.Column)}
					for _, k := range tb.Key {
						if k != r.Column {
							want = append(want, strings.ToLower(k))
						}
					}
					rows, err := db.Query(cols, store.IndexName(tb, r))
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for rows.Next() {
						var c string
						rows.Scan(&c)
						got = append(got, strings.ToLower(c))
					}
					rows.Close()
					if !slices.Equal(got, want) {
						t.Errorf("index %s is on %v, want %v", store.IndexName(tb, r), got, want)
					}
				}
			}
		})
	}
}

func TestPostgresForeignKeyConstraints(t *testing.T) {
	url := pgtest.URL(t)
	load(t, databases[0], url, dataset.Config{Scale: 1})
	var n int
	if err := databases[0].open(t, url).QueryRow(`SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND convalidated`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 24 {
		t.Errorf("%d validated foreign-key constraints, want 24", n)
	}
}

// TestForeignTablesRefused: a database holding a table of the same name that
// gqlbench did not create is left alone, unless forced.
func TestForeignTablesRefused(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			url := d.url(t)
			if d.name == "sqlite" {
				db, err := sql.Open("sqlite3", store.SQLitePath(url))
				if err != nil {
					t.Fatal(err)
				}
				db.Exec("CREATE TABLE faculty (x int)")
				db.Close()
			} else if _, err := d.open(t, url).Exec("CREATE TABLE faculty (x int)"); err != nil {
				t.Fatal(err)
			}
			_, err := store.Fill(context.Background(), d.target(url, false), dataset.Config{Scale: 1}, store.FillOptions{})
			if err == nil || !strings.Contains(err.Error(), "did not create") || !strings.Contains(err.Error(), "faculty") {
				t.Fatalf("load over a foreign table: %v", err)
			}
			if _, err := store.Fill(context.Background(), d.target(url, true), dataset.Config{Scale: 1}, store.FillOptions{}); err != nil {
				t.Fatalf("forced load: %v", err)
			}
			wantFingerprint(t, d, url, dataset.Config{Scale: 1})
		})
	}
}

// TestInterruptedLoadNeverLooksComplete: a load stopped half-way leaves
// PostgreSQL marked incomplete and the SQLite file as it was.
func TestInterruptedLoadNeverLooksComplete(t *testing.T) {
	for _, d := range databases {
		t.Run(d.name, func(t *testing.T) {
			url := d.url(t)
			before := dataset.Config{Seed: 1, Scale: 1}
			load(t, d, url, before)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := store.Fill(ctx, d.target(url, false), dataset.Config{Seed: 2, Scale: 4}, store.FillOptions{
				Progress: func(p store.Progress) {
					if p.Units == 2 {
						cancel()
					}
				},
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted load returned %v", err)
			}
			_, err = benchdb.ReadMeta(context.Background(), url)
			switch d.name {
			case "postgres":
				if !errors.Is(err, benchdb.ErrIncomplete) {
					t.Errorf("after an interrupted load ReadMeta says %v", err)
				}
			case "sqlite":
				if err != nil {
					t.Fatal(err)
				}
				wantFingerprint(t, d, url, before)
				left, _ := filepath.Glob(store.SQLitePath(url) + ".loading-*")
				if len(left) > 0 {
					t.Errorf("temporary files left: %v", left)
				}
			}
		})
	}
}

// TestPostgresErrors: each common mistake gets a message that says what is wrong.
func TestPostgresErrors(t *testing.T) {
	url := pgtest.URL(t)
	cl := pgtest.Cluster(t)
	noCreate, err := cl.CreateRole(context.Background(), "gqlbench_reader", "secret", false)
	if err != nil {
		t.Fatal(err)
	}
	wrongPassword := strings.Replace(url, "postgres:", "postgres:x", 1)
	if u, err := pgx.ParseConfig(url); err == nil {
		wrongPassword = fmt.Sprintf("postgres://%s:wrong@%s:%d/%s", u.User, u.Host, u.Port, u.Database)
	}
	noDB := strings.Replace(url, pgxDatabase(t, url), "no_such_db", 1)
	for _, c := range []struct {
		name, url, want string
	}{
		{"malformed URL", "postgres://user@127.0.0.1:notaport/db", "malformed PostgreSQL URL"},
		{"nothing listening", "postgres://user:pw@127.0.0.1:1/db?connect_timeout=5", "connection refused"},
		{"wrong password", wrongPassword, "authentication failed"},
		{"missing database", noDB, "no database"},
		{"no CREATE permission", noCreate, "permission denied"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := store.Fill(context.Background(), &store.PostgresTarget{URL: c.url}, dataset.Config{Scale: 1}, store.FillOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
			if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), ":wrong@") {
				t.Errorf("error shows a password: %v", err)
			}
		})
	}
}

func pgxDatabase(t *testing.T, url string) string {
	c, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return c.Database
}

func TestSQLiteErrors(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("not a database, just some text that is long enough to have a header"), 0o644)
	for _, c := range []struct{ name, path, want string }{
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "x.db"), "cannot write the SQLite database"},
		{"a directory", dir, "is a directory"},
		{"not a database", notDB, "not a SQLite database"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := store.Fill(context.Background(), &store.SQLiteTarget{Path: c.path}, dataset.Config{Scale: 1}, store.FillOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	if _, err := benchdb.ReadMeta(context.Background(), "sqlite:"+filepath.Join(dir, "missing.db")); err == nil {
		t.Error("ReadMeta of a missing file succeeded")
	}
}

// TestValuesLayout: LinGBM's values files list every id of the dataset, on
// one line, each followed by ", ".
func TestValuesLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "values")
	vw, err := store.NewValuesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.Fill(context.Background(), &store.SQLiteTarget{Path: filepath.Join(t.TempDir(), "x.db")},
		dataset.Config{Scale: 1}, store.FillOptions{Observe: vw.Observe})
	if err != nil {
		t.Fatal(err)
	}
	if err := vw.Close(); err != nil {
		t.Fatal(err)
	}
	values := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\n") || !strings.HasSuffix(string(b), ", ") {
			t.Errorf("%s.txt is not one line ending in \", \": %.30q", name, b)
		}
		return strings.Split(strings.TrimSuffix(string(b), ", "), ", ")
	}
	for name, want := range map[string]int64{
		"graduateStudentID": m.Rows["graduateStudent"], "undergraduateStudentID": m.Rows["undergraduateStudent"],
		"publicationID": m.Rows["publication"], "facultyID": m.Rows["faculty"], "universityID": dataset.PoolSize,
		"title": int64(len(m.Words.Title)), "interest": int64(len(m.Words.Interest)),
	} {
		if got := len(values(name)); int64(got) != want || want == 0 {
			t.Errorf("%s.txt has %d values, want %d", name, got, want)
		}
	}
	if fmt.Sprint(values("lecturerID")) != fmt.Sprint(m.IDs["lecturerID"]) {
		t.Error("lecturerID.txt differs from the metadata")
	}
}

// TestTrigramIndexes: with Options.Trigram, a PostgreSQL load ends with a
// GIN trigram index on each searched column, as the sql-postgres dump does;
// SQLite and the formats without PostgreSQL's DDL refuse the option.
func TestTrigramIndexes(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	if _, err := store.Fill(ctx, &store.PostgresTarget{URL: url, Options: store.Options{Trigram: true}}, dataset.Config{Scale: 1}, store.FillOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := databases[0].open(t, url).Query(`SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	if got := strings.Join(names, " "); got != "publication_abstract_trgm_idx publication_title_trgm_idx" {
		t.Errorf("trigram indexes %q", got)
	}
	if !strings.Contains(strings.Join(store.DDL(dbloc.Postgres, store.Options{Trigram: true}).After, "\n"), "USING gin (title gin_trgm_ops)") {
		t.Error("the PostgreSQL DDL (and so the sql-postgres dump) has no trigram index")
	}
	if strings.Contains(strings.Join(store.DDL(dbloc.Postgres, store.Options{}).After, "\n"), "gin_trgm_ops") {
		t.Error("a trigram index without the option")
	}
	path := filepath.Join(t.TempDir(), "x.db")
	if _, err := store.Fill(ctx, &store.SQLiteTarget{Path: path, Options: store.Options{Trigram: true}}, dataset.Config{Scale: 1}, store.FillOptions{}); err == nil || !strings.Contains(err.Error(), "PostgreSQL") {
		t.Errorf("SQLite with trigram indexes: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the refused SQLite load left a file")
	}
	for _, format := range []string{"sql-mysql", "ntriples"} {
		if _, err := store.NewFile(format, filepath.Join(t.TempDir(), "x"), store.Options{Trigram: true}); err == nil {
			t.Errorf("%s with trigram indexes accepted", format)
		}
	}
}
