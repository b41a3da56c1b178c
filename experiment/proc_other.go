//go:build unix && !linux

package experiment

import (
	"os"
	"syscall"
)

// serverProcAttr puts a server in a process group of its own, so that a
// Ctrl-C on the terminal reaches this process alone.
func serverProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// terminate asks p to shut down gracefully.
func terminate(p *os.Process) { p.Signal(syscall.SIGTERM) }

// killGroup kills the process group that pid leads.
func killGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }
