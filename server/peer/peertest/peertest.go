// Package peertest is what the tests of the servers of other stacks
// share: installing a peer's npm package, and a buffer for a server's
// output. It has no test files so that other packages' tests can import
// it; nothing outside tests should.
package peertest

import (
	"bytes"
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server/peer"
)

// Install returns p's install, installing it first if need be (into
// gqlbench's cache directory, once per machine). When it cannot be
// installed — no npm, no registry — the test skips and says why, except
// when CI is set: CI must run it (.ci/run has npm), so there it fails.
func Install(t testing.TB, p peer.Package) peer.Install {
	t.Helper()
	start := time.Now()
	var log Buffer
	in, err := peer.Ensure(context.Background(), p, &log)
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s cannot be installed here: %v", p.Name, err)
		}
		t.Fatalf("installing %s (CI is set, and CI must run this test: .ci/run installs npm): %v\n%s", p.Name, err, log.String())
	}
	if log.Len() > 0 {
		t.Logf("%s(%.1f s)", log.String(), time.Since(start).Seconds())
	}
	return in
}

// Buffer is a bytes.Buffer safe for the goroutine that copies a server's
// output and the test that reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Len is the number of bytes written so far.
func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}
