package pglocal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gqlbench/gqlbench/dbloc"
)

// testCtx returns a context that ends with t, or after two minutes.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// enterableDir returns a new temp dir that the postgres user can enter when
// the tests run as root (t.TempDir is not), removed at the end of t.
func enterableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pglocal-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "state")
}

// startCluster starts a cluster in dir and destroys it at the end of t, even
// if t fails.
func startCluster(t *testing.T, o Options) *Cluster {
	t.Helper()
	c, err := Start(testCtx(t), o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Destroy(context.Background()); err != nil {
			t.Errorf("Destroy: %v", err)
		}
	})
	return c
}

// connect connects to url, failing t on error.
func connectT(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(testCtx(t), url)
	if err != nil {
		t.Fatalf("connecting to %s: %v", dbloc.Redact(url), err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// queryString returns the single text value of sql on url.
func queryString(t *testing.T, url, sql string) string {
	t.Helper()
	var s string
	if err := connectT(t, url).QueryRow(testCtx(t), sql).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

// sqlState returns the SQLSTATE of err, or "" if it has none.
func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}
