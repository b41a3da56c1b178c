package all_test

import (
	"testing"

	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
)

// TestMain runs the tests through pgtest, which starts (once) and removes a
// throwaway PostgreSQL cluster for the tests that need one.
func TestMain(m *testing.M) { pgtest.Main(m) }
