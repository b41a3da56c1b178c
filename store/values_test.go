package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValuesWriterKeepsForeignDirectory: a values directory replaces only
// an empty directory or an earlier values directory; a directory holding
// anything else (a home directory named by mistake) is an error, and left
// whole.
func TestValuesWriterKeepsForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "notes.txt")
	os.WriteFile(own, []byte("mine\n"), 0o644)
	if w, err := NewValuesWriter(dir); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		if w != nil {
			w.Abort()
		}
		t.Fatalf("NewValuesWriter(a foreign directory) = %v, want an error naming notes.txt", err)
	}
	if b, err := os.ReadFile(own); err != nil || string(b) != "mine\n" {
		t.Fatalf("the foreign file is gone or changed: %q, %v", b, err)
	}
	earlier := filepath.Join(t.TempDir(), "values")
	os.Mkdir(earlier, 0o755)
	os.WriteFile(filepath.Join(earlier, "professorID.txt"), []byte("1\n"), 0o644)
	w, err := NewValuesWriter(earlier)
	if err != nil {
		t.Fatalf("an earlier values directory is refused: %v", err)
	}
	w.Abort()
}
