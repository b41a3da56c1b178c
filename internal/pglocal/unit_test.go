package pglocal

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func netListen(port int) (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
}

func TestURL(t *testing.T) {
	c := &Cluster{Port: 5433, User: "postgres", Password: "PW"}
	for _, tc := range []struct{ db, want string }{
		{"", "postgres://postgres:PW@127.0.0.1:5433/postgres?sslmode=disable"},
		{"bench", "postgres://postgres:PW@127.0.0.1:5433/bench?sslmode=disable"},
		{"a b?c", "postgres://postgres:PW@127.0.0.1:5433/a%20b%3Fc?sslmode=disable"},
	} {
		if got := c.URL(tc.db); got != tc.want {
			t.Errorf("URL(%q) = %s, want %s", tc.db, got, tc.want)
		}
	}
	odd := &Cluster{Port: 1, Password: "p@ss:/w"}
	if got, want := odd.URL("x"), "postgres://postgres:p%40ss%3A%2Fw@127.0.0.1:1/x?sslmode=disable"; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir)
	want := "no local PostgreSQL in " + dir + "; run `gqlbench pg start`"
	if !errors.Is(err, ErrNoCluster) || err.Error() != want {
		t.Errorf("Open(empty dir) = %v, want %q", err, want)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"garbage", "{", "damaged"},
		{"no port", `{"data_dir":"/x","password":"p"}`, "incomplete"},
		{"relative", `{"data_dir":"x","port":1,"password":"p"}`, "incomplete"},
	} {
		if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrNoCluster) {
			t.Errorf("%s: Open = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/srv/pg")
	if d, err := DefaultDir(); err != nil || d != "/srv/pg" {
		t.Errorf("DefaultDir with %s = %q, %v", EnvDir, d, err)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	if d, err := DefaultDir(); err != nil || d != "/cache/gqlbench/pg" {
		t.Errorf("DefaultDir = %q, %v", d, err)
	}
}

func TestBinariesNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	saved := fallbackBinDirs
	fallbackBinDirs = []string{filepath.Join(t.TempDir(), "*")}
	defer func() { fallbackBinDirs = saved }()
	_, err := Start(context.Background(), Options{Dir: t.TempDir()})
	want := "PostgreSQL binaries (initdb, pg_ctl) not found on PATH: install PostgreSQL 13+ or pass --db postgres://..."
	if err == nil || err.Error() != want {
		t.Errorf("Start = %v, want %q", err, want)
	}
}

func TestBinariesFallback(t *testing.T) {
	bins, err := findBinaries()
	if err != nil {
		t.Fatalf("PostgreSQL must be installed for these tests: %v", err)
	}
	// Without PATH, the fallback finds the same install (the Debian layout).
	t.Setenv("PATH", t.TempDir())
	saved := fallbackBinDirs
	// /usr/lib/postgresql/15/bin/pg_ctl -> /usr/lib/postgresql/*/bin
	fallbackBinDirs = []string{filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(realPath(bins.pgCtl)))), "*", "bin")}
	defer func() { fallbackBinDirs = saved }()
	got, err := findBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if realPath(got.pgCtl) != realPath(bins.pgCtl) {
		t.Errorf("fallback found %s, want %s", got.pgCtl, realPath(bins.pgCtl))
	}
	if err := got.checkVersion(context.Background()); err != nil {
		t.Error(err)
	}
}

func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	return r
}

func TestPostgresUserMissing(t *testing.T) {
	saved := pgUser
	pgUser = "gqlbench-no-such-user"
	defer func() { pgUser = saved }()
	r, err := newRunner()
	if os.Geteuid() != 0 {
		if err != nil || r.asRoot() {
			t.Errorf("newRunner as non-root = %+v, %v; want to run as ourselves", r, err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), `no "gqlbench-no-such-user" system user`) || !strings.Contains(err.Error(), "useradd") {
		t.Errorf("newRunner as root without the user: %v", err)
	}
}

func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"/usr/lib/postgresql/15/bin", 15},
		{"/usr/lib/postgresql/9.6/bin", 9},
		{"/usr/pgsql-16/bin", 16},
		{"/opt/pg/bin", 0},
	} {
		if got := versionOf(tc.in); got != tc.want {
			t.Errorf("versionOf(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestServerArgs(t *testing.T) {
	got := serverArgs(5433, "/tmp/d", false)
	for _, want := range []string{"-p 5433", "-k '/tmp/d'", "-c listen_addresses=127.0.0.1",
		"-c shared_buffers=256MB", "-c max_connections=200", "-c max_wal_size=4GB", "-c checkpoint_timeout=30min"} {
		if !strings.Contains(got, want) {
			t.Errorf("serverArgs lacks %q: %s", want, got)
		}
	}
	if strings.Contains(got, "fsync") || strings.Contains(got, "synchronous_commit") {
		t.Errorf("serverArgs gives up durability: %s", got)
	}
}

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/a/b", "'/a/b'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
	} {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSocketDir(t *testing.T) {
	long := "/tmp/" + strings.Repeat("x", 100)
	for _, tc := range []struct {
		dataDir string
		own     bool
	}{
		{"/tmp/pg/data", true},
		{"/tmp/with space/data", false},
		{"/tmp/comma,dir/data", false},
		{long, false},
	} {
		got := socketDir(tc.dataDir)
		if (got == tc.dataDir) != tc.own {
			t.Errorf("socketDir(%q) = %s", tc.dataDir, got)
		}
		if len(got)+len("/.s.PGSQL.65535") > 107 || !plainPath.MatchString(got) {
			t.Errorf("socketDir(%q) = %s: not usable for a socket", tc.dataDir, got)
		}
	}
}

func TestQuoteLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "'abc'"},
		{"it's", "'it''s'"},
		{`back\slash`, `E'back\\slash'`},
		{`'\`, `E'''\\'`},
	} {
		if got := quoteLiteral(tc.in); got != tc.want {
			t.Errorf("quoteLiteral(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestCheckIdentifier(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"bench", true},
		{"Mixed Case \"quoted\"", true},
		{strings.Repeat("x", 63), true},
		{strings.Repeat("x", 64), false},
		{"", false},
		{"nul\x00", false},
	} {
		if err := checkIdentifier("database", tc.name); (err == nil) != tc.ok {
			t.Errorf("checkIdentifier(%q) = %v", tc.name, err)
		}
	}
}

func TestCreateDatabaseAtRefuses(t *testing.T) {
	for _, tc := range []struct{ url, name string }{
		{"postgres://u:p@127.0.0.1:1/postgres", "postgres"},
		{"postgres://u:p@127.0.0.1:1/postgres", "template1"},
		{"postgres://u:p@127.0.0.1:1/postgres", ""},
		{"mysql://u:p@127.0.0.1:1/x", "db"},
		{"postgres://u:p@127.0.0.1:port/x", "db"}, // malformed: its error is dbloc's, redacted
		{"postgres://u:p w@127.0.0.1:1/x", "db"},
	} {
		if _, err := CreateDatabaseAt(context.Background(), tc.url, tc.name); err == nil {
			t.Errorf("CreateDatabaseAt(%s, %q) succeeded", tc.url, tc.name)
		} else if strings.Contains(err.Error(), ":p@") || strings.Contains(err.Error(), ":p w@") {
			t.Errorf("error shows the password: %v", err)
		}
		if tc.name != "db" {
			if err := DropDatabaseAt(context.Background(), tc.url, tc.name); err == nil {
				t.Errorf("DropDatabaseAt(%s, %q) succeeded", tc.url, tc.name)
			}
		}
	}
}

func TestTraversable(t *testing.T) {
	if os.Geteuid() == 0 {
		// Root's t.TempDir is 0700: no way in for another user.
		if traversable(t.TempDir(), 54321, 54321) {
			t.Error("traversable(a 0700 dir of root's) = true")
		}
	}
	dir := filepath.Join(os.TempDir(), "pglocal-traverse-"+strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o711); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for _, tc := range []struct {
		mode os.FileMode
		want bool
	}{
		{0o711, true},
		{0o701, true},
		{0o700, false},
		{0o770, false},
	} {
		if err := os.Chmod(dir, tc.mode); err != nil {
			t.Fatal(err)
		}
		// Another user, in no group of the directory's.
		if got := traversable(filepath.Join(dir, "sub", "missing"), 54321, 54321); got != tc.want {
			t.Errorf("mode %v: traversable = %v, want %v", tc.mode, got, tc.want)
		}
	}
}
