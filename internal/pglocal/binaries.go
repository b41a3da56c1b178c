package pglocal

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// minMajor is the oldest PostgreSQL release supported: DROP DATABASE ... WITH
// (FORCE) needs 13.
const minMajor = 13

// fallbackBinDirs are globs of directories searched, newest release first,
// when the binaries are not on PATH: Debian and Ubuntu install them outside
// PATH, and so do the PGDG packages for Red Hat systems.
var fallbackBinDirs = []string{"/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin"}

// errNoBinaries is the error when initdb and pg_ctl cannot be found.
var errNoBinaries = errors.New("PostgreSQL binaries (initdb, pg_ctl) not found on PATH: install PostgreSQL 13+ or pass --db postgres://...")

// binaries are the paths of the PostgreSQL programs used.
type binaries struct {
	initdb, pgCtl string
}

// findBinaries looks for initdb and pg_ctl on PATH, then in fallbackBinDirs.
func findBinaries() (*binaries, error) {
	initdb, err1 := exec.LookPath("initdb")
	pgCtl, err2 := exec.LookPath("pg_ctl")
	if err1 == nil && err2 == nil {
		return &binaries{initdb: initdb, pgCtl: pgCtl}, nil
	}
	for _, pattern := range fallbackBinDirs {
		dirs, _ := filepath.Glob(pattern)
		sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
		for _, d := range dirs {
			b := &binaries{initdb: filepath.Join(d, "initdb"), pgCtl: filepath.Join(d, "pg_ctl")}
			if isExecutable(b.initdb) && isExecutable(b.pgCtl) {
				return b, nil
			}
		}
	}
	return nil, errNoBinaries
}

// isExecutable reports whether path is an executable file.
func isExecutable(path string) bool {
	_, err := exec.LookPath(path)
	return err == nil
}

var versionRE = regexp.MustCompile(`(\d+)(?:\.\d+)*`)

// versionOf returns the first number in s, such as the major version in a
// directory name like /usr/lib/postgresql/15/bin, or 0.
func versionOf(s string) int {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// checkVersion fails unless pg_ctl is PostgreSQL minMajor or later.
func (b *binaries) checkVersion(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, b.pgCtl, "--version").Output()
	if err != nil {
		return fmt.Errorf("running %s --version: %v", b.pgCtl, err)
	}
	// "pg_ctl (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
	m := regexp.MustCompile(`\(PostgreSQL\)\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("cannot tell the PostgreSQL version from %s --version: %q", b.pgCtl, out)
	}
	if major, _ := strconv.Atoi(string(m[1])); major < minMajor {
		return fmt.Errorf("%s is PostgreSQL %d, but %d+ is needed: install a newer PostgreSQL or pass --db postgres://...", b.pgCtl, major, minMajor)
	}
	return nil
}
