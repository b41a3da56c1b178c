package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, show, _ := run("load", "show", out)
	if code != ExitOK {
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
