// Package verify is the answer check of gqlbench: a response is correct when
// its HTTP status is 200, it carries no GraphQL errors, and its data equals
// the oracle's answer (DESIGN §3.4). Answers are compared by the hash of
// their canonical JSON (Canonical, Hash), so a queries file can carry the
// expected answer of every instance as one short string (the "expect" field
// that `gqlbench queries --expect` writes) and the load generator checks a
// response without holding any answer in memory.
//
// The package depends on the standard library only: the load generator
// uses it, and must share no code path with the servers or databases it
// measures (a test enforces it).
package verify
