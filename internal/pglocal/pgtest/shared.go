package pgtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gqlbench/gqlbench/internal/pglocal"
)

// dirPrefix starts the names of the shared clusters' temp dirs.
const dirPrefix = "gqlbench-pgtest-"

// ownerFile, in a shared cluster's temp dir, holds the test binary's pid.
const ownerFile = "owner.pid"

// The shared cluster, started once by sharedCluster.
var (
	startOnce sync.Once
	shared    *pglocal.Cluster
	sharedErr error
	sharedDir string
)

// sharedCluster starts the shared cluster on first use and returns it.
func sharedCluster() (*pglocal.Cluster, error) {
	startOnce.Do(func() {
		sweep()
		shared, sharedErr = startShared()
	})
	return shared, sharedErr
}

// startShared starts a cluster in a new temp dir.
func startShared() (*pglocal.Cluster, error) {
	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, err
	}
	sharedDir = dir
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		return nil, err
	}
	// When root, the postgres user must get through dir to the data directory.
	if err := os.Chmod(dir, 0o711); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return pglocal.Start(ctx, pglocal.Options{Dir: dir})
}

// shutdown stops and removes the shared cluster, if one was started.
func shutdown() error {
	if sharedDir == "" {
		return nil
	}
	err := destroy(sharedDir)
	sharedDir, shared = "", nil
	return err
}

// destroy stops and removes the cluster in the temp dir dir, and dir.
func destroy(dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var err error
	if c, oerr := pglocal.Open(dir); oerr == nil {
		err = c.Destroy(ctx)
	} else if !errors.Is(oerr, pglocal.ErrNoCluster) {
		err = oerr
	}
	return errors.Join(err, os.RemoveAll(dir))
}

// sweep removes the shared clusters left behind by test binaries that died
// before Main could remove them (killed, or timed out).
func sweep() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // just being created, or not ours
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || alive(pid) {
			continue
		}
		destroy(dir)
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, os.ErrPermission)
}
