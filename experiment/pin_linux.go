package experiment

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// cpuSet is a CPU affinity mask of up to 1024 CPUs, as sched_setaffinity(2)
// takes it.
type cpuSet [16]uint64

func (s *cpuSet) set(cpu int)      { s[cpu/64] |= 1 << (cpu % 64) }
func (s *cpuSet) has(cpu int) bool { return s[cpu/64]&(1<<(cpu%64)) != 0 }

// cpus lists the CPUs in s.
func (s *cpuSet) cpus() []int {
	var out []int
	for c := range len(s) * 64 {
		if s.has(c) {
			out = append(out, c)
		}
	}
	return out
}

func only(cpu int) *cpuSet {
	var s cpuSet
	s.set(cpu)
	return &s
}

// getAffinity returns the affinity mask of thread tid (0: the calling thread).
func getAffinity(tid int) (*cpuSet, error) {
	var s cpuSet
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, uintptr(tid), unsafe.Sizeof(s), uintptr(unsafe.Pointer(&s)))
	if e != 0 {
		return nil, e
	}
	return &s, nil
}

// setAffinity sets the affinity mask of thread tid (0: the calling thread).
func setAffinity(tid int, s *cpuSet) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(*s), uintptr(unsafe.Pointer(s)))
	if e != 0 {
		return e
	}
	return nil
}

// usableCPUs lists the CPUs this process may run on.
func usableCPUs() []int {
	s, err := getAffinity(0)
	if err != nil {
		return nil
	}
	return s.cpus()
}

// pinProcess sets the affinity of every thread of process pid (this
// process when 0) to s. Threads started meanwhile inherit their creator's
// mask, so a second pass catches the ones the first one missed.
func pinProcess(pid int, s *cpuSet) error {
	dir := "/proc/self/task"
	if pid != 0 {
		dir = "/proc/" + strconv.Itoa(pid) + "/task"
	}
	done := map[int]bool{}
	for pass := 0; pass < 3; pass++ {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		fresh := false
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || done[tid] {
				continue
			}
			fresh = true
			if err := setAffinity(tid, s); err != nil && err != syscall.ESRCH {
				return fmt.Errorf("pinning thread %d of %s: %w", tid, dir, err)
			}
			done[tid] = true
		}
		if !fresh {
			return nil
		}
	}
	return nil
}

// startOn starts cmd with its affinity set to cpu from its first
// instruction: the child of fork inherits the forking thread's mask, so the
// fork happens on a thread locked to a goroutine of its own and pinned for
// the time of the call. Should the thread's mask not come back, the thread
// ends with its goroutine instead of returning to the scheduler pinned.
func startOn(cmd *exec.Cmd, cpu int) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		old, err := getAffinity(0)
		if err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("reading the CPU affinity: %w", err)
			return
		}
		if err := setAffinity(0, only(cpu)); err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("pinning to CPU %d: %w", cpu, err)
			return
		}
		err = cmd.Start()
		if rerr := setAffinity(0, old); rerr != nil {
			// Left locked: the thread exits with this goroutine, and
			// the child's parent-death signal with it, so say so.
			if err == nil {
				cmd.Process.Kill()
				cmd.Wait()
				err = fmt.Errorf("restoring the CPU affinity after starting %s: %w", cmd.Path, rerr)
			}
			done <- err
			return
		}
		runtime.UnlockOSThread()
		done <- err
	}()
	return <-done
}

// processCPUs reports the CPUs process pid may run on, as the kernel says.
func processCPUs(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return ""
	}
	return statusField(string(b), "Cpus_allowed_list")
}
