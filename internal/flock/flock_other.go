//go:build !unix

// Package flock takes an exclusive lock on a file, across processes.
package flock

// Lock does nothing where there is no flock: processes that install at the
// same moment may then run npm together.
func Lock(string) (unlock func(), err error) { return func() {}, nil }
