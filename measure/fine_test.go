package measure

import (
	"os"
	"syscall"
	"testing"
)

// TestFineProc: the CPU time a fine sample reports is the process's own,
// to the nanosecond rather than the 10 ms tick (the kernel's rusage, at
// microseconds, says the same within a factor), and a process that is
// gone says so.
func TestFineProc(t *testing.T) {
	p, err := NewFineProc(os.Getpid(), false)
	if err != nil {
		t.Fatal(err)
	}
	usage := func() int64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return ru.Utime.Nano() + ru.Stime.Nano()
	}
	if cpu, rss, ok := p.Sample(); !ok || cpu != 0 || rss <= 0 {
		t.Fatalf("first sample: %d ns, %d bytes, %v", cpu, rss, ok)
	}
	before := usage()
	x := 0
	for i := range 30_000_000 {
		x += i % 7
	}
	_ = x
	cpu, _, ok := p.Sample()
	used := usage() - before
	if !ok || cpu < used/2 || cpu > 2*used+5e6 {
		t.Errorf("fine sample: %d ns of CPU; rusage says %d", cpu, used)
	}
	if _, err := NewFineProc(1<<30, false); err == nil {
		t.Error("a process that does not exist can be sampled")
	}
}
