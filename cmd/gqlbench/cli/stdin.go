package cli

import (
	"fmt"

	"github.com/gqlbench/gqlbench/runfile"
)

// stdinArg is the file name that means standard input, so that commands
// compose through a pipe: gqlbench load ... | gqlbench report -.
const stdinArg = "-"

// stdinName is what a file read from standard input is called in reports
// and errors.
const stdinName = "stdin"

// stdinOnce is a usage error when standard input is named more than once
// among names: it can be read only once.
func stdinOnce(names ...string) error {
	n := 0
	for _, name := range names {
		if name == stdinArg {
			n++
		}
	}
	if n > 1 {
		return usagef("standard input (-) is named %d times: it can be read once", n)
	}
	return nil
}

// readRunFile reads the run file name, or standard input when name is -.
func readRunFile(env Env, name string) (*runfile.File, error) {
	if name != stdinArg {
		return runfile.ReadFile(name)
	}
	if env.Stdin == nil {
		return nil, fmt.Errorf("%s: no standard input", stdinName)
	}
	f, err := runfile.Read(env.Stdin)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stdinName, err)
	}
	return f, nil
}
