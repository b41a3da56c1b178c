// Package outfiletest makes the special files that output paths are tested
// against: a character device like /dev/null and a FIFO read whole on a
// goroutine. Used by tests only; standard library only. Where the machine
// does not allow them (not root, a restricted container) the test skips,
// except under CI (CI set), which must run it.
package outfiletest

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// devNull is /dev/null's device number, major 1 minor 3, as Linux encodes
// it for mknod.
const devNull = 1<<8 | 3

// NullDevice makes a character device like /dev/null at dir/name.
func NullDevice(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, devNull); err != nil {
		cannot(t, "cannot make a character device with mknod (needs root; CI runs as root): %v", err)
	}
	return p
}

// FIFO makes a FIFO at dir/name and reads it whole on a goroutine; got
// waits for the reader and returns what it read, after checking that the
// path is still a FIFO.
func FIFO(t testing.TB, dir, name string) (path string, got func() string) {
	t.Helper()
	path = filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		cannot(t, "cannot make a FIFO: %v", err)
	}
	ch := make(chan string, 1)
	go func() {
		f, err := os.Open(path) // blocks until the writer opens
		if err != nil {
			ch <- "open: " + err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		ch <- string(b)
	}()
	return path, func() string {
		t.Helper()
		if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s is no longer a FIFO (%v)", path, err)
		}
		return <-ch
	}
}

func cannot(t testing.TB, format string, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format+" (CI is set: this test must run)", err)
	}
	t.Skipf(format, err)
}
