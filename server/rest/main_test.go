package rest

import (
	"os"
	"testing"
)

// testTempDir holds the tests' database, removed when they end.
var testTempDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gqlbench-rest-")
	if err != nil {
		panic(err)
	}
	testTempDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
