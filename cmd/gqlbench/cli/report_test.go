package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// reportFixtures are the report package's real run files.
func reportFixtures(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("../../../report/testdata/*.jsonl")
	if err != nil || len(paths) < 2 {
		t.Fatalf("no fixtures: %v", err)
	}
	return paths
}

// runStdin runs a command line with stdin as its standard input.
func runStdin(stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), Env{Args: args, Stdin: stdin, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// TestReportStdin: - reads a run file from standard input, so that
// `gqlbench load ... | gqlbench report -` works; the report is the one of the
// same file named on the command line, with the file called stdin.
func TestReportStdin(t *testing.T) {
	qt3, qt5 := "../../../report/testdata/batch-qt3.jsonl", "../../../report/testdata/naive-qt5.jsonl"
	data, err := os.ReadFile(qt3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		args       []string // after report --format json --quiet
		named      []string // the same with files for -
		stdinAfter string   // the file that - stands for
	}{
		{"alone", []string{"-"}, []string{qt3}, qt3},
		{"beside a file", []string{qt5, "-"}, []string{qt5, qt3}, qt3},
		{"as the baseline", []string{qt5, "--baseline", "-"}, []string{qt5, "--baseline", qt3}, qt3},
	} {
		t.Run(c.name, func(t *testing.T) {
			flags := []string{"report", "--format", "json", "--quiet"}
			code, want, stderr := run(append(flags, c.named...)...)
			if code != exitcode.OK {
				t.Fatalf("named: exit %d, %s", code, stderr)
			}
			code, got, stderr := runStdin(bytes.NewReader(data), append(flags, c.args...)...)
			if code != exitcode.OK {
				t.Fatalf("piped: exit %d, %s", code, stderr)
			}
			if want = strings.ReplaceAll(want, c.stdinAfter, "stdin"); got != want {
				t.Errorf("piped report differs from the named one:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestReportStdinMisuse: standard input can be read once, and what it holds
// must be a run file.
func TestReportStdinMisuse(t *testing.T) {
	qt3 := "../../../report/testdata/batch-qt3.jsonl"
	data, err := os.ReadFile(qt3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		stdin  io.Reader
		args   []string // after report --quiet
		code   int
		stderr []string // substrings of the error
	}{
		// Twice among the run files.
		{"twice", bytes.NewReader(data), []string{"-", "-"}, exitcode.Usage, []string{"standard input", "once"}},
		// Once as a run file and once as the baseline.
		{"run and baseline", bytes.NewReader(data), []string{"-", "--baseline", "-"}, exitcode.Usage, []string{"standard input", "once"}},
		// Nothing piped in: not a run file, and the error says where it looked.
		{"empty", strings.NewReader(""), []string{"-"}, exitcode.Failure, []string{"stdin", "no header"}},
		// A corrupt line is named as in a file.
		{"corrupt", strings.NewReader(strings.Replace(string(data), "\n", "\n{not json\n", 1)), []string{"-"}, exitcode.Failure, []string{"stdin", "line 2"}},
		// No standard input at all (an Env without one).
		{"no stdin", nil, []string{"-"}, exitcode.Failure, []string{"stdin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runStdin(c.stdin, append([]string{"report", "--quiet"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			for _, s := range c.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q lacks %q", stderr, s)
				}
			}
		})
	}
}

func TestReportFormats(t *testing.T) {
	files := reportFixtures(t)
	for format, prefix := range map[string]string{"html": "<!DOCTYPE html>", "md": "# gqlbench report", "csv": "series,mode,sf,", "json": "{\n  \"title\""} {
		code, stdout, stderr := run(append([]string{"report", "--format", format, "--quiet"}, files...)...)
		if code != exitcode.OK || !strings.HasPrefix(stdout, prefix) {
			t.Errorf("%s: exit %d, stdout %.80q, stderr %s", format, code, stdout, stderr)
		}
	}
	// Markdown on stdout by default; the summary on stderr.
	code, stdout, stderr := run(append([]string{"report"}, files...)...)
	if code != exitcode.OK || !strings.HasPrefix(stdout, "# gqlbench report") || !strings.Contains(stderr, "throughput/s") {
		t.Errorf("default: exit %d, stdout %.80q, stderr %s", code, stdout, stderr)
	}
}

func TestReportOutputExtension(t *testing.T) {
	files := reportFixtures(t)
	dir := t.TempDir()
	for ext, prefix := range map[string]string{".html": "<!DOCTYPE html>", ".csv": "series,", ".json": "{", ".md": "# "} {
		out := filepath.Join(dir, "report"+ext)
		// Flags after the files, -o in the middle.
		args := append([]string{"report", files[0], "-o", out}, files[1:]...)
		code, stdout, stderr := run(append(args, "--title", "T")...)
		data, err := os.ReadFile(out)
		if code != exitcode.OK || err != nil || !strings.HasPrefix(string(data), prefix) || stdout != "" || !strings.Contains(stderr, out) {
			t.Errorf("%s: exit %d, %v, file %.60q, stdout %.60q, stderr %s", ext, code, err, data, stdout, stderr)
		}
	}
	if code, _, stderr := run("report", files[0], "-o", filepath.Join(dir, "report.pdf")); code != exitcode.Usage || !strings.Contains(stderr, "--format") {
		t.Errorf("unknown extension: exit %d, %s", code, stderr)
	}
	if code, _, _ := run("report", files[0], "--format", "pdf"); code != exitcode.Usage {
		t.Errorf("unknown format: exit %d", code)
	}
	if code, _, _ := run("report"); code != exitcode.Usage {
		t.Errorf("no files: exit %d", code)
	}
}

func TestReportBadFiles(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.jsonl")
	code, _, stderr := run("report", missing)
	if code != exitcode.Failure || !strings.Contains(stderr, missing) {
		t.Errorf("missing file: exit %d, %s", code, stderr)
	}
	corrupt := filepath.Join(dir, "corrupt.jsonl")
	data, err := os.ReadFile(reportFixtures(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = "{not json\n"
	os.WriteFile(corrupt, []byte(strings.Join(lines, "")), 0o644)
	code, _, stderr = run("report", corrupt)
	if code != exitcode.Failure || !strings.Contains(stderr, corrupt) || !strings.Contains(stderr, "line 2") {
		t.Errorf("corrupt file: exit %d, %s", code, stderr)
	}
	code, _, stderr = run("report", reportFixtures(t)[0], "--baseline", missing)
	if code != exitcode.Failure || !strings.Contains(stderr, "baseline") || !strings.Contains(stderr, missing) {
		t.Errorf("missing baseline: exit %d, %s", code, stderr)
	}
}

func TestReportThresholds(t *testing.T) {
	files := reportFixtures(t)
	dir := t.TempDir()
	for _, bad := range []string{"speed>1", "wrong<1", "p99>soon", "regression>5"} {
		if code, _, stderr := run(append([]string{"report", "--fail-if", bad}, files...)...); code != exitcode.Usage || !strings.Contains(stderr, "--fail-if") {
			t.Errorf("%s: exit %d, %s", bad, code, stderr)
		}
	}
	// The fixtures have no wrong answers and no errors.
	if code, _, stderr := run(append([]string{"report", "--quiet", "--fail-if", "wrong>0,errors>0", "-o", filepath.Join(dir, "ok.md")}, files...)...); code != exitcode.OK {
		t.Errorf("wrong>0,errors>0: exit %d, %s", code, stderr)
	}
	// No query takes under a nanosecond: every template violates, and the
	// report is written all the same.
	out := filepath.Join(dir, "gate.html")
	code, _, stderr := run(append([]string{"report", "--quiet", "--fail-if", "p99>1ns", "-o", out}, files...)...)
	if code != exitcode.Check || !strings.Contains(stderr, "FAIL") || !strings.Contains(stderr, "p99>1ns") {
		t.Errorf("p99>1ns: exit %d, %s", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "<svg") {
		t.Errorf("the report was not written when the gate failed: %v", err)
	}
	// A file against itself as the baseline is no regression.
	qt3 := "../../../report/testdata/batch-qt3.jsonl"
	code, _, stderr = run("report", "--quiet", qt3, "--baseline", qt3, "--fail-if", "regression>5%")
	if code != exitcode.OK {
		t.Errorf("self as baseline: exit %d, %s", code, stderr)
	}
}
