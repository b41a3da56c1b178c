//go:build !unix

package nodetest

// lock does nothing where there is no flock: test binaries that install the
// fixtures at the same moment may then run npm ci together.
func lock(string) (unlock func(), err error) { return func() {}, nil }
