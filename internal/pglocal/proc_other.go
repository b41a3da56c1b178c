//go:build !unix

package pglocal

import (
	"context"
	"io/fs"
	"syscall"
)

// sysProcAttr returns the process attributes for a PostgreSQL binary.
func (r *runner) sysProcAttr(detach bool) *syscall.SysProcAttr { return nil }

// fileOwner returns the uid owning fi, unknown on this system.
func fileOwner(fi fs.FileInfo) (int, bool) { return 0, false }

// traversable reports whether a user may enter path; always true here, as
// only Unix runs PostgreSQL as another user.
func traversable(path string, uid, gid int) bool { return true }

// lockDir does not lock on this system.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) { return func() {}, nil }
