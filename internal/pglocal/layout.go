package pglocal

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// relocatedPrefix starts the names of the directories under os.TempDir that
// hold the data directory when pgUser cannot enter the state directory.
const relocatedPrefix = "gqlbench-pg-"

// socketPrefix starts the names of the socket directories under os.TempDir
// used when the data directory's path cannot hold the server's socket.
const socketPrefix = "gqlbench-pgsock-"

// maxSocketDir is the longest socket directory: a socket's path, such as
// DIR/.s.PGSQL.65535, must fit in 107 bytes.
const maxSocketDir = 107 - len("/.s.PGSQL.65535")

// plainPath matches paths that need no quoting as a socket directory.
var plainPath = regexp.MustCompile(`^[A-Za-z0-9/._+-]+$`)

// newDataDir returns where a new cluster with state directory dir keeps its
// data: dir/data, unless the user PostgreSQL runs as cannot enter dir; then
// a directory of that user's under os.TempDir, named after dir.
func newDataDir(dir string, r *runner) (string, error) {
	if !r.asRoot() || traversable(dir, r.uid, r.gid) {
		return filepath.Join(dir, "data"), nil
	}
	tmp := os.TempDir()
	if !traversable(tmp, r.uid, r.gid) {
		return "", fmt.Errorf("user %s can enter neither %s nor %s: set %s to a directory it can enter", pgUser, dir, tmp, EnvDir)
	}
	return filepath.Join(tmp, relocatedPrefix+shortHash(dir), "data"), nil
}

// socketDir returns the directory for the server's Unix socket: the data
// directory itself, unless its path is too long or unusual to hold one.
func socketDir(dataDir string) string {
	if len(dataDir) <= maxSocketDir && plainPath.MatchString(dataDir) {
		return dataDir
	}
	return filepath.Join(os.TempDir(), socketPrefix+shortHash(dataDir))
}

// shortHash returns a short hex digest of s, to name directories after it.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// isDataDir reports whether dir is an initialized data directory.
func isDataDir(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, "PG_VERSION"))
	return err == nil
}

// isEmptyDir reports whether dir is missing or empty.
func isEmptyDir(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return os.IsNotExist(err)
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
}

// pidFilePort returns the port recorded in the data directory's
// postmaster.pid, whose fourth line is the port.
func pidFilePort(dataDir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	return port, err == nil && port > 0
}

// fileSize returns the size of the file at path, or 0.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// tailFile returns the last n lines of the file at path from byte offset
// from on, reading at most its last 64 KiB.
func tailFile(path string, from int64, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	defer f.Close()
	if size := fileSize(path); size-from > 64<<10 {
		from = size - 64<<10
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return lastLines(string(b), n)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
