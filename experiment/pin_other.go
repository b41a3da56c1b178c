//go:build !linux

package experiment

import (
	"errors"
	"os/exec"
)

type cpuSet struct{}

func only(int) *cpuSet { return nil }

// usableCPUs is nil: pinning is implemented on Linux only.
func usableCPUs() []int { return nil }

func pinProcess(int, *cpuSet) error { return errors.New("CPU pinning is implemented on Linux only") }

func getAffinity(int) (*cpuSet, error) {
	return nil, errors.New("CPU pinning is implemented on Linux only")
}

func startOn(cmd *exec.Cmd, _ int) error { return cmd.Start() }

func processCPUs(int) string { return "" }
