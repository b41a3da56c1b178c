//go:build unix

package nodetest

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on the file at path (created if need be),
// waiting for it: test binaries of several packages run at once and must not
// run npm ci together. The returned function releases it.
func lock(path string) (unlock func(), err error) {
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
