package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A header file line over the scanner's limit is named by file, line and
// limit, not "bufio.Scanner: token too long"; its text is never shown.
func TestHeaderFileLineTooLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.txt")
	body := "X-One: 1\n# a comment\nAuthorization: Bearer " + strings.Repeat("s", 70<<10) + "\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := readHeaderFile(path)
	if err == nil {
		t.Fatal("a 70 KiB header line was accepted")
	}
	msg := err.Error()
	for _, want := range []string{path, "line 3", "64 KiB"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "token too long") || strings.Contains(msg, "sss") {
		t.Errorf("error %q: the scanner's words or the line's text", msg)
	}
}
