package sqlsource_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of the tests' own checks

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/sqlsource"
	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// techniques are the four variants, in the paper's order.
var techniques = []sqlsource.Technique{sqlsource.Naive, sqlsource.Memo, sqlsource.Batch, sqlsource.BatchMemo}

// countWait is the DataLoader window of the tests that count statements:
// generous, so that the loads of one query level always share a batch even
// on a busy test machine. The answers do not depend on the window; the
// other tests use the default.
const countWait = 50 * time.Millisecond

// planted is the title the fixtures give one publication (the one with the
// smallest nr), so that string matching meets %, _, ', \ and capitals: the
// generated titles are lowercase words. The fixtures also take the advisor
// of the graduate student with the largest nr away, so that orderings meet
// a null (every generated graduate student has an advisor).
const planted = `Ab 100% x_y it's C:\dir end`

// database is a loaded sf=1 dataset (seed 0).
type database struct {
	name string // "sqlite" or "postgres"
	url  string
	meta *dataset.Meta
}

// databases loads the sf=1 dataset into a fresh SQLite file and a fresh
// PostgreSQL database (both removed when t ends) and plants the title.
func databases(t *testing.T) []database {
	t.Helper()
	ctx := context.Background()
	c := dataset.Config{Seed: 0, Scale: 1}
	path := filepath.Join(t.TempDir(), "sf1.db")
	pgURL := pgtest.URL(t)
	var out []database
	for _, d := range []struct {
		name, url string
		target    store.Target
	}{
		{"sqlite", "sqlite:" + path, &store.SQLiteTarget{Path: path}},
		{"postgres", pgURL, &store.PostgresTarget{URL: pgURL}},
	} {
		meta, err := store.Fill(ctx, d.target, c, store.FillOptions{})
		if err != nil {
			t.Fatalf("loading %s: %v", d.name, err)
		}
		plant(t, d.name, d.url)
		out = append(out, database{d.name, d.url, meta})
	}
	return out
}

// plant sets the title of the publication with the smallest nr and removes
// an advisor (see planted).
func plant(t *testing.T, name, url string) {
	t.Helper()
	driver, dsn := "pgx", url
	if name == "sqlite" {
		driver, dsn = "sqlite3", "file:"+store.SQLitePath(url)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := "UPDATE publication SET title = $1 WHERE nr = (SELECT MIN(nr) FROM publication)"
	if name == "sqlite" {
		q = "UPDATE publication SET title = ? WHERE nr = (SELECT MIN(nr) FROM publication)"
	}
	if _, err := db.Exec(q, planted); err != nil {
		t.Fatalf("planting a title in %s: %v", name, err)
	}
	q = "UPDATE graduateStudent SET advisor = NULL WHERE nr = (SELECT MAX(nr) FROM graduateStudent)"
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("removing an advisor in %s: %v", name, err)
	}
}

// open opens technique tq over d with the default options; it is closed
// when t ends.
func open(t *testing.T, d database, tq sqlsource.Technique) server.Executor {
	t.Helper()
	return openWith(t, d, tq, sqlsource.Options{})
}

func openWith(t *testing.T, d database, tq sqlsource.Technique, o sqlsource.Options) server.Executor {
	t.Helper()
	x, err := sqlsource.Open(context.Background(), tq, server.Config{DB: d.url, Pool: 4}, o)
	if err != nil {
		t.Fatalf("opening %s on %s: %v", tq, d.name, err)
	}
	t.Cleanup(func() {
		if c, ok := x.(interface{ Close() error }); ok {
			c.Close()
		}
	})
	return x
}

// run executes query with vars on x and returns the response and the
// number of SQL statements it ran.
func run(t *testing.T, x server.Executor, query string, vars map[string]any) (*server.Response, int64) {
	t.Helper()
	ctx, stats := trace.With(context.Background())
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return x.Execute(ctx, &server.Request{Query: query, Variables: vars}), stats.Statements()
}

// canonical re-encodes JSON with sorted object keys.
func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("response data is not JSON: %v\n%s", err, raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// data executes query and returns its canonical data, failing t on any error.
func data(t *testing.T, x server.Executor, query string, vars map[string]any) string {
	t.Helper()
	r, _ := run(t, x, query, vars)
	if len(r.Errors) > 0 || r.RequestError || r.Status != 0 {
		t.Fatalf("%s %v: errors %v (request error %v, status %d)", query, vars, r.Errors, r.RequestError, r.Status)
	}
	return canonical(t, r.Data)
}
