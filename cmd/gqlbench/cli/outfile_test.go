package cli

import (
	"github.com/gqlbench/gqlbench/internal/outfile/outfiletest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// These tests point every output flag at a character device made like
// /dev/null (mknod, as root: CI runs as root) and at a FIFO, and check
// after each command that the node is still what it was — a command that
// renamed a temporary file onto /dev/null broke every program of the
// machine that writes to it.

// stillCharDevice fails the test when p is no longer a character device.
func stillCharDevice(t *testing.T, p, after string) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("after %s, %s is no longer a character device (%v, %v)", after, p, fi.Mode(), err)
	}
}

// onlyEntries fails the test when dir holds other entries than names (no
// temporary file left, nothing made "beside" a device).
func onlyEntries(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var have []string
	for _, e := range entries {
		have = append(have, e.Name())
	}
	if strings.Join(have, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, have, names)
	}
}

// TestOutputsOntoADevice: every output flag pointed at a character device
// writes into it and leaves it a character device; an output that must be
// a directory or a database of its own is a clear error, the device left
// as it is; nothing is made beside it (NULL.failures, NULL.meta.json).
func TestOutputsOntoADevice(t *testing.T) {
	work := t.TempDir()
	devDir := t.TempDir()
	dev := outfiletest.NullDevice(t, devDir, "null")
	meta := writeTestMeta(t, work)
	url := graphqlServer(t)
	q := writeQueries(t, work, 2, "")
	wrong := filepath.Join(work, "wrong")
	os.Mkdir(wrong, 0o755)
	wrongQ := writeQueries(t, wrong, 1, strings.Repeat("ab", 32))
	runFile := filepath.Join(work, "run.jsonl")
	if code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "100ms", "--runs", "1", "--quiet", "-o", runFile); code != exitcode.OK {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"queries", "--meta", meta, "--per-template", "1", "--templates", "3", "-o", dev}, exitcode.OK},
		{[]string{"gen", "--sf", "1", "--format", "sql-postgres", "-o", dev, "--quiet"}, exitcode.OK},
		{[]string{"gen", "--sf", "1", "--db", "sqlite:" + filepath.Join(work, "x.db"), "--meta", dev, "--quiet"}, exitcode.OK},
		{[]string{"load", "--target", url, "--queries", q, "--duration", "100ms", "--runs", "1", "--quiet",
			"-o", dev, "--records", dev, "--cpuprofile", dev, "--exectrace", dev}, exitcode.OK},
		{[]string{"load", "--target", url, "--queries", wrongQ, "--duration", "100ms", "--runs", "1", "--quiet", "-o", dev}, exitcode.Check},
		{[]string{"load", "merge", runFile, "-o", dev}, exitcode.OK},
		{[]string{"report", runFile, "--format", "md", "-o", dev}, exitcode.OK},
		{[]string{"record", "--target", url, "--queries", q, "-o", dev, "--quiet"}, exitcode.OK},
		{[]string{"tasks", "--meta", meta, "--sets", "lingbm", "--per-template", "1", "-o", dev}, exitcode.OK},
	} {
		code, _, stderr := run(c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, stderr)
		}
		stillCharDevice(t, dev, strings.Join(c.args[:2], " "))
	}
	onlyEntries(t, devDir, "null")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--sf", "1", "--db", "sqlite:" + dev, "--quiet"}, "must be a regular file"},
		{[]string{"serve", "batch", "--db", "sqlite:" + dev, "--addr", "127.0.0.1:0"}, "must be a regular file"},
		{[]string{"gen", "--sf", "1", "--format", "csv", "-o", dev, "--quiet"}, "character device"},
		{[]string{"gen", "--sf", "1", "--db", "sqlite:" + filepath.Join(work, "y.db"), "--values", dev, "--quiet"}, "character device"},
		{[]string{"queries", "--meta", meta, "--per-template", "1", "--lingbm-out", dev}, "character device"},
		{[]string{"experiment", "fake", "--its-flag", "x", "--dir", dev}, "character device"},
	} {
		code, _, stderr := run(c.args...)
		if code == exitcode.OK || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a failure saying %q", c.args, code, stderr, c.want)
		}
		stillCharDevice(t, dev, strings.Join(c.args[:2], " "))
	}
	onlyEntries(t, devDir, "null")
}

// TestOutputsIntoAFIFO: a FIFO named by an output flag gets the output, as
// another program reading the pipe would, and stays a FIFO.
func TestOutputsIntoAFIFO(t *testing.T) {
	work, pipes := t.TempDir(), t.TempDir()
	meta := writeTestMeta(t, work)
	url := graphqlServer(t)
	q := writeQueries(t, work, 2, "")

	p, got := outfiletest.FIFO(t, pipes, "queries")
	if code, _, stderr := run("queries", "--meta", meta, "--per-template", "1", "--templates", "3", "-o", p); code != exitcode.OK {
		t.Fatalf("queries: exit %d: %s", code, stderr)
	}
	if s := got(); !strings.Contains(s, `"template":"QT3"`) && !strings.Contains(s, `"QT3"`) {
		t.Errorf("the reader of the queries FIFO got %q", s)
	}

	p, got = outfiletest.FIFO(t, pipes, "meta")
	if code, _, stderr := run("gen", "--sf", "1", "--db", "sqlite:"+filepath.Join(work, "x.db"), "--meta", p, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen --meta: exit %d: %s", code, stderr)
	}
	if s := got(); !strings.Contains(s, `"scale"`) && !strings.Contains(s, "Scale") {
		t.Errorf("the reader of the metadata FIFO got %.200q", s)
	}

	p, got = outfiletest.FIFO(t, pipes, "run")
	if code, _, stderr := run("load", "--target", url, "--queries", q, "--duration", "100ms", "--runs", "1", "--quiet", "-o", p); code != exitcode.OK {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
	if s := got(); !strings.Contains(s, `"summary"`) {
		t.Errorf("the reader of the run FIFO got no summary line: %.300q", s)
	}

	p, got = outfiletest.FIFO(t, pipes, "dump")
	if code, _, stderr := run("gen", "--sf", "1", "--format", "sql-postgres", "-o", p, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen --format: exit %d: %s", code, stderr)
	}
	if s := got(); !strings.HasPrefix(s, "-- gqlbench dataset: generator") || !strings.Contains(s[:200], "seed 0, scale 1") {
		t.Errorf("the reader of the dump FIFO got %.200q", s)
	}
	onlyEntries(t, pipes, "dump", "meta", "queries", "run")
}
