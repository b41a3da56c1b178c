//go:build unix

package pglocal

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// sysProcAttr returns the process attributes for a PostgreSQL binary.
func (r *runner) sysProcAttr(detach bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setsid: detach}
	if r.asRoot() {
		a.Credential = &syscall.Credential{Uid: uint32(r.uid), Gid: uint32(r.gid), Groups: r.groups}
	}
	return a
}

// fileOwner returns the uid owning fi.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// traversable reports whether the user uid with primary group gid may enter
// path: every existing directory from / down to path must grant it search
// permission. Directories that do not exist yet are taken to be enterable, as
// the caller creates them so. Supplementary groups and ACLs are ignored,
// which errs on the side of "no".
func traversable(path string, uid, gid int) bool {
	for p := path; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil:
			st, ok := fi.Sys().(*syscall.Stat_t)
			if !ok {
				return false
			}
			perm := fi.Mode().Perm()
			var bit fs.FileMode = 0o001
			if int(st.Uid) == uid {
				bit = 0o100
			} else if int(st.Gid) == gid {
				bit = 0o010
			}
			if !fi.IsDir() || perm&bit == 0 {
				return false
			}
		case !errors.Is(err, fs.ErrNotExist):
			return false
		}
		if p == filepath.Dir(p) {
			return true
		}
	}
}

// lockDir takes an exclusive lock on the directory dir, waiting for it as
// long as ctx allows, so that processes starting the same cluster take
// turns. The returned function releases it.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, context.Cause(ctx)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
