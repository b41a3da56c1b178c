// Package exitcode is the one home of gqlbench's exit classes: the process
// exit codes of the gqlbench command, and the errors that carry them. An
// error says its class with an ExitCode method (a *UsageError, drive's
// CheckError, an error made by With); Of reads it, and any other error is a
// Failure.
//
// It imports only the standard library, so that every package, from the
// load generator to the command line, can say what class its errors are;
// it must import nothing of gqlbench.
package exitcode

import (
	"errors"
	"fmt"
)

// The exit codes, documented in `gqlbench help` and the README.
const (
	OK      = 0 // success
	Failure = 1 // the command failed (bad data, unreachable server, I/O error, interrupted)
	Usage   = 2 // the command line, or a job or experiment it sets up, is wrong
	Check   = 3 // the command ran, and a check failed: wrong answers, errors, a broken SLO
)

// Coder is an error that carries its own exit code.
type Coder interface{ ExitCode() int }

// UsageError says that what was asked is set up wrongly — a flag's value,
// flags that do not go together, a target that is no URL, parameters a mode
// rejects — found before anything ran. Its message names what is wrong.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is Usage.
func (e *UsageError) ExitCode() int { return Usage }

// Usagef makes a *UsageError with a formatted message (fmt.Errorf's: %w
// wraps).
func Usagef(format string, a ...any) error {
	return &UsageError{fmt.Errorf(format, a...)}
}

// With returns err carrying the exit code code.
func With(code int, err error) error { return codeError{code, err} }

// codeError is an error with an exit code of its own (With).
type codeError struct {
	code int
	err  error
}

func (e codeError) Error() string { return e.err.Error() }
func (e codeError) Unwrap() error { return e.err }
func (e codeError) ExitCode() int { return e.code }

// Of is the exit code of err: OK for nil, Usage for an error that wraps a
// *UsageError, the code of the first Coder in its chain, Failure for any
// other.
func Of(err error) int {
	if err == nil {
		return OK
	}
	if errors.As(err, new(*UsageError)) {
		return Usage
	}
	var c Coder
	if errors.As(err, &c) {
		return c.ExitCode()
	}
	return Failure
}
