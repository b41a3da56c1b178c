package cli

import (
	"bytes"
	"context"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
)

// The secrets of TestNoSecretInAnyOutput: long and unlike anything else in
// any output, so that finding one (or its percent-encoded form) anywhere is
// a leak.
const (
	testPassword = "Pw-S3cret-9f2"
	testToken    = "Tok-S3cret-7e1"
	testBearer   = "Bearer-S3cret-4c8"
)

// runCtx runs a command line in-process, cancelled after d (a server
// command that would serve forever), and returns its exit code and streams.
func runCtx(d time.Duration, args ...string) (code int, stdout, stderr string) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out, errb bytes.Buffer
	code = Run(ctx, Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// TestNoSecretInAnyOutput runs every command that takes a URL or a database
// location with a secret in every such flag — a password in the user part,
// a token in the query string, a password in a DSN, a bearer token in a
// header — against a server the test starts (the command succeeds, writing
// its files) or a refused port (it fails fast, with an error), and finds
// none of them in stdout, stderr or any file written under its directory:
// run files (argv, flag map, target, reference), failures, records,
// reports, golden files, experiment files.
func TestNoSecretInAnyOutput(t *testing.T) {
	dir := t.TempDir()
	srv := graphqlServer(t) // http://127.0.0.1:PORT/graphql
	u, _ := url.Parse(srv)
	target := "http://bob:" + testPassword + "@" + u.Host + "/graphql?token=" + testToken + "&x=1"
	refused := "http://bob:" + testPassword + "@127.0.0.1:1/graphql?api_key=" + testToken
	pgURL := "postgres://bob:" + testPassword + "@127.0.0.1:1/db?sslmode=disable"
	pgDSN := "host=127.0.0.1 port=1 user=bob password=" + testPassword + " dbname=db"
	q := writeQueries(t, dir, 2, "")
	wrong := filepath.Join(dir, "wrong")
	os.Mkdir(wrong, 0o755)
	wrongQ := writeQueries(t, wrong, 1, strings.Repeat("ab", 32))
	ops := opsFixture(t)
	out := func(name string) string { return filepath.Join(dir, name) }
	header := "Authorization: " + testBearer

	for _, c := range []struct {
		args []string
		ok   bool // the command succeeds; else it must fail
	}{
		// load: the run file's header (argv, flag map, target, reference), records, failures
		{[]string{"load", "--target", target, "--reference", target, "--queries", q, "--duration", "100ms", "--runs", "1",
			"--header", header, "-o", out("run.jsonl"), "--records", out("records.csv")}, true},
		{[]string{"load", "--target=" + target, "--queries", wrongQ, "--duration", "100ms", "--runs", "1", "-o", out("wrong.jsonl")}, false},
		{[]string{"load", "--target", target, "--queries", q, "--check", "status", "--duration", "100ms", "--runs", "1",
			"--db-statements", pgURL, "-o", out("stmts.jsonl")}, false},
		{[]string{"load", "--target", refused, "--queries", q, "--check", "status", "--duration", "100ms", "--runs", "1", "-o", out("refused.jsonl")}, false},
		{[]string{"load", "--target", target, "--reference", refused, "--queries", q, "--duration", "100ms", "--runs", "1", "-o", out("ref.jsonl")}, false},
		{[]string{"load", "--target", target, "--queries", q, "--duration", "100ms", "--runs", "1", "--quiet"}, true}, // the run file to stdout
		// what reads the run file back
		{[]string{"load", "show", out("run.jsonl")}, true},
		{[]string{"report", out("run.jsonl"), "-o", out("report.html")}, true},
		{[]string{"report", out("run.jsonl"), "--format", "json", "-o", out("report.json")}, true},
		{[]string{"report", out("run.jsonl")}, true},
		// record
		{[]string{"record", "--target", target, "--queries", q, "--header", header, "-o", out("golden.jsonl")}, true},
		{[]string{"record", "--target", refused, "--queries", q, "-o", out("golden2.jsonl")}, false},
		// queries: --schema URL, --db
		{[]string{"queries", "--ops", filepath.Join(ops, "ops"), "--vars", filepath.Join(ops, "vars.csv"), "--schema", target, "-o", out("ops.jsonl")}, false},
		{[]string{"queries", "--ops", filepath.Join(ops, "ops"), "--vars", filepath.Join(ops, "vars.csv"), "--schema", refused, "-o", out("ops2.jsonl")}, false},
		{[]string{"queries", "--db", pgURL, "--per-template", "1", "-o", out("q2.jsonl")}, false},
		{[]string{"queries", "--db", pgDSN, "--count"}, false},
		// gen, tasks, serve
		{[]string{"gen", "--sf", "1", "--db", pgURL, "--quiet"}, false},
		{[]string{"gen", "--sf", "1", "--db", pgDSN, "--quiet"}, false},
		{[]string{"gen", "--reset-writes", "--db", pgURL}, false},
		{[]string{"tasks", "--db", pgURL, "-o", out("tasks.jsonl")}, false},
		{[]string{"serve", "batch", "--db", pgURL, "--addr", "127.0.0.1:0"}, false},
		{[]string{"serve", "compiled", "--db=" + pgDSN, "--addr", "127.0.0.1:0"}, false},
		// experiments
		{[]string{"quickstart", "--db", pgURL, "--dir", out("qs"), "--quiet"}, false},
		{[]string{"experiment", "optimizations", "--quick", "--db", pgURL, "--dir", out("opt"), "--quiet"}, false},
		{[]string{"experiment", "fake", "--its-flag", "x", "--db", pgURL, "--dir", out("fake")}, true},
	} {
		name := strings.Join(c.args[:2], " ")
		code, stdout, stderr := runCtx(2*time.Minute, c.args...)
		if (code == exitcode.OK) != c.ok {
			t.Errorf("%v: exit %d (want success %v): %s", c.args, code, c.ok, stderr)
		}
		for _, s := range secretForms() {
			if strings.Contains(stdout, s) || strings.Contains(stderr, s) {
				t.Errorf("%s: %q reached the output:\nstdout: %.2000s\nstderr: %.2000s", name, s, stdout, stderr)
			}
		}
	}
	files := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		for _, s := range secretForms() {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds %q", path, s)
			}
		}
		return nil
	})
	for _, want := range []string{"run.jsonl", "records.csv", "wrong.jsonl", "report.html", "report.json", "golden.jsonl"} {
		if _, err := os.Stat(out(want)); err != nil {
			t.Errorf("%s was not written, so not checked: %v", want, err)
		}
	}
	if m, _ := filepath.Glob(out("wrong.jsonl.failures/*")); len(m) == 0 {
		t.Error("no failure file was written, so none was checked")
	}
	// the URL stays readable, its secrets hidden
	b, _ := os.ReadFile(out("run.jsonl"))
	if !strings.Contains(string(b), `"target":"http://bob:xxxxx@`+u.Host+`/graphql?token=xxxxx\u0026x=1"`) &&
		!strings.Contains(string(b), `"target":"http://bob:xxxxx@`+u.Host+`/graphql?token=xxxxx&x=1"`) {
		t.Errorf("the run file's target is not the redacted URL:\n%.1500s", b)
	}
	t.Logf("%d files checked", files)
}

// secretForms are the secrets as given and percent-encoded.
func secretForms() []string {
	var out []string
	for _, s := range []string{testPassword, testToken, testBearer} {
		out = append(out, s, url.QueryEscape(s), strings.ToLower(s))
	}
	return out
}

// TestShortSecretInMessage: a password too short to scrub alone (it would
// turn every message into xxxxx) is still hidden where a message quotes
// the URL as given.
func TestShortSecretInMessage(t *testing.T) {
	q := writeQueries(t, t.TempDir(), 1, "")
	code, stdout, stderr := run("load", "--target", "http://bob:pw1@127.0.0.1:1/graphql", "--queries", q, "--check", "status", "--duration", "100ms")
	if code != exitcode.Failure || !strings.Contains(stderr, "http://bob:xxxxx@127.0.0.1:1/graphql") || strings.Contains(stdout+stderr, "bob:pw1") {
		t.Errorf("exit %d, stderr %q; want a failure naming http://bob:xxxxx@127.0.0.1:1/graphql", code, stderr)
	}
}
