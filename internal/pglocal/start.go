package pglocal

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gqlbench/gqlbench/internal/outfile"
)

// Start starts the cluster in o.Dir and returns it, creating it if needed.
// It is idempotent: if the cluster recorded in the state directory is
// running, Start returns it; if it exists but is stopped, Start starts it;
// otherwise Start creates it with initdb (UTF8, locale C, superuser
// "postgres" with a random password, scram-sha-256 over TCP, trust on the
// Unix socket). Start returns once the server accepts connections, and
// records the cluster in the state file Dir/cluster.json. Concurrent calls
// for the same directory take turns. If o.Port is set and the cluster already
// runs on another port, Start fails rather than restart it.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	dir, err := resolveDir(o.Dir)
	if err != nil {
		return nil, err
	}
	if o.Port < 0 || o.Port > 65535 {
		return nil, fmt.Errorf("port %d is out of range", o.Port)
	}
	bins, err := findBinaries()
	if err != nil {
		return nil, err
	}
	r, err := newRunner()
	if err != nil {
		return nil, err
	}
	if err := bins.checkVersion(ctx); err != nil {
		return nil, err
	}
	perm := fs.FileMode(0o700)
	if r.asRoot() {
		perm = 0o711 // let pgUser through to the data directory
	}
	if err := outfile.CheckDir(dir); err != nil { // a device or a file named by --dir is left alone
		return nil, fmt.Errorf("the directory of the local PostgreSQL: %w", err)
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return nil, fmt.Errorf("creating the directory of the local PostgreSQL: %w", err)
	}
	unlock, err := lockDir(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	defer unlock()

	c, err := readState(dir)
	switch {
	case err == nil && isDataDir(c.DataDir):
		if err := c.resume(ctx, r, bins, o); err != nil {
			return nil, err
		}
		return c, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		logf(o.Log, "ignoring the state file: %v", err)
	}
	return create(ctx, dir, r, bins, o)
}

// resume returns with c running: as it is, or started.
func (c *Cluster) resume(ctx context.Context, r *runner, bins *binaries, o Options) error {
	if !c.running(ctx, r, bins) {
		return c.start(ctx, r, bins, o)
	}
	port, ok := pidFilePort(c.DataDir)
	if !ok {
		port = c.Port
	}
	if o.Port != 0 && o.Port != port {
		return fmt.Errorf("the local PostgreSQL in %s already runs on port %d, not %d: stop it first (`gqlbench pg stop`)", c.Dir, port, o.Port)
	}
	if port != c.Port {
		c.Port = port
		if err := c.writeState(); err != nil {
			return err
		}
	}
	logf(o.Log, "already running on port %d", port)
	return nil
}

// create creates and starts a new cluster with state directory dir.
func create(ctx context.Context, dir string, r *runner, bins *binaries, o Options) (*Cluster, error) {
	dataDir, err := newDataDir(dir, r)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, DataDir: dataDir, User: superuser, Password: randomPassword()}
	if isDataDir(dataDir) {
		// Left over without a usable state file, so nobody knows its password.
		logf(o.Log, "removing %s: a data directory without a state file", dataDir)
		if err := c.stop(ctx, r, bins); err != nil {
			return nil, err
		}
		if err := os.RemoveAll(dataDir); err != nil {
			return nil, err
		}
	}
	if base := c.base(); base != dir {
		if err := r.mkdirOwned(base); err != nil {
			return nil, err
		}
	}
	if err := r.mkdirOwned(dataDir); err != nil {
		return nil, err
	}
	if err := c.initdb(ctx, r, bins, o); err != nil {
		return nil, err
	}
	// Record the cluster before starting it, so that its password survives
	// a failed start.
	if c.Port = o.Port; c.Port == 0 {
		if c.Port, err = freePort(); err != nil {
			return nil, err
		}
	}
	if err := c.writeState(); err != nil {
		return nil, err
	}
	if err := c.start(ctx, r, bins, o); err != nil {
		return nil, err
	}
	return c, nil
}

// initdb creates the cluster's data directory.
func (c *Cluster) initdb(ctx context.Context, r *runner, bins *binaries, o Options) error {
	pwfile := filepath.Join(c.base(), "initdb.pw")
	if err := r.createOwned(pwfile, c.Password+"\n"); err != nil {
		return fmt.Errorf("writing the password file for initdb: %w", err)
	}
	defer os.Remove(pwfile)
	logf(o.Log, "initdb -D %s", c.DataDir)
	out, err := r.run(ctx, c.base(), false, bins.initdb,
		"-D", c.DataDir, "-U", c.user(), "--pwfile="+pwfile,
		"-E", "UTF8", "--locale=C",
		"--auth-host=scram-sha-256", "--auth-local=trust")
	if err != nil {
		return fmt.Errorf("initdb -D %s failed (%v):\n%s", c.DataDir, err, lastLines(out, 20))
	}
	return nil
}

// randomPassword returns a random password that needs no escaping in a URL.
func randomPassword() string { return rand.Text() }
