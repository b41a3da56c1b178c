//go:build !linux

package cli

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/gqlbench/gqlbench/server"
)

// execProgram runs prog as a child and waits for it, passing on Ctrl-C and
// SIGTERM: where there is no execve to keep the PID.
func execProgram(prog *server.Program) error {
	cmd := programCmd(prog)
	if err := cmd.Start(); err != nil {
		return err
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		for s := range sig {
			cmd.Process.Signal(s)
		}
	}()
	return cmd.Wait()
}

// programCmd is prog as an exec.Cmd with this process's stdio.
func programCmd(prog *server.Program) *exec.Cmd {
	cmd := exec.Command(prog.Path, prog.Args...)
	cmd.Dir = prog.Dir
	cmd.Env = append(os.Environ(), prog.Env...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd
}
