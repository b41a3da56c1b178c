package measure

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// FineProc samples a process (and its descendants) often — every 10 ms, as
// seed 001 samples its servers — where Proc's clock ticks would not do:
// /proc/PID/stat counts CPU time in 10 ms ticks, so over 10 ms it says 0 %
// or 100 %. FineProc reads every thread's run time in nanoseconds from
// /proc/PID/task/TID/schedstat, and the resident set from
// /proc/PID/statm (RSS summed over a tree: the PSS Proc reports walks the
// page tables, too slow to read a hundred times a second). The
// descendants of a tree are listed again every Refresh samples.
type FineProc struct {
	PID     int
	Tree    bool
	Refresh int // samples between two listings of the descendants (default 100)

	pids    []int
	n       int
	lastCPU int64
	primed  bool
}

// NewFineProc returns a fine sampler of pid (with its descendants when
// tree); it fails if the process cannot be read.
func NewFineProc(pid int, tree bool) (*FineProc, error) {
	p := &FineProc{PID: pid, Tree: tree, Refresh: 100}
	if _, err := threadsCPU(pid); err != nil {
		return nil, fmt.Errorf("cannot sample process %d: %w", pid, err)
	}
	return p, nil
}

// Sample returns the CPU time the processes ran since the previous Sample
// (0 on the first), in nanoseconds, and their resident memory now; ok is
// false when the process is gone.
func (p *FineProc) Sample() (cpuNS, rssBytes int64, ok bool) {
	if p.n%max(p.Refresh, 1) == 0 {
		p.pids = []int{p.PID}
		if p.Tree {
			p.pids = append(p.pids, descendants(p.PID)...)
		}
	}
	p.n++
	var cpu int64
	for i, pid := range p.pids {
		c, err := threadsCPU(pid)
		if err != nil {
			if i == 0 {
				return 0, 0, false
			}
			continue // a descendant that exited: its time goes with it
		}
		cpu += c
		if m, err := procRSS(pid); err == nil {
			rssBytes += m
		}
	}
	if p.primed {
		cpuNS = max(0, cpu-p.lastCPU)
	}
	p.lastCPU, p.primed = cpu, true
	return cpuNS, rssBytes, true
}

// threadsCPU sums the run time of pid's threads (schedstat's first field).
func threadsCPU(pid int) (int64, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		f, _, _ := bytes.Cut(b, []byte(" "))
		ns, err := strconv.ParseInt(string(f), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s/%s/schedstat: unexpected format", dir, t.Name())
		}
		sum += ns
	}
	return sum, nil
}
