package pglocal

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// EnvDir is the environment variable that overrides the default state
// directory.
const EnvDir = "GQLBENCH_PG_DIR"

// Options for Start. Zero values mean defaults.
type Options struct {
	// Dir is the state directory. Default: $GQLBENCH_PG_DIR, or
	// <os.UserCacheDir()>/gqlbench/pg (see DefaultDir).
	Dir string
	// Port is the TCP port to listen on, on 127.0.0.1 only. Default: the
	// port the cluster last used if it is still free, or else a free port
	// picked at start.
	Port int
	// Log receives progress lines ("initdb ...", "started on port N"). It may
	// be nil.
	Log io.Writer
}

// DefaultDir returns the state directory used when none is given:
// $GQLBENCH_PG_DIR if set, or else <os.UserCacheDir()>/gqlbench/pg.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return filepath.Abs(d)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no directory for the local PostgreSQL: %v; set %s", err, EnvDir)
	}
	return filepath.Join(cache, "gqlbench", "pg"), nil
}

// resolveDir returns dir as an absolute path, or DefaultDir if dir is empty.
func resolveDir(dir string) (string, error) {
	if dir == "" {
		return DefaultDir()
	}
	return filepath.Abs(dir)
}

// logf writes one progress line to w, if w is not nil.
func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
