// Package pgtest gives each test an empty PostgreSQL database of its own.
//
// A package whose tests use it must run them through Main, from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// so that the shared throwaway cluster is stopped and removed when its tests
// end; URL and Cluster fail the test otherwise.
//
// By default the databases live in a throwaway cluster that [pglocal.Start]
// starts in a temp dir, once per test binary. If GQLBENCH_TEST_PG_URL is set
// to the URL of a superuser on an existing server, URL creates them there
// instead. PostgreSQL that cannot be started fails the test with the reason:
// nothing here skips.
package pgtest

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/pglocal"
)

// EnvURL is the environment variable that names an existing server for URL:
// a PostgreSQL location (a postgres:// URL or a keyword/value DSN) of a
// superuser (or of a user allowed to create databases).
const EnvURL = "GQLBENCH_TEST_PG_URL"

// mainRunning is set by Main.
var mainRunning atomic.Bool

// Main runs the tests of m and then stops and removes the shared cluster,
// if one was started, and exits with the tests' exit code. Call it from
// TestMain.
func Main(m *testing.M) {
	mainRunning.Store(true)
	code := m.Run()
	if err := shutdown(); err != nil {
		os.Stderr.WriteString("pgtest: removing the test cluster: " + err.Error() + "\n")
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// URL returns a connection URL of an empty, freshly created database for
// test t, named after the test (each call makes another one). If env
// GQLBENCH_TEST_PG_URL is set, the database is created on that server;
// otherwise in the shared throwaway cluster (see Cluster). The database is
// dropped when t ends, unless t failed: on an existing server it is then
// kept, for inspection, until the test runs again.
func URL(t testing.TB) string {
	t.Helper()
	requireMain(t)
	name := dbName(t)
	admin, where := os.Getenv(EnvURL), EnvURL
	if admin == "" {
		admin, where = Cluster(t).URL(""), "the local test cluster"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	u, err := pglocal.CreateDatabaseAt(ctx, admin, name)
	if err != nil {
		t.Fatalf("pgtest: creating database %s on %s: %v", name, where, err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			if where == EnvURL {
				t.Logf("pgtest: kept database %s of the failed test: %s", name, dbloc.Redact(u))
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pglocal.DropDatabaseAt(ctx, admin, name); err != nil {
			t.Logf("pgtest: %v", err)
		}
	})
	return u
}

// Cluster returns the shared cluster, starting it if needed, for tests that
// need roles or the superuser. It is a throwaway cluster in a temp dir,
// started once per test binary and removed by Main; it is used even when
// GQLBENCH_TEST_PG_URL is set, as such tests change the server.
func Cluster(t testing.TB) *pglocal.Cluster {
	t.Helper()
	requireMain(t)
	c, err := sharedCluster()
	if err != nil {
		t.Fatalf("pgtest: cannot start a local PostgreSQL for the tests: %v", err)
	}
	return c
}

// requireMain fails t unless the tests run through Main.
func requireMain(t testing.TB) {
	t.Helper()
	if !mainRunning.Load() {
		t.Fatal("pgtest: call pgtest.Main from the package's TestMain, so that the test cluster is removed at the end:\n\tfunc TestMain(m *testing.M) { pgtest.Main(m) }")
	}
}
