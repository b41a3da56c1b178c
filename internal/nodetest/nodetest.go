// Package nodetest lets Go tests use the Node fixtures in its testdata
// directory, one npm project (package.json, a committed package-lock.json
// with every version pinned):
//
//   - yoga.mjs, a GraphQL server gqlbench did not write (graphql-yoga, a
//     bookshop schema): StartYoga;
//   - audit.mjs, graphql-http's GraphQL-over-HTTP server audits: Audit.
//
// Ensure finds node and npm and installs the project's dependencies when
// they are missing or older than its lock file. Without Node a test skips
// and says why, except when the environment variable CI is set: CI must run
// every test, so there it fails (.ci/run installs Node).
//
// The package has no test-only files so that other packages' tests can
// import it; nothing outside tests should.
package nodetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/internal/flock"
)

// minNodeMajor is the oldest Node the fixtures run on (graphql-yoga's
// engines; package.json's overrides keep every dependency there).
const minNodeMajor = 18

// installTimeout bounds npm ci.
const installTimeout = 10 * time.Minute

// Dir returns the directory of the Node fixtures: this package's testdata.
func Dir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		return filepath.Join(filepath.Dir(file), "testdata")
	}
	// Built with -trimpath: find the module root from the working directory,
	// which go test sets to the package under test.
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "internal", "nodetest", "testdata")
		}
		if d == filepath.Dir(d) {
			return filepath.Join(dir, "testdata")
		}
	}
}

// setup is the outcome of the first Ensure in this process, shared by the
// others: npm ci runs at most once per test binary.
var setup struct {
	sync.Mutex
	done bool
	node string // the node binary
	err  error  // why the fixtures cannot run
}

// Ensure makes the Node fixtures ready: node on PATH, at least version 18,
// and the dependencies installed (npm ci, when node_modules is missing or
// older than package.json or package-lock.json; test binaries of several
// packages take turns through a lock file). When they cannot be made ready it
// skips t, or fails it when CI is set.
func Ensure(t testing.TB) {
	t.Helper()
	if _, err := ensure(); err != nil {
		skipOrFail(t, err)
	}
}

// ensure is Ensure without t: it returns the node binary.
func ensure() (string, error) {
	setup.Lock()
	defer setup.Unlock()
	if !setup.done {
		setup.node, setup.err = prepare()
		setup.done = true
	}
	return setup.node, setup.err
}

// skipOrFail ends t because the Node fixtures cannot run.
func skipOrFail(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%v (CI is set, and CI must run the Node fixtures: .ci/run installs Node and runs npm ci in %s)", err, Dir())
	}
	t.Skipf("%v", err)
}

// prepare finds node and installs the dependencies if needed.
func prepare() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("node is not installed (the Node fixtures of internal/nodetest need Node %d or later and npm): %w", minNodeMajor, err)
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", node, err)
	}
	version := strings.TrimSpace(string(out))
	if major, ok := nodeMajor(version); !ok || major < minNodeMajor {
		return "", fmt.Errorf("node %s at %s is too old or unknown: the Node fixtures need Node %d or later", version, node, minNodeMajor)
	}
	if err := install(); err != nil {
		return "", err
	}
	return node, nil
}

// nodeMajor parses the major version out of node --version ("v20.11.1").
func nodeMajor(v string) (int, bool) {
	v, ok := strings.CutPrefix(v, "v")
	if !ok {
		return 0, false
	}
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	return n, err == nil
}

// installedMarker is the file npm writes into node_modules (its "hidden
// lockfile") when an install has finished: a node_modules that an
// interrupted install left behind has none, or an old one. So an npm ci run
// by hand or by .ci/run counts as well as Ensure's own.
const installedMarker = ".package-lock.json"

// install runs npm ci unless node_modules is up to date, holding the lock.
func install() error {
	dir := Dir()
	unlock, err := flock.Lock(filepath.Join(dir, ".install.lock"))
	if err != nil {
		return fmt.Errorf("locking the Node fixtures' install: %w", err)
	}
	defer unlock()
	if upToDate(dir) {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is not installed, and %s/node_modules is missing or out of date: %w", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm ci in %s: %w\n%s", dir, err, out.Bytes())
	}
	if !upToDate(dir) {
		return fmt.Errorf("npm ci in %s left node_modules/%s missing or older than the lock file", dir, installedMarker)
	}
	return nil
}

// upToDate says whether node_modules in dir was installed, completely, after
// the last change of package.json and package-lock.json.
func upToDate(dir string) bool {
	marker, err := os.Stat(filepath.Join(dir, "node_modules", installedMarker))
	if err != nil {
		return false
	}
	for _, name := range []string{"package.json", "package-lock.json"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.ModTime().After(marker.ModTime()) {
			return false
		}
	}
	return true
}
