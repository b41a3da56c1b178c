package measure

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTicks is USER_HZ, the unit of CPU times in /proc/PID/stat: 100 on
// every Linux architecture gqlbench runs on (it is fixed by the kernel ABI,
// not by CONFIG_HZ).
const clockTicks = 100

// Proc samples one process's CPU use and resident memory from /proc.
type Proc struct {
	PID  int
	Name string // the process's command name (/proc/PID/comm)

	lastCPU  int64 // utime+stime, clock ticks
	lastWall time.Time
	primed   bool
}

// ProcSample is one sample of a process.
type ProcSample struct {
	CPUPercent float64 // CPU time over wall time since the previous sample; 100 = one core
	RSSBytes   int64   // resident set size
	Gone       bool    // the process no longer exists
}

// NewProc returns a sampler of process pid; it fails if the process does not
// exist or /proc cannot be read.
func NewProc(pid int) (*Proc, error) {
	p := &Proc{PID: pid}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return nil, fmt.Errorf("cannot watch process %d: %w", pid, err)
	}
	p.Name = string(bytes.TrimSpace(comm))
	p.Sample() // the first CPU % is relative to now
	return p, nil
}

// Sample reads the process's counters now. CPUPercent is relative to the
// previous Sample (0 on the first).
func (p *Proc) Sample() ProcSample {
	now := time.Now()
	cpu, err := procCPU(p.PID)
	if err != nil {
		return ProcSample{Gone: true}
	}
	rss, _ := procRSS(p.PID)
	s := ProcSample{RSSBytes: rss}
	if p.primed {
		if wall := now.Sub(p.lastWall).Seconds(); wall > 0 {
			s.CPUPercent = float64(cpu-p.lastCPU) / clockTicks / wall * 100
		}
	}
	p.lastCPU, p.lastWall, p.primed = cpu, now, true
	return s
}

// procCPU returns utime+stime of pid in clock ticks.
func procCPU(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// count the fields after its closing parenthesis.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	ut, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	st, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	return ut + st, nil
}

// procRSS returns the resident set size of pid in bytes (/proc/PID/statm).
func procRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0, err
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/statm: unexpected format", pid)
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0, err
	}
	return pages * int64(os.Getpagesize()), nil
}
