package drive

import (
	"syscall"
	"time"
)

// fineSleep blocks the calling thread for d (at most a millisecond or so)
// with the kernel's nanosecond timer. The Go runtime's timers wake up to a
// millisecond late when the process waits on the network (it sleeps in
// epoll_wait, whose timeout is in milliseconds), which would make open-loop
// sends late by up to 1 ms and overstate every corrected latency by half of
// that on average. The runtime hands the thread's P to another thread
// meanwhile, so other goroutines keep running.
var fineSleep = func(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}
