package pglocal

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serverSettings are passed to the server on every start: listen on loopback
// only, and suit a benchmark on a small (2-core) machine with room for many
// connections and few checkpoints. Durability stays on (fsync and
// synchronous_commit keep their defaults), so that results mean something.
var serverSettings = [][2]string{
	{"listen_addresses", "127.0.0.1"},
	{"shared_buffers", "256MB"},
	{"max_connections", "200"},
	{"max_wal_size", "4GB"},
	{"checkpoint_timeout", "30min"},
}

// waitSeconds bounds how long pg_ctl waits for the server to start or stop.
const waitSeconds = "120"

// serverArgs returns the options pg_ctl passes to the server (-o), which
// pg_ctl hands to a shell.
func serverArgs(port int, sockDir string, statStatements bool) string {
	args := []string{"-p", strconv.Itoa(port), "-k", shellQuote(sockDir)}
	for _, s := range serverSettings {
		args = append(args, "-c", s[0]+"="+s[1])
	}
	if statStatements {
		args = append(args, "-c", "shared_preload_libraries=pg_stat_statements")
	}
	return strings.Join(args, " ")
}

// hasStatStatements says whether the server of pgCtl has the
// pg_stat_statements module, which counts the statements every server sends
// (gqlbench load --db-statements): it is loaded when it is there.
func hasStatStatements(pgCtl string) bool {
	bin, err := filepath.EvalSymlinks(pgCtl)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(filepath.Dir(filepath.Dir(bin)), "lib", "pg_stat_statements.so"))
	return err == nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// start starts the stopped server of c, on o.Port, or else on the port it
// used last if that is free, or else on a free port; then records the port.
func (c *Cluster) start(ctx context.Context, r *runner, bins *binaries, o Options) error {
	sock := socketDir(c.DataDir)
	if sock != c.DataDir {
		if err := r.mkdirOwned(sock); err != nil {
			return err
		}
	}
	if err := r.touchOwned(c.logPath()); err != nil {
		return fmt.Errorf("creating the server log: %w", err)
	}
	port, auto := o.Port, o.Port == 0
	if auto {
		port = c.Port
		if port == 0 || !portFree(port) {
			var err error
			if port, err = freePort(); err != nil {
				return err
			}
		}
	}
	for attempt := 1; ; attempt++ {
		logf(o.Log, "pg_ctl start -D %s (port %d)", c.DataDir, port)
		logStart := fileSize(c.logPath())
		out, err := r.run(ctx, c.base(), true, bins.pgCtl, "start", "-D", c.DataDir, "-l", c.logPath(),
			"-w", "-t", waitSeconds, "-s", "-o", serverArgs(port, sock, hasStatStatements(bins.pgCtl)))
		if err == nil {
			break
		}
		tail := tailFile(c.logPath(), logStart, 20)
		if auto && attempt < 3 && strings.Contains(tail, "already in use") {
			// Another process took the port since it was picked.
			if port, err = freePort(); err == nil {
				continue
			}
		}
		return fmt.Errorf("pg_ctl start -D %s failed (%v): %s\nlast lines of %s:\n%s", c.DataDir, err, out, c.logPath(), tail)
	}
	c.Port = port
	if err := c.writeState(); err != nil {
		return err
	}
	logf(o.Log, "started on port %d", port)
	return nil
}

// Running reports whether the cluster's server is running.
func (c *Cluster) Running() bool {
	bins, err := findBinaries()
	if err != nil {
		return false
	}
	r, err := newRunner()
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.running(ctx, r, bins)
}

// running reports whether pg_ctl status finds the server running.
func (c *Cluster) running(ctx context.Context, r *runner, bins *binaries) bool {
	if !isDataDir(c.DataDir) {
		return false
	}
	return r.command(ctx, c.base(), false, bins.pgCtl, "status", "-D", c.DataDir).Run() == nil
}

// Stop stops the server (pg_ctl stop -m fast), which ends open connections.
// Stopping a stopped server is no error.
func (c *Cluster) Stop(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(c.DataDir, "postmaster.pid")); c.DataDir == "" || os.IsNotExist(err) {
		return nil // not running, and no need for the binaries to tell
	}
	bins, err := findBinaries()
	if err != nil {
		return err
	}
	r, err := newRunner()
	if err != nil {
		return err
	}
	return c.stop(ctx, r, bins)
}

// stop stops the server if it runs.
func (c *Cluster) stop(ctx context.Context, r *runner, bins *binaries) error {
	if !c.running(ctx, r, bins) {
		return nil
	}
	logStart := fileSize(c.logPath())
	out, err := r.run(ctx, c.base(), false, bins.pgCtl, "stop", "-D", c.DataDir, "-m", "fast", "-w", "-t", waitSeconds, "-s")
	if err != nil && c.running(ctx, r, bins) {
		return fmt.Errorf("pg_ctl stop -D %s failed (%v): %s\nlast lines of %s:\n%s",
			c.DataDir, err, out, c.logPath(), tailFile(c.logPath(), logStart, 20))
	}
	return nil
}

// Destroy stops the server and removes the data directory, the server log
// and the state file, and then the state directory if nothing else is left
// in it.
func (c *Cluster) Destroy(ctx context.Context) error {
	if c.Dir != "" {
		if unlock, err := lockDir(ctx, c.Dir); err == nil {
			defer unlock()
		}
	}
	if err := c.Stop(ctx); err != nil {
		return err
	}
	if c.DataDir != "" {
		if !isDataDir(c.DataDir) && !isEmptyDir(c.DataDir) {
			return fmt.Errorf("refusing to remove %s: not a PostgreSQL data directory", c.DataDir)
		}
		if err := os.RemoveAll(c.DataDir); err != nil {
			return err
		}
		if err := removeIfExists(c.logPath()); err != nil {
			return err
		}
		if sock := socketDir(c.DataDir); sock != c.DataDir {
			if err := os.RemoveAll(sock); err != nil {
				return err
			}
		}
		if base := c.base(); base != c.Dir && strings.HasPrefix(filepath.Base(base), relocatedPrefix) {
			if err := os.RemoveAll(base); err != nil {
				return err
			}
		}
	}
	if c.Dir != "" {
		if err := removeIfExists(filepath.Join(c.Dir, stateFile)); err != nil {
			return err
		}
		os.Remove(c.Dir) // only if empty
	}
	return nil
}

// removeIfExists removes the file at path, if there is one.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// touchOwned creates the file at path if needed, with mode 0600 and owned by
// the user PostgreSQL runs as, leaving its content alone.
func (r *runner) touchOwned(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return r.chown(path)
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port on 127.0.0.1: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// portFree reports whether port on 127.0.0.1 is free.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
