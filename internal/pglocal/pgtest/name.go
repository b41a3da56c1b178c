package pgtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// calls counts the databases made so far for each test name.
var (
	callsMu sync.Mutex
	calls   = map[string]int{}
)

// dbName returns the name of a new database for t: "t_", the test's name
// made safe (at most 40 bytes), and a hash of the package directory, the
// full test name and how many databases t made before. The same test gets
// the same names on every run, so that a run drops what a failed run left.
func dbName(t testing.TB) string {
	callsMu.Lock()
	n := calls[t.Name()]
	calls[t.Name()]++
	callsMu.Unlock()
	wd, _ := os.Getwd()
	return nameFor(wd, t.Name(), n)
}

// nameFor returns the name of database number n of test name in package
// directory dir.
func nameFor(dir, name string, n int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", dir, name, n))
	return "t_" + slug(name, 40) + "_" + hex.EncodeToString(sum[:4])
}

// slug lowercases s and turns each run of other characters than a-z and 0-9
// into one underscore, keeping at most max bytes.
func slug(s string, max int) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_")
	if len(out) > max {
		out = strings.TrimRight(out[:max], "_")
	}
	return out
}
