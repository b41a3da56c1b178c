package measure

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProcSelf(t *testing.T) {
	p, err := NewProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := range 20_000_000 {
		x += i
	}
	_ = x
	s := p.Sample()
	if s.Gone || s.RSSBytes <= 0 || s.CPUPercent < 0 || p.Name == "" {
		t.Errorf("sample %+v of %q", s, p.Name)
	}
	if _, err := NewProc(1 << 30); err == nil {
		t.Error("a process that does not exist can be watched")
	}
}

// TestProcTree watches a shell whose children burn CPU: their time counts
// while they run (the shell's own is nil) and still counts once they have
// exited and been reaped (it moves into the shell's cutime).
func TestProcTree(t *testing.T) {
	burn := `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done`
	cmd := exec.Command("sh", "-c", "("+burn+") & ("+burn+") & wait; read x")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	p, err := NewProcTree(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := NewProc(cmd.Process.Pid) // the shell without its children
	if err != nil {
		t.Fatal(err)
	}
	sawTree := false
	var ticks float64 // CPU %·s, summed over samples
	last := time.Now()
	start := last
	for {
		time.Sleep(20 * time.Millisecond)
		s := p.Sample()
		if s.Gone {
			t.Fatal("the shell is gone")
		}
		now := time.Now()
		ticks += s.CPUPercent * now.Sub(last).Seconds()
		last = now
		if s.Processes >= 3 {
			sawTree = true
		}
		if s.RSSBytes <= 0 {
			t.Fatalf("sample %+v has no memory", s)
		}
		if a := alone.Sample(); a.Processes != 1 {
			t.Fatalf("the shell alone is sampled as %d processes", a.Processes)
		}
		// Both children have exited and been reaped — after they were seen:
		// on a busy machine the first sample can come before the shell forks.
		if s.Processes == 1 && (sawTree || time.Since(start) > time.Minute) {
			break
		}
	}
	if !sawTree {
		t.Error("the shell's children were never counted as part of its tree")
	}
	own, err := selfTicks(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	all, err := procCPU(cmd.Process.Pid, true)
	if err != nil {
		t.Fatal(err)
	}
	if all-own <= 0 {
		t.Fatalf("the children's CPU time (%d ticks) is not in the shell's cutime+cstime", all-own)
	}
	if ticks <= 0 {
		t.Error("no sample saw the children's CPU use")
	}
	// Alone, the shell counts its own time only, not its reaped children's.
	if a, _ := procCPU(cmd.Process.Pid, false); a != own {
		t.Errorf("the shell alone: %d ticks, its utime+stime %d", a, own)
	}
}

// selfTicks returns utime+stime of pid alone.
func selfTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s, nil
}

// TestProcAlone: a process sampled alone does not count its children — the
// load generator of an experiment is the servers' parent, and its own CPU
// must not include theirs.
func TestProcAlone(t *testing.T) {
	self, err := NewProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	before, _ := procCPU(os.Getpid(), false)
	cmd := exec.Command("sh", "-c", `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done`)
	if err := cmd.Run(); err != nil { // run and reaped: its time is in our cutime
		t.Fatal(err)
	}
	child := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	mine, _ := procCPU(os.Getpid(), false)
	withChildren, _ := procCPU(os.Getpid(), true)
	if withChildren-mine <= 0 || child <= 0 {
		t.Fatalf("the child used %v, our cutime+cstime is %d ticks", child, withChildren-mine)
	}
	if s := self.Sample(); s.Processes != 1 || s.Gone {
		t.Errorf("sample %+v", s)
	}
	// Our own time grew by what this goroutine did, not by the child's
	// whole run (which the tree's figure holds).
	if mine-before >= withChildren-before {
		t.Errorf("alone %d ticks, with children %d", mine-before, withChildren-before)
	}
}
