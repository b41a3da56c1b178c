package cli

import (
	"fmt"
	"os"
	"syscall"

	"github.com/gqlbench/gqlbench/server"
)

// execProgram replaces this process with prog (execve): same PID, same CPU
// affinity, the signals sent to gqlbench reach the server.
func execProgram(prog *server.Program) error {
	if err := os.Chdir(prog.Dir); err != nil {
		return err
	}
	argv := append([]string{prog.Path}, prog.Args...)
	err := syscall.Exec(prog.Path, argv, append(os.Environ(), prog.Env...))
	return fmt.Errorf("exec %s: %w", prog.Path, err)
}
