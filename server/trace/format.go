package trace

import "time"

// AppendMillis appends d in milliseconds with decimals decimals (0 to 6;
// the last one rounded), as a Server-Timing dur, without floating point:
// it is on every traced response's path. A negative d is 0.
func AppendMillis(b []byte, d time.Duration, decimals int) []byte {
	if decimals == 3 { // the GraphQL servers' precision, made short
		us := (uint64(max(d, 0)) + 500) / 1000
		b = appendUint(b, us/1000)
		frac := us % 1000
		r := frac % 100 * 2
		return append(b, '.', '0'+byte(frac/100), smalls[r], smalls[r+1])
	}
	decimals = min(max(decimals, 0), 6)
	unit := pow10[6-decimals] // nanoseconds per last digit
	n := (uint64(max(d, 0)) + unit/2) / unit
	scale := pow10[decimals]
	b = appendUint(b, n/scale)
	if decimals == 0 {
		return b
	}
	// The fraction with a leading 1, so that its zeros are written; the
	// 1 becomes the point.
	at := len(b)
	b = appendUint(b, n%scale+scale)
	b[at] = '.'
	return b
}

var pow10 = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000}

// smalls is "00" to "99", two digits at a time.
const smalls = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" +
	"60616263646566676869" + "70717273747576777879" + "80818283848586878889" +
	"90919293949596979899"

// AppendUint appends v in decimal (a negative v as 0), as
// strconv.AppendInt does for a non-negative one.
func AppendUint(b []byte, v int64) []byte { return appendUint(b, uint64(max(v, 0))) }

// appendUint appends u in decimal, two digits at a time from the last,
// in a buffer on the stack.
func appendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, '0'+byte(u))
	}
	var a [20]byte
	i := len(a)
	for u >= 100 {
		r := u % 100 * 2
		u /= 100
		i -= 2
		a[i], a[i+1] = smalls[r], smalls[r+1]
	}
	if u >= 10 {
		i -= 2
		a[i], a[i+1] = smalls[2*u], smalls[2*u+1]
	} else {
		i--
		a[i] = '0' + byte(u)
	}
	return append(b, a[i:]...)
}
