package pglocal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"time"
)

// pgUser is the system user that PostgreSQL runs as when this process runs as
// root. A variable so that tests can name a user that does not exist.
var pgUser = "postgres"

// runner runs PostgreSQL binaries: as the current user, or as pgUser when the
// current user is root, because PostgreSQL refuses to run as root.
type runner struct {
	uid, gid int      // the user to run as; -1 when not root
	groups   []uint32 // its supplementary groups
	home     string   // its home directory
}

// newRunner returns a runner for the current user.
func newRunner() (*runner, error) {
	if os.Geteuid() != 0 {
		return &runner{uid: -1, gid: -1}, nil
	}
	u, err := user.Lookup(pgUser)
	if err != nil {
		return nil, fmt.Errorf("running as root, which PostgreSQL refuses, and there is no %q system user to run it as (%v): "+
			"create it (useradd --system --home-dir /var/lib/postgresql %s), run gqlbench as an ordinary user, or pass --db postgres://...",
			pgUser, err, pgUser)
	}
	r := &runner{home: u.HomeDir}
	if r.uid, err = strconv.Atoi(u.Uid); err == nil {
		r.gid, err = strconv.Atoi(u.Gid)
	}
	if err != nil {
		return nil, fmt.Errorf("user %s: unusable uid/gid %s/%s", pgUser, u.Uid, u.Gid)
	}
	gids, _ := u.GroupIds()
	for _, g := range gids {
		if n, err := strconv.ParseUint(g, 10, 32); err == nil {
			r.groups = append(r.groups, uint32(n))
		}
	}
	return r, nil
}

// asRoot reports whether binaries run as pgUser because this process is root.
func (r *runner) asRoot() bool { return r.uid >= 0 }

// ownerUID returns the uid that PostgreSQL's files must belong to.
func (r *runner) ownerUID() int {
	if r.asRoot() {
		return r.uid
	}
	return os.Geteuid()
}

// command returns a command that runs bin in dir as the right user. With
// detach, it runs in a session of its own, so that a server started through
// it outlives this process and ignores its terminal's signals.
func (r *runner) command(ctx context.Context, dir string, detach bool, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = r.env()
	cmd.WaitDelay = 5 * time.Second
	cmd.SysProcAttr = r.sysProcAttr(detach)
	return cmd
}

// run runs bin and returns its combined output.
func (r *runner) run(ctx context.Context, dir string, detach bool, bin string, args ...string) (string, error) {
	out, err := r.command(ctx, dir, detach, bin, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// env returns the environment for PostgreSQL binaries: ours without the PG*
// variables, which could point them elsewhere (PGDATA, PGPORT, ...), and with
// HOME and USER of pgUser when running as root.
func (r *runner) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PG") {
			continue
		}
		if r.asRoot() && (strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "USER=") || strings.HasPrefix(kv, "LOGNAME=")) {
			continue
		}
		env = append(env, kv)
	}
	if r.asRoot() {
		env = append(env, "HOME="+r.home, "USER="+pgUser, "LOGNAME="+pgUser)
	}
	return env
}

// chown gives path to pgUser when running as root.
func (r *runner) chown(path string) error {
	if !r.asRoot() {
		return nil
	}
	return os.Chown(path, r.uid, r.gid)
}

// mkdirOwned creates dir with mode 0700, owned by the user PostgreSQL runs
// as. If dir exists, it must be a directory owned by that user.
func (r *runner) mkdirOwned(dir string) error {
	err := os.Mkdir(dir, 0o700)
	if err == nil {
		return r.chown(dir)
	}
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory: remove it", dir)
	}
	if uid, ok := fileOwner(fi); ok && uid != r.ownerUID() {
		return fmt.Errorf("%s belongs to uid %d, not to the user PostgreSQL runs as (uid %d): remove it", dir, uid, r.ownerUID())
	}
	return nil
}

// createOwned creates (or truncates) the file path with mode 0600 and
// content, owned by the user PostgreSQL runs as.
func (r *runner) createOwned(path, content string) error {
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return err
	}
	return r.chown(path)
}
