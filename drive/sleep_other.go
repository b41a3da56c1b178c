//go:build !linux

package drive

import "time"

// fineSleep is nil where no nanosecond sleep is at hand: timers alone pace
// the sends (see sleep_linux.go).
var fineSleep func(time.Duration)
