package pgstat

import (
	"context"
	"testing"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The counter sees exactly the statements another client sends, without
// transaction control and without its own reads.
func TestCount(t *testing.T) {
	ctx := context.Background()
	u := pgtest.URL(t)
	loc, err := dbloc.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	before, err := c.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if _, err := conn.Exec(ctx, "SELECT $1::int + 1", i); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := conn.Begin(ctx) // BEGIN and COMMIT are not counted, the SELECT is
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "SELECT 42"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for range 3 { // its own reads count nothing
		if _, err := c.Count(ctx); err != nil {
			t.Fatal(err)
		}
	}
	after, err := c.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := after - before; got != 8 {
		t.Errorf("counted %d statements, want 8", got)
	}
	// a read cut off by its context closes the connection; the next one reconnects
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Count(cctx); err == nil {
		t.Fatal("a cancelled read succeeded")
	}
	if _, err := c.Count(ctx); err != nil {
		t.Errorf("after a cancelled read: %v", err)
	}
}

func TestOpenSQLite(t *testing.T) {
	loc, _ := dbloc.Parse("sqlite:/tmp/x.db")
	if _, err := Open(context.Background(), loc); err == nil {
		t.Error("Open(sqlite) succeeded")
	}
}
