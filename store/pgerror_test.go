package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/store"
)

// TestPostgresMalformedLocation: a PostgreSQL location that cannot be read
// is refused, by Fill and by benchdb.ReadMeta, with a message that says what is
// wrong and shows the location redacted, never its password. (The URL that
// no number follows the port of used to come back whole.)
func TestPostgresMalformedLocation(t *testing.T) {
	for _, c := range []struct{ name, url, want string }{
		{"port not a number", "postgres://bob:s3cr3t-XYZ@127.0.0.1:port/db", "malformed PostgreSQL URL postgres://bob:xxxxx@127.0.0.1:port/db: a port is not a number"},
		{"space in the password", "postgres://bob:s3cr3t XYZ9@127.0.0.1:5432/db", "malformed PostgreSQL URL postgres://bob:xxxxx@127.0.0.1:5432/db: the password is not percent-encoded"},
		{"bare % in the password", "postgres://bob:s3cr3t%XYZ9@127.0.0.1/db", "the password is not percent-encoded: write %25 for '%'"},
		{"@ in the password", "postgres://bob:s3cr3t@XYZ9@127.0.0.1/db", "an '@' after the user part"},
		{"unquoted space in a DSN", "host=127.0.0.1 password=s3cr3t XYZ9 dbname=x", `keyword/value DSN "host=127.0.0.1 password=xxxxx"`},
		{"a setting pgx refuses", "postgres://bob:s3cr3t-XYZ@127.0.0.1/db?sslmode=bogus", "malformed PostgreSQL location: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, loadErr := store.Fill(context.Background(), &store.PostgresTarget{URL: c.url}, dataset.Config{Scale: 1}, store.FillOptions{})
			_, metaErr := benchdb.ReadMeta(context.Background(), c.url)
			for _, err := range []error{loadErr, metaErr} {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("got %v, want an error saying %q", err, c.want)
				}
				if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "XYZ9") {
					t.Errorf("the error shows the password: %v", err)
				}
			}
		})
	}
}

// TestSQLitePath: the file of an sqlite: location, as dbloc reads it.
func TestSQLitePath(t *testing.T) {
	for in, want := range map[string]string{"sqlite:x.db": "x.db", "sqlite:///abs/x.db": "/abs/x.db", "sqlite:": "", "postgres://h/db": ""} {
		if got := store.SQLitePath(in); got != want {
			t.Errorf("SQLitePath(%q) = %q, want %q", in, got, want)
		}
	}
}
