package experiment

import (
	"os"
	"syscall"
)

func serverProcAttr() *syscall.SysProcAttr { return nil }

// terminate ends p: Windows has no SIGTERM to send.
func terminate(p *os.Process) { p.Kill() }

func killGroup(int) {}
