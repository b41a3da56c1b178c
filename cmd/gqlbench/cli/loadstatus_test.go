package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/hostile"
)

// TestCheckStatusReportsNoCorrectness: with status-only checks against a
// server whose answers are wrong, nothing claims correctness — no
// correct/s, goodput or wrong count in the terminal (progress and
// summary), in load show, or in the run file's JSON summary line; each
// says the answers were not checked.
func TestCheckStatusReportsNoCorrectness(t *testing.T) {
	dir := t.TempDir()
	bad := (&shop{wrongPrice: true}).start(t)
	q := shopQueries(t, dir, 5, false)
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", bad, "--queries", q, "--check", "status", "--duration", "300ms", "--runs", "1", "--interval", "100ms", "-o", out)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, show, _ := run("load", "show", out)
	if code != exitcode.OK {
		t.Fatalf("load show: exit %d", code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	summary := lines[len(lines)-1]
	for what, text := range map[string]string{"the terminal": stderr, "load show": show, "the summary line": summary} {
		for _, bad := range []string{"correct/s", "goodput", "wrong"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s says %q:\n%s", what, bad, text)
			}
		}
	}
	for what, text := range map[string]string{"the terminal": stderr, "load show": show} {
		if !strings.Contains(text, "answers not checked") {
			t.Errorf("%s does not say the answers were not checked:\n%s", what, text)
		}
	}
	if !strings.Contains(summary, `"check":"status"`) {
		t.Errorf("the summary line does not say how answers were checked: %s", summary)
	}
}

// TestErrorsSayWhatHappened: a server that answers 401 with a body that
// quotes the request's token: the terminal, the run file, load show and
// the report count the errors by kind and status with the body's start,
// and the token is in none of them.
func TestErrorsSayWhatHappened(t *testing.T) {
	const token = "tok-5ecret-0123456789"
	dir := t.TempDir()
	srv := hostile.Start(t, "unauthorized", 0)
	q := shopQueries(t, dir, 3, false)
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("load", "--target", srv.URL(), "--queries", q, "--check", "status", "--no-check", "--duration", "300ms",
		"--runs", "1", "--interval", "100ms", "-o", out, "--header", "Authorization: Bearer "+token)
	if code != exitcode.Check {
		t.Fatalf("exit %d, want a failed check: %s", code, stderr)
	}
	_, show, _ := run("load", "show", out)
	_, md, _ := run("report", out)
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"the terminal": stderr, "load show": show, "the report": md, "the run file": string(file)} {
		if strings.Contains(text, token) {
			t.Errorf("%s shows the token", what)
		}
		if !strings.Contains(text, "401") || !strings.Contains(text, "not authorized") {
			t.Errorf("%s does not say the errors were HTTP 401 with their body:\n%s", what, text)
		}
	}
}
