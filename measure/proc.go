package measure

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of CPU times in /proc/PID/stat: 100 on
// every Linux architecture gqlbench runs on (it is fixed by the kernel ABI,
// not by CONFIG_HZ).
const clockTicks = 100

// Proc samples the CPU use and memory of a process, or of a process and
// every process under it (NewProcTree), from /proc. A database is a tree of
// processes — PostgreSQL runs each connection in a backend forked by the
// postmaster, and the backends do the work — so watching the postmaster
// alone would say the database costs nothing. A Go server is a tree of one.
//
// A tree's CPU is utime+stime+cutime+cstime summed over it: a descendant that
// exits and is reaped moves its time into its parent's cutime, so nothing is
// lost or counted twice between two samples. Memory is the resident set of a
// lone process; for a tree it is the sum of the processes' proportional set
// sizes (PSS), so memory the processes share (PostgreSQL's shared buffers)
// counts once, not once per backend.
type Proc struct {
	PID  int
	Name string // the process's command name (/proc/PID/comm)
	Tree bool   // the process with its descendants
	// Runtime, when set, is the process's Go runtime metrics endpoint,
	// scraped with every Sample (ProcSample.Runtime).
	Runtime *Runtime

	lastCPU  int64 // summed over the tree, clock ticks
	lastWall time.Time
	primed   bool
}

// ProcSample is one sample of a process tree.
type ProcSample struct {
	CPUPercent float64 // CPU time over wall time since the previous sample; 100 = one core
	RSSBytes   int64   // resident memory: RSS of a lone process, summed PSS of a tree
	Processes  int     // processes in the tree (1: the process alone)
	Gone       bool    // the process no longer exists
	// Runtime is the Go runtime's own reading (Proc.Runtime), or nil.
	Runtime *RuntimeSample
}

// NewProc returns a sampler of process pid alone (its utime+stime); it fails
// if the process does not exist or /proc cannot be read. The load generator
// samples itself so: in an experiment the servers are its children.
func NewProc(pid int) (*Proc, error) { return newProc(pid, false) }

// NewProcTree returns a sampler of process pid and its descendants, what
// --watch-pid samples.
func NewProcTree(pid int) (*Proc, error) { return newProc(pid, true) }

func newProc(pid int, tree bool) (*Proc, error) {
	p := &Proc{PID: pid, Tree: tree}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return nil, fmt.Errorf("cannot watch process %d: %w", pid, err)
	}
	p.Name = string(bytes.TrimSpace(comm))
	p.Sample() // the first CPU % is relative to now
	return p, nil
}

// Sample reads the tree's counters now. CPUPercent is relative to the
// previous Sample (0 on the first).
func (p *Proc) Sample() ProcSample {
	now := time.Now()
	root, err := procCPU(p.PID, p.Tree)
	if err != nil {
		return ProcSample{Gone: true}
	}
	var tree []int
	if p.Tree {
		tree = descendants(p.PID)
	}
	cpu := root
	for _, pid := range tree {
		if c, err := procCPU(pid, true); err == nil { // it may have exited meanwhile
			cpu += c
		}
	}
	s := ProcSample{Processes: 1 + len(tree)}
	if len(tree) == 0 {
		s.RSSBytes, _ = procRSS(p.PID)
	} else {
		for _, pid := range append([]int{p.PID}, tree...) {
			m, err := procPSS(pid)
			if err != nil {
				m, _ = procRSS(pid)
			}
			s.RSSBytes += m
		}
	}
	if p.primed {
		if wall := now.Sub(p.lastWall).Seconds(); wall > 0 {
			// A descendant that exited between two samples takes its time with
			// it until its parent reaps it: never report less than nothing.
			s.CPUPercent = max(0, float64(cpu-p.lastCPU)/clockTicks/wall*100)
		}
	}
	p.lastCPU, p.lastWall, p.primed = cpu, now, true
	if p.Runtime != nil {
		rs := p.Runtime.Sample(context.Background())
		s.Runtime = &rs
	}
	return s
}

// descendants returns the pids of every process under pid, from the
// children lists of its threads (/proc/PID/task/TID/children).
func descendants(pid int) []int {
	var out []int
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", p))
		if err != nil {
			continue
		}
		for _, t := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", p, t.Name()))
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				c, err := strconv.Atoi(f)
				if err != nil || seen[c] {
					continue
				}
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// procCPU returns utime+stime of pid in clock ticks, plus cutime+cstime
// (its reaped children's) with children.
func procCPU(pid int, children bool) (int64, error) {
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
	// f[0] is field 3 (state); utime, stime, cutime and cstime are fields 14–17.
	if len(f) < 15 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	fields := f[11:13]
	if children {
		fields = f[11:15]
	}
	var sum int64
	for _, x := range fields {
		v, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
		}
		sum += v
	}
	return sum, nil
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

// procPSS returns the proportional set size of pid in bytes
// (/proc/PID/smaps_rollup): its private memory plus its share of the memory
// it shares with other processes.
func procPSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("Pss:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 2 && string(f[1]) == "kB" {
				kb, err := strconv.ParseInt(string(f[0]), 10, 64)
				if err == nil {
					return kb << 10, nil
				}
			}
			break
		}
	}
	return 0, fmt.Errorf("/proc/%d/smaps_rollup: no Pss line", pid)
}
