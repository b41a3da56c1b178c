package cli

import (
	"bytes"
	"context"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/exitcode"
)

// run runs a command line in-process and returns its exit code and streams.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func TestGenSQLiteWithMetaAndValues(t *testing.T) {
	dir := t.TempDir()
	db, meta, values := filepath.Join(dir, "x.db"), filepath.Join(dir, "m.json"), filepath.Join(dir, "values")
	code, _, stderr := run("gen", "--sf", "1", "--seed", "4", "--db", "sqlite:"+db, "--meta", meta, "--values", values, "--quiet")
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(meta)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := dataset.ReadMeta(f)
	if err != nil || m.Seed != 4 || m.Scale != 1 {
		t.Fatalf("metadata: %+v, %v", m, err)
	}
	if _, err := os.Stat(filepath.Join(values, "lecturerID.txt")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stderr, "rows into sqlite:") {
		t.Errorf("no summary on stderr: %q", stderr)
	}
}

func TestGenFileFormats(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"sql-postgres", "sql-mysql", "ntriples", "csv"} {
		out := filepath.Join(dir, "out-"+format)
		code, _, stderr := run("gen", "--sf", "1", "--format", format, "-o", out, "--quiet")
		if code != exitcode.OK {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		if _, err := os.Stat(out + ".meta.json"); err != nil {
			t.Errorf("%s: no metadata next to the output: %v", format, err)
		}
	}
}

// TestGenBadInput: every mistake gets its exit code and a message that names it.
func TestGenBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"zero scale", []string{"gen", "--sf", "0", "--db", "sqlite:x.db"}, exitcode.Usage, "positive integer"},
		{"negative scale", []string{"gen", "--sf", "-3", "--db", "sqlite:x.db"}, exitcode.Usage, "positive integer"},
		{"fractional scale", []string{"gen", "--sf", "1.5", "--db", "sqlite:x.db"}, exitcode.Usage, "positive integer"},
		{"no target", []string{"gen", "--sf", "1"}, exitcode.Usage, "say where"},
		{"both targets", []string{"gen", "--db", "sqlite:x.db", "--format", "ntriples", "-o", "x"}, exitcode.Usage, "not both"},
		{"format without -o", []string{"gen", "--format", "ntriples"}, exitcode.Usage, "-o"},
		{"unknown format", []string{"gen", "--format", "xml", "-o", filepath.Join(dir, "x")}, exitcode.Usage, "xml"},
		{"unknown database", []string{"gen", "--db", "mysql://u:secret@h/db"}, exitcode.Usage, "--db: unsupported database"},
		{"stray argument", []string{"gen", "--db", "sqlite:x.db", "extra"}, exitcode.Usage, "unexpected argument"},
		{"unwritable output", []string{"gen", "--format", "ntriples", "-o", filepath.Join(dir, "missing", "x.nt")}, exitcode.Failure, "missing"},
		{"unwritable database", []string{"gen", "--db", "sqlite:" + filepath.Join(dir, "missing", "x.db")}, exitcode.Failure, "cannot write"},
		{"unreachable PostgreSQL", []string{"gen", "--db", "postgres://u:secret@127.0.0.1:1/db", "--quiet"}, exitcode.Failure, "connection refused"},
		{"unknown command", []string{"generate"}, exitcode.Usage, "unknown command"},
		{"pg without subcommand", []string{"pg"}, exitcode.Usage, "missing subcommand"},
		{"pg unknown subcommand", []string{"pg", "launch"}, exitcode.Usage, "unknown subcommand"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := run(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
			if strings.Contains(stderr, "secret") {
				t.Errorf("a password reached stderr: %q", stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := run("help")
	if code != exitcode.OK || !strings.Contains(stdout, "gen ") || !strings.Contains(stdout, "Exit codes") {
		t.Errorf("help: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = run("gen", "--help")
	if code != exitcode.OK || !strings.Contains(stdout, "--sf N") || !strings.Contains(stdout, "-no-indexes") {
		t.Errorf("gen --help: exit %d\n%s", code, stdout)
	}
}

// TestPgLifecycle drives the local PostgreSQL through the CLI: start prints
// a URL that gen can load into, status, stop, destroy.
func TestPgLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pg")
	code, url, stderr := run("pg", "start", "--dir", dir)
	if code != exitcode.OK || !strings.HasPrefix(url, "postgres://") {
		t.Fatalf("pg start: exit %d, %q, %s", code, url, stderr)
	}
	t.Cleanup(func() { run("pg", "destroy", "--dir", dir) })
	code, dbURL, stderr := run("pg", "createdb", "cli_test", "--dir", dir)
	if code != exitcode.OK {
		t.Fatalf("pg createdb: exit %d: %s", code, stderr)
	}
	code, _, stderr = run("gen", "--sf", "1", "--db", strings.TrimSpace(dbURL), "--quiet")
	if code != exitcode.OK {
		t.Fatalf("gen into the local PostgreSQL: exit %d: %s", code, stderr)
	}
	if u, err := neturl.Parse(strings.TrimSpace(dbURL)); err != nil {
		t.Errorf("pg createdb printed %q: %v", dbURL, err)
	} else if pw, _ := u.User.Password(); pw == "" || strings.Contains(stderr, pw) || !strings.Contains(stderr, "rows into postgres://postgres:xxxxx@") {
		t.Errorf("gen's summary names the database with its password, or not at all: %s", stderr)
	}
	if code, out, _ := run("pg", "status", "--dir", dir); code != exitcode.OK || !strings.HasPrefix(out, "running") {
		t.Errorf("pg status: exit %d, %q", code, out)
	}
	if code, out, _ := run("pg", "url", "--dir", dir); code != exitcode.OK || out != url {
		t.Errorf("pg url: exit %d, %q, want %q", code, out, url)
	}
	if code, _, stderr := run("pg", "stop", "--dir", dir); code != exitcode.OK {
		t.Errorf("pg stop: exit %d: %s", code, stderr)
	}
	if code, out, _ := run("pg", "status", "--dir", dir); code != exitcode.OK || !strings.HasPrefix(out, "stopped") {
		t.Errorf("pg status after stop: %q", out)
	}
	if code, _, stderr := run("pg", "destroy", "--dir", dir); code != exitcode.OK {
		t.Errorf("pg destroy: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run("pg", "url", "--dir", dir); code != exitcode.Failure || !strings.Contains(stderr, "pg start") {
		t.Errorf("pg url after destroy: exit %d: %s", code, stderr)
	}
}

// TestGenTrigram: --trigram puts pg_trgm's indexes into PostgreSQL's DDL and
// is a usage error where there is no PostgreSQL.
func TestGenTrigram(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "dump.sql")
	if code, _, stderr := run("gen", "--sf", "1", "--format", "sql-postgres", "-o", out, "--trigram", "--quiet"); code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "CREATE EXTENSION IF NOT EXISTS pg_trgm") || !strings.Contains(string(b), "gin_trgm_ops") {
		t.Error("the sql-postgres dump has no trigram indexes")
	}
	for _, args := range [][]string{
		{"--db", "sqlite:" + filepath.Join(dir, "x.db")},
		{"--format", "ntriples", "-o", filepath.Join(dir, "x.nt")},
	} {
		code, _, stderr := run(append([]string{"gen", "--sf", "1", "--trigram", "--quiet"}, args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, "PostgreSQL") {
			t.Errorf("%v: exit %d, %q; want a usage error naming PostgreSQL", args, code, stderr)
		}
	}
}
