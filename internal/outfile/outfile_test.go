package outfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/internal/outfile/outfiletest"
)

// isCharDevice says whether p is still a character device.
func isCharDevice(t *testing.T, p string) bool {
	t.Helper()
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func isFIFO(t *testing.T, p string) bool {
	t.Helper()
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

func writeHello(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }

// TestWriteFileDevice: a whole-file write onto a character device writes
// straight into it, and the device is still one; no temporary file is left.
func TestWriteFileDevice(t *testing.T) {
	dir := t.TempDir()
	dev := outfiletest.NullDevice(t, dir, "null")
	if err := outfile.WriteFile(dev, 0o644, writeHello); err != nil {
		t.Fatal(err)
	}
	if f, err := outfile.Open(dev, 0o644); err != nil {
		t.Fatal(err)
	} else {
		f.WriteString("x")
		f.Close()
	}
	if !isCharDevice(t, dev) {
		t.Fatal("the character device was replaced")
	}
	if _, ok := outfile.Beside(dev, ".meta.json"); ok {
		t.Error("Beside gave a place beside a device")
	}
	if err := outfile.CheckFile(dev, "an SQLite database"); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("CheckFile(device) = %v, want an error naming a device", err)
	}
	if err := outfile.Dir(dev); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("Dir(device) = %v, want an error naming a character device", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d entries in the directory, want the device alone", len(entries))
	}
}

// TestWriteFileFIFO: a FIFO gets the output and stays a FIFO, by WriteFile
// and by Open.
func TestWriteFileFIFO(t *testing.T) {
	dir := t.TempDir()
	p, read := outfiletest.FIFO(t, dir, "pipe")
	if err := outfile.WriteFile(p, 0o644, writeHello); err != nil {
		t.Fatal(err)
	}
	if got := read(); got != "hello\n" {
		t.Errorf("the reader got %q", got)
	}
	if !isFIFO(t, p) {
		t.Fatal("the FIFO was replaced")
	}
	os.Remove(p)
	p, read = outfiletest.FIFO(t, dir, "pipe2")
	f, err := outfile.Open(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("line\n")
	f.Close()
	if got := read(); got != "line\n" || !isFIFO(t, p) {
		t.Errorf("Open: the reader got %q, FIFO kept %v", got, isFIFO(t, p))
	}
}

// TestWriteFileRegular: a regular file is replaced whole, a failed write
// leaves it as it was, a symbolic link keeps pointing at the new file.
func TestWriteFileRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := outfile.WriteFile(p, 0o600, writeHello); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "hello\n" {
		t.Fatalf("got %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	boom := errors.New("boom")
	err := outfile.WriteFile(p, 0o644, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "hello\n" {
		t.Errorf("a failed write changed the file: %q", b)
	}
	link := filepath.Join(dir, "link")
	os.Symlink("out.txt", link)
	if err := outfile.WriteFile(link, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced by a file")
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("the link's file holds %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries, want the file and the link (no temporary file left)", len(entries))
	}
}

// TestDirectoryWhereAFileIsExpected: a clear error, nothing touched.
func TestDirectoryWhereAFileIsExpected(t *testing.T) {
	dir := t.TempDir()
	for name, err := range map[string]error{
		"WriteFile": outfile.WriteFile(dir, 0o644, writeHello),
		"Open":      func() error { _, err := outfile.Open(dir, 0o644); return err }(),
		"CheckFile": outfile.CheckFile(dir, "an SQLite database"),
	} {
		if err == nil || !strings.Contains(err.Error(), "directory") {
			t.Errorf("%s(dir) = %v, want an error saying it is a directory", name, err)
		}
	}
	if err := outfile.Dir(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "a", "b")); err != nil || !fi.IsDir() {
		t.Error("Dir did not create the directory")
	}
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o644)
	if err := outfile.Dir(f); err == nil || !strings.Contains(err.Error(), "regular file") {
		t.Errorf("Dir(file) = %v", err)
	}
}
