package exitcode

import (
	"errors"
	"fmt"
	"testing"
)

// TestOf: every error has one exit class, read through wrapping; a usage
// error is one wherever it stands in the chain.
func TestOf(t *testing.T) {
	usage := Usagef("--clients: want at least 1, got %d", 0)
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, OK},
		{"plain", errors.New("connection refused"), Failure},
		{"usage", usage, Usage},
		{"usage wrapped", fmt.Errorf("load: %w", usage), Usage},
		{"usage wrapping an error", &UsageError{Err: errors.New("bad URL")}, Usage},
		{"check", With(Check, errors.New("3 wrong answers")), Check},
		{"check wrapped", fmt.Errorf("run 2: %w", With(Check, errors.New("x"))), Check},
		{"usage around a check", &UsageError{Err: With(Check, errors.New("x"))}, Usage},
	} {
		if got := Of(c.err); got != c.want {
			t.Errorf("%s: Of(%v) = %d, want %d", c.name, c.err, got, c.want)
		}
	}
	if got := usage.Error(); got != "--clients: want at least 1, got 0" {
		t.Errorf("Usagef's message %q", got)
	}
}
