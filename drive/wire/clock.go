package wire

import "time"

// clock reads the time of one connection's exchanges with one read of the
// monotonic clock, where time.Now makes two, the wall clock's and the
// monotonic clock's (each some tens of nanoseconds on a virtual machine,
// and an exchange takes four readings). A reading is the clock's epoch, a
// time.Now taken when the connection was made, plus the monotonic time
// elapsed since: its monotonic part is the one time.Now would give, and
// its wall part follows the epoch's (a wall clock set meanwhile is not
// seen; the readings are only subtracted from one another). Under
// testing/synctest, time.Since reads the bubble's clock, and so do the
// readings.
type clock struct{ epoch time.Time }

// reset makes the clock's epoch now.
func (k *clock) reset() { k.epoch = time.Now() }

// now returns the time.
func (k *clock) now() time.Time { return k.epoch.Add(time.Since(k.epoch)) }
