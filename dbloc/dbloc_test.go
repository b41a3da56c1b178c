package dbloc_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dbloc"
)

// TestParse: each form is read as the kind it is, an SQLite location with
// its path.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind dbloc.Kind
		path string
	}{
		{"sqlite:gqlbench.db", dbloc.SQLite, "gqlbench.db"},
		{"sqlite:/tmp/x.db", dbloc.SQLite, "/tmp/x.db"},
		{"sqlite://rel/x.db", dbloc.SQLite, "rel/x.db"},    // store.SQLitePath's reading, kept
		{"sqlite:///abs/x.db", dbloc.SQLite, "/abs/x.db"},  // likewise
		{"sqlite:a b@c:d.db", dbloc.SQLite, "a b@c:d.db"},  // any path
		{"postgres://h/db", dbloc.Postgres, ""},            // no user
		{"postgresql://u:p@h:5432/db", dbloc.Postgres, ""}, // the long scheme
		{"postgres://u:p@h", dbloc.Postgres, ""},           // no database
		{"postgres://u:p@h?sslmode=disable", dbloc.Postgres, ""},
		{"postgres:///db?host=/run/postgresql", dbloc.Postgres, ""},                // no host: a socket directory
		{"postgres://u:p@h1,h2:5433,[::1]:5434/db", dbloc.Postgres, ""},            // several hosts
		{"postgres://u:p@h/db?", dbloc.Postgres, ""},                               // an empty query
		{"postgres://u:p@h/db?a=1&", dbloc.Postgres, ""},                           // a trailing &, as pgx reads it
		{"postgres://u:p@ h /db", dbloc.Postgres, ""},                              // spaces around a part, dropped by pgx
		{"host=h", dbloc.Postgres, ""},                                             // a keyword/value DSN
		{"  host=h\tport=5432\nuser=u password='' dbname=x  ", dbloc.Postgres, ""}, // any space, an empty value
		{"host=h search_path=a,b my.setting=1", dbloc.Postgres, ""},                // run-time parameters
	} {
		l, err := dbloc.Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if l.Kind() != c.kind || l.SQLitePath() != c.path || l.ConnString() != c.in {
			t.Errorf("Parse(%q) = kind %v, path %q, conn %q; want %v, %q", c.in, l.Kind(), l.SQLitePath(), l.ConnString(), c.kind, c.path)
		}
	}
}

// TestUnsupported: a string of none of the forms wraps ErrUnsupported; a
// malformed one of them does not.
func TestUnsupported(t *testing.T) {
	for _, s := range []string{"", "x.db", "sqlite", "mysql://h/db", "POSTGRES://h/db", " postgres://h/db", "--db=host=h", "=x"} {
		if _, err := dbloc.Parse(s); !errors.Is(err, dbloc.ErrUnsupported) {
			t.Errorf("Parse(%q): %v, want ErrUnsupported", s, err)
		}
	}
	for _, s := range []string{"postgres://h:x/db", "host='h", "sqlite:"} {
		if _, err := dbloc.Parse(s); err == nil || errors.Is(err, dbloc.ErrUnsupported) {
			t.Errorf("Parse(%q): %v, want a malformed location", s, err)
		}
	}
}

// TestScrub: a driver's message loses the secret, as written and decoded.
func TestScrub(t *testing.T) {
	l, err := dbloc.Parse("postgres://bob:s3cr3t%20XYZ9@h/db?sslpassword=k3y-ABCD")
	if err != nil {
		t.Fatal(err)
	}
	got := l.Scrub("cannot use s3cr3t%20XYZ9, s3cr3t XYZ9 or k3y-ABCD for bob")
	if want := "cannot use xxxxx, xxxxx or xxxxx for bob"; got != want {
		t.Errorf("Scrub: %q, want %q", got, want)
	}
	if sq, _ := dbloc.Parse("sqlite:s3cr3t.db"); sq.Scrub("s3cr3t.db") != "s3cr3t.db" {
		t.Error("Scrub of an SQLite location changed the text")
	}
}

// TestWithDatabase: another database on the same server keeps the user,
// the password and the parameters.
func TestWithDatabase(t *testing.T) {
	for _, c := range []struct{ in, name, want string }{
		{"postgres://bob:" + secret + "@h:5432/postgres?sslmode=disable", "gqlbench_sf1", "postgres://bob:" + secret + "@h:5432/gqlbench_sf1?sslmode=disable"},
		{"postgres://h/postgres", "a b/c@d?e", "postgres://h/a%20b%2Fc%40d%3Fe"},
		{"postgres://h?sslmode=disable", "x", "postgres://h/x?sslmode=disable"},
		{"postgres://h", "x", "postgres://h/x"},
		{"host=h dbname=postgres password='" + secret + "'", "x", "host=h password='" + secret + "' dbname='x'"},
		{"host=h database=a dbname=b port=1", "x", "host=h port=1 dbname='x'"},
		{"host=h", `it's a\b`, `host=h dbname='it\'s a\\b'`},
		{"dbname=postgres", "x", "dbname='x'"},
	} {
		l, err := dbloc.Parse(c.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.in, err)
		}
		got, err := l.WithDatabase(c.name)
		if err != nil || got.ConnString() != c.want {
			t.Errorf("%q.WithDatabase(%q) = %q, %v; want %q", c.in, c.name, got.ConnString(), err, c.want)
		}
		if strings.Contains(got.String(), secret) {
			t.Errorf("%q.WithDatabase(%q) prints as %q", c.in, c.name, got)
		}
	}
	sq, _ := dbloc.Parse("sqlite:x.db")
	if _, err := sq.WithDatabase("x"); err == nil {
		t.Error("an SQLite location took a database name")
	}
	pg, _ := dbloc.Parse("postgres://h/db")
	if _, err := pg.WithDatabase(""); err == nil {
		t.Error("an empty database name was taken")
	}
}

// TestImports keeps dbloc a leaf of the standard library: every package
// that prints a database location can use it.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if deps := strings.Fields(string(out)); len(deps) != 1 || deps[0] != "github.com/gqlbench/gqlbench/dbloc" {
		t.Errorf("dbloc depends on %v, want the standard library only", deps)
	}
}

// TestKindNames: every kind of database has its name, the dumps' MySQL
// included, and an unknown kind says its number.
func TestKindNames(t *testing.T) {
	for k, want := range map[dbloc.Kind]string{dbloc.SQLite: "SQLite", dbloc.Postgres: "PostgreSQL", dbloc.MySQL: "MySQL", 0: "Kind(0)", 9: "Kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
}
