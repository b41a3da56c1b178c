package compiled

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/store"
)

// TestMain runs the tests through pgtest, which starts (once) and removes a
// throwaway PostgreSQL cluster.
func TestMain(m *testing.M) { pgtest.Main(m) }

// backend is one database with the sf=1 dataset (plus the edge rows of
// edges), the executor over it, and a plain handle for the tests' own SQL.
type backend struct {
	name  string
	url   string
	exec  *Executor
	plain *sql.DB
	meta  *dataset.Meta
}

// edges are updates applied to every test database after loading, so that
// the data holds what the generator never writes: pattern characters,
// quotes, mixed case, and NULLs in ordered columns. Both databases get the
// same ones, so they keep the same answers.
var edges = []string{
	`UPDATE publication SET title = '100% sure' WHERE nr = (SELECT min(nr) FROM publication)`,
	`UPDATE publication SET title = 'under_score' WHERE nr = (SELECT min(nr) + 1 FROM publication)`,
	`UPDATE publication SET title = 'back\slash' WHERE nr = (SELECT min(nr) + 2 FROM publication)`,
	`UPDATE publication SET title = 'it''s quoted' WHERE nr = (SELECT min(nr) + 3 FROM publication)`,
	`UPDATE publication SET title = 'MiXeD Case', abstract = 'x%_y' WHERE nr = (SELECT min(nr) + 4 FROM publication)`,
	`UPDATE publication SET title = 'mixed case 100%_' WHERE nr = (SELECT min(nr) + 5 FROM publication)`,
	`UPDATE professor SET researchInterest = 'a%b_c\d' WHERE nr = (SELECT min(advisor) FROM graduateStudent)`,
	`UPDATE graduateStudent SET advisor = NULL, telephone = NULL WHERE nr = (SELECT max(nr) FROM graduateStudent)`,
	`UPDATE graduateStudent SET emailAddress = NULL WHERE nr = (SELECT min(nr) FROM graduateStudent)`,
}

// backends loads the dataset into a fresh PostgreSQL database and a fresh
// SQLite file and opens an executor on each.
func backends(t *testing.T) []*backend {
	t.Helper()
	pgURL := pgtest.URL(t)
	litePath := filepath.Join(t.TempDir(), "sf1.db")
	var out []*backend
	for _, b := range []struct {
		name, url, driver, dsn string
		target                 store.Target
	}{
		{"postgres", pgURL, "pgx", pgURL, &store.PostgresTarget{URL: pgURL}},
		{"sqlite", "sqlite:" + litePath, "sqlite3", litePath, &store.SQLiteTarget{Path: litePath}},
	} {
		out = append(out, open(t, b.name, b.url, b.driver, b.dsn, b.target))
	}
	return out
}

// sqliteBackend is the SQLite backend alone, for tests that need no PostgreSQL.
func sqliteBackend(t testing.TB) *backend {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sf1.db")
	return open(t, "sqlite", "sqlite:"+path, "sqlite3", path, &store.SQLiteTarget{Path: path})
}

func open(t testing.TB, name, url, driver, dsn string, target store.Target) *backend {
	t.Helper()
	ctx := context.Background()
	meta, err := store.Fill(ctx, target, dataset.Config{Scale: 1}, store.FillOptions{})
	if err != nil {
		t.Fatalf("%s: loading: %v", name, err)
	}
	plain, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Close() })
	for _, q := range edges {
		if _, err := plain.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %s: %v", name, q, err)
		}
	}
	e, err := Open(ctx, server.Config{DB: url, Pool: 4, Remote: server.Remote{URL: remoteService(t, meta.Seed)}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() { e.Close() })
	return &backend{name: name, url: url, exec: e, plain: plain, meta: meta}
}

// result is a response and the number of SQL statements it took.
type result struct {
	*server.Response
	statements int64
}

// run executes query with variables (a JSON object, or "") on b.
func (b *backend) run(t testing.TB, query, variables string) result {
	t.Helper()
	var vars map[string]any
	if variables != "" {
		if err := json.Unmarshal([]byte(variables), &vars); err != nil {
			t.Fatalf("variables %s: %v", variables, err)
		}
	}
	return b.request(&server.Request{Query: query, Variables: vars})
}

func (b *backend) request(r *server.Request) result {
	ctx, stats := trace.With(context.Background())
	resp := b.exec.Execute(ctx, r)
	return result{resp, stats.Statements()}
}

// data runs query and returns the canonical form of its data, failing the
// test on any error.
func (b *backend) data(t testing.TB, query, variables string) string {
	t.Helper()
	res := b.run(t, query, variables)
	if len(res.Errors) > 0 || res.RequestError {
		t.Fatalf("%s: %s %s: errors %v", b.name, query, variables, res.Errors)
	}
	return canon(t, res.Data)
}

// canon is JSON in a canonical form: keys in their order (key order is part
// of a GraphQL answer), no spaces, numbers rounded to 6 decimal places and
// integral ones written as integers.
func canon(t testing.TB, raw []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	var value func()
	value = func() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("invalid JSON %.200s: %v", raw, err)
		}
		switch v := tok.(type) {
		case json.Delim:
			b.WriteString(v.String())
			first := true
			for dec.More() {
				if !first {
					b.WriteByte(',')
				}
				first = false
				if v == '{' {
					k, _ := dec.Token()
					js, _ := json.Marshal(k)
					b.Write(js)
					b.WriteByte(':')
				}
				value()
			}
			end, _ := dec.Token()
			b.WriteString(end.(json.Delim).String())
		case json.Number:
			f, err := v.Float64()
			if err != nil {
				t.Fatalf("number %s: %v", v, err)
			}
			b.WriteString(number(f))
		default:
			js, _ := json.Marshal(v)
			b.Write(js)
		}
	}
	value()
	return b.String()
}

// number is f rounded to 6 decimal places, integral values as integers.
func number(f float64) string {
	r := math.Round(f*1e6) / 1e6
	if r == math.Trunc(r) && math.Abs(r) < 1e15 {
		return strconv.FormatInt(int64(r), 10)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// sortedKeys re-encodes canonical JSON with object keys sorted.
func sortedKeys(t testing.TB, s string) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(v)
	return string(js)
}

// obj writes a JSON object with keys in order from alternating keys and
// values (values already JSON).
func obj(kv ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", kv[i], kv[i+1])
	}
	b.WriteByte('}')
	return b.String()
}

// arr writes a JSON array of JSON values.
func arr(vs []string) string { return "[" + strings.Join(vs, ",") + "]" }

// str is s as a JSON string, or null.
func str(s sql.NullString) string {
	if !s.Valid {
		return "null"
	}
	js, _ := json.Marshal(s.String)
	return string(js)
}

// id is nr as a JSON ID (a string).
func id(nr int64) string { return strconv.Quote(strconv.FormatInt(nr, 10)) }

// idOrNull is a nullable nr as a JSON ID.
func idOrNull(nr sql.NullInt64) string {
	if !nr.Valid {
		return "null"
	}
	return id(nr.Int64)
}

// sortStrings sorts a copy.
func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
