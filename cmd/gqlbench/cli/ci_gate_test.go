package cli

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
)

// workflowCommands returns the gqlbench command lines of docs/ci.md's
// workflow, in order, as written.
func workflowCommands(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n")
	yaml, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/ci.md has no yaml block")
	}
	var out []string
	for _, l := range strings.Split(yaml, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "gqlbench ") {
			out = append(out, l)
		}
	}
	return out
}

// shellWords splits a command line as sh would for the forms the workflow
// uses: words, "double" and 'single' quotes, $VAR and ${VAR} outside single
// quotes (from env), a trailing & (background: said by the second result).
func shellWords(t *testing.T, line string, env map[string]string) ([]string, bool) {
	t.Helper()
	line = strings.TrimSpace(line)
	bg := strings.HasSuffix(line, "&")
	line = strings.TrimSpace(strings.TrimSuffix(line, "&"))
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == 0 && c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		case quote == 0 && (c == '"' || c == '\''):
			quote, inWord = c, true
			continue
		case quote != 0 && c == quote:
			quote = 0
			continue
		case c == '$' && quote != '\'':
			j := i + 1
			brace := j < len(line) && line[j] == '{'
			if brace {
				j++
			}
			k := j
			for k < len(line) && (line[k] == '_' || line[k] >= 'A' && line[k] <= 'Z' || line[k] >= '0' && line[k] <= '9') {
				k++
			}
			v, ok := env[line[j:k]]
			if !ok {
				t.Fatalf("docs/ci.md: %s uses $%s, which the test does not set", line, line[j:k])
			}
			cur.WriteString(v)
			if brace {
				k++
			}
			i, inWord = k-1, true
			continue
		}
		cur.WriteByte(c)
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, bg
}

// TestCIGate runs docs/ci.md's workflow as written, on tiny settings: the
// baseline it records passes the gate, and a server with wrong answers
// fails both the load and the gate.
func TestCIGate(t *testing.T) {
	lines := workflowCommands(t)
	byCmd := map[string][]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		byCmd[f[1]] = append(byCmd[f[1]], l)
	}
	if len(byCmd["gen"]) != 1 || len(byCmd["queries"]) != 1 || len(byCmd["serve"]) != 1 || len(byCmd["load"]) != 1 || len(byCmd["report"]) != 2 {
		t.Fatalf("docs/ci.md's workflow: want one gen, queries, serve, load and two reports, got %q", lines)
	}
	gate, check := byCmd["report"][0], byCmd["report"][1]
	if !strings.Contains(gate, "--baseline") || strings.Contains(check, "--baseline") {
		t.Fatalf("docs/ci.md: the first report is the gate, the second checks a new baseline: %q, %q", gate, check)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	env := map[string]string{"SF": "1", "PER_TEMPLATE": "2", "DB": "sqlite:bench.db", "ADDR": addr, "CLIENTS": "2", "DURATION": "300ms", "RUNS": "3"}
	sh := func(line string, want int) string {
		t.Helper()
		args, bg := shellWords(t, line, env)
		if bg {
			t.Fatalf("%s runs in the background", line)
		}
		code, _, stderr := run(args[1:]...)
		if code != want {
			t.Fatalf("%s: exit %d, want %d: %s", line, code, want, stderr)
		}
		return stderr
	}
	serve := func() *exec.Cmd {
		t.Helper()
		args, bg := shellWords(t, byCmd["serve"][0], env)
		if !bg {
			t.Fatal("docs/ci.md: the server does not run in the background")
		}
		cmd, _ := startChild(t, args[1:]...)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) { // the workflow's curl --retry
			if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
				r.Body.Close()
				if r.StatusCode == http.StatusOK {
					return cmd
				}
			}
			if time.Now().After(deadline) {
				t.Fatal("the server did not come up")
			}
		}
	}
	stop := func(cmd *exec.Cmd) {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}

	// The baseline, recorded as the workflow's main-branch run does.
	sh(byCmd["gen"][0], exitcode.OK)
	sh(byCmd["queries"][0], exitcode.OK)
	srv := serve()
	sh(byCmd["load"][0], exitcode.OK)
	sh(check, exitcode.OK)
	if err := os.MkdirAll("bench", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename("change.jsonl", filepath.Join("bench", "baseline.jsonl")); err != nil { // the commit of the artifact
		t.Fatal(err)
	}
	// The same run file against itself: nothing to fail.
	if err := os.Link(filepath.Join("bench", "baseline.jsonl"), "change.jsonl"); err != nil {
		t.Fatal(err)
	}
	sh(gate, exitcode.OK)
	stop(srv)

	// A server whose data are not the queries' dataset: wrong answers.
	if code, _, stderr := run("gen", "--sf", "1", "--seed", "3", "--db", "sqlite:wrong.db", "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	env["DB"] = "sqlite:wrong.db"
	os.Remove("change.jsonl")
	srv = serve()
	defer stop(srv)
	sh(byCmd["load"][0], exitcode.Check)
	if _, err := os.Stat("change.jsonl.failures"); err != nil { // the artifact the workflow uploads
		t.Errorf("no failures beside the run file: %v", err)
	}
	if out := sh(gate, exitcode.Check); !strings.Contains(out, "report: FAIL") || !strings.Contains(out, "wrong") {
		t.Errorf("the gate on wrong answers says: %s", out)
	}
}
