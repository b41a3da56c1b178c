package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// malformedDBs are database locations that cannot be read, each with the
// password s3cr3t in it, and the redacted form a message shows instead.
var malformedDBs = []struct{ name, db, reason, shown string }{
	{"port not a number", "postgres://bob:s3cr3t@host:port/db", "malformed PostgreSQL URL", "postgres://bob:xxxxx@host:port/db"},
	{"space in the password", "postgres://bob:s3cr3t pw@host:5432/db", "malformed PostgreSQL URL", "postgres://bob:xxxxx@host:5432/db"},
	{"bare % in the password", "postgres://bob:s3cr3t%pw@host:5432/db", "malformed PostgreSQL URL", "postgres://bob:xxxxx@host:5432/db"},
	{"@ in the password", "postgres://bob:s3cr3t@pw@host:5432/db", "malformed PostgreSQL URL", "postgres://bob:xxxxx@host:5432/db"},
	{"unquoted space in a DSN", "host=host user=bob password=s3cr3t pw dbname=db", "malformed PostgreSQL keyword/value DSN", "host=host user=bob password=xxxxx"},
	{"no scheme", "bob:s3cr3t@host:5432/db", "unsupported database", "bob:xxxxx@host:5432/db"},
}

// runEnv runs a command line in-process with the environment getenv.
func runEnv(getenv func(string) string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: getenv})
	return code, out.String(), errb.String()
}

// TestMalformedDBHidesPassword: every command that takes a database refuses
// a malformed location as a usage error that says what is wrong and shows
// the location redacted, its password nowhere in stdout or stderr. (gen
// printed the whole URL whenever net/url refused it.)
func TestMalformedDBHidesPassword(t *testing.T) {
	for _, c := range malformedDBs {
		env := func(k string) string {
			if k == "GQLBENCH_DB" {
				return c.db
			}
			return ""
		}
		noEnv := func(string) string { return "" }
		for _, cmd := range []struct {
			getenv func(string) string
			args   []string
			from   string // what the message blames
		}{
			{noEnv, []string{"gen", "--db", c.db, "--quiet"}, "--db: "},
			{noEnv, []string{"queries", "--db", c.db, "--count"}, "--db: "},
			{noEnv, []string{"serve", "batch", "--db", c.db}, "--db: "},
			{env, []string{"serve", "batch"}, "$GQLBENCH_DB: "},
			{env, []string{"serve", "compiled", "--addr", "127.0.0.1:0"}, "$GQLBENCH_DB: "},
		} {
			code, stdout, stderr := runEnv(cmd.getenv, cmd.args...)
			what := c.name + ": " + strings.Join(cmd.args[:2], " ")
			if code != exitcode.Usage || !strings.Contains(stderr, cmd.from+c.reason) || !strings.Contains(stderr, c.shown) {
				t.Errorf("%s: exit %d, stderr %q; want exit %d, %q and %q", what, code, stderr, exitcode.Usage, cmd.from+c.reason, c.shown)
			}
			if strings.Contains(stdout+stderr, "s3cr3t") {
				t.Errorf("%s: the password reached the output:\n%s%s", what, stdout, stderr)
			}
		}
	}
}

// TestQuickstartMalformedDBHidesPassword: an experiment refuses a malformed
// --db before it starts anything, without its password.
func TestQuickstartMalformedDBHidesPassword(t *testing.T) {
	for _, c := range malformedDBs {
		code, stdout, stderr := run("quickstart", "--dir", t.TempDir(), "--db", c.db, "--quiet")
		if code == exitcode.OK || !strings.Contains(stderr, c.shown) {
			t.Errorf("%s: exit %d, stderr %q; want a failure that shows %q", c.name, code, stderr, c.shown)
		}
		if strings.Contains(stdout+stderr, "s3cr3t") {
			t.Errorf("%s: the password reached the output:\n%s%s", c.name, stdout, stderr)
		}
	}
}

// TestRedactArgs: the command line that experiments write into run files
// and reports keeps everything but the passwords.
func TestRedactArgs(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"quickstart", "--db", "postgres://u:s3cr3t@h/db", "--dir", "/tmp/a:b"}, []string{"quickstart", "--db", "postgres://u:xxxxx@h/db", "--dir", "/tmp/a:b"}},
		{[]string{"--db=postgres://u:s3cr3t@h/db"}, []string{"--db=postgres://u:xxxxx@h/db"}},
		{[]string{"-db", "host=h password=s3cr3t"}, []string{"-db", "host=h password=xxxxx"}},
		{[]string{"--db", "postgres://bob:s3cr3t@host:port/db"}, []string{"--db", "postgres://bob:xxxxx@host:port/db"}},
		{[]string{"--db=bob:s3cr3t"}, []string{"--db=bob:xxxxx"}},                                                              // no scheme, no host: all after ':'
		{[]string{"--db", "bob:s3cr3t", "--sf", "1"}, []string{"--db", "bob:xxxxx", "--sf", "1"}},                              // likewise
		{[]string{"--db", "postgres", "--seed", "3", "--dir", "r"}, []string{"--db", "postgres", "--seed", "3", "--dir", "r"}}, // nothing to hide
		{[]string{"--db=sqlite", "--variants", "naive,batch"}, []string{"--db=sqlite", "--variants", "naive,batch"}},
		{[]string{"load", "--target", "http://u:s3cr3t@h:4000/graphql?token=s3cr3t2&first=1", "-o", "run.jsonl"},
			[]string{"load", "--target", "http://u:xxxxx@h:4000/graphql?token=xxxxx&first=1", "-o", "run.jsonl"}},
		{[]string{"--reference=https://h/graphql?api_key=s3cr3t", "--db-statements", "host=h password=s3cr3t"},
			[]string{"--reference=https://h/graphql?api_key=xxxxx", "--db-statements", "host=h password=xxxxx"}},
		{[]string{"--target", "http://127.0.0.1:4000/graphql", "--schema", "schema.graphqls"}, []string{"--target", "http://127.0.0.1:4000/graphql", "--schema", "schema.graphqls"}},
	} {
		if got := redactArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("redactArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
