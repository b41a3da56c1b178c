package pgtest_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// query returns the single text value of sql on the database at u.
func query(t *testing.T, u, sql string, args ...any) string {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var s string
	if err := conn.QueryRow(t.Context(), sql, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

func TestURLGivesAnEmptyDatabase(t *testing.T) {
	u := pgtest.URL(t)
	name := query(t, u, "SELECT current_database()")
	if !strings.HasPrefix(name, "t_testurlgivesanemptydatabase_") {
		t.Errorf("database name %q is not named after the test", name)
	}
	if n := query(t, u, "SELECT count(*)::text FROM pg_tables WHERE schemaname = 'public'"); n != "0" {
		t.Errorf("%s tables in a fresh database", n)
	}
}

func TestURLEachCallIsANewDatabase(t *testing.T) {
	a, b := pgtest.URL(t), pgtest.URL(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	for _, u := range []string{a, b} {
		query(t, u, "SELECT 'ok'")
	}
}

func TestClusterIsShared(t *testing.T) {
	c := pgtest.Cluster(t)
	if c != pgtest.Cluster(t) {
		t.Error("Cluster returned two clusters")
	}
	if !c.Running() {
		t.Fatal("the shared cluster is not running")
	}
	u, err := c.CreateRole(t.Context(), "pgtest_reader", "pw", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := query(t, u, "SELECT current_user"); got != "pgtest_reader" {
		t.Errorf("current_user = %s", got)
	}
}

// TestExistingServer points GQLBENCH_TEST_PG_URL at the shared cluster, as
// if it were an existing server, and checks that a passing test's database
// is dropped afterwards.
func TestExistingServer(t *testing.T) {
	c := pgtest.Cluster(t)
	t.Setenv(pgtest.EnvURL, c.URL(""))
	var name string
	t.Run("sub", func(t *testing.T) {
		u := pgtest.URL(t)
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		if parsed.Port() != strconv.Itoa(c.Port) {
			t.Errorf("URL %s is not on the server of %s", parsed.Redacted(), pgtest.EnvURL)
		}
		name = query(t, u, "SELECT current_database()")
		if !strings.HasPrefix(name, "t_testexistingserver_sub_") {
			t.Errorf("database name %q is not named after the test", name)
		}
	})
	if got := query(t, c.URL(""), "SELECT count(*)::text FROM pg_database WHERE datname = $1", name); got != "0" {
		t.Errorf("database %s of a passed test was not dropped", name)
	}
}
