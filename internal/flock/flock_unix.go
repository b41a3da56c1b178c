//go:build unix

// Package flock takes an exclusive lock on a file, across processes: test
// binaries and gqlbench processes that install npm packages at the same
// moment must not run npm together.
package flock

import (
	"os"
	"syscall"
)

// Lock takes an exclusive lock on the file at path (created if need be),
// waiting for it. The returned function releases it.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
